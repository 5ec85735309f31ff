"""Files as other programs publish them: FIDE's TRF16 example, Lichess exports.

Their date lines (``042 28. 07. 2005``, ``042 May 10, 2020``) are read; a date that cannot
be read is reported and the tie-breaks go on with a named edition; Lichess's entries with a
blank opponent field (absent, late, bye) and its ``0000   -`` for a player who will miss the
next round are read as what they are. The pairings expected here were worked out by hand
and are what bbpPairings gives for the same files.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.model import Code, RoundEntry, parse_date


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


# A Lichess export (its columns: the name from column 16, right-aligned opponent, colour and
# result, blank where there was no pairing), after round 2 of 5. dave (4) and frank (6) were
# absent in rounds 1 and 2 and are marked absent for round 3 (``0000   -``); alice (1) took a
# half-point bye in round 2, heidi (8) in round 1; erin (5) had the pairing-allocated bye.
# alice and bob must not meet (XXP, Lichess's forbidden pairings).
LICHESS = """\
012 Lichess Swiss Test
022 https://lichess.org/swiss/abcd1234
032 Lichess
042 May 10, 2020
052 \n\
062 8
092 Individual: Swiss-System
102 https://lichess.org/swiss
XXR 5
XXC white1
XXP 1 2
001    1       alice                            2100                             1.5          5 w 1         H
001    2       bob                              2050                             2.0          6 b 1     7 w 1
001    3       carol                            2000                             1.0          7 w =     8 b =
001    4       dave                             1950                             0.0              -         -  0000   -
001    5       erin                             1900                             1.0          1 b 0         U
001    6       frank                            1850                             0.0          2 w 0         -  0000   -
001    7       grace                            1800                             0.5          3 b =     2 b 0
001    8       heidi                            1750                             1.0              H     3 w =
"""  # noqa: E501 — a Lichess line is as long as its rounds


def test_a_lichess_export_is_read_entry_by_entry() -> None:
    t = trf.loads(LICHESS)
    assert t.start_date == datetime.date(2020, 5, 10)
    assert t[1].name == "alice" and t[1].rating == 2100
    assert t[1].entry(2) == RoundEntry(None, None, Code.HALF_BYE)  # blank opponent, "H"
    assert t[4].entry(1) == RoundEntry(None, None, Code.FORFEIT_LOSS)  # blank opponent, "-"
    assert t[5].entry(2) == RoundEntry(None, None, Code.PAIRING_BYE)  # blank opponent, "U"
    assert t[6].entry(3).is_absence  # "0000   -": absent from the next round
    assert t.rounds_paired == 2
    assert [t[sn].score() for sn in range(1, 9)] == [1.5, 2, 1, 0, 1, 0, 0.5, 1]


def test_a_lichess_round_pairs_as_bbppairings(tmp_path: Path) -> None:
    path = tmp_path / "lichess.trf"
    path.write_text(LICHESS)
    out = tmp_path / "pairs.txt"
    assert main(["swiss", "pair", str(path), "-p", str(out)]) == 0
    # dave and frank are not paired (with each other or anyone): six players, no bye.
    # bob (2.0) may not meet alice (1.5), so both go down: bob meets erin, alice carol.
    assert out.read_text() == "3\n5 2\n3 1\n7 8\n"
