"""FIDE tie-breaks: hand-computed values for every unplayed-round case of C.07 Art. 16 (both
editions where they differ), direct encounter, lots, and every corpus file against FIDE's own
TieBreakServer values (``tiebreaks/*.tsv``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from clockd.core.swiss import trf
from clockd.core.swiss.model import Board, BoardResult, Code, Player, Tournament, record_round
from clockd.core.swiss.standings import direct_encounter, standings
from clockd.core.swiss.tiebreaks import Edition, TieBreaks, lots
from tests.conftest import corpus_dir, swiss_corpus_files

F = Fraction
_RESULTS = {
    "1-0": BoardResult.WHITE_WINS,
    "0-1": BoardResult.BLACK_WINS,
    "=": BoardResult.DRAW,
    "0-0": BoardResult.NO_RESULT,
    "+-": BoardResult.WHITE_WINS_BY_FORFEIT,
    "-+": BoardResult.BLACK_WINS_BY_FORFEIT,
    "--": BoardResult.DOUBLE_FORFEIT,
}


def build(players: int, rounds: list[str], date: str | None = None) -> Tournament:
    """A tournament from a wall chart: one string per round, items separated by commas;
    ``W-B R`` a board (``1-0``, ``0-1``, ``=``, ``0-0``, ``+-``, ``-+``, ``--``),
    ``S X`` player S's ``0000 - X`` entry (U, F, H, Z)."""
    t = Tournament(tuple(Player(sn, name=f"Player {sn}") for sn in range(1, players + 1)))
    for r, text in enumerate(rounds, start=1):
        boards, byes = [], {}
        for item in (i.split() for i in text.split(",")):
            if "-" in item[0]:
                white, black = (int(x) for x in item[0].split("-"))
                boards.append(Board(white, black, _RESULTS[item[1]]))
            else:
                byes[int(item[0])] = Code(item[1])
        t = record_round(t, r, boards, byes)
        assert all(len(p.rounds) == r for p in t.players), f"round {r} leaves someone out"
    if date:
        t = t.with_record("042", date)
    return trf.loads(trf.dumps(t))  # what the TRF reader makes of it (and it must accept it)


