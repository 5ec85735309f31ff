"""The daemon when its journal's files change under it: a deleted ``-wal`` or ``-shm`` stops the
engine before anything more is acknowledged, the acknowledged presses are kept, and the daemon
starts again on the journal with every event."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clockd.api import Client
from clockd.core.clock import Side
from clockd.core.units import SECOND
from clockd.store import Journal, JournalChanged
from tests.conftest import wait_until


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_removed_wal_or_shm_stops_the_engine_before_the_next_acknowledgement(
    suffix: str, make_engine, device_factory, clock, crash_engine, tmp_path: Path
) -> None:
    engine, _ = make_engine(tables=(1,))
    device = device_factory(1, check_journal=False)
    device.start(engine.attach(1, device))
    device.press(Side.B, clock.advance(SECOND))
    wait_until(lambda: len(device.acked) == 1)
    (tmp_path / f"journal.db{suffix}").unlink()

    device.press(Side.A, clock.advance(SECOND))
    assert engine.wait(10_000)  # the engine stopped by itself
    assert isinstance(engine.failure, JournalChanged)
    assert f"journal.db{suffix} was removed while the daemon was writing" in str(engine.failure)
    assert len(device.acked) == 1  # the press after the damage was never acknowledged
    crash_engine(engine)

    with Journal(tmp_path / "journal.db") as j:  # the acknowledged press was saved into the journal
        journaled = {(r.entry.device_id, r.entry.device_seq) for r in j.read() if r.entry.kind == "press"}  # type: ignore[attr-defined]
    assert {(p.device_id, p.seq) for p in device.acked} <= journaled
    make_engine(tables=(1,))  # and the daemon starts again on it


def test_the_daemon_stops_by_itself_when_its_wal_is_removed_and_starts_again_with_every_event(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}
    db = tmp_path / "festival.db"
    run = [
        sys.executable,
        "-m",
        "clockd",
        "run",
        "--sim",
        "2",
        "--port",
        "0",
        "--think-ms",
        "60",
        "--db",
        str(db),
    ]

    def start() -> tuple[subprocess.Popen[str], list[str]]:
        proc = subprocess.Popen(run, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        banner = []
        for line in proc.stdout:
            banner.append(line)
            if line.startswith("Clocks:"):
                return proc, banner
        raise AssertionError(f"no banner: {banner}")

    proc, _ = start()
    try:
        port = int(next(line for line in _ if "API:" in line).rsplit(":", 1)[1])
        with Client(port=port) as client:
            reached = wait_until(lambda: (s := client.status().seq) > 20 and s)
        Path(f"{db}-wal").unlink()
        assert proc.wait(30) == 1
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert f"{db}-wal was removed while the daemon was writing the journal" in err
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, banner = start()
    try:
        assert "resumed" in banner[1]
        replayed = int(banner[1].split("events replayed: ")[1].split()[0])
        assert replayed >= reached
    finally:
        proc.terminate()
        assert proc.wait(15) == 0
