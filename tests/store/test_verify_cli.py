"""``duelclock journal verify``: names the first bad seq and exits non-zero, beside a running writer too."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from clockd.core.program import AddNote
from clockd.service.actions import journal
from clockd.store import Journal, JournalDamaged


def verify(db: Path, *extra: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DUELCLOCK_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "clockd", "journal", "verify", "--db", str(db), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )


def notes(j: Journal, n: int) -> None:
    j.append([journal(AddNote(text=f"note {i}"), target="desk/1", table=1, by="Ewa") for i in range(n)])


def test_an_intact_journal_passes_even_while_a_writer_holds_it(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as writer:
        notes(writer, 12)
        writer.save_snapshot(12, 1, "{}")
        result = verify(db)
        assert result.returncode == 0, result.stderr
        assert "hash chain: intact" in result.stdout and "Result: the journal is intact." in result.stdout
        notes(writer, 1)  # the writer was not blocked


def test_a_changed_event_is_named_by_its_seq_in_polish_and_in_json(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as writer:
        notes(writer, 12)
    raw = sqlite3.connect(db)
    raw.execute("UPDATE events SET body = replace(body, 'note 6', 'note 9') WHERE seq = 7")
    raw.commit()
    raw.close()

    polish = verify(db, lang="pl")
    assert polish.returncode == 1
    assert (
        "łańcuch skrótów: USZKODZONY od seq 7: zdarzenie (albo zapisany z nim skrót) zmieniono"
        in polish.stdout
    )

    result = verify(db, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["first_bad_seq"] == 7 and report["reason"] == "changed"
    assert report["events"] == report["last_seq"] == 12 and report["integrity"] == "ok"


def test_a_journal_that_cannot_be_read_is_a_sentence_and_status_2(tmp_path: Path) -> None:
    result = verify(tmp_path / "none.db")
    assert result.returncode == 2
    assert f"cannot check the journal: journal {tmp_path / 'none.db'} does not exist" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_file_that_is_no_journal_is_refused_in_the_referees_language(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_bytes(b"not an SQLite file, just some notes " * 200)
    polish = verify(db, lang="pl")
    assert polish.returncode == 2
    assert f"nie można otworzyć dziennika {db}: plik nie jest bazą danych SQLite" in polish.stderr
    english = verify(db)
    assert f"journal {db} cannot be opened: the file is not an SQLite database" in english.stderr
    assert "file is not a database" not in polish.stderr + english.stderr  # not SQLite's own English


def test_a_byte_that_is_not_utf8_in_a_kind_is_named_by_its_seq_not_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as writer:
        notes(writer, 8)
    raw = sqlite3.connect(db)
    raw.execute("UPDATE events SET kind = CAST(x'6e6f74ff65' AS TEXT) WHERE seq = 5")  # "not\xffe"
    raw.commit()
    raw.close()

    polish = verify(db, lang="pl")
    assert "Traceback" not in polish.stderr, polish.stderr
    assert polish.returncode == 1
    assert "łańcuch skrótów: USZKODZONY od seq 5: zdarzenie (albo zapisany z nim skrót)" in polish.stdout
    report = json.loads(verify(db, "--json").stdout)
    assert (report["first_bad_seq"], report["reason"]) == (5, "changed")
    damaged = pytest.raises(JournalDamaged, match=f"journal {db}: the event at seq 5 does not match")
    with Journal.reader(db) as r, damaged:  # a start's read stops there too, with the sentence
        list(r.read(verify=True))
