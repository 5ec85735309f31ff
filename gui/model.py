"""What the screens show, as plain data: the view model the Qt widgets render.

The GUI is built in three layers (napari style):

1. **this module** — immutable pydantic models of what a referee or the audience sees
   (tables and the program each runs, every event the daemon hosts with its bracket,
   players or hall timer, per-table and per-event timelines), and :class:`DeskModel`,
   which holds the current :class:`DeskState` and tells subscribers what changed. No Qt,
   no sockets: tests build states by hand and read them back;
2. **the adapter** (:mod:`gui.adapter`) turns the daemon's API messages into updates of
   a :class:`DeskModel`, and the referee's actions into API requests;
3. **the widgets** (:mod:`gui.widgets`, :mod:`gui.referee`, :mod:`gui.audience`) draw a
   :class:`DeskModel` and subscribe to its changes.

**What may be done is the daemon's word.** Every table, event, match and player carries
``actions`` as the daemon sent them (action kind → ``None`` if allowed now, else the
reason, a :class:`~clockd.i18n.Msg`). The GUI enables its controls from these and shows
the reasons; it works out no rule of its own. Texts that come from the daemon or the core
(alerts, round names, event titles) are :class:`~clockd.i18n.Msg` values, rendered in the
reader's language when drawn.

**Time.** A table's clock and a hall timer carry their times at the instant the GUI
received them (``received_ns``, on the GUI's own monotonic clock). Between messages a
running clock is extrapolated — remaining at ``now`` is remaining at receipt minus the
time since — and every text is made by :func:`clockd.core.display.format_clock`, the one
place a time is rounded (up, as a clock face does). ``now`` is always an argument, so a
test can step time by hand.

**Personal data.** Fields holding personal data are marked ``private`` in their JSON
schema (as :mod:`clockd.core.registration` does). :meth:`DeskState.public` returns a copy
with every private field emptied; the audience screen only ever receives that copy
(DESIGN.md principle 9).
"""

from __future__ import annotations

import functools
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from clockd.api.chess import ChessBody
from clockd.api.describe import DescribeReply
from clockd.api.messages import NodesReply
from clockd.api.shown import Pick, Shown
from clockd.core.actions import Allowed
from clockd.core.clock import PerSide, Side, zeros
from clockd.core.device import DeviceState
from clockd.core.display import format_clock
from clockd.core.hall import TimerView
from clockd.core.ids import read_id
from clockd.core.units import MS
from clockd.i18n import Msg

_T = TypeVar("_T")

#: The JSON-schema marking of a field that holds personal data.
PRIVATE: JsonDict = {"private": True}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def texts(a: str = "", b: str = "") -> PerSide[str]:
    """A text per side (e.g. the times a finished duel's clock showed)."""
    return PerSide[str](a=a, b=b)


def split_owner(owner: str | None) -> tuple[str, str] | None:
    """``desk/pt/R1-1`` → ``("desk/pt", "R1-1")``: the event and the item that own a table's program."""
    ref = read_id(owner)
    if ref is None or ref.item is None:
        return None
    return ref.event_id, ref.item


# -- tables ----------------------------------------------------------------------------------

Phase = Literal["ready", "running", "paused", "flagged"]


class Alert(_Frozen):
    """An open alert on a table: ``text`` is the daemon's message (render it)."""

    id: int
    text: Msg


class Clock(_Frozen):
    """A two-sided clock as the daemon last reported it (a chess clock, a duel's clock)."""

    control: str = ""
    phase: Phase = "ready"
    remaining_ms: PerSide[int] = Field(default_factory=zeros)
    running: Side | None = None
    to_move: Side | None = None
    moves: PerSide[int] = Field(default_factory=zeros)
    ignored: PerSide[int] = Field(default_factory=zeros)
    flag: Side | None = None
    flag_decided: bool = False


