"""``make run`` with port 8080 taken (issue 26, item 6): the live pages go to the next free port
and it says so; ``make run WEB=HOST:PORT`` reaches ``duelclock start --web``."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture
def port_8080_taken() -> Iterator[None]:
    """Another program listening on 8080 (or this test, if nothing else already is)."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("127.0.0.1", 8080))
        holder.listen()
    except OSError:
        pass  # another program holds it already: taken either way
    yield
    holder.close()


def test_make_run_serves_the_pages_on_a_free_port_when_8080_is_taken(
    port_8080_taken: None, tmp_path: Path
) -> None:
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "pl"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    # what `make run` runs (no display: the terminal view), as a user would see it
    proc = subprocess.Popen(
        [sys.executable, "-m", "clockd", "start", "--terminal"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        seen = []
        url = None
        for line in proc.stdout:
            seen.append(line)
            found = re.search(r"Strony na żywo: (http://127\.0\.0\.1:(\d+)/)", line)
            if found:
                url, port = found.group(1), int(found.group(2))
                break
        assert url is not None, "".join(seen) + (proc.stderr.read() if proc.stderr else "")
        assert port != 8080
        notice = "".join(seen)
        assert f"port 127.0.0.1:8080 zajmuje inny program: strony na żywo będą pod 127.0.0.1:{port}" in notice
        assert "make run WEB=HOST:PORT" in notice
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200 and "<html" in page.read().decode().lower()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_make_run_passes_web_to_duelclock_start() -> None:
    def command(*extra: str) -> str:
        dry = subprocess.run(
            ["make", "-n", "-C", str(ROOT), "run", *extra], capture_output=True, text=True, timeout=30
        )
        assert dry.returncode == 0, dry.stderr
        return next(line for line in dry.stdout.splitlines() if "duelclock start" in line)

    assert command("WEB=0.0.0.0:9000").endswith('duelclock start --web "0.0.0.0:9000"')
    assert command("WEB=").endswith('duelclock start --web ""')  # no pages
    assert command().rstrip().endswith("duelclock start")  # the default, or the next free port