# Seven players, four rounds, every kind of unplayed round of Art. 16:
#   1: a forfeit win (r3)                       2: a double forfeit in the last round (r4)
#   3: a half-point bye (r2), a forfeit loss (r3), a 0–0 game with no result reported (r4)
#   4: a full-point bye (r3), the double forfeit (r4)
#   5: a zero-point bye in the middle (r3)      6: the pairing-allocated bye (r1), the 0–0 game
#   7: withdrawn after round 2 (absent, 0000 - Z, in r3 and r4)
ARTICLE_16 = [
    "1-4 1-0, 2-5 =, 3-7 1-0, 6 U",
    "1-2 =, 3 H, 4-5 0-1, 7-6 1-0",
    "1-3 +-, 2-6 1-0, 4 F, 5 Z, 7 Z",
    "5-1 1-0, 2-4 --, 3-6 0-0, 7 Z",
]
# Worked by hand. Points: 1: 2.5, 2: 2, 3: 1.5, 4: 1, 5: 2.5, 6: 1, 7: 1.
# Voluntarily unplayed rounds (not played, less than a win): 2: r4; 3: r2, r3; 4: r4; 5: r3;
# 7: r3, r4. Forfeit wins, the full-point bye and the PAB are not VURs.
# Adjusted scores (16.3; VURs with no opponent after the last non-VUR round count ½): only
# player 7 changes, 1 → 2 (withdrawn: r3, r4 count as draws). Player 4's last-round double
# forfeit has an opponent, so it stays 0: 4 keeps 1. Player 3's mid-event bye stays ½.
# Dummy opponent (16.4): 2024 = own score. 2026 = own score capped at the scheduled
# opponent's adjusted score (forfeits) or at half the rounds, 2 (byes, absences).
#   1 BH: 4→1, 2→2, r3 forfeit win: 2024 2.5 / 2026 min(2.5, adj(3)=1.5)=1.5, 5→2.5
#          = 8 / 7; Cut-1 drops 1 (no VUR) = 7 / 6; SB = 1 + 1 + dummy·1 + 0 = 4.5 / 3.5
#   2 BH: 2.5 + 2.5 + 1 + r4 dummy 2 / min(2, adj(4)=1) = 8 / 7; Cut-1 drops the VUR r4
#          first (not the 1 from r3): 6 / 6; SB = 1.25 + 1.25 + 1 + 0 = 3.5
#   3 BH: adj(7)=2 + H 1.5 + forfeit loss 1.5 (cap adj(1)=2.5) + 0–0 vs 6: 1 = 6; Cut-1 drops
#          a VUR (1.5), not the 1: 4.5; SB = 2 + 0.75 + 0 + 0 = 2.75
#   4 BH: 2.5 + 2.5 + F 1 + r4 1 = 7; Cut-1 drops the VUR r4: 6; SB = F 1·1 = 1
#   5 BH: adj(2)=2 + 1 + Z 2.5 / min(2.5, 2)=2 + 2.5 = 8 / 7.5; Cut-1 drops the VUR: 5.5 both
#          (without the exception it would drop the 1); SB = 1 + 1 + 0 + 2.5 = 4.5
#   6 BH: U 1 + adj(7)=2 + 2 + 1.5 = 6.5; Cut-1 (the PAB is no VUR) drops 1: 5.5; SB = U 1·1
#   7 BH: 1.5 + 1 + Z 1 + Z 1 = 4.5; Cut-1: 3.5; SB = 1 (beat 6)
# PS sums running scores; WIN counts the forfeit win, F and U; WON only games; BWG/BPG only
# games played with Black (not forfeits); REP = games played + rounds won without playing.
COLUMNS = ("PTS", "BH-C1", "BH", "SB", "PS", "WIN", "WON", "BWG", "BPG", "REP")
EXPECTED_2024 = {
    1: (F(5, 2), 7, 8, F(9, 2), F(15, 2), 2, 1, 0, 1, 4),
    2: (2, 6, 8, F(7, 2), F(11, 2), 1, 1, 0, 1, 3),
    3: (F(3, 2), F(9, 2), 6, F(11, 4), F(11, 2), 1, 1, 0, 0, 2),
    4: (1, 6, 7, 1, 2, 1, 0, 0, 1, 3),
    5: (F(5, 2), F(11, 2), 8, F(9, 2), 6, 2, 2, 1, 2, 3),
    6: (1, F(11, 2), F(13, 2), 1, 4, 1, 0, 0, 3, 4),
    7: (1, F(7, 2), F(9, 2), 1, 3, 1, 1, 0, 1, 2),
}
EXPECTED_2026 = dict(EXPECTED_2024) | {
    1: (F(5, 2), 6, 7, F(7, 2), F(15, 2), 2, 1, 0, 1, 4),
    2: (2, 6, 7, F(7, 2), F(11, 2), 1, 1, 0, 1, 3),
    5: (F(5, 2), F(11, 2), F(15, 2), F(9, 2), 6, 2, 2, 1, 2, 3),
}


@pytest.mark.parametrize(
    ("edition", "expected"),
    [(Edition.E2024, EXPECTED_2024), (Edition.E2026, EXPECTED_2026)],
    ids=["2024", "2026"],
)
def test_article_16_unplayed_rounds_by_hand(
    edition: Edition, expected: dict[int, tuple[object, ...]]
) -> None:
    tb = TieBreaks(build(7, ARTICLE_16), edition=edition)
    got = {sn: tuple(tb.value(name, sn) for name in COLUMNS) for sn in expected}
    assert got == expected


def test_article_16_adjusted_scores_and_vurs_by_hand() -> None:
    tb = TieBreaks(build(7, ARTICLE_16))
    assert [tb.adjusted_score(sn) for sn in range(1, 8)] == [F(5, 2), 2, F(3, 2), 1, F(5, 2), 1, 2]
    vurs = {sn: [r for r in range(1, 5) if tb.is_vur(sn, r)] for sn in range(1, 8)}
    assert vurs == {1: [], 2: [4], 3: [2, 3], 4: [4], 5: [3], 6: [], 7: [3, 4]}


