"""Fixtures for the runtime's tests: a settable clock, a recording test device, engines on real SQLite."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.core.actions import Action
from clockd.core.clock import Side
from clockd.core.device import Beep, DeviceState, Display
from clockd.core.ids import DEFAULT_HALL, table_ref
from clockd.core.units import MINUTE, SECOND
from clockd.devices.base import Connected, DevicePress, DeviceStatus, Sink
from clockd.service.actions import ActionEntry, journal
from clockd.service.engine import Engine, RecoveryReport
from clockd.service.entries import TableCreated
from clockd.service.tables import Tables
from clockd.store.journal import Journal

T0 = 1_000 * SECOND


class FakeClock:
    """``time.monotonic_ns`` that a test moves by hand (a 30-minute duel in microseconds)."""

    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ns: int) -> int:
        self.now += ns
        return self.now


class RecordingDevice:
    """A clock device for tests: presses on demand; records acks, displays and beeps.

    On every acknowledgement it looks the press up in the journal through its own
    read-only connection, so a test can check that nothing was acknowledged before it
    was on disk.
    """

    def __init__(self, table: int, journal_path: Path | None = None, device_id: str | None = None) -> None:
        self.table = table
        self.device_id = device_id or f"test-{table}"
        self.boot_id: int | None = None  # set it to act like a serial clock (numbering per power-on)
        self.sink: Sink | None = None
        self.seq = 0
        self.acked: list[DevicePress] = []
        self.acked_before_journaled: list[DevicePress] = []
        self.shows: list[Display] = []
        self.beeps: list[Beep] = []
        self._reader = Journal.reader(journal_path) if journal_path is not None else None
        self._lock = threading.Lock()

    def start(self, sink: Sink) -> None:
        self.sink = sink

    def connect(self, t_ns: int) -> None:
        assert self.sink is not None
        self.sink(Connected(table=self.table, t_ns=t_ns, device_id=self.device_id))

    def stop(self) -> None:
        self.sink = None

    def press(self, side: Side, t_ns: int, *, seq: int | None = -1) -> DevicePress:
        """Send a press stamped ``t_ns``; numbered in order unless ``seq`` is given (None: unnumbered)."""
        assert self.sink is not None, "start the device first"
        if seq == -1:
            self.seq += 1
            seq = self.seq
        press = DevicePress(
            table=self.table, t_ns=t_ns, side=side, device_id=self.device_id, seq=seq, boot_id=self.boot_id
        )
        self.sink(press)
        return press

    def resend(self, press: DevicePress) -> None:
        assert self.sink is not None
        self.sink(press)

    def acknowledge(self, press: DevicePress) -> None:
        with self._lock:
            self.acked.append(press)
            if self._reader is not None and not self._journaled(press):
                self.acked_before_journaled.append(press)

    def _journaled(self, press: DevicePress) -> bool:
        assert self._reader is not None
        row = self._reader._db.execute(
            "SELECT COUNT(*) FROM events WHERE kind = 'press' AND json_extract(body, '$.device_id') = ? "
            "AND json_extract(body, '$.device_seq') = ?",
            (press.device_id, press.seq),
        ).fetchone()
        return bool(row[0])

    def show(self, display: Display) -> None:
        self.shows.append(display)

    def beep(self, pattern: Beep) -> None:
        self.beeps.append(pattern)

    def status(self) -> DeviceStatus:
        return DeviceStatus(device_id=self.device_id, state=DeviceState.CONNECTED)

    def close(self) -> None:
        with self._lock:  # never while the output thread is looking a press up
            if self._reader is not None:
                self._reader.close()
                self._reader = None


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


MakeEngine = Callable[..., tuple[Engine, RecoveryReport]]


@pytest.fixture
def make_engine(tmp_path: Path, clock: FakeClock) -> Iterator[MakeEngine]:
    """Open (or re-open) the test journal, recover, create missing tables, start the engine.

    Keyword arguments: ``tables`` (numbers; 10-minute sudden death unless ``control``),
    ``boot_id``, ``clock``, ``grace_ns``, ``snapshot_every``, ``use_snapshots``, ``start``.
    """
    engines: list[Engine] = []

    def make(
        *,
        tables: tuple[int, ...] = (1,),
        control: str = "10m",
        boot_id: str = "boot-1",
        clock: Callable[[], int] = clock,
        grace_ns: int = 250_000_000,
        snapshot_every: int = 20_000,
        use_snapshots: bool = True,
        start: bool = True,
        path: Path | None = None,
        **kwargs: Any,
    ) -> tuple[Engine, RecoveryReport]:
        journal = Journal(path or tmp_path / "journal.db")
        engine = Engine(
            journal,
            boot_id=boot_id,
            tables=Tables(grace_ns=grace_ns),
            clock=clock,
            snapshot_every=snapshot_every,
            **kwargs,
        )
        engines.append(engine)
        report = engine.recover(use_snapshots=use_snapshots)
        existing = engine.tables.view()
        engine.apply_now(
            [TableCreated(table=t, label=f"Stolik {t}", control=control) for t in tables if t not in existing]
        )
        if start:
            engine.start()
        return engine, report

    yield make
    for engine in engines:
        engine.stop()
        engine.journal.close()


def act(table: int, action: Action, *, by: str = "") -> ActionEntry:
    """A referee's table action as the API handler journals it (the engine stamps the time)."""
    return journal(action, target=table_ref(DEFAULT_HALL, table), table=table, by=by)


def crash(engine: Engine) -> None:
    """Stop an engine as a crash would leave it: no final snapshot, journal closed."""
    engine.stop(snapshot=False)
    engine.journal.close()


@pytest.fixture
def crash_engine() -> Callable[[Engine], None]:
    return crash


@pytest.fixture
def device_factory(tmp_path: Path) -> Iterator[Callable[..., RecordingDevice]]:
    made: list[RecordingDevice] = []

    def make(table: int, *, check_journal: bool = True, device_id: str | None = None) -> RecordingDevice:
        device = RecordingDevice(table, tmp_path / "journal.db" if check_journal else None, device_id)
        made.append(device)
        return device

    yield make
    for device in made:
        device.close()


__all__ = ["MINUTE", "SECOND", "T0", "FakeClock", "RecordingDevice", "act"]
