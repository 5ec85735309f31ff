"""Who is not paired: absences written the way JaVaFo and Lichess write them (``0000 - -``),
and, in ``swiss check``, players with nothing recorded in a round that was paired.

The pairings expected here were worked out by hand; they are what bbpPairings gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.dutch.state import round_to_pair
from clockd.core.swiss.model import ZERO_BYE_ENTRY, Tournament
from tests.conftest import corpus_dir

SCHOOL = corpus_dir() / "swiss" / "school"


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def _player(sn: int, rating: int, points: str, *entries: str) -> str:
    name = f"Player{sn:04d}".ljust(33)
    line = f"001 {sn:4d}      {name} {rating:4d}{' ' * 28}{points:>4} {sn:>4}"
    return line + "".join("  " + e for e in entries)


# Round 1: 1 beat 4, 2 beat 5, 3 had the bye. Player 2 will miss round 2: "0000 - -".
FIVE = "\n".join(
    [
        "012 Absence",
        "XXR 3",
        "XXC white1",
        _player(1, 2000, "1.0", "   4 w 1"),
        _player(2, 1900, "1.0", "   5 b 1", "0000 - -"),
        _player(3, 1800, "1.0", "0000 - U"),
        _player(4, 1700, "0.0", "   1 b 0"),
        _player(5, 1600, "0.0", "   2 w 0"),
    ]
)


def test_0000_dash_dash_in_the_round_to_pair_is_an_absence(tmp_path: Path) -> None:
    t = trf.loads(FIVE + "\n")
    assert round_to_pair(t) == 2
    assert t[2].entry(2).is_absence
    path = tmp_path / "five.trf"
    path.write_text(FIVE + "\n")
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(path), "-p", str(out)]) == 0
    # Four players, no bye: 1 and 3 (1 had White, 3 no game: 3 White), 4 and 5 (4 had Black).
    assert out.read_text() == "2\n3 1\n4 5\n"


def test_an_earlier_0000_dash_dash_is_a_round_not_played_for_no_points() -> None:
    lines = FIVE.splitlines()
    lines[3] = _player(1, 2000, "1.0", "   4 w 1", "   3 b 1")
    lines[4] = _player(2, 1900, "1.0", "   5 b 1", "0000 - -")
    lines[5] = _player(3, 1800, "1.0", "0000 - U", "   1 w 0")
    lines[6] = _player(4, 1700, "1.0", "   1 b 0", "   5 w 1")
    lines[7] = _player(5, 1600, "0.0", "   2 w 0", "   4 b 0")
    t = trf.loads("\n".join(lines) + "\n")
    assert round_to_pair(t) == 3
    assert t[2].score() == 1
    result = pair_round(t)
    assert 2 in {sn for board in result.boards for sn in board} | {result.bye}


def test_a_round_in_which_everyone_is_absent_counts_as_played() -> None:
    lines = FIVE.splitlines()
    lines[3:] = [line + ("  0000 - Z" if sn != 2 else "") for sn, line in enumerate(lines[3:], start=1)]
    t = trf.loads("\n".join(lines) + "\n")
    assert all(not p.entry(2).is_blank for p in t.players)
    assert round_to_pair(t) == 3  # as bbpPairings reads it: round 2 had no games


def test_the_check_input_leaves_out_who_has_nothing_recorded_in_a_paired_round() -> None:
    lines = FIVE.splitlines()
    lines[3] = _player(1, 2000, "1.0", "   4 w 1", "   3 b 1")
    lines[4] = _player(2, 1900, "1.0", "   5 b 1")  # nothing recorded for round 2
    lines[5] = _player(3, 1800, "1.0", "0000 - U", "   1 w 0")
    lines[6] = _player(4, 1700, "1.0", "   1 b 0", "   5 w =")
    lines[7] = _player(5, 1600, "0.0", "   2 w 0", "   4 b =")
    played = trf.loads("\n".join(lines) + "\n")
    before = played.pairing_input(2)
    assert before[2].entry(2) == ZERO_BYE_ENTRY  # round 2 was paired without them
    assert before[1].entry(2).is_blank
    assert pair_round(before).boards == ((3, 1), (4, 5))  # as recorded
    not_yet = trf.loads(FIVE.replace("  0000 - -", "") + "\n").pairing_input(2)
    assert not_yet[2].entry(2).is_blank  # round 2 not paired yet: a blank is a player to pair


def _withdrawn_with_nothing_recorded(path: Path) -> Tournament:
    """The school group with its withdrawn players' ``0000 - Z`` rounds left blank, as a
    program that writes nothing for a withdrawn player leaves them."""
    t = trf.load_bytes(path.read_bytes())
    withdrawn = [
        p.start_number
        for p in t.players
        if len(p.rounds) > 1 and all(e == ZERO_BYE_ENTRY for e in p.rounds[1:])
    ]
    assert withdrawn
    return t.with_players(
        p.with_rounds(p.rounds[:1]) if p.start_number in withdrawn else p for p in t.players
    )


@pytest.mark.parametrize("path", sorted(SCHOOL.glob("*.trf")), ids=lambda p: p.name)
def test_check_does_not_pair_withdrawn_players_again(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / path.name
    bare.write_bytes(trf.dump_bytes(_withdrawn_with_nothing_recorded(path)))
    assert main(["swiss", "check", str(bare)]) == 0
    assert "rounds checked: 8, differing: 0" in capsys.readouterr().out
