"""``duelclock tournament`` commands that work on files alone (no daemon)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.puzzle_duel import MakeDraw, PuzzleSession
from clockd.core.registration import CheckIn, CloseCheckIn, parse_signups
from clockd.data import festival_config

CSV = "Imię;Nazwisko;Adres e-mail;Telefon;Wiek\n" + "".join(
    f"Osoba{i};Prywatna{i};o{i}@example.pl;6001002{i:02d};{11 + i}\n" for i in range(1, 40)
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_signups_shows_the_lists_by_display_name_and_the_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "zapisy.csv"
    path.write_text(CSV, encoding="utf-8")
    status, out, _ = run(["tournament", "signups", str(path), "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert len(data["lists"]["main"]) == 16 and len(data["lists"]["reserve"]) == 16
    assert data["lists"]["main"][0] == {"id": 1, "name": "Osoba2 P."}  # Osoba1 is 12: refused
    reasons = [(r["line"], r["reason"]) for r in data["refused"]]
    assert reasons[0] == (2, "under-age") and reasons.count((2, "under-age")) == 1
    assert sum(1 for _, r in reasons if r == "over-limit") == 38 - 32
    assert "Prywatna" not in out and "example.pl" not in out


def test_signups_with_a_bad_row_names_it_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "zapisy.csv"
    path.write_text(CSV.replace("o5@example.pl", "o5-example.pl"), encoding="utf-8")
    status, out, err = run(["tournament", "signups", str(path)], capsys)
    assert status == 2 and out == ""
    assert "wiersz 6" in err and "o5-example.pl" in err


def test_redraw_gives_the_bracket_the_session_drew(capsys: pytest.CaptureFixture[str]) -> None:
    session = PuzzleSession.new(festival_config(), "pt").import_signups(parse_signups(CSV))
    for event in [*(CheckIn(player=p) for p in range(1, 14)), CloseCheckIn(), MakeDraw(seed=424242)]:
        session = session.apply(event)
    assert session.bracket is not None
    players = ",".join(str(p) for p in reversed(range(1, 14)))
    status, out, _ = run(["tournament", "redraw", "--seed", "424242", "--players", players], capsys)
    assert status == 0
    data = json.loads(out)
    assert {int(k): v for k, v in data["lines"].items()} == session.bracket.draw.lines
    assert data["byes"] == [2, 10, 14]


def test_config_names_a_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "turniej.toml"
    path.write_text("players = 12\n[[rounds]]\nname='I'\nplayers=12\npieces=99\ntime_per_side='10m'\n")
    status, _, err = run(["tournament", "config", "--config", str(path)], capsys)
    assert status == 2 and "turniej.toml" in err and "potęgą dwójki" in err  # Polish unless DUELCLOCK_LANG=en


def test_english_mode_translates_round_and_session_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18, item 11: the festival's rounds and sessions read in the reader's language."""
    from clockd.i18n import set_language

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    set_language(None)
    try:
        status, out, _ = run(["tournament", "config"], capsys)
    finally:
        monkeypatch.delenv("DUELCLOCK_LANG")
        set_language(None)
    assert status == 0
    assert "Round II — Quarter-final" in out and "Round V — Final: 2 players" in out
    assert "Session pt: Friday 19.06, 15:00–17:30" in out
    assert "runda" not in out and "Piątek" not in out and "knockout" in out and "third_place" not in out
    status, out, _ = run(["tournament", "config"], capsys)
    assert "II runda — Ćwierćfinał" in out and "Piątek 19.06, 15:00–17:30" in out and "(pucharowa)" in out
