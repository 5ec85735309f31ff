"""The web pages under a hall's load: 1000 open public pages against one daemon with 64 busy tables.

    python -m benchmarks.bench_web                    # ~1 minute
    python -m benchmarks.bench_web --seconds 10 --streams 200

A real daemon (journal on disk) in this process runs 64 simulated clocks whose players
keep pressing (``clockd.service.simclock``): eight Puzzle Duel sessions of 16 players,
each with its 8 first-round duels on 8 tables. First the daemon alone (**press-to-commit**
with no web client), then ``duelclock web`` in its own process and a client process that
opens ``--streams`` Server-Sent Event streams spread over the eight sessions' pages. Measured
in the same run:

* **press → arrival on the streams** (p50, p99, ms): from the simulated clock handing the
  press to the daemon to the moment a stream carries the table's new press count (on a
  sample of the streams — every stream receives the same bytes; parsing all 1000 would
  measure the client process instead);
* the **web process's CPU** (cores) and **memory** (RSS, its peak);
* the daemon's **press-to-commit p99** with the streams open, beside its value without.

Machines are shared and noisy: compare figures within one run. One JSON line per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import percentile
from clockd.api import Client
from clockd.cli.start import sample_signups
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.core.units import MS, SECOND
from clockd.devices.base import DevicePress
from clockd.service.runtime import Daemon, TableSpec
from clockd.service.simclock import SimulatedClocks
from clockd.service.tables import phase_of
from hw_sim.players import STEADY

SESSIONS = 8
TABLES_PER_SESSION = 8


def _raise_files() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20_000), hard))


def set_up(client: Client) -> None:
    """Eight sessions of the sample sign-ups, each with its 8 first-round duels on 8 tables."""
    for s in range(SESSIONS):
        key = f"s{s + 1}"
        client.act("", CreateEvent(event_kind="puzzle-duel", key=key))
        done = client.act(key, ImportSignups(csv=sample_signups(), source="sample-signups.csv"))
        for player in done.event.body.players:  # type: ignore[union-attr]
            if player.list == "main":
                client.act(key, CheckIn(player=player.id))
        client.act(key, CloseCheckIn())
        bracket = client.act(key, MakeDraw(seed=s)).event.body.bracket  # type: ignore[union-attr]
        ready = [m for m in bracket.matches if m.status == "ready" and m.a and m.b]
        for i, match in enumerate(ready[:TABLES_PER_SESSION]):
            table = s * TABLES_PER_SESSION + i + 1
            client.act(f"{key}/{match.id}", Assign(table=table))
            client.act(f"{key}/{match.id}", Toss(winner=match.a if i % 2 else match.b))


def proc_cpu_ns(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int((int(fields[11]) + int(fields[12])) * 1e9 / ticks)


def proc_mem_mb(pid: int) -> tuple[float, float]:
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


# -- the client process: many streams ----------------------------------------------------------------


async def _stream(port: int, path: str, sample: bool, out: list[tuple[int, int]], stop: float) -> None:
    """One page's stream, read in chunks; on a sampled one, when each newer journal seq arrived."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    last = -1
    mark = b'data: {"seq":'
    try:
        async with asyncio.timeout(max(0.1, stop - time.monotonic())):
            while True:
                chunk = await reader.read(1 << 16)
                if not chunk:
                    break
                if not sample:
                    continue
                i = chunk.rfind(mark)  # the newest state in what arrived
                if i < 0:
                    continue
                now = time.monotonic_ns()
                j = i + len(mark)
                seq = int(chunk[j : chunk.index(b",", j)])
                if seq > last:
                    out.append((seq, now))
                    last = seq
    except TimeoutError:
        pass
    finally:
        writer.close()


