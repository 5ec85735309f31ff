"""``duelclock tournament import`` and ``signups`` on files that are not what they should be: a
sentence, exit status 2, nothing imported — never a traceback; a NUL never reaches the daemon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.registration import AddPlayer
from clockd.i18n import render

from .conftest import Desk

HEADER = "Imię;Nazwisko;E-mail;Wiek\n"
GOOD = HEADER + "".join(f"Gracz{i};Nazwisko{i};g{i}@example.pl;{20 + i}\n" for i in range(1, 5))

BAD_FILES = {
    "empty": (b"", "the file is empty"),
    "blank": (b"\n\n  \n", "the file is empty"),
    "ten-megabyte-cell": (
        (HEADER + "Anna;" + "K" * 10_000_000 + ";a@b.pl;20\n").encode(),
        "characters, but the daemon takes sign-up files of up to 2000000 characters; split it",
    ),
    "oversized": (
        (HEADER + "Anna;Kowalska;a@b.pl;20\n" * 90_000).encode(),
        "characters, but the daemon takes sign-up files of up to 2000000 characters; split it",
    ),
    "nul": (
        (HEADER + "An\x00na;Kowalska;a@b.pl;20\n").encode(),
        "line 2: the first name contains a control character (U+0000)",
    ),
    "mixed": (
        (HEADER + "Anna;Wiśniewska;a@b.pl;20\n").encode() + "Jan;Wiśniewski;j@b.pl;30\n".encode("cp1250"),
        "line 3: this row is not UTF-8 like the rest of the file",
    ),
}


def import_(desk: Desk, capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    conn = ["--port", str(desk.daemon.port), "--token", desk.client.token or "", "--by", "Ewa"]
    status = main(["tournament", "import", str(path), *conn])
    return status, capsys.readouterr().err


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def test_bad_files_get_a_sentence_and_nothing_is_imported(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    assert (
        main(["tournament", "new", "pt", "--port", str(desk.daemon.port), "--token", desk.client.token or ""])
        == 0
    )
    for name, (data, words) in BAD_FILES.items():
        path = tmp_path / f"{name}.csv"
        path.write_bytes(data)
        status, err = import_(desk, capsys, path)
        assert status == 2 and words in err, (name, err)
        assert list(desk.session("pt").players) == [], name
    (tmp_path / "good.csv").write_text(GOOD, encoding="utf-8")
    assert import_(desk, capsys, tmp_path / "good.csv")[0] == 0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("empty", "line 1: the file is empty"),
        ("ten-megabyte-cell", "line 2: a cell longer than 131072 characters"),
        ("nul", "line 2: the first name contains a control character (U+0000)"),
        ("mixed", "line 3: this row is not UTF-8 like the rest of the file (lines 1, 2):"),
    ],
)
def test_signups_reads_the_same_files_with_a_sentence_naming_the_line(
    name: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{name}.csv"
    path.write_bytes(BAD_FILES[name][0])
    assert main(["tournament", "signups", str(path)]) == 2
    err = capsys.readouterr().err
    assert "nothing imported" in err and words in err


def test_a_walk_in_typed_with_a_control_character_is_refused(open_desk: Any) -> None:
    import json
    import socket

    from pydantic import ValidationError

    desk = open_desk()
    assert (
        main(["tournament", "new", "pt", "--port", str(desk.daemon.port), "--token", desk.client.token or ""])
        == 0
    )
    with pytest.raises(ValidationError, match=r"control character \(U\+0000\)"):  # refused before sending
        AddPlayer(first_name="Ola", last_name="Now\x00ak", age=30)
    # and by the daemon, for a client that sends it anyway
    request = {"v": 2, "type": "player-add", "id": "x", "target": "pt", "token": desk.client.token}
    request |= {"first_name": "Ola", "last_name": "Now\x00ak", "age": 30}
    with socket.create_connection(("127.0.0.1", desk.daemon.port)) as sock:
        sock.sendall(json.dumps(request).encode() + b"\n")
        reply = json.loads(sock.makefile("rb").readline())
    assert reply["type"] == "error" and reply["reason"]["code"] == "field.control-character"
    assert "znak sterujący (U+0000)" in render(reply["reason"], "pl")
    assert list(desk.session("pt").players) == []
