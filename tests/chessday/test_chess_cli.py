"""The arbiters' commands against a real daemon (``duelclock chess …``), and the whole day's demo."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.chessday.roster import ChessDay, Officials
from clockd.service.runtime import Daemon, TableSpec
from tests.chessday.conftest import roster


@pytest.fixture
def daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A daemon on a free port; the connection options every command takes."""
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    d = Daemon(
        tmp_path / "szachy.db", tables=[TableSpec(1, "Szachownica 1")], port=0, write_daemon_info=False
    )
    started = d.start()
    yield ["--port", str(started.port), "--token", started.token]
    d.stop()


def day_file(tmp_path: Path) -> Path:
    day = ChessDay(
        title="Turniej", rounds=2, groups=(roster(7, key="sp3-ch"), roster(6, key="sp4-ch", grade=4))
    )
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_day_from_import_to_export(tmp_path: Path, daemon: list[str], capsys: Any) -> None:
    status, out, _ = run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)
    assert status == 0
    assert "sp3-ch: Klasa 3, chłopcy, zawodników: 7, szachownice 1–4" in out
    assert "sp4-ch: Klasa 4, chłopcy, zawodników: 6, szachownice 5–7" in out
    status, out, err = run(capsys, "chess", "pair", *daemon)
    assert status == 0 and "Skojarzono grup: 2: sp3-ch, sp4-ch" in out and "2/2" in err  # the progress bar
    status, out, _ = run(capsys, "chess", "post", "sp4-ch", "-o", str(tmp_path / "wywieszki"), *daemon)
    assert status == 0
    posted = (tmp_path / "wywieszki" / "sp4-ch-runda-1.html").read_text(encoding="utf-8")
    assert (
        "Kojarzenia rundy 1" in posted and "szachownice 5–7" in posted and "Szkoła Podstawowa nr 2" in posted
    )
    assert "example.pl" not in posted and "2017" not in posted
    assert (tmp_path / "wywieszki" / "sp4-ch-runda-1.pdf").read_bytes().startswith(b"%PDF")
    status, out, _ = run(capsys, "chess", "result", "5", "1", *daemon)  # board 5 is sp4-ch's first
    assert status == 0 and "szachownica 5:" in out and "1-0" in out and "(sp4-ch)" in out
    status, _, err = run(capsys, "chess", "result", "5", "=", "--by", "Piotr", *daemon)
    assert status == 2 and "ma już wynik 1-0" in err
    status, _, err = run(capsys, "chess", "result", "9", "1", *daemon)
    assert status == 2 and "żadna grupa nie gra na szachownicy 9" in err and "sp3-ch 1–4" in err
    status, out, err = run(capsys, "chess", "close", "--all", *daemon)
    assert status == 0 and "sp3-ch: runda 1 zamknięta; 0–0 (bez zgłoszonego wyniku): 1, 2, 3" in out
    status, out, _ = run(capsys, "chess", "standings", "sp4-ch", *daemon)
    header = out.splitlines()[1].split()
    assert header == ["Nr", "Pkt", "BH-C1", "BH", "SB", "PS", "DE", "WIN", "BWG", "Los"]  # §H's order
    status, out, _ = run(capsys, "chess", "export", "--all", "-o", str(tmp_path / "trf"), *daemon)
    assert status == 0
    status, out, _ = run(capsys, "swiss", "check", str(tmp_path / "trf" / "sp4-ch.trf"))
    assert status == 0 and "różnych: 0" in out
    text = (tmp_path / "trf" / "sp4-ch.trf").read_text(encoding="utf-8")
    assert "2017/03/04" not in text and "example.pl" not in text  # no birth dates, no e-mails


def test_vega_style_entry_from_the_keyboard(
    tmp_path: Path, daemon: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)
    run(capsys, "chess", "pair", *daemon)
    monkeypatch.setattr("sys.stdin", io.StringIO("1 1\n2=\n6+\nu\n77 1\nq\n"))
    status, out, _ = run(capsys, "chess", "enter", *daemon)
    assert status == 0
    lines = out.splitlines()
    assert any("szachownica 1:" in x and "1-0" in x for x in lines)
    assert any("szachownica 2:" in x and "½-½" in x for x in lines)
    assert any("szachownica 6: wynik cofnięty (sp4-ch)" in x for x in lines)
    assert any("szachownicy 77" in x for x in lines)
    status, out, _ = run(capsys, "chess", "pairings", "sp3-ch", "--json", *daemon)
    boards = {b["board"]: b["result"] for b in json.loads(out)}
    assert boards[1] == "1-0" and boards[2] == "½-½"
    status, out, _ = run(capsys, "chess", "pairings", "sp4-ch", "--json", *daemon)
    assert {b["board"]: b["result"] for b in json.loads(out)}[6] is None