class Table(_Frozen):
    """One table as last reported by the daemon: its device, alerts and the program it runs.

    ``program`` is the program's kind: ``clock`` and ``puzzle-duel`` have a :class:`Clock`
    (two faces); ``station`` (a hall event's table) has an ``entry`` and whether it has
    ``finished``; ``idle`` has nothing. ``owner`` names the event's item that put the
    program there (``desk/pt/R1-1``).
    """

    table: int
    id: str = ""
    label: str = ""
    program: str = "idle"
    owner: str | None = None
    clock: Clock | None = None
    #: A Puzzle Duel: the clock side whose time runs first (``None`` before the toss).
    toss_winner: Side | None = None
    over: bool = False
    entry: str = ""
    armed: bool = False
    finished: bool = False
    presses: int = 0
    device: DeviceState = DeviceState.UNKNOWN
    device_detail: Msg | None = None  # what the driver said, as a message (rendered where shown)
    alerts: tuple[Alert, ...] = ()
    actions: Allowed = Field(default_factory=dict)
    seq: int = 0
    #: When this state arrived, on the GUI's monotonic clock (``time.monotonic_ns()``).
    received_ns: int = 0
    #: The table node that times the table (``docs/mqtt.md``); ``""``: the daemon itself.
    node: str = ""
    #: The program's event gave the table back (its item is over): the result still shows, the
    #: table is free for the next event (the view's ``holder`` is ``null``).
    released: bool = False

    @property
    def target(self) -> str:
        """What an action on this table names (its qualified id; the number for a hand-made one)."""
        return self.id or str(self.table)

    @property
    def phase(self) -> Phase | None:
        return self.clock.phase if self.clock is not None else None

    def remaining_ns(self, side: Side | str, now_ns: int) -> int:
        """``side``'s time left at ``now_ns``: the reported time, less the time since, if it runs."""
        if self.clock is None:
            return 0
        left = self.clock.remaining_ms[side] * MS
        if self.clock.running is not None and self.clock.running is Side(side):
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
    #: check-in, check-out, withdraw: allowed now, or why not (the daemon's word).
    actions: Allowed = Field(default_factory=dict)


class PossibleDuplicate(_Frozen):
    """A sign-up with the same name as line ``same_as`` but other contacts: the referee decides."""

    line: int
    same_as: int
    name: str


class Refusal(_Frozen):
    """A sign-up the rules left out (§1.9 under age, §1.14 a duplicate, §1.11 lists full)."""

    line: int
    name: str
    reason: Literal["under-age", "duplicate", "over-limit", "before-opening", "no-consent"]
    #: For a duplicate: the line of the earlier sign-up.
    same_as: int | None = None
    #: The daemon's sentence saying exactly why, if it sent one.
    detail: Msg | None = None


# -- the bracket -----------------------------------------------------------------------------

RoundKind = Literal["knockout", "third_place", "final"]
MatchStatus = Literal["waiting", "ready", "assigned", "result", "tiebreak", "decided", "cancelled"]
DecidedBy = Literal["time", "flag", "tiebreak", "referee", "bye", "walkover"]


class Round(_Frozen):
    """A round of the knockout (1-based ``number``, in playing order); ``name`` is the daemon's."""

    number: int
    name: Msg
    kind: RoundKind = "knockout"
    players: int = 2
    pieces: int = 0
    time_control: str = ""


class Score(_Frozen):
    """A played duel's figures, in the match's own sides (``a`` = the match's first entrant)."""

    displayed: PerSide[str]
    remaining_ms: PerSide[int] = Field(default_factory=zeros)
    moves: PerSide[int] = Field(default_factory=zeros)
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
    pieces: int = 0
    time_control: str = ""
    #: match-assign, match-toss, match-confirm …: allowed now, or why not (the daemon's word).
    actions: Allowed = Field(default_factory=dict)

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
    #: Places 1, 2 and 3 as the daemon says (§2.2.20), each ``None`` until decided.
    podium: tuple[int | None, ...] = ()

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

    def places(self) -> tuple[int | None, int | None, int | None]:
        """Places 1–3 as the daemon sent them (``None`` where not decided yet)."""
        got = [*self.podium, None, None, None]
        return got[0], got[1], got[2]

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


# -- events ----------------------------------------------------------------------------------

Stage = Literal["registration", "draw", "bracket", "finished"]


class Session(_Frozen):
    """A Puzzle Duel session: its stage, players (public names) and, after the draw, its bracket."""

    tournament: str = ""
    stage: Stage = "registration"
    players: dict[int, Player] = Field(default_factory=dict)
    #: Sign-ups the rules left out, for the referee to tell those people; never public.
    refusals: tuple[Refusal, ...] = Field(default=(), json_schema_extra=PRIVATE)
    #: Namesakes with other contacts, for the referee to decide (§1.14); never public.
    possible_duplicates: tuple[PossibleDuplicate, ...] = Field(default=(), json_schema_extra=PRIVATE)
    bracket: Bracket | None = None


