"""Sign-ups for pairs and teams (§1.9–1.19, §5.1.10–5.1.11): lists formed from one form per person."""

from __future__ import annotations

import pytest

from clockd.core.registration import SignupError
from clockd.core.zone_signups import form_entries
from clockd.i18n import render

HEAD = "Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Wiek;Nazwa pary\n"


def rows(*cells: str) -> str:
    return HEAD + "".join(c + "\n" for c in cells)


def test_pairs_are_formed_from_the_pair_column_in_the_order_of_their_last_form() -> None:
    text = rows(
        "2026/06/06 12:00:05;Anna;Kowalska;a@x.pl;21;Smoki",  # line 2
        "2026/06/06 12:00:07;Ola;Wiśniewska;o@x.pl;30;Elfy",  # line 3
        "2026/06/06 12:00:09;Ewa;Mazur;e@x.pl;25;Elfy",  # line 4: Elfy complete at 12:00:09
        "2026/06/06 12:01:00;Jan;Nowak;j@x.pl;19;Smoki",  # line 5: Smoki complete at 12:01
    )
    signups = form_entries(text, kind="relay", seats=15)
    assert [(e.entry, e.name, e.lines, e.list) for e in signups.entries] == [
        ("para-1", "Ola W. i Ewa M.", (3, 4), "main"),
        ("para-2", "Anna K. i Jan N.", (2, 5), "main"),
    ]
    assert signups.refused == ()


def test_partners_naming_each_other_form_a_pair_and_a_lone_partner_is_refused_with_its_line() -> None:
    text = (
        "Sygnatura czasowa;Imię;Nazwisko;Wiek;Imię i nazwisko partnera\n"
        "2026/06/06 12:00:01;Anna;Kowalska;21;Jan Nowak\n"
        "2026/06/06 12:00:02;Jan;Nowak;22;Anna Kowalska\n"
        "2026/06/06 12:00:03;Iga;Król;23;Marek Mazur\n"
    )
    signups = form_entries(text, kind="blind", seats=15)
    assert [(e.name, e.lines) for e in signups.entries] == [("Anna K. i Jan N.", (2, 3))]
    [lone] = signups.refused
    assert (lone.lines, lone.reason) == ((4,), "partner-missing")
    assert "partner się nie zapisał" in render(lone.detail, "pl")


def test_a_pair_refuses_an_under_13_and_the_lists_are_main_and_an_equal_reserve() -> None:
    cells = [f"2026/06/06 12:{i:02d}:00;Osoba{i};Nazwisko{i};o{i}@x.pl;20;Para {i // 2}" for i in range(10)]
    cells.append("2026/06/06 12:30:00;Mała;Dziewczynka;m@x.pl;12;Para 9")
    signups = form_entries(rows(*cells), kind="relay", seats=2)
    assert [e.list for e in signups.entries] == ["main", "main", "reserve", "reserve"]
    reasons = sorted((r.reason, r.lines) for r in signups.refused)
    assert reasons == [("over-limit", (10, 11)), ("under-age", (12,))]


TEAM_HEAD = "Sygnatura czasowa;Imię;Nazwisko;Wiek;Nazwa drużyny\n"


