"""Two events of different kinds in one daemon: a Puzzle Duel session and a hall timer.

The session plays on tables 1–4 (buttons pressed by the test); the hall timer — a 60-minute
countdown with a signal every 5 minutes — drives the buzzers of tables 5–8, real GPIO
tables on gpiozero's mock pins. Time is the test's own: every instant is exact. What a
referee would notice: each "ZMIANA" sounds on all four buzzers at its instant and not a
nanosecond before, a pause moves the signals still to come, the duels go on meanwhile, and
after a crash both events are rebuilt exactly and the next signal falls where it should.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.clock import Side
from clockd.core.hall import TimerPause, TimerResume, TimerStart
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.core.units import MINUTE, SECOND
from clockd.devices.gpio import GpioTable
from clockd.devices.gpio_config import TableConfig
from clockd.service.runtime import Daemon, TableSpec
from hw_sim.gpio import ScriptedFactory
from tests.conftest import wait_until
from tests.tournament.conftest import T0, Buttons, FakeClock

A, B = Side.A, Side.B
#: The GPIO tables' pins: (button a, button b, buzzer), BCM numbers.
PINS = {5: (17, 27, 22), 6: (5, 6, 13), 7: (19, 26, 21), 8: (20, 16, 12)}
TIMER = """
name = "Sztafeta (próba)"
duration = "60m"
signal_every = "5m"
devices = [5, 6, 7, 8]
"""
CSV = "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Nazwisko{i};{20 + i}\n" for i in range(1, 17))


class Hall:
    """The daemon with its eight tables, the test's clock, and the referee's client."""

    def __init__(self, db: Path, clock: FakeClock, pi: ScriptedFactory) -> None:
        self.clock = clock
        self.pi = pi
        self.daemon = Daemon(
            db,
            tables=[TableSpec(t, f"Stolik {t}") for t in range(1, 9)],
            port=0,
            clock=clock,
            boot_id="test-boot",
            write_daemon_info=False,
        )
        self.buttons = {t: Buttons(t) for t in range(1, 5)}
        for t, b in self.buttons.items():
            self.daemon.add_device(t, b)
        for t, (a, b_, buzzer) in PINS.items():
            config = TableConfig(number=t, button_a=a, button_b=b_, buzzer=buzzer)
            self.daemon.add_device(t, GpioTable(config, pin_factory=pi))
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

    def press(self, table: int, side: Side, t_ns: int) -> None:
        self.at(t_ns)
        self.buttons[table].press(side, t_ns)
        self.settle()

    def highs(self) -> dict[int, int]:
        """How often each buzzer pin has gone high so far."""
        out = {}
        for table, (_, _, buzzer) in PINS.items():
            states = [s.state for s in self.pi.pin(buzzer).states]
            out[table] = sum(1 for before, now in itertools.pairwise(states) if now and not before)
        return out

    def signals(self) -> list[Any]:
        return [r.entry for r in self.daemon.engine.journal.read() if r.entry.kind == "timer-due"]

    def crash(self) -> None:
        self.client.close()
        assert self.daemon.engine is not None
        self.daemon.engine.stop(snapshot=False)  # no snapshot at the end: the journal alone
        self.daemon.stop()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Any]:
    halls: list[Hall] = []
    clock = FakeClock()

    def make(pi: ScriptedFactory) -> Hall:
        h = Hall(tmp_path / "festival.db", clock, pi)
        halls.append(h)
        return h

    yield make
    for h in halls:
        h.client.close()
        h.daemon.stop()


def duels_on_tables_1_to_4(h: Hall) -> dict[int, Any]:
    c = h.client
    c.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    c.act("pt", ImportSignups(csv=CSV))
    for p in range(1, 17):
        c.act("pt", CheckIn(player=p))
    c.act("pt", CloseCheckIn())
    bracket = c.act("pt", MakeDraw(seed=7)).event.body.bracket
    matches = {}
    for table, m in zip(range(1, 5), [m for m in bracket.matches if m.round == 1], strict=False):
        c.act(f"pt/{m.id}", Assign(table=table))
        c.act(f"pt/{m.id}", Toss(winner=m.a))  # side a won the toss: side b starts a's time
        h.press(table, B, T0)
        matches[table] = m
    return matches


def test_a_duel_session_and_a_hall_timer_run_together_and_the_buzzers_sound_at_the_signals(hall: Any) -> None:
    pi = ScriptedFactory()
    h = hall(pi)
    duels_on_tables_1_to_4(h)
    h.client.act("", CreateEvent(event_kind="timer", key="zmiana", config_toml=TIMER))
    start = T0 + SECOND
    h.at(start)
    h.client.act("zmiana", TimerStart())
    events = {e.key: e.kind for e in h.client.events().events}
    assert events == {"pt": "puzzle-duel", "zmiana": "timer"}

    expected = [start + 5 * MINUTE, start + 10 * MINUTE + 2 * MINUTE]  # the second after a 2-minute pause
    # before the first signal: a press on every duel table, and not a sound
    for table in range(1, 5):
        h.press(table, A, start + 30 * SECOND + table * SECOND)
    h.at(expected[0] - 1)
    assert h.highs() == dict.fromkeys(PINS, 0) and h.signals() == []
    h.at(expected[0])
    wait_until(lambda: all(n == 1 for n in h.highs().values()))
    # the timer pauses (a complaint in the hall) while the duels go on
    h.at(start + 7 * MINUTE)
    h.client.act("zmiana", TimerPause(reason="skarga przy stoliku 3"))
    h.press(2, B, start + 8 * MINUTE)
    h.at(start + 9 * MINUTE)
    h.client.act("zmiana", TimerResume())
    h.at(expected[1] - 1)
    assert all(n == 1 for n in h.highs().values())
    h.at(expected[1])
    wait_until(lambda: all(n == 2 for n in h.highs().values()))

    given = h.signals()
    assert [(s.what, s.offset_ns) for s in given] == [("signal", 5 * MINUTE), ("signal", 10 * MINUTE)]
    assert [s.t_ns for s in given] == expected and [s.due_ns for s in given] == expected
    view = h.client.events(["zmiana"]).events[0].body.timer
    assert view.signals_given == 2 and view.paused_ms == 2 * MINUTE // 1_000_000
    # the duels were played all along: each table's clock counted its moves
    moves = [h.client.status([t]).tables[0].program.clock.moves for t in range(1, 5)]
    assert [m.a for m in moves] == [1, 1, 1, 1] and moves[1].b == 1


def test_both_events_survive_a_crash_and_the_next_signal_falls_where_it_should(hall: Any) -> None:
    pi = ScriptedFactory()
    h = hall(pi)
    duels_on_tables_1_to_4(h)
    h.client.act("", CreateEvent(event_kind="timer", key="zmiana", config_toml=TIMER))
    start = T0 + SECOND
    h.at(start)
    h.client.act("zmiana", TimerStart())
    h.press(3, A, start + 40 * SECOND)
    h.at(start + 5 * MINUTE)  # the first signal
    h.at(start + 6 * MINUTE)
    before_events = [e.model_dump() for e in h.client.events().events]
    before_tables = [t.program for t in h.client.status().tables]
    h.crash()
    pi.reset()

    pi2 = ScriptedFactory()
    h2 = hall(pi2)  # the same journal, the same boot: time went on while it was down
    after_events = [e.model_dump() for e in h2.client.events().events]
    after_tables = [t.program for t in h2.client.status().tables]
    # the referee is told the hall clock ran on while the daemon was down; nothing else moved
    timer = after_events[1]
    assert [a["code"] for a in timer["alerts"]] == ["alert.event-recovered-running"]
    assert timer["actions"]["event-clear-alert"] is None
    unchanged = ("seq", "alerts", "actions", "digest")
    strip = [{k: v for k, v in e.items() if k not in unchanged} for e in before_events]
    assert [{k: v for k, v in e.items() if k not in unchanged} for e in after_events] == strip
    assert after_events[0]["actions"] == before_events[0]["actions"]
    assert after_events[0]["digest"] == before_events[0]["digest"]  # the duel session, exactly
    assert after_tables == before_tables
    # the next "ZMIANA" sounds at 10:00 of the event's time, no sooner, on the new daemon's buzzers
    h2.at(start + 10 * MINUTE - 1)
    assert len(h2.signals()) == 1 and h2.highs() == dict.fromkeys(PINS, 0)
    h2.at(start + 10 * MINUTE)
    wait_until(lambda: all(n == 1 for n in h2.highs().values()))
    assert [s.offset_ns for s in h2.signals()] == [5 * MINUTE, 10 * MINUTE]
    assert h2.signals()[-1].t_ns == start + 10 * MINUTE


def test_the_referee_calling_time_sounds_the_end_on_the_buzzers_and_tells_the_screens(hall: Any) -> None:
    from clockd.api.client import Subscription
    from clockd.api.messages import Signal
    from clockd.core.hall import TimerEnd

    pi = ScriptedFactory()
    h = hall(pi)
    h.client.act("", CreateEvent(event_kind="timer", key="zmiana", config_toml=TIMER))
    start = T0 + SECOND
    h.at(start)
    h.client.act("zmiana", TimerStart())
    with Subscription(port=h.client.port, events=["zmiana"], tables=[]) as screen:
        h.at(start + 3 * MINUTE)
        assert h.highs() == dict.fromkeys(PINS, 0)
        h.client.act("zmiana", TimerEnd())
        h.settle()
        wait_until(lambda: all(n == 1 for n in h.highs().values()))  # every buzzer, once: the end
        heard: list[Signal] = []
        wait_until(lambda: heard.extend(m for m in screen.poll() if isinstance(m, Signal)) or heard)
    assert [(s.what, s.event, s.offset_ms) for s in heard] == [("end", "desk/zmiana", 3 * 60_000)]
    assert h.client.events(["zmiana"]).events[0].body.timer.phase == "ended"
