"""The complete registrations → the day's 20 groups (§H: preschool, grades 1–8, secondary; boys, girls).

Keys are ASCII and stable, so the daemon's events, the printouts' file names and a referee's
shorthand agree: ``przedszkole-ch``, ``przedszkole-dz``, ``sp1-ch`` … ``sp8-dz``,
``ponadpodst-ch``, ``ponadpodst-dz`` ("ch" chłopcy = boys, "dz" dziewczęta = girls); a part
of a split group adds its number (``sp3-ch-2``). The printed name comes from the catalogue
(:meth:`~clockd.core.chessday.roster.Group.title`), in the reader's language.

Players are in FIDE start order (:func:`clockd.core.swiss.startlist.start_order`: rating
down, then surname and first name in Polish alphabetical order, unrated last). A group over
:data:`~clockd.core.swiss.startlist.SPLIT_ABOVE` players *may* be split by rating (§H: "the
organiser may"): only when asked (``split_over``), into as few parts as keep each at most
that size, as even as possible, part 1 the strongest — the rating order cut into slices,
each slice a group of its own with start numbers from 1.

A group nobody registered for is not in the day file (the daemon would get an event with
no players); :func:`all_group_slots` lists all 20 for a printout that shows the empty ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from clockd.core.chessday.forms import Form
from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level, Sex
from clockd.core.swiss import startlist

_SEX_KEY: dict[str, str] = {"m": "ch", "w": "dz"}


def group_key(level: Level, grade: int | None, sex: Sex, part: int | None = None) -> str:
    """The group's key: ``przedszkole-ch``, ``sp3-dz``, ``ponadpodst-ch``, ``sp3-ch-2``."""
    if level is Level.PRESCHOOL:
        base = "przedszkole"
    elif level is Level.SECONDARY:
        base = "ponadpodst"
    else:
        if grade is None or not 1 <= grade <= 8:
            raise ValueError(f"a primary school group has a grade 1–8, not {grade!r}")
        base = f"sp{grade}"
    key = f"{base}-{_SEX_KEY[sex]}"
    return key if part is None else f"{key}-{part}"


def form_group_key(form: Form) -> str:
    """The (unsplit) group a form's player plays in."""
    return group_key(form.level, form.grade, form.sex)


def all_group_slots() -> list[tuple[Level, int | None, Sex]]:
    """The 20 groups of §H in the order a hall lists them: preschool, 1–8, secondary; boys first."""
    levels: list[tuple[Level, int | None]] = [(Level.PRESCHOOL, None)]
    levels += [(Level.PRIMARY, g) for g in range(1, 9)]
    levels.append((Level.SECONDARY, None))
    sexes: tuple[Sex, Sex] = ("m", "w")
    return [(level, grade, sex) for level, grade in levels for sex in sexes]


def _in_start_order(forms: Sequence[Form]) -> list[Form]:
    """``forms`` in FIDE start order, by the swiss start list's own ordering function."""
    probes = [
        startlist.Entrant(line=i, surname=f.surname, first_name=f.first_name, rating=f.rating)
        for i, f in enumerate(forms)
    ]
    return [forms[p.line] for p in startlist.start_order(probes)]


def _entrants(forms: Sequence[Form]) -> tuple[Entrant, ...]:
    return tuple(
        Entrant(
            start=n,
            surname=f.surname,
            first_name=f.first_name,
            sex=f.sex,
            rating=f.rating,
            school=f.school,
            school_class=f.school_class,
            medal=f.medal,
            birth=f.birth,
            email=f.email,
            form_line=f.line,
        )
        for n, f in enumerate(forms, start=1)
    )


def _parts(ordered: list[Form], split_over: int | None) -> list[list[Form]]:
    if split_over is None or len(ordered) <= split_over:
        return [ordered]
    count = -(-len(ordered) // split_over)
    size, extra = divmod(len(ordered), count)
    parts, at = [], 0
    for i in range(count):
        n = size + (1 if i < extra else 0)
        parts.append(ordered[at : at + n])
        at += n
    return parts


def build_day(
    forms: Iterable[Form],
    *,
    title: str = "",
    date: str = "",
    split_over: int | None = None,
    rounds: int = 8,
    minutes: int = 10,
) -> ChessDay:
    """The day file of the complete registrations ``forms``: one group per level, grade and
    sex that has players, in :func:`all_group_slots` order, each in FIDE start order;
    ``split_over`` splits a group larger than it by rating (§H, the organiser's choice)."""
    if split_over is not None and split_over < 1:
        raise ValueError(f"a group is split over at least 1 player, not {split_over}")
    by_slot: dict[tuple[Level, int | None, Sex], list[Form]] = {}
    for form in forms:
        by_slot.setdefault((form.level, form.grade, form.sex), []).append(form)
    groups: list[Group] = []
    for level, grade, sex in all_group_slots():
        members = by_slot.get((level, grade, sex))
        if not members:
            continue
        parts = _parts(_in_start_order(members), split_over)
        for number, part in enumerate(parts, start=1):
            n = None if len(parts) == 1 else number
            groups.append(
                Group(
                    key=group_key(level, grade, sex, n),
                    level=level,
                    grade=grade,
                    sex=sex,
                    part=n,
                    entrants=_entrants(part),
                )
            )
    return ChessDay(title=title, date=date, rounds=rounds, minutes=minutes, groups=tuple(groups))


__all__ = ["all_group_slots", "build_day", "form_group_key", "group_key"]
