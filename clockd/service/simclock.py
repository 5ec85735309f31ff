"""In-process simulated clocks: players who keep pressing, for ``duelclock run`` with no hardware.

Each :class:`SimulatedClock` implements the :class:`~clockd.devices.base.TableDevice`
interface, so the runtime treats it exactly like a serial or GPIO clock: presses go
through the sink, are journaled, then acknowledged; the display updates come back
through :meth:`SimulatedClock.show`, and that is how the simulated players see whose
turn it is. A player thinks (``think_ns``, e.g. :class:`hw_sim.players.PlayerModel`) and
presses; a referee's pause makes them wait; a fallen flag ends their game. On a clock
that is set but not started, one of them presses to start the other's time.

One scheduler thread serves all clocks (hundreds of tables cost one thread, not
hundreds). These clocks live in the daemon's process, so they do not survive a crash;
the crash test uses simulated *serial* clocks in another process for that.
"""

from __future__ import annotations

import heapq
import itertools
import random
import secrets
import threading
import time
from collections.abc import Callable

from clockd.core.clock import Phase, Side
from clockd.core.device import Beep, DeviceState, Display, TwoClocks
from clockd.core.units import SECOND
from clockd.devices.base import (
    Connected,
    DevicePress,
    DeviceStatus,
    Disconnected,
    Sink,
)
from clockd.i18n import Msg

ThinkTime = Callable[[random.Random], int]

#: What the table's status says of such a device, and why it went away (messages: no language).
SIMULATED = Msg("device.simulated-players")
STOPPED = Msg("device.stopped")


class SimulatedClocks:
    """The players of many simulated tables, on one scheduler thread."""

    def __init__(
        self,
        think_ns: ThinkTime,
        *,
        seed: int | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        start_delay_ns: int = 2 * SECOND,
    ) -> None:
        self.think_ns = think_ns
        self.rng = random.Random(seed)
        self.clock = clock
        self.start_delay_ns = start_delay_ns
        self.epoch = secrets.token_hex(3)
        self._heap: list[tuple[int, int, SimulatedClock, Side, int]] = []
        self._order = itertools.count()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def device(self, table: int, *, phase_of: Callable[[], Phase | None] | None = None) -> SimulatedClock:
        """The clock of ``table``. ``phase_of`` tells the players whether the clock is set and not started."""
        return SimulatedClock(self, table, phase_of)

    def _ensure_thread(self) -> None:
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="clockd-simulated-players", daemon=True
                )
                self._thread.start()

    def schedule(self, clock: SimulatedClock, side: Side, due_ns: int, turn: int) -> None:
        with self._cond:
            heapq.heappush(self._heap, (due_ns, next(self._order), clock, side, turn))
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopping:
                    now = self.clock()
                    if self._heap and self._heap[0][0] <= now:
                        break
                    wait_ns = self._heap[0][0] - now if self._heap else None
                    self._cond.wait(None if wait_ns is None else wait_ns / 1e9)
                if self._stopping:
                    return
                _, _, clock, side, turn = heapq.heappop(self._heap)
            clock._press_if_still(side, turn)


class SimulatedClock:
    """One table's simulated clock and its two players (see :class:`SimulatedClocks`)."""

    def __init__(
        self, players: SimulatedClocks, table: int, phase_of: Callable[[], Phase | None] | None
    ) -> None:
        self.players = players
        self.table = table
        self.device_id = f"sim-{table}@{players.epoch}"
        self.phase_of = phase_of
        self._sink: Sink | None = None
        self._lock = threading.Lock()
        self._seq = 0
        self._turn = 0  # bumped on every display change: a scheduled press for an older turn is void
        self._running: Side | None = None
        self._unacked: dict[int, DevicePress] = {}
        self.sent = 0
        self.acked = 0
        self.beeps: list[Beep] = []

    # -- TableDevice ----------------------------------------------------------------------------
    def start(self, sink: Sink) -> None:
        self._sink = sink
        self.players._ensure_thread()
        sink(
            Connected(
                table=self.table,
                t_ns=self.players.clock(),
                device_id=self.device_id,
                detail=SIMULATED,
            )
        )

    def stop(self) -> None:
        sink, self._sink = self._sink, None
        if sink is not None:
            sink(
                Disconnected(
                    table=self.table, t_ns=self.players.clock(), device_id=self.device_id, reason=STOPPED
                )
            )

    def acknowledge(self, press: DevicePress) -> None:
        with self._lock:
            if press.seq is not None and self._unacked.pop(press.seq, None) is not None:
                self.acked += 1

    def show(self, display: Display) -> None:
        """The players look at the clock: the side whose time runs starts thinking."""
        running = display.running if isinstance(display, TwoClocks) else None
        with self._lock:
            if running is self._running and running is not None:
                return  # same turn still running (e.g. an ignored press): keep thinking
            self._turn += 1
            self._running = running
            turn = self._turn
        now = self.players.clock()
        if running is not None:
            self.players.schedule(self, running, now + self.players.think_ns(self.players.rng), turn)
        elif self.phase_of is not None and self.phase_of() is Phase.READY:
            starter = self.players.rng.choice((Side.A, Side.B))  # the toss loser starts the other's time
            self.players.schedule(self, starter, now + self.players.start_delay_ns, turn)

    def beep(self, pattern: Beep) -> None:
        self.beeps.append(pattern)

    def status(self) -> DeviceStatus:
        state = DeviceState.CONNECTED if self._sink is not None else DeviceState.DISCONNECTED
        return DeviceStatus(device_id=self.device_id, state=state, detail=SIMULATED)

    # -- the players --------------------------------------------------------------------------------
    def _press_if_still(self, side: Side, turn: int) -> None:
        with self._lock:
            sink = self._sink
            if sink is None or turn != self._turn:
                return
            self._seq += 1
            press = DevicePress(
                table=self.table,
                t_ns=self.players.clock(),
                side=side,
                device_id=self.device_id,
                seq=self._seq,
            )
            self._unacked[self._seq] = press
            self.sent += 1
        sink(press)
