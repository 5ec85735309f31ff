"""A real daemon for the GUI tests, and the referee's desk on it.

The daemon is the real one (:class:`clockd.service.runtime.Daemon`: its journal, engine and
API server, every event kind), in this process, on a free port. Its tables have
:class:`HandClock` devices: a test presses a side's button the way a player would (the
press goes through the daemon's device path, is journaled and folded into the table's
program), so nothing on the daemon's side is faked.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from clockd.api import Client, EventView
from clockd.core.actions import CreateEvent
from clockd.core.clock import Side
from clockd.core.device import Beep, DeviceState, Display
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.devices.base import Connected, DevicePress, DeviceStatus, Sink
from clockd.service.runtime import Daemon, TableSpec
from gui.adapter import DaemonConnection
from gui.deskmodel import DeskModel
from gui.hallconfig import config_toml
from gui.referee import RefereeWindow

ROOT = Path(__file__).resolve().parents[2]
SIGNUPS = ROOT / "clockd" / "data" / "sample-signups.csv"
TABLES = 8


class HandClock:
    """A table's device pressed by the test's hand: the daemon's own device interface, nothing more.

    ``press(side)`` reports a press now, as a clock's driver does; ``shown`` and ``beeps`` are
    what the daemon asked the device to show and sound.
    """

    def __init__(self, table: int) -> None:
        self.table = table
        self.device_id = f"HAND-{table}"
        self.sink: Sink | None = None
        self.seq = 0
        self.shown: list[Display] = []
        self.beeps: list[Beep] = []
        self.acknowledged: list[DevicePress] = []
        self.lock = threading.Lock()

    def start(self, sink: Sink) -> None:
        self.sink = sink
        sink(Connected(table=self.table, t_ns=time.monotonic_ns(), device_id=self.device_id))

    def stop(self) -> None:
        self.sink = None

    def acknowledge(self, press: DevicePress) -> None:
        with self.lock:
            self.acknowledged.append(press)

    def show(self, display: Display) -> None:
        with self.lock:
            self.shown.append(display)

    def beep(self, pattern: Beep) -> None:
        with self.lock:
            self.beeps.append(pattern)

    def status(self) -> DeviceStatus:
        state = DeviceState.CONNECTED if self.sink is not None else DeviceState.DISCONNECTED
        return DeviceStatus(device_id=self.device_id, state=state)

    def press(self, side: Side | str) -> None:
        assert self.sink is not None, "the clock is not started"
        self.seq += 1
        self.sink(
            DevicePress(
                table=self.table,
                t_ns=time.monotonic_ns(),
                side=Side(side),
                device_id=self.device_id,
                seq=self.seq,
                boot_id=1,
            )
        )


@dataclass
class Running:
    """A daemon started for a test: where it listens, its token, its tables' hand clocks."""

    daemon: Daemon
    port: int
    token: str
    clocks: dict[int, HandClock]
    db: Path
    clients: list[Client] = field(default_factory=list)

    def client(self) -> Client:
        c = Client("127.0.0.1", self.port, self.token, by="test")
        self.clients.append(c)
        return c

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self.daemon.stop()


def start_daemon(db: Path, *, port: int = 0, tables: int = TABLES, write_info: bool = False) -> Running:
    daemon = Daemon(
        db,
        tables=[TableSpec(n, control="10m") for n in range(1, tables + 1)],
        port=port,
        write_daemon_info=write_info,
    )
    clocks = {n: HandClock(n) for n in range(1, tables + 1)}
    for n, clock in clocks.items():
        daemon.add_device(n, clock)
    started = daemon.start()
    return Running(daemon=daemon, port=started.port, token=started.token, clocks=clocks, db=db)


def drawn_session(client: Client, key: str = "pt", seed: int = 123) -> EventView:
    """A Puzzle Duel session as a referee makes it: created, the sample sign-ups imported, the
    main list checked in, check-in closed, the bracket drawn (a known seed)."""
    client.act("", CreateEvent(event_kind="puzzle-duel", key=key))
    imported = client.act(key, ImportSignups(csv=SIGNUPS.read_text(encoding="utf-8"), source="zapisy.csv"))
    assert imported.event is not None
    for p in [p for p in imported.event.body.players if p.list == "main"]:  # type: ignore[attr-defined]
        client.act(key, CheckIn(player=p.id))
    client.act(key, CloseCheckIn())
    done = client.act(key, MakeDraw(seed=seed))
    assert done.event is not None
    return done.event


RELAY_TOML = config_toml(duration_min=60, every_min=5, stations={"Para 1": 5, "Para 2": 6})


def relay(client: Client, key: str = "relay") -> EventView:
    """The pairs relay: an hour, "ZMIANA" every 5 minutes, pairs at tables 5 and 6."""
    done = client.act(
        "", CreateEvent(event_kind="timer", key=key, name="Sztafeta par", config_toml=RELAY_TOML)
    )
    assert done.event is not None
    return done.event


# -- the GUI on it ---------------------------------------------------------------------------------


@dataclass
class Desk:
    model: DeskModel
    connection: DaemonConnection
    window: RefereeWindow


def open_desk(qtbot: QtBot, running: Running, *, token: str | None = None, by: str = "Ola") -> Desk:
    """The referee's window on ``running``, shown, with every table's state arrived."""
    model = DeskModel()
    connection = DaemonConnection(
        model, host="127.0.0.1", port=running.port, token=token if token is not None else running.token, by=by
    )
    connection.start()
    window = RefereeWindow(model, connection)
    qtbot.addWidget(window)
    window.resize(1500, 950)
    window.show()
    qtbot.waitUntil(lambda: len(model.state.tables) == len(running.clocks), timeout=5000)
    return Desk(model, connection, window)


def button_for(window: RefereeWindow, action: object) -> QToolButton:
    return next(b for b in window.findChildren(QToolButton) if b.defaultAction() is action)
