"""A two-sided chess clock, as pure data.

A :class:`ClockState` is immutable. Every change is an *input* — :class:`Start`,
:class:`Press`, :class:`Pause`, :class:`Resume`, :class:`Adjust` — carrying the instant
``t_ns`` it happened at (integer nanoseconds on whatever monotonic time base the caller
uses). :meth:`ClockState.apply` returns the next state and an :class:`Outcome`; folding the
same inputs over :meth:`ClockState.initial` always gives the same state
(:func:`replay`), which is how the daemon rebuilds a table after a crash.

The clock is never polled. Between inputs the running side's time falls linearly, so the
instant its flag falls is known in advance (:meth:`ClockState.flag_at`). An input or a
reading at or after that instant first *settles* the flag at exactly that instant; a
press that comes later is too late, however soon after.

Like a real lever, a press only ends the turn of the side whose time is running; a press
by the other side (or on a paused or stopped clock) changes nothing but is reported and
counted, so a referee can see a player hammering the wrong button. On a clock that is set
but not started, a press starts the *other* side's time, as on any chess clock (Black
presses to start White's clock; in a puzzle duel the toss loser presses to start the toss
winner's time, §2.2.8). That first press is not a move: no increment, no move counted.

Referee inputs that make no sense (resume a clock that is not paused, an input earlier
than the last one) raise :class:`ClockError` and leave the state as it was.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Action, DeltaMs, Reason, RequiredReason, Target, action
from clockd.core.timecontrol import DelayMode, TimeControl
from clockd.core.units import MS
from clockd.i18n import Msg, Problem


class Side(StrEnum):
    """The two sides of a clock: ``a`` (left) and ``b`` (right)."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class Phase(StrEnum):
    READY = "ready"  # set, not started
    RUNNING = "running"
    PAUSED = "paused"  # stopped by the referee; resumes where it stopped
    FLAGGED = "flagged"  # a side's time reached zero; the clock stopped at that instant


class Outcome(StrEnum):
    APPLIED = "applied"
    IGNORED_NOT_RUNNING = "ignored-not-running"  # pressed by the side whose time is not running
    IGNORED_PAUSED = "ignored-paused"
    IGNORED_FLAGGED = "ignored-flagged"
    STARTED = "started"  # a press on a ready clock started the other side's time


class ClockError(Problem):
    """An input that cannot apply to this clock; its message says why."""


T = TypeVar("T")


class PerSide(BaseModel, Generic[T]):
    """A value per side of a clock: times (``PerSide[int]``), texts (``PerSide[str]``), names.

    The one "a and b" type of the project: the core, the API and the screens all use it.
    """

    model_config = ConfigDict(frozen=True)

    a: T
    b: T

    def __getitem__(self, side: Side | str) -> T:
        if side == "a":  # a Side is a str: one comparison, no conversion (this is the press path)
            return self.a
        if side == "b":
            return self.b
        raise KeyError(side)

    def set(self, side: Side, value: T) -> PerSide[T]:
        return type(self)(a=value, b=self.b) if side is Side.A else type(self)(a=self.a, b=value)

    def add(self: PerSide[int], side: Side, delta: int) -> PerSide[int]:
        """``delta`` added to ``side``'s number (times, moves, counts)."""
        return self.set(side, self[side] + delta)


#: ``PerSide[int]`` and ``PerSide[str]``, made once: subscripting a generic model costs a
#: cache lookup on every call, and these are built on the press path.
PerSideInt = PerSide[int]
PerSideStr = PerSide[str]


def zeros() -> PerSide[int]:
    return PerSideInt(a=0, b=0)


# -- inputs -------------------------------------------------------------------------------


class _Input(BaseModel):
    model_config = ConfigDict(frozen=True)

    t_ns: int


class Start(_Input):
    kind: Literal["start"] = "start"
    side: Side  # whose time runs first


class Press(_Input):
    kind: Literal["press"] = "press"
    side: Side


@action
class Pause(Action):
    """The referee stops a running clock (a table action: also a duel's, a chess game's)."""

    kind: Literal["pause"] = "pause"
    target: ClassVar[Target] = "table"
    reason: Reason = ""


@action
class Resume(Action):
    """The referee starts a paused clock again where it stopped."""

    kind: Literal["resume"] = "resume"
    target: ClassVar[Target] = "table"
    reason: Reason = ""


@action
class Adjust(Action):
    """The referee adds (``delta_ms > 0``) or removes (``< 0``) time from a side, with a reason."""

    kind: Literal["adjust"] = "adjust"
    target: ClassVar[Target] = "table"
    side: Side
    delta_ms: DeltaMs
    reason: RequiredReason


