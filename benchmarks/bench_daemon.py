"""The daemon under load: 16, 128 and 512 tables of simulated players at human press rates.

    python -m benchmarks.bench_daemon                  # ~2 minutes
    python -m benchmarks.bench_daemon --seconds 5      # quicker, noisier

For each table count, a real daemon (journal on disk, WAL + synchronous=FULL, API server
with one tokenless subscriber reading the whole stream, timeline included, in its own
process as a GUI or the web process would be) runs in-process simulated
players (``clockd.service.simclock``; a turn takes ~4 s, log-normal) for a fixed time.
Measured:

* **press-to-commit latency**: from the device handing the press to the daemon's sink to
  the end of the commit that made it durable — p50, p99, max (ms);
* **commits/s** (disk flushes) and **events/s** journaled: group commit shows as
  events per commit above 1 when presses arrive together;
* **CPU**: the process's CPU time over wall time (1.0 = one core; players included, the
  subscriber's process not);
* the **floor**, beside each table count and in the same run: a bare SQLite commit of a
  small row (WAL, ``synchronous=FULL``, same folder) paced at the commit rate the daemon
  just had (exponential gaps, as presses arrive: a disk left idle between commits is slower
  than one committing back to back), its p50 and p99, and the daemon's figures over it;
* the **subscriber** (tokenless, timeline included, reading every push): how many pushes it
  got and whether the daemon dropped it (``subscriber_dropped``: it must stay at 0).

Then **capacity** (a burst of 20 000 presses queued at once: how fast they are
journaled) and **restart**: a journal of 200 000 events is recovered with and without a
snapshot.

Machines are shared and noisy: compare ratios within one run. One JSON line at the end.
"""

from __future__ import annotations

import argparse
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
from clockd.api import Subscription
from clockd.core.clock import Side
from clockd.core.units import MS, SECOND
from clockd.devices.base import DevicePress
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.entries import TableCreated
from clockd.service.runtime import Daemon, TableSpec
from clockd.service.simclock import SimulatedClocks
from clockd.service.tables import phase_of
from clockd.store.journal import Journal
from hw_sim.players import STEADY


def cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return int((usage.ru_utime + usage.ru_stime) * 1e9)


def paced_floor(path: Path, rate_per_s: float, seconds: float, seed: int = 1) -> dict[str, Any]:
    """A bare SQLite commit of a small row (WAL, synchronous=FULL) every ~``1/rate`` s, as the
    daemon commits: the disk's floor for press → commit at that pace (p50, p99 in ms)."""
    import random
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS floor (seq INTEGER PRIMARY KEY, t_ns INTEGER, body TEXT)")
    rng = random.Random(seed)
    body = '{"kind":"press","side":"a","device_id":"sim-1","seq":1}'
    took: list[int] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(rng.expovariate(max(rate_per_s, 1.0)))
        t0 = time.monotonic_ns()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO floor (t_ns, body) VALUES (?, ?)", (t0, body))
        db.execute("COMMIT")
        took.append(time.monotonic_ns() - t0)
    db.close()
    return {
        "floor_commits": len(took),
        "floor_ms_p50": round(percentile(took, 0.50) / MS, 3),
        "floor_ms_p99": round(percentile(took, 0.99) / MS, 3),
    }


def with_floor(run: dict[str, Any], workdir: Path, seconds: float) -> dict[str, Any]:
    """``run`` (a :func:`load` result) with the paced floor measured now, and the ratios over it."""
    floor = paced_floor(workdir / f"floor-{run['tables']}.db", run["commits_per_s"], seconds)
    out = {**run, **floor}
    for q in ("p50", "p99"):
        f = floor[f"floor_ms_{q}"]
        out[f"{q}_over_floor"] = round(run[f"latency_ms_{q}"] / f, 2) if f else None
    return out


