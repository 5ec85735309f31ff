"""The day rehearsed: every event of the festival on one daemon, every surface after every step.

``test_the_day_rehearsed`` is the short day (`make test`); ``test_the_whole_day_rehearsed``
plays Saturday to its podium as well (``make rehearse``). What the day covers and leaves
out: docs/rehearsal.md. A problem that an engineer's item on the way fixes (a step's
``awaits``, :data:`tests.rehearsal.rehearse.KNOWN`) is reported and marks the test xfail;
``DUELCLOCK_REHEARSAL_STRICT=1`` makes those fail too. Anything else fails the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

import clockd.i18n
from gui import style, translations
from tests.rehearsal.day import Day
from tests.rehearsal.rehearse import Report, rehearse
from tests.rehearsal.scenario import SHORT, WHOLE, Step
from tests.rehearsal.screens import Screens

pytestmark = pytest.mark.slow


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Day]:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))  # its daemon.json, for the CLI
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)  # Polish, as the referee reads it
    d = Day(tmp_path / "hall")
    yield d
    d.close()


@pytest.fixture
def screens(qtbot: QtBot, day: Day, tmp_path: Path) -> Iterator[Screens]:
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    style.load_fonts()
    translations.install("pl")
    s = Screens(qtbot, day)
    yield s
    s.close()
    translations.install("en")
    clockd.i18n.set_language(None)


def play(day: Day, screens: Screens, steps: tuple[Step, ...], folder: Path) -> Report:
    report = rehearse(day, steps, screens, folder)
    summary = report.summary()
    (folder / "rehearsal.txt").write_text(summary + "\n", encoding="utf-8")
    print(summary)
    assert report.steps == [s.name for s in steps]
    assert not report.problems, "the rehearsal met new problems:\n" + summary
    if report.awaited:
        if os.environ.get("DUELCLOCK_REHEARSAL_STRICT"):
            pytest.fail("the rehearsal met problems that items on the way fix:\n" + summary)
        pytest.xfail(f"{len(report.awaited)} problems wait for items on the way:\n" + summary)
    return report


def test_the_day_rehearsed(day: Day, screens: Screens, tmp_path: Path) -> None:
    (tmp_path / "surfaces").mkdir()
    play(day, screens, SHORT, tmp_path / "surfaces")


@pytest.mark.skipif(not os.environ.get("DUELCLOCK_REHEARSE_WHOLE"), reason="the whole day: make rehearse")
def test_the_whole_day_rehearsed(day: Day, screens: Screens, tmp_path: Path) -> None:
    (tmp_path / "surfaces").mkdir()
    play(day, screens, WHOLE, tmp_path / "surfaces")
