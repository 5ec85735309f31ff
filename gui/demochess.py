"""The demo desk's school chess day: four groups of one hall, folded by the core's own rules.

``duelclock gui --demo-state --event szachy`` shows it (``szachy`` is the first group's key
in the hall, as the daemon would hold it). The groups are the core's
:class:`~clockd.core.chessday.group.ChessGroup`: created from a roster, each round paired by
the Dutch engine, results entered by two arbiters, rounds closed — what a daemon would have
journaled. Their views are built here as :func:`clockd.service.chess.chess_body` builds them
(the GUI may not import the daemon), with the day's clock fixed by the demo:

* **Klasa 3 — chłopcy** (boards 1–8): round 3 being played, a clock's flag proposing a result
  on board 1, a second illegal move proposing one on board 4, results entered by Anna and Piotr;
* **Klasa 3 — dziewczęta** (boards 9–13): round 3 being played, **12 minutes behind the plan**;
* **Klasa 1 — chłopcy** (boards 14–19): round 3 paired and posted, starting in 7 minutes (its
  countdown runs on the audience screen: ``--event sp1-ch --audience``);
* **Przedszkole — dziewczęta** (boards 20–23): round 1 closed, one girl absent from it who will
  be withdrawn before round 2 unless she reports.
"""

from __future__ import annotations

import datetime
from typing import Any

from clockd.api.chess import ChessAppealView, ChessBoardView, ChessBody, ChessPlayerView, ChessStandingView
from clockd.core.actions import Allowed
from clockd.core.chessday.group import ChessGroup, ChessGroupConfig, read_result
from clockd.core.chessday.roster import Entrant, Group, Level
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import BoardResult
from clockd.core.swiss.standings import MIN_PLACES, decimal_text
from clockd.i18n import msg
from gui.model import Event

HALL = "desk"

_BOYS = ["Jan", "Łukasz", "Michał", "Jakub", "Szymon", "Wojciech", "Bartosz", "Mikołaj", "Paweł", "Stanisław"]
_GIRLS = ["Zofia", "Łucja", "Małgorzata", "Agnieszka", "Helena", "Maja", "Zuzanna", "Hanna", "Oliwia", "Ewa"]
_SURNAMES = [
    "Nowak",
    "Wiśniewski",
    "Wójcik",
    "Kamiński",
    "Lewandowski",
    "Zieliński",
    "Szymański",
    "Woźniak",
    "Dąbrowski",
    "Kozłowski",
    "Jankowski",
    "Mazur",
    "Kwiatkowski",
    "Krawczyk",
    "Piotrowski",
    "Grabowski",
]
_SCHOOLS = ["SP nr 12 Kraków", "SP nr 3 Wieliczka", "SP nr 45 Kraków", "SP w Zabierzowie"]


def _surname(base: str, girl: bool) -> str:
    if girl and base.endswith("ski"):
        return base[:-1] + "a"
    return base


def roster(key: str, level: Level, grade: int | None, sex: str, n: int, offset: int) -> Group:
    girl = sex == "w"
    first = _GIRLS if girl else _BOYS
    entrants = tuple(
        Entrant(
            start=i + 1,
            surname=_surname(_SURNAMES[(i + offset) % len(_SURNAMES)], girl),
            first_name=first[(i * 3 + offset) % len(first)],
            sex=sex,
            rating=1500 - 25 * i if i < n // 2 else None,
            school=_SCHOOLS[(i + offset) % len(_SCHOOLS)],
            school_class=f"{grade or 0}{'abc'[i % 3]}",
        )
        for i in range(n)
    )
    return Group(key=key, level=level, grade=grade, sex=sex, entrants=entrants)


#: The results the demo's arbiters enter, board by board, round after round (a fixed pattern).
_PATTERN = ["1", "0", "=", "1", "1", "0", "=", "0", "1", "+"]


def play(
    group: ChessGroup, rounds: int, *, last_open: int = 0, absent: frozenset[int] = frozenset()
) -> ChessGroup:
    """``rounds`` rounds paired by the engine; every one closed but the last when ``last_open``
    (then that many of its boards have results; −1: none yet); ``absent``: boards of round 1 whose Black did
    not come (a forfeit win for White)."""
    k = 0
    for number in range(1, rounds + 1):
        pairing = pair_round(group.pairing_input(), group.config.rounds)
        group = group.paired(pairing.boards, pairing.bye)
        assert group.current is not None
        boards = list(group.current.boards)
        entered = boards[: max(0, last_open)] if number == rounds and last_open else boards
        for i, b in enumerate(entered):
            key = "+" if number == 1 and b.board in absent else _PATTERN[(k + i) % len(_PATTERN)]
            if key == "+" and b.board not in absent:
                key = "1"  # the one forfeit of the demo is its absentee's
            group = group.enter(b.board, read_result(key), by="Anna" if i % 2 else "Piotr")
        k += len(boards)
        if number < rounds or not last_open:
            group = group.close()
    return group


def _points(value: Any) -> str:
    text = decimal_text(value)
    return text[:-2] + "½" if text.endswith(".5") else text


