"""The journal's files on disk: private to their owner, in a folder nobody else can write to,
and locked by the file itself — a second daemon is refused through a symlink or a hard link."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from clockd.store import Entry, Journal, JournalError, JournalLocked, UnsafeFolder, entry_type


@entry_type
class FileTick(Entry):
    kind: Literal["test-file-tick"] = "test-file-tick"
    n: int


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The most permissive umask: the modes must come from duelclock, not from the user's umask."""
    old = os.umask(0)
    yield
    os.umask(old)


def test_a_new_journal_its_wal_shm_lock_file_and_folders_are_private(
    tmp_path: Path, open_umask: None
) -> None:
    db = tmp_path / "festival" / "state" / "duelclock.db"
    with Journal(db) as j:
        j.append([FileTick(n=1)])
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.lock")]
        assert {f.name: oct(mode(f)) for f in files} == {f.name: "0o600" for f in files}
    assert oct(mode(tmp_path / "festival")) == oct(mode(tmp_path / "festival" / "state")) == "0o700"


def test_files_an_older_duelclock_left_readable_by_everyone_are_made_private(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as j:
        j.append([FileTick(n=1)])
        wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
        for f in (db, wal, shm):
            os.chmod(f, 0o644)
    with Journal(db) as j:
        assert [mode(f) for f in (db, wal, shm)] == [0o600, 0o600, 0o600]
        assert j.last_seq == 1


@pytest.mark.parametrize("folder_mode", [0o777, 0o775, 0o1777])
def test_a_folder_others_can_write_to_is_refused_before_anything_is_written(
    tmp_path: Path, folder_mode: int
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, folder_mode)
    with pytest.raises(UnsafeFolder) as refused:
        Journal(shared / "j.db")
    message = str(refused.value)
    assert f"the folder {shared} can be written by other users" in message
    assert f"chmod 700 {shared}" in message
    assert list(shared.iterdir()) == []


def test_a_symlinked_journal_needs_a_private_folder_at_its_target_too(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    (tmp_path / "link.db").symlink_to(shared / "j.db")
    with pytest.raises(UnsafeFolder, match=f"the folder {shared} "):
        Journal(tmp_path / "link.db")


def test_a_second_writer_through_a_symlink_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    link = tmp_path / "link.db"
    link.symlink_to(db)
    with Journal(db) as first:
        first.append([FileTick(n=1)])
        with pytest.raises(JournalLocked, match=rf"in use by another duelclock daemon \(pid {os.getpid()}\)"):
            Journal(link)
        assert first.append([FileTick(n=2)]) == [2]
    with Journal(link) as j:  # once the first is closed, the link opens the same journal
        assert j.last_seq == 2


def test_a_second_writer_through_a_hard_link_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    other = tmp_path / "elsewhere"
    other.mkdir(mode=0o700)
    with Journal(db) as first:
        first.append([FileTick(n=1)])
        os.link(db, other / "same.db")
        with pytest.raises(JournalLocked, match=rf"\(pid {os.getpid()}\).*a hard link"):
            Journal(other / "same.db")
        assert first.append([FileTick(n=2)]) == [2]
    with Journal.reader(db) as r:
        assert [rec.seq for rec in r.read()] == [1, 2]


def test_a_second_daemon_on_a_hard_link_is_refused_by_the_command(tmp_path: Path) -> None:
    """Two real ``duelclock run`` processes: the second names the first's pid and stops; the first goes on."""
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}
    db = tmp_path / "festival.db"
    run = [sys.executable, "-m", "clockd", "run", "--sim", "1", "--port", "0", "--think-ms", "100"]
    first = subprocess.Popen([*run, "--db", str(db)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        for line in first.stdout:
            if line.startswith("Clocks:"):
                break
        os.link(db, tmp_path / "same.db")
        second = subprocess.run(
            [*run, "--db", str(tmp_path / "same.db")], env=env, capture_output=True, text=True, timeout=30
        )
        assert second.returncode == 2
        assert f"in use by another duelclock daemon (pid {first.pid})" in second.stderr
        assert first.poll() is None
    finally:
        first.terminate()
        assert first.wait(15) == 0


def test_a_journal_given_another_name_after_its_daemon_was_killed_is_refused_under_both(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A daemon killed with its last commits in ``j.db-wal``; the file opened again through a hard
    link (``same.db``) would read it without them and go on as if they never were (issue 20, item 4:
    "the second's 115 events vanished"). Refused, under either name, until one name is left."""
    db = tmp_path / "j.db"
    killed = (
        "import os, sys\n"
        "from tests.store.test_files import FileTick\n"
        "from clockd.store import Journal\n"
        "j = Journal(sys.argv[1])\n"
        "j.append([FileTick(n=i) for i in range(1, 51)])\n"
        "os._exit(0)\n"  # as a SIGKILL: nothing closed, the commits only in the -wal
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", killed, str(db)], check=True, cwd=root)
    assert (tmp_path / "j.db-wal").stat().st_size > 0
    os.link(db, tmp_path / "same.db")
    for name in (tmp_path / "same.db", db):
        with pytest.raises(JournalError) as refused:
            Journal(name)
        assert refused.value.msg.code == "journal.hard-linked" and "find / -samefile" in str(refused.value)
    (tmp_path / "same.db").unlink()
    with Journal(db) as journal:
        assert journal.last_seq == 50  # every commit, the -wal's too
        os.link(db, tmp_path / "later.db")  # a name given while it runs: nothing lost, but said
        journal.append([FileTick(n=51)])
    assert "now has another name" in caplog.text
