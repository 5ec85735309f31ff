"""Simulated players: how long a person takes for one turn.

A puzzle-duel turn is "find a piece that fits, place it, press": a few seconds, sometimes
much longer. Think times are log-normal around a median (the usual shape of human
response times), drawn from a caller's ``random.Random`` so that a seed replays the same
duel. Times come out as integer nanoseconds, like everything else that is time.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

_NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class PlayerModel:
    """A player's pace: median think time and how much it varies (log-normal sigma)."""

    median_ms: int = 4_000
    sigma: float = 0.6
    min_ms: int = 150  # nobody places a piece and presses faster than this

    def think_ns(self, rng: random.Random) -> int:
        """One turn's duration in nanoseconds."""
        ms = max(self.min_ms, round(rng.lognormvariate(math.log(self.median_ms), self.sigma)))
        return ms * _NS_PER_MS


#: A steady player, a fast one and a slow one, for mixed simulated fields.
STEADY = PlayerModel()
FAST = PlayerModel(median_ms=2_500, sigma=0.4)
SLOW = PlayerModel(median_ms=6_000, sigma=0.7)
