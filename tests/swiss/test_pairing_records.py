"""The lines besides the players that change a pairing: applied as bbpPairings applies them,
or refused with their line and column.

``data/`` holds tournaments bbpPairings itself generated with such lines in force
(accelerations, forbidden pairs, ``XXC rank``; see ``data/README.md``): every round of them is
re-paired here from the rounds before it and must be what bbpPairings paired.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import ZERO_BYE_ENTRY, Record, Tournament
from clockd.core.swiss.records import RecordError, baku_acceleration, pairing_records
from clockd.core.swiss.standings import standings

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*.trf"))


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def _load(path: Path) -> Tournament:
    return trf.load_bytes(path.read_bytes())


def _cases() -> list[tuple[Path, int]]:
    return [(path, k) for path in FILES for k in range(2, _load(path).rounds_paired + 1)]


def test_the_reference_files_are_all_there() -> None:
    assert [p.name for p in FILES] == [
        "baku_192_p64_r6.trf",
        "baku_xxa_p100_r8.trf",
        "xxa_xxp_260_p99_r8.trf",
        "xxc_rank_p75_r11.trf",
    ]


@pytest.mark.parametrize(
    ("path", "round_number"), _cases(), ids=lambda v: v.name if isinstance(v, Path) else f"round{v}"
)
def test_round_is_paired_as_bbppairings_paired_it_with_the_lines_in_force(
    path: Path, round_number: int
) -> None:
    t = _load(path)
    result = pair_round(t.pairing_input(round_number))
    boards, bye = t.pairings(round_number)
    assert sorted(result.boards) == sorted((b.white, b.black) for b in boards)
    assert result.bye == bye


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_check_finds_every_round_identical_round_one_included(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["swiss", "check", str(path)]) == 0
    rounds = _load(path).rounds_paired
    assert f"rounds checked: {rounds}, differing: 0" in capsys.readouterr().out


def _without(t: Tournament, *codes: str) -> Tournament:
    return Tournament(t.players, tuple(r for r in t.records if r.code not in codes), t.layout)


def test_the_lines_change_the_pairing() -> None:
    # Without its XXA/XXP/260 lines the same history pairs otherwise: they are not decoration.
    t = _load(DATA / "xxa_xxp_260_p99_r8.trf")
    plain = _without(t, "XXA", "XXP", "260")
    differing = [
        k
        for k in range(2, t.rounds_paired + 1)
        if pair_round(t.pairing_input(k)).boards != pair_round(plain.pairing_input(k)).boards
    ]
    assert differing


def test_acceleration_counts_for_pairing_only_never_for_the_standings() -> None:
    t = _load(DATA / "baku_xxa_p100_r8.trf")
    assert len(t.record_values("XXA")) == 50
    assert standings(t).rows == standings(_without(t, "XXA")).rows
    assert all(p.points == p.score() for p in t.players)  # the points column has no virtual points


def _start_list(n: int, rounds: int) -> Tournament:
    lines = ["012 Accelerated", f"XXR {rounds}", "XXC white1"]
    lines += [f"001 {sn:4d}      {'P' + str(sn):33} {2500 - sn:4d}{' ' * 28} 0.0" for sn in range(1, n + 1)]
    return trf.loads("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("players", "rounds", "group_a", "values"),
    [
        (10, 9, 6, ["1.0", "1.0", "1.0", "0.5", "0.5"]),  # C.04.5.1's nine rounds: 1 in 1-3, ½ in 4-5
        (161, 8, 82, ["1.0", "1.0", "0.5", "0.5"]),  # C.04.5.1's example: 80.5 rounded up to even
        (12, 5, 6, ["1.0", "1.0", "0.5"]),
        (7, 7, 4, ["1.0", "1.0", "0.5", "0.5"]),
    ],
)
def test_baku_acceleration_is_written_as_c_04_5_1_says(
    players: int, rounds: int, group_a: int, values: list[str]
) -> None:
    t = baku_acceleration(_start_list(players, rounds))
    lines = t.record_values("XXA")
    assert len(lines) == group_a
    assert [line.split()[0] for line in lines] == [str(sn) for sn in range(1, group_a + 1)]
    assert all(line.split()[1:] == values for line in lines)
    # written in the columns bbpPairings and this program read them from
    assert trf.dumps(t).splitlines()[3] == "XXA    1" + "".join(f" {v:>4}" for v in values)
    accelerations = pairing_records(trf.loads(trf.dumps(t))).accelerations
    assert accelerations[1] == tuple(2 if v == "1.0" else 1 for v in values)
    assert group_a + 1 not in accelerations


def test_new_with_baku_acceleration_pairs_group_a_apart_in_round_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path = tmp_path / "ten.csv"
    csv_path.write_text(
        "Name,Rating\n" + "".join(f"Player {chr(65 + i)},{2000 - 10 * i}\n" for i in range(10))
    )
    assert (
        main(["swiss", "new", str(csv_path), "-o", str(tmp_path), "--rounds", "9", "--acceleration", "baku"])
        == 0
    )
    assert "Baku acceleration: group A is start numbers 1–6" in capsys.readouterr().out
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(tmp_path / "ten.trf"), "-p", str(out)]) == 0
    # Group A (1-6) has a virtual point: 1-3 against 4-6; group B (7-10): 7-8 against 9-10.
    # Without it round 1 would be 1-6 against 7-10.
    assert out.read_text() == "5\n1 4\n5 2\n3 6\n7 9\n10 8\n"


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    """``swiss pair`` on a small file with ``extra`` lines after its headers: exit 2, and the
    one sentence it says."""
    t = _load(DATA / "baku_192_p64_r6.trf").truncated(2)
    records = [r for r in t.records if r.code != "192"]
    records[1:1] = [Record(text, 0) for text in extra]
    path = tmp_path / "bad.trf"
    path.write_bytes(trf.dump_bytes(Tournament(t.players, tuple(records), t.layout)))
    assert main(["swiss", "pair", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"duelclock swiss pair: {path}: line ")
    return err


@pytest.mark.parametrize(
    ("line", "where", "words"),
    [
        ("XXS WW=1 BW=1 WD=0.5 BD=0.5 W=3", "column 29", "point system"),
        ("XXS WW=1 XX=2", "column 10", "not a scoring rule"),
        ("162  W 3.0    D 1.0", "column 6", "point system"),
        ("BBW  3.0", "column 5", "point system"),
        ("299 some points", "column 1", "otherwise than by the results"),
        ("013 Team A    1    2", "column 1", "team tournaments"),
        ("192 FIDE_DUBOV_2025", "column 5", "not the FIDE Dutch system"),
        ("XXA   99  1.0", "column 5", "no player with start number 99"),
        ("XXA    1  0.3", "column 10", "only whole and half points"),
        ("XXA    1 1.0 1.0", "column 15", "unexpected"),
        (
            "XXA    1  1.0  1.0  1.0  1.0  1.0  1.0  1.0",
            "column 1",
            "accelerations for 7 rounds; the event has 6",
        ),
        ("XXP 1 two", "column 7", "expected start numbers"),
        ("260   3   1    1    2", "column 5", "not a range of rounds"),
        ("250      1.0   1   2    1   70", "column 1", "expected points"),
        ("152 X", "column 5", "expected W or B"),
    ],
)
def test_a_line_that_would_change_the_pairing_and_cannot_be_applied_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str, words: str
) -> None:
    err = _refused(tmp_path, capsys, line)
    assert f"line 2, {where}: {line[:3]}: " in err, err
    assert words in err


def test_standard_point_system_lines_are_accepted(tmp_path: Path) -> None:
    t = _load(DATA / "baku_192_p64_r6.trf").truncated(2)
    extra = [
        "XXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=1",
        "162  W 1.0    D 0.5",
        "BBD  0.5",
    ]
    with_lines = Tournament(t.players, t.records + tuple(Record(x, len(t.players)) for x in extra), t.layout)
    assert pair_round(with_lines) == pair_round(t)


def test_byes_entered_as_240_lines_are_absences(tmp_path: Path) -> None:
    t = _load(DATA / "xxa_xxp_260_p99_r8.trf")
    k = 4
    before = t.pairing_input(k)
    absent = [p.start_number for p in before.players if before[p.start_number].entry(k).is_blank][:3]
    # the same three players absent: by 0000 - Z in round k, or listed in a 240 line for it
    by_entries = before.with_players(
        p.with_entry(k, ZERO_BYE_ENTRY) if p.start_number in absent else p for p in before.players
    )
    line = f"240 Z {k:3d}" + "".join(f" {sn:4d}" for sn in absent)
    by_line = Tournament(before.players, (*before.records, Record(line, len(before.players))), before.layout)
    assert pairing_records(by_line).byes == {k: frozenset(absent)}
    paired = pair_round(by_line)
    assert paired == pair_round(by_entries)
    assert not {sn for board in paired.boards for sn in board} & set(absent)


def test_a_record_error_names_line_and_column() -> None:
    t = _start_list(4, 3)
    bad = Tournament(t.players, (*t.records, Record("XXA    7  1.0", 0)), t.layout)
    with pytest.raises(RecordError) as caught:
        pairing_records(bad)
    assert (caught.value.line, caught.value.column) == (4, 5)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_bbppairings_wrote_reads_back_byte_for_byte(path: Path) -> None:
    assert trf.dump_bytes(_load(path)) == path.read_bytes()
