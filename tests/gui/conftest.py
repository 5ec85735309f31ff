"""GUI tests: real Qt widgets, offscreen, with the bundled fonts and a chosen language.

The settings file goes to a temporary folder, so a test never reads or changes the
referee's real settings. Each test that builds a window gets the language it asks for
(``lang`` fixture, Polish by default, as users get).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui import style, translations


@pytest.fixture(autouse=True)
def _gui_env(qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    style.load_fonts()
    translations.install("pl")
    yield
    translations.install("en")


@pytest.fixture
def english() -> None:
    translations.install("en")
