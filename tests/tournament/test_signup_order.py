"""Issue 18, items 1–2: the lists follow the form's timestamps, and duplicates are people.

Sign-up files are written as Google Forms exports are (the responses' download in English,
the sheet in a Polish or a US locale), then read through ``duelclock tournament signups``
with the festival's own configuration (§1.11: sign-ups open 06.06.2026, 12:00 Warsaw).
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.formtime import FormTimeError, parse_form_time
from clockd.core.registration import SignupError, parse_signups

HEADER = "Sygnatura czasowa,Imię,Nazwisko,Adres e-mail,Telefon,Wiek\n"


def rows(n: int) -> list[str]:
    """``n`` sign-ups a second apart from the opening, in the English download's format."""
    out = []
    for i in range(n):
        minute, second = divmod(3 + 7 * i, 60)
        stamp = f"2026/06/06 12:{minute:02d}:{second:02d} PM CEST"
        surname = "ZYXWVUTSRQPONMLKJIHGFEDCBA"[i % 26] + f"ski{i}"
        out.append(f"{stamp},Osoba{i:02d},{surname},o{i}@example.pl,6001002{i:02d},{20 + i % 30}\n")
    return out


def signups(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict | None, str, str]:
    status = main(["tournament", "signups", str(path), "--json"])
    out, err = capsys.readouterr()
    return status, json.loads(out) if status == 0 else None, out, err


def test_a_sheet_sorted_by_surname_gives_the_same_lists_as_the_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    form = rows(40)
    by_surname = sorted(form, key=lambda r: r.split(",")[2])
    assert by_surname != form
    shuffled = form[:]
    random.Random(7).shuffle(shuffled)
    results = []
    for name, body in (("form", form), ("surname", by_surname), ("shuffled", shuffled)):
        path = tmp_path / f"{name}.csv"
        path.write_text(HEADER + "".join(body), encoding="utf-8")
        status, data, _, err = signups(path, capsys)
        assert status == 0, err
        results.append((data["lists"], [r["reason"] for r in data["refused"]]))
    assert results[0] == results[1] == results[2]
    main_list = [p["name"] for p in results[0][0]["main"]]
    assert main_list[:3] == ["Osoba00 Z.", "Osoba01 Y.", "Osoba02 X."]  # the first forms sent
    assert results[0][1] == ["over-limit"] * 8


@pytest.mark.parametrize(
    "stamp",
    [
        "2026/06/06 12:00:03 PM CEST",
        "2026/06/06 12:00:03 PM GMT+2",
        "06.06.2026 12:00:03",
        "6/6/2026 12:00:03",
        "2026-06-06 12:00:03",
        "2026-06-06T10:00:03Z",
    ],
)
def test_every_locale_of_the_export_reads_the_same_instant(stamp: str) -> None:
    assert parse_form_time(stamp) == datetime(2026, 6, 6, 10, 0, 3, tzinfo=UTC)


def test_the_zone_in_the_cell_wins_and_a_bare_time_is_warsaw() -> None:
    assert parse_form_time("2026/06/06 11:00:03 AM GMT+1") == parse_form_time("06.06.2026 12:00:03")
    assert parse_form_time("2026/06/06 12:00:03 AM CEST").hour == 22  # midnight, the day before in UTC
    assert parse_form_time("15.01.2026 12:00:00").hour == 11  # winter time: CET
    for bad in ("2026/06/06 13:00:03 PM", "jutro w południe", "31.02.2026 12:00:00", "2026/06/06 12:00 XYZ"):
        with pytest.raises(FormTimeError):
            parse_form_time(bad)


def test_a_uk_sheet_is_read_day_first_when_a_row_says_so() -> None:
    head = "Sygnatura czasowa,Imię,Nazwisko,Wiek\n"
    text = head + "7/6/2026 12:00:05,Anna,Późna,20\n13/6/2026 12:00:00,Ewa,Późniejsza,20\n"
    result = parse_signups(text)
    assert [s.person.first_name for s in result.accepted] == ["Anna", "Ewa"]  # 7 June before 13 June
    us = head + "6/7/2026 12:00:05,Anna,Lipcowa,20\n6/6/2026 12:00:00,Ewa,Czerwcowa,20\n"
    assert [s.person.first_name for s in parse_signups(us).accepted] == ["Ewa", "Anna"]  # month first


