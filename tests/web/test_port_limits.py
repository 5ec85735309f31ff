"""The web port cannot take the referee's API down (issue 29, item 3).

With the pages in the daemon's process and its file limit, 1 100 idle TCP connections to the
web port used every descriptor: the referee's pings got 0 of 5 answers, pages 0 of 5, and
nothing was ever closed. Here a real ``duelclock run --web`` child runs with a low file limit
(``RLIMIT_NOFILE``) and a short request timeout; this process opens more idle connections
than that limit.
"""

from __future__ import annotations

import contextlib
import re
import resource
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx

from benchmarks.bench_web_port import daemon_with_pages as bench_daemon
from clockd.api import Client
from tests.conftest import wait_until

TIMEOUT_S = 1.0


@contextlib.contextmanager
def daemon_with_pages(
    tmp_path: Path, files: tuple[int, int]
) -> Iterator[tuple[subprocess.Popen[bytes], int, dict]]:
    """``duelclock run --web`` (the benchmark's) with the file limit ``files`` and a short timeout."""
    with bench_daemon(tmp_path, files, "--web-request-timeout", str(TIMEOUT_S)) as started:
        yield started


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
    with daemon_with_pages(tmp_path, (600, 600)) as (_proc, port, info):
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(700)]  # more than the limit
        try:
            # the referee's API still answers while every idle connection is open
            assert ping(info)
            # the web port took only as many as it may hold; the rest wait in the kernel's queue
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["connections"]
            assert health["open"] <= health["cap"] < 600 - 256  # below the limit, with the API's reserve
            # every idle connection is closed after the request timeout (none sent a request),
            # the queued ones once they were taken; and a page loads
            wait_until(lambda: all(closed_by_server(s) for s in idle), timeout_s=30)
            assert _loads(port)
            assert ping(info)
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["connections"]
            assert health["timed_out"] >= 700 and health["full"] >= 1
        finally:
            for sock in idle:
                sock.close()
    said = (tmp_path / "err.txt").read_text()
    assert "the file limit is 600" in said  # and the system allows no more: said at start


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
    # the daemon's hard limit: this machine's, at most 8192 (a machine below that tests the
    # other branch: the limit raised only as far as the system allows, the cap below it)
    child_hard = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    with daemon_with_pages(tmp_path, (1024, child_hard)) as (proc, port, _info):
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        soft = int(re.search(r"Max open files\s+(\d+)", limits).group(1))  # type: ignore[union-attr]
        cap = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["connections"]["cap"]
        if child_hard >= 8192:
            assert soft > 1024
            assert cap == 4096
        else:
            assert soft == child_hard  # raised as far as the hard limit allows
            assert cap < min(4096, soft - 256)  # with the API's and the journal's reserve


def _loads(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
