"""``duelclock swiss new``, ``record`` and ``absent``: a group run round by round, as a
referee runs it, through the real command line."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from clockd.cli import build_parser, main
from clockd.core.swiss import trf
from clockd.core.swiss.model import Code, Colour, RoundEntry, Tournament, round1_no_shows
from tests.conftest import corpus_dir

Z = RoundEntry(None, None, Code.ZERO_BYE)


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def load(path: Path) -> Tournament:
    return trf.load_bytes(path.read_bytes())


# A registration file as a Polish spreadsheet saves it: semicolons, Windows-1250.
SIGNUPS = """Imię;Nazwisko;Ranking;Płeć;Rok urodzenia;Grupa;Szkoła
Jan;Kowalski;1450;M;2016;Klasa 3 chłopcy;SP 12
Piotr;Nowak;1380;chłopiec;2016;Klasa 3 chłopcy;SP 4
Adam;Wiśniewski;;M;2016;Klasa 3 chłopcy;SP 12
Michał;Wójcik;1380;M;2017;Klasa 3 chłopcy;SP 7
Anna;Żak;1300;K;2016;Klasa 3 dziewczęta;SP 4
Łukasz;Kamiński;1210;M;2016;Klasa 3 chłopcy;SP 4
Tomasz;Lewandowski;1500;M;2016;Klasa 3 chłopcy;SP 1
Zofia;Ćwik;1300;dziewczynka;2016-05-03;Klasa 3 dziewczęta;SP 1
Kacper;Zieliński;1100;M;2016;Klasa 3 chłopcy;SP 9
Szymon;Szymański;;M;2016;Klasa 3 chłopcy;SP 9
Jakub;Woźniak;1290;M;2016;Klasa 3 chłopcy;SP 1
Filip;Dąbrowski;1100;M;2016;Klasa 3 chłopcy;SP 7
Ewa;Adamska;0;K;2016;Klasa 3 dziewczęta;SP 9
Maria;Dudek;1300;K;2016;Klasa 3 dziewczęta;SP 4
"""

BOYS_IN_ORDER = [
    ("Lewandowski, Tomasz", 1500),
    ("Kowalski, Jan", 1450),
    ("Nowak, Piotr", 1380),  # N before W at the same rating
    ("Wójcik, Michał", 1380),
    ("Woźniak, Jakub", 1290),
    ("Kamiński, Łukasz", 1210),
    ("Dąbrowski, Filip", 1100),  # Dą before Zi
    ("Zieliński, Kacper", 1100),
    ("Szymański, Szymon", None),  # unrated last, alphabetically: S before W
    ("Wiśniewski, Adam", None),
]


def make_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Path:
    csv = tmp_path / "zapisy.csv"
    csv.write_bytes(SIGNUPS.encode("cp1250"))
    out = tmp_path / "grupy"
    code, _, err = run(capsys, "swiss", "new", csv, "-o", out, "--name", "Turniej", *extra)
    assert code == 0, err
    return out


# -- new ---------------------------------------------------------------------------------------


def test_new_makes_one_start_list_per_group_in_fide_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "zapisy.csv"
    csv.write_bytes(SIGNUPS.encode("cp1250"))
    out = tmp_path / "grupy"
    code, stdout, err = run(
        capsys, "swiss", "new", csv, "-o", out, "--name", "Turniej", "--date", "2026-09-01", "--rounds", "7"
    )
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["klasa-3-chlopcy.trf", "klasa-3-dziewczeta.trf"]
    assert "'Szkoła'" in stdout  # the column that was not used is named
    assert "10 players" in stdout and "4 players" in stdout

    boys = load(out / "klasa-3-chlopcy.trf")
    assert [(p.name, p.rating) for p in boys.players] == BOYS_IN_ORDER
    assert [p.start_number for p in boys.players] == list(range(1, 11))
    assert {p.sex for p in boys.players} == {"m"}
    assert boys.name == "Turniej - Klasa 3 chłopcy"
    assert str(boys.start_date) == "2026-09-01"
    assert boys.total_rounds == 7
    assert boys.rounds_played == 0

    girls = load(out / "klasa-3-dziewczeta.trf")
    # Equal ratings in the Polish alphabet: Ć between C and D (not after Z, as in Unicode),
    # Ż last; rating 0 is unrated, so after them.
    assert [p.name for p in girls.players] == ["Ćwik, Zofia", "Dudek, Maria", "Żak, Anna", "Adamska, Ewa"]
    assert [p.sex for p in girls.players] == ["w"] * 4
    assert girls.players[0].birth == "2016/05/03"
    assert girls.players[3].rating is None


def test_new_without_a_group_column_makes_one_list_named_after_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "Klasa 5.csv"
    csv.write_text("Name,Rating,FIDE ID,Federation\nJan Kowalski,1200,1234567,pol\nAnna Nowak,1300,,POL\n")
    code, stdout, _ = run(capsys, "swiss", "new", csv, "-o", tmp_path)
    assert code == 0
    assert "list: 2 players" in stdout
    t = load(tmp_path / "klasa-5.trf")
    assert [(p.name, p.fide_id, p.federation) for p in t.players] == [
        ("Nowak, Anna", "", "POL"),
        ("Kowalski, Jan", "1234567", "POL"),
    ]
    assert t.total_rounds == 8  # the default
    assert t.start_date is None


def test_new_names_every_bad_row_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "zapisy.csv"
    bad = SIGNUPS.replace("Piotr;Nowak;1380;chłopiec", "Piotr;Nowak;13x0;chłopiec").replace(
        "Anna;Żak;1300;K;", "Anna;Żak;1300;Q;"
    )
    bad += ";Bezimienny;1000;M;2016;Klasa 3 chłopcy;SP 1\n"
    csv.write_text(bad, encoding="utf-8")
    out = tmp_path / "grupy"
    code, stdout, err = run(capsys, "swiss", "new", csv, "-o", out)
    assert code == 2
    assert stdout == ""
    assert "zapisy.csv, line 3: rating '13x0' is not a number" in err
    assert "zapisy.csv, line 6: sex 'Q'" in err
    assert "zapisy.csv, line 16: no first name" in err
    assert "bad rows: 3; nothing was written" in err
    assert not out.exists()


def test_new_refuses_to_overwrite_a_group_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = make_groups(tmp_path, capsys)
    played = out / "klasa-3-chlopcy.trf"
    played.write_bytes(played.read_bytes() + b"### round 1 in progress\n")
    before = played.read_bytes()
    code, _, err = run(capsys, "swiss", "new", tmp_path / "zapisy.csv", "-o", out)
    assert code == 2
    assert "klasa-3-chlopcy.trf" in err and "--force" in err
    assert played.read_bytes() == before


def test_new_warns_that_a_group_over_250_may_be_split(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "duza.csv"
    rows = [f"Gracz{i:03d};Nazwisko{i:03d};{1000 + i};K;Klasa 1 dziewczęta" for i in range(251)]
    csv.write_text("Imię;Nazwisko;Ranking;Płeć;Grupa\n" + "\n".join(rows) + "\n")
    code, _, err = run(capsys, "swiss", "new", csv, "-o", tmp_path)
    assert code == 0
    assert "251 players" in err and "split by rating" in err
    t = load(tmp_path / "klasa-1-dziewczeta.trf")
    assert len(t) == 251  # not split


# -- a group round by round ----------------------------------------------------------------------


def pairs_of(path: Path) -> tuple[list[tuple[int, int]], int | None]:
    lines = path.read_text().split()
    numbers = list(map(int, lines[1:]))
    boards = list(zip(numbers[0::2], numbers[1::2], strict=True))
    bye = next((w for w, b in boards if b == 0), None)
    return [(w, b) for w, b in boards if b != 0], bye


def write_results(
    path: Path, boards: list[tuple[int, int]], bye: int | None, results: dict[int, str]
) -> None:
    """The pairing file with a result on each board (1-based board number → token; a board
    missing from ``results`` is left without one)."""
    lines = [str(len(boards) + (bye is not None))]
    for i, (w, b) in enumerate(boards, start=1):
        lines.append(f"{w} {b} {results[i]}" if i in results else f"{w} {b}")
    if bye is not None:
        lines.append(f"{bye} 0")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


EXPECTED_CODES = {
    "1-0": (Code.WIN, Code.LOSS),
    "0-1": (Code.LOSS, Code.WIN),
    "½-½": (Code.DRAW, Code.DRAW),
    "1/2-1/2": (Code.DRAW, Code.DRAW),
    "=": (Code.DRAW, Code.DRAW),
    "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    "-+": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
    "0-0": (Code.LOSS, Code.LOSS),
    None: (Code.LOSS, Code.LOSS),  # nothing reported: 0–0
}


def assert_recorded(
    t: Tournament, k: int, boards: list[tuple[int, int]], bye: int | None, results: dict[int, str]
) -> None:
    for i, (w, b) in enumerate(boards, start=1):
        white_code, black_code = EXPECTED_CODES[results.get(i)]
        assert t[w].entry(k) == RoundEntry(b, Colour.WHITE, white_code), (k, i)
        assert t[b].entry(k) == RoundEntry(w, Colour.BLACK, black_code), (k, i)
    if bye is not None:
        assert t[bye].entry(k) == RoundEntry(None, None, Code.PAIRING_BYE)
    for p in t.players:  # the points column is kept up to date
        assert p.points == p.score(t.rounds_paired)


def check_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path, k: int) -> None:
    """``swiss check`` on the group's file as it stands after round k: the rounds recorded so
    far, not the withdrawn players' ``0000 - Z`` entries for the rounds still to come."""
    code, out, _ = run(capsys, "swiss", "check", group)
    assert code == 0, out
    assert f"rounds checked: {k}, differing: 0" in out


