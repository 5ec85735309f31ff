"""The Puzzle Duel in the daemon's API: what clients see of a session (message models only).

A session is one event of kind ``puzzle-duel`` (the festival has three: Fri, Sat, Sun).
Its :class:`SessionBody` is the ``body`` of the event's view
(:class:`~clockd.api.messages.EventView`): the players (public names only) with the
actions allowed on each, and the bracket with the actions allowed on each match — so a
screen draws it and enables its buttons without deriving a rule.

The referee's requests are the actions of :mod:`clockd.core.registration`,
:mod:`clockd.core.puzzle_duel` and :mod:`clockd.core.bracket` (``signups-import``,
``player-add``, ``check-in``, ``check-out``, ``withdraw``, ``check-in-close``, ``draw``;
on a match ``pt/R1-1``: ``match-assign``, ``match-toss``, ``match-confirm``,
``match-override``, ``match-walkover``, ``match-tiebreak``; and the table's own
``pause``, ``resume``, ``adjust``, ``complete``, which a match target reaches on its table).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.api.messages import EventBody, body_type
from clockd.core.actions import Allowed
from clockd.core.clock import PerSide, Side
from clockd.i18n import Msg


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class ListedPlayer(_View):
    """A player on the check-in list: number, public name, list, presence, and what may be done."""

    id: int
    name: str
    list: Literal["main", "reserve", "walk-in"]
    order: int  # position on its list (reserves take free seats in this order, §1.18)
    present: bool
    withdrawn: bool
    in_field: bool = False
    took_seat_of: int | None = None
    actions: Allowed = Field(default_factory=dict)


class SeatChangeView(_View):
    absent: int
    taken_by: int
    rule: str


class RefusalView(_View):
    """A sign-up the rules left out: its line in the file, the public name and why.

    ``under-age`` (§1.9), ``duplicate`` of the sign-up on line ``same_as`` (§1.14), or
    ``over-limit`` (the main and reserve lists were full, §1.11). The age itself is not sent.
    """

    line: int
    name: str
    reason: Literal["under-age", "duplicate", "over-limit"]
    same_as: int | None = None
    detail: Msg | None = None


class RoundView(_View):
    number: int
    name: Msg
    kind: Literal["knockout", "third_place", "final"]
    players: int
    pieces: int
    time_control: str


class ScoreView(_View):
    """A played duel's figures in the match's own sides (``a`` = the match's first entrant)."""

    displayed: PerSide[str]
    remaining_ms: PerSide[int]
    moves: PerSide[int]
    decided_by: Literal["time", "flag", "tie"]
    ended_at_ms: int  # on the daemon's time base (the instant the duel ended: a flag's, or "complete")


class MatchView(_View):
    """One match of the bracket, and the match actions allowed on it now."""

    id: str
    round: int
    slot: int
    a: int | None  # player ids; null for a bye, or not known yet
    b: int | None
    bye: Side | None = None
    status: Literal["waiting", "ready", "assigned", "result", "tiebreak", "decided", "cancelled"]
    table: int | None = None
    clock_a: int | None = None  # the player at the clock's side a
    toss_winner: int | None = None
    score: ScoreView | None = None
    winner: int | None = None
    decided_by: Literal["time", "flag", "tiebreak", "referee", "bye", "walkover"] | None = None
    tiebreak_of: str | None = None
    tiebreaks: tuple[str, ...] = ()
    pieces: int = 0
    time_control: str = ""
    actions: Allowed = Field(default_factory=dict)


class DecisionView(_View):
    match: str
    kind: str
    winner: int | None
    category: str | None
    reason: str
    referee: str


class BracketView(_View):
    rounds: list[RoundView]
    matches: list[MatchView]
    podium: list[int | None]
    decisions: list[DecisionView]
    draw_method: str
    draw_seed: int | None
    resolution_ms: int
    finished: bool


@body_type
class SessionBody(EventBody):
    """One Puzzle Duel session: where it stands, its players and, after the draw, its bracket."""

    kind: Literal["puzzle-duel"] = "puzzle-duel"
    tournament: str
    stage: Literal["registration", "draw", "bracket", "finished"]
    players: list[ListedPlayer]
    field: list[int] | None  # who plays, once check-in is closed
    seat_changes: list[SeatChangeView]
    refusals: list[RefusalView] = Field(default_factory=list)
    bracket: BracketView | None = None

    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.players}
