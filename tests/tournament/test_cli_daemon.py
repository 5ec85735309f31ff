"""``duelclock tournament …`` against a running daemon: the referee's commands from the README."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.clock import Side
from clockd.core.units import SECOND
from clockd.reports.results import Results, check_results

from .conftest import T0, Desk

CSV = "Imię;Nazwisko;E-mail;Wiek\n" + "".join(
    f"Gracz{i};Nazwisko{i};g{i}@example.pl;{20 + i}\n" for i in range(1, 21)
)


def cli(desk: Desk, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port)]
    mutating = argv[1] not in ("show", "export")
    token = ["--token", desk.client.token or ""]  # the referee's, as daemon.json gives it (reads too)
    status = main([*argv, *conn, *token, *(["--by", "Sędzia B"] if mutating else [])])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_referee_runs_a_session_from_the_command_line(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    assert cli(desk, capsys, "tournament", "import", str(csv))[0] == 0
    assert cli(desk, capsys, "tournament", "checkin", *[str(p) for p in range(1, 17) if p != 4], "17")[0] == 0
    status, out, _ = cli(desk, capsys, "tournament", "close")
    assert status == 0
    status, out, _ = cli(desk, capsys, "tournament", "draw", "--seed", "99")
    assert status == 0
    status, out, _ = cli(desk, capsys, "tournament", "show")
    assert status == 0 and "R1-8" in out and "R5-1" in out and "Nazwisko" not in out
    status, out, err = cli(desk, capsys, "tournament", "assign", "R1-1", "2")
    assert status == 0, err
    m = desk.match("R1-1")
    assert cli(desk, capsys, "tournament", "toss", "R1-1", str(m.a))[0] == 0
    desk.press(2, Side.B, T0)
    desk.at(T0 + 12 * SECOND)
    status, out, _ = cli(desk, capsys, "tournament", "complete", "R1-1")
    assert status == 0 and "9:48 | 10:00" in out  # A's time ran 12 s; B's never did
    assert cli(desk, capsys, "tournament", "confirm", "R1-1")[0] == 0
    status, _, err = cli(desk, capsys, "tournament", "confirm", "R1-1")
    assert status == 2 and "nie ma wyniku do zatwierdzenia" in err  # the daemon's reason, in Polish
    status, _, _ = cli(
        desk, capsys, "tournament", "walkover", "R1-2", str(desk.match("R1-2").a), "--reason", "absent"
    )
    assert status == 0
    out_json = tmp_path / "r.json"
    status, out, _ = cli(
        desk, capsys, "tournament", "export", "--json", str(out_json), "--csv", str(tmp_path / "r.csv")
    )
    assert status == 0
    results = Results.model_validate(json.loads(out_json.read_text()))
    assert check_results(results) == []
    r11 = next(x for x in results.matches if x.id == "R1-1")
    assert r11.winner == m.b and r11.decided_by == "time"
    assert "R1-2" in (tmp_path / "r.csv").read_text()


def test_the_import_names_each_refused_sign_up_and_why(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    rows = CSV + "Ewa;Młoda;ewa@example.pl;12\nGracz3;Nazwisko3;g3@example.pl;23\n"
    csv.write_bytes(rows.encode("cp1250"))  # saved by a spreadsheet on a Polish Windows
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "import", str(csv))
    assert status == 0, err
    assert "wiersz 22: Ewa M. — poniżej minimalnego wieku 13 lat (§1.9)" in out
    assert (
        "wiersz 23: Gracz3 N. — to samo imię, nazwisko i e-mail co w wierszu 4; każdy zgłasza się raz (§1.14)"
        in out
    )
    assert "Młoda" not in out and " 12" not in out.split("Odrzucone")[1]  # no surname, no age
    status, out, _ = cli(desk, capsys, "tournament", "show")
    assert status == 0 and out.count("wiersz 2") == 2 and "Ewa M." in out


def test_without_a_session_key_the_command_asks_for_one_when_there_are_two(
    open_desk: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    cli(desk, capsys, "tournament", "new", "pt")
    cli(desk, capsys, "tournament", "new", "sb")
    status, _, err = cli(desk, capsys, "tournament", "close")
    assert status != 0 and "pt" in err and "sb" in err
    status, _, _ = cli(desk, capsys, "tournament", "show", "-s", "sb")
    assert status == 0


def test_each_player_argument_names_its_role_and_the_gui_s_words(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18, item 6: ``walkover --absent``, ``override``/``toss --winner``; the help says which."""
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    for argv in (("new", "pt"), ("import", str(csv)), ("checkin", *map(str, range(1, 17))), ("close",)):
        assert cli(desk, capsys, "tournament", *argv)[0] == 0
    assert cli(desk, capsys, "tournament", "draw", "--seed", "5")[0] == 0
    r11, r12 = desk.match("R1-1"), desk.match("R1-2")
    status, _, err = cli(desk, capsys, "tournament", "toss", "R1-1", str(r11.b), "--winner", str(r11.a))
    assert status == 2 and "podaj numer jednego zawodnika: --winner N" in err
    assert desk.match("R1-1").toss_winner is None
    status, _, err = cli(
        desk, capsys, "tournament", "walkover", "R1-2", "--absent", str(r12.a), "--reason", "x"
    )
    assert status == 0, err
    assert desk.match("R1-2").winner == r12.b  # the one named absent did not advance
    with pytest.raises(SystemExit):
        main(["tournament", "walkover", "--help"])
    assert "NIE przyszedł" in capsys.readouterr().out


def test_the_referee_works_with_names_check_in_close_toss_and_status(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18, item 5: names where the referee works, one numbering with the GUI."""
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    assert cli(desk, capsys, "tournament", "import", str(csv))[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "checkin", "Gracz2 N", "gracz3", "4")
    assert status == 0, err
    assert "2: Gracz2 N." in out and "3: Gracz3 N." in out and "4: Gracz4 N." in out
    status, _, err = cli(desk, capsys, "tournament", "checkin", "gracz1")  # Gracz1, Gracz10 … Gracz19
    assert status == 2 and "„gracz1” pasuje do kilku zawodników" in err and "Gracz1 N. (1)" in err
    status, _, err = cli(desk, capsys, "tournament", "checkin", "Zofia")
    assert status == 2 and "imię żadnego zawodnika nie zaczyna się od „Zofia”" in err
    others = [str(p) for p in range(5, 17)] + ["17"]  # 1 is absent: reserve 17 takes the seat
    assert cli(desk, capsys, "tournament", "checkin", *others)[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "close")
    assert status == 0, err
    assert "Gracz17 N. (17) zajmuje miejsce: Gracz1 N. (1) (lista rezerwowa po kolei, §1.18)" in out
    assert cli(desk, capsys, "tournament", "draw", "--seed", "5")[0] == 0
    assert cli(desk, capsys, "tournament", "assign", "R1-1", "2")[0] == 0
    m = desk.match("R1-1")
    names = desk.session().names()
    status, out, _ = cli(desk, capsys, "tournament", "toss", "R1-1", "--winner", str(m.a))
    assert status == 0
    winner, loser = f"{names[m.a]} ({m.a})", f"{names[m.b]} ({m.b})"
    assert f"rzut wygrał(a) {winner}: {loser} uruchamia zegar" in out
    status = main(["status", "--host", "127.0.0.1", "--port", str(desk.daemon.port)])
    out = capsys.readouterr().out
    assert status == 0
    row = next(line for line in out.splitlines() if line.startswith("2 "))
    assert f"{names[m.a]} 10:00" in row and f"{names[m.b]} 10:00" in row and "R1-1" in row
