"""What the screens show, as plain data: the view model the Qt widgets render.

The GUI is built in three layers (napari style):

1. **this module** — immutable pydantic models of what a referee or the audience sees
   (tables and their clocks, the bracket, players, per-table timelines), and
   :class:`DeskModel`, which holds the current :class:`DeskState` and tells subscribers
   what changed. No Qt, no sockets: tests build states by hand and read them back;
2. **the adapter** (:mod:`gui.adapter`) turns the daemon's API messages into updates of
   a :class:`DeskModel`, and the referee's actions into API requests;
3. **the widgets** (:mod:`gui.widgets`, :mod:`gui.referee`, :mod:`gui.audience`) draw a
   :class:`DeskModel` and subscribe to its changes.

**Time.** A table's state carries each side's remaining time at the instant the GUI
received it (``received_ns``, on the GUI's own monotonic clock). Between messages the
running side's clock is extrapolated — remaining at ``now`` is remaining at receipt minus
the time since, for the running side only — and every text is made by
:func:`clockd.core.display.format_clock`, the one place a time is rounded (up, as a
clock face does). ``now`` is always an argument, so a test can step time by hand.

**Personal data.** Fields holding personal data are marked ``private`` in their JSON
schema (as :mod:`clockd.core.registration` does). :meth:`DeskState.public` returns a copy
with every private field emptied; the audience screen only ever receives that copy
(DESIGN.md principle 9).
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from clockd.core.clock import Side
from clockd.core.display import format_clock
from clockd.core.units import MS

#: The JSON-schema marking of a field that holds personal data.
PRIVATE: JsonDict = {"private": True}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Pair(_Frozen):
    """An ``int`` per clock side."""

    a: int = 0
    b: int = 0

    def __getitem__(self, side: Side | str) -> int:
        return self.a if Side(side) is Side.A else self.b


class Texts(_Frozen):
    """A text per side (e.g. the times a finished duel's clock showed)."""

    a: str = ""
    b: str = ""

    def __getitem__(self, side: Side | str) -> str:
        return self.a if Side(side) is Side.A else self.b


# -- tables ----------------------------------------------------------------------------------

Phase = Literal["ready", "running", "paused", "flagged"]
DeviceState = Literal["unknown", "connected", "disconnected", "none"]


class Alert(_Frozen):
    """An open alert on a table. ``code`` is stable (the GUI translates it); ``message`` is English."""

    id: int
    code: str
    message: str = ""


class Table(_Frozen):
    """One duel table's clock, as last reported by the daemon."""

    table: int
    label: str = ""
    control: str = ""
    phase: Phase = "ready"
    remaining_ms: Pair = Pair()
    running: Side | None = None
    to_move: Side | None = None
    moves: Pair = Pair()
    ignored: Pair = Pair()
    flag: Side | None = None
    flag_decided: bool = False
    presses: int = 0
    device: DeviceState = "unknown"
    device_detail: str = ""
    alerts: tuple[Alert, ...] = ()
    seq: int = 0
    #: When this state arrived, on the GUI's monotonic clock (``time.monotonic_ns()``).
    received_ns: int = 0

    def remaining_ns(self, side: Side | str, now_ns: int) -> int:
        """``side``'s time left at ``now_ns``: the reported time, less the time since, if it runs."""
        left = self.remaining_ms[side] * MS
        if self.running is not None and self.running is Side(side):
            left -= max(0, now_ns - self.received_ns)
        return max(0, left)

    def shown(self, side: Side | str, now_ns: int) -> str:
        """The clock face's text for ``side`` at ``now_ns`` (rounded up, by ``format_clock`` only)."""
        return format_clock(self.remaining_ns(side, now_ns))


# -- people ----------------------------------------------------------------------------------

ListKind = Literal["main", "reserve", "walk-in"]
Presence = Literal["expected", "present", "absent", "withdrawn"]


class Player(_Frozen):
    """A registered player. Only ``display_name`` may appear on a public screen."""

    id: int
    display_name: str
    full_name: str = Field(default="", json_schema_extra=PRIVATE)
    email: str = Field(default="", json_schema_extra=PRIVATE)
    phone: str = Field(default="", json_schema_extra=PRIVATE)
    age: int | None = Field(default=None, json_schema_extra=PRIVATE)
    list: ListKind = "main"
    #: Position on its list (1-based): reserves take free seats in this order (§1.18).
    order: int = 0
    presence: Presence = "expected"
    #: Whether the player is in the bracket's field (after check-in closed).
    in_field: bool = False
    #: The absent player whose seat this one took when check-in closed (§1.18–1.19).
    took_seat_of: int | None = None


class Refusal(_Frozen):
    """A sign-up the rules left out (§1.9 under age, §1.14 a duplicate, §1.11 lists full)."""

    line: int
    name: str
    reason: Literal["under-age", "duplicate", "over-limit"]
    #: For a duplicate: the line of the earlier sign-up.
    same_as: int | None = None


# -- the bracket -----------------------------------------------------------------------------

RoundKind = Literal["knockout", "third_place", "final"]
MatchStatus = Literal["waiting", "ready", "assigned", "result", "tiebreak", "decided", "cancelled"]
DecidedBy = Literal["time", "flag", "tiebreak", "referee", "bye", "walkover"]


class Round(_Frozen):
    """A round of the knockout (1-based ``number``, in playing order)."""

    number: int
    name: str
    kind: RoundKind = "knockout"
    players: int = 2
    pieces: int = 0
    time_control: str = ""


class Score(_Frozen):
    """A played duel's figures, in the match's own sides (``a`` = the match's first entrant)."""

    displayed: Texts
    remaining_ms: Pair = Pair()
    moves: Pair = Pair()
    #: How the clock decided: ``time`` (picture complete, more time won), ``flag``, or ``tie``.
    decided_by: str = "time"


class Match(_Frozen):
    """A match of the bracket: ``R{round}-{slot}``, or a tie-break ``R{round}-{slot}-TB{n}``."""

    id: str
    round: int
    slot: int
    a: int | None = None
    b: int | None = None
    bye: Side | None = None
    status: MatchStatus = "waiting"
    table: int | None = None
    #: Who sits at the clock's side ``a`` (players choose their seats); the other sits at ``b``.
    clock_a: int | None = None
    toss_winner: int | None = None
    score: Score | None = None
    winner: int | None = None
    decided_by: DecidedBy | None = None
    tiebreak_of: str | None = None
    tiebreaks: tuple[str, ...] = ()

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(p for p in (self.a, self.b) if p is not None)

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye is not None:
            return None
        return self.b if self.winner == self.a else self.a

    def player(self, side: Side | str) -> int | None:
        return self.a if Side(side) is Side.A else self.b

    def clock_side(self, player: int) -> Side:
        """The clock side ``player`` sits at (``a`` for ``clock_a``, else ``b``)."""
        if self.clock_a is None:
            return Side.A if player == self.a else Side.B
        return Side.A if player == self.clock_a else Side.B

    def at_clock(self, side: Side | str) -> int | None:
        """Who sits at clock side ``side``."""
        first = self.clock_a if self.clock_a is not None else self.a
        second = self.b if first == self.a else self.a
        return first if Side(side) is Side.A else second

    @property
    def live(self) -> bool:
        """On a table with its clock set, not yet decided: the table's clock is this duel's."""
        return self.table is not None and self.status == "assigned"


class Bracket(_Frozen):
    rounds: tuple[Round, ...]
    matches: dict[str, Match] = Field(default_factory=dict)

    def round(self, number: int) -> Round:
        for r in self.rounds:
            if r.number == number:
                return r
        raise KeyError(f"no round {number} in the bracket")

    def round_matches(self, number: int) -> list[Match]:
        """The round's matches top to bottom (tie-breaks are not bracket positions)."""
        return sorted(
            (m for m in self.matches.values() if m.round == number and m.tiebreak_of is None),
            key=lambda m: m.slot,
        )

    def tiebreaks_of(self, match_id: str) -> list[Match]:
        m = self.matches.get(match_id)
        return [self.matches[t] for t in (m.tiebreaks if m else ()) if t in self.matches]

    @property
    def final(self) -> Round | None:
        return next((r for r in self.rounds if r.kind == "final"), None)

    @property
    def third_place(self) -> Round | None:
        return next((r for r in self.rounds if r.kind == "third_place"), None)

    def podium(self) -> tuple[int | None, int | None, int | None]:
        """Places 1, 2 and 3 (§2.2.20), each ``None`` until its match is decided."""
        first = second = third = None
        if self.final is not None:
            for m in self.round_matches(self.final.number):
                if m.status == "decided":
                    first, second = m.winner, m.loser
        if self.third_place is not None:
            for m in self.round_matches(self.third_place.number):
                if m.status == "decided":
                    third = m.winner
        return first, second, third

    @property
    def knockout_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.kind == "knockout"]

    def on_table(self, table: int) -> Match | None:
        """The match being played (or just played, awaiting confirmation) at ``table``."""
        best: Match | None = None
        for m in self.matches.values():
            if m.table != table:
                continue
            if m.status == "assigned":
                return m
            if m.status == "result":
                best = m
        return best

    def live_match_of(self, match: Match) -> Match | None:
        """The duel on a clock now for ``match``: itself, or its running tie-break."""
        if match.live:
            return match
        for tb in self.tiebreaks_of(match.id):
            if tb.live:
                return tb
        return None