ClockInput = Annotated[Start | Press | Pause | Resume | Adjust, Field(discriminator="kind")]


# -- state --------------------------------------------------------------------------------


class ClockView(BaseModel):
    """What the clock shows at one instant: everything a display or a rule needs."""

    model_config = ConfigDict(frozen=True)

    t_ns: int
    phase: Phase
    remaining_ns: PerSide[int]
    running: Side | None  # whose time is counting down right now
    to_move: Side | None  # whose turn it is (also while paused)
    moves: PerSide[int]
    elapsed_ns: PerSide[int]  # wall time each side's clock has run
    paused_ns: int  # wall time the clock stood paused (or stopped at a flag later lifted)
    flag: Side | None
    flag_at_ns: int | None


class ClockState(BaseModel):
    """The clock between two inputs.

    ``base_ns`` is each side's remaining time at the start of its current move (for the
    side to move) or now (for the other). ``move_used_ns`` is wall time already spent on
    the current move before ``mark_ns``, the start of the current running segment.
    """

    model_config = ConfigDict(frozen=True)

    control: TimeControl
    phase: Phase = Phase.READY
    to_move: Side | None = None
    base_ns: PerSide[int]
    moves: PerSide[int] = Field(default_factory=zeros)
    elapsed_ns: PerSide[int] = Field(default_factory=zeros)
    paused_ns: int = 0
    started_at_ns: int | None = None
    mark_ns: int = 0
    last_input_ns: int | None = None
    move_used_ns: int = 0
    flag: Side | None = None
    flag_at_ns: int | None = None
    ignored: PerSide[int] = Field(default_factory=zeros)

    @classmethod
    def initial(cls, control: TimeControl) -> ClockState:
        t = control.initial_ns
        return cls(control=control, base_ns=PerSideInt(a=t, b=t))

    # -- time arithmetic ------------------------------------------------------------------
    def _delay(self, side: Side) -> tuple[DelayMode, int]:
        stage = self.control.stage_for_move(self.moves[side])
        return self.control.delay_mode, stage.delay_ns

    def _charge(self, side: Side, used_ns: int) -> int:
        """How much of ``side``'s remaining time ``used_ns`` of wall time on a move costs."""
        mode, delay = self._delay(side)
        if mode is DelayMode.SIMPLE:
            return max(0, used_ns - delay)
        return used_ns

    def _move_used(self, t_ns: int) -> int:
        if self.phase is Phase.RUNNING:
            return self.move_used_ns + (t_ns - self.mark_ns)
        return self.move_used_ns

    def flag_at(self) -> int | None:
        """The instant the running side's time reaches zero, or ``None`` if no time runs."""
        if self.phase is not Phase.RUNNING or self.to_move is None:
            return None
        side = self.to_move
        mode, delay = self._delay(side)
        budget = self.base_ns[side] + (delay if mode is DelayMode.SIMPLE else 0)
        return self.mark_ns + budget - self.move_used_ns

    def _settled(self, t_ns: int) -> ClockState:
        """This state with a flag that fell at or before ``t_ns`` recorded at its instant."""
        flag_at = self.flag_at()
        if flag_at is None or flag_at > t_ns:
            return self
        side = self.to_move
        assert side is not None
        run = flag_at - self.mark_ns
        return self.model_copy(
            update={
                "phase": Phase.FLAGGED,
                "flag": side,
                "flag_at_ns": flag_at,
                "elapsed_ns": self.elapsed_ns.add(side, run),
                "move_used_ns": self.move_used_ns + run,
                "mark_ns": flag_at,
            }
        )

    def _remaining(self, side: Side, t_ns: int) -> int:
        if side is self.to_move and self.phase is not Phase.READY:
            return max(0, self.base_ns[side] - self._charge(side, self._move_used(t_ns)))
        return self.base_ns[side]

    # -- reading --------------------------------------------------------------------------
    def phase_at(self, t_ns: int) -> Phase:
        """The phase at ``t_ns`` (a running clock whose flag fell by then is flagged): what
        :meth:`view` would say, without the arithmetic a screen needs."""
        if self.phase is Phase.RUNNING:
            flag_at = self.flag_at()
            if flag_at is not None and flag_at <= t_ns:
                return Phase.FLAGGED
        return self.phase

    def view(self, t_ns: int) -> ClockView:
        """What the clock shows at ``t_ns`` (which may not precede the last input)."""
        self._check_time(t_ns)
        s = self._settled(t_ns)
        running = s.to_move if s.phase is Phase.RUNNING else None
        elapsed = s.elapsed_ns
        paused = s.paused_ns
        if s.phase is Phase.RUNNING and running is not None:
            elapsed = elapsed.add(running, t_ns - s.mark_ns)
        elif s.phase is Phase.PAUSED:
            paused += t_ns - s.mark_ns
        return ClockView(
            t_ns=t_ns,
            phase=s.phase,
            remaining_ns=PerSideInt(a=s._remaining(Side.A, t_ns), b=s._remaining(Side.B, t_ns)),
            running=running,
            to_move=s.to_move,
            moves=s.moves,
            elapsed_ns=elapsed,
            paused_ns=paused,
            flag=s.flag,
            flag_at_ns=s.flag_at_ns,
        )

    def face(self, t_ns: int) -> tuple[int, int, Side | None]:
        """Each side's remaining time and whose time runs at ``t_ns``: the part of :meth:`view`
        a display shows, without building the view (the press path shows every press)."""
        self._check_time(t_ns)
        s = self._settled(t_ns)
        running = s.to_move if s.phase is Phase.RUNNING else None
        return s._remaining(Side.A, t_ns), s._remaining(Side.B, t_ns), running

    def remaining(self, side: Side, t_ns: int) -> int:
        return self.view(t_ns).remaining_ns[side]

    # -- inputs ---------------------------------------------------------------------------
    def apply(self, event: Start | Press | Pause | Resume | Adjust) -> tuple[ClockState, Outcome]:
        """The state after ``event``, and what the event did. Raises :class:`ClockError`."""
        self._check_time(event.t_ns)
        if isinstance(event, Press):  # the press path: the instant goes into the one copy made
            return self._settled(event.t_ns)._press(event, {"last_input_ns": event.t_ns})
        s = self._settled(event.t_ns).model_copy(update={"last_input_ns": event.t_ns})
        if isinstance(event, Start):
            return s._start(event), Outcome.APPLIED
        if isinstance(event, Pause):
            return s._pause(event), Outcome.APPLIED
        if isinstance(event, Resume):
            return s._resume(event), Outcome.APPLIED
        return s._adjust(event), Outcome.APPLIED

    def ignore_press(self, e: Press) -> ClockState:
        """The clock after a press that the rules above the clock do not let act — a puzzle
        duel's toss winner pressing the ready clock, say. Like a press by the waiting side it
        changes nothing but that side's count of ignored presses (and, as every input does,
        the instant of the last input). Raises :class:`ClockError` for an input before the last.
        """
        self._check_time(e.t_ns)
        return self.model_copy(update={"ignored": self.ignored.add(e.side, 1), "last_input_ns": e.t_ns})

    def _check_time(self, t_ns: int) -> None:
        if self.last_input_ns is not None and t_ns < self.last_input_ns:
            raise ClockError("clock.before-last-input", t_ns=t_ns, last_ns=self.last_input_ns)

    def _start(self, e: Start, also: dict[str, object] | None = None) -> ClockState:
        if self.phase is not Phase.READY:
            raise ClockError("clock.already-started", phase=_phase_term(self.phase))
        update = {"phase": Phase.RUNNING, "to_move": e.side, "started_at_ns": e.t_ns, "mark_ns": e.t_ns}
        return self.model_copy(update=update if also is None else update | also)

    def _press(self, e: Press, also: dict[str, object]) -> tuple[ClockState, Outcome]:
        """The state after a press (with ``also`` set too, in the same copy), and what it did."""
        if self.phase is Phase.READY:
            return self._start(Start(t_ns=e.t_ns, side=e.side.other), also), Outcome.STARTED
        if self.phase is not Phase.RUNNING:
            outcome = {
                Phase.PAUSED: Outcome.IGNORED_PAUSED,
                Phase.FLAGGED: Outcome.IGNORED_FLAGGED,
            }[self.phase]
            return self.model_copy(update={"ignored": self.ignored.add(e.side, 1), **also}), outcome
        if e.side is not self.to_move:
            return (
                self.model_copy(update={"ignored": self.ignored.add(e.side, 1), **also}),
                Outcome.IGNORED_NOT_RUNNING,
            )
        side = e.side
        used = self._move_used(e.t_ns)
        mode, delay = self._delay(side)
        stage = self.control.stage_for_move(self.moves[side])
        left = self.base_ns[side] - self._charge(side, used)
        if mode is DelayMode.BRONSTEIN:
            left += min(delay, used)
        left += stage.increment_ns
        moves_done = self.moves[side] + 1
        left += self.control.time_added_after(moves_done)
        return (
            self.model_copy(
                update={
                    "base_ns": self.base_ns.set(side, left),
                    "moves": self.moves.set(side, moves_done),
                    "elapsed_ns": self.elapsed_ns.add(side, e.t_ns - self.mark_ns),
                    "to_move": side.other,
                    "move_used_ns": 0,
                    "mark_ns": e.t_ns,
                    **also,
                }
            ),
            Outcome.APPLIED,
        )

    def _pause(self, e: Pause) -> ClockState:
        if self.phase is not Phase.RUNNING:
            raise ClockError("clock.not-running", phase=_phase_term(self.phase))
        side = self.to_move
        assert side is not None
        return self.model_copy(
            update={
                "phase": Phase.PAUSED,
                "elapsed_ns": self.elapsed_ns.add(side, e.t_ns - self.mark_ns),
                "move_used_ns": self._move_used(e.t_ns),
                "mark_ns": e.t_ns,
            }
        )

    def _resume(self, e: Resume) -> ClockState:
        if self.phase is not Phase.PAUSED:
            raise ClockError("clock.not-paused", phase=_phase_term(self.phase))
        return self.model_copy(
            update={
                "phase": Phase.RUNNING,
                "paused_ns": self.paused_ns + (e.t_ns - self.mark_ns),
                "mark_ns": e.t_ns,
            }
        )

    def _adjust(self, e: Adjust) -> ClockState:
        """Add ``delta_ms`` to a side's remaining time, never below zero.

        A side brought to zero has flagged at this instant. Time given back to the side
        whose flag fell lifts the flag: the clock stands paused (the time it stood stopped
        counts as paused) until the referee resumes it.
        """
        return self._add_ns(e.side, e.t_ns, e.delta_ms * MS)

    def give_back(self, t_ns: int, side: Side, delta_ns: int) -> ClockState:
        """``delta_ns`` back to ``side`` at ``t_ns``, to the nanosecond: an adjustment taken back
        returns exactly what it took (an adjustment that hit zero took less than it said)."""
        self._check_time(t_ns)
        s = self._settled(t_ns).model_copy(update={"last_input_ns": t_ns})
        return s._add_ns(side, t_ns, delta_ns)

    def _add_ns(self, side: Side, now: int, delta_ns: int) -> ClockState:
        remaining = self._remaining(side, now)
        target = max(0, remaining + delta_ns)
        s = self.model_copy(update={"base_ns": self.base_ns.add(side, target - remaining)})
        if s.phase is Phase.FLAGGED:
            if side is s.flag and target > 0:
                return s.model_copy(
                    update={
                        "phase": Phase.PAUSED,
                        "flag": None,
                        "flag_at_ns": None,
                        "paused_ns": s.paused_ns + (now - s.mark_ns),
                        "mark_ns": now,
                    }
                )
            return s
        if target == 0 and s.phase is not Phase.READY:
            return s._flag_now(side, now)
        return s

    def _flag_now(self, side: Side, now: int) -> ClockState:
        update: dict[str, object] = {"phase": Phase.FLAGGED, "flag": side, "flag_at_ns": now, "mark_ns": now}
        if self.phase is Phase.RUNNING and self.to_move is not None:
            update["elapsed_ns"] = self.elapsed_ns.add(self.to_move, now - self.mark_ns)
            update["move_used_ns"] = self._move_used(now)
        elif self.phase is Phase.PAUSED:
            update["paused_ns"] = self.paused_ns + (now - self.mark_ns)
        return self.model_copy(update=update)

    # -- convenience ------------------------------------------------------------------------
    def start(self, t_ns: int, side: Side) -> ClockState:
        return self.apply(Start(t_ns=t_ns, side=side))[0]

    def press(self, t_ns: int, side: Side) -> tuple[ClockState, Outcome]:
        return self.apply(Press(t_ns=t_ns, side=side))

    def pause(self, t_ns: int) -> ClockState:
        return self.apply(Pause(t_ns=t_ns))[0]

    def resume(self, t_ns: int) -> ClockState:
        return self.apply(Resume(t_ns=t_ns))[0]

    def adjust(self, t_ns: int, side: Side, delta_ms: int, reason: str = "adjusted") -> ClockState:
        return self.apply(Adjust(t_ns=t_ns, side=side, delta_ms=delta_ms, reason=reason))[0]


def _phase_term(phase: Phase) -> Msg:
    return Msg(code=f"term.phase.{phase.value}")


def replay(control: TimeControl, inputs: list[Start | Press | Pause | Resume | Adjust]) -> ClockState:
    """Rebuild a clock from its inputs (the journal's view of a clock)."""
    state = ClockState.initial(control)
    for event in inputs:
        state, _ = state.apply(event)
    return state
