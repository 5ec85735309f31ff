"""A chess group's rounds by the regulations (§H): what an arbiter sees happen to the boards."""

from __future__ import annotations

import random

import pytest

from clockd.core.chessday.group import Appeal, ChessError, ChessGroup, read_result
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import BoardResult, Code, check_pairings
from clockd.core.swiss.standings import standings
from tests.chessday.conftest import config


def paired(group: ChessGroup) -> ChessGroup:
    p = pair_round(group.pairing_input(), group.config.rounds)
    return group.paired(p.boards, p.bye)


def play_day(seed: int, n: int = 11, rounds: int = 5) -> ChessGroup:
    rng = random.Random(seed)
    group = ChessGroup.new(config(n, rounds=rounds, first_board=13))
    for _ in range(rounds):
        group = paired(group)
        assert group.current is not None
        for b in group.current.boards:
            if rng.random() < 0.9:
                group = group.enter(b.board, read_result(rng.choice("10=5+-11")), by="Sędzia")
        group = group.close()
    return group


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_group_exports_a_trf_that_pairs_the_same_and_ranks_the_same(seed: int) -> None:
    group = play_day(seed)
    assert group.phase == "finished"
    exported = trf.loads(trf.dumps(group.tournament))
    assert check_pairings(exported) == []  # every round identical to the engine's re-pairing
    ours = [(r.rank, r.start_number) for r in group.standings().rows]
    theirs = standings(exported, rounds=5, lots_seed=group.config.group.key)
    assert ours == [(r.rank, r.start_number) for r in theirs.rows]


def test_boards_are_numbered_in_the_groups_range_of_the_hall() -> None:
    group = paired(ChessGroup.new(config(11, first_board=13)))
    assert group.current is not None
    assert [b.board for b in group.current.boards] == [13, 14, 15, 16, 17]
    assert group.current.bye is not None  # 11 players: one pairing-allocated bye
    with pytest.raises(ChessError) as refused:
        group.enter(12, BoardResult.DRAW, by="A")
    assert refused.value.msg.params == {"board": 12, "first": 13, "last": 17}


def test_one_keystroke_results() -> None:
    assert [read_result(k) for k in "10=5+-"] == [
        BoardResult.WHITE_WINS,
        BoardResult.BLACK_WINS,
        BoardResult.DRAW,
        BoardResult.DRAW,
        BoardResult.WHITE_WINS_BY_FORFEIT,
        BoardResult.BLACK_WINS_BY_FORFEIT,
    ]
    assert read_result("½-½") is BoardResult.DRAW
    with pytest.raises(ChessError, match="not a result"):
        read_result("2")


def test_a_second_arbiter_does_not_overwrite_a_result_by_accident() -> None:
    group = paired(ChessGroup.new(config(10)))
    group = group.enter(1, BoardResult.WHITE_WINS, by="Anna")
    with pytest.raises(ChessError) as refused:
        group.enter(1, BoardResult.DRAW, by="Piotr")
    assert refused.value.msg.params["by"] == "Anna"
    again = group.enter(1, BoardResult.WHITE_WINS, by="Piotr")  # the same result: no conflict
    assert again.current is not None and again.current.board(1).by == "Piotr"
    fixed = group.enter(1, BoardResult.DRAW, by="Piotr", replace=True)
    assert fixed.current is not None and fixed.current.board(1).result is BoardResult.DRAW
    undone = fixed.undo(1)
    assert undone.current is not None and undone.current.board(1).result is None


def test_a_game_with_no_reported_result_is_zero_zero() -> None:
    group = paired(ChessGroup.new(config(10)))
    group = group.enter(1, BoardResult.WHITE_WINS, by="A").close()
    assert group.closed_with_zero == (2, 3, 4, 5)
    lost = [p for p in group.tournament.players if p.entry(1).code is Code.LOSS]
    assert len(lost) == 9  # the loser of board 1 and both players of boards 2-5
    assert all(p.score(1) == 0 for p in lost)


def test_the_second_illegal_move_loses_the_first_does_not() -> None:
    group = paired(ChessGroup.new(config(10)))
    assert group.current is not None
    board = group.current.board(2)
    group, first = group.claim(2, board.black)
    assert first == 1 and group.current is not None and group.current.board(2).proposal is None
    group, second = group.claim(2, board.black)
    assert second == 2
    assert group.current is not None and group.current.board(2).proposal is BoardResult.WHITE_WINS
    assert group.current.board(2).result is None  # proposed, not decided: the arbiter enters it
    with pytest.raises(ChessError):
        group.claim(2, board.white + 100)


