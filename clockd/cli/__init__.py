"""The ``duelclock`` command.

Every subcommand lives in a module with a ``register(subparsers)`` function that adds its
parser and sets ``func`` (called with the parsed arguments, returning the exit status):
the built-in ones in this package (:data:`COMMANDS`), an event kind's in its folder's
``cli.py`` (:mod:`clockd.kinds`; its ``COMMANDS`` names its words and their summaries).

A referee types ``duelclock chess result`` forty times a round, so a command imports only
what it runs: :func:`main` reads the first word, imports that one subcommand's module and
gives every other word a bare entry with its one-line summary (:data:`SUMMARIES`, from the
catalogue), which is all ``--help`` and argparse's "invalid choice" show of them. Modules
import their heavy dependencies (the API's models, Qt, pyserial) inside ``func``.
:func:`build_parser` still builds the whole tree, for the tests that read every help text.

This package is the composition root: it is the only part of ``clockd`` that may import
``gui``, ``hw_sim`` and ``web``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from clockd import __version__
from clockd.cli.parser import Parser
from clockd.i18n import text

#: Subcommand modules, in the order ``--help`` lists them (the event kinds' after them).
COMMANDS = (
    "start",
    "run",
    "status",
    "table",
    "journal",
    "gui",
    "event",
    "sim",
    "protocol",
    "gpio",
    "swiss",
    "person",
    "web",
    "broker",
)

#: Each built-in module's words and their one-line summaries in ``--help`` (catalogue codes),
#: so that listing the commands imports none of them. A module missing here is imported to be listed.
SUMMARIES: dict[str, dict[str, str]] = {
    "start": {"start": "cli.start.start-duelclock-with-simulated-tables"},
    "run": {"run": "cli.run.run-the-clock-daemon-simulated-tables"},
    "status": {"status": "cli.status.show-every-tables-clocks"},
    "table": {"table": "cli.table.referee-commands-for-one-table-pause"},
    "journal": {"journal": "cli.journal.the-daemons-journal-integrity-checks"},
    "gui": {"gui": "cli.gui.open-the-referee-window-or-the"},
    "event": {"event": "cli.event.the-daemons-events-list-a-new"},
    "sim": {"sim": "cli.sim.hardware-simulators-serial-clocks-gpio"},
    "protocol": {"protocol": "cli.protocol.decode-and-encode-the-clock-wire"},
    "gpio": {"gpio": "cli.gpio.raspberry-pi-gpio-tables-check-the"},
    "swiss": {"swiss": "cli.swiss.swiss-chess-pairings-standings-checks"},
    "person": {"person": "cli.person.help"},
    "web": {"web": "cli.web.help", "publish": "cli.web.publish-help"},
    "broker": {"broker": "cli.broker.help"},
}


def _modules(kinds: bool = True) -> list[tuple[str, dict[str, str] | None]]:
    """Every module that adds top-level words, with its words and their summaries
    (``None``: not known without importing it), in the order ``--help`` lists them;
    the event kinds' only if ``kinds``."""
    out: list[tuple[str, dict[str, str] | None]] = [(f"clockd.cli.{n}", SUMMARIES.get(n)) for n in COMMANDS]
    if kinds:
        out += [(module.__name__, module.COMMANDS) for module in _kind_clis() if module.COMMANDS]
    return out


def _kind_clis() -> list[ModuleType]:
    """The event kinds' ``cli`` modules (each imports only argparse and the catalogue at its top)."""
    from clockd import kinds

    return kinds.load("cli")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``duelclock`` parser: every subcommand whole, or (``only``) that one whole and the
    others as their names and summaries — enough to list them and to refuse a wrong one. A
    built-in ``only`` leaves the kinds' words out: nothing but its own parser is read then."""
    parser = Parser(
        prog="duelclock",
        description=text("cli.--init--.tournaments-played-on-chess-clocks-the"),
    )
    parser.add_argument("--version", action="version", version=f"duelclock {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    builtin = only is not None and any(only in words for words in SUMMARIES.values())
    for module, words in _modules(kinds=not builtin):
        if words is None or only is None or only in words:
            importlib.import_module(module).register(sub)
        else:
            for word, summary in words.items():
                sub.add_parser(word, help=text(summary), add_help=False)
    return parser


def _word(argv: Sequence[str]) -> str:
    """The subcommand's word: the first argument not an option (the top level's options,
    ``-h`` and ``--version``, take no value). ``""``: none given."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_word(argv))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `duelclock ... | head`); that is not an error.
        sys.stderr.close()
        return 0