class Station(_Frozen):
    """An entry (a pair, a team) of a hall event at its table, and its finish in event time."""

    entry: str
    table: int
    finished_ms: int | None = None
    name: str = ""  # what screens show (the relay's pair, the team's name); "" : the entry


class ZoneRow(_Frozen):
    """A pair or team of the relay, blind puzzling or the team event, in ranking order."""

    entry: str
    name: str
    table: int | None = None
    place: int | None = None
    finished_ms: int | None = None
    split_ms: int | None = None
    pieces: int | None = None
    missing: int = 0
    classified: bool = True
    why: str | None = None
    on_list: str | None = None
    present: bool = False


class SeatRow(_Frozen):
    """A seat number of the S(witcher) rotation: who sits there, the table now and after the next change."""

    seat: int
    circle: str
    name: str | None = None
    table: int
    next_table: int
    partner: int


class RotationTable(_Frozen):
    table: int
    done_ms: int | None = None
    station: int | None = None


class Hall(_Frozen):
    """A timed hall event: its timer as the daemon reported it, and its stations.

    The timer's figures are those of the instant the view was received (``received_ns``);
    :meth:`elapsed_ms`, :meth:`remaining_ms` and :meth:`next_signal_in_ms` carry a running
    timer forward to ``now`` on the GUI's own clock, as a table's clock is.
    """

    timer: TimerView
    stations: tuple[Station, ...] = ()
    signal_tables: tuple[int, ...] = ()
    pattern: str = ""
    received_ns: int = 0
    #: The event's kind (timer, relay, blind, team, switcher) and what its kind adds.
    kind: str = "timer"
    ranking: tuple[ZoneRow, ...] = ()  # relay, blind, team: every entry in ranking order
    splits: bool = False
    confirmed: bool = False
    max_missing: int | None = None
    pictures: int = 1
    seats: tuple[SeatRow, ...] = ()  # switcher: every seat number
    rotations: int = 0
    rotation_tables: tuple[RotationTable, ...] = ()
    stayed: tuple[str, ...] = ()
    replacements: int = 0

    def finishable(self) -> list[tuple[str, str, bool]]:
        """Every entry a finish may be recorded for: (entry, what to show, finished already)."""
        if self.ranking:
            rows = sorted(self.ranking, key=lambda r: (r.table is None, r.table or 0, r.entry))
            return [(r.entry, _entry_label(r.name, r.table), r.finished_ms is not None) for r in rows]
        return [
            (s.entry, _entry_label(s.name or s.entry, s.table), s.finished_ms is not None)
            for s in self.stations
        ]

    @property
    def running(self) -> bool:
        return self.timer.phase == "running"

    def _since_ms(self, now_ns: int) -> int:
        return max(0, now_ns - self.received_ns) // MS if self.running else 0

    def elapsed_ms(self, now_ns: int) -> int:
        e = self.timer.elapsed_ms + self._since_ms(now_ns)
        return min(e, self.timer.duration_ms) if self.timer.duration_ms is not None else e

    def remaining_ms(self, now_ns: int) -> int | None:
        if self.timer.duration_ms is None:
            return None
        return max(0, self.timer.duration_ms - self.elapsed_ms(now_ns))

    def next_signal_in_ms(self, now_ns: int) -> int | None:
        left = self.timer.next_signal_in_ms
        return None if left is None else max(0, left - self._since_ms(now_ns))

    def shown(self, now_ns: int) -> str:
        """The big time: what is left of a countdown, or the time so far of a count-up."""
        left = self.remaining_ms(now_ns)
        return format_clock((self.elapsed_ms(now_ns) if left is None else left) * MS)

    @property
    def tables(self) -> tuple[int, ...]:
        return tuple(sorted({*(s.table for s in self.stations), *self.signal_tables}))


def _entry_label(name: str, table: int | None) -> str:
    return name if table is None else f"{name} · {table}"


