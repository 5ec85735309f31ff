"""A timed hall event as an event kind: the hall's clock, its signals, its stations.

The rules are :class:`~clockd.core.hall.HallTimer` and :class:`~clockd.core.hall.HallEvent`
(pure); this module puts them in the daemon:

* **Signals are decisions.** The timer knows the instant of its next signal and of its end
  (:meth:`HallTimer.deadline`); the engine wakes for it, and the signal is journaled
  (``timer-due``) with its exact event-time offset, then sounded on the buzzers of the
  event's tables (the device registry: GPIO buzzers, serial clocks' beepers) and pushed to
  the desk and the audience screen (a ``signal`` push). After a crash the timer is rebuilt
  from its entries and the next signal falls where it would have.
* **Stations.** Creating the event puts a :class:`~clockd.core.hall.Station` on each
  entry's table (refused if the table runs someone else's program); the start arms them,
  the end disarms them. A station's press is a finish: this kind reacts to it in the same
  commit with an ``entry-finish`` of source ``button``, so the finish is as exact as the
  press.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import ValidationError

from clockd.api.hall import HallBody, StationEntryView
from clockd.core.actions import Allowed, validation_msgs
from clockd.core.hall import (
    FinishEntry,
    HallEvent,
    HallEventConfig,
    HallTimer,
    Station,
    TimerAction,
    TimerEnd,
    TimerError,
    TimerPause,
    TimerPhase,
    TimerStart,
    UndoFinish,
    timer_view,
)
from clockd.core.ids import event_ref
from clockd.core.units import ns_to_ms
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry, journal
from clockd.service.component import Effect, Refused, Restart, Staged
from clockd.service.entries import PressRecorded, ProgramLoaded
from clockd.service.events import EventAlertRaised, EventContext, Hosted, event_kind
from clockd.service.tables import TableState
from clockd.store.entries import Entry, entry_type

KIND = "timer"


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


class TimedEvent:
    """The ``timer`` event kind (see the module docstring)."""

    kind = KIND
    actions = frozenset(
        {
            "timer-start",
            "timer-pause",
            "timer-resume",
            "timer-adjust",
            "timer-schedule",
            "timer-end",
            "entry-finish",
            "entry-unfinish",
        }
    )
    entries = frozenset({"timer-due"})
    reacts_to = frozenset({"press"})

    # -- creation --------------------------------------------------------------------------------
    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        config = parse_config(config_toml or "", name)
        return HallEvent.new(config), config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return HallEvent.new(HallEventConfig.model_validate(config))

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        event: HallEvent = hosted.state
        out: list[Entry] = []
        for entry, table in sorted(event.config.stations.items(), key=lambda kv: kv[1]):
            if ctx.table(table) is None:
                raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))
            station = Station(owner=event_ref(ctx.hall, hosted.key, entry), entry=entry)
            out.append(ProgramLoaded(table=table, event=hosted.key, program=station))
        for table in event.config.signal_tables():
            if ctx.table(table) is None:
                raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))
        return out

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        return None  # the event kinds built on a hall timer (the relay, the team event) rank

    def holds(self, hosted: Hosted, item: str) -> bool:
        """A station is held until the hall's time has ended."""
        event: HallEvent = hosted.state
        return event.timer.phase is not TimerPhase.ENDED

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        event: HallEvent = hosted.state
        return event.config.stations.get(item)

    # -- staging ---------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        event: HallEvent = hosted.state
        t = entry.t_ns
        if isinstance(entry, TimerDue):
            if entry.what == "end":
                after = event.model_copy(update={"timer": event.timer.end(t)})
                effects = self._signal(ctx, after, t, end=True)
                follow = [] if replay else self._stations(ctx, hosted, after, armed=False)
            else:
                after = event.model_copy(update={"timer": event.timer.fire(entry.offset_ns)})
                effects = self._signal(ctx, after, t, end=False)
                follow = []
            return after, Staged(entry, effects, follow)
        assert isinstance(entry, ActionEntry)
        action = entry.action
        if isinstance(action, FinishEntry):
            after = event.finish(action.entry, t)
            follow = (
                [] if replay or entry.source == "button" else self._finished(ctx, hosted, action.entry, True)
            )
            return after, Staged(entry, follow=follow)
        if isinstance(action, UndoFinish):
            after = event.unfinish(action.entry)
            follow = [] if replay else self._finished(ctx, hosted, action.entry, False)
            return after, Staged(entry, follow=follow)
        assert isinstance(action, TimerAction)
        try:
            timer = event.timer.apply(action)
        except TimerError as exc:
            raise Refused(exc.msg) from exc
        after = event.model_copy(update={"timer": timer})
        effects = self._show(ctx, after, t)
        follow = []
        if not replay and isinstance(action, TimerStart):
            follow = self._stations(ctx, hosted, after, armed=True)
        elif not replay and isinstance(action, TimerEnd):
            follow = self._stations(ctx, hosted, after, armed=False)
            effects = self._signal(ctx, after, t, end=True)  # the referee calls time: the end's signal
        return after, Staged(entry, effects, follow)

    def _stations(self, ctx: EventContext, hosted: Hosted, event: HallEvent, *, armed: bool) -> list[Entry]:
        out: list[Entry] = []
        for entry, table in sorted(event.config.stations.items(), key=lambda kv: kv[1]):
            state = ctx.table(table)
            program = state.program if state is not None else None
            if isinstance(program, Station) and program.owner == event_ref(ctx.hall, hosted.key, entry):
                station = program.model_copy(update={"armed": armed})
                out.append(ProgramLoaded(table=table, event=hosted.key, program=station))
        return out

    def _finished(self, ctx: EventContext, hosted: Hosted, entry: str, finished: bool) -> list[Entry]:
        event: HallEvent = hosted.state
        table = event.config.stations.get(entry)
        state = ctx.table(table) if table is not None else None
        if state is None or not isinstance(state.program, Station):
            return []
        station = state.program.model_copy(update={"finished": finished})
        return [ProgramLoaded(table=table, event=hosted.key, program=station)]

    def _show(self, ctx: EventContext, event: HallEvent, t_ns: int) -> list[Effect]:
        """The countdown on the event's signal tables that are not its stations (a clock's face)."""
        stations = set(event.config.stations.values())
        effects: list[Effect] = []
        for table in event.config.signal_tables():
            if table not in stations:
                effects += ctx.world.devices.show(table, event.timer.countdown(t_ns))
        return effects

    def _signal(self, ctx: EventContext, event: HallEvent, t_ns: int, *, end: bool) -> list[Effect]:
        plan = event.timer.plan
        pattern = plan.end_pattern if end else plan.pattern
        effects = self._show(ctx, event, t_ns)
        if pattern is not None:
            effects += ctx.world.devices.beep(event.config.signal_tables(), pattern)
        return effects

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        return station_finished(ctx, hosted, entry, table)

    # -- time ---------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        event: HallEvent = hosted.state
        return event.timer.deadline()

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        event: HallEvent = hosted.state
        return list(signals_due(event.timer, hosted.key, now_ns))

    # -- reading ----------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        event: HallEvent = hosted.state
        return event.allowed(now_ns)

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> HallBody:
        event: HallEvent = hosted.state
        return HallBody(
            timer=timer_view(event.timer, now_ns),
            stations=[
                StationEntryView(
                    entry=entry,
                    table=table,
                    finished_ms=None if entry not in event.finishes else ns_to_ms(event.finishes[entry]),
                )
                for entry, table in sorted(event.config.stations.items(), key=lambda kv: kv[1])
            ],
            signal_tables=list(event.config.signal_tables()),
            pattern=event.timer.plan.pattern.value,
        )

    def title(self, hosted: Hosted) -> Msg:
        event: HallEvent = hosted.state
        name = hosted.name or event.config.name
        return msg("text.as-typed", text=name) if name else msg("text.as-typed", text=hosted.key)

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        """A hall clock that ran while the daemon was down: an alert; after a reboot, paused.

        On the same boot the event's time went on, as the hall's did (the signals missed
        meanwhile are given at once, late, and say so by their ``due_ns``); after a reboot
        nobody knows how long it was, so the clock stops at the last journaled instant and
        the referee decides.
        """
        event: HallEvent = hosted.state
        return timer_recovered(ctx, hosted, event.timer, restart)

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return HallEvent.model_validate(data)


