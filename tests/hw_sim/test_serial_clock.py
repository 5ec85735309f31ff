"""The simulated serial clock, seen from the host side of its pseudo-terminal with plain pyserial."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
import serial

from firmware_protocol.codec import MessageParser, encode
from firmware_protocol.framing import FrameError, FrameErrorKind
from firmware_protocol.messages import (
    PROTOCOL_MINOR,
    Ack,
    Heartbeat,
    Hello,
    HelloAck,
    Sync,
    WireFace,
    WirePress,
    WireShow,
    WireShowFace,
    WireSide,
    WireStatus,
)
from hw_sim.faults import Faults, parse_fault_names
from hw_sim.players import FAST, SLOW
from hw_sim.serial_clock import DEFAULT_PID, DEFAULT_VID, SerialClockFarm
from hw_sim.simtime import DeviceClock, SimTime

MS = 1_000_000


@pytest.fixture
def farm() -> Iterator[SerialClockFarm]:
    with SerialClockFarm(seed=3) as f:
        yield f
    assert not f.errors


class Host:
    """A minimal host: pyserial on the pty path, the codec, nothing from clockd."""

    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.port.reset_input_buffer()
        self.parser = MessageParser()
        self.seen: list = []

    def send(self, *msgs) -> None:
        self.port.write(b"".join(encode(m) for m in msgs))

    def read_until(self, want, timeout_s: float = 2.0) -> list:
        """Read until ``want(item)`` holds for something read; returns everything read."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for item in self.parser.feed(self.port.read(max(1, self.port.in_waiting))):
                self.seen.append(item)
                if want(item):
                    return self.seen
        pytest.fail(f"not seen within {timeout_s} s; got {self.seen[-5:]!r}")

    def handshake(self) -> Hello:
        self.send(Sync(major=1, minor=0))
        self.read_until(lambda m: isinstance(m, Hello))
        hello = [m for m in self.seen if isinstance(m, Hello)][-1]
        self.send(HelloAck(major=1, minor=0, boot_id=hello.boot_id))
        return hello


def test_it_is_a_raw_serial_port_that_answers_sync_with_hello(farm) -> None:
    clock = farm.add("SIM-7", firmware="9.9")
    (info,) = farm.list_ports()
    assert (info.device, info.vid, info.pid, info.serial_number) == (
        clock.path,
        DEFAULT_VID,
        DEFAULT_PID,
        "SIM-7",
    )
    host = Host(clock.path)
    hello = host.handshake()
    assert (hello.device_id, hello.firmware, hello.boot_id) == ("SIM-7", "9.9", clock.boot_id)
    clock.press(WireSide.B)
    host.read_until(lambda m: isinstance(m, WirePress))
    press = next(m for m in host.seen if isinstance(m, WirePress))
    assert (press.seq, press.side, press.boot_id) == (1, WireSide.B, clock.boot_id)
    # every byte value crosses the pty unchanged (raw mode: no echo, no CR/LF translation)
    host.send(WireShow(remaining_ms_a=0x0D0A0D0A, remaining_ms_b=0x03041A11, text="\r\n\x03\x1a"))
    host.read_until(lambda m: isinstance(m, WireStatus))
    assert clock.display == WireShowFace(  # a plain SHOW is two clocks
        face=WireFace.TWO_CLOCKS, time_ms_a=0x0D0A0D0A, time_ms_b=0x03041A11, text="\r\n\x03\x1a"
    )
    assert not any(isinstance(m, WireShow) for m in host.seen)  # nothing echoed back


def test_the_clock_resends_until_acknowledged_and_heartbeats_carry_its_time(farm) -> None:
    clock = farm.add(retransmit_ms=20, heartbeat_ms=50)
    host = Host(clock.path)
    hello = host.handshake()
    clock.press(WireSide.A)
    host.read_until(lambda m: isinstance(m, WirePress))
    host.read_until(lambda m: isinstance(m, WirePress))  # again: no ACK yet
    assert clock.pending == 1
    host.send(Ack(boot_id=hello.boot_id, seq=1))
    host.read_until(lambda m: isinstance(m, Heartbeat) and m.acked_seq == 1)
    assert clock.pending == 0
    beats = [m.t_us for m in host.seen if isinstance(m, Heartbeat)]
    assert beats == sorted(beats) and beats[-1] > 0