def load(tables: int, seconds: float, workdir: Path) -> dict[str, Any]:
    daemon = Daemon(
        workdir / f"load-{tables}.db",
        tables=[TableSpec(t, control="30m") for t in range(1, tables + 1)],
        port=0,
        write_daemon_info=False,
    )
    sims = SimulatedClocks(STEADY.think_ns, seed=tables, start_delay_ns=SECOND)
    for t in range(1, tables + 1):
        seen = lambda t=t: phase_of(daemon.engine.current.tables[t], daemon.engine.now_ns())  # noqa: E731
        daemon.add_device(t, sims.device(t, phase_of=seen))
    daemon.start()
    engine = daemon.engine
    assert engine is not None
    reader = subprocess.Popen(
        [sys.executable, __file__, "--subscriber", str(daemon.port)],  # by path: see compare.py
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(5)  # every table started (the players' first presses), warm
    engine.stats.keep_latencies = True
    engine.stats.latencies_ns.clear()
    batches0, events0, cpu0, wall0 = engine.stats.batches, engine.stats.events, cpu_ns(), time.monotonic_ns()
    time.sleep(seconds)
    wall = time.monotonic_ns() - wall0
    cpu = cpu_ns() - cpu0
    batches = engine.stats.batches - batches0
    events = engine.stats.events - events0
    latencies = list(engine.stats.latencies_ns)
    assert daemon.server is not None
    dropped = daemon.server.stats.dropped_subscribers
    out, _ = reader.communicate("", timeout=30)  # stdin closed: it stops and says what it got
    pushes = [int(out.split()[-1])]
    daemon.stop()
    sims.stop()
    return {
        "tables": tables,
        "presses": len(latencies),
        "presses_per_s": round(len(latencies) * SECOND / wall, 1),
        "latency_ms_p50": round(percentile(latencies, 0.50) / MS, 2),
        "latency_ms_p99": round(percentile(latencies, 0.99) / MS, 2),
        "latency_ms_max": round(max(latencies, default=0) / MS, 2),
        "commits_per_s": round(batches * SECOND / wall, 1),
        "events_per_commit": round(events / batches, 2) if batches else 0,
        "cpu_cores": round(cpu / wall, 3),
        "pushes_received": pushes[0],
        "subscriber_dropped": dropped,
    }


def subscriber(port: int) -> int:
    """The benchmark's subscriber (its own process): every push read and parsed until stdin
    closes; then the count on stdout."""
    import threading

    sub = Subscription(port=port, timeline=True)
    count = [0]
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.is_set():
        try:
            count[0] += len(sub.read(100))
        except (ConnectionError, OSError):
            break
    sub.close()
    print(count[0], flush=True)
    return 0


def capacity(workdir: Path, presses: int = 20_000, tables: int = 512) -> dict[str, Any]:
    """A burst: every press queued at once; how fast the engine journals them (group commit)."""
    journal = Journal(workdir / "burst.db")
    engine = Engine(journal, boot_id="bench", components=default_components())
    engine.recover()
    engine.apply_now([TableCreated(table=t, label=str(t), control="30m") for t in range(1, tables + 1)])
    engine.start()
    sink = engine.sink_for(None)
    now = engine.clock()
    side = {t: Side.B for t in range(1, tables + 1)}
    started, cpu0 = time.monotonic_ns(), cpu_ns()
    for i in range(presses):
        t = 1 + i % tables
        sink(DevicePress(table=t, t_ns=now + i * 1000, side=side[t], device_id=f"b{t}", seq=1 + i // tables))
        side[t] = side[t].other
    engine.barrier().result(120)
    wall = time.monotonic_ns() - started
    result = {
        "burst_presses": presses,
        "burst_events_per_s": round(engine.stats.presses * SECOND / wall),
        "burst_commits": engine.stats.batches,
        "burst_cpu_cores": round((cpu_ns() - cpu0) / wall, 2),
    }
    engine.stop()
    journal.close()
    return result


def restart(workdir: Path, events: int = 200_000, tables: int = 128) -> dict[str, Any]:
    """A long day's journal: recovery time from the events alone vs from a snapshot."""
    path = workdir / "restart.db"
    journal = Journal(path)
    clock = [1_000 * SECOND]
    engine = Engine(
        journal,
        boot_id="bench",
        components=default_components(),
        clock=lambda: clock[0],
        snapshot_every=10**9,
    )
    engine.recover()
    engine.apply_now([TableCreated(table=t, label=str(t), control="90m") for t in range(1, tables + 1)])
    engine.start()
    sink = engine.sink_for(None)
    side = {t: Side.B for t in range(1, tables + 1)}
    for i in range(events):
        t = 1 + i % tables
        clock[0] += 10 * MS
        sink(DevicePress(table=t, t_ns=clock[0], side=side[t], device_id=f"r{t}", seq=1 + i // tables))
        side[t] = side[t].other
        if i % 5000 == 4999:
            engine.barrier().result(60)
    engine.barrier().result(60)
    engine.stop(snapshot=True)  # a clean stop writes the snapshot
    journal.close()
    size_mb = round(os.path.getsize(path) / 1e6, 1)

    def recover(use_snapshots: bool) -> tuple[int, int]:
        with Journal(path) as j:
            e = Engine(j, boot_id="bench", components=default_components(), clock=lambda: clock[0])
            t0 = time.monotonic_ns()
            report = e.recover(use_snapshots=use_snapshots)
            return time.monotonic_ns() - t0, report.replayed

    full_ns, full_replayed = recover(False)
    snap_ns, snap_replayed = recover(True)
    return {
        "restart_events": full_replayed,
        "restart_db_mb": size_mb,
        "restart_ms_full_replay": round(full_ns / MS),
        "restart_ms_from_snapshot": round(snap_ns / MS),
        "restart_replayed_from_snapshot": snap_replayed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="clockd under load (see the module docstring)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per table count")
    parser.add_argument("--tables", type=int, nargs="*", default=[16, 128, 512])
    parser.add_argument("--restart-events", type=int, default=200_000)
    parser.add_argument("--subscriber", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--load-only", action="store_true", help="only the table counts (no burst, restart)")
    args = parser.parse_args()
    if args.subscriber:
        return subscriber(args.subscriber)
    results: dict[str, Any] = {"bench": "daemon", "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="duelclock-bench-") as tmp:
        workdir = Path(tmp)
        runs = []
        for n in args.tables:
            r = with_floor(load(n, args.seconds, workdir), workdir, min(args.seconds, 10.0))
            runs.append(r)
            print(
                f"{n:>4} tables: {r['presses_per_s']:>6} presses/s, "
                f"press→commit p50 {r['latency_ms_p50']} ms (×{r['p50_over_floor']} the paced floor "
                f"{r['floor_ms_p50']}), p99 {r['latency_ms_p99']} ms (×{r['p99_over_floor']} the floor "
                f"{r['floor_ms_p99']}), max {r['latency_ms_max']} ms; {r['commits_per_s']} commits/s "
                f"({r['events_per_commit']} events each); CPU {r['cpu_cores']} cores; subscriber "
                f"{r['pushes_received']} pushes, dropped {r['subscriber_dropped']}",
                flush=True,
            )
            print(json.dumps({"bench": "daemon", "figure": "press_to_commit", **r}), flush=True)
        results["load"] = runs
        if args.load_only:
            print(json.dumps(results))
            return 0
        burst = capacity(workdir)
        print(
            f"burst: {burst['burst_presses']} presses queued at once journaled at "
            f"{burst['burst_events_per_s']}/s in {burst['burst_commits']} commits",
            flush=True,
        )
        results.update(burst)
        rs = restart(workdir, events=args.restart_events)
        print(
            f"restart: {rs['restart_events']} events ({rs['restart_db_mb']} MB): full replay "
            f"{rs['restart_ms_full_replay']} ms, from snapshot {rs['restart_ms_from_snapshot']} ms",
            flush=True,
        )
        results.update(rs)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
