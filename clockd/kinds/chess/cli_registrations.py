"""``duelclock chess registrations`` and ``duelclock chess groups``: forms + bank statements.

``registrations FORMS.csv PAYMENTS.csv [...]`` prints every list of
:func:`clockd.core.chessday.registrations.reconcile` (text in the referee's language, or
``--json`` with exactly the eight lists); ``groups`` writes the day file of the complete
registrations (``-o chess-day.json``, owner-only: it holds the guardians' e-mails and
birth dates) and prints its groups with their counts. The first file is the form export,
the others bank statements. Hand matches (``--match bank.csv:7=12``) are kept in the
decisions file (``--decisions``) with who made them, when and why, and read again at
every run. A file that cannot be read is an error naming its file, line and column;
nothing is written then.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd.cli.status import add_connection_options
from clockd.i18n import Msg, language, msg, render, text

if TYPE_CHECKING:
    from clockd.core.chessday.bank import Statement
    from clockd.core.chessday.forms import FormExport
    from clockd.core.chessday.registrations import Decisions, Entry, HandMatch, Reconciliation


class _Failure(Exception):
    """A sentence for the user; the command ends with status 2."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.code)
        self.message = message


def register(sub: Any) -> None:
    reg: argparse.ArgumentParser = sub.add_parser(
        "registrations",
        help=text("cli.chess-reg.help"),
        description=text("cli.chess-reg.description"),
    )
    _inputs(reg)
    reg.add_argument("--json", action="store_true", help=text("cli.chess-reg.as-json"))
    reg.set_defaults(func=run_registrations)

    groups: argparse.ArgumentParser = sub.add_parser(
        "groups",
        help=text("cli.chess-groups.help"),
        description=text("cli.chess-groups.description"),
    )
    _inputs(groups)
    groups.add_argument("-o", "--out", required=True, metavar="DAY.json", help=text("cli.chess-groups.out"))
    groups.add_argument("--split-over", type=int, metavar="N", help=text("cli.chess-groups.split-over"))
    groups.add_argument("--title", default="", help=text("cli.chess-groups.title"))
    groups.add_argument("--date", default="", metavar="YYYY-MM-DD", help=text("cli.chess-groups.date"))
    groups.add_argument("--place", default="", metavar="CITY", help=text("cli.chess-groups.place"))
    groups.add_argument("--arbiter", default="", metavar="NAME", help=text("cli.chess-groups.arbiter"))
    groups.add_argument(
        "--deputy", action="append", default=[], metavar="NAME", help=text("cli.chess-groups.deputy")
    )
    groups.add_argument(
        "--late-entry", choices=("half", "zero"), default="half", help=text("cli.chess-groups.late-entry")
    )
    groups.add_argument(
        "--rounds",
        type=int,
        default=8,
        choices=range(1, 31),
        metavar="N",
        help=text("cli.chess-groups.rounds"),
    )
    groups.set_defaults(func=run_groups)


def _inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("forms", metavar="FORMS.csv", help=text("cli.chess-reg.forms"))
    parser.add_argument("payments", metavar="PAYMENTS.csv", nargs="+", help=text("cli.chess-reg.payments"))
    parser.add_argument(
        "--column", action="append", default=[], metavar="FIELD=HEADER", help=text("cli.chess-reg.column")
    )
    parser.add_argument(
        "--bank-column",
        action="append",
        default=[],
        metavar="FIELD=HEADER",
        help=text("cli.chess-reg.bank-column"),
    )
    parser.add_argument(
        "--match", action="append", default=[], metavar="FILE:ROW=FORM", help=text("cli.chess-reg.match")
    )
    parser.add_argument("--decisions", metavar="DECISIONS.json", help=text("cli.chess-reg.decisions"))
    parser.add_argument("--daemon", metavar="KEY", help=text("cli.chess-reg.daemon"))
    parser.add_argument("--by", default="", metavar="WHO", help=text("cli.chess-reg.by"))
    parser.add_argument("--why", default="", metavar="TEXT", help=text("cli.chess-reg.why"))
    parser.add_argument("--limit", type=int, default=1000, metavar="N", help=text("cli.chess-reg.limit"))
    parser.add_argument(
        "--accept-over", type=int, default=0, metavar="N", help=text("cli.chess-reg.accept-over")
    )
    add_connection_options(parser, token=True, json_option=False)


