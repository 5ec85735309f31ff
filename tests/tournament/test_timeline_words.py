"""The timeline a referee reads in a dispute says every step in words (issue 26, item 5).

``duelclock table N timeline`` names each journal entry with the catalogue's terms: the
action's (``term.action.*``), the entry's (``term.entry.*``), the program's
(``term.program.*``), what a press did (``term.outcome.*``) and how a duel was decided
(``term.decided-by.*``). A code with no sentence would reach the referee raw
(``term.outcome.ignored-before-toss`` did); these tests walk every code the timeline can
use, and a press before the toss on a real daemon.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import clockd.service.compose  # noqa: F401  (every event kind's entries and programs registered)
from clockd.cli import main
from clockd.cli.table import _entry_text
from clockd.core.actions import action_types
from clockd.core.clock import Side
from clockd.core.duel import DuelDecidedBy
from clockd.core.program import program_types
from clockd.core.units import SECOND
from clockd.i18n import set_language
from clockd.store.entries import entry_kinds

from .conftest import T0, Desk
from .test_cli_daemon import CSV, cli

RAW = ("term.", "{")


def _timeline_texts() -> list[tuple[str, str]]:
    """Every way the timeline can word an entry: (what, the text)."""
    out = [(f"entry {kind}", _entry_text(kind, {}, None)) for kind in {*entry_kinds(), *action_types()}]
    for kind, cls in program_types().items():
        out.append((f"program {kind}", _entry_text("program", {"program": {"kind": kind}}, None)))
        for outcome in sorted(cls.outcomes):
            data = {"side": "a", "outcome": outcome}
            out.append((f"{kind}: press {outcome}", _entry_text("press", data, ("Ala", "Ola"))))
    for how in DuelDecidedBy:
        verdict = {"winner": "a", "displayed": {"a": "1:00", "b": "0:59"}, "decided_by": how.value}
        out.append((f"decided by {how.value}", _entry_text("match-finished", {"verdict": verdict}, None)))
    return out


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_no_code_the_timeline_uses_reaches_the_referee_raw(lang: str) -> None:
    set_language(lang)
    try:
        raw = [f"{what}: {shown!r}" for what, shown in _timeline_texts() if any(r in shown for r in RAW)]
    finally:
        set_language(None)
    assert raw == [], "raw codes in the timeline:\n" + "\n".join(raw)


def test_a_press_before_the_toss_is_named_in_the_tables_timeline(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk: Desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    for argv in (
        ("new", "pt"),
        ("import", str(csv)),
        ("checkin", *[str(p) for p in range(1, 17)]),
        ("close",),
        ("draw", "--seed", "3"),
        ("assign", "R1-1", "2"),
    ):
        status, _, err = cli(desk, capsys, "tournament", *argv)
        assert status == 0, err
    desk.press(2, Side.A, T0)  # a player presses before the toss was recorded
    status = main(["table", "2", "timeline", "--host", "127.0.0.1", "--port", str(desk.daemon.port)])
    out = capsys.readouterr().out
    assert status == 0
    press = next(line for line in out.splitlines() if "naciśnięcie" in line)
    assert "pominięte: przed rzutem" in press and "term." not in out

    # a win on time left is "więcej czasu", as the demo says ("na czas" is a flag in Polish chess)
    m = desk.match("R1-1")
    assert cli(desk, capsys, "tournament", "toss", "R1-1", "--winner", str(m.a))[0] == 0
    desk.press(2, Side.B, T0 + SECOND)  # the toss loser starts the winner's time
    desk.at(T0 + 13 * SECOND)
    assert cli(desk, capsys, "tournament", "complete", "R1-1")[0] == 0
    assert cli(desk, capsys, "tournament", "confirm", "R1-1")[0] == 0
    status, out, _ = cli(desk, capsys, "tournament", "show")
    line = next(x for x in out.splitlines() if "R1-1" in x)
    assert status == 0 and "(więcej czasu)" in line and "na czas" not in out
    main(["table", "2", "timeline", "--host", "127.0.0.1", "--port", str(desk.daemon.port)])
    out = capsys.readouterr().out
    assert "więcej czasu" in out and "term." not in out
