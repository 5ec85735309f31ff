"""Standings and ``duelclock swiss standings``: ranks follow the tie-break order; every
output format says the same thing; bad input gets a sentence and exit status 2."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.model import Tournament
from clockd.core.swiss.standings import ASCENDING, DEFAULT_ORDER, Row, decimal_text, parse_order, standings
from clockd.core.swiss.tiebreaks import Edition, TieBreaks
from clockd.i18n import set_language
from tests.conftest import corpus_dir

SWISS = corpus_dir() / "swiss"
SCHOOL = SWISS / "school" / "s_0002_p48_r8.trf"
SMALL = SWISS / "t_0001_p7_r5.trf"


@pytest.fixture(autouse=True)
def polish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    set_language(None)


def load(path: Path) -> Tournament:
    return trf.load_bytes(path.read_bytes())


def key(row: Row, order: tuple[str, ...]) -> tuple[Fraction, ...]:
    """The row's sort key, best first: higher points and tie-breaks first, DE and lots lowest first."""
    return (-row.points, *(row.values[n] if n in ASCENDING else -row.values[n] for n in order))


def test_the_default_order_is_the_seeds() -> None:
    # RULES.md §H: points, BH-C1, BH, SB, PS, DE, wins, wins with black, lots
    assert DEFAULT_ORDER == ("BH-C1", "BH", "SB", "PS", "DE", "WIN", "BWG")


def test_ranks_follow_the_tiebreak_order_on_a_school_group() -> None:
    t = load(SCHOOL)
    table = standings(t)
    assert table.order == DEFAULT_ORDER and table.edition is Edition.E2026  # 042 is 2026/09/01
    keys = [key(r, table.order) for r in table.rows]
    assert keys == sorted(keys)
    for previous, row, k_prev, k in zip(table.rows, table.rows[1:], keys, keys[1:], strict=False):
        if k == k_prev:  # tied on everything: same rank, start-number order
            assert row.rank == previous.rank and row.start_number > previous.start_number
        else:
            assert row.rank == table.rows.index(row) + 1
    tb = TieBreaks(t, edition=Edition.E2026)
    for row in table.rows:
        assert row.points == t[row.start_number].score()
        assert row.values["BH-C1"] == tb.buchholz(row.start_number, cut=1)
        assert row.values["BWG"] == tb.black_wins(row.start_number)
    # the withdrawn round-1 no-shows are at the bottom with no points
    assert {r.start_number for r in table.rows[-9:]} == {12, 13, 17, 18, 20, 30, 36, 39, 40}


def test_a_tie_left_after_everything_shares_the_rank() -> None:
    ranks = [r.rank for r in standings(load(SCHOOL)).rows]
    shared = [rank for rank in set(ranks) if ranks.count(rank) > 1]
    assert shared  # the nine withdrawn players are tied on everything
    assert ranks == sorted(ranks)
    # with lots, every rank is distinct and the tied players keep their block
    drawn = standings(load(SCHOOL), lots_seed="s_0002")
    assert [r.rank for r in drawn.rows] == list(range(1, 49))
    assert {r.start_number for r in drawn.rows[-9:]} == {12, 13, 17, 18, 20, 30, 36, 39, 40}


def test_the_order_is_checked() -> None:
    assert parse_order("bh-c1, BH,sb") == ("BH-C1", "BH", "SB")
    assert parse_order("BH,WIN", wins="WON") == ("BH", "WON")
    with pytest.raises(ValueError, match="unknown tie-break 'XYZ'"):
        parse_order("BH,XYZ")
    with pytest.raises(ValueError, match="BH given twice"):
        parse_order("BH,SB,BH")


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(25, 2), 1, "12.5"),
        (Fraction(39, 4), 2, "9.75"),
        (Fraction(11), 2, "11.00"),
        (Fraction(7), 0, "7"),
        (Fraction(-3, 2), 0, "-1.5"),
        (Fraction(1, 8), 1, "0.125"),
    ],
)
def test_decimals_are_exact(value: Fraction, places: int, text: str) -> None:
    assert decimal_text(value, places) == text
    assert Fraction(Decimal(text)) == value


def test_a_fraction_without_a_decimal_form_is_refused() -> None:
    with pytest.raises(ValueError, match="no exact decimal"):
        decimal_text(Fraction(1, 3))


# -- the command ----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    status = main(["swiss", "standings", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_a_list_of_objects_with_exact_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, SCHOOL, "--format", "json")
    assert status == 0
    rows = json.loads(out, parse_float=Decimal)
    table = standings(load(SCHOOL))
    assert [r["start_number"] for r in rows] == [r.start_number for r in table.rows]
    for obj, row in zip(rows, table.rows, strict=True):
        assert set(obj) == {"start_number", "rank", "name", "points", *DEFAULT_ORDER}
        assert obj["rank"] == row.rank and obj["name"] == row.name
        assert Fraction(obj["points"]) == row.points
        for name in DEFAULT_ORDER:
            assert Fraction(obj[name]) == row.values[name], (row.start_number, name)
    assert re.search(r'"SB": \d+\.[27]5,', out)  # quarter points written exactly