class Event(_Frozen):
    """One event the daemon hosts (a Puzzle Duel session, a hall timer …) and what it shows.

    ``id`` is qualified (``desk/pt``) and is what its actions name; ``key`` is the short
    form (``pt``). ``session`` or ``hall`` holds the kind's own body; an event of a kind
    this GUI does not know has neither, and is listed with its title only.
    """

    id: str
    key: str
    kind: str
    title: Msg
    actions: Allowed = Field(default_factory=dict)
    seq: int = 0
    session: Session | None = None
    hall: Hall | None = None
    #: A chess group of the chess day: the daemon's view as it is (public: the hall's names,
    #: schools, boards, results and standings; nothing private is in it).
    chess: ChessBody | None = None
    #: What the event shows line by line (the daemon's words: ``EventView.shown``), for a kind
    #: this desk has no widget of, and the GUI's monotonic instant its view arrived (a running
    #: time moves on from there).
    shown: tuple[Shown, ...] = ()
    received_ns: int = 0
    #: For an action's fields, the values they may take now (the daemon's ``picks``).
    picks: dict[str, dict[str, tuple[Pick, ...]]] = Field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Over: a session that has its podium, a hall timer whose time has ended, a chess
        group whose rounds are all played."""
        if self.session is not None:
            return self.session.stage == "finished"
        if self.chess is not None:
            return self.chess.phase == "finished"
        if self.hall is not None:
            return self.hall.timer.phase == "ended"
        return False

    def owns(self, table: Table) -> bool:
        """Whether ``table``'s program belongs to this event (an item of it put it there)."""
        owner = split_owner(table.owner)
        return owner is not None and owner[0] == self.id


# -- timelines -------------------------------------------------------------------------------


class TimelineItem(_Frozen):
    """One journaled entry of a table or an event (a press, an action, a decision, a device change)."""

    seq: int
    kind: str
    t_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


# -- a hall signal on screen ------------------------------------------------------------------


class Flash(_Frozen):
    """A hall signal the daemon pushed: ``what`` is ``signal`` ("ZMIANA"), ``end`` or ``pre``.

    ``number`` counts the signals received, so a screen tells a new one from the last.
    """

    event: str  # the event's qualified id
    what: Literal["signal", "end", "pre"]
    offset_ms: int
    number: int = 0
    received_ns: int = 0


# -- the whole desk --------------------------------------------------------------------------

Connection = Literal["demo", "connecting", "connected", "offline"]


