"""What the school chess hall prints (RULES.md §H): start lists, pairings, standings,
crosstables, prize lists, diplomas and the medal pick-up list, as HTML.

A group's games come from its TRF (:class:`~clockd.core.swiss.model.Tournament`); what a TRF
cannot hold — a player's school and class, the medal paid for — from the day file's
:class:`~clockd.core.chessday.roster.Group`, matched by start number. Either is enough for
the lists that need only it (the medal list needs only the day file).

The HTML uses only what Qt's rich-text engine draws as well as a browser does — tables
with ``<thead>``, ``border``/``cellpadding`` attributes, ``width`` in per cent, a little
CSS, ``page-break-before`` — so that ``clockd/reports/render.py`` turns it into an A4 PDF with no web
engine, and the same file prints from a browser. Qt would split a table row across two
pages, so long lists are cut into pages here (:class:`_Flow`), each page a table with its
headings. Scores and results never wrap (``white-space: nowrap`` and non-breaking spaces);
long school names do, inside their column.

Public pages only: display names, schools, classes and ratings. Birth dates and e-mails
are in the day file but never read here, so they cannot leak into a printout (a test holds
every printout to it).

Every builder returns a :class:`Printout`: the HTML and whether it wants a landscape page.
Headings speak Polish unless ``DUELCLOCK_LANG=en``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from clockd.core.chessday.roster import ChessDay, Entrant, Group
from clockd.core.swiss.model import Code, Colour, RoundEntry, Tournament, parse_date
from clockd.core.swiss.standings import (
    DEFAULT_ORDER,
    MIN_PLACES,
    Standings,
    decimal_text,
    score_text,
    standings,
)
from clockd.core.swiss.startlist import fold, polish_key
from clockd.core.swiss.trf import fit_name
from clockd.i18n import Msg, Problem, language, render, text

#: The version of the start list's machine-readable copy (:func:`start_list_copy`).
COPY_FORMAT = 1
#: The kind written into the copy, so that another JSON file is not taken for one.
COPY_KIND = "duelclock-chess-start-list"
#: Places that get a cup, a medal and a diploma (§H "Nagrody").
PRIZE_PLACES = 3


@dataclass(frozen=True, slots=True)
class Printout:
    """A page to print: its HTML, and whether it wants A4 landscape (wide tables)."""

    html: str
    landscape: bool = False


# -- group names -------------------------------------------------------------------------------


def group_title(group: Group) -> Msg:
    """The group's printed name (``Klasa 3, chłopcy``): :meth:`Group.title`."""
    return group.title()


# -- who the players are -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Person:
    """A player as the public lists show them: no birth date, no e-mail."""

    start: int
    name: str  # as lists write it, surname first: "Kowalski Jan"
    hall_name: str  # as a diploma reads it: "Jan Kowalski"
    rating: int | None = None
    school: str = ""
    school_class: str = ""
    medal: bool = False


def _names(trf_name: str) -> tuple[str, str]:
    """``Kowalski, Jan`` → (``Kowalski Jan``, ``Jan Kowalski``); a name without a comma
    is both (the file does not say which word is the surname)."""
    surname, comma, first = trf_name.partition(",")
    if not comma:
        name = " ".join(trf_name.split())
        return name, name
    surname, first = " ".join(surname.split()), " ".join(first.split())
    return f"{surname} {first}".strip(), f"{first} {surname}".strip()


def people(tournament: Tournament, group: Group | None = None) -> dict[int, Person]:
    """Each TRF player, with school, class and medal from ``group`` (matched by start number).

    A player the day file does not list (added at the desk on the day) has no school; a
    start number under two different names means the day file is not this TRF's group:
    :class:`Problem` ``report.chess.roster-mismatch``, nothing printed from a wrong list. A
    name the TRF's 33 columns cut (:func:`~clockd.core.swiss.trf.fit_name`) is the day file's
    name, and the list prints it whole."""
    entrants: Mapping[int, Entrant] = {e.start: e for e in group.entrants} if group else {}
    out: dict[int, Person] = {}
    for p in tournament.players:
        e = entrants.get(p.start_number)
        if e is None:
            out[p.start_number] = Person(p.start_number, *_names(p.name), p.rating)
            continue
        whole = fold(e.trf_name) == fold(p.name)
        if not whole and fold(fit_name(e.trf_name)) != fold(p.name):
            raise Problem(
                "report.chess.roster-mismatch",
                group=group.key if group else "",
                start=p.start_number,
                day=e.trf_name,
                trf=p.name,
            )
        out[p.start_number] = Person(
            p.start_number,
            _names(p.name if whole else e.trf_name)[0],
            e.name,
            p.rating if p.rating is not None else e.rating,
            e.school,
            e.school_class,
            e.medal,
        )
    return out


# -- the page ----------------------------------------------------------------------------------

_CSS = (
    "body{font-family:'DejaVu Sans',Arial,sans-serif;font-size:8pt}"
    "p.sub{font-size:7.5pt;color:#555555;margin:0 0 5pt 0}"
    "table.list{border-collapse:collapse}"
    "table.list th{background-color:#e0e0e0;font-size:7.5pt}"
    "table.list td{vertical-align:top}"
    "td.n,th.n{text-align:right;white-space:nowrap}"
    "td.c,th.c{text-align:center;white-space:nowrap}"
    "td.school,span.school{font-size:7pt}span.school{color:#444444}"
    "p.note{font-size:7pt;color:#333333}"
    "td.top1,td.top2,td.top3{text-align:right;white-space:nowrap}"
    "td.top1{background-color:#f5d76e}td.top2{background-color:#d9d9d9}td.top3{background-color:#e8b98a}"
)


