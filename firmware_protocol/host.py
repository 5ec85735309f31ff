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
start again too. Every epoch the session has met is remembered for its lifetime — its
de-duplication state and its clock mapping — and none can become current again, so
stale bytes from before a reboot can never bring an old epoch back.

**Presses kept across a reboot** (protocol 1.1). A conforming device stores every press
in non-volatile memory until it is acknowledged; its HELLO lists the earlier epochs it
still holds presses of (``held``), and it re-sends them under their own boot id, seq and
device time. The session accepts those presses, maps their device times with *their*
epoch's clock mapping — or, if it never heard that epoch's clock (the host restarted too),
gives them an upper bound (:data:`TimeSource`) — and acknowledges them per epoch.

**What the device shows** (protocol 1.2). :meth:`HostSession.show` sends a face of the
table's program — two clocks, a countdown, a count-up, a text — as SHOW_FACE to a device
that negotiated 1.2, and as the plain SHOW a 1.1 device understands otherwise
(:func:`plain_show`: one time on both faces, a text over two zero faces).

**Order.** Presses are delivered in the order they were pressed, each exactly once per
session: within an epoch in sequence order (a press that arrives after a gap waits in a
reorder buffer until the device re-sends the missing one), and every held epoch's
presses, oldest epoch first, before any press of a newer epoch. When an epoch ends and
the device does not hold its presses (a 1.0 or non-conforming device that lost them),
whatever still waits behind a gap is delivered in order: those presses happened, even if
a predecessor was lost with the reboot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from firmware_protocol.codec import MessageParser, encode
from firmware_protocol.framing import FrameError, FrameErrorKind
from firmware_protocol.messages import (
    FACES_SINCE,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    Heartbeat,
    Hello,
    HelloAck,
    Reject,
    RejectReason,
    Sync,
    Unknown,
    WireFace,
    WirePress,
    WireShow,
    WireShowFace,
    WireSide,
    WireStatus,
)
from firmware_protocol.timesync import DEFAULT_MAX_DRIFT_PPM, ClockMapping

_MS = 1_000_000


#: How a delivered press's host time was found.
#: ``measured``: its device time mapped with its epoch's own clock mapping (the normal case).
#: ``upper-bound``: the device kept it across a reboot and this host never heard that epoch's
#: clock, so its absolute time is unknown; ``host_t_ns`` is no earlier than the press (the
#: next epoch's start), and the presses of one such epoch keep their exact spacing.
TimeSource = Literal["measured", "upper-bound"]


def plain_show(face: WireShowFace) -> WireShow:
    """The SHOW that shows ``face`` on a device older than 1.2, which knows two clocks only.

    Two clocks are SHOW's own shape. The one time of a countdown or a count-up is shown on
    both faces, stopped (SHOW's ``running`` is a side, and neither side's time runs: the
    host re-sends it as it changes); a text is shown below two zero faces (SPEC.md,
    SHOW_FACE).
    """
    if face.face is WireFace.TWO_CLOCKS:
        return WireShow(
            remaining_ms_a=face.time_ms_a, remaining_ms_b=face.time_ms_b, running=face.running, text=face.text
        )
    return WireShow(remaining_ms_a=face.time_ms_a, remaining_ms_b=face.time_ms_a, text=face.text)


# -- what the session reports ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Delivered:
    """A press, once, in order, with its device time mapped onto the host's clock."""

    device_id: str
    boot_id: int
    seq: int
    side: WireSide
    device_t_us: int
    host_t_ns: int
    time_source: TimeSource = "measured"


@dataclass(frozen=True, slots=True)
class Handshake:
    """The device said HELLO and the host accepted it."""

    hello: Hello
    version: tuple[int, int]
    new_epoch: bool  # a new boot id (first contact, or the device rebooted)
    previous_boot_id: int | None  # the epoch this one replaced, if any


@dataclass(frozen=True, slots=True)
class DeviceRejected:
    """The host will not talk to this device; ``reason`` is a sentence for a person."""

    hello: Hello
    reason: str
    code: RejectReason = RejectReason.OTHER


@dataclass(frozen=True, slots=True)
class StatusReport:
    status: WireStatus


HostEvent = Delivered | Handshake | DeviceRejected | StatusReport


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
    carried: int = 0  # presses delivered from an epoch held across a reboot
    time_bounded: int = 0  # of those, presses whose time is only an upper bound (their clock was unknown)

    def count_error(self, kind: FrameErrorKind) -> None:
        self.errors[kind.value] = self.errors.get(kind.value, 0) + 1


