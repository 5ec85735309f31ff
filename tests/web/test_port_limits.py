"""The web port cannot take the referee's API down (issue 29, item 3).

With the pages in the daemon's process and its file limit, 1 100 idle TCP connections to the
web port used every descriptor: the referee's pings got 0 of 5 answers, pages 0 of 5, and
nothing was ever closed. Here a real ``duelclock run --web`` child runs with a low file limit
(``RLIMIT_NOFILE``) and a short request timeout; this process opens more idle connections
than that limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from clockd.api import Client
from tests.conftest import wait_until

TIMEOUT_S = 1.0


@contextlib.contextmanager
def daemon_with_pages(
    tmp_path: Path, files: tuple[int, int]
) -> Iterator[tuple[subprocess.Popen[str], int, dict]]:
    """``duelclock run --web 127.0.0.1:0`` whose file limit is ``files`` (soft, hard); the
    process, the web port and its ``daemon.json``."""
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, files)

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clockd",
            "run",
            "--sim",
            "1",
            "--port",
            "0",
            "--db",
            str(tmp_path / "hall.db"),
            "--web",
            "127.0.0.1:0",
            "--web-request-timeout",
            str(TIMEOUT_S),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    try:
        assert proc.stdout is not None
        port = None
        for line in proc.stdout:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        assert port, proc.stderr.read() if proc.stderr else "the pages did not start"
        info = json.loads((tmp_path / "state" / "daemon.json").read_text())
        yield proc, port, info
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()


def ping(info: dict) -> bool:
    with Client(port=info["port"], token=info["token"], retry=False, timeout_ms=5000) as desk:
        return desk.ping() is not None


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (after a 503, or without a word)."""
    sock.setblocking(False)
    try:
        while sock.recv(4096):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_idle_connections_to_the_web_port_leave_the_api_and_the_pages_served(tmp_path: Path) -> None:
    with daemon_with_pages(tmp_path, (320, 320)) as (proc, port, info):
        assert proc.stderr is not None
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(400)]  # more than the limit
        try:
            # the referee's API still answers while every idle connection is open
            assert ping(info)
            # a page loads: at once if there was room, else once the idle ones were closed
            wait_until(lambda: _loads(port), timeout_s=15)
            # every idle connection is closed by the server: beyond the cap at once, the rest
            # after the request timeout (none sent a request)
            wait_until(lambda: all(closed_by_server(s) for s in idle), timeout_s=15)
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["connections"]
            assert health["cap"] < 320  # below the file limit, with the API's reserve
            assert health["refused"] + health["timed_out"] >= 400
            assert ping(info)
        finally:
            for sock in idle:
                sock.close()
        proc.terminate()
        proc.wait(10)
        said = proc.stderr.read()
    assert "the file limit is 320" in said  # and the system allows no more: said at start


def test_a_connection_sending_its_headers_slowly_is_closed(tmp_path: Path) -> None:
    with daemon_with_pages(tmp_path, (2048, 2048)) as (_, port, _info):
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        def dropped() -> bool:
            try:
                slow.sendall(b"X-Slow: 1\r\n")  # a header line now and then, never the end
            except OSError:
                return True
            return closed_by_server(slow)

        wait_until(dropped, timeout_s=10, poll_s=0.2)
        slow.close()


def test_the_file_limit_is_raised_at_start_where_the_system_allows(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 8192:
        pytest.skip(f"this machine's hard file limit is {hard}")
    with daemon_with_pages(tmp_path, (1024, hard)) as (proc, port, _info):
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        soft = int(re.search(r"Max open files\s+(\d+)", limits).group(1))  # type: ignore[union-attr]
        assert soft > 1024
        cap = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["connections"]["cap"]
        assert cap == 4096


def _loads(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
