"""A Puzzle Duel on one chess clock (RULES.md §B, regulations §2.2.7–2.2.17), as pure data.

A :class:`Duel` wraps the two-sided :class:`~clockd.core.clock.ClockState` with the rules
that make a clock game a puzzle duel:

* **The toss.** The clock is set for the round and the toss winner is recorded. The player
  who *lost* the toss starts the clock, which starts the toss winner's time (§2.2.8) — the
  core clock already makes a press on a ready clock start the other side, and that press is
  not a move. A press by the toss *winner* on a ready clock would start the wrong player's
  time, so it is ignored and reported (:attr:`DuelOutcome.IGNORED_TOSS_WINNER`).
* **The end.** The duel ends when the referee marks the picture complete (at that instant)
  or when a flag falls (§2.2.15) — at the instant the time reached zero, which the clock
  knows in advance, not when somebody next looks (:meth:`Duel.settle`, :meth:`Duel.ends_at`).
  After the end every input is ignored and reported: the result can only change by a
  referee decision, recorded in the bracket.
* **The result.** More time left wins (§2.2.16), compared at the tournament's resolution
  with :func:`clockd.core.display.quantize` — the one place time is rounded, upward, as a
  clock face shows it. The same displayed time on both sides means a tie-break duel is due
  (§2.2.17): :class:`Verdict` ``decided_by="tie"``, no winner.

Pause, resume and the referee's time adjustments pass through to the clock unchanged.
Like the clock, a duel is immutable and replayable: folding the same inputs over
:meth:`Duel.initial` gives the same duel, which is how ``duelclock duel replay`` settles a
dispute with exactly the daemon's decision.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from clockd.core.actions import Action, Allowed, RequiredReason, Target, action
from clockd.core.clock import (
    Adjust,
    ClockError,
    ClockState,
    ClockView,
    Outcome,
    Pause,
    PerSide,
    PerSideInt,
    PerSideStr,
    Phase,
    Press,
    Resume,
    Side,
)
from clockd.core.device import Display
from clockd.core.display import DEFAULT_RESOLUTION_NS, format_clock, quantize
from clockd.core.program import (
    ClockFace,
    Program,
    ProgramView,
    clock_allowed,
    clock_face,
    program_type,
    two_clocks,
    view_type,
)
from clockd.core.timecontrol import DelayMode, Stage, TimeControl
from clockd.core.units import MS
from clockd.i18n import Msg, Problem, msg, render


@action
class Complete(Action):
    """The referee marks the picture complete: the duel ends at ``t_ns`` (a table action)."""

    kind: Literal["complete"] = "complete"
    target: ClassVar[Target] = "table"


class DuelOutcome(StrEnum):
    """What one input did to the duel (the clock's outcomes, plus the duel's own)."""

    APPLIED = "applied"
    STARTED = "started"  # the toss loser's press started the toss winner's time
    IGNORED_NOT_RUNNING = "ignored-not-running"
    IGNORED_PAUSED = "ignored-paused"
    IGNORED_TOSS_WINNER = "ignored-toss-winner"  # the toss winner pressed a ready clock
    IGNORED_ENDED = "ignored-ended"  # the duel was already over (complete or flag)
    COMPLETED = "completed"  # the referee's "picture complete" ended the duel
    FLAGGED = "flagged"  # this input found (or made) a flag: the duel ended at the flag instant


class EndReason(StrEnum):
    COMPLETE = "complete"
    FLAG = "flag"


class DuelDecidedBy(StrEnum):
    """How a duel was decided: as the referee and the results file name it."""

    TIME = "time"  # picture complete, one side had more time at the resolution
    FLAG = "flag"  # a side's time ran out
    TIE = "tie"  # picture complete with the same time on both sides: a tie-break duel is due


class DuelSetup(BaseModel):
    """How a duel is set: the round's time control, the comparison resolution, the toss."""

    model_config = ConfigDict(frozen=True)

    control: TimeControl
    toss_winner: Side
    resolution_ns: int = Field(default=DEFAULT_RESOLUTION_NS, gt=0)


class TimeAdjustment(BaseModel):
    """A referee's change to a side's time during the duel (a penalty is negative), with the
    reason as typed: the results and the printout list them, so a −30 s is never hidden in
    the figures."""

    model_config = ConfigDict(frozen=True)

    t_ns: int
    side: Side
    delta_ms: int
    reason: str = ""
    applied_ns: int = 0  # what it really changed (an adjustment cannot take a side below zero)
    undone: bool = False  # taken back as such (UndoAdjust): listed, counted for nothing


