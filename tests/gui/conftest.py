"""GUI tests: real Qt widgets, offscreen, with the bundled fonts and a chosen language — and a
real daemon over loopback.

The settings file goes to a temporary folder, so a test never reads or changes the
referee's real settings. Each test that builds a window gets the language it asks for
(Polish by default, as users get; ``english`` switches).

The daemon (``daemon``, ``restartable``) and the desk on it (``desk``) are built in
:mod:`tests.gui.live`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import clockd.i18n
from gui import style, translations
from tests.gui.live import Desk, Running, open_desk, start_daemon


@pytest.fixture(autouse=True)
def _gui_env(qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))  # never the referee's daemon.json
    style.load_fonts()
    translations.install("pl")
    yield
    translations.install("en")
    clockd.i18n.set_language(None)  # the catalogue's language goes back to DUELCLOCK_LANG's, for other tests


@pytest.fixture
def english() -> None:
    translations.install("en")


# -- a real daemon, and the desk on it ------------------------------------------------------------


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Running]:
    running = start_daemon(tmp_path / "journal.db")
    yield running
    running.stop()


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[Callable[..., Running]]:
    """Start (and restart) daemons; every one still running is stopped at the end."""
    started: list[Running] = []

    def start(db: Path | None = None, **kwargs: Any) -> Running:
        running = start_daemon(db or tmp_path / "journal.db", **kwargs)
        started.append(running)
        return running

    yield start
    for running in started:
        if running.daemon.engine is not None and running.daemon.server is not None:
            running.stop()


@pytest.fixture
def desk(qtbot: QtBot, daemon: Running) -> Iterator[Desk]:
    d = open_desk(qtbot, daemon)
    yield d
    d.connection.stop()
