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

import httpx
import pytest

from clockd.api.client import Client
from clockd.cli import main
from clockd.core.chessday.group import CloseRound, EnterResult, PairRound
from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level
from clockd.core.registration import SEALED_NAME
from clockd.core.registry import PersonErase
from clockd.core.swiss import trf
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
            birth=f"{2016 if s == SURNAME else 2017}/{1 + i:02d}/{10 + i:02d}",
            email=f"opiekun.{i}.szachy@example.pl",
            form_line=i + 1,
        )
        for i, s in enumerate(surnames)
    )


def dates(birth: str) -> list[str]:
    """A birth date as the day file gives it, and as a page or a printout might write it."""
    year, month, day = birth.split("/")
    return [birth, f"{year}-{month}-{day}", f"{day}.{month}.{year}"]


CHILDREN = entrants()
PRIVATE = [e.email for e in CHILDREN] + [d for e in CHILDREN for d in dates(e.birth)]
ERASED = next(e for e in CHILDREN if e.surname == SURNAME)


def found(data: bytes, texts: list[str]) -> list[str]:
    """Which of ``texts`` ``data`` holds, in any of their written forms and in any case."""
    data = data.lower()
    return [t for t in texts if any(f.lower() in data for f in forms(t))]


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


def web_pages(daemon: Daemon, port: int, token: str, folder: Path) -> None:
    """The web beside the daemon, as a phone sees it: the index, the group's page and both
    streams' first messages, written to ``folder`` (so the byte scan reads them)."""
    from tests.web.conftest import Desk, serve
    from web.access import AccessFile

    web = serve(Desk(daemon, {}, Client("127.0.0.1", port, None), token, port, AccessFile(folder / "a.json")))
    folder.mkdir(exist_ok=True)
    try:
        for name, path in (("index", "/"), ("grupa", f"/e/{KEY}"), ("grupa-en", f"/e/{KEY}?lang=en")):
            page = httpx.get(web.url + path, timeout=10)
            assert page.status_code == 200, path
            (folder / f"{name}.html").write_bytes(page.content)
        for name, path in (("index.sse", "/stream"), ("grupa.sse", f"/e/{KEY}/stream")):
            with httpx.stream("GET", web.url + path, timeout=10) as r:
                got = b""
                for chunk in r.iter_bytes():
                    got += chunk
                    if b"event: clocks" in got:
                        break
            (folder / name).write_bytes(got)
    finally:
        web.server.stop()


def play_round(desk: Client, results: str) -> None:
    """Pair the next round and enter ``results`` board by board (``1``, ``0``, ``=``), then close it."""
    desk.act(KEY, PairRound())
    boards = desk.events([KEY]).events[0].body.boards
    for board, result in zip(boards, results, strict=False):
        desk.act(KEY, EnterResult(board=board.board, result=result))
    desk.act(KEY, CloseRound())


def outputs(capsys: pytest.CaptureFixture[str], daemon: Daemon, conn: list[str], out: Path) -> None:
    """Everything the hall writes or prints of the group, into ``out``: the posted pairings,
    standings and result slips, the TRF, the text commands' output, ``duelclock publish``, the web's pages and
    streams, and the tokenless API's answers."""
    port = int(conn[1])
    run(capsys, "chess", "post", KEY, "-o", str(out / "wywieszki"), *conn)
    run(capsys, "chess", "post", KEY, "--standings", "-o", str(out / "wywieszki"), *conn)
    run(capsys, "chess", "post", KEY, "--slips", "-o", str(out / "blankiety"), *conn)
    run(capsys, "chess", "export", KEY, "-o", str(out / f"{KEY}.trf"), *conn)
    text = [run(capsys, "chess", what, KEY, *conn) for what in ("pairings", "standings")]
    text += [run(capsys, "chess", "status", *conn), run(capsys, "event", "list", "--port", str(port))]
    (out / "wydruki.txt").write_text("\n".join(text), encoding="utf-8")
    run(capsys, "publish", str(out / "strona"), "--daemon-port", str(port))
    web_pages(daemon, port, conn[3], out / "web")
    with (out / "tokenless.bin").open("ab") as f:
        f.write(tokenless_answers(port))


