"""``duelclock status``: every table's clocks, from the running daemon.

Below the table, each device's detail (what its driver said: the firmware, the time source,
why it went away) and each open alert, rendered here in the user's language: the daemon
sends them as messages.

No token is needed (reading changes nothing). ``--json`` prints the daemon's table views
(``docs/api.md``: ``remaining_ms``, ``running``, ``moves``, ``device``, …) for scripts;
``--watch`` redraws every second. The daemon is found through ``daemon.json`` unless
``--host``/``--port`` say otherwise.

The helpers here (connection options, error printing, phase and alert texts) are shared
with ``duelclock table``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from clockd import i18n
from clockd.i18n import Msg, Problem, msg, render, text

if TYPE_CHECKING:
    from clockd.core.ids import Ref

EXIT_REFUSED = 2
EXIT_UNREACHABLE = 3


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "status",
        help=i18n.text("cli.status.show-every-tables-clocks"),
        description=i18n.text("cli.status.show-every-table-of-the-running"),
    )
    add_connection_options(parser, token=False)
    parser.add_argument(
        "--watch",
        action="store_true",
        help=i18n.text("cli.status.redraw-every-second-until-ctrl-c"),
    )
    parser.add_argument(
        "tables",
        nargs="*",
        type=int,
        metavar="T",
        help=i18n.text("cli.status.only-these-tables"),
    )
    parser.set_defaults(func=run)


def add_connection_options(
    parser: argparse.ArgumentParser, *, token: bool, json_option: bool = True, unset: bool = False
) -> None:
    """The options to reach the daemon. ``unset``: absent from the namespace unless given (for a
    command whose subcommands have them too, so that a subcommand's default wins nothing)."""
    kw: dict[str, Any] = {"default": argparse.SUPPRESS} if unset else {}
    group = parser.add_argument_group(i18n.text("cli.status.connection-to-the-daemon"))
    group.add_argument(
        "--host",
        help=i18n.text("cli.status.daemon-address-default-from-daemon-json"),
        **kw,
    )
    group.add_argument(
        "--port",
        type=int,
        help=i18n.text("cli.status.daemon-port-default-from-daemon-json"),
        **kw,
    )
    # A read needs no token, but with it the daemon shows what only the referee may see
    # (a session's refused sign-ups) and lets the command in however many others are connected.
    group.add_argument(
        "--token",
        help=i18n.text(
            "cli.status.the-referees-token-default-from-daemon" if token else "cli.status.token-for-reads"
        ),
        **kw,
    )
    group.add_argument(
        "--tls-ca",
        metavar="CERT",
        help=i18n.text("cli.status.tls-ca"),
        **kw,
    )
    if json_option:
        parser.add_argument(
            "--json",
            action="store_true",
            help=i18n.text("cli.status.print-json-the-daemons-answer-a"),
            **kw,
        )


def call(args: argparse.Namespace, fn: Callable[[Any], int]) -> int:
    """Run ``fn(client)`` and turn the API's failures into a sentence (or JSON) and an exit status.

    A refusal prints the daemon's reason in the user's language; with ``--json``, as an
    object with its ``code`` and ``params`` (and the same sentence as ``message``).
    """
    from clockd.api import ApiError, Client, DaemonUnreachable
    from clockd.api.local import local_tls

    try:
        tls = local_tls(getattr(args, "tls_ca", None), args.host, args.port)
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
        _refusal(args, "tls", msg("cli.tls-ca-unreadable", path=str(args.tls_ca), problem=exc))
        return EXIT_REFUSED
    client = Client.local(host=args.host, port=args.port, token=getattr(args, "token", None), tls=tls)
    try:
        with client:
            return fn(client)
    except TimeoutError:
        # Sent (twice, with one id), never answered: it may have been done. Say so, never "no daemon".
        seconds = client.timeout_ms // 1000
        _refusal(args, "no-answer", msg("cli.no-answer", host=client.host, port=client.port, seconds=seconds))
        return EXIT_UNREACHABLE
    except BrokenPipeError:
        # Our own output's reader went away (`duelclock status | head -1`): the client wraps every
        # socket failure in DaemonUnreachable, so a bare broken pipe is stdout's, not the daemon's.
        raise
    except ConnectionError as exc:
        # The client's reason (refused, went away) as a message; the sentence around it is ours.
        problem = exc.problem if isinstance(exc, DaemonUnreachable) else exc
        reason = msg("cli.unreachable", host=client.host, port=client.port, problem=problem)
        _refusal(args, "unreachable", reason)
        return EXIT_UNREACHABLE
    except ApiError as exc:
        _refusal(args, exc.code, exc.reason)
        return EXIT_REFUSED
    except Problem as exc:  # the command's own refusal (what the daemon was not even asked)
        _refusal(args, "refused", exc.msg)
        return EXIT_REFUSED


def _refusal(args: argparse.Namespace, code: str, reason: Msg) -> None:
    text = render(reason)
    if getattr(args, "json", False):
        out = {
            "error": code,
            "code": reason.code,
            "params": reason.model_dump(mode="json")["params"],
            "message": text,
        }
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(
            f"duelclock: {render(msg('cli.refused', reason=reason))}"
            if code == "refused"
            else f"duelclock: {text}",
            file=sys.stderr,
        )


def run(args: argparse.Namespace) -> int:
    def show(client: Any) -> int:
        while True:
            reply = client.status(args.tables or None)
            if args.json:
                print(
                    json.dumps(reply.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False)
                )
            else:
                if args.watch:
                    print("\x1b[H\x1b[2J", end="")
                print(render_tables(reply.tables, names=duel_names(client, reply.tables)))
                if any(t.node for t in reply.tables):
                    print(render_nodes(client.nodes()))
            if not args.watch:
                return 0
            sys.stdout.flush()
            time.sleep(1)

    try:
        return call(args, show)
    except KeyboardInterrupt:
        return 0


def phase_text(phase: str) -> str:
    return text(f"term.phase.{phase}")


def _program_cells(view: Any) -> tuple[str, str, str, str]:
    """A, B, moves and state of a table's program, as the status table shows them."""
    program = view.program
    clock = getattr(program, "clock", None)
    if clock is None:
        if program.kind == "station":
            state = text("cli.station-finished") if program.finished else text("cli.station-waiting")
            return program.entry, "", "", state
        return "", "", "", text(f"term.program.{program.kind}")
    a = clock.display.a + (" ◀" if clock.running == "a" else "")
    b = clock.display.b + (" ◀" if clock.running == "b" else "")
    state = phase_text(clock.phase)
    if clock.flag:
        state += f" {clock.flag.upper()}"
    verdict = getattr(program, "verdict", None)
    if verdict is not None:
        state = render(
            Msg(code="device.duel-tie")
            if verdict.winner is None
            else msg("device.duel-won", side=verdict.winner.upper())
        )
    return a, b, f"{clock.moves.a}:{clock.moves.b}", state


def duel_names(client: Any, tables: list[Any]) -> dict[int, tuple[str, str]]:
    """The public names at each side of the tables a match is played on (table → (a, b)), from
    the events that own them: the referee reads "Anna K. 9:58", not a side letter."""
    from clockd.api import ApiError
    from clockd.core.ids import read_id

    owners = {t.table: read_id(getattr(t.program, "owner", None)) for t in tables}
    items = {table: ref for table, ref in owners.items() if ref is not None and ref.item is not None}
    keys = sorted({ref.event for ref in items.values()})
    if not keys:
        return {}
    try:
        events = {e.key: e for e in client.events(keys).events}
    except (ApiError, OSError):
        return {}  # names are a help; the times still show
    out: dict[int, tuple[str, str]] = {}
    for table, ref in items.items():
        found = _side_names(events, ref)
        if found is not None:
            out[table] = found
    return out


def match_side_names(
    client: Any, owner: str, fetched: dict[str, Any] | None = None
) -> tuple[str, str] | None:
    """Who sits at the clock's sides a and b for the match ``owner`` (``desk/pt/R1-1``).
    ``fetched``: the events already asked for (a table's day loads dozens of one session's
    duels: the session is asked once, not once a duel)."""
    from clockd.api import ApiError
    from clockd.core.ids import read_id

    ref = read_id(owner)
    if ref is None or ref.item is None:
        return None
    key = ref.event
    events = {} if fetched is None else fetched
    if key not in events:
        try:
            events.update({e.key: e for e in client.events([key]).events})
        except (ApiError, OSError):
            return None
    return _side_names(events, ref)


def _side_names(events: dict[str, Any], ref: Ref) -> tuple[str, str] | None:
    """The names for the match ``ref`` (an item of an event) from its event's view."""
    match = ref.item
    body = getattr(events.get(ref.event), "body", None)
    bracket = getattr(body, "bracket", None)
    if body is None or bracket is None:
        return None
    m = next((m for m in bracket.matches if m.id == match), None)
    if m is None or m.a is None or m.b is None:
        return None
    names = body.names()
    a = m.clock_a if m.clock_a is not None else m.a
    b = m.b if a == m.a else m.a
    return names.get(a, "?"), names.get(b, "?")


def render_tables(tables: list[Any], names: dict[int, tuple[str, str]] | None = None) -> str:
    """The status table a referee reads (Polish unless DUELCLOCK_LANG=en); ``names``: who sits
    at each side of a table (:func:`duel_names`), shown before the side's time."""
    from clockd.core.ids import local_name

    head = [
        i18n.text("cli.status.table"),
        "A",
        "B",
        i18n.text("cli.status.moves-a-b"),
        i18n.text("cli.status.state"),
        i18n.text("cli.status.on-the-table"),
        i18n.text("cli.status.device"),
    ]
    with_nodes = any(t.node for t in tables)
    if with_nodes:
        head.append(i18n.text("cli.status.node"))
    rows = [head]
    notes = []
    for t in tables:
        a, b, moves, state = _program_cells(t)
        if names and t.table in names:
            a, b = f"{names[t.table][0]} {a}", f"{names[t.table][1]} {b}"
        owner = local_name(t.program.owner) if t.program.owner else text(f"term.program.{t.program.kind}")
        if t.program.owner and t.holder is None:  # its event let it go: the result shows, the table is free
            owner = text("cli.status.released", owner=owner)
        label = str(t.table) if t.label == str(t.table) else f"{t.table} {t.label}"
        rows.append([label, a, b, moves, state, owner, text(f"term.device.{t.device.state}")])
        if with_nodes:
            rows[-1].append(t.node or "—")
        if t.device.detail is not None:  # what the driver said (firmware, why it went away), in our language
            device = t.device.device_id or "?"
            notes.append(
                "  "
                + render(
                    msg("cli.status.device-detail", table=t.table, device=device, detail=t.device.detail)
                )
            )
        for alert in t.alerts:
            where = f"{i18n.text('cli.status.table-2')} {t.table} [{alert.id}]"
            notes.append(f"  ! {where}: {render(alert.text)}")
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines + notes)


