"""The hash chain over the journal's events: any change to a row is named by its seq, rows cut
off the end are noticed by the recorded heads, and a damaged snapshot is left out."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from pathlib import Path
from typing import Literal

import pytest

from clockd.store import Entry, Journal, JournalDamaged, entry_type
from clockd.store.chain import GENESIS, row_hash


@entry_type
class ChainTick(Entry):
    kind: Literal["test-chain-tick"] = "test-chain-tick"
    n: int


def journal_of(path: Path, n: int = 10) -> Path:
    with Journal(path) as j:
        for i in range(1, n + 1):
            j.append([ChainTick(n=i, t_ns=1_000_000 * i, table=1 + i % 2)])
    return path


def tamper(path: Path, sql: str, *args: object) -> None:
    """Change the file behind duelclock's back, as a text editor for SQLite or a bad sector would."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(sql, args)
    db.close()


def integrity(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


def test_an_untouched_journal_verifies(tmp_path: Path) -> None:
    path = journal_of(tmp_path / "j.db")
    with Journal.reader(path) as r:
        check = r.verify()
        assert [rec.seq for rec in r.read(verify=True)] == list(range(1, 11))
    assert check.ok and check.first_bad_seq is None and check.last_seq == check.events == 10


def test_an_event_moved_by_one_millisecond_is_named_by_its_seq(tmp_path: Path) -> None:
    path = journal_of(tmp_path / "j.db")
    tamper(
        path,
        "UPDATE events SET t_ns = t_ns + 1000000, body = json_set(body, '$.t_ns', t_ns + 1000000) "
        "WHERE seq = 6",
    )
    assert integrity(path) == "ok"  # SQLite sees nothing wrong
    with Journal.reader(path) as r:
        check = r.verify()
        assert not check.ok and check.first_bad_seq == 6
        assert "the event at seq 6 does not match the hash chain" in (check.problem or "")
        with pytest.raises(JournalDamaged, match="seq 6 does not match") as damaged:
            list(r.read(verify=True))
        assert damaged.value.seq == 6
        assert [rec.seq for rec in r.read(after=6, verify=True)] == [7, 8, 9, 10]  # the rest still links


def test_a_flipped_bit_in_the_stored_hash_and_a_deleted_row_are_named_too(tmp_path: Path) -> None:
    path = journal_of(tmp_path / "j.db")
    tamper(path, "UPDATE events SET hash = zeroblob(32) WHERE seq = 3")
    with Journal.reader(path) as r:
        assert r.verify().first_bad_seq == 3
    path = journal_of(tmp_path / "k.db")
    tamper(path, "DELETE FROM events WHERE seq = 4")
    with Journal.reader(path) as r:
        check = r.verify()
    assert check.first_bad_seq == 4 and "seq 4 is missing" in (check.problem or "")


def test_rows_cut_off_the_end_are_noticed_by_the_recorded_head(tmp_path: Path) -> None:
    path = journal_of(tmp_path / "j.db")
    tamper(path, "DELETE FROM events WHERE seq > 7")  # what is left is a perfect chain of 7 rows
    with Journal.reader(path) as r:
        check = r.verify()
    assert check.first_bad_seq == 8 and "the events after seq 7 are missing" in (check.problem or "")
    with pytest.raises(JournalDamaged, match="ends at seq 7, but its recorded head is seq 10") as refused:
        Journal(path)
    assert refused.value.seq == 8


def test_a_head_rewritten_with_the_rows_is_still_caught_by_the_lock_file(tmp_path: Path) -> None:
    """A -wal lost while the daemon was stopped takes the rows and the meta head together."""
    path = journal_of(tmp_path / "j.db")  # closed cleanly: the lock file says seq 10
    db = sqlite3.connect(path, isolation_level=None)
    seven = db.execute("SELECT hash FROM events WHERE seq = 7").fetchone()[0]
    db.execute("DELETE FROM events WHERE seq > 7")
    db.execute("UPDATE meta SET value = ? WHERE key = 'chain_head'", (f"7:{seven.hex()}",))
    db.close()
    with pytest.raises(JournalDamaged, match=r"ends at seq 7, but it had reached seq 10 \(its lock file"):
        Journal(path)
    with Journal.reader(path) as r:
        assert r.verify().first_bad_seq == 8


def test_a_damaged_snapshot_is_left_out_with_a_warning_naming_the_file_and_seq(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = journal_of(tmp_path / "j.db")
    with Journal(path) as j:
        j.save_snapshot(4, 1, json.dumps({"label": "Stolik 1"}))
        j.save_snapshot(8, 1, json.dumps({"label": "Stolik 1"}))
    tamper(path, "UPDATE snapshots SET body = replace(body, 'Stolik 1', 'Stolik 7') WHERE seq = 8")
    with Journal.reader(path) as r, caplog.at_level(logging.WARNING, logger="clockd.store.journal"):
        assert [s.seq for s in r.snapshots()] == [4]  # the older, intact one
        assert [(s.seq, s.intact) for s in r.snapshots(include_damaged=True)] == [(8, False), (4, True)]
        assert not r.verify().ok
    assert f"journal {path}: the snapshot at seq 8 is damaged" in caplog.text


def test_a_snapshot_is_tied_to_the_event_it_was_taken_at(tmp_path: Path) -> None:
    path = journal_of(tmp_path / "j.db")
    with Journal(path) as j:
        j.save_snapshot(10, 1, "{}")
    tamper(path, "UPDATE events SET hash = zeroblob(32) WHERE seq = 10")
    with Journal.reader(path) as r:
        assert [(s.seq, s.intact) for s in r.snapshots(include_damaged=True)] == [(10, False)]


def test_the_chain_is_the_documented_definition_and_never_changes() -> None:
    """Part of the file format (schema version 4): rows written by any duelclock since are hashed so."""
    prev = hashlib.sha256(b"any previous hash").digest()
    assert (
        row_hash(GENESIS, 1, 5, None, "note", '{"a":1}')
        == hashlib.sha256(bytes(32) + b'1\x1f5\x1f\x1fnote\x1f{"a":1}').digest()
    )
    assert (
        row_hash(prev, 12, -3, 7, "press", "{}")
        == hashlib.sha256(prev + b"12\x1f-3\x1f7\x1fpress\x1f{}").digest()
    )
