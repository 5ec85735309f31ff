"""The chess day's children on the real daemon: no birth date and no e-mail in any byte it keeps
or shows without the token, and each child a person of the vault — found, exported, erased.

``duelclock chess import day.json`` of a group of 12 children, each with a birth date and a
guardian's e-mail; a tokenless subscriber with the timeline open from before the import; a round
paired, played and closed; ``person find`` by a guardian's e-mail and by a name; ``person
export``; the pages published (``duelclock publish DIR``), posted and exported; a restart from
the snapshot. Then every byte — the SQLite file, its WAL, the snapshots in it, the exports, the
log, the pages, every tokenless answer — is read for the 12 e-mails and birth dates. And
``person erase`` of one child leaves the standings as they were and the child in no byte.
"""

from __future__ import annotations

import io
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.cli import main
from clockd.core.chessday.group import CloseRound, EnterResult, PairRound
from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level
from clockd.core.registration import SEALED_NAME
from clockd.core.registry import PersonErase
from clockd.logs import configure_logging
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.journal import Journal
from tests.people.test_erase import forms

KEY = "sp3-ch"
#: The child erased: a surname and a first name nobody else in the group has.
SURNAME, FIRST = "Zbyszewski", "Tymoteusz"


def entrants() -> tuple[Entrant, ...]:
    surnames = ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski"]
    surnames += ["Zieliński", "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", SURNAME]
    return tuple(
        Entrant(
            start=i + 1,
            surname=s,
            first_name=FIRST if s == SURNAME else ("Jan" if i % 2 else "Łukasz"),
            sex="m",
            rating=1500 - 10 * i if i < 6 else None,
            school=f"Szkoła Podstawowa nr {1 + i % 3}",
            school_class=f"3{'abc'[i % 3]}",
            birth=f"2017/{1 + i:02d}/{10 + i:02d}",
            email=f"opiekun.{i}.szachy@example.pl",
            form_line=i + 1,
        )
        for i, s in enumerate(surnames)
    )


CHILDREN = entrants()
PRIVATE = [e.email for e in CHILDREN] + [e.birth for e in CHILDREN]
ERASED = next(e for e in CHILDREN if e.surname == SURNAME)


def found(data: bytes, texts: list[str]) -> list[str]:
    return [t for t in texts if any(f in data for f in forms(t))]


def files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "dzien.json":  # the organiser's own file
            yield path


