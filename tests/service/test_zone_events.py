"""The relay and the team event in a real daemon, on GPIO tables with mock pins.

Four pairs (or teams) sit at tables 1–4, real GPIO tables on gpiozero's mock pins: a press
of a table's button is that entry's finish, its buzzer sounds every signal. Time is the
test's own, so every instant is exact. What a referee would check: each "ZMIANA" on every
buzzer at its instant (a pause moves the rest), a finish from the button at the press's
instant, the referee's own finish, counts after the end, the ranking — and, after a crash,
the same event rebuilt from the journal, ranked the same, its next signal where it belongs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.api.messages import ApiError, EventResults
from clockd.core.actions import CreateEvent
from clockd.core.hall import FinishEntry, TimerPause, TimerResume, TimerStart
from clockd.core.units import MINUTE, MS, SECOND
from clockd.core.zone import AddEntry, ConfirmRanking, CountEntry, MissingPieces, VoidEntry
from clockd.devices.gpio import GpioTable
from clockd.devices.gpio_config import TableConfig
from clockd.i18n import render
from clockd.service.runtime import Daemon, TableSpec
from hw_sim.gpio import ScriptedFactory
from tests.conftest import wait_until
from tests.tournament.conftest import T0, FakeClock

#: Each table's pins: (button a, button b, buzzer), BCM numbers.
PINS = {1: (17, 27, 22), 2: (5, 6, 13), 3: (19, 26, 21), 4: (20, 16, 12)}
RELAY = """
name = "Sztafeta (próba)"
duration = "60m"
signal_every = "5m"
pictures = 2
[stations]
"para-1" = 1
"para-2" = 2
"para-3" = 3
"para-4" = 4
[names]
"para-1" = "Ania i Janek"
"""


class Hall:
    def __init__(self, db: Path, clock: FakeClock, pi: ScriptedFactory) -> None:
        self.clock = clock
        self.pi = pi
        self.daemon = Daemon(
            db,
            tables=[TableSpec(t, f"Stolik {t}") for t in PINS],
            port=0,
            clock=clock,
            boot_id="test-boot",
            write_daemon_info=False,
        )
        for t, (a, b, buzzer) in PINS.items():
            config = TableConfig(number=t, button_a=a, button_b=b, buzzer=buzzer)
            self.daemon.add_device(t, GpioTable(config, pin_factory=pi, clock=clock))
        started = self.daemon.start()
        self.client = Client("127.0.0.1", started.port, started.token, by="Sędzia")

    def settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(10)
        self.daemon.engine.barrier().result(10)

    def at(self, t_ns: int) -> None:
        assert t_ns >= self.clock.now
        self.clock.now = t_ns
        self.settle()

    def button(self, table: int, t_ns: int) -> None:
        """The pair at ``table`` presses its button (side a) at ``t_ns``."""
        self.at(t_ns)
        pin = self.pi.scripted_pin(PINS[table][0])
        pin.drive_at(0, t_ns)
        self.settle()
        self.clock.now = t_ns + 80 * MS
        pin.drive_at(1, t_ns + 80 * MS)
        self.settle()

    def highs(self) -> dict[int, int]:
        out = {}
        for table, (_, _, buzzer) in PINS.items():
            states = [s.state for s in self.pi.pin(buzzer).states]
            out[table] = sum(1 for before, now in itertools.pairwise(states) if now and not before)
        return out

    def body(self, key: str) -> Any:
        return self.client.events([key]).events[0].body

    def journaled(self, kind: str) -> list[Any]:
        assert self.daemon.engine is not None
        return [r.entry for r in self.daemon.engine.journal.read() if r.entry.kind == kind]

    def state(self, key: str) -> Any:
        """The event's exact state in the daemon (the kind's frozen model)."""
        assert self.daemon.engine is not None
        events = next(c for c in self.daemon.engine.components if c.name == "events")
        return events.view().events[key].state  # type: ignore[attr-defined]

    def crash(self) -> None:
        self.client.close()
        assert self.daemon.engine is not None
        self.daemon.engine.stop(snapshot=False)
        self.daemon.stop()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Any]:
    halls: list[Hall] = []
    clock = FakeClock()

    def make(pi: ScriptedFactory) -> Hall:
        h = Hall(tmp_path / "zone.db", clock, pi)
        halls.append(h)
        return h

    yield make
    for h in halls:
        h.client.close()
        h.daemon.stop()


def test_a_relay_on_gpio_tables_signals_finishes_by_button_ranks_and_survives_a_crash(hall: Any) -> None:
    pi = ScriptedFactory()
    h = hall(pi)
    h.client.act("", CreateEvent(event_kind="relay", key="sztafeta", config_toml=RELAY))
    start = T0 + SECOND
    h.at(start)
    h.client.act("sztafeta", TimerStart())
    # 5:00 — the first ZMIANA on all four buzzers, not a nanosecond before
    h.at(start + 5 * MINUTE - 1)
    assert h.highs() == dict.fromkeys(PINS, 0)
    h.at(start + 5 * MINUTE)
    wait_until(lambda: all(n == 1 for n in h.highs().values()))
    # a two-minute pause at 7:00 moves the next signal from 10:00 to 12:00 of the hall's time
    h.at(start + 7 * MINUTE)
    h.client.act("sztafeta", TimerPause(reason="przewrócony stolik"))
    h.at(start + 9 * MINUTE)
    h.client.act("sztafeta", TimerResume())
    h.at(start + 12 * MINUTE - 1)
    assert all(n == 1 for n in h.highs().values())
    h.at(start + 12 * MINUTE)
    wait_until(lambda: all(n == 2 for n in h.highs().values()))
    # pair 2 finishes both pictures at 40:00.250 of event time: its button; pair 1 a little later
    h.button(2, start + 42 * MINUTE + 250 * MS)
    h.button(1, start + 45 * MINUTE)
    finishes = h.journaled("entry-finish")
    assert [(f.action.entry, f.source) for f in finishes] == [("para-2", "button"), ("para-1", "button")]
    body = h.body("sztafeta")
    assert [(e.entry, e.place, e.finished_ms) for e in body.entries[:2]] == [
        ("para-2", 1, 40 * 60_000 + 250),
        ("para-1", 2, 43 * 60_000),
    ]
    assert body.entries[1].name == "Ania i Janek"
    # a second press on a finished table changes nothing
    h.button(2, start + 46 * MINUTE)
    assert len(h.journaled("entry-finish")) == 2
    before = [e.model_dump() for e in h.client.events().events]
    state_before = h.state("sztafeta")
    h.crash()

    pi2 = ScriptedFactory()
    h2 = hall(pi2)
    after = [e.model_dump() for e in h2.client.events().events]
    strip = ("seq", "alerts", "actions", "digest")
    assert [{k: v for k, v in e.items() if k not in strip} for e in after] == [
        {k: v for k, v in e.items() if k not in strip} for e in before
    ]
    assert h2.state("sztafeta") == state_before  # the event's exact state, rebuilt from the journal
    assert [a["code"] for a in after[0]["alerts"]] == ["alert.event-recovered-running"]
    # the next ZMIANA (45:00 of event time) on the new daemon's buzzers, and only then
    h2.at(start + 47 * MINUTE - 1)
    assert h2.highs() == dict.fromkeys(PINS, 0)
    h2.at(start + 47 * MINUTE)
    wait_until(lambda: all(n == 1 for n in h2.highs().values()))
    # the referee records pair 3's finish by a click; pair 4 runs out of time
    h2.at(start + 55 * MINUTE)
    h2.client.act("sztafeta", FinishEntry(entry="para-3"))
    with pytest.raises(ApiError) as early:
        h2.client.act("sztafeta", CountEntry(entry="para-4", pieces=310))
    assert "po zakończeniu" in render(early.value.reason, "pl")
    h2.at(start + 62 * MINUTE)  # 60:00 of event time: the end
    assert h2.body("sztafeta").timer.phase == "ended"
    h2.at(start + 62 * MINUTE + SECOND)
    with pytest.raises(ApiError) as late:
        h2.client.act("sztafeta", FinishEntry(entry="para-4"))
    assert "ukończyło po zakończeniu" in render(late.value.reason, "pl")
    with pytest.raises(ApiError) as wrong:  # the relay's pair has two pictures
        h2.client.act("sztafeta", CountEntry(entry="para-4", per_picture=(150,)))
    assert "obrazków: 1" in render(wrong.value.reason, "pl")
    h2.client.act("sztafeta", CountEntry(entry="para-4", per_picture=(150, 160)))
    h2.client.act("sztafeta", ConfirmRanking())
    results = h2.client.request(EventResults(event="sztafeta", lang="pl")).results
    assert [(r["place"], r["id"], r["podium"]) for r in results["ranking"]] == [
        (1, "para-2", True),
        (2, "para-1", True),
        (3, "para-3", True),
        (4, "para-4", False),
    ]
    assert results["confirmed"] and results["ranking"][3]["pieces"] == 310
    ends = h2.journaled("timer-due")
    assert [e.what for e in ends][-1] == "end"


TEAM = """
duration = "180m"
"""


def test_a_team_event_ties_on_missing_pieces_voids_11_missing_and_ends_when_all_finished(hall: Any) -> None:
    pi = ScriptedFactory()
    h = hall(pi)
    h.client.act("", CreateEvent(event_kind="team", key="druzyny", config_toml=TEAM))
    for n in range(1, 5):
        h.client.act("druzyny", AddEntry(entry=f"druzyna-{n}", name=f"Drużyna {n}", table=n))
    with pytest.raises(ApiError):
        h.client.act("druzyny", AddEntry(entry="druzyna-5", table=4))  # table 4 is taken
    start = T0 + SECOND
    h.at(start)
    h.client.act("druzyny", TimerStart())
    with pytest.raises(ApiError):
        h.client.act("druzyny", AddEntry(entry="druzyna-5"))  # too late
    at = start + 150 * MINUTE
    h.button(1, at)  # teams 1 and 3 raise their hands at the same instant, by their buttons
    pin = pi.scripted_pin(PINS[3][0])
    pin.drive_at(0, at)
    h.settle()
    h.client.act("druzyny", MissingPieces(entry="druzyna-1", missing=3))
    h.client.act("druzyny", MissingPieces(entry="druzyna-3", missing=1))
    h.at(start + 160 * MINUTE)
    h.client.act("druzyny", FinishEntry(entry="druzyna-2"))
    h.client.act("druzyny", MissingPieces(entry="druzyna-2", missing=11))
    assert h.body("druzyny").timer.phase == "running"
    h.at(start + 170 * MINUTE)
    h.client.act("druzyny", FinishEntry(entry="druzyna-4"))
    h.client.act("druzyny", VoidEntry(entry="druzyna-4", reason="pomoc z zewnątrz"))
    body = h.body("druzyny")
    assert body.timer.phase == "ended"  # everyone finished: the event ends at the last finish
    assert body.timer.elapsed_ms == 170 * 60_000
    assert [(e.entry, e.place, e.missing, e.classified, e.why) for e in body.entries] == [
        ("druzyna-3", 1, 1, True, None),
        ("druzyna-1", 2, 3, True, None),
        ("druzyna-2", None, 11, False, "missing"),
        ("druzyna-4", None, 0, False, "void"),
    ]
    assert h.journaled("timer-due")[-1].what == "end"
