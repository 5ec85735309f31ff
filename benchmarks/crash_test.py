"""The crash test: the real daemon process, killed with SIGKILL at random moments, restarted.

    python -m benchmarks.crash_test                 # 100 cycles, 8 clocks (a few minutes)
    python -m benchmarks.crash_test --cycles 5      # the short version the test suite runs
    python -m benchmarks.crash_test --wal-removed 0 --hard-links 0   # kills only

The simulated serial clocks live in *this* process (``hw_sim.serial_clock``), on
pseudo-terminals the daemon opens through its real serial driver, so they survive every
kill — as real clocks do — keep their players pressing while no daemon runs, and re-send
what was not acknowledged when the next daemon connects. Each cycle starts
``duelclock run`` on the same journal, lets it work under load for a random time (or
kills it during start-up, at a random instant), reads its state through the API at a
random moment, then ``kill -9``. Clocks lose power too (``--reboots``, the chance per
cycle): one reboots while the daemon runs, or while it is down — then the presses it kept
come to a daemon that never knew their clock, and are journaled with a bounded time.
After the last cycle the players stop, a final daemon drains every clock and is stopped
cleanly.

Bad days, besides the kills (each in a few cycles, ``--wal-removed`` and ``--hard-links``):

* **the -wal removed** while the daemon runs under load. It must stop acknowledging at once
  and stop by itself with the sentence that says so (``wal_alerts``), having saved what was
  committed; the next start goes on from the journal and the clocks re-send the rest;
* **the journal hard-linked** (a second name for the same file) while the daemon runs; then
  it is killed, and a daemon started through the other name must refuse (``link_refusals``)
  rather than start on the file without the last commits in the first name's -wal; the other
  name is removed and the run goes on.

A press lost without an alert counts in ``lost`` all the same.

Checked, and printed as one JSON line:

* ``lost``: presses the clocks made (all of them, at the end) that are not in the journal,
  plus — at every kill — presses a clock had been told were safe (acknowledged) that were
  not in the journal at that moment. Must be 0.
* ``wal_removed``/``wal_alerts``, ``hard_links``/``link_refusals``: the bad days above and the
  alerts they raised (each must have raised its own).
* ``duplicated``: journal entries of the same press (device, boot, seq) beyond the first. Must be 0.
* ``state_mismatches``: tables whose state, as the daemon reported it at journal seq S
  (before a kill, after a restart from snapshot + tail, and at the end), differs from the
  journal folded up to S from the first event by an independent read-only engine. Must be 0.
* ``acked``, ``journaled``, ``presses``, ``cycles``, ``reboots``, restart times, and the
  worst error between a press's journaled instant and the instant it really happened
  (µs) — for presses whose time was measured; ``time_uncertain`` presses (kept across a
  reboot while no daemon knew the clock) have an upper bound instead, and
  ``bound_margin_us_min`` is the least by which a bound exceeded the truth (not below 0
  but for the clock's drift).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clockd.api import ApiError, Client
from clockd.api.local import resolve
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Confirm, Override, Toss
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.events import EventHost, EventsView
from clockd.service.views import event_digest, state_digest
from clockd.store.journal import Journal, JournalError
from clockd.store.schema import SchemaError
from firmware_protocol.messages import WireSide
from hw_sim.players import PlayerModel
from hw_sim.serial_clock import SerialClockFarm, SimulatedSerialClock

MS = 1_000_000
ROOT = Path(__file__).resolve().parent.parent

#: A small Puzzle Duel (four players, two rounds) the referee runs again and again during the kills.
SESSION_TOML = """
name = "Próba wytrzymałości"
players = 4
[[rounds]]
players = 4
pieces = 10
time_per_side = "5m"
[[rounds]]
players = 2
pieces = 10
time_per_side = "5m"
"""
SIGNUPS = "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Próba{i};{20 + i}\n" for i in range(1, 5))
BUSY = ("assigned", "result", "tiebreak")


class Referee:
    """A referee at the desk while the daemon is being killed: sessions, draws, and above all
    "assign a match to a table" and "record the toss" — each a composite action (the match's
    change and the table's program in one journal batch) — as fast as the daemon answers, so
    kills fall between and inside them. Stops at the first sign the daemon has gone."""

    def __init__(self, tables: int, rng: random.Random) -> None:
        self.tables, self.rng = tables, rng
        self.sessions = 0
        self.done: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, port: int, token: str | None) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(port, token), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self, port: int, token: str | None) -> None:
        try:
            with Client(port=port, token=token, by="Sędzia", timeout_ms=3000) as client:
                while not self._stop.is_set():
                    if not self._step(client):
                        self._stop.wait(0.01)
        except (ConnectionError, OSError, TimeoutError):
            return  # killed: the next daemon gets a new referee

    def _act(self, client: Client, target: str, action: Any) -> bool:
        try:
            client.act(target, action)
        except ApiError:
            return False  # refused (a table taken meanwhile …): the next step looks again
        self.done[action.kind] = self.done.get(action.kind, 0) + 1
        return True

    def _step(self, client: Client) -> bool:
        """One action the desk allows now; False when there was nothing to do."""
        events = [e for e in client.events().events if e.kind == "puzzle-duel"]
        live = next((e for e in events if not _finished(e)), None)
        if live is None:
            self.sessions += 1
            key = f"s{len(events) + 1}"
            return self._act(
                client, "", CreateEvent(event_kind="puzzle-duel", key=key, config_toml=SESSION_TOML)
            )
        body = live.body
        if body.bracket is None:
            return self._register(client, live)
        tables = {t.table: t for t in client.status().tables}
        taken = {
            m.table for e in events if e.body.bracket for m in e.body.bracket.matches if m.status in BUSY
        }
        for m in body.bracket.matches:
            ref = f"{live.key}/{m.id}"
            if m.actions.get("match-confirm", "") is None:
                return self._act(client, ref, Confirm())
            overridable = m.actions.get("match-override", "") is None and m.status in BUSY
            if m.toss_winner is not None and overridable and m.a is not None:
                return self._act(client, ref, Override(winner=m.a, category="other", reason="próba"))
            if m.actions.get("match-toss", "") is None and m.a is not None:
                return self._act(client, ref, Toss(winner=m.a))
            if m.actions.get("match-assign", "") is None:
                free = [t for t in tables if t not in taken]
                if free:
                    return self._act(client, ref, Assign(table=self.rng.choice(free)))
        return False

    def _register(self, client: Client, live: Any) -> bool:
        actions = live.actions
        if actions.get("signups-import", "") is None and not live.body.players:  # once: a later
            return self._act(client, live.key, ImportSignups(csv=SIGNUPS))  # export may follow, not here
        for p in live.body.players:
            if p.actions.get("check-in", "") is None:
                return self._act(client, live.key, CheckIn(player=p.id))
        if actions.get("check-in-close", "") is None:
            return self._act(client, live.key, CloseCheckIn())
        if actions.get("draw", "") is None:
            return self._act(client, live.key, MakeDraw(seed=self.rng.getrandbits(16)))
        return False


def _finished(event: Any) -> bool:
    bracket = event.body.bracket
    return bracket is not None and all(m.status in ("decided", "cancelled") for m in bracket.matches)


def half_states(events: list[Any], tables: list[Any]) -> list[str]:
    """What a kill between a match's change and its table's program would leave: a match on a
    table that runs something else, a toss the table's clock does not know, a duel program
    whose match is not on that table. Each is named."""
    by_table = {t.table: t.program for t in tables}
    out: list[str] = []
    playing: dict[str, int] = {}
    for e in events:
        if e.kind != "puzzle-duel" or e.body.bracket is None:
            continue
        for m in e.body.bracket.matches:
            if m.status not in ("assigned", "result") or m.table is None:
                continue
            ref = f"{e.id}/{m.id}"
            playing[ref] = m.table
            program = by_table.get(m.table)
            if program is None or program.kind != "puzzle-duel" or program.owner != ref:
                out.append(f"{ref} is on table {m.table}, which runs {getattr(program, 'owner', None)}")
            elif (m.toss_winner is None) != (program.toss_winner is None):
                out.append(f"{ref}: the match's toss and table {m.table}'s clock disagree")
    for table, program in by_table.items():
        if program.kind == "puzzle-duel" and playing.get(program.owner or "") not in (table, None):
            out.append(f"table {table} runs {program.owner}, which is on table {playing[program.owner]}")
    return out


class BlindPlayers:
    """Two players at one clock who alternate presses whatever the daemon does (as people do)."""

    def __init__(
        self, farm: SerialClockFarm, clock: SimulatedSerialClock, model: PlayerModel, rng: random.Random
    ):
        self.farm, self.clock, self.model, self.rng = farm, clock, model, rng
        self.side = WireSide.A if rng.random() < 0.5 else WireSide.B
        self.playing = True

    def start(self) -> None:
        self.farm.call_later(self.model.think_ns(self.rng), self._press)

    def _press(self) -> None:
        if not self.playing:
            return
        self.clock.press(self.side)
        self.side = WireSide.B if self.side is WireSide.A else WireSide.A
        self.farm.call_later(self.model.think_ns(self.rng), self._press)


@dataclass
class Tally:
    cycles: int = 0
    kills_during_startup: int = 0
    lost_acked: int = 0
    reboots: int = 0
    states_checked: int = 0
    state_mismatches: int = 0
    half_states: int = 0
    half_checks: int = 0
    restart_ms: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wal_removed: int = 0
    wal_alerts: int = 0
    hard_links: int = 0
    link_refusals: int = 0


class Harness:
    def __init__(
        self,
        workdir: Path,
        *,
        clocks: int,
        think_ms: int,
        seed: int | None,
        reboots: float = 0.0,
        faults: dict[int, str] | None = None,
    ) -> None:
        self.workdir = workdir
        self.reboot_chance = reboots
        self.db = workdir / "crash.db"
        self.state = workdir / "state"
        self.rng = random.Random(seed)
        self.farm = SerialClockFarm(seed=self.rng.getrandbits(32))
        self.sims = [
            self.farm.add(f"CRASH-{i:03d}", drift_ppm=self.rng.uniform(-150, 150))
            for i in range(1, clocks + 1)
        ]
        model = PlayerModel(median_ms=think_ms, sigma=0.5, min_ms=30)
        self.players = [
            BlindPlayers(self.farm, s, model, random.Random(self.rng.getrandbits(32))) for s in self.sims
        ]
        self.config = workdir / "clocks.toml"
        lines = ["[daemon]", "snapshot_every = 500", ""]
        for table, sim in enumerate(self.sims, start=1):
            lines += [
                "[[tables]]",
                f"id = {table}",
                'control = "30m"',
                f'device = {{ kind = "serial", port = "{sim.path}", serial_number = "{sim.serial_number}" }}',
                "",
            ]
        self.config.write_text("\n".join(lines), encoding="utf-8")
        self.env = {**os.environ, "DUELCLOCK_STATE_DIR": str(self.state), "DUELCLOCK_LANG": "en"}
        self.tally = Tally()
        self.faults = faults or {}  # cycle number → "wal" or "link"
        self._audit: Engine | None = None
        self.referee = Referee(clocks, random.Random(self.rng.getrandbits(32)))

    # -- the daemon ---------------------------------------------------------------------------
    def spawn(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "clockd", "run", "--config", str(self.config), "--db", str(self.db),
             "--port", "0", "--sim", "0"],
            env=self.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def wait_ready(self, proc: subprocess.Popen[str], timeout_s: float = 30) -> int:
        """The daemon's API port once it printed its banner (it is then serving)."""
        assert proc.stdout is not None
        lines: list[str] = []
        box: dict[str, Any] = {}

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("Clocks:"):
                    box["ready"] = True
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout_s)
        if not box.get("ready"):
            err = proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
            raise RuntimeError(f"the daemon did not start: {''.join(lines)} {err}")
        api = next(line for line in lines if line.strip().startswith("API:"))
        return int(api.rsplit(":", 1)[1])

    def kill(self, proc: subprocess.Popen[str]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()

    def token(self) -> str | None:
        return resolve(path=self.state / "daemon.json")[2]

    # -- checks ---------------------------------------------------------------------------------
    def observe(self, port: int, where: str) -> list[tuple[int, dict[str, str]]] | None:
        """The daemon's state as it reports it — [(seq, digest per table), (seq, digest per
        event)] — and, when both replies are of one instant, whether it holds a half state.
        None if the daemon is gone."""
        try:
            with Client(port=port, timeout_ms=3000) as client:
                for _ in range(5):
                    status = client.status()
                    events = client.events()
                    if status.seq == events.seq:
                        self.tally.half_checks += 1
                        for problem in half_states(events.events, status.tables):
                            self.tally.half_states += 1
                            self.tally.notes.append(f"{where}: {problem}")
                        break
        except (ConnectionError, OSError, TimeoutError):
            return None
        return [
            (status.seq, {f"table {t.table}": t.digest for t in status.tables}),
            (events.seq, {f"event {e.key}": e.digest for e in events.events}),
        ]

    def _audit_engine(self) -> Engine:
        return Engine(Journal.reader(self.db), boot_id="audit", components=default_components())

    def check_state(self, observed: list[tuple[int, dict[str, str]]] | None, where: str) -> None:
        """Compare a reported state with the journal folded up to the same seq, from the first entry."""
        for seq, digests in observed or ():
            if self._audit is None:
                self._audit = self._audit_engine()
            if seq < self._audit.applied_seq:  # a later check went further: start again from the first
                self._audit.journal.close()
                self._audit = self._audit_engine()
            self._audit.rebuild(use_snapshots=False, upto=seq)
            replayed = replayed_digests(self._audit)
            self.tally.states_checked += len(digests)
            for name, digest in digests.items():
                if replayed.get(name) != digest:
                    self.tally.state_mismatches += 1
                    self.tally.notes.append(f"{where}: {name} at seq {seq} differs from the replay")

    def journal_presses(self) -> list[tuple[str, str, int, int, str]]:
        try:
            journal = Journal.reader(self.db)
        except (JournalError, SchemaError):
            return []  # killed before the first daemon had created the journal
        with journal:
            rows = journal._db.execute(
                "SELECT json_extract(body, '$.device_id'), json_extract(body, '$.device_epoch'), "
                "json_extract(body, '$.device_seq'), json_extract(body, '$.device_t_ns'), "
                "json_extract(body, '$.time_source') FROM events WHERE kind = 'press'"
            ).fetchall()
        return [(str(d), str(e), int(s), int(t), str(src or "measured")) for d, e, s, t, src in rows]

    def check_acked_are_journaled(self) -> None:
        """At a kill: every press a clock was told is safe must be in the journal."""
        journaled = {(d, e, s) for d, e, s, _, _ in self.journal_presses()}
        for sim in self.sims:
            with sim._lock:
                made = list(sim.presses)
                pending = {(r.boot_id, r.seq) for r in sim.unacknowledged()}  # of every epoch it holds
            for rec in made:
                if (rec.boot_id, rec.seq) not in pending and (
                    rec.device_id,
                    str(rec.boot_id),
                    rec.seq,
                ) not in journaled:
                    self.tally.lost_acked += 1

    # -- the run --------------------------------------------------------------------------------
    def maybe_reboot(self, *, within_s: float = 0.0) -> None:
        """With the chance given, a random clock loses power now or within ``within_s``."""
        if self.rng.random() >= self.reboot_chance:
            return
        sim = self.rng.choice(self.sims)
        self.farm.call_later(int(self.rng.uniform(0, within_s) * 1e9), sim.reboot)
        self.tally.reboots += 1

    def remove_wal(self, proc: subprocess.Popen[str]) -> None:
        """A bad day: the -wal deleted under the running daemon. It must stop by itself, saying so."""
        wal = self.db.with_name(self.db.name + "-wal")
        if not wal.exists():
            self.tally.notes.append("no -wal to remove")
            return
        wal.unlink()
        self.tally.wal_removed += 1
        if self._audit is not None:  # its connection still reads the removed -wal: a fresh one after
            self._audit.journal.close()
            self._audit = None
        try:
            status = proc.wait(10)  # the next commit notices; `duelclock run` exits 1
        except subprocess.TimeoutExpired:
            self.tally.notes.append("the daemon went on without its -wal")
            self.kill(proc)
            return
        err = proc.stderr.read() if proc.stderr is not None else ""
        if status == 1 and "-wal" in err and "was removed" in err:
            self.tally.wal_alerts += 1
        else:
            self.tally.notes.append(f"-wal removed: exit {status}, {err.strip()[-200:]!r}")
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()

    def link_journal(self, proc: subprocess.Popen[str]) -> None:
        """A bad day: the journal given a second name while the daemon runs, which is then killed; a
        daemon started through the other name must refuse, not start without the -wal's commits."""
        other = self.db.with_name("other-name.db")
        os.link(self.db, other)
        self.tally.hard_links += 1
        time.sleep(self.rng.uniform(0.1, 0.5))
        self.kill(proc)
        second = subprocess.run(
            [sys.executable, "-m", "clockd", "run", "--config", str(self.config), "--db", str(other),
             "--port", "0", "--sim", "0"],
            env=self.env, cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if second.returncode == 2 and "hard links" in second.stderr:
            self.tally.link_refusals += 1
        else:
            self.tally.notes.append(
                f"through a hard link: exit {second.returncode}, {second.stderr[-200:]!r}"
            )
        other.unlink()

    def cycle(self) -> None:
        fault = self.faults.get(self.tally.cycles)
        started = time.monotonic_ns()
        # while no daemon runs (a restart takes ~0.3 s): its kept presses come to one that never knew it
        self.maybe_reboot(within_s=0.3)
        proc = self.spawn()
        if fault is None and self.rng.random() < 0.2:  # kill it somewhere in start-up and recovery
            time.sleep(self.rng.uniform(0.05, 0.8))
            if proc.poll() is None:
                self.kill(proc)
                self.tally.kills_during_startup += 1
                self.tally.cycles += 1
                self.check_acked_are_journaled()
                return
        port = self.wait_ready(proc)
        self.tally.restart_ms.append((time.monotonic_ns() - started) // MS)
        self.check_state(self.observe(port, "after restart"), "after restart")  # snapshot + tail
        self.referee.start(port, self.token())
        up_s = self.rng.uniform(0.3, 1.5)
        self.maybe_reboot(within_s=up_s)
        look_at = self.rng.uniform(0, up_s)
        time.sleep(look_at)
        self.check_state(self.observe(port, "while running"), "while running")
        time.sleep(up_s - look_at)
        if fault == "wal":
            self.remove_wal(proc)
        elif fault == "link":
            self.link_journal(proc)
        else:
            self.kill(proc)
        self.referee.stop()
        self.tally.cycles += 1
        self.check_acked_are_journaled()

    def finish(self) -> dict[str, Any]:
        for players in self.players:
            players.playing = False
        proc = self.spawn()
        port = self.wait_ready(proc)
        deadline = time.monotonic() + 60
        while any(s.pending for s in self.sims) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the last presses' batches and their status
        self.check_state(self.observe(port, "at the end"), "at the end")
        proc.send_signal(signal.SIGTERM)
        clean_exit = proc.wait(30)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        # After the clean stop (and its snapshot), a fresh fold from the snapshot equals one from the events.
        with_snapshot = self._audit_engine()
        with_snapshot.rebuild(use_snapshots=True)
        from_events = self._audit_engine()
        from_events.rebuild(use_snapshots=False)
        folded = replayed_digests(with_snapshot)
        for name, digest in replayed_digests(from_events).items():
            self.tally.states_checked += 1
            if folded.get(name) != digest:
                self.tally.state_mismatches += 1
                self.tally.notes.append(f"end: {name}: snapshot + tail differs from the entries")

        rows = self.journal_presses()
        keys = [(d, e, s) for d, e, s, _, _ in rows]
        journaled = set(keys)
        truth = {(r.device_id, str(r.boot_id), r.seq): r for sim in self.sims for r in sim.presses}
        pending_at_end = sum(s.pending for s in self.sims)
        errors_us = [
            abs(t - truth[k].host_ns) // 1000
            for (d, e, s, t, src) in rows
            if (k := (d, e, s)) in truth and src == "measured"
        ]
        margins_us = [
            (t - truth[k].host_ns) // 1000
            for (d, e, s, t, src) in rows
            if (k := (d, e, s)) in truth and src != "measured"
        ]
        restart = sorted(self.tally.restart_ms) or [0]
        return {
            "cycles": self.tally.cycles,
            "kills_during_startup": self.tally.kills_during_startup,
            "clocks": len(self.sims),
            "presses": len(truth),
            "acked": len(truth) - pending_at_end,
            "journaled": len(journaled),
            "lost": len(set(truth) - journaled) + self.tally.lost_acked,
            "duplicated": len(keys) - len(journaled),
            "state_mismatches": self.tally.state_mismatches,
            "states_checked": self.tally.states_checked,
            "half_states": self.tally.half_states,
            "half_state_checks": self.tally.half_checks,
            "referee_actions": dict(sorted(self.referee.done.items())),
            "sessions": self.referee.sessions,
            "unknown_presses": len(journaled - set(truth)),
            "reboots": self.tally.reboots,
            "max_time_error_us": max(errors_us, default=0),
            "time_uncertain": len(margins_us),
            "bound_margin_us_min": min(margins_us, default=0),
            "restart_ms_p50": restart[len(restart) // 2],
            "restart_ms_max": restart[-1],
            "clean_exit": clean_exit,
            "wal_removed": self.tally.wal_removed,
            "wal_alerts": self.tally.wal_alerts,
            "hard_links": self.tally.hard_links,
            "link_refusals": self.tally.link_refusals,
            "notes": self.tally.notes[:5],
        }

    def close(self) -> None:
        if self._audit is not None:
            self._audit.journal.close()
        self.farm.close()


def replayed_digests(engine: Engine) -> dict[str, str]:
    """Every table's and event's digest in an engine's state, named as :meth:`Harness.observe` names them."""
    out = {f"table {t}": state_digest(s) for t, s in engine.current.tables.items()}
    events = engine.current.views.get("events")
    host = engine.component("events")
    if isinstance(events, EventsView) and isinstance(host, EventHost):
        for key in events.order:
            hosted = events.get(key)
            out[f"event {key}"] = event_digest(hosted, host.kind(hosted.kind))
    return out


def run(*, cycles: int = 100, clocks: int = 8, think_ms: int = 150, seed: int | None = None,
        reboots: float = 0.3, workdir: Path | None = None, wal_removed: int = 3, hard_links: int = 3,
        progress: bool = False) -> dict[str, Any]:  # fmt: skip
    started = time.monotonic_ns()
    rng = random.Random(seed)
    chosen = rng.sample(range(1, cycles), min(cycles - 1, wal_removed + hard_links)) if cycles > 1 else []
    faults = {c: "wal" for c in chosen[:wal_removed]} | {c: "link" for c in chosen[wal_removed:]}
    with tempfile.TemporaryDirectory(prefix="duelclock-crash-") as tmp:
        harness = Harness(
            workdir or Path(tmp), clocks=clocks, think_ms=think_ms, seed=seed, reboots=reboots, faults=faults
        )
        try:
            for players in harness.players:
                players.start()
            for n in range(cycles):
                harness.cycle()
                if progress and (n + 1) % 10 == 0:
                    print(f"  {n + 1} kills, {sum(len(s.presses) for s in harness.sims)} presses", flush=True)
            result = harness.finish()
        finally:
            harness.close()
    result["elapsed_s"] = round((time.monotonic_ns() - started) / 1e9, 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--clocks", type=int, default=8)
    parser.add_argument("--think-ms", type=int, default=150, help="players' median turn (load)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--reboots", type=float, default=0.3, help="chance per cycle and per phase that a clock reboots"
    )
    parser.add_argument(
        "--wal-removed", type=int, default=3, help="cycles in which the -wal is removed under the daemon"
    )
    parser.add_argument(
        "--hard-links", type=int, default=3, help="cycles in which the journal gets a second name"
    )
    args = parser.parse_args()
    result = run(
        cycles=args.cycles, clocks=args.clocks, think_ms=args.think_ms, seed=args.seed,
        reboots=args.reboots, wal_removed=args.wal_removed, hard_links=args.hard_links, progress=True,
    )  # fmt: skip
    ok = (
        result["lost"] == 0
        and result["duplicated"] == 0
        and result["state_mismatches"] == 0
        and result["half_states"] == 0
        and result["wal_alerts"] == result["wal_removed"]
        and result["link_refusals"] == result["hard_links"]
    )
    print(
        f"crash test: {result['cycles']} kills ({result['kills_during_startup']} during start-up), "
        f"{result['reboots']} clock reboots, "
        f"{result['presses']} presses on {result['clocks']} clocks, {result['journaled']} journaled, "
        f"lost {result['lost']}, duplicated {result['duplicated']}, state mismatches "
        f"{result['state_mismatches']} of {result['states_checked']} checked; "
        f"{sum(result['referee_actions'].values())} referee actions "
        f"({result['referee_actions'].get('match-assign', 0)} assign, "
        f"{result['referee_actions'].get('match-toss', 0)} toss), half states {result['half_states']} "
        f"of {result['half_state_checks']} checked; -wal removed {result['wal_removed']} times "
        f"({result['wal_alerts']} stopped with the alert), hard-linked {result['hard_links']} times "
        f"({result['link_refusals']} refused) — {'OK' if ok else 'FAILED'}"
    )
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
