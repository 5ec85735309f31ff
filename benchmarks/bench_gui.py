"""The GUI under load: 8 duels running on a real daemon, the clocks refreshed at 10 Hz.

    python -m benchmarks.bench_gui                     # 20 s of presses, well under a minute
    python -m benchmarks.bench_gui --seconds 10 --audience

Two processes, as in the hall:

* **this process runs the daemon** — the real one (:class:`clockd.service.runtime.Daemon`:
  journal in a temporary folder, engine, API server on a free loopback port). Through the
  API, as a referee at the desk would, it holds a Puzzle Duel session: event ``pt``, the 16
  sign-ups of ``clockd/data/sample-signups.csv`` checked in, check-in closed, the bracket
  drawn, the eight round-one duels on tables 1–8 with their tosses, every clock started by
  its toss loser. Each table has a device the benchmark presses (:class:`Buttons`): the
  side whose time runs presses every 1.5–6 s, as puzzle duellists do; each press is stamped
  with ``time.monotonic_ns()`` as it is handed to the daemon's sink, the daemon's own
  device path, so it is journaled (WAL, ``synchronous=FULL``: an fsync) before anyone sees it;
* **a child process is the GUI** — the real referee window (and, with ``--audience``, the
  audience screen, on the same model as the desk's *Audience screen* opens it) fed by the
  real :class:`gui.adapter.DaemonConnection`, offscreen. An event filter on each painted
  view (the desk's table cards and bracket, the audience's live cards and bracket) does the
  view's paint itself and notes when each table's card was first painted showing a press
  (matched by the table's press count, which every press raises by one), how long each paint
  took, the 10 Hz refresh's ticks, and the process's own CPU time; it reports them as one
  JSON line on its stdout. The parent drives it over stdin (``go``, ``stop``, ``end``).

``CLOCK_MONOTONIC`` is shared by both processes, so every latency is a difference of two
readings of the same clock. Printed (and in the JSON line, in ms: p50, p99, max):

* **press → commit**, the daemon's own figure (``engine.stats.latencies_ns``, as
  ``bench_daemon``: from the sink to the end of the commit's work, API hand-off included);
* **press → painted**: to the first paint of the desk's table card showing the press, and
  per press its parts: press → its journal append returned (the fsync; timed by wrapping
  the journal's ``append``), and **commit → painted**, the difference, itself made of
  commit → push read off the GUI's socket (fan-out, loopback, the GUI's parse: the table's
  ``received_ns``), read → in the GUI's model, model → the paint begins (the window's
  flush of every widget it updates, Qt's scheduling) and the paint itself; and apart, at the
  desk's selected table (whose detail card and timeline the desk redraws too) and the others;
* press → painted on the desk's bracket card, and with ``--audience`` the audience's live
  card and bracket card; presses never shown (should be 0);
* the GUI process's CPU time over the presses' wall time, and the daemon process's;
* frames: paints per second and each paint's duration per view; the 10 Hz refresh's ticks
  per second and the gaps between them (a stalled event loop shows as a long gap).

The machine has 2 shared cores: read the figures as orders of magnitude and compare ratios
within a run. The last line is JSON (``{"bench": "gui", ...}``).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import queue
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from benchmarks import percentile
from clockd.api import Client
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.clock import Side
from clockd.core.device import Beep, DeviceState, Display, TwoClocks
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.devices.base import Connected, DevicePress, DeviceStatus, Sink

if TYPE_CHECKING:  # the daemon's runtime is imported where it runs, never into the GUI's process
    from clockd.service.engine import Engine
    from clockd.service.runtime import Daemon

TABLES = 8
#: The session's key and the draw's seed (a known bracket).
KEY = "pt"
SEED = 2026
#: Seconds between two presses at one table (uniform): a puzzle duellist's pace.
PACE_S = (1.5, 6.0)
#: After the last press: time for its paint to come, before the GUI is asked for its figures.
TAIL_S = 1.5
#: Warm-up between the GUI having every table and the first measured press.
WARM_S = 1.0
#: A press's way to the screen, stage by stage (each a difference of two CLOCK_MONOTONIC readings).
STAGE_WORDS = {
    "press_to_commit": "press → commit (its journal append)",
    "commit_to_paint": "commit → painted, the difference:",
    "commit_to_read": "  commit → push read off the socket",
    "read_to_model": "  push read → in the GUI's model",
    "model_to_paint": "  in the model → its paint begins",
    "paint": "  the paint",
}
STAGES = ("press_to_paint", *STAGE_WORDS)


def cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return int((usage.ru_utime + usage.ru_stime) * 1e9)


def ms(ns: float) -> float:
    return round(ns / 1e6, 2)


def spread(values: list[int]) -> dict[str, float]:
    """p50, p99 and max of ``values`` (ns), in ms."""
    return {
        "p50_ms": ms(percentile(values, 0.50)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values, default=0)),
    }


# -- the daemon's side (this process) --------------------------------------------------------------


class Buttons:
    """A table's two buttons, pressed by the benchmark through the daemon's own device interface.

    Like a player, it presses the side whose time runs — what the daemon last asked the
    clock to show. Each press is stamped (``time.monotonic_ns()``) as it is handed to the sink.
    """

    def __init__(self, table: int) -> None:
        self.table = table
        self.device_id = f"bench-{table}"
        self.sink: Sink | None = None
        self.seq = 0
        self.running: Side | None = None  # the side whose time the daemon shows running
        self.shown = threading.Event()

    def start(self, sink: Sink) -> None:
        self.sink = sink
        sink(Connected(table=self.table, t_ns=time.monotonic_ns(), device_id=self.device_id, detail="bench"))

    def stop(self) -> None:
        self.sink = None

    def acknowledge(self, press: DevicePress) -> None:
        pass

    def show(self, display: Display) -> None:
        self.running = display.running if isinstance(display, TwoClocks) else None
        if self.running is not None:
            self.shown.set()

    def beep(self, pattern: Beep) -> None:
        pass

    def status(self) -> DeviceStatus:
        return DeviceStatus(device_id=self.device_id, state=DeviceState.CONNECTED)

    def press(self, side: Side) -> int:
        """Press ``side`` now; the instant the press was handed to the daemon."""
        assert self.sink is not None, "the daemon has not started this device"
        self.seq += 1
        now = time.monotonic_ns()
        self.sink(
            DevicePress(
                table=self.table, t_ns=now, side=side, device_id=self.device_id, seq=self.seq, boot_id=1
            )
        )
        return now


@dataclass
class Hall:
    """The real daemon with the session on its tables, and the players at them."""

    workdir: Path
    daemon: Daemon | None = None
    token: str = ""
    port: int = 0
    buttons: dict[int, Buttons] = field(default_factory=dict)
    #: (table, the table's press count after the press) → when it was pressed / committed.
    pressed: dict[tuple[int, int], int] = field(default_factory=dict)
    committed: dict[tuple[int, int], int] = field(default_factory=dict)

    def start(self) -> None:
        from clockd.service.runtime import Daemon, TableSpec

        self.daemon = Daemon(
            self.workdir / "journal.db",
            tables=[TableSpec(t, f"Stolik {t}") for t in range(1, TABLES + 1)],
            port=0,
            write_daemon_info=False,
        )
        self.buttons = {t: Buttons(t) for t in range(1, TABLES + 1)}
        for t, b in self.buttons.items():
            self.daemon.add_device(t, b)
        started = self.daemon.start()
        self.port, self.token = started.port, started.token
        self._time_commits()

    @property
    def engine(self) -> Engine:
        assert self.daemon is not None and self.daemon.engine is not None, "the daemon is not running"
        return self.daemon.engine

    def _time_commits(self) -> None:
        """Note when each press became durable: right after the journal's append (its fsync) returns.

        (Not a listener on the engine's batches: those run after the API's, whose fan-out
        thread may then take the GIL before the listener notes the time.)
        """
        journal = self.engine.journal
        append = journal.append
        counts = {t: self.presses_of(t) for t in self.buttons}

        def timed(entries: Any) -> list[int]:
            seqs: list[int] = append(entries)
            now = time.monotonic_ns()
            for e in entries:
                if e.kind == "press" and e.table in counts:
                    counts[e.table] += 1  # a table's presses are journaled in order: this is its count
                    self.committed[(e.table, counts[e.table])] = now
            return seqs

        journal.append = timed  # type: ignore[method-assign, assignment]

    def presses_of(self, table: int) -> int:
        return self.engine.current.tables[table].presses

    def set_up_session(self) -> None:
        """The session as a referee makes it, through the API; every duel's clock started."""
        signups = resources.files("clockd.data").joinpath("sample-signups.csv").read_text(encoding="utf-8")
        with Client("127.0.0.1", self.port, self.token, by="bench") as c:
            c.act("", CreateEvent(event_kind="puzzle-duel", key=KEY, name="Puzzlowy Pojedynek (bench)"))
            done: Any = c.act(KEY, ImportSignups(csv=signups, source="sample-signups.csv"))
            main = [p for p in done.event.body.players if p.list == "main"]
            assert len(main) == 2 * TABLES, f"{len(main)} players on the main list"
            for p in main:
                c.act(KEY, CheckIn(player=p.id))
            c.act(KEY, CloseCheckIn())
            drawn: Any = c.act(KEY, MakeDraw(seed=SEED))
            bracket = drawn.event.body.bracket
            ready = [m for m in bracket.matches if m.round == 1 and m.status == "ready" and m.a and m.b]
            assert len(ready) == TABLES, f"{len(ready)} round-one duels"
            for table, m in enumerate(ready, start=1):
                c.act(f"{KEY}/{m.id}", Assign(table=table))
                winner = m.a if table % 2 else m.b  # both sides' times start somewhere
                c.act(f"{KEY}/{m.id}", Toss(winner=winner))
                # the toss loser starts the winner's time; side a is the match's first entrant
                self.buttons[table].press(Side.B if winner == m.a else Side.A)
        for b in self.buttons.values():
            if not b.shown.wait(5):
                raise RuntimeError(f"the clock of table {b.table} did not start")

    def play(self, seconds: float, rng: random.Random) -> int:
        """Presses at human pace at every table for ``seconds``; how many were made."""
        start = time.monotonic()
        due = {t: start + rng.uniform(0.1, PACE_S[0]) for t in self.buttons}
        end = start + seconds
        counts = {t: self.presses_of(t) for t in self.buttons}
        made = 0
        while (now := time.monotonic()) < end:
            table = min(due, key=due.__getitem__)
            if due[table] > now:
                time.sleep(min(due[table], end) - now)
                continue
            b = self.buttons[table]
            if b.running is not None:
                counts[table] += 1
                self.pressed[(table, counts[table])] = b.press(b.running)
                made += 1
            due[table] = time.monotonic() + rng.uniform(*PACE_S)
        return made

    def check(self) -> dict[str, int]:
        """What the daemon made of the presses: how many it journaled, how many the clocks ignored."""
        with Client("127.0.0.1", self.port, self.token, by="bench") as c:
            faces = [getattr(t.program, "clock", None) for t in c.status().tables]
        ignored = sum(sum(dict(face.ignored).values()) for face in faces if face is not None)
        return {"journaled": sum(1 for key in self.pressed if key in self.committed), "ignored": ignored}

    def stop(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()
            self.daemon = None


class GuiProcess:
    """The GUI child: its orders on stdin, its JSON lines read from its stdout (stderr is ours)."""

    def __init__(self, config: dict[str, Any], workdir: Path) -> None:
        root = Path(__file__).resolve().parent.parent
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "DUELCLOCK_STATE_DIR": str(workdir / "state"),  # never the referee's daemon.json …
            "XDG_CONFIG_HOME": str(workdir / "config"),  # … nor their settings
            "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p),
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.bench_gui", "--child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=root,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        try:
            threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
            self.send(json.dumps(config))
        except BaseException:
            self.close()
            raise

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, key: str, timeout_s: float) -> dict[str, Any]:
        """The next JSON line of the child that has ``key``; other lines it prints are passed on."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"bench_gui: the GUI sent no {key!r} within {timeout_s:.0f} s") from None
            if line is None:
                raise RuntimeError(f"bench_gui: the GUI exited ({self.proc.wait()}) before sending {key!r}")
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and key in message:
                return message
            sys.stderr.write(line)

    def close(self) -> None:
        """End the child whatever it is doing: its stdin closed (it quits), killed if it lingers."""
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        try:
            self.proc.wait(3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


# -- the GUI's side (the child process) ------------------------------------------------------------


def child() -> None:
    """The referee window (and the audience screen) on the daemon; orders on stdin, figures on stdout."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    config = json.loads(_stdin_line())
    from PySide6.QtCore import QEvent, QObject, QSocketNotifier, QTimer, QtMsgType, qInstallMessageHandler

    from gui.adapter import DaemonConnection
    from gui.app import Options, application
    from gui.deskmodel import Change, DeskModel
    from gui.referee import RefereeWindow

    def quiet(kind: QtMsgType, context: object, message: str) -> None:
        if "propagateSizeHints" not in message:  # the offscreen platform's one harmless complaint
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(quiet)
    app: Any = application(Options(lang="pl"))
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=config["port"], token=config["token"], by="bench")
    window = RefereeWindow(model, conn)
    window.resize(1600, 1000)
    window.show()
    timers = {"desk": window.timer}
    #: the views that draw a card per table (their paints are matched to presses) …
    views: dict[str, Any] = {"desk.tables": window.tables, "desk.bracket": window.bracket}
    #: … and one that is only timed (the selected table's detail)
    timed_only = {"desk.detail": window.detail}
    if config["audience"]:
        from gui.audience import AudienceWindow

        audience = AudienceWindow(model)
        audience.resize(1920, 1080)
        audience.show()
        timers["audience"] = audience.timer
        views.update({"audience.live": audience.live, "audience.bracket": audience.bracket})

    measuring = [False]
    #: "table:presses" → when the model first held that state
    applied: dict[str, int] = {}
    #: view → "table:presses" → [its paint began, ended, the state was read off the socket]
    painted: dict[str, dict[str, list[int]]] = {name: {} for name in views}
    paint_ns: dict[str, list[int]] = {name: [] for name in (*views, *timed_only)}
    ticks: dict[str, list[int]] = {name: [] for name in timers}

    def model_changed(change: Change, tables: frozenset[int]) -> None:
        if change is Change.TABLES:
            now = time.monotonic_ns()
            for t in tables:
                table = model.state.tables.get(t)
                if table is not None:
                    applied.setdefault(f"{t}:{table.presses}", now)

    model.subscribe(model_changed)

    def cards(view: Any) -> dict[int, Any]:
        """Table → the rectangle of its card in ``view``: a table card, or its duel's bracket card."""
        if hasattr(view, "shown_tables"):
            return dict(view.cards)
        bracket = view.state.bracket
        out = {}
        if bracket is not None:
            for mid, rect in view.cards.items():
                m = bracket.matches.get(mid)
                live = bracket.live_match_of(m) if m is not None else None
                if live is not None and live.table is not None:
                    out[live.table] = rect
        return out

    class PaintSpy(QObject):
        """Does ``view``'s paint itself (all its ``event()`` does with a paint), to see when it is done."""

        def __init__(self, name: str, view: Any, matched: bool) -> None:
            super().__init__()
            self.name, self.view, self.matched = name, view, matched
            view.installEventFilter(self)

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() != QEvent.Type.Paint:
                return False
            began = time.monotonic_ns()
            self.view.paintEvent(event)
            done = time.monotonic_ns()
            if measuring[0]:
                paint_ns[self.name].append(done - began)
            if self.matched:
                region = event.region()  # type: ignore[attr-defined]
                seen = painted[self.name]
                tables = self.view.state.tables
                for t, rect in cards(self.view).items():
                    table = tables.get(t)
                    if table is not None and region.intersects(rect):
                        seen.setdefault(f"{t}:{table.presses}", [began, done, table.received_ns])
            return True

    spies = [PaintSpy(n, v, True) for n, v in views.items()]
    spies += [PaintSpy(n, v, False) for n, v in timed_only.items()]
    for name, timer in timers.items():
        timer.timeout.connect(lambda stamps=ticks[name]: measuring[0] and stamps.append(time.monotonic_ns()))

    span: dict[str, int] = {}

    def finish() -> None:
        conn.stop()
        app.quit()

    def order(line: str) -> None:
        if line == "go":
            measuring[0] = True
            span.update(cpu=time.process_time_ns(), wall=time.monotonic_ns(), pushes=conn.pushes)
        elif line == "stop":
            measuring[0] = False
            span.update(
                cpu=time.process_time_ns() - span["cpu"],
                wall=time.monotonic_ns() - span["wall"],
                pushes=conn.pushes - span["pushes"],
            )
        elif line == "end":
            report = {
                "report": True,
                "cpu_ns": span.get("cpu", 0),
                "wall_ns": span.get("wall", 0),
                "pushes": span.get("pushes", 0),
                "applied": applied,
                "painted": painted,
                "paint_ns": paint_ns,
                "ticks": ticks,
                "refresh_ms": window.timer.interval(),
                "selected": window.selected_table,
            }
            print(json.dumps(report), flush=True)
            finish()

    pending = [b""]

    def readable() -> None:
        chunk = os.read(0, 4096)
        if not chunk:  # the parent is gone
            finish()
            return
        pending[0] += chunk
        while b"\n" in pending[0]:
            line, pending[0] = pending[0].split(b"\n", 1)
            order(line.decode().strip())

    notifier = QSocketNotifier(0, QSocketNotifier.Type.Read)
    notifier.activated.connect(readable)

    def ready() -> bool:
        """Every table's state, the session shown, every duel's card drawn in every view."""
        state = model.state
        return (
            len(state.tables) == TABLES
            and state.bracket is not None
            and all(state.duel_at(t) is not None for t in range(1, TABLES + 1))
            and all(len(cards(v)) == TABLES for v in views.values())
        )

    def wait_ready() -> None:
        if ready():
            print(json.dumps({"ready": True, "views": list(views)}), flush=True)
        else:
            QTimer.singleShot(20, wait_ready)

    conn.start()
    wait_ready()
    app.exec()
    del spies, notifier


