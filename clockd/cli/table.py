"""``duelclock table T …``: the referee's commands for one table.

::

    duelclock table 3 pause --reason "dispute"
    duelclock table 3 resume
    duelclock table 3 adjust b -30 --reason "illegal move"     # ±SECONDS, up to ms: 1.5, -0.25
    duelclock table 3 set --control 10m --reason "round II"    # a fresh clock (new duel)
    duelclock table 3 note "player A complained about the light"
    duelclock table 3 clear-alert [ID]
    duelclock table 3 timeline [--json]                        # every press and decision (disputes)

Every command that changes something needs the referee's token (``--token``, default
from ``daemon.json``) and is journaled with ``--by`` (default: your login) and the reason.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from clockd.cli.argtypes import seconds_to_ms
from clockd.cli.status import EXIT_REFUSED, add_connection_options, call, phase_text, render
from clockd.i18n import tr


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "table",
        help="referee commands for one table (pause, resume, adjust, set, note, timeline)",
        description="Referee commands for one table. Changes need the referee's token and are journaled.",
    )
    parser.add_argument("table", type=int, metavar="T", help="table number")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help_text: str, *, mutating: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(name, help=help_text, description=help_text)
        add_connection_options(p, token=mutating)
        if mutating:
            p.add_argument("--by", default=None, help="who decides (default: your login name)")
        return p

    p = action("pause", "pause the clock")
    p.add_argument("--reason", default="", help="why (journaled)")
    p = action("resume", "resume a paused clock")
    p.add_argument("--reason", default="", help="why (journaled)")
    p = action("adjust", "add or remove time: SIDE ±SECONDS")
    p.add_argument("side", type=_side, metavar="SIDE", help="a or b")
    p.add_argument("seconds", type=seconds_to_ms, metavar="±SECONDS", help="e.g. 30, -30, 1.5")
    p.add_argument("--reason", required=True, help="why (required, journaled)")
    p = action("set", "set a fresh clock (both sides full, ready to start)")
    p.add_argument("--control", default=None, help="time control, e.g. 10m or 3m+2s (default: the table's)")
    p.add_argument("--reason", default="", help="why (journaled)")
    p = action("note", "add a note to the table's timeline")
    p.add_argument("text", help="the note")
    p = action("clear-alert", "mark the table's alert ID (default: all) as seen")
    p.add_argument("alert_id", type=int, nargs="?", default=None, metavar="ID")
    p = action("timeline", "every press, command and decision of the table", mutating=False)
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--limit", type=int, default=1000)
    parser.set_defaults(func=run)


def _side(text: str) -> str:
    side = text.strip().lower()
    if side not in ("a", "b"):
        raise argparse.ArgumentTypeError(f"side must be a or b, not {text!r}")
    return side


def run(args: argparse.Namespace) -> int:
    if getattr(args, "by", None) is None and args.action != "timeline":
        args.by = _login()
    table = args.table

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        if args.action == "timeline":
            return _timeline(client, args)
        if args.action == "pause":
            done = client.pause(table, reason=args.reason)
        elif args.action == "resume":
            done = client.resume(table, reason=args.reason)
        elif args.action == "adjust":
            done = client.adjust(table, args.side, args.seconds, reason=args.reason)
        elif args.action == "set":
            done = client.set_clock(table, control=args.control, reason=args.reason)
        elif args.action == "note":
            done = client.note(table, args.text)
        elif args.action == "clear-alert":
            done = client.clear_alert(table, args.alert_id)
        else:  # pragma: no cover - argparse restricts the choices
            print(f"unknown action {args.action}", file=sys.stderr)
            return EXIT_REFUSED
        print(f"{tr(pl='zapisano', en='journaled')} (seq {done.seq}): {phase_text(done.table.phase)}")
        print(render([done.table]))
        return 0

    return call(args, act)


def _timeline(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.display import format_exact_ms

    reply = client.timeline(args.table, limit=args.limit)
    first = reply.entries[0].t_ms if reply.entries else 0
    for entry in reply.entries:
        if args.json:
            print(json.dumps(entry.model_dump(mode="json"), ensure_ascii=False))
            continue
        detail = " ".join(
            f"{k}={v}" for k, v in entry.data.items() if v not in (None, "", {}) and k not in ("device_t_us",)
        )
        print(f"{entry.seq:>7}  +{format_exact_ms(entry.t_ms - first)}  {entry.kind:<18} {detail}")
    return 0


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