def test_a_group_played_round_by_round_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = make_groups(tmp_path, capsys, "--rounds", "4")
    group = out / "klasa-3-chlopcy.trf"

    # Round 1: everyone on the start list is paired; two boys do not come.
    pairs = tmp_path / "r1.txt"
    assert run(capsys, "swiss", "pair", group, "-p", pairs)[0] == 0
    boards, bye = pairs_of(pairs)
    assert len(boards) == 5 and bye is None
    absent_black = boards[2][1]  # board 3: Black did not come
    absent_white = boards[3][0]  # board 4: White did not come
    r1 = {1: "1-0", 2: "0-1", 3: "+-", 4: "-+", 5: "½-½"}
    write_results(pairs, boards, bye, r1)
    code, stdout, err = run(capsys, "swiss", "record", group, pairs)
    assert code == 0, err
    assert "round 1 recorded" in stdout
    assert "differs" not in err
    assert (out / "klasa-3-chlopcy.trf.bak").exists()
    assert_recorded(load(group), 1, boards, bye, r1)

    # Before the round-2 pairings: the White of board 4 reported to the referee.
    code, stdout, err = run(capsys, "swiss", "absent", group, "--reported", str(absent_white))
    assert code == 0, err
    assert f"withdrawn (absent from round 1, '0000 - Z' to the end): {absent_black} " in stdout
    assert f"staying (they reported): {absent_white} " in stdout
    t = load(group)
    assert t[absent_black].rounds[1:] == (Z, Z, Z)
    assert t[absent_white].rounds[1:] == ()

    played: dict[int, tuple[list[tuple[int, int]], int | None, dict[int, str]]] = {}
    for k in (2, 3, 4):
        pairs = tmp_path / f"r{k}.txt"
        assert run(capsys, "swiss", "pair", group, "-p", pairs)[0] == 0
        boards, bye = pairs_of(pairs)
        placed = {n for board in boards for n in board} | {bye}
        assert absent_black not in placed
        assert absent_white in placed
        assert len(boards) == 4 and bye is not None  # nine players left
        # Board 2 of round 2 reports no result; the other tokens vary.
        results = {1: "1-0", 2: "0-1", 3: "=", 4: "1/2-1/2"}
        if k == 2:
            del results[2]
        if k == 3:
            results[2] = "0-0"
        write_results(pairs, boards, bye, results)
        code, stdout, err = run(capsys, "swiss", "record", group, pairs)
        assert code == 0, err
        assert "differs" not in err
        assert f"round {k} recorded" in stdout
        assert f"bye: {bye}" in stdout
        t = load(group)
        assert_recorded(t, k, boards, bye, results)
        assert t[absent_black].entry(k) == Z
        played[k] = (boards, bye, results)
        check_identical(tmp_path, capsys, group, k)
        if k == 2:
            w, b = boards[1]
            assert f"board 2 ({w}–{b}): no result reported → 0–0" in stdout
            assert "0–0 results: 1" in stdout
            assert t[w].entry(2) == RoundEntry(b, Colour.WHITE, Code.LOSS)
            assert t[b].entry(2) == RoundEntry(w, Colour.BLACK, Code.LOSS)

    # Every round still reads back as recorded, and the file pairs as the engine does.
    t = load(group)
    for k, (boards, bye, results) in played.items():
        assert_recorded(t, k, boards, bye, results)
    code, stdout, _ = run(capsys, "swiss", "check", group)
    assert code == 0
    assert "rounds checked: 4, differing: 0" in stdout
    code, stdout, _ = run(capsys, "swiss", "standings", group)
    assert code == 0
    assert "Standings after round 4" in stdout
    assert "Lewandowski, Tomasz" in stdout


