"""Simulated USB-serial chess clocks, speaking ``firmware_protocol`` over pseudo-terminals.

Each :class:`SimulatedSerialClock` owns a pseudo-terminal (``os.openpty()``, raw mode):
the driver under test opens its path exactly as it opens ``/dev/ttyUSB0``. Behind the
pty runs the reference device logic (:class:`firmware_protocol.device.DeviceSession`)
with its own time base (:class:`~hw_sim.simtime.DeviceClock`, with oscillator drift),
buttons pressed by a script, a test or a :class:`~hw_sim.players.PlayerModel`, and the
faults of :mod:`hw_sim.faults`: garbage, corrupted, dropped and duplicated frames,
delayed ACKs, unplug/replug (the pty is closed and a new one opened — its path changes,
as a replugged adapter may become ``ttyUSB1``: the driver must find it again by USB
VID/PID and serial number, which :meth:`SerialClockFarm.list_ports` reports like
``serial.tools.list_ports.comports()`` does) and reboot (a new random boot id; sequence
numbers and the clock start again). A conforming clock (protocol 1.1, the default) keeps
its unacknowledged presses across the reboot, as if in flash, lists them in its HELLO and
re-sends them under their own epoch; a clock made with ``persistent=False`` loses them,
as a non-conforming firmware would (:attr:`SimulatedSerialClock.lost_on_reboot`).

A clock speaks this package's protocol version (1.2) unless told otherwise
(``farm.add(..., minor=1)``: a 1.1 firmware, which skips SHOW_FACE as a type it does not
know, so a host must show it two faces with SHOW). What it was last shown — the face,
its times, what runs, the text — is :attr:`SimulatedSerialClock.display`, for tests and
``duelclock sim serial`` to check; it keeps the face as it came and does not count a
ticking time down itself (what a real clock shows between two messages is its own).

One :class:`SerialClockFarm` runs any number of clocks on one background thread (a
selector over the pty masters and a timer heap), so hundreds of clocks cost one thread.
Presses made from other threads (:meth:`SimulatedSerialClock.press`) happen at the
instant of the call.

Typical use (e.g. from a daemon's ``--sim`` mode or a test)::

    with SerialClockFarm() as farm:
        clock = farm.add("SIM-0001", drift_ppm=150)
        farm.play(clock, (STEADY, FAST))          # two players keep pressing
        driver = SerialClock(table=1, match=PortMatch(serial_number="SIM-0001"),
                             list_ports=farm.list_ports)

Every press is recorded with its true host instant (:attr:`SimulatedSerialClock.presses`)
so a test can measure the driver's timing error and find lost or duplicated presses.
This module never imports ``clockd``: it is the far side of the wire.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import random
import selectors
import threading
import time
import tty
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from firmware_protocol.codec import MessageParser, encode
from firmware_protocol.device import DeviceSession, FirmwareConfig
from firmware_protocol.framing import FrameError
from firmware_protocol.messages import (
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    BeepPattern,
    Capability,
    Set,
    Unknown,
    WireMessage,
    WireShowFace,
    WireSide,
)
from hw_sim.faults import Faults
from hw_sim.players import PlayerModel
from hw_sim.simtime import DeviceClock, NowNs

#: pid.codes' test VID/PID: a placeholder until the clock has its own
DEFAULT_VID = 0x1209
DEFAULT_PID = 0x0001
MANUFACTURER = "duelclock"
PRODUCT = "duelclock serial clock (simulated)"


@dataclass(frozen=True)
class PortInfo:
    """A plugged clock as ``serial.tools.list_ports`` would describe it (the fields drivers use)."""

    device: str
    vid: int
    pid: int
    serial_number: str
    manufacturer: str = MANUFACTURER
    product: str = PRODUCT
    description: str = PRODUCT

    @property
    def hwid(self) -> str:
        return f"USB VID:PID={self.vid:04X}:{self.pid:04X} SER={self.serial_number}"


@dataclass(frozen=True)
class PressRecord:
    """The truth about one press: what the device registered and when it really happened."""

    device_id: str
    boot_id: int
    seq: int
    side: WireSide
    device_t_us: int
    host_ns: int  # the simulation's host time at the press


@dataclass
class LinkCounters:
    frames_sent: int = 0
    bytes_sent: int = 0
    bytes_unread: int = 0  # written while nobody read the port and its buffer was full
    frames_received: int = 0
    frames_lost_inbound: int = 0  # host frames dropped or corrupted by the fault injector
    errors_inbound: int = 0  # frames the device could not read
    unplugs: int = 0
    reboots: int = 0


class SimulatedSerialClock:
    """One clock: a pty, the device protocol logic, a drifting clock and a fault injector.

    Create it with :meth:`SerialClockFarm.add`. All methods are thread-safe.
    """

    def __init__(
        self,
        farm: SerialClockFarm,
        config: FirmwareConfig,
        *,
        vid: int,
        pid: int,
        drift_ppb: int,
        faults: Faults,
        rng: random.Random,
        persistent: bool = True,
    ) -> None:
        self.farm = farm
        #: keeps unacknowledged presses across a reboot (its non-volatile store), as 1.1 requires
        self.persistent = persistent
        self.config = config
        self.vid = vid
        self.pid = pid
        self.drift_ppb = drift_ppb
        self.faults = faults
        self.rng = rng
        self.counters = LinkCounters()
        self.presses: list[PressRecord] = []
        #: unacknowledged presses a reboot took with it (only on a clock that is not ``persistent``)
        self.lost_on_reboot: list[PressRecord] = []
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._path: str | None = None
        self._parser = MessageParser()
        self._generation = 0  # invalidates timer entries of an earlier boot or deadline
        self._records: dict[tuple[int, int], PressRecord] = {}
        self.clock = DeviceClock(farm.time, drift_ppb=drift_ppb)
        self.session = DeviceSession.power_on(config, rng.getrandbits(32))

    # -- what a test or a player does ------------------------------------------------------------
    @property
    def serial_number(self) -> str:
        return self.config.device_id

    @property
    def path(self) -> str | None:
        """The pty's path while plugged in (it changes at every replug), else None."""
        return self._path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def boot_id(self) -> int:
        return self.session.boot_id

    @property
    def port_info(self) -> PortInfo | None:
        path = self._path
        return PortInfo(path, self.vid, self.pid, self.serial_number) if path else None

    @property
    def pending(self) -> int:
        """Presses the device holds that the host has not acknowledged (of every epoch)."""
        with self._lock:
            return self.session.unacknowledged

    def unacknowledged(self) -> list[PressRecord]:
        """The truth about every press the device holds unacknowledged, oldest first."""
        with self._lock:
            return [self._records[(p.boot_id, p.seq)] for p in self.session.stored()]

    @property
    def display(self) -> WireShowFace | None:
        """What the clock shows now: the last face it was shown, None before the first.

        A SHOW_FACE as it came (protocol 1.2); a plain SHOW or a SET as two clocks. For two
        clocks ``running`` is the side whose time runs (players watch it); a countdown,
        a count-up and a text have no running side (``ticking``: the one time runs).
        """
        return self.session.display

    @property
    def control(self) -> Set | None:
        return self.session.control

    @property
    def beeps(self) -> list[BeepPattern]:
        return list(self.session.beeps)

    def press(self, side: WireSide) -> PressRecord | None:
        """Press ``side``'s button now. Returns the record (None if the device was full)."""
        with self._lock:
            host_ns = self.farm.time()
            now_us = self.clock.us_at(host_ns)
            press, out = self.session.press(side, now_us)
            if press is None:
                return None
            record = PressRecord(self.serial_number, press.boot_id, press.seq, side, press.t_us, host_ns)
            self.presses.append(record)
            self._records[(press.boot_id, press.seq)] = record
            self._send(out)
            self._reschedule(now_us)
            return record

    def unplug(self) -> None:
        """Pull the cable: the pty closes (the driver's reads fail); the clock keeps running."""
        with self._lock:
            if self._master is None:
                return
            self.farm._unwatch(self)
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self._path = None
            self.session.host_ready = False  # the device sees its USB link go down
            self.counters.unplugs += 1

    def replug(self) -> None:
        """Plug the cable back in: a new pty (a new path) and a HELLO on it."""
        with self._lock:
            if self._master is not None:
                return
            self._open_pty()
            self._parser = MessageParser()
            now_us = self.clock.now_us()
            self._send(self.session.attach(now_us))
            self._reschedule(now_us)

    def reboot(self) -> None:
        """Power-cycle: new boot id, sequence and clock from zero, the display blank.

        A ``persistent`` clock keeps every unacknowledged press (its non-volatile store
        survives) and re-sends it after the next HELLO_ACK; any other loses them.
        """
        with self._lock:
            stored = self.session.stored()
            if not self.persistent:
                self.lost_on_reboot.extend(self._records[(p.boot_id, p.seq)] for p in stored)
                stored = []
            held = {p.boot_id for p in stored} | {self.session.boot_id}
            boot_id = self.rng.getrandbits(32)
            while boot_id in held:  # a firmware picks a boot id none of its stored presses has
                boot_id = self.rng.getrandbits(32)
            self.counters.reboots += 1
            self.clock = DeviceClock(self.farm.time, drift_ppb=self.drift_ppb)
            self.session = DeviceSession.power_on(self.config, boot_id, stored)
            self._parser = MessageParser()
            if self._master is not None:
                now_us = self.clock.now_us()
                self._send(self.session.attach(now_us))
                self._reschedule(now_us)

    def record(self, boot_id: int, seq: int) -> PressRecord | None:
        """The truth about press ``seq`` of epoch ``boot_id``."""
        return self._records.get((boot_id, seq))

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Wait until the host has acknowledged every press; False on timeout."""
        deadline = time.monotonic() + timeout_s
        while self.pending:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    # -- the farm's side --------------------------------------------------------------------------
    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, no CR/LF translation: a byte is a byte
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._path = os.ttyname(slave)
        self.farm._watch(self, master)

    def _start(self) -> None:
        with self._lock:
            self._open_pty()
            now_us = self.clock.now_us()
            self._send(self.session.attach(now_us))
            self._reschedule(now_us)

    def _close(self) -> None:
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self._path = None

    def _readable(self) -> None:
        with self._lock:
            if self._master is None:
                return
            try:
                data = os.read(self._master, 65536)
            except BlockingIOError:
                return
            except OSError:
                return  # no reader on the other side right now (EIO): nothing to read
            now_us = self.clock.now_us()
            out: list[WireMessage] = []
            delayed: list[Ack] = []
            for item in self._parser.feed(data):
                if isinstance(item, FrameError):
                    self.counters.errors_inbound += 1
                    continue
                self.counters.frames_received += 1
                if self.faults.incoming_lost(self.rng):
                    self.counters.frames_lost_inbound += 1
                    continue
                if self.faults.ack_delay_ns and isinstance(item, Ack):
                    delayed.append(item)
                    continue
                out += self._receive(item, now_us)
            self._send(out)
            self._reschedule(now_us)
        for ack in delayed:
            self.farm.call_later(self.faults.ack_delay_ns, self._late_ack, ack, self.session)

    def _late_ack(self, ack: Ack, session: DeviceSession) -> None:
        with self._lock:
            if session is not self.session:
                return  # the device rebooted meanwhile
            now_us = self.clock.now_us()
            self._send(self._receive(ack, now_us))
            self._reschedule(now_us)

    def _receive(self, msg: WireMessage | Unknown, now_us: int) -> list[WireMessage]:
        return self.session.receive(msg, now_us)

    def _poll(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
            now_us = self.clock.now_us()
            self._send(self.session.poll(now_us))
            self._reschedule(now_us)

    def _reschedule(self, now_us: int) -> None:
        self._generation += 1
        deadline = self.session.next_deadline_us()
        if deadline is None:
            return
        delay_ns = max(0, deadline - now_us) * 1000
        self.farm.call_later(delay_ns, self._poll, self._generation)

    def _send(self, messages: Sequence[WireMessage]) -> None:
        if not messages:
            return
        out = bytearray()
        for msg in messages:
            out += self.faults.outgoing(encode(msg), self.rng)
            self.counters.frames_sent += 1
        if self._master is None or not out:
            return
        try:
            n = os.write(self._master, out)
        except (BlockingIOError, OSError):
            n = 0  # the port's buffer is full (nobody reads it): the bytes are gone, as on a UART
        self.counters.bytes_sent += n
        self.counters.bytes_unread += len(out) - n


@dataclass(order=True)
class _Timer:
    due_ns: int
    order: int
    fn: Callable[..., None] = field(compare=False)
    args: tuple[object, ...] = field(compare=False)


class SerialClockFarm:
    """Runs simulated clocks: one thread, a selector over their ptys and a timer heap.

    ``time`` is the simulation's host clock (default ``time.monotonic_ns``; pass a
    :class:`~hw_sim.simtime.SimTime` to jump over think times, and give the driver the
    same one). ``seed`` makes boot ids, faults and player think times repeatable.
    """

    def __init__(self, *, time: NowNs | None = None, seed: int | None = None) -> None:
        import time as _time

        self.time: NowNs = time or _time.monotonic_ns
        self.rng = random.Random(seed)
        self.clocks: list[SimulatedSerialClock] = []
        self._selector = selectors.DefaultSelector()
        self._timers: list[_Timer] = []
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._running = False
        self._thread: threading.Thread | None = None
        self.errors: list[BaseException] = []
        on_advance = getattr(self.time, "on_advance", None)
        if on_advance is not None:
            on_advance(self.wake)

    # -- set-up -----------------------------------------------------------------------------------
    def add(
        self,
        serial_number: str | None = None,
        *,
        drift_ppm: float = 0.0,
        faults: Faults | None = None,
        vid: int = DEFAULT_VID,
        pid: int = DEFAULT_PID,
        firmware: str = "sim-1.0",
        capabilities: frozenset[Capability] | None = None,
        major: int = PROTOCOL_MAJOR,
        minor: int = PROTOCOL_MINOR,
        heartbeat_ms: int = 250,
        retransmit_ms: int = 200,
        persistent: bool = True,
    ) -> SimulatedSerialClock:
        """A new clock, plugged in (its pty open, a HELLO on it) and running.

        ``persistent=False`` makes a non-conforming clock that loses its unacknowledged
        presses when it reboots (protocol 1.0 devices did).
        """
        serial_number = serial_number or f"SIM-{len(self.clocks) + 1:04d}"
        config = FirmwareConfig(
            device_id=serial_number,
            firmware=firmware,
            major=major,
            minor=minor,
            heartbeat_ms=heartbeat_ms,
            retransmit_ms=retransmit_ms,
        )
        if capabilities is not None:
            config = replace(config, capabilities=capabilities)
        clock = SimulatedSerialClock(
            self,
            config,
            vid=vid,
            pid=pid,
            drift_ppb=round(drift_ppm * 1000),
            faults=faults or Faults(),
            rng=random.Random(self.rng.getrandbits(64)),
            persistent=persistent,
        )
        self.clocks.append(clock)
        clock._start()
        self.start()
        return clock

    def list_ports(self) -> list[PortInfo]:
        """The plugged clocks, like ``serial.tools.list_ports.comports()`` (which skips ptys)."""
        return [info for c in list(self.clocks) if (info := c.port_info) is not None]

    # -- players ----------------------------------------------------------------------------------
    def play(
        self,
        clock: SimulatedSerialClock,
        players: tuple[PlayerModel, PlayerModel],
        *,
        turns: int | None = None,
        first: WireSide = WireSide.A,
        rng: random.Random | None = None,
    ) -> None:
        """Two players alternate: ``first`` presses to start the other side's time, then
        each presses after a think time from its model. ``turns=None`` plays forever."""
        rng = rng or random.Random(self.rng.getrandbits(64))
        models = {WireSide.A: players[0], WireSide.B: players[1]}
        count = itertools.count(1)

        def turn(side: WireSide) -> None:
            n = next(count)
            if turns is not None and n > turns:
                return
            clock.press(side)
            other = WireSide.B if side is WireSide.A else WireSide.A
            self.call_later(models[other].think_ns(rng), turn, other)

        self.call_later(models[first].think_ns(rng), turn, first)

    def press_every(
        self,
        clock: SimulatedSerialClock,
        interval_ns: int,
        *,
        count: int | None = None,
        start_in_ns: int = 0,
    ) -> None:
        """Press alternately A and B every ``interval_ns`` (``count`` times; None: forever)."""
        state = {"n": 0, "due": self.time() + start_in_ns}

        def tick() -> None:
            if count is not None and state["n"] >= count:
                return
            side = WireSide.A if state["n"] % 2 == 0 else WireSide.B
            state["n"] += 1
            clock.press(side)
            state["due"] += interval_ns
            self.call_at(state["due"], tick)

        self.call_at(state["due"], tick)

    # -- scheduling -------------------------------------------------------------------------------
    def call_at(self, due_ns: int, fn: Callable[..., None], *args: object) -> None:
        """Run ``fn(*args)`` on the farm's thread at simulation time ``due_ns``."""
        with self._lock:
            heapq.heappush(self._timers, _Timer(due_ns, next(self._order), fn, args))
        self.wake()

    def call_later(self, delay_ns: int, fn: Callable[..., None], *args: object) -> None:
        self.call_at(self.time() + delay_ns, fn, *args)

    def wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"\x00")

    # -- the thread -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._running:
            return
        self._running = True
        self._thread = threading.Thread(target=self._run, name="serial-clock-farm", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and unplug every clock."""
        self._running = False
        self.wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        for clock in self.clocks:
            clock._close()
        with contextlib.suppress(OSError):
            os.close(self._wake_r)
        with contextlib.suppress(OSError):
            os.close(self._wake_w)
        self._selector.close()

    def __enter__(self) -> SerialClockFarm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[SimulatedSerialClock]:
        return iter(list(self.clocks))

    def _watch(self, clock: SimulatedSerialClock, fd: int) -> None:
        with self._lock:
            self._selector.register(fd, selectors.EVENT_READ, clock)
        self.wake()

    def _unwatch(self, clock: SimulatedSerialClock) -> None:
        fd = clock._master
        if fd is None:
            return
        with self._lock, contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(fd)

    def _due(self) -> tuple[list[_Timer], float | None]:
        now = self.time()
        due: list[_Timer] = []
        with self._lock:
            while self._timers and self._timers[0].due_ns <= now:
                due.append(heapq.heappop(self._timers))
            timeout = (self._timers[0].due_ns - now) / 1e9 if self._timers else None
        return due, timeout

    def _run(self) -> None:
        while self._running:
            due, timeout = self._due()
            for timer in due:
                self._guard(timer.fn, *timer.args)
            if due:
                continue
            try:
                events = self._selector.select(min(timeout, 0.5) if timeout is not None else 0.5)
            except (OSError, ValueError):
                continue  # a pty closed between registration and select
            for key, _ in events:
                if key.data is None:
                    with contextlib.suppress(BlockingIOError, OSError):
                        os.read(self._wake_r, 4096)
                    continue
                self._guard(key.data._readable)

    def _guard(self, fn: Callable[..., None], *args: object) -> None:
        try:
            fn(*args)
        except Exception as exc:  # a bug in a callback must not stop every other clock
            self.errors.append(exc)
