"""The hall of the rehearsed day: one daemon, its serial clocks on ptys, simulated time, the web
pages, the desk's and the audience's windows, and the referee's command line.

Everything is the real thing, in this process: the daemon (:class:`clockd.service.runtime.Daemon`:
journal, engine, API server), the real serial driver (:class:`clockd.devices.serial.SerialClock`)
reading simulated clocks on pseudo-terminals (:mod:`hw_sim.serial_clock`), the web server
(uvicorn in a thread), the GUI's windows (Qt offscreen) on their own connections, and the
``duelclock`` command (:func:`clockd.cli.main`) typed as a referee types it, against the
``daemon.json`` the daemon wrote. Only time is simulated (:class:`hw_sim.simtime.SimTime`,
shared by the daemon, the drivers and the clocks, as ``duelclock demo`` does), so a 60-minute
relay takes no time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clockd.api.client import Client
from clockd.cli import build_parser
from clockd.core.units import MINUTE, SECOND
from clockd.devices.serial import PortMatch, SerialClock
from clockd.service.runtime import Daemon, TableSpec
from firmware_protocol.messages import WireSide
from hw_sim.serial_clock import SerialClockFarm, SimulatedSerialClock
from hw_sim.simtime import SimTime
from tests.conftest import wait_until
from web.access import Lockout
from web.app import WebSettings
from web.serve import Background
from web.serve import config as web_config

T0 = 1_000 * SECOND
MS = 1_000_000
TABLES = 8


@dataclass
class Run:
    """One command as the referee typed it, and what it printed."""

    line: str
    code: int
    out: str
    err: str
    traceback: str = ""

    @property
    def text(self) -> str:
        return self.out + self.err


@dataclass
class Hall:
    """What the day has built so far, for the checks: which events exist, which are over, whose
    data must never be public, whose data was erased."""

    events: dict[str, str] = field(default_factory=dict)  # key → kind
    ended: set[str] = field(default_factory=set)  # keys of events that are over
    private: set[str] = field(default_factory=set)  # surnames, e-mails, phones, birth dates
    erased: set[str] = field(default_factory=set)  # what an erased person was shown as
    files: dict[str, Path] = field(default_factory=dict)  # named files of the day (timelines …)
    values: dict[str, Any] = field(default_factory=dict)  # anything a later step needs


class Day:
    """The rehearsed day's hall. ``cli("tournament", "new", "pt")`` types a command; ``press``
    presses a clock's button; ``advance`` lets simulated time pass."""

    def __init__(self, folder: Path, *, tables: int = TABLES, seed: int = 26) -> None:
        self.folder = folder
        self.hall = Hall()
        self.log: list[Run] = []
        self._parser: argparse.ArgumentParser | None = None
        self.time = SimTime(source=lambda: T0)  # stands still between jumps
        self.farm = SerialClockFarm(time=self.time, seed=seed)
        self.daemon = Daemon(
            folder / "dzien.db",
            tables=[TableSpec(t, f"Stolik {t}", "10m") for t in range(1, tables + 1)],
            port=0,
            boot_id="rehearsal",
            clock=self.time,
            write_daemon_info=True,  # the command line finds the daemon as a referee's does
        )
        self.sims: dict[int, SimulatedSerialClock] = {}
        drivers = []
        for t in range(1, tables + 1):
            serial_number = f"REH-{t:02d}"
            self.sims[t] = self.farm.add(serial_number, heartbeat_ms=1000)
            driver = SerialClock(
                t,
                match=PortMatch(serial_number=serial_number),
                list_ports=self.farm.list_ports,
                clock=self.time,
            )
            self.daemon.add_device(t, driver)
            drivers.append(driver)
        started = self.daemon.start()
        self.port = started.port
        self.token = started.token
        for driver in drivers:
            assert driver.wait_connected(10), f"the clock of table {driver.table} did not connect"
        for _ in range(40):  # the clocks' first heartbeats map their time onto the daemon's
            self.time.advance(10 * MS)
            time.sleep(0.002)
        self.client = Client("127.0.0.1", started.port, started.token, by="Sędzia")
        self.web = Background(
            web_config(
                WebSettings(
                    daemon_host="127.0.0.1",
                    daemon_port=started.port,
                    token=started.token,
                    access=folder / "web-access.json",
                    lockout=Lockout(),
                ),
                "127.0.0.1",
                0,
            )
        )
        assert self.web.start(), "the web server did not start"
        self.url = f"http://127.0.0.1:{self.web.port()}"
        self.hub = self.web.server.config.app.state.hub  # type: ignore[union-attr]
        assert self.hub.wait_ready(10)

    def close(self) -> None:
        self.web.stop()
        self.client.close()
        self.daemon.stop()
        self.farm.close()

    # -- the referee's command line -------------------------------------------------------------
    def cli(self, *args: str | Path, stdin: str | None = None) -> Run:
        """``duelclock ARGS`` as typed at the desk (in Polish); never raises: a traceback is kept."""
        argv = [str(a) for a in args]
        out, err = io.StringIO(), io.StringIO()
        tb = ""
        old_stdin = sys.stdin
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = self._main(argv)
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                except Exception:
                    tb = traceback.format_exc()
                    code = -1
        finally:
            sys.stdin = old_stdin
        run = Run("duelclock " + shlex.join(argv), code, out.getvalue(), err.getvalue(), tb)
        self.log.append(run)
        self.settle()
        return run

    def _main(self, argv: list[str]) -> int:
        """:func:`clockd.cli.main`, with its parser built once for the day (building it costs a
        third of a second; parsing and running are main's own)."""
        if self._parser is None:
            self._parser = build_parser()
        args = self._parser.parse_args(argv)
        return int(args.func(args) or 0)

    def ok(self, *args: str | Path, stdin: str | None = None) -> Run:
        """A command that must succeed: fails the step with what it printed otherwise."""
        run = self.cli(*args, stdin=stdin)
        if run.code != 0 or run.traceback:
            raise StepFailed(
                f"{run.line} → exit {run.code}: {(run.err or run.out).strip()[-600:]}{run.traceback}"
            )
        return run

    def file(self, name: str, text: str) -> Path:
        path = self.folder / name
        path.write_text(text, encoding="utf-8")
        return path

    # -- the hall ---------------------------------------------------------------------------------
    def settle(self) -> None:
        engine = self.daemon.engine
        assert engine is not None
        engine.barrier().result(timeout=10)
        engine.barrier().result(timeout=10)

    def advance(self, ns: int) -> None:
        """Let ``ns`` of simulated time pass (whatever falls due is decided at its instant)."""
        step = 30 * SECOND  # in steps, so that the clocks' heartbeats keep their time mapped
        while ns > 0:
            jump = min(step, ns)
            self.time.advance(jump)
            ns -= jump
            self.settle()

    def minutes(self, n: float) -> None:
        self.advance(int(n * MINUTE))

    def press(self, table: int, side: str) -> None:
        """A player presses side ``a`` or ``b`` of table ``table``'s clock; returns once the daemon
        has journaled it and the clock has its acknowledgement."""
        sim = self.sims[table]
        before = len(sim.presses)
        sim.press(WireSide(side))
        wait_until(lambda: len(sim.presses) > before and sim.pending == 0, timeout_s=10)
        self.settle()

    def event(self, key: str) -> Any:
        return self.client.events([key]).events[0]

    def events(self) -> list[Any]:
        return list(self.client.events().events)

    def web_caught_up(self) -> None:
        """Wait until the web process holds every event as the daemon has it now."""
        want = {e.key: e.digest for e in self.events()}

        def caught_up() -> bool:
            held = {k: h.view.digest for k, h in self.hub.events.items()}
            return all(held.get(k) == d for k, d in want.items())

        deadline = time.monotonic() + 10
        while not caught_up():
            if time.monotonic() > deadline:
                behind = sorted(
                    k
                    for k, d in want.items()
                    if k not in self.hub.events or self.hub.events[k].view.digest != d
                )
                raise StepFailed(f"the web pages lag behind the daemon: {behind} not as the daemon has them")
            time.sleep(0.01)
        time.sleep(self.hub.coalesce_s * 1.5)  # the pages' coalescing window

    def env(self) -> dict[str, str]:
        return dict(os.environ)


class StepFailed(AssertionError):
    """A step's own command did not do what the referee expected (the message says what)."""