class DeskState(_Frozen):
    """Everything the referee's desk knows, at one moment."""

    #: Every event the daemon hosts, by qualified id, in the daemon's order.
    events: dict[str, Event] = Field(default_factory=dict)
    #: The event the screens show, and whether the referee chose it (else it follows the play).
    shown: str | None = None
    chosen: bool = False
    tables: dict[int, Table] = Field(default_factory=dict)
    timelines: dict[int, tuple[TimelineItem, ...]] = Field(default_factory=dict)
    #: Events' own timelines, by the event's key (as the journal names it: ``pt``).
    event_timelines: dict[str, tuple[TimelineItem, ...]] = Field(default_factory=dict)
    signal: Flash | None = None
    connection: Connection = "connecting"
    #: Why the connection is not fine (rendered in the status bar), if it is not.
    connection_detail: Msg | None = None
    #: The desk's table nodes as the daemon last answered ``nodes`` (``None``: not asked yet),
    #: and the GUI's wall clock then (Unix ms), which turns the journal's instants into HH:MM:SS.
    nodes: NodesReply | None = None
    nodes_wall_ms: int = 0
    #: The daemon's descriptions of its kinds and actions (``describe``; ``None``: not yet).
    described: DescribeReply | None = None

    # -- the event shown -------------------------------------------------------------------
    @property
    def event(self) -> Event | None:
        return self.events.get(self.shown) if self.shown is not None else None

    @property
    def session(self) -> Session | None:
        e = self.event
        return e.session if e is not None else None

    @property
    def hall(self) -> Hall | None:
        e = self.event
        return e.hall if e is not None else None

    @property
    def chess(self) -> ChessBody | None:
        e = self.event
        return e.chess if e is not None else None

    def chess_groups(self) -> list[Event]:
        """Every chess group the daemon hosts, in the hall's board order (first board first)."""
        groups = [e for e in self.events.values() if e.chess is not None]
        return sorted(groups, key=lambda e: (e.chess.first_board if e.chess else 0, e.key))

    def group_of_board(self, board: int) -> Event | None:
        """The chess group whose range of hall boards (``first_board``..``last_board``) holds ``board``."""
        for e in self.chess_groups():
            if e.chess is not None and e.chess.first_board <= board <= e.chess.last_board:
                return e
        return None

    @property
    def bracket(self) -> Bracket | None:
        s = self.session
        return s.bracket if s is not None else None

    @property
    def players(self) -> dict[int, Player]:
        s = self.session
        return s.players if s is not None else {}

    @property
    def refusals(self) -> tuple[Refusal, ...]:
        s = self.session
        return s.refusals if s is not None else ()

    @property
    def possible_duplicates(self) -> tuple[PossibleDuplicate, ...]:
        s = self.session
        return s.possible_duplicates if s is not None else ()

    @property
    def stage(self) -> Stage | None:
        s = self.session
        return s.stage if s is not None else None

    def name(self, player: int | None) -> str:
        """A player's display name ("" for nobody; ``#id`` if the player is unknown)."""
        if player is None:
            return ""
        p = self.players.get(player)
        return p.display_name if p is not None else f"#{player}"

    # -- tables and what runs on them -------------------------------------------------------
    def owner_of(self, table: int) -> tuple[Event, str] | None:
        """The event and item whose program ``table`` runs, if the desk knows that event."""
        t = self.tables.get(table)
        owner = split_owner(t.owner) if t is not None else None
        if owner is None or owner[0] not in self.events:
            return None
        return self.events[owner[0]], owner[1]

    def duel_at(self, table: int) -> tuple[Event, Match] | None:
        """The match whose duel ``table``'s program is (in whichever session owns it)."""
        owned = self.owner_of(table)
        if owned is None:
            return None
        event, item = owned
        bracket = event.session.bracket if event.session is not None else None
        m = bracket.matches.get(item) if bracket is not None else None
        return (event, m) if m is not None else None

    def tables_of_shown(self) -> list[int]:
        """The tables the shown event's page lists: a hall event's own tables; for a session (or
        nothing shown) every table no *other* event's program runs on."""
        shown = self.event
        if shown is not None and shown.hall is not None:
            return [t for t in shown.hall.tables if t in self.tables]
        out = []
        for n, t in sorted(self.tables.items()):
            owner = split_owner(t.owner)
            if owner is None or shown is None or owner[0] == shown.id or owner[0] not in self.events:
                out.append(n)
        return out

    # -- table nodes --------------------------------------------------------------------------
    def node_down(self, name: str) -> bool:
        """Whether the desk cannot hear node ``name`` now: the node's link is down, or the
        desk's own link to the broker is. Then the node's tables are shown as last known,
        never extrapolated as live (the node may have paused them, or a flag may have fallen).
        ``""`` (a table this daemon times itself) and a node the desk has not answered for yet
        are not down."""
        if not name or self.nodes is None:
            return False
        if self.nodes.linked is False:
            return True
        node = next((n for n in self.nodes.nodes if n.name == name), None)
        return node is not None and not node.up

    def public(self) -> DeskState:
        """This state with every private field emptied: all a public screen may receive."""
        cleared = self.model_copy(update={"timelines": {}, "event_timelines": {}})  # disputes: referee only
        redacted = redact(cleared)
        assert isinstance(redacted, DeskState)
        return redacted


def choose_shown(events: dict[str, Event], current: str | None, chosen: bool) -> str | None:
    """The event to show: the referee's choice while it exists; else the current one until it is
    over; else the newest event not over (else the newest of all)."""
    if current is not None and current in events and (chosen or not events[current].finished):
        return current
    live = [k for k, e in events.items() if not e.finished]
    candidates = live or list(events)
    return candidates[-1] if candidates else None


@functools.cache
def private_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``model`` marked ``private`` in their JSON schema (once per class)."""
    out = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        if isinstance(extra, dict) and extra.get("private"):
            out.append(name)
    return tuple(out)


def redact(value: _T) -> _T:
    """``value`` with every private field of every model in it set to its default (the same
    type back: a model, dict, list or tuple is rebuilt only where something in it changed)."""
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
        return type(value)(items) if any(items[k] is not value[k] for k in value) else value
    if isinstance(value, tuple | list):
        seq = [redact(v) for v in value]
        if all(a is b for a, b in zip(seq, value, strict=True)):
            return value
        return type(value)(seq)
    return value
