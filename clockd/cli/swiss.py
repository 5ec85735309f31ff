"""``duelclock swiss``: Swiss chess — pairings, standings, checks (FIDE Dutch, FIDE tie-breaks, TRF).

The subcommands live in three modules: :mod:`clockd.cli.swiss_standings` (``standings``),
:mod:`clockd.cli.swiss_pairing` (``pair``, ``check``) and :mod:`clockd.cli.swiss_round`
(``new``, ``record``, ``absent``: the referee's round-by-round workflow).
"""

from __future__ import annotations

import argparse
from typing import Any

from clockd.cli import swiss_pairing, swiss_round, swiss_standings
from clockd.i18n import tr


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "swiss",
        help=tr(
            pl="szachy systemem szwajcarskim: kojarzenie, klasyfikacja, sprawdzanie kojarzeń "
            "(system holenderski FIDE, TRF)",
            en="Swiss chess: pairings, standings, checks (FIDE Dutch, TRF)",
        ),
        description=tr(
            pl="Turnieje szachowe systemem szwajcarskim w formacie FIDE Tournament Report File (TRF).",
            en="Swiss chess tournaments in FIDE's Tournament Report File (TRF) format.",
        ),
    )
    swiss_sub = parser.add_subparsers(dest="swiss_command", required=True, metavar="COMMAND")
    swiss_pairing.register(swiss_sub)
    swiss_standings.register(swiss_sub)
    swiss_round.register(swiss_sub)