# -- record: refusals and warnings -------------------------------------------------------------


@pytest.fixture
def group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The boys' group with its round-1 pairing in ``r1.txt``, no results yet."""
    out = make_groups(tmp_path, capsys)
    path = out / "klasa-3-chlopcy.trf"
    assert run(capsys, "swiss", "pair", path, "-p", tmp_path / "r1.txt")[0] == 0
    return path


def test_a_board_without_a_result_is_0_0_and_the_referee_is_told_in_polish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    boards, bye = pairs_of(tmp_path / "r1.txt")
    results = {1: "1-0", 2: "0-1", 4: "1:0", 5: "½–½"}  # board 3 reports nothing
    write_results(tmp_path / "r1.txt", boards, bye, results)
    code, stdout, _ = run(capsys, "swiss", "record", group, tmp_path / "r1.txt")
    assert code == 0
    w, b = boards[2]
    assert f"plansza 3 ({w}–{b}): brak zgłoszonego wyniku → 0–0" in stdout
    assert "runda 1 wpisana" in stdout
    lines = {p.start_number: p for p in load(group).players}
    assert str(lines[w].entry(1)) == f"{b:4d} w 0"
    assert str(lines[b].entry(1)) == f"{w:4d} b 0"
    assert lines[w].points == lines[b].points == 0