def test_the_2026_cap_on_a_bye_is_half_the_rounds_considered() -> None:
    # 1 wins twice, then takes a half-point bye: 2.5 points after 3 rounds.
    t = build(4, ["1-2 1-0, 3-4 =", "1-3 1-0, 2-4 =", "1 H, 2-3 1-0, 4 Z"])
    # opponents' adjusted scores: 2 → 1.5, 3 → 0.5; the bye's dummy: 2024 own 2.5, 2026 min(2.5, 1.5)
    assert TieBreaks(t, edition=Edition.E2024).buchholz(1) == F(3, 2) + F(1, 2) + F(5, 2)
    assert TieBreaks(t, edition=Edition.E2026).buchholz(1) == F(3, 2) + F(1, 2) + F(3, 2)
    # after 2 rounds there is no bye yet, and the same file gives the same values in both
    for edition in Edition:
        assert TieBreaks(t, rounds=2, edition=edition).buchholz(1) == F(1, 2) + F(1, 2)


@pytest.mark.parametrize(
    ("date", "edition"),
    [
        (None, Edition.E2026),
        ("2024/08/01", Edition.E2024),
        ("2026/02/28", Edition.E2024),
        ("2026/03/01", Edition.E2026),
        ("2026/10/27", Edition.E2026),
    ],
)
def test_the_edition_is_the_one_in_force_on_the_event_date(date: str | None, edition: Edition) -> None:
    t = build(7, ARTICLE_16, date=date)
    assert Edition.in_force_on(t.start_date) is edition
    table = standings(t, order=("BH",))
    assert table.edition is edition
    expected = EXPECTED_2024 if edition is Edition.E2024 else EXPECTED_2026
    assert {r.start_number: r.values["BH"] for r in table.rows} == {sn: expected[sn][2] for sn in expected}


# -- direct encounter -----------------------------------------------------------------------


def test_direct_encounter_separates_recursively_when_all_have_met() -> None:
    # A round robin of four: 2 beats 1, 1 beats 3 and 4, 2 beats 4, 3 beats 2, 4 beats 3.
    # Points 1: 2, 2: 2, 3: 1, 4: 1. Among all four (all met): 1 and 2 lead with 2, 3 and 4
    # follow with 1; examined again among themselves, 2 beat 1 and 4 beat 3.
    t = build(4, ["1-2 0-1, 3-4 0-1", "1-3 1-0, 2-4 1-0", "1-4 1-0, 2-3 0-1"])
    tb = TieBreaks(t)
    assert direct_encounter(tb, [1, 2, 3, 4]) == {2: 1, 1: 2, 4: 3, 3: 4}
    assert direct_encounter(tb, [1, 3]) == {1: 1, 3: 2}
    assert direct_encounter(tb, [3]) == {3: 0}
    # Standings with DE right after points: the tied pairs are split by their own game.
    table = standings(t, order=("DE",))
    assert [(r.rank, r.start_number, int(r.values["DE"])) for r in table.rows] == [
        (1, 2, 1),
        (2, 1, 2),
        (3, 4, 1),
        (4, 3, 2),
    ]


def test_direct_encounter_does_not_separate_a_draw() -> None:
    t = build(2, ["1-2 ="])
    assert direct_encounter(TieBreaks(t), [1, 2]) == {1: 0, 2: 0}
    table = standings(t, order=("DE",))
    assert [(r.rank, r.start_number) for r in table.rows] == [(1, 1), (1, 2)]  # they share first place


def test_direct_encounter_in_a_swiss_where_not_all_have_met() -> None:
    # 1 beat 2 and 3; 2 and 3 never met. Nobody can catch 1 (2 and 3 could reach 1 point by
    # winning their missing game), so 1 is first; 2 and 3 stay tied (and never met: 0 among them).
    t = build(4, ["1-2 1-0, 3-4 =", "1-3 1-0, 2-4 ="])
    tb = TieBreaks(t)
    assert direct_encounter(tb, [1, 2, 3]) == {1: 1, 2: 2, 3: 2}
    # After round 1 only: 1 beat 2, but 3 met neither and could still score 2: no one separated.
    assert direct_encounter(TieBreaks(t, rounds=1), [1, 2, 3]) == {1: 0, 2: 0, 3: 0}
    # A forfeit is not a game: it does not count for direct encounter.
    forfeit = build(2, ["1-2 +-"])
    assert direct_encounter(TieBreaks(forfeit), [1, 2]) == {1: 0, 2: 0}


