"""``duelclock swiss pair`` and ``swiss check`` as a referee runs them."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.model import Tournament
from tests.conftest import corpus_dir

SMALL = corpus_dir() / "swiss" / "t_0003_p9_r6.trf"


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def _input_for_round(tmp_path: Path, source: Path, k: int) -> tuple[Path, Tournament]:
    t = trf.load_bytes(source.read_bytes())
    path = tmp_path / f"round{k}.trf"
    path.write_bytes(trf.dump_bytes(t.pairing_input(k)))
    return path, t


def test_pair_writes_the_recorded_round_in_the_engines_format(tmp_path: Path) -> None:
    path, t = _input_for_round(tmp_path, SMALL, 4)
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(path), "-p", str(out)]) == 0
    lines = out.read_text().splitlines()
    boards, bye = t.pairings(4)
    assert int(lines[0]) == len(boards) + 1
    pairs = [tuple(map(int, line.split())) for line in lines[1:]]
    assert sorted(p for p in pairs if p[1] != 0) == sorted((b.white, b.black) for b in boards)
    assert [p[0] for p in pairs if p[1] == 0] == [bye]
    assert pairs[-1] == (bye, 0)  # the bye line comes last, "S 0"


def test_pair_prints_to_standard_output_without_p(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _input_for_round(tmp_path, SMALL, 2)
    assert main(["swiss", "pair", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "5"


def test_check_reports_every_round_identical_on_a_reference_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["swiss", "check", str(SMALL)]) == 0
    out = capsys.readouterr().out
    assert "rounds checked: 6, differing: 0" in out


def test_check_names_a_round_that_differs_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = trf.load_bytes(SMALL.read_bytes())
    # Swap the colours of one board of round 4: the file no longer is what the rules give.
    boards, _ = t.pairings(4)
    white, black = boards[0].white, boards[0].black
    players = []
    for p in t.players:
        if p.start_number in (white, black):
            e = p.entry(4)
            assert e.colour is not None
            p = p.with_entry(4, type(e)(e.opponent, e.colour.opposite, e.code))
        players.append(p)
    bad = tmp_path / "swapped.trf"
    bad.write_bytes(trf.dump_bytes(t.with_players(players)))
    assert main(["swiss", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "round 4: DIFFERS" in out
    assert f"recorded: {black} - {white}" in out
    assert f"paired:   {white} - {black}" in out


def test_malformed_trf_is_one_sentence_with_its_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.trf"
    text = SMALL.read_bytes().decode().split("\r")
    text[3] = text[3][:91] + "   x w 1" + text[3][99:]
    bad.write_text("\r".join(text))
    assert main(["swiss", "pair", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("duelclock swiss pair:")
    assert "line 4" in err and "column" in err
    assert len(err.splitlines()) == 1


def test_nothing_to_pair_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.trf"
    empty.write_text("012 Nobody here\nXXR 5\n")
    assert main(["swiss", "pair", str(empty)]) == 2
    assert "no players to pair" in capsys.readouterr().err


def test_a_missing_number_of_rounds_is_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = trf.load_bytes(SMALL.read_bytes())
    path = tmp_path / "noxxr.trf"
    path.write_bytes(trf.dump_bytes(t.truncated(3)))
    assert main(["swiss", "pair", str(path)]) == 2
    assert "XXR" in capsys.readouterr().err
    assert main(["swiss", "pair", str(path), "--rounds", "6", "-p", str(tmp_path / "o")]) == 0


def _fake_engine(tmp_path: Path, body: str) -> Path:
    """A stand-in for an installed pairing program: a script taking bbpPairings' arguments."""
    script = tmp_path / "engine"
    script.write_text(f"#!{sys.executable}\nimport sys\nargs = sys.argv[1:]\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_engine_option_hands_the_pairing_to_the_other_program(tmp_path: Path) -> None:
    path, _ = _input_for_round(tmp_path, SMALL, 4)
    engine = _fake_engine(
        tmp_path,
        (
            "assert args[0] == '--dutch' and args[2] == '-p'\n"
            "assert open(args[1], 'rb').read().startswith(b'012')\n"
            "open(args[3], 'w').write('2\\n7 3\\n5 0\\n')"
        ),
    )
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(path), "-p", str(out), "--engine", str(engine)]) == 0
    assert out.read_text() == "2\n7 3\n5 0\n"


def test_a_failing_engine_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _input_for_round(tmp_path, SMALL, 4)
    engine = _fake_engine(tmp_path, "print('No valid pairing exists', file=sys.stderr); sys.exit(1)")
    assert main(["swiss", "pair", str(path), "--engine", str(engine)]) == 2
    err = capsys.readouterr().err
    assert "failed" in err and "No valid pairing exists" in err
