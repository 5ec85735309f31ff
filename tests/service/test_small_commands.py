"""Small commands with a cost (issue 26, item 6), against a real ``duelclock run`` process:
``status | head -1`` is not "no daemon", ``journal verify`` finds the journal ``daemon.json``
names, and ``sim press`` presses a simulated table's button by hand (a station's "finished")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import wait_until


class Hall:
    """One ``duelclock run --sim 3`` with its journal in the hall's folder, and the commands beside it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.hall = root / "hall"
        self.hall.mkdir()
        self.env = {**os.environ, "DUELCLOCK_STATE_DIR": str(root / "state"), "DUELCLOCK_LANG": "pl"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "clockd", "run", "--sim", "3", "--port", "0", "--db", "festiwal.db"],
            cwd=self.hall,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        banner = []
        for line in self.proc.stdout:
            banner.append(line)
            if line.startswith("Zegary:"):
                break
        else:
            raise AssertionError(f"the daemon did not start: {banner}")

    def run(
        self, *args: str, cwd: Path | None = None, stdout: int | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "clockd", *args],
            cwd=cwd or self.root,
            env=self.env,
            stdout=subprocess.PIPE if stdout is None else stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(15)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    h = Hall(tmp_path_factory.mktemp("small"))
    yield h
    h.stop()


def test_a_closed_pipe_is_not_a_dead_daemon(hall: Hall) -> None:
    # `duelclock status | head -1`: head has read its line and gone before status writes the rest
    read, write = os.pipe()
    os.close(read)
    try:
        done = hall.run("status", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0
    assert "demon" not in done.stderr and done.stderr == ""
    # the same daemon answers, and a stopped reader of --watch is no failure either
    assert hall.run("status").returncode == 0


def test_journal_verify_checks_the_journal_the_daemon_named(hall: Hall) -> None:
    # the daemon was started in the hall's folder with --db festiwal.db; verify runs elsewhere, no --db
    done = hall.run("journal", "verify", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert Path(report["db"]) == hall.hall / "festiwal.db"
    assert report["ok"] and report["events"] > 0
    human = hall.run("journal", "verify")
    assert f"Dziennik: {hall.hall / 'festiwal.db'}" in human.stdout


def test_a_station_s_finished_button_is_pressed_by_hand(hall: Hall) -> None:
    assert hall.run("event", "new", "druzynowy", "--kind", "team").returncode == 0
    for n, name in ((1, "Smoki"), (2, "Elfy")):
        added = hall.run("event", "add", "druzynowy", f"druzyna-{n}", "--name", name, "--table", str(n))
        assert added.returncode == 0, added.stderr
    assert hall.run("event", "start", "druzynowy").returncode == 0
    pressed = hall.run("sim", "press", "2", "a")
    assert pressed.returncode == 0, pressed.stderr
    assert "stolik 2: naciśnięto stronę A" in pressed.stdout

    def finished() -> list[str]:
        shown = json.loads(hall.run("event", "show", "druzynowy", "--json").stdout)
        return [e["entry"] for e in shown["body"]["entries"] if e.get("finished_ms") is not None]

    assert wait_until(finished) == ["druzyna-2"]  # the button at table 2: Elfy finished
    timeline = hall.run("table", "2", "timeline")
    assert "naciśnięcie: strona A" in timeline.stdout
    # a table this daemon does not simulate is refused with a sentence, and nothing is pressed
    refused = hall.run("sim", "press", "7", "b")
    assert refused.returncode == 2 and "stolik 7 nie jest symulowanym stolikiem tego demona" in refused.stderr
    assert "symulowane: 1, 2, 3" in refused.stderr