def test_a_bad_result_is_refused_with_its_line_and_column_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    before = group.read_bytes()
    results = tmp_path / "r1.txt"
    lines = results.read_text().splitlines()
    lines[2] += "  1-O"  # board 2, a letter O for a zero
    lines[4] += " 2-0"
    results.write_text("\n".join(lines) + "\n")
    code, stdout, err = run(capsys, "swiss", "record", group, results)
    assert code == 2
    assert stdout == ""
    column = len(lines[2]) - 2
    assert f"r1.txt, line 3, column {column}: '1-O' is not a result" in err
    assert f"r1.txt, line 5, column {len(lines[4]) - 2}: '2-0' is not a result" in err
    assert "nothing was written" in err
    assert group.read_bytes() == before
    assert not group.with_name(group.name + ".bak").exists()


def test_unknown_twice_and_missing_players_are_all_named_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    before = group.read_bytes()
    results = tmp_path / "bad.txt"
    # Player 10 is on no board, 3 plays twice, 42 does not exist.
    results.write_text("1 2 1-0\n3 4 0-1\n5 3 =\n6 42 1-0\n7 8 0-1\n")
    code, _, err = run(capsys, "swiss", "record", group, results)
    assert code == 2
    assert "bad.txt, line 3, column 3: player 3 appears a second time (first on line 2)" in err
    assert "bad.txt, line 4, column 3: there is no player with start number 42" in err
    assert "bad.txt: on no board and without the bye: 9, 10" in err
    assert group.read_bytes() == before


def test_a_hand_made_pairing_is_recorded_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    results = tmp_path / "hand.txt"
    results.write_text("1 2 1-0\n3 4 0-1\n5 6 =\n7 8 1-0\n9 10 0-1\n")  # no count line
    code, stdout, err = run(capsys, "swiss", "record", group, results, "-o", tmp_path / "out.trf")
    assert code == 0
    assert "round 1 recorded" in stdout
    assert "warning: round 1 differs from what 'duelclock swiss pair' pairs" in err
    assert "in the file: 1-2, 3-4, 5-6, 7-8, 9-10" in err
    t = load(tmp_path / "out.trf")
    assert t[1].entry(1) == RoundEntry(2, Colour.WHITE, Code.WIN)
    assert load(group).rounds_played == 0  # -o: the input is left alone


