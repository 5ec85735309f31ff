"""The audience screen: the bracket and the live clocks, for a projector across the hall.

Read-only (it needs no token and has no controls) and public: it is only ever given
:meth:`DeskState.public` — the state with every field marked private emptied — so
surnames, e-mails and phones cannot reach it, whatever a widget might try to draw
(DESIGN.md principle 9). It shows display names only.

It opens full screen, on the second monitor when there is one
(:func:`show_on_audience_screen`). F11 leaves or re-enters full screen; Ctrl+Q closes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from gui import terms
from gui.model import Change, DeskModel, DeskState, PublicCopy
from gui.style import HALL
from gui.widgets.bracket import BracketView
from gui.widgets.header import HeaderBar
from gui.widgets.painted import font
from gui.widgets.tables import TablesView

REFRESH_MS = 100


class AudienceWindow(QWidget):
    def __init__(
        self,
        model: DeskModel,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        refresh_ms: int = REFRESH_MS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.clock = clock
        self.ticks = 0
        self.state = DeskState()
        self.setAutoFillBackground(True)
        self.setStyleSheet(f"background: {HALL.window}; color: {HALL.text};")
        self.setCursor(Qt.CursorShape.BlankCursor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = HeaderBar(hall=True, parent=self)
        layout.addWidget(self.header)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        layout.addLayout(body, 1)
        self.bracket = BracketView(hall=True, parent=self)
        body.addWidget(self.bracket, 62)
        self.live_panel = QWidget(self)
        live_layout = QVBoxLayout(self.live_panel)
        live_layout.setContentsMargins(0, 8, 8, 8)
        live_layout.setSpacing(0)
        self.live_label = QLabel(self.live_panel)
        self.live_label.setFont(font(28, bold=True))
        self.live_label.setStyleSheet(f"color: {HALL.live}; padding: 0 10px;")
        live_layout.addWidget(self.live_label)
        self.live = TablesView(hall=True, parent=self.live_panel)
        live_layout.addWidget(self.live, 1)
        body.addWidget(self.live_panel, 38)
        self.podium = Podium(self)
        body.addWidget(self.podium, 38)
        QShortcut(QKeySequence("F11"), self, self._toggle_fullscreen)
        QShortcut(QKeySequence("Ctrl+Q"), self, self.close)
        self._public = PublicCopy()
        self._dirty: set[Change] = set(Change)
        self._dirty_tables: set[int] = set()
        self._unsubscribe = model.subscribe(self._changed)
        self._flush_timer = QTimer(self)  # a child: it dies with the window (see RefereeWindow)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(self._flush)
        self.timer = QTimer(self)
        self.timer.setInterval(refresh_ms)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        self.retranslate()
        self._flush()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("duelclock — audience"))
        self.live_label.setText(self.tr("LIVE NOW"))
        self._flush()

    def _changed(self, change: Change, tables: frozenset[int]) -> None:
        if change is Change.TIMELINE:
            return  # the public screen never shows timelines
        if not shiboken6.isValid(self):  # the window is gone; the model outlived it
            self._unsubscribe()
            return
        if not self._flush_timer.isActive():
            self._flush_timer.start()
        self._dirty.add(change)
        self._dirty_tables |= tables

    def _flush(self) -> None:
        dirty, self._dirty = self._dirty, set()
        tables, self._dirty_tables = self._dirty_tables, set()
        # The only way state reaches this window: with every private field emptied.
        self.state = self._public(self.model.state)
        now = self.clock()
        self.header.set_state(self.state, status_text=self._rounds_now(self.state))
        if dirty == {Change.TABLES}:
            self.bracket.tables_changed(self.state, now, tables)
            self.live.tables_changed(self.state, now, tables)
        else:
            self.bracket.set_state(self.state, now)
            self.live.set_state(self.state, now)
        # no bracket (a daemon without a tournament, or before the draw): the clocks get the screen
        has_bracket = self.state.bracket is not None
        self.bracket.setVisible(has_bracket)
        live = bool(self.live.shown_tables())
        places = self.state.bracket.podium() if self.state.bracket is not None else (None, None, None)
        self.podium.set_places([self.state.name(p) if p is not None else "" for p in places])
        podium = not live and places[0] is not None
        self.podium.setVisible(podium)
        self.live_panel.setVisible(live or (not has_bracket and not podium))

    def _rounds_now(self, state: DeskState) -> str:
        """The round(s) being played now, for the header's right side."""
        bracket = state.bracket
        if bracket is None:
            return ""
        playing = sorted({m.round for m in bracket.matches.values() if m.live or m.status == "result"})
        if not playing:
            pending = sorted({m.round for m in bracket.matches.values() if m.status in ("ready", "assigned")})
            playing = pending[:1]
        return "  ·  ".join(terms.round_title(bracket.round(r)) for r in playing)

    def tick(self) -> None:
        self.ticks += 1
        now = self.clock()
        self.bracket.tick(now)
        self.live.tick(now)

    def _toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def closeEvent(self, event: object) -> None:
        self.timer.stop()
        self._unsubscribe()
        super().closeEvent(event)  # type: ignore[arg-type]


class Podium(QWidget):
    """Places 1–3 once the final is decided; the winner is the Duel Champion (§2.2.21)."""

    COLOURS = (HALL.final, "#d7dde6", HALL.third)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 40, 24, 40)
        layout.setSpacing(18)
        self.title = QLabel(self)
        self.title.setFont(font(34, bold=True))
        self.title.setStyleSheet(f"color: {HALL.final};")
        layout.addWidget(self.title)
        self.places: list[QLabel] = []
        for i, colour in enumerate(self.COLOURS):
            label = QLabel(self)
            label.setFont(font(64 if i == 0 else 44, bold=i == 0))
            label.setStyleSheet(f"color: {colour};")
            label.setWordWrap(True)
            layout.addWidget(label)
            self.places.append(label)
        layout.addStretch(1)
        self._names = ["", "", ""]
        self.retranslate()

    def set_places(self, names: list[str]) -> None:
        self._names = list(names)
        for i, (label, name) in enumerate(zip(self.places, names, strict=True)):
            label.setText(f"{i + 1}. {name}" if name else "")

    def retranslate(self) -> None:
        self.title.setText(self.tr("DUEL CHAMPION"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def show_on_audience_screen(window: QWidget) -> None:
    """Full screen on the second monitor if there is one (the projector), else on this one."""
    screens = QGuiApplication.screens()
    primary = QGuiApplication.primaryScreen()
    target = next((s for s in screens if s is not primary), primary)
    if target is not None:
        window.setScreen(target)
        window.setGeometry(target.geometry())
    window.showFullScreen()
