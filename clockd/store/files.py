"""The journal's files on disk: private folders and files, the writer's lock, the lock file.

A journal ``X.db`` lives beside SQLite's ``X.db-wal`` and ``X.db-shm`` and duelclock's
``X.db.lock``. The rules, and why:

* **Private.** The journal holds the sign-ups' personal data (DESIGN.md, principle 9), so
  every file is ``0600`` and a folder duelclock creates is ``0700``. The database file is
  created ``0600`` before SQLite opens it, and SQLite gives the ``-wal`` and ``-shm`` the
  database file's own mode; files an older duelclock left ``0644`` are tightened at open.
* **No folder others can write to.** Whoever can write to the folder can delete or replace
  the journal's files, whatever their modes (:func:`check_folder`). Such a folder is
  refused at start with a sentence saying which folder and what to do (a catalogue
  message: :mod:`clockd.store.errors`).
* **The writer's lock is on the database file itself**: ``flock`` on its inode
  (:func:`lock_journal`), so a second daemon is refused whether it names the journal by the
  same path, a symlink or a hard link. (SQLite's own locks are POSIX locks, a separate
  namespace on Linux: the two never interfere.) A reader takes no lock.
* **The lock file** (:class:`LockRecord`, JSON) says which journal lives here (its
  ``journal_id``, from ``meta``), which daemon holds it (pid) and how far it had got (the
  chain head). A journal that has vanished or is empty while its lock file says one
  existed is refused rather than silently replaced by a new, empty one; so is a journal
  that ends before the head the lock file recorded (a deleted ``-wal``). The head is
  recorded after every commit, in place (:func:`update_lock_record`: a ``-wal`` deleted
  after a ``kill -9`` is noticed too, however few commits it held), and the file replaced
  on disk at open, snapshot and stop (:func:`write_lock_record`).

The journal must be on a local file system: SQLite's write-ahead log needs shared memory,
and ``flock`` over NFS is emulated with the very POSIX locks SQLite uses.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import stat
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from clockd.i18n import Msg
from clockd.store.errors import HOLDS_JOURNAL, JournalError, JournalLocked, UnsafeFolder

PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600

#: A file's identity: (device, inode).
FileId = tuple[int, int]


def private_folder(folder: Path, *, holds: Msg = HOLDS_JOURNAL) -> None:
    """Create ``folder`` (and its missing parents) ``0700``, then :func:`check_folder` it."""
    missing: list[Path] = []
    probe = folder
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, PRIVATE_FOLDER)
        except FileExistsError:
            pass  # made meanwhile by another process; checked below like any folder
        except OSError as exc:
            raise JournalError("journal.cannot-create-folder", path=path, holds=holds, problem=exc) from exc
    check_folder(folder, holds=holds)


def check_folder(folder: Path, *, holds: Msg = HOLDS_JOURNAL) -> None:
    """Refuse a folder that anyone but its owner (this user or root) can write to."""
    try:
        st = os.stat(folder)
    except OSError as exc:
        raise JournalError("journal.cannot-use-folder", folder=folder, holds=holds, problem=exc) from exc
    if not stat.S_ISDIR(st.st_mode):
        raise JournalError("journal.not-a-folder", folder=folder, holds=holds)
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        raise UnsafeFolder("journal.folder-shared", folder=folder, mode=f"{mode:o}", holds=holds)
    if st.st_uid not in (os.geteuid(), 0):
        raise UnsafeFolder("journal.folder-foreign", folder=folder, uid=st.st_uid, holds=holds)


def make_private(path: Path) -> None:
    """Make an existing file ``0600`` (one an older duelclock left readable by everyone)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise JournalError("journal.cannot-check", path=path, problem=exc) from exc
    if stat.S_IMODE(st.st_mode) != PRIVATE_FILE:
        try:
            os.chmod(path, PRIVATE_FILE)
        except OSError as exc:
            raise JournalError("journal.cannot-make-private", path=path, problem=exc) from exc


