"""``duelclock demo --event relay|blind|team``: a whole zone contest on the real daemon.

Everything real but the people and the hardware, as the Puzzle Duel's demo
(:mod:`clockd.kinds.duel.demo`): the daemon (journal, engine, API server) runs in this process on
a temporary database; every pair's or team's table is a **GPIO table on gpiozero's mock
pins** (:class:`hw_sim.gpio.ScriptedFactory`), read by the real GPIO driver, with a
buzzer. The referee — this program — runs the event through the API as the desk does:
the entries join at their tables, the start signal, the referee's records (blind
puzzling's bag 2, the team event's missing pieces), the counts after the end, the
confirmation. The pairs press their table's button when they finish.

Time is simulated (:class:`hw_sim.simtime.SimTime`): it jumps to the next thing that
happens — a signal, a finish, the end — and ``--speed`` paces it for watching (300: five
minutes of the event per second, the relay in about 12 s, the team event in about 40 s).

At the end the program checks what a referee would: every signal (the relay's "ZMIANA"
every 5 minutes, the end) raised every table's buzzer pin, every finish came from a
table's button, and the results file has places 1–3.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from clockd import i18n
from hw_sim.names import FIRST, LAST

T0 = 1_000_000_000_000
MS = 1_000_000
SECOND = 1_000 * MS
MINUTE = 60 * SECOND

#: Each table's pins on the simulated Pi: button a, button b, buzzer (BCM).
PINS = [
    (17, 27, 22),
    (5, 6, 13),
    (19, 26, 21),
    (20, 16, 12),
    (23, 24, 25),
    (8, 7, 18),
    (9, 10, 11),
    (14, 15, 4),
]

#: The team event's teams (fictional, as the players are).
TEAMS = ["Smoki", "Wiedźmini", "Elfy", "Krasnoludy", "Gryfy", "Feniksy", "Jednorożce", "Hobbici"]

#: How many entries each demo seats, and the event's length (minutes).
SHAPE = {"relay": (8, 60), "blind": (6, 60), "team": (6, 180)}


class ZoneDemoError(i18n.Problem, RuntimeError):
    """The demo cannot go on (a buzzer that never sounds, a finish that is not journaled)."""


class ZoneDemo:
    def __init__(self, *, kind: str, db: Path, speed: float, seed: int) -> None:
        self.kind = kind
        self.db = db
        self.speed = speed
        self.seed = seed
        self.rng = random.Random(seed)
        self.n, self.minutes = SHAPE[kind]
        self.key = {"relay": "sztafeta", "blind": "ciemno", "team": "druzynowy"}[kind]

    # -- the whole thing -------------------------------------------------------------------------
    def run(self, json_out: Path | None) -> int:
        from clockd.api.client import Client
        from clockd.devices.gpio import GpioTable
        from clockd.devices.gpio_config import TableConfig
        from clockd.service.runtime import Daemon, TableSpec
        from hw_sim.gpio import ScriptedFactory
        from hw_sim.simtime import SimTime

        self.time = SimTime(source=lambda: T0)
        self.pi = ScriptedFactory()
        daemon = Daemon(
            self.db,
            tables=[TableSpec(t, f"Stolik {t}") for t in range(1, self.n + 1)],
            port=0,
            boot_id="duelclock-demo",
            clock=self.time,
            write_daemon_info=False,
        )
        for t in range(1, self.n + 1):
            a, b, buzzer = PINS[t - 1]
            config = TableConfig(number=t, button_a=a, button_b=b, buzzer=buzzer)
            daemon.add_device(t, GpioTable(config, pin_factory=self.pi, clock=self.time))
        try:
            started = daemon.start()
            self.daemon = daemon
            self.client = Client(started.host, started.port, started.token, by="Sędzia (demo)")
            self.start_ns = self.time()
            self.real_start = time.monotonic()
            self._prepare()
            self._play()
            return self._finish(json_out)
        finally:
            if hasattr(self, "client"):
                self.client.close()
            daemon.stop()

    # -- before the start --------------------------------------------------------------------------
    def _prepare(self) -> None:
        from clockd.core.actions import CreateEvent
        from clockd.core.zone import AddEntry

        self.client.act("", CreateEvent(event_kind=self.kind, key=self.key))
        people = self.rng.sample(range(len(FIRST)), len(FIRST))
        size = 4 if self.kind == "team" else 2
        self.names: dict[str, str] = {}
        for t in range(1, self.n + 1):
            entry = f"druzyna-{t}" if self.kind == "team" else f"para-{t}"
            ks = [(t - 1) * size + i for i in range(size)]
            members = [FIRST[people[k % len(people)]] for k in ks]
            if self.kind == "team":  # 24 people: first names and an initial
                # past the 20 first names the surnames shift, so no two teams look alike
                n = len(people)
                initials = [LAST[(k * 7 + 3 * (k // n)) % len(LAST)][0] for k in ks]
                members = [f"{FIRST[people[k % n]]} {i}." for k, i in zip(ks, initials, strict=True)]
            name = ", ".join(members[:-1]) + " i " + members[-1]
            if self.kind == "team":
                name = f"{TEAMS[t - 1]} ({name})"
            self.names[entry] = name
            self.act(AddEntry(entry=entry, name=name, table=t))
        kind = i18n.text(f"term.event-kind.{self.kind}")
        self.say(i18n.text("cli.demo-zone.seated", kind=kind, n=self.n, minutes=self.minutes))
        # who finishes when (event time), or not at all; the team event's missing pieces
        self.plan: dict[str, dict[str, int]] = {}
        entries = list(self.names)
        late = set(self.rng.sample(entries, 2))
        for entry in entries:
            length = self.minutes * MINUTE
            if entry in late:
                finish = length + self.rng.randrange(1, 20) * MINUTE  # would need more time
            else:
                finish = self.rng.randrange(int(length * 0.62), int(length * 0.98))
                finish -= finish % (250 * MS)
            self.plan[entry] = {
                "finish": finish,
                "split": finish * self.rng.randrange(40, 55) // 100,
                "missing": self.rng.choice([0, 0, 0, 1, 2, 3]),
            }
        if self.kind == "team":
            void = self.rng.choice([e for e in entries if e not in late])
            self.plan[void]["missing"] = 12  # more than 10 missing: the attempt is void (§5.2.7)

    # -- the event -----------------------------------------------------------------------------------
    def _play(self) -> None:
        from clockd.core.hall import FinishEntry, TimerStart
        from clockd.core.zone import MissingPieces, SplitEntry

        self.act(TimerStart())
        self.t_start = self.time()
        self.say(i18n.text("cli.demo-zone.start"))
        pending: list[tuple[int, str, str]] = []
        for entry, p in self.plan.items():
            pending.append((self.t_start + p["finish"], "finish", entry))
            if self.kind == "blind":
                pending.append((self.t_start + p["split"], "split", entry))
        pending.sort()
        self.signals_heard = 0
        self.buzzed = 0
        while True:
            body = self.body()
            if body.timer.phase == "ended":
                break
            assert self.daemon.engine is not None
            deadlines = [d for c in self.daemon.engine.components if (d := c.next_deadline()) is not None]
            upcoming = [p[0] for p in pending] + deadlines
            if not upcoming:
                raise ZoneDemoError("cli.demo.stuck")
            marks = self._marks()
            before = len(self._signals())
            self._advance_to(min(upcoming))
            self._heard(self._signals()[before:], marks)
            while pending and pending[0][0] <= self.time():
                _, what, entry = pending.pop(0)
                if self.body().timer.phase == "ended":
                    break
                if what == "split":
                    self.act(SplitEntry(entry=entry))
                    self.say(i18n.text("cli.demo-zone.split", name=self.names[entry]))
                    continue
                marks = self._marks()
                before = len(self._signals())
                if self.kind == "blind":  # the pair calls the referee, who records the finish (§4.2.11)
                    self.act(FinishEntry(entry=entry))
                else:
                    self._press_button(entry)
                self.say(i18n.text("cli.demo-zone.finished", name=self.names[entry]))
                self._heard(self._signals()[before:], marks)  # the last finish: the end sounds
                missing = self.plan[entry]["missing"]
                if self.kind == "team" and missing:
                    self.act(MissingPieces(entry=entry, missing=missing))
                    self.say(i18n.text("cli.demo-zone.missing", name=self.names[entry], missing=missing))

    def _heard(self, signals: list[Any], marks: dict[int, int]) -> None:
        """Signals were journaled: every table's buzzer pin must go high for them."""
        if not signals:
            return
        deadline = time.monotonic() + 10
        while not all(self._rose_since(t, mark) for t, mark in marks.items()):
            if time.monotonic() > deadline:
                silent = [t for t, mark in marks.items() if not self._rose_since(t, mark)]
                raise ZoneDemoError("cli.demo-zone.buzzer-silent", tables=silent)
            time.sleep(0.001)
        # each beep is its own rise: let the first pulse end before time goes on (a beep
        # that starts while the pin is still high from the last would show no edge)
        while any(self.pi.pin(PINS[t - 1][2]).state for t in marks):
            if time.monotonic() > deadline:
                break
            time.sleep(0.001)
        for signal in signals:
            self.signals_heard += 1
            self.buzzed += 1
            what = signal.what
            word = i18n.text("cli.demo-zone.change") if what == "signal" else i18n.text("cli.demo-zone.end")
            self.say(f"{word}  ({i18n.text('cli.demo-zone.buzzers', n=self.n)})")

    def _marks(self) -> dict[int, int]:
        """Where each table's buzzer pin's record of levels stands now."""
        return {t: len(self.pi.pin(PINS[t - 1][2]).states) for t in range(1, self.n + 1)}

    def _rose_since(self, table: int, mark: int) -> bool:
        states = list(self.pi.pin(PINS[table - 1][2]).states)
        previous = states[mark - 1].state if mark > 0 else 0
        for s in states[mark:]:
            if s.state and not previous:
                return True
            previous = s.state
        return False

    def _press_button(self, entry: str) -> None:
        """The pair presses its table's button; wait until the daemon has journaled the finish."""
        table = int(entry.rsplit("-", 1)[1])
        pin = self.pi.scripted_pin(PINS[table - 1][0])
        before = len(self._finishes())
        now = self.time()
        pin.drive_at(0, now)
        self._settle()
        self.time.advance(80 * MS)
        pin.drive_at(1, self.time())
        deadline = time.monotonic() + 10
        while len(self._finishes()) == before:
            if time.monotonic() > deadline:
                raise ZoneDemoError("cli.demo-zone.finish-not-journaled", table=table)
            self._settle()

    def _advance_to(self, target: int) -> None:
        now = self.time()
        if target > now:
            if self.speed > 0:
                due_real = self.real_start + (target - self.start_ns) / 1e9 / self.speed
                pause = due_real - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
            self.time.advance(target - now)
        self._settle()

    def _settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(timeout=10)
        self.daemon.engine.barrier().result(timeout=10)

    # -- after the end ---------------------------------------------------------------------------------
    def _finish(self, json_out: Path | None) -> int:
        import sys

        from clockd.api.messages import EventResults, EventResultsReply
        from clockd.core.zone import ConfirmRanking, CountEntry
        from clockd.i18n import language
        from clockd.reports.zone import ZoneResults

        body = self.body()
        for e in body.entries:
            if e.finished_ms is None and e.why is None:
                # a count is never more than the puzzle holds (the event refuses it)
                whole = None if body.pieces is None else body.pieces * body.pictures
                top = 380 if self.kind != "team" else 900
                top = top if whole is None else min(top, whole)
                total = (self.plan[e.entry].get("pieces") or 0) or self.rng.randrange(min(150, top // 2), top)
                self.act(CountEntry(entry=e.entry, pieces=total))
                self.say(i18n.text("cli.demo-zone.counted", name=self.names[e.entry], pieces=total))
        self.act(ConfirmRanking())
        reply = self.client.request(EventResults(event=self.key, lang=language()))
        assert isinstance(reply, EventResultsReply)
        results = ZoneResults.model_validate(reply.results)
        print(i18n.text("cli.demo-zone.ranking"), flush=True)
        for row in results.ranking:
            place = "—" if row.place is None else f"{row.place}."
            time_text = "" if row.time_ms is None else i18n.text("cli.station-done", at_ms=row.time_ms)
            pieces = "" if row.pieces is None else i18n.text("cli.event.pieces", pieces=row.pieces)
            missing = "" if not row.missing else i18n.text("cli.event.missing", missing=row.missing)
            star = " *" if row.podium else ""
            note = ""
            if row.why == "missing":
                note = i18n.text("report.zone.why-missing")
            print(
                f"  {place:>4s} {row.name}  ({i18n.text('term.table-short', table=row.table)})"
                f"  {time_text}{pieces}  {missing}  {note}{star}".rstrip(),
                flush=True,
            )
        if json_out is not None:
            json_out.write_text(results.model_dump_json(indent=2), encoding="utf-8")
            print(i18n.text("cli.demo.results", json_out=json_out), flush=True)
        problems = self._check(results)
        if problems:
            print(i18n.text("cli.demo.results-check-failed"), file=sys.stderr)
            for p in problems:
                print(f"  {p}", file=sys.stderr)
            return 1
        real = time.monotonic() - self.real_start
        print(
            i18n.text(
                "cli.demo-zone.check-ok",
                signals=self.signals_heard,
                buzzers=self.n,
                finishes=len(self._finishes()),
                real=real,
            ),
            flush=True,
        )
        return 0

    def _check(self, results: Any) -> list[str]:
        out: list[str] = []
        signals = self._signals()
        if self.kind == "relay" and sum(1 for s in signals if s.what == "signal") < 1:
            out.append(i18n.text("cli.demo-zone.no-signals"))
        if self.buzzed != len(signals):
            out.append(i18n.text("cli.demo-zone.buzzer-short", beeps=self.buzzed, n=len(signals)))
        sources = {f.source for f in self._finishes()}
        if self.kind != "blind" and sources != {"button"}:
            out.append(i18n.text("cli.demo-zone.not-buttons"))
        top = results.ranking[:3]
        if len(top) < 3 or top[0].place != 1 or not all(r.place is not None and r.podium for r in top):
            out.append(i18n.text("cli.demo-zone.no-podium"))
        return out

    # -- helpers ------------------------------------------------------------------------------------------
    def _signals(self) -> list[Any]:
        assert self.daemon.engine is not None
        return [
            r.entry
            for r in self.daemon.engine.journal.read()
            if r.entry.kind == "timer-due" and getattr(r.entry, "what", "") in ("signal", "end")
        ]

    def _finishes(self) -> list[Any]:
        assert self.daemon.engine is not None
        return [r.entry for r in self.daemon.engine.journal.read() if r.entry.kind == "entry-finish"]

    def act(self, action: Any) -> Any:
        return self.client.act(self.key, action)

    def body(self) -> Any:
        return self.client.events([self.key]).events[0].body

    def say(self, text: str) -> None:
        elapsed = (self.time() - self.t_start) // SECOND if hasattr(self, "t_start") else 0
        print(f"[{elapsed // 3600}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}] {text}", flush=True)
