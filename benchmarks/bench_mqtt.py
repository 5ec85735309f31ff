"""Many machines on one broker: 20 table nodes of 26 simulated clocks each, Mosquitto, one desk.

    python -m benchmarks.bench_mqtt                       # ~2-3 minutes on 2 cores
    python -m benchmarks.bench_mqtt --nodes 4 --tables 8 --seconds 15

Every part is a process of its own, as in a hall where they are machines of their own:

* one Mosquitto (:class:`clockd.mqtt.broker.Broker`, a free loopback port);
* ``--nodes`` table nodes, each ``python -m clockd run --node NAME --sim TABLES`` (first tables
  1, 27, 53, …): simulated USB-serial clocks read by the real serial driver, their players
  starting the set clock by themselves and pressing (median turn ``--think-ms``); they run at
  ``--nodes-nice`` 10: twenty machines simulated on a few cores must not take the CPU of the
  desk and the broker, which in a hall have machines of their own. (Each child is a process
  group of its own but stays in this session: with the kernel's autogroups every session
  gets an equal share of the CPUs whatever its niceness, and 20 node sessions left the desk
  1/22 of the machine.)
* the desk: this benchmark again (a hidden ``--desk-child``) running a :class:`Daemon` with a
  :class:`~clockd.mqtt.desk.DeskLink` that keeps each press's latency, so its CPU is its own.

Once every node's tables are on the desk and caught up, the desk measures for ``--seconds``:

* **press → committed on the desk** (p50, p99, ms): from the node's engine stamping the press
  to the desk's commit of its copy (one machine: one monotonic clock), split at the row's
  arrival on the desk: the node and the broker, then the desk alone;
* the **CPU** (cores: utime+stime from ``/proc/PID/stat`` over the window) of the broker, the
  desk and the nodes together, and the whole machine's (others' work included: a figure
  measured on a saturated machine says so); the desk's memory (RSS, its peak);
* **presses per second** taken into the desk's journal;
* **a hall signal's arrival**: ``--signals`` times, 1 s apart, the desk sends one signal for
  every table (``Beep.CHANGE``); each node says when it sounded it. Spread = latest − earliest
  node for one signal (p50, max over the signals), and send → heard (p50, p99 over every node);
* **rows behind** after the window (the heartbeats' last rows minus the desk's) and how long
  the desk took to hold what every node had journaled by the window's end;
* after every process has stopped, from the run's own journals: every press a node journaled
  (up to the last of its rows the desk holds) is in the desk's journal, none twice.

Machines are shared and noisy: compare figures within one run. One JSON line per figure; the
first says what the machine is. Every child process is in a process group of its own and is
stopped at the end, also on Ctrl+C or SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import percentile
from clockd.core.device import Beep
from clockd.core.units import MS, SECOND

#: How long the desk waits for every node's tables and rows before it gives up.
GATHER_TIMEOUT_S = 180.0
#: How long the desk lets the hall run before measuring (every clock started, the links busy).
WARM_UP_S = 5.0
#: How long the desk waits after the window for the rows behind to reach 0.
CATCH_UP_TIMEOUT_S = 30.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu_ns(pid: int) -> int:
    """utime + stime of ``pid`` (0 once it is gone): what it has run on the CPUs, all threads."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int((int(fields[11]) + int(fields[12])) * 1e9 / os.sysconf("SC_CLK_TCK"))


def machine_busy_ns() -> int:
    """Every CPU's busy time (``/proc/stat``: all but idle and iowait), whoever ran: the machine
    is shared, and a figure measured on a saturated machine says so."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(f) for f in fields[:8]]
    busy = sum(ticks) - ticks[3] - ticks[4]
    return int(busy * 1e9 / os.sysconf("SC_CLK_TCK"))


def proc_mem_mb(pid: int) -> tuple[float, float]:
    """RSS and its peak (MB)."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def node_names(n: int) -> list[str]:
    return [f"n{i + 1:02d}" for i in range(n)]


# -- the desk (a child process) ------------------------------------------------------------------


def desk_main(plan: dict[str, Any]) -> int:
    """Run the desk, gather the hall, measure, print one JSON object of figures on stdout."""
    from clockd.mqtt.desk import DeskLink
    from clockd.mqtt.url import broker_url
    from clockd.service.runtime import Daemon

    daemon = Daemon(Path(plan["db"]), port=0, write_daemon_info=False)
    daemon.start()
    engine = daemon.engine
    assert engine is not None
    link = DeskLink(broker_url(plan["url"]), engine, keep_latencies=True)
    link.start()
    n_nodes, n_tables = int(plan["nodes"]), int(plan["tables"])
    all_tables = list(range(1, n_nodes * n_tables + 1))
    try:
        t0 = time.monotonic()
        gathered = _wait(lambda: _caught_up(link, n_nodes, n_tables), GATHER_TIMEOUT_S)
        gather_s = time.monotonic() - t0
        if not gathered:
            print(json.dumps({"error": "not gathered", **_progress(link, n_tables)}), flush=True)
            return 1
        time.sleep(WARM_UP_S)

        pids = {"broker": [int(plan["broker_pid"])], "nodes": [int(p) for p in plan["node_pids"]]}
        pids["desk"] = [os.getpid()]
        cpu0 = {k: sum(proc_cpu_ns(p) for p in v) for k, v in pids.items()}
        machine0 = machine_busy_ns()
        wall0 = time.monotonic_ns()
        link.reset_latencies()  # the window's latencies only
        signal_ids: list[str] = []
        seconds = float(plan["seconds"])
        n_signals = int(plan["signals"])
        first_signal = max(0.0, (seconds - n_signals) / 2)  # the signals in the middle of the window
        tick = 0
        while time.monotonic_ns() - wall0 < seconds * SECOND:
            due = wall0 + int((tick + 1) * SECOND)
            time.sleep(max(0.0, (due - time.monotonic_ns()) / SECOND))
            if first_signal <= tick < first_signal + n_signals:
                before = set(link.signals)
                link.signal(all_tables, Beep.CHANGE)
                signal_ids += [i for i in link.signals if i not in before]
            tick += 1
        wall = time.monotonic_ns() - wall0
        cpu = {k: sum(proc_cpu_ns(p) for p in v) - cpu0[k] for k, v in pids.items()}
        cpu["machine"] = machine_busy_ns() - machine0
        window = {
            name: (list(v.latencies_ns), list(v.to_arrival_ns), list(v.arrival_to_commit_ns))
            for name, v in link.live_nodes().items()
        }
        latencies = [ns for lat, _, _ in window.values() for ns in lat]
        to_arrival = [ns for _, arr, _ in window.values() for ns in arr]
        arrival_to_commit = [ns for _, _, com in window.values() for ns in com]
        per_node_p99 = {n: percentile(lat, 0.99) for n, (lat, _, _) in window.items() if lat}
        behind_at_end = _behind(link)
        # Caught up: the desk holds what each node had journaled at the window's end (its
        # players go on pressing: "no row behind" may never be true at one instant of a busy hall).
        target = {name: live.node_last_seq for name, live in link.live_nodes().items()}
        t1 = time.monotonic()
        caught = _wait(lambda: _holds(link, target), CATCH_UP_TIMEOUT_S)
        catch_up_s = time.monotonic() - t1
        time.sleep(2.0)  # the last signals' replies
        heard = [
            (s.sent_mono_ns, [h.mono_ns for h in s.heard.values()], sum(h.tables for h in s.heard.values()))
            for s in link.heard(signal_ids)
        ]
        rss, peak = proc_mem_mb(os.getpid())
        out = {
            "gather_s": round(gather_s, 1),
            "window_s": wall / SECOND,
            "latencies_ns": latencies,
            "to_arrival_ns": to_arrival,
            "arrival_to_commit_ns": arrival_to_commit,
            "per_node_p99_ns": per_node_p99,
            "presses": len(latencies),  # the presses the desk committed in the window
            "cpu_ns": cpu,
            "behind_at_end": behind_at_end,
            "caught_up": caught,
            "catch_up_s": round(catch_up_s, 2),
            "signals": heard,
            "signals_sent": len(signal_ids),
            "desk_rss_mb": round(rss, 1),
            "desk_rss_peak_mb": round(peak, 1),
            "desk_tables": len(engine.current.tables),
        }
        print(json.dumps(out), flush=True)
        return 0
    finally:
        link.stop()
        daemon.stop()


