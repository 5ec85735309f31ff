"""The S(witcher) rotation in a real daemon: a change every 15 minutes on the buzzers, seats and
partners on the screens, a replacement, tables done by button, and who stayed to the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.messages import ApiError, EventResults
from clockd.core.actions import CreateEvent
from clockd.core.hall import TimerStart
from clockd.core.switcher import ReplacePerson, TableDone, TakeSeat
from clockd.core.units import MINUTE, SECOND
from hw_sim.gpio import ScriptedFactory
from tests.conftest import wait_until
from tests.service.test_zone_events import PINS, Hall
from tests.tournament.conftest import T0, FakeClock


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Any]:
    """The relay's test hall (tables 1–4 on mock GPIO pins) on a fresh journal."""
    halls: list[Hall] = []
    clock = FakeClock()

    def make(pi: ScriptedFactory) -> Hall:
        h = Hall(tmp_path / "rotation.db", clock, pi)
        halls.append(h)
        return h

    yield make
    for h in halls:
        h.client.close()
        h.daemon.stop()


ROTATION = """
name = "S(witcher) (próba)"
signal_every = "15m"
tables = 13
[table_map]
1 = 1
2 = 2
3 = 3
4 = 4
"""


def test_the_rotation_changes_every_15_minutes_records_replacements_and_who_stayed(hall: Any) -> None:
    pi = ScriptedFactory()
    h: Hall = hall(pi)
    h.client.act("", CreateEvent(event_kind="switcher", key="rotacja", config_toml=ROTATION))
    for seat in range(1, 27):
        h.client.act("rotacja", TakeSeat(seat=seat, name=f"Osoba {seat}"))
    start = T0 + SECOND
    h.at(start)
    h.client.act("rotacja", TimerStart())
    with pytest.raises(ApiError):
        h.client.act("rotacja", TakeSeat(seat=1, name="Spóźniona"))  # numbers are drawn before the start
    body = h.body("rotacja")
    seats = {s.seat: s for s in body.seats}
    assert (seats[1].table, seats[1].next_table, seats[2].table, seats[2].next_table) == (1, 2, 1, 13)
    h.at(start + 15 * MINUTE - 1)
    assert h.highs() == dict.fromkeys(PINS, 0)
    h.at(start + 15 * MINUTE)  # the first change
    wait_until(lambda: all(n >= 1 for n in h.highs().values()))
    body = h.body("rotacja")
    seats = {s.seat: s for s in body.seats}
    assert body.rotations == 1 and seats[1].table == 2 and seats[2].table == 13
    assert seats[1].partner == 6  # at table 2 now: seat 6 came from table 3 the other way
    # Osoba 7 leaves at 20:00, Nowa takes the seat
    h.at(start + 20 * MINUTE)
    h.client.act("rotacja", ReplacePerson(seat=7, name="Nowa", reason="musiała wyjść"))
    h.at(start + 30 * MINUTE)  # the second change
    body = h.body("rotacja")
    assert body.rotations == 2
    assert [(r.seat, r.left, r.came, r.rotation, r.table, r.elapsed_ms) for r in body.replacements] == [
        (7, "Osoba 7", "Nowa", 1, 5, 20 * 60_000)
    ]
    state_before = h.state("rotacja")
    h.crash()

    pi2 = ScriptedFactory()
    h2: Hall = hall(pi2)
    assert h2.state("rotacja") == state_before
    # tables done: table 1 by its button, the others by the referee; the last ends the event
    h2.button(1, start + 40 * MINUTE)
    for table in range(2, 14):
        h2.client.act("rotacja", TableDone(table=table))
    body = h2.body("rotacja")
    assert body.timer.phase == "ended"
    assert [t.done_ms is not None for t in body.tables] == [True] * 13
    results = h2.client.request(EventResults(event="rotacja", lang="pl")).results
    stayed = [s["name"] for s in results["stayed"]]
    assert len(stayed) == 25 and "Osoba 7" not in stayed and "Nowa" not in stayed
    finishes = h2.journaled("switcher-table-done")
    assert finishes[0].source == "button" and finishes[0].action.table == 1
