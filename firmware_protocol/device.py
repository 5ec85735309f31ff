"""The device's side of the protocol, as a pure state machine (a reference for firmware authors).

:class:`DeviceSession` is what a clock's firmware does, minus the buttons, the UART and
the display: it numbers presses, keeps each one until the host acknowledges it, re-sends
unacknowledged presses after a reconnect and on a timeout, answers SYNC with HELLO and
sends heartbeats. Every method takes the device's own time ``now_us`` and returns the
messages to send; nothing here reads a clock or touches a port. The simulator
(``hw_sim.serial_clock``) runs it over a pseudo-terminal; SPEC.md describes the same
behaviour in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_protocol.messages import (
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    Beep,
    BeepPattern,
    Capability,
    Heartbeat,
    Hello,
    HelloAck,
    Message,
    Press,
    Reject,
    Set,
    Show,
    Side,
    Status,
    Sync,
    Unknown,
)


@dataclass(frozen=True)
class DeviceConfig:
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
    #: presses a device can hold; a press beyond that is not registered (no sequence gap)
    max_pending: int = 4096


@dataclass
class DeviceSession:
    """One epoch (power-on to power-off) of a clock's protocol state."""

    config: DeviceConfig
    boot_id: int
    pending: dict[int, Press] = field(default_factory=dict)  # seq → press, oldest first
    last_seq: int = 0
    acked_seq: int = 0
    host_ready: bool = False
    version: tuple[int, int] | None = None
    display: Show | None = None
    control: Set | None = None
    beeps: list[BeepPattern] = field(default_factory=list)
    rejected: Reject | None = None
    overflowed: int = 0  # presses not registered because ``pending`` was full
    _rto_us: int = 0
    _retransmit_at: int | None = None
    _heartbeat_at: int | None = None
    _hello_at: int | None = None
    _burst_left: int = 0

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
        )

    def attach(self, now_us: int) -> list[Message]:
        """The link came up (power-on, or the cable was plugged in): announce ourselves."""
        self.host_ready = False
        self._hello_at = now_us + self.config.hello_every_ms * 1000
        return [self.hello(now_us)]

    def press(self, side: Side, now_us: int) -> tuple[Press | None, list[Message]]:
        """A button went down at ``now_us``. Returns the press (None if there was no room)."""
        if len(self.pending) >= self.config.max_pending:
            self.overflowed += 1
            return None, []
        self.last_seq += 1
        press = Press(boot_id=self.boot_id, seq=self.last_seq, side=side, t_us=now_us)
        self.pending[press.seq] = press
        if not self.host_ready:
            return press, []
        if self._retransmit_at is None:
            self._rto_us = self.config.retransmit_ms * 1000
            self._retransmit_at = now_us + self._rto_us
        return press, [press]

    def poll(self, now_us: int) -> list[Message]:
        """Timers: heartbeat, re-sending unacknowledged presses, repeating HELLO."""
        out: list[Message] = []
        if not self.host_ready:
            if self.rejected is None and self._hello_at is not None and now_us >= self._hello_at:
                self._hello_at = now_us + self.config.hello_every_ms * 1000
                out.append(self.hello(now_us))
            return out
        if self._retransmit_at is not None and now_us >= self._retransmit_at:
            if self.pending:
                out.extend(self.pending.values())
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
    def receive(self, msg: Message | Unknown, now_us: int) -> list[Message]:
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
        if isinstance(msg, Show):
            self.display = msg
            return [self.status(now_us)]
        if isinstance(msg, Set):
            self.control = msg
            self.display = Show(remaining_ms_a=msg.initial_ms_a, remaining_ms_b=msg.initial_ms_b)
            return [self.status(now_us)]
        if isinstance(msg, Beep):
            self.beeps.append(msg.pattern)
            return []
        if isinstance(msg, Reject):
            self.rejected = msg
            self.host_ready = False
            return []
        return []  # an unknown type (a newer host's), or a device message echoed back: skip

    def status(self, now_us: int) -> Status:
        d = self.display or Show(remaining_ms_a=0, remaining_ms_b=0)
        return Status(
            boot_id=self.boot_id,
            t_us=now_us,
            remaining_ms_a=d.remaining_ms_a,
            remaining_ms_b=d.remaining_ms_b,
            running=d.running,
            text=d.text,
        )

    def _hello_ack(self, msg: HelloAck, now_us: int) -> list[Message]:
        c = self.config
        if msg.boot_id != self.boot_id or msg.major != c.major or msg.minor > c.minor:
            return []  # meant for an earlier epoch, or a version we never offered
        self.host_ready = True
        self.version = (msg.major, msg.minor)
        self._burst_left = c.burst
        self._heartbeat_at = now_us + c.burst_ms * 1000 if c.burst else now_us + c.heartbeat_ms * 1000
        self._rto_us = c.retransmit_ms * 1000
        self._retransmit_at = now_us + self._rto_us if self.pending else None
        return list(self.pending.values())

    def _ack(self, msg: Ack, now_us: int) -> None:
        if msg.boot_id != self.boot_id or msg.seq <= self.acked_seq:
            return
        seq = min(msg.seq, self.last_seq)
        for s in [s for s in self.pending if s <= seq]:
            del self.pending[s]
        self.acked_seq = seq
        self._rto_us = self.config.retransmit_ms * 1000
        self._retransmit_at = now_us + self._rto_us if self.pending else None