def _wait(what: Any, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)  # polling the hall's progress, not timing anything
    return True


def _behind(link: Any) -> dict[str, int]:
    """Per node: the rows its last heartbeat counted that the desk's journal does not hold yet
    (as the ``nodes`` request reports them: :func:`clockd.service.handlers`)."""
    held = {n.name: n for n in link.nodes.view().nodes}
    out: dict[str, int] = {}
    for name, live in link.live_nodes().items():
        st = held.get(name)
        if st is not None and live.journal == st.journal:
            out[name] = max(0, live.node_last_seq - st.last_seq)
        else:
            out[name] = live.node_last_seq
    return out


def _holds(link: Any, target: dict[str, int]) -> bool:
    held = {n.name: n.last_seq for n in link.nodes.view().nodes}
    behind = _behind(link)
    return all(held.get(name, 0) >= seq or behind.get(name) == 0 for name, seq in target.items())


def _caught_up(link: Any, n_nodes: int, n_tables: int) -> bool:
    live = link.live_nodes()
    if len(live) < n_nodes or not all(v.up and len(v.tables) == n_tables for v in live.values()):
        return False
    if len(link.engine.current.tables) < n_nodes * n_tables:
        return False
    return sum(_behind(link).values()) == 0


def _progress(link: Any, n_tables: int) -> dict[str, Any]:
    live = link.live_nodes()
    return {
        "nodes_up": sum(1 for v in live.values() if v.up),
        "desk_tables": len(link.engine.current.tables),
        "behind": _behind(link),
    }


# -- the bench ------------------------------------------------------------------------------------


def _emit(figure: str, **values: Any) -> None:
    print(json.dumps({"bench": "mqtt", "figure": figure, **values}), flush=True)


def _stop_group(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM the child's process group (it is the leader of its own)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return


def _reap(procs: list[subprocess.Popen[Any]]) -> None:
    for proc in procs:
        _stop_group(proc)
    deadline = time.monotonic() + 10
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.1, deadline - time.monotonic()))
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # the group: also anything the child started
        proc.wait()


def _child(nice: int) -> None:
    """In the child before it runs: its niceness, and SIGTERM when the benchmark dies (even by
    SIGKILL, when no ``finally`` runs: Linux's parent-death signal)."""
    if nice:
        os.nice(nice)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _orphaned(plan: dict[str, Any]) -> None:
    """The benchmark was killed (SIGKILL: its ``finally`` did not run) and the nodes are going
    (their parent-death signal): stop the broker it started and remove the run's files."""
    with contextlib.suppress(OSError):
        os.kill(int(plan["broker_pid"]), signal.SIGTERM)
    time.sleep(1.0)  # the nodes and the broker finish going before their folder is removed
    shutil.rmtree(Path(plan["db"]).parent, ignore_errors=True)


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM as Ctrl+C: the finally blocks stop every child


