"""Retention (RODO art. 5(1)(e)) and what the organiser needs of the data: the plan, the drop of
contacts, the 21-day reminder for the form, the lists to notify people (token only)."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.puzzle_duel import ImportSignups
from clockd.core.registration import Person
from clockd.core.registry import PersonDrop, PersonRestrict, PersonSource
from clockd.core.retention import plan

from .conftest import Desk

CSV = "Sygnatura czasowa;Imię;Nazwisko;E-mail;Telefon;Wiek\n" + "".join(
    f"2026/06/06 12:{i:02d}:00;Gracz{i};Nazwisko{i};g{i}@example.pl;600 100 {i:03d};{20 + i}\n"
    for i in range(1, 21)
)


def cli(desk: Desk, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.client.token or ""]
    status = main(["person", *argv, *conn, "--by", "Sędzia B"])
    out, err = capsys.readouterr()
    return status, out, err


def source(pid: str, event: str, player: int, email: str = "a@example.pl") -> PersonSource:
    person = Person(first_name="Anna", last_name="Kowalska", email=email, phone="601 000 000", age=20)
    return PersonSource(
        person_id=pid, event=event, player=player, display_name="Anna K.", list="main", person=person
    )


def test_the_plan_erases_who_never_played_once_over_and_drops_contacts_after_the_days() -> None:
    sources = [
        source("p-played", "pt", 1),
        source("p-reserve", "pt", 17),
        source("p-reserve-also-saturday", "pt", 18),
        source("p-reserve-also-saturday", "sb", 3),
        source("p-only-saturday", "sb", 4),
    ]
    played = {"pt": {1, 2, 3}, "sb": set()}
    before = plan(sources, finished=set(), played=played, today=date(2026, 6, 20))
    assert before.steps == ()  # nothing goes while the events go on
    over = plan(sources, finished={"pt"}, played=played, today=date(2026, 6, 22), published=date(2026, 6, 21))
    assert [(s.person_id, s.how, s.why) for s in over.steps] == [("p-reserve", "erase", "not-played")]
    later = plan(
        sources, finished={"pt"}, played=played, today=date(2026, 7, 21), published=date(2026, 6, 21)
    )
    assert [(s.person_id, s.how) for s in later.steps] == [("p-played", "drop"), ("p-reserve", "erase")]


def test_dropped_contacts_are_gone_from_the_files_and_the_rest_of_the_person_stays(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("pt", ImportSignups(csv=CSV))
    pid = desk.client.person("find", text="g3@example.pl", reason="test").people[0].person_id
    desk.act(
        "", PersonDrop(person=pid, fields=("email", "phone"), reason="retention: 30 days after the results")
    )
    status, out, _ = cli(desk, capsys, "show", pid, "--reason", "check")
    assert status == 0 and "Nazwisko3" in out and "g3@example.pl" not in out
    desk.client.close()
    desk.daemon.stop()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("journal.db"))
    assert b"g3@example.pl" not in data and b"600 100 003" not in data
    assert b"g4@example.pl" in data  # only hers went
    again = open_desk()
    (record,) = again.client.person("show", person=pid, reason="after the restart").people
    assert (record.sources[0].person.last_name, record.sources[0].person.email) == ("Nazwisko3", "")


def test_the_lists_to_notify_people_are_a_csv_for_a_mail_merge_without_the_restricted(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("pt", ImportSignups(csv=CSV))
    pid = desk.client.person("find", text="g2@example.pl", reason="test").people[0].person_id
    desk.act("", PersonRestrict(person=pid, reason="she contests the data"))
    target = tmp_path / "powiadomienia.csv"
    status, out, err = cli(desk, capsys, "notify", "pt", "--csv", str(target), "--reason", "the lists, §1.15")
    assert status == 0 and "15" in out and "4" in out, err
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8")), delimiter=";"))
    assert [r["list"] for r in rows] == ["main"] * 15 + ["reserve"] * 4
    assert rows[0]["email"] == "g1@example.pl" and rows[-1]["email"] == "g20@example.pl"
    assert "g2@example.pl" not in target.read_text(encoding="utf-8")  # restricted: off every list
    status, out, err = cli(desk, capsys, "retention", "--today", "2026-06-28", "--reason", "weekly check")
    assert status == 0 and "27.06.2026" in out and "nic do usunięcia" in out  # 21 days from 06.06 12:01
    assert "natychmiast" in out  # past: the responses must go from the provider now
