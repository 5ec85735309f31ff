"""The tables: one chess clock per table, folded from the journal.

:class:`TableState` is everything the daemon knows about a table — its clock
(:class:`~clockd.core.clock.ClockState`), its device, the referee's open alerts — as one
immutable value. :class:`Tables` is the component (:mod:`clockd.service.component`) that
applies the daemon's events (:mod:`clockd.service.events`) to these values.

Rules this module settles, because the pure clock cannot:

* **One order per table.** A table's inputs are applied in journal order, and never at an
  instant earlier than the table's previous input (its *floor*). A press stamped earlier
  — re-sent by a clock after a restart, or overtaken by a referee's pause — is applied at
  the floor, and its own stamp is journaled beside it for the referee. A stamp in the
  future (a device whose clock mapping is off) is applied *now*.
* **Flags are decided after a grace period.** A serial clock's press reaches us some
  milliseconds after its stamp. The clock knows the instant a flag falls, but the
  decision (:class:`~clockd.service.events.FlagFell`) is journaled only ``grace_ns``
  later, so a press stamped just before the flag still counts. After the decision, the
  floor is the flag instant: a press that arrives even later is too late.
* **No press twice.** A device that numbers its presses (``seq``) re-sends those not yet
  acknowledged; a press already journaled is acknowledged again but not applied again
  (keyed by device id, device epoch and seq).
* **A press whose time is only a bound is flagged.** A serial clock that kept presses
  across its own reboot, while the daemon had restarted too, can only give an upper bound
  of their times (``time_source``): the table gets an alert (:data:`TIME_UNCERTAIN`),
  counting such presses until the referee clears it.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from clockd.core.clock import (
    Adjust,
    ClockError,
    ClockState,
    Outcome,
    Pause,
    Phase,
    Resume,
    Side,
)
from clockd.core.clock import (
    Press as ClockPress,
)
from clockd.core.display import quantize
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MS
from clockd.devices.base import (
    AnyDeviceEvent,
    Beep,
    ClockDevice,
    Connected,
    Disconnected,
    Display,
    Press,
    RefereeButton,
)
from clockd.service.component import Effect, Refused, ReplayMismatch, Staged
from clockd.service.events import (
    Adjusted,
    AlertCleared,
    AlertRaised,
    ClockSet,
    DaemonStarted,
    DeviceConnected,
    DeviceDisconnected,
    FlagFell,
    NoteAdded,
    Paused,
    PressRecorded,
    RefereeButtonPressed,
    Resumed,
    TableCreated,
)
from clockd.store.events import Event
from clockd.store.journal import Record

log = logging.getLogger(__name__)

#: How long after a flag falls its decision is journaled (presses in flight still count).
DEFAULT_GRACE_NS = 250 * MS

#: The alert for presses applied at an upper bound of their time.
TIME_UNCERTAIN = "press-time-uncertain"

DeviceState = Literal["unknown", "connected", "disconnected"]


class DeviceInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    state: DeviceState = "unknown"
    device_id: str = ""
    detail: str = ""


class Alert(BaseModel):
    """An open alert for the referee (see :class:`~clockd.service.events.AlertRaised`)."""

    model_config = ConfigDict(frozen=True)

    id: int
    code: str
    message: str
    t_ns: int
    data: dict[str, int | str] = {}


class TableState(BaseModel):
    """One table, between two events. Immutable: safe to hand to any thread."""

    model_config = ConfigDict(frozen=True)

    table: int
    label: str
    clock: ClockState
    device: DeviceInfo = DeviceInfo()
    alerts: tuple[Alert, ...] = ()
    next_alert_id: int = 1
    floor_ns: int = 0
    flag_decided: bool = False
    presses: int = 0
    starter: Literal["any", "a", "b", "none"] = "any"  # who may start the ready clock (ClockSet)

    def display(self, t_ns: int) -> Display:
        """What the table's device should show at ``t_ns`` (times rounded up to the ms)."""
        v = self.clock.view(max(t_ns, self.floor_ns))
        return Display(
            remaining_ms_a=quantize(v.remaining_ns.a, MS),
            remaining_ms_b=quantize(v.remaining_ns.b, MS),
            running=v.running,
        )