def test_teams_of_the_wrong_size_and_a_child_without_an_adult_are_refused_with_their_lines() -> None:
    text = TEAM_HEAD + "".join(
        [
            "2026/06/06 12:00:00;A1;Aaa;30;Orły\n",  # 2-4: Orły, three adults
            "2026/06/06 12:00:01;A2;Aab;31;Orły\n",
            "2026/06/06 12:00:02;A3;Aac;32;Orły\n",
            "2026/06/06 12:00:03;B1;Bbb;30;Duo\n",  # 5-6: Duo, only two
            "2026/06/06 12:00:04;B2;Bbc;30;Duo\n",
            "2026/06/06 12:00:05;C1;Ccc;12;Dzieciaki\n",  # 7-9: three children, no adult
            "2026/06/06 12:00:06;C2;Ccd;16;Dzieciaki\n",
            "2026/06/06 12:00:07;C3;Cce;17;Dzieciaki\n",
            "2026/06/06 12:00:08;D1;Ddd;10;Rodzina\n",  # 10-13: a child with a parent: admitted
            "2026/06/06 12:00:09;D2;Dde;40;Rodzina\n",
            "2026/06/06 12:00:10;D3;Ddf;14;Rodzina\n",
            "2026/06/06 12:00:11;D4;Ddg;41;Rodzina\n",
            "2026/06/06 12:00:12;E1;Eee;20;Pięciu\n",  # 14-18: five
            "2026/06/06 12:00:13;E2;Eef;20;Pięciu\n",
            "2026/06/06 12:00:14;E3;Eeg;20;Pięciu\n",
            "2026/06/06 12:00:15;E4;Eeh;20;Pięciu\n",
            "2026/06/06 12:00:16;E5;Eei;20;Pięciu\n",
        ]
    )
    signups = form_entries(text, kind="team", seats=10)
    # the family (a member under 18) signed up later but comes first (§5.1.10)
    assert [(e.entry, e.name, e.lines, e.minor) for e in signups.entries] == [
        ("druzyna-1", "Rodzina", (10, 11, 12, 13), True),
        ("druzyna-2", "Orły", (2, 3, 4), False),
    ]
    assert [(r.reason, r.lines) for r in signups.refused if r.reason == "child-without-adult"] == [
        ("child-without-adult", (7, 8, 9))
    ]
    sizes = sorted(r.lines for r in signups.refused if r.reason == "team-size")
    assert sizes == [(5, 6), (14, 15, 16, 17, 18)]
    child = next(r for r in signups.refused if r.reason == "child-without-adult")
    assert "Dzieciaki" in render(child.detail, "pl") and "pełnoletniego" in render(child.detail, "pl")


def test_a_form_before_the_opening_is_refused_and_a_bad_timestamp_stops_the_import() -> None:
    text = rows(
        "2026/06/06 11:59:59;Anna;Kowalska;a@x.pl;21;Smoki",
        "2026/06/06 12:00:00;Jan;Nowak;j@x.pl;19;Smoki",
    )
    signups = form_entries(text, kind="relay", seats=15)
    assert [(r.reason, r.lines) for r in signups.refused] == [
        ("before-opening", (2,)),
        ("partner-missing", (3,)),
    ]
    with pytest.raises(SignupError) as bad:
        form_entries(rows("jutro rano;Anna;Kowalska;a@x.pl;21;Smoki"), kind="relay", seats=15)
    text = render(bad.value.msg, "pl")
    assert "wiersz 2" in text and "jutro rano" in text, text


def test_a_file_without_the_pair_column_is_refused_naming_the_columns() -> None:
    with pytest.raises(SignupError) as refused:
        form_entries("Imię;Nazwisko;Wiek\nAnna;Kowalska;20\n", kind="relay", seats=15)
    assert "Imię, Nazwisko, Wiek" in render(refused.value.msg, "pl")


def test_the_journal_keeps_the_members_as_stand_ins_and_the_vault_gives_them_back() -> None:
    """What the daemon journals of an import holds no member's name, not even in the warning
    about a missing e-mail; the vault's records bring back the same lists."""
    from clockd.core.zone_signups import sealed_entries, unsealed_entries

    read = form_entries(
        rows("2026/06/06 12:00:05;Anna;Kowalska;;21;Smoki", "2026/06/06 12:00:07;Jan;Nowak;j@x.pl;19;Smoki"),
        kind="relay",
        seats=15,
    )
    assert read.no_email == ((2, "Anna K."),)
    with_ids = read.model_copy(update={"person_ids": {2: "P-ANNA", 3: "P-JAN"}})
    stored, records = sealed_entries(with_ids)
    journaled = stored.model_dump_json()
    assert not any(word in journaled for word in ("Anna", "Kowalska", "Jan", "Nowak", "j@x.pl"))
    assert stored.no_email == ((2, "N.N."),) and stored.entries[0].name == "N.N. i N.N."
    back = unsealed_entries(stored, records)
    assert back.no_email == read.no_email and back.entries == read.entries
    assert back.persons[3].email == "j@x.pl" and back.persons[2].last_name == "Kowalska"