def test_a_sign_up_before_the_opening_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    early = "06.06.2026 11:59:58,Zbyt,Wczesna,zw@example.pl,600999888,30\n"
    path = tmp_path / "zapisy.csv"
    path.write_text(HEADER + early + "".join(rows(3)), encoding="utf-8")
    status, data, _, err = signups(path, capsys)
    assert status == 0, err
    assert [p["name"] for p in data["lists"]["main"]] == ["Osoba00 Z.", "Osoba01 Y.", "Osoba02 X."]
    assert [(r["line"], r["reason"]) for r in data["refused"]] == [(2, "before-opening")]
    assert main(["tournament", "signups", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "wiersz 2: Zbyt W. — wysłane 06.06.2026 11:59:58, przed otwarciem zapisów (06.06.2026 12:00, §1.11)"
        in out
    )


def test_an_unreadable_timestamp_is_an_error_naming_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = rows(4)
    body[2] = body[2].replace("2026/06/06 12:00:17 PM CEST", "wczoraj")
    path = tmp_path / "zapisy.csv"
    path.write_text(HEADER + "".join(body), encoding="utf-8")
    status, _, out, err = signups(path, capsys)
    assert status == 2 and out == ""
    assert "wiersz 4" in err and "'wczoraj' nie jest datą i godziną" in err


def test_siblings_sharing_a_parents_e_mail_are_two_people_and_a_repeat_is_one() -> None:
    text = HEADER + (
        "2026/06/06 12:00:10 PM CEST,Ola,Nowak,rodzic@example.pl,600100200,14\n"
        "2026/06/06 12:00:11 PM CEST,Jaś,Nowak,rodzic@example.pl,600100200,15\n"  # a sibling
        "2026/06/06 12:05:00 PM CEST,OLA,nowak,inny@example.pl,+48 600 100 200,14\n"  # Ola again, new e-mail
    )
    result = parse_signups(text)
    assert [s.person.first_name for s in result.accepted] == ["Ola", "Jaś"]
    assert [(r.line, r.reason, r.same_as) for r in result.refused] == [(4, "duplicate", 2)]
    assert result.possible_duplicates == ()


def test_a_namesake_with_other_contacts_is_shown_to_the_referee_and_keeps_the_queue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    later_first = HEADER + (
        "2026/06/06 12:30:00 PM CEST,Anna,Kowalska,ak2@example.pl,,30\n"  # sent later, row first
        "2026/06/06 12:00:10 PM CEST,Jan,Zieliński,jz@example.pl,,30\n"
        "2026/06/06 12:00:05 PM CEST,Anna,Kowalska,ak@example.pl,,30\n"
    )
    path = tmp_path / "zapisy.csv"
    path.write_text(later_first, encoding="utf-8")
    status, data, _, err = signups(path, capsys)
    assert status == 0, err
    assert len(data["lists"]["main"]) == 3 and data["lists"]["main"][1]["name"] == "Jan Z."
    assert [s.line for s in parse_signups(later_first).accepted] == [4, 3, 2]  # the earlier Anna first
    assert data["possible_duplicates"] == [{"line": 2, "same_as": 4, "name": "Anna K."}]
    assert data["refused"] == []
    assert main(["tournament", "signups", str(path)]) == 0
    assert "wiersz 2: Anna K. — to samo imię i nazwisko co w wierszu 4" in capsys.readouterr().out


def test_a_row_without_a_timestamp_in_a_form_export_is_named() -> None:
    with pytest.raises(SignupError) as exc:
        parse_signups(HEADER + rows(2)[0] + ",Bez,Czasu,bc@example.pl,,30\n")
    assert exc.value.problems[0][0] == 3
