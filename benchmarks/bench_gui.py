"""The GUI under load: 8 tables running, clocks refreshed at 10 Hz.

Two processes, as in the hall:

* this process plays the daemon: a small server on a local socket speaking the API's
  wire protocol (newline-delimited JSON, ``docs/api.md``). After ``subscribe`` it sends
  every table's state, then, for each of 8 running tables, a new ``table-state`` per press
  (players press every 1.5–6 s, as puzzle duellists do) together with a ``timeline-event``;
  it notes the instant (``time.monotonic_ns()``) it writes each press to the socket;
* a child process is the GUI: the real referee window (and, with ``--audience``, the
  audience screen too) fed by the real :class:`gui.adapter.DaemonConnection`, offscreen,
  holding round I of a 16-player bracket with match *k* on table *k*, so every table's
  clock is drawn twice (bracket card and table card).
  It notes the instant each table card is first *painted* showing a press's state
  (an event filter on the widget sees the paint event), and its own CPU time.

``CLOCK_MONOTONIC`` is shared by both processes, so "press written to the stream" →
"repaint showing it" is a difference of two readings of the same clock. The machine has 2
shared cores: read the figures as orders of magnitude and compare ratios within a run.

Run: ``python -m benchmarks.bench_gui [--seconds 20] [--audience]``; the last line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks import percentile

TABLES = 8
REFRESH_HZ = 10


def view(table: int, seq: int, a_ms: int, b_ms: int, running: str, moves: tuple[int, int]) -> dict[str, Any]:
    return {
        "table": table, "label": f"Stolik {table}", "control": "10m", "phase": "running",
        "remaining_ms": {"a": a_ms, "b": b_ms}, "display": {"a": "", "b": ""}, "running": running,
        "to_move": running, "moves": {"a": moves[0], "b": moves[1]}, "ignored": {"a": 0, "b": 0},
        "elapsed_ms": {"a": 0, "b": 0}, "paused_ms": 0, "flag": None, "flag_decided": False,
        "presses": sum(moves), "device": {"state": "connected", "device_id": f"SIM-{table}", "detail": ""},
        "alerts": [], "seq": seq, "digest": "0" * 20,
    }  # fmt: skip


# -- the daemon's side ------------------------------------------------------------------------------


@dataclass
class Clock:
    """A table's clock as the pretend daemon keeps it."""

    left: dict[str, int] = field(default_factory=lambda: {"a": 600_000, "b": 600_000})
    moves: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    running: str = "a"
    since: int = 0


