"""The desk's and the audience's windows on the rehearsed day's daemon (Qt offscreen).

Two real windows, each on its own connection as ``duelclock gui`` opens them: the referee's
(with the token, timelines on) and the projector's (no token: the daemon strips what is
private). After every step each event is shown in turn on both; every text the window draws
(painted items, labels, buttons and their tooltips — a disabled button says why —, tables,
lists, the window title) is read back, and the window is rendered (``grab``) so that a paint
that raises is caught.
"""

from __future__ import annotations

import traceback
from collections.abc import Collection
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QStatusBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gui.adapter import DaemonConnection
from gui.audience import AudienceWindow
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow
from gui.widgets.painted import PaintedWidget
from tests.rehearsal.day import Day
from tests.rehearsal.surfaces import Seen


def window_texts(window: QWidget) -> list[str]:
    """Every text ``window`` shows now (visible widgets only, as a person sees it)."""
    texts = [window.windowTitle()]
    for w in window.findChildren(QWidget):
        if not w.isVisible():
            continue
        if w.toolTip():
            texts.append(w.toolTip())
        if isinstance(w, PaintedWidget):
            texts += w.shown_texts()
        elif isinstance(w, QLabel | QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QComboBox):
            texts += [w.itemText(i) for i in range(w.count())]
        elif isinstance(w, QStatusBar):
            texts.append(w.currentMessage())
        elif isinstance(w, QAbstractItemView):
            texts += _model_texts(w.model())
    for a in window.findChildren(QAction):
        texts += [a.text(), a.toolTip(), a.statusTip()]
    return [t for t in texts if t]


def _model_texts(model: Any) -> list[str]:
    if model is None:
        return []
    out = []
    rows, cols = model.rowCount(), model.columnCount()
    for c in range(cols):
        out.append(str(model.headerData(c, Qt.Orientation.Horizontal) or ""))
    for r in range(min(rows, 200)):
        for c in range(cols):
            index = model.index(r, c)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    out.append(value)
    return out


class Screens:
    """The referee's window and the audience's, each with its model and connection."""

    def __init__(self, qtbot: QtBot, day: Day) -> None:
        self.qtbot = qtbot
        self.desk_model, self.audience_model = DeskModel(), DeskModel()
        self.desk_link = DaemonConnection(
            self.desk_model, host="127.0.0.1", port=day.port, token=day.token, by="Sędzia", clock=day.time
        )
        self.audience_link = DaemonConnection(
            self.audience_model,
            host="127.0.0.1",
            port=day.port,
            token=None,
            read_only=True,
            timeline=False,
            clock=day.time,
        )
        self.desk_link.start()
        self.audience_link.start()
        self.desk = RefereeWindow(self.desk_model, self.desk_link, clock=day.time)
        self.audience = AudienceWindow(self.audience_model, clock=day.time)
        for window, size in ((self.desk, (1500, 950)), (self.audience, (1920, 1080))):
            qtbot.addWidget(window)
            window.resize(*size)
            window.show()

    def close(self) -> None:
        self.desk_link.stop()
        self.audience_link.stop()

    def _caught_up(self, day: Day, events: list[Any] | None) -> None:
        """Both models hold every event as the web's hub holds it. The daemon sends one push to
        every subscriber at once, so once the hub has an event's last change (``web_caught_up``),
        a model whose copy has that push's ``seq`` has it too."""
        day.web_caught_up(events)
        want = {k: h.view.seq for k, h in day.hub.events.items()}
        for model in (self.desk_model, self.audience_model):

            def caught_up(model: DeskModel = model) -> bool:
                held = {e.key: e.seq for e in model.state.events.values()}
                return all(held.get(k, -1) >= seq for k, seq in want.items())

            self.qtbot.waitUntil(caught_up, timeout=10_000)

    def look(
        self, day: Day, keys: Collection[str] | None = None, events: list[Any] | None = None
    ) -> list[Seen]:
        """Each event (of ``keys``: those that changed) on both screens: what they show (an
        exception in a window's code is kept). ``events``: as just read from the daemon."""
        seen: list[Seen] = []
        with self.qtbot.capture_exceptions() as raised:
            self._caught_up(day, events)
            for event_id, event in list(self.desk_model.state.events.items()):
                if keys is not None and event.key not in keys:
                    continue
                for name, model, window, public in (
                    ("desk", self.desk_model, self.desk, False),
                    ("audience", self.audience_model, self.audience, True),
                ):
                    model.choose_event(event_id)
                    QApplication.processEvents()
                    window.grab()
                    text = "\n".join(window_texts(window))
                    seen.append(Seen(f"{name} window, {event.key} shown", text, public, kind=name))
        for exc_type, exc, tb in raised:
            trace = "".join(traceback.format_exception(exc_type, exc, tb))
            seen.append(
                Seen("the desk and the audience (Qt)", "", False, traceback=trace[-1500:], kind="desk")
            )
        return seen