def test_unplug_closes_the_port_and_replug_opens_a_new_one(farm) -> None:
    clock = farm.add("SIM-U")
    blocker = farm.add("SIM-X")
    host = Host(clock.path)
    host.handshake()
    old = clock.path
    clock.unplug()
    assert farm.list_ports() == [blocker.port_info] and clock.path is None
    with pytest.raises(serial.SerialException):
        for _ in range(20):
            host.port.read(1)
    farm.add("SIM-Y")  # takes the freed pty number
    clock.press(WireSide.A)  # while unplugged: kept
    clock.replug()
    assert clock.path is not None and clock.path != old
    assert clock.port_info in farm.list_ports()
    again = Host(clock.path)
    again.handshake()
    again.read_until(lambda m: isinstance(m, WirePress))


def test_a_reboot_starts_a_new_epoch_that_holds_and_resends_the_unacknowledged_presses(farm) -> None:
    clock = farm.add()
    host = Host(clock.path)
    hello = host.handshake()
    clock.press(WireSide.A)
    clock.press(WireSide.B)
    host.read_until(lambda m: isinstance(m, WirePress) and m.seq == 2)
    host.send(Ack(boot_id=hello.boot_id, seq=1))
    host.read_until(lambda m: isinstance(m, Heartbeat) and m.acked_seq == 1)
    clock.reboot()  # the power fails with press 2 unacknowledged: its flash keeps it
    assert clock.boot_id != hello.boot_id and not clock.lost_on_reboot and clock.pending == 1
    host.read_until(lambda m: isinstance(m, Hello) and m.boot_id == clock.boot_id)  # unprompted, at boot
    new = [m for m in host.seen if isinstance(m, Hello)][-1]
    assert new.t_us < 50_000 and new.acked_seq == 0 and new.minor == PROTOCOL_MINOR
    first = clock.record(hello.boot_id, 2)
    assert first is not None
    assert [(h.boot_id, h.acked_seq, h.last_seq, h.last_t_us) for h in new.held] == [
        (hello.boot_id, 1, 2, first.device_t_us)
    ]
    record = clock.press(WireSide.B)
    assert record is not None and record.seq == 1 and record.boot_id == clock.boot_id
    host.seen.clear()
    host.send(HelloAck(major=1, minor=1, boot_id=new.boot_id))
    host.read_until(lambda m: isinstance(m, WirePress) and m.boot_id == clock.boot_id)
    resent = [(m.boot_id, m.seq, m.t_us) for m in host.seen if isinstance(m, WirePress)]
    assert resent[:2] == [(hello.boot_id, 2, first.device_t_us), (clock.boot_id, 1, record.device_t_us)]
    host.send(Ack(boot_id=hello.boot_id, seq=2))  # the old epoch's press is safe: erased
    deadline = time.monotonic() + 2
    while clock.pending != 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert clock.pending == 1 and [r.boot_id for r in clock.unacknowledged()] == [clock.boot_id]


def test_a_non_conforming_clock_loses_what_was_not_acknowledged_in_a_reboot(farm) -> None:
    clock = farm.add(persistent=False)
    host = Host(clock.path)
    hello = host.handshake()
    clock.press(WireSide.A)
    clock.press(WireSide.A)
    time.sleep(0.05)
    clock.reboot()
    assert clock.boot_id != hello.boot_id and clock.pending == 0
    assert [(r.boot_id, r.seq) for r in clock.lost_on_reboot] == [(hello.boot_id, 1), (hello.boot_id, 2)]
    host.read_until(lambda m: isinstance(m, Hello) and m.boot_id == clock.boot_id)
    assert [m for m in host.seen if isinstance(m, Hello)][-1].held == ()  # it says it holds nothing


