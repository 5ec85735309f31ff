"""The S(witcher) rotation (RULES.md §F): the plan of seats, new partners, replacements, who stayed."""

from __future__ import annotations

import pytest

from clockd.core.hall import TimerStart
from clockd.core.switcher import RotationPlan, SwitcherConfig, SwitcherError, SwitcherEvent
from clockd.core.units import MINUTE, SECOND

T0 = 1_000 * SECOND


def test_odd_numbers_sit_in_the_outer_circle_even_in_the_inner_two_per_table() -> None:
    plan = RotationPlan()
    assert plan.seats == 26
    assert [(s, plan.circle_of(s), plan.start_table(s)) for s in (1, 2, 3, 25, 26)] == [
        (1, "outer", 1),
        (2, "inner", 1),
        (3, "outer", 2),
        (25, "outer", 13),
        (26, "inner", 13),
    ]


@pytest.mark.parametrize("direction", [1, -1])
@pytest.mark.parametrize("k", [0, 1, 2, 5, 12, 13, 27])
def test_after_k_changes_every_seat_is_at_the_table_the_plan_says(direction: int, k: int) -> None:
    plan = RotationPlan(tables=13, outer_direction=direction)  # type: ignore[arg-type]
    for seat in range(1, 27):
        start = (seat + 1) // 2
        step = direction if seat % 2 else -direction  # the circles turn opposite ways
        assert plan.table_after(seat, k) == (start - 1 + step * k) % 13 + 1
    # every table has one of each circle, and seat_at is table_after's inverse
    for table in range(1, 14):
        outer, inner = plan.seat_at(table, "outer", k), plan.seat_at(table, "inner", k)
        assert outer % 2 == 1 and inner % 2 == 0
        assert plan.table_after(outer, k) == table and plan.table_after(inner, k) == table
    # one step by hand: seat 1 (outer, table 1) and seat 2 (inner, table 1)
    if k == 1:
        assert plan.table_after(1, 1) == (2 if direction == 1 else 13)
        assert plan.table_after(2, 1) == (13 if direction == 1 else 2)


def test_six_changes_of_13_tables_give_everyone_a_new_partner_each_time() -> None:
    plan = RotationPlan(tables=13)
    for seat in range(1, 27):
        partners = [plan.partner(seat, k) for k in range(7)]  # the start and 6 changes
        assert len(set(partners)) == 7, (seat, partners)
        assert all(p % 2 != seat % 2 for p in partners)
    # with 13 tables even 12 changes bring no partner twice; 13 bring everyone back
    assert all(len({plan.partner(s, k) for k in range(13)}) == 13 for s in range(1, 27))
    assert all(plan.partner(s, 13) == plan.partner(s, 0) for s in range(1, 27))


def test_an_even_number_of_tables_would_repeat_partners_the_plan_shows_why_13() -> None:
    plan = RotationPlan(tables=12)
    assert plan.partner(1, 6) == plan.partner(1, 0)  # 2k ≡ 0 (mod 12) at k = 6


def rotation() -> SwitcherEvent:
    seats = {s: f"Osoba {s}" for s in range(1, 27)}
    config = SwitcherConfig(signal_every=15 * MINUTE, seats=seats)
    return SwitcherEvent.new(config).apply_timer(TimerStart().at(T0))


def test_a_replacement_breaks_stayed_to_the_end_for_the_one_who_left_and_the_one_who_came() -> None:
    ev = rotation()
    ev = ev.fire(15 * MINUTE).fire(30 * MINUTE)  # two changes
    ev = ev.replace(5, "Nowa Osoba", T0 + 40 * MINUTE, reason="musiała wyjść")
    record = ev.replacements[0]
    assert (record.seat, record.left, record.came, record.rotation) == (5, "Osoba 5", "Nowa Osoba", 2)
    assert record.table == ev.plan.table_after(5, 2) == 5  # seat 5 (outer, table 3) two tables on
    assert ev.occupant(5) == "Nowa Osoba"
    ev = ev.fire(45 * MINUTE)
    for table in range(1, 14):
        ev = ev.table_done(table, T0 + 50 * MINUTE)
    stayed = dict(ev.stayed())
    assert "Osoba 5" not in stayed.values() and "Nowa Osoba" not in stayed.values()
    assert len(stayed) == 25 and stayed[6] == "Osoba 6"


def test_seats_before_the_start_replacements_during_it_and_refusals() -> None:
    ev = SwitcherEvent.new(SwitcherConfig(signal_every=15 * MINUTE))
    ev = ev.seat(1, "Ola").seat(2, "Ela")
    with pytest.raises(SwitcherError) as twice:
        ev.seat(3, "Ola")
    assert twice.value.msg.code == "switcher.sits-already"
    with pytest.raises(SwitcherError):
        ev.seat(27, "Kto")
    with pytest.raises(SwitcherError):
        ev.replace(1, "Ula", T0)  # not started
    ev = ev.apply_timer(TimerStart().at(T0))
    with pytest.raises(SwitcherError):
        ev.seat(3, "Iza")
    ev = ev.replace(3, "Iza", T0 + MINUTE)  # an empty seat is taken
    assert ev.occupant(3) == "Iza" and ev.replacements[-1].left is None
    rows = {r["seat"]: r for r in ev.seating()}
    assert rows[1]["name"] == "Ola" and rows[1]["table"] == 1 and rows[1]["next_table"] == 2
    assert rows[2]["next_table"] == 13 and rows[1]["partner"] == 2
