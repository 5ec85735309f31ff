"""``duelclock event …``: every event the daemon hosts, and a hall event's clock.

::

    duelclock event list                               # every event: kind, name, where it stands
    duelclock event new sztafeta --kind timer --config sztafeta.toml   # a timed hall event
    duelclock event show sztafeta [--json]             # its clock, next signal, stations
    duelclock event start sztafeta                     # the referee's start signal
    duelclock event pause sztafeta --reason "…" / resume / end
    duelclock event adjust sztafeta +30 --reason "…"   # give the event's time back (or take it)
    duelclock event schedule sztafeta --in 15          # plan the start in 15 minutes (T−10, T−5)
    duelclock event finish sztafeta para-3             # the referee records a finish
    duelclock event unfinish sztafeta para-3 --reason "knocked the button"
    duelclock event replay SPOR.json                   # a dispute: replay a relay/blind/team event's inputs
    duelclock event do sztafeta                        # what may be done now, for an event of any kind
    duelclock event do sztafeta timer-adjust --delta-ms +30 --reason "…"   # any action, as described

A hall event's file (TOML): ``duration = "60m"``, ``signal_every = "5m"``,
``signal_at = ["30m"]``, ``before_start = ["10m", "5m"]``, ``devices = [5, 6, 7, 8]`` (the
tables whose buzzers sound the signals), ``[stations]`` ``"para-1" = 5`` (an entry's table:
its button records the finish). Every change needs the referee's token and is journaled
with ``--by`` (default: your login); the daemon says what may be done, and why not.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd.api.local import login_name
from clockd.cli.described import Verb, add_verb, verb_action
from clockd.cli.status import add_connection_options, call
from clockd.i18n import Problem, msg, render, text

if TYPE_CHECKING:
    from clockd.core.actions import Action


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "event",
        help=text("cli.event.the-daemons-events-list-a-new"),
        description=text("cli.event.every-event-the-daemon-hosts-puzzle"),
    )
    esub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def command(
        name: str,
        help_text: str,
        *,
        mutating: bool = True,
        key: bool = True,
        aliases: list[str] | None = None,
    ) -> Any:
        p = esub.add_parser(name, help=help_text, description=help_text, aliases=aliases or [])
        if key:
            p.add_argument("key", metavar="EVENT", help=text("cli.event.the-events-key"))
        add_connection_options(p, token=mutating)
        if mutating:
            p.add_argument(
                "--by",
                default=None,
                help=text("cli.event.who-decides-default-your-login"),
            )
        p.set_defaults(func=run, command=name)
        return p

    command("list", text("cli.event.every-event-of-the-daemon"), mutating=False, key=False)
    command(
        "show",
        text("cli.event.one-event-where-it-stands"),
        mutating=False,
    )
    p = command("new", text("cli.event.a-new-event"))
    p.add_argument(
        "--kind",
        default="timer",
        help=text("cli.event.kind-timer-a-timed-hall-event"),
    )
    p.add_argument("--config", metavar="FILE", help=text("cli.event.the-events-toml-file"))
    p.add_argument("--name", default="", help=text("cli.event.the-name-screens-show"))
    for verb in event_verbs():
        add_verb(verb, command)
    p = command("schedule", text("action-help.timer-schedule"))
    p.add_argument("--in", dest="minutes", type=int, required=True, metavar="MIN")
    p = command("finish", text("action-help.entry-finish"))
    p.add_argument("entry", help=text("field-help.entry"))
    p.add_argument("--missing", type=int, default=0, help=text("cli.event.finish-missing"))
    p = command("import", text("cli.event.import-help"))
    p.add_argument("file", metavar="FILE.csv")
    p = command("checkin", text("cli.event.checkin-help"))
    p.add_argument("entries", nargs="+", metavar="ENTRY")
    p = command("count", text("action-help.entry-count"))
    p.add_argument("entry", help=text("field-help.entry"))
    p.add_argument("pieces", type=int, nargs="+", metavar="PIECES", help=text("field-help.per_picture"))
    p = command("export", text("cli.event.export-help"), mutating=False)
    p.add_argument("--json-out", dest="json_out", metavar="FILE", help=text("cli.event.export-json"))
    p.add_argument("--csv", dest="csv_out", metavar="FILE", help=text("cli.event.export-csv"))
    p.add_argument("--html", dest="html_out", metavar="FILE", help=text("cli.event.export-html"))
    p.add_argument("--pdf", dest="pdf_out", metavar="FILE", help=text("cli.event.export-pdf"))
    for module in _kind_clis():  # a kind's own subcommands (the zone's replay of a dispute)
        if hasattr(module, "register_event"):
            module.register_event(esub)
    p = command("do", text("cli.event.do-help"))
    p.add_argument(
        "words", nargs=argparse.REMAINDER, metavar="ACTION --FIELD VALUE", help=text("cli.event.do-words")
    )


def event_verbs() -> list[Verb]:
    """The event kinds' short words (``duelclock event start``, ``add``, ``seat`` …): each kind's
    ``cli.py`` lists its own (``event_verbs()``), each one action whose fields it types by position."""
    return [
        verb for module in _kind_clis() if hasattr(module, "event_verbs") for verb in module.event_verbs()
    ]


def _kind_clis() -> list[Any]:
    from clockd import kinds

    return kinds.load("cli")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "by", None) is None and hasattr(args, "by"):
        args.by = login_name()

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        if args.command == "list":
            return _list(client, args.json)
        if args.command == "show":
            return _show(client.events([args.key]).events[0], args.json)
        if args.command == "export":
            return _export(client, args)
        if args.command == "do":  # any action of any kind, as the daemon describes it
            from clockd.cli.described import do

            return do(client, args.key, args.words, prog="duelclock event do", as_json=args.json)
        if args.command == "checkin":  # one journaled check-in per entry, as they come
            from clockd.core.zone import EntryCheckIn

            for entry in args.entries:
                done = client.act(args.key, EntryCheckIn(entry=entry))
                print(render(msg("cli.journaled", seq=done.seq)) + f"  {entry}")
            return 0
        try:
            action = _action(args)
        except Problem as exc:  # a field its definition refuses (a reason too long): said, not sent
            print(render(exc.msg), file=sys.stderr)
            return 2
        if action is None:
            return 2
        done = client.act("" if args.command == "new" else args.key, action)
        if args.command == "finish" and args.missing:  # the team event: the time, then what is missing
            from clockd.core.zone import MissingPieces

            done = client.act(args.key, MissingPieces(entry=args.entry, missing=args.missing))
        if args.json:
            print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
            return 0
        print(render(msg("cli.journaled", seq=done.seq)))
        if done.event is not None:
            if args.command == "close":
                _print_seat_changes(done.event.body)
            _show(done.event, False)
            if args.command == "import":
                _print_no_email(done.event.body)
        return 0

    return call(args, act)


def _print_no_email(body: Any) -> None:
    """Main-list members whose form has no e-mail address, by line and name (a warning)."""
    found = getattr(body, "no_email", [])
    if found:
        print(text("cli.signups-no-email"))
        for line, name in found:
            print(f"  {text('cli.tournament.line')} {line}: {name}")


def _print_seat_changes(body: Any) -> None:
    """Who took which seat at the close (§1.18 reserves in order, §1.19 walk-ins), by name."""
    for c in getattr(body, "seat_changes", []):
        taken_by = f"{c.taken_by_name or c.taken_by} ({c.taken_by})"
        rule = text(f"term.seat-rule.{c.rule.split()[0]}")
        if c.absent is None:
            print("  " + text("cli.tournament.seat-free-taken", taken_by=taken_by, rule=rule))
        else:
            absent = f"{c.absent_name or c.absent} ({c.absent})"
            print("  " + text("cli.tournament.seat-taken", taken_by=taken_by, absent=absent, rule=rule))


def _action(args: argparse.Namespace) -> Action | None:
    from clockd.core.actions import CreateEvent
    from clockd.core.hall import FinishEntry, TimerSchedule
    from clockd.core.zone import CountEntry

    if getattr(args, "verb", None) is not None:
        return verb_action(args)
    cmd = args.command
    if cmd == "new":
        toml = None
        if args.config:
            try:
                toml = Path(args.config).read_text(encoding="utf-8")
            except OSError as exc:
                print(
                    render(msg("cli.cannot-read", path=str(args.config), problem=exc)),
                    file=sys.stderr,
                )
                return None
        return CreateEvent(event_kind=args.kind, key=args.key, name=args.name, config_toml=toml)
    builders: dict[str, Callable[[], Action | None]] = {
        "schedule": lambda: TimerSchedule(start_in_ms=args.minutes * 60_000),
        "finish": lambda: FinishEntry(entry=args.entry),
        "import": lambda: _import(args),
        "count": lambda: (
            CountEntry(entry=args.entry, pieces=args.pieces[0])
            if len(args.pieces) == 1
            else CountEntry(entry=args.entry, per_picture=tuple(args.pieces))
        ),
    }
    return builders[cmd]()


def _import(args: argparse.Namespace) -> Action | None:
    """The form's export for ``entries-import``: read here (its encoding), sent as text."""
    from clockd.core.registration import SignupError, decode_signups
    from clockd.core.zone import ImportEntries

    try:
        data = Path(args.file).read_bytes()
        csv_text = decode_signups(data, source=str(args.file))
    except OSError as exc:
        print(render(msg("cli.cannot-read", path=str(args.file), problem=exc)), file=sys.stderr)
        return None
    except SignupError as exc:
        print(render(exc.msg), file=sys.stderr)
        return None
    return ImportEntries(csv=csv_text, source=Path(args.file).name)


