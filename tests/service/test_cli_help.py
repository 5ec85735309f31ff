"""``duelclock --help`` and argparse's own words speak Polish first, English with ``DUELCLOCK_LANG=en``."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clockd.cli import build_parser, main
from clockd.cli.parser import ARGPARSE_MESSAGES
from clockd.cli.parser import gettext as argparse_gettext
from clockd.cli.parser import ngettext as argparse_ngettext
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
            ["tournament", "draw"],
            "drabinka: losowanie przez program (--seed albo losowe ziarno) lub losowanie przy stole",
            "the bracket: the app's draw (--seed, or a random one) or the physical one (--lines)",
        ),
        (
            ["swiss", "standings"],
            "Klasyfikacja turnieju szwajcarskiego z pliku TRF: miejsce, numer startowy",
            "Standings of a Swiss tournament in TRF: rank, start number",
        ),
        (
            ["table"],
            "Polecenia sędziego dla jednego stolika. Zmiany wymagają tokenu sędziego",
            "Referee commands for one table. Changes need the referee's token",
        ),
        (
            ["table", "3", "adjust"],
            "SIDE a lub b ±SECONDS np. 30, -30, 1.5",
            "SIDE a or b ±SECONDS e.g. 30, -30, 1.5",
        ),
        (
            ["sim", "gpio"],
            "--debounce-ms DEBOUNCE_MS okno tłumienia drgań styków w sterowniku (ms)",
            "--debounce-ms DEBOUNCE_MS the driver's debounce window (ms)",
        ),
    ],
)
def test_a_subcommand_s_help_is_polish_by_default_and_english_on_request(
    argv: list[str],
    polish: str,
    english: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    usage = " ".join(["duelclock", *argv]).replace("table 3", "table T")  # argparse's prog for it
    status, out, _ = run(capsys, *argv, "--help")
    assert status == 0
    assert out.startswith(f"użycie: {usage} [-h]")
    assert polish in out and english not in out
    assert "opcje: -h, --help pokaż tę pomoc i zakończ" in out

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    status, out, _ = run(capsys, *argv, "--help")
    assert status == 0
    assert out.startswith(f"usage: {usage} [-h]")
    assert english in out and polish not in out
    assert "options: -h, --help show this help message and exit" in out


def texts(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("duelclock",)) -> dict[tuple, str]:
    """Every text ``--help`` shows of ``parser`` and, recursively, of its subcommands, by where it is."""
    found: dict[tuple, str] = {}
    found[(*path, "description")] = parser.description or ""
    found[(*path, "epilog")] = parser.epilog or ""
    for i, group in enumerate(parser._action_groups):
        found[(*path, "group", i, "title")] = group.title or ""
        found[(*path, "group", i, "description")] = group.description or ""
    for action in parser._actions:
        found[(*path, action.dest, *action.option_strings, "help")] = action.help or ""
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:  # a subcommand's line in this parser's help
                found[(*path, "command", listed.dest, "help")] = listed.help or ""
            for name, subparser in action.choices.items():
                found.update(texts(subparser, (*path, name)))
    return found


def test_no_help_text_of_any_subcommand_is_left_in_english() -> None:
    set_language("en")
    english = texts(build_parser())
    set_language("pl")
    polish = texts(build_parser())
    set_language(None)

    assert polish.keys() == english.keys()
    assert sum(1 for key in english if key[-1] == "help" and english[key]) > 200  # the walk saw them all
    assert ("duelclock", "tournament", "draw", "lines", "--lines", "help") in english

    untranslated = {
        " ".join(map(str, key)): text
        for key, text in english.items()
        if re.search(r"[A-Za-z]{2}", text) and polish[key] == text
    }
    assert untranslated == {}


@pytest.mark.parametrize(
    ("argv", "polish", "english"),
    [
        (
            ["tournament"],
            "duelclock tournament: błąd: wymagane są argumenty: COMMAND",
            "duelclock tournament: error: the following arguments are required: COMMAND",
        ),
        (
            ["szachy"],
            "duelclock: błąd: argument COMMAND: nieprawidłowy wybór: 'szachy' (do wyboru: 'start',",
            "duelclock: error: argument COMMAND: invalid choice: 'szachy' (choose from 'start',",
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
        (
            ["table", "1", "adjust", "a", "pół", "--reason", "x"],
            "błąd: argument ±SECONDS: 'pół' nie jest liczbą sekund (np. 30, -30, 1.5)",
            "error: argument ±SECONDS: 'pół' is not a number of seconds (e.g. 30, -30, 1.5)",
        ),
        (
            ["sim", "gpio", "--tables", "0"],
            "duelclock sim gpio: błąd: argument --tables: musi być co najmniej 1, nie 0",
            "duelclock sim gpio: error: argument --tables: must be at least 1, not 0",
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


def test_argparse_asks_the_catalogue_and_a_message_it_does_not_list_reads_as_argparse_wrote_it() -> None:
    assert argparse_gettext("expected one argument") == "wymaga jednej wartości"
    assert argparse_gettext("invalid %(type)s value: %(value)r") % {"type": "_size", "value": "3"} == (
        "nieprawidłowa wartość: '3'"
    )
    assert argparse_ngettext("expected %s argument", "expected %s arguments", 2) % 2 == (
        "wymaga wartości w liczbie: 2"
    )
    assert argparse_gettext("something new in Python 3.99") == "something new in Python 3.99"
    set_language("en")
    assert argparse_gettext("expected one argument") == "expected one argument"
    assert argparse_ngettext("expected %s argument", "expected %s arguments", 1) == "expected %s argument"
    assert argparse_ngettext("expected %s argument", "expected %s arguments", 2) == "expected %s arguments"


def test_the_catalogue_keeps_argparse_s_message_ids_and_their_placeholders() -> None:
    """An entry answers argparse only while its English is argparse's message id exactly, and
    its Polish must fill the same ``%`` blanks (argparse fills them after translating)."""
    from clockd.i18n.catalogue import catalogue

    positional, named = re.compile(r"%[rsd]"), re.compile(r"%\(\w+\)[rsd]")
    entries = catalogue().entries
    for code in ARGPARSE_MESSAGES:
        entry = entries[code]
        for form in (*entry.en, *entry.pl):  # a named blank may go unused (argparse fills a dict)
            assert positional.findall(form) == positional.findall(entry.en[0]), code
            assert set(named.findall(form)) <= set(named.findall(entry.en[0])), code
    import argparse as real

    source = Path(real.__file__).read_text(encoding="utf-8")
    missing = [code for code in ARGPARSE_MESSAGES if repr(entries[code].en[0]) not in source]
    assert missing == []


def test_the_readme_and_run_help_give_the_same_default_number_of_simulated_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 18, item 10: the README said 8 where ``duelclock run`` starts 4."""
    from pathlib import Path

    from clockd.cli.run import DEFAULT_SIM_TABLES

    _, out, _ = run(capsys, "run", "--help")
    said = re.search(r"domyślnie (\d+), gdy nie skonfigurowano stolików", out)
    assert said is not None and int(said.group(1)) == DEFAULT_SIM_TABLES
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if x.startswith("duelclock run --sim"))
    stated = re.search(r"no hardware and no --sim: (\d+)", line)
    assert stated is not None and int(stated.group(1)) == DEFAULT_SIM_TABLES
