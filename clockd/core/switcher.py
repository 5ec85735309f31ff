"""The S(witcher) rotation (RULES.md §F, regulations §6): 13 tables, 26 seats, new partners every 15 minutes.

People draw numbers 1–26 and sit at the seat of their number: **odd numbers form the outer
circle, even numbers the inner**, two people per table — number ``2t − 1`` (outer) and
``2t`` (inner) at table ``t``. On every signal (every 15 minutes, §6.2.3) everyone moves one
seat to their right within their own circle. Sitting opposite each other, the two circles
therefore turn in **opposite directions** around the tables: after ``k`` changes the outer
circle has moved ``k`` tables one way, the inner ``k`` tables the other, so the two people
at a table meet when ``2k`` closes the gap between their starting tables. With an odd number
of tables (13) that happens exactly once in 13 changes: **every change brings a new
partner** for 12 changes in a row. Which way the outer circle turns is a setting
(``outer_direction``: +1, to the next table number, or −1).

A *seat number* (1–26) is a place in the rotation, not a chair: it moves with the person
sitting there. A person may leave and a waiting person take the seat (§6.2.5): each seat
keeps its *stints* — who, from when, until when — so the software knows everyone who stayed
from the start to the end without a break (the extra prizes, §6.2.7). Rounds go on until
every puzzle is done (§6.2.4): each table's completion is recorded, and the last one ends
the event.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from clockd.core.actions import Action, Allowed, Reason, Target, action
from clockd.core.hall import HallEventConfig, HallTimer, TimerAction, TimerError, TimerPhase
from clockd.core.units import ns_to_ms
from clockd.i18n import Msg, Problem, msg

Circle = Literal["outer", "inner"]


class SwitcherError(Problem):
    """A rotation input that cannot apply now; nothing changed."""


# -- the plan: where each seat number is after k changes -------------------------------------------


class RotationPlan(BaseModel):
    """The pure geometry of the rotation: ``tables`` tables, two seats each."""

    model_config = ConfigDict(frozen=True)

    tables: int = Field(default=13, ge=2, le=200)
    outer_direction: Literal[1, -1] = 1

    @property
    def seats(self) -> int:
        return 2 * self.tables

    def circle_of(self, seat: int) -> Circle:
        self._check(seat)
        return "outer" if seat % 2 == 1 else "inner"

    def start_table(self, seat: int) -> int:
        self._check(seat)
        return (seat + 1) // 2

    def table_after(self, seat: int, k: int) -> int:
        """The table where seat number ``seat`` sits after ``k`` changes."""
        step = self.outer_direction if self.circle_of(seat) == "outer" else -self.outer_direction
        return (self.start_table(seat) - 1 + step * k) % self.tables + 1

    def seat_at(self, table: int, circle: Circle, k: int) -> int:
        """The seat number sitting at ``table`` in ``circle`` after ``k`` changes."""
        if not 1 <= table <= self.tables:
            raise SwitcherError("switcher.no-table", table=table, tables=self.tables)
        step = self.outer_direction if circle == "outer" else -self.outer_direction
        start = (table - 1 - step * k) % self.tables + 1
        return 2 * start - 1 if circle == "outer" else 2 * start

    def partner(self, seat: int, k: int) -> int:
        """Who sits across the table from ``seat`` after ``k`` changes."""
        other: Circle = "inner" if self.circle_of(seat) == "outer" else "outer"
        return self.seat_at(self.table_after(seat, k), other, k)

    def _check(self, seat: int) -> None:
        if not 1 <= seat <= self.seats:
            raise SwitcherError("switcher.no-seat", seat=seat, seats=self.seats)


# -- the referee's actions -----------------------------------------------------------------------


@action
class TakeSeat(Action):
    """Before the start: the person who drew number ``seat`` (1–26) sits there (``name``: public)."""

    kind: Literal["switcher-seat"] = "switcher-seat"
    target: ClassVar[Target] = "event"
    seat: int = Field(ge=1, le=400)
    name: str = Field(min_length=1, max_length=120)


@action
class ReplacePerson(Action):
    """During the rotation: the person at seat number ``seat`` leaves and ``name`` takes the
    seat now (§6.2.5); ``name`` empty: the seat stays empty until someone comes."""

    kind: Literal["switcher-replace"] = "switcher-replace"
    target: ClassVar[Target] = "event"
    seat: int = Field(ge=1, le=400)
    name: str = Field(default="", max_length=120)
    reason: Reason = ""


@action
class TableDone(Action):
    """The puzzle at ``table`` is complete (its button, or the referee)."""

    kind: Literal["switcher-table-done"] = "switcher-table-done"
    target: ClassVar[Target] = "event"
    table: int = Field(ge=1, le=200)


@action
class TableUndone(Action):
    """A table's completion recorded by mistake is taken back, with a reason."""

    kind: Literal["switcher-table-undone"] = "switcher-table-undone"
    target: ClassVar[Target] = "event"
    table: int = Field(ge=1, le=200)
    reason: Reason = Field(min_length=1, max_length=500)


