"""The real serial driver against simulated clocks over real pseudo-terminals.

Every test starts real :class:`SerialClock` drivers (a reader thread on a pty each) and
finds the clock the way the daemon does, by serial number among the listed ports.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator

import pytest

from clockd.core.clock import PerSide
from clockd.core.device import Beep, DeviceState, TwoClocks
from clockd.devices.base import AnyDeviceInput, Connected, DevicePress, Disconnected
from clockd.devices.base import Side as CoreSide
from clockd.devices.serial import PortMatch, SerialClock
from clockd.i18n import render, set_language
from firmware_protocol.messages import PROTOCOL_MAJOR, PROTOCOL_MINOR, BeepPattern, RejectReason, WireSide
from hw_sim.faults import preset
from hw_sim.serial_clock import SerialClockFarm, SimulatedSerialClock
from tests.conftest import wait_until

MS = 1_000_000


class Collector:
    """A sink that keeps what the driver reported, and waits for it."""

    def __init__(self) -> None:
        self.queue: queue.Queue[AnyDeviceInput] = queue.Queue()
        self.events: list[AnyDeviceInput] = []

    def __call__(self, event: AnyDeviceInput) -> None:
        self.queue.put(event)

    def _drain(self, timeout_s: float) -> bool:
        try:
            self.events.append(self.queue.get(timeout=timeout_s))
        except queue.Empty:
            return False
        return True

    @property
    def presses(self) -> list[DevicePress]:
        return [e for e in self.events if isinstance(e, DevicePress)]

    @property
    def connects(self) -> list[Connected]:
        return [e for e in self.events if isinstance(e, Connected)]

    @property
    def disconnects(self) -> list[Disconnected]:
        return [e for e in self.events if isinstance(e, Disconnected)]

    def wait_presses(self, n: int, timeout_s: float = 5.0) -> list[DevicePress]:
        """Wait until ``n`` presses have arrived; fails the test if they do not."""
        deadline = time.monotonic() + timeout_s
        while len(self.presses) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not self._drain(left):
                pytest.fail(f"only {len(self.presses)} of {n} presses arrived within {timeout_s} s")
        return self.presses

    def collect(self) -> None:
        """Take in what the driver has reported so far (it reports in its reader thread, as it
        reads: whatever it reported before a counter moved is here), waiting for nothing."""
        while self._drain(0):
            pass

    def settle(self, quiet_s: float = 0.2) -> None:
        """Collect until nothing arrives for ``quiet_s`` (to catch late duplicates)."""
        while self._drain(quiet_s):
            pass

    def wait_for(self, kind: type, count: int = 1, timeout_s: float = 5.0) -> None:
        deadline = time.monotonic() + timeout_s
        while sum(isinstance(e, kind) for e in self.events) < count:
            left = deadline - time.monotonic()
            if left <= 0 or not self._drain(left):
                pytest.fail(f"no {kind.__name__} event #{count} within {timeout_s} s")


@pytest.fixture
def farm() -> Iterator[SerialClockFarm]:
    with SerialClockFarm(seed=7) as f:
        yield f
    assert not f.errors, f"the simulator's thread failed: {f.errors!r}"


@pytest.fixture
def sink() -> Collector:
    return Collector()


Attach = Callable[..., SerialClock]


@pytest.fixture
def attach(farm: SerialClockFarm) -> Iterator[Attach]:
    """Start a real driver that finds ``clock`` by its serial number in the simulator's port list."""
    started: list[SerialClock] = []

    def start(clock: SimulatedSerialClock, sink, *, connect: bool = True, **kw) -> SerialClock:
        kw.setdefault("reconnect_min_ns", 10 * MS)
        kw.setdefault("reconnect_max_ns", 100 * MS)
        kw.setdefault("match", PortMatch(serial_number=clock.serial_number))
        driver = SerialClock(1, list_ports=farm.list_ports, **kw)
        started.append(driver)
        driver.start(sink)
        if connect:
            assert driver.wait_connected(5), driver.status()
        return driver

    yield start
    for driver in started:
        driver.stop()