class Raw:
    """A tokenless connection as a stranger's script opens it: bytes in, bytes out."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.received = bytearray()
        self._buffer = bytearray()

    def send(self, request: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(request).encode() + b"\n")

    def message(self) -> dict[str, Any]:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(65536)
            assert chunk, "the daemon closed the connection"
            self.received += chunk
            self._buffer += chunk
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer = bytearray(rest)
        out: dict[str, Any] = json.loads(line)
        return out

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.send(request)
        return self.message()

    def until(self, wanted: Any) -> None:
        """Read the pushes until one ``wanted`` says yes to (the stream goes on meanwhile)."""
        while not wanted(self.message()):
            pass

    def close(self) -> None:
        self.sock.close()


def start(db: Path) -> tuple[Daemon, list[str], Client]:
    d = Daemon(db, tables=[TableSpec(t, f"Szachownica {t}") for t in (1, 2)], port=0, write_daemon_info=False)
    started = d.start()
    return (
        d,
        ["--port", str(started.port), "--token", started.token],
        Client("127.0.0.1", started.port, started.token, by="Sędzia A"),
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(list(argv))
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def standings(client: Client) -> list[tuple[int, int, dict[str, str]]]:
    body = client.events([KEY]).events[0].body
    return [(row.rank, row.player.start, dict(row.values)) for row in body.standings]


def events_state(engine: Engine) -> Any:
    data = engine.component("events").snapshot()
    return {k: v for k, v in data.items() if k != "people"}


def tokenless_answers(port: int) -> bytes:
    """Everything a stranger may ask about the group, as the bytes the daemon sent."""
    raw = Raw(port)
    raw.ask({"type": "timeline", "event": KEY})
    raw.ask({"type": "events"})
    raw.ask({"type": "events", "events": [KEY]})
    raw.ask({"type": "event-results", "event": KEY})
    raw.ask({"type": "status"})
    raw.ask({"type": "person", "how": "find", "text": ERASED.email, "reason": "a stranger"})
    raw.close()
    return bytes(raw.received)


def test_no_child_s_birth_date_or_e_mail_is_kept_and_an_erased_child_is_in_no_byte(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    log = io.StringIO()
    handler = configure_logging(verbose=True, stream=log)
    db = tmp_path / "szachy.db"
    out = tmp_path / "out"
    out.mkdir()
    try:
        daemon, conn, desk = start(db)
        port = int(conn[1])
        stranger = Raw(port)  # subscribed, with the timeline, from before the import
        stranger.ask({"type": "subscribe", "timeline": True})
        day = ChessDay(
            title="Szkolny Turniej Szachowy",
            date="2026-06-20",
            rounds=3,
            groups=(Group(key=KEY, level=Level.PRIMARY, grade=3, sex="m", entrants=CHILDREN),),
        )
        (tmp_path / "dzien.json").write_text(day.model_dump_json(), encoding="utf-8")
        run(capsys, "chess", "import", str(tmp_path / "dzien.json"), *conn)
        stranger.until(lambda m: m.get("type") == "timeline-entry" and m["entry"]["kind"] == "event-create")
        stranger.until(lambda m: m.get("type") == "event-state" and m["event"]["key"] == KEY)

        # the hall sees the names, schools and classes it always did
        body = desk.events([KEY]).events[0].body
        assert [p.name for p in body.start_list][-1] == f"{SURNAME} {FIRST}"
        assert body.start_list[0].school == "Szkoła Podstawowa nr 1"

        # the referee finds a child by the guardian's e-mail and by the name; the export has them
        (child,) = desk.person("find", text=ERASED.email, reason="the guardian asks").people
        assert [(s.event, s.player) for s in child.sources] == [(KEY, ERASED.start)]
        assert child.sources[0].person.last_name == SURNAME
        assert child.sources[0].details == {"school": ERASED.school, "school_class": ERASED.school_class}
        (by_name,) = desk.person("find", text=f"{FIRST} {SURNAME}", reason="the guardian asks").people
        assert by_name.person_id == child.person_id
        assert len(desk.person("find", text="Jan", reason="how many Jans").people) == 5
        run(
            capsys,
            "person",
            "export",
            child.person_id,
            "--json",
            str(out / "dane.json"),
            "--reason",
            "art. 20",
            *conn,
        )
        exported = json.loads((out / "dane.json").read_text(encoding="utf-8"))
        (held,) = exported["events"]
        assert held["event"] == KEY and held["data"]["last_name"] == SURNAME
        assert held["data"]["school"] == ERASED.school

        # a round played; the group's pages, printouts and TRF written
        desk.act(KEY, PairRound(round=1))
        for board in desk.events([KEY]).events[0].body.boards:
            desk.act(KEY, EnterResult(board=board.board, result="1"))
        desk.act(KEY, CloseRound())
        stranger.until(lambda m: m.get("type") == "timeline-entry" and m["entry"]["kind"] == "chess-close")
        before = standings(desk)
        run(capsys, "chess", "post", KEY, "--standings", "-o", str(out / "wywieszki"), *conn)
        run(capsys, "chess", "export", KEY, "-o", str(out / f"{KEY}.trf"), *conn)
        from web.publish import publish

        publish(out / "strona", "127.0.0.1", port)
        assert SURNAME in (out / "strona" / f"{KEY}.html").read_text(encoding="utf-8")
        answers = tokenless_answers(port)
        desk.close()
        daemon.stop()  # a clean stop: a snapshot
        daemon, conn, desk = start(db)  # a restart from it
        assert standings(desk) == before
        answers += tokenless_answers(int(conn[1]))
        stranger.close()
        (out / "tokenless.bin").write_bytes(answers + bytes(stranger.received))

        (tmp_path / "daemon.log").write_text(log.getvalue(), encoding="utf-8")
        every = list(files(tmp_path))
        assert {p.name for p in every} >= {"szachy.db", "szachy.db-wal", "dane.json", "sp3-ch.html"}
        assert {p.name: hits for p in every if (hits := found(p.read_bytes(), PRIVATE))} == {}
        with Journal.reader(db) as j:
            snapshots = j.snapshots()
        assert snapshots and all(found(s.body.encode(), PRIVATE) == [] for s in snapshots)

        # erased: the standings as they were, the child in no byte
        desk.act("", PersonErase(person=child.person_id, reason="RODO art. 17: the guardian's request"))
        assert standings(desk) == before
        body = desk.events([KEY]).events[0].body
        assert [p.name for p in body.start_list][-1] == SEALED_NAME
        assert desk.person("find", text=ERASED.email, reason="was he erased?").people == []
        assert desk.person("find", text=SURNAME, reason="was he erased?").people == []
        live = events_state(daemon.engine)
        desk.close()
        daemon.stop()
        replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
        replay.rebuild(use_snapshots=False)  # every event from the first: live = replay
        assert events_state(replay) == live
        replay.journal.close()
        for stale in ("dane.json", "wywieszki", "strona", f"{KEY}.trf", "tokenless.bin"):
            target = out / stale
            if target.is_dir():
                for p in target.rglob("*"):
                    if p.is_file():
                        p.unlink()
            else:
                target.unlink()
        daemon, conn, desk = start(db)
        assert standings(desk) == before
        run(capsys, "chess", "post", KEY, "--standings", "-o", str(out / "wywieszki"), *conn)
        run(capsys, "chess", "export", KEY, "-o", str(out / f"{KEY}.trf"), *conn)
        publish(out / "strona", "127.0.0.1", int(conn[1]))
        (out / "tokenless.bin").write_bytes(tokenless_answers(int(conn[1])))
        desk.close()
        daemon.stop()
        (tmp_path / "daemon.log").write_text(log.getvalue(), encoding="utf-8")
        him = [SURNAME, FIRST, ERASED.email, ERASED.birth]
        assert {p.name: hits for p in files(tmp_path) if (hits := found(p.read_bytes(), him))} == {}
    finally:
        logging.getLogger().removeHandler(handler)


def test_a_group_journaled_with_its_raw_roster_by_an_older_version_still_replays_as_people(
    tmp_path: Path,
) -> None:
    """Before this version ``event-create`` held the day file's group as sent; such a journal
    replays, and its children are people: found by the guardian's e-mail, erased from the
    state, no birth date in what the daemon holds or shows."""
    from clockd.core import tomltext
    from clockd.core.actions import CreateEvent
    from clockd.core.chessday.group import ChessGroupConfig
    from clockd.service.actions import journal

    db = tmp_path / "szachy.db"
    daemon, _, desk = start(db)
    desk.close()
    daemon.stop()
    config = ChessGroupConfig(group=Group(key=KEY, level=Level.PRIMARY, grade=3, sex="m", entrants=CHILDREN))
    text = tomltext.dumps(config.model_dump(mode="json", exclude_defaults=True))
    old = journal(
        CreateEvent(event_kind="chess", key=KEY, config_toml=text),
        target="desk",
        event=KEY,
        decided=config.model_dump(mode="json"),
    )
    with Journal(db) as j:
        j.append([old.at(list(j.read())[-1].entry.t_ns)])
    for _ in range(2):  # the same ids at every replay
        daemon, conn, desk = start(db)
        body = desk.events([KEY]).events[0].body
        assert [p.name for p in body.start_list][-1] == f"{SURNAME} {FIRST}"
        (child,) = desk.person("find", text=ERASED.email, reason="the guardian asks").people
        assert child.sources[0].person.first_name == FIRST
        state = json.dumps(events_state(daemon.engine))
        assert found(state.encode(), PRIVATE) == []
        answers = tokenless_answers(int(conn[1]))
        desk.close()
        daemon.stop()
    assert [s for s in found(answers, PRIVATE)] == []
    daemon, conn, desk = start(db)
    desk.act("", PersonErase(person=child.person_id, reason="RODO art. 17"))
    assert [p.name for p in desk.events([KEY]).events[0].body.start_list][-1] == SEALED_NAME
    assert desk.person("find", text=ERASED.email, reason="was he erased?").people == []
    live = events_state(daemon.engine)
    desk.close()
    daemon.stop()
    replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
    replay.rebuild(use_snapshots=False)
    assert events_state(replay) == live
    replay.journal.close()
