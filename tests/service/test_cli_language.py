"""What a referee reads when the command line refuses: Polish unless ``DUELCLOCK_LANG=en``.

Real processes: a running ``duelclock run`` holds the journal, a second one is refused; a
``duelclock status`` finds no daemon. No English sentence reaches the Polish referee.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from clockd.i18n import Msg, render
from clockd.service.engine import ENTRY_FORMAT
from clockd.service.entries import DeviceConnected
from clockd.store import Entry, Journal, decode_entry, entry_type
from tests.conftest import wait_until


@entry_type
class FromTheFuture(Entry):
    """An entry kind only this test process knows: to the daemon it comes from a newer duelclock."""

    kind: Literal["test-from-the-future"] = "test-from-the-future"


def environment(tmp_path: Path, lang: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DUELCLOCK_LANG"}
    env["DUELCLOCK_STATE_DIR"] = str(tmp_path / "state")
    if lang is not None:
        env["DUELCLOCK_LANG"] = lang
    return env


def duelclock(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clockd", *args], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A daemon (English, as a server's log may be) holding ``festival.db``."""
    db = tmp_path / "festival.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "clockd", "run", "--sim", "0", "--port", "0", "--db", str(db)],
        env=environment(tmp_path, "en"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    banner = []
    for line in proc.stdout:
        banner.append(line)
        if line.startswith("Clocks:"):
            break
    else:
        raise AssertionError(
            f"the daemon did not start: {banner} {proc.stderr.read() if proc.stderr else ''}"
        )
    try:
        yield proc, db
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_a_journal_held_by_another_daemon_is_refused_in_polish_and_in_english(
    running: tuple[subprocess.Popen[str], Path], tmp_path: Path
) -> None:
    holder, db = running
    second = ("run", "--sim", "0", "--port", "0", "--db", str(db))

    polish = duelclock(environment(tmp_path, None), *second)
    assert polish.returncode == 2
    assert polish.stderr.strip() == (
        f"duelclock run: dziennika {db} używa już inny demon duelclock (pid {holder.pid}), być może pod "
        "inną nazwą (przez dowiązanie symboliczne lub twarde do tego samego pliku); najpierw go zatrzymaj "
        "albo podaj temu demonowi inną ścieżkę --db"
    )

    english = duelclock(environment(tmp_path, "en"), *second)
    assert english.returncode == 2
    assert english.stderr.strip() == (
        f"duelclock run: journal {db} is in use by another duelclock daemon (pid {holder.pid}), perhaps "
        "under another name (a symlink or a hard link to the same file); stop it first, or give this one "
        "another --db"
    )
    assert holder.poll() is None  # the first daemon runs on, untouched


def test_a_missing_daemon_is_reported_in_polish_with_the_systems_reason(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = duelclock(environment(tmp_path, None), "status", "--host", "127.0.0.1", "--port", str(port))
    assert result.returncode == 3
    assert result.stderr.strip() == (
        f"duelclock: pod 127.0.0.1:{port} nie odpowiada żaden demon (odmowa połączenia); "
        "uruchom go: `duelclock run`"
    )
    english = duelclock(
        environment(tmp_path, "en"), "status", "--json", "--host", "127.0.0.1", "--port", str(port)
    )
    assert english.returncode == 3
    assert '"code": "cli.unreachable"' in english.stdout and "(connection refused)" in english.stdout


def test_a_journal_this_version_cannot_replay_is_explained_in_polish(tmp_path: Path) -> None:
    db = tmp_path / "state" / "old.db"
    with Journal(db) as journal:
        journal.append([FromTheFuture(t_ns=1, table=1)])
    start = ("run", "--sim", "0", "--port", "0", "--db", str(db))

    unmarked = duelclock(environment(tmp_path, None), *start)  # entries without the format's mark
    assert unmarked.returncode == 2
    assert unmarked.stderr.strip() == (
        f"duelclock run: plik {db} zapisał wcześniejszy duelclock (0.1), którego wpisów ta wersja nie "
        "czyta; zachowaj ten plik (jego wyniki da się odczytać tamtą wersją) i uruchom tę wersję na nowym "
        "dzienniku (--db)"
    )

    with Journal(db) as journal:
        journal.set_meta("entry_format", ENTRY_FORMAT)
    unknown = duelclock(environment(tmp_path, None), *start)
    assert unknown.returncode == 2
    said = unknown.stderr.strip()
    assert said.startswith(f"duelclock run: rodzaj wpisu 'test-from-the-future' w {db} seq 1 jest nieznany")
    assert said.endswith("czy dziennik zapisała nowsza wersja?")
    english = duelclock(environment(tmp_path, "en"), *start).stderr
    assert "entry kind 'test-from-the-future' at" in english and "is unknown to this duelclock" in english


def test_a_devices_detail_reaches_the_referee_in_their_language_not_the_daemons(tmp_path: Path) -> None:
    """The daemon runs in English; the driver's detail travels as a message; status renders it."""
    db = tmp_path / "state" / "hall.db"
    daemon_env = environment(tmp_path, "en")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clockd",
            "run",
            "--sim",
            "1",
            "--port",
            "0",
            "--db",
            str(db),
            "--think-ms",
            "500",
        ],
        env=daemon_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Clocks:"):
                break

        def detail_line(lang: str | None) -> str:
            out = duelclock(environment(tmp_path, lang), "status").stdout
            return next((line.strip() for line in out.splitlines() if "SIM-0001" in line), "")

        wait_until(lambda: detail_line("en") != "")
        polish, english = detail_line(None), detail_line("en")
        assert polish.startswith("stolik 1, urządzenie SIM-0001: firmware ")
        assert ", protokół 1." in polish and ", uruchomienie " in polish and "protocol" not in polish
        assert english.startswith("table 1, device SIM-0001: firmware ") and ", protocol 1." in english

        timeline = duelclock(environment(tmp_path, None), "table", "1", "timeline").stdout
        [connected] = [line for line in timeline.splitlines() if "urządzenie podłączone" in line]
        assert "SIM-0001, firmware " in connected and ", protokół 1." in connected
    finally:
        proc.terminate()
        proc.wait(timeout=15)

    with Journal.reader(db) as journal:  # the journal keeps the message as data: no language in it
        [record] = [r for r in journal.read() if r.entry.kind == "device-connected"]
    assert isinstance(record.entry, DeviceConnected) and isinstance(record.entry.detail, Msg)
    assert record.entry.detail.code == "driver.serial.firmware-protocol-boot"
    assert set(record.entry.detail.params) == {"firmware", "major", "minor", "boot_id", "restarted", "kept"}
    assert "protokół" not in record.entry.model_dump_json()


def test_a_detail_an_older_duelclock_journaled_as_text_is_shown_as_written() -> None:
    old = '{"kind": "device-connected", "t_ns": 5, "table": 2, "device_id": "DC-7", "detail": "firmware 0.9"}'
    entry = decode_entry("device-connected", old)
    assert isinstance(entry, DeviceConnected)
    assert entry.detail == Msg("device.as-recorded", {"text": "firmware 0.9"})
    assert render(entry.detail, "pl") == render(entry.detail, "en") == "firmware 0.9"
    empty = decode_entry("device-connected", old.replace('"firmware 0.9"', '""'))
    assert isinstance(empty, DeviceConnected) and empty.detail is None


def test_a_daemon_whose_journal_is_pulled_away_stops_and_says_why_in_polish(tmp_path: Path) -> None:
    db = tmp_path / "state" / "festival.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clockd",
            "run",
            "--sim",
            "2",
            "--port",
            "0",
            "--db",
            str(db),
            "--think-ms",
            "60",
        ],
        env=environment(tmp_path, None),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "duelclock status" in line:  # the banner's last line, in Polish
                break
        wait_until(lambda: Path(f"{db}-wal").exists())
        Path(f"{db}-wal").unlink()
        assert proc.wait(30) == 1
        assert proc.stderr is not None
        said = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert f"duelclock run: demon zatrzymany: dziennik {db}: plik {db}-wal został usunięty" in said
    assert "nic więcej nie zostanie zapisane ani potwierdzone" in said
    assert "was removed while the daemon" not in said.split("duelclock run:")[-1]
