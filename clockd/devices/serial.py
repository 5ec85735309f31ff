"""The USB-serial clock driver: pyserial on one port, the protocol of ``firmware_protocol``.

A :class:`SerialClock` finds its clock (by USB VID/PID and serial number through
``serial.tools.list_ports.comports()``, or at a fixed path), opens it, does the
handshake, and from then on turns the clock's presses into :class:`~clockd.devices.base.DevicePress`
events on the daemon's sink — each once, in order, with the device's timestamp mapped
onto the host's ``time.monotonic_ns()`` so that USB latency and jitter are not part of
anyone's time. When the cable is pulled it reports :class:`Disconnected`, looks for the
clock again with backoff (the port may come back under another name), and the clock
re-sends whatever it pressed meanwhile.

**Across a reboot of the clock** (protocol 1.1) the presses it held unacknowledged come
again under their own epoch (boot id, seq, device time), before any press of the new
epoch. The driver keeps every epoch's clock mapping while it runs, so they are timed as
exactly as any press; a driver that never heard that epoch's clock (the daemon restarted
while the clock rebooted) can only give an upper bound, and says so in the press's
``time_source`` (``"upper-bound"``) — the daemon then alerts the referee at that table.

**Nothing is acknowledged before the daemon says so.** The driver emits a press and
sends the clock its ACK only when the daemon calls :meth:`SerialClock.acknowledge` —
after the press is journaled. Until then the clock keeps the press and re-sends it
after any reconnect. ``auto_ack=True`` acknowledges as soon as the sink returns, for
tools and tests that have no journal.

**What the clock shows** is what the table's program shows (:data:`~clockd.core.device.Display`:
two clocks, a countdown or count-up, a text), sent as protocol 1.2's SHOW_FACE to a clock
that speaks 1.2 and as the plain SHOW of two faces to an older one
(:func:`firmware_protocol.host.plain_show`). The last one is remembered and shown again
after every reconnect and reboot.

All protocol logic is :class:`firmware_protocol.host.HostSession` (pure, tested without
ports); this module adds the port, one reader thread, and translation to daemon events.
The sink is called from that thread; it must not raise (an exception is recorded in
:attr:`SerialClock.errors` and the press counts as delivered but stays unacknowledged).

Usage::

    clock = SerialClock(table=3, match=PortMatch(serial_number="DC-0007"))
    clock.start(events.put)            # DevicePress / Connected / Disconnected on the queue
    ...
    clock.acknowledge(press)           # after the journal commit
    clock.show(TwoClocks(remaining_ms=PerSide[int](a=..., b=...), running=Side.A))

In tests the port list comes from the simulator (``list_ports=farm.list_ports``), and
``clock=`` takes the simulation's time source.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import serial

from clockd.core.clock import Side
from clockd.core.device import Beep, Countdown, DeviceState, Display, TwoClocks
from clockd.core.timecontrol import DelayMode, TimeControl
from clockd.core.units import MS
from clockd.devices.base import (
    AnyDeviceInput,
    Connected,
    DevicePress,
    DeviceStatus,
    Disconnected,
    Sink,
)
from clockd.i18n import Msg, msg
from firmware_protocol import messages as wire
from firmware_protocol.codec import encode
from firmware_protocol.host import (
    Delivered,
    DeviceRejected,
    Handshake,
    HostOutput,
    HostSession,
    HostStats,
    StatusReport,
)

#: pid.codes' test VID/PID, which the simulated clocks use; a production clock registers its own
DEFAULT_VID = 0x1209
DEFAULT_PID = 0x0001
DEFAULT_BAUDRATE = 115_200
_U32 = 0xFFFF_FFFF


class PortInfoLike(Protocol):
    """What the driver reads from ``serial.tools.list_ports.comports()`` entries."""

    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None


PortLister = Callable[[], Iterable[Any]]


@dataclass(frozen=True)
class PortMatch:
    """Which USB serial port is our clock: VID/PID and (when several are plugged) its serial number."""

    vid: int | None = DEFAULT_VID
    pid: int | None = DEFAULT_PID
    serial_number: str | None = None

    def matches(self, info: PortInfoLike) -> bool:
        return (
            (self.vid is None or info.vid == self.vid)
            and (self.pid is None or info.pid == self.pid)
            and (self.serial_number is None or info.serial_number == self.serial_number)
        )

    def __str__(self) -> str:
        vid = f"{self.vid:04x}" if self.vid is not None else "*"
        pid = f"{self.pid:04x}" if self.pid is not None else "*"
        return f"USB {vid}:{pid}" + (f" serial {self.serial_number}" if self.serial_number else "")


def _comports() -> list[Any]:
    from serial.tools import list_ports

    return list(list_ports.comports())


@dataclass
class DriverStats:
    """The session's protocol counters plus the port's."""

    protocol: HostStats
    opens: int = 0
    disconnects: int = 0
    short_writes: int = 0


class SerialClock:
    """A USB-serial chess clock at one table (implements :class:`~clockd.devices.base.TableDevice`).

    Give ``port`` (a path or a pyserial URL such as ``loop://``) to use a fixed port, or
    ``match`` to find the clock among ``list_ports()`` at every (re)connect.
    ``expect_device_id`` refuses any other clock that answers on the port.
    ``clock`` is the host time source (``time.monotonic_ns``; a simulation's in tests).
    ``read_timeout_ns`` only paces the session's timers (SYNC retries, releasing a new
    epoch's presses): data, a hang-up and :meth:`stop` wake the reader at once. Waking
    every 50 ms instead of 200 ms doubles the idle CPU of 256 clocks (11 % → 21 % of a core).
    """

    def __init__(
        self,
        table: int,
        *,
        port: str | None = None,
        match: PortMatch | None = None,
        list_ports: PortLister | None = None,
        expect_device_id: str | None = None,
        baudrate: int = DEFAULT_BAUDRATE,
        clock: Callable[[], int] = time.monotonic_ns,
        auto_ack: bool = False,
        reconnect_min_ns: int = 50 * MS,
        reconnect_max_ns: int = 1000 * MS,
        read_timeout_ns: int = 200 * MS,
        session: HostSession | None = None,
        serial_factory: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        if (port is None) == (match is None):
            raise ValueError(
                "give exactly one of port= (a fixed path) and match= (find the clock by USB ids)"
            )
        self.table = table
        self.port = port
        self.match = match
        self._list_ports: PortLister = list_ports or _comports
        self.expect_device_id = expect_device_id or (match.serial_number if match else None)
        self.baudrate = baudrate
        self.clock = clock
        self.auto_ack = auto_ack
        self._reconnect_min_ns = reconnect_min_ns
        self._reconnect_max_ns = reconnect_max_ns
        self._read_timeout_s = read_timeout_ns / 1e9
        self._serial_factory = serial_factory
        self._session = session or HostSession(expect_device_id=self.expect_device_id)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._sink: Sink | None = None
        self._ser: Any = None
        self._broken = False
        self._state = DeviceState.DISCONNECTED
        self._detail: Msg | None = Msg("driver.serial.not-started")
        self._display: wire.WireShowFace | None = None  # what the clock should show
        self.path: str | None = None  # the port currently open
        self.last_status: wire.WireStatus | None = None
        self.errors: list[BaseException] = []
        self.stats = DriverStats(protocol=self._session.stats)

    # -- TableDevice ----------------------------------------------------------------------------
    def start(self, sink: Sink) -> None:
        if self._thread is not None:
            raise RuntimeError(f"serial clock of table {self.table} is already started")
        self._sink = sink
        self._stop.clear()
        self._state = DeviceState.CONNECTING
        self._thread = threading.Thread(target=self._run, name=f"serial-clock-{self.table}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        ser = self._ser
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.cancel_read()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
        self._state = DeviceState.DISCONNECTED
        self._detail = Msg("driver.serial.stopped")

    def acknowledge(self, press: DevicePress) -> None:
        """``press`` is journaled: send the clock its (cumulative) ACK."""
        if press.boot_id is None or press.seq is None:
            raise ValueError(f"press {press!r} did not come from a serial clock (no boot_id/seq)")
        with self._lock:
            self._write(self._session.acknowledge(press.boot_id, press.seq, press.device_id or None).send)

    def show(self, display: Display) -> None:
        """Show what the table's program shows (SHOW_FACE, or SHOW to a 1.1 clock).

        Remembered and shown again after every reconnect; a clock not connected now is
        shown it when it connects.
        """
        face = wire_face(display)
        with self._lock:
            self._display = face
            self._write(self._session.show(face).send)

    def beep(self, pattern: Beep) -> None:
        """Sound ``pattern`` now, if the clock is connected (a beep is not worth keeping)."""
        with self._lock:
            if self._session.ready:
                self._write([encode(wire.WireBeep(pattern=wire.BeepPattern(pattern.value)))])

    def set_time_control(self, control: TimeControl) -> None:
        """Send a single-stage time control to a clock that keeps time itself (SET)."""
        if len(control.stages) != 1:
            raise ValueError(f"a clock's SET holds one stage; {control} has {len(control.stages)}")
        stage = control.stages[0]
        command = wire.Set(
            initial_ms_a=stage.time_ns // MS,
            initial_ms_b=stage.time_ns // MS,
            increment_ms=stage.increment_ns // MS,
            delay_ms=stage.delay_ns // MS,
            delay_mode=wire.WireDelayMode(DelayMode(control.delay_mode).value),
        )
        with self._lock:
            if not self._session.ready:
                raise RuntimeError(f"the clock of table {self.table} is not connected")
            self._write([encode(command)])

    def status(self) -> DeviceStatus:
        hello = self._session.hello
        device_id = hello.device_id if hello else (self.expect_device_id or self.port or str(self.match))
        return DeviceStatus(device_id=device_id, state=self._state, detail=self._detail)

    # -- for tools and tests --------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout_s: float = 5.0) -> bool:
        return self._connected.wait(timeout_s)

    @property
    def hello(self) -> wire.Hello | None:
        return self._session.hello

    @property
    def drift_ppb(self) -> int | None:
        """The estimated drift of the clock's oscillator (parts per billion), once known."""
        mapping = self._session.mapping
        return mapping.line().drift_ppb if mapping else None

    # -- the reader thread --------------------------------------------------------------------------
    def _run(self) -> None:
        backoff = self._reconnect_min_ns
        while not self._stop.is_set():
            path = self._find_port()
            if path is None:
                self._set_state(
                    DeviceState.CONNECTING, msg("driver.serial.looking-for-the-clock", match=str(self.match))
                )
            else:
                try:
                    ser = self._serial_factory(
                        path, baudrate=self.baudrate, timeout=self._read_timeout_s, write_timeout=0
                    )
                except (serial.SerialException, OSError, ValueError) as exc:
                    self._set_state(
                        DeviceState.CONNECTING, msg("driver.serial.cannot-open", path=path, exc=exc)
                    )
                else:
                    backoff = self._reconnect_min_ns
                    self._serve(ser, path)
                    continue
            self._stop.wait(backoff / 1e9)
            backoff = min(backoff * 2, self._reconnect_max_ns)

    def _find_port(self) -> str | None:
        if self.port is not None:
            return self.port
        assert self.match is not None
        try:
            ports = list(self._list_ports())
        except Exception as exc:  # a broken udev database must not kill the driver
            self.errors.append(exc)
            return None
        for info in ports:
            if self.match.matches(info):
                return str(info.device)
        return None

    def _serve(self, ser: Any, path: str) -> None:
        """Talk to the clock on ``ser`` until the port fails or the driver stops."""
        with self._lock:
            self._ser = ser
            self.path = path
            self._broken = False
            self.stats.opens += 1
            with contextlib.suppress(serial.SerialException, OSError):
                ser.reset_input_buffer()  # bytes from before we opened are of no use
            self._set_state(
                DeviceState.CONNECTING, msg("driver.serial.open-waiting-for-the-clocks-hello", path=path)
            )
            self._write(self._session.open(self.clock()).send)
        reason = Msg("driver.serial.stopped")
        reader = _Reader(ser, self._read_timeout_s)
        try:
            while not self._stop.is_set() and not self._broken:
                try:
                    data = reader.read()
                except (serial.SerialException, OSError, TypeError) as exc:
                    # TypeError: pyserial on a port closed under it
                    reason = msg("driver.serial.port-went-away", path=path, exc=exc)
                    break
                now = self.clock()
                with self._lock:
                    out = self._session.receive(data, now) if data else HostOutput()
                    polled = self._session.poll(now)
                    out.send += polled.send
                    out.events += polled.events
                    self._write(out.send)
                self._report(out, now)
            if self._broken:
                reason = msg("driver.serial.writing-to-failed", path=path)
        finally:
            with self._lock:
                self._ser = None
                self.path = None
                with contextlib.suppress(Exception):
                    ser.close()
            was_connected = self._connected.is_set()
            self._connected.clear()
            self.stats.disconnects += 1
            if not self._stop.is_set():
                self._set_state(DeviceState.CONNECTING, reason)
            if was_connected:
                hello = self._session.hello
                self._emit(
                    Disconnected(
                        table=self.table,
                        t_ns=self.clock(),
                        device_id=hello.device_id if hello else path,
                        reason=reason,
                    )
                )

    def _write(self, frames: list[bytes]) -> None:
        """Write ``frames`` (called with the lock held). A failure marks the port broken."""
        ser = self._ser
        if not frames or ser is None or self._broken:
            return
        data = b"".join(frames)
        try:
            n = ser.write(data)
        except (serial.SerialException, OSError, TypeError):
            self._broken = True
            return
        if n is not None and n < len(data):
            # write_timeout=0: the port's buffer is full. The partial frame is line noise to
            # the clock; ACKs are cumulative and the clock re-sends, so nothing is lost.
            self.stats.short_writes += 1

    def _report(self, out: HostOutput, now: int) -> None:
        for event in out.events:
            if isinstance(event, Delivered):
                press = DevicePress(
                    table=self.table,
                    t_ns=event.host_t_ns,
                    side=Side(event.side.value),
                    device_id=event.device_id,
                    seq=event.seq,
                    device_t_us=event.device_t_us,
                    boot_id=event.boot_id,
                    time_source=event.time_source,
                )
                if self._emit(press) and self.auto_ack:
                    self.acknowledge(press)
            elif isinstance(event, Handshake):
                self._on_handshake(event, now)
            elif isinstance(event, DeviceRejected):
                self._connected.clear()
                self._set_state(DeviceState.DISCONNECTED, self._refusal_text(event))
            elif isinstance(event, StatusReport):
                self.last_status = event.status

    def _refusal_text(self, event: DeviceRejected) -> Msg:
        """Why the clock was refused, as a message for the referee (``event.reason`` is English)."""
        hello = event.hello
        ours = f"{self._session.major}.{self._session.minor}"
        theirs = f"{hello.major}.{hello.minor}"
        device = repr(hello.device_id)
        if event.code is wire.RejectReason.VERSION and hello.major > self._session.major:
            return msg("driver.serial.protocol-newer", device=device, theirs=theirs, ours=ours)
        if event.code is wire.RejectReason.VERSION:
            return msg("driver.serial.protocol-older", device=device, theirs=theirs, ours=ours)
        if event.code is wire.RejectReason.WRONG_DEVICE:
            return msg("driver.serial.wrong-device", device=device, expected=repr(self.expect_device_id))
        return msg("driver.serial.refused", device=device, reason=event.reason)

    def _on_handshake(self, event: Handshake, now: int) -> None:
        hello = event.hello
        major, minor = event.version
        kept = sum(h.presses for h in hello.held)
        detail = msg(
            "driver.serial.firmware-protocol-boot",
            firmware=hello.firmware,
            major=major,
            minor=minor,
            boot_id=hello.boot_id,
            restarted=""
            if event.previous_boot_id is None
            else msg("driver.serial.the-clock-restarted-was-boot", previous_boot_id=event.previous_boot_id),
            kept=msg("driver.serial.it-kept-unacknowledged-presses-from", kept=kept) if kept else "",
        )
        with self._lock:
            if self._display is not None:
                self._write(self._session.show(self._display).send)  # show the right face again at once
        self._set_state(DeviceState.CONNECTED, msg("driver.serial.on-port", path=self.path, detail=detail))
        self._connected.set()
        self._emit(Connected(table=self.table, t_ns=now, device_id=hello.device_id, detail=detail))

    def _emit(self, event: AnyDeviceInput) -> bool:
        sink = self._sink
        if sink is None:
            return False
        try:
            sink(event)
        except Exception as exc:
            self.errors.append(exc)
            return False
        return True

    def _set_state(self, state: DeviceState, detail: Msg) -> None:
        self._state = state
        self._detail = detail


class _Reader:
    """Waits up to ``timeout_s`` for bytes on ``ser`` and returns what arrived (b"" if nothing).

    pyserial's POSIX ``read()`` waits in ``select()``, which cannot watch a file descriptor
    numbered 1024 or more — and every open port holds five (the port and two abort pipes),
    so a daemon with a few hundred clocks runs past it. Where the port has a file
    descriptor this waits in ``poll()`` instead (no such limit), on the port and on
    pyserial's abort pipe, so ``cancel_read()`` still wakes it. Other ports (pyserial's
    URL handlers, Windows) use ``read()``.
    """

    def __init__(self, ser: Any, timeout_s: float) -> None:
        self._ser = ser
        self._timeout_s = timeout_s
        self._timeout_ms = max(1, round(timeout_s * 1000))
        fd = getattr(ser, "fd", None)
        self._fd: int | None = fd if isinstance(fd, int) and hasattr(select, "poll") else None
        self._abort: int | None = None
        if self._fd is not None:
            self._poll = select.poll()
            self._poll.register(self._fd, select.POLLIN | select.POLLPRI)
            abort = getattr(ser, "pipe_abort_read_r", None)
            if isinstance(abort, int):
                self._abort = abort
                self._poll.register(abort, select.POLLIN)

    def read(self) -> bytes:
        if self._fd is None:
            data = bytes(self._ser.read(1))
            waiting = self._ser.in_waiting if data else 0
            return data + bytes(self._ser.read(waiting)) if waiting else data
        data = b""
        for fd, flags in self._poll.poll(self._timeout_ms):
            if fd == self._abort:
                with contextlib.suppress(OSError):
                    os.read(fd, 1000)
                continue
            if flags & (select.POLLIN | select.POLLPRI):
                data = os.read(fd, 65536)  # OSError (EIO) when the device is gone
                if not data:
                    raise serial.SerialException(
                        "the port reports data but returned none (device disconnected?)"
                    )
            elif flags & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                raise serial.SerialException("the port hung up (device disconnected)")
        return data


def wire_face(display: Display) -> wire.WireShowFace:
    """The wire's face for what the table's program shows: the same face, in the wire's terms.

    Times are clamped to what a ``u32`` of milliseconds holds (a daemon's time is never
    negative on a face; ~49 days is more than any event), and the text is cut to the 64
    bytes of UTF-8 the wire carries (``TEXT_MAX`` counts characters, Polish ones take two
    bytes).
    """

    def ms(value: int) -> int:
        return min(max(value, 0), _U32)

    text = display.text
    while len(text.encode("utf-8")) > 64:
        text = text[:-1]
    if isinstance(display, TwoClocks):
        return wire.WireShowFace(
            face=wire.WireFace.TWO_CLOCKS,
            time_ms_a=ms(display.remaining_ms.a),
            time_ms_b=ms(display.remaining_ms.b),
            running=wire.WireSide(display.running.value) if display.running else None,
            text=text,
        )
    if isinstance(display, Countdown):
        return wire.WireShowFace(
            face=wire.WireFace.COUNT_UP if display.up else wire.WireFace.COUNTDOWN,
            time_ms_a=ms(display.ms),
            ticking=display.running,
            text=text,
        )
    return wire.WireShowFace(face=wire.WireFace.TEXT, text=text)