def _stdin_line() -> str:
    """One line of stdin, read without a buffer (the rest stays for the event loop's notifier)."""
    out = b""
    while not out.endswith(b"\n"):
        chunk = os.read(0, 1)
        if not chunk:
            raise SystemExit("bench_gui --child: no configuration on stdin")
        out += chunk
    return out.decode()


# -- the run -----------------------------------------------------------------------------------------


def run(seconds: float, audience: bool, seed: int) -> dict[str, Any]:
    """The daemon here, the GUI in a child; presses for ``seconds``; every figure."""
    with tempfile.TemporaryDirectory(prefix="duelclock-bench-gui-") as tmp:
        workdir = Path(tmp)
        hall = Hall(workdir)
        gui: GuiProcess | None = None
        try:
            hall.start()
            hall.set_up_session()
            engine = hall.engine
            gui = GuiProcess({"port": hall.port, "token": hall.token, "audience": audience}, workdir)
            views = gui.expect("ready", 60)["views"]
            time.sleep(WARM_S)
            engine.barrier().result(10)
            engine.stats.latencies_ns.clear()
            engine.stats.keep_latencies = True
            gui.send("go")
            cpu0, wall0, batches0 = cpu_ns(), time.monotonic_ns(), engine.stats.batches
            presses = hall.play(seconds, random.Random(seed))
            engine.barrier().result(10)
            daemon = {
                "cpu_ns": cpu_ns() - cpu0,
                "wall_ns": time.monotonic_ns() - wall0,
                "commits": engine.stats.batches - batches0,
                "commit_ns": list(engine.stats.latencies_ns),
            }
            gui.send("stop")
            time.sleep(TAIL_S)  # the last presses' paints
            gui.send("end")
            report = gui.expect("report", 30)
            daemon.update(hall.check())
        finally:
            if gui is not None:
                gui.close()
            hall.stop()
    return figures(hall, views, presses, daemon, report)


