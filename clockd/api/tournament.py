"""The Puzzle Duel tournament in the daemon's API: requests, replies, the live push.

Message models only (like :mod:`clockd.api.messages`): a GUI or a script imports them
without the daemon. The daemon's side is :mod:`clockd.service.tournament_api`.

A *session* is one tournament (the festival has three: Fri, Sat, Sun), named by a short
``session`` key. Matches are named as in the bracket: ``R1-1`` … ``R5-1``, tie-breaks
``R1-3-TB1``. Players are numbered in sign-up order.

Referee requests (need the token; ``by`` names the referee, journaled with the decision):

============================ =================================================================
``tournament-create``        a session from a configuration (TOML text, or the festival's)
``tournament-import``        the sign-up form's CSV export (text): main and reserve lists
``tournament-add-player``    a person typed in at the desk (``walk_in`` on the day, §1.19)
``tournament-check-in``      a player is present (``present: false`` undoes it)
``tournament-withdraw``      a player resigns
``tournament-close``         start time: empty seats go to reserves, then walk-ins
``tournament-draw``          the bracket: the app's draw with a ``seed`` (none: a random one,
                             recorded), or ``lines`` as drawn at the table
``match-assign``             a match goes to a table: its clock is set for the round, locked
                             until the toss
``match-toss``               the toss winner: only the toss loser's press starts the clock
``match-complete``           the picture is complete: the duel ends now
``match-confirm``            the referee confirms the clock's result: the winner advances
``match-override``           the referee decides (``disqualification`` §8.1, ``dispute``
                             §2.2.19, ``other``) with a reason
``match-walkover``           a player did not come: the other advances
``match-tiebreak``           start the tie-break duel of a tied match (on its table, or
                             ``table``)
``match-pause``/``-resume``  pause or resume a match's clock (its table's)
``match-adjust``             give (``delta_ms > 0``) or take time from a player, with a reason
============================ =================================================================

Each is answered with :class:`TournamentDone` (the journal seq and the session's state).
``tournament-status`` (no token) answers every session, or one. Subscribers get a
:class:`TournamentState` push after every change to a session.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.api.messages import Push, RefereeRequest, Reply, Request, message_type, request_type

SessionKey = str
MatchId = str


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class AB(_View):
    a: int
    b: int


class ABText(_View):
    a: str
    b: str


class PlayerView(_View):
    """A player as anyone may see them: number and display name ("Anna K.")."""

    id: int
    name: str


class MatchView(_View):
    """One match of the bracket (the results file's fields, plus the table's duel details)."""

    id: MatchId
    round: int
    round_name: str
    kind: Literal["knockout", "third_place", "final"]
    pieces: int
    table: int | None
    a: int | None  # player ids; null for a bye, or not known yet
    b: int | None
    winner: int | None
    remaining_ms: AB | None  # the duel's figures, once it ended
    displayed: ABText | None
    moves: AB | None
    decided_by: Literal["time", "flag", "tiebreak", "referee", "bye", "walkover"] | None
    status: Literal["waiting", "ready", "assigned", "result", "tiebreak", "decided", "cancelled"]
    tiebreak_of: MatchId | None = None
    ended_at_ms: int | None = None
    clock_a: int | None = None  # the player at the clock's side a
    toss_winner: int | None = None
    time_control: str = ""


class DecisionView(_View):
    match: MatchId
    kind: str
    winner: int | None
    category: str | None
    reason: str
    referee: str


class DrawView(_View):
    method: str
    seed: int | None
    lines: dict[int, int]


class ResultsView(_View):
    """The results file (``results.json``) of a session, exactly."""

    version: int
    tournament: str
    session: str | None
    resolution_ms: int
    finished: bool
    players: list[PlayerView]
    matches: list[MatchView]
    decisions: list[DecisionView]
    podium: list[int | None]
    draw: DrawView


class ListedPlayer(_View):
    id: int
    name: str
    list: Literal["main", "reserve", "walk-in"]
    present: bool
    withdrawn: bool


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


class SessionView(_View):
    """One session: where it stands, its players (public names only) and, after the draw,
    its bracket as the results file shows it."""

    key: SessionKey
    name: str
    stage: Literal["registration", "draw", "bracket", "finished"]
    players: list[ListedPlayer]
    field: list[int] | None  # who plays, once check-in is closed
    seat_changes: list[SeatChangeView]
    refused: int  # sign-ups the rules left out (under age, duplicates, over the limit)
    refusals: list[RefusalView] = []  # the same, one by one
    results: ResultsView | None  # null before the draw


# -- requests -------------------------------------------------------------------------------


class _SessionRequest(RefereeRequest):
    session: SessionKey = Field(min_length=1, max_length=40)


class _MatchRequest(_SessionRequest):
    match: MatchId = Field(min_length=1, max_length=40)


@request_type
class TournamentStatus(Request):
    """Every session (or ``session``) now. No token needed."""

    type: Literal["tournament-status"] = "tournament-status"
    session: SessionKey | None = None


@request_type
class CreateTournament(_SessionRequest):
    """A new session. ``config_toml``: the tournament file's text (null: the festival's rules).
    ``name``: shown on screens (default: the configuration's session of this key, or the key)."""

    type: Literal["tournament-create"] = "tournament-create"
    name: str = Field(default="", max_length=200)
    config_toml: str | None = Field(default=None, max_length=32_000)


@request_type
class ImportSignups(_SessionRequest):
    """The sign-up form's CSV export, as text (comma, semicolon or tab separated)."""

    type: Literal["tournament-import"] = "tournament-import"
    csv: str = Field(min_length=1, max_length=60_000)
    source: str = Field(default="signups.csv", max_length=200)


@request_type
class AddPlayer(_SessionRequest):
    type: Literal["tournament-add-player"] = "tournament-add-player"
    first_name: str = Field(min_length=1, max_length=100)
    last_name: str = Field(default="", max_length=100)
    email: str = Field(default="", max_length=200)
    phone: str = Field(default="", max_length=50)
    age: int = Field(ge=0, le=130)
    nickname: str = Field(default="", max_length=100)
    walk_in: bool = False


@request_type
class CheckIn(_SessionRequest):
    type: Literal["tournament-check-in"] = "tournament-check-in"
    player: int
    present: bool = True


@request_type
class Withdraw(_SessionRequest):
    type: Literal["tournament-withdraw"] = "tournament-withdraw"
    player: int


@request_type
class CloseCheckIn(_SessionRequest):
    type: Literal["tournament-close"] = "tournament-close"


@request_type
class MakeDraw(_SessionRequest):
    """The bracket lines: ``seed`` (the app draws; null with no ``lines``: a random seed,
    recorded) or ``lines`` (line number → player, as drawn at the table)."""

    type: Literal["tournament-draw"] = "tournament-draw"
    seed: int | None = None
    lines: dict[int, int] | None = None


@request_type
class AssignMatch(_MatchRequest):
    type: Literal["match-assign"] = "match-assign"
    table: int = Field(ge=1)
    clock_a: int | None = None  # the player at the clock's side a (default: the match's first)


@request_type
class RecordToss(_MatchRequest):
    type: Literal["match-toss"] = "match-toss"
    winner: int


@request_type
class CompleteMatch(_MatchRequest):
    type: Literal["match-complete"] = "match-complete"


@request_type
class ConfirmMatch(_MatchRequest):
    type: Literal["match-confirm"] = "match-confirm"


@request_type
class OverrideMatch(_MatchRequest):
    type: Literal["match-override"] = "match-override"
    winner: int
    category: Literal["disqualification", "dispute", "other"]
    reason: str = Field(min_length=1, max_length=500)


@request_type
class WalkoverMatch(_MatchRequest):
    type: Literal["match-walkover"] = "match-walkover"
    absent: int
    reason: str = Field(min_length=1, max_length=500)


@request_type
class StartTiebreak(_MatchRequest):
    """Put the tie-break of ``match`` (a tied match) on a table: its own by default."""

    type: Literal["match-tiebreak"] = "match-tiebreak"
    table: int | None = Field(default=None, ge=1)


@request_type
class PauseMatch(_MatchRequest):
    type: Literal["match-pause"] = "match-pause"
    reason: str = Field(default="", max_length=500)


@request_type
class ResumeMatch(_MatchRequest):
    type: Literal["match-resume"] = "match-resume"
    reason: str = Field(default="", max_length=500)


@request_type
class AdjustMatch(_MatchRequest):
    type: Literal["match-adjust"] = "match-adjust"
    player: int
    delta_ms: int = Field(ge=-24 * 3600 * 1000, le=24 * 3600 * 1000)
    reason: str = Field(min_length=1, max_length=500)


# -- replies and pushes ---------------------------------------------------------------------


@message_type
class TournamentStatusReply(Reply):
    type: Literal["tournament-status"] = "tournament-status"
    sessions: list[SessionView]


@message_type
class TournamentDone(Reply):
    """A tournament request was journaled (at ``seq``) and applied; ``session`` is the result."""

    type: Literal["tournament-done"] = "tournament-done"
    seq: int
    session: SessionView


@message_type
class TournamentState(Push):
    """A session changed (or: its state when you subscribed)."""

    type: Literal["tournament-state"] = "tournament-state"
    session: SessionView
