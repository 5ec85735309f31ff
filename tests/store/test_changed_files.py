"""The journal's files changing under a running writer (a deleted ``-wal``, a replaced database
file) stop it before anything more is acknowledged, and what was acknowledged is saved; a
journal that is missing or empty where one existed is refused at start, not replaced."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest

from clockd.store import Entry, Journal, JournalChanged, JournalMissing, entry_type


@entry_type
class FileTick(Entry):
    kind: Literal["test-changed-tick"] = "test-changed-tick"
    n: int


def ticks(*ns: int) -> list[Entry]:
    return [FileTick(n=n, t_ns=n, table=1) for n in ns]


def test_a_replaced_database_file_stops_the_writer_and_everything_committed_is_saved_beside_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.db"
    j = Journal(path)
    j.append(ticks(1, 2))
    j.append(ticks(3))
    shutil.copyfile(path, tmp_path / "copy.db")  # a copy without what is still in the -wal
    os.replace(tmp_path / "copy.db", path)
    with pytest.raises(JournalChanged, match=rf"{path} was replaced") as stopped:
        j.append(ticks(4))
    rescued = tmp_path / "j.db.rescued"
    assert f"saved to {rescued}" in str(stopped.value)
    with pytest.raises(JournalChanged):
        j.append(ticks(5))  # and every later write
    j.close()
    with Journal.reader(rescued) as r:
        assert [rec.entry for rec in r.read(verify=True)] == ticks(1, 2, 3)


def test_a_missing_or_empty_journal_where_one_existed_is_refused_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as j:
        j.append(ticks(1, 2, 3))
    lock = tmp_path / "j.db.lock"

    os.truncate(path, 0)
    with pytest.raises(
        JournalMissing, match=rf"{path} is empty, but its lock file {lock} says journal"
    ) as empty:
        Journal(path)
    assert "it had reached seq 3" in str(empty.value) and f"delete {lock}" in str(empty.value)
    assert path.stat().st_size == 0  # left as it was

    path.unlink()
    with pytest.raises(JournalMissing, match=rf"{path} does not exist, but its lock file"):
        Journal(path)
    assert not path.exists()

    lock.unlink()  # the referee means it: a new journal here
    with Journal(path) as j:
        assert j.last_seq == 0


def test_another_journal_put_in_its_place_is_refused(tmp_path: Path) -> None:
    path, other = tmp_path / "j.db", tmp_path / "other.db"
    for p in (path, other):
        with Journal(p) as j:
            j.append(ticks(1))
    os.replace(other, path)
    with pytest.raises(JournalMissing, match="is not the journal its lock file names"):
        Journal(path)


WRITER = """
import sys
from typing import Literal
from clockd.store import Entry, Journal, JournalError, entry_type

@entry_type
class FileTick(Entry):
    kind: Literal["test-changed-tick"] = "test-changed-tick"
    n: int

j = Journal(sys.argv[1])
n = 0
try:
    while True:
        n += 1
        seqs = j.append([FileTick(n=n, t_ns=n, table=1)])
        print(seqs[-1], flush=True)   # acknowledged
except JournalError as exc:
    print("stopped:", exc, flush=True)
    sys.stdin.read()                  # wait to be killed, as a crash would
"""


def test_nothing_acknowledged_is_lost_when_the_wal_is_removed_and_the_writer_is_killed(
    tmp_path: Path,
) -> None:
    """The issue's day: the -wal deleted under a busy writer, then ``kill -9``: every acknowledged
    seq is still in the journal."""
    path = tmp_path / "j.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(WRITER), str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    acknowledged, stopped = 0, ""
    for line in proc.stdout:
        if line.startswith("stopped:"):
            stopped = line
            break
        acknowledged = int(line)
        if acknowledged == 50:
            Path(f"{path}-wal").unlink()
        if acknowledged == 1000:  # long after the damage: the writer never noticed
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert "-wal was removed" in stopped and "none is lost" in stopped
    with Journal(path) as j:
        seqs = [r.seq for r in j.read(verify=True)]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= acknowledged >= 50
