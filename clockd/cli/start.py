"""``duelclock start``: what ``make run`` runs — the system with simulated tables.

Until the daemon and the GUI exist this plays one simulated puzzle duel on the clock
core, at accelerated time, and shows both clock faces in the terminal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from clockd.core import ClockState, Phase, Side, TimeControl, format_clock
from clockd.core.units import SECOND


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "start",
        help="start the system with simulated tables (what `make run` does)",
        description="Start duelclock with simulated tables: a simulated duel in the terminal.",
    )
    parser.add_argument("--speed", type=int, default=60, help="simulated seconds per real second")
    parser.add_argument("--seed", type=int, default=None, help="seed for the simulated players")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    control = TimeControl.sudden_death(3 * 60 * SECOND)
    state = ClockState.initial(control).start(0, Side.A)
    t = 0
    print(f"Symulowany pojedynek / simulated duel — {control}, x{args.speed}")
    while state.phase is not Phase.FLAGGED and state.moves.a + state.moves.b < 80:
        side = state.to_move
        assert side is not None
        think = int(rng.lognormvariate(1.2, 0.6) * SECOND)
        t += think
        state, _ = state.press(t, side)
        v = state.view(t)
        line = (
            f"A {format_clock(v.remaining_ns.a):>7}{' *' if v.running is Side.A else '  '}   "
            f"B {format_clock(v.remaining_ns.b):>7}{' *' if v.running is Side.B else '  '}   "
            f"ruchy/moves {v.moves.a}:{v.moves.b}"
        )
        print("\r" + line, end="", flush=True, file=sys.stdout)
        time.sleep(think / SECOND / max(1, args.speed))
    v = state.view(t)
    print()
    winner = "A" if v.remaining_ns.a > v.remaining_ns.b else "B"
    print(f"Koniec / end: A {format_clock(v.remaining_ns.a)}  B {format_clock(v.remaining_ns.b)} → {winner}")
    return 0
