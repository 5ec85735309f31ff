"""Consents as data: the form's consent columns read and kept per person, the required one enforced (§1.5)."""

from __future__ import annotations

from typing import Any

from clockd.core.actions import CreateEvent
from clockd.core.puzzle_duel import ImportSignups
from clockd.core.registration import consent_given, consent_kind, parse_signups
from clockd.i18n import render

from .conftest import Desk

PROCESSING = "Wyrażam zgodę na przetwarzanie moich danych osobowych (RODO)"
IMAGE = "Zgoda na utrwalenie i publikację wizerunku"
CSV = (
    f"Sygnatura czasowa;Imię;Nazwisko;E-mail;Wiek;{PROCESSING};{IMAGE}\n"
    "2026/06/06 12:01:00;Anna;Kowalska;anna@example.pl;24;Tak;Nie\n"
    "2026/06/06 12:02:00;Ola;Lis;ola@example.pl;30;;Tak\n"
    "2026/06/06 12:03:00;Ela;Nowak;ela@example.pl;31;Nie wyrażam zgody;Tak\n"
    "2026/06/06 12:04:00;Iga;Wójcik;iga@example.pl;32;Wyrażam zgodę;\n"
)


def test_the_consent_columns_are_read_as_what_they_ask_and_the_answers_as_yes_or_no() -> None:
    assert consent_kind(PROCESSING) == "processing" and consent_kind(IMAGE) == "image"
    assert consent_kind("Akceptuję regulamin turnieju") == "rules"
    assert consent_kind("Imię") is None and consent_kind("Adres e-mail") is None
    assert [consent_given(a) for a in ("Tak", "Wyrażam zgodę", "x", "", "Nie", "nie wyrażam zgody")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    read = parse_signups(CSV)
    assert [s.person.first_name for s in read.accepted] == ["Anna", "Iga"]  # the image may be refused
    anna = read.accepted[0].person
    assert [(c.kind, c.text, c.answer, c.given, c.at) for c in anna.consents] == [
        ("processing", PROCESSING, "Tak", True, "2026/06/06 12:01:00"),
        ("image", IMAGE, "Nie", False, "2026/06/06 12:01:00"),
    ]
    assert read.ignored_columns == ()  # the consent columns are read, no longer ignored


def test_the_import_refuses_a_row_without_the_required_consent_naming_it(open_desk: Any) -> None:
    desk: Desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    body = desk.act("pt", ImportSignups(csv=CSV, source="zapisy.csv")).event.body
    refused = {r.line: r for r in body.refusals}
    assert sorted(refused) == [3, 4] and {r.reason for r in refused.values()} == {"no-consent"}
    for lang in ("pl", "en"):
        assert PROCESSING in render(refused[3].detail, lang)
    assert "§1.5" in render(refused[3].detail, "pl") and "zgody" in render(refused[3].detail, "pl")
    assert "consent" in render(refused[4].detail, "en")
    assert [p.name for p in body.players] == ["Anna K.", "Iga W."]


def test_withdrawing_the_required_consent_is_resignation_and_an_optional_one_is_not(
    open_desk: Any, capsys: Any
) -> None:
    from clockd.cli import main

    desk: Desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="sb"))
    desk.act("pt", ImportSignups(csv=CSV))
    desk.act("sb", ImportSignups(csv=CSV))
    pid = desk.client.person("find", text="anna@example.pl", reason="her e-mail").people[0].person_id
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.client.token or ""]

    def person(*argv: str) -> tuple[int, str, str]:
        status = main(["person", *argv, *conn, "--reason", "her e-mail of 2 July"])
        out, err = capsys.readouterr()
        return status, out, err

    assert person("consent", pid, "image")[0] == 0  # optional: noted, she stays
    assert [p.name for p in desk.session("pt").players if p.withdrawn] == []
    status, _, err = person("consent", pid, "processing")  # required: offered as resignation
    assert status != 0 and "--resign" in err and "§1.6" in err
    assert person("consent", pid, "processing", "--resign")[0] == 0
    for key in ("pt", "sb"):
        anna = next(p for p in desk.session(key).players if p.name == "Anna K.")
        assert anna.withdrawn
    (record,) = desk.client.person("show", person=pid, reason="check").people
    given = {c.kind: c.given for c in record.sources[0].person.consents}
    assert given == {"processing": False, "image": False}
