"""``duelclock duel``: the referee's duel tools.

``duelclock duel replay TIMELINE.json`` settles a dispute (§2.2.19): it replays one
duel's inputs through the same pure code the daemon uses (:mod:`clockd.core.duel`) and
prints the result as one JSON object. The file is a duel's inputs as written for a dispute,
or what ``duelclock table N timeline --json`` writes (its last duel, or ``--match``'s), so
a dispute goes from the table to the replay in two commands. ``-`` reads standard input;
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
from clockd.i18n import Problem


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
    replay.add_argument("--match", metavar="MATCH", help=i18n.text("cli.duel.match-help"))
    replay.add_argument(
        "--trace",
        action="store_true",
        help=i18n.text("cli.duel.list-what-each-event-did-on"),
    )
    replay.set_defaults(func=_replay)


def _is_table_timeline(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    try:
        entry = json.loads(first)
    except ValueError:
        return False
    return isinstance(entry, dict) and {"seq", "kind", "t_ms"} <= set(entry)


def _from_table_timeline(text: str, match: str | None) -> dict[str, Any]:
    """The duel's inputs from a table's journaled timeline (JSON lines, one entry each): the
    duel loaded on the table after the toss (the last one, or ``match``'s), and the presses,
    pauses, resumes, adjustments and "complete" that followed it until the next program. Times
    count from the duel's loading; the time control, resolution and toss come from it.

    A duel begins where its program is loaded *fresh* (the toss recorded, nothing played). A
    later row of the same duel — the confirmation closes it, and the table is given back — is
    no new duel and does not end its inputs: a dispute after the confirmation replays it too."""
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            raise Problem("cli.duel.timeline-line", line=number) from None
        if not isinstance(entry, dict) or not {"kind", "t_ms"} <= set(entry):
            raise Problem("cli.duel.timeline-line", line=number)
        entries.append(entry)

    def duel_of(e: dict[str, Any]) -> dict[str, Any] | None:
        program = e.get("data", {}).get("program") if e["kind"] == "program" else None
        if not isinstance(program, dict) or not isinstance(program.get("duel"), dict):
            return None
        if match is not None and not str(program.get("owner", "")).endswith(f"/{match}"):
            return None
        return program

    def fresh(program: dict[str, Any]) -> bool:
        duel = program["duel"]
        return duel.get("end") is None and (duel.get("clock") or {}).get("phase", "ready") == "ready"

    loaded = [i for i, e in enumerate(entries) if duel_of(e) is not None]
    starts = [i for i in loaded if fresh(duel_of(entries[i]) or {})] or loaded
    if not starts:
        raise Problem("cli.duel.timeline-no-duel", match=match or "")
    start = starts[-1]
    program = duel_of(entries[start])
    assert program is not None

    def same_duel_closed(e: dict[str, Any]) -> bool:
        later = e.get("data", {}).get("program")
        return (
            isinstance(later, dict)
            and later.get("owner") == program.get("owner")
            and isinstance(later.get("duel"), dict)
            and not fresh(later)
        )

    setup = program["duel"]["setup"]
    stages = setup["control"]["stages"]
    if len(stages) != 1:
        raise Problem("cli.duel.timeline-stages", stages=len(stages))
    t0 = entries[start]["t_ms"]
    events: list[dict[str, Any]] = []
    for e in entries[start + 1 :]:
        if e["kind"] == "program":
            if same_duel_closed(e):
                continue
            break
        t, data = e["t_ms"] - t0, e.get("data", {})
        if e["kind"] == "press":
            events.append({"t_ms": t, "press": data["side"]})
        elif e["kind"] in ("pause", "resume", "complete"):
            events.append({"t_ms": t, e["kind"]: True})
        elif e["kind"] == "adjust":
            action = data.get("action", {})
            events.append({"t_ms": t, "adjust": action["side"], "delta_ms": action["delta_ms"]})
    stage = stages[0]
    return {
        "time_control": {
            "base_ms": stage["time_ns"] // 1_000_000,
            "increment_ms": stage.get("increment_ns", 0) // 1_000_000,
            "delay_ms": stage.get("delay_ns", 0) // 1_000_000,
            "delay": setup["control"].get("delay_mode", "none"),
        },
        "resolution_ms": setup["resolution_ns"] // 1_000_000,
        "toss_winner": setup["toss_winner"],
        "events": events,
    }


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
        if _is_table_timeline(text):  # what `duelclock table N timeline --json` writes
            timeline = DuelTimeline.model_validate_json(json.dumps(_from_table_timeline(text, args.match)))
        else:
            timeline = DuelTimeline.model_validate_json(text)
    except Problem as exc:
        print(f"{source}: {render(exc.msg)}", file=sys.stderr)
        return 1
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