def render_nodes(reply: Any) -> str:
    """The desk's table nodes under the status table: each node's link and lag, its outages,
    and every command not done (sent and waiting, refused with why, not delivered)."""
    lines = []
    if reply.linked is False:
        lines.append("! " + text("cli.status.desk-unlinked"))
    for n in reply.nodes:
        since_s = max(0, reply.now_ms - n.since_ms) // 1000
        tables = ", ".join(str(t) for t in n.tables) or "—"
        if n.up:
            heard = "—" if n.heard_ms_ago is None else str(n.heard_ms_ago)
            line = text(
                "cli.status.node-up",
                node=n.name,
                seconds=since_s,
                tables=tables,
                behind=n.rows_behind,
                heard=heard,
            )
        else:
            line = "! " + text("cli.status.node-down", node=n.name, seconds=since_s, tables=tables)
        closed = [o.seconds for o in n.outages if o.seconds is not None]
        if closed:
            line += "; " + text("cli.status.node-outages", count=len(closed), longest=max(closed))
        if n.restarts:
            line += "; " + text("cli.status.node-restarts", count=n.restarts)
        lines.append(line)
        for a in getattr(n, "alerts", []):
            lines.append("! " + render(msg("cli.status.node-alert", node=n.name, problem=a.problem)))
    for c in reply.commands:
        if c.outcome == "done":
            continue
        what = text(f"term.entry.{c.what}" if c.what == "program" else f"term.action.{c.what}")
        where = text(
            "cli.status.command-where", command=c.command, what=what, table=c.table or "—", node=c.node
        )
        if c.outcome == "refused" and c.problem is not None:
            outcome = render(msg("cli.status.command-refused", reason=c.problem))
        else:
            outcome = text(f"cli.status.command-{c.outcome}")
        lines.append(f"! {where}: {outcome}")
    return "\n".join(lines)
