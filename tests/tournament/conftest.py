"""A running daemon with the tournament, on a clock the test moves, and buttons the test presses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.core.actions import Action
from clockd.core.clock import Side
from clockd.core.device import DeviceState, Display
from clockd.core.units import SECOND
from clockd.devices.base import DevicePress, DeviceStatus, Sink
from clockd.service.runtime import Daemon, TableSpec

T0 = 1_000 * SECOND


class FakeClock:
    """``time.monotonic_ns`` moved by hand, so a 10-minute duel takes no time."""

    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Buttons:
    """The two buttons of a table, pressed by the test at exact instants (numbered like a serial clock)."""

    def __init__(self, table: int) -> None:
        self.table = table
        self.sink: Sink | None = None
        self.seq = 0
        self.shows: list[Display] = []

    def start(self, sink: Sink) -> None:
        self.sink = sink

    def stop(self) -> None:
        self.sink = None

    def press(self, side: Side, t_ns: int) -> None:
        assert self.sink is not None
        self.seq += 1
        self.sink(
            DevicePress(
                table=self.table, t_ns=t_ns, side=side, device_id=f"buttons-{self.table}", seq=self.seq
            )
        )

    def acknowledge(self, press: DevicePress) -> None:
        pass

    def show(self, display: Display) -> None:
        self.shows.append(display)

    def beep(self, pattern: Any) -> None:
        pass

    def status(self) -> DeviceStatus:
        return DeviceStatus(device_id=f"buttons-{self.table}", state=DeviceState.CONNECTED)


class Desk:
    """The referee's desk over a running daemon: API calls, presses at instants, time that passes."""

    def __init__(self, daemon: Daemon, clock: FakeClock, buttons: dict[int, Buttons], token: str) -> None:
        self.daemon = daemon
        self.clock = clock
        self.buttons = buttons
        self.client = Client("127.0.0.1", daemon.port, token, by="Sędzia A")

    def act(self, target: str, action: Action) -> Any:
        """Do ``action`` as the referee at the desk; the daemon's answer (``Done``)."""
        return self.client.act(target, action)

    def event(self, key: str = "pt") -> Any:
        return self.client.events([key]).events[0]

    def session(self, key: str = "pt") -> Any:
        """The session's body: players, the bracket (with each match's allowed actions)."""
        return self.event(key).body

    def match(self, match_id: str, key: str = "pt") -> Any:
        return next(m for m in self.session(key).bracket.matches if m.id == match_id)

    def settle(self) -> None:
        engine = self.daemon.engine
        assert engine is not None
        engine.barrier().result(timeout=10)
        engine.barrier().result(timeout=10)

    def at(self, t_ns: int) -> None:
        """Let time pass until ``t_ns`` (the daemon decides whatever falls due)."""
        assert t_ns >= self.clock.now
        self.clock.now = t_ns
        self.settle()

    def press(self, table: int, side: Side, t_ns: int) -> None:
        self.at(t_ns)
        self.buttons[table].press(side, t_ns)
        self.settle()

    def table(self, table: int) -> Any:
        return self.client.status([table]).tables[0]


@pytest.fixture
def open_desk(tmp_path: Path) -> Iterator[Callable[..., Desk]]:
    """Start (or restart, on the same journal) a daemon with the tournament and ``tables`` tables."""
    desks: list[Desk] = []
    clock = FakeClock()

    def open_(*, tables: int = 4, **kwargs: Any) -> Desk:
        daemon = Daemon(
            tmp_path / "journal.db",
            tables=[TableSpec(t, f"Stolik {t}", "10m") for t in range(1, tables + 1)],
            port=0,
            clock=clock,
            boot_id="test-boot",
            write_daemon_info=False,
            **kwargs,
        )
        buttons = {t: Buttons(t) for t in range(1, tables + 1)}
        for t, b in buttons.items():
            daemon.add_device(t, b)
        started = daemon.start()
        desk = Desk(daemon, clock, buttons, started.token)
        desks.append(desk)
        return desk

    yield open_
    for desk in desks:
        desk.client.close()
        desk.daemon.stop()
