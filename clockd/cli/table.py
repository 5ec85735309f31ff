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
import json
from typing import Any

from clockd import i18n
from clockd.api.local import login_name
from clockd.cli.argtypes import seconds_to_ms
from clockd.cli.status import add_connection_options, call, render_tables
from clockd.i18n import msg, render


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "table",
        help=i18n.text("cli.table.referee-commands-for-one-table-pause"),
        description=i18n.text("cli.table.referee-commands-for-one-table-changes"),
    )
    parser.add_argument("table", type=int, metavar="T", help=i18n.text("cli.table.table-number"))
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help_text: str, *, mutating: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(name, help=help_text, description=help_text)
        add_connection_options(p, token=mutating)
        if mutating:
            p.add_argument(
                "--by",
                default=None,
                help=i18n.text("cli.table.who-decides-default-your-login-name"),
            )
        return p

    why = i18n.text("cli.table.why-journaled")
    p = action("pause", i18n.text("cli.table.pause-the-clock"))
    p.add_argument("--reason", default="", help=why)
    p = action("resume", i18n.text("cli.table.resume-a-paused-clock"))
    p.add_argument("--reason", default="", help=why)
    p = action("adjust", i18n.text("cli.table.add-or-remove-time-side-seconds"))
    p.add_argument("side", type=_side, metavar="SIDE", help=i18n.text("cli.table.a-or-b"))
    p.add_argument(
        "seconds",
        type=seconds_to_ms,
        metavar="±SECONDS",
        help=i18n.text("cli.table.e-g-30-30-1-5"),
    )
    p.add_argument(
        "--reason",
        required=True,
        help=i18n.text("cli.table.why-required-journaled"),
    )
    p = action(
        "set",
        i18n.text("cli.table.set-a-fresh-clock-both-sides"),
    )
    p.add_argument(
        "--control",
        default=None,
        help=i18n.text("cli.table.time-control-e-g-10m-or"),
    )
    p.add_argument("--reason", default="", help=why)
    p = action("note", i18n.text("cli.table.add-a-note-to-the-tables"))
    p.add_argument("text", help=i18n.text("cli.table.the-note"))
    p = action(
        "clear-alert",
        i18n.text("cli.table.mark-the-tables-alert-id-default"),
    )
    p.add_argument("alert_id", type=int, nargs="?", default=None, metavar="ID")
    p = action(
        "timeline",
        i18n.text("cli.table.every-press-command-and-decision-of"),
        mutating=False,
    )
    p.add_argument("--limit", type=int, default=1000)
    parser.set_defaults(func=run)


def _side(text: str) -> str:
    side = text.strip().lower()
    if side not in ("a", "b"):
        raise argparse.ArgumentTypeError(i18n.text("cli.table.side-must-be-a-or-b", text=text))
    return side


def run(args: argparse.Namespace) -> int:
    from clockd.core.clock import Adjust, Pause, Resume, Side
    from clockd.core.program import AddNote, ClearAlert, SetClock

    if getattr(args, "by", None) is None and args.action != "timeline":
        args.by = login_name()
    table = args.table

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        if args.action == "timeline":
            return _timeline(client, args)
        action = {
            "pause": lambda: Pause(reason=args.reason),
            "resume": lambda: Resume(reason=args.reason),
            "adjust": lambda: Adjust(side=Side(args.side), delta_ms=args.seconds, reason=args.reason),
            "set": lambda: SetClock(control=args.control, reason=args.reason),
            "note": lambda: AddNote(text=args.text),
            "clear-alert": lambda: ClearAlert(alert_id=args.alert_id),
        }[args.action]()
        done = client.act(table, action)
        if args.json:
            print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
            return 0
        print(render(msg("cli.journaled", seq=done.seq)))
        print(render_tables([done.table]))
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
            f"{k}={_shown(v)}"
            for k, v in entry.data.items()
            if v not in (None, "", {}) and k not in ("device_t_us",)
        )
        print(f"{entry.seq:>7}  +{format_exact_ms(entry.t_ms - first)}  {entry.kind:<18} {detail}")
    return 0


def _shown(value: Any) -> Any:
    """A journaled field as the timeline prints it: a message (a device's detail) in the user's language."""
    if isinstance(value, dict) and isinstance(value.get("code"), str) and set(value) <= {"code", "params"}:
        return render(value)
    return value
