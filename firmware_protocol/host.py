"""The host's side of the protocol, as a pure state machine: bytes in, frames and events out.

:class:`HostSession` does everything the serial driver needs except I/O: the handshake
and version negotiation, de-duplication and ordering of presses, cumulative ACKs sent
only when the application says a press is safe, and the device-clock mapping
(:mod:`firmware_protocol.timesync`). The driver (``clockd.devices.serial``) feeds it the
bytes it reads with the host time they arrived at, writes the frames it returns, and
turns its events into the daemon's events. Tests drive it directly, without ports.

**Epochs.** A device's ``boot_id`` is random at every power-on; a press is identified by
(device id, boot id, seq). A HELLO with a new boot id starts a new epoch: sequence numbers
and the device clock start again, so the de-duplication state and the clock mapping
start again too. Boot ids the session has seen replaced are remembered, so stale bytes
from an earlier epoch (still in a buffer after a reboot) can never bring it back.

**Order.** Presses are delivered in sequence order, each exactly once per session. A press
that arrives after a gap (its predecessor's frame was lost) waits in a reorder buffer
until the device re-sends the missing one. When an epoch ends (the device rebooted),
whatever still waits there is delivered in order: those presses happened, even if a
predecessor was lost with the reboot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_protocol.codec import MessageParser, encode
from firmware_protocol.framing import FrameError, FrameErrorKind
from firmware_protocol.messages import (
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    Heartbeat,
    Hello,
    HelloAck,
    Press,
    Reject,
    RejectReason,
    Side,
    Status,
    Sync,
    Unknown,
)
from firmware_protocol.timesync import ClockMapping

_MS = 1_000_000


# -- what the session reports ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Delivered:
    """A press, once, in order, with its device time mapped onto the host's clock."""

    device_id: str
    boot_id: int
    seq: int
    side: Side
    device_t_us: int
    host_t_ns: int


@dataclass(frozen=True, slots=True)
class Handshake:
    """The device said HELLO and the host accepted it."""

    hello: Hello
    version: tuple[int, int]
    new_epoch: bool  # a new boot id (first contact, or the device rebooted)
    previous_boot_id: int | None  # the epoch this one replaced, if any


@dataclass(frozen=True, slots=True)
class Refused:
    """The host will not talk to this device; ``reason`` is a sentence for a person."""

    hello: Hello
    reason: str
    code: RejectReason = RejectReason.OTHER


@dataclass(frozen=True, slots=True)
class StatusReport:
    status: Status


HostEvent = Delivered | Handshake | Refused | StatusReport


@dataclass
class HostOutput:
    """Frames to write (in order) and events to report (in order)."""

    send: list[bytes] = field(default_factory=list)
    events: list[HostEvent] = field(default_factory=list)


@dataclass
class HostStats:
    """Counters a person debugging a link wants to see."""

    messages: int = 0
    delivered: int = 0
    duplicates: int = 0  # presses received again (re-sent or duplicated on the wire)
    out_of_order: int = 0  # presses that waited for a predecessor
    stale: int = 0  # messages from an epoch that is not the current one, or before HELLO
    unknown: int = 0
    errors: dict[str, int] = field(default_factory=dict)  # frame errors by kind
    acks_sent: int = 0
    handshakes: int = 0
    epochs: int = 0

    def count_error(self, kind: FrameErrorKind) -> None:
        self.errors[kind.value] = self.errors.get(kind.value, 0) + 1


@dataclass
class _Epoch:
    device_id: str
    boot_id: int
    mapping: ClockMapping
    delivered: int  # every seq <= this has been delivered (or was acked before we met)
    acked: int  # every seq <= this is acknowledged by the application
    started_ns: int
    acked_above: set[int] = field(default_factory=set)  # acknowledged out of order
    waiting: dict[int, Press] = field(default_factory=dict)  # arrived after a gap
    queued: list[Press] = field(default_factory=list)  # in order, waiting for the clock mapping


