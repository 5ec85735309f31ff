"""The hall's clock as one part that event kinds contain: :class:`HallClock`.

Several kinds run on the hall's time rather than on a clock per table: the bare ``timer``
(:mod:`clockd.service.timed`), the zone's ``relay``, ``blind`` and ``team``
(:mod:`clockd.service.zone`) and the ``switcher`` rotation (:mod:`clockd.service.switcher`).
Each keeps a :class:`~clockd.core.hall.HallTimer` in its state, and each needs the same glue
around it in the daemon. That glue is written here, once, and every such kind *holds* a
:class:`HallClock` and hands it what is the clock's:

* **The referee's timer actions** (``timer-start`` … ``timer-end``): applied by the state's
  own ``apply_timer`` (a kind may refuse more, as the relay refuses a start while check-in is
  open), shown on the clock faces, the start arming the stations, the end disarming them and
  sounding the end.
* **Signals are decisions.** The timer knows the instant of its next signal and of its end
  (:meth:`HallTimer.deadline`); the engine wakes for it, and the signal is journaled
  (``timer-due``) with its exact event-time offset, then sounded on the buzzers of the
  event's signal tables (the device registry: GPIO buzzers, serial clocks' beepers) and
  pushed to the desk and the audience screen (the server's ``signal`` push).
* **Recovery.** After a crash the timer is rebuilt from its entries and the next signal falls
  where it would have; a clock that ran while the daemon was down raises an alert, and after
  a machine reboot it is paused at the last journaled instant (:meth:`HallClock.recovered`).
* **Stations.** Each entry with a table has a :class:`~clockd.core.hall.Station` there; a
  station's "finished" press is journaled in the press's commit as the kind's finish action
  (source ``button``), so the finish is as exact as the press.

Why composition and not a base class: a kind stays the one object the event host talks to
(its own actions, views, people, printouts), and delegates the clock's entries to the part it
holds. What differs between kinds is said to the part once, when the kind makes it (which
stations there are, whether clock faces show the countdown, which instant a time-out end is
stamped at, what a station's press journals) — not by overriding half of it. The journal
entries, their fields and the order of their follow-ups are exactly those each kind wrote
before this part existed, so old journals replay to the same states.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol, Self

from clockd.core.actions import Action
from clockd.core.hall import (
    TIMER_ACTIONS,
    FinishEntry,
    HallTimer,
    Station,
    TimerAction,
    TimerEnd,
    TimerPause,
    TimerPhase,
    TimerStart,
    TimerView,
    timer_view,
)
from clockd.core.ids import event_ref
from clockd.service.actions import ActionEntry, journal
from clockd.service.component import Effect, Refused, Restart, Staged
from clockd.service.entries import PressRecorded, ProgramLoaded
from clockd.service.events import EventAlertRaised, EventContext, Hosted
from clockd.service.tables import TableState
from clockd.store.entries import Entry, entry_type


@entry_type
class TimerDue(Entry):
    """Decision: the event's time reached a signal (``signal``; ``pre``: T−x before the planned
    start) or its end (``end``), at event-time ``offset_ns``."""

    kind: Literal["timer-due"] = "timer-due"
    what: Literal["signal", "pre", "end"]
    offset_ns: int
    #: The instant it fell due (the entry's ``t_ns`` is when the daemon took it: the same in
    #: simulated time, a few ms later on a real clock, later still after a restart).
    due_ns: int
    pattern: str = ""  # what the buzzers sound ("" for nothing)


class HallState(Protocol):
    """What a kind's state offers its clock: the timer, the tables whose buzzers sound it, and
    the state after a timer action, a signal given, the end (each kind's own rules: a zone
    contest's end also closes its ranking's time, a rotation's signal moves everyone)."""

    @property
    def timer(self) -> HallTimer: ...

    def signal_tables(self) -> tuple[int, ...]: ...

    def apply_timer(self, action: TimerAction) -> Self: ...

    def fire(self, offset_ns: int) -> Self: ...

    def end(self, t_ns: int) -> Self: ...


#: A kind's stations in a state: ``(entry, table)`` in the order their programs are loaded.
StationsOf = Callable[[Any], Iterable[tuple[str, int]]]
#: The action a station's "finished" press journals (``None``: the press means nothing here).
FinishOf = Callable[[Any, TableState], Action | None]


def entry_finish(state: Any, table: TableState) -> Action | None:
    """What a station's press means in most kinds: its entry finished (``entry-finish``)."""
    station = table.program
    return FinishEntry(entry=station.entry) if isinstance(station, Station) else None


class HallClock:
    """The hall's clock of one event kind (see the module docstring).

    ``stations`` lists the kind's stations in a state. ``face``: whether the signal tables
    that are not stations show the countdown (a clock's face: the ``timer`` and zone kinds
    have always shown it there, the rotation never has, and each keeps doing what it did).
    ``end_at``: which instant a time-out end is stamped at — ``"taken"`` (the instant the
    daemon took it: how the ``timer`` kind has always journaled it) or ``"due"`` (the instant
    it fell due: the zone's and the rotation's), kept per kind so each kind's old journals
    replay to the same end. ``finish``: what a station's press journals.
    """

    #: The referee's timer actions and the clock's decisions: part of every holding kind's own.
    actions: frozenset[str] = frozenset(TIMER_ACTIONS)
    entries: frozenset[str] = frozenset({"timer-due"})
    reacts_to: frozenset[str] = frozenset({"press"})

    def __init__(
        self,
        stations: StationsOf,
        *,
        face: bool = True,
        end_at: Literal["taken", "due"] = "due",
        finish: FinishOf = entry_finish,
    ) -> None:
        self._stations = stations
        self._face = face
        self._end_at = end_at
        self._finish = finish

    # -- creation --------------------------------------------------------------------------------
    def created(self, ctx: EventContext, hosted: Hosted) -> list[Entry]:
        """A station on each station's table, and every signal table known (else refused)."""
        out: list[Entry] = [self.station(ctx, hosted, e, table) for e, table in self._stations(hosted.state)]
        for table in hosted.state.signal_tables():
            _known(ctx, table)
        return out

    def station(self, ctx: EventContext, hosted: Hosted, entry: str, table: int) -> ProgramLoaded:
        """``entry``'s station put on ``table`` (refused if the daemon has no such table)."""
        _known(ctx, table)
        station = Station(owner=event_ref(ctx.hall, hosted.key, entry), entry=entry)
        return ProgramLoaded(table=table, event=hosted.key, program=station)

    # -- staging ---------------------------------------------------------------------------------
    def owns(self, entry: Entry) -> bool:
        """Whether ``entry`` is the clock's to stage: a decision or a timer action."""
        return isinstance(entry, TimerDue) or (
            isinstance(entry, ActionEntry) and isinstance(entry.action, TimerAction)
        )

    def stage(self, ctx: EventContext, hosted: Hosted, entry: Entry, *, replay: bool) -> tuple[Any, Staged]:
        """The state after a ``timer-due`` or a timer action (:meth:`owns`), what it sounds and
        shows, and the stations it arms or disarms (live only: on replay they are journaled)."""
        state: HallState = hosted.state
        t = entry.t_ns
        if isinstance(entry, TimerDue):
            if entry.what == "end":
                after = state.end(entry.t_ns if self._end_at == "taken" else entry.due_ns)
                off = [] if replay else self._armed(ctx, hosted, after, armed=False)
                return after, Staged(entry, self._signal(ctx, after, t, end=True), off)
            after = state.fire(entry.offset_ns)
            return after, Staged(entry, self._signal(ctx, after, t, end=False))
        assert isinstance(entry, ActionEntry) and isinstance(entry.action, TimerAction)
        action = entry.action
        after = state.apply_timer(action)  # a rule's refusal (a Problem) is refused by the host
        effects = self._show(ctx, after, t)
        follow: list[Entry] = []
        if not replay and isinstance(action, TimerStart):
            follow = self._armed(ctx, hosted, after, armed=True)
        elif not replay and isinstance(action, TimerEnd):
            follow = self._armed(ctx, hosted, after, armed=False)
            effects = self._signal(ctx, after, t, end=True)  # the referee calls time: the end's signal
        return after, Staged(entry, effects, follow)

    def ended(self, hosted: Hosted, state: HallState, t_ns: int) -> list[Entry]:
        """The end now, when everyone finished before the time ran out: a ``timer-due`` end
        at ``t_ns`` in the same commit as the last finish, sounding as a time-out's does."""
        timer = state.timer
        if timer.phase is TimerPhase.ENDED:
            return []
        end = timer.plan.end_pattern
        due = TimerDue(
            t_ns=t_ns,
            event=hosted.key,
            what="end",
            offset_ns=timer.elapsed(t_ns),
            due_ns=t_ns,
            pattern="" if end is None else end.value,
        )
        return [due]

    def marked(self, ctx: EventContext, hosted: Hosted, table: int | None, finished: bool) -> list[Entry]:
        """The station on ``table`` shown finished (or not again, a finish taken back)."""
        state = ctx.table(table) if table is not None else None
        if table is None or state is None or not isinstance(state.program, Station):
            return []
        station = state.program.model_copy(update={"finished": finished})
        return [ProgramLoaded(table=table, event=hosted.key, program=station)]

    def react(self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState) -> list[Entry]:
        """A station's button pressed "finished": the kind's finish, journaled in the press's
        commit at the press's instant."""
        if not isinstance(entry, PressRecorded) or entry.outcome != "finished":
            return []
        finish = self._finish(hosted.state, table)
        if finish is None:
            return []
        return [
            journal(
                finish.at(entry.t_ns),
                target=event_ref(ctx.hall, hosted.key),
                by=entry.device_id,
                source="button",
                table=table.table,
                event=hosted.key,
            )
        ]

    def _armed(self, ctx: EventContext, hosted: Hosted, state: HallState, *, armed: bool) -> list[Entry]:
        """The event's stations still on their tables, armed (the start) or disarmed (the end)."""
        out: list[Entry] = []
        for entry, table in self._stations(state):
            held = ctx.table(table)
            program = held.program if held is not None else None
            if isinstance(program, Station) and program.owner == event_ref(ctx.hall, hosted.key, entry):
                station = program.model_copy(update={"armed": armed})
                out.append(ProgramLoaded(table=table, event=hosted.key, program=station))
        return out

    def _show(self, ctx: EventContext, state: HallState, t_ns: int) -> list[Effect]:
        """The countdown on the signal tables that are not stations (a clock's face)."""
        if not self._face:
            return []
        stations = {table for _, table in self._stations(state)}
        effects: list[Effect] = []
        for table in state.signal_tables():
            if table not in stations:
                effects += ctx.world.devices.show(table, state.timer.countdown(t_ns))
        return effects

    def _signal(self, ctx: EventContext, state: HallState, t_ns: int, *, end: bool) -> list[Effect]:
        plan = state.timer.plan
        pattern = plan.end_pattern if end else plan.pattern
        effects = self._show(ctx, state, t_ns)
        if pattern is not None:
            effects += ctx.world.devices.beep(state.signal_tables(), pattern)
        return effects

    # -- time ---------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        state: HallState = hosted.state
        return state.timer.deadline()

    def due(self, hosted: Hosted, now_ns: int) -> list[Entry]:
        state: HallState = hosted.state
        return list(signals_due(state.timer, hosted.key, now_ns))

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        """A hall clock that ran while the daemon was down: on the same boot an alert (its time
        went on, as the hall's did: the signals missed meanwhile are given at once, late, and say
        so by their ``due_ns``); after a reboot nobody knows how long it was, so the clock is
        paused at the last journaled instant, with an alert, for the referee to decide."""
        state: HallState = hosted.state
        if state.timer.phase is not TimerPhase.RUNNING:
            return []
        if restart.rule == "same-boot":
            assert restart.downtime_ns is not None
            data: dict[str, int | str] = {"since_last_input_ms": restart.downtime_ns // 1_000_000}
            code = "alert.event-recovered-running"
            return [EventAlertRaised(event=hosted.key, alert_id=0, code=code, data=data)]
        target = event_ref(ctx.hall, hosted.key)
        pause = journal(TimerPause(), target=target, source="recovery", event=hosted.key)
        alert = EventAlertRaised(event=hosted.key, alert_id=0, code="alert.event-recovered-paused", data={})
        return [pause, alert]

    # -- reading ----------------------------------------------------------------------------------
    def holds(self, hosted: Hosted) -> bool:
        """Whether the event still holds its tables: until its time has ended."""
        state: HallState = hosted.state
        return state.timer.phase is not TimerPhase.ENDED

    def view(self, hosted: Hosted, now_ns: int) -> TimerView:
        state: HallState = hosted.state
        return timer_view(state.timer, now_ns)


def signals_due(timer: HallTimer, event: str, now_ns: int) -> list[TimerDue]:
    """The timer's signals (and its end) due by ``now_ns``, in order, as the journal keeps them."""
    out: list[TimerDue] = []
    while True:
        d = timer.due()
        if d is None or d.at_ns > now_ns:
            return out
        plan = timer.plan
        if d.what == "end":
            pattern = "" if plan.end_pattern is None else plan.end_pattern.value
            what: Literal["signal", "pre", "end"] = "end"
        else:
            pattern, what = plan.pattern.value, "pre" if d.offset_ns < 0 else "signal"
        out.append(
            TimerDue(
                t_ns=now_ns, event=event, what=what, offset_ns=d.offset_ns, due_ns=d.at_ns, pattern=pattern
            )
        )
        if what == "end":
            return out
        timer = timer.fire(d.offset_ns)


def _known(ctx: EventContext, table: int) -> None:
    if ctx.table(table) is None:
        raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))


__all__ = ["HallClock", "HallState", "TimerDue", "entry_finish", "signals_due"]
