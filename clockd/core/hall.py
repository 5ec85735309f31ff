"""A hall event's own time: a countdown or count-up, its signals, and the tables it drives.

The zone's events besides the duel are timed by the hall, not by a clock per table: the
pairs relay runs 60 minutes with "ZMIANA" every 5 minutes, the team event 180 minutes,
the rotation moves every 15 minutes until every puzzle is done (RULES.md §C–§F). A
:class:`HallTimer` is that time, as pure data:

* **event time** — the time the event has run (pauses excluded, the referee's
  adjustments included). A countdown ends when it reaches ``duration_ns``; a count-up
  (``duration_ns = None``) runs until the referee ends it.
* **signals** — at event-time offsets: every ``every_ns`` from the start, at given
  ``at_ns``, and before a planned start (``before_start_ns``: T−10 and T−5 minutes for
  the reserves and walk-ins, §1.18–1.19). A pause shifts the signals still to come; an
  adjustment moves the event's time, and with it everything that follows.
* **decisions** — a signal fires, the time runs out: each at an instant the timer knows
  in advance (:meth:`HallTimer.deadline`), journaled by the daemon when it comes, and
  replayed exactly after a crash.

A :class:`HallEvent` is a timer with its tables: the *stations* (a pair's or team's table,
whose button records "finished", :class:`Station`) and the devices whose buzzers sound
its signals. Rankings belong to the event kinds built on it (the relay, the team event).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator
from pydantic_core import PydanticCustomError

from clockd.core.actions import Action, Allowed, DeltaMs, Reason, RequiredReason, Target, action
from clockd.core.clock import Side
from clockd.core.device import Beep, Countdown, Display, Text, fit_text
from clockd.core.program import Program, ProgramView, program_type, view_type
from clockd.core.timecontrol import format_duration, parse_duration
from clockd.core.units import MS, ns_to_ms
from clockd.i18n import Msg, Problem, msg, render


class TimerError(Problem):
    """A timer action that cannot apply now; nothing changed."""


class TimerPhase(StrEnum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    ENDED = "ended"


class SignalPlan(BaseModel):
    """When a hall timer signals, in event time (ns), and with which pattern."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    every_ns: int | None = Field(default=None, gt=0)
    at_ns: tuple[int, ...] = ()
    before_start_ns: tuple[int, ...] = ()  # positive: T−x before the planned start
    pattern: Beep = Beep.CHANGE
    end_pattern: Beep | None = Beep.FLAG

    @model_validator(mode="after")
    def _positive(self) -> SignalPlan:
        if any(t <= 0 for t in self.at_ns) or any(t <= 0 for t in self.before_start_ns):
            raise PydanticCustomError("hall.offset-positive", "signal offsets are positive times", {})
        return self


# -- the referee's actions on a hall timer ------------------------------------------------------


@action
class TimerStart(Action):
    """The referee's start signal: the event's time begins now."""

    kind: Literal["timer-start"] = "timer-start"
    target: ClassVar[Target] = "event"


@action
class TimerPause(Action):
    kind: Literal["timer-pause"] = "timer-pause"
    target: ClassVar[Target] = "event"
    reason: Reason = ""


@action
class TimerResume(Action):
    kind: Literal["timer-resume"] = "timer-resume"
    target: ClassVar[Target] = "event"
    reason: Reason = ""


@action
class TimerAdjust(Action):
    """Give the event time back (``delta_ms > 0``: the clock shows more left, signals come
    later) or take it (``< 0``), with a reason."""

    kind: Literal["timer-adjust"] = "timer-adjust"
    target: ClassVar[Target] = "event"
    delta_ms: DeltaMs
    reason: RequiredReason


@action
class TimerSchedule(Action):
    """Plan the start ``start_in_ms`` from now (the T−10 / T−5 signals count down to it)."""

    kind: Literal["timer-schedule"] = "timer-schedule"
    target: ClassVar[Target] = "event"
    start_in_ms: int = Field(ge=0, le=24 * 3600 * 1000)


@action
class TimerEnd(Action):
    """The referee ends the event now (a count-up, or everyone finished early)."""

    kind: Literal["timer-end"] = "timer-end"
    target: ClassVar[Target] = "event"
    reason: Reason = ""