# -- reading ------------------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    from clockd.core.csvtext import MAX_CSV_BYTES
    from clockd.core.registration import SignupError, decode_signups

    try:
        if path.stat().st_size > MAX_CSV_BYTES:
            raise _Failure(msg("chess.reg.file-too-big", path=str(path), limit=MAX_CSV_BYTES))
        data = path.read_bytes()
    except OSError as exc:
        raise _Failure(msg("cli.cannot-read", path=str(path), problem=exc)) from exc
    try:
        return decode_signups(data, source=str(path))
    except SignupError as exc:
        raise _Failure(exc.msg) from exc


def _options(values: Sequence[str], option: str) -> dict[str, str]:
    from clockd.core.chessday.columns import parse_column_options

    try:
        return parse_column_options(values)
    except ValueError as exc:
        raise _Failure(msg("cli.chess-reg.bad-column-option", option=option, value=str(exc))) from exc


def _load(args: argparse.Namespace) -> tuple[FormExport, list[Statement], Decisions, list[HandMatch]]:
    from clockd.core.chessday.bank import read_statement
    from clockd.core.chessday.csvfile import ChessFileError
    from clockd.core.chessday.forms import read_forms

    columns = _options(args.column, "--column")
    bank_columns = _options(args.bank_column, "--bank-column")
    names = [Path(p).name for p in args.payments]
    try:
        forms = read_forms(_read_text(Path(args.forms)), str(args.forms), columns)
        statements = [
            read_statement(
                _read_text(Path(p)), names[i] if names.count(names[i]) == 1 else str(p), bank_columns
            )
            for i, p in enumerate(args.payments)
        ]
    except ChessFileError as exc:
        raise _Failure(exc.msg) from exc
    return (forms, statements, *_hand_matches(args, statements))


def _hand_matches(args: argparse.Namespace, statements: list[Statement]) -> tuple[Decisions, list[HandMatch]]:
    """The decisions file's hand matches with the new ``--match`` ones (and whether there are new)."""
    from pydantic import ValidationError

    from clockd.core.chessday.registrations import Decisions

    decisions = Decisions()
    if args.daemon:
        decisions = _journaled(args)
    elif args.decisions and Path(args.decisions).exists():
        path = Path(args.decisions)
        try:
            decisions = Decisions.model_validate_json(path.read_bytes())
        except OSError as exc:
            raise _Failure(msg("cli.cannot-read", path=str(path), problem=exc)) from exc
        except ValidationError as exc:
            raise _Failure(
                msg("cli.chess-reg.bad-decisions", path=str(path), problem=str(exc.errors()[0]["msg"]))
            ) from exc
    new = [_parse_match(m, statements, args) for m in args.match]
    for match in new:
        decisions = decisions.with_match(match)
    return decisions, new


def _parse_match(option: str, statements: list[Statement], args: argparse.Namespace) -> HandMatch:
    from clockd.core.chessday.bank import PaymentRef
    from clockd.core.chessday.registrations import HandMatch

    ref, sep, forms = option.rpartition("=")
    file, colon, row = ref.rpartition(":")
    if not sep or not colon or not row.strip().isdigit() or int(row) < 1:
        raise _Failure(msg("cli.chess-reg.bad-match", option=option))
    known = {s.source for s in statements}
    name = file if file in known else Path(file).name
    if name not in known:
        raise _Failure(msg("cli.chess-reg.match-unknown-file", option=option, files=sorted(known)))
    words = forms.replace("+", ",").split(",")
    if forms.strip().lower() in ("0", "-", "none", "brak", "zwrot", "refund"):
        lines: tuple[int, ...] = ()
    elif all(w.strip().isdigit() and int(w) > 0 for w in words):
        lines = tuple(int(w) for w in words)
    else:
        raise _Failure(msg("cli.chess-reg.bad-match", option=option))
    return HandMatch(
        payment=PaymentRef(file=name, row=int(row)),
        forms=lines,
        by=args.by or _user(),
        at=datetime.now(UTC).isoformat(timespec="seconds"),
        why=args.why,
    )


def _daemon(args: argparse.Namespace, fn: Any) -> Any:
    """``fn(client)`` against the running daemon; its refusal or absence as a sentence."""
    from clockd.api import ApiError, Client, DaemonUnreachable

    client = Client.local(host=args.host, port=args.port, token=args.token)
    client.by = args.by or _user()
    try:
        with client:
            return fn(client)
    except ApiError as exc:
        raise _Failure(exc.reason) from exc
    except (ConnectionError, TimeoutError) as exc:
        problem = exc.problem if isinstance(exc, DaemonUnreachable) else str(exc)
        raise _Failure(msg("cli.unreachable", host=client.host, port=client.port, problem=problem)) from exc


