"""The referee's token: never in clear in the journal's files; kept in daemon.json (owner-only),
taken back from there at a restart; an older journal's clear token is erased and replaced."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from clockd.api import ApiError, Client
from clockd.core.program import AddNote
from clockd.service.runtime import Daemon, TableSpec
from clockd.store import Journal, UnsafeFolder
from clockd.store.schema import migrate


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"  # does not exist yet: the daemon makes it
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(folder))
    return folder


@pytest.fixture
def daemons() -> Iterator[list[Daemon]]:
    made: list[Daemon] = []
    yield made
    for daemon in made:
        daemon.stop()


def start(db: Path, daemons: list[Daemon]) -> Daemon:
    daemon = Daemon(db, tables=[TableSpec(1)], port=0)
    daemons.append(daemon)
    daemon.start()
    return daemon


def journal_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))


def accepted(daemon: Daemon, token: str) -> bool:
    with Client(port=daemon.port, token=token, by="Ewa") as client:
        try:
            client.act(1, AddNote(text="token check"))
        except ApiError as exc:
            assert exc.code == "unauthorized"
            return False
        return True


def test_the_token_is_in_daemon_json_only_never_in_clear_in_the_journal(
    tmp_path: Path, state: Path, daemons: list[Daemon]
) -> None:
    db = tmp_path / "festival.db"
    daemon = start(db, daemons)
    token = daemon.token
    assert accepted(daemon, token)
    assert token.encode() not in journal_bytes(db)  # db, -wal, -shm, lock file: no clear token
    with Journal.reader(db) as j:
        assert j.meta("api_token") is None
        stored = j.meta("api_token_hash")
        assert stored is not None and stored.startswith("sha256$") and token not in stored
    info = state / "daemon.json"
    assert json.loads(info.read_text())["token"] == token
    assert stat.S_IMODE(os.stat(info).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(state).st_mode) == 0o700


def test_a_restart_takes_the_token_back_from_daemon_json_and_without_it_makes_a_new_one(
    tmp_path: Path, state: Path, daemons: list[Daemon]
) -> None:
    db = tmp_path / "festival.db"
    first = start(db, daemons)
    token = first.token
    first.stop()
    assert json.loads((state / "daemon.json").read_text())["pid"] is None  # stopped, token kept
    again = start(db, daemons)
    assert again.token == token and accepted(again, token)
    again.stop()

    (state / "daemon.json").unlink()
    renewed = start(db, daemons)
    assert renewed.token != token
    assert accepted(renewed, renewed.token)
    assert not accepted(renewed, token)


def test_a_token_an_older_duelclock_stored_in_clear_is_erased_and_replaced(
    tmp_path: Path, state: Path, daemons: list[Daemon]
) -> None:
    db = tmp_path / "old.db"
    old = "OldClearToken-readable-by-everyone"
    raw = sqlite3.connect(db, isolation_level=None)
    migrate(raw, target=3)  # the journal as duelclock left it before the chain and the hash
    raw.execute("PRAGMA journal_mode = WAL")
    raw.execute("INSERT INTO meta (key, value) VALUES ('api_token', ?)", (old,))
    raw.close()
    state.mkdir(mode=0o700)
    (state / "daemon.json").write_text(json.dumps({"port": 1, "token": old, "pid": None, "db": str(db)}))

    daemon = start(db, daemons)
    assert daemon.token != old
    assert not accepted(daemon, old)
    assert accepted(daemon, daemon.token)
    assert old.encode() not in journal_bytes(db)


def test_a_state_folder_others_can_write_to_is_refused(
    tmp_path: Path, state: Path, daemons: list[Daemon]
) -> None:
    state.mkdir()
    os.chmod(state, 0o777)  # anyone could swap daemon.json for one pointing to their own port
    with pytest.raises(UnsafeFolder, match=f"the folder {state} can be written by other users"):
        start(tmp_path / "festival.db", daemons)
    assert list(state.iterdir()) == []
    assert not (tmp_path / "festival.db").exists()
