"""The zone's pairs and teams on the real daemon: their members are people of the vault.

``duelclock event import KEY zapisy.csv`` of a relay's form: the journal's rows and the tokenless
timeline hold no member's surname, e-mail or phone (stand-ins and person ids; the data is the
vault's), ``person find`` finds a member by the e-mail or the name, ``person export`` has the
form's data, and ``person erase`` leaves the pair, its list and its place with the member under
``N.N.`` and the member in no byte of the journal's files.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.cli import main
from clockd.core.registration import SEALED_NAME
from clockd.core.registry import PersonErase
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.journal import Journal

from .test_erase import forms

SURNAME, EMAIL, PHONE = "Zbyszewska", "ewa.zbyszewska@example.pl", "601 777 313"
FORM = (
    "Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Telefon;Wiek;Nazwa pary\n"
    f"2026/06/06 12:00:01;Ewa;{SURNAME};{EMAIL};{PHONE};19;Smoki\n"
    "2026/06/06 12:00:02;Jan;Nowakowski;jan.nowakowski@example.pl;602 111 222;22;Smoki\n"
    "2026/06/06 12:00:03;Ola;Mazurek;ola.mazurek@example.pl;603 333 444;23;Elfy\n"
    "2026/06/06 12:00:04;Iza;Królik;iza.krolik@example.pl;604 555 666;24;Elfy\n"
)
PRIVATE = [SURNAME, EMAIL, PHONE, "Nowakowski", "jan.nowakowski@example.pl", "602 111 222", "Mazurek"]


def found(data: bytes, texts: list[str]) -> list[str]:
    return [t for t in texts if any(f in data for f in forms(t))]


def rows(db: Path) -> bytes:
    """The journal's hash-chained rows (the vault beside them aside), as stored."""
    with sqlite3.connect(db) as c:
        return "\n".join(str(r[0]) for r in c.execute("SELECT body FROM events")).encode()


def start(db: Path) -> tuple[Daemon, list[str], Client]:
    d = Daemon(db, tables=[TableSpec(1, "Stolik 1")], port=0, write_daemon_info=False)
    started = d.start()
    conn = ["--port", str(started.port), "--token", started.token]
    return d, conn, Client("127.0.0.1", started.port, started.token, by="Sędzia A")


def entries(client: Client) -> list[tuple[str, str, list[str]]]:
    body = client.events(["sztafeta"]).events[0].body
    return [(e.entry, e.name, list(e.members)) for e in body.entries]