def _journaled(args: argparse.Namespace) -> Decisions:
    """The hand decisions journaled by the daemon's registration desk ``--daemon KEY`` (the
    desk is created on first use)."""
    from clockd.core.actions import CreateEvent
    from clockd.core.chessday.bank import PaymentRef
    from clockd.core.chessday.registrations import Decisions, HandMatch

    def read(client: Any) -> Decisions:
        known = [e for e in client.events().events if e.key == args.daemon]
        if not known:
            client.act("", CreateEvent(event_kind="chess-registrations", key=args.daemon))
            return Decisions()
        if known[0].kind != "chess-registrations":
            kind = Msg(code=f"term.event-kind.{known[0].kind}")
            raise _Failure(msg("cli.chess-reg.not-a-desk", key=args.daemon, kind=kind))
        return Decisions(
            matches=tuple(
                HandMatch(
                    payment=PaymentRef(file=m.file, row=m.row),
                    forms=tuple(m.forms),
                    by=m.by,
                    at=m.at,
                    why=m.why,
                )
                for m in known[0].body.matches
            )
        )

    result: Decisions = _daemon(args, read)
    return result


def _journal(args: argparse.Namespace, new: list[HandMatch]) -> None:
    """Journal the new ``--match`` decisions (they applied) on the daemon's registration desk."""
    from clockd.core.chessday.desk import MatchPayment

    def send(client: Any) -> None:
        for m in new:
            client.act(
                args.daemon, MatchPayment(file=m.payment.file, row=m.payment.row, forms=m.forms, why=m.why)
            )

    _daemon(args, send)


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        return ""