@pytest.mark.parametrize(
    ("faults", "expect"),
    [
        (Faults(corrupt=1.0), "every frame fails its CRC or its COBS"),
        (Faults(garbage=1.0), "noise before every frame, frames intact"),
        (Faults(duplicate=1.0), "every frame twice"),
        (Faults(drop=1.0), "nothing"),
    ],
)
def test_each_fault_does_what_it_says(farm, faults: Faults, expect: str) -> None:
    clock = farm.add(faults=faults)
    port = serial.Serial(clock.path, 115200, timeout=5)
    before = clock.counters.bytes_sent
    clock.reboot()  # a HELLO at each power-on, prompted by nothing the host sent (which faults would hit too)
    clock.reboot()
    sent = clock.counters.bytes_sent - before  # what the clock put on the wire for them (none when dropped)
    data = port.read(sent)  # all of it, and only it
    port.close()
    assert len(data) == sent
    items = MessageParser().feed(data + b"\x00")
    hellos = [m for m in items if isinstance(m, Hello)]
    errors = [m for m in items if isinstance(m, FrameError)]
    if faults.corrupt:
        assert not hellos and errors
        assert {e.kind for e in errors} <= {
            FrameErrorKind.BAD_CRC,
            FrameErrorKind.BAD_COBS,
            FrameErrorKind.TOO_SHORT,
        }
    elif faults.garbage:
        assert len(hellos) == 2 and errors
    elif faults.duplicate:
        assert len(hellos) == 4 and hellos[0] == hellos[1] and hellos[2] == hellos[3] != hellos[0]
    else:
        assert items == []


def test_a_device_clock_drifts_exactly_as_configured() -> None:
    host_now = [10**12]
    clock = DeviceClock(lambda: host_now[0], drift_ppb=200_000)
    host_now[0] += 3600 * 1000 * MS  # one hour of host time
    assert clock.now_us() == 3_600_720_000  # 0.72 s fast: 200 ppm
    assert clock.host_ns(clock.now_us()) == host_now[0]
    slow = DeviceClock(lambda: host_now[0], drift_ppb=-200_000, boot_host_ns=host_now[0])
    assert slow.us_at(host_now[0] + 1000 * MS) == 999_800


def test_sim_time_jumps_forward_only_and_tells_whoever_listens() -> None:
    now = SimTime(source=lambda: 1000)
    woken = []
    now.on_advance(lambda: woken.append(now()))
    now.advance(5 * MS)
    assert now() == 1000 + 5 * MS and woken == [now()]
    with pytest.raises(ValueError, match="forward"):
        now.advance(-1)


def test_players_alternate_and_the_toss_loser_presses_first() -> None:
    now = SimTime()
    with SerialClockFarm(time=now, seed=9) as farm:
        clock = farm.add()
        farm.play(clock, (FAST, SLOW), turns=6, first=WireSide.B, rng=random.Random(4))
        for _ in range(200):
            now.advance(1000 * MS)
            time.sleep(0.002)
            if len(clock.presses) == 6:
                break
        assert [r.side for r in clock.presses] == [WireSide.B, WireSide.A] * 3
        gaps = [b.host_ns - a.host_ns for a, b in zip(clock.presses, clock.presses[1:], strict=False)]
        assert all(g >= FAST.min_ms * MS for g in gaps)


def test_fault_names_are_checked() -> None:
    assert parse_fault_names("unplug, dup,") == {"unplug", "dup"}
    with pytest.raises(ValueError, match="unknown fault 'fire'"):
        parse_fault_names("drop,fire")
    with pytest.raises(ValueError, match="between 0 and 1"):
        Faults(drop=1.5)


def test_a_1_2_clock_shows_a_face_and_says_so_in_its_status_and_a_1_1_clock_skips_it(farm) -> None:
    countdown = WireShowFace(face=WireFace.COUNTDOWN, time_ms_a=10_800_000, ticking=True, text="Sztafeta")
    new, old = farm.add("SIM-12"), farm.add("SIM-11", minor=1)
    host = Host(new.path)
    assert host.handshake().minor == 2
    host.send(countdown)
    host.read_until(lambda m: isinstance(m, WireStatus))
    assert new.display == countdown
    (status,) = [m for m in host.seen if isinstance(m, WireStatus)]
    assert (status.face, status.ticking, status.remaining_ms_a, status.text) == (
        WireFace.COUNTDOWN,
        True,
        10_800_000,
        "Sztafeta",
    )
    host = Host(old.path)
    assert host.handshake().minor == 1
    host.send(countdown, WireShow(remaining_ms_a=1, remaining_ms_b=2))  # read in this order
    host.read_until(lambda m: isinstance(m, WireStatus))
    (status,) = [m for m in host.seen if isinstance(m, WireStatus)]  # the first STATUS is the SHOW's:
    assert (status.face, status.remaining_ms_a) == (WireFace.TWO_CLOCKS, 1)  # SHOW_FACE was skipped
    assert old.display == WireShowFace(face=WireFace.TWO_CLOCKS, time_ms_a=1, time_ms_b=2)
