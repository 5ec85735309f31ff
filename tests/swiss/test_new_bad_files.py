"""``duelclock swiss new`` on files that are not what they should be: a sentence naming the line
(Polish by default), nothing written, never a traceback — and a NUL never reaches a TRF."""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.csvtext import MAX_CSV_BYTES
from clockd.core.swiss import trf

HEADER = "Imię;Nazwisko;Ranking;Grupa\n"


def new(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> tuple[int, str]:
    path = tmp_path / "zapisy.csv"
    path.write_bytes(data)
    code = main(["swiss", "new", str(path), "-o", str(tmp_path / "out")])
    return code, capsys.readouterr().err


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def test_a_10_mb_cell_is_named_by_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = (HEADER + "Jan;" + "K" * 10_000_000 + ";1500;A\nAnna;Nowak;1400;A\n").encode()
    code, err = new(tmp_path, capsys, data)
    assert code == 2
    assert "zapisy.csv, line 2: a cell longer than 131072 characters" in err
    assert not (tmp_path / "out").exists()


def test_a_file_too_big_to_be_a_registration_list_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = "Jan;Kowalski;1500;A\n"
    code, err = new(tmp_path, capsys, (HEADER + row * (MAX_CSV_BYTES // len(row) + 1)).encode())
    assert code == 2 and "is it the right file?" in err and "Traceback" not in err


def test_a_group_larger_than_trf_start_numbers_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = "".join(f"Jan{i};Kowalski{i};;A\n" for i in range(10_000))
    code, err = new(tmp_path, capsys, (HEADER + rows).encode())
    assert code == 2 and "has 10000 players; TRF holds at most 9999 start numbers" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("cell", "char"), [("An\x00na", "U+0000"), ('"An\nna"', "U+000A"), ("An\tna", "U+0009")]
)
def test_a_control_character_in_a_name_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cell: str, char: str
) -> None:
    text = HEADER + "Jan;Kowalski;1500;A\n" + f"{cell};Nowak;1400;A\n"
    code, err = new(tmp_path, capsys, text.replace(";", ",").encode())  # commas: a tab may sit in a cell
    assert code == 2 and "line 3: " in err and f"control character ({char})" in err
    assert not (tmp_path / "out").exists()


def test_one_row_in_another_encoding_is_refused_naming_that_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    utf8 = (HEADER + "Anna;Wiśniewska;1400;A\nOla;Żółć;1300;A\n").encode()
    code, err = new(tmp_path, capsys, utf8 + "Jan;Wiśniewski;1500;A\n".encode("cp1250"))
    assert code == 2
    assert "zapisy.csv, wiersz 4: inne kodowanie znaków niż reszta pliku" in err
    assert not (tmp_path / "out").exists()


def test_a_whole_windows_1250_file_is_still_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = (HEADER + "Jan;KRÓŁ;1500;A\nOla;Żółć;1300;A\n").encode("cp1250")  # "ÓŁ" is valid UTF-8 (Cyrillic)
    code, _ = new(tmp_path, capsys, data)
    assert code == 0
    names = [p.name for p in trf.load_bytes((tmp_path / "out" / "a.trf").read_bytes()).players]
    assert names == ["KRÓŁ, Jan", "Żółć, Ola"]


def test_a_nul_in_a_trf_name_is_refused_with_its_line_and_column(tmp_path: Path) -> None:
    line = "001    1      " + "Kowal\x00ski, Jan".ljust(33) + " 1500"
    with pytest.raises(
        trf.TrfError, match=r"line 2, column 20: the name contains a control character \(U\+0000\)"
    ):
        trf.loads("012 Turniej\n" + line + "\n")
