"""``duelclock start``: what ``make run`` runs — the system with simulated tables.

Until the GUI exists this runs ``duelclock demo``: a whole simulated Puzzle Duel session
through the real daemon, drivers and API, printed in the terminal (issue 6: "what
``make run`` shows where there is no display").
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "start",
        help="start the system with simulated tables (what `make run` does)",
        description="Start duelclock with simulated tables: a simulated Puzzle Duel session in the terminal.",
    )
    parser.add_argument("--speed", type=float, default=300.0, help="simulated seconds per real second")
    parser.add_argument("--seed", type=int, default=7, help="seed for the simulated players")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from clockd.cli import demo

    options = dict(speed=args.speed, seed=args.seed, json_out=None, players=16, tables=8, db=None)
    return demo.run(argparse.Namespace(**options))
