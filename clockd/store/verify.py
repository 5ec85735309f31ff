"""Reading the journal's rows back against the hash chain, and checking its end and snapshots.

Apart from :mod:`clockd.store.journal` because checking needs nothing of the writer's
machinery (its lock, the lock file's descriptor, the guard on files changing underneath):
only a connection, the journal's path for the sentences, and the lock file's record. The
journal's handle calls these on start (:meth:`~clockd.store.journal.Journal` refuses a
damaged head), on a verified read (``--replay-all``) and for ``duelclock journal verify``;
the chain's definition itself is in :mod:`clockd.store.chain`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from clockd.i18n import Msg
from clockd.store.chain import GENESIS, parse_head, row_hash, snapshot_checksum
from clockd.store.errors import JournalDamaged
from clockd.store.files import LockRecord
from clockd.store.records import ChainCheck, Row, Snapshot

__all__ = [
    "HEAD_KEY",
    "ID_KEY",
    "chained",
    "check_journal",
    "damaged",
    "fetch_rows",
    "hash_at",
    "head_problem",
    "last_row",
    "read_meta",
    "stored_snapshots",
]

#: The ``meta`` key of the head ``(seq, hash)``, updated in each append's transaction.
HEAD_KEY = "chain_head"
#: The ``meta`` key of the journal's identity, which the lock file names too.
ID_KEY = "journal_id"

_ALL_ROWS = "SELECT seq, t_ns, table_id, kind, body, hash FROM events ORDER BY seq"


def read_meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def fetch_rows(cursor: sqlite3.Cursor) -> Iterator[Row]:
    """The rows of ``cursor``, a batch at a time (a long journal is never all in memory)."""
    while True:
        rows = cursor.fetchmany(2048)
        if not rows:
            return
        yield from rows


def last_row(db: sqlite3.Connection) -> tuple[int, bytes]:
    """The last row's ``(seq, hash)``; ``(0, GENESIS)`` for an empty journal."""
    row = db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return 0, GENESIS
    return int(row[0]), bytes(row[1] or b"")


def hash_at(db: sqlite3.Connection, seq: int) -> bytes | None:
    """The chain's hash at ``seq`` (``GENESIS`` at 0), ``None`` if there is no such chained row."""
    if seq == 0:
        return GENESIS
    row = db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
    return None if row is None or row[0] is None else bytes(row[0])


def damaged(path: Path, seq: int, reason: str, code: str) -> JournalDamaged:
    """The error for a bad row at ``seq``: ``code`` says what is wrong there, the advice is to restore."""
    what = Msg(code, {"path": str(path), "seq": seq})
    advice = Msg("journal.advice.restore")
    return JournalDamaged(
        Msg("journal.damaged", {"what": what, "advice": advice, "path": str(path)}),
        seq=seq,
        reason=reason,
        damage=what,
    )


def chained(rows: Iterable[Row], prev_seq: int, prev: bytes, path: Path) -> Iterator[Row]:
    """``rows``, each checked against the chain from ``(prev_seq, prev)`` as it passes.

    Raises :class:`JournalDamaged` at the first gap, unchained row or changed row.
    """
    for row in rows:
        seq, t_ns, table, kind, body, stored = row
        if seq != prev_seq + 1:
            raise damaged(path, prev_seq + 1, "missing", "journal.damage-at.missing")
        if stored is None:
            raise damaged(path, seq, "unchained", "journal.damage-at.unchained")
        if row_hash(prev, seq, t_ns, table, kind, body) != stored:
            raise damaged(path, seq, "changed", "journal.damage-at.changed")
        prev_seq, prev = seq, stored
        yield row


def head_problem(
    db: sqlite3.Connection, path: Path, lock_path: Path, record: LockRecord | None
) -> tuple[int, str, Msg, Msg] | None:
    """What is wrong with the journal's end: ``(first bad seq, reason, what, what to do)``, or ``None``.

    The last row must be the head kept in ``meta``, and the journal must reach the head
    its lock file recorded (``record``, if it names this journal) with the same hash.
    """
    last_seq, last_hash = last_row(db)
    restore = Msg("journal.advice.restore")
    where, lock = str(path), str(lock_path)
    stored = read_meta(db, HEAD_KEY)
    head = None if stored is None else parse_head(stored)
    if head is None:
        what = Msg("journal.damage-at.no-head", {"path": where, "key": HEAD_KEY})
        return last_seq + 1, "no-head", what, restore
    head_seq, head_hash = head
    if last_seq < head_seq:
        what = Msg("journal.damage-at.cut", {"path": where, "last": last_seq, "head": head_seq})
        return last_seq + 1, "cut", what, restore
    if last_seq != head_seq or last_hash != head_hash:
        what = Msg("journal.damage-at.head", {"path": where, "last": last_seq, "head": head_seq})
        return min(last_seq, head_seq + 1), "head", what, restore
    if record is None or record.journal_id != read_meta(db, ID_KEY):
        return None
    if last_seq < record.head_seq:
        what = Msg(
            "journal.damage-at.lost",
            {"path": where, "last": last_seq, "reached": record.head_seq, "lock": lock},
        )
        return last_seq + 1, "lost", what, Msg("journal.advice.restore-wal", {"lock": lock})
    at = hash_at(db, record.head_seq)
    if at is None or at.hex() != record.head_hash:
        what = Msg("journal.damage-at.rewritten", {"path": where, "seq": record.head_seq, "lock": lock})
        return record.head_seq, "rewritten", what, restore
    return None


def stored_snapshots(db: sqlite3.Connection) -> Iterator[Snapshot]:
    """Every stored snapshot, newest first, each with whether its checksum matches the chain."""
    rows = db.execute("SELECT seq, format, body, checksum FROM snapshots ORDER BY seq DESC").fetchall()
    for seq, format, body, checksum in rows:
        at = hash_at(db, int(seq))
        intact = (
            at is not None
            and checksum is not None
            and snapshot_checksum(int(seq), int(format), at, str(body)) == bytes(checksum)
        )
        yield Snapshot(int(seq), int(format), str(body), intact)


def check_journal(
    db: sqlite3.Connection, path: Path, record: LockRecord | None, lock_path: Path
) -> ChainCheck:
    """Every row against the chain, the heads (``meta``, the lock file's ``record``), every
    snapshot's checksum and SQLite's own ``integrity_check``, in one read transaction.

    The caller reads ``record`` first: the lock file is written after each commit, so the
    journal read afterwards holds at least the head it names (read the other way round, a
    busy writer's next commit would look lost).
    """
    db.execute("BEGIN")
    try:
        integrity = "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check").fetchall())
        events = int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        last_seq, _ = last_row(db)
        first_bad: int | None = None
        reason: str | None = None
        problem: str | None = None
        try:
            for _ in chained(fetch_rows(db.execute(_ALL_ROWS)), 0, GENESIS, path):
                pass
        except JournalDamaged as exc:
            first_bad, reason, problem = exc.seq, exc.reason, exc.what
        if first_bad is None:
            found = head_problem(db, path, lock_path, record)
            if found is not None:
                first_bad, reason, problem = found[0], found[1], str(found[2])
        snapshots = tuple(stored_snapshots(db))
    finally:
        db.execute("COMMIT")
    return ChainCheck(
        path=str(path),
        last_seq=last_seq,
        events=events,
        first_bad_seq=first_bad,
        reason=reason,
        problem=problem,
        snapshots=snapshots,
        integrity=integrity,
    )
