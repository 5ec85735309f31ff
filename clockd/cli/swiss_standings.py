"""``duelclock swiss standings INPUT.trf``: standings with FIDE tie-breaks.

Text and HTML are for people (headings in Polish unless ``DUELCLOCK_LANG=en``); CSV and
JSON are for programs (English keys: ``rank``, ``start_number``, ``name``, ``points`` and
one key per tie-break named by its C.07 acronym). Numbers are exact decimals.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from clockd.i18n import text

if TYPE_CHECKING:
    from clockd.core.swiss.standings import Standings

FORMATS = ("text", "csv", "json", "html")
DEFAULT_TIEBREAKS = "BH-C1,BH,SB,PS,DE,WIN,BWG"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "standings",
        help=text("cli.swiss-standings.standings-with-fide-tie-breaks"),
        description=text("cli.swiss-standings.standings-of-a-swiss-tournament-in"),
    )
    parser.add_argument(
        "input", metavar="INPUT.trf", help=text("cli.swiss-standings.the-tournament-fide-trf")
    )
    parser.add_argument(
        "--after-round",
        type=int,
        metavar="N",
        help=text("cli.swiss-standings.standings-after-round-n-default-the"),
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help=text("cli.swiss-standings.output-format-default-text"),
    )
    parser.add_argument(
        "--edition",
        choices=("2024", "2026"),
        help=text("cli.swiss-standings.edition-of-the-tie-break-regulations"),
    )
    parser.add_argument(
        "--tiebreaks",
        default=DEFAULT_TIEBREAKS,
        metavar="LIST",
        help=text(
            "cli.swiss-standings.tie-breaks-after-points-in-order", DEFAULT_TIEBREAKS=DEFAULT_TIEBREAKS
        ),
    )
    parser.add_argument(
        "--wins",
        choices=("WIN", "WON"),
        default="WIN",
        help=text("cli.swiss-standings.what-win-in-the-list-counts"),
    )
    parser.add_argument(
        "--lots",
        metavar="SEED",
        help=text("cli.swiss-standings.break-the-ties-left-at-the"),
    )
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"duelclock swiss standings: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from clockd.core.swiss import trf
    from clockd.core.swiss.model import ModelError
    from clockd.core.swiss.standings import parse_order, standings
    from clockd.core.swiss.tiebreaks import Edition

    try:
        order = parse_order(args.tiebreaks, wins=args.wins)
    except ValueError as exc:
        return _fail(f"--tiebreaks: {exc}")
    try:
        data = Path(args.input).read_bytes()
    except OSError as exc:
        return _fail(f"{args.input}: {exc.strerror or exc}")
    try:
        tournament = trf.load_bytes(data)
    except (trf.TrfError, ModelError) as exc:
        return _fail(f"{args.input}: {exc}")
    played = tournament.rounds_paired
    rounds = played if args.after_round is None else args.after_round
    if not 1 <= rounds <= played:
        return _fail(
            f"--after-round {rounds}: {args.input} has rounds 1 to {played}"
            if played
            else f"{args.input} has no rounds played yet"
        )
    edition = Edition(args.edition) if args.edition else None
    table = standings(tournament, order=order, rounds=rounds, edition=edition, lots_seed=args.lots)
    unreadable = tournament.unreadable_start_date
    if unreadable is not None and edition is None:
        line = next(
            n for r, n in zip(tournament.records, tournament.record_lines(), strict=True) if r.code == "042"
        )
        print(
            text(
                "cli.swiss-standings.warning-line-the-date-of-start",
                input=args.input,
                line=line,
                unreadable=unreadable,
                value=table.edition.value,
            ),
            file=sys.stderr,
        )
    render = {"text": render_text, "csv": render_csv, "json": render_json, "html": render_html}
    sys.stdout.write(render[args.format](table, tournament.name))
    return 0


# -- rendering ---------------------------------------------------------------------------------


def _cell(name: str, value: Fraction) -> str:
    from clockd.core.swiss.standings import MIN_PLACES, decimal_text

    return decimal_text(value, MIN_PLACES.get(name, 0))


def _edition_note(table: Standings) -> str:
    basis = "swiss.edition-basis." + table.edition_basis.name.lower().replace("_", "-")
    why = text(basis)
    note = text("cli.swiss-standings.edition-note", edition=table.edition.value, why=why)
    if table.lots_seed is not None:
        note += text("cli.swiss-standings.lots-drawn-with-seed", lots_seed=table.lots_seed)
    return note


def _title(table: Standings, name: str) -> str:
    title = text("cli.swiss-standings.standings-after-round", rounds=table.rounds)
    return f"{title} — {name}" if name else title


def _headings() -> list[str]:
    return [
        text("cli.swiss-standings.rank"),
        text("cli.swiss-standings.no"),
        text("cli.swiss-standings.player"),
        text("cli.swiss-standings.pts"),
    ]


def render_text(table: Standings, name: str = "") -> str:
    head = _headings() + list(table.order)
    rows = [
        [str(r.rank), str(r.start_number), r.name, _cell("PTS", r.points)]
        + [_cell(n, r.values[n]) for n in table.order]
        for r in table.rows
    ]
    widths = [max(len(line[i]) for line in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [_title(table, name), "", line(head), *(line(r) for r in rows), "", _edition_note(table)]
    return "\n".join(out) + "\n"


def render_csv(table: Standings, name: str = "") -> str:
    """One row per player. Every cell is :func:`~clockd.core.csvtext.spreadsheet_cell`: a name
    that starts like a formula (``=``, ``+``, ``-``, ``@``) gets a leading apostrophe; rank,
    start number, points and tie-breaks are plain decimal numbers and stay as they are."""
    import csv
    import io

    from clockd.core.csvtext import spreadsheet_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["rank", "start_number", "name", "points", *table.order])
    for r in table.rows:
        cells = [
            r.rank,
            r.start_number,
            r.name,
            _cell("PTS", r.points),
            *(_cell(n, r.values[n]) for n in table.order),
        ]
        writer.writerow([spreadsheet_cell(c) for c in cells])
    return buffer.getvalue()


def render_json(table: Standings, name: str = "") -> str:
    """A JSON list of objects, numbers written as exact decimals (not through floats)."""
    import json

    objects = []
    for r in table.rows:
        fields = [
            ("start_number", str(r.start_number)),
            ("rank", str(r.rank)),
            ("name", json.dumps(r.name, ensure_ascii=False)),
            ("points", _cell("PTS", r.points)),
        ]
        fields += [(n, _cell(n, r.values[n])) for n in table.order]
        objects.append("  {" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields) + "}")
    return "[\n" + ",\n".join(objects) + "\n]\n" if objects else "[]\n"


def render_html(table: Standings, name: str = "") -> str:
    from html import escape

    from clockd.i18n import language

    head = "".join(f"<th>{escape(h)}</th>" for h in _headings() + list(table.order))
    body = []
    for r in table.rows:
        cells = [
            str(r.rank),
            str(r.start_number),
            r.name,
            _cell("PTS", r.points),
            *(_cell(n, r.values[n]) for n in table.order),
        ]
        body.append(
            "<tr>"
            + "".join(
                f'<td class="name">{escape(c)}</td>' if i == 2 else f"<td>{escape(c)}</td>"
                for i, c in enumerate(cells)
            )
            + "</tr>"
        )
    title = escape(_title(table, name))
    return (
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n"
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "th,td{border:1px solid #999;padding:2px 6px;text-align:right}"
        "td.name{text-align:left}@media print{body{font-size:10pt}}</style>\n"
        f"</head>\n<body>\n<h1>{title}</h1>\n<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
        + "\n".join(body)
        + f"\n</tbody>\n</table>\n<p>{escape(_edition_note(table))}</p>\n</body>\n</html>\n"
    )