class HostSession:
    """The host end of one serial link (one port; across reconnects of that port)."""

    def __init__(
        self,
        *,
        major: int = PROTOCOL_MAJOR,
        minor: int = PROTOCOL_MINOR,
        expect_device_id: str | None = None,
        mapping_factory: Callable[[], ClockMapping] = ClockMapping,
        reorder_limit: int = 1024,
        settle_samples: int = 8,
        settle_ns: int = 300 * _MS,
        sync_retry_ns: int = 250 * _MS,
        sync_retry_max_ns: int = 2000 * _MS,
    ) -> None:
        self.major = major
        self.minor = minor
        self.expect_device_id = expect_device_id
        self._mapping_factory = mapping_factory
        self._reorder_limit = reorder_limit
        self._settle_samples = settle_samples
        self._settle_ns = settle_ns
        self._sync_retry_ns = sync_retry_ns
        self._sync_retry_max_ns = sync_retry_max_ns
        self._parser = MessageParser()
        self._epoch: _Epoch | None = None
        self._retired: set[tuple[str, int]] = set()
        self._sync_at: int | None = None
        self._sync_backoff = sync_retry_ns
        self.ready = False
        self.version: tuple[int, int] | None = None
        self.hello: Hello | None = None
        self.refused: Refused | None = None
        self.last_heard_ns: int | None = None
        self.stats = HostStats()

    # -- properties the driver reads -----------------------------------------------------------
    @property
    def boot_id(self) -> int | None:
        return self._epoch.boot_id if self._epoch else None

    @property
    def mapping(self) -> ClockMapping | None:
        return self._epoch.mapping if self._epoch else None

    # -- the link --------------------------------------------------------------------------------
    def open(self, now_ns: int) -> HostOutput:
        """The port was (re)opened: forget partial frames, ask the device to say HELLO."""
        self._parser.reset()
        self.ready = False
        self.refused = None
        self._sync_backoff = self._sync_retry_ns
        self._sync_at = now_ns + self._sync_backoff
        return HostOutput(send=[encode(Sync(major=self.major, minor=self.minor))])

    def poll(self, now_ns: int) -> HostOutput:
        """Timers: repeat SYNC (with backoff) until the device answers."""
        out = HostOutput()
        if not self.ready and self.refused is None and self._sync_at is not None and now_ns >= self._sync_at:
            self._sync_backoff = min(self._sync_backoff * 2, self._sync_retry_max_ns)
            self._sync_at = now_ns + self._sync_backoff
            out.send.append(encode(Sync(major=self.major, minor=self.minor)))
        if self._epoch is not None and self._epoch.queued:
            self._release(self._epoch, now_ns, out)
        return out

    def receive(self, data: bytes, now_ns: int) -> HostOutput:
        """Bytes read from the port at host time ``now_ns``."""
        out = HostOutput()
        re_ack = False
        for item in self._parser.feed(data):
            if isinstance(item, FrameError):
                self.stats.count_error(item.kind)
                continue
            if isinstance(item, Unknown):
                self.stats.unknown += 1  # a newer minor version's message: skip it
                continue
            self.stats.messages += 1
            self.last_heard_ns = now_ns
            if isinstance(item, Hello):
                self._on_hello(item, now_ns, out)
                continue
            epoch = self._epoch
            if not isinstance(item, Press | Heartbeat | Status):
                self.stats.stale += 1  # a host message on our input: a loopback or a confused device
                continue
            if not self.ready or epoch is None or item.boot_id != epoch.boot_id:
                self.stats.stale += 1
                continue
            epoch.mapping.add(item.t_us, now_ns)
            if isinstance(item, Press):
                re_ack |= self._on_press(epoch, item, out)
            elif isinstance(item, Heartbeat):
                re_ack |= epoch.acked > item.acked_seq
            else:
                out.events.append(StatusReport(item))
        if self._epoch is not None:
            if re_ack:
                self._send_ack(self._epoch, out)
            if self._epoch.queued:
                self._release(self._epoch, now_ns, out)
        return out

    # -- the application ---------------------------------------------------------------------------
    def acknowledge(self, boot_id: int, seq: int) -> HostOutput:
        """Press ``seq`` of epoch ``boot_id`` is safe (journaled): the device may forget it.

        ACKs are cumulative, so an ACK goes out once every earlier press is safe too. An
        acknowledgement for an earlier epoch is ignored: that device has rebooted and
        holds none of it.
        """
        out = HostOutput()
        epoch = self._epoch
        if epoch is None or boot_id != epoch.boot_id or seq <= epoch.acked:
            return out
        if seq > epoch.delivered:
            raise ValueError(
                f"press {seq} of boot {boot_id:#010x} was never delivered; it cannot be acknowledged"
            )
        epoch.acked_above.add(seq)
        advanced = False
        while epoch.acked + 1 in epoch.acked_above:
            epoch.acked += 1
            epoch.acked_above.discard(epoch.acked)
            advanced = True
        if advanced and self.ready:
            self._send_ack(epoch, out)
        return out

    # -- internals -----------------------------------------------------------------------------------
    def _send_ack(self, epoch: _Epoch, out: HostOutput) -> None:
        if epoch.acked > 0:
            out.send.append(encode(Ack(boot_id=epoch.boot_id, seq=epoch.acked)))
            self.stats.acks_sent += 1

    def _on_hello(self, hello: Hello, now_ns: int, out: HostOutput) -> None:
        reason = self._refusal(hello)
        if reason is not None:
            code, text, short = reason
            self.ready = False
            self.hello = hello
            self.refused = Refused(hello, text, code)
            out.send.append(encode(Reject(reason=code, major=self.major, minor=self.minor, text=short)))
            out.events.append(self.refused)
            return
        key = (hello.device_id, hello.boot_id)
        if key in self._retired:
            self.stats.stale += 1  # an old epoch's HELLO, still in a buffer
            return
        epoch = self._epoch
        previous: int | None = None
        new_epoch = epoch is None or (epoch.device_id, epoch.boot_id) != key
        if new_epoch:
            if epoch is not None:
                previous = epoch.boot_id
                self._retired.add((epoch.device_id, epoch.boot_id))
                self._flush(epoch, out)
            epoch = self._epoch = _Epoch(
                device_id=hello.device_id,
                boot_id=hello.boot_id,
                mapping=self._mapping_factory(),
                delivered=hello.acked_seq,
                acked=hello.acked_seq,
                started_ns=now_ns,
            )
            self.stats.epochs += 1
        else:
            assert epoch is not None
            epoch.delivered = max(epoch.delivered, hello.acked_seq)
            epoch.acked = max(epoch.acked, hello.acked_seq)
        epoch.mapping.add(hello.t_us, now_ns)
        self.version = (self.major, min(self.minor, hello.minor))
        self.hello = hello
        self.refused = None
        first = not self.ready
        self.ready = True
        self._sync_at = None
        self.stats.handshakes += 1
        out.send.append(encode(HelloAck(major=self.version[0], minor=self.version[1], boot_id=hello.boot_id)))
        if epoch.acked > hello.acked_seq:
            self._send_ack(epoch, out)  # our ACKs were lost while the link was down
        if first or new_epoch:
            out.events.append(Handshake(hello, self.version, new_epoch, previous))

    def _refusal(self, hello: Hello) -> tuple[RejectReason, str, str] | None:
        if hello.major > self.major:
            return (
                RejectReason.VERSION,
                f"clock {hello.device_id!r} speaks protocol {hello.major}.{hello.minor}, newer than this "
                f"host's {self.major}.{self.minor}: update duelclock to use it",
                "HOST TOO OLD",
            )
        if hello.major < self.major:
            return (
                RejectReason.VERSION,
                f"clock {hello.device_id!r} speaks protocol {hello.major}.{hello.minor}, older than this "
                f"host's {self.major}.{self.minor}: update the clock's firmware",
                "UPDATE FIRMWARE",
            )
        if self.expect_device_id is not None and hello.device_id != self.expect_device_id:
            return (
                RejectReason.WRONG_DEVICE,
                f"clock {hello.device_id!r} answered on this port; "
                f"this table expects {self.expect_device_id!r}",
                "WRONG TABLE",
            )
        return None

    def _on_press(self, epoch: _Epoch, press: Press, out: HostOutput) -> bool:
        """Deliver in order; returns True if the device should hear our ACK again."""
        if press.seq <= epoch.delivered:
            self.stats.duplicates += 1
            return press.seq <= epoch.acked
        if press.seq in epoch.waiting:
            self.stats.duplicates += 1
            return False
        if press.seq != epoch.delivered + 1:
            if len(epoch.waiting) < self._reorder_limit:
                epoch.waiting[press.seq] = press
                self.stats.out_of_order += 1
            return False
        self._deliver(epoch, press, out)
        while epoch.delivered + 1 in epoch.waiting:
            self._deliver(epoch, epoch.waiting.pop(epoch.delivered + 1), out)
        return False

    def _deliver(self, epoch: _Epoch, press: Press, out: HostOutput) -> None:
        """``press`` is next in order: queue it (released once the clock mapping can time it)."""
        epoch.delivered = max(epoch.delivered, press.seq)
        epoch.queued.append(press)

    def _release(self, epoch: _Epoch, now_ns: int, out: HostOutput, *, force: bool = False) -> None:
        """Report queued presses, once the new epoch's clock mapping has settled.

        Right after a new epoch's HELLO the mapping rests on one or two messages, whose
        latency would go straight into the presses the device re-sends then. The device
        follows HELLO_ACK with a burst of heartbeats; presses wait for ``settle_samples``
        of them (or ``settle_ns``, for a device that sends no burst).
        """
        mapping = epoch.mapping
        if (
            not force
            and mapping.samples < self._settle_samples
            and now_ns < epoch.started_ns + self._settle_ns
        ):
            return
        for press in epoch.queued:
            self.stats.delivered += 1
            out.events.append(
                Delivered(
                    device_id=epoch.device_id,
                    boot_id=epoch.boot_id,
                    seq=press.seq,
                    side=press.side,
                    device_t_us=press.t_us,
                    host_t_ns=mapping.host_ns(press.t_us),
                )
            )
        epoch.queued.clear()

    def _flush(self, epoch: _Epoch, out: HostOutput) -> None:
        """The epoch ended (the device rebooted): report everything it left, in order."""
        for seq in sorted(epoch.waiting):
            epoch.queued.append(epoch.waiting[seq])
        epoch.waiting.clear()
        self._release(epoch, 0, out, force=True)