def check_exact(presses: list[DevicePress], clock: SimulatedSerialClock) -> None:
    """Every press the clock kept arrived exactly once, in order, with its side and device time."""
    got = [(p.boot_id, p.seq) for p in presses]
    want = [(r.boot_id, r.seq) for r in clock.presses if r not in clock.lost_on_reboot]
    assert got == want
    for p in presses:
        record = clock.record(p.boot_id, p.seq)
        assert record is not None
        assert p.side.value == record.side.value and p.device_t_us == record.device_t_us
        assert p.device_id == clock.serial_number


def test_presses_arrive_once_in_order_timed_by_the_device(farm, sink, attach) -> None:
    clock = farm.add(drift_ppm=150)
    attach(clock, sink, auto_ack=True)
    for i in range(20):
        clock.press(WireSide.A if i % 2 == 0 else WireSide.B)
        time.sleep(0.002)
    sink.wait_presses(20)
    sink.settle()
    check_exact(sink.presses, clock)
    assert clock.wait_idle(2)  # every press acknowledged: the clock holds nothing
    for p in sink.presses:
        truth = clock.record(p.boot_id, p.seq)
        # Pressed within milliseconds of the handshake, when the clock mapping rests on a burst of
        # heartbeats whose latency a loaded machine raises (SPEC.md §6): close, not yet exact. The
        # < 1 ms bound for a clock that was plugged in before its duel is test_serial_timing's.
        assert truth is not None and abs(p.t_ns - truth.host_ns) < 25 * MS
    assert [c.device_id for c in sink.connects] == [clock.serial_number]


def test_the_clock_keeps_a_press_until_the_daemon_acknowledges_it(farm, sink, attach) -> None:
    clock = farm.add(retransmit_ms=20)
    driver = attach(clock, sink)  # no auto-ack: as the daemon, which acknowledges after its commit
    clock.press(WireSide.A)
    clock.press(WireSide.B)
    first, second = sink.wait_presses(2)
    # the clock re-sends both, again and again; the driver reads each re-send (it counts it) …
    wait_until(lambda: driver.stats.protocol.duplicates >= 6, poll_s=0.002)
    sink.collect()  # … and reports none of them (it reports a press as it reads it: none is on its way)
    assert len(sink.presses) == 2
    assert clock.pending == 2
    acks = driver.stats.protocol.acks_sent
    driver.acknowledge(second)  # ACKs are cumulative: nothing is released while the first is not safe
    assert driver.stats.protocol.acks_sent == acks  # so no ACK went to the clock: it keeps both
    assert clock.pending == 2
    driver.acknowledge(first)
    assert clock.wait_idle(2)


def test_unplug_and_replug_lose_and_duplicate_nothing(farm, sink, attach) -> None:
    clock = farm.add()
    driver = attach(clock, sink, auto_ack=True)
    for _ in range(5):
        clock.press(WireSide.A)
    sink.wait_presses(5)
    old_path = clock.path
    clock.unplug()
    sink.wait_for(Disconnected)
    assert driver.status().state is DeviceState.CONNECTING
    for _ in range(5):
        clock.press(WireSide.B)  # pressed while unplugged: a battery clock keeps them
    farm.add("SIM-OTHER")  # takes the freed pty number, so the replugged clock gets a new path
    clock.replug()
    sink.wait_presses(10)
    sink.settle()
    check_exact(sink.presses, clock)
    assert clock.path != old_path and driver.path == clock.path
    assert len(sink.connects) == 2 and len(sink.disconnects) == 1


@pytest.mark.parametrize("fault", ["garbage", "corrupt", "drop", "dup", "delay"])
def test_a_faulty_link_loses_and_duplicates_nothing(farm, sink, attach, fault) -> None:
    clock = farm.add(faults=preset({fault}, rate=0.2, ack_delay_ns=50 * MS), retransmit_ms=30)
    attach(clock, sink, auto_ack=True)
    for i in range(60):
        clock.press(WireSide.A if i % 2 == 0 else WireSide.B)
        time.sleep(0.001)
    sink.wait_presses(60, timeout_s=10)
    assert clock.wait_idle(10)
    sink.settle(0.1)
    check_exact(sink.presses, clock)


