"""A ``-wal`` removed after a crash: the real ``duelclock run`` killed with SIGKILL, its ``-wal``
deleted, started again. The commits that were only in the ``-wal`` are gone; the restart must
say so (the head it had reached, the one it found) instead of resuming without them, and
``duelclock journal verify`` must call the journal's tail missing (issue 29, item 5)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from clockd.store import Journal
from clockd.store.files import read_lock_record
from tests.conftest import wait_until


def start(env: dict[str, str], db: Path, out: Path) -> subprocess.Popen[bytes]:
    """``duelclock run`` with four simulated tables pressing fast (its output to a file: never
    blocked), once it serves, or once it has ended."""
    with open(out, "wb") as sink:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clockd",
                "run",
                "--sim",
                "4",
                "--port",
                "0",
                "--db",
                str(db),
                "--think-ms",
                "20",
            ],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    info = Path(env["DUELCLOCK_STATE_DIR"]) / "daemon.json"

    def serving() -> bool:
        if proc.poll() is not None:
            return True
        with contextlib.suppress(OSError, ValueError):
            return bool(json.loads(info.read_text())["pid"] == proc.pid)
        return False

    wait_until(serving, timeout_s=30)
    return proc


def last_seq(db: Path) -> int:
    with Journal.reader(db) as r:
        return r.last_seq


def without_wal(db: Path, tmp: Path) -> int:
    """The last seq the database file holds by itself (a copy of it, opened without its -wal)."""
    copy = tmp / "alone.db"
    shutil.copyfile(db, copy)
    con = sqlite3.connect(copy)
    try:
        return int(con.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
    finally:
        con.close()


def test_a_wal_removed_after_kill_9_is_named_at_restart_and_by_journal_verify(tmp_path: Path) -> None:
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "pl"}
    db = tmp_path / "hall.db"
    # a first day, stopped cleanly: everything is in the database file, the -wal is gone
    proc = start(env, db, tmp_path / "first.out")
    assert proc.poll() is None
    wait_until(lambda: last_seq(db) >= 30, timeout_s=30)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(15) == 0
    # the second: presses committed into the -wal, then kill -9
    proc = start(env, db, tmp_path / "second.out")
    assert proc.poll() is None
    first = last_seq(db)
    wait_until(lambda: last_seq(db) >= first + 40, timeout_s=30)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    committed = last_seq(db)  # with the -wal: every commit
    kept = without_wal(db, tmp_path)
    assert kept < committed  # the -wal held the last commits
    record = read_lock_record(Path(f"{db}.lock"))
    Path(f"{db}-wal").unlink()
    Path(f"{db}-shm").unlink(missing_ok=True)

    proc = start(env, db, tmp_path / "third.out")
    if proc.poll() is None:  # it serves: without the presses that were only in the -wal
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    said = (tmp_path / "third.out").read_text()
    assert proc.returncode == 2, said
    # the head recorded after the last commit (the kill may fall between a commit and its
    # record: then the one before), beyond what the database file holds by itself
    assert record is not None
    reached = record.head_seq
    assert kept < reached <= committed and committed - reached < 10, (kept, reached, committed)
    assert f"dziennik {db} kończy się na seq {kept}, a doszedł już do seq {reached}" in said
    assert "czy usunięto jego plik -wal?" in said and "Traceback" not in said

    verify = subprocess.run(
        [sys.executable, "-m", "clockd", "journal", "verify", "--db", str(db), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert verify.returncode == 1, verify.stdout
    report = json.loads(verify.stdout)
    assert (report["ok"], report["reason"], report["first_bad_seq"]) == (False, "lost", kept + 1)
    polish = subprocess.run(
        [sys.executable, "-m", "clockd", "journal", "verify", "--db", str(db)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert f"USZKODZONY od seq {kept + 1}" in polish.stdout and "przepadły" in polish.stdout