def test_short_names_on_request(tmp_path: Path, daemon: list[str], capsys: Any) -> None:
    run(capsys, "chess", "import", str(day_file(tmp_path)), "--public-names", "short", *daemon)
    run(capsys, "chess", "pair", *daemon)
    status, out, _ = run(capsys, "chess", "pairings", "sp3-ch", "--json", *daemon)
    assert status == 0
    names = {b["white"]["name"] for b in json.loads(out)}
    assert names and all(n.endswith(".") and len(n.split()[-1]) == 2 for n in names)  # "Jan N."


def test_english_on_request(
    tmp_path: Path, daemon: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    status, out, _ = run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)
    assert "sp3-ch: Grade 3, boys, 7 players, boards 1–4" in out
    status, _, err = run(capsys, "chess", "close", "sp3-ch", *daemon)
    assert status == 2 and "no round is being played" in err


def test_a_bad_day_file_is_refused_naming_where(tmp_path: Path, daemon: list[str], capsys: Any) -> None:
    bad = tmp_path / "zly.json"
    bad.write_text('{"groups": [{"key": "x", "level": "kosmos", "sex": "m"}]}', encoding="utf-8")
    status, _, err = run(capsys, "chess", "import", str(bad), *daemon)
    assert status == 2 and "zly.json" in err and "groups.0.level" in err
    status, out, _ = run(capsys, "chess", "status", *daemon)
    assert "nie ma grup szachowych" in out  # nothing half-imported


@pytest.mark.slow
def test_the_demo_day_checks_out_with_the_swiss_commands(tmp_path: Path, capsys: Any) -> None:
    status, out, _ = run(
        capsys, "demo", "--event", "chess", "--seed", "1", "--chess-players", "200", "--rounds", "3",
        "--trf-dir", str(tmp_path / "trf"),
    )  # fmt: skip
    assert status == 0, out
    assert "grup 20, z różnicami: 0" in out
    files = sorted((tmp_path / "trf").glob("*.trf"))
    assert len(files) == 20
    for f in files[:3]:
        assert main(["swiss", "check", str(f)]) == 0


def test_a_day_with_a_group_too_small_to_play_is_imported_whole_or_not_at_all(
    tmp_path: Path, daemon: list[str], capsys: Any
) -> None:
    day = ChessDay(
        groups=(roster(7, key="sp3-ch"), roster(1, key="sp4-ch", grade=4), roster(1, key="sp5-ch", grade=5))
    )
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    status, _, err = run(capsys, "chess", "import", str(path), *daemon)
    assert status == 2 and "nic nie zaimportowano" in err
    assert "grupa sp4-ch ma zawodników: 1" in err and "grupa sp5-ch ma zawodników: 1" in err  # each named
    status, out, _ = run(capsys, "chess", "status", *daemon)
    assert "nie ma grup szachowych" in out  # not even the group that could play


def test_the_exported_trf_has_the_header_a_rating_officer_needs(
    tmp_path: Path, daemon: list[str], capsys: Any
) -> None:
    day = ChessDay(
        title="Szachowy Spodek",
        date="2026-10-27",
        rounds=2,
        officials=Officials(place="Katowice", chief_arbiter="Anna Sędzia", deputy_arbiters=("Jan Pomocny",)),
        groups=(roster(7, key="sp3-ch"),),
    )
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    assert run(capsys, "chess", "import", str(path), *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    for board in (1, 2, 3):
        assert run(capsys, "chess", "result", str(board), "1", *daemon)[0] == 0
    assert run(capsys, "chess", "close", "--all", *daemon)[0] == 0
    assert run(capsys, "chess", "export", "sp3-ch", "-o", str(tmp_path / "trf") + "/", *daemon)[0] == 0
    lines = (tmp_path / "trf" / "sp3-ch.trf").read_text(encoding="utf-8").splitlines()
    head = {line[:3]: line[4:] for line in lines if line[:3] != "001"}
    assert head["012"] == "Szachowy Spodek — Klasa 3, chłopcy"
    assert head["022"] == "Katowice" and head["032"] == "POL"
    assert head["042"] == head["052"] == "2026/10/27"
    assert head["062"] == "7" and head["102"] == "Anna Sędzia" and head["112"] == "Jan Pomocny"
    assert head["122"] == "10'"
    dates = next(line for line in lines if line.startswith("132"))
    assert dates[91:99] == "26/10/27" and dates[101:109] == "26/10/27"  # above each round's column
    status, out, _ = run(capsys, "swiss", "check", str(tmp_path / "trf" / "sp3-ch.trf"))
    assert status == 0 and "różnych: 0" in out