# -- timelines -------------------------------------------------------------------------------


class TimelineItem(_Frozen):
    """One journaled event of a table (a press, a referee command, a decision, a device change)."""

    seq: int
    kind: str
    t_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


# -- the whole desk --------------------------------------------------------------------------

Stage = Literal["registration", "draw", "bracket", "finished"]
Connection = Literal["demo", "connecting", "connected", "offline"]


class DeskState(_Frozen):
    """Everything the referee's desk knows, at one moment."""

    title: str = ""
    session: str = ""
    stage: Stage | None = None
    players: dict[int, Player] = Field(default_factory=dict)
    #: Sign-ups the rules left out, for the referee to tell those people; never public.
    refusals: tuple[Refusal, ...] = Field(default=(), json_schema_extra=PRIVATE)
    bracket: Bracket | None = None
    tables: dict[int, Table] = Field(default_factory=dict)
    timelines: dict[int, tuple[TimelineItem, ...]] = Field(default_factory=dict)
    #: The tournament sessions the daemon holds (key → name), and the one shown.
    sessions: dict[str, str] = Field(default_factory=dict)
    session_key: str | None = None
    connection: Connection = "connecting"
    #: A sentence for the status bar when the connection is not fine (English; shown as is).
    connection_detail: str = ""

    def name(self, player: int | None) -> str:
        """A player's display name ("" for nobody; ``#id`` if the player is unknown)."""
        if player is None:
            return ""
        p = self.players.get(player)
        return p.display_name if p is not None else f"#{player}"

    def public(self) -> DeskState:
        """This state with every private field emptied: all a public screen may receive."""
        redacted = redact(self.model_copy(update={"timelines": {}}))  # disputes are for the referee
        assert isinstance(redacted, DeskState)
        return redacted