def _number(value: Fraction, name: str) -> str:
    """A tie-break value as an exact decimal, with the reader's decimal mark."""
    out = decimal_text(value, MIN_PLACES.get(name, 0))
    return out.replace(".", ",") if language() == "pl" else out


def _page(title: str, subtitle: str, body: str) -> str:
    sub = f'<p class="sub">{escape(subtitle)}</p>\n' if subtitle else ""
    return (
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f'<p style="font-size:14pt;font-weight:bold;margin:0">{escape(title)}</p>\n'
        f"{sub}{body}</body>\n</html>\n"
    )


#: A4 less the 10 mm margins ``clockd/reports/render.py`` prints with, in millimetres (width, height).
PORTRAIT = (190.0, 277.0)
LANDSCAPE = (277.0, 190.0)
_MM_PER_PT = 25.4 / 72
#: Font sizes (CSS pt) the style sheet gives: body cells, school cells, headings. Qt prints
#: a CSS point 4/3 as large (it counts 96 pixels an inch, the page in points): the
#: estimates below are measured on its PDFs, where a line takes 1.6 × the CSS size in points.
_FONT = {"school": 7.0, "th": 7.5, "": 8.0}
_LINE = 1.6
_CHAR = 0.54 * 4 / 3  # the width of a character, in CSS points per CSS point of size (wide side)
#: What one row costs besides its lines (padding and border, mm), and what a page keeps
#: back for the estimate's errors (mm).
_ROW_EXTRA_MM = 3.0
_SAFETY_MM = 6.0


def _lines(html: str, width_mm: float, size_pt: float) -> int:
    """How many lines a cell's text takes in a column ``width_mm`` wide: the words wrapped
    greedily at a character width on the wide side (DejaVu Sans measures about 0.5 em a
    character in these lists; 0.54 is counted)."""
    usable = max(width_mm - 2.5, 4.0)
    per_line = max(int(usable / (_CHAR * size_pt * _MM_PER_PT)), 1)
    plain = re.sub(r"&[#a-zA-Z0-9]+;", "x", re.sub(r"<[^>]+>", "", html))
    lines, used = 1, 0
    for word in plain.split():
        length = len(word)
        if used and used + 1 + length > per_line:
            lines, used = lines + 1, 0
        while length > per_line:  # a word longer than the line is broken anywhere
            lines, length = lines + 1, length - per_line
        used = length if not used else used + 1 + length
    return lines


def _row_height(cells: Sequence[tuple[str, str]], widths_mm: Sequence[float]) -> float:
    """A row's height in mm: its tallest cell. A cell's parts separated by ``<br>`` are
    lines of their own; a part in a school span is in the school's smaller font."""
    tallest = 0.0
    for (html, cls), width in zip(cells, widths_mm, strict=True):
        height = 0.0
        for part in html.split("<br>"):
            size = _FONT["school"] if cls == "school" or 'class="school"' in part else _FONT[""]
            height += _lines(part, width, size) * size * _LINE * _MM_PER_PT
        tallest = max(tallest, height)
    return tallest + _ROW_EXTRA_MM


class _Flow:
    """Lays tables and headings out on A4 pages, as Qt will print them.

    Qt splits a table row across two pages when it does not fit (a school name's second
    line alone at the top of the next page), so lists are cut into pages here: each page's
    rows are estimated (on the safe side) to fit, and each page is a table of its own with
    the headings, starting on a new page. A heading that would be the last line of a page
    goes to the next one with its table. ``paper`` is the printable width and height in mm;
    ``used_mm`` what the title takes on the first page."""

    def __init__(self, paper: tuple[float, float] = PORTRAIT, used_mm: float = 22.0) -> None:
        self.width, self.height = paper
        self.left = self.height - used_mm - _SAFETY_MM
        self.started = False  # something is on the current page

    def _new_page(self) -> str:
        self.left = self.height - _SAFETY_MM
        self.started = False
        return ' style="page-break-before:always"'

    def heading(self, title: str, *, keep_mm: float = 25.0) -> str:
        """A section's heading, moved to a new page with what follows if ``keep_mm`` would
        not fit. A bold paragraph, not ``<h2>``: Qt keeps its own (large) heading sizes
        whatever a style says."""
        need = 11 * _LINE * _MM_PER_PT + 6
        brk = self._new_page() if self.started and need + keep_mm > self.left else ""
        self.left -= need
        self.started = True
        style = "font-size:11pt;font-weight:bold;margin-top:8pt;margin-bottom:3pt"
        style += ";page-break-before:always" if brk else ""
        return f'<p style="{style}">{escape(title)}</p>\n'

    def table(
        self, heads: Sequence[tuple[str, str, int | None]], rows: Iterable[Sequence[tuple[str, str]]]
    ) -> str:
        """A bordered list: ``heads`` are (text, class, width %), a row's cells (html, class).
        Border, spacing and padding are attributes as well as CSS: Qt reads the attributes."""
        head = "".join(
            f'<th class="{cls}"' + (f' width="{w}%"' if w else "") + f">{escape(h)}</th>"
            for h, cls, w in heads
        )
        free = [w for _, _, w in heads if not w]
        rest = max(100 - sum(w or 0 for _, _, w in heads), 0) / max(len(free), 1)
        widths = [self.width * (w or rest) / 100 for _, _, w in heads]
        head_lines = max(_lines(h, w, _FONT["th"]) for (h, _, _), w in zip(heads, widths, strict=True))
        head_mm = head_lines * _FONT["th"] * _LINE * _MM_PER_PT + _ROW_EXTRA_MM
        pages: list[tuple[str, list[str]]] = []
        for row in rows:
            need = _row_height(row, widths)
            if not pages or need > self.left:
                brk = self._new_page() if pages or (self.started and head_mm + need > self.left) else ""
                pages.append((brk, []))
                self.left -= head_mm
            self.left -= need
            self.started = True
            pages[-1][1].append(
                "<tr>" + "".join(f'<td class="{cls}">{cell}</td>' for cell, cls in row) + "</tr>"
            )
        if not pages:
            pages.append(("", []))
            self.left -= head_mm
        return "".join(
            f'<table class="list" border="1" cellspacing="0" cellpadding="3" width="100%"{brk}>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(page) + "\n</tbody>\n</table>\n"
            for brk, page in pages
        )

    def paragraph(self, html: str, lines: int = 1) -> str:
        self.left -= lines * 7 * _LINE * _MM_PER_PT + 3
        return html