SWITCHER_ACTIONS = ("switcher-seat", "switcher-replace", "switcher-table-done", "switcher-table-undone")


# -- configuration and state ----------------------------------------------------------------------


class SwitcherConfig(HallEventConfig):
    """The rotation as the organiser writes it (TOML): a hall timer's settings (``signal_every
    = "15m"``, no ``duration``: it runs until every puzzle is done) and:

    .. code-block:: toml

        tables = 13             # puzzle tables (two seats each)
        outer_direction = 1     # the outer circle moves to the next table number (-1: the previous)
        pieces = 500
        [seats]                 # who drew which number (or at the desk: duelclock event seat …)
        1 = "Ania"
        [table_map]             # the rotation's table → the daemon's table (its button: "done")
        1 = 1
    """

    tables: int = Field(default=13, ge=2, le=200)
    outer_direction: Literal[1, -1] = 1
    pieces: int | None = Field(default=None, gt=0)
    seats: dict[int, str] = Field(default_factory=dict)
    table_map: dict[int, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _seats_in_range(self) -> SwitcherConfig:
        bad = [s for s in self.seats if not 1 <= s <= 2 * self.tables]
        if bad:
            raise PydanticCustomError(
                "switcher.seat-range", "seat numbers are 1 to {most}", {"most": 2 * self.tables}
            )
        bad = [t for t in self.table_map if not 1 <= t <= self.tables]
        if bad:
            raise PydanticCustomError("switcher.table-range", "tables are 1 to {most}", {"most": self.tables})
        if len(set(self.table_map.values())) != len(self.table_map):
            raise PydanticCustomError("hall.station-twice", "a table is the station of one entry only", {})
        return self

    def plan(self) -> RotationPlan:
        return RotationPlan(tables=self.tables, outer_direction=self.outer_direction)


class Stint(BaseModel):
    """One person's time in one seat number: from ``from_ns`` to ``to_ns`` (journal time;
    ``None``: still there), and the changes (rotations) at those instants."""

    model_config = ConfigDict(frozen=True)

    name: str
    from_ns: int | None  # None: from before the start
    to_ns: int | None = None
    from_rotation: int = 0
    to_rotation: int | None = None
    reason: str = ""


class Replacement(BaseModel):
    """Who left, who came, when and where (§6.2.5)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    left: str | None
    came: str | None
    t_ns: int
    elapsed_ns: int
    rotation: int
    table: int
    reason: str = ""


class SwitcherEvent(BaseModel):
    model_config = ConfigDict(frozen=True)

    config: SwitcherConfig
    timer: HallTimer
    rotations: int = 0
    stints: dict[int, tuple[Stint, ...]] = Field(default_factory=dict)
    replacements: tuple[Replacement, ...] = ()
    done: dict[int, int] = Field(default_factory=dict)  # table → event time of its completion

    @classmethod
    def new(cls, config: SwitcherConfig) -> SwitcherEvent:
        stints = {seat: (Stint(name=name, from_ns=None),) for seat, name in sorted(config.seats.items())}
        return cls(config=config, timer=config.timer(), stints=stints)

    @property
    def plan(self) -> RotationPlan:
        return self.config.plan()

    # -- reading ---------------------------------------------------------------------------------
    def occupant(self, seat: int) -> str | None:
        stints = self.stints.get(seat, ())
        if stints and stints[-1].to_ns is None:
            return stints[-1].name
        return None

    def table_of_station(self, table: int) -> int | None:
        """The daemon's table of the rotation's ``table`` (its button), if mapped."""
        return self.config.table_map.get(table)

    def rotation_table(self, daemon_table: int) -> int | None:
        return next((t for t, d in self.config.table_map.items() if d == daemon_table), None)

    def signal_tables(self) -> tuple[int, ...]:
        """The daemon's tables whose buzzers sound the changes (``devices``, else the stations')."""
        if self.config.devices is not None:
            return self.config.devices
        return tuple(sorted(self.config.table_map.values()))

    def everyone_done(self) -> bool:
        return len(self.done) == self.config.tables

    def stayed(self) -> list[tuple[int, str]]:
        """Everyone who sat from the start to the end without a break (seat number, name)."""
        out = []
        for seat, stints in sorted(self.stints.items()):
            first = stints[0]
            if len(stints) == 1 and first.from_ns is None and first.to_ns is None:
                out.append((seat, first.name))
        return out

    def allowed(self, t_ns: int) -> Allowed:
        out = self.timer.allowed(t_ns)
        phase = Msg(code=f"term.timer-phase.{self.timer.phase.value}")
        ready = self.timer.phase is TimerPhase.READY
        running = self.timer.phase in (TimerPhase.RUNNING, TimerPhase.PAUSED)
        out["switcher-seat"] = None if ready else msg("switcher.seat-after-start")
        out["switcher-replace"] = None if running else msg("timer.not-running", phase=phase)
        out["switcher-table-done"] = None if running else msg("timer.not-running", phase=phase)
        out["switcher-table-undone"] = None if self.done else msg("switcher.none-done")
        return out

    # -- inputs ----------------------------------------------------------------------------------
    def apply_timer(self, action: TimerAction) -> SwitcherEvent:
        try:
            timer = self.timer.apply(action)
        except TimerError as exc:
            raise SwitcherError(exc.msg) from None
        return self.model_copy(update={"timer": timer})

    def fire(self, offset_ns: int) -> SwitcherEvent:
        """A signal: everyone moves one seat to the right (a change), unless before the start."""
        rotations = self.rotations + (1 if offset_ns > 0 else 0)
        return self.model_copy(update={"timer": self.timer.fire(offset_ns), "rotations": rotations})

    def end(self, t_ns: int) -> SwitcherEvent:
        return self.model_copy(update={"timer": self.timer.end(t_ns)})

    def seat(self, seat: int, name: str) -> SwitcherEvent:
        self.plan._check(seat)
        if self.timer.phase is not TimerPhase.READY:
            raise SwitcherError("switcher.seat-after-start")
        other = next((s for s in self.stints if self.occupant(s) == name and s != seat), None)
        if other is not None:
            raise SwitcherError("switcher.sits-already", name=name, seat=other)
        return self.model_copy(update={"stints": {**self.stints, seat: (Stint(name=name, from_ns=None),)}})

    def replace(self, seat: int, name: str, t_ns: int, reason: str = "") -> SwitcherEvent:
        self.plan._check(seat)
        if self.timer.phase not in (TimerPhase.RUNNING, TimerPhase.PAUSED):
            raise SwitcherError(
                "timer.not-running", phase=Msg(code=f"term.timer-phase.{self.timer.phase.value}")
            )
        left = self.occupant(seat)
        if left is None and not name:
            raise SwitcherError("switcher.seat-empty", seat=seat)
        if name and any(self.occupant(s) == name for s in self.stints):
            raise SwitcherError(
                "switcher.sits-already",
                name=name,
                seat=next(s for s in self.stints if self.occupant(s) == name),
            )
        stints = list(self.stints.get(seat, ()))
        if left is not None:
            stints[-1] = stints[-1].model_copy(
                update={"to_ns": t_ns, "to_rotation": self.rotations, "reason": reason}
            )
        if name:
            stints.append(Stint(name=name, from_ns=t_ns, from_rotation=self.rotations))
        record = Replacement(
            seat=seat,
            left=left,
            came=name or None,
            t_ns=t_ns,
            elapsed_ns=self.timer.elapsed(t_ns),
            rotation=self.rotations,
            table=self.plan.table_after(seat, self.rotations),
            reason=reason,
        )
        return self.model_copy(
            update={
                "stints": {**self.stints, seat: tuple(stints)},
                "replacements": (*self.replacements, record),
            }
        )

    def table_done(self, table: int, t_ns: int) -> SwitcherEvent:
        if not 1 <= table <= self.config.tables:
            raise SwitcherError("switcher.no-table", table=table, tables=self.config.tables)
        if self.timer.phase not in (TimerPhase.RUNNING, TimerPhase.PAUSED):
            raise SwitcherError(
                "timer.not-running", phase=Msg(code=f"term.timer-phase.{self.timer.phase.value}")
            )
        if table in self.done:
            raise SwitcherError("switcher.done-already", table=table, at_ms=ns_to_ms(self.done[table]))
        return self.model_copy(update={"done": {**self.done, table: self.timer.elapsed(t_ns)}})

    def table_undone(self, table: int) -> SwitcherEvent:
        if table not in self.done:
            raise SwitcherError("switcher.not-done", table=table)
        return self.model_copy(update={"done": {t: v for t, v in self.done.items() if t != table}})

    # -- what screens show ---------------------------------------------------------------------------
    def seating(self) -> list[dict[str, Any]]:
        """For every seat number: who sits there now, at which table now and after the next change."""
        plan = self.plan
        k = self.rotations
        rows = []
        for seat in range(1, plan.seats + 1):
            rows.append(
                {
                    "seat": seat,
                    "circle": plan.circle_of(seat),
                    "name": self.occupant(seat),
                    "table": plan.table_after(seat, k),
                    "next_table": plan.table_after(seat, k + 1),
                    "partner": plan.partner(seat, k),
                }
            )
        return rows


__all__ = [
    "SWITCHER_ACTIONS",
    "ReplacePerson",
    "Replacement",
    "RotationPlan",
    "Stint",
    "SwitcherConfig",
    "SwitcherError",
    "SwitcherEvent",
    "TableDone",
    "TableUndone",
    "TakeSeat",
]