def test_a_reboot_starts_a_new_epoch_and_confuses_no_sequence_numbers(farm, sink, attach) -> None:
    clock = farm.add()
    attach(clock, sink, auto_ack=True)
    for _ in range(3):
        clock.press(WireSide.A)
    sink.wait_presses(3)
    assert clock.wait_idle(2)
    first_boot = clock.boot_id
    clock.reboot()
    for _ in range(3):
        clock.press(WireSide.B)
    sink.wait_presses(6)
    sink.settle()
    check_exact(sink.presses, clock)
    assert clock.boot_id != first_boot
    assert [(p.seq, p.side.value) for p in sink.presses] == [
        (1, "a"),
        (2, "a"),
        (3, "a"),
        (1, "b"),
        (2, "b"),
        (3, "b"),
    ]
    # the referee is told the clock restarted
    assert f"zegar uruchomił się ponownie (poprzednio {first_boot:08x})" in render(
        sink.connects[-1].detail, "pl"
    )


def test_a_restarted_daemon_gets_every_unacknowledged_press_again(farm, sink, attach) -> None:
    clock = farm.add()
    crashed = attach(clock, sink)
    for _ in range(4):
        clock.press(WireSide.A)
    first = sink.wait_presses(4)
    crashed.acknowledge(first[0])  # journaled and acknowledged; the rest was not yet committed
    deadline = time.monotonic() + 10
    while clock.pending > 3 and time.monotonic() < deadline:
        time.sleep(0.002)  # the ACK crosses the pty
    crashed.stop()  # the daemon dies without closing anything politely
    assert clock.pending == 3
    after = Collector()
    attach(clock, after)  # a new process: a fresh driver knows nothing of the old one
    again = after.wait_presses(3)
    after.settle()
    assert [(p.boot_id, p.seq) for p in after.presses] == [(p.boot_id, p.seq) for p in first[1:]]
    assert [p.device_t_us for p in again] == [p.device_t_us for p in first[1:]]


def test_it_finds_its_own_clock_among_several_by_serial_number_and_usb_ids(farm, sink, attach) -> None:
    farm.add("SIM-A")
    farm.add("SIM-B", vid=0x0403, pid=0x6001)  # an FTDI adapter with the same serial: not ours
    mine = farm.add("SIM-B")
    farm.add("SIM-C")
    driver = attach(mine, sink, auto_ack=True)
    assert driver.path == mine.path
    mine.press(WireSide.B)
    (press,) = sink.wait_presses(1)
    assert press.device_id == "SIM-B" and press.side is CoreSide.B


@pytest.fixture
def polish() -> Iterator[None]:
    set_language("pl")  # what a referee reads, whatever DUELCLOCK_LANG says
    yield
    set_language(None)


def test_a_clock_speaking_a_newer_major_version_is_refused_with_a_reason(farm, sink, attach, polish) -> None:
    clock = farm.add(major=2, minor=0)
    driver = attach(clock, sink, connect=False)
    deadline = time.monotonic() + 5
    while clock.session.rejected is None and time.monotonic() < deadline:
        time.sleep(0.01)
    rejected = clock.session.rejected
    assert rejected is not None and rejected.reason is RejectReason.VERSION
    status = driver.status()
    assert status.state is DeviceState.DISCONNECTED
    ours = f"{PROTOCOL_MAJOR}.{PROTOCOL_MINOR}"
    assert "2.0" in render(status.detail, "pl")
    assert f"nowszym niż {ours}: zaktualizuj duelclock" in render(status.detail, "pl")
    clock.press(WireSide.A)
    sink.settle(0.2)
    assert not sink.presses and not sink.connects


