"""The demo desk's school chess day: four groups of one hall, folded by the core's own rules.

``duelclock gui --demo-state --event szachy`` shows it (``szachy`` is the first group's key
in the hall, as the daemon would hold it). The groups are the core's
:class:`~clockd.core.chessday.group.ChessGroup`: created from a roster, each round paired by
the Dutch engine, results entered by two arbiters, rounds closed — what a daemon would have
journaled. Their views are built here as :func:`clockd.service.chess.chess_body` builds them
(the GUI may not import the daemon), with the day's clock fixed by the demo:

* **Klasa 3, chłopcy** (boards 1–8): round 3 being played, a clock's flag proposing a result
  on board 1, a second illegal move proposing one on board 4, results entered by Anna and Piotr;
* **Klasa 3, dziewczęta** (boards 9–13): round 3 being played, **12 minutes behind the plan**;
* **Klasa 1, chłopcy** (boards 14–19): round 3 paired and posted, starting in 7 minutes (its
  countdown runs on the audience screen: ``--event sp1-ch --audience``);
* **Przedszkola, dziewczęta** (boards 20–23): round 1 closed, one girl absent from it who will
  be withdrawn before round 2 unless she reports.
"""

from __future__ import annotations

import datetime

from clockd.api.chess import chess_body
from clockd.core.chessday.group import ChessGroup, ChessGroupConfig, read_result
from clockd.core.chessday.roster import Entrant, Group, Level
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import BoardResult
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
    # (key, group, the round the hall waits for, its planned start, the lag, a clock's flag)
    specs = [
        ("szachy", boys3, 4, now + 24 * minute, None, {flagged: BoardResult.BLACK_WINS.value}),
        ("sp3-dz", girls3, 4, now - 12 * minute, 12, None),
        ("sp1-ch", boys1, 3, now + 7 * minute + datetime.timedelta(seconds=42), None, None),
        ("przedszkole-dz", pre, 2, now + 19 * minute, None, None),
    ]
    for seq, (key, g, number, at, lag, flags) in enumerate(specs, start=970):
        body = chess_body(g, next_round=number, next_round_at=at, lag=lag, flags=flags)
        out[f"{HALL}/{key}"] = Event(
            id=f"{HALL}/{key}",
            key=key,
            kind="chess",
            title=g.config.group.title(),
            actions=g.allowed(),
            seq=seq,
            chess=body,
        )
    return out


__all__ = ["demo_chess", "play", "roster"]