def _reconcile(args: argparse.Namespace) -> tuple[FormExport, list[Statement], Reconciliation]:
    from clockd.core.chessday.registrations import ReconcileError, reconcile

    if args.limit < 0 or args.accept_over < 0:
        raise _Failure(msg("cli.chess-reg.negative"))
    forms, statements, decisions, new = _load(args)
    try:
        result = reconcile(
            forms.forms, statements, hand=decisions.matches, limit=args.limit, accept_over=args.accept_over
        )
    except ReconcileError as exc:
        raise _Failure(exc.msg) from exc
    if new and args.daemon:  # only decisions that applied are journaled
        _journal(args, new)
    elif new and args.decisions:  # only decisions that applied are kept
        _write_private(Path(args.decisions), decisions.model_dump_json(indent=2).encode() + b"\n")
    elif new:
        print(render(msg("cli.chess-reg.match-not-kept")), file=sys.stderr)
    return forms, statements, result


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` owner-only (``0600``: the file holds personal data) through a temporary
    file in the same folder and ``os.replace``: a reader never sees half a file, and a file
    that cannot be written leaves the old one as it was."""
    from clockd.store.files import replace_file

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, data)
    except OSError as exc:
        raise _Failure(msg("cli.cannot-write", path=str(path), problem=exc)) from exc


# -- printing -----------------------------------------------------------------------------------


def zloty(grosze: int | None) -> str:
    """``3000`` → ``30 zł``; ``3050`` → ``30,50 zł`` (``30.50 zł`` in English)."""
    if grosze is None:
        return "—"
    whole, part = divmod(abs(grosze), 100)
    sign = "-" if grosze < 0 else ""
    if not part:
        return f"{sign}{whole} zł"
    return f"{sign}{whole}{',' if language() == 'pl' else '.'}{part:02d} zł"


def _json_entry(entry: Entry) -> dict[str, Any]:
    data = entry.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    data["name"] = entry.name
    for key in ("fee", "paid", "overpaid"):
        if key in data:
            value = data[key] / 100
            data[key] = int(value) if value == int(value) else value
    return data


def _json(result: Reconciliation) -> str:
    return json.dumps(
        {name: [_json_entry(e) for e in getattr(result, name)] for name in result.LISTS},
        ensure_ascii=False,
        indent=2,
    )


def _columns_report(forms: FormExport, statements: list[Statement]) -> list[str]:
    out = []
    for source, columns, ignored in [(forms.source, forms.columns, forms.ignored)] + [
        (s.source, s.columns, s.ignored) for s in statements
    ]:
        read = [msg("chess.reg.out.column", field=f, header=h) for f, h in columns.items()]
        out.append(render(msg("chess.reg.out.columns", source=source, columns=read)))
        if ignored:
            out.append("  " + render(msg("chess.reg.out.ignored", columns=list(ignored))))
    out.append("  " + render(msg("chess.reg.out.columns-hint")))
    for s in statements:
        if s.outgoing:
            out.append(render(msg("chess.reg.out.outgoing", source=s.source, n=s.outgoing)))
    return out


def _extras(entry: Entry) -> str:
    parts = []
    if entry.medal:
        parts.append(render(msg("chess.reg.out.medal")))
    if entry.overpaid:
        parts.append(render(msg("chess.reg.out.overpaid", amount=zloty(entry.overpaid))))
    if entry.together_with:
        parts.append(render(msg("chess.reg.out.together", forms=list(entry.together_with))))
    if entry.other_payments:
        parts.append(render(msg("chess.reg.out.also-paid", payments=[str(p) for p in entry.other_payments])))
    if entry.matched_by in ("title-inflected", "sender", "hand"):
        parts.append(render(msg(_MATCHED_BY[entry.matched_by])))
    return "".join(f"; {p}" for p in parts)


_MATCHED_BY = {
    "title-inflected": "chess.reg.out.by-inflected",
    "sender": "chess.reg.out.by-sender",
    "hand": "chess.reg.out.by-hand",
}
_WITHOUT_FORM_REASON = {
    "no-form": "chess.reg.out.reason-no-form",
    "already-paid": "chess.reg.out.reason-already-paid",
    "hand-refund": "chess.reg.out.reason-hand-refund",
}


def _line(entry: Entry, kind: str) -> str:
    payment = str(entry.payment_line) if entry.payment_line else ""
    if kind == "complete":
        m = msg(
            "chess.reg.out.complete-line",
            order=entry.order,
            name=entry.name,
            group=entry.group,
            fee=zloty(entry.fee),
            form=entry.form_line,
            payment=payment,
            day=str(entry.completed),
        )
    elif kind == "form_without_payment":
        m = msg(
            "chess.reg.out.unpaid-line",
            form=entry.form_line,
            name=entry.name,
            group=entry.group,
            fee=zloty(entry.fee),
        )
    elif kind == "payment_without_form":
        m = msg(
            "chess.reg.out.unformed-line",
            payment=payment,
            amount=zloty(entry.paid),
            day=str(entry.day),
            sender=entry.sender,
            title=entry.title,
            reason=msg(_WITHOUT_FORM_REASON[entry.reason], forms=list(entry.together_with)),
        )
    elif kind == "amount_mismatch":
        m = msg(
            "chess.reg.out.mismatch-line",
            form=entry.form_line,
            name=entry.name,
            fee=zloty(entry.fee),
            paid=zloty(entry.paid),
            payment=payment,
        )
    elif kind == "ambiguous":
        candidates = [msg("chess.reg.out.candidate", form=c.form_line, name=c.name) for c in entry.candidates]
        m = msg(
            "chess.reg.out.nameless-line"
            if entry.reason == "names-nobody"
            else "chess.reg.out.ambiguous-line",
            payment=payment,
            amount=zloty(entry.paid),
            sender=entry.sender,
            title=entry.title,
            candidates=candidates,
        )
    elif kind == "duplicates":
        m = msg("chess.reg.out.duplicate-line", form=entry.form_line, name=entry.name, first=entry.same_as)
    elif kind == "over_limit":
        m = msg(
            "chess.reg.out.over-line",
            form=entry.form_line,
            name=entry.name,
            fee=zloty(entry.fee),
            paid=zloty(entry.paid),
            status=msg("chess.reg.out.over-accepted" if entry.accepted else "chess.reg.out.over-waiting"),
        )
    else:  # medals
        m = msg(
            "chess.reg.out.medal-line",
            name=entry.name,
            group=entry.group,
            school=entry.school or "—",
            form=entry.form_line,
        )
    return "  " + render(m) + ("" if kind in ("medals", "duplicates", "ambiguous") else _extras(entry))


_HEADINGS = {
    "complete": "chess.reg.out.complete",
    "form_without_payment": "chess.reg.out.form-without-payment",
    "payment_without_form": "chess.reg.out.payment-without-form",
    "amount_mismatch": "chess.reg.out.amount-mismatch",
    "ambiguous": "chess.reg.out.ambiguous",
    "duplicates": "chess.reg.out.duplicates",
    "over_limit": "chess.reg.out.over-limit",
    "medals": "chess.reg.out.medals",
}
_RULES = {
    "form_without_payment": "chess.reg.out.rule-unpaid",
    "payment_without_form": "chess.reg.out.rule-refund",
    "amount_mismatch": "chess.reg.out.rule-mismatch",
    "ambiguous": "chess.reg.out.rule-ambiguous",
    "duplicates": "chess.reg.out.rule-duplicates",
    "over_limit": "chess.reg.out.rule-over",
}


def _text(forms: FormExport, statements: list[Statement], result: Reconciliation) -> list[str]:
    out = _columns_report(forms, statements) + _overlap_report(result)
    for name in result.LISTS:
        entries = getattr(result, name)
        out.append("")
        out.append(render(msg(_HEADINGS[name], n=len(entries), limit=result.limit)))
        if name in _RULES:
            out.append("  " + render(msg(_RULES[name])))
        out += [_line(e, name) for e in entries]
    out.append("")
    out.append(render(_summary(forms, statements, result)))
    return out


def _summary(forms: FormExport, statements: list[Statement], result: Reconciliation) -> Msg:
    return msg(
        "chess.reg.out.summary",
        forms=len(forms.forms),
        payments=sum(len(s.payments) for s in statements),
        complete=len(result.complete),
        limit=result.limit,
    )


def _overlap_report(result: Reconciliation) -> list[str]:
    if not result.overlap:
        return []
    return [
        render(msg("chess.reg.out.overlap", n=len(result.overlap), payments=[str(r) for r in result.overlap]))
    ]


def run_registrations(args: argparse.Namespace) -> int:
    try:
        forms, statements, result = _reconcile(args)
    except _Failure as exc:
        print(render(exc.message), file=sys.stderr)
        return 2
    if args.json:
        for line in _columns_report(forms, statements) + _overlap_report(result):
            print(line, file=sys.stderr)
        print(_json(result))
    else:
        print("\n".join(_text(forms, statements, result)))
    return 0


def run_groups(args: argparse.Namespace) -> int:
    from clockd.core.chessday.groups import all_group_slots, build_day, group_key
    from clockd.core.chessday.roster import Officials

    try:
        if args.split_over is not None and args.split_over < 1:
            raise _Failure(msg("cli.chess-groups.bad-split", n=args.split_over))
        if args.date:
            try:
                date.fromisoformat(args.date)
            except ValueError as exc:
                raise _Failure(msg("cli.chess-groups.bad-date", date=args.date)) from exc
        forms, statements, result = _reconcile(args)
        day = build_day(
            result.players, title=args.title, date=args.date, split_over=args.split_over, rounds=args.rounds
        )
        officials = Officials(
            place=args.place, chief_arbiter=args.arbiter, deputy_arbiters=tuple(args.deputy)
        )
        day = day.model_copy(update={"officials": officials, "late_entry": args.late_entry})
        _write_private(Path(args.out), day.model_dump_json(indent=2).encode() + b"\n")
    except _Failure as exc:
        print(render(exc.message), file=sys.stderr)
        return 2
    for line in _columns_report(forms, statements) + _overlap_report(result):
        print(line)
    print(render(msg("cli.chess-groups.written", path=args.out, n=len(day.groups))))
    by_base: dict[str, list[Any]] = {}
    for group in day.groups:
        by_base.setdefault(group_key(group.level, group.grade, group.sex), []).append(group)
    for level, grade, sex in all_group_slots():
        base = group_key(level, grade, sex)
        parts = by_base.get(base)
        if not parts:
            print(f"  {base:<16} {render(msg('cli.chess-groups.empty'))}")
            continue
        for group in parts:
            players = render(msg("cli.chess-groups.players", n=len(group.entrants)))
            print(f"  {group.key:<16} {render(group.title()):<40} {players}")
    print(render(msg("cli.chess-groups.total", n=len(result.players))))
    left = {name: len(getattr(result, name)) for name in result.LISTS if name not in ("complete", "medals")}
    if any(left.values()):
        counts = [msg(_HEADINGS[name], n=n, limit=result.limit) for name, n in left.items() if n]
        print(render(msg("cli.chess-groups.not-in", lists=counts)))
    return 0