class SeqRanges:
    """A set of sequence numbers stored as sorted, disjoint ``[lo, hi]`` ranges.

    A device's presses arrive almost always in order, so this is one range per device
    epoch however long the day — and still exact when a re-sent press fills a gap.
    """

    __slots__ = ("_his", "_los")

    def __init__(self, ranges: Sequence[Sequence[int]] = ()) -> None:
        self._los: list[int] = [int(r[0]) for r in ranges]
        self._his: list[int] = [int(r[1]) for r in ranges]

    def __contains__(self, seq: int) -> bool:
        i = bisect.bisect_right(self._los, seq) - 1
        return i >= 0 and seq <= self._his[i]

    def add(self, seq: int) -> None:
        if seq in self:
            return
        i = bisect.bisect_right(self._los, seq)  # ranges[i-1].lo <= seq < ranges[i].lo
        joins_left = i > 0 and self._his[i - 1] == seq - 1
        joins_right = i < len(self._los) and self._los[i] == seq + 1
        if joins_left and joins_right:
            self._his[i - 1] = self._his[i]
            del self._los[i], self._his[i]
        elif joins_left:
            self._his[i - 1] = seq
        elif joins_right:
            self._los[i] = seq
        else:
            self._los.insert(i, seq)
            self._his.insert(i, seq)

    def ranges(self) -> list[list[int]]:
        return [[lo, hi] for lo, hi in zip(self._los, self._his, strict=True)]


def press_key(press: Press, run: str) -> tuple[str, str, int] | None:
    """The identity of a device press: (device id, device epoch, seq), if the device numbers them.

    The epoch tells a rebooted device's new seq 1 from its old seq 1: a serial clock
    sends its ``boot_id``. A device without one (GPIO buttons, which live in the daemon's
    process and can re-send nothing after it restarts) numbers its presses per daemon
    run, so its epoch is the run (``run``): its seq 1 after a restart is a new press.
    """
    if press.seq is None:
        return None
    epoch = str(press.boot_id) if press.boot_id is not None else run
    return (press.device_id, epoch, press.seq)


TABLE_KINDS = frozenset(
    {
        DaemonStarted.model_fields["kind"].default,
        TableCreated.model_fields["kind"].default,
        ClockSet.model_fields["kind"].default,
        PressRecorded.model_fields["kind"].default,
        Paused.model_fields["kind"].default,
        Resumed.model_fields["kind"].default,
        Adjusted.model_fields["kind"].default,
        RefereeButtonPressed.model_fields["kind"].default,
        FlagFell.model_fields["kind"].default,
        DeviceConnected.model_fields["kind"].default,
        DeviceDisconnected.model_fields["kind"].default,
        AlertRaised.model_fields["kind"].default,
        AlertCleared.model_fields["kind"].default,
        NoteAdded.model_fields["kind"].default,
    }
)