def figures(
    hall: Hall, views: list[str], presses: int, daemon: dict[str, Any], report: dict[str, Any]
) -> dict[str, Any]:
    """The JSON line's figures: per view, every press matched to the first paint showing it."""
    applied = report["applied"]

    def stages_of(name: str, keys: list[tuple[int, int]]) -> dict[str, Any]:
        seen = report["painted"][name]
        stages: dict[str, list[int]] = {s: [] for s in STAGES}
        for key in keys:
            got = seen.get(f"{key[0]}:{key[1]}")
            committed = hall.committed.get(key)
            if got is None or committed is None:
                continue
            pressed = hall.pressed[key]
            began, done, received = got
            model = applied.get(f"{key[0]}:{key[1]}", received)
            values = (
                done - pressed,
                committed - pressed,
                done - committed,
                received - committed,
                model - received,
                began - model,
                done - began,
            )
            for stage, value in zip(STAGES, values, strict=True):
                stages[stage].append(value)
        return {
            "painted": len(stages["press_to_paint"]),
            "never_shown": len(keys) - len(stages["press_to_paint"]),
            **{stage: spread(values) for stage, values in stages.items()},
        }

    keys = list(hall.pressed)
    per_view = {name: stages_of(name, keys) for name in views}
    # the desk's selected table is drawn three times (its card, the detail, its timeline): apart
    selected = report["selected"]
    desk_selected = {
        "table": selected,
        "selected": stages_of("desk.tables", [k for k in keys if k[0] == selected]),
        "others": stages_of("desk.tables", [k for k in keys if k[0] != selected]),
    }
    wall_s = report["wall_ns"] / 1e9 or 1.0
    frames = {
        name: {"paints_per_s": round(len(d) / wall_s, 1), **spread(d)}
        for name, d in report["paint_ns"].items()
    }
    refresh = {}
    for name, stamps in report["ticks"].items():
        gaps = [b - a for a, b in itertools.pairwise(stamps)]
        refresh[name] = {"ticks_per_s": round(len(stamps) / wall_s, 1), "gap": spread(gaps)}
    desk = per_view["desk.tables"]
    return {
        "tables": TABLES,
        "refresh_hz": round(1000 / report["refresh_ms"]),
        "presses": presses,
        "presses_journaled": daemon["journaled"],
        "presses_ignored": daemon["ignored"],
        "commits_per_s": round(daemon["commits"] * 1e9 / daemon["wall_ns"], 1),
        "press_to_commit": spread(daemon["commit_ns"]),
        "press_to_paint": desk["press_to_paint"],
        "commit_to_paint": desk["commit_to_paint"],
        "views": per_view,
        "desk_selected_table": desk_selected,
        "gui_cpu_percent": round(100 * report["cpu_ns"] / max(1, report["wall_ns"]), 1),
        "daemon_cpu_percent": round(100 * daemon["cpu_ns"] / max(1, daemon["wall_ns"]), 1),
        "pushes_per_s": round(report["pushes"] / wall_s, 1),
        "frames": frames,
        "refresh": refresh,
    }


