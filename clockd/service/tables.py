"""The tables: every table's device side and the program it runs, folded from the journal.

:class:`TableState` is everything the daemon knows about a table as one immutable value:
its device (connected or not), the referee's open alerts, and its *program*
(:mod:`clockd.core.program`): the table's own chess clock, a match's duel, a hall
event's station, nothing. :class:`Tables` is the component (:mod:`clockd.service.component`)
that applies journal entries to these values; what a press or a referee's action *means*
is the program's business, so a new kind of event brings its own program and this module
does not change.

Rules this module settles for every program, because no program can:

* **One order per table.** A table's inputs are applied in journal order, and never at an
  instant earlier than the table's previous input (its *floor*). A press stamped earlier
  — re-sent by a clock after a restart, or overtaken by a referee's pause — is applied at
  the floor, and its own stamp is journaled beside it for the referee. A stamp in the
  future (a device whose clock mapping is off) is applied *now*.
* **Flags are decided after a grace period.** A serial clock's press reaches us some
  milliseconds after its stamp. The program knows the instant a flag falls, but the
  decision (:class:`~clockd.service.entries.FlagFell`) is journaled only ``grace_ns``
  later, so a press stamped just before the flag still counts. After the decision, the
  floor is the flag instant: a press that arrives even later is too late.
* **No press twice.** A device that numbers its presses (``seq``) re-sends those not yet
  acknowledged; a press already journaled is acknowledged again but not applied again
  (keyed by device id, device epoch and seq).
* **A press whose time is only a bound is flagged.** A serial clock that kept presses
  across its own reboot, while the daemon had restarted too, can only give an upper bound
  of their times (``time_source``): the table gets an alert (:data:`TIME_UNCERTAIN`),
  counting such presses until the referee clears it.
* **An owned program is its owner's.** A program an event put on the table (a match's
  duel) is changed by the table's actions that program allows (pause, adjust, complete),
  replaced only by its owner; ``set-clock`` is refused there.
* **A table is held until its event lets it go** (DESIGN.md principle 12). Loading an
  event's program makes the event's item the table's *holder*; while it holds, no other
  event may load a program there (``table.busy``; what the same event does with its own
  tables is its business). When the item is over — a match confirmed, an entry voided, a
  ranking confirmed, a hall's time ended — its event journals :class:`TableReleased`
  (:class:`~clockd.service.events.EventHost` asks each kind, one rule for all of them): the
  result stays on the table, the table is free. The referee frees a table by hand
  (``table-free``, with a reason; refused while a clock runs there unless the referee says
  to stop it), which takes the program off.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Callable, Iterator, Sequence
from types import MappingProxyType
from typing import Any

from clockd.core.actions import Action
from clockd.core.clock import ClockError, Pause, Phase, Resume
from clockd.core.device import Beep, DeviceState
from clockd.core.ids import DEFAULT_HALL, read_id, table_ref
from clockd.core.program import (
    AddNote,
    ChessClock,
    ClearAlert,
    FreeTable,
    Idle,
    Program,
    SetClock,
)
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MS
from clockd.devices.base import (
    AnyDeviceInput,
    Connected,
    DevicePress,
    Disconnected,
    RefereeButton,
    TableDevice,
)
from clockd.i18n import Problem
from clockd.service.actions import ActionEntry, journal
from clockd.service.component import Effect, Refused, ReplayMismatch, Restart, Staged, Staging, World
from clockd.service.devices import DeviceRegistry
from clockd.service.entries import (
    AlertRaised,
    DaemonStarted,
    DeviceConnected,
    DeviceDisconnected,
    FlagFell,
    NodeCommand,
    PressRecorded,
    ProgramLoaded,
    RefereeButtonPressed,
    TableCreated,
    TableReleased,
    TableRetaken,
)
from clockd.service.table_state import Alert, DeviceInfo, SeqRanges, TableState, phase_of, press_key
from clockd.store.entries import Entry, encode_entry
from clockd.store.journal import Record

log = logging.getLogger(__name__)

#: How long after a flag falls its decision is journaled (presses in flight still count).
DEFAULT_GRACE_NS = 250 * MS

#: The alert for presses applied at an upper bound of their time.
TIME_UNCERTAIN = "alert.press-time-uncertain"


_KINDS = {
    cls.model_fields["kind"].default
    for cls in (
        DaemonStarted,
        TableCreated,
        ProgramLoaded,
        PressRecorded,
        RefereeButtonPressed,
        FlagFell,
        DeviceConnected,
        DeviceDisconnected,
        AlertRaised,
        TableReleased,
        TableRetaken,
    )
}


def table_action_kinds() -> frozenset[str]:
    """Every action whose target is a table (registered so far): the tables apply them."""
    from clockd.core.actions import action_types

    return frozenset(k for k, cls in action_types().items() if cls.target == "table")


class Tables:
    """The component holding every table (see :mod:`clockd.service.component`)."""

    name = "tables"
    reacts_to: frozenset[str] = frozenset()

    def __init__(self, *, grace_ns: int = DEFAULT_GRACE_NS, devices: DeviceRegistry | None = None) -> None:
        if grace_ns < 0:
            raise ValueError(f"grace_ns must not be negative, not {grace_ns}")
        self.grace_ns = grace_ns
        self.kinds = frozenset(_KINDS) | table_action_kinds()
        self.devices = devices or DeviceRegistry()
        self._world: World | None = None
        self._states: dict[int, TableState] = {}
        self._staged = Staging(self._states)
        self._seen: dict[tuple[str, str], SeqRanges] = {}
        self._seen_staged: list[tuple[str, str, int]] = []
        #: Each table's pending decision (a flag), and the same as a heap by instant: the engine
        #: asks for the next one after every batch, and 512 running tables must not cost a scan.
        self._deadlines: dict[int, int] = {}
        self._deadline_heap: list[tuple[int, int]] = []
        self.last_start: DaemonStarted | None = None
        self._start_staged: DaemonStarted | None = None
        self._view: MappingProxyType[int, TableState] = MappingProxyType({})

    def bind(self, world: World) -> None:
        self._world = world
        self.devices = world.devices

    @property
    def hall(self) -> str:
        return self._world.hall if self._world is not None else DEFAULT_HALL

    # -- devices --------------------------------------------------------------------------------
    def bind_device(self, table: int, device: TableDevice) -> None:
        """Send ``table``'s acknowledgements and displays to ``device``."""
        self.devices.bind(table, device)

    def device(self, table: int) -> TableDevice | None:
        return self.devices.device(table)

    # -- reading --------------------------------------------------------------------------------
    def view(self) -> MappingProxyType[int, TableState]:
        """Every committed table, by number (an immutable mapping; safe from any thread)."""
        return self._view

    def get(self, table: int) -> TableState:
        """The table as staged so far in this batch; :class:`Refused` if there is no such table."""
        state: TableState | None = self._staged.get(table)
        if state is None:
            raise Refused("table.unknown", table=table, known=_numbers(self._staged.all_keys()))
        return state

    def staged(self, table: int) -> TableState | None:
        """The table as staged so far (``None``: no such table), for other components' reactions."""
        found: TableState | None = self._staged.get(table)
        return found

    def held_by(self, prefix: str) -> list[TableState]:
        """The tables (as staged) whose program is an item of ``prefix`` (``desk/pt/``), held or not."""
        out = []
        for table in self._staged.all_keys():
            state = self._staged[table]
            owner = state.program.owner
            if owner is not None and owner.startswith(prefix):
                out.append(state)
        return sorted(out, key=lambda s: s.table)

    # -- the component protocol -------------------------------------------------------------
    def begin(self) -> None:
        self._staged.clear()
        self._seen_staged = []
        self._start_staged = None

    def abort(self) -> None:
        self.begin()

    def mark(self) -> object:
        return (self._staged.mark(), len(self._seen_staged), self._start_staged)

    def rollback(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        staged: int = mark[0]
        seen: int = mark[1]
        start: DaemonStarted | None = mark[2]
        self._staged.rollback(staged)
        del self._seen_staged[seen:]
        self._start_staged = start

    def react(self, entry: Entry, *, now_ns: int) -> list[Entry]:
        return []

    def commit(self, records: Sequence[Record]) -> None:
        changes = self._staged.changes()
        if changes:
            states = dict(self._states)
            states.update(changes)
            self._states = states
            self._view = MappingProxyType(states)
            for table, state in changes.items():
                self._set_deadline(table, self._deadline(state))
        for device_id, epoch, seq in self._seen_staged:
            self._seen.setdefault((device_id, epoch), SeqRanges()).add(seq)
        if self._start_staged is not None:
            self.last_start = self._start_staged
        self._staged.rebase(self._states)
        self.begin()

    def _set_deadline(self, table: int, deadline: int | None) -> None:
        if deadline is None:
            self._deadlines.pop(table, None)
        elif self._deadlines.get(table) != deadline:
            self._deadlines[table] = deadline
            heapq.heappush(self._deadline_heap, (deadline, table))  # the old one is skipped when met

    def _live_deadlines(self) -> Iterator[tuple[int, int]]:
        """The heap's entries that are still a table's deadline, soonest first (stale ones dropped)."""
        heap = self._deadline_heap
        while heap:
            deadline, table = heap[0]
            if self._deadlines.get(table) != deadline:
                heapq.heappop(heap)
                continue
            yield deadline, table
            return

    def next_deadline(self) -> int | None:
        for deadline, _ in self._live_deadlines():
            return deadline
        return None

    def due(self, now_ns: int) -> list[Entry]:
        due = (
            sorted((d, t) for t, d in self._deadlines.items() if d <= now_ns) if self._has_due(now_ns) else []
        )
        out: list[Entry] = []
        for _, table in due:
            pending = self._states[table].program.pending_flag()
            assert pending is not None
            side, flag_at = pending
            out.append(FlagFell(table=table, t_ns=now_ns, side=side, flag_at_ns=flag_at))
        return out

    def _has_due(self, now_ns: int) -> bool:
        nxt = self.next_deadline()
        return nxt is not None and nxt <= now_ns

    def recovered(self, restart: Restart) -> list[Entry]:
        """An alert for each table whose clock was running; after a reboot, its pause too."""
        out: list[Entry] = []
        for table, state in sorted(self._states.items()):
            if state.node or phase_of(state, restart.last_t_ns) is not Phase.RUNNING:
                continue  # a node's table: the node decides what its restart means
            running = getattr(getattr(state.program, "clock", None), "to_move", None)
            data: dict[str, int | str] = {"side": running.value if running is not None else ""}
            if restart.rule == "same-boot":
                assert restart.downtime_ns is not None
                code = "alert.recovered-running"
                data["since_last_input_ms"] = restart.downtime_ns // 1_000_000
            else:
                code = "alert.recovered-paused"
                if phase_of(state, restart.now_ns) is Phase.RUNNING:
                    pause = journal(Pause(reason=""), target=self.ref(table), source="recovery", table=table)
                    out.append(pause)
            out.append(AlertRaised(table=table, alert_id=0, code=code, data=data))
        return out

    def _deadline(self, state: TableState) -> int | None:
        if state.node:
            return None  # a node's table: its flags are the node's decisions
        pending = state.program.pending_flag()
        return None if pending is None else pending[1] + self.grace_ns

    # -- device inputs --------------------------------------------------------------------------
    def stage_device(
        self, item: AnyDeviceInput, device: TableDevice | None, *, now_ns: int, offset_ns: int
    ) -> Staged:
        """Turn a driver's input into a journal entry (or nothing, for a press seen before)."""
        if isinstance(item, DevicePress):
            return self._stage_device_press(item, device, now_ns=now_ns, offset_ns=offset_ns)
        state = self.get(item.table)
        t = max(now_ns, state.floor_ns)
        if isinstance(item, Connected):
            entry: Entry = DeviceConnected(
                table=item.table, t_ns=t, device_id=item.device_id, detail=item.detail
            )
        elif isinstance(item, Disconnected):
            entry = DeviceDisconnected(table=item.table, t_ns=t, device_id=item.device_id, reason=item.reason)
        elif isinstance(item, RefereeButton):
            allowed = state.allowed(t)
            action = (
                "pause"
                if allowed.get("pause") is None
                else "resume"
                if allowed.get("resume") is None
                else "ignored"
            )
            entry = RefereeButtonPressed(table=item.table, t_ns=t, device_id=item.device_id, action=action)
        else:  # pragma: no cover - the union is closed
            raise Refused("device.unknown-input", input=type(item).__name__)
        return self.stage(entry, now_ns=now_ns, replay=False)

    def _stage_device_press(
        self, press: DevicePress, device: TableDevice | None, *, now_ns: int, offset_ns: int
    ) -> Staged:
        ack = self.devices.acknowledge(device, press)
        key = press_key(press, self._run_epoch())
        if key is not None and (key in self._seen_staged or self._was_seen(key)):
            return Staged(None, ack)  # journaled before: acknowledge again, apply never
        state = self.get(press.table)
        stamp = press.t_ns + offset_ns
        t = max(min(stamp, now_ns), state.floor_ns)
        program, outcome = _press(state.program, press.side, t)
        entry = PressRecorded(
            table=press.table,
            t_ns=t,
            side=press.side,
            outcome=outcome,
            device_id=press.device_id,
            device_epoch=key[1] if key else "",
            device_seq=press.seq,
            device_t_ns=stamp,
            device_t_us=press.device_t_us,
            time_source=press.time_source,
        )
        new = state.model_copy(update={"program": program, "floor_ns": t, "presses": state.presses + 1})
        if entry.time_source != "measured":
            new = _time_uncertain(new, entry)
        if key is not None:
            self._seen_staged.append(key)
        self._staged.put(press.table, new)
        return Staged(entry, ack + self._show(new, t))

    def _run_epoch(self) -> str:
        start = self._start_staged or self.last_start
        return f"run@{start.t_ns}" if start is not None else "run"

    def _was_seen(self, key: tuple[str, str, int]) -> bool:
        ranges = self._seen.get((key[0], key[1]))
        return ranges is not None and key[2] in ranges

    # -- journaled entries ------------------------------------------------------------------------
    def stage(self, entry: Entry, *, now_ns: int, replay: bool) -> Staged:
        if entry.origin is not None:
            return self._from_node(entry)
        if not replay and entry.table is not None:
            state: TableState | None = self._staged.get(entry.table)
            if state is not None and state.node and not isinstance(entry, TableReleased | TableRetaken):
                return self._to_node(state, entry, now_ns)  # who holds a table is the desk's: kept here
        if isinstance(entry, ActionEntry):
            return self._on_action(entry, replay)
        handler = _HANDLERS.get(type(entry))
        if handler is None:
            raise Refused("daemon.no-owner", kind=entry.kind)
        if not replay and entry.table is not None and not isinstance(entry, TableCreated):
            # Live inputs take effect now, never before the table's last input.
            floor = self.get(entry.table).floor_ns
            if entry.t_ns < floor:
                entry = entry.at(floor)
        return handler(self, entry, replay)

    # -- tables a node times (docs/mqtt.md) ------------------------------------------------------
    def _from_node(self, entry: Entry) -> Staged:
        """A row of a table node's journal, taken as the node recorded it: the node decided it
        (a flag, an alert's number, a press's outcome), the desk's copy of the table follows."""
        origin = entry.origin
        assert origin is not None
        if isinstance(entry, TableCreated):
            assert entry.table is not None
            held: TableState | None = self._staged.get(entry.table)
            if held is not None and held.node != origin.node:
                raise Refused(
                    "node.table-taken", table=entry.table, node=origin.node, by=held.node or self.hall
                )
            # Held by the same node: the node's journal began again (a new database), so does the table.
            return self._put(_fresh(entry, node=origin.node), entry)
        if entry.table is None:
            raise Refused("table.which")
        state = self.get(entry.table)
        if state.node != origin.node:
            raise Refused("node.table-taken", table=entry.table, node=origin.node, by=state.node or self.hall)
        if isinstance(entry, ActionEntry):
            return Staged(self._on_action(entry, True).entry)
        handler = _HANDLERS.get(type(entry))
        if handler is None or isinstance(entry, DaemonStarted):
            raise Refused("daemon.no-owner", kind=entry.kind)
        return Staged(handler(self, entry, True).entry)

    def _to_node(self, state: TableState, entry: Entry, now_ns: int) -> Staged:
        """What the desk does with its own entry for a table a node times: it checks it on its
        copy of the table and sends it to the node (:class:`NodeCommand`), which journals it
        and sends the row back; nothing changes here until then."""
        if isinstance(entry, ActionEntry):
            t = max(entry.t_ns, state.floor_ns)
            action = entry.action
            if isinstance(action, FreeTable):
                reason = state.free_refusal(t, stop_running=action.stop_running)
            else:
                reason = state.allowed(t).get(action.kind)
            if reason is not None:
                raise Refused(reason)
        elif isinstance(entry, ProgramLoaded):
            self._check_holder(state, entry)
        else:
            raise Refused("node.not-for-desk", table=state.table, node=state.node, kind=entry.kind)
        body = encode_entry(entry.model_copy(update={"t_ns": 0, "request": None}))
        command = NodeCommand(
            t_ns=now_ns, table=state.table, node=state.node, entry_kind=entry.kind, body=body
        )
        return Staged(None, follow=[command])

    def _put(self, state: TableState, entry: Entry, effects: list[Effect] | None = None) -> Staged:
        self._staged.put(state.table, state)
        return Staged(entry, effects if effects is not None else [])

    def _show(self, state: TableState, t_ns: int) -> list[Effect]:
        if self.devices.device(state.table) is None:
            return []
        return self.devices.show(state.table, state.display(t_ns))

    def _on_action(self, e: ActionEntry, replay: bool) -> Staged:
        if e.table is None:
            raise Refused("table.which")
        state = self.get(e.table)
        if not replay and e.t_ns < state.floor_ns:
            e = e.at(state.floor_ns)  # type: ignore[assignment]
        action = e.action
        t = e.t_ns
        if isinstance(action, FreeTable):
            return self._free(state, e, action, replay)
        reason = state.allowed(t).get(action.kind)
        if reason is not None:
            raise Refused(reason)
        if isinstance(action, AddNote):
            return self._put(state, e)
        if isinstance(action, ClearAlert):
            if action.alert_id is None:
                kept: tuple[Alert, ...] = ()
            else:
                if all(a.id != action.alert_id for a in state.alerts):
                    raise Refused(
                        "table.no-alert",
                        table=state.table,
                        alert=action.alert_id,
                        open=[a.id for a in state.alerts],
                    )
                kept = tuple(a for a in state.alerts if a.id != action.alert_id)
            return self._put(state.model_copy(update={"alerts": kept}), e)
        if isinstance(action, SetClock):
            control = _parse_control(action.control or state.control)
            new = state.model_copy(
                update={"program": ChessClock.fresh(control), "floor_ns": t, "released": False}
            )
            return self._put(new, e, self._show(new, t))
        program = _act(state.program, action)
        new = state.model_copy(update={"program": program, "floor_ns": t})
        return self._put(new, e, self._show(new, t))

    def _free(self, state: TableState, e: ActionEntry, action: FreeTable, replay: bool) -> Staged:
        """The referee frees the table: the program comes off (a running clock stops with it,
        when the referee said so), and no event holds the table any more."""
        if not replay:
            reason = state.free_refusal(e.t_ns, stop_running=action.stop_running)
            if reason is not None:
                raise Refused(reason)
        new = state.model_copy(update={"program": Idle(), "floor_ns": e.t_ns, "released": False})
        return self._put(new, e, self._show(new, e.t_ns))

    def _check_holder(self, state: TableState, e: ProgramLoaded) -> None:
        """The one rule of table ownership: an item of another event holds the table (see the
        module docstring); the same event's items are that event's business."""
        holder = state.holder
        if holder is None:
            return
        held = _event_key(holder)
        loading = _event_key(e.program.owner) if e.program.owner is not None else (held[0], e.event or "")
        if loading != held:
            raise Refused("table.busy", table=state.table, owner=holder)

    def _on_released(self, e: TableReleased, replay: bool) -> Staged:
        state = self._table(e)
        if not replay and state.holder != e.holder:
            return Staged(None)  # the program changed in the same decision: nothing held to let go
        return self._put(state.model_copy(update={"released": True}), e)

    def _on_retaken(self, e: TableRetaken, replay: bool) -> Staged:
        state = self._table(e)
        if not replay and (not state.released or state.program.owner != e.holder):
            return Staged(None)
        return self._put(state.model_copy(update={"released": False}), e)

    def _on_daemon_started(self, e: DaemonStarted, replay: bool) -> Staged:
        unknown = DeviceInfo()
        for table in self._staged.all_keys():
            state = self._staged[table]
            if state.device != unknown:
                self._staged.put(table, state.model_copy(update={"device": unknown}))
        self._start_staged = e
        return Staged(e)

    def _on_table_created(self, e: TableCreated, replay: bool) -> Staged:
        assert e.table is not None
        if e.table in self._staged:
            raise Refused("table.exists", table=e.table)
        state = _fresh(e)
        return self._put(state, e, self._show(state, e.t_ns))

    def _on_program(self, e: ProgramLoaded, replay: bool) -> Staged:
        state = self._table(e)
        if not replay and e.request is None:  # a desk's command to this node: the desk checked it
            self._check_holder(state, e)
        # The same item's program again (a duel closed, a station disarmed) leaves a table its event
        # let go free; any other program holds it.
        released = state.released and e.program.owner is not None and e.program.owner == state.program.owner
        new = state.model_copy(update={"program": e.program, "floor_ns": e.t_ns, "released": released})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_press(self, e: PressRecorded, replay: bool) -> Staged:
        # Live presses come through stage_device; this is the replay path.
        state = self._table(e)
        program, outcome = _press(state.program, e.side, e.t_ns)
        if outcome != e.outcome:
            raise ReplayMismatch(
                "replay.press",
                table=e.table,
                side=e.side.value.upper(),
                t_ns=e.t_ns,
                outcome=str(outcome),
                journaled=str(e.outcome),
            )
        if e.device_seq is not None:
            self._seen_staged.append((e.device_id, e.device_epoch, e.device_seq))
        new = state.model_copy(update={"program": program, "floor_ns": e.t_ns, "presses": state.presses + 1})
        if e.time_source != "measured":
            new = _time_uncertain(new, e)
        return self._put(new, e)

    def _on_referee_button(self, e: RefereeButtonPressed, replay: bool) -> Staged:
        state = self._table(e)
        if e.action == "ignored":
            return self._put(state, e)
        clock_input: Action = Pause(t_ns=e.t_ns) if e.action == "pause" else Resume(t_ns=e.t_ns)
        new = state.model_copy(update={"program": _act(state.program, clock_input), "floor_ns": e.t_ns})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_flag(self, e: FlagFell, replay: bool) -> Staged:
        state = self._table(e)
        pending = state.program.pending_flag()
        if pending is None or pending != (e.side, e.flag_at_ns):
            if replay:
                raise ReplayMismatch("replay.flag", table=e.table, side=e.side.value.upper())
            raise Refused("table.no-flag", table=e.table, side=e.side.value.upper())
        program = state.program.decide(e.t_ns)
        new = state.model_copy(update={"program": program, "floor_ns": max(state.floor_ns, e.flag_at_ns)})
        effects = self._show(new, e.t_ns) + self.devices.beep([state.table], Beep.FLAG)
        return self._put(new, e, effects)

    def _on_connected(self, e: DeviceConnected, replay: bool) -> Staged:
        state = self._table(e)
        info = DeviceInfo(state=DeviceState.CONNECTED, device_id=e.device_id, detail=e.detail)
        new = state.model_copy(update={"device": info})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_disconnected(self, e: DeviceDisconnected, replay: bool) -> Staged:
        state = self._table(e)
        info = DeviceInfo(state=DeviceState.DISCONNECTED, device_id=e.device_id, detail=e.reason)
        return self._put(state.model_copy(update={"device": info}), e)

    def _on_alert(self, e: AlertRaised, replay: bool) -> Staged:
        state = self._table(e)
        if not replay:
            e = e.model_copy(update={"alert_id": state.next_alert_id})
        alert = Alert(id=e.alert_id, code=e.code, t_ns=e.t_ns, data=dict(e.data))
        # A new alert replaces an open one of the same code (the timeline keeps them all).
        kept = tuple(a for a in state.alerts if a.code != e.code)
        new = state.model_copy(
            update={"alerts": (*kept, alert), "next_alert_id": max(state.next_alert_id, e.alert_id + 1)}
        )
        return self._put(new, e)

    def _table(self, e: Entry) -> TableState:
        if e.table is None:
            raise Refused("table.which")
        return self.get(e.table)

    # -- snapshots --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "tables": [s.model_dump(mode="json") for s in self._states.values()],
            "seen": [[d, ep, r.ranges()] for (d, ep), r in self._seen.items()],
            "last_start": None if self.last_start is None else self.last_start.model_dump(mode="json"),
        }

    def restore(self, data: dict[str, Any]) -> None:
        states = {s.table: s for s in (TableState.model_validate(t) for t in data["tables"])}
        self._states = states
        self._staged.rebase(states)
        self._view = MappingProxyType(states)
        self._seen = {(d, ep): SeqRanges(r) for d, ep, r in data["seen"]}
        start = data.get("last_start")
        self.last_start = None if start is None else DaemonStarted.model_validate(start)
        self._deadlines = {}
        self._deadline_heap = []
        for table, state in states.items():
            self._set_deadline(table, self._deadline(state))
        self.begin()

    def ref(self, table: int) -> str:
        """The table's qualified name (``hall/3``)."""
        return table_ref(self.hall, table)