@dataclass(eq=False)  # one object per epoch: compared by identity
class _Epoch:
    device_id: str
    boot_id: int
    #: None: known only from a HELLO's ``held`` list — this host never heard the epoch's clock
    mapping: ClockMapping | None
    delivered: int  # every seq <= this has been delivered (or was acked before we met)
    acked: int  # every seq <= this is acknowledged by the application
    started_ns: int
    acked_above: set[int] = field(default_factory=set)  # acknowledged out of order
    waiting: dict[int, WirePress] = field(default_factory=dict)  # arrived after a gap
    queued: list[WirePress] = field(default_factory=list)  # in order, waiting for the clock mapping
    #: an earlier epoch the device still holds presses of, up to this seq (0: it holds none)
    held_to: int = 0
    last_t_us: int = 0  # device time of press ``held_to``
    #: for an epoch without a mapping: the host time given to press ``held_to`` (fixed at first use)
    anchor_ns: int | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.device_id, self.boot_id)


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
        self._epoch: _Epoch | None = None  # the device's current epoch
        self._known: dict[tuple[str, int], _Epoch] = {}  # every epoch met, current included
        self._held: list[_Epoch] = []  # earlier epochs whose presses go first, oldest first
        self._sync_at: int | None = None
        self._sync_backoff = sync_retry_ns
        self.ready = False
        self.version: tuple[int, int] | None = None
        self.hello: Hello | None = None
        self.rejected: DeviceRejected | None = None
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
        self.rejected = None
        self._sync_backoff = self._sync_retry_ns
        self._sync_at = now_ns + self._sync_backoff
        return HostOutput(send=[encode(Sync(major=self.major, minor=self.minor))])

    def poll(self, now_ns: int) -> HostOutput:
        """Timers: repeat SYNC (with backoff) until the device answers."""
        out = HostOutput()
        if not self.ready and self.rejected is None and self._sync_at is not None and now_ns >= self._sync_at:
            self._sync_backoff = min(self._sync_backoff * 2, self._sync_retry_max_ns)
            self._sync_at = now_ns + self._sync_backoff
            out.send.append(encode(Sync(major=self.major, minor=self.minor)))
        self._release(now_ns, out)
        return out

    def receive(self, data: bytes, now_ns: int) -> HostOutput:
        """Bytes read from the port at host time ``now_ns``."""
        out = HostOutput()
        re_ack: list[_Epoch] = []
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
            if not isinstance(item, WirePress | Heartbeat | WireStatus):
                self.stats.stale += 1  # a host message on our input: a loopback or a confused device
                continue
            if not self.ready or epoch is None:
                self.stats.stale += 1
                continue
            if item.boot_id != epoch.boot_id:
                earlier = self._known.get((epoch.device_id, item.boot_id))
                if isinstance(item, WirePress) and earlier is not None:
                    if self._on_earlier_press(earlier, item, out) and earlier not in re_ack:
                        re_ack.append(earlier)
                else:
                    self.stats.stale += 1
                continue
            assert epoch.mapping is not None
            epoch.mapping.add(item.t_us, now_ns)
            if isinstance(item, WirePress):
                if self._on_press(epoch, item, out) and epoch not in re_ack:
                    re_ack.append(epoch)
            elif isinstance(item, Heartbeat):
                if epoch.acked > item.acked_seq and epoch not in re_ack:
                    re_ack.append(epoch)
            else:
                out.events.append(StatusReport(item))
        for stale_ack in re_ack:
            self._send_ack(stale_ack, out)
        self._release(now_ns, out)
        return out

    # -- the application ---------------------------------------------------------------------------
    def show(self, face: WireShowFace) -> HostOutput:
        """Show ``face`` on the device, in the message its version knows (nothing before HELLO).

        SHOW_FACE to a device that negotiated 1.2 or later; to an older one the plain SHOW
        of :func:`plain_show`.
        """
        out = HostOutput()
        if self.ready and self.version is not None:
            out.send.append(encode(face if self.version >= FACES_SINCE else plain_show(face)))
        return out

    def acknowledge(self, boot_id: int, seq: int, device_id: str | None = None) -> HostOutput:
        """Press ``seq`` of epoch ``boot_id`` is safe (journaled): the device may forget it.

        ACKs are cumulative, so an ACK goes out once every earlier press of that epoch is
        safe too. It goes to the device if the epoch is its current one or one it still
        holds presses of; an acknowledgement for an epoch the device holds nothing of is
        only recorded (a device that lost its presses in a reboot needs no ACK).
        ``device_id`` defaults to the device now on the port.
        """
        out = HostOutput()
        if device_id is None:
            device_id = self._epoch.device_id if self._epoch else ""
        epoch = self._known.get((device_id, boot_id))
        if epoch is None or seq <= epoch.acked:
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
        if advanced and self.ready and (epoch is self._epoch or epoch.held_to):
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
            self.rejected = DeviceRejected(hello, text, code)
            out.send.append(encode(Reject(reason=code, major=self.major, minor=self.minor, text=short)))
            out.events.append(self.rejected)
            return
        key = (hello.device_id, hello.boot_id)
        epoch = self._epoch
        if key in self._known and (epoch is None or key != epoch.key):
            self.stats.stale += 1  # an earlier epoch's HELLO, still in a buffer: it never comes back
            return
        ended: _Epoch | None = None
        new_epoch = epoch is None or epoch.key != key
        if new_epoch:
            ended = epoch
            epoch = self._epoch = _Epoch(
                device_id=hello.device_id,
                boot_id=hello.boot_id,
                mapping=self._mapping_factory(),
                delivered=hello.acked_seq,
                acked=hello.acked_seq,
                started_ns=now_ns,
            )
            self._known[key] = epoch
            self.stats.epochs += 1
        else:
            assert epoch is not None
            self._catch_up(epoch, hello.acked_seq, out)
        assert epoch.mapping is not None
        epoch.mapping.add(hello.t_us, now_ns)
        self.version = (self.major, min(self.minor, hello.minor))
        self.hello = hello
        self.rejected = None
        first = not self.ready
        self.ready = True
        self._sync_at = None
        self.stats.handshakes += 1
        out.send.append(encode(HelloAck(major=self.version[0], minor=self.version[1], boot_id=hello.boot_id)))
        if epoch.acked > hello.acked_seq:
            self._send_ack(epoch, out)  # our ACKs were lost while the link was down
        self._take_held(hello, now_ns, out)
        if ended is not None and not ended.held_to:
            self._flush(ended, out)  # the device kept none of it: deliver what waited behind a gap
        if first or new_epoch:
            out.events.append(Handshake(hello, self.version, new_epoch, ended.boot_id if ended else None))

    def _take_held(self, hello: Hello, now_ns: int, out: HostOutput) -> None:
        """Note which earlier epochs' presses the device holds (and will re-send), oldest first."""
        held: list[_Epoch] = []
        for h in hello.held if self.version is not None and self.version >= (1, 1) else ():
            epoch = self._known.get((hello.device_id, h.boot_id))
            if epoch is None:  # we never met it: a restarted host, or a device moved from another
                epoch = _Epoch(hello.device_id, h.boot_id, None, h.acked_seq, h.acked_seq, now_ns)
                self._known[epoch.key] = epoch
            self._catch_up(epoch, h.acked_seq, out)
            epoch.held_to, epoch.last_t_us = h.last_seq, h.last_t_us
            if epoch.acked > h.acked_seq:
                self._send_ack(epoch, out)  # an ACK for it was lost before the reboot
            held.append(epoch)
        for epoch in self._known.values():
            if epoch not in held:
                epoch.held_to = 0  # the device holds nothing of it (any more)
        self._held = held

    def _catch_up(self, epoch: _Epoch, acked_seq: int, out: HostOutput) -> None:
        """The device says presses up to ``acked_seq`` are acknowledged (perhaps by another host)."""
        epoch.acked = max(epoch.acked, acked_seq)
        if acked_seq > epoch.delivered:
            epoch.delivered = acked_seq
            for seq in [s for s in epoch.waiting if s <= acked_seq]:
                del epoch.waiting[seq]
            while epoch.delivered + 1 in epoch.waiting:
                self._deliver(epoch, epoch.waiting.pop(epoch.delivered + 1), out)

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

    def _on_earlier_press(self, epoch: _Epoch, press: WirePress, out: HostOutput) -> bool:
        """A press of an earlier epoch: held across a reboot, or a duplicate; else stale."""
        if press.seq > epoch.delivered and press.seq > epoch.held_to:
            self.stats.stale += 1  # not announced as held: bytes from before the reboot
            return False
        return self._on_press(epoch, press, out)

    def _on_press(self, epoch: _Epoch, press: WirePress, out: HostOutput) -> bool:
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

    def _deliver(self, epoch: _Epoch, press: WirePress, out: HostOutput) -> None:
        """``press`` is next in order: queue it (released once the clock mapping can time it)."""
        epoch.delivered = max(epoch.delivered, press.seq)
        epoch.queued.append(press)

    def _release(self, now_ns: int, out: HostOutput, *, force: bool = False) -> None:
        """Report queued presses in the order they were pressed, once they can be timed.

        Right after a new epoch's HELLO the mapping rests on one or two messages, whose
        latency would go straight into the presses the device re-sends then. The device
        follows HELLO_ACK with a burst of heartbeats; presses wait for ``settle_samples``
        of them (or ``settle_ns``, for a device that sends no burst). Earlier epochs'
        held presses go first, oldest epoch first, and each held epoch must be complete
        before anything newer passes.
        """
        current = self._epoch
        if current is None:
            return
        mapping = current.mapping
        assert mapping is not None
        if (
            not force
            and mapping.samples < self._settle_samples
            and now_ns < current.started_ns + self._settle_ns
        ):
            return
        while self._held:
            epoch = self._held[0]
            self._emit(epoch, out)
            if epoch.delivered < epoch.held_to:
                return  # its re-sent presses are still on their way: nothing newer may pass
            self._held.pop(0)
        self._emit(current, out)

    def _emit(self, epoch: _Epoch, out: HostOutput) -> None:
        if not epoch.queued:
            return
        carried = epoch is not self._epoch and epoch.held_to > 0
        for press in epoch.queued:
            self.stats.delivered += 1
            self.stats.carried += carried
            source: TimeSource = "measured"
            if epoch.mapping is not None:
                host_t_ns = epoch.mapping.host_ns(press.t_us)
            else:
                anchor = self._anchor(epoch)
                host_t_ns = min(anchor, anchor - 1000 * (epoch.last_t_us - press.t_us))
                source = "upper-bound"
                self.stats.time_bounded += 1
            out.events.append(
                Delivered(
                    device_id=epoch.device_id,
                    boot_id=epoch.boot_id,
                    seq=press.seq,
                    side=press.side,
                    device_t_us=press.t_us,
                    host_t_ns=host_t_ns,
                    time_source=source,
                )
            )
        epoch.queued.clear()

    def _anchor(self, epoch: _Epoch) -> int:
        """Host time for the last held press of an epoch whose clock we never heard.

        The press happened before the device rebooted, so no later than the next epoch
        started, and that start is bounded from above by the next epoch's own messages
        (:meth:`ClockMapping.origin_bound_ns`: essentially when its power-on HELLO
        arrived, less the device time it carried). If the next epoch's clock is unknown
        too, its own bound, less its last press's device time, bounds its start.
        Fixed at first use, so one epoch's presses keep their exact spacing.
        """
        if epoch.anchor_ns is None:
            order = [*self._held, self._epoch]
            after = order[order.index(epoch) + 1] if epoch in order[:-1] else self._epoch
            assert after is not None
            epoch.anchor_ns = self._started_by(after)
        return epoch.anchor_ns

    def _started_by(self, epoch: _Epoch) -> int:
        """A host instant ``epoch``'s device clock had certainly started by."""
        if epoch.mapping is not None:
            return epoch.mapping.origin_bound_ns()
        # the device counted last_t_us µs from its start to that press: at least 1000·x·(1 − max drift) ns
        current = self._epoch.mapping if self._epoch else None
        max_drift_ppm = current.max_drift_ppm if current is not None else DEFAULT_MAX_DRIFT_PPM
        return self._anchor(epoch) - 1000 * epoch.last_t_us - (-epoch.last_t_us * max_drift_ppm // 1000)

    def _flush(self, epoch: _Epoch, out: HostOutput) -> None:
        """The epoch ended and the device kept none of it: report what waited behind a gap, in order."""
        for seq in sorted(epoch.waiting):
            epoch.queued.append(epoch.waiting[seq])
            epoch.delivered = max(epoch.delivered, seq)
        epoch.waiting.clear()
        self._emit(epoch, out)
