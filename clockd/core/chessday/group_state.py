"""A chess group's configuration and the records its state is made of.

Apart from :mod:`clockd.core.chessday.group` because these are plain frozen values — what a
group is created with (journaled with the event's creation) and the rounds, boards,
corrections, appeals, late entrants and fixes it holds — which the group's rules
(:class:`~clockd.core.chessday.group.ChessGroup`) fold and the views, reports and snapshots
read. :mod:`clockd.core.chessday.group` re-exports them, where their users import them from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.chessday.roster import DayPlan, Group, LateEntry, Officials
from clockd.core.private import PRIVATE
from clockd.core.swiss.model import (
    BoardResult,
    Code,
)
from clockd.i18n import Problem


class ChessError(Problem):
    """A chess group's input that cannot apply now; nothing changed."""


PublicNames = Literal["full", "short"]


# -- the configuration (journaled with the event's creation) ------------------------------------


class ChessGroupConfig(BaseModel):
    """What a chess group is created with: its roster (or a TRF), the rounds, the hall's plan.

    ``public_names``: the regulations publish the start lists by name for families to check
    (§H), so the group's screens and pages show full names by default; ``"short"`` shows first
    name and initial (the puzzle zone's rule)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    group: Group
    title: str = ""
    date: str = ""  # ISO
    rounds: int = Field(default=8, ge=1, le=30)
    minutes: int = Field(default=10, ge=1, le=300)
    first_board: int = Field(default=1, ge=1)
    clocks: dict[int, int] = Field(default_factory=dict)  # hall board → table with a clock
    public_names: PublicNames = "full"
    #: The rounds a late entrant missed: a half-point bye each (``H``) or nothing (``Z``).
    late_entry: LateEntry = "half"
    lots_seed: str = ""  # the recorded seed of the last tie-break (lots); "" = the group's key
    plan: DayPlan = DayPlan()
    officials: Officials = Officials()
    trf: str = Field(default="", json_schema_extra=PRIVATE)  # start from this TRF instead of the roster
    #: Each player's person id (start number → id): the daemon's, so that the child is a person
    #: of the vault (:mod:`clockd.core.chessday.people`); a day file has none.
    people: dict[int, str] = Field(default_factory=dict)
    #: The guardian's e-mail as the daemon keeps it: a digest (start number → digest), no address.
    contacts: dict[int, str] = Field(default_factory=dict, json_schema_extra=PRIVATE)
    #: The organiser wants the birth year in the TRF for a rating office (``chess import
    #: --birth-year``): the daemon keeps each child's year (never the date) in the vault, and
    #: only ``chess export --birth-year`` with the token writes it.
    birth_year: bool = False


# -- the state ----------------------------------------------------------------------------------------


class Appeal(BaseModel):
    """An appeal to the chief arbiter about a board: who appealed, what, and the final decision."""

    model_config = ConfigDict(frozen=True)

    player: int
    text: str
    decision: str
    result: BoardResult | None = None  # the result the decision sets, if it sets one
    by: str = ""


class BoardPlay(BaseModel):
    """One board of the round being played."""

    model_config = ConfigDict(frozen=True)

    board: int  # the hall's number
    white: int
    black: int
    result: BoardResult | None = None
    by: str = ""  # who entered the result
    proposal: BoardResult | None = None  # what a flag or a second illegal move proposes
    proposal_why: Literal["", "flag", "illegal-move"] = ""
    claims: tuple[int, ...] = ()  # the players whose illegal moves were claimed, one per claim
    appeal: Appeal | None = None
    table: int | None = None  # the table whose clock times this board

    def side_of(self, player: int) -> bool:
        """True for White, False for Black; :class:`ChessError` if ``player`` is not on the board."""
        if player == self.white:
            return True
        if player == self.black:
            return False
        raise ChessError("chess.not-on-board", player=player, board=self.board)


class GroupRound(BaseModel):
    """The round being played: its boards, the pairing-allocated bye, who is not paired."""

    model_config = ConfigDict(frozen=True)

    number: int
    boards: tuple[BoardPlay, ...]
    bye: int | None = None
    absent: tuple[int, ...] = ()

    def board(self, number: int) -> BoardPlay:
        for b in self.boards:
            if b.board == number:
                return b
        first, last = (self.boards[0].board, self.boards[-1].board) if self.boards else (0, 0)
        raise ChessError("chess.no-board", board=number, first=first, last=last)

    def with_board(self, board: BoardPlay) -> GroupRound:
        return self.model_copy(
            update={"boards": tuple(board if b.board == board.board else b for b in self.boards)}
        )

    @property
    def missing(self) -> tuple[int, ...]:
        """The boards with no result yet."""
        return tuple(b.board for b in self.boards if b.result is None)


class Correction(BaseModel):
    """A result corrected after its round was closed: which game, what it was and is now, who
    and why, and the later rounds whose pairing the old result decided (they stay as posted;
    ``changed``: those a pairing with the corrected result would have paired otherwise)."""

    model_config = ConfigDict(frozen=True)

    round: int
    board: int
    white: int
    black: int
    old: BoardResult
    new: BoardResult
    by: str = ""
    reason: str = ""
    paired_after: tuple[int, ...] = ()  # rounds paired before the correction, after its round
    changed: tuple[int, ...] = ()  # of those, the ones whose pairing the correction would change


class LateEntrant(BaseModel):
    """A player added after the start: their start number, the first round they can play, the
    rule their missed rounds were given by (the group's, when they came), who added them."""

    model_config = ConfigDict(frozen=True)

    start: int
    first_round: int
    rule: LateEntry
    by: str = ""


#: A late entrant's missed round, by the group's rule.
LATE_CODES: dict[str, Code] = {"half": Code.HALF_BYE, "zero": Code.ZERO_BYE}

#: The player's data a fix may change (``name``: ``Surname First name`` as the lists show it).
FIX_FIELDS = ("name", "school", "school_class")


class PlayerFix(BaseModel):
    """A player's data corrected after the start list was published: which fields, what they
    were and are now (empty once the player is erased), who, why, after how many rounds."""

    model_config = ConfigDict(frozen=True)

    start: int
    fields: tuple[str, ...]
    old: dict[str, str] = Field(default_factory=dict)
    new: dict[str, str] = Field(default_factory=dict)
    by: str = ""
    reason: str = ""
    rounds_closed: int = 0


Phase = Literal["start-list", "playing", "between-rounds", "finished"]


__all__ = [
    "FIX_FIELDS",
    "LATE_CODES",
    "Appeal",
    "BoardPlay",
    "ChessError",
    "ChessGroupConfig",
    "Correction",
    "GroupRound",
    "LateEntrant",
    "Phase",
    "PlayerFix",
    "PublicNames",
]
