"""What a table runs: a *program*, chosen when something is assigned to the table.

A table is a seat with a device (a clock, two buttons and a buzzer). What a press on it
means, what it shows and what the referee may do there depends on what is being played
at it, so the table holds one :class:`Program`, as immutable state:

=============== =========================================================================
``idle``        nothing is played here: presses are counted and ignored
``clock``       a chess clock (:class:`ChessClock`): any side may start it; a flag is
                decided when it falls — for a chess game (``game``), the flag *proposes*
                a result to the arbiter, who decides (FIDE 6.9: a draw when the opponent
                cannot mate)
``puzzle-duel`` a Puzzle Duel (:class:`clockd.core.duel.PuzzleDuelProgram`): the duel's
                own clock is the table's only clock
``station``     a table of a hall event (:class:`clockd.core.hall.Station`): its button
                records "finished", its buzzer and LEDs give the hall's signals
=============== =========================================================================

Every program answers the same questions, all pure (time is an argument):

* :meth:`Program.press` — a side's button went down at ``t_ns``: the next program and what
  the press did (an outcome word the journal keeps and a replay checks);
* :meth:`Program.act` — a referee's table action (pause, resume, adjust, complete …), or a
  :class:`~clockd.i18n.Problem` saying why not; :meth:`Program.allowed` says beforehand
  which of them may be done now, by the same rules;
* :meth:`Program.deadline` / :meth:`Program.decide` — a decision that time alone brings
  (a flag falls) and its instant;
* :meth:`Program.display` — what the table's device shows; :meth:`Program.view` — what
  the screens show.

Programs register by ``kind`` (:func:`program_type`), so a new event kind brings its own
program without a change to the tables that run them.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
)

from clockd.core.actions import Action, Allowed, Reason, RequiredReason, Target, action
from clockd.core.clock import (
    Adjust,
    ClockState,
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
from clockd.core.device import Display, TwoClocks
from clockd.core.display import format_clock, quantize
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MS, ns_to_ms
from clockd.i18n import Msg, Problem, msg

# -- the table's own actions ----------------------------------------------------------------


@action
class SetClock(Action):
    """A fresh chess clock on the table (both sides full, ready), with a new control or the table's."""

    kind: Literal["set-clock"] = "set-clock"
    target: ClassVar[Target] = "table"
    control: str | None = Field(default=None, max_length=200)
    reason: Reason = ""


@action
class AddNote(Action):
    """A referee's annotation on the table's timeline (a dispute, a decision, anything)."""

    kind: Literal["note"] = "note"
    target: ClassVar[Target] = "table"
    text: str = Field(min_length=1, max_length=2000)


@action
class ClearAlert(Action):
    """The referee has seen an alert (``alert_id``), or all of the table's alerts (``None``)."""

    kind: Literal["clear-alert"] = "clear-alert"
    target: ClassVar[Target] = "table"
    alert_id: int | None = None


@action
class FreeTable(Action):
    """The referee gives a table back: whatever event holds it lets go, and the next event (or
    the table's own clock) may take it. Its ``reason`` is journaled. A running clock there is
    stopped only when the referee says so (``stop_running``): a duel is never ended in silence."""

    kind: Literal["table-free"] = "table-free"
    target: ClassVar[Target] = "table"
    reason: RequiredReason
    stop_running: bool = False


#: The actions a program is asked about, in the order screens list them. A program that
#: does not know one refuses it with ``program.cannot``.
PROGRAM_ACTIONS = ("pause", "resume", "adjust", "adjust-undo", "complete", "set-clock")


# -- programs -------------------------------------------------------------------------------