def test_show_and_beep_reach_the_clock_and_the_display_survives_a_replug(farm, sink, attach) -> None:
    clock = farm.add()
    driver = attach(clock, sink)
    driver.show(TwoClocks(remaining_ms=PerSide[int](a=299_500, b=1_000), running=CoreSide.B, text="Runda 1"))
    driver.beep(Beep.FLAG)
    deadline = time.monotonic() + 2
    while (clock.display is None or not clock.beeps) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert clock.display is not None
    assert (clock.display.time_ms_a, clock.display.time_ms_b) == (299_500, 1_000)
    assert clock.display.running is WireSide.B and clock.display.text == "Runda 1"
    assert clock.beeps == [BeepPattern.FLAG]
    clock.reboot()  # a rebooted clock shows nothing until the host tells it again
    assert clock.display is None
    deadline = time.monotonic() + 2
    while clock.display is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert clock.display is not None and clock.display.time_ms_a == 299_500
    # and the clock's STATUS, what it really shows, comes back to the host
    while driver.last_status is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert driver.last_status is not None and driver.last_status.remaining_ms_b == 1_000


def test_a_fixed_port_refuses_a_clock_of_another_table(farm, sink, attach) -> None:
    clock = farm.add("SIM-WRONG")
    driver = attach(clock, sink, connect=False, match=None, port=clock.path, expect_device_id="SIM-RIGHT")
    deadline = time.monotonic() + 3
    while clock.session.rejected is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert clock.session.rejected is not None and clock.session.rejected.reason is RejectReason.WRONG_DEVICE
    assert "SIM-RIGHT" in render(driver.status().detail, "en")
    assert not driver.connected


def test_a_driver_needs_exactly_one_way_to_find_its_port() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        SerialClock(1)
    with pytest.raises(ValueError, match="exactly one"):
        SerialClock(1, port="/dev/ttyUSB0", match=PortMatch())


def test_events_are_connected_then_presses(farm, sink, attach) -> None:
    clock = farm.add()
    attach(clock, sink, auto_ack=True)
    clock.press(WireSide.A)
    sink.wait_presses(1)
    assert isinstance(sink.events[0], Connected) and isinstance(sink.events[1], DevicePress)


# -- across a reboot of the clock: nothing lost, nothing twice, in the order pressed ---------------


def check_timed(presses: list[DevicePress], clock: SimulatedSerialClock, within_ns: int = 5 * MS) -> None:
    for p in presses:
        truth = clock.record(p.boot_id, p.seq)
        assert truth is not None and p.time_source == "measured"
        assert abs(p.t_ns - truth.host_ns) < within_ns, (p.boot_id, p.seq, p.t_ns - truth.host_ns)


def test_presses_held_across_a_reboot_arrive_first_under_their_own_epoch_and_time(farm, sink, attach) -> None:
    clock = farm.add(drift_ppm=150)
    driver = attach(clock, sink)  # the daemon has not acknowledged anything yet when the power fails
    for _ in range(3):
        clock.press(WireSide.A)
        time.sleep(0.002)
    before = sink.wait_presses(3)
    driver.acknowledge(before[0])
    wait_until(lambda: clock.pending == 2, poll_s=0.002)
    old_boot = clock.boot_id
    clock.reboot()
    for _ in range(2):
        clock.press(WireSide.B)
    for p in sink.wait_presses(5)[3:]:
        driver.acknowledge(p)
    for p in before[1:]:
        driver.acknowledge(p)  # ACK(old epoch): the clock erases them from its store
    assert clock.wait_idle(2)
    sink.settle()
    check_exact(sink.presses, clock)  # each once, old epoch first, in the order pressed
    assert [p.boot_id for p in sink.presses] == [old_boot] * 3 + [clock.boot_id] * 2
    check_timed(sink.presses, clock)
    assert "SIM-0001" in sink.connects[-1].device_id
    assert f"(was boot {old_boot:08x})" in render(sink.connects[-1].detail, "en")