def test_a_recorded_round_is_replaced_only_when_asked_by_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    boards, bye = pairs_of(tmp_path / "r1.txt")
    write_results(tmp_path / "r1.txt", boards, bye, dict.fromkeys(range(1, 6), "1-0"))
    assert run(capsys, "swiss", "record", group, tmp_path / "r1.txt")[0] == 0
    recorded = group.read_bytes()

    # The same file again: it would be round 2, a copy of round 1 — refused.
    code, _, err = run(capsys, "swiss", "record", group, tmp_path / "r1.txt")
    assert code == 2
    assert "these are the boards of round 1, already recorded" in err
    code, _, err = run(capsys, "swiss", "record", group, tmp_path / "r1.txt", "--round", "1")
    assert code == 2
    assert "round 1 is already recorded; to replace it give --round 1 --replace" in err
    assert group.read_bytes() == recorded

    write_results(tmp_path / "r1.txt", boards, bye, dict.fromkeys(range(1, 6), "0-1"))
    code, stdout, _ = run(capsys, "swiss", "record", group, tmp_path / "r1.txt", "--round", "1", "--replace")
    assert code == 0
    assert "round 1 recorded" in stdout
    w, b = boards[0]
    assert load(group)[b].entry(1) == RoundEntry(w, Colour.BLACK, Code.WIN)
    assert group.with_name(group.name + ".bak").read_bytes() == recorded


def test_a_round_cannot_be_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path) -> None:
    code, _, err = run(capsys, "swiss", "record", group, tmp_path / "r1.txt", "--round", "2")
    assert code == 2
    assert "round 1 comes before 2" in err


# -- absent ------------------------------------------------------------------------------------


def test_absent_withdraws_exactly_the_no_shows_who_did_not_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    code, _, err = run(capsys, "swiss", "absent", group)
    assert code == 2
    assert "round 1 is not recorded yet" in err

    boards, bye = pairs_of(tmp_path / "r1.txt")
    # Board 1: Black forfeits; board 2: White forfeits; board 3: neither came.
    results = {1: "+-", 2: "-+", 3: "--", 4: "1-0", 5: "0-1"}
    write_results(tmp_path / "r1.txt", boards, bye, results)
    assert run(capsys, "swiss", "record", group, tmp_path / "r1.txt")[0] == 0
    no_shows = {boards[0][1], boards[1][0], *boards[2]}
    reported = boards[2][0]
    before = group.read_bytes()

    code, stdout, err = run(capsys, "swiss", "absent", group, "--reported", f"{reported}")
    assert code == 0, err
    t = load(group)
    assert set(round1_no_shows(t)) == no_shows
    withdrawn = {p.start_number for p in t.players if p.entry(2) == Z}
    assert withdrawn == no_shows - {reported}
    for sn in withdrawn:
        assert t[sn].rounds[1:] == (Z,) * 7  # rounds 2..8
    for p in t.players:
        if p.start_number not in withdrawn:
            assert len(p.rounds) == 1
    assert group.with_name(group.name + ".bak").read_bytes() == before
    assert "withdrawn" in stdout and f"staying (they reported): {reported} " in stdout

    pairs = tmp_path / "r2.txt"
    assert run(capsys, "swiss", "pair", group, "-p", pairs)[0] == 0
    boards2, bye2 = pairs_of(pairs)
    placed = {n for board in boards2 for n in board} | {bye2}
    assert placed.isdisjoint(withdrawn)
    assert placed == set(t.start_numbers) - withdrawn

    # Once round 2 is recorded the rule no longer applies.
    write_results(pairs, boards2, bye2, dict.fromkeys(range(1, len(boards2) + 1), "1-0"))
    assert run(capsys, "swiss", "record", group, pairs)[0] == 0
    code, _, err = run(capsys, "swiss", "absent", group)
    assert code == 2
    assert "round 2 is already paired" in err