TimerAction = TimerStart | TimerPause | TimerResume | TimerAdjust | TimerSchedule | TimerEnd

TIMER_ACTIONS = ("timer-start", "timer-pause", "timer-resume", "timer-adjust", "timer-schedule", "timer-end")


class Due(BaseModel):
    """A decision time brings: a signal at event-time ``offset_ns`` (negative: before the
    planned start), or the end of the event's time."""

    model_config = ConfigDict(frozen=True)

    what: Literal["signal", "end"]
    offset_ns: int
    at_ns: int  # the journal-time instant it falls due


class HallTimer(BaseModel):
    """The event's time, between two inputs (see the module docstring)."""

    model_config = ConfigDict(frozen=True)

    duration_ns: int | None = Field(default=None, gt=0)
    plan: SignalPlan = SignalPlan()
    phase: TimerPhase = TimerPhase.READY
    planned_start_ns: int | None = None
    run_ns: int = 0  # event time up to mark_ns
    mark_ns: int = 0  # journal time the current running segment began
    started_at_ns: int | None = None
    ended_at_ns: int | None = None
    paused_ns: int = 0  # journal time spent paused
    adjusted_ns: int = 0  # the referee's adjustments, in total
    last_signal_ns: int | None = None  # event-time offset of the last signal given

    # -- reading ---------------------------------------------------------------------------
    def elapsed(self, t_ns: int) -> int:
        """Event time at ``t_ns``: never negative, never past the end of a countdown."""
        e = self.run_ns + (t_ns - self.mark_ns) if self.phase is TimerPhase.RUNNING else self.run_ns
        e = max(0, e)
        return min(e, self.duration_ns) if self.duration_ns is not None else e

    def remaining(self, t_ns: int) -> int | None:
        return None if self.duration_ns is None else max(0, self.duration_ns - self.elapsed(t_ns))

    def instant_of(self, offset_ns: int) -> int | None:
        """The journal-time instant event time reaches ``offset_ns`` (``None``: not while stopped)."""
        if offset_ns < 0:
            if self.phase is TimerPhase.READY and self.planned_start_ns is not None:
                return self.planned_start_ns + offset_ns
            return None
        if self.phase is not TimerPhase.RUNNING:
            return None
        return self.mark_ns + (offset_ns - self.run_ns)

    def signal_offsets(self, horizon_ns: int | None = None) -> list[int]:
        """Every signal's event-time offset, in order: the before-start ones (negative), then
        those up to the end of a countdown (exclusive: the end has its own signal) or, for a
        count-up, up to ``horizon_ns``."""
        end = self.duration_ns if self.duration_ns is not None else horizon_ns
        out = {-t for t in self.plan.before_start_ns}
        out |= {t for t in self.plan.at_ns if end is None or t < end}
        if self.plan.every_ns is not None and end is not None:
            out |= set(range(self.plan.every_ns, end, self.plan.every_ns))
        return sorted(out)

    def next_signal(self) -> int | None:
        """The event-time offset of the next signal to give, if any."""
        last = self.last_signal_ns
        if self.phase is TimerPhase.ENDED:
            return None
        if self.phase is TimerPhase.READY:
            before = sorted(-t for t in self.plan.before_start_ns)
            pending = [t for t in before if last is None or t > last]
            return pending[0] if pending and self.planned_start_ns is not None else None
        floor = 0 if last is None or last < 0 else last
        candidates = [t for t in self.plan.at_ns if t > floor]
        if self.plan.every_ns is not None:
            candidates.append((floor // self.plan.every_ns + 1) * self.plan.every_ns)
        if self.duration_ns is not None:
            candidates = [t for t in candidates if t < self.duration_ns]
        return min(candidates, default=None)

    def end_at(self) -> int | None:
        if self.duration_ns is None or self.phase is not TimerPhase.RUNNING:
            return None
        return self.mark_ns + (self.duration_ns - self.run_ns)

    def due(self) -> Due | None:
        """The next decision time will bring, and its instant."""
        end = self.end_at()
        nxt = self.next_signal()
        at = self.instant_of(nxt) if nxt is not None else None
        if at is not None and (end is None or at < end):
            assert nxt is not None
            return Due(what="signal", offset_ns=nxt, at_ns=at)
        if end is not None:
            assert self.duration_ns is not None
            return Due(what="end", offset_ns=self.duration_ns, at_ns=end)
        return None

    def deadline(self) -> int | None:
        d = self.due()
        return None if d is None else d.at_ns

    def allowed(self, t_ns: int) -> Allowed:
        phase = Msg(code=f"term.timer-phase.{self.phase.value}")
        ready = self.phase is TimerPhase.READY
        return {
            "timer-start": None if ready else msg("timer.started", phase=phase),
            "timer-pause": None
            if self.phase is TimerPhase.RUNNING
            else msg("timer.not-running", phase=phase),
            "timer-resume": None if self.phase is TimerPhase.PAUSED else msg("timer.not-paused", phase=phase),
            "timer-adjust": None if self.phase is not TimerPhase.ENDED else msg("timer.ended"),
            "timer-schedule": None if ready else msg("timer.started", phase=phase),
            "timer-end": None
            if self.phase in (TimerPhase.RUNNING, TimerPhase.PAUSED)
            else msg("timer.not-running", phase=phase),
        }

    # -- inputs ----------------------------------------------------------------------------
    def apply(self, action: TimerAction) -> HallTimer:
        reason = self.allowed(action.t_ns)[action.kind]
        if reason is not None:
            raise TimerError(reason)
        t = action.t_ns
        if isinstance(action, TimerStart):
            return self.model_copy(update={"phase": TimerPhase.RUNNING, "mark_ns": t, "started_at_ns": t})
        if isinstance(action, TimerPause):
            return self.model_copy(
                update={"phase": TimerPhase.PAUSED, "run_ns": self.elapsed(t), "mark_ns": t}
            )
        if isinstance(action, TimerResume):
            paused = self.paused_ns + (t - self.mark_ns)
            return self.model_copy(update={"phase": TimerPhase.RUNNING, "mark_ns": t, "paused_ns": paused})
        if isinstance(action, TimerAdjust):
            delta = action.delta_ms * MS
            run = max(0, self.elapsed(t) - delta)
            if self.duration_ns is not None and run >= self.duration_ns:
                raise TimerError(
                    "timer.adjust-past-end", left_ms=ns_to_ms(self.duration_ns - self.elapsed(t))
                )
            return self.model_copy(
                update={"run_ns": run, "mark_ns": t, "adjusted_ns": self.adjusted_ns + delta}
            )
        if isinstance(action, TimerSchedule):
            return self.model_copy(update={"planned_start_ns": t + action.start_in_ms * MS})
        return self.end(t)

    def fire(self, offset_ns: int) -> HallTimer:
        """The signal at ``offset_ns`` was given."""
        return self.model_copy(update={"last_signal_ns": offset_ns})

    def end(self, t_ns: int) -> HallTimer:
        """The event's time is over at ``t_ns`` (it ran out, or the referee ended it)."""
        return self.model_copy(
            update={
                "phase": TimerPhase.ENDED,
                "run_ns": self.elapsed(t_ns),
                "mark_ns": t_ns,
                "ended_at_ns": t_ns,
            }
        )

    def countdown(self, t_ns: int) -> Countdown:
        """What a device shows of this timer: the time left (a count-up: the time so far)."""
        running = self.phase is TimerPhase.RUNNING
        if self.duration_ns is None:
            return Countdown(ms=ns_to_ms(self.elapsed(t_ns)), running=running, up=True)
        left = self.remaining(t_ns) or 0
        return Countdown(ms=-(-left // MS), running=running)


class TimerView(BaseModel):
    """A hall timer as screens show it (times in ms; ``*_in_ms``: from the view's instant)."""

    model_config = ConfigDict(frozen=True)

    phase: Literal["ready", "running", "paused", "ended"]
    duration_ms: int | None
    elapsed_ms: int
    remaining_ms: int | None
    next_signal_ms: int | None  # event time of the next signal (negative: before the start)
    next_signal_in_ms: int | None
    signals_ms: list[int]  # every signal's event time
    signals_given: int
    starts_in_ms: int | None  # a planned start, from now
    paused_ms: int
    adjusted_ms: int
    every_ms: int | None


def timer_view(timer: HallTimer, t_ns: int) -> TimerView:
    nxt = timer.next_signal()
    at = timer.instant_of(nxt) if nxt is not None else None
    every = timer.plan.every_ns or 0
    offsets = timer.signal_offsets(timer.elapsed(t_ns) + 3 * every if timer.duration_ns is None else None)
    last = timer.last_signal_ns
    given = 0 if last is None else sum(1 for o in offsets if o <= last)
    start = timer.planned_start_ns if timer.phase is TimerPhase.READY else None
    return TimerView(
        phase=timer.phase.value,
        duration_ms=None if timer.duration_ns is None else ns_to_ms(timer.duration_ns),
        elapsed_ms=ns_to_ms(timer.elapsed(t_ns)),
        remaining_ms=None if timer.remaining(t_ns) is None else -(-(timer.remaining(t_ns) or 0) // MS),
        next_signal_ms=None if nxt is None else nxt // MS,
        next_signal_in_ms=None if at is None else max(0, ns_to_ms(at - t_ns)),
        signals_ms=[o // MS for o in offsets],
        signals_given=given,
        starts_in_ms=None if start is None else max(0, ns_to_ms(start - t_ns)),
        paused_ms=ns_to_ms(timer.paused_ns),
        adjusted_ms=ns_to_ms(timer.adjusted_ns),
        every_ms=None if timer.plan.every_ns is None else timer.plan.every_ns // MS,
    )


# -- a station: a table of a hall event --------------------------------------------------------


@action
class FinishEntry(Action):
    """The referee records that ``entry`` finished now (a table without a button, or a
    team that called the referee, §4.2.11)."""

    kind: Literal["entry-finish"] = "entry-finish"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)


@action
class UndoFinish(Action):
    """A finish recorded by mistake (a button knocked) is taken back, with a reason."""

    kind: Literal["entry-unfinish"] = "entry-unfinish"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    reason: RequiredReason


@view_type
class StationView(ProgramView):
    kind: Literal["station"] = "station"
    entry: str
    armed: bool
    finished: bool


@program_type
class Station(Program):
    """A hall event's table: a press of either button means "we finished" while the event runs.

    The event arms its stations when its time starts and disarms them when it ends; a press
    on a disarmed station, or a second press, changes nothing (and is counted).
    """

    kind: Literal["station"] = "station"
    outcomes: ClassVar[frozenset[str]] = frozenset({"finished", "ignored-finished", "ignored-not-started"})
    owner: str
    entry: str
    armed: bool = False
    finished: bool = False
    ignored: int = 0
    last_ns: int | None = None

    def press(self, side: Side, t_ns: int) -> tuple[Program, str]:
        if self.armed and not self.finished:
            return self.model_copy(update={"finished": True, "last_ns": t_ns}), "finished"
        outcome = "ignored-finished" if self.finished else "ignored-not-started"
        return self.model_copy(update={"ignored": self.ignored + 1, "last_ns": t_ns}), outcome

    @property
    def last_input_ns(self) -> int | None:
        return self.last_ns

    def allowed(self, t_ns: int) -> Allowed:
        out = super().allowed(t_ns)
        out["set-clock"] = msg("program.owned", owner=self.owner)
        return out

    def display(self, t_ns: int) -> Display:
        if self.finished:
            return Text(text=fit_text(render(msg("device.finished", entry=self.entry))))
        return Text(text=fit_text(self.entry))

    def view(self, t_ns: int) -> ProgramView:
        return StationView(owner=self.owner, entry=self.entry, armed=self.armed, finished=self.finished)


# -- the event: a timer and its tables --------------------------------------------------------------


def _duration(value: object) -> object:
    if isinstance(value, str):
        return parse_duration(value)
    return value


#: A time as the organiser writes it in the file ("60m", "1h30m", "90s"), kept as ns.
Duration = Annotated[
    int, BeforeValidator(_duration), Field(gt=0), PlainSerializer(format_duration, return_type=str)
]


class HallEventConfig(BaseModel):
    """A timed hall event as the organiser writes it.

    .. code-block:: toml

        name = "Sztafeta par"
        duration = "60m"              # a countdown; leave it out for a count-up
        signal_every = "5m"           # "ZMIANA" every 5 minutes of the event's time
        signal_at = ["30m"]           # and/or at given times
        before_start = ["10m", "5m"]  # T−10 and T−5 before a planned start
        pattern = "change"            # the buzzer pattern: change, short, flag, tie
        devices = [5, 6, 7, 8]        # the tables whose buzzers sound it
        [stations]                    # an entry's table: its button records the finish
        "para-1" = 5
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = ""
    duration: Duration | None = None
    signal_every: Duration | None = None
    signal_at: tuple[Duration, ...] = ()
    before_start: tuple[Duration, ...] = ()
    pattern: Beep = Beep.CHANGE
    stations: dict[str, int] = Field(default_factory=dict)  # entry → table
    #: Tables whose buzzers sound the signals (default: the stations' tables).
    devices: tuple[int, ...] | None = None

    @model_validator(mode="after")
    def _tables_once(self) -> HallEventConfig:
        tables = list(self.stations.values())
        if len(set(tables)) != len(tables):
            raise PydanticCustomError("hall.station-twice", "a table is the station of one entry only", {})
        return self

    def timer(self) -> HallTimer:
        plan = SignalPlan(
            every_ns=self.signal_every,
            at_ns=tuple(self.signal_at),
            before_start_ns=tuple(self.before_start),
            pattern=self.pattern,
        )
        return HallTimer(duration_ns=self.duration, plan=plan)

    def signal_tables(self) -> tuple[int, ...]:
        return self.devices if self.devices is not None else tuple(sorted(self.stations.values()))


class HallEvent(BaseModel):
    """A hall event: its timer, its stations and the finishes recorded (event time, ns)."""

    model_config = ConfigDict(frozen=True)

    config: HallEventConfig
    timer: HallTimer
    finishes: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def new(cls, config: HallEventConfig) -> HallEvent:
        return cls(config=config, timer=config.timer())

    # -- the timer's inputs, by the names the zone's and the rotation's events use too: one part
    # of the daemon drives the hall clock of every kind (clockd.service.hallclock) ----------------
    def signal_tables(self) -> tuple[int, ...]:
        return self.config.signal_tables()

    def apply_timer(self, action: TimerAction) -> HallEvent:
        """The referee's timer action (:class:`TimerError` if it cannot apply now)."""
        return self.model_copy(update={"timer": self.timer.apply(action)})

    def fire(self, offset_ns: int) -> HallEvent:
        return self.model_copy(update={"timer": self.timer.fire(offset_ns)})

    def end(self, t_ns: int) -> HallEvent:
        return self.model_copy(update={"timer": self.timer.end(t_ns)})

    def allowed(self, t_ns: int) -> Allowed:
        out = self.timer.allowed(t_ns)
        running = self.timer.phase in (TimerPhase.RUNNING, TimerPhase.PAUSED)
        if not self.config.stations:
            out["entry-finish"] = msg("hall.no-stations")
        else:
            out["entry-finish"] = None if running else msg("timer.not-running", phase=_phase(self.timer))
        out["entry-unfinish"] = None if self.finishes else msg("hall.no-finish")
        return out

    def finish(self, entry: str, t_ns: int) -> HallEvent:
        if entry not in self.config.stations:
            raise TimerError("hall.no-entry", entry=entry, known=sorted(self.config.stations))
        reason = self.allowed(t_ns)["entry-finish"]
        if reason is not None:
            raise TimerError(reason)
        if entry in self.finishes:
            raise TimerError("hall.finished-already", entry=entry, at_ms=ns_to_ms(self.finishes[entry]))
        return self.model_copy(update={"finishes": {**self.finishes, entry: self.timer.elapsed(t_ns)}})

    def unfinish(self, entry: str) -> HallEvent:
        if entry not in self.finishes:
            raise TimerError("hall.not-finished", entry=entry)
        return self.model_copy(update={"finishes": {k: v for k, v in self.finishes.items() if k != entry}})


def _phase(timer: HallTimer) -> Msg:
    return Msg(code=f"term.timer-phase.{timer.phase.value}")


__all__ = [
    "TIMER_ACTIONS",
    "Due",
    "FinishEntry",
    "HallEvent",
    "HallEventConfig",
    "HallTimer",
    "SignalPlan",
    "Station",
    "StationView",
    "TimerAction",
    "TimerAdjust",
    "TimerEnd",
    "TimerError",
    "TimerPause",
    "TimerPhase",
    "TimerResume",
    "TimerSchedule",
    "TimerStart",
    "TimerView",
    "UndoFinish",
    "timer_view",
]
