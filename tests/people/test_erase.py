"""RODO art. 17 on the real daemon: a player erased is gone from every byte the software keeps.

Sign-ups with e-mails and phones, a duel session played on a table, one player erased:
then the e-mail, the phone and the surname are in none of the files — the SQLite file,
its WAL, the snapshots inside it, the exported results, the log — read as bytes; and the
bracket and the results still hold, with the player under the stand-in name.
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

from clockd.api.client import Subscription
from clockd.api.messages import EventResults, EventResultsReply, EventStatePush
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Confirm, Toss
from clockd.core.clock import Side
from clockd.core.duel import Complete
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import SEALED_NAME, CheckIn, CloseCheckIn
from clockd.core.registry import PersonErase
from clockd.core.units import SECOND
from clockd.logs import configure_logging
from clockd.reports.results import Results, check_results, results_csv
from clockd.service.actions import journal
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.store.journal import Journal

from .conftest import Desk

T0 = 1_000 * SECOND

#: The player erased: an ASCII surname and contacts nobody else has, so any copy is found.
SURNAME, EMAIL, PHONE = "Zbyszewska", "ewa.zbyszewska@example.pl", "601 777 313"
CSV = (
    "Sygnatura czasowa;Imię;Nazwisko;E-mail;Telefon;Wiek\n"
    + "".join(
        f"2026/06/06 12:{i:02d}:00;Gracz{i};Nazwisko{i};g{i}@example.pl;600 100 {i:03d};{20 + i}\n"
        for i in range(1, 16)
    )
    + f"2026/06/06 12:30:00;Ewa;{SURNAME};{EMAIL};{PHONE};19\n"
)


def forms(text: str) -> list[bytes]:
    """The ways ``text`` may be written in a file: UTF-8, JSON-escaped, a phone's bare digits."""
    out = {text.encode(), json.dumps(text)[1:-1].encode()}
    digits = "".join(c for c in text if c.isdigit())
    if len(digits) >= 6:
        out.add(digits.encode())
    return sorted(out)


def found_in(paths: list[Path]) -> dict[str, list[str]]:
    hits: dict[str, list[str]] = {}
    for path in paths:
        data = path.read_bytes()
        for what in (SURNAME, EMAIL, PHONE):
            if any(f in data for f in forms(what)):
                hits.setdefault(path.name, []).append(what)
    return hits


def journal_files(tmp_path: Path) -> list[Path]:
    return [p for p in tmp_path.iterdir() if p.name.startswith("journal.db")]


def play_round_one_match(desk: Desk, ewa: int) -> str:
    """Play Ewa's first-round match to a confirmed result; its id."""
    body = desk.session()
    match = next(m for m in body.bracket.matches if ewa in (m.a, m.b))
    desk.act(f"pt/{match.id}", Assign(table=1))
    desk.act(f"pt/{match.id}", Toss(winner=match.a))
    desk.press(1, Side.B, T0)  # the toss loser starts the winner's clock
    desk.press(1, Side.A, T0 + 20 * SECOND)
    desk.at(T0 + 45 * SECOND)
    desk.act(f"pt/{match.id}", Complete())
    desk.act(f"pt/{match.id}", Confirm())
    return match.id


def events_state(engine: Engine) -> Any:
    """Every event's state as a snapshot keeps it (the people index aside: its salt is per run)."""
    data = engine.component("events").snapshot()
    return {k: v for k, v in data.items() if k != "people"}


