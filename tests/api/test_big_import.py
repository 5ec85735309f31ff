"""A large sign-up file is read in linear time, beside the engine and the other clients, and the
command line says what it is doing — never a traceback (issue 20, item 8).

On the original main, reading sign-ups was quadratic (1000 rows 5.7 s, 4000 rows 82 s, 8000
rows 299 s), ran on the engine's thread while the API waited for it (a 32 kB import took 33 s
and another client timed out), and the command line printed a ``TimeoutError`` traceback
although the import had been applied.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

import pytest

from clockd.api import Client
from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.puzzle_duel import ImportSignups
from clockd.core.registration import Registration, parse_signups


def signups(rows: int, *, duplicates: bool = False) -> str:
    lines = ["Imię;Nazwisko;E-mail;Telefon;Wiek"]
    for i in range(1, rows + 1):
        lines.append(f"Gracz{i};Nazwisko{i};g{i}@example.pl;600{i:06d};{20 + i % 50}")
    if duplicates:  # the same people again at the end: by e-mail, and by name and phone
        lines.append(
            "gracz1;NAZWISKO1;g1@example.pl;;30"
        )  # the same name: one person (a sibling would be two)
        lines.append(f"Gracz2;Nazwisko2;;600{2:06d};22")
    return "\n".join(lines) + "\n"


def test_reading_sign_ups_takes_linear_time_and_finds_the_same_duplicates() -> None:
    started = time.perf_counter()
    read = parse_signups(signups(8000, duplicates=True))
    assert time.perf_counter() - started < 5.0  # was 299 s
    assert len(read.accepted) == 8000
    assert [(r.line, r.reason, r.same_as) for r in read.refused] == [
        (8002, "duplicate", 2),
        (8003, "duplicate", 3),
    ]
    kept = read.kept(16)  # what the journal keeps: the lists, and who was left out (without their data)
    assert len(kept.accepted) == 32 and len(kept.refused) == 2 + 8000 - 32
    assert Registration.from_signups(kept, seats=16) == Registration.from_signups(read, seats=16)


def test_a_large_import_delays_neither_the_clocks_nor_other_clients(start_daemon) -> None:
    """Measured against the import itself, in one run (the machines are noisy): while the file
    is read, the clocks go on and another client is answered, again and again; neither waits
    anything like the import's own time (a read on the engine's thread would make them)."""
    daemon = start_daemon(tables=8, think_ms=(20, 60))
    daemon.engine.stats.keep_latencies = True
    csv = signups(30_000)  # about 1.7 million characters: close to the largest a request may carry
    with Client(port=daemon.port, token=daemon.token, timeout_ms=60_000) as desk:
        desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
        answered: list[tuple[float, float]] = []  # (asked, answered) of every status
        done = threading.Event()

        def other_client() -> None:
            with Client(port=daemon.port) as other:
                while not done.is_set():
                    asked = time.perf_counter()
                    other.status()
                    answered.append((asked, time.perf_counter()))
                    time.sleep(0.02)

        watcher = threading.Thread(target=other_client)
        watcher.start()
        presses_before = daemon.engine.stats.presses
        daemon.engine.stats.latencies_ns.clear()
        began = time.perf_counter()
        reply = desk.act("pt", ImportSignups(csv=csv, source="zapisy.csv"))
        took = time.perf_counter() - began
        done.set()
        watcher.join(10)
    assert reply.event is not None and len(reply.event.body.players) == 32
    assert daemon.engine.stats.presses > presses_before  # the clocks went on meanwhile
    during = [(a, b) for a, b in answered if a >= began and b <= began + took]
    assert len(during) >= 3, (len(during), took)  # the other client was answered during the import
    longest = max(b - a for a, b in answered)
    assert longest < took / 2, (longest, took)  # nor did it wait for the import
    assert max(daemon.engine.stats.latencies_ns) / 1e9 < took / 2  # nor did any press


def test_the_command_line_shows_progress_for_a_long_file(
    start_daemon, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    daemon = start_daemon(tables=1, players=False)
    conn = ["--port", str(daemon.port), "--token", daemon.token]
    assert main(["tournament", "new", "pt", *conn]) == 0
    csv = tmp_path / "zapisy.csv"
    csv.write_text(signups(5000), encoding="utf-8")
    capsys.readouterr()
    assert main(["tournament", "import", str(csv), *conn]) == 0
    out, err = capsys.readouterr()
    assert "zapisy.csv: 5000 rows read and checked in" in err and "Traceback" not in err + out


def test_a_daemon_that_does_not_answer_in_time_is_a_sentence_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # accepts, reads, never answers
    accepted: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):  # the socket is closed at the end
            while True:
                accepted.append(silent.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    monkeypatch.setattr(Client, "__init__", _short_timeout(Client.__init__))
    port = str(silent.getsockname()[1])
    status = main(["tournament", "checkin", "1", "-s", "pt", "--port", port, "--token", "t"])
    out, err = capsys.readouterr()
    assert status == 3 and "did not answer within 1 s, twice" in err and "Traceback" not in err + out
    assert len(accepted) == 2  # sent once more, with the same id, on a new connection
    silent.close()


def _short_timeout(init):  # type: ignore[no-untyped-def]
    def patched(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs["timeout_ms"] = 1000
        init(self, *args, **kwargs)

    return patched
