"""The daemon under load: 16, 128 and 512 tables of simulated players at human press rates.

    python -m benchmarks.bench_daemon                  # ~2 minutes
    python -m benchmarks.bench_daemon --seconds 5      # quicker, noisier

For each table count, a real daemon (journal on disk, WAL + synchronous=FULL, API server
with one subscriber reading the whole stream, as a GUI would) runs in-process simulated
players (``clockd.service.simclock``; a turn takes ~4 s, log-normal) for a fixed time.
Measured:

* **press-to-commit latency**: from the device handing the press to the daemon's sink to
  the end of the commit that made it durable — p50, p99, max (ms);
* **commits/s** (disk flushes) and **events/s** journaled: group commit shows as
  events per commit above 1 when presses arrive together;
* **CPU**: the process's CPU time over wall time (1.0 = one core; players and subscriber
  included).

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
    sub = Subscription(port=daemon.port, timeline=True)
    pushes = [0]
    reader = sub.run_in_thread(lambda m: pushes.__setitem__(0, pushes[0] + 1))
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
    sub.close()
    reader.join(2)
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
    }


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
    args = parser.parse_args()
    results: dict[str, Any] = {"bench": "daemon", "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="duelclock-bench-") as tmp:
        workdir = Path(tmp)
        runs = []
        for n in args.tables:
            r = load(n, args.seconds, workdir)
            runs.append(r)
            print(
                f"{n:>4} tables: {r['presses_per_s']:>6} presses/s, "
                f"press→commit p50 {r['latency_ms_p50']} ms, p99 {r['latency_ms_p99']} ms, "
                f"max {r['latency_ms_max']} ms; {r['commits_per_s']} commits/s "
                f"({r['events_per_commit']} events each); CPU {r['cpu_cores']} cores",
                flush=True,
            )
        results["load"] = runs
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