def test_an_erased_player_is_in_no_file_and_the_bracket_and_results_still_hold(
    open_desk: Any, tmp_path: Path
) -> None:
    log = io.StringIO()
    handler = configure_logging(verbose=True, stream=log)
    try:
        desk = open_desk()
        desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
        desk.act("pt", ImportSignups(csv=CSV, source="zapisy.csv"))
        for p in range(1, 17):
            desk.act("pt", CheckIn(player=p))
        desk.act("pt", CloseCheckIn())
        desk.act("pt", MakeDraw(seed=7))
        ewa = next(p for p in desk.session().players if p.name.startswith("Ewa"))
        match_id = play_round_one_match(desk, ewa.id)
        before = desk.match(match_id)
        desk.client.close()
        desk.daemon.stop()  # a clean stop: a snapshot that holds her, to be purged
        desk = open_desk()
        reply = desk.client.person("find", text=EMAIL, reason="her request of 1 July")
        (record,) = reply.people
        person = record.person_id
        assert record.sources[0].person.last_name == SURNAME  # the referee sees it, before

        assert found_in(journal_files(tmp_path)), "the test must see her data before the erasure"

        desk.act("", PersonErase(person=person, reason="RODO art. 17: her request of 1 July"))
        after = desk.match(match_id)
        assert (after.a, after.b, after.winner, after.decided_by) == (
            before.a,
            before.b,
            before.winner,
            before.decided_by,
        )
        names = {p.id: p.name for p in desk.session().players}
        assert names[ewa.id].startswith(SEALED_NAME) and not names[ewa.id].startswith("Ewa")

        reply = desk.client.request(EventResults(event="pt"))
        assert isinstance(reply, EventResultsReply)
        results = Results.model_validate(reply.results)
        assert check_results(results) == []
        (tmp_path / "results.json").write_text(results.model_dump_json(indent=2), encoding="utf-8")
        (tmp_path / "results.csv").write_text(results_csv(results), encoding="utf-8")
        assert desk.client.person("find", text=EMAIL, reason="was she erased?").people == []
        live = events_state(desk.daemon.engine)
        desk.daemon.stop()
        desk.client.close()
        (tmp_path / "daemon.log").write_text(log.getvalue(), encoding="utf-8")

        files = journal_files(tmp_path) + [
            tmp_path / n for n in ("results.json", "results.csv", "daemon.log")
        ]
        assert found_in(files) == {}
        with Journal.reader(tmp_path / "journal.db") as j:
            assert j.verify().ok  # history was not rewritten
            assert person not in j.vault_people()
            snapshots = j.snapshots()
        assert snapshots and all(not any(f in s.body.encode() for f in forms(SURNAME)) for s in snapshots)

        replay = Engine(
            Journal.reader(tmp_path / "journal.db"), boot_id="audit", components=default_components()
        )
        replay.rebuild(use_snapshots=False)  # every event from the first: live = replay
        assert events_state(replay) == live and SEALED_NAME in json.dumps(live)
        replay.journal.close()

        again = open_desk()  # the restart: from the snapshot written at the stop
        assert again.match(match_id).winner == before.winner
        assert {p.id: p.name for p in again.session().players} == names
    finally:
        logging.getLogger().removeHandler(handler)


def test_an_erasure_whose_purge_a_crash_cut_short_is_finished_at_the_next_start(
    open_desk: Any, tmp_path: Path
) -> None:
    """The erasure is journaled (its vault rows deleted in that transaction) and the daemon dies
    before the snapshots are dropped and the file vacuumed: the next start finishes the job."""
    desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("pt", ImportSignups(csv=CSV, source="zapisy.csv"))
    person = desk.client.person("find", text=EMAIL, reason="her request").people[0].person_id
    desk.client.close()
    desk.daemon.stop()  # its snapshot holds her
    with Journal(tmp_path / "journal.db") as j:  # what the dead daemon had committed, and no more
        last = list(j.read())[-1].entry.t_ns
        j.append([journal(PersonErase(person=person, reason="her request"), target="desk").at(last)])
        assert j.purge_pending
    assert found_in(journal_files(tmp_path)), "the copies are still there before the next start"
    again = open_desk()
    assert again.client.person("find", text=EMAIL, reason="was she erased?").people == []
    names = [p.name for p in again.session().players]
    assert any(n.startswith(SEALED_NAME) for n in names) and not any(n.startswith("Ewa") for n in names)
    again.client.close()
    again.daemon.stop()
    assert found_in(journal_files(tmp_path)) == {}


def test_the_screens_watching_an_event_get_it_again_once_a_person_is_erased(open_desk: Any) -> None:
    """``person erase`` names no event, yet changes every event that holds the person: the live
    pages and the audience screen (subscribers without the token) get those events again, so the
    erased name leaves the projector at once, not when the event next changes."""
    desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="sb"))  # holds nobody erased
    desk.act("pt", ImportSignups(csv=CSV, source="zapisy.csv"))
    person = desk.client.person("find", text=EMAIL, reason="her request").people[0].person_id
    with Subscription(port=desk.daemon.port, events=["pt"]) as audience:
        audience.read(2000)  # the state on subscribing
        desk.act("", PersonErase(person=person, reason="RODO art. 17"))
        pushes: list[Any] = []
        for _ in range(20):
            pushes += [p for p in audience.read(500) if isinstance(p, EventStatePush)]
            if pushes:
                break
    assert [p.event.key for p in pushes] == ["pt"]
    names = [p.name for p in pushes[-1].event.body.players]
    assert any(n.startswith(SEALED_NAME) for n in names) and not any(n.startswith("Ewa") for n in names)