@action
class UndoAdjust(Action):
    """Take back a referee's time adjustment as such — a mistyped −590 for −59 — a table action.

    The adjustment is named by its instant, side and amount (its journal entry's: ``duelclock
    table N undo-adjust SEQ`` finds them). The time returns to the side; when that adjustment
    made the side's flag fall, the duel goes on (the clock stands paused until the referee
    resumes it) and its result, not yet confirmed, is withdrawn from the bracket.
    """

    kind: Literal["adjust-undo"] = "adjust-undo"
    target: ClassVar[Target] = "table"
    at_ns: int
    side: Side
    delta_ms: int
    reason: RequiredReason


class Verdict(BaseModel):
    """The result of a finished duel, with the raw figures the referee may ask for."""

    model_config = ConfigDict(frozen=True)

    winner: Side | None
    decided_by: DuelDecidedBy
    remaining_ns: PerSide[int]
    displayed: PerSide[str]  # what the clock face shows (m:ss, rounded up)
    moves: PerSide[int]
    ended_at_ns: int
    resolution_ns: int
    steps: PerSide[int]  # remaining time in whole steps of the resolution (rounded up)
    adjustments: tuple[TimeAdjustment, ...] = ()

    def remaining_ms(self) -> PerSide[int]:
        """Remaining time in whole milliseconds, rounded up like every displayed figure.

        Rounding up keeps the order a rule sees: a side that wins at 1 ms never shows
        fewer milliseconds than the loser.
        """
        return PerSideInt(a=quantize(self.remaining_ns.a, MS), b=quantize(self.remaining_ns.b, MS))