def allowed(group: ChessGroup) -> Allowed:
    """The group's actions as the daemon's ``chess`` kind allows them (the core's refusals)."""
    open_round = group.result_refusal()
    return {
        "chess-pair": group.pair_refusal(),
        "chess-result": open_round,
        "chess-undo": open_round,
        "chess-close": open_round,
        "chess-claim": open_round,
        "chess-appeal": open_round,
        "chess-report": group.report_refusal(),
        "chess-withdraw": None,
    }


def body_of(
    group: ChessGroup,
    *,
    next_round_at: datetime.datetime | None,
    lag: int | None,
    flags: dict[int, str] | None = None,
) -> ChessBody:
    """The group's view, as the daemon's ``chess_body`` makes it (``flags``: board → a clock's proposal)."""
    cfg = group.config
    roster = {e.start: e for e in cfg.group.entrants}

    def player(sn: int) -> ChessPlayerView:
        e = roster[sn]
        return ChessPlayerView(
            start=sn,
            name=f"{e.surname} {e.first_name}",
            school=e.school,
            school_class=e.school_class,
            points=_points(group.points(sn)),
        )

    boards = []
    rnd = group.current
    for play in rnd.boards if rnd else ():
        proposal = play.proposal.value if play.proposal else None
        why = play.proposal_why
        if flags and play.board in flags and play.result is None:
            proposal, why = flags[play.board], "flag"
        boards.append(
            ChessBoardView(
                board=play.board,
                white=player(play.white),
                black=player(play.black),
                result=play.result.value if play.result else None,
                by=play.by,
                proposal=proposal,
                proposal_why=why,
                claims=list(play.claims),
                appeal=None
                if play.appeal is None
                else ChessAppealView(
                    player=play.appeal.player, text=play.appeal.text, decision=play.appeal.decision
                ),
                table=play.table,
            )
        )
    table = group.standings()
    standings = [
        ChessStandingView(
            rank=row.rank,
            player=player(row.start_number),
            values={"PTS": _points(row.points)}
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
        phase=group.phase,
        round=rnd.number if rnd else group.rounds_closed,
        first_board=cfg.first_board,
        last_board=cfg.first_board + group.boards_needed - 1,
        boards=boards,
        bye=player(rnd.bye) if rnd and rnd.bye else None,
        absent=[player(sn) for sn in (rnd.absent if rnd else ())],
        to_withdraw=[player(sn) for sn in group.to_withdraw()],
        closed_with_zero=list(group.closed_with_zero),
        columns=["PTS", *table.order],
        standings=standings,
        next_round_at=next_round_at.isoformat(timespec="minutes") if next_round_at else None,
        lag_minutes=lag,
    )


def _title(level: Level, grade: int | None, sex: str) -> Any:
    return msg(f"chess.group.{level.value}.{sex}", grade=grade or 0)


def demo_chess(now: datetime.datetime) -> dict[str, Event]:
    """The four groups as events of the demo desk, at the wall-clock instant ``now`` (aware)."""

    def group(
        key: str, level: Level, grade: int | None, sex: str, n: int, first: int, offset: int
    ) -> ChessGroup:
        cfg = ChessGroupConfig(
            group=roster(key, level, grade, sex, n, offset),
            title="Szkolny Turniej Szachowy",
            rounds=7,
            first_board=first,
        )
        return ChessGroup.new(cfg)

    minute = datetime.timedelta(minutes=1)
    out: dict[str, Event] = {}
    boys3 = play(group("szachy", Level.PRIMARY, 3, "m", 16, 1, 0), 3, last_open=4)
    # board 4: a second illegal move claimed of White (the engine proposes Black's win)
    assert boys3.current is not None
    open_boards = [b for b in boys3.current.boards if b.result is None]
    illegal = open_boards[1]
    boys3, _ = boys3.claim(illegal.board, illegal.white)
    boys3, _ = boys3.claim(illegal.board, illegal.white)
    flagged = open_boards[0].board
    girls3 = play(group("sp3-dz", Level.PRIMARY, 3, "w", 10, 9, 3), 3, last_open=2)
    boys1 = play(group("sp1-ch", Level.PRIMARY, 1, "m", 12, 14, 5), 3, last_open=-1)
    pre = play(group("przedszkole-dz", Level.PRESCHOOL, None, "w", 8, 20, 7), 1, absent=frozenset({23}))
    specs = [
        ("szachy", boys3, now - 6 * minute, None, {flagged: BoardResult.BLACK_WINS.value}),
        ("sp3-dz", girls3, now - 42 * minute, 12, None),
        ("sp1-ch", boys1, now + 7 * minute + datetime.timedelta(seconds=42), None, None),
        ("przedszkole-dz", pre, now + 19 * minute, None, None),
    ]
    for seq, (key, g, at, lag, flags) in enumerate(specs, start=970):
        body = body_of(g, next_round_at=at, lag=lag, flags=flags)
        gr = g.config.group
        out[f"{HALL}/{key}"] = Event(
            id=f"{HALL}/{key}",
            key=key,
            kind="chess",
            title=_title(gr.level, gr.grade, gr.sex),
            actions=allowed(g),
            seq=seq,
            chess=body,
        )
    return out


__all__ = ["allowed", "body_of", "demo_chess", "play", "roster"]
