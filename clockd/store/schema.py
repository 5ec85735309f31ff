"""The journal's SQLite schema and its migrations.

The schema version is SQLite's ``PRAGMA user_version`` (0 in a new file). ``MIGRATIONS[i]``
takes a database from version ``i`` to ``i + 1``. :func:`migrate` runs every step a file
needs **in one transaction**, with the new version number written in the same
transaction: a migration that fails (a full disk, a bug) leaves the file exactly as it
was, never half-migrated.

Rules for adding a migration: append a function, never edit a released one (a referee's
laptop may hold a database of any earlier version), keep data (``ALTER TABLE … ADD
COLUMN``, or create-copy-rename), and add a test that opens a file of the previous
version holding events and checks they survive.

History:

1. ``meta`` (key/value: the API token, the database's identity) and ``events`` (the
   journal itself: ``seq``, the time ``t_ns``, ``table_id``, ``kind``, the event's JSON).
2. ``snapshots``: folded state as of a journal ``seq``, so a restart replays only the tail.
3. an index on ``events(table_id, seq)``: a table's timeline (disputes) without a scan.
4. the hash chain (:mod:`clockd.store.chain`): ``events.hash`` on every row (the rows already
   there are chained by the migration, as they stand), ``snapshots.checksum``, and in ``meta``
   the chain's head (``chain_head``) and the journal's identity (``journal_id``, a random id
   that the lock file repeats, so a journal replaced by another or by an empty file is noticed).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable

from clockd.i18n import Msg, Problem
from clockd.store.chain import GENESIS, format_head, row_hash, snapshot_checksum


def _v1_journal(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        """CREATE TABLE events (
               seq      INTEGER PRIMARY KEY,
               t_ns     INTEGER NOT NULL,
               table_id INTEGER,
               kind     TEXT NOT NULL,
               body     TEXT NOT NULL
           )"""
    )


def _v2_snapshots(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE snapshots (
               seq     INTEGER PRIMARY KEY,
               format  INTEGER NOT NULL,
               body    TEXT NOT NULL
           )"""
    )


def _v3_timeline_index(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX events_by_table ON events (table_id, seq)")


def _v4_chain(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE events ADD COLUMN hash BLOB")
    db.execute("ALTER TABLE snapshots ADD COLUMN checksum BLOB")
    head, head_seq = GENESIS, 0
    hashes: dict[int, bytes] = {}
    snapshot_seqs = {int(r[0]) for r in db.execute("SELECT seq FROM snapshots")}
    while True:  # in chunks: a festival's journal holds hundreds of thousands of rows
        rows = db.execute(
            "SELECT seq, t_ns, table_id, kind, body FROM events WHERE seq > ? ORDER BY seq LIMIT 4096",
            (head_seq,),
        ).fetchall()
        if not rows:
            break
        updates = []
        for seq, t_ns, table, kind, body in rows:
            head, head_seq = row_hash(head, seq, t_ns, table, kind, body), seq
            updates.append((head, seq))
            if seq in snapshot_seqs:
                hashes[seq] = head
        db.executemany("UPDATE events SET hash = ? WHERE seq = ?", updates)
    for seq, format, body in db.execute("SELECT seq, format, body FROM snapshots").fetchall():
        if seq in hashes:
            db.execute(
                "UPDATE snapshots SET checksum = ? WHERE seq = ?",
                (snapshot_checksum(seq, format, hashes[seq], body), seq),
            )
        else:  # a snapshot of events that are not there: it could never be used; drop it
            db.execute("DELETE FROM snapshots WHERE seq = ?", (seq,))
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('chain_head', ?)", (format_head(head_seq, head),)
    )
    db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('journal_id', ?)", (secrets.token_hex(16),))


def _v5_vault(db: sqlite3.Connection) -> None:
    """The vault: people's personal data beside the journal, never in its hash-chained rows.

    One row per person per entry that brought their data (``seq``, the entry; ``person``,
    the pseudonymous person id; ``body``, the fields as JSON). Erasing a person deletes
    their rows; the entries stay as they were, so the chain holds (``docs/architecture.md``, "The vault").
    """
    db.execute(
        """CREATE TABLE vault (
               seq    INTEGER NOT NULL,
               person TEXT NOT NULL,
               body   TEXT NOT NULL,
               PRIMARY KEY (seq, person)
           )"""
    )
    db.execute("CREATE INDEX vault_by_person ON vault (person)")


Migration = Callable[[sqlite3.Connection], None]

#: ``MIGRATIONS[i]`` upgrades version ``i`` to ``i + 1``. Append only.
MIGRATIONS: tuple[Migration, ...] = (
    _v1_journal,
    _v2_snapshots,
    _v3_timeline_index,
    _v4_chain,
    _v5_vault,
)

#: The version this program writes.
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaError(Problem, RuntimeError):
    """The database cannot be used by this program; the message (a catalogue code) says why and
    what to do."""


#: The subject of a schema's sentences when the caller names no file.
THE_DATABASE = Msg("schema.where.database")


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, *, where: Msg = THE_DATABASE, target: int = SCHEMA_VERSION) -> int:
    """Bring ``db`` to ``target`` (default: the current version); returns the version it had.

    ``db`` must be in autocommit mode (``isolation_level=None``) so that this function
    controls the transaction. ``target`` below the current version is only for tests that
    need a database "as an older duelclock left it".
    """
    found = schema_version(db)
    if found > len(MIGRATIONS):
        raise SchemaError("schema.newer", where=where, found=found, known=len(MIGRATIONS))
    if found >= target:
        return found
    db.execute("BEGIN IMMEDIATE")
    try:
        for version in range(found, target):
            MIGRATIONS[version](db)
        db.execute(f"PRAGMA user_version = {int(target)}")
        db.execute("COMMIT")
    except BaseException as exc:
        db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise SchemaError(
                "schema.upgrade-failed", where=where, found=found, target=target, problem=exc
            ) from exc
        raise
    return found
