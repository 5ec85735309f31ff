"""The engine: one thread that owns the journal and applies every input in one order.

Inputs arrive from many threads — device drivers (a serial reader, the GPIO callback
thread, the simulator), the API server (referee commands) — into one queue. The engine's
thread takes what is waiting (up to ``batch_max``), *stages* each input on its component
(computing the state it leads to, refusing bad commands), appends the whole batch to the
journal in **one commit**, and only then makes the new state current, answers the
referees, queues acknowledgements and display updates for the devices (on the
:class:`~clockd.service.outbox.Outbox` thread) and tells listeners (the API server).

So: nothing is applied, acknowledged or shown before it is on disk (DESIGN.md principle
2); the journal's ``seq`` is the one order of inputs; and while one batch is being
flushed, the next batch's presses queue up and share the next flush (group commit).

**One decision, one commit.** Staging an input may bring follow-ups (a match assigned to a
table also loads the duel onto the table) and reactions (a table's flag ends the match's
duel, so the bracket journals the result). The engine stages the whole chain in the same
batch, in order; if any part of it is refused, every component is rolled back to the
savepoint taken before the input and nothing of it is journaled — a SIGKILL can never
leave half a decision on disk, because the chain is committed in one transaction.

Time: the engine reads ``time.monotonic_ns()`` (injectable as ``clock``) and adds
``offset_ns`` to get the *journal's* time base, which continues across restarts (see
:meth:`Engine.recover` and ``docs/architecture.md``).

Apart: the values the engine publishes and reports (:mod:`clockd.service.published`:
``Current``, ``Batch``, ``RecoveryReport``, ``EngineStats``, ``EngineStopped``, re-exported
here) and its memory of request ids (:mod:`clockd.service.requests`); this module is the
thread, its queue, recovery and the chains.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from clockd import __version__
from clockd.core.ids import DEFAULT_HALL
from clockd.devices.base import AnyDeviceInput, Sink, TableDevice
from clockd.i18n import Msg
from clockd.service.actions import register_action_entries
from clockd.service.component import Component, Effect, Refused, ReplayMismatch, Restart, Staged
from clockd.service.devices import DeviceRegistry
from clockd.service.entries import AlertRaised, DaemonStarted
from clockd.service.outbox import Outbox
from clockd.service.published import Batch, Current, EngineStats, EngineStopped, RecoveryReport
from clockd.service.requests import RequestMemory
from clockd.service.tables import Tables
from clockd.store.entries import Entry
from clockd.store.journal import Journal, JournalError, Record

log = logging.getLogger(__name__)

#: Bumped whenever a component's snapshot data changes shape (old snapshots are then ignored).
#: 3: a chess group's players are people of the vault (no birth date, no e-mail in its state).
SNAPSHOT_FORMAT = 3

#: How deep a chain of follow-ups may go (a loop between two components is a bug: refuse it).
MAX_CHAIN = 64

#: The shape of the journal's entries, kept in its ``meta`` table. 2: entries of the runtime
#: with table programs and events (this version); a journal without it was written by
#: duelclock 0.1, whose entries this version does not read (its results stay readable with
#: the version that wrote it).
ENTRY_FORMAT = "2"

# What the engine publishes is re-exported: its users import it from here.
__all__ = [
    "ENTRY_FORMAT",
    "MAX_CHAIN",
    "SNAPSHOT_FORMAT",
    "Batch",
    "Current",
    "Engine",
    "EngineStats",
    "EngineStopped",
    "RecoveryReport",
]


@dataclass(slots=True)
class _DeviceInput:
    item: AnyDeviceInput
    device: TableDevice | None
    received_ns: int


@dataclass(slots=True)
class _Command:
    entry: Entry
    future: Future[int] | None


@dataclass(slots=True)
class _Barrier:
    future: Future[int]


_STOP = object()


class Engine:
    """Owns the journal and the components; see the module docstring."""

    def __init__(
        self,
        journal: Journal,
        *,
        boot_id: str,
        tables: Tables | None = None,
        components: Sequence[Component] = (),
        clock: Callable[[], int] = time.monotonic_ns,
        batch_max: int = 512,
        snapshot_every: int = 20_000,
        outbox: Outbox | None = None,
        hall: str = DEFAULT_HALL,
    ) -> None:
        self.journal = journal
        self.boot_id = boot_id
        self._hall = hall
        self.devices = DeviceRegistry()
        self.tables = tables if tables is not None else Tables()
        self.components: list[Component] = [self.tables, *components]
        self._by_name = {c.name: c for c in self.components}
        register_action_entries()
        for component in self.components:
            component.bind(self)
        self._owner: dict[str, Component] = {}
        for component in self.components:
            for kind in component.kinds:
                other = self._owner.get(kind)
                if other is not None:
                    raise ValueError(
                        f"entry kind {kind!r} is claimed by both {other.name} and {component.name}"
                    )
                self._owner[kind] = component
        self._reactors: dict[str, list[Component]] = {}
        for component in self.components:
            for kind in component.reacts_to:
                self._reactors.setdefault(kind, []).append(component)
        self.clock = clock
        self.batch_max = batch_max
        self.snapshot_every = snapshot_every
        self.offset_ns = 0
        self.last_t_ns = 0
        self.stats = EngineStats()
        self.failure: BaseException | None = None
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._outbox = outbox if outbox is not None else Outbox()
        self._listeners: list[Callable[[Batch], None]] = []
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self._snapshot_seq = 0
        self._snapshot_on_stop = True
        self.applied_seq = 0  # the last journal seq folded into the components
        self._requests = RequestMemory()
        self.current = self._make_current()

    # -- wiring (the World components see) ---------------------------------------------------
    @property
    def hall(self) -> str:
        """The name this daemon's tables and events are known by (``hall/3``, ``hall/pt``)."""
        return self._hall

    def component(self, name: str) -> Component:
        return self._by_name[name]

    def add_listener(self, listener: Callable[[Batch], None]) -> None:
        """Call ``listener(batch)`` on the engine's thread after each commit. It must not block."""
        self._listeners.append(listener)

    def attach(self, table: int, device: TableDevice) -> Sink:
        """Bind ``device`` to ``table`` and return the sink to pass to ``device.start``."""
        self.devices.bind(table, device)
        return self.sink_for(device)

    def sink_for(self, device: TableDevice | None) -> Sink:
        """A thread-safe callable that queues a device's inputs (stamped with when they arrived)."""
        put = self._queue.put
        clock = self.clock

        def sink(item: AnyDeviceInput) -> None:
            put(_DeviceInput(item, device, clock()))

        return sink

    def now_ns(self) -> int:
        """Now, on the journal's time base."""
        return self.clock() + self.offset_ns

    def run_effects(self, effects: Sequence[Effect]) -> None:
        """Run ``effects`` on the output thread, after what is queued there (a hall signal a
        node was sent: its buzzers, in order with the displays)."""
        self._outbox.put(effects)

    # -- commands ---------------------------------------------------------------------------------
    def submit(self, entry: Entry) -> Future[int]:
        """Queue a command; the future gives its journal seq, or raises :class:`Refused`.

        The engine stamps the entry's ``t_ns`` with the instant it applies it. The seq is
        that of the command's own entry; its follow-ups come right after it.
        """
        future: Future[int] = Future()
        if self._stopped.is_set() or self._thread is None:
            future.set_exception(EngineStopped(Msg("engine.not-running")))
            return future
        self._queue.put(_Command(entry, future))
        return future

    def barrier(self) -> Future[int]:
        """A future resolved (with the last seq) once everything queued before it is committed.

        Also wakes the engine, so a flag that time alone made due is decided first.
        """
        future: Future[int] = Future()
        if self._stopped.is_set() or self._thread is None:
            future.set_exception(EngineStopped(Msg("engine.not-running")))
            return future
        self._queue.put(_Barrier(future))
        return future

    def apply_now(self, entries: Sequence[Entry]) -> list[int]:
        """Stage, journal and apply ``entries`` at once, all or none (only before :meth:`start`)."""
        if self._thread is not None:
            raise RuntimeError("apply_now is for start-up; use submit() once the engine runs")
        for component in self.components:
            component.begin()
        staged: list[Entry] = []
        effects: list[Effect] = []
        try:
            for entry in entries:
                now = self.now_ns()
                self._stage_chain(entry.at(now), now, staged, effects)
        except BaseException:
            for component in self.components:
                component.abort()
            raise
        records = self._commit(staged, effects)
        self._announce(records)
        return [r.seq for r in records]

    # -- lifecycle --------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the engine is already started")
        self._outbox.start()
        self._thread = threading.Thread(target=self._run, name="clockd-engine", daemon=True)
        self._thread.start()

    def stop(self, *, snapshot: bool = True, timeout_ms: int = 10_000) -> None:
        """Finish the queued inputs, write a snapshot (unless told not to), stop. The journal stays open."""
        if self._thread is None:
            return
        if self._thread.is_alive():
            self._snapshot_on_stop = snapshot
            self._queue.put(_STOP)
            self._thread.join(timeout_ms / 1000)
        self._outbox.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Block until the engine stops (or fails); True if it did."""
        return self._stopped.wait(None if timeout_ms is None else timeout_ms / 1000)

    # -- recovery -----------------------------------------------------------------------------------
    def recover(self, *, use_snapshots: bool = True) -> RecoveryReport:
        """Rebuild every component from the journal and continue its time base.

        Loads the newest usable snapshot, replays the events after it, then decides how
        the time that passed while no daemon ran is charged (the rule is journaled in a
        :class:`~clockd.service.entries.DaemonStarted` entry):

        * **same boot** (``boot_id`` unchanged): ``time.monotonic_ns()`` kept counting, so
          the journal's time base simply continues and a running clock has been running
          all along — it is charged for the downtime, as a physical clock would be, and a
          serial clock re-sends the presses made meanwhile with their own stamps;
        * **new boot**: the old time base is lost; the journal's time continues from the
          last journaled instant, and every running clock is paused at that instant.

        Either way each table that was running gets an alert for the referee.
        """
        started = self.clock()
        found = self.journal.meta("entry_format")
        if found is None and self.journal.last_seq > 0:
            raise JournalError("journal.entries-too-old", path=self.journal.path)
        if found not in (None, ENTRY_FORMAT):
            raise JournalError("journal.entry-format", path=self.journal.path, found=found, ours=ENTRY_FORMAT)
        if found is None:
            self.journal.meta_default("entry_format", lambda: ENTRY_FORMAT)
        snapshot_seq, replayed = self.rebuild(use_snapshots=use_snapshots, quarantine=True)
        report = self._continue_time_base()
        report.snapshot_seq = snapshot_seq
        report.replayed = replayed
        report.elapsed_ns = self.clock() - started
        self._snapshot_seq = snapshot_seq or 0  # a long replay is followed by a fresh snapshot soon
        if self.journal.purge_pending and not self.journal.readonly:  # an erasure the last run did not finish
            self._purge()
        return report

    def rebuild(
        self, *, use_snapshots: bool = True, upto: int | None = None, quarantine: bool = False
    ) -> tuple[int | None, int]:
        """Fold the journal (up to ``upto``) into the components; write nothing.

        A fresh engine starts from the newest usable snapshot (or from the first event);
        an engine that has folded some events already (``applied_seq``) goes on from there
        when ``use_snapshots`` is false. Returns the snapshot used (its seq, or ``None``)
        and how many events were replayed. Works on a read-only journal: this is how a
        journal is audited, and how the crash test checks that a restarted daemon holds
        exactly the journal's state.

        With ``quarantine`` (the daemon's start), an entry whose replay fails is handed to its
        component's ``quarantine(record, problem)``, if it has one: a component that can set
        the entry's part aside (:class:`~clockd.service.events.EventHost`: that event) does,
        and the replay goes on; otherwise — and always for an audit — the failure stops it.
        """
        fresh = self.applied_seq == 0
        snapshot_seq = self._load_snapshot(upto) if use_snapshots and fresh else None
        replayed = self._replay(after=snapshot_seq or self.applied_seq, upto=upto, quarantine=quarantine)
        return snapshot_seq, replayed

    def _load_snapshot(self, upto: int | None = None) -> int | None:
        for snap in self.journal.snapshots():
            if snap.format != SNAPSHOT_FORMAT or (upto is not None and snap.seq > upto):
                continue
            data = json.loads(snap.body)
            if data.get("version") != __version__:
                continue
            parts = data.get("components", {})
            if any(c.name not in parts for c in self.components):
                continue
            try:
                for component in self.components:
                    component.restore(parts[component.name])
            except Exception as exc:
                raise JournalError(
                    "journal.snapshot-unusable", seq=snap.seq, path=self.journal.path, problem=exc
                ) from exc
            self.last_t_ns = int(data["last_t_ns"])
            self._hall = str(data.get("hall") or self._hall)
            self._requests.load(data.get("requests", []))
            self.applied_seq = snap.seq
            return snap.seq
        return None

    def _replay(
        self, *, after: int, upto: int | None = None, chunk: int = 4096, quarantine: bool = False
    ) -> int:
        count = 0
        pending: list[Record] = []
        for component in self.components:
            component.begin()
        for record in self.journal.read(after=after, upto=upto, verify=True):  # the hash chain, too
            entry = record.entry
            owner = self._owner.get(entry.kind)
            if owner is None:
                raise JournalError(
                    "journal.no-owner", path=self.journal.path, seq=record.seq, kind=repr(entry.kind)
                )
            try:
                owner.stage(entry, now_ns=entry.t_ns, replay=True)
            except Exception as exc:
                set_aside = getattr(owner, "quarantine", None) if quarantine else None
                if set_aside is None or not set_aside(record, exc):
                    if isinstance(exc, Refused):
                        raise ReplayMismatch(
                            "replay.refused",
                            path=self.journal.path,
                            seq=record.seq,
                            kind=entry.kind,
                            reason=exc.msg,
                        ) from exc
                    raise
                log.error(
                    "journal entry %s (%s) could not be replayed: its event is set aside",
                    record.seq,
                    entry.kind,
                    exc_info=exc,
                )
            if isinstance(entry, DaemonStarted) and entry.hall:
                self._hall = entry.hall
            self.last_t_ns = max(self.last_t_ns, entry.t_ns)
            self.applied_seq = record.seq
            pending.append(record)
            count += 1
            if len(pending) >= chunk:
                for component in self.components:
                    component.commit(pending)
                    component.begin()
                self._requests.fold(pending)
                pending = []
        for component in self.components:
            component.commit(pending)
        self._requests.fold(pending)
        self.current = self._make_current()
        return count

    def _continue_time_base(self) -> RecoveryReport:
        last = self.tables.last_start
        mono = self.clock()
        downtime: int | None = None
        if self.journal.last_seq == 0:
            rule, offset = "first-start", 0
        elif last is not None and last.boot_id == self.boot_id:
            rule, offset = "same-boot", last.offset_ns
            offset = max(offset, self.last_t_ns - mono)  # never before what is journaled
            downtime = mono + offset - self.last_t_ns
        else:
            rule, offset = "new-boot", self.last_t_ns - mono
        self.offset_ns = offset
        now = mono + offset
        entries: list[Entry] = [
            DaemonStarted(
                boot_id=self.boot_id,
                monotonic_ns=mono,
                offset_ns=offset,
                rule=rule,
                downtime_ns=downtime,
                version=__version__,
                hall=self.hall,
            )
        ]
        report = RecoveryReport(rule=rule, downtime_ns=downtime, snapshot_seq=None, replayed=0, elapsed_ns=0)
        restart = Restart(rule=rule, downtime_ns=downtime, last_t_ns=self.last_t_ns, now_ns=now)
        for component in self.components:
            for entry in component.recovered(restart):
                entries.append(entry)
                if isinstance(entry, AlertRaised) and entry.table is not None:
                    report.alerts.append((entry.table, entry.code, dict(entry.data)))
                elif entry.kind == "event-alert" and entry.event is not None:
                    code, data = getattr(entry, "code", ""), getattr(entry, "data", {})
                    report.event_alerts.append((entry.event, code, dict(data)))
        self.apply_now(entries)
        return report

    # -- the thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                timeout_s = self._timeout_s()
                items: list[object] = []
                try:
                    if timeout_s is None:
                        items.append(self._queue.get())
                    elif timeout_s > 0:
                        items.append(self._queue.get(timeout=timeout_s))
                except queue.Empty:
                    pass
                while len(items) < self.batch_max:
                    try:
                        items.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                if self._process(items):
                    if self._snapshot_on_stop:
                        self._snapshot()
                    return
        except BaseException as exc:
            self.failure = exc
            log.critical("the engine stopped: %s", exc, exc_info=exc)
        finally:
            self._stopped.set()
            self._fail_waiting()

    def _timeout_s(self) -> float | None:
        deadlines = [d for c in self.components if (d := c.next_deadline()) is not None]
        if not deadlines:
            return None
        return max(0, min(deadlines) - self.now_ns()) / 1e9

    def _process(self, items: list[object]) -> bool:
        stop = False
        for component in self.components:
            component.begin()
        staged: list[Entry] = []
        received: list[int] = []
        effects: list[Effect] = []
        replies: list[tuple[Future[int], int]] = []
        barriers: list[Future[int]] = []
        requested: dict[str, tuple[str, int]] = {}  # this batch's request ids: digest, index in staged
        now = self.now_ns()
        for component in self.components:
            for entry in component.due(now):
                try:
                    self._stage_chain(entry, now, staged, effects)
                except Refused as exc:
                    log.warning("%s: a due %s was refused: %s", component.name, entry.kind, exc)
        for item in items:
            if item is _STOP:
                stop = True
                continue
            if isinstance(item, _Barrier):
                barriers.append(item.future)
                continue
            now = self.now_ns()
            if isinstance(item, _DeviceInput):
                index = len(staged)
                try:
                    result = self.tables.stage_device(
                        item.item, item.device, now_ns=now, offset_ns=self.offset_ns
                    )
                except Refused as exc:
                    log.warning("device input dropped: %s (%s)", exc, item.item)
                    continue
                effects += result.effects
                if result.entry is None:
                    self.stats.duplicates_acked += 1
                    continue
                staged.append(result.entry)
                if self.stats.keep_latencies and result.entry.kind == "press":
                    received.append(item.received_ns)
                # A press is a fact: journaled whatever its follow-ups make of it.
                mark = self._mark()
                try:
                    self._follow(result, now, staged, effects, depth=0)
                    self._verify(mark, now)
                except Refused as exc:
                    self._rollback(mark)
                    del staged[index + 1 :]
                    log.warning("a follow-up of %s was refused: %s", result.entry.kind, exc)
            elif isinstance(item, _Command):
                if item.future is not None and not item.future.set_running_or_notify_cancel():
                    continue
                request = getattr(item.entry, "request", None)
                if request is not None and self._repeated(request, requested, item.future, replies):
                    continue
                index = len(staged)
                try:
                    self._stage_chain(item.entry.at(now), now, staged, effects)
                except Refused as exc:
                    if item.future is not None:
                        item.future.set_exception(exc)
                    continue
                except Exception as exc:
                    log.exception("a command failed while staging")
                    if item.future is not None:
                        item.future.set_exception(
                            Refused("daemon.internal", error=f"{type(exc).__name__}: {exc}")
                        )
                    continue
                if len(staged) > index:
                    if item.future is not None:
                        replies.append((item.future, index))
                    if request is not None:
                        requested[RequestMemory.key(request.id)] = (request.digest, index)
                elif item.future is not None:
                    item.future.set_result(self.journal.last_seq)
        try:
            records = self._commit(staged, effects)
        except BaseException as exc:
            for future, _ in replies:
                future.set_exception(EngineStopped(Msg("engine.journal-failed", {"problem": exc})))
            raise
        for future, index in replies:
            future.set_result(records[index].seq)
        for future in barriers:
            if future.set_running_or_notify_cancel():
                future.set_result(self.journal.last_seq)
        if received:
            done = self.clock()
            self.stats.latencies_ns.extend(done - r for r in received)
        self._announce(records)
        if self.journal.purge_pending:
            self._purge()
        elif self.journal.last_seq - self._snapshot_seq >= self.snapshot_every:
            self._snapshot()
        return stop

    def _repeated(
        self,
        request: Any,
        requested: dict[str, tuple[str, int]],
        future: Future[int] | None,
        replies: list[tuple[Future[int], int]],
    ) -> bool:
        """Whether the command's request was journaled already (then it is answered, not staged).

        The same id with the same request: the seq it was journaled at (once this batch is
        committed, if it came in this batch). The same id with another request: refused.
        """
        seen = self._requests.get(request.id)
        here = requested.get(RequestMemory.key(request.id))
        known = seen if seen is not None else here
        if known is None:
            return False
        if future is None:
            return True
        if known[0] != request.digest:
            seq = seen[1] if seen is not None else "…"
            future.set_exception(Refused("daemon.request-id-reused", id=str(request.id), seq=seq))
        elif seen is not None:
            future.set_result(seen[1])
        else:
            replies.append((future, known[1]))  # answered with the first one's seq, once committed
        return True

    # -- chains: an input, its follow-ups and the reactions to them, all or nothing ------------
    def _mark(self) -> list[object]:
        return [c.mark() for c in self.components]

    def _rollback(self, marks: list[object]) -> None:
        for component, mark in zip(self.components, marks, strict=True):
            component.rollback(mark)

    def _stage_chain(self, entry: Entry, now: int, staged: list[Entry], effects: list[Effect]) -> None:
        """Stage ``entry`` and everything it brings, or nothing (:class:`Refused` propagates)."""
        marks = self._mark()
        index, effect_count = len(staged), len(effects)
        try:
            result = self._stage_one(entry, now)
            if result.entry is not None:
                staged.append(result.entry)
            effects += result.effects
            self._follow(result, now, staged, effects, depth=0)
            self._verify(marks, now)
        except BaseException:
            self._rollback(marks)
            del staged[index:]
            del effects[effect_count:]
            raise

    def _follow(
        self, result: Staged, now: int, staged: list[Entry], effects: list[Effect], *, depth: int
    ) -> None:
        """Stage ``result``'s follow-ups and the reactions to its entry, depth first, in order."""
        pending = list(result.follow)
        if result.entry is not None:
            for component in self._reactors.get(result.entry.kind, ()):
                pending += component.react(result.entry, now_ns=now)
        if pending and depth >= MAX_CHAIN:
            raise Refused("daemon.chain-too-long", kind=pending[0].kind)
        for follow in pending:
            nested = self._stage_one(follow if follow.t_ns else follow.at(now), now)
            if nested.entry is not None:
                staged.append(nested.entry)
            effects += nested.effects
            self._follow(nested, now, staged, effects, depth=depth + 1)

    def _verify(self, marks: list[object], now: int) -> None:
        """Let each component that can refuse what the chain staged since ``marks`` (a state its
        views or snapshots cannot hold: ``verify(mark, now_ns)`` raises :class:`Refused`), before
        anything of it is journaled — what is refused is never on disk."""
        for component, mark in zip(self.components, marks, strict=True):
            verify = getattr(component, "verify", None)
            if verify is not None:
                verify(mark, now)

    def _stage_one(self, entry: Entry, now: int) -> Staged:
        owner = self._owner.get(entry.kind)
        if owner is None:
            raise Refused("daemon.no-owner", kind=entry.kind)
        return owner.stage(entry, now_ns=now, replay=False)

    def _commit(self, staged: list[Entry], effects: list[Effect]) -> list[Record]:
        try:
            seqs = self.journal.append(staged)
        except BaseException:
            for component in self.components:
                component.abort()
            raise
        records = [Record(seq, entry) for seq, entry in zip(seqs, staged, strict=True)]
        for component in self.components:
            component.commit(records)
        self._requests.fold(records)
        if records:
            self.applied_seq = records[-1].seq
            self.last_t_ns = max(self.last_t_ns, max(r.entry.t_ns for r in records))
            self.current = self._make_current()
            self.stats.batches += 1
            self.stats.events += len(records)
            self.stats.presses += sum(1 for r in records if r.entry.kind == "press")
        self._outbox.put(effects)
        return records

    def _announce(self, records: list[Record]) -> None:
        """Tell the listeners (the API server's pushes) about a committed batch.

        The last thing done for a batch, after its replies: waking the server's thread lets
        it take the interpreter's lock for its pushes, and the engine would wait for it before
        answering the batch's commands and acknowledging its presses.
        """
        if not records:
            return
        restarted = any(r.entry.kind == "daemon-started" for r in records)
        batch = Batch(
            records=tuple(records),
            changed_tables=frozenset(r.entry.table for r in records if r.entry.table is not None)
            | (frozenset(self.current.tables) if restarted else frozenset()),
            changed_events=frozenset(r.entry.event for r in records if r.entry.event is not None),
            current=self.current,
        )
        for listener in self._listeners:
            try:
                listener(batch)
            except Exception:
                log.exception("a batch listener failed")

    def _make_current(self) -> Current:
        return Current(
            seq=self.applied_seq,
            tables=self.tables.view(),
            views={c.name: c.view() for c in self.components},
            offset_ns=self.offset_ns,
            hall=self.hall,
        )

    def _snapshot(self) -> None:
        if self.journal.last_seq == self._snapshot_seq:
            return
        body = json.dumps(
            {
                "version": __version__,
                "last_t_ns": self.last_t_ns,
                "hall": self.hall,
                "requests": self._requests.dump(),
                "components": {c.name: c.snapshot() for c in self.components},
            },
            separators=(",", ":"),
        )
        self.journal.save_snapshot(self.journal.last_seq, SNAPSHOT_FORMAT, body)
        self._snapshot_seq = self.journal.last_seq
        self.stats.snapshots += 1

    def _purge(self) -> None:
        """A person was erased: a snapshot of the state without them, then no older copy in the
        files (:meth:`Journal.purge`: older snapshots deleted, the file vacuumed, the WAL truncated)."""
        self._snapshot()
        self.journal.purge()

    def _fail_waiting(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            future = item.future if isinstance(item, _Command | _Barrier) else None
            if future is not None and future.set_running_or_notify_cancel():
                future.set_exception(EngineStopped(Msg("engine.stopped")))
