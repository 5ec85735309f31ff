"""``duelclock chess``: the school chess day — registrations and payments, groups, the day in the daemon.

Each subcommand family lives in its own module with a ``register(sub)`` function:

* :mod:`clockd.cli.chess_registrations` — ``registrations``: forms + bank statements;
* :mod:`clockd.cli.chess_print` — ``print``: start lists, pairings, standings, crosstables,
  prize lists and diplomas as HTML/PDF;
* :mod:`clockd.cli.chess_day` — the groups as events of the running daemon.

The TRF-file tools of one group stay under ``duelclock swiss``.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from clockd.i18n import text

#: The modules that add subcommands, in the order ``--help`` lists them.
SUBCOMMAND_MODULES: tuple[str, ...] = ("chess_registrations", "chess_day", "chess_print")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "chess",
        help=text("cli.chess.help"),
        description=text("cli.chess.description"),
    )
    chess_sub = parser.add_subparsers(dest="chess_command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(f"clockd.cli.{name}").register(chess_sub)
