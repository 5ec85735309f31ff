"""A refused command says why in the referee's language, exits non-zero, and with ``--json`` gives its code.

The daemon refuses with a code and its parameters; the command line renders them from the
one catalogue — Polish unless ``DUELCLOCK_LANG=en`` — and never shows a Polish referee an
English sentence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.i18n import set_language
from clockd.service.runtime import Daemon, TableSpec


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    d = Daemon(tmp_path / "j.db", tables=[TableSpec(t) for t in (1, 2, 3)], port=0, write_daemon_info=False)
    d.start()
    yield d
    d.stop()


def run(daemon: Daemon, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    conn = ["--port", str(daemon.port), "--token", daemon.token]
    status = main([*argv, *conn])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(autouse=True)
def polish(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    set_language(None)
    yield
    set_language(None)


def test_pausing_a_table_that_does_not_exist_is_refused_in_polish(daemon, capsys) -> None:
    status, out, err = run(daemon, capsys, "table", "99", "pause", "--reason", "x")
    assert status != 0 and out == ""
    assert err.strip() == "duelclock: odmowa: nie ma stolika 99 (stoliki: 1, 2, 3)"


def test_with_json_the_refusal_carries_its_code_and_parameters(daemon, capsys) -> None:
    status, out, _ = run(daemon, capsys, "table", "99", "pause", "--reason", "x", "--json")
    assert status != 0
    refusal = json.loads(out)
    assert refusal == {
        "error": "refused",
        "code": "table.unknown",
        "params": {"table": 99, "known": [1, 2, 3]},
        "message": "nie ma stolika 99 (stoliki: 1, 2, 3)",
    }


def test_confirming_a_match_before_any_result_is_refused_in_polish(daemon, capsys, tmp_path) -> None:
    status, _, err = run(daemon, capsys, "tournament", "confirm", "R1-1")  # no session at all yet
    assert status != 0 and "nie ma jeszcze żadnej sesji Puzzle Duel" in err
    csv = tmp_path / "zapisy.csv"
    csv.write_text(
        "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Nazwisko{i};{20 + i}\n" for i in range(1, 17)),
        encoding="utf-8",
    )
    for argv in (
        ("tournament", "new", "pt"),
        ("tournament", "import", str(csv)),
        ("tournament", "checkin", *map(str, range(1, 17))),
        ("tournament", "close"),
        ("tournament", "draw", "--seed", "5"),
    ):
        assert run(daemon, capsys, *argv)[0] == 0, argv
    status, _, err = run(daemon, capsys, "tournament", "confirm", "R1-1")
    assert status != 0
    assert "odmowa: mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „do rozegrania”)" in err
    status, out, _ = run(daemon, capsys, "tournament", "confirm", "R1-1", "--json")
    assert status != 0 and json.loads(out)["code"] == "bracket.no-result"


def test_the_same_refusal_in_english_on_request(daemon, capsys, monkeypatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    status, _, err = run(daemon, capsys, "table", "99", "pause", "--reason", "x")
    assert status != 0 and err.strip() == "duelclock: refused: there is no table 99 (tables: 1, 2, 3)"
    status, _, err = run(daemon, capsys, "table", "1", "resume")
    assert status != 0 and "only a paused clock can be resumed; this one is ready" in err


def test_a_daemon_that_does_not_answer_is_said_in_polish(capsys, tmp_path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status = main(["status", "--port", str(port)])
    err = capsys.readouterr().err
    assert status == 3 and "nie odpowiada żaden demon" in err and "duelclock run" in err