def test_a_player_withdrawn_by_mistake_is_reinstated_when_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group: Path
) -> None:
    boards, bye = pairs_of(tmp_path / "r1.txt")
    write_results(tmp_path / "r1.txt", boards, bye, {1: "+-", 2: "1-0", 3: "1-0", 4: "1-0", 5: "1-0"})
    assert run(capsys, "swiss", "record", group, tmp_path / "r1.txt")[0] == 0
    late = boards[0][1]
    assert run(capsys, "swiss", "absent", group)[0] == 0
    assert load(group)[late].entry(2) == Z
    code, stdout, _ = run(capsys, "swiss", "absent", group, "--reported", str(late))
    assert code == 0
    assert f"reinstated (withdrawn earlier): {late} " in stdout
    assert load(group)[late].rounds[1:] == ()
    code, _, err = run(capsys, "swiss", "absent", group, "--reported", "99")
    assert code == 2
    assert "no players with start numbers 99" in err


def test_absent_on_a_school_group_writes_what_the_event_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A corpus school group taken back to the moment before the round-2 pairings: round 1
    recorded, round-2 byes already requested, the no-shows not yet withdrawn. ``absent``
    (with the no-shows who came back as reported — none do in these files) must write
    exactly the event's ``0000 - Z`` entries, and round 2 then pairs as the event did."""
    for source in sorted((corpus_dir() / "swiss" / "school").glob("*.trf")):
        event = load(source)
        no_shows = round1_no_shows(event)
        came_back = [sn for sn in no_shows if event[sn].entry(2) != Z]
        before_round2 = event.pairing_input(2)
        before_round2 = before_round2.with_players(
            p.with_rounds(p.rounds[:1]) if p.start_number in no_shows else p for p in before_round2.players
        )
        path = tmp_path / source.name
        path.write_bytes(trf.dump_bytes(before_round2))

        args: list[str | Path] = ["swiss", "absent", path]
        if came_back:
            args += ["--reported", ",".join(map(str, came_back))]
        code, _, err = run(capsys, *args)
        assert code == 0, err
        after = load(path)
        for sn in no_shows:
            assert after[sn].rounds == event[sn].rounds, (source.name, sn)

        pairs = tmp_path / f"{source.stem}.r2.txt"
        assert run(capsys, "swiss", "pair", path, "-p", pairs)[0] == 0
        boards, bye = pairs_of(pairs)
        recorded, recorded_bye = event.pairings(2)
        assert sorted(boards) == sorted((b.white, b.black) for b in recorded), source.name
        assert bye == recorded_bye


# -- help ----------------------------------------------------------------------------------------


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise KeyError(name)


def _help_texts(lang: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("DUELCLOCK_LANG", lang)
    swiss = _subcommand(build_parser(), "swiss")
    texts: dict[str, str] = {}
    for action in swiss._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.dest in ("new", "record", "absent"):
                    texts[f"{choice.dest}: help"] = str(choice.help)
    for command in ("new", "record", "absent"):
        parser = _subcommand(swiss, command)
        texts[f"{command}: description"] = str(parser.description)
        for action in parser._actions:
            if not isinstance(action, argparse._HelpAction):
                texts[f"{command} {action.dest}"] = str(action.help)
    return texts


def test_every_help_text_of_the_round_commands_is_in_polish(monkeypatch: pytest.MonkeyPatch) -> None:
    polish = _help_texts("pl", monkeypatch)
    english = _help_texts("en", monkeypatch)
    assert polish.keys() == english.keys()
    assert len(polish) > 15
    same = [key for key in polish if polish[key] == english[key]]
    assert same == []


def test_new_reads_the_registration_forms_own_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "Klasa 3.csv"
    csv.write_text(
        "Imię i nazwisko zawodnika;Imię i nazwisko opiekuna;Płeć;Ranking\n"
        "Jan Kowalski;Anna Kowalska;M;1200\nPiotr Nowak;Ewa Nowak;M;\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "swiss", "new", csv, "-o", tmp_path)
    assert code == 0, err
    t = load(tmp_path / "klasa-3.trf")
    assert [p.name for p in t.players] == ["Kowalski, Jan", "Nowak, Piotr"]  # the child's, not the guardian's