def trf_results(path: Path) -> list[tuple[int, str, int | None]]:
    """Each player's start number, points and place as the exported TRF gives them."""
    return [
        (p.start_number, str(p.points), p.rank) for p in trf.loads(path.read_text(encoding="utf-8")).players
    ]


def clear(folder: Path) -> None:
    for p in sorted(folder.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()


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
        stranger = Raw(int(conn[1]))  # subscribed, with the timeline, from before the import
        stranger.ask({"type": "subscribe", "timeline": True})
        day = ChessDay(
            title="Szkolny Turniej Szachowy",
            date="2026-06-20",
            rounds=3,
            groups=(Group(key=KEY, level=Level.PRIMARY, grade=3, sex="m", entrants=CHILDREN),),
        )
        (tmp_path / "dzien.json").write_text(day.model_dump_json(), encoding="utf-8")
        sent = set(found((tmp_path / "dzien.json").read_bytes(), PRIVATE))
        assert sent >= {e.email for e in CHILDREN} | {e.birth for e in CHILDREN}  # what is looked for
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
        for typed in (ERASED.email, f"{FIRST} {SURNAME}", SURNAME):  # as the referee types it
            said = run(capsys, "person", "find", typed, "--reason", "the guardian asks", *conn)
            assert child.person_id in said and said.count("\n") >= 1, typed
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

        # a surname corrected (art. 16): the start list says it, and it is the vault's, not the row's
        (first,) = desk.person("find", text=CHILDREN[0].email, reason="the guardian asks").people
        run(capsys, "person", "correct", first.person_id, "last_name", "Nowak-Kos", "--reason", "typo", *conn)
        assert desk.events([KEY]).events[0].body.start_list[0].name == "Nowak-Kos Łukasz"

        # two rounds played (wins, losses, draws: places decided by points and tie-breaks)
        play_round(desk, "10=1=0")
        play_round(desk, "=10=1=")
        stranger.until(lambda m: m.get("type") == "timeline-entry" and m["entry"]["kind"] == "chess-close")
        before = standings(desk)
        assert len({rank for rank, _, _ in before}) > 2 and len({str(v) for _, _, v in before}) > 2
        outputs(capsys, daemon, conn, out)
        assert SURNAME in (out / "strona" / f"{KEY}.html").read_text(encoding="utf-8")
        assert SURNAME in (out / "web" / "grupa.html").read_text(encoding="utf-8")
        trf_before = trf_results(out / f"{KEY}.trf")
        assert "Nowak-Kos, Łukasz" in (out / f"{KEY}.trf").read_text(encoding="utf-8")
        desk.close()
        daemon.stop()  # a clean stop: a snapshot
        daemon, conn, desk = start(db)  # a restart from it
        assert standings(desk) == before
        with (out / "tokenless.bin").open("ab") as f:
            f.write(tokenless_answers(int(conn[1])) + bytes(stranger.received))
        stranger.close()

        # no e-mail and no birth date anywhere: the database, its WAL, the snapshots, every output
        (tmp_path / "daemon.log").write_text(log.getvalue(), encoding="utf-8")
        every = list(files(tmp_path))
        names = {p.name for p in every}
        assert names >= {"szachy.db", "szachy.db-wal", "dane.json", f"{KEY}.trf", "grupa.sse", "daemon.log"}
        assert {"sp3-ch.html", "tokenless.bin", "wydruki.txt"} <= names
        assert {p.name: hits for p in every if (hits := found(p.read_bytes(), PRIVATE))} == {}
        with Journal.reader(db) as j:
            snapshots = j.snapshots()
        assert snapshots and all(found(s.body.encode(), PRIVATE) == [] for s in snapshots)

        # erased: the standings as they were, the child in no byte
        run(
            capsys,
            "person",
            "erase",
            child.person_id,
            "--reason",
            "RODO art. 17: the guardian's request",
            *conn,
        )
        assert standings(desk) == before
        body = desk.events([KEY]).events[0].body
        assert [p.name for p in body.start_list][-1] == SEALED_NAME
        for asked in (ERASED.email, SURNAME, f"{FIRST} {SURNAME}"):
            assert desk.person("find", text=asked, reason="was he erased?").people == []
        live = events_state(daemon.engine)
        desk.close()
        daemon.stop()
        replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
        replay.rebuild(use_snapshots=False)  # every event from the first: live = replay
        assert events_state(replay) == live
        replay.journal.close()
        clear(out)  # what was written before the erasure is the organiser's to delete
        daemon, conn, desk = start(db)
        assert standings(desk) == before
        outputs(capsys, daemon, conn, out)
        assert trf_results(out / f"{KEY}.trf") == trf_before
        probe = desk.person("find", text="Jan", reason="the others are still here")
        assert len(probe.people) == 5
        with Journal.reader(db) as j:
            assert all(found(s.body.encode(), [SURNAME, FIRST]) == [] for s in j.snapshots())
        (tmp_path / "daemon.log").write_text(log.getvalue(), encoding="utf-8")
        him = [SURNAME, FIRST, ERASED.email, *dates(ERASED.birth)]
        every = list(files(tmp_path))
        assert {"szachy.db", "szachy.db-wal", "grupa.html", f"{KEY}.trf"} <= {p.name for p in every}
        assert {p.name: hits for p in every if (hits := found(p.read_bytes(), him))} == {}
        desk.close()
        daemon.stop()
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


def test_the_birth_year_is_kept_only_when_the_organiser_asks_and_given_only_with_the_token(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chess import --birth-year``: the TRF for a rating office has each child's year of
    birth (``chess export --birth-year``, with the token); no date is kept, a stranger's TRF has
    no year, and an erased child's year is gone from the vault with the rest of him."""
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db = tmp_path / "szachy.db"
    daemon, conn, desk = start(db)
    tokenless = conn[:2]
    day = ChessDay(
        title="Szkolny Turniej Szachowy",
        date="2026-06-20",
        rounds=3,
        groups=(Group(key=KEY, level=Level.PRIMARY, grade=3, sex="m", entrants=CHILDREN),),
    )
    (tmp_path / "dzien.json").write_text(day.model_dump_json(), encoding="utf-8")
    run(capsys, "chess", "import", str(tmp_path / "dzien.json"), "--birth-year", *conn)
    play_round(desk, "10=1=0")

    def years(path: Path) -> dict[int, str]:
        return {p.start_number: p.birth for p in trf.loads(path.read_text(encoding="utf-8")).players}

    run(capsys, "chess", "export", KEY, "-o", str(tmp_path / "public.trf"), *tokenless)
    assert set(years(tmp_path / "public.trf").values()) == {""}  # a stranger's TRF: no year
    assert main(["chess", "export", KEY, "--birth-year", "-o", str(tmp_path / "x.trf"), *tokenless]) == 2
    assert "wymaga tokenu sędziego" in capsys.readouterr().err and not (tmp_path / "x.trf").exists()
    run(capsys, "chess", "export", KEY, "--birth-year", "-o", str(tmp_path / "biuro.trf"), *conn)
    assert years(tmp_path / "biuro.trf") == {e.start: e.birth[:4] for e in CHILDREN}
    assert trf_results(tmp_path / "biuro.trf") == trf_results(tmp_path / "public.trf")
    assert tokenless_answers(int(conn[1])).count(b'"2017"') == 0

    journal_files = [tmp_path / "szachy.db", tmp_path / "szachy.db-wal"]
    held = b"".join(p.read_bytes() for p in journal_files)
    assert found(held, PRIVATE) == [] and b'"2016"' in held  # his year, in the vault: no date anywhere
    (child,) = desk.person("find", text=ERASED.email, reason="the guardian asks").people
    run(capsys, "person", "erase", child.person_id, "--reason", "RODO art. 17", *conn)
    run(capsys, "chess", "export", KEY, "--birth-year", "-o", str(tmp_path / "biuro.trf"), *conn)
    assert years(tmp_path / "biuro.trf")[ERASED.start] == ""
    desk.close()
    daemon.stop()
    held = b"".join(p.read_bytes() for p in journal_files if p.exists())
    assert b'"2016"' not in held and found(held, [SURNAME, FIRST]) == []

    daemon, conn, desk = start(db)
    # a group made without the years has none to give
    run(capsys, "chess", "import-trf", "sp3-ch-b", str(tmp_path / "public.trf"), "--first-board", "30", *conn)
    assert main(["chess", "export", "sp3-ch-b", "--birth-year", "-o", str(tmp_path / "b.trf"), *conn]) == 2
    assert "bez roczników urodzenia" in capsys.readouterr().err
    desk.close()
    daemon.stop()
