"""``duelclock chess``: the school chess day — registrations and payments, groups, the day in the daemon.

Each subcommand family lives in its own module of this folder with a ``register(sub)`` function:

* :mod:`clockd.kinds.chess.cli_registrations` — ``registrations``: forms + bank statements;
* :mod:`clockd.kinds.chess.cli_print` — ``print``: start lists, pairings, standings, crosstables,
  prize lists and diplomas as HTML/PDF;
* :mod:`clockd.kinds.chess.cli_day` — the groups as events of the running daemon.

The TRF-file tools of one group stay under ``duelclock swiss``.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from clockd.i18n import text

#: The top-level words this kind adds to ``duelclock`` and their summaries (catalogue codes).
COMMANDS = {"chess": "cli.chess.help"}

#: The modules that add subcommands, in the order ``--help`` lists them.
SUBCOMMAND_MODULES: tuple[str, ...] = ("cli_registrations", "cli_day", "cli_print")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "chess",
        help=text("cli.chess.help"),
        description=text("cli.chess.description"),
    )
    chess_sub = parser.add_subparsers(dest="chess_command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(chess_sub)