class ProgramView(BaseModel):
    """What screens show of a program (each program has its own, by ``kind``)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    owner: str | None = None


class Program(BaseModel):
    """The base of every table program (see the module docstring)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    #: What put the program on the table: an event's item (``desk/pt/R1-1``), or ``None``
    #: for the table's own clock. Only the owner changes an owned program.
    owner: str | None = None

    #: Every outcome word :meth:`press` may give (the journal keeps it; the timeline names it
    #: with the catalogue's ``term.outcome.*``, so each one has its sentence).
    outcomes: ClassVar[frozenset[str]] = frozenset({"ignored-idle"})

    # -- inputs -------------------------------------------------------------------------
    def press(self, side: Side, t_ns: int) -> tuple[Program, str]:
        """The program after a press of ``side`` at ``t_ns``, and what the press did."""
        return self, "ignored-idle"

    def act(self, action: Action) -> Program:
        """The program after a table action (stamped with its instant); :class:`Problem` if not."""
        refused = msg(
            "program.cannot", action=Msg(code=f"term.action.{action.kind}"), program=program_term(self.kind)
        )
        raise Problem(self.allowed(action.t_ns).get(action.kind) or refused)

    def allowed(self, t_ns: int) -> Allowed:
        """For each table action (:data:`PROGRAM_ACTIONS`): ``None`` if it may be done now, else why not."""
        return dict(_cannot(self.kind))

    # -- time -----------------------------------------------------------------------------
    def deadline(self) -> int | None:
        """The instant of a decision that time alone brings (a flag), if one is pending."""
        return None

    def decide(self, t_ns: int) -> Program:
        """The program with its pending decision taken at ``t_ns`` (a flag fell)."""
        return self

    def pending_flag(self) -> tuple[Side, int] | None:
        """The undecided flag, if the pending decision is one: (side, instant it fell)."""
        return None

    @property
    def last_input_ns(self) -> int | None:
        return None

    # -- output ---------------------------------------------------------------------------
    def display(self, t_ns: int) -> Display:
        raise NotImplementedError

    def view(self, t_ns: int) -> ProgramView:
        return ProgramView(kind=self.kind, owner=self.owner)


@functools.cache
def _cannot(kind: str) -> dict[str, Msg | None]:
    """Every table action refused by a program of ``kind`` (messages are values: built once)."""
    term = program_term(kind)
    return {
        name: msg("program.cannot", action=Msg(code=f"term.action.{name}"), program=term)
        for name in PROGRAM_ACTIONS
    }


@functools.cache
def program_term(kind: str) -> Msg:
    return Msg(code=f"term.program.{kind}")


P = TypeVar("P", bound=type[Program])

_PROGRAMS: dict[str, type[Program]] = {}
_VIEWS: dict[str, type[ProgramView]] = {"": ProgramView}


def program_type(cls: P) -> P:
    """Class decorator: register a program class by its ``kind`` (kinds are unique)."""
    kind = _kind_of(cls)
    known = _PROGRAMS.get(kind)
    if known is not None and known is not cls:
        raise TypeError(f"program kind {kind!r} is already taken by {known.__qualname__}")
    _PROGRAMS[kind] = cls
    return cls


def view_type(cls: type[ProgramView]) -> type[ProgramView]:
    """Class decorator: register a program's view class by its ``kind``."""
    _VIEWS[_kind_of(cls)] = cls
    return cls


def _kind_of(cls: type[BaseModel]) -> str:
    field = cls.model_fields.get("kind")
    kind = field.default if field is not None else None
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__} needs a default for its 'kind' field")
    return kind


def program_types() -> dict[str, type[Program]]:
    return dict(_PROGRAMS)


def load_program(data: Any) -> Program:
    """A program from its JSON form (or itself), found by ``kind``."""
    if isinstance(data, Program):
        return data
    if not isinstance(data, dict):
        raise ValueError(f"a program is an object with a kind, not {type(data).__name__}")
    cls = _PROGRAMS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown program kind {data.get('kind')!r} (known: {', '.join(sorted(_PROGRAMS))})")
    return cls.model_validate(data)


def load_view(data: Any) -> ProgramView:
    if isinstance(data, ProgramView):
        return data
    if not isinstance(data, dict):
        raise ValueError("a program view is an object with a kind")
    cls = _VIEWS.get(str(data.get("kind")), ProgramView)
    return cls.model_validate(data)


def _dump(value: BaseModel, info: SerializationInfo) -> Any:
    return value.model_dump(mode=info.mode)


#: A field holding any registered program (validated by its ``kind``).
AnyProgram = Annotated[Program, PlainValidator(load_program), PlainSerializer(_dump)]
#: A field holding any registered program view.
AnyProgramView = Annotated[ProgramView, PlainValidator(load_view), PlainSerializer(_dump)]