def test_the_chief_arbiters_decision_on_appeal_is_final() -> None:
    group = paired(ChessGroup.new(config(10)))
    assert group.current is not None
    b = group.current.board(3)
    group = group.enter(3, BoardResult.WHITE_WINS, by="Sędzia grupy")
    group = group.appeal(3, Appeal(player=b.black, text="flaga", decision="remis", result=BoardResult.DRAW))
    assert group.current is not None and group.current.board(3).result is BoardResult.DRAW
    for attempt in (
        lambda g: g.enter(3, BoardResult.WHITE_WINS, by="x", replace=True),
        lambda g: g.undo(3),
        lambda g: g.appeal(3, Appeal(player=b.white, text="znowu", decision="nie")),
    ):
        with pytest.raises(ChessError, match="final"):
            attempt(group)


def test_round_one_absentees_are_withdrawn_unless_they_reported() -> None:
    group = paired(ChessGroup.new(config(10, rounds=4)))
    assert group.current is not None
    b1, b2 = group.current.board(1), group.current.board(2)
    group = group.enter(1, BoardResult.WHITE_WINS_BY_FORFEIT, by="A")  # black of board 1 did not come
    group = group.enter(2, BoardResult.BLACK_WINS_BY_FORFEIT, by="A")  # white of board 2 did not come
    group = group.close()
    assert set(group.to_withdraw()) == {b1.black, b2.white}
    group = group.report(b2.white)
    assert group.to_withdraw() == (b1.black,)
    with pytest.raises(ChessError):
        group.report(b1.white)  # was there
    group = paired(group)
    assert group.current is not None
    seated = {sn for b in group.current.boards for sn in (b.white, b.black)} | {group.current.bye}
    assert b1.black not in seated and b2.white in seated
    assert b1.black in group.withdrawn
    with pytest.raises(ChessError):
        group.report(b1.black)  # too late once round 2 is paired


def test_a_child_who_comes_during_round_one_is_recorded_at_once_and_plays_from_round_two() -> None:
    group = paired(ChessGroup.new(config(10, rounds=4)))
    assert group.current is not None
    late = group.current.board(1).black
    group = group.enter(1, BoardResult.WHITE_WINS_BY_FORFEIT, by="A")  # did not come to the game…
    group = group.report(late)  # …but reported to the arbiter while round 1 was being played
    group = group.close()
    assert late in group.round1_absentees() and group.to_withdraw() == ()
    group = paired(group)
    assert group.current is not None
    seated = {sn for b in group.current.boards for sn in (b.white, b.black)} | {group.current.bye}
    assert late in seated and late not in group.withdrawn


def test_pairing_needs_the_previous_round_closed_and_stops_after_the_last() -> None:
    group = paired(ChessGroup.new(config(6, rounds=1)))
    assert group.pair_refusal() is not None and group.pair_refusal().code == "chess.round-open"  # type: ignore[union-attr]
    group = group.close()
    assert group.pair_refusal().code == "chess.all-rounds-played"  # type: ignore[union-attr]


def test_a_snapshot_gives_the_same_group_back() -> None:
    group = play_day(4, rounds=3)
    assert ChessGroup.load(group.dump()) == group
    mid = paired(ChessGroup.new(config(9, rounds=3)))
    mid = mid.enter(1, BoardResult.DRAW, by="A")
    assert ChessGroup.load(mid.dump()) == mid


def test_the_plan_says_when_the_next_round_is_and_how_late_a_group_is() -> None:
    import datetime
    from zoneinfo import ZoneInfo

    warsaw = ZoneInfo("Europe/Warsaw")

    def at(hour: int, minute: int, day: int = 20) -> datetime.datetime:
        return datetime.datetime(2026, 6, day, hour, minute, tzinfo=warsaw)

    group = paired(ChessGroup.new(config(10)))  # the day 2026-06-20: round 1 at 10:00, round 2 at 10:30
    assert group.schedule(at(9, 40)) == (1, at(10, 0), None)  # pairings posted: the hall waits for round 1
    assert group.schedule(at(10, 20)) == (2, at(10, 30), None)  # round 1 on: the next is round 2
    assert group.schedule(at(10, 47)) == (2, at(10, 30), 17)  # still playing 17 minutes after round 2's time
    assert group.schedule(at(12, 0, day=21))[2] is None  # the day after: nobody is late
    closed = group.close()
    utc = datetime.datetime(2026, 6, 20, 8, 47, tzinfo=datetime.UTC)  # 10:47 in Warsaw
    assert closed.schedule(utc) == (2, at(10, 30), 17)  # round 2 not paired yet
