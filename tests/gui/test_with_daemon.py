"""End to end: the real daemon (``duelclock run --sim``) in its own process, the GUI on its API.

Simulated players press simulated serial clocks through the real driver; the referee
window shows their presses and pauses a table with a click, and the daemon's own
state and journal say the pause happened.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from clockd.api import Client, read_info
from gui.adapter import DaemonConnection
from gui.model import DeskModel
from gui.referee import RefereeWindow


@pytest.fixture
def daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[subprocess.Popen[bytes]]:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path))
    cmd = [sys.executable, "-m", "clockd", "run", "--sim", "2", "--port", "0", "--db", str(tmp_path / "j.db"),
           "--think-ms", "300", "--seed", "3"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while (info := read_info()) is None or info.pid != proc.pid:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"duelclock run did not start: {err}")
        time.sleep(0.05)
    yield proc
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_the_referee_window_on_a_real_daemon(daemon: subprocess.Popen[bytes], qtbot: QtBot) -> None:
    model = DeskModel()
    conn = DaemonConnection(model, by="Ola")  # address and token from the daemon's daemon.json
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()

    # the simulated players are pressing: the presses reach the screen
    qtbot.waitUntil(
        lambda: (
            1 in model.state.tables and model.state.tables[1].moves.a + model.state.tables[1].moves.b >= 2
        ),
        timeout=15_000,
    )
    window.select_table(1)
    qtbot.waitUntil(lambda: model.state.tables[1].phase == "running", timeout=5000)
    shown = {i.role: i.text for i in window.tables.items_with(key="1")}
    table = model.state.tables[1]
    assert shown["moves-a"].startswith(f"ruchy {table.moves.a}")
    assert shown["time-a"] and shown["time-b"]

    pause = next(b for b in window.findChildren(QToolButton) if b.defaultAction() is window.act_pause)
    qtbot.waitUntil(pause.isEnabled, timeout=3000)
    qtbot.mouseClick(pause, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.state.tables[1].phase == "paused", timeout=5000)
    qtbot.waitUntil(lambda: any(i.text == "PAUZA" for i in window.tables.items_with(key="1", role="phase")),
                    timeout=2000)  # fmt: skip

    # the daemon itself says so, and its journal names who paused
    with Client.local() as client:
        assert client.status([1]).tables[0].phase == "paused"
        pauses = [e for e in client.timeline(1).entries if e.kind == "pause"]
    assert pauses and pauses[-1].data.get("by") == "Ola"
    qtbot.waitUntil(lambda: any(i.kind == "pause" for i in model.state.timelines.get(1, ())), timeout=3000)
    conn.stop()
