"""``duelclock --help`` and argparse's own words speak Polish first, English with ``DUELCLOCK_LANG=en``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from clockd.cli import main
from clockd.cli.parser import polish_error
from clockd.i18n import set_language


@pytest.fixture(autouse=True)
def polish(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default a referee gets: no DUELCLOCK_LANG, no language set by another test."""
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    set_language(None)


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")


def flat(text: str) -> str:
    """``text`` with argparse's line wrapping undone, so a phrase can be looked for whole."""
    return " ".join(text.split())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``duelclock ARGV`` in this process: the exit status, standard output and error, unwrapped."""
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(exit_.value.code or 0), flat(out), flat(err)


def test_the_top_level_help_is_polish_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert out.startswith("użycie: duelclock [-h] [--version] COMMAND ...")
    assert "Turnieje rozgrywane na zegarach szachowych" in out
    assert "argumenty: COMMAND" in out
    assert "opcje: -h, --help pokaż tę pomoc i zakończ --version pokaż wersję programu i zakończ" in out
    assert "usage:" not in out and "show this help message" not in out


def test_the_top_level_help_is_english_with_duelclock_lang_en(
    english: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert out.startswith("usage: duelclock [-h] [--version] COMMAND ...")
    assert "Tournaments played on chess clocks: the clock daemon, its GUI" in out
    assert "positional arguments: COMMAND" in out
    assert (
        "options: -h, --help show this help message and exit "
        "--version show program's version number and exit" in out
    )
    assert "użycie" not in out


def test_the_installed_command_speaks_polish_unless_told_otherwise() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DUELCLOCK_LANG"}

    def help_text(**extra: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "clockd", "--help"],
            env={**env, **extra},
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert help_text().startswith("użycie: duelclock")
    assert help_text(DUELCLOCK_LANG="en").startswith("usage: duelclock")


@pytest.mark.parametrize(
    ("argv", "polish", "english"),
    [
        (
            ["tournament"],
            "duelclock tournament: błąd: wymagane są argumenty: COMMAND",
            "duelclock tournament: error: the following arguments are required: COMMAND",
        ),
        (
            ["chess"],
            "duelclock: błąd: argument COMMAND: nieprawidłowy wybór: 'chess' (do wyboru: 'start',",
            "duelclock: error: argument COMMAND: invalid choice: 'chess' (choose from 'start',",
        ),
        (
            ["status", "--watch", "--colour"],
            "duelclock: błąd: nierozpoznane argumenty: --colour",
            "duelclock: error: unrecognized arguments: --colour",
        ),
        (
            ["status", "--port", "x"],
            "duelclock status: błąd: argument --port: 'x' nie jest liczbą całkowitą",
            "duelclock status: error: argument --port: invalid int value: 'x'",
        ),
        (
            ["status", "--port"],
            "duelclock status: błąd: argument --port: wymaga jednej wartości",
            "duelclock status: error: argument --port: expected one argument",
        ),
        (
            ["status", "--json=yes"],
            "duelclock status: błąd: argument --json: ta opcja nie przyjmuje wartości (podano 'yes')",
            "duelclock status: error: argument --json: ignored explicit argument 'yes'",
        ),
        (
            ["protocol", "decode", "--hex", "--raw"],
            "duelclock protocol decode: błąd: argument --raw: nie można łączyć z argumentem --hex",
            "duelclock protocol decode: error: argument --raw: not allowed with argument --hex",
        ),
    ],
)
def test_argparse_errors_are_polish_by_default_and_english_on_request(
    argv: list[str],
    polish: str,
    english: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("użycie: duelclock")
    assert polish in err

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("usage: duelclock")
    assert english in err


def test_a_message_that_is_not_argparse_s_own_is_printed_as_it_is() -> None:
    assert polish_error("argument ±SECONDS: 'x' is not a number") == "argument ±SECONDS: 'x' is not a number"
    assert polish_error("something new in Python 3.99") == "something new in Python 3.99"
    assert polish_error("argument --size: invalid _size value: '3'") == (
        "argument --size: nieprawidłowa wartość: '3'"
    )
    assert polish_error("argument --speed: invalid float value: 'fast'") == (
        "argument --speed: 'fast' nie jest liczbą"
    )