async def _clients(
    port: int, streams: int, sampled: int, seconds: float
) -> dict[int, list[list[tuple[int, int]]]]:
    """Every stream, each session's sampled ones' arrivals: ``{session: [[(seq, ns), …] per stream]}``."""
    out: dict[int, list[list[tuple[int, int]]]] = {s: [] for s in range(SESSIONS)}
    stop = time.monotonic() + seconds
    tasks = []
    for i in range(streams):
        session = i % SESSIONS
        path = f"/e/s{session + 1}/stream"
        mine: list[tuple[int, int]] = []
        if i < sampled:
            out[session].append(mine)
        tasks.append(asyncio.create_task(_stream(port, path, i < sampled, mine, stop)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # open them over a moment, as a hall's phones do
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


def clients_main(port: int, streams: int, sampled: int, seconds: float, out_path: Path) -> int:
    _raise_files()
    cpu0 = time.process_time()
    arrivals = asyncio.run(_clients(port, streams, sampled, seconds))
    out_path.write_text(json.dumps({"arrivals": arrivals, "cpu_s": time.process_time() - cpu0}))
    return 0


# -- the bench ----------------------------------------------------------------------------------------


def arrival_latencies(
    db: Path, sent: dict[tuple[int, int], int], arrivals: dict[str, list[list[list[int]]]], t_from: int
) -> list[int]:
    """For every press sent after ``t_from``: the time until each sampled stream of its session
    carried a state at or after the press's journal seq (the hub applies pushes in order)."""
    import bisect

    from clockd.store.journal import Journal

    journal = Journal.reader(db)
    out: list[int] = []
    try:
        for record in journal.read():
            entry: Any = record.entry
            if entry.kind != "press" or entry.table is None or entry.device_seq is None:
                continue
            at = sent.get((entry.table, entry.device_seq))
            if at is None or at < t_from:
                continue
            session = (entry.table - 1) // TABLES_PER_SESSION
            for stream in arrivals.get(str(session), []):
                seqs = [s for s, _ in stream]
                i = bisect.bisect_left(seqs, record.seq)
                if i < len(stream):
                    out.append(stream[i][1] - at)
    finally:
        journal.close()
    return out


def _emit(figure: str, value: Any, unit: str, **extra: Any) -> None:
    print(json.dumps({"bench": "web", "figure": figure, "value": value, "unit": unit, **extra}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--sampled", type=int, default=100)
    parser.add_argument("--clients", nargs=5, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients:
        port, streams, sampled, seconds, out = args.clients
        return clients_main(int(port), int(streams), int(sampled), float(seconds), Path(out))
    _raise_files()
    work = Path(tempfile.mkdtemp(prefix="bench-web-"))
    n_tables = SESSIONS * TABLES_PER_SESSION
    daemon = Daemon(
        work / "web.db",
        tables=[TableSpec(t, control="30m") for t in range(1, n_tables + 1)],
        port=0,
        write_daemon_info=False,
    )
    sims = SimulatedClocks(STEADY.think_ns, seed=64, start_delay_ns=SECOND)
    sent: dict[tuple[int, int], int] = {}  # (table, the device's seq) → when it first handed it over

    for t in range(1, n_tables + 1):
        seen = lambda t=t: phase_of(daemon.engine.current.tables[t], daemon.engine.now_ns())  # noqa: E731
        device = sims.device(t, phase_of=seen)
        start = device.start

        def recording(sink: Any, t: int = t, start: Any = start) -> None:
            def record(item: Any) -> None:
                if isinstance(item, DevicePress) and item.seq is not None:
                    sent.setdefault((t, item.seq), time.monotonic_ns())
                sink(item)

            start(record)

        device.start = recording  # type: ignore[method-assign]
        daemon.add_device(t, device)
    started = daemon.start()
    engine = daemon.engine
    assert engine is not None
    with Client("127.0.0.1", started.port, started.token, by="bench") as client:
        set_up(client)
    time.sleep(3)  # every table started (the toss losers' first presses)

    def press_to_commit(seconds: float) -> tuple[list[int], int]:
        engine.stats.keep_latencies = True
        engine.stats.latencies_ns.clear()
        time.sleep(seconds)
        got = list(engine.stats.latencies_ns)
        engine.stats.keep_latencies = False
        return got, len(got)

    alone, presses_alone = press_to_commit(args.seconds / 2)

    web_port = 18000 + os.getpid() % 1000
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(work)}
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clockd",
            "web",
            "--port",
            str(web_port),
            "--daemon-host",
            "127.0.0.1",
            "--daemon-port",
            str(started.port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import httpx

        for _ in range(200):
            try:
                if httpx.get(f"http://127.0.0.1:{web_port}/healthz", timeout=1).json()["daemon"]:
                    break
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.05)
        arrivals_file = work / "arrivals.json"
        ramp = 4.0
        clients = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.bench_web",
                "--clients",
                str(web_port),
                str(args.streams),
                str(args.sampled),
                str(args.seconds + ramp),
                str(arrivals_file),
            ],
        )
        time.sleep(ramp)  # the streams open
        pages = httpx.get(f"http://127.0.0.1:{web_port}/healthz", timeout=5).json()["pages"]
        cpu0, wall0 = proc_cpu_ns(web.pid), time.monotonic_ns()
        t_from = time.monotonic_ns()
        loaded, presses_loaded = press_to_commit(args.seconds)
        cpu = proc_cpu_ns(web.pid) - cpu0
        wall = time.monotonic_ns() - wall0
        rss, peak = proc_mem_mb(web.pid)
        dropped = httpx.get(f"http://127.0.0.1:{web_port}/healthz", timeout=5).json()["pages"]
        clients.wait(60)
        measured = json.loads(arrivals_file.read_text())
        arrivals, client_cpu_s = measured["arrivals"], measured["cpu_s"]
    finally:
        web.terminate()
        web.wait(10)
        daemon.stop()
        sims.stop()
    latencies = arrival_latencies(work / "web.db", sent, arrivals, t_from)
    _emit("streams_open", pages, "streams", asked=args.streams)
    _emit("streams_open_at_end", dropped, "streams")
    _emit("press_to_stream_p50", round(percentile(latencies, 0.50) / MS, 1), "ms", samples=len(latencies))
    _emit("press_to_stream_p99", round(percentile(latencies, 0.99) / MS, 1), "ms", samples=len(latencies))
    _emit("press_to_stream_max", round(max(latencies, default=0) / MS, 1), "ms")
    _emit("web_cpu", round(cpu / wall, 3), "cores")
    _emit("stream_client_process_cpu", round(client_cpu_s / (args.seconds + 4.0), 3), "cores")
    _emit("web_rss", round(rss, 1), "MB", peak=round(peak, 1))
    _emit("press_to_commit_p99_no_web", round(percentile(alone, 0.99) / MS, 2), "ms", presses=presses_alone)
    _emit(
        "press_to_commit_p99_with_streams",
        round(percentile(loaded, 0.99) / MS, 2),
        "ms",
        presses=presses_loaded,
    )
    _emit("presses_per_s", round(presses_loaded * SECOND / wall, 1), "presses/s", tables=n_tables)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