class Daemon:
    def __init__(self, seed: int) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.rng = random.Random(seed)
        self.subscriber: socket.socket | None = None
        self.subscribed = threading.Event()
        self.sent: dict[tuple[int, int], int] = {}  # (table, seq) -> instant written
        self.seq = 1000
        self.lock = threading.Lock()
        self.state = {t: Clock() for t in range(1, TABLES + 1)}
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        buffer = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                req = json.loads(line)
                rid = req.get("id")
                if req.get("type") == "subscribe":
                    now = time.monotonic_ns()
                    out = [{"v": 1, "type": "subscribed", "id": rid, "seq": self.seq}]
                    for t, s in self.state.items():
                        s.since = now
                        out.append({"v": 1, "type": "table-state", "table": self._view(t)})
                    with self.lock:
                        conn.sendall(b"".join(json.dumps(m).encode() + b"\n" for m in out))
                        self.subscriber = conn
                    self.subscribed.set()
                elif req.get("type") == "timeline":
                    reply = {"v": 1, "type": "timeline", "id": rid, "table": req["table"], "entries": [],
                             "last_seq": 0}  # fmt: skip
                    with self.lock:
                        conn.sendall(json.dumps(reply).encode() + b"\n")

    def _view(self, table: int) -> dict[str, Any]:
        s = self.state[table]
        return view(table, self.seq, s.left["a"], s.left["b"], s.running, (s.moves["a"], s.moves["b"]))

    def press(self, table: int) -> None:
        """The running side of ``table`` presses now: one table-state and one timeline-event."""
        now = time.monotonic_ns()
        s = self.state[table]
        side = s.running
        s.left[side] = max(0, s.left[side] - (now - s.since) // 1_000_000)
        s.moves[side] += 1
        s.running = "b" if side == "a" else "a"
        s.since = now
        with self.lock:
            self.seq += 1
            seq = self.seq
            state = {"v": 1, "type": "table-state", "table": self._view(table)}
            event = {"v": 1, "type": "timeline-event", "entry": {"seq": seq, "table": table, "kind": "press",
                     "t_ms": now // 1_000_000, "data": {"side": side, "outcome": "applied"}}}  # fmt: skip
            data = json.dumps(event).encode() + b"\n" + json.dumps(state).encode() + b"\n"
            if self.subscriber is not None:
                self.sent[(table, seq)] = time.monotonic_ns()
                with contextlib.suppress(OSError):
                    self.subscriber.sendall(data)

    def play(self, seconds: float) -> int:
        """Presses at human pace on every table for ``seconds``; returns how many were sent."""
        due = {t: time.monotonic() + self.rng.uniform(0.2, 3.0) for t in self.state}
        end = time.monotonic() + seconds
        presses = 0
        while (now := time.monotonic()) < end:
            table = min(due, key=due.__getitem__)
            if due[table] > now:
                time.sleep(min(due[table], end) - now)
                continue
            self.press(table)
            presses += 1
            due[table] = time.monotonic() + self.rng.uniform(1.5, 6.0)
        return presses


# -- the GUI's side (the child process) ----------------------------------------------------------------


def seed_round_one(model: Any) -> None:
    """Round I of a 16-player Puzzle Duel, match k on table k: every bracket card has live clocks.

    (The tournament's state is not in this pretend daemon's stream; the bracket is what the
    referee window would hold during round I, so its live clocks are part of the load.)
    """
    from gui.demo import ROUNDS, demo_players
    from gui.model import Bracket, Match

    matches = {}
    for slot in range(1, TABLES + 1):
        a, b = 2 * slot - 1, 2 * slot
        mid = f"R1-{slot}"
        matches[mid] = Match(id=mid, round=1, slot=slot, a=a, b=b, status="assigned", table=slot, clock_a=a)
    for rnd in ROUNDS[1:]:
        for slot in range(1, rnd.players // 2 + 1):
            mid = f"R{rnd.number}-{slot}"
            matches[mid] = Match(id=mid, round=rnd.number, slot=slot)
    model.set_players(demo_players().values())
    model.set_bracket(Bracket(rounds=ROUNDS, matches=matches))
    model.set_title("Puzzlowy Pojedynek", "bench", "bracket")


def child(port: int, seconds: float, audience: bool) -> None:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["DUELCLOCK_STATE_DIR"] = os.environ.get("DUELCLOCK_STATE_DIR", "/nonexistent-duelclock")
    from PySide6.QtCore import QEvent, QObject, QTimer

    from gui.adapter import DaemonConnection
    from gui.app import Options, application
    from gui.model import DeskModel
    from gui.referee import RefereeWindow

    app = application(Options(lang="pl"))
    model = DeskModel()
    seed_round_one(model)
    conn = DaemonConnection(model, host="127.0.0.1", port=port, token="bench")
    window = RefereeWindow(model, conn)
    window.resize(1600, 1000)
    window.show()
    windows: list[Any] = [window]
    if audience:
        from gui.audience import AudienceWindow

        hall = AudienceWindow(model)
        hall.resize(1920, 1080)
        hall.show()
        windows.append(hall)
    painted: dict[str, int] = {}  # "table:seq" -> first paint showing it
    paints = 0

    class PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            nonlocal paints
            if event.type() == QEvent.Type.Paint:
                paints += 1
                now = time.monotonic_ns()
                for t, table in window.tables.state.tables.items():
                    painted.setdefault(f"{t}:{table.seq}", now)
            return False

    spy = PaintSpy()
    window.tables.installEventFilter(spy)
    conn.start()
    window_cpu = [0, 0, 0]  # CPU time, wall time and refresh ticks of the measured window
    start = [0, 0, 0]

    def begin() -> None:
        start[:] = [time.process_time_ns(), time.monotonic_ns(), window.ticks]
        QTimer.singleShot(int(seconds * 1000), end)

    def end() -> None:
        window_cpu[:] = [
            time.process_time_ns() - start[0],
            time.monotonic_ns() - start[1],
            window.ticks - start[2],
        ]
        QTimer.singleShot(1500, finish)  # the last presses still get painted

    def finish() -> None:
        cpu, wall, ticks = window_cpu
        report = {"cpu_ns": cpu, "wall_ns": wall, "painted": painted, "paints": paints, "ticks": ticks}
        print(json.dumps(report), flush=True)
        conn.stop()
        app.quit()  # type: ignore[attr-defined]

    def wait_for_state() -> None:
        if model.state.tables:
            QTimer.singleShot(500, begin)  # the daemon starts pressing 0.5 s after the subscription
        else:
            QTimer.singleShot(20, wait_for_state)

    wait_for_state()
    app.exec()  # type: ignore[attr-defined]


# -- the run -----------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--audience", action="store_true", help="also drive the audience screen")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.seconds, args.audience)
        return

    daemon = Daemon(args.seed)
    cmd = [
        sys.executable,
        "-m",
        "benchmarks.bench_gui",
        "--child",
        str(daemon.port),
        "--seconds",
        str(args.seconds),
    ]
    if args.audience:
        cmd.append("--audience")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    if not daemon.subscribed.wait(20):
        proc.kill()
        raise SystemExit("bench_gui: the GUI did not subscribe within 20 s")
    time.sleep(0.5)
    presses = daemon.play(args.seconds)
    out, _ = proc.communicate(timeout=60)
    result = json.loads(out.strip().splitlines()[-1])
    painted = {tuple(int(x) for x in k.split(":")): v for k, v in result["painted"].items()}
    latencies = [painted[key] - sent for key, sent in daemon.sent.items() if key in painted]
    missed = len(daemon.sent) - len(latencies)
    cpu_pct = 100 * result["cpu_ns"] / max(1, result["wall_ns"])
    figures = {
        "tables": TABLES,
        "refresh_hz": REFRESH_HZ,
        "seconds": args.seconds,
        "audience": args.audience,
        "presses": presses,
        "repainted": len(latencies),
        "missed": missed,
        "press_to_repaint_p50_us": percentile(latencies, 0.5) // 1000,
        "press_to_repaint_p95_us": percentile(latencies, 0.95) // 1000,
        "press_to_repaint_p99_us": percentile(latencies, 0.99) // 1000,
        "press_to_repaint_max_us": max(latencies, default=0) // 1000,
        "gui_cpu_percent": round(cpu_pct, 1),
        "paints_per_s": round(result["paints"] / (result["wall_ns"] / 1e9), 1),
        "ticks_per_s": round(result["ticks"] / (result["wall_ns"] / 1e9), 1),
    }
    print(f"{TABLES} tables running, refresh {REFRESH_HZ} Hz, {args.seconds:.0f} s"
          + (", referee window + audience screen" if args.audience else ", referee window"))  # fmt: skip
    print(f"presses sent: {presses}, repainted: {len(latencies)}, never shown: {missed}")
    ms = {q: figures[f"press_to_repaint_{q}_us"] / 1000 for q in ("p50", "p95", "p99", "max")}
    print(f"press on the stream → repaint: p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms, "
          f"p99 {ms['p99']:.1f} ms, max {ms['max']:.1f} ms")  # fmt: skip
    print(f"GUI process CPU: {cpu_pct:.1f} % of one core; {figures['paints_per_s']} table-panel paints/s; "
          f"{figures['ticks_per_s']} refresh ticks/s")  # fmt: skip
    print(json.dumps({"bench": "gui", **figures}))


if __name__ == "__main__":
    main()
