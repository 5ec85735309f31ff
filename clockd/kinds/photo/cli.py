"""``duelclock photo import|jury``: the photo contest "Puzzlowe Love" (000 §7), from the form to the jury.

``photo import ENTRIES.csv [--json]`` reads the entry form's export and prints every entry,
accepted (with its number) or refused (with its reason): the rules are
:mod:`clockd.core.photo`'s. With ``--json``:
``{"accepted": [{"line": 1, "entry": 1}], "refused": [{"line": 4, "code": "photo.fourth",
"reason": "…"}]}`` (``line`` 1 is the first data row). A file that cannot be read is an
error naming the row and the column; nothing is accepted then.

``photo jury ENTRIES.csv --jurors "A,B,C" --html SHEET.html [--scores SCORES.csv]`` writes
the jury's sheet: the accepted entries by number only (the deliberations are confidential,
§7.2.3), a column of scores per juror; with the scores (a CSV: ``entry`` and one column per
juror) the totals, the winner and the one distinction (§7.2.4–7.2.7), and
``--announce FILE`` the list for the announcement (10.07, §7.2.1): the two entries, their
photographers' public names.

The contest needs no daemon: its entries come from the form, after the festival.
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import json
import sys
from pathlib import Path
from typing import Any

from clockd.i18n import Msg, Problem, msg, render, text

#: The top-level words this kind adds to ``duelclock`` and their summaries (catalogue codes).
COMMANDS = {"photo": "cli.photo.help"}


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "photo", help=text("cli.photo.help"), description=text("cli.photo.help")
    )
    psub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = psub.add_parser("import", help=text("cli.photo.import"), description=text("cli.photo.import"))
    p.add_argument("entries", metavar="ENTRIES.csv", help=text("cli.photo.entries"))
    p.add_argument("--json", action="store_true", help=text("cli.photo.as-json"))
    p.set_defaults(func=_import)
    p = psub.add_parser("jury", help=text("cli.photo.jury"), description=text("cli.photo.jury"))
    p.add_argument("entries", metavar="ENTRIES.csv", help=text("cli.photo.entries"))
    p.add_argument("--jurors", required=True, help=text("cli.photo.jurors"))
    p.add_argument("--html", metavar="FILE", required=True, help=text("cli.photo.sheet"))
    p.add_argument("--scores", metavar="SCORES.csv", help=text("cli.photo.scores"))
    p.add_argument("--announce", metavar="FILE", help=text("cli.photo.announce"))
    p.set_defaults(func=_jury)


def _read(path: str) -> Any:
    from clockd.core.photo import read_entries
    from clockd.core.registration import decode_signups

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise Problem("cli.cannot-read", path=path, problem=exc) from exc
    return read_entries(decode_signups(data, path), source=path)


def _import(args: argparse.Namespace) -> int:
    try:
        result = _read(args.entries)
    except Problem as exc:
        return _fail(args, exc.msg)
    if args.json:
        print(json.dumps(result.json_data(render), ensure_ascii=False))
        return 0
    rows = sorted(
        [(a.line, render(msg("cli.photo.accepted", line=a.line, entry=a.entry))) for a in result.accepted]
        + [(r.line, render(msg("cli.photo.refused", line=r.line, reason=r.reason))) for r in result.refused]
    )
    for _, line in rows:
        print(line)
    print(render(msg("cli.photo.summary", accepted=len(result.accepted), refused=len(result.refused))))
    if result.unchecked:
        terms = ", ".join(render(Msg(code=f"photo.rule.{rule}")) for rule in result.unchecked)
        print(render(msg("cli.photo.unchecked", rules=terms)))
    return 0


def _fail(args: argparse.Namespace, reason: Msg) -> int:
    if getattr(args, "json", False):
        print(json.dumps({"error": reason.code, "message": render(reason)}, ensure_ascii=False))
    else:
        print(f"duelclock photo: {render(reason)}", file=sys.stderr)
    return 2


def _jury(args: argparse.Namespace) -> int:
    from clockd.core.photo import jury_result, read_scores

    jurors = [j.strip() for j in args.jurors.split(",") if j.strip()]
    try:
        result = _read(args.entries)
        entries = [a.entry for a in sorted(result.accepted, key=lambda a: a.entry)]
        scores = None
        if args.scores:
            try:
                scores_text = Path(args.scores).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                raise Problem("cli.cannot-read", path=args.scores, problem=exc) from exc
            scores = read_scores(scores_text, jurors=jurors, entries=entries, source=args.scores)
        outcome = jury_result(scores) if scores is not None else None
        page = jury_sheet(entries, jurors, scores, outcome)
        _write(args.html, page)
        if args.announce:
            if outcome is None:
                raise Problem("cli.photo.announce-needs-scores")
            names = _authors(args.entries, result)
            _write(args.announce, announcement(outcome, names))
    except Problem as exc:
        return _fail(args, exc.msg)
    print(render(msg("cli.written", files=[f for f in (args.html, args.announce) if f])))
    return 0


def _write(path: str, content: str) -> None:
    try:
        from clockd.store.files import private_file

        private_file(path, content)
    except OSError as exc:
        raise Problem("cli.cannot-write", path=path, problem=exc) from exc


def _authors(path: str, result: Any) -> dict[int, str]:
    """Each accepted entry's photographer, by the public name rule ("Anna K."): for the announcement."""
    from clockd.core.csvtext import sniff_delimiter
    from clockd.core.registration import decode_signups

    body = decode_signups(Path(path).read_bytes(), path).removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(body), delimiter=sniff_delimiter(body)))
    header, data = rows[0], [r for r in rows[1:] if any(c.strip() for c in r)]
    col = {role: header.index(h) for role, h in result.columns.items()}

    def name(row: list[str]) -> str:
        def get(role: str) -> str:
            i = col.get(role)
            return row[i].strip() if i is not None and i < len(row) else ""

        full = get("full_name") or f"{get('first_name')} {get('last_name')}".strip()
        parts = full.rsplit(None, 1)
        return f"{parts[0]} {parts[1][:1]}." if len(parts) == 2 else full

    return {a.entry: name(data[a.line - 1]) for a in result.accepted}


