"""The journal on a real SQLite file: order, atomic group commits, durability under SIGKILL, locks."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest

from clockd.store import Entry, Journal, JournalError, JournalLocked, UnknownEntryKind, entry_type
from clockd.store.entries import decode_entry


@entry_type
class Tick(Entry):
    """A test event (the daemon's own events are tested through the engine)."""

    kind: Literal["test-tick"] = "test-tick"
    n: int


def ticks(*ns: int, table: int | None = 1) -> list[Entry]:
    return [Tick(n=n, t_ns=1000 * n, table=table) for n in ns]


def test_append_assigns_dense_sequence_numbers_and_reads_back_in_order(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        assert j.append(ticks(1, 2, 3)) == [1, 2, 3]
        assert j.append(ticks(4)) == [4]
        assert j.append([]) == []
    with Journal(tmp_path / "j.db") as j:  # after a reopen, numbering continues
        assert j.last_seq == 4
        assert j.append(ticks(5)) == [5]
        records = list(j.read())
    assert [r.seq for r in records] == [1, 2, 3, 4, 5]
    assert [r.entry for r in records] == ticks(1, 2, 3, 4, 5)


def test_read_filters_by_table_and_position(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        j.append(ticks(1, table=1) + ticks(2, table=2) + ticks(3, table=1) + ticks(4, table=None))
        assert [r.seq for r in j.read(table=1)] == [1, 3]
        assert [r.seq for r in j.read(after=1, upto=3)] == [2, 3]
        assert [r.seq for r in j.read(limit=2)] == [1, 2]


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_batch_that_fails_midway_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as j:
        j.append(ticks(1))
        # A write that fails on the third row of a batch, as a full disk would.
        j._db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN json_extract(NEW.body, '$.n') = 99 "
            "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )
        with pytest.raises(JournalError, match="could not commit 3 event"):
            j.append(ticks(2, 3, 99))
        assert j.last_seq == 1
        assert j.count() == 1
        assert j.append(ticks(4)) == [2]  # numbering has no hole
    with Journal.reader(path) as r:
        assert [r.entry for r in r.read()] == ticks(1, 4)


def test_a_second_writer_is_refused_while_the_first_holds_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    first = Journal(path)
    with pytest.raises(JournalLocked, match=rf"in use by another duelclock daemon \(pid {os.getpid()}\)"):
        Journal(path)
    with Journal.reader(path) as reader:  # readers need no lock
        assert reader.last_seq == 0
    first.close()
    Journal(path).close()


def test_a_reader_sees_commits_of_a_running_writer_and_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as writer, Journal.reader(path) as reader:
        writer.append(ticks(1, 2))
        assert reader.last_seq == 2
        with pytest.raises(JournalError, match="read-only"):
            reader.append(ticks(3))


def test_an_unknown_event_kind_is_an_error_naming_the_place(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as j:
        j.append(ticks(1))
        j._db.execute(
            "INSERT INTO events (seq, t_ns, table_id, kind, body) VALUES (2, 5, 1, 'from-the-future', '{}')"
        )
    with Journal.reader(path) as r, pytest.raises(UnknownEntryKind, match=r"'from-the-future' at .*seq 2"):
        list(r.read())


def test_an_event_that_does_not_read_back_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"'test-tick' at seq 7 does not read back: n: "):
        decode_entry("test-tick", '{"kind": "test-tick", "n": "seven"}', where="seq 7")


def test_registering_a_kind_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="'test-tick' is already taken"):

        @entry_type
        class Other(Entry):
            kind: Literal["test-tick"] = "test-tick"


def test_snapshots_keep_the_newest_few(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        j.append(ticks(*range(1, 11)))
        for seq in (2, 4, 6, 8):
            j.save_snapshot(seq, 1, f'{{"at": {seq}}}', keep=3)
        assert [s.seq for s in j.snapshots()] == [8, 6, 4]
        with pytest.raises(JournalError, match="ahead of the journal"):
            j.save_snapshot(11, 1, "{}")


def test_meta_default_stores_once(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as j:
        assert j.meta_default("api_token", lambda: "first") == "first"
        assert j.meta_default("api_token", lambda: "second") == "first"
    with Journal(path) as j:
        assert j.meta("api_token") == "first"


def test_every_batch_reported_committed_survives_sigkill(tmp_path: Path) -> None:
    """A writer prints each seq after append() returns; SIGKILL at a random point loses none of them."""
    path = tmp_path / "j.db"
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_journal import Journal, ticks
        j = Journal({str(path)!r})
        n = 0
        while True:
            n += 1
            seqs = j.append(ticks(n, n))
            print(seqs[-1], flush=True)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    acknowledged = 0
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 60:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Journal(path) as j:  # the writer's lock died with it
        seqs = [r.seq for r in j.read()]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) >= acknowledged
    assert len(seqs) % 2 == 0  # batches of two: never half a batch


def test_a_corrupt_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "not-a-db.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match=r"not-a-db\.db cannot be opened"):
        Journal(path)
    path.unlink()
    Journal(path).close()  # the lock taken before the failure was released


def test_sqlite_is_new_enough_for_json_functions_used_in_tests() -> None:
    assert sqlite3.sqlite_version_info >= (3, 38)