def _table(
    heads: Sequence[tuple[str, str, int | None]],
    rows: Iterable[Sequence[tuple[str, str]]],
    *,
    paper: tuple[float, float] = PORTRAIT,
    used_mm: float = 22.0,
) -> str:
    """One list on pages of its own (see :class:`_Flow`)."""
    return _Flow(paper, used_mm).table(heads, rows)


@dataclass(frozen=True, slots=True)
class Heading:
    """What every printout of a group says at its top: the event, the group, the date."""

    event: str = ""
    group: str = ""
    date: str = ""
    #: The group's rule for a late entrant's missed rounds (``half``/``zero``; ``""``: not known),
    #: stated on the start list and the standings (FIDE C.04: the organiser's choice, made public).
    late_entry: str = ""

    def late_note(self) -> str:
        """The rule as a printed line (``Spóźnieni: za opuszczone rundy ½ pkt``), or ``""``."""
        codes = {"half": "report.chess.late-entry.half", "zero": "report.chess.late-entry.zero"}
        return text(codes[self.late_entry]) if self.late_entry in codes else ""

    def subtitle(self, *more: str) -> str:
        return " · ".join(x for x in (self.event, self.date, *more) if x)

    def title(self, code: str, **params: Any) -> str:
        what = text(code, **params)
        return f"{what} — {self.group}" if self.group else what


def heading(tournament: Tournament, group: Group | None = None, day: ChessDay | None = None) -> Heading:
    """The event's name and date (the day file's, else the TRF's ``012``/``042``) and the
    group's name (the catalogue's, else the TRF's name)."""
    name = render(group_title(group)) if group else tournament.name
    event = (day.title if day else "") or (tournament.name.removesuffix(f" — {name}") if group else "")
    date = (day.date if day else "") or (tournament.record_value("042") or "")
    return Heading(event, name, date_text(date), day.late_entry if day else "")


def date_text(value: str) -> str:
    """A date as the reader writes it (``27.10.2026``; ISO in English); text that is not a
    date stays as it is."""
    day = parse_date(value) if value else None
    if day is None:
        return value
    return f"{day.day:02d}.{day.month:02d}.{day.year}" if language() == "pl" else day.isoformat()


# -- start list --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listed:
    """A start-list line as published (what the machine-readable copy holds)."""

    start: int
    name: str
    rating: int | None
    school: str
    school_class: str


def listed(persons: Mapping[int, Person]) -> list[Listed]:
    return [
        Listed(p.start, p.name, p.rating, p.school, p.school_class)
        for p in sorted(persons.values(), key=lambda p: p.start)
    ]


