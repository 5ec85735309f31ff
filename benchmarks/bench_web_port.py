"""The web port at the usual file limit: 1 100 idle connections and 1 000 pages beside the referee.

    python -m benchmarks.bench_web_port                  # two runs, ~1 minute in all
    python -m benchmarks.bench_web_port --seconds 10 --idle 300 --pages 200

A ``duelclock run --web`` child (4 simulated tables; the pages in the daemon's own process)
starts with the soft file limit most systems give a process, 1 024, twice:

* ``raised``: its hard limit is this machine's, so the daemon raises the soft one at start;
* ``fixed``: the hard limit is 1 024 too; the daemon says so and keeps the web's connections
  below it, with a reserve for the API and the journal.

Each time this process (loopback only) holds ``--idle`` connections to the web port that
never send a request, reopening each one the server closes; opens ``--pages`` pages' event
streams (one that gets no answer within 15 s, or a refusal, tries again 2–5 s later, as a
browser's does; a stream the server ends is opened again); and pings the API as the referee,
on a new connection every 0.2 s.
Before this change (issue 29, item 3) the idle connections used every descriptor: the
referee's pings got 0 of 5 answers and 26 of 1 000 pages failed.

Figures, one JSON line each (``run``: which of the two): the soft file limit the daemon ran
with and the web's cap; pages loaded, and how long each took from its first try; the pings
answered and their latency; the idle connections the server closed (on the request timeout,
or refused beyond the cap) and the most held at once; the daemon's open files (peak) and RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import percentile
from benchmarks.bench_web import proc_mem_mb

USUAL_FILE_LIMIT = 1024


@contextlib.contextmanager
def daemon_with_pages(
    work: Path, files: tuple[int, int], *extra: str
) -> Iterator[tuple[subprocess.Popen[bytes], int, dict[str, Any]]]:
    """``duelclock run --sim 4 --web 127.0.0.1:0`` with the file limit ``files`` (soft, hard):
    the process, the web port and its ``daemon.json``. Its output goes to ``work/out.txt`` and
    ``work/err.txt`` (a pipe nobody reads would stop it once full)."""
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(work / "state"), "DUELCLOCK_LANG": "en"}
    out, err = work / "out.txt", work / "err.txt"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, files)

    command = [sys.executable, "-m", "clockd", "run", "--sim", "4", "--port", "0"]
    command += ["--db", str(work / "hall.db"), "--web", "127.0.0.1:0", *extra]
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr, preexec_fn=limit)
    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", out.read_text(errors="replace"))
            if found:
                port = int(found.group(1))
            elif proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the daemon did not start: {err.read_text(errors='replace')}")
            else:
                time.sleep(0.05)
        info = json.loads((work / "state" / "daemon.json").read_text())
        yield proc, port, info
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def soft_file_limit(pid: int) -> int:
    limits = Path(f"/proc/{pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)", limits)
    return int(found.group(1)) if found else -1


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


@dataclass
class Tally:
    idle_open: int = 0
    idle_open_peak: int = 0
    idle_closed: int = 0  # by the server, after the request timeout
    idle_connect_failed: int = 0
    load_ms: list[int] = field(default_factory=list)  # per page, from its first try
    page_refused: int = 0  # answers other than 200 (the page tries again)
    page_failed: int = 0  # connection errors, and tries that got no answer in time
    page_ended: int = 0  # streams the server ended after they loaded (opened again)
    ping_ms: list[int] = field(default_factory=list)
    pings_sent: int = 0
    files_peak: int = 0


async def idle(port: int, tally: Tally) -> None:
    """One connection that never sends a request, opened again whenever the server closes it."""
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            tally.idle_connect_failed += 1
            await asyncio.sleep(0.5)
            continue
        tally.idle_open += 1
        tally.idle_open_peak = max(tally.idle_open_peak, tally.idle_open)
        try:
            with contextlib.suppress(OSError):
                while await reader.read(4096):
                    pass
            tally.idle_closed += 1
        finally:
            tally.idle_open -= 1
            writer.close()
        await asyncio.sleep(0.2)  # and again (a hostile client does not give up)


async def page(port: int, tally: Tally) -> None:
    """A public page's event stream, kept open; its load time is counted once."""
    first_try = time.monotonic_ns()
    loaded = False
    request = b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    while True:
        writer = None
        try:
            async with asyncio.timeout(15):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                if b" 200 " not in head.split(b"\r\n", 1)[0]:
                    tally.page_refused += 1
                    raise LookupError
                await reader.readuntil(b"event: html")
            if not loaded:
                loaded = True
                tally.load_ms.append((time.monotonic_ns() - first_try) // 1_000_000)
            while await reader.read(1 << 16):
                pass
            tally.page_ended += 1
        except LookupError:
            pass
        except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            tally.page_failed += 1
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(2 + random.random() * 3)  # as web/static/live.js does after a refusal


async def referee(api_port: int, token: str, tally: Tally) -> None:
    """The desk's ping with the token, on a new connection every 0.2 s (as each command's is)."""
    line = json.dumps({"type": "ping", "id": 1, "token": token}).encode() + b"\n"
    while True:
        tally.pings_sent += 1
        started = time.perf_counter_ns()
        writer = None
        try:
            async with asyncio.timeout(5):
                reader, writer = await asyncio.open_connection("127.0.0.1", api_port)
                writer.write(line)
                if b'"pong"' in await reader.readline():
                    tally.ping_ms.append((time.perf_counter_ns() - started) // 1_000_000)
        except (OSError, TimeoutError):
            pass
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0.2)


async def watch_files(pid: int, tally: Tally) -> None:
    while True:
        tally.files_peak = max(tally.files_peak, open_files(pid))
        await asyncio.sleep(0.25)


async def load(pid: int, port: int, info: dict[str, Any], args: argparse.Namespace) -> Tally:
    tally = Tally()
    tasks = [
        asyncio.create_task(watch_files(pid, tally)),
        asyncio.create_task(referee(info["port"], info["token"], tally)),
    ]
    for i in range(args.idle):
        tasks.append(asyncio.create_task(idle(port, tally)))
        if i % 100 == 99:
            await asyncio.sleep(0.02)
    await asyncio.sleep(2.0)  # the idle ones are in
    for i in range(args.pages):
        tasks.append(asyncio.create_task(page(port, tally)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # a hall's phones over a second or so
    await asyncio.sleep(args.seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def health(port: int) -> dict[str, Any]:
    import httpx

    try:
        return dict(httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json())
    except (httpx.HTTPError, ValueError):
        return {}


def _emit(run: str, figure: str, value: Any, unit: str, **extra: Any) -> None:
    line = {"bench": "web_port", "run": run, "figure": figure, "value": value, "unit": unit, **extra}
    print(json.dumps(line), flush=True)


def one_run(name: str, files: tuple[int, int], work: Path, args: argparse.Namespace) -> None:
    with daemon_with_pages(work / name, files) as (proc, port, info):
        soft = soft_file_limit(proc.pid)
        tally = asyncio.run(load(proc.pid, port, info, args))
        port_stats = health(port).get("connections", {})
        rss, peak = proc_mem_mb(proc.pid)
    said = (work / name / "err.txt").read_text(errors="replace")
    _emit(name, "file_limit", soft, "files", started_with=files[0], hard=files[1], said="file limit" in said)
    _emit(name, "web_cap", port_stats.get("cap"), "connections")
    _emit(name, "pages_loaded", len(tally.load_ms), "pages", of=args.pages)
    for q, label in ((0.5, "p50"), (0.99, "p99"), (1.0, "max")):
        _emit(name, f"page_load_{label}", percentile(tally.load_ms, q), "ms")
    _emit(
        name,
        "page_tries_again",
        tally.page_refused + tally.page_failed,
        "tries",
        refused=tally.page_refused,
        ended_by_server=tally.page_ended,
    )
    _emit(name, "pings_answered", len(tally.ping_ms), "pings", of=tally.pings_sent)
    for q, label in ((0.5, "p50"), (0.99, "p99"), (1.0, "max")):
        _emit(name, f"ping_{label}", percentile(tally.ping_ms, q), "ms")
    _emit(name, "idle_held_peak", tally.idle_open_peak, "connections", of=args.idle)
    _emit(
        name,
        "idle_closed_by_server",
        tally.idle_closed,
        "connections",
        timed_out=port_stats.get("timed_out"),
        cap_reached=port_stats.get("full"),
    )
    _emit(name, "daemon_open_files_peak", tally.files_peak, "files", limit=soft)
    _emit(name, "daemon_rss", round(rss, 1), "MB", peak=round(peak, 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the load is held")
    parser.add_argument("--idle", type=int, default=1100)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--only", choices=("raised", "fixed"), default=None)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.idle + args.pages + 200  # this process holds every connection's other end
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard)
        )
    work = Path(tempfile.mkdtemp(prefix="bench-web-port-"))
    runs = {"raised": (USUAL_FILE_LIMIT, hard), "fixed": (USUAL_FILE_LIMIT, USUAL_FILE_LIMIT)}
    for name, files in runs.items():
        if args.only in (None, name):
            one_run(name, files, work, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