class Tables:
    """The component holding every table (see :mod:`clockd.service.component`)."""

    name = "tables"
    kinds = TABLE_KINDS

    def __init__(self, *, grace_ns: int = DEFAULT_GRACE_NS) -> None:
        if grace_ns < 0:
            raise ValueError(f"grace_ns must not be negative, not {grace_ns}")
        self.grace_ns = grace_ns
        self._states: dict[int, TableState] = {}
        self._staged: dict[int, TableState] = {}
        self._seen: dict[tuple[str, str], SeqRanges] = {}
        self._seen_staged: set[tuple[str, str, int]] = set()
        self._deadlines: dict[int, int] = {}
        self.last_start: DaemonStarted | None = None
        self._start_staged: DaemonStarted | None = None
        self._devices: dict[int, ClockDevice] = {}
        self._view: MappingProxyType[int, TableState] = MappingProxyType({})

    # -- devices --------------------------------------------------------------------------------
    def bind(self, table: int, device: ClockDevice) -> None:
        """Send ``table``'s display updates and acknowledgements to ``device``."""
        self._devices[table] = device

    def device(self, table: int) -> ClockDevice | None:
        return self._devices.get(table)

    # -- reading --------------------------------------------------------------------------------
    def view(self) -> MappingProxyType[int, TableState]:
        """Every committed table, by number (an immutable mapping; safe from any thread)."""
        return self._view

    def get(self, table: int) -> TableState:
        """The table as staged so far in this batch; :class:`Refused` if there is no such table."""
        state = self._staged.get(table) or self._states.get(table)
        if state is None:
            known = ", ".join(str(t) for t in sorted(self._states)) or "none"
            raise Refused(f"there is no table {table} (tables: {known})")
        return state

    # -- the component protocol -------------------------------------------------------------
    def begin(self) -> None:
        self._staged = {}
        self._seen_staged = set()
        self._start_staged = None

    def abort(self) -> None:
        self.begin()

    def commit(self, records: Sequence[Record]) -> None:
        if self._staged:
            states = dict(self._states)
            states.update(self._staged)
            self._states = states
            self._view = MappingProxyType(states)
            for table, state in self._staged.items():
                deadline = self._deadline(state)
                if deadline is None:
                    self._deadlines.pop(table, None)
                else:
                    self._deadlines[table] = deadline
        for device_id, epoch, seq in self._seen_staged:
            self._seen.setdefault((device_id, epoch), SeqRanges()).add(seq)
        if self._start_staged is not None:
            self.last_start = self._start_staged
        self.begin()

    def next_deadline(self) -> int | None:
        return min(self._deadlines.values(), default=None)

    def due(self, now_ns: int) -> list[Event]:
        out: list[Event] = []
        for table, deadline in self._deadlines.items():
            if deadline <= now_ns:
                pending = _pending_flag(self._states[table])
                assert pending is not None
                side, flag_at = pending
                out.append(FlagFell(table=table, t_ns=now_ns, side=side, flag_at_ns=flag_at))
        return out

    def _deadline(self, state: TableState) -> int | None:
        pending = _pending_flag(state)
        return None if pending is None else pending[1] + self.grace_ns

    # -- device inputs --------------------------------------------------------------------------
    def stage_device(
        self, event: AnyDeviceEvent, device: ClockDevice | None, *, now_ns: int, offset_ns: int
    ) -> Staged:
        """Turn a driver's event into a journal event (or nothing, for a press seen before)."""
        if isinstance(event, Press):
            return self._stage_device_press(event, device, now_ns=now_ns, offset_ns=offset_ns)
        state = self.get(event.table)
        t = max(now_ns, state.floor_ns)
        if isinstance(event, Connected):
            journal: Event = DeviceConnected(
                table=event.table, t_ns=t, device_id=event.device_id, detail=event.detail
            )
        elif isinstance(event, Disconnected):
            journal = DeviceDisconnected(
                table=event.table, t_ns=t, device_id=event.device_id, reason=event.reason
            )
        elif isinstance(event, RefereeButton):
            phase = state.clock.view(t).phase
            action: Literal["pause", "resume", "ignored"] = (
                "pause" if phase is Phase.RUNNING else "resume" if phase is Phase.PAUSED else "ignored"
            )
            journal = RefereeButtonPressed(
                table=event.table, t_ns=t, device_id=event.device_id, action=action
            )
        else:  # pragma: no cover - the union is closed
            raise Refused(f"unknown device event {type(event).__name__}")
        return self.stage(journal, now_ns=now_ns, replay=False)

    def _stage_device_press(
        self, press: Press, device: ClockDevice | None, *, now_ns: int, offset_ns: int
    ) -> Staged:
        ack: list[Effect] = [_ack(device, press)] if device is not None else []
        key = press_key(press, self._run_epoch())
        if key is not None and (key in self._seen_staged or self._was_seen(key)):
            return Staged(None, ack)  # journaled before: acknowledge again, apply never
        state = self.get(press.table)
        stamp = press.t_ns + offset_ns
        t = max(min(stamp, now_ns), state.floor_ns)
        clock, outcome = _press(state, ClockPress(t_ns=t, side=press.side))
        event = PressRecorded(
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
        new = state.model_copy(update={"clock": clock, "floor_ns": t, "presses": state.presses + 1})
        if event.time_source != "measured":
            new = _time_uncertain(new, event)
        if key is not None:
            self._seen_staged.add(key)
        self._staged[press.table] = new
        return Staged(event, ack + self._show(new, t))

    def _run_epoch(self) -> str:
        start = self._start_staged or self.last_start
        return f"run@{start.t_ns}" if start is not None else "run"

    def _was_seen(self, key: tuple[str, str, int]) -> bool:
        ranges = self._seen.get((key[0], key[1]))
        return ranges is not None and key[2] in ranges

    # -- journaled events -------------------------------------------------------------------------
    def stage(self, event: Event, *, now_ns: int, replay: bool) -> Staged:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise Refused(f"the tables do not apply events of kind {event.kind!r}")
        if not replay and event.table is not None and not isinstance(event, TableCreated):
            # Live commands take effect now, never before the table's last input.
            floor = self.get(event.table).floor_ns
            if event.t_ns < floor:
                event = event.model_copy(update={"t_ns": floor})
        return handler(self, event, replay)

    def _put(self, state: TableState, event: Event, effects: list[Effect] | None = None) -> Staged:
        self._staged[state.table] = state
        return Staged(event, effects if effects is not None else [])

    def _show(self, state: TableState, t_ns: int) -> list[Effect]:
        device = self._devices.get(state.table)
        if device is None:
            return []
        return [_show(device, state.display(t_ns))]

    def _on_daemon_started(self, e: DaemonStarted, replay: bool) -> Staged:
        unknown = DeviceInfo()
        for table, state in {**self._states, **self._staged}.items():
            if state.device != unknown:
                self._staged[table] = state.model_copy(update={"device": unknown})
        self._start_staged = e
        return Staged(e)

    def _on_table_created(self, e: TableCreated, replay: bool) -> Staged:
        assert e.table is not None
        if e.table in self._staged or e.table in self._states:
            raise Refused(f"table {e.table} already exists")
        if e.table < 1:
            raise Refused(f"table numbers start at 1, not {e.table}")
        control = _parse_control(e.control)
        state = TableState(table=e.table, label=e.label or str(e.table), clock=ClockState.initial(control))
        return self._put(state, e, self._show(state, e.t_ns))

    def _on_clock_set(self, e: ClockSet, replay: bool) -> Staged:
        state = self._table(e)
        control = _parse_control(e.control)
        new = state.model_copy(
            update={
                "clock": ClockState.initial(control),
                "flag_decided": False,
                "floor_ns": e.t_ns,
                "starter": e.starter,
            }
        )
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_press(self, e: PressRecorded, replay: bool) -> Staged:
        # Live presses come through stage_device; this is the replay path.
        state = self._table(e)
        try:
            clock, outcome = _press(state, ClockPress(t_ns=e.t_ns, side=e.side))
        except ClockError as exc:
            raise Refused(f"table {state.table}: {exc}") from exc
        if outcome is not e.outcome:
            raise ReplayMismatch(
                f"table {e.table}: press by side {e.side.value} at {e.t_ns} ns replays as "
                f"{outcome.value}, journaled as {e.outcome.value}"
            )
        if e.device_seq is not None:
            self._seen_staged.add((e.device_id, e.device_epoch, e.device_seq))
        new = state.model_copy(update={"clock": clock, "floor_ns": e.t_ns, "presses": state.presses + 1})
        if e.time_source != "measured":
            new = _time_uncertain(new, e)
        return self._put(new, e)

    def _on_pause(self, e: Paused, replay: bool) -> Staged:
        state = self._table(e)
        clock, _ = _clock_apply(state, Pause(t_ns=e.t_ns))
        new = state.model_copy(update={"clock": clock, "floor_ns": e.t_ns})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_resume(self, e: Resumed, replay: bool) -> Staged:
        state = self._table(e)
        clock, _ = _clock_apply(state, Resume(t_ns=e.t_ns))
        new = state.model_copy(update={"clock": clock, "floor_ns": e.t_ns})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_adjust(self, e: Adjusted, replay: bool) -> Staged:
        state = self._table(e)
        clock, _ = _clock_apply(state, Adjust(t_ns=e.t_ns, side=e.side, delta_ns=e.delta_ns, reason=e.reason))
        update: dict[str, object] = {"clock": clock, "floor_ns": e.t_ns}
        if clock.phase is not Phase.FLAGGED:
            update["flag_decided"] = False  # time given back lifts a decided flag
        new = state.model_copy(update=update)
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_referee_button(self, e: RefereeButtonPressed, replay: bool) -> Staged:
        state = self._table(e)
        if e.action == "ignored":
            return self._put(state, e)
        clock_input = Pause(t_ns=e.t_ns) if e.action == "pause" else Resume(t_ns=e.t_ns)
        clock, _ = _clock_apply(state, clock_input)
        new = state.model_copy(update={"clock": clock, "floor_ns": e.t_ns})
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_flag(self, e: FlagFell, replay: bool) -> Staged:
        state = self._table(e)
        v = state.clock.view(max(e.t_ns, state.floor_ns))
        if state.flag_decided or v.flag is not e.side or v.flag_at_ns != e.flag_at_ns:
            if replay:
                raise ReplayMismatch(
                    f"table {e.table}: journaled flag of side {e.side.value} does not replay"
                )
            raise Refused(f"table {e.table}: no flag of side {e.side.value} to decide")
        new = state.model_copy(update={"flag_decided": True, "floor_ns": max(state.floor_ns, e.flag_at_ns)})
        effects = self._show(new, e.t_ns)
        device = self._devices.get(state.table)
        if device is not None:
            effects.append(_beep(device, Beep.FLAG))
        return self._put(new, e, effects)

    def _on_connected(self, e: DeviceConnected, replay: bool) -> Staged:
        state = self._table(e)
        new = state.model_copy(
            update={"device": DeviceInfo(state="connected", device_id=e.device_id, detail=e.detail)}
        )
        return self._put(new, e, self._show(new, e.t_ns))

    def _on_disconnected(self, e: DeviceDisconnected, replay: bool) -> Staged:
        state = self._table(e)
        new = state.model_copy(
            update={"device": DeviceInfo(state="disconnected", device_id=e.device_id, detail=e.reason)}
        )
        return self._put(new, e)

    def _on_alert(self, e: AlertRaised, replay: bool) -> Staged:
        state = self._table(e)
        if not replay:
            e = e.model_copy(update={"alert_id": state.next_alert_id})
        alert = Alert(id=e.alert_id, code=e.code, message=e.message, t_ns=e.t_ns, data=dict(e.data))
        # A new alert replaces an open one of the same code (the timeline keeps them all).
        kept = tuple(a for a in state.alerts if a.code != e.code)
        new = state.model_copy(
            update={
                "alerts": (*kept, alert),
                "next_alert_id": max(state.next_alert_id, e.alert_id + 1),
            }
        )
        return self._put(new, e)

    def _on_alert_cleared(self, e: AlertCleared, replay: bool) -> Staged:
        state = self._table(e)
        if e.alert_id is None:
            kept: tuple[Alert, ...] = ()
        else:
            if all(a.id != e.alert_id for a in state.alerts):
                open_ids = ", ".join(str(a.id) for a in state.alerts) or "none"
                raise Refused(f"table {e.table} has no open alert {e.alert_id} (open: {open_ids})")
            kept = tuple(a for a in state.alerts if a.id != e.alert_id)
        return self._put(state.model_copy(update={"alerts": kept}), e)

    def _on_note(self, e: NoteAdded, replay: bool) -> Staged:
        return self._put(self._table(e), e)

    def _table(self, e: Event) -> TableState:
        if e.table is None:
            raise Refused(f"a {e.kind!r} event needs a table")
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
        self._view = MappingProxyType(states)
        self._seen = {(d, ep): SeqRanges(r) for d, ep, r in data["seen"]}
        start = data.get("last_start")
        self.last_start = None if start is None else DaemonStarted.model_validate(start)
        self._deadlines = {}
        for table, state in states.items():
            deadline = self._deadline(state)
            if deadline is not None:
                self._deadlines[table] = deadline
        self.begin()


def _pending_flag(state: TableState) -> tuple[Side, int] | None:
    """The flag that has fallen or will fall on this table and is not yet decided: (side, instant)."""
    if state.flag_decided:
        return None
    clock = state.clock
    if clock.phase is Phase.RUNNING and clock.to_move is not None:
        flag_at = clock.flag_at()
        return None if flag_at is None else (clock.to_move, flag_at)
    if clock.phase is Phase.FLAGGED and clock.flag is not None and clock.flag_at_ns is not None:
        return (clock.flag, clock.flag_at_ns)
    return None


def _time_uncertain(state: TableState, e: PressRecorded) -> TableState:
    """``state`` with the referee's alert for a press applied at a bound of its time (one per table)."""
    open_alert = next((a for a in state.alerts if a.code == TIME_UNCERTAIN), None)
    count = int(open_alert.data.get("presses", 0)) + 1 if open_alert else 1
    alert = Alert(
        id=open_alert.id if open_alert else state.next_alert_id,
        code=TIME_UNCERTAIN,
        message=(
            f"Clock {e.device_id} re-sent {count} press(es) it had kept across its own restart, from "
            "before this daemon knew its time base (last: side "
            f"{e.side.value.upper()}, seq {e.device_seq}). Their exact times are unknown: each was "
            "applied no earlier than it happened, so the side that was running may have been charged "
            "too much. Check the clock and adjust if needed."
        ),
        t_ns=e.t_ns,
        data={
            "presses": count,
            "device_id": e.device_id,
            "epoch": e.device_epoch,
            "last_seq": e.device_seq or 0,
        },
    )
    kept = tuple(a for a in state.alerts if a.code != TIME_UNCERTAIN)
    next_id = state.next_alert_id if open_alert else state.next_alert_id + 1
    return state.model_copy(update={"alerts": (*kept, alert), "next_alert_id": next_id})


def _press(state: TableState, press: ClockPress) -> tuple[ClockState, Outcome]:
    """A press on the table's clock, with the table's starter rule (see ClockSet).

    A press that may not start the ready clock changes nothing but the clock's count of
    ignored presses, like a press by the waiting side. Raises ClockError as the clock does.
    """
    clock = state.clock
    blocked = state.starter != "any" and clock.phase is Phase.READY and press.side.value != state.starter
    if blocked:
        return clock.ignore_press(press), Outcome.IGNORED_NOT_RUNNING
    return clock.apply(press)


def _clock_apply(state: TableState, clock_input: Any) -> tuple[ClockState, Outcome]:
    try:
        return state.clock.apply(clock_input)
    except ClockError as exc:
        raise Refused(f"table {state.table}: {exc}") from exc


def _parse_control(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except ValueError as exc:
        raise Refused(str(exc)) from exc


def _ack(device: ClockDevice, press: Press) -> Effect:
    return lambda: device.acknowledge(press)


def _show(device: ClockDevice, display: Display) -> Effect:
    return lambda: device.show(display)


def _beep(device: ClockDevice, pattern: Beep) -> Effect:
    return lambda: device.beep(pattern)


_Handler = Callable[[Tables, Any, bool], Staged]
_HANDLERS: dict[type[Event], _Handler] = {
    DaemonStarted: Tables._on_daemon_started,
    TableCreated: Tables._on_table_created,
    ClockSet: Tables._on_clock_set,
    PressRecorded: Tables._on_press,
    Paused: Tables._on_pause,
    Resumed: Tables._on_resume,
    Adjusted: Tables._on_adjust,
    RefereeButtonPressed: Tables._on_referee_button,
    FlagFell: Tables._on_flag,
    DeviceConnected: Tables._on_connected,
    DeviceDisconnected: Tables._on_disconnected,
    AlertRaised: Tables._on_alert,
    AlertCleared: Tables._on_alert_cleared,
    NoteAdded: Tables._on_note,
}

__all__ = ["DEFAULT_GRACE_NS", "Alert", "DeviceInfo", "SeqRanges", "TableState", "Tables", "press_key"]