def run(args: argparse.Namespace) -> int:
    from clockd.mqtt.broker import Broker, BrokerPlan

    for sig in (signal.SIGTERM, signal.SIGINT):  # SIGINT too: a shell's background job ignores it
        signal.signal(sig, _interrupted)
    work = Path(tempfile.mkdtemp(prefix="bench-mqtt-"))
    names = node_names(args.nodes)
    broker = Broker(BrokerPlan(folder=work / "broker", nodes=names, port=_free_port()))
    procs: list[subprocess.Popen[Any]] = []
    desk: subprocess.Popen[str] | None = None
    result: dict[str, Any] | None = None
    integrity: dict[str, int] = {}
    started = time.monotonic()
    try:
        broker.start()
        assert broker.pid is not None
        for i, name in enumerate(names):
            state = work / name
            state.mkdir()
            env = {**os.environ, "DUELCLOCK_STATE_DIR": str(state)}
            cmd = [
                sys.executable,
                "-m",
                "clockd",
                "run",
                "--node",
                name,
                "--mqtt",
                broker.files.url_for(name),
            ]
            cmd += ["--sim", str(args.tables), "--first-table", str(1 + i * args.tables)]
            cmd += ["--db", str(state / "node.db"), "--port", "0"]
            cmd += ["--think-ms", str(args.think_ms), "--seed", str(i + 1)]
            with (state / "node.log").open("ab") as log:
                procs.append(
                    subprocess.Popen(
                        cmd,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                        process_group=0,  # its own group, this session (the docstring)
                        preexec_fn=lambda: _child(args.nodes_nice),
                    )
                )
        plan = {
            "url": broker.files.url_for("desk"),
            "db": str(work / "desk.db"),
            "nodes": args.nodes,
            "tables": args.tables,
            "seconds": args.seconds,
            "signals": args.signals,
            "broker_pid": broker.pid,
            "node_pids": [p.pid for p in procs],
            "parent_pid": os.getpid(),
        }
        (work / "desk").mkdir()
        plan_file = work / "desk" / "plan.json"
        plan_file.write_text(json.dumps(plan))  # holds the desk's password: in the private work folder
        os.chmod(plan_file, 0o600)
        with (work / "desk" / "desk.log").open("ab") as desk_log:
            desk = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.bench_mqtt", "--desk-child", str(plan_file)],
                env={**os.environ, "DUELCLOCK_STATE_DIR": str(work / "desk")},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=desk_log,
                preexec_fn=lambda: _child(0),
                text=True,
                process_group=0,  # its own group, this session (the docstring)
            )
        procs.append(desk)
        budget = GATHER_TIMEOUT_S + WARM_UP_S + args.seconds + CATCH_UP_TIMEOUT_S + 60
        try:
            out, _ = desk.communicate(timeout=budget)
        except subprocess.TimeoutExpired:
            print(json.dumps({"bench": "mqtt", "error": f"the desk did not finish in {budget:.0f} s"}))
            return 1
        alive = sum(1 for p in procs[:-1] if p.poll() is None)
        broker_alive = broker.running
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if desk.returncode != 0 or not lines:
            print(json.dumps({"bench": "mqtt", "error": "the desk failed", "said": lines[-1:] or out[-500:]}))
            _tail(work / "desk" / "desk.log")
            return 1
        result = json.loads(lines[-1])
    finally:
        _reap(procs)
        broker.stop()
        if result is not None:
            integrity = check_journals(work, names)
        keep = os.environ.get("BENCH_MQTT_KEEP")
        if keep:
            print(f"bench_mqtt: files kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    report(args, result, alive, broker_alive, time.monotonic() - started)
    _emit("node_presses_on_desk", **integrity)
    return 0


def check_journals(work: Path, names: list[str]) -> dict[str, int]:
    """Every press a node journaled up to the last of its rows the desk holds is in the desk's
    journal exactly once (the exactly-once promise, checked on the run's own files)."""
    from collections import Counter

    import clockd.service.runtime  # noqa: F401  (registers the entry kinds the journals hold)
    from clockd.store.journal import Journal

    desk = Journal.reader(work / "desk.db")
    try:
        taken = Counter((r.entry.origin.node, r.entry.origin.seq) for r in desk.read() if r.entry.origin)
    finally:
        desk.close()
    held: dict[str, int] = {}
    for node, seq in taken:
        held[node] = max(held.get(node, 0), seq)
    checked = missing = 0
    for name in names:
        journal = Journal.reader(work / name / "node.db")
        try:
            for record in journal.read():
                if record.entry.kind == "press" and record.seq <= held.get(name, 0):
                    checked += 1
                    missing += (name, record.seq) not in taken
        finally:
            journal.close()
    return {"checked": checked, "missing": missing, "twice": sum(1 for n in taken.values() if n > 1)}


def _tail(path: Path) -> None:
    with contextlib.suppress(OSError):
        print(path.read_text(errors="replace")[-3000:], file=sys.stderr)


def report(args: argparse.Namespace, r: dict[str, Any], alive: int, broker_alive: bool, took: float) -> None:
    window = r["window_s"]
    lat = r["latencies_ns"]
    _emit(
        "machine",
        cores=os.cpu_count(),
        nodes=args.nodes,
        tables_per_node=args.tables,
        tables=args.nodes * args.tables,
        think_ms=args.think_ms,
        nodes_nice=args.nodes_nice,
        window_s=round(window, 1),
        gather_s=r["gather_s"],
        bench_s=round(took, 1),
    )
    _emit(
        "press_to_desk_commit_ms",
        p50=round(percentile(lat, 0.50) / MS, 1),
        p99=round(percentile(lat, 0.99) / MS, 1),
        max=round(max(lat, default=0) / MS, 1),
        n=len(lat),
        nodes_measured=len(r["per_node_p99_ns"]),
        node_p99_lowest=round(min(r["per_node_p99_ns"].values(), default=0) / MS, 1),
        node_p99_highest=round(max(r["per_node_p99_ns"].values(), default=0) / MS, 1),
    )
    for figure, key in (
        ("press_to_desk_arrival_ms", "to_arrival_ns"),
        ("desk_arrival_to_commit_ms", "arrival_to_commit_ns"),
    ):
        part = r[key]
        _emit(
            figure,
            p50=round(percentile(part, 0.50) / MS, 1),
            p99=round(percentile(part, 0.99) / MS, 1),
            n=len(part),
        )
    _emit("presses_per_s_on_desk", value=round(r["presses"] / window, 1), presses=r["presses"])
    cpu = r["cpu_ns"]
    _emit("broker_cpu_cores", value=round(cpu["broker"] / SECOND / window, 3))
    _emit("desk_cpu_cores", value=round(cpu["desk"] / SECOND / window, 3))
    _emit(
        "nodes_cpu_cores",
        value=round(cpu["nodes"] / SECOND / window, 3),
        nodes=args.nodes,
        ms_per_press=round(cpu["nodes"] / MS / max(1, r["presses"]), 2),
    )
    _emit("machine_cpu_busy_cores", value=round(cpu["machine"] / SECOND / window, 3), of=os.cpu_count())
    _emit("desk_rss_mb", value=r["desk_rss_mb"], peak=r["desk_rss_peak_mb"])
    spreads, latencies, complete = [], [], 0
    sounded = [tables for _, _, tables in r["signals"]]
    for sent, heard, _ in r["signals"]:
        if heard:
            spreads.append(max(heard) - min(heard))
            latencies += [h - sent for h in heard]
        if len(heard) == args.nodes:
            complete += 1
    _emit(
        "signal_spread_ms",
        p50=round(percentile(spreads, 0.50) / MS, 1),
        max=round(max(spreads, default=0) / MS, 1),
        signals=r["signals_sent"],
        heard_by_every_node=complete,
        tables_sounded_fewest=min(sounded, default=0),
    )
    _emit(
        "signal_send_to_heard_ms",
        p50=round(percentile(latencies, 0.50) / MS, 1),
        p99=round(percentile(latencies, 0.99) / MS, 1),
        n=len(latencies),
    )
    _emit(
        "rows_behind_after_window",
        at_end=sum(r["behind_at_end"].values()),
        after_catch_up=0 if r["caught_up"] else None,
        catch_up_s=r["catch_up_s"],
    )
    _emit("processes_alive_at_end", nodes=alive, of=args.nodes, broker=broker_alive)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--tables", type=int, default=26, help="simulated tables per node")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--think-ms", type=int, default=2000, help="the players' median turn")
    parser.add_argument("--signals", type=int, default=20, help="hall signals sent, 1 s apart")
    parser.add_argument(
        "--nodes-nice",
        type=int,
        default=10,
        help="the nodes' niceness: in a hall each is a machine of its own, here they must not "
        "take the desk's and the broker's CPU (0: compete as equals)",
    )
    parser.add_argument("--desk-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.desk_child:
        signal.signal(signal.SIGTERM, _interrupted)
        plan = json.loads(Path(args.desk_child).read_text())
        try:
            return desk_main(plan)
        except KeyboardInterrupt:
            if os.getppid() != plan["parent_pid"]:
                _orphaned(plan)
            return 130
    if args.signals > args.seconds:
        parser.error("--signals must fit in --seconds (one a second)")
    try:
        return run(args)
    except KeyboardInterrupt:
        print("bench_mqtt: interrupted; every process it started is stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