def signals_due(timer: HallTimer, event: str, now_ns: int) -> list[TimerDue]:
    """The timer's signals (and its end) due by ``now_ns``, in order, as the journal keeps them:
    what every hall-timed event kind decides when its time comes (one rule for all of them)."""
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


def timer_recovered(ctx: EventContext, hosted: Hosted, timer: HallTimer, restart: Restart) -> list[Entry]:
    """A hall clock that ran while the daemon was down: on the same boot an alert (its time
    went on, as the hall's did); after a reboot paused at the last journaled instant, with an
    alert, for the referee to decide. The rule of every hall-timed event kind."""
    if timer.phase is not TimerPhase.RUNNING:
        return []
    if restart.rule == "same-boot":
        assert restart.downtime_ns is not None
        data: dict[str, int | str] = {"since_last_input_ms": restart.downtime_ns // 1_000_000}
        return [
            EventAlertRaised(event=hosted.key, alert_id=0, code="alert.event-recovered-running", data=data)
        ]
    pause = journal(TimerPause(), target=event_ref(ctx.hall, hosted.key), source="recovery", event=hosted.key)
    alert = EventAlertRaised(event=hosted.key, alert_id=0, code="alert.event-recovered-paused", data={})
    return [pause, alert]


def station_finished(ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState) -> list[Entry]:
    """A station table's button pressed "finished": its entry's finish, journaled in the press's
    commit at the press's instant (the relay, blind puzzling, the team event, a plain timer)."""
    if not isinstance(entry, PressRecorded) or entry.outcome != "finished":
        return []
    station = table.program
    if not isinstance(station, Station):
        return []
    finish = FinishEntry(entry=station.entry).at(entry.t_ns)
    return [
        journal(
            finish,
            target=event_ref(ctx.hall, hosted.key),
            by=entry.device_id,
            source="button",
            table=table.table,
            event=hosted.key,
        )
    ]


def parse_config(text: str, name: str = "", source: str = "the configuration sent") -> HallEventConfig:
    """A hall event's configuration from its TOML text; :class:`Refused` naming every problem."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused("config.not-toml", source=source, problem=str(exc)) from exc
    if name and "name" not in data:
        data["name"] = name
    try:
        return HallEventConfig.model_validate(data)
    except ValidationError as exc:
        raise Refused("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


event_kind(TimedEvent())

__all__ = ["KIND", "TimedEvent", "TimerDue", "parse_config"]
