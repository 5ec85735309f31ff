"""Issue 18, item 3: the imports a day needs, through the daemon as the referee runs them.

A later export of the same form is imported again (rows recognised, new ones in the order
sent, changes shown, nothing lost); a 480-row export of about 75 kB imports; a file with
one row in another encoding is refused naming that row, in Polish.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main

HEADER = "Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Telefon;Wiek;Zgoda na przetwarzanie danych osobowych\n"


def row(i: int, *, email: str | None = None) -> str:
    minute, second = divmod(5 + 11 * i, 60)
    hour, minute = divmod(minute, 60)
    stamp = f"06.06.2026 {12 + hour}:{minute:02d}:{second:02d}"
    mail = email or f"osoba{i}@example.pl"
    return f"{stamp};Osoba{i:03d};Nazwisko{i:03d};{mail};600{i:06d};{18 + i % 40};Tak, zgadzam się\n"


def cli(desk: Any, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.client.token or ""]
    status = main([*argv, *conn])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_later_export_joins_the_lists_without_losing_or_moving_anyone(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    first = tmp_path / "zapisy-1.csv"
    first.write_text(HEADER + "".join(row(i) for i in range(1, 21)), encoding="utf-8")
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    assert cli(desk, capsys, "tournament", "import", str(first))[0] == 0
    before = {p.id: (p.name, p.list) for p in desk.session().players}

    later = [row(i) for i in range(1, 24) if i != 7]  # 3 new rows; row 7 deleted from the sheet
    later[1] = row(2, email="nowy-adres@example.pl")  # Osoba002 typed a new e-mail address
    random.Random(3).shuffle(later)  # the sheet was sorted by someone
    second = tmp_path / "zapisy-2.csv"
    second.write_text(HEADER + "".join(later), encoding="utf-8")
    status, out, err = cli(desk, capsys, "tournament", "import", str(second))
    assert status == 0, err
    after = {p.id: (p.name, p.list) for p in desk.session().players}
    assert {pid: after[pid] for pid in before} == before  # nobody moved, nobody lost (7 stays)
    new = sorted(set(after) - set(before))
    assert [after[p][0] for p in new] == ["Osoba021 N.", "Osoba022 N.", "Osoba023 N."]  # in the order sent
    assert [after[p][1] for p in new] == ["reserve"] * 3
    assert "rozpoznano 19 wierszy" in out
    assert (
        "Nowe zgłoszenia, w kolejności wysłania: Osoba021 N. (21), Osoba022 N. (22), Osoba023 N. (23)" in out
    )
    assert "Zmienione w nowym pliku: Osoba002 N. (2) — e-mail" in out and "nowy-adres" not in out
    assert "Brak w nowym pliku, nadal na listach: Osoba007 N. (7)" in out

    status, out, err = cli(desk, capsys, "tournament", "import", str(second))  # the same file again
    assert status == 0 and "rozpoznano 22 wiersze" in out and "w kolejności wysłania: —" in out
    assert len(desk.session().players) == 23


def test_a_480_row_export_of_75_kb_imports(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    big = tmp_path / "zapisy.csv"
    comment = ";" + "Chętnie wezmę udział w pojedynku, to moje pierwsze zawody puzzlowe!"
    body = "".join(row(i).rstrip("\n") + comment + "\n" for i in range(1, 481))
    big.write_text(HEADER.rstrip("\n") + ";Uwagi\n" + body, encoding="utf-8")
    assert big.stat().st_size > 75_000
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "import", str(big))
    assert status == 0, err
    players = desk.session().players
    assert len([p for p in players if p.list == "main"]) == 16 and len(players) == 32
    assert "Traceback" not in out + err


def test_one_row_in_another_encoding_is_refused_naming_that_row_in_polish(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    mixed = tmp_path / "zapisy.csv"
    rows = [row(i).replace(f"Osoba{i:03d}", f"Łucja{i:03d}").encode("utf-8") for i in range(1, 31)]
    rows[11] = row(12).replace("Osoba012", "Żaneta").encode("cp1250")  # typed in on a Polish Windows
    mixed.write_bytes(HEADER.encode("utf-8") + b"".join(rows))
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "import", str(mixed))
    assert status == 2 and out == ""
    assert "wiersz 13" in err and "nie jest w UTF-8 jak reszta pliku" in err and "wiersz 1:" not in err
    assert desk.session().players == []  # nothing imported half-way