class Duel(BaseModel):
    """One duel between two inputs. Build with :meth:`initial`; change with :meth:`apply`."""

    model_config = ConfigDict(frozen=True)

    setup: DuelSetup
    clock: ClockState
    end: EndReason | None = None
    ended_at_ns: int | None = None
    ignored_toss_winner: int = 0  # presses by the toss winner on the ready clock
    adjustments: tuple[TimeAdjustment, ...] = ()  # the referee's, in order

    @classmethod
    def initial(cls, setup: DuelSetup) -> Duel:
        return cls(setup=setup, clock=ClockState.initial(setup.control))

    # -- reading ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def started(self) -> bool:
        return self.clock.phase is not Phase.READY

    def ends_at(self) -> int | None:
        """The instant the duel will end by a flag unless something happens first.

        A daemon arms a timer for it, so the flag is announced when it falls; the result
        does not depend on the timer — :meth:`settle` records the flag at this instant
        whenever it is called.
        """
        if self.over:
            return None
        return self.clock.flag_at()

    def settle(self, t_ns: int) -> Duel:
        """This duel with a flag that fell at or before ``t_ns`` recorded as its end."""
        if self.over:
            return self
        flag_at = self.clock.flag_at()
        if flag_at is None or flag_at > t_ns:
            return self
        # The clock settles the flag itself whenever it is read at or after this instant.
        return self._ended(self.clock, EndReason.FLAG, flag_at)

    def view(self, t_ns: int) -> ClockView:
        """What the clock shows at ``t_ns``; after the end, what it showed at the end."""
        s = self.settle(t_ns)
        if s.ended_at_ns is not None:
            return s.clock.view(max(s.ended_at_ns, s.clock.last_input_ns or 0))
        return s.clock.view(t_ns)

    def verdict(self) -> Verdict | None:
        """The result, once the duel is over (call :meth:`settle` first to catch a flag)."""
        if self.end is None or self.ended_at_ns is None:
            return None
        view = self.clock.view(max(self.ended_at_ns, self.clock.last_input_ns or 0))
        verdict = judge(view, self.end, self.ended_at_ns, self.setup.resolution_ns)
        return verdict.model_copy(update={"adjustments": self.adjustments}) if self.adjustments else verdict

    # -- inputs ----------------------------------------------------------------------------
    def apply(self, event: Press | Pause | Resume | Adjust | Complete) -> tuple[Duel, DuelOutcome]:
        """The duel after ``event`` and what the event did. Raises :class:`ClockError`.

        An input earlier than the last one, a pause of a clock that does not run, a
        "picture complete" before the duel started: each raises and changes nothing.
        """
        last = self.clock.last_input_ns
        if last is not None and event.t_ns < last:
            raise ClockError("clock.before-last-input", t_ns=event.t_ns, last_ns=last)
        s = self.settle(event.t_ns)
        if s.over:
            return s, DuelOutcome.FLAGGED if not self.over else DuelOutcome.IGNORED_ENDED
        if isinstance(event, Complete):
            return s._complete(event), DuelOutcome.COMPLETED
        if isinstance(event, Press) and s.clock.phase is Phase.READY and event.side is s.setup.toss_winner:
            update = {"clock": s.clock.ignore_press(event), "ignored_toss_winner": s.ignored_toss_winner + 1}
            return s.model_copy(update=update), DuelOutcome.IGNORED_TOSS_WINNER
        if not isinstance(event, Press) and s.clock.phase is Phase.READY and not isinstance(event, Adjust):
            raise ClockError("duel.not-started")
        clock, outcome = s.clock.apply(event)
        if isinstance(event, Adjust):
            before, after = s.clock.remaining(event.side, event.t_ns), clock.remaining(event.side, event.t_ns)
            noted = TimeAdjustment(
                t_ns=event.t_ns,
                side=event.side,
                delta_ms=event.delta_ms,
                reason=event.reason,
                applied_ns=after - before,
            )
            s = s.model_copy(update={"adjustments": (*s.adjustments, noted)})
        if clock.phase is Phase.FLAGGED:
            # An adjustment took a side's time to zero: a flag at this instant.
            return s._ended(clock, EndReason.FLAG, event.t_ns), DuelOutcome.FLAGGED
        return s.model_copy(update={"clock": clock}), _OUTCOMES[outcome]

    def _complete(self, e: Complete) -> Duel:
        if self.clock.phase is Phase.READY:
            raise ClockError("duel.not-started")
        clock = self.clock
        if clock.phase is Phase.RUNNING:
            clock = clock.apply(Pause(t_ns=e.t_ns))[0]  # stop both times at this instant
        else:
            clock = clock.model_copy(update={"last_input_ns": e.t_ns})
        return self._ended(clock, EndReason.COMPLETE, e.t_ns)

    def undoable(self, e: UndoAdjust | None = None) -> int | None:
        """The index of the adjustment ``e`` names (any, without ``e``) that may still be taken
        back: not undone yet, and the duel not over — unless it is over by this side's flag
        fallen at or after the adjustment (the flag it brought)."""
        for i, a in enumerate(self.adjustments):
            if a.undone or (e is not None and (a.t_ns, a.side, a.delta_ms) != (e.at_ns, e.side, e.delta_ms)):
                continue
            if not self.over:
                return i
            flagged = self.end is EndReason.FLAG and self.clock.flag is a.side and a.delta_ms < 0
            if flagged and self.ended_at_ns is not None and a.t_ns <= self.ended_at_ns:
                return i
        return None

    def undo_adjustment(self, e: UndoAdjust) -> Duel:
        """The duel with the adjustment ``e`` names taken back at ``e.t_ns`` (see :class:`UndoAdjust`)."""
        i = self.undoable(e)
        if i is None:
            raise ClockError("duel.no-such-adjustment", side=e.side.value.upper(), delta_ms=e.delta_ms)
        s = self.model_copy(update={"end": None, "ended_at_ns": None}) if self.over else self
        t = max(e.t_ns, s.clock.last_input_ns or e.t_ns)
        clock = s.clock.give_back(t, e.side, -s.adjustments[i].applied_ns)
        adjustments = list(s.adjustments)
        adjustments[i] = adjustments[i].model_copy(update={"undone": True})
        return s.model_copy(update={"clock": clock, "adjustments": tuple(adjustments)})

    def _ended(self, clock: ClockState, reason: EndReason, t_ns: int) -> Duel:
        return self.model_copy(update={"clock": clock, "end": reason, "ended_at_ns": t_ns})


_OUTCOMES = {
    Outcome.APPLIED: DuelOutcome.APPLIED,
    Outcome.STARTED: DuelOutcome.STARTED,
    Outcome.IGNORED_NOT_RUNNING: DuelOutcome.IGNORED_NOT_RUNNING,
    Outcome.IGNORED_PAUSED: DuelOutcome.IGNORED_PAUSED,
    Outcome.IGNORED_FLAGGED: DuelOutcome.IGNORED_ENDED,
}


