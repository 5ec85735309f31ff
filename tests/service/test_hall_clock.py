"""The hall's clock on a clock face: the same in every kind that holds it (a timer, a team event).

A hall event's signal tables that are not its stations are its clock faces: a serial clock
there shows the event's time left — ticking while it runs, still when the referee pauses —
and sounds the end when the referee calls time. The ``timer`` kind and the zone's contests
hold one hall-clock part (:mod:`clockd.service.hallclock`), so the referee sees the same on
both. Real drivers on pseudo-terminals, the daemon's real clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api import Client
from clockd.core.actions import CreateEvent
from clockd.core.hall import TimerEnd, TimerPause, TimerStart
from clockd.devices.serial import PortMatch, SerialClock
from clockd.service.runtime import Daemon, TableSpec
from firmware_protocol.messages import WireFace
from hw_sim.serial_clock import SerialClockFarm
from tests.conftest import wait_until

HOUR_MS = 3_600_000
CONFIGS = {
    "timer": 'name = "Zegar sali"\nduration = "60m"\nsignal_every = "5m"\ndevices = [1]\n',
    "team": 'name = "Drużyny"\nduration = "60m"\nsignal_every = "5m"\nentries = ["a", "b"]\ndevices = [1]\n',
}


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[Any, Client]]:
    with SerialClockFarm(seed=3) as farm:
        sim = farm.add("DC-0101")
        daemon = Daemon(tmp_path / "j.db", tables=[TableSpec(1)], port=0, write_daemon_info=False)
        driver = SerialClock(1, match=PortMatch(serial_number="DC-0101"), list_ports=farm.list_ports)
        daemon.add_device(1, driver)
        started = daemon.start()
        client = Client("127.0.0.1", started.port, started.token, by="Sędzia")
        try:
            assert driver.wait_connected(5)
            yield sim, client
        finally:
            client.close()
            daemon.stop()


@pytest.mark.parametrize("kind", ["timer", "team"])
def test_a_clock_face_shows_the_hall_time_ticking_still_when_paused_and_sounds_the_end(
    hall: tuple[Any, Client], kind: str
) -> None:
    sim, client = hall
    client.act("", CreateEvent(event_kind=kind, key="sala", config_toml=CONFIGS[kind]))
    client.act("sala", TimerStart())
    wait_until(lambda: sim.display is not None and sim.display.face == WireFace.COUNTDOWN)
    assert sim.display.ticking
    assert sim.display.time_ms_a == HOUR_MS  # the whole hour left, shown at the start's instant

    client.act("sala", TimerPause(reason="przerwa"))
    wait_until(lambda: sim.display.face == WireFace.COUNTDOWN and not sim.display.ticking)
    timer = client.events(["sala"]).events[0].body.timer
    assert timer.phase == "paused"
    assert sim.display.time_ms_a == timer.remaining_ms < HOUR_MS  # what the desk says is left
    assert sim.beeps == []  # a start and a pause sound nothing

    client.act("sala", TimerEnd(reason="koniec"))
    wait_until(lambda: len(sim.beeps) == 1)  # the referee called time: the end sounds
    assert client.events(["sala"]).events[0].body.timer.phase == "ended"
