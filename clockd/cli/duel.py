"""``duelclock duel``: the referee's duel tools.

``duelclock duel replay TIMELINE.json`` settles a dispute (§2.2.19): it replays one
duel's inputs through the same pure code the daemon uses (:mod:`clockd.core.duel`) and
prints the result as one JSON object. ``-`` reads the timeline from standard input;
``--trace`` also lists, on standard error, what each event did (a press by the toss
winner on a ready clock, a press by the waiting player, an event after the end).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clockd import i18n


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "duel",
        help=i18n.text("cli.duel.duel-tools-replay-a-disputed-duel"),
        description=i18n.text("cli.duel.puzzle-duel-tools-for-the-referee"),
    )
    duel_sub = parser.add_subparsers(dest="duel_command", required=True, metavar="COMMAND")
    replay = duel_sub.add_parser(
        "replay",
        help=i18n.text("cli.duel.replay-one-duels-timeline-and-print"),
        description=i18n.text("cli.duel.replay-one-duels-inputs-exactly-as"),
    )
    replay.add_argument(
        "timeline",
        help=i18n.text("cli.duel.timeline-json-or-for-standard-input"),
    )
    replay.add_argument(
        "--trace",
        action="store_true",
        help=i18n.text("cli.duel.list-what-each-event-did-on"),
    )
    replay.set_defaults(func=_replay)


def _replay(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from clockd import i18n
    from clockd.core.actions import validation_msgs
    from clockd.core.duel import DuelTimeline, TimelineError, replay_timeline
    from clockd.core.units import ns_to_ms
    from clockd.i18n import render

    source = "<stdin>" if args.timeline == "-" else args.timeline
    try:
        text = sys.stdin.read() if args.timeline == "-" else Path(args.timeline).read_text(encoding="utf-8")
    except OSError as exc:
        print(
            i18n.text("cli.duel.cannot-read", source=source, strerror=exc),
            file=sys.stderr,
        )
        return 1
    try:
        timeline = DuelTimeline.model_validate_json(text)
    except ValidationError as exc:
        print(
            i18n.text("cli.duel.not-a-valid-duel-timeline", source=source),
            file=sys.stderr,
        )
        for problem in validation_msgs(exc, source):
            print(f"  {render(problem)}", file=sys.stderr)
        return 1
    try:
        verdict, outcomes = replay_timeline(timeline)
    except TimelineError as exc:
        print(f"{source}: {render(exc.msg)}", file=sys.stderr)
        return 1
    if args.trace:
        for index, (event, outcome) in enumerate(zip(timeline.events, outcomes, strict=True)):
            print(
                f"events[{index}] t_ms={event.t_ms} {event.model_dump_json()} -> {outcome.value}",
                file=sys.stderr,
            )
    remaining = verdict.remaining_ms()
    result = {
        "winner": verdict.winner.value if verdict.winner is not None else None,
        "decided_by": verdict.decided_by.value,
        "remaining_ms": {"a": remaining.a, "b": remaining.b},
        "displayed": {"a": verdict.displayed.a, "b": verdict.displayed.b},
        "moves": {"a": verdict.moves.a, "b": verdict.moves.b},
        "ended_at_ms": ns_to_ms(verdict.ended_at_ns),
    }
    print(json.dumps(result))
    return 0