def judge(view: ClockView, end: EndReason, ended_at_ns: int, resolution_ns: int) -> Verdict:
    """The rule of §2.2.15–2.2.17 applied to what the clock showed when the duel ended.

    A flag decides for the other side whatever the figures. Otherwise the side with more
    time in whole steps of ``resolution_ns`` (rounded up, as displayed) wins; the same
    number of steps is a tie and a tie-break duel is due.
    """
    remaining = view.remaining_ns
    steps = PerSideInt(a=quantize(remaining.a, resolution_ns), b=quantize(remaining.b, resolution_ns))
    winner: Side | None
    if end is EndReason.FLAG and view.flag is not None:
        winner, decided_by = view.flag.other, DuelDecidedBy.FLAG
    elif steps.a == steps.b:
        winner, decided_by = None, DuelDecidedBy.TIE
    else:
        winner, decided_by = (Side.A if steps.a > steps.b else Side.B), DuelDecidedBy.TIME
    return Verdict(
        winner=winner,
        decided_by=decided_by,
        remaining_ns=remaining,
        displayed=PerSideStr(a=format_clock(remaining.a), b=format_clock(remaining.b)),
        moves=view.moves,
        ended_at_ns=ended_at_ns,
        resolution_ns=resolution_ns,
        steps=steps,
    )


# -- the duel as a table's program ------------------------------------------------------------


@view_type
class DuelProgramView(ProgramView):
    """A Puzzle Duel at a table: its clock, the toss, and the verdict once it ended."""

    kind: Literal["puzzle-duel"] = "puzzle-duel"
    clock: ClockFace
    toss_winner: Side | None
    started: bool
    over: bool
    verdict: Verdict | None = None


