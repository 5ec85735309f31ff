"""The chess hall's printouts' common ground: the page, its measured flow, the heading, who the players are.

Apart from :mod:`clockd.reports.chess` because every printout stands on it — the start
list (:mod:`clockd.reports.chess_start_list`) as much as the pairings, standings,
crosstables and prizes: :class:`Printout`, the page's HTML and CSS (:func:`page_html`),
the measuring that cuts long tables into pages before Qt would split a row (:class:`Flow`,
:func:`wrapped_lines`), a group's title, the players' display names and schools
(:func:`people`) and a list's heading. :mod:`clockd.reports.chess` re-exports the public names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from clockd.core.chessday.roster import ChessDay, Entrant, Group
from clockd.core.swiss.model import Tournament, parse_date
from clockd.core.swiss.standings import (
    MIN_PLACES,
    decimal_text,
)
from clockd.core.swiss.startlist import fold
from clockd.core.swiss.trf import fit_name
from clockd.i18n import Msg, Problem, language, render, text


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

PAGE_CSS = (
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


def number_text(value: Fraction, name: str) -> str:
    """A tie-break value as an exact decimal, with the reader's decimal mark."""
    out = decimal_text(value, MIN_PLACES.get(name, 0))
    return out.replace(".", ",") if language() == "pl" else out


def page_html(title: str, subtitle: str, body: str) -> str:
    sub = f'<p class="sub">{escape(subtitle)}</p>\n' if subtitle else ""
    return (
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{PAGE_CSS}</style>\n</head>\n<body>\n"
        f'<p style="font-size:14pt;font-weight:bold;margin:0">{escape(title)}</p>\n'
        f"{sub}{body}</body>\n</html>\n"
    )


#: A4 less the 10 mm margins ``clockd/reports/render.py`` prints with, in millimetres (width, height).
PORTRAIT = (190.0, 277.0)
LANDSCAPE = (277.0, 190.0)
MM_PER_PT = 25.4 / 72
#: Font sizes (CSS pt) the style sheet gives: body cells, school cells, headings. Qt prints
#: a CSS point 4/3 as large (it counts 96 pixels an inch, the page in points): the
#: estimates below are measured on its PDFs, where a line takes 1.6 × the CSS size in points.
FONT_PT = {"school": 7.0, "th": 7.5, "": 8.0}
LINE_HEIGHT = 1.6
_CHAR = 0.54 * 4 / 3  # the width of a character, in CSS points per CSS point of size (wide side)
#: What one row costs besides its lines (padding and border, mm), and what a page keeps
#: back for the estimate's errors (mm).
_ROW_EXTRA_MM = 3.0
_SAFETY_MM = 6.0


def wrapped_lines(html: str, width_mm: float, size_pt: float) -> int:
    """How many lines a cell's text takes in a column ``width_mm`` wide: the words wrapped
    greedily at a character width on the wide side (DejaVu Sans measures about 0.5 em a
    character in these lists; 0.54 is counted)."""
    usable = max(width_mm - 2.5, 4.0)
    per_line = max(int(usable / (_CHAR * size_pt * MM_PER_PT)), 1)
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
            size = FONT_PT["school"] if cls == "school" or 'class="school"' in part else FONT_PT[""]
            height += wrapped_lines(part, width, size) * size * LINE_HEIGHT * MM_PER_PT
        tallest = max(tallest, height)
    return tallest + _ROW_EXTRA_MM


class Flow:
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
        need = 11 * LINE_HEIGHT * MM_PER_PT + 6
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
        head_lines = max(
            wrapped_lines(h, w, FONT_PT["th"]) for (h, _, _), w in zip(heads, widths, strict=True)
        )
        head_mm = head_lines * FONT_PT["th"] * LINE_HEIGHT * MM_PER_PT + _ROW_EXTRA_MM
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
        self.left -= lines * 7 * LINE_HEIGHT * MM_PER_PT + 3
        return html


def table_html(
    heads: Sequence[tuple[str, str, int | None]],
    rows: Iterable[Sequence[tuple[str, str]]],
    *,
    paper: tuple[float, float] = PORTRAIT,
    used_mm: float = 22.0,
) -> str:
    """One list on pages of its own (see :class:`Flow`)."""
    return Flow(paper, used_mm).table(heads, rows)


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


__all__ = [
    "FONT_PT",
    "LANDSCAPE",
    "LINE_HEIGHT",
    "MM_PER_PT",
    "PAGE_CSS",
    "PORTRAIT",
    "Flow",
    "Heading",
    "Person",
    "Printout",
    "date_text",
    "group_title",
    "heading",
    "number_text",
    "page_html",
    "people",
    "table_html",
    "wrapped_lines",
]
