"""The Puzzle Duel: a knockout of timed puzzle duels on chess clocks, sign-ups to podium."""
