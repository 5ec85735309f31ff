"""Schema versions and migrations: a database an older duelclock wrote opens, upgraded, data intact."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import Field

from clockd.store import SCHEMA_VERSION, Entry, Journal, SchemaError, entry_type
from clockd.store.chain import GENESIS, format_head, row_hash
from clockd.store.schema import MIGRATIONS, migrate, schema_version


@entry_type
class Memo(Entry):
    """An entry kind of this test's own: the schema keeps rows whatever kinds they hold."""

    kind: Literal["test-schema-memo"] = "test-schema-memo"
    text: str


def old_database(path: Path, version: int) -> None:
    """A file exactly as a duelclock of schema ``version`` left it, holding two entries."""
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, target=version)
    head = GENESIS
    for seq, t, text in ((1, 10, "first"), (2, 20, "second")):
        body = Memo(t_ns=t, table=3, text=text).model_dump_json()
        db.execute(
            "INSERT INTO events (seq, t_ns, table_id, kind, body) VALUES (?, ?, 3, ?, ?)",
            (seq, t, "test-schema-memo", body),
        )
        if version >= 4:  # the chain: every row hashed as it was appended
            head = row_hash(head, seq, t, 3, "test-schema-memo", body)
            db.execute("UPDATE events SET hash = ? WHERE seq = ?", (head, seq))
            db.execute("UPDATE meta SET value = ? WHERE key = 'chain_head'", (format_head(seq, head),))
    db.execute("INSERT INTO meta (key, value) VALUES ('api_token', 'old-token')")
    db.close()


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_an_older_database_is_upgraded_and_keeps_its_events(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    old_database(path, version)
    with Journal(path) as j:
        assert schema_version(j._db) == SCHEMA_VERSION
        assert [r.entry.text for r in j.read()] == ["first", "second"]  # type: ignore[attr-defined]
        assert j.meta("api_token") == "old-token"
        assert j.append([]) == []
        j.save_snapshot(2, 1, "{}")  # the snapshot table of version 2 exists
        assert [r.seq for r in j.read(table=3)] == [1, 2]
        indexes = {row[1] for row in j._db.execute("PRAGMA index_list(events)")}
        assert "events_by_table" in indexes
        check = j.verify()  # version 4: the rows already there were chained as they stood
        assert check.ok and check.last_seq == 2, check.problem
        assert j.meta("journal_id")
        assert j.vault_people() == set()  # version 5: the vault, empty


def test_the_vault_keeps_people_s_data_beside_the_chained_rows_and_erasure_leaves_the_chain_whole(
    tmp_path: Path,
) -> None:
    """An entry's vault records go in the same transaction, never in its row; erasing a person
    deletes theirs (and only theirs), and the chain still verifies."""
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        j.append([Filed(text="sign-up", people={"p-anna": "anna@example.pl", "p-ola": "ola@example.pl"})])
        j.append([Filed(text="erase", erase="p-anna")])
        assert j.vault_people() == {"p-ola"} and j.purge_pending
        first = next(iter(j.read()))
        assert first.entry.vault_records() == {"p-ola": {"email": "ola@example.pl"}}
        j.save_snapshot(2, 1, "{}")
        j.purge()
        assert not j.purge_pending and j.verify().ok
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("journal.db"))
    assert b"anna@example.pl" not in data and b"ola@example.pl" in data


@entry_type
class Filed(Entry):
    """An entry of this test's own that brings people's data (by person id) or erases one."""

    kind: Literal["test-schema-filed"] = "test-schema-filed"
    text: str
    erase: str = ""
    people: dict[str, str] = Field(default_factory=dict, exclude=True)

    def vault_records(self) -> dict[str, dict[str, str]]:
        return {p: {"email": e} for p, e in self.people.items()}

    def vault_erases(self) -> str | None:
        return self.erase or None

    def with_vault(self, records: Mapping[str, Any]) -> Filed:
        return self.model_copy(update={"people": {p: r["email"] for p, r in records.items()}})


def test_a_snapshot_from_before_the_chain_is_still_used_after_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    old_database(path, 3)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("INSERT INTO snapshots (seq, format, body) VALUES (2, 1, '{\"at\": 2}')")
    db.execute("INSERT INTO snapshots (seq, format, body) VALUES (9, 1, '{\"ahead\": true}')")
    db.close()
    with Journal(path) as j:
        assert [(s.seq, s.body, s.intact) for s in j.snapshots(include_damaged=True)] == [
            (2, '{"at": 2}', True)
        ]


def test_a_new_file_gets_the_current_version(tmp_path: Path) -> None:
    with Journal(tmp_path / "new.db") as j:
        assert schema_version(j._db) == SCHEMA_VERSION == len(MIGRATIONS)


def test_a_database_from_a_newer_duelclock_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    db.commit()
    db.close()
    with pytest.raises(
        SchemaError, match=rf"schema version {SCHEMA_VERSION + 5}.*written by a newer duelclock"
    ):
        Journal(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 5
    db.close()


def test_a_failing_migration_leaves_the_file_exactly_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    old_database(path, 1)
    # Something in the way of version 2 (a table of that name made by hand, say).
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE snapshots (x)")
    db.close()
    with pytest.raises(
        SchemaError, match=rf"from schema version 1 to {SCHEMA_VERSION}.*the file is unchanged"
    ):
        Journal(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    assert {r[1] for r in db.execute("PRAGMA index_list(events)")} == set()  # v3 not half-applied
    db.close()


def test_a_reader_refuses_a_database_that_needs_an_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    old_database(path, 1)
    with pytest.raises(SchemaError, match="start the daemon on it once to upgrade it"):
        Journal.reader(path)