def test_text_speaks_polish_and_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, SMALL)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Klasyfikacja po rundzie 5 — AutoTest Tournament 1001"
    assert lines[2].split() == ["Miejsce", "Nr", "Zawodnik", "Pkt", *DEFAULT_ORDER]
    # t_0001 (no date: 2026 edition): player 1 first with 4.5, BH-C1 12.0, SB 11.00
    assert lines[3].split() == [
        "1",
        "1",
        "Test0001",
        "Player0001",
        "4.5",
        "12.0",
        "13.0",
        "11.00",
        "13.5",
        "0",
        "4",
        "3",
    ]
    assert "wydanie 2026" in lines[-1]
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    _, english, _ = run(capsys, SMALL)
    assert english.splitlines()[2].split()[:4] == ["Rank", "No.", "Player", "Pts"]
    assert "2026 edition" in english.splitlines()[-1]


def test_edition_after_round_and_wins_options(capsys: pytest.CaptureFixture[str]) -> None:
    def rows(*args: str) -> dict[int, dict[str, str]]:
        status, out, err = run(capsys, SMALL, "--format", "csv", *args)
        assert status == 0, err
        return {int(r["start_number"]): r for r in csv.DictReader(io.StringIO(out))}

    # player 4 had the pairing-allocated bye in round 5 with 3 points: its dummy counts
    # 3 (2024) or is capped at 5/2 (2026) — the TSVs say BH 16.5 and 16.0
    assert rows("--edition", "2024")[4]["BH"] == "16.5"
    assert rows()[4]["BH"] == "16.0"
    after3 = rows("--after-round", "3")
    t = load(SMALL)
    assert after3[1]["points"] == decimal_text(t[1].score(3), 1) == "2.5"
    assert after3[1]["BH"] == decimal_text(TieBreaks(t, rounds=3).buchholz(1), 1)
    won = rows("--wins", "WON")
    assert "WON" in won[7] and "WIN" not in won[7]
    assert (won[7]["WON"], rows()[7]["WIN"]) == ("0", "1")  # player 7's only win was the bye


def test_html_is_a_printable_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = SMALL.read_bytes().decode().replace("Test0001 Player0001", "Kowalski & <Syn>   ")
    path = tmp_path / "amp.trf"
    path.write_bytes(text.encode())
    status, out, _ = run(capsys, path, "--format", "html", "--lots", "2026-10-27")
    assert status == 0
    assert out.startswith("<!doctype html>") and '<html lang="pl">' in out
    assert out.count("<tr>") == 1 + 7
    assert "Kowalski &amp; &lt;Syn&gt;" in out and "<Syn>" not in out
    assert "<th>LOTS</th>" in out and "ziarnem: 2026-10-27</p>" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--tiebreaks", "BH,NOPE"], "--tiebreaks: unknown tie-break 'NOPE'"),
        (["--after-round", "6"], "--after-round 6: "),
        (["--after-round", "0"], "--after-round 0: "),
    ],
)
def test_bad_options_get_a_sentence(capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    status, out, err = run(capsys, SMALL, *args)
    assert (status, out) == (2, "")
    assert words in err and err[-1] == "\n"


def test_a_bad_file_gets_its_line_and_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = SMALL.read_bytes().decode().split("\r")
    lines[3] = lines[3][:96] + "x" + lines[3][97:]  # round 1 colour of player 3
    path = tmp_path / "bad.trf"
    path.write_bytes("\r".join(lines).encode())
    status, out, err = run(capsys, path)
    assert (status, out) == (2, "")
    assert f"{path}: line 4, column 97: round 1: expected a colour" in err
    status, _, err = run(capsys, tmp_path / "missing.trf")
    assert status == 2 and "missing.trf" in err


def test_byes_entered_in_advance_do_not_count_as_a_round_played() -> None:
    # t_0016 has half-point and zero-point byes known before their rounds were paired
    t = load(SWISS / "t_0016_p50_r8.trf")
    k = next(k for k in range(2, 9) if t.pairing_input(k).absences_known_before(k))
    before = t.pairing_input(k)
    assert before.rounds_played == k and before.rounds_paired == k - 1
    assert standings(before).rows == standings(t, rounds=k - 1).rows


def test_csv_names_never_reach_a_spreadsheet_as_formulas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = SMALL.read_bytes().decode("latin-1").split("\r")
    hostile = ['=HYPERLINK("http://x.pl","a")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]
    for i, name in enumerate(hostile, start=1):
        lines[i] = lines[i][:14] + name.ljust(33) + lines[i][47:]
    path = tmp_path / "hostile.trf"
    path.write_bytes("\r".join(lines).encode("latin-1"))
    status, out, _ = run(capsys, path, "--format", "csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert sorted(r["name"] for r in rows if r["name"].startswith("'")) == sorted("'" + n for n in hostile)
    assert all(Fraction(r["points"]) >= 0 and r["rank"].isdigit() for r in rows)  # numbers stay numbers
