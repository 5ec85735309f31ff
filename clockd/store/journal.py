"""The journal: every event, in order, in one SQLite file.

Why SQLite, and why these settings:

* **WAL** (write-ahead log) lets readers — the API answering a timeline request, a
  ``duelclock`` command, a crash test — read while the daemon writes, without blocking it.
* **synchronous=FULL** makes ``COMMIT`` return only after the log is on disk. The daemon
  acknowledges a press to its clock only after that, so a ``kill -9`` or a power cut
  never loses a press the clock was told is safe (DESIGN.md, principle 2).
* **One writer**, holding a lock on the database file itself (its inode, whatever name it
  is opened by: :func:`~clockd.store.files.lock_journal`): two daemons on one journal would
  interleave two histories. A reader needs no lock.
* **Private files** in a folder only their owner can write to (:mod:`clockd.store.files`).

:meth:`Journal.append` writes a batch of events in one transaction (group commit: one
disk flush for all the presses that arrived while the previous flush ran). Sequence
numbers are dense and increase by one; ``seq`` is the one order in which the daemon
applied its inputs. Each row carries its link of the hash chain (:mod:`clockd.store.chain`),
checked on start (from the snapshot used on), by ``--replay-all`` (all of it) and by
``duelclock journal verify``.

**Files changing underneath.** SQLite keeps its files open: if the ``-wal`` is deleted or
the database file replaced while the daemon runs, commits go on "succeeding" into a file
nobody will ever read again. So before and after each commit :meth:`Journal.append`
compares the files at the journal's paths with those it opened (device and inode); on a
difference it saves what was committed (a checkpoint into the database file, or a complete
copy beside it), refuses this and every later append with :class:`JournalChanged`, and the
engine stops (fail-stop): nothing more is acknowledged.

Snapshots (:meth:`Journal.save_snapshot`) are an optimisation only: the journal alone is
the truth, and a snapshot that cannot be read (or whose checksum does not match) is
ignored and the events replayed.

This module is the handle: opening (folder, lock, identity, schema, head), appending, the
guard on its files, reading, snapshots and metadata. Apart, because none of it needs the
writer's lock or descriptors: the values it hands out (:mod:`clockd.store.records`,
re-exported here), the chain's checks over a connection (:mod:`clockd.store.verify`) and
the vault's SQL (:mod:`clockd.store.vault`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from clockd.i18n import Msg
from clockd.store.chain import format_head, row_hash, snapshot_checksum
from clockd.store.entries import Entry, decode_entry, encode_entry
from clockd.store.errors import (
    JournalChanged,
    JournalDamaged,
    JournalError,
    JournalLocked,
    JournalMissing,
    UnsafeFolder,
    where_journal,
)
from clockd.store.files import (
    FileId,
    LockRecord,
    check_folder,
    file_id,
    lock_journal,
    lock_path,
    make_private,
    private_folder,
    read_lock_record,
    update_lock_record,
    write_lock_record,
)
from clockd.store.records import ChainCheck, Record, Row, Snapshot
from clockd.store.schema import SCHEMA_VERSION, SchemaError, migrate, schema_version
from clockd.store.vault import PURGE_KEY, people_in_vault, read_vault, store_vault
from clockd.store.verify import (
    HEAD_KEY,
    ID_KEY,
    chained,
    check_journal,
    damaged,
    fetch_rows,
    hash_at,
    head_problem,
    last_row,
    read_meta,
    stored_snapshots,
)

__all__ = [
    "ChainCheck",
    "Journal",
    "JournalChanged",
    "JournalDamaged",
    "JournalError",
    "JournalLocked",
    "JournalMissing",
    "Record",
    "Snapshot",
    "UnsafeFolder",
]

log = logging.getLogger(__name__)

#: What happened to a file under the daemon (:meth:`Journal._changed_file`), as the sentences say it.
_HOW = {"removed": "journal.how.removed", "replaced": "journal.how.replaced"}


class Journal:
    """The writer's handle on a journal file (creates and migrates it as needed).

    ``Journal(path)`` takes the writer's lock; :meth:`reader` opens a second, read-only
    handle that any thread or process may use while the daemon runs.
    """

    def __init__(self, path: str | os.PathLike[str], *, _readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = _readonly
        self._lock_fd: int | None = None
        self._lock_path = lock_path(self.path)
        self._files: dict[Path, FileId | None] = {}
        self._broken: Msg | None = None
        self._linked = False  # warned that the file got another name while open
        self._nlink = 1  # the database file's link count, as the last guard saw it
        self._record_failed = False  # warned that the lock file could not take the head
        self._record_fd: int | None = None  # the lock file, for the head after each commit
        self._journal_id = ""
        if _readonly:
            if not self.path.exists():
                raise JournalError("journal.does-not-exist", path=self.path)
            try:
                uri = f"file:{self.path}?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
                self._db.text_factory = _text
                self._db.execute("PRAGMA busy_timeout = 5000")
                found = schema_version(self._db)
            except sqlite3.DatabaseError as exc:
                self._close_db()
                raise JournalError("journal.cannot-open", path=self.path, problem=exc) from exc
            if found != SCHEMA_VERSION:
                self._db.close()
                raise SchemaError(
                    "schema.reader-version", path=self.path, found=found, version=SCHEMA_VERSION
                )
        else:
            self._open_writer()
        self._last_seq, self._head = last_row(self._db)
        #: An erasure was journaled and its copies are not purged yet (:meth:`purge`).
        self.purge_pending = self.meta(PURGE_KEY) is not None

    def _open_writer(self) -> None:
        """Folder, lock, identity, schema, head: in this order, refusing before changing anything."""
        private_folder(self.path.parent)
        real = Path(os.path.realpath(self.path))
        if real.parent != self.path.parent.resolve():
            check_folder(real.parent)  # a symlink's target: its folder must be private too
        record = read_lock_record(self._lock_path)
        if record is not None and not real.exists():
            raise JournalMissing(
                "journal.missing",
                path=self.path,
                lock=self._lock_path,
                journal_id=record.journal_id,
                seq=record.head_seq,
            )
        self._lock_fd = lock_journal(self.path)
        try:
            for suffix in ("-wal", "-shm"):
                make_private(real.with_name(real.name + suffix))
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.text_factory = _text
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._check_identity(record)
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError("journal.no-wal", path=self.path, mode=repr(mode))
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA secure_delete = ON")  # deleted data (a token, old snapshots) is zeroed
            migrate(self._db, where=where_journal(self.path))
            self._journal_id = self.meta(ID_KEY) or ""
            self._check_head(record)
            self._files = {
                self.path: _fd_id(self._lock_fd),
                real.with_name(real.name + "-wal"): file_id(real.with_name(real.name + "-wal")),
                real.with_name(real.name + "-shm"): file_id(real.with_name(real.name + "-shm")),
            }
            seq, head = last_row(self._db)
            self._write_record(seq, head)
        except sqlite3.DatabaseError as exc:
            self._close_db()
            self._release_lock()
            raise JournalError("journal.cannot-open", path=self.path, problem=exc) from exc
        except BaseException:
            self._close_db()
            self._release_lock()
            raise

    def _check_identity(self, record: LockRecord | None) -> None:
        """Refuse an empty file, or another journal, where the lock file says a journal lived."""
        if record is None:
            return
        found: str | None = None
        has_events = False
        if schema_version(self._db) > 0:
            with contextlib.suppress(sqlite3.Error):
                row = self._db.execute("SELECT value FROM meta WHERE key = ?", (ID_KEY,)).fetchone()
                found = None if row is None else str(row[0])
            with contextlib.suppress(sqlite3.Error):
                has_events = self._db.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None
        if found == record.journal_id:
            return
        if found is None and not has_events:
            what = Msg("journal.is-empty")
        else:
            it = found if found is not None else Msg("journal.an-older-journal")
            what = Msg("journal.is-another", {"found": it})
        raise JournalMissing(
            "journal.not-in-place",
            path=self.path,
            what=what,
            lock=self._lock_path,
            journal_id=record.journal_id,
            seq=record.head_seq,
        )

    def _check_head(self, record: LockRecord | None) -> None:
        """The last row must be the head ``meta`` recorded, and no earlier than the lock file's."""
        found = head_problem(self._db, self.path, self._lock_path, record)
        if found is not None:
            seq, reason, what, advice = found
            raise JournalDamaged(
                Msg("journal.damaged", {"what": what, "advice": advice, "path": str(self.path)}),
                seq=seq,
                reason=reason,
                damage=what,
            )

    @classmethod
    def reader(cls, path: str | os.PathLike[str]) -> Journal:
        """A read-only handle (no lock; safe beside a running daemon)."""
        return cls(path, _readonly=True)

    # -- lifecycle ----------------------------------------------------------------------------
    def close(self) -> None:
        if self._lock_fd is not None and self._broken is None:
            with contextlib.suppress(JournalError, sqlite3.Error):
                self._write_record(self._last_seq, self._head)
        self._close_db()
        self._release_lock()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _close_db(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            with contextlib.suppress(sqlite3.Error):
                db.close()

    def _release_lock(self) -> None:
        self._close_record()
        # Only after SQLite's connection is closed: this descriptor is unknown to SQLite.
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _record(self, seq: int, head: bytes) -> LockRecord:
        return LockRecord(journal_id=self._journal_id, pid=os.getpid(), head_seq=seq, head_hash=head.hex())

    def _write_record(self, seq: int, head: bytes) -> None:
        """The lock file replaced on disk (open, snapshot, stop), and opened for :meth:`_record_commit`."""
        if self._journal_id:
            write_lock_record(self._lock_path, self._record(seq, head))
            self._close_record()
            with contextlib.suppress(OSError):
                self._record_fd = os.open(self._lock_path, os.O_WRONLY | os.O_CLOEXEC)

    def _close_record(self) -> None:
        if self._record_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._record_fd)
            self._record_fd = None

    def _record_commit(self, seq: int, head: bytes) -> None:
        """The committed head into the lock file, outside the database's files: a ``-wal``
        removed after a crash takes its commits with it (and the ``meta`` head), and this is
        how the next start and ``journal verify`` know how far the journal had got. The
        commit stands whatever happens here; a lock file that cannot be written is said once,
        and leaves only an older head (one the journal has reached) for the check."""
        if self._record_fd is None:
            return
        try:
            update_lock_record(self._record_fd, self._record(seq, head))
        except OSError as exc:
            if not self._record_failed:
                self._record_failed = True
                log.warning(
                    "%s",
                    Msg("journal.cannot-write-lock-file", {"path": str(self._lock_path), "problem": exc}),
                )
        else:
            self._record_failed = False

    # -- the files under the journal ----------------------------------------------------------------
    def _changed_file(self) -> tuple[Path, str] | None:
        """The first of the journal's files that is no longer the one opened, and what happened to it.

        One ``stat`` per file and nothing else (this runs before and after every commit): the
        database file's link count, for :meth:`_guard_files`, comes from the same ``stat``
        (while the path names the file opened, it is the opened inode's count).
        """
        for path, opened in self._files.items():
            try:
                st = os.stat(path)
            except OSError:
                now: FileId | None = None
            else:
                now = (st.st_dev, st.st_ino)
                if path is self.path and now == opened:
                    self._nlink = st.st_nlink
            if opened is None:
                self._files[path] = now  # SQLite had not created it yet
            elif now != opened:
                return path, "removed" if now is None else "replaced"
        return None

    def _guard_files(self) -> None:
        if self._broken is not None:
            raise JournalChanged(self._broken)
        changed = self._changed_file()
        if not self._linked and self._nlink > 1:
            self._linked = True  # nothing is lost while this daemon runs; the next start refuses
            log.warning(
                "journal %s now has another name (a hard link): a daemon started through it after this "
                "one would miss the last events; remove it (find / -samefile %s)",
                self.path,
                self.path,
            )
        if changed is not None:
            path, how = changed
            raise self._stop_writing(path, how)

    def _stop_writing(self, path: Path, how: str) -> JournalChanged:
        """Save what was committed (it may sit only in a removed file), then refuse every write."""
        done = Msg(_HOW[how])
        saved = self._rescue(done)
        self._broken = Msg(
            "journal.changed", {"path": str(self.path), "file": str(path), "how": done, "saved": saved}
        )
        log.critical("%s", self._broken)
        return JournalChanged(self._broken)

    def _rescue(self, how: Msg) -> Msg:
        if file_id(self.path) == self._files.get(self.path):
            try:
                busy, frames, copied = self._db.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            except sqlite3.Error as exc:
                log.error("journal %s: the rescue checkpoint failed: %s", self.path, exc)
            else:
                if busy == 0 and frames == copied:
                    return Msg("journal.rescue.checkpointed", {"path": str(self.path), "how": how})
        target = self.path.with_name(self.path.name + ".rescued")
        n = 1
        while os.path.lexists(target):
            n += 1
            target = self.path.with_name(f"{self.path.name}.rescued-{n}")
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            copy = sqlite3.connect(target)
            try:
                self._db.backup(copy)
            finally:
                copy.close()
        except (OSError, sqlite3.Error) as exc:
            return Msg("journal.rescue.failed", {"problem": exc})
        return Msg("journal.rescue.copied", {"copy": str(target), "how": how, "path": str(self.path)})

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

        When this returns, the events are on disk, in the files the journal's paths name.
        If it raises, none of them counts (the engine stops; a restart replays what the
        journal holds).
        """
        if self.readonly:
            raise JournalError("journal.read-only", path=self.path)
        self._guard_files()
        if not events:
            return []
        first = self._last_seq + 1
        head = self._head
        rows = []
        for i, e in enumerate(events):
            body = encode_entry(e)
            head = row_hash(head, first + i, e.t_ns, e.table, e.kind, body)
            rows.append((first + i, e.t_ns, e.table, e.kind, body, head))
        last = first + len(rows) - 1
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT INTO events (seq, t_ns, table_id, kind, body, hash) VALUES (?, ?, ?, ?, ?, ?)", rows
            )
            for i, e in enumerate(events):
                store_vault(self._db, first + i, e)
            self._db.execute("UPDATE meta SET value = ? WHERE key = ?", (format_head(last, head), HEAD_KEY))
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise JournalError("journal.cannot-commit", path=self.path, n=len(rows), problem=exc) from exc
        self._guard_files()  # committed, but perhaps into a file that was removed meanwhile
        self._last_seq, self._head = last, head
        self._record_commit(last, head)
        if any(e.vault_erases() or e.vault_drops() for e in events):
            self.purge_pending = True
        return list(range(first, last + 1))

    # -- the vault: personal data beside the chained rows (:mod:`clockd.store.vault`) -------------
    def vault_people(self) -> set[str]:
        """The people the vault holds anything of."""
        return people_in_vault(self._db)

    def purge(self) -> None:
        """After an erasure: no copy of the erased data left in the files.

        The caller has just saved a snapshot of the state without it; every older snapshot
        goes, the file is rebuilt (``VACUUM``: freed pages are not kept) and the write-ahead
        log, which held the old pages, is checkpointed and truncated. A crash before this
        leaves the flag in ``meta``, and the next start purges (:attr:`purge_pending`).
        """
        if self.readonly:
            raise JournalError("journal.read-only", path=self.path)
        self._guard_files()
        try:
            newest = self._db.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0]
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM snapshots WHERE seq < ?", (newest or 0,))
            self._db.execute("DELETE FROM meta WHERE key = ?", (PURGE_KEY,))
            self._db.execute("COMMIT")
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise JournalError(
                "journal.cannot-erase", path=self.path, key=repr(PURGE_KEY), problem=exc
            ) from exc
        self._guard_files()
        self.purge_pending = False

    def read(
        self,
        *,
        after: int = 0,
        table: int | None = None,
        limit: int | None = None,
        upto: int | None = None,
        event: str | None = None,
        verify: bool = False,
    ) -> Iterator[Record]:
        """Entries with ``seq > after`` (and ``<= upto``), oldest first; only ``table``'s or
        ``event``'s (its key) if given.

        ``verify`` checks each row against the hash chain as it is read (raising
        :class:`JournalDamaged` at the first bad seq); it needs every row, so neither
        ``table`` nor ``event``.
        """
        if verify and (table is not None or event is not None):
            raise ValueError("the chain can only be verified over every row")
        sql = "SELECT seq, t_ns, table_id, kind, body, hash FROM events WHERE seq > ?"
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
        rows: Iterable[Row] = fetch_rows(self._db.execute(sql, args))
        if verify:
            prev = hash_at(self._db, after)
            if prev is None:
                raise damaged(self.path, after, "missing", "journal.damage-at.missing-start")
            rows = chained(rows, after, prev, self.path)
        # The vault's records go with a full read (a replay, an audit); a timeline's (one table's,
        # one event's) entries leave the daemon without personal data anyway.
        vault = read_vault(self._db, after, upto) if table is None and event is None else {}
        for seq, _t, _table, kind, body, _hash in rows:
            entry = decode_entry(kind, body, where=f"{self.path} seq {seq}")
            held = vault.get(seq)
            yield Record(seq, entry if held is None else entry.with_vault(held))

    def count(self, kind: str | None = None) -> int:
        if kind is None:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        return int(self._db.execute("SELECT COUNT(*) FROM events WHERE kind = ?", (kind,)).fetchone()[0])

    # -- checking the whole journal -------------------------------------------------------------
    def verify(self) -> ChainCheck:
        """Check every row against the chain, the heads (``meta``, lock file), every snapshot's
        checksum and SQLite's own ``integrity_check``, in one read transaction."""
        # The lock file first: it is written after each commit, so the journal read afterwards
        # holds at least the head it names (read the other way round, a busy writer's next
        # commit would look lost).
        record = read_lock_record(self._lock_path)
        return check_journal(self._db, self.path, record, self._lock_path)

    # -- snapshots ------------------------------------------------------------------------------
    def save_snapshot(self, seq: int, format: int, body: str, *, keep: int = 3) -> None:
        """Store folded state as of ``seq`` and keep only the newest ``keep`` snapshots."""
        if seq > self._last_seq:
            raise JournalError("journal.snapshot-ahead", seq=seq, last=self._last_seq)
        self._guard_files()
        at = self._head if seq == self._last_seq else hash_at(self._db, seq)
        if at is None:
            raise JournalError("journal.nothing-to-snapshot", path=self.path, seq=seq)
        checksum = snapshot_checksum(seq, format, at, body)
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots (seq, format, body, checksum) VALUES (?, ?, ?, ?)",
                (seq, format, body, checksum),
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
            raise JournalError("journal.cannot-save-snapshot", path=self.path, problem=exc) from exc
        self._write_record(self._last_seq, self._head)

    def snapshots(self, *, include_damaged: bool = False) -> list[Snapshot]:
        """Every stored snapshot, newest first.

        A snapshot whose checksum does not match is left out (with a warning naming the
        file and its seq: the caller then replays from an older one, or from the start),
        unless ``include_damaged`` (then its ``intact`` is false).
        """
        out = []
        for snap in stored_snapshots(self._db):
            if snap.intact or include_damaged:
                out.append(snap)
            else:
                log.warning(
                    "journal %s: the snapshot at seq %d is damaged (its checksum does not match); it is not "
                    "used, the events are replayed instead",
                    self.path,
                    snap.seq,
                )
        return out

    # -- metadata -------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        return read_meta(self._db, key)

    def meta_default(self, key: str, make: Callable[[], str]) -> str:
        """The stored value of ``key``, storing ``make()`` first if there is none."""
        value = self.meta(key)
        if value is not None:
            return value
        value = make()
        try:
            self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
        except sqlite3.Error as exc:
            raise JournalError("journal.cannot-store", path=self.path, key=repr(key), problem=exc) from exc
        return value

    def set_meta(self, key: str, value: str) -> None:
        try:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
        except sqlite3.Error as exc:
            raise JournalError("journal.cannot-store", path=self.path, key=repr(key), problem=exc) from exc

    def erase_meta(self, key: str) -> bool:
        """Delete ``key`` so that no copy of its value stays in the files; ``False`` if it was not there.

        The row is overwritten with zeros (``secure_delete``) and the write-ahead log, which
        still holds the old page, is checkpointed and truncated.
        """
        if self.meta(key) is None:
            return False
        try:
            self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise JournalError("journal.cannot-erase", path=self.path, key=repr(key), problem=exc) from exc
        return True


def _text(raw: bytes) -> str:
    """SQLite's TEXT as ``str``, a byte that is not UTF-8 kept as a lone surrogate.

    The default factory raises on one bad byte, halfway through a read, with no row named:
    ``journal verify`` would end in a traceback. Kept so, the bytes reach the hash chain
    unchanged (:func:`~clockd.store.chain.row_hash` encodes them back), the row no longer
    matches its hash, and the damage is named by its seq like any other change.
    """
    return raw.decode("utf-8", "surrogateescape")


def _fd_id(fd: int) -> FileId:
    st = os.fstat(fd)
    return (st.st_dev, st.st_ino)