# -- idle ------------------------------------------------------------------------------------


@view_type
class IdleView(ProgramView):
    kind: Literal["idle"] = "idle"


@program_type
class Idle(Program):
    """Nothing is played here (a table between matches, a board between rounds)."""

    kind: Literal["idle"] = "idle"

    def display(self, t_ns: int) -> Display:
        return TwoClocks(remaining_ms=PerSideInt(a=0, b=0))

    def allowed(self, t_ns: int) -> Allowed:
        out = super().allowed(t_ns)
        out["set-clock"] = None
        return out

    def view(self, t_ns: int) -> ProgramView:
        return IdleView(owner=self.owner)


# -- a two-sided clock, as screens show it ------------------------------------------------------


class ClockFace(BaseModel):
    """A two-sided clock at one instant, as a screen shows it.

    ``remaining_ms`` is each side's time left, rounded *up* to the millisecond (a clock
    never shows more than is left); ``display`` what the clock face shows (whole
    seconds, rounded up). To show a ticking clock between messages, subtract the time
    since the view was built from the running side (:meth:`remaining_after`).
    """

    model_config = ConfigDict(frozen=True)

    control: str
    phase: Literal["ready", "running", "paused", "flagged"]
    remaining_ms: PerSide[int]
    display: PerSide[str]
    running: Side | None
    to_move: Side | None
    moves: PerSide[int]
    ignored: PerSide[int]
    elapsed_ms: PerSide[int]
    paused_ms: int
    flag: Side | None
    flag_decided: bool

    def remaining_after(self, side: Side | str, elapsed_ms: int) -> int:
        """``side``'s time left ``elapsed_ms`` after this view was built (never below zero)."""
        left = self.remaining_ms[side]
        if self.running is not None and self.running == Side(side):
            left -= elapsed_ms
        return max(0, left)


def clock_face(clock: ClockState, t_ns: int, *, flag_decided: bool) -> ClockFace:
    """What ``clock`` shows at ``t_ns`` (not before its last input)."""
    v = clock.view(max(t_ns, clock.last_input_ns or t_ns))
    r = v.remaining_ns
    return ClockFace(
        control=str(clock.control),
        phase=v.phase.value,
        remaining_ms=PerSideInt(a=quantize(r.a, MS), b=quantize(r.b, MS)),
        display=PerSideStr(a=format_clock(r.a), b=format_clock(r.b)),
        running=v.running,
        to_move=v.to_move,
        moves=v.moves,
        ignored=clock.ignored,
        elapsed_ms=PerSideInt(a=ns_to_ms(v.elapsed_ns.a), b=ns_to_ms(v.elapsed_ns.b)),
        paused_ms=ns_to_ms(v.paused_ns),
        flag=v.flag,
        flag_decided=flag_decided,
    )


def two_clocks(clock: ClockState, t_ns: int, text: str = "") -> TwoClocks:
    a, b, running = clock.face(max(t_ns, clock.last_input_ns or t_ns))
    return TwoClocks(
        remaining_ms=PerSideInt(a=quantize(a, MS), b=quantize(b, MS)),
        running=running,
        text=text,
    )


def clock_allowed(clock: ClockState, t_ns: int) -> Allowed:
    """Which clock actions the referee may take now on ``clock`` (the clock's own rules)."""
    return dict(_clock_allowed(clock.phase_at(max(t_ns, clock.last_input_ns or t_ns))))


@functools.cache
def _clock_allowed(phase: Phase) -> Allowed:
    term = Msg(code=f"term.phase.{phase.value}")
    return {
        "pause": None if phase is Phase.RUNNING else msg("clock.not-running", phase=term),
        "resume": None if phase is Phase.PAUSED else msg("clock.not-paused", phase=term),
        "adjust": None,
    }


# -- the chess clock -------------------------------------------------------------------------------


class ChessGame(BaseModel):
    """The game on a chess clock: who has White (for the result a flag proposes)."""

    model_config = ConfigDict(frozen=True)

    white: Side = Side.A