def start_list_copy(lines: Sequence[Listed], *, group: str, title: str) -> str:
    """The published start list as JSON, to keep beside the HTML/PDF: the next publication
    compares against it (:func:`compare_start_lists`). Public fields only."""
    data = {
        "kind": COPY_KIND,
        "format": COPY_FORMAT,
        "group": group,
        "title": title,
        "players": [
            {
                "start": x.start,
                "name": x.name,
                "rating": x.rating,
                "school": x.school,
                "class": x.school_class,
            }
            for x in lines
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def read_start_list_copy(data: Any) -> list[Listed] | None:
    """The lines of a copy written by :func:`start_list_copy`, or ``None`` if ``data`` is not one."""
    if not isinstance(data, dict) or data.get("kind") != COPY_KIND:
        return None
    if data.get("format") != COPY_FORMAT:
        raise Problem("report.chess.copy-format", found=str(data.get("format")), known=COPY_FORMAT)
    out = []
    for i, p in enumerate(data.get("players") or [], start=1):
        try:
            rating = p.get("rating")
            out.append(
                Listed(
                    int(p["start"]),
                    str(p["name"]),
                    int(rating) if rating is not None else None,
                    str(p.get("school", "")),
                    str(p.get("class", "")),
                )
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Problem("report.chess.copy-bad-player", index=i) from None
    return out


@dataclass(frozen=True, slots=True)
class Correction:
    """One player found in both lists with something changed: ``fields`` as (what, old, new)."""

    old: Listed
    new: Listed
    fields: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class Changes:
    """What changed between two publications of a start list."""

    added: tuple[Listed, ...] = ()
    removed: tuple[Listed, ...] = ()
    corrected: tuple[Correction, ...] = ()
    #: The box's title: since the previous list (two files compared), or since the publication
    #: (what the daemon journaled: late entries and fixes, ``report.chess.changes-published``).
    since: str = "report.chess.changes"

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.corrected)


#: The fields a correction may touch, by their catalogue code.
_FIELDS = (
    ("name", "report.chess.field.name"),
    ("rating", "report.chess.field.rating"),
    ("school", "report.chess.field.school"),
    ("school_class", "report.chess.field.class"),
)


def _fields(old: Listed, new: Listed) -> tuple[tuple[str, str, str], ...]:
    out = []
    for attr, code in _FIELDS:
        a, b = getattr(old, attr), getattr(new, attr)
        if a != b:
            out.append((code, "" if a is None else str(a), "" if b is None else str(b)))
    return tuple(out)


def compare_start_lists(old: Sequence[Listed], new: Sequence[Listed], *, names_only: bool = False) -> Changes:
    """Who was added, removed or corrected since ``old`` was published.

    Start numbers are not identities (one player added shifts everyone below), so a player
    is found again by name (case, diacritics and spacing aside), then — for a corrected
    name — by the same school and class and the same surname or first name. ``names_only``
    compares name and rating only (an old list from a TRF knows no schools)."""
    left = list(old)
    pairs: list[tuple[Listed, Listed]] = []
    unmatched_new: list[Listed] = []
    for n in new:
        hit = next((o for o in left if fold(o.name) == fold(n.name)), None)
        if hit is None:
            unmatched_new.append(n)
        else:
            left.remove(hit)
            pairs.append((hit, n))
    added = []
    for n in unmatched_new:
        words = set(fold(n.name).split())
        hit = next(
            (
                o
                for o in left
                if (
                    names_only
                    or (fold(o.school), fold(o.school_class)) == (fold(n.school), fold(n.school_class))
                )
                and words & set(fold(o.name).split())
            ),
            None,
        )
        if hit is None:
            added.append(n)
        else:
            left.remove(hit)
            pairs.append((hit, n))
    corrected = []
    for o, n in sorted(pairs, key=lambda p: p[1].start):
        if names_only:
            o = Listed(o.start, o.name, o.rating, n.school, n.school_class)
        fields = _fields(o, n)
        if fields:
            corrected.append(Correction(o, n, fields))
    return Changes(tuple(added), tuple(sorted(left, key=lambda x: x.start)), tuple(corrected))


def _changes_html(changes: Changes) -> tuple[str, int]:
    """The box at the top of a start list published again, and how many lines it takes.

    A one-cell table, not a bordered ``div``: Qt draws a table's border and background,
    not a block's."""
    if not changes:
        parts = [escape(text("report.chess.no-changes"))]
    else:
        parts = [f"<b>{escape(text(changes.since))}</b>"]

    def who(x: Listed) -> str:
        return escape(f"{x.start}. {x.name}" + (f" ({x.school})" if x.school else ""))

    if changes.added:
        items = "; ".join(who(x) for x in changes.added)
        parts.append(f"{escape(text('report.chess.added', n=len(changes.added)))} {items}")
    if changes.removed:
        items = "; ".join(escape(x.name) for x in changes.removed)
        parts.append(f"{escape(text('report.chess.removed', n=len(changes.removed)))} {items}")
    if changes.corrected:
        parts.append(escape(text("report.chess.corrected", n=len(changes.corrected))))
        for c in changes.corrected:
            fields = ", ".join(
                text("report.chess.changed-field", field=text(code), old=a or "—", new=b or "—")
                for code, a, b in c.fields
            )
            parts.append("&nbsp;&nbsp;" + escape(f"{c.new.start}. {c.new.name}: {fields}"))
    lines = sum(_lines(part, PORTRAIT[0] - 4, _FONT[""]) for part in parts)
    html = (
        '<div class="changes"><table border="1" cellspacing="0" cellpadding="5" width="100%" '
        'bgcolor="#fff8e1"><tr><td>' + "<br>".join(parts) + "</td></tr></table></div>\n<p></p>\n"
    )
    return html, lines


def start_list(persons: Mapping[int, Person], head: Heading, *, changes: Changes | None = None) -> Printout:
    """The group's start list in FIDE order (the TRF's start numbers): No., name, rating,
    school, class — for families to check (§H asks them to); ``changes`` since the last
    publication at the top."""
    rows = [
        [
            (str(p.start), "n"),
            (escape(p.name), "name"),
            ("" if p.rating is None else str(p.rating), "n"),
            (escape(p.school), "school"),
            (escape(p.school_class), "c"),
        ]
        for p in sorted(persons.values(), key=lambda p: p.start)
    ]
    heads = [
        (text("report.chess.no"), "n", 5),
        (text("report.chess.player"), "", 32),
        (text("report.chess.rating"), "n", 8),
        (text("report.chess.school"), "", 48),
        (text("report.chess.class"), "c", 7),
    ]
    box, lines = _changes_html(changes) if changes is not None else ("", 0)
    used = 22.0 + (lines * _FONT[""] * _LINE * _MM_PER_PT + 9 if box else 0)
    body = box + _table(heads, rows, used_mm=used)
    note = escape(text("report.chess.players-count", n=len(rows)))
    if head.late_note():
        note += f"<br>{escape(head.late_note())}"
    body += f'<p class="note">{note}</p>\n'
    return Printout(_page(head.title("report.chess.start-list"), head.subtitle(), body))


# -- pairings ----------------------------------------------------------------------------------


def board_order(
    tournament: Tournament, round_number: int, boards: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Boards in FIDE order, as the pairing engine numbers them: the higher score of the
    pair first, then the lower, then the higher-ranked player's start number. (A TRF keeps
    no board numbers; a recorded round is put back in the order it was posted in.)"""
    before = round_number - 1
    rank = {sn: i for i, sn in enumerate(tournament.start_numbers)}
    score = {p.start_number: p.score(before) for p in tournament.players}

    def key(board: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
        w, b = board
        hi, lo = (w, b) if (score[w], -rank[w]) >= (score[b], -rank[b]) else (b, w)
        return (-score[hi], -score[lo], rank[hi])

    return sorted(boards, key=key)


def recorded_round(tournament: Tournament, round_number: int) -> tuple[list[tuple[int, int]], int | None]:
    """A recorded round's boards (white, black) in board order, and the pairing-allocated bye."""
    pairings, bye = tournament.pairings(round_number)
    return board_order(tournament, round_number, ((p.white, p.black) for p in pairings)), bye


_RESULT = {
    Code.WIN: "1",
    Code.UNRATED_WIN: "1",
    Code.DRAW: "½",
    Code.UNRATED_DRAW: "½",
    Code.LOSS: "0",
    Code.UNRATED_LOSS: "0",
    Code.FORFEIT_WIN: "+",
    Code.FORFEIT_LOSS: "−",
}


def _board_result(tournament: Tournament, round_number: int, white: int) -> str:
    """``1–0``, ``½–½``, ``0–0`` (no reported result), ``+–−`` …; empty if not recorded yet."""
    entry = tournament[white].entry(round_number)
    if entry.opponent is None:
        return ""
    black = tournament[entry.opponent].entry(round_number)
    a, b = _RESULT.get(entry.code), _RESULT.get(black.code)
    return f"{a}–{b}" if a and b else ""


def _bye_text(entry: RoundEntry) -> str:
    codes = {
        Code.PAIRING_BYE: "report.chess.bye.pairing",
        Code.FULL_BYE: "report.chess.bye.full",
        Code.HALF_BYE: "report.chess.bye.half",
        Code.ZERO_BYE: "report.chess.bye.zero",
        Code.FORFEIT_LOSS: "report.chess.bye.absent",
        Code.DRAW: "report.chess.bye.half",
    }
    return text(codes.get(entry.code, "report.chess.bye.not-paired"))


def _withdrawn_in(tournament: Tournament, round_number: int) -> set[int]:
    """The players a file shows withdrawn at ``round_number``: absent with no points in it and
    in every round after it that the file has (at least one: a last round's absence alone is
    an absence)."""
    last = tournament.total_rounds or tournament.rounds_played
    if last <= round_number:
        return set()
    return {
        p.start_number
        for p in tournament.players
        if all(
            p.entry(r).code is Code.ZERO_BYE and p.entry(r).opponent is None
            for r in range(round_number, last + 1)
        )
    }


def _not_playing(
    tournament: Tournament,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    withdrawn: Collection[int] | None,
) -> list[tuple[int, str]]:
    """Who has no board in the round, and why: the bye first, then by start number — a
    withdrawn child as such (``withdrawn``: the group's; ``None``: read off the file), the
    others by their entry in the round (absent, a half-point bye …)."""
    paired = {sn for pair in boards for sn in pair}
    out = []
    if bye is not None:
        paired.add(bye)
        out.append((bye, text("report.chess.bye.pairing")))
    gone = set(withdrawn) if withdrawn is not None else _withdrawn_in(tournament, round_number)
    for p in tournament.players:
        if p.start_number in paired:
            continue
        if p.start_number in gone:
            out.append(
                (
                    p.start_number,
                    text("report.chess.withdrawn-w" if p.sex == "w" else "report.chess.withdrawn"),
                )
            )
        else:
            out.append((p.start_number, _bye_text(p.entry(round_number))))
    return out


def pairings(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    *,
    first_board: int = 1,
    withdrawn: Collection[int] | None = None,
) -> Printout:
    """A round's pairings by board, numbered across the hall from ``first_board``: White's
    name, school and points, the result (empty until entered), Black's; the bye and the
    players not paired in this round below, a withdrawn one as such (``withdrawn``: the
    group's; ``None``: read off the file — absent in this round and every later one)."""
    before = round_number - 1

    def player(sn: int) -> tuple[str, str]:
        """Name and start number, the school below in small type: one column a side keeps a
        board on two or three lines, and a long school name wraps in the whole width."""
        p = persons[sn]
        school = f'<br><span class="school">{escape(p.school)}</span>' if p.school else ""
        return escape(p.name) + f'&nbsp;<span style="color:#666666">({sn})</span>' + school, "name"

    def points(sn: int) -> tuple[str, str]:
        return score_text(tournament[sn].score(before)), "c"

    rows = []
    for i, (w, b) in enumerate(boards):
        result = _board_result(tournament, round_number, w)
        rows.append(
            [
                (str(first_board + i), "n"),
                player(w),
                points(w),
                (result or "&nbsp;", "c"),
                points(b),
                player(b),
            ]
        )
    pts = text("report.chess.pts")
    heads = [
        (text("report.chess.board"), "n", 11),
        (text("report.chess.white"), "", 35),
        (pts, "c", 5),
        (text("report.chess.result"), "c", 9),
        (pts, "c", 5),
        (text("report.chess.black"), "", 35),
    ]
    flow = _Flow(PORTRAIT)
    body = flow.table(heads, rows)
    out = _not_playing(tournament, round_number, boards, bye, withdrawn)
    if out:
        body += flow.heading(text("report.chess.not-playing"))
        body += flow.table(
            [
                (text("report.chess.no"), "n", 7),
                (text("report.chess.player"), "", 54),
                (text("report.chess.pts"), "c", 9),
                ("", "", 30),
            ],
            [[(str(sn), "n"), player(sn), points(sn), (escape(why), "")] for sn, why in out],
        )
    boards_note = (
        text("report.chess.boards-range", first=first_board, last=first_board + len(boards) - 1)
        if boards
        else ""
    )
    title = head.title("report.chess.pairings", round_number=round_number)
    return Printout(_page(title, head.subtitle(boards_note), body))


def _surname_first(tournament: Tournament, sn: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """A player's place in the alphabetical list: surname, then first name, in Polish order
    (``Łukasik`` after ``Lis``, ``Śliwa`` after ``Sowa``); a TRF name without a comma as it is."""
    surname, _, first = tournament[sn].name.partition(",")
    return polish_key(surname.strip()), polish_key(first.strip())


def by_name(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    *,
    first_board: int = 1,
    withdrawn: Collection[int] | None = None,
) -> Printout:
    """The round's pairings by name, for the wall beside the board order: every player of the
    group in Polish alphabetical order of surname, with the board and the colour — a child
    finds their name, not their board among fifty. The bye, the absent and the withdrawn are
    in the list too, with why they do not play. Boards numbered as :func:`pairings` numbers
    them."""
    where: dict[int, tuple[str, str]] = {}
    for i, (w, b) in enumerate(boards):
        board = f"<b>{first_board + i}</b>"
        where[w] = board, f"<b>{escape(text('report.chess.plays-white'))}</b>"
        where[b] = board, escape(text("report.chess.plays-black"))
    for sn, why in _not_playing(tournament, round_number, boards, bye, withdrawn):
        where[sn] = "—", escape(why)
    rows = []
    for sn in sorted(persons, key=lambda sn: (_surname_first(tournament, sn), sn)):
        p = persons[sn]
        board, colour = where.get(sn, ("—", escape(text("report.chess.bye.not-paired"))))
        name = escape(p.name) + f'&nbsp;<span style="color:#666666">({sn})</span>'
        rows.append([(name, "name"), (escape(p.school), "school"), (board, "c"), (colour, "")])
    # the school in a column of its own: most rows stay one line, the list a page or two
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.player"), "", 33),
        (text("report.chess.school"), "", 38),
        (text("report.chess.board"), "c", 13),
        (text("report.chess.colour"), "", 16),
    ]
    body = _table(heads, rows, used_mm=30.0)  # room for a long group's title on two lines
    title = head.title("report.chess.by-name", round_number=round_number)
    return Printout(_page(title, head.subtitle(text("report.chess.by-name-help")), body))


#: Result slips on one A4 page, with a cut line between them.
SLIPS_PER_PAGE = 4
_CUT = "✂" + " -" * 88


def result_slips(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    *,
    first_board: int = 1,
) -> Printout:
    """One slip per board to put on the table (group, round, board, White, Black, a box for
    the result, both players' signatures), :data:`SLIPS_PER_PAGE` to an A4 page with cut
    lines between them. The bye plays no game and gets no slip. Numbered as
    :func:`pairings` numbers the boards, so slip, wall and desk say the same board."""
    rnd = text("report.chess.slip.round", round=round_number)
    white, black = text("report.chess.white"), text("report.chess.black")

    def side(label: str, sn: int) -> str:
        p = persons[sn]
        school = f'<br><span class="school">{escape(p.school)}</span>' if p.school else ""
        return (
            f'<td width="50%"><span class="slip">{escape(label)}: <b>{escape(p.name)}</b>'
            f"&nbsp;({sn})</span>{school}</td>"
        )

    def small(code: str) -> str:
        return f'<span class="school">{escape(text(code))}</span>'

    slips = []
    for i, (w, b) in enumerate(boards):
        board = text("report.chess.slip.board", board=first_board + i)
        brk = ' style="page-break-before:always"' if i and i % SLIPS_PER_PAGE == 0 else ""
        cut = f'<p class="cut">{_CUT}</p>\n' if i % SLIPS_PER_PAGE else ""
        results = "&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;".join(f"<b>{r}</b>" for r in ("1–0", "½–½", "0–1"))
        slips.append(
            f"<div{brk}>{cut}"
            '<table border="1" cellspacing="0" cellpadding="4" width="100%">'
            f'<tr><td colspan="2"><span class="slip">{escape(head.group)} · {escape(rnd)} · </span>'
            f'<span class="board">{escape(board)}</span></td></tr>'
            f"<tr>{side(white, w)}{side(black, b)}</tr>"
            f'<tr><td><span class="slip">{escape(text("report.chess.slip.result"))}'
            f"&nbsp;&nbsp;&nbsp;&nbsp;{results}</span></td>"
            f"<td>{small('report.chess.slip.box')}</td></tr>"
            f"<tr><td>{small('report.chess.slip.sign-white')}<br><br><br></td>"
            f"<td>{small('report.chess.slip.sign-black')}<br><br><br></td></tr>"
            f'<tr><td colspan="2">{small("report.chess.slip.return")}</td></tr>'
            "</table></div>\n"
        )
    if not slips:
        slips.append(f"<p>{escape(text('report.chess.slip.none'))}</p>\n")
    title = head.title("report.chess.slips", round_number=round_number)
    css = _CSS + (
        "span.slip{font-size:9pt}span.board{font-size:12pt;font-weight:bold}"
        "p.cut{white-space:nowrap;color:#777777;font-size:8pt;margin:5pt 0 5pt 0}"
    )
    return Printout(
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        + "".join(slips)
        + "</body>\n</html>\n"
    )


# -- standings ---------------------------------------------------------------------------------

#: The regulations' order (§H "Kolejność miejsc"): points, then these, then lots.
ORDER = DEFAULT_ORDER


def group_standings(
    tournament: Tournament, *, rounds: int | None = None, seed: str | None = None
) -> Standings:
    """The standings in §H's order: points, BH-C1, BH, SB, PS, DE, WIN, BWG, then lots drawn
    with ``seed`` (without one, players tied on everything share a place)."""
    return standings(tournament, order=ORDER, rounds=rounds, lots_seed=seed)


def _seed_note(table: Standings) -> str:
    if table.lots_seed is not None:
        return text("report.chess.lots-seed", seed=table.lots_seed)
    return text("report.chess.no-lots")


def standings_printout(table: Standings, persons: Mapping[int, Person], head: Heading) -> Printout:
    """The standings with the columns headed by their FIDE acronyms in the regulations'
    order, the lots' seed below (so anyone can draw them again), and what each acronym means."""
    names = [n for n in table.order if n != "LOTS"]
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.place"), "n", 5),
        (text("report.chess.no"), "n", 4),
        (text("report.chess.player"), "", 20 if table.lots_seed is not None else 24),
        (text("report.chess.school"), "", 27),
        (text("report.chess.pts"), "c", 5),
        *((n, "c", 5) for n in names),
    ]
    if table.lots_seed is not None:
        heads.append((text("report.chess.lots"), "c", 4))
    rows = []
    for r in table.rows:
        p = persons[r.start_number]
        top = r.rank <= PRIZE_PLACES  # the prize-giving's places: bold, on gold, silver, bronze
        cells = [
            (f"<b>{r.rank}.</b>", f"top{r.rank}") if top else (f"{r.rank}.", "n"),
            (str(r.start_number), "n"),
            (f"<b>{escape(p.name)}</b>", "name") if top else (escape(p.name), "name"),
            (escape(p.school), "school"),
            (f"<b>{score_text(r.points)}</b>", "c"),
            *((_number(r.values[n], n), "c") for n in names),
        ]
        if table.lots_seed is not None:
            cells.append((str(int(r.values["LOTS"])), "c"))
        rows.append(cells)
    legend = text("report.chess.legend")
    body = _table(heads, rows, paper=LANDSCAPE)
    podium = text("report.chess.podium", places=PRIZE_PLACES)
    late = f"<br>{escape(head.late_note())}" if head.late_note() else ""
    body += f'<p class="note">{escape(podium)}<br>{escape(_seed_note(table))}<br>{escape(legend)}{late}</p>\n'
    title = head.title("report.chess.standings", rounds=table.rounds)
    edition = text("report.chess.edition", edition=table.edition.value)
    return Printout(_page(title, head.subtitle(edition), body), landscape=True)


# -- crosstable --------------------------------------------------------------------------------


def _cell(entry: RoundEntry) -> str:
    """One round of the crosstable: the opponent's start number, the colour, the result
    (``12b½``, ``7w+``); a bye as its letter, an absence as ``–``."""
    if entry.opponent is None:
        if entry.code is Code.NONE:
            return "–"
        return {"U": "+", "F": "+", "H": "½", "Z": "0", "-": "−", "=": "½", "+": "+"}.get(
            entry.code.value, "–"
        )
    colour = ""
    if entry.colour is Colour.WHITE:
        colour = text("report.chess.colour.white")
    elif entry.colour is Colour.BLACK:
        colour = text("report.chess.colour.black")
    return f"{entry.opponent}{colour}&nbsp;{_RESULT.get(entry.code, '?')}"


def crosstable(
    tournament: Tournament, table: Standings, persons: Mapping[int, Person], head: Heading
) -> Printout:
    """Players by start number × rounds: each round's opponent, colour and result; points
    and place. No school column: one line a player keeps the table short and readable
    (the start list has the schools). Landscape: eight rounds and a name need the width."""
    place = {r.start_number: r.rank for r in table.rows}
    rounds = table.rounds
    # Every column gets its width: Qt shares what is left very unevenly otherwise.
    per_round = max(3, min(8, (100 - 4 - 22 - 5 - 5) // max(rounds, 1)))
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.no"), "n", 4),
        (text("report.chess.player"), "", 100 - 4 - 5 - 5 - per_round * rounds),
        *((str(r), "c", per_round) for r in range(1, rounds + 1)),
        (text("report.chess.pts"), "c", 5),
        (text("report.chess.place"), "c", 5),
    ]
    rows = []
    for p in tournament.players:
        sn = p.start_number
        rows.append(
            [
                (str(sn), "n"),
                (escape(persons[sn].name), "name"),
                *((_cell(p.entry(r)), "c") for r in range(1, rounds + 1)),
                (f"<b>{score_text(p.score(rounds))}</b>", "c"),
                (f"{place[sn]}.", "c"),
            ]
        )
    body = _table(heads, rows, paper=LANDSCAPE)
    body += f'<p class="note">{escape(text("report.chess.crosstable-legend"))}</p>\n'
    title = head.title("report.chess.crosstable", rounds=rounds)
    return Printout(_page(title, head.subtitle(), body), landscape=True)


# -- prizes, diplomas, medals ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One group's final standings with its players, for the day's prize list and diplomas."""

    head: Heading
    table: Standings
    persons: Mapping[int, Person] = field(default_factory=dict)


def prizes(results: Sequence[GroupResult], *, event: str = "", date: str = "") -> Printout:
    """Places 1–3 of every group given (cups, medals, diplomas — §H "Nagrody"): one section
    per group, so one printout serves the ceremony of the whole day. Players sharing a place
    (no lots drawn) are all listed. A group is never split across two pages."""
    body = []
    flow = _Flow(PORTRAIT)
    for g in results:
        rows = [
            [
                (f"{r.rank}.", "n"),
                (escape(g.persons[r.start_number].name), "name"),
                (escape(g.persons[r.start_number].school), "school"),
                (score_text(r.points), "c"),
                (escape(text("report.chess.prize.award")), "c"),
            ]
            for r in g.table.rows
            if r.rank <= PRIZE_PLACES
        ]
        if len(results) > 1:  # one group's list has the group in its title
            body.append(flow.heading(g.head.group, keep_mm=45))
        body.append(
            flow.table(
                [
                    (text("report.chess.place"), "n", 7),
                    (text("report.chess.player"), "", 29),
                    (text("report.chess.school"), "", 32),
                    (text("report.chess.pts"), "c", 6),
                    (text("report.chess.prize"), "c", 26),
                ],
                rows,
            )
        )
        if g.table.lots_seed is not None:
            body.append(flow.paragraph(f'<p class="note">{escape(_seed_note(g.table))}</p>\n', 2))
    title = text("report.chess.prizes")
    if len(results) == 1:
        title = results[0].head.title("report.chess.prizes")
    sub = " · ".join(x for x in (event, date_text(date)) if x)
    return Printout(_page(title, sub, "".join(body)))


def diplomas(result: GroupResult) -> Printout:
    """One A4 page per participant — name, school, group, place — every player may collect
    one (§H). Pages in place order, as the prize-giving calls the children (ties by start
    number)."""
    head = result.head
    rank = {r.start_number: r.rank for r in result.table.rows}
    pages = []
    for i, sn in enumerate(sorted(result.persons, key=lambda sn: (rank.get(sn, len(rank) + 1), sn))):
        p = result.persons[sn]
        brk = ' style="page-break-before:always"' if i else ""
        school = f'<p align="center" style="font-size:16pt">{escape(p.school)}</p>' if p.school else ""
        klass = text("report.chess.diploma.class", school_class=p.school_class) if p.school_class else ""
        klass = f'<p align="center" style="font-size:13pt">{escape(klass)}</p>' if klass else ""
        place = text("report.chess.diploma.place", place=rank[sn])
        in_group = text("report.chess.diploma.group", group=head.group)
        # 30 pt holds some 21 characters on the line; a longer name is set smaller, to stay one line
        name_pt = min(30, 30 * 21 // max(len(p.hall_name), 1))
        pages.append(
            f"<div{brk}>"
            '<p style="font-size:24pt">&nbsp;</p>'
            f'<p align="center" style="font-size:44pt;font-weight:bold;letter-spacing:4pt">'
            f"{escape(text('report.chess.diploma.title'))}</p>"
            f'<p align="center" style="font-size:15pt">{escape(text("report.chess.diploma.for"))}</p>'
            f'<p align="center" style="font-size:{name_pt}pt;font-weight:bold">{escape(p.hall_name)}</p>'
            f"{school}{klass}"
            '<p style="font-size:14pt">&nbsp;</p>'
            f'<p align="center" style="font-size:20pt">{escape(place)}</p>'
            f'<p align="center" style="font-size:16pt">{escape(in_group)}</p>'
            '<p style="font-size:14pt">&nbsp;</p>'
            f'<p align="center" style="font-size:16pt;font-weight:bold">{escape(head.event)}</p>'
            f'<p align="center" style="font-size:13pt">{escape(head.date)}</p>'
            '<p style="font-size:40pt">&nbsp;</p>'
            '<table width="100%" cellspacing="0" cellpadding="0"><tr>'
            f'<td width="45%" align="center" style="font-size:11pt">……………………………<br>'
            f'{escape(text("report.chess.diploma.chief-arbiter"))}</td><td width="10%"></td>'
            f'<td width="45%" align="center" style="font-size:11pt">……………………………<br>'
            f"{escape(text('report.chess.diploma.organiser'))}</td></tr></table>"
            "</div>\n"
        )
    title = head.title("report.chess.diplomas")
    return Printout(
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "".join(pages)
        + "</body>\n</html>\n"
    )


def medals(day: ChessDay, groups: Sequence[Group] | None = None) -> Printout:
    """The medal pick-up list: everyone who paid 50 zł with the medal, by group (the day's
    order) and name (Polish alphabetical order), with a column to tick when it is collected."""
    chosen = list(groups) if groups is not None else list(day.groups)
    body = []
    total = 0
    flow = _Flow(PORTRAIT)
    for g in chosen:
        who = sorted(
            (e for e in g.entrants if e.medal),
            key=lambda e: (polish_key(e.surname), polish_key(e.first_name)),
        )
        if not who:
            continue
        total += len(who)
        body.append(flow.heading(f"{render(group_title(g))} ({len(who)})"))
        body.append(
            flow.table(
                [
                    (text("report.chess.lp"), "n", 6),
                    (text("report.chess.player"), "", 34),
                    (text("report.chess.school"), "", 40),
                    (text("report.chess.class"), "c", 8),
                    (text("report.chess.collected"), "c", 12),
                ],
                [
                    [
                        (str(i), "n"),
                        (escape(f"{e.surname} {e.first_name}"), "name"),
                        (escape(e.school), "school"),
                        (escape(e.school_class), "c"),
                        ("&nbsp;", "c"),
                    ]
                    for i, e in enumerate(who, start=1)
                ],
            )
        )
    if not total:
        body.append(f"<p>{escape(text('report.chess.no-medals'))}</p>\n")
    title = text("report.chess.medals")
    sub = " · ".join(
        x for x in (day.title, date_text(day.date), text("report.chess.medals-count", n=total)) if x
    )
    return Printout(_page(title, sub, "".join(body)))
