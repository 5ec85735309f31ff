"""``duelclock swiss``: Swiss chess — pairings, standings, checks (FIDE Dutch, FIDE tie-breaks, TRF).

The subcommands live in three modules: :mod:`clockd.cli.swiss_standings` (``standings``),
:mod:`clockd.cli.swiss_pairing` (``pair``, ``check``) and :mod:`clockd.cli.swiss_round`
(``new``, ``record``, ``absent``: the referee's round-by-round workflow).
"""

from __future__ import annotations

import argparse
from typing import Any

from clockd.cli import swiss_pairing, swiss_round, swiss_standings
from clockd.i18n import text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "swiss",
        help=text("cli.swiss.swiss-chess-pairings-standings-checks"),
        description=text("cli.swiss.swiss-chess-tournaments-in-fides"),
    )
    swiss_sub = parser.add_subparsers(dest="swiss_command", required=True, metavar="COMMAND")
    swiss_pairing.register(swiss_sub)
    swiss_standings.register(swiss_sub)
    swiss_round.register(swiss_sub)