def _fresh(e: TableCreated, *, node: str = "") -> TableState:
    """The table ``e`` creates, with its own clock set (timed by ``node``, if another machine's)."""
    assert e.table is not None
    if e.table < 1:
        raise Refused("table.bad-number", table=e.table)
    control = _parse_control(e.control)
    return TableState(
        table=e.table,
        label=e.label or str(e.table),
        control=e.control,
        program=ChessClock.fresh(control),
        node=node,
    )


def _event_key(ref: str) -> tuple[str, str]:
    """The hall and event of an item's reference (``desk/pt/R1-7`` → ``("desk", "pt")``)."""
    found = read_id(ref)
    if found is None or found.key is None:  # not an event's (owners always are): compared as it is
        return (ref, "")
    return (found.hall, found.key)


def _numbers(keys: set[Any]) -> list[int]:
    return sorted(int(k) for k in keys)


def _press(program: Program, side: Any, t_ns: int) -> tuple[Program, str]:
    try:
        return program.press(side, t_ns)
    except ClockError as exc:  # an input before the program's last: cannot happen past the floor
        raise Refused(exc.msg) from exc


def _act(program: Program, action: Action) -> Program:
    try:
        return program.act(action)
    except Problem as exc:
        raise Refused(exc.msg) from exc


def _time_uncertain(state: TableState, e: PressRecorded) -> TableState:
    """``state`` with the referee's alert for a press applied at a bound of its time (one per table)."""
    open_alert = next((a for a in state.alerts if a.code == TIME_UNCERTAIN), None)
    count = int(open_alert.data.get("presses", 0)) + 1 if open_alert else 1
    alert = Alert(
        id=open_alert.id if open_alert else state.next_alert_id,
        code=TIME_UNCERTAIN,
        t_ns=e.t_ns,
        data={
            "presses": count,
            "device_id": e.device_id,
            "epoch": e.device_epoch,
            "last_seq": e.device_seq or 0,
            "side": e.side.value.upper(),
        },
    )
    kept = tuple(a for a in state.alerts if a.code != TIME_UNCERTAIN)
    next_id = state.next_alert_id if open_alert else state.next_alert_id + 1
    return state.model_copy(update={"alerts": (*kept, alert), "next_alert_id": next_id})


def _parse_control(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except Problem as exc:
        raise Refused(exc.msg) from exc


_Handler = Callable[[Tables, Any, bool], Staged]
_HANDLERS: dict[type[Entry], _Handler] = {
    DaemonStarted: Tables._on_daemon_started,
    TableCreated: Tables._on_table_created,
    ProgramLoaded: Tables._on_program,
    PressRecorded: Tables._on_press,
    RefereeButtonPressed: Tables._on_referee_button,
    FlagFell: Tables._on_flag,
    DeviceConnected: Tables._on_connected,
    DeviceDisconnected: Tables._on_disconnected,
    AlertRaised: Tables._on_alert,
    TableReleased: Tables._on_released,
    TableRetaken: Tables._on_retaken,
}

__all__ = [
    "DEFAULT_GRACE_NS",
    "TIME_UNCERTAIN",
    "Alert",
    "DeviceInfo",
    "SeqRanges",
    "TableState",
    "Tables",
    "phase_of",
    "press_key",
    "table_action_kinds",
]
