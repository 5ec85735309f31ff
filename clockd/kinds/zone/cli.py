"""The zone contests' words under ``duelclock event``: entries, splits, counts, missing pieces, voids.

``duelclock event add sztafeta para-3`` is ``entry-add``; the options of each word are its
action's fields (:mod:`clockd.cli.described`). ``duelclock event replay SPOR.json`` settles a
dispute: a relay's, blind or team event's inputs replayed through the daemon's own rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd.i18n import msg, render, text

if TYPE_CHECKING:
    from clockd.cli.described import Verb

#: No top-level word of its own: the contests' commands are ``duelclock event``'s.
COMMANDS: dict[str, str] = {}


def event_verbs() -> tuple[Verb, ...]:
    """The short words, each one action, its fields typed by position as listed."""
    import clockd.core.zone  # noqa: F401  (its actions, which the words name)
    from clockd.cli.described import Verb

    return (
        Verb("add", "entry-add", ("entry",)),
        Verb("checkout", "entry-check-out", ("entry",)),
        Verb("close", "entries-close"),
        Verb("reopen", "entries-reopen"),
        Verb("table", "entry-table", ("entry", "table")),
        Verb("split", "entry-split", ("entry",)),
        Verb("missing", "entry-missing", ("entry", "missing")),
        Verb("void", "entry-void", ("entry",)),
        Verb("unvoid", "entry-unvoid", ("entry",)),
        Verb("confirm", "zone-confirm"),
    )


def register_event(esub: Any) -> None:
    """``duelclock event replay``: a subcommand of ``event`` that asks no daemon."""
    p = esub.add_parser(
        "replay",
        help=text("cli.event.replay-help"),
        description=text("cli.event.replay-description"),
    )
    p.add_argument("file", metavar="FILE.json", help=text("cli.event.replay-file"))
    p.set_defaults(func=replay_file)


def replay_file(args: argparse.Namespace) -> int:
    """``duelclock event replay FILE.json``: the ranking as the daemon decides it (JSON on
    standard output); a file that cannot be replayed is named with where and why (exit 2)."""
    from clockd.core.zone import ReplayError, replay

    source = "<stdin>" if args.file == "-" else str(args.file)
    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(render(msg("cli.cannot-read", path=source, problem=exc)), file=sys.stderr)
        return 2
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        print(
            render(msg("zone.replay-not-json", source=source, line=exc.lineno, column=exc.colno)),
            file=sys.stderr,
        )
        return 2
    try:
        result = replay(data, source)
    except ReplayError as exc:
        print(render(exc.msg), file=sys.stderr)
        return 2
    print(json.dumps(result.public(), ensure_ascii=False))
    return 0
