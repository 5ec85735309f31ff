"""A serial clock that reboots while the daemon is down too: the daemon journals every press it
kept, once, in the order pressed — and tells the referee that their times are only bounds.

The real daemon (journal, engine, API), the real serial driver, a simulated clock on a pty.
"""

from __future__ import annotations

import time
from pathlib import Path

from clockd.api import Client
from clockd.devices.serial import PortMatch, SerialClock
from clockd.i18n import render
from clockd.service.engine import Engine
from clockd.service.runtime import Daemon, TableSpec
from clockd.service.tables import TIME_UNCERTAIN, Tables
from clockd.service.views import state_digest
from clockd.store.journal import Journal
from firmware_protocol.messages import WireSide
from hw_sim.serial_clock import SerialClockFarm, SimulatedSerialClock
from tests.conftest import wait_until

MS = 1_000_000


def start_daemon(db: Path, farm: SerialClockFarm, sim: SimulatedSerialClock) -> Daemon:
    daemon = Daemon(db, tables=[TableSpec(1, control="5m")], port=0, write_daemon_info=False)
    driver = SerialClock(1, match=PortMatch(serial_number=sim.serial_number), list_ports=farm.list_ports)
    daemon.add_device(1, driver)
    daemon.start()
    assert driver.wait_connected(5)
    return daemon


def test_presses_kept_across_a_reboot_while_the_daemon_was_down_are_journaled_and_flagged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.db"
    with SerialClockFarm(seed=12) as farm:
        sim = farm.add("DC-0001", drift_ppm=80)
        daemon = start_daemon(db, farm, sim)
        try:
            sim.press(WireSide.B)  # B starts A's time
            wait_until(lambda: sim.pending == 0)
        finally:
            daemon.stop()
        sim.press(WireSide.A)  # with no daemon running: the clock keeps them …
        time.sleep(0.05)
        sim.press(WireSide.B)
        sim.reboot()  # … through a power cut
        sim.press(WireSide.A)
        daemon = start_daemon(db, farm, sim)
        try:
            wait_until(lambda: sim.pending == 0)  # every press journaled and acknowledged
            assert daemon.engine is not None
            journaled = [r.entry for r in daemon.engine.journal.read() if r.entry.kind == "press"]
            with Client(port=daemon.port) as client:
                status = client.status()
            view = status.tables[0]
        finally:
            daemon.stop()
    # each press once, in the order it was made, under its own epoch
    made = [(str(r.boot_id), r.seq) for r in sim.presses]
    assert [(p.device_epoch, p.device_seq) for p in journaled] == made
    assert [p.time_source for p in journaled] == ["measured", "upper-bound", "upper-bound", "measured"]
    assert (view.program.clock.moves.a, view.program.clock.moves.b) == (2, 1)
    # the referee sees why two moves' times are uncertain
    (alert,) = [a for a in view.alerts if a.code == TIME_UNCERTAIN]
    assert alert.data["presses"] == 2 and alert.data["device_id"] == "DC-0001"
    assert "clock DC-0001 re-sent 2 press(es)" in render(alert.text, "en")
    assert "zegar DC-0001 wysłał ponownie naciśnięcia" in render(alert.text, "pl")
    # and each bound lies no earlier than the press it stands for
    for event, truth in zip(journaled[1:3], sim.presses[1:3], strict=True):
        assert 0 <= event.device_t_ns - truth.host_ns < 50 * MS
    # the alert is part of the table's state: replaying the journal's events alone rebuilds it
    replay = Engine(Journal.reader(db), boot_id="audit", tables=Tables())
    replay.rebuild(use_snapshots=False, upto=status.seq)
    assert state_digest(replay.current.tables[1]) == view.digest
    replay.journal.close()
