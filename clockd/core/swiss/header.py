"""The header a rating officer needs: FIDE TRF-16's records ``012`` to ``132``.

A federation (PZSzach, FIDE) takes a tournament's results as a TRF file whose first lines say
what the tournament was: ``012`` the name, ``022`` the city, ``032`` the federation, ``042`` /
``052`` the first and last day, ``062`` / ``072`` the players and the rated players, ``082``
the teams (none), ``092`` the system, ``102`` the chief arbiter, ``112`` each deputy, ``122`` the
rate of play and ``132`` each round's date. The dates of ``132`` stand in the round columns of
the player lines (round *n* from column 92 + 10·(n−1), ``YY/MM/DD``), so that a program reading
the file by columns finds each round's date above its results.

Pure: the caller says what the day was; a value too long for its place is cut at the file's own
edge (a line is free text after the code, but 132's dates must stay in their columns).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from clockd.core.swiss.model import Record, Tournament

#: The 1-based column of round 1's block in a TRF-16 player line (and of its date in ``132``).
ROUND_COLUMN = 92
#: Each round's block is this wide.
ROUND_WIDTH = 10


@dataclass(frozen=True, slots=True)
class Header:
    """What a rating officer reads about the tournament (empty fields are left out)."""

    name: str
    city: str = ""
    federation: str = ""
    start: datetime.date | None = None
    end: datetime.date | None = None
    system: str = "Swiss System (FIDE Dutch)"
    chief_arbiter: str = ""
    deputies: Sequence[str] = ()
    rate_of_play: str = ""
    round_dates: Sequence[datetime.date] = ()


def _date(d: datetime.date) -> str:
    return d.strftime("%Y/%m/%d")


def round_dates_line(dates: Sequence[datetime.date]) -> str:
    """``132`` with each round's date (``YY/MM/DD``) in that round's columns."""
    line = "132".ljust(ROUND_COLUMN - 1)
    for n, d in enumerate(dates):
        line = line.ljust(ROUND_COLUMN - 1 + n * ROUND_WIDTH) + d.strftime("%y/%m/%d")
    return line


def header_records(header: Header, tournament: Tournament) -> list[Record]:
    """The records ``012``–``132`` of ``header`` for ``tournament`` (its players counted)."""
    players = len(tournament)
    rated = sum(1 for p in tournament.players if p.rating)
    texts = [f"012 {header.name}"]
    if header.city:
        texts.append(f"022 {header.city}")
    if header.federation:
        texts.append(f"032 {header.federation[:3].upper()}")
    if header.start:
        texts.append(f"042 {_date(header.start)}")
    end = header.end or header.start
    if end:
        texts.append(f"052 {_date(end)}")
    texts += [f"062 {players}", f"072 {rated}", "082 0", f"092 {header.system}"]
    if header.chief_arbiter:
        texts.append(f"102 {header.chief_arbiter}")
    texts += [f"112 {d}" for d in header.deputies if d.strip()]
    if header.rate_of_play:
        texts.append(f"122 {header.rate_of_play}")
    if header.round_dates:
        texts.append(round_dates_line(header.round_dates))
    return [Record(t.rstrip()) for t in texts]


#: The codes :func:`with_header` writes (and so replaces).
HEADER_CODES = frozenset(
    {"012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132"}
)


def with_header(tournament: Tournament, header: Header) -> Tournament:
    """``tournament`` with its header records replaced by ``header``'s, first in the file,
    every other record (``XXR``, ``XXC``, comments) kept where it stood."""
    kept = tuple(r for r in tournament.records if r.code not in HEADER_CODES)
    return dataclasses.replace(tournament, records=(*header_records(header, tournament), *kept))


__all__ = [
    "HEADER_CODES",
    "ROUND_COLUMN",
    "ROUND_WIDTH",
    "Header",
    "header_records",
    "round_dates_line",
    "with_header",
]
