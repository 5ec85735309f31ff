"""The audience screen: the event shown, for a projector across the hall.

For a Puzzle Duel session, the bracket and the live clocks (the podium once the final is
decided); for a timed hall event, its big countdown, the next signal and each station's
finish; for the chess day, every group's pairings then its standings in turn, with the
countdown to its next round (:mod:`gui.widgets.chesshall`); and when the daemon sounds a
hall signal, the signal itself — "ZMIANA", "KONIEC" — flashed across the screen for a few
seconds.

Read-only (it needs no token and has no controls) and public: it is only ever given
:meth:`DeskState.public` — the state with every field marked private emptied — so
surnames, e-mails and phones cannot reach it, whatever a widget might try to draw
(DESIGN.md principle 9). It shows display names only.

It opens full screen on the second monitor when there is one
(:func:`show_on_audience_screen`; a window on a single monitor). F11 leaves or re-enters full
screen, Escape leaves it, Ctrl+Q closes the window; the referee's F1 list names them.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from clockd.i18n import text
from gui import terms
from gui.deskmodel import Change, DeskModel, PublicCopy
from gui.model import DeskState
from gui.style import HALL
from gui.widgets.bracket import BracketWidget
from gui.widgets.chesshall import PAGE_MS, ChessScreen
from gui.widgets.described import ShownWidget, described_kind
from gui.widgets.hall import HallWidget
from gui.widgets.header import HeaderBar
from gui.widgets.painted import font
from gui.widgets.tables import TablesWidget

REFRESH_MS = 100

#: How long a hall signal stays across the screen.
FLASH_MS = 4000


class AudienceWindow(QWidget):
    def __init__(
        self,
        model: DeskModel,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        refresh_ms: int = REFRESH_MS,
        page_ms: int = PAGE_MS,
        wall: Callable[[], datetime.datetime] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.clock = clock
        self.ticks = 0
        self.state = DeskState()
        self._last_signal = model.state.signal.number if model.state.signal is not None else 0
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
        self.bracket = BracketWidget(hall=True, parent=self)
        body.addWidget(self.bracket, 62)
        self.hall = HallWidget(hall=True, parent=self)
        body.addWidget(self.hall, 100)
        self.chess = ChessScreen(parent=self) if wall is None else ChessScreen(wall=wall, parent=self)
        body.addWidget(self.chess, 100)
        self.chess.hide()
        self.described = ShownWidget(hall=True, parent=self)  # a kind drawn from the daemon's words
        body.addWidget(self.described, 100)
        self.described.hide()
        self._page_timer = QTimer(self)  # the chess day: the next group's page every few seconds
        self._page_timer.setInterval(page_ms)
        self._page_timer.timeout.connect(self.next_page)
        self.live_panel = QWidget(self)
        live_layout = QVBoxLayout(self.live_panel)
        live_layout.setContentsMargins(0, 8, 8, 8)
        live_layout.setSpacing(0)
        self.live_label = QLabel(self.live_panel)
        self.live_label.setFont(font(28, bold=True))
        self.live_label.setStyleSheet(f"color: {HALL.live}; padding: 0 10px;")
        live_layout.addWidget(self.live_label)
        self.live = TablesWidget(hall=True, parent=self.live_panel)
        live_layout.addWidget(self.live, 1)
        body.addWidget(self.live_panel, 38)
        self.podium = Podium(self)
        body.addWidget(self.podium, 38)
        self.flash = QLabel(self)
        self.flash.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.flash.setFont(font(220, bold=True))
        self.flash.setStyleSheet(
            f"background: {HALL.running}; color: {HALL.running_text}; border-radius: 24px;"
        )
        self.flash.hide()
        self._flash_timer = QTimer(self)  # a child: it dies with the window
        self._flash_timer.setSingleShot(True)
        self._flash_timer.setInterval(FLASH_MS)
        self._flash_timer.timeout.connect(self.flash.hide)
        for keys, slot in AUDIENCE_KEYS:
            QShortcut(QKeySequence(keys), self, getattr(self, slot))
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
        self.setWindowTitle(text("gui.audience.duelclock-audience"))
        self.live_label.setText(text("gui.audience.live-now"))
        self._dirty = set(Change) - {Change.SIGNAL}
        self._flush()

    def _changed(self, change: Change, tables: frozenset[int]) -> None:
        if change in (Change.TIMELINE, Change.NODES):
            return  # the public screen never shows timelines, nor the nodes' links (a link's
            # change that alters how a table is drawn comes as that table's change)
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
        state = self.state
        now = self.clock()
        if state.chess is not None:
            self._flush_chess(state, now, dirty)
            return
        self.chess.hide()
        self._page_timer.stop()
        self.header.set_state(state, status_text=self._status(state))
        described = described_kind(state)
        self.described.setVisible(described)
        if described:
            for w in (self.bracket, self.hall, self.live_panel, self.podium):
                w.hide()
            self.described.set_state(state, now)
            if Change.SIGNAL in dirty:
                self._signalled()
            return
        if dirty <= {Change.TABLES, Change.SIGNAL}:
            self.bracket.tables_changed(state, now, tables)
            self.live.tables_changed(state, now, tables)
            if state.hall is not None:
                self.hall.set_state(state, now)
        else:
            self.bracket.set_state(state, now)
            self.live.set_state(state, now)
            self.hall.set_state(state, now)
        hall = state.hall is not None
        has_bracket = state.bracket is not None
        self.bracket.setVisible(has_bracket and not hall)
        self.hall.setVisible(hall)
        live = bool(self.live.shown_tables()) and not hall
        places = state.bracket.places() if state.bracket is not None else (None, None, None)
        self.podium.set_places([state.name(p) if p is not None else "" for p in places])
        podium = not hall and not live and places[0] is not None
        self.podium.setVisible(podium)
        # no bracket (a daemon without a tournament, or before the draw): the clocks get the screen
        self.live_panel.setVisible(not hall and (live or (not has_bracket and not podium)))
        if Change.SIGNAL in dirty:
            self._signalled()

    def _flush_chess(self, state: DeskState, now: int, dirty: set[Change]) -> None:
        """The chess day: every group's pairings and standings in turn, with their countdowns."""
        for w in (self.bracket, self.hall, self.live_panel, self.podium):
            w.hide()
        self.chess.show()
        if dirty - {Change.TABLES, Change.SIGNAL} or self.chess.page is None:
            self.chess.set_state(state, now)
        self._chess_header()
        if not self._page_timer.isActive():
            self._page_timer.start()
        if Change.SIGNAL in dirty:
            self._signalled()

    def _chess_header(self) -> None:
        """The band names the group whose page is shown (it changes with the page)."""
        page = self.chess.page
        shown = self.state.model_copy(update={"shown": page.event}) if page is not None else self.state
        self.header.set_state(shown, status_text="")

    def next_page(self) -> None:
        """The next page of the chess day (the page timer's, or a test's, turn)."""
        self.chess.advance()
        self._chess_header()

    def _status(self, state: DeskState) -> str:
        """The header's right side: the round(s) being played now, or the hall timer's phase."""
        if state.hall is not None:
            return ""  # the phase stands above the big time
        bracket = state.bracket
        if bracket is None:
            return ""
        playing = sorted({m.round for m in bracket.matches.values() if m.live or m.status == "result"})
        if not playing:
            pending = sorted({m.round for m in bracket.matches.values() if m.status in ("ready", "assigned")})
            playing = pending[:1]
        return "  ·  ".join(terms.round_title(bracket.round(r)) for r in playing)

    def _signalled(self) -> None:
        """A hall signal of the event shown: flash it across the screen."""
        flash = self.state.signal
        if flash is None or flash.number <= self._last_signal:
            return
        self._last_signal = flash.number
        if self.state.shown is not None and flash.event != self.state.shown:
            return  # another event's signal: its own screen shows it
        self.flash.setText(terms.signal(flash.what, flash.offset_ms))
        self._place_flash()
        self.flash.show()
        self.flash.raise_()
        self._flash_timer.start()

    def _place_flash(self) -> None:
        w, h = self.width(), self.height()
        self.flash.setGeometry(int(w * 0.08), int(h * 0.25), int(w * 0.84), int(h * 0.5))

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._place_flash()
        super().resizeEvent(event)

    def tick(self) -> None:
        self.ticks += 1
        now = self.clock()
        self.bracket.tick(now)
        self.live.tick(now)
        self.hall.tick(now)
        if self.chess.isVisible():
            self.chess.tick(now)
        if self.described.isVisible():
            self.described.tick(now)

    def _toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def _leave_fullscreen(self) -> None:
        """Escape: out of full screen, as everywhere else (the window stays open)."""
        if self.isFullScreen():
            self.showNormal()

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
        self.title.setText(text("gui.audience.duel-champion"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


#: The audience screen's own keys (the referee's F1 list names them too): its slot by key.
AUDIENCE_KEYS = (("F11", "_toggle_fullscreen"), ("Esc", "_leave_fullscreen"), ("Ctrl+Q", "close"))


def show_on_audience_screen(window: QWidget) -> None:
    """Full screen on the second monitor (the projector) if there is one; with a single monitor,
    a window beside the referee's, which it must not cover (F11 makes it full screen)."""
    screens = QGuiApplication.screens()
    primary = QGuiApplication.primaryScreen()
    projector = next((s for s in screens if s is not primary), None)
    if projector is None:
        if primary is not None:
            area = primary.availableGeometry()
            window.resize(area.width() * 2 // 3, area.height() * 2 // 3)
        window.show()
        return
    window.setScreen(projector)
    window.setGeometry(projector.geometry())
    window.showFullScreen()
