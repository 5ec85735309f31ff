"""What the referee reads at a sign-up import names the right rows (issue 26, item 5).

The refusal of a file in two encodings names only the rows in the other one (a header with
typographic quotes „…” is UTF-8 like the rest); "wiersz" or "wiersze" as many as are named;
a later export's refusals carry that file's lines; a main-list sign-up with no e-mail
address is warned about. Through the real daemon, as ``duelclock tournament import``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_reimport import HEADER, cli, row

QUOTED = HEADER.replace("przetwarzanie danych osobowych", "„przetwarzanie danych osobowych”")


def test_a_header_with_typographic_quotes_is_not_taken_for_another_encoding(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    rows = [row(i).replace(f"Osoba{i:03d}", f"Łucja{i:03d}").encode() for i in range(1, 6)]
    rows[3] = row(4).replace("Osoba004", "Żaneta").encode("cp1250")  # line 5, typed in on a Polish Windows
    mixed = tmp_path / "zapisy.csv"
    mixed.write_bytes(QUOTED.encode() + b"".join(rows))
    status, _, err = cli(desk, capsys, "tournament", "import", str(mixed))
    assert status == 2
    assert "wiersz 5: ten wiersz nie jest w UTF-8" in err
    assert "wiersz 1:" not in err and "(wiersze 1, 2, 3…)" in err  # the header is UTF-8 like the rest

    one = tmp_path / "jeden.csv"  # one UTF-8 row beside one in Windows-1250: "wiersz", not "wiersze"
    plain = HEADER.replace("Imię", "Imie")  # a header of plain letters: neither encoding's
    one.write_bytes(plain.encode() + row(1).replace("Osoba", "Łucja").encode() + row(2).encode("cp1250"))
    status, _, err = cli(desk, capsys, "tournament", "import", str(one))
    assert status == 2 and "wiersz 3: ten wiersz nie jest w UTF-8 jak reszta pliku (wiersz 2)" in err
    assert desk.session().players == []


def test_a_later_exports_refusals_name_its_own_lines(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    child = row(5).replace(";23;", ";12;")  # Osoba005 is 12: refused (§1.9)
    first = tmp_path / "zapisy-1.csv"
    first.write_text(HEADER + row(1) + row(2) + row(3) + row(4) + child, encoding="utf-8")
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    status, out, _ = cli(desk, capsys, "tournament", "import", str(first))
    assert status == 0 and "wiersz 6: Osoba005 N." in out
    later = tmp_path / "zapisy-2.csv"  # the sheet sorted by someone: the child's row is line 2 now
    later.write_text(HEADER + child + row(4) + row(3) + row(2) + row(1) + row(6), encoding="utf-8")
    status, out, err = cli(desk, capsys, "tournament", "import", str(later))
    assert status == 0, err
    assert "wiersz 2: Osoba005 N." in out and "wiersz 6: Osoba005" not in out
    assert "rozpoznano 4 wiersze" in out  # not "4 wierszy": the catalogue's Polish plural
    refused = desk.session().refusals
    assert [(r.line, r.name) for r in refused] == [(2, "Osoba005 N.")]


def test_a_main_list_sign_up_without_an_e_mail_is_warned_about(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    rows = [row(i) for i in range(1, 21)]
    rows[2] = rows[2].replace("osoba3@example.pl", "")  # line 4, on the main list
    rows[18] = rows[18].replace("osoba19@example.pl", "")  # line 20, a reserve: not warned
    signups = tmp_path / "zapisy.csv"
    signups.write_text(HEADER + "".join(rows), encoding="utf-8")
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    status, out, err = cli(desk, capsys, "tournament", "import", str(signups))
    assert status == 0, err
    warning = out.split("Uwaga: na liście głównej bez adresu e-mail", 1)[1]
    assert "wiersz 4: Osoba003 N. (3)" in warning and "Osoba019" not in warning