def jury_sheet(entries: list[int], jurors: list[str], scores: Any, outcome: Any) -> str:
    """The jury's sheet: entry numbers only — no names, no e-mails (§7.2.3)."""
    head = "".join(f"<th>{html.escape(j)}</th>" for j in jurors)
    rows = []
    for entry in entries:
        cells = "".join(
            f"<td>{'' if scores is None else html.escape(str(scores.get(entry, {}).get(j, '')))}</td>"
            for j in jurors
        )
        total = "" if outcome is None else str(outcome.totals.get(entry, ""))
        place = ""
        if outcome is not None and entry == outcome.winner:
            place = render(msg("cli.photo.winner"))
        elif outcome is not None and entry == outcome.distinction:
            place = render(msg("cli.photo.distinction"))
        rows.append(f"<tr><td>{entry}</td>{cells}<td>{total}</td><td>{html.escape(place)}</td></tr>")
    note = ""
    if outcome is not None and outcome.tied:
        note = (
            f"<p>{html.escape(render(msg('cli.photo.tied', entries=', '.join(map(str, outcome.tied)))))}</p>"
        )
    title = html.escape(render(msg("cli.photo.sheet-title")))
    confidential = html.escape(render(msg("cli.photo.confidential")))
    entry_h = html.escape(render(msg("cli.photo.entry")))
    total_h = html.escape(render(msg("cli.photo.total")))
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>'
        "<style>table{border-collapse:collapse}"
        "td,th{border:1px solid #444;padding:4px 10px;text-align:center}</style>"
        f"</head><body><h1>{title}</h1><p>{confidential}</p>"
        f"<table><tr><th>{entry_h}</th>{head}<th>{total_h}</th><th></th></tr>{''.join(rows)}</table>{note}"
        "</body></html>\n"
    )


def announcement(outcome: Any, names: dict[int, str]) -> str:
    """The results as announced (§7.2.1: 10.07): the winner and the distinction, by public name."""
    lines = [render(msg("cli.photo.announce-title"))]
    if outcome.winner is not None:
        lines.append(
            render(msg("cli.photo.announce-winner", entry=outcome.winner, name=names.get(outcome.winner, "")))
        )
    if outcome.distinction is not None:
        lines.append(
            render(
                msg(
                    "cli.photo.announce-distinction",
                    entry=outcome.distinction,
                    name=names.get(outcome.distinction, ""),
                )
            )
        )
    return "\n".join(lines) + "\n"
