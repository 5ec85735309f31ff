"""What a serial clock shows is what the table's program shows: the real driver, a simulated clock, a pty.

A 1.2 clock is sent the program's face itself (SHOW_FACE): a hall event's countdown or
count-up, a text, two clocks. A clock that speaks 1.1 knows two faces only and is sent
the plain SHOW the protocol maps a face to (SPEC.md, SHOW_FACE). Either way the face is
shown again when the clock comes back, and the clock's STATUS says what it shows.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clockd.core.clock import PerSide, Side
from clockd.core.device import Countdown, Display, Text, TwoClocks
from clockd.devices.base import AnyDeviceInput
from clockd.devices.serial import PortMatch, SerialClock
from clockd.i18n import render
from firmware_protocol.messages import WireFace, WireShowFace, WireSide
from hw_sim.serial_clock import SerialClockFarm, SimulatedSerialClock
from tests.conftest import wait_until

MS = 1_000_000

RELAY = Countdown(ms=10_800_000, running=True, text="Sztafeta")
SO_FAR = Countdown(ms=754_000, up=True, text="META 12:31")
CHANGE = Text(text="ZMIANA")
DUEL = TwoClocks(remaining_ms=PerSide[int](a=299_500, b=1_000), running=Side.B, text="Runda 1")


@pytest.fixture
def farm() -> Iterator[SerialClockFarm]:
    with SerialClockFarm(seed=12) as f:
        yield f
    assert not f.errors, f"the simulator's thread failed: {f.errors!r}"


@pytest.fixture
def drivers() -> Iterator[list[SerialClock]]:
    started: list[SerialClock] = []
    yield started
    for driver in started:
        driver.stop()


def connect(farm: SerialClockFarm, clock: SimulatedSerialClock, drivers: list[SerialClock]) -> SerialClock:
    def ignore(event: AnyDeviceInput) -> None:
        pass

    driver = SerialClock(
        1,
        match=PortMatch(serial_number=clock.serial_number),
        list_ports=farm.list_ports,
        auto_ack=True,
        reconnect_min_ns=10 * MS,
        reconnect_max_ns=100 * MS,
    )
    drivers.append(driver)
    driver.start(ignore)
    assert driver.wait_connected(5), driver.status()
    return driver


def shown(clock: SimulatedSerialClock, face: WireShowFace) -> bool:
    return clock.display == face


@pytest.mark.parametrize(
    ("display", "face"),
    [
        (RELAY, WireShowFace(face=WireFace.COUNTDOWN, time_ms_a=10_800_000, ticking=True, text="Sztafeta")),
        (SO_FAR, WireShowFace(face=WireFace.COUNT_UP, time_ms_a=754_000, text="META 12:31")),
        (CHANGE, WireShowFace(face=WireFace.TEXT, text="ZMIANA")),
        (
            DUEL,
            WireShowFace(
                face=WireFace.TWO_CLOCKS,
                time_ms_a=299_500,
                time_ms_b=1_000,
                running=WireSide.B,
                text="Runda 1",
            ),
        ),
    ],
    ids=["countdown", "count-up", "text", "two-clocks"],
)
def test_a_1_2_clock_shows_the_programs_face_as_the_driver_sent_it(
    farm: SerialClockFarm, drivers: list[SerialClock], display: Display, face: WireShowFace
) -> None:
    clock = farm.add("DC-0012")
    driver = connect(farm, clock, drivers)
    assert driver.hello is not None and driver.hello.minor == 2
    driver.show(display)
    wait_until(lambda: shown(clock, face), timeout_s=5)
    # its STATUS, what it really shows, says the face too
    status = wait_until(lambda: driver.last_status, timeout_s=5)
    assert (status.face, status.ticking, status.text) == (face.face, face.ticking, face.text)
    assert (status.remaining_ms_a, status.remaining_ms_b, status.running) == (
        face.time_ms_a,
        face.time_ms_b,
        face.running,
    )


@pytest.mark.parametrize(
    ("display", "a", "b", "running"),
    [
        (RELAY, 10_800_000, 10_800_000, None),  # the one time on both faces, stopped
        (SO_FAR, 754_000, 754_000, None),
        (CHANGE, 0, 0, None),  # a text over two zero faces
        (DUEL, 299_500, 1_000, WireSide.B),
    ],
    ids=["countdown", "count-up", "text", "two-clocks"],
)
def test_a_1_1_clock_is_shown_the_two_faced_show_the_protocol_maps_a_face_to(
    farm: SerialClockFarm,
    drivers: list[SerialClock],
    display: Display,
    a: int,
    b: int,
    running: WireSide | None,
) -> None:
    clock = farm.add("DC-0011", minor=1)  # an older firmware: it skips SHOW_FACE as an unknown type
    driver = connect(farm, clock, drivers)
    assert driver.hello is not None and driver.hello.minor == 1
    assert "protocol 1.1, " in render(driver.status().detail, "en")  # the version both speak
    driver.show(display)
    face = WireShowFace(
        face=WireFace.TWO_CLOCKS, time_ms_a=a, time_ms_b=b, running=running, text=display.text
    )
    wait_until(lambda: shown(clock, face), timeout_s=5)


def test_the_face_is_shown_again_when_a_rebooted_clock_comes_back(
    farm: SerialClockFarm, drivers: list[SerialClock]
) -> None:
    clock = farm.add("DC-0013")
    driver = connect(farm, clock, drivers)
    driver.show(RELAY)
    relay = WireShowFace(face=WireFace.COUNTDOWN, time_ms_a=10_800_000, ticking=True, text="Sztafeta")
    wait_until(lambda: shown(clock, relay), timeout_s=5)
    driver.show(CHANGE)  # the latest face is the one remembered
    change = WireShowFace(face=WireFace.TEXT, text="ZMIANA")
    wait_until(lambda: shown(clock, change), timeout_s=5)
    clock.reboot()  # a new epoch, whose display is blank until the host shows it the face again
    wait_until(lambda: shown(clock, change), timeout_s=5)
    clock.unplug()
    driver.show(SO_FAR)  # shown while the cable is out: sent when the clock is back
    clock.replug()
    so_far = WireShowFace(face=WireFace.COUNT_UP, time_ms_a=754_000, text="META 12:31")
    wait_until(lambda: shown(clock, so_far), timeout_s=5)


def test_a_text_longer_than_the_wire_carries_is_cut_to_its_64_bytes(
    farm: SerialClockFarm, drivers: list[SerialClock]
) -> None:
    clock = farm.add("DC-0014")
    driver = connect(farm, clock, drivers)
    driver.show(Text(text="Ż" * 40))  # 40 characters, 80 bytes of UTF-8
    wait_until(lambda: shown(clock, WireShowFace(face=WireFace.TEXT, text="Ż" * 32)), timeout_s=5)