@program_type
class PuzzleDuelProgram(Program):
    """A Puzzle Duel on a table: the duel's own clock is the table's only clock.

    Loaded when a match is assigned to the table (``duel`` is ``None``: the clock shows
    the round's time, locked, until the toss) and again when the toss is recorded (the
    duel begins: only the toss loser's press starts it, §2.2.8). Every press and referee
    input is folded into the duel once; the flag and "picture complete" end it with a
    :class:`Verdict` that the match's owner takes for the bracket.
    """

    kind: Literal["puzzle-duel"] = "puzzle-duel"
    outcomes: ClassVar[frozenset[str]] = frozenset({"ignored-before-toss", *(o.value for o in DuelOutcome)})
    owner: str
    control: TimeControl
    resolution_ns: int = Field(default=DEFAULT_RESOLUTION_NS, gt=0)
    duel: Duel | None = None
    locked: ClockState | None = None  # the clock shown before the toss (presses ignored)
    flag_decided: bool = False
    confirmed: bool = False  # the referee took the result for the bracket: the duel is closed

    @classmethod
    def before_toss(cls, owner: str, control: TimeControl, resolution_ns: int) -> PuzzleDuelProgram:
        return cls(
            owner=owner, control=control, resolution_ns=resolution_ns, locked=ClockState.initial(control)
        )

    @classmethod
    def after_toss(
        cls, owner: str, control: TimeControl, resolution_ns: int, toss_winner: Side
    ) -> PuzzleDuelProgram:
        setup = DuelSetup(control=control, toss_winner=toss_winner, resolution_ns=resolution_ns)
        return cls(owner=owner, control=control, resolution_ns=resolution_ns, duel=Duel.initial(setup))

    @property
    def clock(self) -> ClockState:
        if self.duel is not None:
            return self.duel.clock
        assert self.locked is not None
        return self.locked

    @property
    def verdict(self) -> Verdict | None:
        return None if self.duel is None else self.duel.verdict()

    @property
    def over(self) -> bool:
        return self.duel is not None and self.duel.over

    @property
    def last_input_ns(self) -> int | None:
        return self.clock.last_input_ns

    # -- inputs -------------------------------------------------------------------------
    def press(self, side: Side, t_ns: int) -> tuple[Program, str]:
        if self.duel is None:
            locked = self.clock.ignore_press(Press(t_ns=t_ns, side=side))
            return self.model_copy(update={"locked": locked}), "ignored-before-toss"
        duel, outcome = self.duel.apply(Press(t_ns=t_ns, side=side))
        return self.model_copy(update={"duel": duel}), outcome.value

    def act(self, action: Action) -> Program:
        reason = self.allowed(action.t_ns).get(action.kind)
        if reason is None and isinstance(action, UndoAdjust) and self.duel is not None:
            duel = self.duel.settle(action.t_ns).undo_adjustment(action)
            return self.model_copy(update={"duel": duel, "flag_decided": duel.over and self.flag_decided})
        if reason is not None or action.kind not in ("pause", "resume", "adjust", "complete"):
            return super().act(action)
        assert self.duel is not None and isinstance(action, Pause | Resume | Adjust | Complete)
        if isinstance(action, Complete):
            action = Complete(t_ns=max(action.t_ns, self.duel.clock.last_input_ns or action.t_ns))
        duel, _ = self.duel.apply(action)
        return self.model_copy(update={"duel": duel})

    def allowed(self, t_ns: int) -> Allowed:
        out = super().allowed(t_ns)
        out["set-clock"] = msg("program.owned", owner=self.owner)
        if self.duel is None:
            waiting = msg("duel.before-toss")
            out.update({"pause": waiting, "resume": waiting, "adjust": waiting, "complete": waiting})
            out["adjust-undo"] = waiting
            return out
        settled = self.duel.settle(t_ns)
        if self.confirmed:
            out["adjust-undo"] = msg("duel.confirmed")
        elif settled.undoable() is None:
            out["adjust-undo"] = msg("duel.nothing-to-undo")
        else:
            out["adjust-undo"] = None
        if settled.over:
            ended = msg("duel.over")
            out.update({"pause": ended, "resume": ended, "adjust": ended, "complete": ended})
            return out
        out.update(clock_allowed(self.duel.clock, t_ns))
        out["complete"] = None if settled.started else msg("duel.not-started")
        if not settled.started:
            out["pause"] = out["resume"] = msg("duel.not-started")
        return out

    # -- time -----------------------------------------------------------------------------
    def pending_flag(self) -> tuple[Side, int] | None:
        if self.duel is None or self.flag_decided:
            return None
        d = self.duel
        if d.over:
            if d.end is EndReason.FLAG and d.clock.flag is not None and d.ended_at_ns is not None:
                return (d.clock.flag, d.ended_at_ns)
            return None
        flag_at = d.ends_at()
        if flag_at is None or d.clock.to_move is None:
            return None
        return (d.clock.to_move, flag_at)

    def deadline(self) -> int | None:
        pending = self.pending_flag()
        return None if pending is None else pending[1]

    def decide(self, t_ns: int) -> Program:
        duel = self.duel.settle(t_ns) if self.duel is not None else None
        return self.model_copy(update={"duel": duel, "flag_decided": True})

    # -- output ---------------------------------------------------------------------------
    def display(self, t_ns: int) -> Display:
        if self.duel is not None and self.duel.settle(t_ns).over:
            settled = self.duel.settle(t_ns)
            verdict = settled.verdict()
            end = max(settled.ended_at_ns or t_ns, settled.clock.last_input_ns or 0)
            return two_clocks(settled.clock, end, text=_result_text(verdict))
        return two_clocks(self.clock, t_ns)

    def view(self, t_ns: int) -> ProgramView:
        settled = self.duel.settle(t_ns) if self.duel is not None else None
        clock = settled.clock if settled is not None else self.clock
        at = t_ns
        if settled is not None and settled.ended_at_ns is not None:
            at = max(settled.ended_at_ns, clock.last_input_ns or 0)
        return DuelProgramView(
            owner=self.owner,
            clock=clock_face(clock, at, flag_decided=self.flag_decided),
            toss_winner=None if self.duel is None else self.duel.setup.toss_winner,
            started=settled is not None and settled.started,
            over=settled is not None and settled.over,
            verdict=None if settled is None else settled.verdict(),
        )


def _result_text(verdict: Verdict | None) -> str:
    """What a finished duel's clock shows (in the daemon's language: a device has no other)."""
    if verdict is None:
        return ""
    if verdict.winner is None:
        return render(Msg(code="device.duel-tie"))
    return render(msg("device.duel-won", side=verdict.winner.value.upper()))


def replay_duel(setup: DuelSetup, inputs: list[Press | Pause | Resume | Adjust | Complete]) -> Duel:
    """Rebuild a duel from its inputs (what the journal holds for one table)."""
    duel = Duel.initial(setup)
    for event in inputs:
        duel, _ = duel.apply(event)
    return duel