@functools.cache
class PublicCopy:
    """:meth:`DeskState.public`, made cheap for a screen redrawn on every press.

    Players and the bracket change rarely; tables change on every press. The redacted
    players and bracket are kept while the state holds the very same objects, so a press
    costs the redaction of the rest only. The result equals ``state.public()``.
    """

    def __init__(self) -> None:
        self._players_of: object = None
        self._players: dict[int, Player] = {}
        self._bracket_of: object = None
        self._bracket: Bracket | None = None

    def __call__(self, state: DeskState) -> DeskState:
        if state.players is not self._players_of:
            self._players_of, self._players = state.players, redact(state.players)
        if state.bracket is not self._bracket_of:
            self._bracket_of, self._bracket = state.bracket, redact(state.bracket)
        rest = state.model_copy(update={"players": {}, "bracket": None, "timelines": {}})
        return redact(rest).model_copy(update={"players": self._players, "bracket": self._bracket})


def private_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``model`` marked ``private`` in their JSON schema (once per class)."""
    out = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        if isinstance(extra, dict) and extra.get("private"):
            out.append(name)
    return tuple(out)


def redact(value: Any) -> Any:
    """``value`` with every private field of every model in it set to its default."""
    if isinstance(value, BaseModel):
        cls = type(value)
        update: dict[str, Any] = {}
        marked = private_fields(cls)
        for name in cls.model_fields:
            if name in marked:
                update[name] = cls.model_fields[name].get_default(call_default_factory=True)
            else:
                current = getattr(value, name)
                cleaned = redact(current)
                if cleaned is not current:
                    update[name] = cleaned
        return value.model_copy(update=update) if update else value
    if isinstance(value, dict):
        items = {k: redact(v) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in value) else value
    if isinstance(value, tuple | list):
        seq = [redact(v) for v in value]
        if all(a is b for a, b in zip(seq, value, strict=True)):
            return value
        return type(value)(seq)
    return value


class Change(StrEnum):
    """What part of the state an update touched (a subscriber redraws only that)."""

    TABLES = "tables"
    BRACKET = "bracket"
    PLAYERS = "players"
    TIMELINE = "timeline"
    CONNECTION = "connection"
    TITLE = "title"


Listener = Callable[[Change, frozenset[int]], None]
F = TypeVar("F", bound=Callable[..., Any])


def _weakly(fn: F) -> Callable[[], F | None]:
    """A reference to ``fn``: weak for a bound method (its object may go), strong for a function."""
    if inspect.ismethod(fn):
        return weakref.WeakMethod(fn)
    return lambda: fn


class DeskModel:
    """The current :class:`DeskState`, and who wants to know when it changes.

    Every update replaces the state (it is immutable) and calls each listener with what
    changed and, for tables and timelines, which table numbers. Listeners run in the
    caller's thread — in the GUI, Qt's main thread, where the adapter applies messages.
    """

    def __init__(self, state: DeskState | None = None) -> None:
        self._state = state or DeskState()
        self._listeners: list[Callable[[], Listener | None]] = []

    @property
    def state(self) -> DeskState:
        return self._state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change, tables)`` after every update; returns an unsubscribe function.

        A bound method is held weakly: a window that subscribes is not kept alive by the
        model, and no reference cycle (window → model → window) is left for Python's cycle
        collector — which may run in any thread, and a Qt widget must die in the GUI thread.
        """
        ref = _weakly(listener)
        self._listeners.append(ref)

        def unsubscribe() -> None:
            if ref in self._listeners:
                self._listeners.remove(ref)

        return unsubscribe

    def _emit(self, change: Change, tables: Iterable[int] = ()) -> None:
        keys = frozenset(tables)
        for ref in list(self._listeners):
            listener = ref()
            if listener is None:
                self._listeners.remove(ref)
            else:
                listener(change, keys)

    # -- updates --------------------------------------------------------------------------
    def replace(self, state: DeskState) -> None:
        """A whole new state (a fresh connection, the demo): everything changed."""
        self._state = state
        for change in Change:
            self._emit(change, state.tables)

    def set_tables(self, tables: Iterable[Table], *, fresh: bool = False) -> set[int]:
        """Store tables' new states; an older one than held (lower ``seq``) is ignored as stale.

        ``fresh``: the first state of a new connection, which replaces whatever is held (the
        daemon may have restarted on another journal, whose sequence starts again).
        """
        current = dict(self._state.tables)
        changed = set()
        for t in tables:
            held = current.get(t.table)
            if held is not None and t.seq < held.seq and not fresh:
                continue
            current[t.table] = t
            changed.add(t.table)
        if changed:
            self._state = self._state.model_copy(update={"tables": current})
            self._emit(Change.TABLES, changed)
        return changed

    def keep_tables(self, numbers: Iterable[int]) -> None:
        """Forget every table but ``numbers`` (the daemon's tables now), with their timelines."""
        keep = set(numbers)
        gone = set(self._state.tables) - keep
        if not gone:
            return
        tables = {n: t for n, t in self._state.tables.items() if n in keep}
        timelines = {n: t for n, t in self._state.timelines.items() if n in keep}
        self._state = self._state.model_copy(update={"tables": tables, "timelines": timelines})
        self._emit(Change.TABLES, gone)
        self._emit(Change.TIMELINE, gone)

    def clear_timelines(self) -> None:
        """Forget every timeline (a new connection fetches them afresh)."""
        if self._state.timelines:
            held = set(self._state.timelines)
            self._state = self._state.model_copy(update={"timelines": {}})
            self._emit(Change.TIMELINE, held)

    def set_bracket(self, bracket: Bracket | None) -> None:
        self._state = self._state.model_copy(update={"bracket": bracket})
        self._emit(Change.BRACKET)

    def set_players(self, players: Iterable[Player], refusals: Iterable[Refusal] = ()) -> None:
        update = {"players": {p.id: p for p in players}, "refusals": tuple(refusals)}
        self._state = self._state.model_copy(update=update)
        self._emit(Change.PLAYERS)

    def set_title(self, title: str, session: str = "", stage: Stage | None = None) -> None:
        self._state = self._state.model_copy(update={"title": title, "session": session, "stage": stage})
        self._emit(Change.TITLE)

    def set_sessions(self, sessions: dict[str, str], shown: str | None) -> None:
        if (sessions, shown) == (self._state.sessions, self._state.session_key):
            return
        self._state = self._state.model_copy(update={"sessions": dict(sessions), "session_key": shown})
        self._emit(Change.TITLE)

    def set_timeline(self, table: int, items: Iterable[TimelineItem]) -> None:
        """The table's whole timeline (e.g. fetched on demand), oldest first."""
        merged = {i.seq: i for i in items}
        timelines = dict(self._state.timelines)
        timelines[table] = tuple(merged[s] for s in sorted(merged))
        self._state = self._state.model_copy(update={"timelines": timelines})
        self._emit(Change.TIMELINE, {table})

    def add_timeline(self, table: int, item: TimelineItem) -> None:
        """One new event at the end of a table's timeline (a repeat of a known ``seq`` is dropped)."""
        held = self._state.timelines.get(table, ())
        if any(i.seq == item.seq for i in held[-64:]):
            return
        items = (
            (*held, item)
            if not held or held[-1].seq < item.seq
            else tuple(sorted((*held, item), key=lambda i: i.seq))
        )
        timelines = {**self._state.timelines, table: items}
        self._state = self._state.model_copy(update={"timelines": timelines})
        self._emit(Change.TIMELINE, {table})

    def set_connection(self, connection: Connection, detail: str = "") -> None:
        if (connection, detail) == (self._state.connection, self._state.connection_detail):
            return
        self._state = self._state.model_copy(update={"connection": connection, "connection_detail": detail})
        self._emit(Change.CONNECTION)
