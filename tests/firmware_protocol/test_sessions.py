"""Both ends' protocol logic, wired together through a lossy channel — no ports, no threads.

The channel drops, corrupts, duplicates and delays frames and adds line noise; the
device reboots and the host restarts at random moments. Whatever happens, every press
the device did not lose in a reboot reaches the application exactly once, in order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol.codec import MessageParser, encode
from firmware_protocol.device import DeviceConfig, DeviceSession
from firmware_protocol.framing import FrameError
from firmware_protocol.host import Delivered, Handshake, HostSession, Refused
from firmware_protocol.messages import (
    Ack,
    Heartbeat,
    Hello,
    HelloAck,
    Press,
    Reject,
    RejectReason,
    Side,
    Sync,
    Unknown,
)

MS = 1_000_000


@dataclass
class Channel:
    """One direction of a serial line with faults; frames arrive after ``delay_steps``."""

    rng: random.Random
    loss: float
    dup: float
    noise: float
    queue: list[tuple[int, bytes]] = field(default_factory=list)

    def send(self, frames: list[bytes], step: int) -> None:
        for frame in frames:
            when = step + self.rng.randint(0, 3)
            if self.rng.random() < self.noise:
                self.queue.append((when, self.rng.randbytes(self.rng.randint(1, 12))))
            r = self.rng.random()
            if r < self.loss / 2:
                continue  # dropped
            if r < self.loss:
                broken = bytearray(frame)
                broken[self.rng.randrange(1, len(frame) - 1)] ^= 1 << self.rng.randrange(8)
                frame = bytes(broken)
            self.queue.append((when, frame))
            if self.rng.random() < self.dup:
                self.queue.append((when + 1, frame))

    def take(self, step: int) -> bytes:
        """Bytes due by ``step``, in the order they were sent (a serial line does not reorder)."""
        due = [b for t, b in self.queue if t <= step]
        if not due:
            return b""
        # a serial line keeps byte order: deliver everything sent up to the last due frame
        last = max(i for i, (t, _) in enumerate(self.queue) if t <= step)
        out = b"".join(b for _, b in self.queue[: last + 1])
        del self.queue[: last + 1]
        return out


class World:
    def __init__(self, seed: int, loss: float, dup: float, noise: float) -> None:
        self.rng = random.Random(seed)
        self.config = DeviceConfig(device_id="DC-1", retransmit_ms=20, heartbeat_ms=100)
        self.device = DeviceSession(self.config, boot_id=self.rng.getrandbits(32))
        self.host = HostSession(settle_ns=30 * MS)
        self.to_host = Channel(self.rng, loss, dup, noise)
        self.to_device = Channel(self.rng, loss, dup, noise)
        self.device_parser = MessageParser()
        self.step = 0
        self.boot_step = 0
        self.made: list[tuple[int, int]] = []
        self.lost_in_reboot: set[tuple[int, int]] = set()
        self.delivered: list[Delivered] = []
        self.to_ack: list[Delivered] = []

    @property
    def now_ns(self) -> int:
        return self.step * MS

    @property
    def device_us(self) -> int:
        return (self.step - self.boot_step) * 1000

    def device_out(self, msgs) -> None:
        self.to_host.send([encode(m) for m in msgs], self.step)

    def host_out(self, out) -> None:
        self.to_device.send(out.send, self.step)
        for event in out.events:
            if isinstance(event, Delivered):
                self.delivered.append(event)
                self.to_ack.append(event)

    def reboot(self) -> None:
        self.lost_in_reboot |= {(p.boot_id, p.seq) for p in self.device.pending.values()}
        self.boot_step = self.step
        self.device = DeviceSession(self.config, boot_id=self.rng.getrandbits(32))
        self.device_parser = MessageParser()
        self.device_out(self.device.attach(0))

    def restart_host(self) -> None:
        self.host = HostSession(settle_ns=30 * MS)
        self.to_ack.clear()  # the crashed daemon's unjournaled presses are gone with it
        self.host_out(self.host.open(self.now_ns))

    def tick(self, press: bool) -> None:
        self.step += 1
        if press:
            p, msgs = self.device.press(self.rng.choice([Side.A, Side.B]), self.device_us)
            assert p is not None
            self.made.append((p.boot_id, p.seq))
            self.device_out(msgs)
        self.device_out(self.device.poll(self.device_us))
        self.host_out(self.host.poll(self.now_ns))
        data = self.to_host.take(self.step)
        if data:
            self.host_out(self.host.receive(data, self.now_ns))
        while self.to_ack and self.rng.random() < 0.6:  # the journal commits, then acknowledges
            event = self.to_ack.pop(0)
            self.host_out(self.host.acknowledge(event.boot_id, event.seq))
        data = self.to_device.take(self.step)
        for item in self.device_parser.feed(data) if data else []:
            if not isinstance(item, FrameError):
                self.device_out(self.device.receive(item, self.device_us))


@given(
    seed=st.integers(0, 2**32),
    loss=st.sampled_from([0.0, 0.05, 0.2]),
    dup=st.sampled_from([0.0, 0.1]),
    noise=st.sampled_from([0.0, 0.1]),
    presses=st.integers(1, 40),
    reboots=st.integers(0, 2),
    host_restarts=st.integers(0, 2),
)
@settings(max_examples=40, deadline=None)
def test_every_press_arrives_exactly_once_in_order_whatever_the_link_does(
    seed: int, loss: float, dup: float, noise: float, presses: int, reboots: int, host_restarts: int
) -> None:
    w = World(seed, loss, dup, noise)
    w.device_out(w.device.attach(0))
    w.host_out(w.host.open(0))
    disruptions = sorted(
        [(w.rng.randint(1, presses * 3), "reboot") for _ in range(reboots)]
        + [(w.rng.randint(1, presses * 3), "restart") for _ in range(host_restarts)]
    )
    made = 0
    while made < presses or w.device.pending or w.to_ack:
        if disruptions and disruptions[0][0] <= w.step:
            _, what = disruptions.pop(0)
            w.reboot() if what == "reboot" else w.restart_host()
        press = made < presses and w.rng.random() < 0.3
        made += press
        w.tick(press)
        assert w.step < 200_000, "the link never settled"
    for _ in range(50):  # late duplicates would show up now
        w.tick(False)

    keys = [(d.boot_id, d.seq) for d in w.delivered]
    expected = [k for k in w.made if k not in w.lost_in_reboot]
    if host_restarts == 0:
        # one host: exactly once, in order (presses of a lost epoch may still arrive: they happened)
        assert [k for k in keys if k not in w.lost_in_reboot] == expected
        assert len(keys) == len(set(keys))
    else:
        # a restarted host may report again what its predecessor reported but had not acknowledged
        # (the daemon's journal drops those by (device, boot, seq)); never out of order, never lost
        assert sorted(set(keys) - w.lost_in_reboot) == sorted(expected)
        for boot in {b for b, _ in keys}:
            first_seen: dict[int, int] = {}
            for b, seq in keys:
                if b == boot:
                    first_seen.setdefault(seq, len(first_seen))
            assert list(first_seen) == sorted(first_seen)


def handshake(host: HostSession, hello: Hello, now: int = 0):
    host.open(now)
    return host.receive(encode(hello), now)


def hello(**kw) -> Hello:
    base = {"major": 1, "minor": 0, "boot_id": 0xABCD, "t_us": 10, "device_id": "DC-1"}
    return Hello(**(base | kw))


def decode_all(frames: list[bytes]):
    return [x for f in frames for x in MessageParser().feed(f)]


def test_the_host_negotiates_the_lower_minor_version() -> None:
    host = HostSession(minor=2)
    out = handshake(host, hello(minor=5))
    assert decode_all(out.send) == [HelloAck(major=1, minor=2, boot_id=0xABCD)]
    (event,) = out.events
    assert isinstance(event, Handshake) and event.version == (1, 2) and event.new_epoch


@pytest.mark.parametrize(
    ("major", "says", "shows"), [(2, "update duelclock", "HOST TOO OLD"), (0, "firmware", "UPDATE FIRMWARE")]
)
def test_another_major_version_is_refused_with_a_reason(major: int, says: str, shows: str) -> None:
    host = HostSession()
    out = handshake(host, hello(major=major))
    (reject,) = decode_all(out.send)
    assert isinstance(reject, Reject) and reject.reason is RejectReason.VERSION and reject.text == shows
    (event,) = out.events
    assert isinstance(event, Refused) and says in event.reason and f"{major}.0" in event.reason
    # and nothing it sends counts
    later = host.receive(encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=20)), 1)
    assert not later.events and not host.ready


def test_a_press_before_the_handshake_or_from_another_epoch_is_ignored() -> None:
    host = HostSession(settle_samples=1)
    host.open(0)
    assert not host.receive(encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=20)), 1).events
    handshake(host, hello())
    stale = host.receive(encode(Press(boot_id=0x1111, seq=1, side=Side.A, t_us=20)), 2)
    assert not stale.events and host.stats.stale == 2


def test_an_unknown_message_between_presses_is_skipped() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    data = (
        encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=20))
        + encode(Unknown(code=0x3F, body_hex="00ff"))
        + encode(Press(boot_id=0xABCD, seq=2, side=Side.B, t_us=30))
    )
    out = host.receive(data, 1_000_000)
    assert [e.seq for e in out.events if isinstance(e, Delivered)] == [1, 2]
    assert host.stats.unknown == 1


def test_a_press_after_a_gap_waits_for_its_predecessor() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    p = [Press(boot_id=0xABCD, seq=i, side=Side.A, t_us=100 + i) for i in (1, 2, 3)]
    assert [e.seq for e in host.receive(encode(p[0]) + encode(p[2]), 1).events] == [1]
    assert [e.seq for e in host.receive(encode(p[1]) + encode(p[2]), 2).events] == [2, 3]
    assert host.stats.out_of_order == 1 and host.stats.duplicates == 1


def test_acks_are_cumulative_and_only_for_acknowledged_presses() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    host.receive(
        b"".join(encode(Press(boot_id=0xABCD, seq=i, side=Side.A, t_us=100 + i)) for i in (1, 2, 3)), 1
    )
    assert host.acknowledge(0xABCD, 2).send == []  # 1 is not safe yet
    assert decode_all(host.acknowledge(0xABCD, 1).send) == [Ack(boot_id=0xABCD, seq=2)]
    assert host.acknowledge(0x9999, 3).send == []  # an earlier epoch's: that device forgot it
    with pytest.raises(ValueError, match="never delivered"):
        host.acknowledge(0xABCD, 4)


def test_a_lost_ack_is_repeated_when_the_device_shows_it_still_waits() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    host.receive(encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=100)), 1)
    host.acknowledge(0xABCD, 1)  # suppose this ACK was lost on the wire
    out = host.receive(encode(Heartbeat(boot_id=0xABCD, t_us=200, acked_seq=0, last_seq=1)), 2)
    assert decode_all(out.send) == [Ack(boot_id=0xABCD, seq=1)]


def test_an_old_epochs_hello_cannot_bring_it_back() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello(boot_id=1))
    host.receive(encode(hello(boot_id=2)), 5)  # the device rebooted
    assert host.boot_id == 2
    host.receive(encode(hello(boot_id=1)), 6)  # stale bytes from before the reboot
    assert host.boot_id == 2


def test_presses_of_a_new_epoch_wait_for_the_clock_mapping_to_settle() -> None:
    host = HostSession(settle_samples=3, settle_ns=300 * MS)
    handshake(host, hello(t_us=0), now=0)
    out = host.receive(encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=5)), 1 * MS)
    assert not out.events  # one HELLO and one press are not enough to time it
    out = host.receive(encode(Heartbeat(boot_id=0xABCD, t_us=10_000, acked_seq=0, last_seq=1)), 11 * MS)
    (event,) = out.events
    assert isinstance(event, Delivered) and event.seq == 1
    # a device without a burst: released by time instead
    other = HostSession(settle_samples=99, settle_ns=300 * MS)
    handshake(other, hello(t_us=0), now=0)
    assert not other.receive(encode(Press(boot_id=0xABCD, seq=1, side=Side.A, t_us=5)), 1 * MS).events
    assert not other.poll(299 * MS).events
    assert [e.seq for e in other.poll(300 * MS).events] == [1]


def test_the_device_keeps_presses_until_acked_and_resends_them_on_a_new_hello_ack() -> None:
    device = DeviceSession(DeviceConfig(device_id="DC-1"), boot_id=7)
    assert device.attach(0) == [device.hello(0)]
    press, sent = device.press(Side.A, 10)
    assert press is not None and sent == []  # no host yet: kept, not sent
    assert device.receive(Sync(major=1, minor=0), 20) == [device.hello(20)]
    assert device.receive(HelloAck(major=1, minor=0, boot_id=7), 30) == [press]
    device.receive(Ack(boot_id=6, seq=1), 40)  # an ACK for an earlier epoch
    assert device.pending == {1: press}
    device.receive(Ack(boot_id=7, seq=1), 50)
    assert device.pending == {} and device.acked_seq == 1