def test_the_members_of_pairs_are_people_found_exported_and_erased(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db = tmp_path / "strefa.db"
    daemon, conn, desk = start(db)
    (tmp_path / "zapisy.csv").write_text(FORM, encoding="utf-8")
    assert main(["event", "new", "sztafeta", "--kind", "relay", *conn]) == 0
    assert main(["event", "import", "sztafeta", str(tmp_path / "zapisy.csv"), *conn]) == 0
    capsys.readouterr()
    listed = entries(desk)
    assert ("para-1", "Ewa Z. i Jan N.", ["Ewa Z.", "Jan N."]) in listed

    (ewa,) = desk.person("find", text=EMAIL, reason="her request").people
    assert [(s.event, s.display_name, s.list) for s in ewa.sources] == [("sztafeta", "Ewa Z.", "main")]
    assert ewa.sources[0].person.phone == PHONE and ewa.sources[0].person.age == 19
    assert [p.person_id for p in desk.person("find", text=f"Ewa {SURNAME}", reason="r").people] == [
        ewa.person_id
    ]
    export = tmp_path / "ewa.json"
    assert main(["person", "export", ewa.person_id, "--json", str(export), "--reason", "art. 20", *conn]) == 0
    data = json.loads(export.read_text(encoding="utf-8"))["events"][0]["data"]
    assert (data["last_name"], data["email"], data["entry"]) == (SURNAME, EMAIL, "para-1")
    export.unlink()

    stranger = Client("127.0.0.1", int(conn[1]), None)
    timeline = json.dumps(stranger.timeline(event="sztafeta").model_dump(mode="json")).encode()
    stranger.close()
    assert found(timeline, PRIVATE) == []
    journaled = rows(db)
    assert found(journaled, [*PRIVATE, "Ewa Z."]) == [] and SEALED_NAME.encode() in journaled  # stand-ins

    desk.act("", PersonErase(person=ewa.person_id, reason="RODO art. 17: her request"))
    after = entries(desk)
    assert ("para-1", f"{SEALED_NAME} i Jan N.", [SEALED_NAME, "Jan N."]) in after
    assert [e for e in after if e[0] != "para-1"] == [e for e in listed if e[0] != "para-1"]
    assert desk.person("find", text=EMAIL, reason="was she erased?").people == []
    live = {k: v for k, v in daemon.engine.component("events").snapshot().items() if k != "people"}
    desk.close()
    daemon.stop()
    replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
    replay.rebuild(use_snapshots=False)
    assert {k: v for k, v in replay.component("events").snapshot().items() if k != "people"} == live
    replay.journal.close()
    files = [p for p in tmp_path.iterdir() if p.name.startswith("strefa.db")]
    assert {p.name: hits for p in files if (hits := found(p.read_bytes(), [SURNAME, EMAIL, PHONE]))} == {}
    daemon, conn, desk = start(db)
    assert entries(desk) == after
    assert desk.person("find", text="jan.nowakowski@example.pl", reason="r").people
    desk.close()
    daemon.stop()


TEAM_FORM = (
    "Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Telefon;Wiek;Nazwa drużyny\n"
    f"2026/06/06 12:00:01;Ewa;{SURNAME};{EMAIL};{PHONE};19;Smoki\n"
    "2026/06/06 12:00:02;Jan;Nowakowski;jan.nowakowski@example.pl;602 111 222;22;Smoki\n"
    "2026/06/06 12:00:03;Ola;Mazurek;ola.mazurek@example.pl;603 333 444;23;Elfy\n"
    "2026/06/06 12:00:04;Iza;Królik;iza.krolik@example.pl;604 555 666;24;Elfy\n"
    "2026/06/06 12:00:05;Adam;Lisiecki;adam.lisiecki@example.pl;605 555 666;25;Smoki\n"
    "2026/06/06 12:00:06;Piotr;Sowiński;piotr.sowinski@example.pl;606 555 666;26;Elfy\n"
)


def places(client: Client, key: str) -> list[tuple[str, str, int | None, int | None, int | None]]:
    body = client.events([key]).events[0].body
    return [(e.entry, e.name, e.place, e.pieces, e.finished_ms) for e in body.entries]


def test_a_team_member_erased_after_the_ranking_leaves_the_places_and_is_in_no_byte(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team contest from the form to the confirmed ranking; a member found by the e-mail
    (``person find`` as typed), exported, erased: the places, counts and times as they were,
    the team's name the same, the member ``N.N.``, and neither the results written before the
    erasure are kept nor does any byte of the journal, a new export or a stranger's answer
    hold her."""
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db, out = tmp_path / "strefa.db", tmp_path / "wyniki"
    out.mkdir()
    daemon, conn, desk = start(db)
    (tmp_path / "zapisy.csv").write_text(TEAM_FORM, encoding="utf-8")
    for argv in (
        ["new", "druzynowy", "--kind", "team"],
        ["import", "druzynowy", str(tmp_path / "zapisy.csv")],
        ["table", "druzynowy", "druzyna-1", "1"],
        ["checkin", "druzynowy", "druzyna-1", "druzyna-2"],
        ["close", "druzynowy"],
        ["start", "druzynowy"],
        ["finish", "druzynowy", "druzyna-2"],
        ["end", "druzynowy"],
        ["count", "druzynowy", "druzyna-1", "700"],
        ["confirm", "druzynowy"],
    ):
        assert main(["event", *argv, *conn]) == 0, argv
    body = desk.events(["druzynowy"]).events[0].body
    assert body.confirmed and [m for e in body.entries for m in e.members if m.startswith("Ewa")] == [
        "Ewa Z."
    ]
    before = places(desk, "druzynowy")
    assert [(e, n, p) for e, n, p, _, _ in before] == [("druzyna-2", "Elfy", 1), ("druzyna-1", "Smoki", 2)]
    capsys.readouterr()

    assert main(["person", "find", EMAIL, "--reason", "her request", *conn]) == 0
    (pid,) = {p.person_id for p in desk.person("find", text=f"Ewa {SURNAME}", reason="r").people}
    assert pid in capsys.readouterr().out
    export = out / "ewa.json"
    assert main(["person", "export", pid, "--json", str(export), "--reason", "art. 20", *conn]) == 0
    held = json.loads(export.read_text(encoding="utf-8"))["events"][0]
    data = held["data"]
    assert (data["phone"], data["entry"], data["entry_name"]) == (PHONE, "druzyna-1", "Smoki")
    assert held["results"]["place"] == 2  # her team's, once the ranking has it
    export.unlink()
    results = ["--csv", str(out / "w.csv"), "--html", str(out / "w.html"), "--json-out", str(out / "w.json")]
    assert main(["event", "export", "druzynowy", *results, *conn]) == 0

    assert main(["person", "erase", pid, "--reason", "RODO art. 17: her request", *conn]) == 0
    assert places(desk, "druzynowy") == before
    (smoki,) = [e for e in desk.events(["druzynowy"]).events[0].body.entries if e.entry == "druzyna-1"]
    assert list(smoki.members) == [SEALED_NAME, "Jan N.", "Adam L."]
    assert desk.person("find", text=EMAIL, reason="was she erased?").people == []
    assert desk.person("find", text=SURNAME, reason="was she erased?").people == []
    for stale in out.iterdir():  # what was written before the erasure is the organiser's to delete
        stale.unlink()
    assert main(["event", "export", "druzynowy", *results, *conn]) == 0
    stranger = Client("127.0.0.1", int(conn[1]), None)
    answers = json.dumps(
        [
            stranger.timeline(event="druzynowy").model_dump(mode="json"),
            stranger.events(["druzynowy"]).model_dump(mode="json"),
        ]
    ).encode()
    stranger.close()
    ewa = [SURNAME, EMAIL, PHONE, "Ewa Z."]
    assert found(answers, ewa) == []

    def written() -> list[Path]:
        return [p for p in [*tmp_path.iterdir(), *out.iterdir()] if p.is_file() and p.name != "zapisy.csv"]

    assert {p.name for p in written()} >= {"strefa.db", "strefa.db-wal", "w.csv", "w.html", "w.json"}
    assert {p.name: hits for p in written() if (hits := found(p.read_bytes(), ewa))} == {}
    desk.close()
    daemon.stop()  # its last snapshot
    assert {p.name: hits for p in written() if (hits := found(p.read_bytes(), ewa))} == {}
    daemon, conn, desk = start(db)  # and from the journal alone, the same
    assert places(desk, "druzynowy") == before
    desk.close()
    daemon.stop()


def test_the_retention_plan_erases_a_reserve_team_and_drops_the_players_contacts(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the ranking is confirmed, the team that never took a table has no result to keep:
    the plan erases its members; 30 days after the results were published it drops the
    players' e-mails and phones; names, places and counts stay."""
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    daemon, conn, desk = start(tmp_path / "strefa.db")
    (tmp_path / "zapisy.csv").write_text(TEAM_FORM, encoding="utf-8")
    (tmp_path / "team.toml").write_text("max_entries = 1\n", encoding="utf-8")
    for argv in (
        ["new", "druzynowy", "--kind", "team", "--config", str(tmp_path / "team.toml")],
        ["import", "druzynowy", str(tmp_path / "zapisy.csv")],
        ["table", "druzynowy", "druzyna-1", "1"],
        ["checkin", "druzynowy", "druzyna-1"],
        ["close", "druzynowy"],
        ["start", "druzynowy"],
        ["end", "druzynowy"],
        ["count", "druzynowy", "druzyna-1", "700"],
    ):
        assert main(["event", *argv, *conn]) == 0, argv
    capsys.readouterr()
    plan = ["person", "retention", "--reason", "the plan", "--json", *conn]
    assert main([*plan, "--today", "2026-06-08"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["steps"] == []  # not over yet: nothing goes
    # the form's responses deleted at the provider within 21 days of the first one (§7)
    assert [(r["event"], r["first_sent"], r["due"]) for r in said["reminders"]] == [
        ("druzynowy", "2026/06/06 12:00:01", "2026-06-27")
    ]
    assert main(["event", "confirm", "druzynowy", *conn]) == 0
    before = places(desk, "druzynowy")
    capsys.readouterr()
    assert main([*plan, "--today", "2026-06-08"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert sorted((s["how"], s["why"], s["names"][0]) for s in steps) == [
        ("erase", "not-played", name) for name in ("Iza K.", "Ola M.", "Piotr S.")
    ]
    assert main([*plan, "--today", "2026-07-08", "--published", "2026-06-07", "--apply"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert len(done["applied"]) == 6
    assert sorted(s["how"] for s in done["steps"]) == ["drop"] * 3 + ["erase"] * 3
    assert places(desk, "druzynowy") == before
    assert desk.person("find", text="ola.mazurek@example.pl", reason="erased?").people == []
    assert desk.person("find", text="Mazurek", reason="erased?").people == []
    (ewa,) = desk.person("find", text=f"Ewa {SURNAME}", reason="her contacts?").people
    assert (ewa.sources[0].person.email, ewa.sources[0].person.phone) == ("", "")
    assert desk.person("find", text=EMAIL, reason="by the e-mail?").people == []
    desk.close()
    daemon.stop()
    files = [p for p in tmp_path.iterdir() if p.name.startswith("strefa.db")]
    gone = [EMAIL, PHONE, "Mazurek", "ola.mazurek@example.pl", "Sowiński"]
    assert {p.name: hits for p in files if (hits := found(p.read_bytes(), gone))} == {}
