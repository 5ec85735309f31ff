"""Both ends' protocol logic, wired together through a lossy channel — no ports, no threads.

The channel drops, corrupts, duplicates and delays frames and adds line noise; the
device reboots and the host restarts at random moments. Whatever happens, every press
reaches the application exactly once, in the order it was made — across reboots too, on
a conforming device that keeps its unacknowledged presses (protocol 1.1); a device that
loses them in a reboot (1.0, or non-conforming) loses only those.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol.codec import MessageParser, encode, encode_payload
from firmware_protocol.device import DeviceSession, FirmwareConfig
from firmware_protocol.framing import FrameError
from firmware_protocol.host import Delivered, DeviceRejected, Handshake, HostSession, plain_show
from firmware_protocol.messages import (
    MAX_HELD_EPOCHS,
    Ack,
    Heartbeat,
    HeldEpoch,
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
    def __init__(self, seed: int, loss: float, dup: float, noise: float, *, persistent: bool = True) -> None:
        self.rng = random.Random(seed)
        self.persistent = persistent
        self.config = FirmwareConfig(device_id="DC-1", retransmit_ms=20, heartbeat_ms=100)
        self.device = DeviceSession(self.config, boot_id=self.rng.getrandbits(32))
        self.host = HostSession(settle_ns=30 * MS)
        self.to_host = Channel(self.rng, loss, dup, noise)
        self.to_device = Channel(self.rng, loss, dup, noise)
        self.device_parser = MessageParser()
        self.step = 0
        self.boot_step = 0
        self.made: list[tuple[int, int]] = []
        self.truth_ns: dict[tuple[int, int], int] = {}  # when each press really happened (host time)
        self.lost_in_reboot: set[tuple[int, int]] = set()
        self.earlier_epoch: set[tuple[int, int]] = set()  # delivered while another epoch was current
        self.host_generation = 0
        self.delivered_by: list[tuple[int, int]] = []  # which host process delivered each press, and when
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
                if event.boot_id != self.host.boot_id:
                    self.earlier_epoch.add((event.boot_id, event.seq))
                self.delivered.append(event)
                self.delivered_by.append((self.host_generation, self.now_ns))
                self.to_ack.append(event)

    def reboot(self) -> None:
        stored = self.device.stored()  # what the non-volatile store held at the power cut
        if not self.persistent:
            self.lost_in_reboot |= {(p.boot_id, p.seq) for p in stored}
            stored = []
        self.boot_step = self.step
        self.device = DeviceSession.power_on(self.config, self.rng.getrandbits(32), stored)
        self.device_parser = MessageParser()
        self.device_out(self.device.attach(0))

    def restart_host(self) -> None:
        self.host_generation += 1
        self.host = HostSession(settle_ns=30 * MS)
        self.to_ack.clear()  # the crashed daemon's unjournaled presses are gone with it
        self.host_out(self.host.open(self.now_ns))

    def tick(self, press: bool) -> None:
        self.step += 1
        if press:
            p, msgs = self.device.press(self.rng.choice([WireSide.A, WireSide.B]), self.device_us)
            if p is None:  # refused, not lost: only when presses of the most epochs HELLO can list wait
                assert len(self.device.held) == MAX_HELD_EPOCHS
                return
            self.made.append((p.boot_id, p.seq))
            self.truth_ns[(p.boot_id, p.seq)] = self.now_ns
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
    reboots=st.integers(0, 3),
    host_restarts=st.integers(0, 2),
    persistent=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_every_press_arrives_exactly_once_in_order_whatever_the_link_does(
    seed: int,
    loss: float,
    dup: float,
    noise: float,
    presses: int,
    reboots: int,
    host_restarts: int,
    persistent: bool,
) -> None:
    w = World(seed, loss, dup, noise, persistent=persistent)
    w.device_out(w.device.attach(0))
    w.host_out(w.host.open(0))
    disruptions = sorted(
        [(w.rng.randint(1, presses * 3), "reboot") for _ in range(reboots)]
        + [(w.rng.randint(1, presses * 3), "restart") for _ in range(host_restarts)]
    )
    made = 0
    while made < presses or w.device.unacknowledged or w.to_ack:
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
    if persistent:
        assert not w.lost_in_reboot and expected == w.made  # a conforming device loses nothing
    if host_restarts == 0:
        # one host: exactly once, in the order pressed — across reboots too (presses of a lost
        # epoch that reached the host before the reboot may still arrive: they happened)
        assert [k for k in keys if k not in w.lost_in_reboot] == expected
        assert len(keys) == len(set(keys))
    else:
        # a restarted host may report again what its predecessor reported but had not acknowledged
        # (the daemon's journal drops those by (device, boot, seq)); never out of order, never lost
        assert sorted(set(keys) - w.lost_in_reboot) == sorted(expected)
        first_seen = list(dict.fromkeys(keys))
        assert first_seen == [k for k in w.made if k in set(first_seen)]
    check_times(w)


def check_times(w: World) -> None:
    """Measured times are the device's, within the link's latency; bounds are bounds, spaced exactly."""
    by_epoch: dict[tuple[int, int], list[Delivered]] = {}
    for d, (host, at_ns) in zip(w.delivered, w.delivered_by, strict=True):
        truth = w.truth_ns[(d.boot_id, d.seq)]
        if d.time_source == "measured":
            # Off by at most the link's latency (3 steps), plus the drift limit (1000 ppm) over the span
            # the mapping extrapolates: a lossy link may delay an epoch's first samples by seconds.
            assert abs(d.host_t_ns - truth) <= 4 * MS + (at_ns - truth) // 1000
        else:
            # only presses held across a reboot, whose epoch's clock this host never heard, get a bound
            assert d.time_source == "upper-bound" and (d.boot_id, d.seq) in w.earlier_epoch
            assert d.host_t_ns >= truth  # a bound, not an estimate: never before the press (no drift here)
            by_epoch.setdefault((host, d.boot_id), []).append(d)
    for bounded in by_epoch.values():
        for a, b in itertools.pairwise(bounded):
            if b.seq > a.seq:  # one epoch's presses keep the device's own spacing, to the µs
                assert b.host_t_ns - a.host_t_ns == 1000 * (b.device_t_us - a.device_t_us)


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
    assert isinstance(event, DeviceRejected) and says in event.reason and f"{major}.0" in event.reason
    # and nothing it sends counts
    later = host.receive(encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=20)), 1)
    assert not later.events and not host.ready


def test_a_press_before_the_handshake_or_from_another_epoch_is_ignored() -> None:
    host = HostSession(settle_samples=1)
    host.open(0)
    assert not host.receive(encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=20)), 1).events
    handshake(host, hello())
    stale = host.receive(encode(WirePress(boot_id=0x1111, seq=1, side=WireSide.A, t_us=20)), 2)
    assert not stale.events and host.stats.stale == 2


def test_an_unknown_message_between_presses_is_skipped() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    data = (
        encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=20))
        + encode(Unknown(code=0x3F, body_hex="00ff"))
        + encode(WirePress(boot_id=0xABCD, seq=2, side=WireSide.B, t_us=30))
    )
    out = host.receive(data, 1_000_000)
    assert [e.seq for e in out.events if isinstance(e, Delivered)] == [1, 2]
    assert host.stats.unknown == 1


def test_a_press_after_a_gap_waits_for_its_predecessor() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    p = [WirePress(boot_id=0xABCD, seq=i, side=WireSide.A, t_us=100 + i) for i in (1, 2, 3)]
    assert [e.seq for e in host.receive(encode(p[0]) + encode(p[2]), 1).events] == [1]
    assert [e.seq for e in host.receive(encode(p[1]) + encode(p[2]), 2).events] == [2, 3]
    assert host.stats.out_of_order == 1 and host.stats.duplicates == 1


def test_acks_are_cumulative_and_only_for_acknowledged_presses() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    host.receive(
        b"".join(encode(WirePress(boot_id=0xABCD, seq=i, side=WireSide.A, t_us=100 + i)) for i in (1, 2, 3)),
        1,
    )
    assert host.acknowledge(0xABCD, 2).send == []  # 1 is not safe yet
    assert decode_all(host.acknowledge(0xABCD, 1).send) == [Ack(boot_id=0xABCD, seq=2)]
    assert host.acknowledge(0x9999, 3).send == []  # an earlier epoch's: that device forgot it
    with pytest.raises(ValueError, match="never delivered"):
        host.acknowledge(0xABCD, 4)


def test_a_lost_ack_is_repeated_when_the_device_shows_it_still_waits() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello())
    host.receive(encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=100)), 1)
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
    out = host.receive(encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=5)), 1 * MS)
    assert not out.events  # one HELLO and one press are not enough to time it
    out = host.receive(encode(Heartbeat(boot_id=0xABCD, t_us=10_000, acked_seq=0, last_seq=1)), 11 * MS)
    (event,) = out.events
    assert isinstance(event, Delivered) and event.seq == 1
    # a device without a burst: released by time instead
    other = HostSession(settle_samples=99, settle_ns=300 * MS)
    handshake(other, hello(t_us=0), now=0)
    assert not other.receive(encode(WirePress(boot_id=0xABCD, seq=1, side=WireSide.A, t_us=5)), 1 * MS).events
    assert not other.poll(299 * MS).events
    assert [e.seq for e in other.poll(300 * MS).events] == [1]


def test_the_device_keeps_presses_until_acked_and_resends_them_on_a_new_hello_ack() -> None:
    device = DeviceSession(FirmwareConfig(device_id="DC-1"), boot_id=7)
    assert device.attach(0) == [device.hello(0)]
    press, sent = device.press(WireSide.A, 10)
    assert press is not None and sent == []  # no host yet: kept, not sent
    assert device.receive(Sync(major=1, minor=0), 20) == [device.hello(20)]
    assert device.receive(HelloAck(major=1, minor=0, boot_id=7), 30) == [press]
    device.receive(Ack(boot_id=6, seq=1), 40)  # an ACK for an earlier epoch
    assert device.pending == {1: press}
    device.receive(Ack(boot_id=7, seq=1), 50)
    assert device.pending == {} and device.acked_seq == 1


# -- presses kept across a reboot (protocol 1.1) ----------------------------------------------


def presses(boot_id: int, *seq_t: tuple[int, int]) -> list[WirePress]:
    return [
        WirePress(boot_id=boot_id, seq=s, side=WireSide.A if s % 2 else WireSide.B, t_us=t) for s, t in seq_t
    ]


def test_held_presses_come_before_the_new_epochs_and_are_timed_by_their_own_clock() -> None:
    host = HostSession(settle_samples=2)
    boot_a_ns = 1_000 * MS  # epoch A booted at host time 1 s; the link takes 100 µs
    handshake(host, hello(boot_id=0xA, t_us=0), now=boot_a_ns + 100_000)
    a = presses(0xA, (1, 1_000_000), (2, 2_000_000), (3, 3_000_000), (4, 3_500_000))
    host.receive(
        encode(Heartbeat(boot_id=0xA, t_us=500_000, acked_seq=0, last_seq=0)), boot_a_ns + 500 * MS + 100_000
    )
    first = host.receive(b"".join(encode(p) for p in a[:3]), boot_a_ns + 3_000 * MS + 100_000)
    assert [e.seq for e in first.events if isinstance(e, Delivered)] == [1, 2, 3]
    host.acknowledge(0xA, 1)
    # A4 was pressed while the cable was out; then the clock lost power and came back as epoch B,
    # still holding A2…A4. B's first press overtakes A's re-sends on the wire: it must wait.
    boot_b_ns = 5_000 * MS
    held = HeldEpoch(boot_id=0xA, acked_seq=1, last_seq=4, last_t_us=3_500_000)
    host.receive(encode(hello(boot_id=0xB, t_us=10, held=(held,), minor=1)), boot_b_ns + 110_000)
    host.receive(encode(Heartbeat(boot_id=0xB, t_us=10_000, acked_seq=0, last_seq=1)), boot_b_ns + 10_100_000)
    early = host.receive(
        encode(WirePress(boot_id=0xB, seq=1, side=WireSide.B, t_us=20_000)), boot_b_ns + 20_100_000
    )
    assert not early.events  # B1 waits for A's held presses
    late = host.receive(b"".join(encode(p) for p in a[1:]), boot_b_ns + 30 * MS)
    delivered = [e for e in late.events if isinstance(e, Delivered)]
    assert [(e.boot_id, e.seq) for e in delivered] == [(0xA, 4), (0xB, 1)]  # A2, A3 were delivered before
    a4, b1 = delivered
    assert a4.time_source == b1.time_source == "measured"
    assert abs(a4.host_t_ns - (boot_a_ns + 3_500 * MS)) <= 100_000  # A's own clock, not B's
    assert abs(b1.host_t_ns - (boot_b_ns + 20 * MS)) <= 100_000
    assert host.stats.carried == 1
    # acknowledged per epoch: ACK(A, 4) erases A from the clock's store
    host.acknowledge(0xA, 2)
    host.acknowledge(0xA, 3)
    assert decode_all(host.acknowledge(0xA, 4).send) == [Ack(boot_id=0xA, seq=4)]


def test_a_host_that_never_heard_the_held_epochs_clock_gives_an_upper_bound_keeping_the_spacing() -> None:
    host = HostSession(settle_samples=1)  # a daemon restarted while the clock rebooted: A's clock is unknown
    boot_b_ns = 60_000 * MS
    held = HeldEpoch(boot_id=0xA, acked_seq=0, last_seq=3, last_t_us=9_000_000)
    hello_b = hello(boot_id=0xB, t_us=50_000, held=(held,), minor=1)
    handshake(host, hello_b, now=boot_b_ns + 50 * MS + 80_000)  # B's power-on HELLO, 80 µs on the wire
    out = host.receive(
        b"".join(encode(p) for p in presses(0xA, (1, 1_000_000), (2, 5_000_000), (3, 9_000_000))),
        boot_b_ns + 60 * MS,
    )
    a1, a2, a3 = (e for e in out.events if isinstance(e, Delivered))
    assert {a1.time_source, a2.time_source, a3.time_source} == {"upper-bound"}
    # A's last held press is given the latest instant B can have started: when its HELLO arrived, less
    # the 50 ms it had counted (less 1000 ppm of it, in case its oscillator runs fast) …
    assert a3.host_t_ns == boot_b_ns + 80_000 + 50_000
    # … and the others the device's own spacing, to the µs
    assert (a3.host_t_ns - a1.host_t_ns, a3.host_t_ns - a2.host_t_ns) == (8_000 * MS, 4_000 * MS)
    assert host.stats.time_bounded == 3


def test_epochs_held_in_a_chain_are_bounded_in_order() -> None:
    """Two reboots without a host: A's and B's clocks unknown, A before B before C."""
    host = HostSession(settle_samples=1)
    held = (
        HeldEpoch(boot_id=0xA, acked_seq=0, last_seq=2, last_t_us=2_000_000),
        HeldEpoch(boot_id=0xB, acked_seq=0, last_seq=1, last_t_us=700_000),
    )
    handshake(host, hello(boot_id=0xC, t_us=1_000, held=held, minor=1), now=100_000 * MS)
    data = b"".join(
        encode(p) for p in [*presses(0xA, (1, 500_000), (2, 2_000_000)), *presses(0xB, (1, 700_000))]
    )
    data += encode(WirePress(boot_id=0xC, seq=1, side=WireSide.A, t_us=30_000))
    out = host.receive(data, 100_040 * MS)
    got = [e for e in out.events if isinstance(e, Delivered)]
    assert [(e.boot_id, e.seq) for e in got] == [(0xA, 1), (0xA, 2), (0xB, 1), (0xC, 1)]
    times = [e.host_t_ns for e in got]
    assert times == sorted(times)
    b_started_by = got[2].host_t_ns - 700 * MS + 700_000  # B counted 700 ms to its press (1000 ppm margin)
    assert got[1].host_t_ns == b_started_by  # A's last press: no later than B began
    assert [e.time_source for e in got] == ["upper-bound"] * 3 + ["measured"]


def test_a_press_of_an_earlier_epoch_the_device_does_not_hold_is_stale() -> None:
    host = HostSession(settle_samples=1)
    handshake(host, hello(boot_id=0xA))
    host.receive(encode(WirePress(boot_id=0xA, seq=1, side=WireSide.A, t_us=100)), 1)
    host.receive(encode(hello(boot_id=0xB, minor=1)), 2)  # rebooted, holding nothing of A
    out = host.receive(
        encode(WirePress(boot_id=0xA, seq=2, side=WireSide.A, t_us=200)), 3
    )  # bytes from before
    assert not out.events and host.stats.stale == 1
    assert host.receive(encode(hello(boot_id=0xA)), 4).events == []  # and A never comes back
    assert host.boot_id == 0xB


def test_a_lost_ack_for_a_held_epoch_is_repeated_when_the_hello_shows_it() -> None:
    host = HostSession(settle_samples=1)
    held = (HeldEpoch(boot_id=0xA, acked_seq=0, last_seq=1, last_t_us=10),)
    handshake(host, hello(boot_id=0xB, held=held, minor=1))
    host.receive(encode(WirePress(boot_id=0xA, seq=1, side=WireSide.A, t_us=10)), 1)
    host.acknowledge(0xA, 1)  # suppose this ACK was lost
    host.open(2)  # a replug: the same epoch B, the clock still holds A1
    out = host.receive(encode(hello(boot_id=0xB, held=held, minor=1)), 3)
    assert Ack(boot_id=0xA, seq=1) in decode_all(out.send)
    assert not [e for e in out.events if isinstance(e, Delivered)]  # A1 is not delivered twice


def test_a_powered_on_device_holds_what_its_store_kept_and_resends_it_first() -> None:
    config = FirmwareConfig(device_id="DC-1")
    before = DeviceSession.power_on(config, 0xA)
    before.attach(0)
    before.receive(HelloAck(major=1, minor=1, boot_id=0xA), 1)
    for t in (10, 20, 30):
        before.press(WireSide.A, t)
    before.receive(Ack(boot_id=0xA, seq=1), 40)
    after = DeviceSession.power_on(config, 0xB, before.stored())  # the power cut: the store survives
    (hello_b,) = after.attach(0)
    assert isinstance(hello_b, Hello) and hello_b.boot_id == 0xB
    assert hello_b.held == (HeldEpoch(boot_id=0xA, acked_seq=1, last_seq=3, last_t_us=30),)
    press_b, _ = after.press(WireSide.B, 5)
    resent = after.receive(HelloAck(major=1, minor=1, boot_id=0xB), 6)
    assert [(p.boot_id, p.seq, p.t_us) for p in resent] == [(0xA, 2, 20), (0xA, 3, 30), (0xB, 1, 5)]
    after.receive(Ack(boot_id=0xA, seq=3), 7)  # erases A from the store
    assert after.held == {} and after.stored() == [press_b] and after.hello(8).held == ()


def test_a_device_sends_held_presses_only_to_a_host_that_takes_them() -> None:
    config = FirmwareConfig(device_id="DC-1", max_pending=3)
    stored = presses(0xA, (1, 10), (2, 20))
    device = DeviceSession.power_on(config, 0xB, stored)
    device.attach(0)
    assert device.receive(HelloAck(major=1, minor=0, boot_id=0xB), 1) == []  # a 1.0 host: not to it
    p1, sent = device.press(WireSide.A, 2)
    assert p1 is not None and sent == [p1]
    # the store is full now; a 1.0 host can never take A's presses: they give way to a player's press
    p2, _ = device.press(WireSide.B, 3)
    assert p2 is not None and device.discarded == 2 and device.held == {}


def test_a_device_holding_the_most_epochs_hello_can_list_registers_no_new_press() -> None:
    config = FirmwareConfig(device_id="DC-1")
    stored = [p for b in range(1, MAX_HELD_EPOCHS + 1) for p in presses(b, (1, 10))]
    device = DeviceSession.power_on(config, 0xFF, stored)
    assert len(device.hello(0).held) == MAX_HELD_EPOCHS
    assert device.press(WireSide.A, 1) == (None, []) and device.overflowed == 1
    device.attach(2)
    device.receive(HelloAck(major=1, minor=1, boot_id=0xFF), 3)
    device.receive(Ack(boot_id=1, seq=1), 4)  # one epoch's presses are safe: room again
    press, _ = device.press(WireSide.A, 5)
    assert press is not None and press.seq == 1


# -- what the device shows (protocol 1.2) ------------------------------------------------------

COUNTDOWN = WireShowFace(face=WireFace.COUNTDOWN, time_ms_a=10_800_000, ticking=True, text="Sztafeta")
COUNT_UP = WireShowFace(face=WireFace.COUNT_UP, time_ms_a=754_000, text="META 12:31")
TEXT = WireShowFace(face=WireFace.TEXT, text="ZMIANA")
TWO_CLOCKS = WireShowFace(face=WireFace.TWO_CLOCKS, time_ms_a=299_000, time_ms_b=300_000, running=WireSide.B)


@pytest.mark.parametrize("face", [COUNTDOWN, COUNT_UP, TEXT, TWO_CLOCKS], ids=lambda f: f.face.value)
def test_a_host_shows_a_face_as_show_face_to_a_1_2_device(face: WireShowFace) -> None:
    host = HostSession()
    assert host.show(face).send == []  # nothing before HELLO: there is nobody to show it to
    handshake(host, hello(minor=2))
    assert decode_all(host.show(face).send) == [face]


@pytest.mark.parametrize(
    ("face", "shown"),
    [
        (COUNTDOWN, WireShow(remaining_ms_a=10_800_000, remaining_ms_b=10_800_000, text="Sztafeta")),
        (COUNT_UP, WireShow(remaining_ms_a=754_000, remaining_ms_b=754_000, text="META 12:31")),
        (TEXT, WireShow(remaining_ms_a=0, remaining_ms_b=0, text="ZMIANA")),
        (TWO_CLOCKS, WireShow(remaining_ms_a=299_000, remaining_ms_b=300_000, running=WireSide.B)),
    ],
    ids=lambda x: x.face.value if isinstance(x, WireShowFace) else "",
)
def test_a_host_shows_a_face_as_plain_show_to_a_1_1_device(face: WireShowFace, shown: WireShow) -> None:
    """SPEC.md's mapping: one time on both faces, a text over two zero faces."""
    for minor in (0, 1):
        host = HostSession()
        handshake(host, hello(minor=minor))
        assert decode_all(host.show(face).send) == [shown] == [plain_show(face)]


def test_a_1_2_device_shows_the_face_and_its_status_says_which() -> None:
    device = DeviceSession(FirmwareConfig(device_id="DC-1"), boot_id=7)
    device.receive(HelloAck(major=1, minor=2, boot_id=7), 0)
    (status,) = device.receive(COUNTDOWN, 10)
    assert device.display == COUNTDOWN
    assert status == WireStatus(
        boot_id=7,
        t_us=10,
        remaining_ms_a=10_800_000,
        remaining_ms_b=0,
        text="Sztafeta",
        face=WireFace.COUNTDOWN,
        ticking=True,
    )
    device.receive(WireShow(remaining_ms_a=5, remaining_ms_b=6, running=WireSide.A), 20)  # a 1.1 host's
    assert device.display == WireShowFace(
        face=WireFace.TWO_CLOCKS, time_ms_a=5, time_ms_b=6, running=WireSide.A
    )


def test_a_1_1_device_skips_show_face_as_a_type_it_does_not_know() -> None:
    device = DeviceSession(FirmwareConfig(device_id="DC-1", minor=1), boot_id=7)
    device.receive(HelloAck(major=1, minor=1, boot_id=7), 0)
    assert device.receive(TEXT, 10) == [] and device.display is None
    (status,) = device.receive(plain_show(TEXT), 20)
    assert status.face is WireFace.TWO_CLOCKS and status.text == "ZMIANA"
    assert encode_payload(status).endswith(b"\x06ZMIANA")  # a 1.1 STATUS: no face, no ticking
