"""A chess group in the daemon's API: what clients see of one group of the school chess day.

Public: the hall's boards and names (the regulations publish start lists by name, §H), the
school, points, results as they come, the standings with their tie-break columns headed by
FIDE's acronyms, and the time of the next round. Never a birth date or an e-mail. The
arbiters' requests are the group's actions (``chess-pair``, ``chess-result``, ``chess-undo``,
``chess-close``, ``chess-claim``, ``chess-appeal``, ``chess-report``, ``chess-withdraw``).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.api.messages import EventBody, body_type
from clockd.core.chessday.group import BoardPlay, ChessGroup
from clockd.core.program import ClockFace
from clockd.core.swiss.standings import MIN_PLACES, decimal_text, score_text
from clockd.i18n import Msg, msg


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


class ChessCorrectionView(BaseModel):
    """A result corrected after its round was closed: the game, the old and the new result, and
    the later rounds paired with the old one (they stay; ``changed``: those it would have changed)."""

    model_config = ConfigDict(frozen=True)

    round: int
    board: int
    white: ChessPlayerView
    black: ChessPlayerView
    old: str
    new: str
    by: str = ""
    paired_after: list[int] = Field(default_factory=list)
    changed: list[int] = Field(default_factory=list)


class ChessLateView(BaseModel):
    """A player added after the start: who, the first round they play, the rule of their missed rounds."""

    model_config = ConfigDict(frozen=True)

    player: ChessPlayerView
    first_round: int
    rule: Literal["half", "zero"]


class ChessFixView(BaseModel):
    """A player's data corrected after the start list was published (``fields``: ``name``,
    ``school``, ``school_class``; ``old``/``new``: as the list showed them, empty once erased)."""

    model_config = ConfigDict(frozen=True)

    player: ChessPlayerView
    fields: list[str]
    old: dict[str, str] = Field(default_factory=dict)
    new: dict[str, str] = Field(default_factory=dict)
    by: str = ""
    rounds_closed: int = 0


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
    #: The plan's minutes from one round's start to the next's.
    round_minutes: int = 30
    phase: Literal["start-list", "playing", "between-rounds", "finished"]
    #: The round being played, else the last closed one (0: none yet).
    round: int
    first_board: int
    last_board: int
    boards: list[ChessBoardView] = Field(default_factory=list)
    #: Between rounds: the last closed round's boards with their results (as the wall shows them).
    last_round: list[ChessBoardView] = Field(default_factory=list)
    #: Every player in start-number order (the start list, public as §H posts it).
    start_list: list[ChessPlayerView] = Field(default_factory=list)
    #: The start numbers withdrawn: not paired in the rounds to come.
    withdrawn: list[int] = Field(default_factory=list)
    bye: ChessPlayerView | None = None
    absent: list[ChessPlayerView] = Field(default_factory=list)
    #: Round 1's absentees who will be withdrawn before round 2 unless they report (§H).
    to_withdraw: list[ChessPlayerView] = Field(default_factory=list)
    #: The boards the last close entered as 0–0 (no result reported, §H).
    closed_with_zero: list[int] = Field(default_factory=list)
    #: Results corrected after their round was closed, in the order made.
    corrections: list[ChessCorrectionView] = Field(default_factory=list)
    #: The group's rule for a late entrant's missed rounds: ½ point each (``half``) or 0 (``zero``).
    late_entry: Literal["half", "zero"] = "half"
    #: Players added after the start, in the order added.
    late: list[ChessLateView] = Field(default_factory=list)
    #: Players' data corrected after the start list was published, in the order made.
    fixes: list[ChessFixView] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    standings: list[ChessStandingView] = Field(default_factory=list)
    #: The round the hall waits for (the one just paired while its start is ahead, else the next)
    #: and when it is planned to start, ISO time.
    next_round: int | None = None
    next_round_at: str | None = None
    #: How many minutes the group is behind its plan (None: on time).
    lag_minutes: int | None = None


body_type(ChessBody)


class HandMatchView(BaseModel):
    """One hand decision of the registration desk: a payment (statement file, data row) and the
    form lines it pays for (none: refund it), who decided, when, why."""

    model_config = ConfigDict(frozen=True)

    file: str
    row: int
    forms: list[int]
    by: str = ""
    at: str = ""
    why: str = ""


@body_type
class ChessDeskBody(EventBody):
    """The chess day's registration desk: the organiser's hand matches, in the order made."""

    kind: Literal["chess-registrations"] = "chess-registrations"
    matches: list[HandMatchView] = Field(default_factory=list)


def chess_body(
    group: ChessGroup,
    *,
    next_round_at: datetime.datetime | None,
    lag: int | None,
    next_round: int | None = None,
    clocks: Mapping[int, ClockFace] | None = None,
    flags: Mapping[int, str] | None = None,
) -> ChessBody:
    """The group's public view (names by the group's ``public_names`` rule; nothing private).

    ``clocks``: the live clock of each clocked board (board → its face); ``flags``: the result a
    board's fallen flag proposes (board → ``"1-0"``/``"0-1"``) — both read off the tables by the
    daemon; ``next_round_at`` and ``lag``: :meth:`ChessGroup.schedule` at the moment of the view."""
    cfg = group.config
    roster = {e.start: e for e in cfg.group.entrants}
    names = _names(group)
    clocks = clocks or {}
    flags = flags or {}

    def player(sn: int) -> ChessPlayerView:
        e = roster.get(sn)
        return ChessPlayerView(
            start=sn,
            name=names[sn],
            school=e.school if e else "",
            school_class=e.school_class if e else "",
            points=score_text(group.points(sn)),
        )

    def board_view(play: BoardPlay, *, live: bool) -> ChessBoardView:
        proposal = play.proposal.value if play.proposal else None
        why = play.proposal_why
        if live and play.result is None and proposal is None and play.board in flags:
            proposal, why = flags[play.board], "flag"
        appeal = play.appeal
        return ChessBoardView(
            board=play.board,
            white=player(play.white),
            black=player(play.black),
            result=play.result.value if play.result else None,
            by=play.by,
            proposal=proposal if live else None,
            proposal_why=why if live else "",
            claims=list(play.claims),
            appeal=None
            if appeal is None
            else ChessAppealView(
                player=appeal.player,
                text=appeal.text,
                decision=appeal.decision,
                result=appeal.result.value if appeal.result else None,
            ),
            table=play.table,
            clock=clocks.get(play.board) if live and play.result is None else None,
        )

    rnd = group.current
    boards = [board_view(play, live=True) for play in (rnd.boards if rnd else ())]
    last_round = (
        [board_view(play, live=False) for play in group.played[-1].boards]
        if rnd is None and group.played
        else []
    )
    table = group.standings()
    standings = [
        ChessStandingView(
            rank=row.rank,
            player=player(row.start_number),
            values={"PTS": score_text(row.points)}
            | {name: decimal_text(row.values[name], MIN_PLACES.get(name, 0)) for name in table.order},
        )
        for row in table.rows
    ] if group.rounds_closed else []  # fmt: skip
    return ChessBody(
        level=cfg.group.level.value,
        grade=cfg.group.grade,
        sex=cfg.group.sex,
        part=cfg.group.part,
        players=len(group.tournament),
        rounds=cfg.rounds,
        minutes=cfg.minutes,
        round_minutes=cfg.plan.round_minutes,
        phase=group.phase,
        round=rnd.number if rnd else group.rounds_closed,
        first_board=cfg.first_board,
        last_board=cfg.first_board + group.boards_needed - 1,
        boards=boards,
        last_round=last_round,
        start_list=[player(sn) for sn in group.tournament.start_numbers],
        withdrawn=sorted(group.withdrawn),
        bye=player(rnd.bye) if rnd and rnd.bye else None,
        absent=[player(sn) for sn in (rnd.absent if rnd else ())],
        to_withdraw=[player(sn) for sn in group.to_withdraw()],
        closed_with_zero=list(group.closed_with_zero),
        corrections=[
            ChessCorrectionView(
                round=c.round,
                board=c.board,
                white=player(c.white),
                black=player(c.black),
                old=c.old.value,
                new=c.new.value,
                by=c.by,
                paired_after=list(c.paired_after),
                changed=list(c.changed),
            )
            for c in group.corrections
        ],
        late_entry=cfg.late_entry,
        late=[
            ChessLateView(player=player(x.start), first_round=x.first_round, rule=x.rule) for x in group.late
        ],
        fixes=[
            ChessFixView(
                player=player(f.start),
                fields=list(f.fields),
                old=dict(f.old),
                new=dict(f.new),
                by=f.by,
                rounds_closed=f.rounds_closed,
            )
            for f in group.fixes
        ],
        columns=["PTS", *table.order],
        standings=standings,
        next_round=next_round,
        next_round_at=next_round_at.isoformat(timespec="minutes") if next_round_at else None,
        lag_minutes=lag,
    )


def column_label(code: str) -> Msg:
    """A standings column's heading as screens and paper print it: points and lots in the
    reader's words ("Pkt", "Los"), the tie-breaks by FIDE's acronyms (BH-C1, SB …)."""
    if code == "PTS":
        return msg("report.chess.pts")
    if code == "LOTS":
        return msg("report.chess.lots")
    return msg("text.as-typed", text=code)


def _names(group: ChessGroup) -> dict[int, str]:
    """Names as the group shows them: ``Nowak Jan`` (full, as start lists are posted) or ``Jan N.``."""
    out: dict[int, str] = {}
    for p in group.tournament.players:
        surname, _, first = p.name.partition(",")
        surname, first = surname.strip(), first.strip()
        if group.config.public_names == "short":
            out[p.start_number] = f"{first} {surname[:1]}.".strip() if first else f"{surname[:1]}."
        else:
            out[p.start_number] = f"{surname} {first}".strip()
    return out


__all__ = [
    "ChessAppealView",
    "ChessBoardView",
    "ChessBody",
    "ChessCorrectionView",
    "ChessDeskBody",
    "ChessFixView",
    "ChessLateView",
    "ChessPlayerView",
    "ChessStandingView",
    "HandMatchView",
    "chess_body",
    "column_label",
]