class FlagProposal(BaseModel):
    """What a flag proposes to the arbiter in a chess game: the other side wins, or a draw
    when it cannot mate (FIDE Laws 6.9) — the arbiter looks at the board and decides."""

    model_config = ConfigDict(frozen=True)

    flag: Side
    winner_if_mate_possible: Side
    result_if_mate_possible: Literal["1-0", "0-1"]


@view_type
class ClockProgramView(ProgramView):
    kind: Literal["clock"] = "clock"
    clock: ClockFace
    game: ChessGame | None = None
    proposal: FlagProposal | None = None


@program_type
class ChessClock(Program):
    """A chess clock: the table's own, or a chess game's (``game``, owned by its group)."""

    kind: Literal["clock"] = "clock"
    outcomes: ClassVar[frozenset[str]] = frozenset(o.value for o in Outcome)
    clock: ClockState
    flag_decided: bool = False
    game: ChessGame | None = None

    @classmethod
    def fresh(
        cls, control: TimeControl, *, owner: str | None = None, game: ChessGame | None = None
    ) -> ChessClock:
        return cls(clock=ClockState.initial(control), owner=owner, game=game)

    def press(self, side: Side, t_ns: int) -> tuple[Program, str]:
        clock, outcome = self.clock.apply(Press(t_ns=t_ns, side=side))
        return self.model_copy(update={"clock": clock}), outcome.value

    def act(self, action: Action) -> Program:
        if isinstance(action, Pause | Resume):
            clock, _ = self.clock.apply(action)
            return self.model_copy(update={"clock": clock})
        if isinstance(action, Adjust):
            clock, _ = self.clock.apply(action)
            update: dict[str, object] = {"clock": clock}
            if clock.phase is not Phase.FLAGGED:
                update["flag_decided"] = False  # time given back lifts a decided flag
            return self.model_copy(update=update)
        return super().act(action)

    def allowed(self, t_ns: int) -> Allowed:
        out = super().allowed(t_ns)
        out.update(clock_allowed(self.clock, t_ns))
        out["set-clock"] = None if self.owner is None else msg("program.owned", owner=self.owner)
        return out

    def pending_flag(self) -> tuple[Side, int] | None:
        if self.flag_decided:
            return None
        return _pending_flag(self.clock)

    def deadline(self) -> int | None:
        pending = self.pending_flag()
        return None if pending is None else pending[1]

    def decide(self, t_ns: int) -> Program:
        return self.model_copy(update={"flag_decided": True})

    @property
    def last_input_ns(self) -> int | None:
        return self.clock.last_input_ns

    def display(self, t_ns: int) -> Display:
        return two_clocks(self.clock, t_ns)

    def view(self, t_ns: int) -> ProgramView:
        face = clock_face(self.clock, t_ns, flag_decided=self.flag_decided)
        proposal = None
        if self.game is not None and face.flag is not None:
            winner = face.flag.other
            proposal = FlagProposal(
                flag=face.flag,
                winner_if_mate_possible=winner,
                result_if_mate_possible="1-0" if winner is self.game.white else "0-1",
            )
        return ClockProgramView(owner=self.owner, clock=face, game=self.game, proposal=proposal)


def _pending_flag(clock: ClockState) -> tuple[Side, int] | None:
    """The flag that has fallen or will fall on ``clock``: (side, instant)."""
    if clock.phase is Phase.RUNNING and clock.to_move is not None:
        flag_at = clock.flag_at()
        return None if flag_at is None else (clock.to_move, flag_at)
    if clock.phase is Phase.FLAGGED and clock.flag is not None and clock.flag_at_ns is not None:
        return (clock.flag, clock.flag_at_ns)
    return None


__all__ = [
    "PROGRAM_ACTIONS",
    "AddNote",
    "AnyProgram",
    "AnyProgramView",
    "ChessClock",
    "ChessGame",
    "ClearAlert",
    "ClockFace",
    "ClockProgramView",
    "FlagProposal",
    "FreeTable",
    "Idle",
    "IdleView",
    "Program",
    "ProgramView",
    "SetClock",
    "clock_allowed",
    "clock_face",
    "load_program",
    "load_view",
    "program_term",
    "program_type",
    "program_types",
    "two_clocks",
    "view_type",
]
