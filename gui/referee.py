"""The referee's window: the bracket, the tables, and every control a duel session needs.

Layout: the event's band at the top; the bracket above the table cards in the middle
(a second tab holds check-in); on the right, the selected table — its clocks, its
alerts, the buttons for it and its match, and its timeline of presses and decisions.

Every control is a ``QAction`` with a keyboard shortcut (Help → Keyboard shortcuts lists
them, from the actions themselves). An action is enabled only when it makes sense for
the selected table or match *and* the connected daemon offers it; otherwise its tooltip
says why. Actions become :class:`~gui.commands.Command` s handed to the command sink;
the daemon's answer appears in the status bar (an error also in a message box, since a
refused command means the referee's intent did not happen).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clockd.core.registration import SignupError, decode_signups
from gui import terms, translations
from gui.commands import Action, Command, CommandSink, Outcome
from gui.dialogs import (
    AddPlayerDialog,
    AdjustDialog,
    AssignDialog,
    DrawDialog,
    NewSessionDialog,
    NoteDialog,
    OverrideDialog,
    ShortcutsDialog,
    TossDialog,
    WalkoverDialog,
)
from gui.model import Change, DeskModel, Match
from gui.style import DESK
from gui.widgets.bracket import BracketView
from gui.widgets.header import HeaderBar
from gui.widgets.painted import font
from gui.widgets.players import PlayersTable, RefusalsLabel
from gui.widgets.tables import TablesView
from gui.widgets.timeline import TimelineView

#: How often the clocks are redrawn (a running clock's text changes once a second; 10 Hz
#: keeps the change within a tenth of a second of the true instant).
REFRESH_MS = 100

#: The longest sign-up file one import request carries (the API's limit for the CSV text).
IMPORT_LIMIT = 60_000

#: Reasons a sink gives for an unavailable action, translated for the tooltip.
_REASONS = {
    "no token": QT_TRANSLATE_NOOP("RefereeWindow", "needs the referee's token (--token)"),
    "not connected": QT_TRANSLATE_NOOP("RefereeWindow", "not connected to the daemon"),
    "no daemon: this is the demo state": QT_TRANSLATE_NOOP(
        "RefereeWindow", "no daemon: this is the demo state"
    ),
    "the daemon does not offer this yet": QT_TRANSLATE_NOOP(
        "RefereeWindow", "the daemon does not offer this yet"
    ),
}


class RefereeWindow(QMainWindow):
    def __init__(
        self,
        model: DeskModel,
        commands: CommandSink,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        refresh_ms: int = REFRESH_MS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.commands = commands
        self.clock = clock
        self.selected_table: int | None = None
        self.selected_match: str | None = None
        self.ticks = 0
        self.audience: QWidget | None = None
        self.last_refusal = ""
        self._dirty: set[Change] = set()
        self._dirty_tables: set[int] = set()
        self.setMinimumSize(1024, 700)

        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.header = HeaderBar(parent=central)
        outer.addWidget(self.header)
        body = QSplitter(Qt.Orientation.Horizontal, central)
        outer.addWidget(body, 1)

        self.tabs = QTabWidget(body)
        desk = QSplitter(Qt.Orientation.Vertical, self.tabs)
        self.bracket = BracketView(parent=desk)
        self.tables = TablesView(parent=desk)
        desk.addWidget(self.bracket)
        desk.addWidget(self.tables)
        desk.setStretchFactor(0, 62)
        desk.setStretchFactor(1, 38)
        desk.setSizes([620, 380])
        self.tabs.addTab(desk, "")
        self.players = PlayersTable(self.tabs)
        players_page = QWidget(self.tabs)
        pl = QVBoxLayout(players_page)
        pl.addWidget(self.players, 1)
        self.refusals = RefusalsLabel(players_page)
        pl.addWidget(self.refusals)
        self.player_buttons = QHBoxLayout()
        pl.addLayout(self.player_buttons)
        self.tabs.addTab(players_page, "")
        body.addWidget(self.tabs)

        self.side = QWidget(body)
        self.side.setMinimumWidth(380)
        side = QVBoxLayout(self.side)
        side.setContentsMargins(8, 8, 8, 8)
        self.side_title = QLabel(self.side)
        self.side_title.setFont(font(18, bold=True))
        side.addWidget(self.side_title)
        self.side_match = QLabel(self.side)
        self.side_match.setFont(font(13))
        self.side_match.setWordWrap(True)
        side.addWidget(self.side_match)
        self.detail = TablesView(parent=self.side)
        self.detail.setMinimumSize(300, 170)
        self.detail.setMaximumHeight(220)
        side.addWidget(self.detail)
        self.alerts = QLabel(self.side)
        self.alerts.setWordWrap(True)
        self.alerts.setStyleSheet(
            f"background:{DESK.alert}; color:{DESK.alert_text}; padding:6px; border-radius:4px;"
        )
        side.addWidget(self.alerts)
        self.table_buttons = QGridLayout()
        side.addLayout(self.table_buttons)
        self.match_label = QLabel(self.side)
        self.match_label.setFont(font(13, bold=True))
        side.addWidget(self.match_label)
        self.match_buttons = QGridLayout()
        side.addLayout(self.match_buttons)
        self.timeline_label = QLabel(self.side)
        self.timeline_label.setFont(font(13, bold=True))
        side.addWidget(self.timeline_label)
        self.timeline = TimelineView(self.side)
        side.addWidget(self.timeline, 1)
        body.addWidget(self.side)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 1)
        body.setSizes([1130, 470])
        self.setCentralWidget(central)

        self._make_actions()
        self.statusBar().setFont(font(13))

        self.bracket.match_clicked.connect(self.select_match)
        self.tables.table_clicked.connect(self.select_table)
        self.players.player_activated.connect(self._toggle_presence)
        self.players.itemSelectionChanged.connect(self._update_actions)
        self._unsubscribe = self.model.subscribe(self._changed)
        # model changes are drawn together at the next turn of the event loop; a child timer
        # (not QTimer.singleShot on a method) dies with the window, so it never calls a dead one
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(self._flush)
        self.timer = QTimer(self)
        self.timer.setInterval(refresh_ms)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        self.retranslate()
        self._render_all()

    # -- actions ----------------------------------------------------------------------------
    def _action(self, shortcut: str, handler: Callable[[], None], *, menu: object = None) -> QAction:
        a = QAction(self)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.triggered.connect(handler)
        self.addAction(a)
        return a

    def _button(self, action: QAction) -> QToolButton:
        b = QToolButton(self.side)
        b.setDefaultAction(action)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        b.setMinimumHeight(34)
        b.setSizePolicy(b.sizePolicy().horizontalPolicy().Expanding, b.sizePolicy().verticalPolicy())
        b.setFont(font(13))
        return b

    def _make_actions(self) -> None:
        self.act_pause = self._action("Ctrl+P", self.pause_or_resume)
        self.act_adjust = self._action("Ctrl+T", self.adjust)
        self.act_complete = self._action("Ctrl+K", self.complete)
        self.act_note = self._action("Ctrl+N", self.note)
        self.act_clear = self._action("Ctrl+Shift+C", self.clear_alerts)
        self.act_assign = self._action("Ctrl+M", self.assign)
        self.act_toss = self._action("Ctrl+R", self.toss)
        self.act_confirm = self._action("Ctrl+Return", self.confirm)
        self.act_override = self._action("Ctrl+Shift+O", self.override)
        self.act_walkover = self._action("Ctrl+Shift+W", self.walkover)
        self.act_tiebreak = self._action("Ctrl+D", self.tiebreak)
        self.act_checkin = self._action("Ctrl+I", self.check_in)
        self.act_checkout = self._action("Ctrl+Shift+I", self.check_out)
        self.act_close = self._action("", self.close_checkin)
        self.act_draw = self._action("", self.draw)
        self.act_add_player = self._action("", self.add_player)
        self.act_withdraw = self._action("", self.withdraw)
        self.act_import = self._action("", self.import_signups)
        self.act_new_session = self._action("", self.new_session)
        self.act_audience = self._action("F10", self.toggle_audience)
        self.act_fullscreen = self._action("F11", self.toggle_fullscreen)
        self.act_shortcuts = self._action("F1", self.show_shortcuts)
        self.act_tables = []
        for n in range(1, 10):
            self.act_tables.append(self._action(f"Ctrl+{n}", functools.partial(self.select_table, n)))

        for i, a in enumerate(
            (self.act_pause, self.act_adjust, self.act_complete, self.act_note, self.act_clear)
        ):
            self.table_buttons.addWidget(self._button(a), i // 2, i % 2)
        for i, a in enumerate(
            (
                self.act_toss,
                self.act_confirm,
                self.act_override,
                self.act_walkover,
                self.act_assign,
                self.act_tiebreak,
            )
        ):
            self.match_buttons.addWidget(self._button(a), i // 2, i % 2)
        for a in (
            self.act_checkin,
            self.act_checkout,
            self.act_add_player,
            self.act_withdraw,
            self.act_import,
            self.act_close,
            self.act_draw,
        ):
            b = QToolButton(self)
            b.setDefaultAction(a)
            b.setMinimumHeight(32)
            self.player_buttons.addWidget(b)
        self.player_buttons.addStretch(1)

        bar = self.menuBar()
        self.menu_session = bar.addMenu("")
        self.menu_sessions = self.menu_session.addMenu("")
        self.session_group = QActionGroup(self)
        self.menu_session.addAction(self.act_new_session)
        self.menu_session.addSeparator()
        for a in (
            self.act_import,
            self.act_add_player,
            self.act_checkin,
            self.act_checkout,
            self.act_withdraw,
            self.act_close,
            self.act_draw,
        ):
            self.menu_session.addAction(a)
        self.menu_table = bar.addMenu("")
        for a in (self.act_pause, self.act_adjust, self.act_complete, self.act_note, self.act_clear):
            self.menu_table.addAction(a)
        self.menu_table.addSeparator()
        for a in self.act_tables:
            self.menu_table.addAction(a)
        self.menu_match = bar.addMenu("")
        for a in (
            self.act_assign,
            self.act_toss,
            self.act_confirm,
            self.act_override,
            self.act_walkover,
            self.act_tiebreak,
        ):
            self.menu_match.addAction(a)
        self.menu_view = bar.addMenu("")
        self.menu_view.addAction(self.act_audience)
        self.menu_view.addAction(self.act_fullscreen)
        self.menu_language = self.menu_view.addMenu("")
        group = QActionGroup(self)
        self.act_lang = {}
        for lang, label in (("pl", "Polski"), ("en", "English")):
            a = QAction(label, self)
            a.setCheckable(True)
            a.triggered.connect(lambda _=False, lang=lang: self.set_language(lang))
            group.addAction(a)
            self.menu_language.addAction(a)
            self.act_lang[lang] = a
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_shortcuts)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("duelclock — referee"))
        self.tabs.setTabText(0, self.tr("Bracket and tables"))
        self.tabs.setTabText(1, self.tr("Players and check-in"))
        self.menu_session.setTitle(self.tr("&Session"))
        self.menu_table.setTitle(self.tr("&Table"))
        self.menu_match.setTitle(self.tr("&Match"))
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_language.setTitle(self.tr("Language"))
        self.menu_help.setTitle(self.tr("&Help"))
        self.act_adjust.setText(self.tr("Adjust time…"))
        self.act_complete.setText(self.tr("Picture complete"))
        self.act_note.setText(self.tr("Note…"))
        self.act_clear.setText(self.tr("Clear alerts"))
        self.act_assign.setText(self.tr("Put on a table…"))
        self.act_toss.setText(self.tr("Toss…"))
        self.act_confirm.setText(self.tr("Confirm result"))
        self.act_override.setText(self.tr("Override result…"))
        self.act_walkover.setText(self.tr("Walkover…"))
        self.act_tiebreak.setText(self.tr("Start tie-break…"))
        self.act_checkin.setText(self.tr("Check in"))
        self.act_checkout.setText(self.tr("Check out"))
        self.act_close.setText(self.tr("Close check-in (seats to reserves)"))
        self.act_draw.setText(self.tr("Draw…"))
        self.act_add_player.setText(self.tr("Add a player…"))
        self.act_withdraw.setText(self.tr("Withdraw"))
        self.act_import.setText(self.tr("Import sign-ups (CSV)…"))
        self.act_new_session.setText(self.tr("New session…"))
        self.menu_sessions.setTitle(self.tr("Show session"))
        self.act_audience.setText(self.tr("Audience screen"))
        self.act_fullscreen.setText(self.tr("Full screen"))
        self.act_shortcuts.setText(self.tr("Keyboard shortcuts"))
        for n, a in enumerate(self.act_tables, start=1):
            a.setText(self.tr("Select table %1").replace("%1", str(n)))
        self.timeline_label.setText(self.tr("Timeline: presses and decisions"))
        lang = translations.chosen_language()
        for code, a in self.act_lang.items():
            a.setChecked(code == lang)
        self._update_actions()
        self._render_side()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        native = QKeySequence.SequenceFormat.NativeText
        rows = [(self.act_pause.shortcut().toString(native), self.tr("Pause / resume"))]
        for a in (
            self.act_adjust,
            self.act_complete,
            self.act_confirm,
            self.act_toss,
            self.act_assign,
            self.act_tiebreak,
            self.act_override,
            self.act_walkover,
            self.act_note,
            self.act_clear,
            self.act_checkin,
            self.act_checkout,
            self.act_audience,
            self.act_fullscreen,
            self.act_shortcuts,
        ):
            if not a.shortcut().isEmpty():
                rows.append((a.shortcut().toString(native), a.text()))
        rows.append(("Ctrl+1 … Ctrl+9", self.tr("Select table 1–9")))
        return rows

    # -- selection --------------------------------------------------------------------------
    def select_table(self, table: int) -> None:
        state = self.model.state
        if table not in state.tables:
            self.statusBar().showMessage(self.tr("There is no table %1.").replace("%1", str(table)), 4000)
            return
        self.selected_table = table
        m = state.bracket.on_table(table) if state.bracket else None
        if m is not None:
            self.selected_match = m.id
        self._render_selection()

    def select_match(self, match_id: str) -> None:
        state = self.model.state
        self.selected_match = match_id
        m = state.bracket.matches.get(match_id) if state.bracket else None
        if m is not None:
            live = state.bracket.live_match_of(m) if state.bracket else None
            if live is not None and live.table is not None:
                self.selected_table = live.table
            elif m.table is not None and m.status == "result":
                self.selected_table = m.table
        self._render_selection()

    def current_match(self) -> Match | None:
        bracket = self.model.state.bracket
        if bracket is None or self.selected_match is None:
            return None
        return bracket.matches.get(self.selected_match)

    def _render_selection(self) -> None:
        self.bracket.select(self.selected_match)
        self.tables.select(self.selected_table)
        self._render_side()
        self._update_actions()

    # -- model changes ----------------------------------------------------------------------
    def _changed(self, change: Change, tables: frozenset[int]) -> None:
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
        state = self.model.state
        now = self.clock()
        if dirty & {Change.TABLES, Change.BRACKET, Change.PLAYERS}:
            self.bracket.setVisible(state.bracket is not None)  # no bracket yet: the tables get the room
            if dirty & {Change.BRACKET, Change.PLAYERS}:
                self.bracket.set_state(state, now)
                self.tables.set_state(state, now)
                self.detail.set_state(state, now)
            else:  # the common case, a press: redraw only the cards of the tables that changed
                self.bracket.tables_changed(state, now, tables)
                self.tables.tables_changed(state, now, tables)
                self.detail.tables_changed(state, now, tables)
        if dirty & {Change.PLAYERS}:
            self.players.set_state(state)
            self.refusals.set_state(state)
        if dirty & {Change.TITLE, Change.CONNECTION}:
            self.header.set_state(state)
        if Change.TITLE in dirty:
            self._render_sessions()
        if Change.TIMELINE in dirty and (self.selected_table in tables or not tables):
            self._render_timeline()
        if self.selected_table is not None and self.selected_table not in state.tables:
            self.selected_table = None  # the daemon no longer has it
        if self.selected_table is None and state.tables:
            self.select_table(min(state.tables))
        self._render_side()
        self._update_actions()

    def _render_sessions(self) -> None:
        """The Session → Show session menu: every session the daemon holds, the shown one checked."""
        state = self.model.state
        self.menu_sessions.clear()
        for action in self.session_group.actions():
            self.session_group.removeAction(action)
        for key, name in state.sessions.items():
            a = QAction(f"{name} ({key})" if name and name != key else key, self)
            a.setCheckable(True)
            a.setChecked(key == state.session_key)
            a.triggered.connect(functools.partial(self.commands.follow, key))
            self.session_group.addAction(a)
            self.menu_sessions.addAction(a)
        self.menu_sessions.setEnabled(bool(state.sessions))

    def _render_all(self) -> None:
        self._dirty = set(Change)
        self._flush()

    def tick(self) -> None:
        """The 10 Hz refresh: only clock texts that changed are repainted."""
        self.ticks += 1
        now = self.clock()
        self.bracket.tick(now)
        self.tables.tick(now)
        self.detail.tick(now)

    # -- the side panel ---------------------------------------------------------------------
    def _render_side(self) -> None:
        state = self.model.state
        t = self.selected_table
        table = state.tables.get(t) if t is not None else None
        if self.detail.only != t:
            self.detail.only = t
            self.detail.set_state(state, self.clock())
        if table is None:
            self.side_title.setText(self.tr("No table selected"))
            self.side_match.setText(self.tr("Click a table or press Ctrl+1 … Ctrl+9."))
            self.alerts.hide()
        else:
            self.side_title.setText(self.tr("Table %1").replace("%1", str(t)))
            on = state.bracket.on_table(t) if state.bracket and t is not None else None
            if on is not None and state.bracket is not None:
                rnd = state.bracket.round(on.round)
                self.side_match.setText(
                    f"{terms.match_label(on)} · {terms.round_title(rnd)} · "
                    + self.tr("%1 pieces").replace("%1", str(rnd.pieces))
                    + f" · {table.control}"
                )
            else:
                self.side_match.setText(
                    self.tr("No match on this table.") + (f" · {table.control}" if table.control else "")
                )
            if table.alerts:
                self.alerts.setText("<br>".join(f"⚠ {terms.alert(a.code, a.message)}" for a in table.alerts))
                self.alerts.show()
            else:
                self.alerts.hide()
        m = self.current_match()
        if m is not None:
            self.match_label.setText(
                self.tr("Match %1: %2 – %3 (%4)")
                .replace("%1", terms.match_label(m))
                .replace("%2", state.name(m.a) or "…")
                .replace("%3", state.name(m.b) or "…")
                .replace("%4", terms.status(m.status))
            )
        else:
            self.match_label.setText(self.tr("Match: none selected"))
        self._render_timeline()

    def _render_timeline(self) -> None:
        t = self.selected_table
        names = {pid: p.display_name for pid, p in self.model.state.players.items()}
        if names != self.timeline.timeline.names:
            self.timeline.timeline.names = names
            self.timeline.timeline.retranslate()
        self.timeline.show_entries(self.model.state.timelines.get(t, ()) if t is not None else ())

    def _update_actions(self) -> None:
        state = self.model.state
        t = self.selected_table
        table = state.tables.get(t) if t is not None else None
        m = self.current_match()
        bracket = state.bracket

        def enable(action: QAction, kind: Action, sensible: bool, why_not: str) -> None:
            reason = "" if sensible else why_not
            if not reason:
                reason = self._reason(self.commands.available(kind))
            action.setEnabled(not reason)
            action.setToolTip(
                f"{action.text()} ({action.shortcut().toString()})" + (f" — {reason}" if reason else "")
            )

        no_table = self.tr("select a table first")
        running = table is not None and table.phase == "running"
        if table is not None and table.phase == "paused":
            self.act_pause.setText(self.tr("Resume"))
            enable(self.act_pause, Action.RESUME, True, "")
        else:
            self.act_pause.setText(self.tr("Pause"))
            enable(
                self.act_pause,
                Action.PAUSE,
                running,
                no_table if table is None else self.tr("the clock is not running"),
            )
        enable(self.act_adjust, Action.ADJUST, table is not None, no_table)
        enable(self.act_note, Action.NOTE, table is not None, no_table)
        enable(
            self.act_clear,
            Action.CLEAR_ALERTS,
            table is not None and bool(table.alerts),
            self.tr("no alert on this table"),
        )
        on = bracket.on_table(t) if bracket is not None and t is not None else None
        enable(
            self.act_complete,
            Action.COMPLETE,
            on is not None and on.live and table is not None and table.phase in ("running", "paused"),
            self.tr("no duel running on this table"),
        )
        no_match = self.tr("select a match first")
        m_table = state.tables.get(m.table) if m is not None and m.table is not None else None
        if m is None:
            toss_why = no_match
        elif m.status != "assigned":
            toss_why = self.tr("the toss comes once the match is on a table")
        else:
            toss_why = self.tr("the duel has started: the toss is done")
        enable(
            self.act_toss,
            Action.TOSS,
            m is not None and m.status == "assigned" and (m_table is None or m_table.phase == "ready"),
            toss_why,
        )
        enable(
            self.act_confirm,
            Action.CONFIRM,
            m is not None and m.status == "result",
            no_match if m is None else self.tr("this match has no result to confirm"),
        )
        enable(
            self.act_override,
            Action.OVERRIDE,
            m is not None and len(m.entrants) == 2 and m.bye is None and m.tiebreak_of is None,
            no_match if m is None else self.tr("this match has no two players to decide between"),
        )
        enable(
            self.act_walkover,
            Action.WALKOVER,
            m is not None
            and len(m.entrants) == 2
            and m.status in ("ready", "assigned", "tiebreak")
            and m.tiebreak_of is None,
            no_match if m is None else self.tr("only before the duel is played"),
        )
        ready = bracket is not None and any(
            x.status == "ready" and x.tiebreak_of is None and len(x.entrants) == 2
            for x in bracket.matches.values()
        )
        enable(self.act_assign, Action.ASSIGN, ready, self.tr("no match is waiting for a table"))
        tb = self._pending_tiebreak()
        enable(self.act_tiebreak, Action.TIEBREAK, tb is not None, self.tr("no tie-break is due"))
        player = self.players.selected_player()
        p = state.players.get(player) if player is not None else None
        no_player = self.tr("select a player in the list")
        registration = state.stage in (None, "registration")
        enable(
            self.act_checkin,
            Action.CHECK_IN,
            p is not None and p.presence != "present" and registration,
            no_player if p is None else self.tr("check-in is closed"),
        )
        enable(
            self.act_checkout,
            Action.CHECK_OUT,
            p is not None and p.presence == "present" and registration,
            no_player if p is None else self.tr("check-in is closed"),
        )
        enable(
            self.act_close,
            Action.CLOSE_CHECKIN,
            state.stage == "registration",
            self.tr("check-in is not open"),
        )
        enable(
            self.act_draw, Action.DRAW, state.stage == "draw", self.tr("the draw comes after check-in closes")
        )
        enable(self.act_add_player, Action.ADD_PLAYER, registration, self.tr("check-in is closed"))
        enable(
            self.act_withdraw,
            Action.WITHDRAW,
            p is not None and p.presence != "withdrawn" and registration,
            no_player if p is None else self.tr("check-in is closed"),
        )
        enable(
            self.act_import,
            Action.IMPORT,
            registration and not state.players,
            self.tr("sign-ups are imported once, into an empty session"),
        )
        enable(self.act_new_session, Action.NEW_SESSION, True, "")

    def _reason(self, reason: str) -> str:
        if not reason:
            return ""
        known = _REASONS.get(reason)
        return QCoreApplication.translate("RefereeWindow", str(known)) if known else reason

    def _pending_tiebreak(self) -> Match | None:
        bracket = self.model.state.bracket
        if bracket is None:
            return None
        m = self.current_match()
        candidates = [m] if m is not None else list(bracket.matches.values())
        for c in candidates:
            root = bracket.matches.get(c.tiebreak_of) if c.tiebreak_of else c
            if root is None:
                continue
            for tb in bracket.tiebreaks_of(root.id):
                if tb.status == "ready":
                    return tb
        return None

    # -- commands ---------------------------------------------------------------------------
    def send(self, action: Action, **fields: object) -> None:
        command = Command(action, dict(fields))
        self.statusBar().showMessage(self.tr("Sending: %1…").replace("%1", terms.action(action.value)))
        self.commands.send(command, self._done)

    def _done(self, outcome: Outcome) -> None:
        action = terms.action(outcome.command.action.value)
        if outcome.ok:
            self.statusBar().showMessage(self.tr("Done: %1").replace("%1", action), 5000)
            return
        if outcome.code == "demo":
            self.statusBar().showMessage(
                self.tr("Demo: %1 was not sent (no daemon).").replace("%1", action), 8000
            )
            return
        self._refused(self.tr("Not done: %1 — %2").replace("%1", action).replace("%2", outcome.message))

    def _refused(self, text: str) -> None:
        """Say that something the referee asked for did not happen: status bar and a message box."""
        self.statusBar().showMessage(text, 15000)
        self.last_refusal = text
        if self.isVisible():
            # window-modal but not blocking: the clocks keep ticking behind it
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("The daemon refused"),
                text,
                QMessageBox.StandardButton.Ok,
                self,
            )
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()

    def _table_or_warn(self) -> int | None:
        if self.selected_table is None:
            self.statusBar().showMessage(self.tr("Select a table first (Ctrl+1 … Ctrl+9)."), 4000)
        return self.selected_table

    def pause_or_resume(self) -> None:
        t = self._table_or_warn()
        table = self.model.state.tables.get(t) if t is not None else None
        if table is None or not self.act_pause.isEnabled():
            return
        self.send(Action.RESUME if table.phase == "paused" else Action.PAUSE, table=t)

    def adjust(self) -> None:
        t = self._table_or_warn()
        if t is None or not self.act_adjust.isEnabled():
            return
        dialog = AdjustDialog(self.model.state, t, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.ADJUST, **dialog.fields())

    def note(self) -> None:
        t = self._table_or_warn()
        if t is None or not self.act_note.isEnabled():
            return
        dialog = NoteDialog(t, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.NOTE, **dialog.fields())

    def clear_alerts(self) -> None:
        t = self._table_or_warn()
        if t is not None and self.act_clear.isEnabled():
            self.send(Action.CLEAR_ALERTS, table=t)

    def complete(self) -> None:
        t = self._table_or_warn()
        if t is not None and self.act_complete.isEnabled():
            self.send(Action.COMPLETE, table=t)

    def confirm(self) -> None:
        m = self.current_match()
        if m is not None and self.act_confirm.isEnabled():
            self.send(Action.CONFIRM, match=m.id)

    def toss(self) -> None:
        m = self.current_match()
        if m is None or not self.act_toss.isEnabled():
            return
        dialog = TossDialog(self.model.state, m, self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.winner is not None:
            self.send(Action.TOSS, **dialog.fields())

    def override(self) -> None:
        m = self.current_match()
        if m is None or not self.act_override.isEnabled():
            return
        dialog = OverrideDialog(self.model.state, m, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.OVERRIDE, **dialog.fields())

    def walkover(self) -> None:
        m = self.current_match()
        if m is None or not self.act_walkover.isEnabled():
            return
        dialog = WalkoverDialog(self.model.state, m, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.WALKOVER, **dialog.fields())

    def assign(self) -> None:
        if not self.act_assign.isEnabled():
            return
        m = self.current_match()
        dialog = AssignDialog(
            self.model.state,
            table=self.selected_table,
            match=m.id if m is not None and m.status == "ready" else None,
            parent=self,
        )
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.ASSIGN, **dialog.fields())

    def tiebreak(self) -> None:
        tb = self._pending_tiebreak()
        if tb is None or not self.act_tiebreak.isEnabled():
            return
        dialog = AssignDialog(self.model.state, table=self.selected_table, match=tb.id, parent=self)
        dialog.setWindowTitle(self.tr("Start the tie-break %1").replace("%1", terms.match_label(tb)))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.TIEBREAK, **dialog.fields())

    def _toggle_presence(self, player: int) -> None:
        p = self.model.state.players.get(player)
        if p is None:
            return
        if p.presence == "present":
            self.check_out()
        else:
            self.check_in()

    def check_in(self) -> None:
        player = self.players.selected_player()
        if player is not None and self.act_checkin.isEnabled():
            self.send(Action.CHECK_IN, player=player)

    def check_out(self) -> None:
        player = self.players.selected_player()
        if player is not None and self.act_checkout.isEnabled():
            self.send(Action.CHECK_OUT, player=player)

    def close_checkin(self) -> None:
        if not self.act_close.isEnabled():
            return
        answer = QMessageBox.question(
            self,
            self.tr("Close check-in"),
            self.tr(
                "Close check-in now? Seats of absent players go to the reserves in order, then to "
                "walk-ins. This fixes the field for the draw."
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.send(Action.CLOSE_CHECKIN)

    def add_player(self) -> None:
        if not self.act_add_player.isEnabled():
            return
        dialog = AddPlayerDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.ADD_PLAYER, **dialog.fields())

    def withdraw(self) -> None:
        player = self.players.selected_player()
        if player is None or not self.act_withdraw.isEnabled():
            return
        name = self.model.state.name(player)
        answer = QMessageBox.question(
            self, self.tr("Withdraw"), self.tr("%1 resigns from this session?").replace("%1", name)
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.send(Action.WITHDRAW, player=player)

    def import_signups(self) -> None:
        if not self.act_import.isEnabled():
            return
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("The sign-up form's export"), "", self.tr("CSV files (*.csv *.txt)")
        )
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> None:
        """Send a sign-up CSV file's text; the daemon checks every row (and imports nothing if one is bad)."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            text = self.tr("Cannot read %1: %2").replace("%1", str(path)).replace("%2", exc.strerror or "")
            self._refused(text)
            return
        try:
            text = decode_signups(data, source=path.name)  # a form's UTF-8, or Excel's Windows-1250
        except SignupError:
            self._refused(
                self.tr("%1 is not a text file (neither UTF-8 nor Windows-1250).").replace("%1", path.name)
            )
            return
        if len(text) > IMPORT_LIMIT:
            too_long = self.tr("%1 is too long for one import (%2 characters; at most %3).")
            self._refused(
                too_long.replace("%1", path.name)
                .replace("%2", str(len(text)))
                .replace("%3", str(IMPORT_LIMIT))
            )
            return
        self.send(Action.IMPORT, csv=text, source=path.name)

    def new_session(self) -> None:
        if not self.act_new_session.isEnabled():
            return
        dialog = NewSessionDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            fields = dialog.fields()
            self.send(Action.NEW_SESSION, **fields)
            self.commands.follow(fields["session"])

    def draw(self) -> None:
        if not self.act_draw.isEnabled():
            return
        dialog = DrawDialog(self.model.state, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(Action.DRAW, **dialog.fields())

    # -- windows ----------------------------------------------------------------------------
    def toggle_audience(self) -> None:
        from gui.audience import AudienceWindow, show_on_audience_screen

        if self.audience is not None and self.audience.isVisible():
            self.audience.close()
            self.audience = None
            return
        self.audience = AudienceWindow(self.model, clock=self.clock)
        show_on_audience_screen(self.audience)

    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self.shortcut_rows(), self).exec()

    def set_language(self, lang: str) -> None:
        translations.save_language(lang)
        translations.install(lang)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def closeEvent(self, event: object) -> None:
        if self.audience is not None:
            self.audience.close()
        self.timer.stop()
        super().closeEvent(event)  # type: ignore[arg-type]
