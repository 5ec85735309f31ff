"""The journal: every event, in order, in one SQLite file.

Why SQLite, and why these settings:

* **WAL** (write-ahead log) lets readers — the API answering a timeline request, a
  ``duelclock`` command, a crash test — read while the daemon writes, without blocking it.
* **synchronous=FULL** makes ``COMMIT`` return only after the log is on disk. The daemon
  acknowledges a press to its clock only after that, so a ``kill -9`` or a power cut
  never loses a press the clock was told is safe (DESIGN.md, principle 2).
* **One writer**, holding an exclusive lock file next to the database: two daemons on
  one journal would interleave two histories. A reader needs no lock.

:meth:`Journal.append` writes a batch of events in one transaction (group commit: one
disk flush for all the presses that arrived while the previous flush ran). Sequence
numbers are dense and increase by one; ``seq`` is the one order in which the daemon
applied its inputs.

Snapshots (:meth:`Journal.save_snapshot`) are an optimisation only: the journal alone is
the truth, and a snapshot that cannot be read is ignored and the events replayed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from clockd.store.entries import Entry, decode_entry, encode_entry
from clockd.store.schema import SCHEMA_VERSION, SchemaError, migrate, schema_version


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message says which file and why."""


class JournalLocked(JournalError):
    """Another daemon is writing this journal."""


@dataclass(frozen=True, slots=True)
class Record:
    """An entry as journaled: its sequence number and the entry."""

    seq: int
    entry: Entry


@dataclass(frozen=True, slots=True)
class Snapshot:
    seq: int
    format: int
    body: str


class Journal:
    """The writer's handle on a journal file (creates and migrates it as needed).

    ``Journal(path)`` takes the writer's lock; :meth:`reader` opens a second, read-only
    handle that any thread or process may use while the daemon runs.
    """

    def __init__(self, path: str | os.PathLike[str], *, _readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = _readonly
        self._lock_fd: int | None = None
        where = f"journal {self.path}"
        if not _readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock_fd = _take_lock(self.path)
        try:
            if _readonly:
                if not self.path.exists():
                    raise JournalError(f"{where} does not exist")
                uri = f"file:{self.path}?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 5000")
            if not _readonly:
                mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise JournalError(f"{where}: SQLite refused write-ahead logging (got {mode!r})")
                self._db.execute("PRAGMA synchronous = FULL")
                migrate(self._db, where=where)
            else:
                found = schema_version(self._db)
                if found != SCHEMA_VERSION:
                    raise SchemaError(
                        f"{where} has schema version {found}; this duelclock reads version "
                        f"{SCHEMA_VERSION} (start the daemon on it once to upgrade it)"
                    )
        except sqlite3.DatabaseError as exc:
            self._release_lock()
            raise JournalError(f"{where} cannot be opened: {exc}") from exc
        except BaseException:
            self._release_lock()
            raise
        row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
        self._last_seq = int(row[0] or 0)

    @classmethod
    def reader(cls, path: str | os.PathLike[str]) -> Journal:
        """A read-only handle (no lock; safe beside a running daemon)."""
        return cls(path, _readonly=True)

    # -- lifecycle ----------------------------------------------------------------------------
    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release_lock()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- events ---------------------------------------------------------------------------------
    @property
    def last_seq(self) -> int:
        """The sequence number of the last committed event (0 for an empty journal)."""
        if self.readonly:
            row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
            return int(row[0] or 0)
        return self._last_seq

    def append(self, events: Sequence[Entry]) -> list[int]:
        """Append ``events`` in one transaction and return their sequence numbers.

        When this returns, the events are on disk. If it raises, none of them is.
        """
        if self.readonly:
            raise JournalError(f"journal {self.path} is open read-only")
        if not events:
            return []
        first = self._last_seq + 1
        rows = [(first + i, e.t_ns, e.table, e.kind, encode_entry(e)) for i, e in enumerate(events)]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT INTO events (seq, t_ns, table_id, kind, body) VALUES (?, ?, ?, ?, ?)", rows
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise JournalError(f"journal {self.path}: could not commit {len(rows)} event(s): {exc}") from exc
        self._last_seq = first + len(rows) - 1
        return list(range(first, self._last_seq + 1))

    def read(
        self,
        *,
        after: int = 0,
        table: int | None = None,
        limit: int | None = None,
        upto: int | None = None,
        event: str | None = None,
    ) -> Iterator[Record]:
        """Entries with ``seq > after`` (and ``<= upto``), oldest first; only ``table``'s or
        ``event``'s (its key) if given."""
        sql = "SELECT seq, kind, body FROM events WHERE seq > ?"
        args: list[object] = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        if table is not None:
            sql += " AND table_id = ?"
            args.append(table)
        if event is not None:
            sql += " AND json_extract(body, '$.event') = ?"
            args.append(event)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        cursor = self._db.execute(sql, args)
        while True:
            rows = cursor.fetchmany(2048)
            if not rows:
                return
            for seq, kind, body in rows:
                yield Record(seq, decode_entry(kind, body, where=f"{self.path} seq {seq}"))

    def count(self, kind: str | None = None) -> int:
        if kind is None:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        return int(self._db.execute("SELECT COUNT(*) FROM events WHERE kind = ?", (kind,)).fetchone()[0])

    # -- snapshots ------------------------------------------------------------------------------
    def save_snapshot(self, seq: int, format: int, body: str, *, keep: int = 3) -> None:
        """Store folded state as of ``seq`` and keep only the newest ``keep`` snapshots."""
        if seq > self._last_seq:
            raise JournalError(f"snapshot at seq {seq} is ahead of the journal (last seq {self._last_seq})")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots (seq, format, body) VALUES (?, ?, ?)", (seq, format, body)
            )
            self._db.execute(
                "DELETE FROM snapshots WHERE seq NOT IN "
                "(SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)",
                (keep,),
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise JournalError(f"journal {self.path}: could not save a snapshot: {exc}") from exc

    def snapshots(self) -> list[Snapshot]:
        """Every stored snapshot, newest first."""
        rows = self._db.execute("SELECT seq, format, body FROM snapshots ORDER BY seq DESC").fetchall()
        return [Snapshot(int(s), int(f), str(b)) for s, f, b in rows]

    # -- metadata -------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def meta_default(self, key: str, make: Callable[[], str]) -> str:
        """The stored value of ``key``, storing ``make()`` first if there is none."""
        value = self.meta(key)
        if value is not None:
            return value
        value = make()
        try:
            self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: could not store {key!r}: {exc}") from exc
        return value


def _take_lock(path: Path) -> int:
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise JournalLocked(
            f"journal {path} is in use by another duelclock daemon (pid {holder}); "
            "stop it first, or give this one another --db"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd
