"""The start list: printed for families to check, its machine-readable copy, and the corrections since.

Apart from :mod:`clockd.reports.chess` because the start list has a life of its own
before the first round: it is published, a copy of it is kept (:func:`start_list_copy`,
:func:`read_start_list_copy`), and a later one is compared with it so that the reprint
shows what changed (:func:`compare_start_lists`). It stands on
:mod:`clockd.reports.chess_page`; :mod:`clockd.reports.chess` re-exports its public names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from clockd.core.swiss.startlist import fold
from clockd.i18n import Problem, text
from clockd.reports.chess_page import (
    FONT_PT,
    LINE_HEIGHT,
    MM_PER_PT,
    PORTRAIT,
    Heading,
    Person,
    Printout,
    page_html,
    table_html,
    wrapped_lines,
)

#: The version of the start list's machine-readable copy (:func:`start_list_copy`).
COPY_FORMAT = 1
#: The kind written into the copy, so that another JSON file is not taken for one.
COPY_KIND = "duelclock-chess-start-list"


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
    lines = sum(wrapped_lines(part, PORTRAIT[0] - 4, FONT_PT[""]) for part in parts)
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
    used = 22.0 + (lines * FONT_PT[""] * LINE_HEIGHT * MM_PER_PT + 9 if box else 0)
    body = box + table_html(heads, rows, used_mm=used)
    note = escape(text("report.chess.players-count", n=len(rows)))
    if head.late_note():
        note += f"<br>{escape(head.late_note())}"
    body += f'<p class="note">{note}</p>\n'
    return Printout(page_html(head.title("report.chess.start-list"), head.subtitle(), body))


__all__ = [
    "COPY_FORMAT",
    "COPY_KIND",
    "Changes",
    "Correction",
    "Listed",
    "compare_start_lists",
    "listed",
    "read_start_list_copy",
    "start_list",
    "start_list_copy",
]