def show(f: dict[str, Any], seconds: float, audience: bool) -> None:
    def line(s: dict[str, float]) -> str:
        return f"p50 {s['p50_ms']:5.1f} ms, p99 {s['p99_ms']:5.1f} ms, max {s['max_ms']:5.1f} ms"

    windows = "referee window + audience screen" if audience else "referee window"
    print(
        f"{f['tables']} duels on the real daemon, clocks refreshed at {f['refresh_hz']} Hz, "
        f"{seconds:g} s, {windows}"
    )
    desk = f["views"]["desk.tables"]
    print(
        f"presses: {f['presses']} ({f['presses_journaled']} journaled, {f['presses_ignored']} ignored by the "
        f"clocks; {f['commits_per_s']} commits/s); shown on the desk's table cards: {desk['painted']}, "
        f"never: {desk['never_shown']}"
    )
    print(f"press → commit (the engine's figure)     {line(f['press_to_commit'])}")
    print(f"press → desk's table card painted        {line(f['press_to_paint'])}")
    for stage, words in STAGE_WORDS.items():
        print(f"  {words:<39}{line(desk[stage])}")
    sel = f["desk_selected_table"]
    for words, part in (
        (f"at the selected table ({sel['table']}):", sel["selected"]),
        ("at the other tables:", sel["others"]),
    ):
        print(
            f"  {words:<39}{line(part['press_to_paint'])}; "
            f"model → paint p50 {part['model_to_paint']['p50_ms']:.1f} ms"
        )
    for name, v in f["views"].items():
        if name != "desk.tables":
            print(
                f"press → {name + ' painted':<33}{line(v['press_to_paint'])} "
                f"(never shown: {v['never_shown']})"
            )
    print(
        f"GUI process CPU: {f['gui_cpu_percent']:.1f} % of one core ({f['pushes_per_s']} pushes/s); "
        f"the daemon's process: {f['daemon_cpu_percent']:.1f} %"
    )
    for name, fr in f["frames"].items():
        print(f"paint of {name:<17}{fr['paints_per_s']:>5} /s, {line(fr)}")
    for name, r in f["refresh"].items():
        print(f"refresh of the {name}: {r['ticks_per_s']} ticks/s, between ticks {line(r['gap'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time of presses")
    parser.add_argument("--seed", type=int, default=7, help="the players' pace")
    parser.add_argument("--audience", action="store_true", help="also drive the audience screen")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    # a plain kill still runs the clean-up: the GUI child ended, the daemon stopped, the folder gone
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    f = run(args.seconds, args.audience, args.seed)
    show(f, args.seconds, args.audience)
    print(json.dumps({"bench": "gui", "seconds": args.seconds, "audience": args.audience, **f}))


if __name__ == "__main__":
    main()
