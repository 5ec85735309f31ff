"""The system's reasons (a file missing, a port refused, a file that is no database) read in the
referee's language, from real failures — not in the C library's English."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from clockd.i18n import Msg, Problem, msg, render, render_error
from clockd.i18n.reasons import error_msg


def _failure(call) -> BaseException:
    try:
        call()
    except BaseException as exc:  # the failure is the point
        return exc
    raise AssertionError("it did not fail")


def test_a_missing_file_reads_in_polish_and_in_english(tmp_path: Path) -> None:
    exc = _failure(lambda: (tmp_path / "nothing.toml").read_text())
    assert render_error(exc, "pl") == "nie ma takiego pliku ani folderu"
    assert render_error(exc, "en") == "no such file or folder"


def test_a_refused_connection_reads_in_polish() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound but not listening: a connection is refused
        exc = _failure(lambda: socket.create_connection(("127.0.0.1", port), timeout=2).close())
    assert render_error(exc, "pl") == "odmowa połączenia"


def test_a_file_that_is_no_database_reads_in_polish(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are not the pages of an SQLite file" * 100)

    def read() -> None:
        db = sqlite3.connect(path)
        try:
            db.execute("PRAGMA user_version").fetchone()
        finally:
            db.close()

    exc = _failure(read)
    assert error_msg(exc) == Msg("sqlite-error.not-a-database")
    assert render_error(exc, "pl") == "plik nie jest bazą danych SQLite"


def test_an_exception_given_as_a_parameter_is_kept_as_its_message(tmp_path: Path) -> None:
    missing = _failure(lambda: (tmp_path / "gone").read_text())
    refused = Problem("table.unknown", table=9, known=[1, 2])
    sentence = msg("cli.unreachable", host="h", port=1, problem=missing)
    assert sentence.params["problem"] == {"code": "oserror.no-such-file", "params": {}}
    assert "nie ma takiego pliku ani folderu" in render(sentence, "pl")
    nested = msg("cli.unreachable", host="h", port=1, problem=refused)
    assert nested.params["problem"]["code"] == "table.unknown"
    assert msg("cli.unreachable", host="h", port=1, problem=KeyError("k")).params["problem"] == "'k'"


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_an_uncommon_reason_keeps_the_systems_words(lang: str) -> None:
    exc = OSError(123456, "something rare happened")
    assert render_error(exc, lang) == "something rare happened"