def test_a_clock_that_reboots_while_unplugged_loses_nothing(farm, sink, attach) -> None:
    clock = farm.add(drift_ppm=-120)
    attach(clock, sink, auto_ack=True)
    clock.press(WireSide.A)
    sink.wait_presses(1)
    clock.unplug()
    sink.wait_for(Disconnected)
    clock.press(WireSide.B)  # kept while the cable is out …
    clock.press(WireSide.A)
    clock.reboot()  # … through a power cut …
    clock.press(WireSide.B)  # … and the new epoch's press waits behind them
    clock.replug()
    sink.wait_presses(4)
    assert clock.wait_idle(2)
    sink.settle()
    check_exact(sink.presses, clock)
    check_timed(sink.presses, clock)


def test_reboots_in_a_row_keep_every_earlier_epoch_in_order(farm, sink, attach) -> None:
    clock = farm.add()
    attach(clock, sink, auto_ack=True)
    clock.unplug()
    boots = []
    for side in (WireSide.A, WireSide.B, WireSide.A):
        boots.append(clock.boot_id)
        clock.press(side)
        clock.press(side)
        clock.reboot()
    boots.append(clock.boot_id)
    clock.reboot()  # and once more with nothing pressed: an epoch with nothing to hold
    assert len(clock.session.held) == 3
    clock.press(WireSide.B)
    clock.replug()
    sink.wait_presses(7)
    assert clock.wait_idle(2)
    sink.settle()
    check_exact(sink.presses, clock)
    assert [p.boot_id for p in sink.presses] == [boots[0]] * 2 + [boots[1]] * 2 + [boots[2]] * 2 + [
        clock.boot_id
    ]
    # The driver heard the first epoch's clock; the next two lived and died while unplugged, so their
    # presses get a bound: no earlier than they happened, and close, as each reboot followed them at once.
    assert [p.time_source for p in sink.presses] == ["measured"] * 2 + ["upper-bound"] * 4 + ["measured"]
    check_timed(sink.presses[:2] + sink.presses[-1:], clock)
    for p in sink.presses[2:6]:
        truth = clock.record(p.boot_id, p.seq)
        assert truth is not None and 0 <= p.t_ns - truth.host_ns < 20 * MS


def test_a_reboot_while_the_daemon_is_down_too_bounds_the_held_presses_times(farm, sink, attach) -> None:
    clock = farm.add()
    crashed = attach(clock, sink)
    clock.press(WireSide.A)
    clock.press(WireSide.B)
    first = sink.wait_presses(2)
    crashed.acknowledge(first[0])
    wait_until(lambda: clock.pending == 1, poll_s=0.002)
    crashed.stop()  # the daemon dies; B1 was reported but never journaled
    old_boot = clock.boot_id
    clock.press(WireSide.A)  # pressed with no daemon listening
    time.sleep(0.02)
    clock.press(WireSide.B)
    time.sleep(0.005)
    clock.reboot()  # and then the clock loses power too: nobody knows its old time base any more
    clock.press(WireSide.A)
    after = Collector()
    attach(clock, after, auto_ack=True)  # a new daemon process
    again = after.wait_presses(4)
    assert clock.wait_idle(2)
    after.settle()
    assert [(p.boot_id, p.seq) for p in again] == [
        (old_boot, 2),
        (old_boot, 3),
        (old_boot, 4),
        (clock.boot_id, 1),
    ]
    assert [p.device_t_us for p in again[:1]] == [first[1].device_t_us]  # the original identity and stamp
    held, new = again[:3], again[3]
    assert [p.time_source for p in held] == ["upper-bound"] * 3
    for p in held:  # never before the press, and close: the clock rebooted right after its last press
        truth = clock.record(p.boot_id, p.seq)
        assert truth is not None and 0 <= p.t_ns - truth.host_ns < 20 * MS
    assert held[2].t_ns - held[1].t_ns == 1000 * (held[2].device_t_us - held[1].device_t_us)
    check_timed([new], clock)
