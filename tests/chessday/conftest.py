"""Chess groups for the chess day's tests: rosters made here, no files from elsewhere."""

from __future__ import annotations

from clockd.core.chessday.group import ChessGroupConfig
from clockd.core.chessday.roster import Entrant, Group, Level

SURNAMES = ("Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski", "Zieliński", "Szymański")


def roster(n: int, *, key: str = "sp3-ch", grade: int = 3) -> Group:
    """A boys' group of grade ``grade`` with ``n`` players in FIDE order (rated first)."""
    entrants = tuple(
        Entrant(
            start=i + 1,
            surname=f"{SURNAMES[i % len(SURNAMES)]}{'' if i < len(SURNAMES) else i}",
            first_name="Łukasz" if i % 2 else "Jan",
            sex="m",
            rating=1600 - 10 * i if i < n // 2 else None,
            school=f"Szkoła Podstawowa nr {1 + i % 3}",
            school_class=f"{grade}{'abc'[i % 3]}",
            birth="2017/03/04",
            email=f"rodzic{i}@example.pl",
        )
        for i in range(n)
    )
    return Group(key=key, level=Level.PRIMARY, grade=grade, sex="m", entrants=entrants)


def config(n: int = 11, **kw: object) -> ChessGroupConfig:
    return ChessGroupConfig(group=roster(n), title="Szkolny Turniej Szachowy", date="2026-06-20", **kw)  # type: ignore[arg-type]