# -- lots -----------------------------------------------------------------------------------


def test_lots_are_fixed_by_the_seed() -> None:
    draw = lots(range(1, 51), "group-3g/2026-10-27")
    assert sorted(draw.values()) == list(range(1, 51))
    assert lots(reversed(range(1, 51)), "group-3g/2026-10-27") == draw  # input order is irrelevant
    assert lots(range(1, 51), "another seed") != draw
    # a player's place among any subset follows the same order
    subset = lots([3, 17, 42], "group-3g/2026-10-27")
    assert sorted(subset, key=subset.__getitem__) == sorted([3, 17, 42], key=draw.__getitem__)


def test_lots_break_the_ties_left_and_nothing_else() -> None:
    t = build(2, ["1-2 ="])
    table = standings(t, order=("DE",), lots_seed="x")
    assert [r.rank for r in table.rows] == [1, 2]
    assert table.order == ("DE", "LOTS")
    first = table.rows[0].start_number
    assert lots([1, 2], "x")[first] == 1


# -- FIDE's reference values ------------------------------------------------------------------


TSV_COLUMNS = {
    "PTS": "PTS",
    "BH/C1": "BH-C1",
    "BH": "BH",
    "SB": "SB",
    "PS": "PS",
    "DE": "DE",
    "WIN": "WIN",
    "WON": "WON",
    "BWG": "BWG",
    "BPG": "BPG",
    "REP": "REP",
}
#: The order of the TSV's columns, which is also the order its Rank follows.
TSV_ORDER = ("BH-C1", "BH", "SB", "PS", "DE", "WIN", "WON", "BWG", "BPG", "REP")


@pytest.mark.parametrize("edition", list(Edition), ids=lambda e: e.value)
@pytest.mark.parametrize("path", swiss_corpus_files(), ids=lambda p: p.stem)
def test_every_value_equals_fides_tiebreakserver(path: Path, edition: Edition) -> None:
    tsv = corpus_dir() / "swiss" / "tiebreaks" / f"{path.stem}_tb{edition.value}.tsv"
    lines = tsv.read_text().splitlines()
    head = lines[0].split("\t")
    expected = {
        int(row["StartNo"]): row
        for row in (dict(zip(head, line.split("\t"), strict=True)) for line in lines[1:])
    }
    table = standings(trf.load_bytes(path.read_bytes()), order=TSV_ORDER, edition=edition)
    assert len(table.rows) == len(expected)
    for row in table.rows:
        want = expected[row.start_number]
        got = {"PTS": row.points, **row.values}
        for column, name in TSV_COLUMNS.items():
            assert got[name] == Fraction(Decimal(want[column])), (row.start_number, name)
        assert row.rank == int(want["Rank"]), row.start_number


def test_the_corpus_reaches_the_cases_that_matter() -> None:
    """The TSV comparison is only as good as the cases in the corpus: make sure it has them."""
    seen: set[str] = set()
    for path in swiss_corpus_files():
        t = trf.load_bytes(path.read_bytes())
        old, new = TieBreaks(t, edition=Edition.E2024), TieBreaks(t, edition=Edition.E2026)
        for sn in t.start_numbers:
            contributions = new.contributions(sn)
            naive_cut = sum(c.score for c in contributions) - min(c.score for c in contributions)
            if new.buchholz(sn, cut=1) != naive_cut:
                seen.add("cut-1 exception changes the value")
            if new.adjusted_score(sn) != new.points(sn):
                seen.add("adjusted score differs")
            if old.buchholz(sn) != new.buchholz(sn):
                seen.add("2026 cap changes BH")
            if new.wins(sn) != new.games_won(sn):
                seen.add("unplayed wins")
    assert seen == {
        "cut-1 exception changes the value",
        "adjusted score differs",
        "2026 cap changes BH",
        "unplayed wins",
    }