def _export(client: Any, args: argparse.Namespace) -> int:
    """An event's results: JSON (any kind), CSV and a printable HTML/PDF page (the zone's contests:
    the ranking; the S(witcher): who sat from the start to the end, the tables, the replacements)."""
    from clockd.api.messages import EventResults
    from clockd.i18n import language
    from clockd.reports.switcher import SwitcherResults, switcher_csv, switcher_html
    from clockd.reports.zone import ZoneResults, zone_csv, zone_html

    reply = client.request(EventResults(event=args.key, lang=language()))
    data = reply.results
    outputs: list[tuple[str, str]] = []
    pdf_page: str | None = None
    if args.json_out:
        outputs.append((args.json_out, json.dumps(data, ensure_ascii=False, indent=2) + "\n"))
    if args.csv_out or args.html_out or args.pdf_out:
        # the zone contests' ranking sheet, or the S(witcher)'s "from start to end" sheet
        if data.get("format") == "duelclock-zone-results/1":
            zone = ZoneResults.model_validate(data)
            sheet, table = zone_html(zone), zone_csv(zone)
        elif data.get("format") == "duelclock-switcher-results/1":
            switcher = SwitcherResults.model_validate(data)
            sheet, table = switcher_html(switcher), switcher_csv(switcher)
        else:
            print(render(msg("cli.event.export-zone-only", event=args.key)), file=sys.stderr)
            return 2
        if args.csv_out:
            outputs.append((args.csv_out, table))
        if args.html_out:
            outputs.append((args.html_out, sheet))
        if args.pdf_out:
            pdf_page = sheet
    if not outputs and pdf_page is None:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for path, body in outputs:
        try:
            from clockd.store.files import private_file

            private_file(path, body)
        except OSError as exc:
            print(render(msg("cli.cannot-write", path=path, problem=exc)), file=sys.stderr)
            return 1
        print(render(msg("cli.event.exported", path=path)))
    if pdf_page is not None:
        from clockd.reports.render import html_to_pdf

        try:
            html_to_pdf(pdf_page, args.pdf_out, landscape=False)
        except OSError as exc:
            print(render(msg("cli.cannot-write", path=args.pdf_out, problem=exc)), file=sys.stderr)
            return 1
        print(render(msg("cli.event.exported", path=args.pdf_out)))
    return 0


