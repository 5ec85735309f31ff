"""The Puzzle Duel in the daemon's API: what clients see of a session, and how the core's
session becomes it (:func:`session_body`: the daemon's view, and the GUI's demo's).

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
from clockd.core.bracket import Bracket, Match, MatchStatus
from clockd.core.clock import PerSide, PerSideInt, Side
from clockd.core.display import quantize
from clockd.core.private import PRIVATE
from clockd.core.puzzle_duel import PuzzleSession
from clockd.core.registration import ListKind
from clockd.core.units import MS
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
    absent: int | None  # None: a seat no one on the main list had
    taken_by: int
    rule: str


class RefusalView(_View):
    """A sign-up the rules left out: its line in the file, the public name and why.

    ``under-age`` (§1.9), ``duplicate`` of the sign-up on line ``same_as`` (§1.14),
    ``over-limit`` (the main and reserve lists were full, §1.11) or ``before-opening``
    (sent before the sign-ups opened, §1.11). The age itself is not sent.
    """

    line: int
    name: str
    reason: Literal["under-age", "duplicate", "over-limit", "before-opening", "no-consent"]
    same_as: int | None = None
    detail: Msg | None = None


class PossibleDuplicateView(_View):
    """A sign-up with the same name as the one on line ``same_as`` but other contacts: one
    person with a new e-mail, or a namesake? Both are on the lists; the referee decides
    (withdrawing the later keeps the earlier's place, §1.14)."""

    line: int
    same_as: int
    name: str


class NoEmailView(_View):
    """A main-list player whose sign-up has no e-mail address (the referee is warned)."""

    player: int
    line: int | None
    name: str


class ImportView(_View):
    """What the latest export of the form changed (players by number; fields by name only)."""

    source: str
    recognised: int
    added: list[int]
    changed: list[tuple[int, list[str]]]
    missing: list[int]


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
    #: Sign-ups the rules left out (a child's, a duplicate): for the referee to tell those
    #: people, so sent only to a client with the token (private: :mod:`clockd.core.private`).
    refusals: list[RefusalView] = Field(default_factory=list, json_schema_extra=PRIVATE)
    #: Namesakes with other contacts, for the referee to decide (§1.14); private too.
    possible_duplicates: list[PossibleDuplicateView] = Field(default_factory=list, json_schema_extra=PRIVATE)
    #: What the latest export of the form changed (player numbers and field names); private.
    last_import: ImportView | None = Field(default=None, json_schema_extra=PRIVATE)
    #: Main-list players with no e-mail address; private (the token's).
    no_email: list[NoEmailView] = Field(default_factory=list, json_schema_extra=PRIVATE)
    bracket: BracketView | None = None

    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.players}


# -- from the core's session: the views ------------------------------------------------------------


def session_body(s: PuzzleSession) -> SessionBody:
    """What clients see of a session: public names only, the bracket with its allowed actions."""
    reg = s.registration
    return SessionBody(
        tournament=s.config.name,
        stage=s.stage,
        players=_players(s),
        field=list(reg.field) if reg.field is not None else None,
        seat_changes=[
            SeatChangeView(absent=c.absent, taken_by=c.taken_by, rule=c.rule) for c in reg.seat_changes
        ],
        refusals=[
            RefusalView(line=r.line, name=r.name, reason=r.reason, same_as=r.same_as, detail=r.detail)
            for r in reg.refused
        ],
        last_import=None
        if reg.last_import is None
        else ImportView(
            source=reg.last_import.source,
            recognised=reg.last_import.recognised,
            added=list(reg.last_import.added),
            changed=[(c.player, list(c.fields)) for c in reg.last_import.changed],
            missing=list(reg.last_import.missing),
        ),
        possible_duplicates=[
            PossibleDuplicateView(line=d.line, same_as=d.same_as, name=d.name)
            for d in reg.possible_duplicates
        ],
        no_email=[
            NoEmailView(player=p.id, line=p.line, name=reg.shown_name(p.id)) for p in reg.without_email()
        ],
        bracket=None if s.bracket is None else bracket_view(s.bracket),
    )


def _players(s: PuzzleSession) -> list[ListedPlayer]:
    reg = s.registration
    field = set(reg.field or ())
    took = {c.taken_by: c.absent for c in reg.seat_changes}
    out: list[ListedPlayer] = []
    for kind in (ListKind.MAIN, ListKind.RESERVE, ListKind.WALK_IN):
        order = 0
        for p in reg.players.values():
            if p.list is not kind:
                continue
            order += 1
            out.append(
                ListedPlayer(
                    id=p.id,
                    name=reg.shown_name(p.id),
                    list=p.list.value,
                    order=order,
                    present=p.id in reg.present,
                    withdrawn=p.id in reg.withdrawn,
                    in_field=p.id in field,
                    took_seat_of=took.get(p.id),
                    actions=s.player_allowed(p.id),
                )
            )
    return out


def bracket_view(bracket: Bracket) -> BracketView:
    """The bracket as clients see it: rounds, matches with their allowed actions, decisions."""
    cfg = bracket.config
    rounds = [
        RoundView(
            number=i + 1,
            name=cfg.round_name(i),
            kind=cfg.round_kind(i).value,
            players=r.players,
            pieces=r.pieces,
            time_control=str(r.time_per_side),
        )
        for i, r in enumerate(cfg.rounds)
        if i + 1 >= bracket.first_round
    ]
    return BracketView(
        rounds=rounds,
        matches=[_match_view(bracket, m) for m in bracket.matches.values()],
        podium=list(bracket.podium()),
        decisions=[
            DecisionView(
                match=d.match,
                kind=d.kind,
                winner=d.winner,
                category=d.category.value if d.category else None,
                reason=d.reason,
                referee=d.referee,
            )
            for d in bracket.decisions
        ],
        draw_method=bracket.draw.method.value,
        draw_seed=bracket.draw.seed,
        resolution_ms=cfg.resolution_ms,
        finished=bracket.finished,
    )


def _match_view(bracket: Bracket, m: Match) -> MatchView:
    score = None
    if m.score is not None:
        clock: Literal["time", "flag", "tie"] = (
            "flag" if m.score.decided_by.value == "flag" else "tie" if m.score.winner is None else "time"
        )
        score = ScoreView(
            displayed=m.score.displayed,
            remaining_ms=PerSideInt(
                a=quantize(m.score.remaining_ns.a, MS), b=quantize(m.score.remaining_ns.b, MS)
            ),
            moves=m.score.moves,
            decided_by=clock,
            ended_at_ms=m.score.ended_at_ns // MS,
        )
    return MatchView(
        id=m.id,
        round=m.round,
        slot=m.slot,
        a=m.a,
        b=m.b,
        bye=m.bye,
        status=m.status.value,
        table=m.table,
        clock_a=m.clock_a,
        toss_winner=m.toss_winner,
        score=score,
        winner=m.winner if m.status is MatchStatus.DECIDED else None,  # a result waits for the referee
        decided_by=None if m.decided_by is None else m.decided_by.value,
        tiebreak_of=m.tiebreak_of,
        tiebreaks=m.tiebreaks,
        pieces=bracket.pieces(m.id),
        time_control=str(bracket.time_control(m.id)),
        actions=bracket.allowed(m.id),
    )