def file_id(path: Path) -> FileId | None:
    """The (device, inode) the path names now (symlinks followed), or ``None`` if nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def lock_journal(path: Path) -> int:
    """Open (creating, ``0600``) the database file and take the writer's lock on its inode.

    Returns the locked descriptor; closing it releases the lock (and a killed process's
    lock dies with it). Close it only after SQLite's own connection: closing any descriptor
    of a file drops the POSIX locks this process holds on it, SQLite's included.

    Raises :class:`JournalLocked` naming the holder's pid when another process (or another
    :class:`~clockd.store.journal.Journal` in this one) holds it, and :class:`JournalError`
    (``journal.hard-linked``) when the file has more than one name.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    except OSError as exc:
        raise JournalError("journal.cannot-open", path=path, problem=exc) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock_holder(os.fstat(fd)) or _recorded_pid(path) or "?"
        os.close(fd)
        raise JournalLocked("journal.locked", path=path, pid=holder) from None
    try:
        st = os.fstat(fd)
        if stat.S_IMODE(st.st_mode) != PRIVATE_FILE:
            os.fchmod(fd, PRIVATE_FILE)
    except OSError as exc:
        os.close(fd)
        raise JournalError("journal.cannot-make-private", path=path, problem=exc) from exc
    if st.st_nlink > 1:
        # SQLite keeps the -wal beside the name a file is opened by: through another name, a
        # daemon (started after this one was killed) sees the file without its last commits.
        os.close(fd)
        raise JournalError("journal.hard-linked", path=path, names=st.st_nlink)
    return fd


def lock_holder(st: os.stat_result, locks: Path = Path("/proc/locks")) -> str | None:
    """The pid holding an ``flock`` on the file ``st`` describes, as Linux lists it, if it can tell."""
    wanted = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = locks.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 2156 fe:00:1576203 0 EOF"; waiters have "->" after the number
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
            return fields[4]
    return None


def _recorded_pid(path: Path) -> str | None:
    record = read_lock_record(lock_path(path))
    return None if record is None else str(record.pid)


# -- the lock file ----------------------------------------------------------------------------


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


@dataclass(frozen=True, slots=True)
class LockRecord:
    """What the lock file says: which journal lives here, who holds it, how far it had got."""

    journal_id: str
    pid: int
    head_seq: int
    head_hash: str  # hex


#: The lock file's size: the record's JSON padded with spaces, so that the head written after a
#: commit overwrites the whole record in place (:func:`update_lock_record`).
RECORD_BYTES = 320


def _check(fields: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def _record_bytes(record: LockRecord) -> bytes:
    # The fields by hand, not ``asdict`` (a deep copy): this runs after every commit.
    fields = {
        "journal_id": record.journal_id,
        "pid": record.pid,
        "head_seq": record.head_seq,
        "head_hash": record.head_hash,
    }
    text = json.dumps({**fields, "check": _check(fields)})
    return (text.ljust(RECORD_BYTES - 1) + "\n").encode()


def read_lock_record(path: Path) -> LockRecord | None:
    """The lock file's record, or ``None`` when there is none (or an older duelclock's bare pid),
    or when it does not match its own check (read while being overwritten, or cut by a power cut:
    then it proves nothing, and nothing is refused on it)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        record = LockRecord(
            journal_id=str(data["journal_id"]),
            pid=int(data["pid"]),
            head_seq=int(data["head_seq"]),
            head_hash=str(data["head_hash"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if "check" in data and data["check"] != _check(asdict(record)):
        return None
    return record


def write_lock_record(path: Path, record: LockRecord) -> None:
    """Replace the lock file atomically (a reader never sees half of it), ``0600``, on disk."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
        with os.fdopen(fd, "wb") as f:
            f.write(_record_bytes(record))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise JournalError("journal.cannot-write-lock-file", path=path, problem=exc) from exc


def update_lock_record(fd: int, record: LockRecord) -> None:
    """Overwrite the record in the lock file open at ``fd``, in place, without ``fsync``.

    This runs after every commit (:meth:`~clockd.store.journal.Journal.append`), so it must cost
    next to nothing: one ``pwrite`` of :data:`RECORD_BYTES` (microseconds), where replacing the
    file costs milliseconds on ext4 even without ``fsync`` (a rename over a file flushes its
    data). A killed process's write is in the kernel already, which is all the check against a
    ``-wal`` removed after a crash needs. A reader that catches the write halfway, or a power
    cut that leaves it half on disk, gets a record that fails its check: no record, never a
    false one. Raises :class:`OSError`.
    """
    data = _record_bytes(record)
    os.pwrite(fd, data, 0)
    if len(data) != RECORD_BYTES:  # a record too long to pad: the file is as long as it is
        os.ftruncate(fd, len(data))


def private_file(path: str | Path, text: str) -> None:
    """``text`` to ``path`` as :func:`replace_file` writes it: owner-only (``0600``) from the
    first byte — what the CLI writes of people (an export, the lists to notify, a TRF, a
    printout of a group) is nobody else's to read on a shared machine."""
    replace_file(Path(path), text.encode("utf-8"))


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, ``fsync`` and
    ``os.replace``: a reader never sees half a file, and a file that cannot be written leaves
    the old one as it was. The file is owner-only (``0600``, as ``mkstemp`` makes it): what the
    commands write this way — TRF files, day files, hand decisions — holds people's data."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, PRIVATE_FILE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