# -- the dispute timeline: one duel's inputs as a referee writes them down -----------------
#
# ``duelclock duel replay`` reads this format (issue 6). Times are integer milliseconds on
# any time base; ``t_ms`` never decreases.


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class TimelineControl(_Strict):
    """A single-stage time control: ``base_ms`` per side, then increment or delay per move."""

    base_ms: int = Field(gt=0)
    increment_ms: int = Field(default=0, ge=0)
    delay_ms: int = Field(default=0, ge=0)
    delay: DelayMode = DelayMode.NONE

    def control(self) -> TimeControl:
        stage = Stage(
            time_ns=self.base_ms * MS, increment_ns=self.increment_ms * MS, delay_ns=self.delay_ms * MS
        )
        return TimeControl(stages=(stage,), delay_mode=self.delay)


class TimelinePress(_Strict):
    t_ms: int
    press: Side


class TimelinePause(_Strict):
    t_ms: int
    pause: Literal[True]


class TimelineResume(_Strict):
    t_ms: int
    resume: Literal[True]


class TimelineAdjust(_Strict):
    t_ms: int
    adjust: Side
    delta_ms: int


class TimelineComplete(_Strict):
    t_ms: int
    complete: Literal[True]


_TIMELINE_KINDS = ("press", "pause", "resume", "adjust", "complete")


def _timeline_kind(value: object) -> str | None:
    if isinstance(value, BaseModel):
        return next(k for k in _TIMELINE_KINDS if hasattr(value, k))
    if isinstance(value, dict):
        found = [k for k in _TIMELINE_KINDS if k in value]
        return found[0] if len(found) == 1 else None
    return None


TimelineEvent = Annotated[
    Annotated[TimelinePress, Tag("press")]
    | Annotated[TimelinePause, Tag("pause")]
    | Annotated[TimelineResume, Tag("resume")]
    | Annotated[TimelineAdjust, Tag("adjust")]
    | Annotated[TimelineComplete, Tag("complete")],
    Discriminator(
        _timeline_kind,
        custom_error_type="timeline_event",
        custom_error_message="an event needs t_ms and exactly one of: press, pause, resume, adjust, complete",
    ),
]


class DuelTimeline(_Strict):
    """One duel's inputs, as written for a dispute (the issue's ``TIMELINE.json``)."""

    time_control: TimelineControl
    resolution_ms: int = Field(gt=0)
    toss_winner: Side
    events: list[TimelineEvent]

    def setup(self) -> DuelSetup:
        return DuelSetup(
            control=self.time_control.control(),
            toss_winner=self.toss_winner,
            resolution_ns=self.resolution_ms * MS,
        )

    def inputs(self) -> list[Press | Pause | Resume | Adjust | Complete]:
        out: list[Press | Pause | Resume | Adjust | Complete] = []
        for e in self.events:
            t = e.t_ms * MS
            if isinstance(e, TimelinePress):
                out.append(Press(t_ns=t, side=e.press))
            elif isinstance(e, TimelinePause):
                out.append(Pause(t_ns=t))
            elif isinstance(e, TimelineResume):
                out.append(Resume(t_ns=t))
            elif isinstance(e, TimelineAdjust):
                out.append(Adjust(t_ns=t, side=e.adjust, delta_ms=e.delta_ms, reason="timeline"))
            else:
                out.append(Complete(t_ns=t))
        return out


class TimelineError(Problem):
    """A timeline that cannot be replayed; the message names the event."""


def replay_timeline(timeline: DuelTimeline) -> tuple[Verdict, list[DuelOutcome]]:
    """Replay a dispute timeline exactly as the daemon decides a duel.

    Returns the verdict and what each event did. A timeline that stops with the clock
    running ends at that side's flag — nobody pressed again, so the time ran out; one that
    stops paused or before the start has no result and raises :class:`TimelineError`.
    """
    duel = Duel.initial(timeline.setup())
    outcomes: list[DuelOutcome] = []
    for index, (raw, event) in enumerate(zip(timeline.events, timeline.inputs(), strict=True)):
        try:
            duel, outcome = duel.apply(event)
        except ClockError as exc:
            kind = _timeline_kind(raw)
            raise TimelineError(
                "timeline.event", index=index, kind=kind, t_ms=raw.t_ms, problem=exc.msg
            ) from exc
        outcomes.append(outcome)
    if not duel.over:
        flag_at = duel.ends_at()
        if flag_at is None:
            state = "not-started" if not duel.started else "paused"
            raise TimelineError("timeline.no-end", state=Msg(code=f"timeline.clock-{state}"))
        duel = duel.settle(flag_at)
    verdict = duel.verdict()
    assert verdict is not None
    return verdict, outcomes
