"""``duelclock table T …``: the referee's commands for one table.

::

    duelclock table 3 pause --reason "dispute"
    duelclock table 3 resume
    duelclock table 3 adjust b -30 --reason "illegal move"     # ±SECONDS, up to ms: 1.5, -0.25
    duelclock table 3 set --control 10m --reason "round II"    # a fresh clock (new duel)
    duelclock table 3 note "player A complained about the light"
    duelclock table 3 clear-alert [ID]
    duelclock table 3 timeline [--json]                        # every press and decision (disputes)
    duelclock table 3 [show]                                   # the table now, and who holds it
    duelclock table 3 free --reason "the relay needs it" [--stop-running]   # give it back by hand

Every command that changes something needs the referee's token (``--token``, default
from ``daemon.json``) and is journaled with ``--by`` (default: your login) and the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import clockd.core.clock
import clockd.core.program  # noqa: F401  (their actions, which the verbs name)
from clockd import i18n
from clockd.api.local import login_name
from clockd.cli.described import Verb, add_verb, verb_action
from clockd.cli.status import EXIT_REFUSED, add_connection_options, call, render_tables
from clockd.i18n import Problem, msg, render, text

#: How long ``duelclock table`` waits to hear what a node did with the action (the desk's
#: own limit for a command, with a margin: then it is done, refused or not delivered).
WAIT_FOR_NODE_S = 12


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "table",
        help=i18n.text("cli.table.referee-commands-for-one-table-pause"),
        description=i18n.text("cli.table.referee-commands-for-one-table-changes"),
    )
    parser.add_argument("table", type=int, metavar="T", help=i18n.text("cli.table.table-number"))
    add_connection_options(parser, token=False, unset=True)  # ``duelclock table 3 --port …``: show
    actions = parser.add_subparsers(dest="action", required=False, metavar="ACTION")

    def action(
        name: str, help_text: str, *, mutating: bool = True, aliases: list[str] | None = None
    ) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(
            name, help=help_text, description=help_text, aliases=aliases or []
        )
        add_connection_options(p, token=mutating)
        if mutating:
            p.add_argument(
                "--by",
                default=None,
                help=i18n.text("cli.table.who-decides-default-your-login-name"),
            )
        p.set_defaults(word=name)
        return p

    for verb in VERBS:
        add_verb(verb, action)
    p = action("undo-adjust", i18n.text("cli.table.undo-adjust-help"), aliases=["adjust-undo"])
    p.add_argument("seq", type=int, metavar="SEQ", help=i18n.text("cli.table.undo-adjust-seq"))
    p.add_argument("--reason", required=True, help=i18n.text("field-help.reason"))
    p = action(
        "timeline",
        i18n.text("cli.table.every-press-command-and-decision-of"),
        mutating=False,
    )
    p.add_argument("--limit", type=int, default=1000)
    action("show", i18n.text("cli.table.show-help"), mutating=False)
    parser.set_defaults(func=run)


#: A table's short words: each one action, its fields typed by position as listed (the options,
#: types and help come from the action's definition: clockd.cli.described).
VERBS = (
    Verb("pause", "pause"),
    Verb("resume", "resume"),
    Verb("adjust", "adjust", ("side", "delta_ms")),
    Verb("set", "set-clock"),
    Verb("note", "note", ("text",)),
    Verb("clear-alert", "clear-alert", ("alert_id",)),
    Verb("free", "table-free"),
)


def run(args: argparse.Namespace) -> int:
    if args.action is None:  # ``duelclock table 3``: the table as it is
        args.action = "show"
        for name in ("host", "port", "token", "tls_ca"):
            setattr(args, name, getattr(args, name, None))
        args.json = getattr(args, "json", False)
    if getattr(args, "by", None) is None and args.action not in ("timeline", "show"):
        args.by = login_name()
    table = args.table

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        word = getattr(args, "word", args.action)
        if word == "timeline":
            return _timeline(client, args)
        if word == "show":
            return _show(client, table, args.json)
        if word == "undo-adjust":
            action = _undo_of(client, table, args.seq, args.reason)
            done = client.act(table, action)
            return _said(client, done)
        try:
            action = verb_action(args)
        except Problem as exc:  # a field its definition refuses (a reason too long): said, not sent
            print(render(exc.msg), file=sys.stderr)
            return 2
        done = client.act(table, action)
        if args.json:
            print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
            return 0
        return _said(client, done)

    return call(args, act)


def _show(client: Any, table: int, as_json: bool) -> int:
    """The table as the referee reads it, and who holds it (the event's item, or free)."""
    from clockd.cli.status import duel_names

    found = client.status([table]).tables
    if as_json:
        for t in found:
            print(json.dumps(t.model_dump(mode="json"), ensure_ascii=False))
        return 0
    print(render_tables(found, duel_names(client, found)))
    for t in found:
        print(holder_text(t))
    return 0


def holder_text(view: Any) -> str:
    """``stolik 6: zajmuje pt/R1-7`` or ``stolik 6 jest wolny`` (the hall left out, as in ``status``)."""
    if view.holder is None:
        return render(msg("cli.table.free-now", table=view.table))
    return render(msg("cli.table.held-by", table=view.table, holder=view.holder.split("/", 1)[-1]))


def _said(client: Any, done: Any) -> int:
    """What became of the action: journaled here, or — a table another machine times — sent to
    its node, and then what the node did (done, refused, not delivered: never "done" unseen)."""
    if not done.table.node:
        print(render(msg("cli.journaled", seq=done.seq)))
        print(render_tables([done.table]))
        return 0
    print(render(msg("cli.table.sent-to-node", node=done.table.node, seq=done.seq)), flush=True)
    deadline = time.monotonic() + WAIT_FOR_NODE_S
    while True:
        command = next((c for c in client.nodes().commands if c.seq == done.seq), None)
        if command is not None and command.outcome != "sent":
            break
        if time.monotonic() > deadline:
            print(render(msg("cli.table.node-still-sent", node=done.table.node)))
            return 0
        time.sleep(0.1)
    if command.outcome == "done":
        print(render(msg("cli.table.node-done", node=command.node, seq=command.node_seq or 0)))
        print(render_tables(client.status([done.table.table]).tables))
        return 0
    if command.outcome == "refused" and command.problem is not None:
        print(
            render(msg("cli.table.node-refused", node=command.node, reason=command.problem)), file=sys.stderr
        )
    else:
        print(render(msg("cli.table.node-not-delivered", node=command.node)), file=sys.stderr)
    return EXIT_REFUSED


def _undo_of(client: Any, table: int, seq: int, reason: str) -> Any:
    """The action taking back the adjustment journaled as ``seq`` on ``table`` (as the timeline
    lists it), named by its instant, side and amount: the daemon's duel checks it is one."""
    from clockd.core.duel import UndoAdjust
    from clockd.i18n import Problem

    entries = client.timeline(table, after_seq=max(0, seq - 1), limit=1).entries
    entry = next((e for e in entries if e.seq == seq), None)
    action = entry.data.get("action") if entry is not None else None
    if entry is None or entry.kind != "adjust" or not isinstance(action, dict):
        raise Problem("cli.table.not-an-adjustment", seq=seq, table=table)
    return UndoAdjust(at_ns=action["t_ns"], side=action["side"], delta_ms=action["delta_ms"], reason=reason)


def _timeline(client: Any, args: argparse.Namespace) -> int:
    """The table's journal as a referee reads it in a dispute: the time since the first entry
    (m:ss.mmm, exact), what happened in words, whose side by name, the referee's reason."""
    from clockd.cli.status import match_side_names
    from clockd.core.display import format_exact_ms

    reply = client.timeline(args.table, limit=args.limit)
    first = reply.entries[0].t_ms if reply.entries else 0
    names: tuple[str, str] | None = None
    fetched: dict[str, Any] = {}
    for entry in reply.entries:
        if args.json:
            print(json.dumps(entry.model_dump(mode="json"), ensure_ascii=False))
            continue
        if entry.kind == "program":
            owner = (entry.data.get("program") or {}).get("owner")
            names = match_side_names(client, owner, fetched) if owner else None
        when = format_exact_ms(entry.t_ms - first)
        print(f"{entry.seq:>7}  {when:>10}  {_entry_text(entry.kind, entry.data, names)}")
    return 0


def _named_side(side: Any, names: tuple[str, str] | None) -> str:
    letter = str(side).upper()
    if names is None or letter not in ("A", "B"):
        return letter
    return f"{letter} ({names[0] if letter == 'A' else names[1]})"


def _entry_text(kind: str, data: dict[str, Any], names: tuple[str, str] | None) -> str:
    """One journal entry in the reader's language: its kind as a term, then what matters."""
    from clockd.core.actions import action_types
    from clockd.core.display import format_delta_ms

    what = text(f"term.action.{kind}") if kind in action_types() else _entry_term(kind)
    parts: list[str] = []
    action = data.get("action") if isinstance(data.get("action"), dict) else {}
    if kind == "press":
        parts.append(text("cli.table.timeline-side", side=_named_side(data.get("side"), names)))
        outcome = data.get("outcome")
        if outcome:
            parts.append(text(f"term.outcome.{outcome}"))
    elif kind == "program":
        program = data.get("program") or {}
        parts.append(text(f"term.program.{program.get('kind', 'idle')}"))
        if program.get("owner"):
            parts.append(str(program["owner"]).split("/", 1)[-1])
    elif kind == "flag":
        parts.append(text("cli.table.timeline-side", side=_named_side(data.get("side"), names)))
    elif kind in ("device-connected", "device-disconnected"):
        parts += [str(data.get("device_id") or "?")]
        parts += [str(_shown(data[k])) for k in ("detail", "reason") if data.get(k) not in (None, "", {})]
    elif kind == "match-finished" and isinstance(data.get("verdict"), dict):
        v = data["verdict"]
        shown = v.get("displayed") or {}
        if v.get("winner"):
            parts.append(text("cli.table.timeline-winner", side=_named_side(v["winner"], names)))
        parts.append(f"{shown.get('a', '?')} | {shown.get('b', '?')}")
        decided = v.get("decided_by")
        parts.append(text("device.duel-tie") if decided == "tie" else text(f"term.decided-by.{decided}"))
    elif action:
        if "side" in action:
            parts.append(text("cli.table.timeline-side", side=_named_side(action["side"], names)))
        if "delta_ms" in action:
            parts.append(format_delta_ms(int(action["delta_ms"])))
        if action.get("reason"):
            parts.append(text("cli.table.timeline-reason", reason=action["reason"]))
    else:
        parts += [
            f"{k}={_shown(v)}"
            for k, v in data.items()
            if v not in (None, "", {}) and k not in ("device_t_us", "by", "source", "target")
        ]
    if data.get("by"):
        parts.append(text("cli.table.timeline-by", by=data["by"]))
    return f"{what}: {', '.join(parts)}" if parts else what


def _entry_term(kind: str) -> str:
    from clockd.i18n.catalogue import catalogue

    code = f"term.entry.{kind}"  # a kind this program does not know (a newer journal): as written
    return text(code) if code in catalogue().entries else kind


def _shown(value: Any) -> Any:
    """A journaled field as the timeline prints it: a message (a device's detail) in the user's language."""
    if isinstance(value, dict) and isinstance(value.get("code"), str) and set(value) <= {"code", "params"}:
        return render(value)
    return value
