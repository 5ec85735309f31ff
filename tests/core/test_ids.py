"""Ids as the daemon writes them (``desk/3``, ``desk/pt``, ``desk/pt/R1-1``), read in one place.

Every surface that shows "who holds table 6" or "the match on this clock" reads the owner's
id with :mod:`clockd.core.ids`; these pin what they all get back."""

from __future__ import annotations

import pytest

from clockd.core.ids import Ref, event_ref, local_name, parse_id, parse_ref, read_id, table_ref
from clockd.i18n import Problem


@pytest.mark.parametrize(
    ("full", "expected"),
    [
        ("desk/3", Ref(hall="desk", number=3)),
        ("desk/pt", Ref(hall="desk", key="pt")),
        ("pi2/pt/R1-1", Ref(hall="pi2", key="pt", item="R1-1")),
        ("desk/team/Smoki z Gdyni", Ref(hall="desk", key="team", item="Smoki z Gdyni")),  # an entry: any text
        ("desk/chess-g05/board-12", Ref(hall="desk", key="chess-g05", item="board-12")),
    ],
)
def test_a_qualified_id_reads_back_to_its_parts_and_writes_the_same(full: str, expected: Ref) -> None:
    assert parse_id(full) == expected
    assert str(parse_id(full)) == full


def test_the_writers_and_the_reader_agree() -> None:
    assert parse_id(table_ref("strefa", 7)).number == 7
    assert parse_id(event_ref("strefa", "pt")).is_event
    ref = parse_id(event_ref("strefa", "pt", "R2-3"))
    assert (ref.event, ref.item, ref.event_id) == ("pt", "R2-3", "strefa/pt")


@pytest.mark.parametrize(
    "bad", ["", "pt", "desk/", "desk//x", "desk/pt/", "Desk/pt", "desk/0", "desk/3/x", "desk/1x", "desk/²"]
)
def test_what_is_no_qualified_id_is_refused_by_name_and_read_as_none(bad: str) -> None:
    with pytest.raises(Problem) as caught:
        parse_id(bad)
    assert caught.value.msg.code == "ids.bad-ref"
    assert read_id(bad) is None


def test_a_missing_owner_reads_as_none() -> None:
    assert read_id(None) is None


def test_the_local_name_leaves_the_hall_out() -> None:
    assert local_name("desk/pt/R1-7") == "pt/R1-7"
    assert local_name("pi2/3") == "3"
    assert local_name("no id at all") == "no id at all"
    assert parse_ref("pt/R1-7", "desk").short("desk") == "pt/R1-7"
    assert parse_ref("pt/R1-7", "desk").short("pi2") == "desk/pt/R1-7"