def _list(client: Any, as_json: bool) -> int:
    reply = client.events()
    if as_json:
        print(json.dumps(reply.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
        return 0
    if not reply.events:
        print(text("cli.no-events"))
        return 0
    for event in reply.events:
        real = event.body.event_kind if event.kind == "quarantined" else event.kind
        kind = text(f"term.event-kind.{real}")
        print(f"{event.key:12s} {kind:24s} {render(event.title)}  — {_where(event)}")
    return 0


def _where(event: Any) -> str:
    body = event.body
    if event.kind == "quarantined":  # set aside at start: what failed, and where in the journal
        return text("cli.event.quarantined", seq=body.seq, entry=body.entry, problem=body.problem)
    if event.kind in HALL_KINDS:
        where = text(f"term.timer-phase.{body.timer.phase}")
        if getattr(body, "confirmed", False):
            where += " · " + text("cli.event.confirmed")
        return where
    stage = getattr(body, "stage", None)
    if stage:
        return text(f"term.session-stage.{stage}")
    from clockd.cli.described import shown_lines

    return " · ".join(shown_lines(event))  # a kind the command line has no words of its own for


#: Kinds whose body has a hall timer.
HALL_KINDS = ("timer", "relay", "blind", "team", "switcher")


def _entry_line(e: Any) -> str:
    """One pair or team of a zone contest: place, name, table, time (split), pieces, missing, why."""
    place = "—" if e.place is None else f"{e.place}."
    table = text("term.table-short", table=e.table) if e.table is not None else ""
    parts = [f"{place:>4s} {e.name} ({e.entry})", table]
    if e.on_list is not None:
        parts.append(text(f"term.list.{e.on_list}") + (" ✓" if e.present else ""))
    if e.finished_ms is not None:
        parts.append(text("cli.station-done", at_ms=e.finished_ms))
    if e.split_ms is not None:
        parts.append(text("cli.event.split-at", at_ms=e.split_ms))
    if e.pieces is not None:
        parts.append(text("cli.event.pieces", pieces=e.pieces))
    if e.missing:
        parts.append(text("cli.event.missing", missing=e.missing))
    if e.why is not None:
        parts.append(
            {
                "void": text("report.zone.why-void"),
                "missing": text("report.zone.why-missing"),
                "late": text("report.zone.why-late"),
            }[e.why]
        )
    return "  ".join(p for p in parts if p)


def _show_rotation(body: Any) -> None:
    """Every seat number: who, the table now and after the next change; the tables done; who stayed."""
    print("  " + text("cli.event.rotations", n=body.rotations))
    for seat in body.seats:
        who = seat.name or "—"
        circle = text("cli.event.outer") if seat.circle == "outer" else text("cli.event.inner")
        print(
            "  "
            + text(
                "cli.event.seat-line",
                seat=seat.seat,
                circle=circle,
                name=who,
                table=seat.table,
                next=seat.next_table,
            )
        )
    done = [str(t.table) for t in body.tables if t.done_ms is not None]
    print(
        "  " + text("cli.event.tables-done", tables=", ".join(done) or "—", n=len(done), of=len(body.tables))
    )
    for r in body.replacements:
        print(
            "  "
            + text(
                "cli.event.replacement",
                seat=r.seat,
                left=r.left or "—",
                came=r.came or "—",
                at_ms=r.elapsed_ms,
                table=r.table,
            )
        )
    print("  " + text("cli.event.stayed", names=", ".join(body.stayed) or "—"))


def _show(event: Any, as_json: bool) -> int:
    if as_json:
        print(json.dumps(event.model_dump(mode="json"), ensure_ascii=False))
        return 0
    print(f"{render(event.title)} ({event.key}, {text(f'term.event-kind.{event.kind}')}): {_where(event)}")
    if event.kind in HALL_KINDS:
        timer = event.body.timer
        if timer.remaining_ms is not None:
            print("  " + text("cli.timer-left", left_ms=timer.remaining_ms, elapsed_ms=timer.elapsed_ms))
        else:
            print("  " + text("cli.timer-elapsed", elapsed_ms=timer.elapsed_ms))
        if timer.next_signal_ms is not None:
            line = text("cli.timer-next", at_ms=timer.next_signal_ms)
            if timer.next_signal_in_ms is not None:
                line += " " + text("cli.timer-in", in_ms=timer.next_signal_in_ms)
            print("  " + line)
        for station in getattr(event.body, "stations", []):
            done = (
                text("cli.station-done", at_ms=station.finished_ms)
                if station.finished_ms is not None
                else "—"
            )
            print(f"  {station.entry:12s} {text('term.table-short', table=station.table)}  {done}")
        for entry in getattr(event.body, "entries", []):
            print("  " + _entry_line(entry))
        for refusal in getattr(event.body, "refusals", []):
            lines = ", ".join(str(n) for n in refusal.lines)
            names = ", ".join(refusal.names)
            n = len(refusal.lines)  # "wiersz 12", "wiersze 10, 11"
            print("  " + text("cli.event.refused", lines=lines, names=names, why=refusal.detail, n=n))
        if event.kind == "switcher":
            _show_rotation(event.body)
    for name, reason in sorted(event.actions.items()):
        allowed = "✓" if reason is None else "✗"
        why = "" if reason is None else f" — {render(reason)}"
        print(f"  {allowed} {text(f'term.action.{name}')}{why}")
    return 0
