"""The complete registrations → the 20 groups of §H, in FIDE start order, split by rating on request."""

from __future__ import annotations

import re

import pytest

from clockd.core.chessday.forms import Form
from clockd.core.chessday.groups import all_group_slots, build_day, group_key
from clockd.core.chessday.roster import ChessDay, Group, Level, Sex
from clockd.i18n import render

KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")


def form(
    line: int,
    first: str,
    surname: str,
    *,
    sex: Sex = "m",
    level: Level = Level.PRIMARY,
    grade: int | None = 3,
    rating: int | None = None,
) -> Form:
    return Form(
        line=line,
        file_line=line + 1,
        first_name=first,
        surname=surname,
        sex=sex,
        level=level,
        grade=grade if level is Level.PRIMARY else None,
        school="SP 12",
        school_class=str(grade or ""),
        rating=rating,
        email=f"p{line}@x.pl",
        birth="2018",
    )


def test_the_twenty_groups_have_distinct_stable_ascii_keys() -> None:
    keys = [group_key(level, grade, sex) for level, grade, sex in all_group_slots()]
    assert len(keys) == len(set(keys)) == 20
    assert all(KEY.fullmatch(k) for k in keys)
    assert keys[:4] == ["przedszkole-ch", "przedszkole-dz", "sp1-ch", "sp1-dz"]
    assert keys[-2:] == ["ponadpodst-ch", "ponadpodst-dz"]
    assert KEY.fullmatch(group_key(Level.PRIMARY, 8, "w", 12))


def test_players_go_to_their_level_grade_and_sex_in_fide_start_order() -> None:
    forms = [
        form(1, "Zofia", "Kowalska", sex="w"),
        form(2, "Jan", "Ćwik"),
        form(3, "Adam", "Cieślak"),
        form(4, "Piotr", "Żak", rating=1200),
        form(5, "Ola", "Lis", sex="w", level=Level.PRESCHOOL),
        form(6, "Oliwer", "Kamiński", level=Level.SECONDARY, rating=1800),
        form(7, "Łukasz", "Cieślak"),
    ]
    day = build_day(forms, title="Szachowy Spodek", date="2026-10-27")
    assert [g.key for g in day.groups] == ["przedszkole-dz", "sp3-ch", "sp3-dz", "ponadpodst-ch"]
    sp3 = next(g for g in day.groups if g.key == "sp3-ch")
    # rated first, then Polish alphabetical order: Cieślak before Ćwik, Adam before Łukasz
    assert [(e.start, e.trf_name) for e in sp3.entrants] == [
        (1, "Żak, Piotr"),
        (2, "Cieślak, Adam"),
        (3, "Cieślak, Łukasz"),
        (4, "Ćwik, Jan"),
    ]
    assert sp3.entrants[0].form_line == 4 and sp3.entrants[0].school == "SP 12"
    assert (day.rounds, day.minutes, day.title, day.date) == (8, 10, "Szachowy Spodek", "2026-10-27")
    again = ChessDay.model_validate_json(day.model_dump_json())
    assert again == day


def test_a_large_group_is_split_by_rating_only_when_the_organiser_asks() -> None:
    forms = [form(i, f"Gracz{i}", f"Nazwisko{i:02d}", rating=1000 + 10 * i) for i in range(1, 8)]
    assert [g.key for g in build_day(forms).groups] == ["sp3-ch"]
    day = build_day(forms, split_over=3)
    assert [(g.key, g.part, len(g.entrants)) for g in day.groups] == [
        ("sp3-ch-1", 1, 3),
        ("sp3-ch-2", 2, 2),
        ("sp3-ch-3", 3, 2),
    ]
    assert [e.rating for e in day.groups[0].entrants] == [1070, 1060, 1050]
    assert [e.start for e in day.groups[1].entrants] == [1, 2]
    with pytest.raises(ValueError):
        build_day(forms, split_over=0)


@pytest.mark.parametrize(
    ("group", "pl", "en"),
    [
        (Group(key="sp3-ch", level=Level.PRIMARY, grade=3, sex="m"), "Klasa 3, chłopcy", "Grade 3, boys"),
        (
            Group(key="przedszkole-dz", level=Level.PRESCHOOL, sex="w"),
            "Przedszkola, dziewczęta",
            "Kindergartens, girls",
        ),
        (
            Group(key="ponadpodst-ch-2", level=Level.SECONDARY, sex="m", part=2),
            "Szkoły ponadpodstawowe, chłopcy, część 2",
            "Secondary schools, boys, part 2",
        ),
    ],
)
def test_group_names_come_from_the_catalogue_in_both_languages(group: Group, pl: str, en: str) -> None:
    assert render(group.title(), "pl") == pl
    assert render(group.title(), "en") == en
