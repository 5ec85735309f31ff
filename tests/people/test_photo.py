"""The photo contest's entries (§7, RULES.md §G): ``duelclock photo import ENTRIES.csv [--json]``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.photo import jury_result, read_entries

HEADER = [
    "Sygnatura czasowa",
    "Imię i nazwisko",
    "Adres e-mail",
    "Data urodzenia",
    "Obywatelstwo",
    "Tytuł zdjęcia",
    "Zdjęcie",
    "Data wykonania zdjęcia",
    "Czy na zdjęciu znajdują się pozujące osoby?",
    "Pisemne zgody osób pozujących (załącznik)",
    "Oświadczam, że zdjęcie jest moją własną pracą i mam do niego prawa autorskie",
    "Oświadczam, że nie użyłem generatywnego AI",
    "Wyrażam zgodę na nieodpłatną prezentację fotografii na wystawie podczas Pyrkonu 2027",
]


def row(
    sent: str,
    name: str = "Anna Kowalska",
    email: str = "anna@example.pl",
    born: str = "01.01.1990",
    *,
    citizenship: str = "polskie",
    photo: str = "https://drive.example/f1",
    taken: str = "20.06.2026",
    posing: str = "Nie",
    consents: str = "",
    own: str = "Tak",
    ai: str = "Tak",
    licence: str = "Tak",
) -> list[str]:
    return [sent, name, email, born, citizenship, "Puzzle", photo, taken, posing, consents, own, ai, licence]


ROWS = [
    row("19.06.2026 14:00:00"),  # 1: the first second of the window
    row("20.06.2026 10:00:00"),  # 2
    row("21.06.2026 10:00:00"),  # 3: her third
    row("22.06.2026 10:00:00"),  # 4: her fourth, refused
    row("25.06.2026 09:00:00", "Ola Lis", "ola@example.pl", "02.07.2008"),  # 5: 17 until 2 July
    row("30.06.2026 23:59:59", "Ewa Nowak", "ewa@example.pl"),  # 6: the last second
    row("01.07.2026 00:00:00", "Iga Wójcik", "iga@example.pl"),  # 7: too late
    row("26.06.2026 12:00:00", "Ela Mazur", "ela@example.pl", posing="Tak"),  # 8: posing, nothing attached
    row(
        "26.06.2026 12:05:00", "Ela Mazur", "ela@example.pl", posing="Tak", consents="https://drive.example/z"
    ),
    row("19.06.2026 13:59:59", "Jan Bąk", "jan@example.pl"),  # 10: before the opening
    row(
        "27.06.2026 12:00:00", "Piotr Zieliński", "piotr@example.pl", taken="18.06.2026"
    ),  # 11: before the festival
    row("27.06.2026 13:00:00", "Adam Kruk", "adam@example.pl", ai="Nie"),  # 12: AI not ruled out
    row("27.06.2026 14:00:00", "Olaf Sowa", "olaf@example.pl", citizenship="niemieckie"),  # 13
    row(
        "27.06.2026 15:00:00", "Kasia Wilk", "kasia@example.pl", born="01.07.2008"
    ),  # 14: 18 on 1 July? no: 17
]


def csv_text(rows: list[list[str]], sep: str = ";") -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=sep, lineterminator="\n").writerows([HEADER, *rows])
    return out.getvalue()


def test_each_entry_is_accepted_or_refused_as_the_rules_say() -> None:
    result = read_entries(csv_text(ROWS))
    refused = {r.line: r.code for r in result.refused}
    assert refused == {
        4: "photo.fourth",
        5: "photo.under-age",
        7: "photo.after-window",
        8: "photo.no-posing-consents",
        10: "photo.before-window",
        11: "photo.not-at-festival",
        12: "photo.generative-ai",
        13: "photo.not-polish",
        14: "photo.under-age",
    }
    accepted = {a.line: a.entry for a in result.accepted}
    assert sorted(accepted) == [1, 2, 3, 6, 9]
    assert sorted(accepted.values()) == [1, 2, 3, 4, 5]  # numbered in the order they were sent
    assert accepted[1] == 1 and accepted[6] == 5
    assert result.unchecked == ()


def test_the_fourth_is_the_fourth_sent_whatever_the_rows_order_and_a_refused_one_does_not_count() -> None:
    rows = [ROWS[3], ROWS[0], ROWS[2], ROWS[1]]  # the fourth sent is the first row
    assert [r.line for r in read_entries(csv_text(rows)).refused] == [1]
    late = row("01.07.2026 08:00:00")  # refused for lateness: her three others all stand
    assert [(r.line, r.code) for r in read_entries(csv_text([late, *ROWS[:3]])).refused] == [
        (1, "photo.after-window")
    ]


def test_the_form_s_own_time_zone_and_format_decide_the_window() -> None:
    # 21:59:59 UTC is 23:59:59 in Warsaw (CEST); 22:00:00 UTC is already 1 July there
    rows = [
        row("2026/06/30 9:59:59 PM GMT", "A B", "a@example.pl"),
        row("2026-06-30 22:00:00+00:00", "C D", "c@example.pl"),
        row("6/30/2026 23:59:59", "E F", "e@example.pl"),
    ]
    result = read_entries(csv_text(rows, ","))
    assert [a.line for a in result.accepted] == [1, 3] and [r.line for r in result.refused] == [2]


def test_the_cli_prints_the_json_shape_of_the_issue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "zgloszenia.csv"
    path.write_text(csv_text(ROWS), encoding="utf-8")
    assert main(["photo", "import", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"accepted", "refused"}
    assert out["accepted"][0] == {"line": 1, "entry": 1}
    fourth = next(r for r in out["refused"] if r["line"] == 4)
    assert set(fourth) == {"line", "code", "reason"} and fourth["code"] == "photo.fourth"
    assert "3" in fourth["reason"] and "§7.1.6" in fourth["reason"]
    assert main(["photo", "import", str(path)]) == 0
    text = capsys.readouterr().out
    assert "zgłoszenie 4: odrzucone" in text and "nr 1" in text


def test_a_cell_that_cannot_be_read_names_its_row_and_column_and_nothing_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = [ROWS[0], row("jutro"), row("20.06.2026 10:00:00", born="32.13.1990")]
    path = tmp_path / "zgloszenia.csv"
    path.write_text(csv_text(bad), encoding="utf-8")
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert main(["photo", "import", str(path), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"] == "photo.bad-file"
    assert "entry 2, column „Sygnatura czasowa”" in out["message"] and "jutro" in out["message"]
    assert "entry 3, column „Data urodzenia”" in out["message"]


def test_the_jury_sheet_shows_numbers_only_and_the_scores_give_a_winner_and_a_distinction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = tmp_path / "zgloszenia.csv"
    entries.write_text(csv_text(ROWS), encoding="utf-8")
    scores = tmp_path / "oceny.csv"
    scores.write_text("entry;Ala;Bartek\n1;7;8\n2;9;9\n3;5;5\n4;8;6\n5;6;6\n", encoding="utf-8")
    sheet, announce = tmp_path / "arkusz.html", tmp_path / "wyniki.txt"
    argv = ["photo", "jury", str(entries), "--jurors", "Ala,Bartek", "--html", str(sheet)]
    assert main([*argv, "--scores", str(scores), "--announce", str(announce)]) == 0
    page = sheet.read_text(encoding="utf-8")
    assert "Kowalska" not in page and "anna@example.pl" not in page and "Anna" not in page
    assert "zwycięzca" in page and "wyróżnienie" in page and "poufne" in page.lower()
    assert announce.read_text(encoding="utf-8").splitlines()[1:] == [
        "zwycięzca: zgłoszenie nr 2, Anna K.",
        "wyróżnienie: zgłoszenie nr 1, Anna K.",
    ]
    assert jury_result({1: {"a": 5}, 2: {"a": 5}, 3: {"a": 1}}).tied == (1, 2)


def test_an_english_form_with_declarations_as_ticks_reads_the_same_way() -> None:
    header = [
        "Timestamp",
        "First name",
        "Last name",
        "Email address",
        "Are you 18 or older?",
        "Citizenship",
        "Photo (upload)",
        "I declare the photo was taken at Pyrkon 2026 (19-21 June)",
        "Are there people posing in the photo?",
        "Written consents of the people posing (attach)",
        "I declare this is my own work",
        "Did you use generative AI?",
        "I agree to the exhibition licence (§7.1.13)",
    ]
    ok = ["Yes", "Polish", "https://x/1", "I declare", "No", "", "I declare", "No", "I agree"]
    rows = [
        ["2026/06/20 10:00:00 AM GMT+2", "Ann", "Smith", "ann@example.com", *ok],
        ["2026/06/20 11:00:00 AM GMT+2", "Bob", "Brown", "bob@example.com", "No", *ok[1:]],
        ["2026/06/20 12:00:00 PM GMT+2", "Cid", "Clay", "cid@example.com", *ok[:4], "Yes", "", *ok[6:]],
        ["2026/06/20 1:00:00 PM GMT+2", "Dee", "Dunn", "dee@example.com", *ok[:7], "Yes", ok[8]],
        ["2026/06/20 2:00:00 PM GMT+2", "Eve", "East", "eve@example.com", *ok[:3], "", *ok[4:]],
    ]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    result = read_entries(out.getvalue())
    assert [a.line for a in result.accepted] == [1]
    assert {r.line: r.code for r in result.refused} == {
        2: "photo.under-age",
        3: "photo.no-posing-consents",
        4: "photo.generative-ai",
        5: "photo.not-at-festival-declared",
    }
