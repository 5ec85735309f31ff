"""The ``duelclock`` command.

Every subcommand lives in a module of this package with a ``register(subparsers)``
function that adds its parser and sets ``func`` (called with the parsed arguments,
returning the exit status). Modules import their heavy dependencies (Qt, pyserial)
inside ``func`` so that ``duelclock --help`` stays fast and works without a display.

This package is the composition root: it is the only part of ``clockd`` that may import
``gui``, ``hw_sim`` and ``web``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from clockd import __version__
from clockd.cli.parser import Parser
from clockd.i18n import text

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = (
    "start",
    "run",
    "status",
    "table",
    "journal",
    "gui",
    "demo",
    "duel",
    "tournament",
    "event",
    "sim",
    "protocol",
    "gpio",
    "swiss",
    "chess",
    "person",
    "photo",
    "web",
    "broker",
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="duelclock",
        description=text("cli.--init--.tournaments-played-on-chess-clocks-the"),
    )
    parser.add_argument("--version", action="version", version=f"duelclock {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"clockd.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `duelclock ... | head`); that is not an error.
        sys.stderr.close()
        return 0
