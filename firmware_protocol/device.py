"""The device's side of the protocol, as a pure state machine (a reference for firmware authors).

:class:`DeviceSession` is what a clock's firmware does, minus the buttons, the UART and
the display: it numbers presses, keeps each one until the host acknowledges it, re-sends
unacknowledged presses after a reconnect and on a timeout, answers SYNC with HELLO and
sends heartbeats. Every method takes the device's own time ``now_us`` and returns the
messages to send; nothing here reads a clock or touches a port. The simulator
(``hw_sim.serial_clock``) runs it over a pseudo-terminal; SPEC.md describes the same
behaviour in words.

**Across a reboot** (protocol 1.1) a conforming device loses no press: every press is in
its non-volatile store (:meth:`DeviceSession.stored`) before it counts, and a power-on
(:meth:`DeviceSession.power_on` with what the store held) starts a new epoch that still
*holds* the earlier epochs' unacknowledged presses. HELLO lists them (``held``), and
after the host's HELLO_ACK they are re-sent — under their own boot id, sequence numbers
and device times — before this epoch's presses.

**What it shows** (:attr:`DeviceSession.display`) is a face (protocol 1.2,
:class:`~firmware_protocol.messages.WireShowFace`): two clocks, a countdown, a count-up or
a text. A plain SHOW (from a 1.1 host) and a SET are two clocks. A device configured to
speak 1.1 does not know SHOW_FACE and skips it, as an old firmware would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_protocol.messages import (
    FACES_SINCE,
    MAX_HELD_EPOCHS,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    BeepPattern,
    Capability,
    Heartbeat,
    HeldEpoch,
    Hello,
    HelloAck,
    Reject,
    Set,
    Sync,
    Unknown,
    WireBeep,
    WireFace,
    WireMessage,
    WirePress,
    WireShow,
    WireShowFace,
    WireSide,
    WireStatus,
)


@dataclass(frozen=True)
class FirmwareConfig:
    device_id: str
    firmware: str = "sim-1.0"
    capabilities: frozenset[Capability] = frozenset(
        {Capability.DISPLAY, Capability.BEEP, Capability.TEXT, Capability.BATTERY}
    )
    major: int = PROTOCOL_MAJOR
    minor: int = PROTOCOL_MINOR
    heartbeat_ms: int = 250
    #: after HELLO_ACK, this many heartbeats ``burst_ms`` apart, so the host can map our clock at once
    burst: int = 8
    burst_ms: int = 10
    #: first re-send of unacknowledged presses; doubles up to ``retransmit_max_ms`` while no ACK comes
    retransmit_ms: int = 200
    retransmit_max_ms: int = 2000
    #: until the host answers, HELLO is repeated this often
    hello_every_ms: int = 1000
    #: presses a device can hold (of every epoch); a press beyond that is not registered (no sequence gap)
    max_pending: int = 4096


#: the first protocol version in which a host takes presses of earlier epochs
HELD_SINCE = (1, 1)


@dataclass
class DeviceSession:
    """One epoch (power-on to power-off) of a clock's protocol state."""

    config: FirmwareConfig
    boot_id: int
    pending: dict[int, WirePress] = field(default_factory=dict)  # seq → press, oldest first
    #: earlier epochs' unacknowledged presses, kept across reboots: boot id → seq → press, oldest first
    held: dict[int, dict[int, WirePress]] = field(default_factory=dict)
    last_seq: int = 0
    acked_seq: int = 0
    host_ready: bool = False
    version: tuple[int, int] | None = None
    #: the face shown (None: nothing was shown since power-on)
    display: WireShowFace | None = None
    control: Set | None = None
    beeps: list[BeepPattern] = field(default_factory=list)
    rejected: Reject | None = None
    overflowed: int = 0  # presses not registered because ``pending`` was full
    discarded: int = 0  # held presses given up for room while only a 1.0 host (it cannot take them) listened
    _rto_us: int = 0
    _retransmit_at: int | None = None
    _heartbeat_at: int | None = None
    _hello_at: int | None = None
    _burst_left: int = 0

    # -- power ------------------------------------------------------------------------------------
    @classmethod
    def power_on(
        cls, config: FirmwareConfig, boot_id: int, stored: Iterable[WirePress] = ()
    ) -> DeviceSession:
        """A new epoch ``boot_id``, holding the presses the non-volatile store kept (see :meth:`stored`)."""
        session = cls(config, boot_id)
        for press in stored:
            if press.boot_id == boot_id:
                raise ValueError(f"the store holds a press of the new epoch {boot_id:#010x}: boot ids repeat")
            session.held.setdefault(press.boot_id, {})[press.seq] = press
        if len(session.held) > MAX_HELD_EPOCHS:
            raise ValueError(
                f"the store holds presses of {len(session.held)} epochs; at most {MAX_HELD_EPOCHS}"
            )
        return session

    def stored(self) -> list[WirePress]:
        """Every press not yet acknowledged, oldest epoch first: what the non-volatile store holds.

        A conforming firmware writes each press there before it counts it and erases it when
        an ACK covers it, so this is exactly what survives a power cut.
        """
        return [p for presses in (*self.held.values(), self.pending) for p in presses.values()]

    @property
    def unacknowledged(self) -> int:
        return len(self.pending) + sum(len(p) for p in self.held.values())

    def held_epochs(self) -> tuple[HeldEpoch, ...]:
        """HELLO's ``held``: for each earlier epoch still holding presses, which ones."""
        out = []
        for boot_id, presses in self.held.items():
            first, last = min(presses), max(presses)
            out.append(
                HeldEpoch(boot_id=boot_id, acked_seq=first - 1, last_seq=last, last_t_us=presses[last].t_us)
            )
        return tuple(out)

    # -- what the device does by itself -------------------------------------------------------
    def hello(self, now_us: int) -> Hello:
        c = self.config
        return Hello(
            major=c.major,
            minor=c.minor,
            boot_id=self.boot_id,
            t_us=now_us,
            acked_seq=self.acked_seq,
            heartbeat_ms=c.heartbeat_ms,
            capabilities=c.capabilities,
            device_id=c.device_id,
            firmware=c.firmware,
            held=self.held_epochs(),
        )

    def attach(self, now_us: int) -> list[WireMessage]:
        """The link came up (power-on, or the cable was plugged in): announce ourselves."""
        self.host_ready = False
        self._hello_at = now_us + self.config.hello_every_ms * 1000
        return [self.hello(now_us)]

    def press(self, side: WireSide, now_us: int) -> tuple[WirePress | None, list[WireMessage]]:
        """A button went down at ``now_us``. Returns the press (None if there was no room).

        No room: the store is full, or it holds presses of :data:`MAX_HELD_EPOCHS` earlier
        epochs (one more could not be listed in HELLO). While the host in this connection
        speaks only 1.0, held presses can never reach it: the oldest epoch's are given up
        to make room rather than refusing a player's press.
        """
        while (
            self.held
            and not self._host_takes_held()
            and self.version is not None
            and (self.unacknowledged >= self.config.max_pending or len(self.held) >= MAX_HELD_EPOCHS)
        ):
            self.discarded += len(self.held.pop(next(iter(self.held))))
        if self.unacknowledged >= self.config.max_pending or len(self.held) >= MAX_HELD_EPOCHS:
            self.overflowed += 1
            return None, []
        self.last_seq += 1
        press = WirePress(boot_id=self.boot_id, seq=self.last_seq, side=side, t_us=now_us)
        self.pending[press.seq] = press
        if not self.host_ready:
            return press, []
        if self._retransmit_at is None:
            self._rto_us = self.config.retransmit_ms * 1000
            self._retransmit_at = now_us + self._rto_us
        return press, [press]

    def poll(self, now_us: int) -> list[WireMessage]:
        """Timers: heartbeat, re-sending unacknowledged presses, repeating HELLO."""
        out: list[WireMessage] = []
        if not self.host_ready:
            if self.rejected is None and self._hello_at is not None and now_us >= self._hello_at:
                self._hello_at = now_us + self.config.hello_every_ms * 1000
                out.append(self.hello(now_us))
            return out
        if self._retransmit_at is not None and now_us >= self._retransmit_at:
            resend = self._unacknowledged_to_send()
            if resend:
                out.extend(resend)
                self._rto_us = min(self._rto_us * 2, self.config.retransmit_max_ms * 1000)
                self._retransmit_at = now_us + self._rto_us
            else:
                self._retransmit_at = None
        if self._heartbeat_at is not None and now_us >= self._heartbeat_at:
            if self._burst_left > 0:
                self._burst_left -= 1
                self._heartbeat_at = now_us + self.config.burst_ms * 1000
            else:
                self._heartbeat_at = now_us + self.config.heartbeat_ms * 1000
            out.append(
                Heartbeat(boot_id=self.boot_id, t_us=now_us, acked_seq=self.acked_seq, last_seq=self.last_seq)
            )
        return out

    def next_deadline_us(self) -> int | None:
        """When :meth:`poll` next has something to do (None: only an input can wake it)."""
        times = (
            [t for t in (self._retransmit_at, self._heartbeat_at) if t is not None] if self.host_ready else []
        )
        if not self.host_ready and self.rejected is None and self._hello_at is not None:
            times.append(self._hello_at)
        return min(times) if times else None

    # -- what the host says --------------------------------------------------------------------
    def receive(self, msg: WireMessage | Unknown, now_us: int) -> list[WireMessage]:
        if isinstance(msg, Sync):
            # a host (re)opened the port: it knows nothing of us until HELLO
            self.host_ready = False
            self.rejected = None
            self._hello_at = now_us + self.config.hello_every_ms * 1000
            return [self.hello(now_us)]
        if isinstance(msg, HelloAck):
            return self._hello_ack(msg, now_us)
        if isinstance(msg, Ack):
            self._ack(msg, now_us)
            return []
        if isinstance(msg, WireShow):
            self.display = WireShowFace(
                face=WireFace.TWO_CLOCKS,
                time_ms_a=msg.remaining_ms_a,
                time_ms_b=msg.remaining_ms_b,
                running=msg.running,
                text=msg.text,
            )
            return [self.status(now_us)]
        if isinstance(msg, WireShowFace):
            if (self.config.major, self.config.minor) < FACES_SINCE:
                return []  # a 1.1 firmware does not know this type: it skips it
            self.display = msg
            return [self.status(now_us)]
        if isinstance(msg, Set):
            self.control = msg
            self.display = WireShowFace(
                face=WireFace.TWO_CLOCKS, time_ms_a=msg.initial_ms_a, time_ms_b=msg.initial_ms_b
            )
            return [self.status(now_us)]
        if isinstance(msg, WireBeep):
            self.beeps.append(msg.pattern)
            return []
        if isinstance(msg, Reject):
            self.rejected = msg
            self.host_ready = False
            return []
        return []  # an unknown type (a newer host's), or a device message echoed back: skip

    def status(self, now_us: int) -> WireStatus:
        d = self.display or WireShowFace(face=WireFace.TWO_CLOCKS)
        return WireStatus(
            boot_id=self.boot_id,
            t_us=now_us,
            remaining_ms_a=d.time_ms_a,
            remaining_ms_b=d.time_ms_b,
            running=d.running,
            text=d.text,
            face=d.face,
            ticking=d.ticking,
        )

    def _hello_ack(self, msg: HelloAck, now_us: int) -> list[WireMessage]:
        c = self.config
        if msg.boot_id != self.boot_id or msg.major != c.major or msg.minor > c.minor:
            return []  # meant for an earlier epoch, or a version we never offered
        self.host_ready = True
        self.version = (msg.major, msg.minor)
        self._burst_left = c.burst
        self._heartbeat_at = now_us + c.burst_ms * 1000 if c.burst else now_us + c.heartbeat_ms * 1000
        resend = self._unacknowledged_to_send()
        self._rto_us = c.retransmit_ms * 1000
        self._retransmit_at = now_us + self._rto_us if resend else None
        return resend

    def _host_takes_held(self) -> bool:
        return self.version is not None and self.version >= HELD_SINCE

    def _unacknowledged_to_send(self) -> list[WireMessage]:
        """What a (re-)send sends, in order: earlier epochs' held presses (to a 1.1 host), then ours."""
        out: list[WireMessage] = []
        if self._host_takes_held():
            for presses in self.held.values():
                out.extend(presses.values())
        out.extend(self.pending.values())
        return out

    def _ack(self, msg: Ack, now_us: int) -> None:
        if msg.boot_id == self.boot_id:
            if msg.seq <= self.acked_seq:
                return
            seq = min(msg.seq, self.last_seq)
            for s in [s for s in self.pending if s <= seq]:
                del self.pending[s]
            self.acked_seq = seq
        elif msg.boot_id in self.held:
            presses = self.held[msg.boot_id]
            covered = [s for s in presses if s <= msg.seq]
            if not covered:
                return
            for s in covered:
                del presses[s]  # erased from the non-volatile store
            if not presses:
                del self.held[msg.boot_id]
        else:
            return  # an epoch we hold nothing of
        self._rto_us = self.config.retransmit_ms * 1000
        self._retransmit_at = now_us + self._rto_us if self._unacknowledged_to_send() else None
