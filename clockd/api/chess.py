"""A chess group in the daemon's API: what clients see of one group of the school chess day.

Public: the hall's boards and names (the regulations publish start lists by name, §H), the
school, points, results as they come, the standings with their tie-break columns headed by
FIDE's acronyms, and the time of the next round. Never a birth date or an e-mail. The
arbiters' requests are the group's actions (``chess-pair``, ``chess-result``, ``chess-undo``,
``chess-close``, ``chess-claim``, ``chess-appeal``, ``chess-report``, ``chess-withdraw``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.api.messages import EventBody, body_type
from clockd.core.program import ClockFace


class ChessPlayerView(BaseModel):
    """A player as the hall sees them: start number, name, school, class, points so far."""

    model_config = ConfigDict(frozen=True)

    start: int
    name: str
    school: str = ""
    school_class: str = ""
    points: str = "0"  # "2½"


class ChessAppealView(BaseModel):
    model_config = ConfigDict(frozen=True)

    player: int
    text: str
    decision: str
    result: str | None = None


class ChessBoardView(BaseModel):
    """One board of the round: its hall number, the players, the result and who entered it."""

    model_config = ConfigDict(frozen=True)

    board: int
    white: ChessPlayerView
    black: ChessPlayerView
    result: str | None = None  # "1-0", "½-½", "+-", "0-0" …
    by: str = ""
    #: A result proposed to the arbiter (a clock's flag, a second illegal move), not decided.
    proposal: str | None = None
    proposal_why: Literal["", "flag", "illegal-move"] = ""
    claims: list[int] = Field(default_factory=list)
    appeal: ChessAppealView | None = None
    table: int | None = None
    clock: ClockFace | None = None


class ChessStandingView(BaseModel):
    model_config = ConfigDict(frozen=True)

    rank: int
    player: ChessPlayerView
    values: dict[str, str]  # the column's acronym → its value as printed


class ChessBody(EventBody):
    """A chess group's view."""

    kind: Literal["chess"] = "chess"
    level: str
    grade: int | None = None
    sex: Literal["m", "w"]
    part: int | None = None
    players: int
    rounds: int
    minutes: int
    phase: Literal["start-list", "playing", "between-rounds", "finished"]
    #: The round being played, else the last closed one (0: none yet).
    round: int
    first_board: int
    last_board: int
    boards: list[ChessBoardView] = Field(default_factory=list)
    bye: ChessPlayerView | None = None
    absent: list[ChessPlayerView] = Field(default_factory=list)
    #: Round 1's absentees who will be withdrawn before round 2 unless they report (§H).
    to_withdraw: list[ChessPlayerView] = Field(default_factory=list)
    #: The boards the last close entered as 0–0 (no result reported, §H).
    closed_with_zero: list[int] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    standings: list[ChessStandingView] = Field(default_factory=list)
    #: When the next round (or the one being played) is planned to start, local ISO time.
    next_round_at: str | None = None
    #: How many minutes the group is behind its plan (None: on time).
    lag_minutes: int | None = None


body_type(ChessBody)

__all__ = ["ChessAppealView", "ChessBoardView", "ChessBody", "ChessPlayerView", "ChessStandingView"]
