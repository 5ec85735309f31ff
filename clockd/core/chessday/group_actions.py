"""The arbiters' actions on a chess group, and how a result typed at the desk is read.

Pair, enter and undo results, close a round, claims, appeals, reports, withdrawals, late
entries and fixes: the requests as the API receives them and the journal keeps them (their
fields, limits, and which are private), read by the desk, the CLI and the service without
the group's rules. :func:`read_result` is here because it reads :class:`EnterResult`'s
text (a keystroke or a written form), refusing with :class:`~clockd.core.chessday.group_state.ChessError`.
Apart from :mod:`clockd.core.chessday.group`, which applies them and re-exports them.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from clockd.core.actions import Action, Reason, RequiredReason, Target, action
from clockd.core.chessday.group_state import ChessError
from clockd.core.private import PRIVATE
from clockd.core.swiss.model import (
    BoardResult,
)
from clockd.core.swiss.results import result_of

#: One keystroke per result, as Vega and Swiss-Manager take them at the desk.
KEYSTROKES: dict[str, BoardResult] = {
    "1": BoardResult.WHITE_WINS,
    "0": BoardResult.BLACK_WINS,
    "=": BoardResult.DRAW,
    "5": BoardResult.DRAW,
    "+": BoardResult.WHITE_WINS_BY_FORFEIT,
    "-": BoardResult.BLACK_WINS_BY_FORFEIT,
}


def read_result(token: str) -> BoardResult:
    """The result a referee typed: a keystroke (:data:`KEYSTROKES`) or any written form."""
    text = token.strip()
    found = KEYSTROKES.get(text) or result_of(text.replace(" ", ""))
    if found is None:
        raise ChessError("chess.bad-result", result=token, keys="1 0 = + -")
    return found


def loss_for(white: bool) -> BoardResult:
    """The result in which White (``white``) or Black loses the game played."""
    return BoardResult.BLACK_WINS if white else BoardResult.WHITE_WINS


# -- the arbiters' actions ------------------------------------------------------------------------------


@action
class PairRound(Action):
    """Pair the group's next round (``round``: the number the arbiter expects, so that a second
    click, or a second arbiter, does not pair two rounds)."""

    kind: Literal["chess-pair"] = "chess-pair"
    target: ClassVar[Target] = "event"
    round: int | None = Field(default=None, ge=1)


@action
class EnterResult(Action):
    """A board's result, as typed: ``1``, ``0``, ``=``/``5``, ``+``, ``-`` or a written form."""

    kind: Literal["chess-result"] = "chess-result"
    target: ClassVar[Target] = "event"
    board: int = Field(ge=1)
    result: str = Field(min_length=1, max_length=8)
    replace: bool = False  # correct a different result already entered
    #: A closed round's result corrected (None: the open round's board; between rounds, the
    #: last closed round's); a correction needs ``replace`` and a reason (journaled).
    round: int | None = Field(default=None, ge=1)
    reason: Reason = ""


@action
class UndoResult(Action):
    """Take back a board's result (the board is open again)."""

    kind: Literal["chess-undo"] = "chess-undo"
    target: ClassVar[Target] = "event"
    board: int = Field(ge=1)


@action
class CloseRound(Action):
    """Close the round: boards with no reported result are 0–0 (§H). A board whose clock still
    runs is refused unless ``stop_clocks`` says so: its game may still be going on."""

    kind: Literal["chess-close"] = "chess-close"
    target: ClassVar[Target] = "event"
    stop_clocks: bool = False


@action
class ClaimIllegalMove(Action):
    """An illegal move of ``player`` on ``board``, correctly claimed (§H: the second loses)."""

    kind: Literal["chess-claim"] = "chess-claim"
    target: ClassVar[Target] = "event"
    board: int = Field(ge=1)
    player: int = Field(ge=1)
    reason: Reason = ""


@action
class RecordAppeal(Action):
    """An appeal to the chief arbiter and the decision, which is final (``result``: if it sets one)."""

    kind: Literal["chess-appeal"] = "chess-appeal"
    target: ClassVar[Target] = "event"
    board: int = Field(ge=1)
    player: int = Field(ge=1)
    text: RequiredReason
    decision: RequiredReason
    result: str | None = Field(default=None, max_length=8)


@action
class ReportPresent(Action):
    """A round-1 absentee reported to the group's arbiter before round 2: not withdrawn (§H)."""

    kind: Literal["chess-report"] = "chess-report"
    target: ClassVar[Target] = "event"
    player: int = Field(ge=1)


@action
class WithdrawPlayer(Action):
    """A player leaves the group: not paired in the rounds to come."""

    kind: Literal["chess-withdraw"] = "chess-withdraw"
    target: ClassVar[Target] = "event"
    player: int = Field(ge=1)
    reason: RequiredReason


@action
class AddLatePlayer(Action):
    """A player added after the start (a late entry): the next start number, the missed rounds
    by the group's rule, paired from the next round. The name, school, class and the guardian's
    e-mail are the vault's: the journal keeps a stand-in (``N.N.``)."""

    kind: Literal["chess-add"] = "chess-add"
    target: ClassVar[Target] = "event"
    surname: str = Field(default="", max_length=80, json_schema_extra=PRIVATE)
    first_name: str = Field(default="", max_length=80, json_schema_extra=PRIVATE)
    school: str = Field(default="", max_length=160, json_schema_extra=PRIVATE)
    school_class: str = Field(default="", max_length=20, json_schema_extra=PRIVATE)
    rating: int | None = Field(default=None, ge=0, le=3500)
    email: str = Field(default="", max_length=200, json_schema_extra=PRIVATE)  # the guardian's
    reason: Reason = ""


@action
class FixPlayer(Action):
    """A player's name, school or class corrected after the start list was published (``None``:
    unchanged); journaled with who and why, the values in the vault."""

    kind: Literal["chess-fix"] = "chess-fix"
    target: ClassVar[Target] = "event"
    player: int = Field(ge=1)
    surname: str | None = Field(default=None, max_length=80, json_schema_extra=PRIVATE)
    first_name: str | None = Field(default=None, max_length=80, json_schema_extra=PRIVATE)
    school: str | None = Field(default=None, max_length=160, json_schema_extra=PRIVATE)
    school_class: str | None = Field(default=None, max_length=20, json_schema_extra=PRIVATE)
    reason: RequiredReason


CHESS_ACTIONS = frozenset(
    {
        "chess-pair",
        "chess-result",
        "chess-undo",
        "chess-close",
        "chess-claim",
        "chess-appeal",
        "chess-report",
        "chess-withdraw",
        "chess-add",
        "chess-fix",
    }
)


__all__ = [
    "CHESS_ACTIONS",
    "KEYSTROKES",
    "AddLatePlayer",
    "ChessError",
    "ClaimIllegalMove",
    "CloseRound",
    "EnterResult",
    "FixPlayer",
    "PairRound",
    "RecordAppeal",
    "ReportPresent",
    "UndoResult",
    "WithdrawPlayer",
    "loss_for",
    "read_result",
]
