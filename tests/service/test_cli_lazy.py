"""``duelclock`` imports only the subcommand that runs, and says the same as when it built them all.

A command's start is what an arbiter waits for forty times a round (issue 30): ``--help``
lists every command from a table of summaries, without importing their modules. These tests
hold that table to what the modules themselves register, and check what a command imports.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from clockd.cli import build_parser
from clockd.i18n import set_language


def listed(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The top-level words and their one-line summaries, as ``duelclock --help`` lists them."""
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {action.dest: action.help or "" for action in sub._choices_actions}


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_the_listing_without_imports_is_the_listing_of_the_whole_parser(lang: str) -> None:
    set_language(lang)
    try:
        whole, lazy = listed(build_parser()), listed(build_parser(only=""))
    finally:
        set_language(None)
    assert list(lazy) == list(whole)
    assert lazy == whole
    assert {"status", "swiss", "tournament", "chess", "publish"} <= set(lazy)


def imported(*argv: str) -> set[str]:
    """The modules of the project a ``duelclock ARGV`` process has imported when it exits."""
    code = (
        "import atexit, json, sys\n"
        "ours = lambda: sorted(m for m in sys.modules if m.startswith('clockd'))\n"
        "atexit.register(lambda: print(json.dumps(ours())))\n"
        "from clockd.cli import main\n"
        f"sys.exit(main({list(argv)!r}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_help_imports_no_subcommand_nor_the_api() -> None:
    modules = imported("--help")
    assert not {m for m in modules if m.startswith(("clockd.api", "clockd.core", "clockd.store"))}
    assert not {m for m in modules if m.startswith("clockd.cli.") and m != "clockd.cli.parser"}


def test_a_command_imports_its_own_module_only() -> None:
    modules = imported("swiss", "--help")
    assert "clockd.cli.swiss" in modules
    assert not {"clockd.cli.status", "clockd.cli.run", "clockd.kinds.chess.cli_day"} & modules
    assert not {m for m in modules if m.startswith("clockd.api")}
