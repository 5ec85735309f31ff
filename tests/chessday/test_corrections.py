"""Corrections after a round is closed, a close while a clock runs, and a withdrawal in the TRF:
what an arbiter does when a misreported result is found out, or a child goes home."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.api.messages import ApiError
from clockd.core.chessday.group import ChessError, ChessGroup, CloseRound, EnterResult, PairRound
from clockd.core.clock import Side
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import BoardResult
from tests.chessday.conftest import config
from tests.chessday.test_chess_cli import daemon, day_file, run  # noqa: F401 - the fixture
from tests.chessday.test_chess_daemon import create, halls  # noqa: F401 - the fixture


def paired(group: ChessGroup) -> ChessGroup:
    p = pair_round(group.pairing_input(), group.config.rounds)
    return group.paired(p.boards, p.bye)


def closed_round_one() -> ChessGroup:
    group = paired(ChessGroup.new(config(8, rounds=4, first_board=1)))
    assert group.current is not None
    for b in group.current.boards:
        group = group.enter(b.board, BoardResult.WHITE_WINS, by="Anna")
    return group.close()


def test_a_closed_rounds_result_is_corrected_and_the_standings_follow() -> None:
    group = closed_round_one()
    first = group.played[0].boards[0]
    before = group.points(first.white), group.points(first.black)
    with pytest.raises(ChessError) as no_replace:
        group.correct(1, first.board, BoardResult.BLACK_WINS, by="Anna", reason="zły zapis", replace=False)
    assert no_replace.value.msg.code == "chess.result-entered-closed"
    with pytest.raises(ChessError) as no_reason:
        group.correct(1, first.board, BoardResult.BLACK_WINS, by="Anna", reason=" ", replace=True)
    assert no_reason.value.msg.code == "chess.correction-reason"
    fixed = group.correct(1, first.board, BoardResult.BLACK_WINS, by="Anna", reason="zły zapis", replace=True)
    assert (fixed.points(first.white), fixed.points(first.black)) == (before[1], before[0])
    top = fixed.standings().rows[0].start_number
    assert fixed.points(top) == 1
    # The next pairing is made from the corrected scores: the new winner meets a winner.
    again = paired(fixed)
    assert again.current is not None
    opponents = {b.white: b.black for b in again.current.boards} | {
        b.black: b.white for b in again.current.boards
    }
    assert fixed.points(opponents[first.black]) == 1
    # A snapshot keeps the boards as played and the correction.
    loaded = ChessGroup.load(fixed.dump())
    assert loaded.corrections == fixed.corrections and loaded.played == fixed.played
    assert loaded.points(first.black) == 1


def test_a_correction_says_which_pairings_made_before_it_stay() -> None:
    group = paired(closed_round_one())  # round 2 paired with round 1's old results
    first = group.played[0].boards[0]
    fixed = group.correct(
        1, first.board, BoardResult.DRAW, by="Anna", reason="zgłoszenie rodzica", replace=True
    )
    assert fixed.corrections[-1].paired_after == (2,)
    found = fixed.repairing_input(2)
    assert found is not None and found[1] == group.current


def test_a_withdrawn_player_is_absent_in_every_round_to_come_in_the_trf() -> None:
    group = closed_round_one().withdraw(3)
    t = trf.loads(group.export())
    assert all(t[3].entry(r).code.value == "Z" and t[3].entry(r).opponent is None for r in (2, 3, 4))
    # A program pairing from the file leaves the child out (no board, no bye): 7 players left.
    pairing = pair_round(t.pairing_input(2), 4)
    seated = {sn for b in pairing.boards for sn in b} | {pairing.bye}
    assert 3 not in seated and len(seated) == 7


def test_the_commands_correct_a_closed_round_and_refuse_what_they_must(
    tmp_path: Path,
    daemon: list[str],  # noqa: F811 - the fixture
    capsys: Any,
) -> None:
    assert run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    assert run(capsys, "chess", "result", "1", "1", *daemon)[0] == 0
    assert run(capsys, "chess", "close", "--all", *daemon)[0] == 0
    status, _, err = run(capsys, "chess", "undo", "1", *daemon)
    assert status == 2 and "runda 1 jest zamknięta" in err and "--replace" in err
    status, _, err = run(capsys, "chess", "result", "1", "0", *daemon)
    assert status == 2 and "dodaj --replace i --reason" in err
    status, _, err = run(capsys, "chess", "result", "1", "0", "--replace", *daemon)
    assert status == 2 and "poprawka wymaga powodu" in err
    status, before, _ = run(capsys, "chess", "standings", "sp3-ch", *daemon)
    status, out, _ = run(
        capsys, "chess", "result", "1", "0", "--replace", "--reason", "sędzia źle zapisał", *daemon
    )
    assert status == 0 and "runda 1, szachownica 1" in out and "poprawiona: 1-0 → 0-1" in out
    status, after, _ = run(capsys, "chess", "standings", "sp3-ch", *daemon)
    assert after != before  # the standings follow the correction
    assert [line.split()[-9] for line in after.splitlines()[2:]].count("1") == 2  # the bye and Black
    # Round 2 paired, then round 1 corrected again: the pairing made stays, and it is said.
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    status, out, _ = run(
        capsys, "chess", "result", "1", "=", "--round", "1", "--replace", "--reason", "zgoda obu", *daemon
    )
    assert status == 0 and "poprawiona: 0-1 → ½-½" in out
    assert "rundy 2" in out  # named: round 2 was paired before the correction


def test_close_asks_for_an_explicit_word_while_a_boards_clock_runs(halls: Any) -> None:  # noqa: F811
    hall = halls()
    create(hall.anna, clocks={21: 1})
    hall.anna.act("sp3-ch", PairRound())
    hall.settle()
    hall.devices[1].press(Side.B, hall.clock.now)  # Black presses: White's clock runs
    hall.settle()
    with pytest.raises(ApiError) as running:
        hall.anna.act("sp3-ch", CloseRound())
    assert running.value.reason.code == "chess.close-clocks-running"
    assert running.value.reason.params["boards"] == "21"
    assert hall.group("sp3-ch").phase == "playing"  # nothing closed
    hall.anna.act("sp3-ch", CloseRound(stop_clocks=True))
    body = hall.group("sp3-ch")
    assert body.phase == "between-rounds" and 21 in body.closed_with_zero
    # A result of the round just closed can be corrected through the daemon, journaled with who.
    hall.piotr.act("sp3-ch", EnterResult(board=21, result="1", replace=True, reason="partia dokończona"))
    body = hall.group("sp3-ch")
    assert body.corrections[-1].board == 21 and body.corrections[-1].by == "Piotr"
    assert body.corrections[-1].old == "0-0" and body.corrections[-1].new == "1-0"


def test_a_boards_clock_stops_when_its_result_is_entered_by_hand(halls: Any) -> None:  # noqa: F811
    hall = halls()
    create(hall.anna, clocks={21: 1})
    hall.anna.act("sp3-ch", PairRound())
    hall.settle()
    hall.devices[1].press(Side.B, hall.clock.now)  # White's clock runs
    hall.settle()
    hall.clock.advance(30 * 1_000_000_000)
    hall.anna.act("sp3-ch", EnterResult(board=21, result="1"))  # White mated: the arbiter enters it
    hall.settle()
    table = hall.anna.status().tables[0]
    assert table.program.clock.phase == "paused"
    hall.clock.advance(20 * 60 * 1_000_000_000)  # no flag 20 minutes later: nothing to propose
    hall.settle()
    assert hall.group("sp3-ch").boards[0].proposal is None
