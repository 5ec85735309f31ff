"""``duelclock person …`` against a running daemon: one person across two events, the token, the audit."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.puzzle_duel import ImportSignups
from clockd.store.journal import Journal

from .conftest import Desk

HEADER = (
    "Sygnatura czasowa;Imię;Nazwisko;E-mail;Telefon;Wiek;Zgoda na przetwarzanie danych osobowych (RODO)\n"
)
ANNA = "Anna;Kowalska;anna.k@example.pl;601 222 333;24;Tak"


def signups(first: int) -> str:
    rows = [
        f"2026/06/06 12:0{i}:00;Gracz{i};Nazwisko{i};g{i}@example.pl;600 100 {i:03d};{20 + i};Tak"
        for i in range(first, first + 3)
    ]
    return HEADER + "\n".join([*rows, f"2026/06/06 12:09:00;{ANNA}"]) + "\n"


def two_events(desk: Desk) -> None:
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt", name="Piątek"))
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="sb", name="Sobota"))
    desk.act("pt", ImportSignups(csv=signups(1), source="piatek.csv"))
    desk.act("sb", ImportSignups(csv=signups(5), source="sobota.csv"))


def person(
    desk: Desk, capsys: pytest.CaptureFixture[str], *argv: str, token: str | None = ""
) -> tuple[int, str, str]:
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--by", "Sędzia B"]
    if token is not None:
        conn += ["--token", token or desk.client.token or ""]
    status = main(["person", *argv, *conn])
    out, err = capsys.readouterr()
    return status, out, err


def audit(tmp_path: Path) -> list[Any]:
    with Journal.reader(tmp_path / "journal.db") as j:
        return [r.entry for r in j.read() if r.entry.kind.startswith("person-")]


def test_a_person_in_two_events_is_one_person_and_the_export_lists_both_with_the_consents(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    two_events(desk)
    status, out, _ = person(
        desk, capsys, "find", "anna.k@example.pl", "--reason", "her e-mail of 1 July", "--json"
    )
    assert status == 0
    (found,) = json.loads(out)["people"]
    assert {s["event"] for s in found["sources"]} == {"pt", "sb"}
    pid = found["person_id"]
    status, out, _ = person(desk, capsys, "show", pid, "--reason", "her e-mail of 1 July")
    assert status == 0 and out.count("Kowalska") == 2 and "601 222 333" in out and pid in out
    assert "lista główna" in out and out.count("zgoda udzielona: „Zgoda na przetwarzanie") == 2
    target = tmp_path / "anna.json"
    status, out, _ = person(desk, capsys, "export", pid, "--json", str(target), "--reason", "her request")
    assert status == 0 and str(target) in out
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert exported["person_id"] == pid
    assert [(e["event"], e["data"]["last_name"], e["data"]["email"]) for e in exported["events"]] == [
        ("pt", "Kowalska", "anna.k@example.pl"),
        ("sb", "Kowalska", "anna.k@example.pl"),
    ]
    for event in exported["events"]:
        (consent,) = event["consents"]
        assert consent["given"] is True and "RODO" in consent["text"] and consent["answer"] == "Tak"
        assert consent["at"] == "2026/06/06 12:09:00"


def test_every_person_command_is_refused_without_the_token_and_audited_with_it(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "no-daemon-json"))  # no token to be found
    desk = open_desk()
    two_events(desk)
    pid = desk.client.person("find", text="Kowalska", reason="setting up").people[0].person_id
    before = len(audit(tmp_path))
    commands = [
        ["find", "Kowalska"],
        ["show", pid],
        ["export", pid, "--json", str(tmp_path / "x.json")],
        ["correct", pid, "email", "anna@example.com"],
        ["restrict", pid],
        ["erase", pid],
    ]
    for argv in commands:
        for token in (None, "not-the-token"):
            status, out, err = person(desk, capsys, *argv, "--reason", "a test", token=token)
            assert status != 0, argv
            assert "Kowalska" not in out + err and "601" not in out + err
    assert len(audit(tmp_path)) == before  # a refusal is no use of the data
    assert not (tmp_path / "x.json").exists()

    for argv in commands:
        status, _, err = person(desk, capsys, *argv, "--reason", f"the {argv[0]} of the test")
        assert status == 0, (argv, err)
    records = audit(tmp_path)[before:]
    assert [(e.kind, getattr(e.action, "how", None)) for e in records] == [
        ("person-access", "find"),
        ("person-access", "show"),
        ("person-access", "export"),
        ("person-correct", None),
        ("person-restrict", None),
        ("person-erase", None),
    ]
    for e, argv in zip(records, commands, strict=True):
        assert e.by == "Sędzia B" and e.action.reason == f"the {argv[0]} of the test"
        assert e.decided["at"].startswith("20")  # when, on the wall clock
    assert records[0].action.text == "" and records[0].decided["found"] == 1  # not what was asked
    assert records[3].action.value == ""  # the corrected value lives in the vault, not the row
    with Journal.reader(tmp_path / "journal.db") as j:
        body = b"".join(str(r[0]).encode() for r in j._db.execute("SELECT body FROM events"))
    assert b"anna@example.com" not in body and b"Kowalska" not in body


def test_a_correction_and_a_restriction_show_everywhere_the_person_is(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    two_events(desk)
    pid = desk.client.person("find", text="601222333", reason="setting up").people[0].person_id
    assert person(desk, capsys, "correct", pid, "last_name", "Kowalska-Nowak", "--reason", "married")[0] == 0
    assert person(desk, capsys, "restrict", pid, "--reason", "she contests the data")[0] == 0
    shown = {p.id: p.name for p in desk.session("pt").players}
    assert shown[4] == "N.N. (4)" and "Anna" not in " ".join(shown.values())  # off every screen
    desk.client.close()
    desk.daemon.stop()
    desk = open_desk()  # and so after a restart (the vault keeps the corrected value)
    status, out, _ = person(desk, capsys, "show", pid, "--reason", "check", "--json")
    (record,) = json.loads(out)["people"]
    assert record["restricted"] is True
    assert [s["person"]["last_name"] for s in record["sources"]] == ["Kowalska-Nowak"] * 2
    assert {p.id: p.name for p in desk.session("sb").players}[4] == "N.N. (4)"  # after the restart too
    assert person(desk, capsys, "restrict", pid, "--lift", "--reason", "settled")[0] == 0
    assert {p.id: p.name for p in desk.session("pt").players}[4] == "Anna K."
    status, out, err = person(desk, capsys, "show", "p-nobody", "--reason", "check")
    assert status != 0 and "p-nobody" in err


def test_a_reason_or_a_note_that_names_a_person_is_refused_for_the_journal_keeps_it_for_good(
    open_desk: Any, tmp_path: Path
) -> None:
    from clockd.api.messages import ApiError
    from clockd.core.clock import Adjust, Side
    from clockd.core.program import AddNote
    from clockd.i18n import render

    desk = open_desk()
    two_events(desk)
    for text in ("toss won by Anna Kowalska", "call anna.k@example.pl", "tel. 601-222-333", "ANNA  KOWALSKA"):
        with pytest.raises(ApiError) as refused:
            desk.act("1", AddNote(text=text))
        assert refused.value.reason.code == "person.in-free-text"
        assert "Anna K." in render(refused.value.reason, "en")
    with pytest.raises(ApiError):
        desk.act("1", Adjust(side=Side.A, delta_ms=-1000, reason="Anna Kowalska touched a piece"))
    desk.act("1", AddNote(text="toss won by Anna K. (4)"))  # the public name says the same
    desk.act(
        "1", Adjust(side=Side.A, delta_ms=-1000, reason="Kowalska's clock")
    )  # a surname alone may be a word
    with Journal.reader(tmp_path / "journal.db") as j:
        body = b"".join(str(r[0]).encode() for r in j._db.execute("SELECT body FROM events"))
    assert b"Anna Kowalska" not in body and b"anna.k@example.pl" not in body


def test_the_files_the_person_commands_write_are_the_owners_only(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``person export`` and ``person notify`` wrote their files as the umask said (0644 on a
    usual system: every user of a shared laptop could read the e-mails and phones). They are
    0600, also when they replace a file that was readable by all."""
    desk = open_desk()
    two_events(desk)
    pid = desk.client.person("find", text="anna.k@example.pl", reason="test").people[0].person_id
    export, lists = tmp_path / "anna.json", tmp_path / "powiadomienia.csv"
    lists.write_text("an older list\n", encoding="utf-8")
    os.chmod(lists, 0o644)
    umask = os.umask(0o022)
    try:
        assert person(desk, capsys, "export", pid, "--json", str(export), "--reason", "her request")[0] == 0
        assert person(desk, capsys, "notify", "pt", "--csv", str(lists), "--reason", "the lists")[0] == 0
    finally:
        os.umask(umask)
    assert "anna.k@example.pl" in export.read_text(encoding="utf-8") + lists.read_text(encoding="utf-8")
    assert {p.name: stat.S_IMODE(os.stat(p).st_mode) for p in (export, lists)} == {
        "anna.json": 0o600,
        "powiadomienia.csv": 0o600,
    }
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []
