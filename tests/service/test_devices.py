"""The daemon with the real drivers: a GPIO table on simulated pins, a serial clock on a pty.

What a referee would notice: presses from either kind of table become moves on the
table's clock, are journaled, reach the status; the serial clock hears its ACK only after
the journal has the press, shows the daemon's times, and keeps nothing unacknowledged.
"""

from __future__ import annotations

import time
from pathlib import Path

from clockd.api import Client
from clockd.core.units import MS
from clockd.devices.gpio import GpioTable
from clockd.devices.gpio_config import TableConfig
from clockd.devices.serial import PortMatch, SerialClock
from clockd.service.runtime import Daemon, TableSpec
from firmware_protocol.messages import WireSide
from hw_sim.gpio import ScriptedFactory
from hw_sim.serial_clock import SerialClockFarm
from tests.conftest import wait_until


def test_a_gpio_table_plays_through_the_daemon(tmp_path: Path, pi: ScriptedFactory) -> None:
    daemon = Daemon(tmp_path / "j.db", tables=[TableSpec(1, control="5m")], port=0, write_daemon_info=False)
    daemon.add_device(1, GpioTable(TableConfig(number=1, button_a=17, button_b=27), pin_factory=pi))
    daemon.start()
    try:
        assert daemon.engine is not None
        t = time.monotonic_ns() - 2_000 * MS  # edges the kernel stamped a moment ago
        for i, pin in enumerate((27, 17, 27, 17)):  # B starts A's time; A, B, A move
            tap = pi.scripted_pin(pin)
            tap.drive_at(0, t + i * 300 * MS)
            tap.drive_at(1, t + i * 300 * MS + 80 * MS)
        wait_until(lambda: daemon.engine.current.tables[1].presses == 4)
        with Client(port=daemon.port) as client:
            view = client.status().tables[0]
        assert (view.program.clock.moves.a, view.program.clock.moves.b) == (
            2,
            1,
        ) and view.program.clock.running == "b"
        assert view.device.state == "connected" and view.device.device_id == "gpio:1"
        presses = [r.entry for r in daemon.engine.journal.read() if r.entry.kind == "press"]
        assert [p.t_ns - t for p in presses] == [0, 300 * MS, 600 * MS, 900 * MS]  # the edge instants
    finally:
        daemon.stop()


def test_a_serial_clock_is_acknowledged_only_after_the_journal_and_shows_the_daemons_times(
    tmp_path: Path,
) -> None:
    with SerialClockFarm(seed=5) as farm:
        sim = farm.add("DC-0001", drift_ppm=120)
        daemon = Daemon(
            tmp_path / "j.db", tables=[TableSpec(1, control="5m")], port=0, write_daemon_info=False
        )
        driver = SerialClock(1, match=PortMatch(serial_number="DC-0001"), list_ports=farm.list_ports)
        daemon.add_device(1, driver)
        daemon.start()
        try:
            assert daemon.engine is not None
            assert driver.wait_connected(5)
            made = []
            for side in (WireSide.B, WireSide.A, WireSide.B):
                made.append(sim.press(side))
                time.sleep(0.15)
            wait_until(lambda: sim.pending == 0)  # every ACK came back ...
            journal = {
                (r.entry.device_epoch, r.entry.device_seq): r.entry
                for r in daemon.engine.journal.read()
                if r.entry.kind == "press"
            }
            for record in made:  # ... and each was for a journaled press, stamped when it happened
                assert record is not None
                press = journal[(str(record.boot_id), record.seq)]
                assert abs(press.device_t_ns - record.host_ns) < 2 * MS
            wait_until(lambda: sim.display is not None and sim.display.running == WireSide.A)
            view = Client(port=daemon.port).status().tables[0]
            assert (view.program.clock.moves.a, view.program.clock.moves.b) == (1, 1)
            assert abs(sim.display.time_ms_b - view.program.clock.remaining_ms.b) <= 1
            assert view.device.state == "connected" and view.device.device_id == "DC-0001"
        finally:
            daemon.stop()
