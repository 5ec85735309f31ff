"""Files as other programs publish them: FIDE's TRF16 example, Lichess exports.

Their date lines (``042 28. 07. 2005``, ``042 May 10, 2020``) are read; a date that cannot
be read is reported and the tie-breaks go on with a named edition. The pairings expected
here were worked out by hand and are what bbpPairings gives for the same files.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.model import parse_date


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def _player(sn: int, rating: int, points: str, *entries: str) -> str:
    name = f"Player{sn:04d}".ljust(33)
    line = f"001 {sn:4d}      {name} {rating:4d}{' ' * 28}{points:>4} {sn:>4}"
    return line + "".join("  " + e for e in entries)


def _file(date: str) -> str:
    """Four players after round 1 (1 beat 3, 4 beat 2 with Black), three rounds, ``date``."""
    return "\n".join(
        [
            "012 Open",
            f"042 {date}",
            "XXR 3",
            _player(1, 2200, "1.0", "   3 w 1"),
            _player(2, 2100, "0.0", "   4 w 0"),
            _player(3, 2000, "0.0", "   1 b 0"),
            _player(4, 1900, "1.0", "   2 b 1"),
        ]
    )


@pytest.mark.parametrize(
    "text",
    [
        "2005/07/28",  # TRF
        "2005-07-28",  # ISO
        "2005-07-28T09:30:00Z",  # ISO with a time
        "2005.07.28",
        "28/07/2005",
        "28.07.2005",
        "28. 07. 2005",  # FIDE's TRF16 example
        "28-07-2005",
        "Jul 28, 2005",  # Lichess
        "July 28, 2005",
        "28 Jul 2005",
        "07/28/2005",  # month first: the only reading with a 28th month ruled out
    ],
)
def test_every_date_form_of_real_files_is_read(text: str) -> None:
    assert parse_date(text) == datetime.date(2005, 7, 28)
    assert trf.loads(_file(text)).start_date == datetime.date(2005, 7, 28)


@pytest.mark.parametrize("text", ["next tuesday", "2005/13/45", "31.02.2005", "Smarch 3, 2005", "28.07.05"])
def test_what_is_not_a_date_is_not_guessed(text: str) -> None:
    t = trf.loads(_file(text))
    assert t.start_date is None
    assert t.unreadable_start_date == text


def test_the_trf16_example_date_pairs_and_ranks_with_the_2024_edition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "fide.trf"
    path.write_text(_file("28. 07. 2005") + "\n")
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(path), "-p", str(out)]) == 0
    # 1 and 4 lead with a point (1 had White, 4 Black: 4 gets White); 2 and 3 (2 had White).
    assert out.read_text() == "2\n4 1\n3 2\n"
    assert main(["swiss", "standings", str(path)]) == 0
    captured = capsys.readouterr()
    assert "2024 edition (in force on the event's date of start)" in captured.out
    assert captured.err == ""


def test_an_unreadable_date_is_named_and_the_standings_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.trf"
    path.write_text(_file("Spring 2026") + "\n")
    assert main(["swiss", "pair", str(path)]) == 0  # the pairing does not need the date
    capsys.readouterr()
    assert main(["swiss", "standings", str(path)]) == 0
    captured = capsys.readouterr()
    warning = captured.err.strip()
    assert len(warning.splitlines()) == 1
    assert f"{path}, line 2" in warning and "'Spring 2026' cannot be read" in warning
    assert "2026 edition" in warning and "--edition" in warning
    assert "2026 edition (the file's date of start cannot be read)" in captured.out
    # --edition chooses, and then there is nothing to warn about
    assert main(["swiss", "standings", str(path), "--edition", "2024"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "2024 edition (as chosen)" in captured.out
