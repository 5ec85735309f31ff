"""Two events in the real ``duelclock run`` process, killed with SIGKILL and started again.

A Puzzle Duel session has its round-one matches on tables 1–4 (assigned and tossed), and a
hall timer gives a signal every 2 s on the buzzers of tables 5–8 — GPIO tables, on
gpiozero's mock pins in the daemon's process (``GPIOZERO_PIN_FACTORY=mock``). The test
talks to the daemon as a client would. After ``kill -9`` and a restart on the same
journal: the session is exactly as it was (same digest), every table runs what it ran,
the referee is told the hall clock ran on while the daemon was down, and the signals go
on at their instants — each one at the event's start plus a whole number of periods, none
given twice, none skipped. (The pins going high at the signal instants are checked in
simulated time by ``test_two_events.py``.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.hall import TimerStart
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.core.units import SECOND
from clockd.service.actions import register_action_entries
from clockd.service.compose import default_components  # noqa: F401  (registers the event kinds' entries)
from clockd.store import Journal
from tests.conftest import wait_until

PINS = {5: (17, 27, 22), 6: (5, 6, 13), 7: (19, 26, 21), 8: (20, 16, 12)}
EVERY_NS = 2 * SECOND
TIMER = """
name = "Sztafeta (próba)"
duration = "10m"
signal_every = "2s"
devices = [5, 6, 7, 8]
"""
CSV = "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Nazwisko{i};{20 + i}\n" for i in range(1, 17))


def config(tmp_path: Path) -> Path:
    lines = []
    for t in range(1, 9):
        lines += ["[[tables]]", f"id = {t}", f'label = "Stolik {t}"']
        if t in PINS:
            a, b, buzzer = PINS[t]
            lines.append(f'device = {{ kind = "gpio", button_a = {a}, button_b = {b}, buzzer = {buzzer} }}')
        lines.append("")
    path = tmp_path / "hall.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


class Hall:
    """The daemon process, started (and killed) on one journal."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "festival.db"
        self.state = tmp_path / "state"
        self.config = config(tmp_path)
        self.env = {**os.environ, "DUELCLOCK_STATE_DIR": str(self.state), "GPIOZERO_PIN_FACTORY": "mock"}
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> Client:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "clockd", "run", "--config", str(self.config), "--db", str(self.db),
             "--port", "0", "--sim", "0"],
            env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        banner = []
        for line in self.proc.stdout:
            banner.append(line)
            if "Ctrl+C" in line:
                break
        else:
            raise AssertionError(
                f"the daemon did not start: {banner} {self.proc.stderr.read() if self.proc.stderr else ''}"
            )
        info = json.loads((self.state / "daemon.json").read_text(encoding="utf-8"))
        return Client(port=info["port"], token=info["token"], by="Sędzia")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.close_streams()

    def close_streams(self) -> None:
        assert self.proc is not None
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def entries(self, kind: str) -> list[Any]:
        register_action_entries()  # the journal's action entries, as the daemon reads them
        with Journal.reader(self.db) as journal:
            return [r.entry for r in journal.read() if r.entry.kind == kind]


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    h = Hall(tmp_path)
    yield h
    if h.proc is not None and h.proc.poll() is None:
        h.proc.send_signal(signal.SIGTERM)
        h.proc.wait(20)
        h.close_streams()


def test_a_duel_session_and_a_hall_timer_survive_kill_9_and_the_signals_keep_their_instants(
    hall: Hall,
) -> None:
    c = hall.start()
    c.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    c.act("pt", ImportSignups(csv=CSV))
    for p in range(1, 17):
        c.act("pt", CheckIn(player=p))
    c.act("pt", CloseCheckIn())
    bracket = c.act("pt", MakeDraw(seed=7)).event.body.bracket
    first_round = [m for m in bracket.matches if m.round == 1][:4]
    for table, m in enumerate(first_round, start=1):
        c.act(f"pt/{m.id}", Assign(table=table))
        c.act(f"pt/{m.id}", Toss(winner=m.a))
    c.act("", CreateEvent(event_kind="timer", key="zmiana", config_toml=TIMER))
    c.act("zmiana", TimerStart())
    wait_until(lambda: len(hall.entries("timer-due")) >= 2, timeout_s=20)
    session = c.events(["pt"]).events[0]
    tables = {t.table: t.program for t in c.status().tables}
    c.close()
    hall.kill()  # no clean stop, no snapshot: the journal alone

    c = hall.start()
    after = c.events(["pt"]).events[0]
    assert after.digest == session.digest  # the session exactly as it was
    assert {t.table: t.program for t in c.status().tables} == tables  # every table runs what it ran
    assert [m.table for m in after.body.bracket.matches if m.round == 1][:4] == [1, 2, 3, 4]
    timer = c.events(["zmiana"]).events[0]
    assert timer.body.timer.phase == "running"
    assert [a.code for a in timer.alerts] == ["alert.event-recovered-running"]  # the referee is told

    given = len(hall.entries("timer-due"))
    wait_until(lambda: len(hall.entries("timer-due")) >= given + 2, timeout_s=20)  # they go on
    c.close()
    start_ns = next(e.t_ns for e in hall.entries("timer-start"))
    signals = [e for e in hall.entries("timer-due") if e.what == "signal"]
    periods = [(e.due_ns - start_ns) / EVERY_NS for e in signals]
    assert periods == list(range(1, len(signals) + 1))  # each at start + k·2 s, none twice, none skipped
    assert [e.offset_ns for e in signals] == [k * EVERY_NS for k in range(1, len(signals) + 1)]
    assert all(e.pattern == "change" for e in signals)
