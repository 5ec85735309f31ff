"""The daemon under hostile clients: 64 busy tables while strangers flood it (issue 20).

    python -m benchmarks.soak                      # 5 minutes of hostile clients (+ ~1.5 min)
    python -m benchmarks.soak --seconds 20         # a quick look

A real daemon process (journal on disk, WAL + synchronous=FULL) runs 64 tables of simulated
players (a turn ~1 s: busy) on loopback. The referee's desk asks for ``status`` with the token
four times a second throughout. After a warm-up, three phases:

1. **quiet** (``--quiet-seconds``, 60): the tables and the referee only;
2. **hostile** (``--seconds``, 300): besides them, from this process —
   * *floods*: 4 connections pipelining ``status`` requests as fast as they can, reading every
     reply, and 1 writing 20 000 ``subscribe`` lines it never reads (reconnecting when dropped);
   * *never-reading subscribers*: 200 timeline subscribers with tiny receive buffers that never
     read (each reconnects when dropped);
   * *500 connections*: opened and left idle (each reopened when closed);
   * *replayed requests*: one captured referee request (a note, with its id and the token)
     sent again and again, on old and new connections;
3. **after** (``--settle-seconds``, 20): the hostile clients gone.

Measured, one JSON line per figure: the tables' press-to-commit latency (device → committed,
inside the daemon) in the quiet and the hostile phase, side by side; the daemon's RSS (at the
start, the peak of each phase, at the end); the referee's ``status`` latency in each phase (and
any that failed); what the hostile clients got (replies, drops, refusals) and that the replayed
request was journaled once; the server's own counts.

The machine is shared and noisy: compare the phases of one run, not runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import percentile

PHASES = ("quiet", "hostile", "after")


# -- the daemon (a child process) ---------------------------------------------------------------


def serve(args: argparse.Namespace) -> int:
    """The daemon with simulated tables; commands on stdin (``mark``, ``stats``, ``quit``)."""
    from clockd.core.units import MS, SECOND
    from clockd.logs import configure_logging
    from clockd.service.runtime import Daemon, TableSpec
    from clockd.service.simclock import SimulatedClocks
    from clockd.service.tables import phase_of
    from hw_sim.players import PlayerModel

    configure_logging()  # as duelclock run does: a flood of one warning is bounded (clockd/logs.py)
    daemon = Daemon(
        Path(args.db),
        tables=[TableSpec(t, control="90m") for t in range(1, args.tables + 1)],
        port=0,
        write_daemon_info=False,
    )
    model = PlayerModel(median_ms=args.think_ms)
    sims = SimulatedClocks(model.think_ns, seed=args.tables, start_delay_ns=SECOND)
    for t in range(1, args.tables + 1):
        seen = lambda t=t: phase_of(daemon.engine.current.tables[t], daemon.engine.now_ns())  # noqa: E731
        daemon.add_device(t, sims.device(t, phase_of=seen))
    started = daemon.start()
    engine = daemon.engine
    assert engine is not None and daemon.server is not None
    engine.stats.keep_latencies = True
    print(json.dumps({"port": started.port, "token": started.token, "pid": os.getpid()}), flush=True)
    mark = 0
    for line in sys.stdin:
        command = line.strip()
        if command == "mark":  # the presses since the last mark
            latencies = engine.stats.latencies_ns[mark:]
            mark += len(latencies)
            out = {
                "presses": len(latencies),
                "p50": round(percentile(latencies, 0.50) / MS, 2),
                "p99": round(percentile(latencies, 0.99) / MS, 2),
                "max": round(max(latencies, default=0) / MS, 2),
            }
            print(json.dumps(out), flush=True)
        elif command == "stats":
            stats = daemon.server.stats
            out = {k: v for k, v in vars(stats).items() if k != "by_code"} | {"errors_by_code": stats.by_code}
            out["paced_s"] = round(out["paced_s"], 1)
            out["engine_failed"] = engine.failure is not None
            print(json.dumps(out), flush=True)
        elif command == "quit":
            break
    daemon.stop()
    sims.stop()
    return 0


# -- measuring from outside ---------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Phases:
    """What phase the run is in, and per-phase samples."""

    def __init__(self) -> None:
        self.phase = "warm-up"
        self.samples: dict[str, list[float]] = {}

    def add(self, what: str, value: float) -> None:
        self.samples.setdefault(f"{what}:{self.phase}", []).append(value)

    def get(self, what: str, phase: str) -> list[float]:
        return self.samples.get(f"{what}:{phase}", [])


def every(period_s: float, stop: threading.Event, fn: Callable[[], None]) -> threading.Thread:
    def loop() -> None:
        while not stop.wait(period_s):
            fn()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    return thread


def summary_ms(values: list[float]) -> dict[str, Any]:
    ns = [int(v * 1e6) for v in values]
    return {
        "n": len(values),
        "p50": round(percentile(ns, 0.5) / 1e6, 2),
        "p99": round(percentile(ns, 0.99) / 1e6, 2),
        "max": round(max(values, default=0), 2),
    }


# -- the hostile clients ------------------------------------------------------------------------


class Hostile:
    """Every hostile client of the run, on threads of this process; :meth:`stop` ends them all."""

    def __init__(self, port: int, token: str, *, subscribers: int, connections: int, floods: int) -> None:
        self.port, self.token = port, token
        self.stop_event = threading.Event()
        self.counts = {
            "flood_replies": 0,
            "subscribe_lines_sent": 0,
            "stuck_subscribers_dropped": 0,
            "idle_connections_closed": 0,
            "replays_sent": 0,
            "replays_answered": 0,
        }
        self.others: dict[str, int] = {}
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.sockets: list[socket.socket] = []
        self.n_subscribers, self.n_connections, self.n_floods = subscribers, connections, floods

    def count(self, key: str, n: int = 1) -> None:
        with self.lock:
            self.counts[key] += n

    def other(self, what: str) -> None:
        """Something that is not the usual answer, by kind (for the report)."""
        with self.lock:
            self.others[what] = self.others.get(what, 0) + 1

    def connect(self, rcvbuf: int | None = None) -> socket.socket | None:
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if rcvbuf is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            sock.settimeout(5)
            sock.connect(("127.0.0.1", self.port))
            return sock
        except OSError:
            return None

    def start(self) -> None:
        for _ in range(self.n_floods):
            self.spawn(self.status_flood)
        self.spawn(self.subscribe_flood)
        self.spawn(self.stuck_subscribers)
        self.spawn(self.idle_connections)
        self.spawn(self.replayer)

    def spawn(self, fn: Callable[[], None]) -> None:
        thread = threading.Thread(target=fn, daemon=True)
        thread.start()
        self.threads.append(thread)

    def stop(self) -> None:
        self.stop_event.set()
        for sock in list(self.sockets):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # ends a thread blocked on it, and the connection
            with contextlib.suppress(OSError):
                sock.close()
        for thread in self.threads:
            thread.join(10)

    def status_flood(self) -> None:
        """Pipelined ``status`` requests, as fast as the daemon takes them, every reply read."""
        batch = b'{"type": "status"}\n' * 500
        while not self.stop_event.is_set():
            sock = self.connect()
            if sock is None:
                time.sleep(0.5)
                continue
            self.sockets.append(sock)

            def drain(sock: socket.socket = sock) -> None:
                with contextlib.suppress(OSError):
                    sock.settimeout(None)
                    while chunk := sock.recv(1 << 20):
                        self.count("flood_replies", chunk.count(b"\n"))

            reader = threading.Thread(target=drain, daemon=True)
            reader.start()
            with contextlib.suppress(OSError):
                while not self.stop_event.is_set():
                    sock.sendall(batch)
            reader.join(1)

    def subscribe_flood(self) -> None:
        """20 000 ``subscribe`` lines on one connection whose replies are never read."""
        while not self.stop_event.is_set():
            sock = self.connect(rcvbuf=4096)
            if sock is None:
                time.sleep(0.5)
                continue
            self.sockets.append(sock)
            sock.settimeout(1)
            data = memoryview(b'{"type": "subscribe", "timeline": true}\n' * 20_000)
            with contextlib.suppress(OSError):
                while data and not self.stop_event.is_set():
                    try:
                        sent = sock.send(data)
                    except TimeoutError:
                        continue
                    data = data[sent:]
                    self.count("subscribe_lines_sent", sent // 40)
                while not self.stop_event.wait(1):  # then it just stays, unread, until dropped
                    sock.send(b"\n")

    def _keep(self, n: int, rcvbuf: int | None, first: bytes, counter: str) -> None:
        """``n`` connections that send ``first`` and never read; each reopened when the daemon closes it."""
        live: list[socket.socket | None] = [None] * n
        while not self.stop_event.is_set():
            for i in range(n):
                if self.stop_event.is_set():
                    break
                sock = live[i]
                if sock is not None:
                    try:
                        sock.send(b"\n")  # a blank line: nothing to the daemon; fails once it has dropped us
                        continue
                    except OSError:
                        self.count(counter)
                        sock.close()
                sock = self.connect(rcvbuf)
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.setblocking(False)
                        if first:
                            sock.send(first)
                    self.sockets.append(sock)
                live[i] = sock
            self.stop_event.wait(2)
        for sock in live:
            if sock is not None:
                sock.close()

    def stuck_subscribers(self) -> None:
        self._keep(
            self.n_subscribers,
            2048,
            b'{"type": "subscribe", "timeline": true}\n',
            "stuck_subscribers_dropped",
        )

    def idle_connections(self) -> None:
        self._keep(self.n_connections, None, b"", "idle_connections_closed")

    def replayer(self) -> None:
        """A captured referee request (its id and the token), sent again and again."""
        line = json.dumps(
            {"type": "note", "id": "captured-1", "target": "1", "text": "replayed", "token": self.token}
        ).encode()
        sock: socket.socket | None = None
        n = 0
        while not self.stop_event.wait(0.02):
            if sock is None or n % 50 == 0:  # on the same connection, and on new ones
                if sock is not None:
                    sock.close()
                sock = self.connect()
                if sock is None:
                    continue
            try:
                sock.sendall(line + b"\n")
                self.count("replays_sent")
                buffer = b""
                while b"\n" not in buffer:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise ConnectionError
                    buffer += chunk
                reply = json.loads(buffer.split(b"\n")[0])
                if reply.get("type") == "done":
                    self.count("replays_answered")
                else:
                    self.other(f"replay:{reply.get('code')}")
            except (OSError, ValueError) as exc:
                self.other(f"replay:{type(exc).__name__}")
                sock = None
            n += 1
        if sock is not None:
            sock.close()


# -- the run ------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    from clockd.api import Client

    workdir = Path(tempfile.mkdtemp(prefix="duelclock-soak-"))
    child = subprocess.Popen(
        [
            *(sys.executable, "-m", "benchmarks.soak", "--serve", "--db", str(workdir / "soak.db")),
            *("--tables", str(args.tables), "--think-ms", str(args.think_ms)),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    info = json.loads(child.stdout.readline())
    port, token, pid = info["port"], info["token"], info["pid"]

    def ask(command: str) -> dict[str, Any]:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(command + "\n")
        child.stdin.flush()
        answer: dict[str, Any] = json.loads(child.stdout.readline())
        return answer

    phases = Phases()
    stop = threading.Event()
    rss_start = rss_mb(pid)
    every(0.2, stop, lambda: phases.add("rss", rss_mb(pid)))
    referee = Client(port=port, token=token, timeout_ms=10_000, retry=False)
    failures: dict[str, int] = {}

    def poll_status() -> None:
        started = time.perf_counter()
        try:
            referee.status()
        except Exception:
            failures[phases.phase] = failures.get(phases.phase, 0) + 1
            return
        phases.add("status", (time.perf_counter() - started) * 1000)

    every(0.25, stop, poll_status)
    time.sleep(args.warmup_seconds)  # every table started
    ask("mark")
    phases.phase = "quiet"
    time.sleep(args.quiet_seconds)
    quiet = ask("mark")
    phases.phase = "hostile"
    hostile = Hostile(
        port, token, subscribers=args.subscribers, connections=args.connections, floods=args.floods
    )
    hostile.start()
    time.sleep(args.seconds)
    under_attack = ask("mark")
    hostile.stop()
    phases.phase = "after"
    time.sleep(args.settle_seconds)
    after = ask("mark")
    stop.set()
    rss_final = rss_mb(pid)
    with Client(port=port, token=token) as desk:
        notes = [e for e in desk.timeline(1, limit=10_000).entries if e.kind == "note"]
    replayed = sum(1 for e in notes if e.data.get("action", {}).get("text") == "replayed")
    server = ask("stats")
    child.stdin.write("quit\n")
    child.stdin.flush()
    child.wait(30)
    referee.close()

    base = {"bench": "soak", "tables": args.tables, "hostile_seconds": args.seconds}
    lines: list[dict[str, Any]] = [
        {
            **base,
            "figure": "press_to_commit_ms",
            "quiet": quiet,
            "hostile": under_attack,
            "after": after,
            "p99_hostile_over_quiet": round(under_attack["p99"] / quiet["p99"], 2) if quiet["p99"] else None,
        },
        {
            **base,
            "figure": "daemon_rss_mb",
            "start": round(rss_start, 1),
            "quiet_peak": round(max(phases.get("rss", "quiet"), default=0), 1),
            "hostile_peak": round(max(phases.get("rss", "hostile"), default=0), 1),
            "final": round(rss_final, 1),
        },
        {
            **base,
            "figure": "referee_status_ms",
            **{phase: summary_ms(phases.get("status", phase)) for phase in PHASES},
            "failed": failures,
        },
        {
            **base,
            "figure": "hostile_clients",
            **hostile.counts,
            "replays_journaled": replayed,
            "other_answers": hostile.others,
        },
        {**base, "figure": "daemon_api", **server},
    ]
    for line in lines:
        print(json.dumps(line), flush=True)
    ok = replayed == 1 and not failures and not server["engine_failed"]
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300, help="the hostile phase (default 5 minutes)")
    parser.add_argument("--quiet-seconds", type=float, default=60, help="the phase without them")
    parser.add_argument("--settle-seconds", type=float, default=20, help="after they left (the final RSS)")
    parser.add_argument("--warmup-seconds", type=float, default=5)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--think-ms", type=int, default=1000, help="players' median turn")
    parser.add_argument("--subscribers", type=int, default=200, help="never-reading timeline subscribers")
    parser.add_argument("--connections", type=int, default=500, help="idle connections")
    parser.add_argument("--floods", type=int, default=4, help="connections pipelining status requests")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    return serve(args) if args.serve else run(args)


if __name__ == "__main__":
    raise SystemExit(main())
