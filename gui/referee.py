"""The referee's window: every event the daemon hosts, its tables, and every control they need.

Layout: the band at the top names the event shown, with the list of every event (a
Puzzle Duel session, a hall timer …) to switch between them. Below, for a session, the
bracket above the table cards (a second tab holds check-in); for a hall timer event, its
panel — the big countdown, the next signal, the stations and their finishes, the
timer's controls and its timeline — above its tables. On the right, the selected table:
its program, its alerts, the buttons for it and its match, and its timeline.

Every control is a ``QAction`` with a keyboard shortcut where it has one (Help →
Keyboard shortcuts lists them, from the actions themselves). **Whether it may be used is
the daemon's word**: each action is bound to a kind of the daemon's actions and to what it
acts on (the selected table, the selected match, the event shown, the selected player),
and is enabled exactly when that object's ``actions`` say it may be done now — else its
tooltip is the daemon's reason, rendered in the referee's language. Only what the daemon
cannot know (nothing selected; no token, no connection — the command sink's word) is the
window's own. Actions become :class:`~gui.commands.Command` s handed to the command sink;
the daemon's answer appears in the status bar (a refusal also in a message box, since a
refused command means the referee's intent did not happen).

A hall signal ("ZMIANA") makes the desk beep and says so in the status bar.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import shiboken6
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clockd.api import MAX_LINE_BYTES
from clockd.core.actions import Action, Allowed
from clockd.core.bracket import Confirm
from clockd.core.chessday.group import CloseRound, PairRound
from clockd.core.clock import Pause, Resume
from clockd.core.duel import Complete
from clockd.core.hall import FinishEntry, TimerResume, TimerStart
from clockd.core.program import ClearAlert
from clockd.core.puzzle_duel import MAX_SIGNUPS_TEXT, ImportSignups
from clockd.core.registration import CheckIn, CheckOut, CloseCheckIn, SignupError, Withdraw, decode_signups
from clockd.core.zone import CloseEntries, ConfirmRanking, ImportEntries
from clockd.i18n import Msg, msg, render, render_error, text
from gui import terms, translations
from gui.chessdialogs import AppealDialog, ChessWithdrawDialog, ClaimDialog, PairAllDialog, ReadyGroup
from gui.commands import Command, CommandResult, CommandSink
from gui.deskmodel import Change, DeskModel
from gui.dialogs import (
    AddPlayerDialog,
    AdjustDialog,
    AssignDialog,
    DrawDialog,
    FinishDialog,
    NewSessionDialog,
    NewTimerDialog,
    NewZoneDialog,
    NoteDialog,
    OverrideDialog,
    ShortcutsDialog,
    TossDialog,
    WalkoverDialog,
    ZoneEntryDialog,
)
from gui.model import Event, Match, Player, Table
from gui.nodes import NodesDialog
from gui.people import PeopleDialog
from gui.style import DESK
from gui.widgets.bracket import BracketWidget
from gui.widgets.chess import ChessPanel
from gui.widgets.described import DescribedPanel, described_kind
from gui.widgets.hall import HallWidget
from gui.widgets.header import HeaderBar
from gui.widgets.painted import font
from gui.widgets.players import PlayersTable, RefusalsLabel
from gui.widgets.tables import TablesWidget
from gui.widgets.timeline import TimelineView

#: How often the clocks are redrawn (a running clock's text changes once a second; 10 Hz
#: keeps the change within a tenth of a second of the true instant).
REFRESH_MS = 100

#: The most a sign-up file's text may take in one request: the action takes up to
#: ``MAX_SIGNUPS_TEXT`` characters, but a request is one line of at most ``MAX_LINE_BYTES``
#: (the rest of the line: the request's own fields and JSON's quoting).
IMPORT_LIMIT = min(MAX_SIGNUPS_TEXT, MAX_LINE_BYTES - 4096)

Scope = Literal["table", "match", "event", "player", "daemon"]


@dataclass(frozen=True)
class Binding:
    """A control bound to one of the daemon's action kinds, on what it acts on (``scope``)."""

    action: QAction
    kind: str
    scope: Scope


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
        self.beeps = 0
        self.audience: QWidget | None = None
        self.last_refusal = ""
        self._last_signal = model.state.signal.number if model.state.signal is not None else 0
        self._dirty: set[Change] = set()
        self._dirty_tables: set[int] = set()
        self.bindings: list[Binding] = []
        self._shown: str | None = None  # the event whose page was drawn last
        self._listed: object = None  # the list of events drawn last (the band's box, the menu)
        self.setMinimumSize(1024, 700)

        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.header = HeaderBar(parent=central)
        self.events_box = QComboBox(self.header)
        self.events_box.setMinimumWidth(300)
        self.events_box.setFont(font(13))
        self.events_box.activated.connect(self._event_picked)
        self.header.add_widget(self.events_box)
        outer.addWidget(self.header)
        body = QSplitter(Qt.Orientation.Horizontal, central)
        outer.addWidget(body, 1)

        self.tabs = QTabWidget(body)
        desk = QSplitter(Qt.Orientation.Vertical, self.tabs)
        self.event_view = QStackedWidget(desk)
        self.bracket = BracketWidget(parent=self.event_view)
        self.event_view.addWidget(self.bracket)
        self.hall_panel = QWidget(self.event_view)
        self._make_hall_panel()
        self.event_view.addWidget(self.hall_panel)
        self.chess_panel = ChessPanel(commands, self.send, self.select_event, parent=self.event_view)
        self.event_view.addWidget(self.chess_panel)
        #: An event of any other kind: drawn from the daemon's descriptions (gui.widgets.described).
        self.described_panel = DescribedPanel(self.send, parent=self.event_view)
        self.event_view.addWidget(self.described_panel)
        self.pair_all_dialog: PairAllDialog | None = None
        self.tables = TablesWidget(parent=desk)
        desk.addWidget(self.event_view)
        desk.addWidget(self.tables)
        desk.setStretchFactor(0, 62)
        desk.setStretchFactor(1, 38)
        desk.setSizes([620, 380])
        self.tabs.addTab(desk, "")
        self.players = PlayersTable(self.tabs)
        players_page = QWidget(self.tabs)
        pl = QVBoxLayout(players_page)
        self.player_search = QLineEdit(players_page)  # check-in by the name the person says
        self.player_search.setClearButtonEnabled(True)
        self.player_search.textChanged.connect(self.players.set_filter)
        self.player_search.returnPressed.connect(self._check_in_found)
        pl.addWidget(self.player_search)
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
        self.detail = TablesWidget(parent=self.side)
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
        self.match_box = QWidget(self.side)
        match_layout = QVBoxLayout(self.match_box)
        match_layout.setContentsMargins(0, 0, 0, 0)
        self.match_label = QLabel(self.match_box)
        self.match_label.setFont(font(13, bold=True))
        self.match_label.setWordWrap(True)
        match_layout.addWidget(self.match_label)
        self.match_buttons = QGridLayout()
        match_layout.addLayout(self.match_buttons)
        side.addWidget(self.match_box)
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

    def _make_hall_panel(self) -> None:
        layout = QVBoxLayout(self.hall_panel)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.hall = HallWidget(parent=self.hall_panel)
        top.addWidget(self.hall, 3)
        self.event_timeline = TimelineView(self.hall_panel, event=True)
        top.addWidget(self.event_timeline, 2)
        layout.addLayout(top, 1)
        self.timer_buttons = QHBoxLayout()
        layout.addLayout(self.timer_buttons)
        self.zone_buttons = QHBoxLayout()  # the relay's, blind puzzling's, the team event's, the rotation's
        layout.addLayout(self.zone_buttons)
        self.hall.entry_clicked.connect(self.finish_clicked)

    # -- actions ----------------------------------------------------------------------------
    def _action(self, shortcut: str, handler: Callable[[], None]) -> QAction:
        a = QAction(self)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.triggered.connect(handler)
        self.addAction(a)
        return a

    def _bound(self, kind: str, scope: Scope, shortcut: str, handler: Callable[[], None]) -> QAction:
        """A control for the daemon's action ``kind``, enabled from what ``scope``'s view allows."""
        a = self._action(shortcut, handler)
        self.bindings.append(Binding(a, kind, scope))
        return a

    def _button(self, action: QAction, parent: QWidget) -> QToolButton:
        b = QToolButton(parent)
        b.setDefaultAction(action)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        b.setMinimumHeight(34)
        b.setSizePolicy(b.sizePolicy().horizontalPolicy().Expanding, b.sizePolicy().verticalPolicy())
        b.setFont(font(13))
        return b

    def _make_actions(self) -> None:
        # the selected table (a match's table actions reach it too)
        self.act_toggle = self._action("Ctrl+P", self.pause_or_resume)
        self.act_pause = self._bound("pause", "table", "", self.pause)
        self.act_resume = self._bound("resume", "table", "", self.resume)
        self.act_adjust = self._bound("adjust", "table", "Ctrl+T", self.adjust)
        self.act_complete = self._bound("complete", "table", "Ctrl+K", self.complete)
        self.act_note = self._bound("note", "table", "Ctrl+N", self.note)
        self.act_clear = self._bound("clear-alert", "table", "Ctrl+Shift+C", self.clear_alerts)
        # the selected match
        self.act_assign = self._action("Ctrl+M", self.assign)
        self.act_toss = self._bound("match-toss", "match", "Ctrl+R", self.toss)
        self.act_confirm = self._bound("match-confirm", "match", "Ctrl+Return", self.confirm)
        self.act_override = self._bound("match-override", "match", "Ctrl+Shift+O", self.override)
        self.act_walkover = self._bound("match-walkover", "match", "Ctrl+Shift+W", self.walkover)
        self.act_tiebreak = self._bound("match-tiebreak", "match", "Ctrl+D", self.tiebreak)
        # the session shown, and its players
        self.act_checkin = self._bound("check-in", "player", "Ctrl+I", self.check_in)
        self.act_checkout = self._bound("check-out", "player", "Ctrl+Shift+I", self.check_out)
        self.act_withdraw = self._bound("withdraw", "player", "", self.withdraw)
        self.act_close = self._bound("check-in-close", "event", "", self.close_checkin)
        self.act_draw = self._bound("draw", "event", "", self.draw)
        self.act_add_player = self._bound("player-add", "event", "", self.add_player)
        self.act_import = self._bound("signups-import", "event", "", self.import_signups)
        # the hall timer shown
        self.act_timer_start = self._bound("timer-start", "event", "Ctrl+Shift+S", self.timer_start)
        self.act_timer_pause = self._bound("timer-pause", "event", "", self.timer_pause)
        self.act_timer_resume = self._bound("timer-resume", "event", "", self.timer_resume)
        self.act_timer_adjust = self._bound("timer-adjust", "event", "Ctrl+Shift+T", self.timer_adjust)
        self.act_timer_end = self._bound("timer-end", "event", "", self.timer_end)
        self.act_finish = self._bound("entry-finish", "event", "", self.finish_entry)
        self.act_unfinish = self._bound("entry-unfinish", "event", "", self.unfinish_entry)
        # the zone's contests: what the referee records besides a finish
        zone = functools.partial
        self.act_split = self._bound("entry-split", "event", "Ctrl+Shift+B", zone(self.zone_entry, "split"))
        self.act_count = self._bound("entry-count", "event", "Ctrl+Shift+L", zone(self.zone_entry, "count"))
        self.act_missing = self._bound(
            "entry-missing", "event", "Ctrl+Shift+M", zone(self.zone_entry, "missing")
        )
        self.act_void = self._bound("entry-void", "event", "", zone(self.zone_entry, "void"))
        self.act_confirm_ranking = self._bound("zone-confirm", "event", "", self.confirm_ranking)
        self.act_replace = self._bound(
            "switcher-replace", "event", "Ctrl+Shift+R", zone(self.zone_entry, "replace")
        )
        self.act_table_done = self._bound("switcher-table-done", "event", "", zone(self.zone_entry, "done"))
        self.zone_actions: tuple[QAction, ...] = (
            self.act_split,
            self.act_count,
            self.act_missing,
            self.act_void,
            self.act_confirm_ranking,
            self.act_replace,
            self.act_table_done,
        )
        # one key per entry: Alt+1 … Alt+9 record the finish of the entry at that row (by table)
        self.act_finish_n = [
            self._action(f"Alt+{n}", functools.partial(self.finish_nth, n)) for n in range(1, 10)
        ]
        # the daemon
        self.act_new_session = self._bound("event-create", "daemon", "", self.new_session)
        self.act_new_timer = self._bound("event-create", "daemon", "", self.new_timer)
        self.act_new_zone = self._bound("event-create", "daemon", "", self.new_zone)
        # the zone's sign-ups and check-in
        self.act_import_entries = self._bound("entries-import", "event", "", self.import_entries)
        self.act_entry_checkin = self._bound("entry-check-in", "event", "", self.entry_check_in)
        self.act_entries_close = self._bound("entries-close", "event", "", self.entries_close)
        self.act_entry_table = self._bound("entry-table", "event", "", self.entry_table)
        # the chess group shown (the Vega entry line is the chess panel's own)
        self.act_chess_pair = self._bound("chess-pair", "event", "Ctrl+Shift+P", self.chess_pair)
        self.act_chess_pair_all = self._action("Ctrl+Alt+P", self.chess_pair_all)
        self.act_chess_close = self._bound("chess-close", "event", "", self.chess_close)
        self.act_chess_claim = self._bound("chess-claim", "event", "", self.chess_claim)
        self.act_chess_appeal = self._bound("chess-appeal", "event", "", self.chess_appeal)
        self.act_chess_withdraw = self._bound("chess-withdraw", "event", "", self.chess_withdraw)
        self.chess_actions = (
            self.act_chess_pair,
            self.act_chess_pair_all,
            self.act_chess_close,
            self.act_chess_claim,
            self.act_chess_appeal,
            self.act_chess_withdraw,
        )
        # the window
        self.act_audience = self._action("F10", self.toggle_audience)
        self.act_fullscreen = self._action("F11", self.toggle_fullscreen)
        self.act_shortcuts = self._action("F1", self.show_shortcuts)
        self.act_people = self._action("Ctrl+Shift+O", self.show_people)
        self.act_nodes = self._action("Ctrl+Shift+N", self.show_nodes)
        self.nodes_dialog: NodesDialog | None = None
        self.act_tables = []
        for n in range(1, 10):
            self.act_tables.append(self._action(f"Ctrl+{n}", functools.partial(self.select_table, n)))

        table_actions = (
            self.act_pause,
            self.act_resume,
            self.act_adjust,
            self.act_complete,
            self.act_note,
            self.act_clear,
        )
        for i, a in enumerate(table_actions):
            self.table_buttons.addWidget(self._button(a, self.side), i // 2, i % 2)
        match_actions = (
            self.act_toss,
            self.act_confirm,
            self.act_override,
            self.act_walkover,
            self.act_assign,
            self.act_tiebreak,
        )
        for i, a in enumerate(match_actions):
            self.match_buttons.addWidget(self._button(a, self.match_box), i // 2, i % 2)
        session_actions = (
            self.act_checkin,
            self.act_checkout,
            self.act_add_player,
            self.act_withdraw,
            self.act_import,
            self.act_close,
            self.act_draw,
        )
        for a in session_actions:
            b = QToolButton(self)
            b.setDefaultAction(a)
            b.setMinimumHeight(32)
            self.player_buttons.addWidget(b)
        self.player_buttons.addStretch(1)
        timer_actions = (
            self.act_timer_start,
            self.act_timer_pause,
            self.act_timer_resume,
            self.act_timer_adjust,
            self.act_timer_end,
            self.act_finish,
            self.act_unfinish,
        )
        for a in timer_actions:
            self.timer_buttons.addWidget(self._button(a, self.hall_panel))
        self.chess_panel.add_buttons([self._button(a, self.chess_panel) for a in self.chess_actions])
        self.zone_widgets = {}
        self.zone_actions = (
            self.act_import_entries,
            self.act_entry_checkin,
            self.act_entries_close,
            self.act_entry_table,
            *self.zone_actions,
        )
        for a in self.zone_actions:
            button = self._button(a, self.hall_panel)
            self.zone_widgets[a] = button
            self.zone_buttons.addWidget(button)

        bar = self.menuBar()
        self.menu_event = self._menu(bar.addMenu(""))
        self.menu_events = self._menu(self.menu_event.addMenu(""))
        self.event_group = QActionGroup(self)
        self.menu_event.addAction(self.act_new_session)
        self.menu_event.addAction(self.act_new_timer)
        self.menu_event.addAction(self.act_new_zone)
        self.menu_event.addSeparator()
        for a in (
            self.act_import,
            self.act_add_player,
            self.act_checkin,
            self.act_checkout,
            self.act_withdraw,
            self.act_close,
            self.act_draw,
        ):
            self.menu_event.addAction(a)
        self.menu_event.addAction(self.act_people)
        self.menu_event.addSeparator()
        #: Every action of the event shown, as the daemon describes it (its form built from the
        #: description): what the desk has no button of its own for is here too.
        self.menu_described = self._menu(self.menu_event.addMenu(""))
        self._described_offered: tuple[object, ...] = ()
        self.menu_event.addSeparator()
        for a in (
            self.act_import_entries,
            self.act_entry_checkin,
            self.act_entries_close,
            self.act_entry_table,
        ):
            self.menu_event.addAction(a)
        self.menu_table = self._menu(bar.addMenu(""))
        self.menu_table.addAction(self.act_toggle)
        for a in table_actions:
            self.menu_table.addAction(a)
        self.menu_table.addSeparator()
        for a in self.act_tables:
            self.menu_table.addAction(a)
        self.menu_match = self._menu(bar.addMenu(""))
        for a in match_actions:
            self.menu_match.addAction(a)
        self.menu_timer = self._menu(bar.addMenu(""))
        for a in timer_actions:
            self.menu_timer.addAction(a)
        self.menu_chess = self._menu(bar.addMenu(""))
        for a in self.chess_actions:
            self.menu_chess.addAction(a)
        self.menu_view = self._menu(bar.addMenu(""))
        self.menu_view.addAction(self.act_audience)
        self.menu_view.addAction(self.act_fullscreen)
        self.menu_view.addAction(self.act_nodes)
        self.menu_language = self._menu(self.menu_view.addMenu(""))
        group = QActionGroup(self)
        self.act_lang = {}
        for lang, label in (("pl", "Polski"), ("en", "English")):
            a = QAction(label, self)
            a.setCheckable(True)
            a.triggered.connect(lambda _=False, lang=lang: self.set_language(lang))
            group.addAction(a)
            self.menu_language.addAction(a)
            self.act_lang[lang] = a
        self.menu_help = self._menu(bar.addMenu(""))
        self.menu_help.addAction(self.act_shortcuts)

    @staticmethod
    def _menu(menu: QMenu | None) -> QMenu:
        assert menu is not None
        menu.setToolTipsVisible(True)  # a disabled item says why, as its button does
        return menu

    def retranslate(self) -> None:
        self.setWindowTitle(text("gui.referee.duelclock-referee"))
        self.tabs.setTabText(1, text("gui.referee.players-and-check-in"))
        self.player_search.setPlaceholderText(text("gui.referee.find-a-player-by-name"))
        self.menu_event.setTitle(text("gui.referee.event"))
        self.menu_table.setTitle(text("gui.referee.table"))
        self.menu_match.setTitle(text("gui.referee.match"))
        self.menu_timer.setTitle(text("gui.referee.timer"))
        self.menu_view.setTitle(text("gui.referee.view"))
        self.menu_chess.setTitle(text("gui.referee.chess"))
        self.act_chess_pair.setText(text("gui.referee.pair-the-next-round"))
        self.act_chess_pair_all.setText(text("gui.referee.pair-all-ready-groups"))
        self.act_chess_close.setText(text("gui.referee.close-the-round-dialog"))
        self.act_chess_claim.setText(text("gui.referee.illegal-move-claimed"))
        self.act_chess_appeal.setText(text("gui.referee.appeal"))
        self.act_chess_withdraw.setText(text("gui.referee.withdraw-a-player"))
        self.menu_language.setTitle(text("gui.referee.language"))
        self.menu_help.setTitle(text("gui.referee.help"))
        self.act_toggle.setText(text("gui.referee.pause-resume"))
        self.act_pause.setText(text("gui.referee.pause"))
        self.act_resume.setText(text("gui.referee.resume"))
        self.act_adjust.setText(text("gui.referee.adjust-time"))
        self.act_complete.setText(text("gui.referee.picture-complete"))
        self.act_note.setText(text("gui.referee.note"))
        self.act_clear.setText(text("gui.referee.clear-alerts"))
        self.act_assign.setText(text("gui.referee.put-on-a-table"))
        self.act_toss.setText(text("gui.referee.toss"))
        self.act_confirm.setText(text("gui.referee.confirm-result"))
        self.act_override.setText(text("gui.referee.override-result"))
        self.act_walkover.setText(text("gui.referee.walkover"))
        self.act_tiebreak.setText(text("gui.referee.start-tie-break"))
        self.act_checkin.setText(text("gui.referee.check-in"))
        self.act_checkout.setText(text("gui.referee.check-out"))
        self.act_close.setText(text("gui.referee.close-check-in-seats-to"))
        self.act_draw.setText(text("gui.referee.draw"))
        self.act_add_player.setText(text("gui.referee.add-a-player"))
        self.act_withdraw.setText(text("gui.referee.withdraw"))
        self.act_import.setText(text("gui.referee.import-sign-ups-csv"))
        self.act_timer_start.setText(text("gui.referee.start"))
        self.act_timer_pause.setText(text("gui.referee.pause-the-event"))
        self.act_timer_resume.setText(text("gui.referee.resume-the-event"))
        self.act_timer_adjust.setText(text("gui.referee.adjust-the-events-time"))
        self.act_timer_end.setText(text("gui.referee.end-the-event"))
        self.act_finish.setText(text("gui.referee.record-a-finish"))
        self.act_unfinish.setText(text("gui.referee.take-back-a-finish"))
        self.act_split.setText(text("gui.referee.bag-2-verified"))
        self.act_count.setText(text("gui.referee.counted-pieces"))
        self.act_missing.setText(text("gui.referee.missing-pieces"))
        self.act_void.setText(text("gui.referee.void"))
        self.act_confirm_ranking.setText(text("gui.referee.confirm-the-ranking"))
        self.act_replace.setText(text("gui.referee.replace-a-person"))
        self.act_table_done.setText(text("gui.referee.table-done"))
        self.act_new_zone.setText(text("gui.referee.new-contest-of-the-puzzle"))
        self.act_import_entries.setText(text("gui.referee.import-pairs-or-teams-csv"))
        self.act_entry_checkin.setText(text("gui.referee.check-in-a-pair-or"))
        self.act_entries_close.setText(text("gui.referee.close-the-check-in"))
        self.act_entry_table.setText(text("gui.referee.seat-at-a-table"))
        for n, a in enumerate(self.act_finish_n, start=1):
            a.setText(text("gui.referee.record-the-finish-of-entry", entry=str(n)))
        self.act_new_session.setText(text("gui.referee.new-puzzle-duel-session"))
        self.act_new_timer.setText(text("gui.referee.new-timed-event"))
        self.menu_events.setTitle(text("gui.referee.show-event"))
        self.menu_described.setTitle(text("gui.referee.every-action"))
        self._described_offered = ()  # its items are rebuilt in the new language
        self.act_audience.setText(text("gui.referee.audience-screen"))
        self.act_fullscreen.setText(text("gui.referee.full-screen"))
        self.act_shortcuts.setText(text("gui.referee.keyboard-shortcuts"))
        self.act_people.setText(text("gui.referee.people-and-their-data-rodo"))
        self.act_nodes.setText(text("gui.referee.table-nodes"))
        for n, a in enumerate(self.act_tables, start=1):
            a.setText(text("gui.referee.select-table", table=str(n)))
        self.timeline_label.setText(text("gui.referee.timeline-presses-and-decisions"))
        lang = translations.chosen_language()
        for code, a in self.act_lang.items():
            a.setChecked(code == lang)
        self._render_events()
        self._update_actions()
        self._render_side()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """Every key the desk answers to: the window's actions (the common ones first), the
        table selection, and the audience screen's own keys."""
        native = QKeySequence.SequenceFormat.NativeText
        rows = []
        first = (
            self.act_toggle,
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
            self.act_timer_start,
            self.act_timer_adjust,
            self.act_split,
            self.act_count,
            self.act_missing,
            self.act_replace,
            self.act_audience,
            self.act_fullscreen,
            self.act_nodes,
            self.act_shortcuts,
        )
        numbered = [*self.act_tables, *self.act_finish_n]  # listed as one row each (Ctrl+1 … 9, Alt+1 … 9)
        rest = [a for a in self.findChildren(QAction) if a not in first and a not in numbered]
        for a in (*first, *rest):
            if not a.shortcut().isEmpty():
                rows.append((a.shortcut().toString(native), a.text()))
        rows.append(("Ctrl+1 … Ctrl+9", text("gui.referee.select-table-19")))
        rows.append(("Alt+1 … Alt+9", text("gui.referee.record-the-finish-of-the")))
        from gui.audience import AUDIENCE_KEYS

        audience = {
            "_toggle_fullscreen": text("gui.referee.audience-screen-full-screen-on"),
            "_leave_fullscreen": text("gui.referee.audience-screen-leave-full-screen"),
            "close": text("gui.referee.audience-screen-close-it"),
        }
        for keys, slot in AUDIENCE_KEYS:
            rows.append((QKeySequence(keys).toString(native), audience[slot]))
        return rows

    # -- selection --------------------------------------------------------------------------
    def current_table(self) -> Table | None:
        t = self.selected_table
        return self.model.state.tables.get(t) if t is not None else None

    def current_match(self) -> Match | None:
        bracket = self.model.state.bracket
        if bracket is None or self.selected_match is None:
            return None
        return bracket.matches.get(self.selected_match)

    def current_player(self) -> Player | None:
        pid = self.players.selected_player()
        return self.model.state.players.get(pid) if pid is not None else None

    def select_table(self, table: int) -> None:
        state = self.model.state
        if table not in state.tables:
            self.statusBar().showMessage(text("gui.referee.there-is-no-table", table=str(table)), 4000)
            return
        self.selected_table = table
        duel = state.duel_at(table)
        if duel is not None and duel[0].id == state.shown:
            self.selected_match = duel[1].id
        self._render_selection()

    def select_match(self, match_id: str) -> None:
        state = self.model.state
        self.selected_match = match_id
        m = state.bracket.matches.get(match_id) if state.bracket else None
        if m is not None and state.bracket is not None:
            live = state.bracket.live_match_of(m)
            if live is not None and live.table is not None:
                self.selected_table = live.table
            elif m.table is not None and m.status == "result":
                self.selected_table = m.table
        self._render_selection()

    def select_event(self, event_id: str) -> None:
        """Show ``event_id`` (the referee's choice: it stays shown while the daemon has it)."""
        self.model.choose_event(event_id)

    def _event_picked(self, index: int) -> None:
        event_id = self.events_box.itemData(index)
        if isinstance(event_id, str):
            self.select_event(event_id)

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
        if Change.EVENTS in dirty:
            self._render_event_page()
            if (
                state.shown != self._shown
            ):  # another event's page: its first table, unless one of its is chosen
                self._shown = state.shown
                page = state.tables_of_shown()
                if page and self.selected_table not in page:
                    self.selected_table = page[0]
                    self.selected_match = None
                    self.tables.select(self.selected_table)
        if dirty & {Change.TABLES, Change.EVENTS}:
            if Change.EVENTS in dirty:
                self.bracket.set_state(state, now)
                self.hall.set_state(state, now)
                self.tables.set_state(state, now)
                self.detail.set_state(state, now)
            else:  # the common case, a press: redraw only the cards of the tables that changed
                self.bracket.tables_changed(state, now, tables)
                self.tables.tables_changed(state, now, tables)
                self.detail.tables_changed(state, now, tables)
                if self.hall.isVisible():
                    self.hall.set_state(state, now)  # a station's finish shows in its table and here
        if Change.EVENTS in dirty:
            self.players.set_state(state)
            self.chess_panel.set_state(state)
            self.described_panel.set_state(state, now)
            self.refusals.set_state(state)
            self._render_events()
        if dirty & {Change.EVENTS, Change.CONNECTION}:
            self.header.set_state(state)
        if Change.TIMELINE in dirty and (self.selected_table in tables or not tables):
            self._render_timeline()
        if Change.SIGNAL in dirty:
            self._signalled()
        if dirty == {Change.NODES}:
            return  # the nodes' answer alone (every second): the side's node line changes with TABLES
        if self.selected_table is not None and self.selected_table not in state.tables:
            self.selected_table = None  # the daemon no longer has it
        if self.selected_table is None and state.tables:
            shown = state.tables_of_shown()
            self.select_table(shown[0] if shown else min(state.tables))
        elif self.selected_match is None and self.selected_table is not None:
            duel = state.duel_at(self.selected_table)  # the table's match may have arrived after it
            if duel is not None and duel[0].id == state.shown:
                self.selected_match = duel[1].id
                self.bracket.select(self.selected_match)
        self._render_side()
        self._update_actions()

    def _render_event_page(self) -> None:
        """The left side follows the event shown: a session's bracket and check-in, a hall timer's panel."""
        state = self.model.state
        hall = state.hall is not None
        chess = state.chess
        described = described_kind(state)
        page = (
            self.described_panel
            if described
            else self.chess_panel
            if chess is not None
            else self.hall_panel
            if hall
            else self.bracket
        )
        if page is self.chess_panel and self.event_view.currentWidget() is not page:
            self.chess_panel.entry.setFocus()  # a chess group shown: the arbiter types results at once
        self.event_view.setCurrentWidget(page)
        self.event_view.setVisible(
            hall or described or chess is not None or state.bracket is not None
        )  # no bracket yet: the tables get the room
        self.tabs.setTabVisible(1, state.session is not None)
        if chess is not None:
            self.tabs.setTabText(0, text("gui.referee.chess-groups"))
        else:
            self.tabs.setTabText(
                0, text("gui.referee.timer-and-tables") if hall else text("gui.referee.bracket-and-tables")
            )
        self.match_box.setVisible(not hall and chess is None)
        if chess is not None:  # the boards need the room; clocked boards' tables stay in view
            clocked = any(b.table is not None for b in chess.boards)
            self.tables.setVisible(clocked)
            self.side.setVisible(clocked)
        else:
            # a hall event without tables of its own (the rotation without buttons): its page gets the room
            self.tables.setVisible(not hall or bool(state.tables_of_shown()))
            self.side.setVisible(True)
        if self.selected_match is not None and self.current_match() is None:
            self.selected_match = None

    def _render_events(self) -> None:
        """The list of events (the header's box and Event → Show event): every kind, the shown one checked."""
        state = self.model.state
        listed = (
            tuple((k, render(e.title), terms.event_kind(e.kind)) for k, e in state.events.items()),
            state.shown,
        )
        if listed == self._listed:
            return  # an event's new state, the same list: nothing to rebuild (20 chess groups push often)
        self._listed = listed
        self.events_box.blockSignals(True)
        self.events_box.clear()
        self.menu_events.clear()
        for action in self.event_group.actions():
            self.event_group.removeAction(action)
        for event_id, event in state.events.items():
            label = f"{render(event.title)} — {terms.event_kind(event.kind)}"
            self.events_box.addItem(label, event_id)
            a = QAction(label, self)
            a.setCheckable(True)
            a.setChecked(event_id == state.shown)
            a.triggered.connect(functools.partial(self.select_event, event_id))
            self.event_group.addAction(a)
            self.menu_events.addAction(a)
        index = self.events_box.findData(state.shown)
        self.events_box.setCurrentIndex(index)
        self.events_box.setVisible(bool(state.events))
        self.events_box.blockSignals(False)
        self.menu_events.setEnabled(bool(state.events))

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
        self.hall.tick(now)
        self.described_panel.tick(now)

    def _signalled(self) -> None:
        """A hall signal: the desk sounds it and says which event's it is."""
        flash = self.model.state.signal
        if flash is None or flash.number <= self._last_signal:
            return
        self._last_signal = flash.number
        QApplication.beep()
        self.beeps += 1
        event = self.model.state.events.get(flash.event)
        name = render(event.title) if event is not None else flash.event
        self.statusBar().showMessage(
            text("gui.referee.signal", signal=terms.signal(flash.what, flash.offset_ms), event=name),
            10_000,
        )

    # -- the side panel ---------------------------------------------------------------------
    def _render_side(self) -> None:
        state = self.model.state
        t = self.selected_table
        table = self.current_table()
        if self.detail.only != t:
            self.detail.only = t
            self.detail.set_state(state, self.clock())
        if table is None or t is None:
            self.side_title.setText(text("gui.referee.no-table-selected"))
            self.side_match.setText(text("gui.referee.click-a-table-or-press"))
            self.alerts.hide()
        else:
            self.side_title.setText(text("gui.referee.table-number", table=str(t)))
            node = self._node_line(table)
            line = self._table_line(table)
            self.side_match.setText(f"{line}\n{node}" if node else line)
            if table.alerts:
                self.alerts.setText("<br>".join(f"⚠ {render(a.text)}" for a in table.alerts))
                self.alerts.show()
            else:
                self.alerts.hide()
        m = self.current_match()
        if m is not None:
            self.match_label.setText(
                text(
                    "gui.referee.match-line",
                    match=terms.match_label(m),
                    a=state.name(m.a) or "…",
                    b=state.name(m.b) or "…",
                    status=terms.status(m.status),
                )
            )
        else:
            self.match_label.setText(text("gui.referee.match-none-selected"))
        self._render_timeline()

    def _table_line(self, table: Table) -> str:
        """What the selected table runs, in one line, and whether its event gave it back."""
        line = self._table_runs(table)
        return f"{line} · {render(msg('table.given-back'))}" if table.released else line

    def _table_runs(self, table: Table) -> str:
        """What the selected table runs, in one line: the match and its round, a station, its own clock."""
        state = self.model.state
        duel = state.duel_at(table.table)
        if duel is not None:
            event, m = duel
            bracket = event.session.bracket if event.session is not None else None
            parts = [terms.match_label(m)]
            if bracket is not None:
                rnd = bracket.round(m.round)
                parts += [terms.round_title(rnd), text("gui.referee.pieces", pieces=str(rnd.pieces))]
            if table.clock is not None:
                parts.append(table.clock.control)
            if event.id != state.shown:
                parts.append(render(event.title))
            return " · ".join(parts)
        owned = state.owner_of(table.table)
        if table.program == "station":
            return " · ".join(x for x in (render(owned[0].title) if owned else "", table.entry) if x)
        if table.clock is not None:
            return f"{terms.program(table.program)} · {table.clock.control}"
        return text("gui.referee.no-match-on-this-table")

    def _node_line(self, table: Table) -> str:
        """The node that times the selected table and whether the desk hears it ("" : none)."""
        if not table.node:
            return ""
        if self.model.state.node_down(table.node):
            return "▼ " + text("gui.referee.node-down-the-table-is", node=table.node)
        return "▲ " + text("gui.referee.node-connected", node=table.node)

    def _render_timeline(self) -> None:
        state = self.model.state
        t = self.selected_table
        names = {pid: p.display_name for pid, p in state.players.items()}
        for view in (self.timeline, self.event_timeline):
            if names != view.timeline.names:
                view.timeline.names = names
                view.timeline.retranslate()
        self.timeline.show_entries(state.timelines.get(t, ()) if t is not None else ())
        event = state.event
        self.event_timeline.show_entries(
            state.event_timelines.get(event.key, ()) if event is not None else ()
        )

    # -- what may be done: the daemon's word ---------------------------------------------------
    def allowed(self, scope: Scope) -> Allowed | str:
        """The actions allowed on what ``scope`` names now (the daemon's), or why there is nothing to ask."""
        state = self.model.state
        if scope == "table":
            table = self.current_table()
            return table.actions if table is not None else text("gui.referee.select-a-table-first-ctrl-1")
        if scope == "match":
            m = self.current_match()
            return m.actions if m is not None else text("gui.referee.select-a-match-in-the")
        if scope == "player":
            p = self.current_player()
            return p.actions if p is not None else text("gui.referee.select-a-player-in-the")
        if scope == "event":
            event = state.event
            return event.actions if event is not None else text("gui.referee.no-event-is-shown")
        return {}

    def reason(self, kind: str, scope: Scope) -> str:
        """Why the action ``kind`` on ``scope`` may not be done now ("" if it may): the daemon's
        reason, rendered; else the command sink's (no token, no connection)."""
        allowed = self.allowed(scope)
        if isinstance(allowed, str):
            return allowed
        if scope != "daemon":
            if kind not in allowed:
                return render(msg("gui.not-offered", action=Msg(code=f"term.action.{kind}")))
            refused = allowed[kind]
            if refused is not None:
                return render(refused)
        sink = self.commands.available(kind)
        return render(sink) if sink is not None else ""

    def _enable(self, action: QAction, reason: str) -> None:
        action.setEnabled(not reason)
        if reason:
            action.setToolTip(reason)
        else:
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{action.text()} ({keys})" if keys else action.text())

    def _render_described_menu(self) -> None:
        """Event → Every action: one item per action of the event shown, enabled as the daemon
        says (its reason as the tooltip), its form built from the daemon's description."""
        state = self.model.state
        event = state.event
        offered = (
            (
                event.id,
                tuple(sorted(event.actions.items(), key=lambda kv: kv[0])),
                state.described is not None,
            )
            if event is not None
            else ()
        )
        if offered == self._described_offered:
            return
        self._described_offered = offered
        self.menu_described.clear()
        if event is None or state.described is None:
            self.menu_described.setEnabled(False)
            return
        for name, reason in sorted(event.actions.items()):
            description = state.described.action(name)
            if description is None:
                continue
            a = QAction(render(description.title), self)
            a.setObjectName(f"described-{name}")
            self._enable(a, render(reason) if reason is not None else "")
            if reason is None and description.help is not None:
                a.setToolTip(render(description.help))
            a.triggered.connect(functools.partial(self.described_panel.do, event.id, name))
            self.menu_described.addAction(a)
        self.menu_described.setEnabled(not self.menu_described.isEmpty())

    def _update_actions(self) -> None:
        self._render_described_menu()
        for b in self.bindings:
            self._enable(b.action, self.reason(b.kind, b.scope))
        event = self.model.state.event
        offered = set(event.actions) if event is not None else set()
        ready = event is not None and event.hall is not None and event.hall.timer.phase == "ready"
        signups = {"entries-import", "entry-check-in", "entries-close", "entry-table"}
        for b in self.bindings:  # the zone's buttons show only for the kinds that have them
            if b.action in self.zone_widgets:
                shown = b.kind in offered and (ready or b.kind not in signups)
                self.zone_widgets[b.action].setVisible(shown)
        finish = self.reason("entry-finish", "event")
        for a in self.act_finish_n:
            self._enable(a, finish)
        pause, resume = self.reason("pause", "table"), self.reason("resume", "table")
        self._enable(self.act_toggle, pause if pause and resume else "")
        self._enable(self.act_assign, self._assign_reason())
        self._enable(self.act_chess_pair_all, self._pair_all_reason())

    def _assign_reason(self) -> str:
        """Put a match on a table: the selected match's word, or — none selected — any match's."""
        if self.current_match() is not None:
            return self.reason("match-assign", "match")
        bracket = self.model.state.bracket
        if bracket is None:
            return text("gui.referee.no-bracket-yet-the-draw")
        if not self._assignable():
            return text("gui.referee.no-match-may-be-put")
        sink = self.commands.available("match-assign")
        return render(sink) if sink is not None else ""

    def _assignable(self) -> list[Match]:
        """The matches the daemon allows to be put on a table now."""
        bracket = self.model.state.bracket
        if bracket is None:
            return []
        return [
            m
            for m in bracket.matches.values()
            if "match-assign" in m.actions and m.actions["match-assign"] is None
        ]

    # -- commands ---------------------------------------------------------------------------
    def send(self, target: str, action: Action) -> None:
        """Hand ``action`` on ``target`` to the command sink; its answer comes to :meth:`_done`."""
        self.statusBar().showMessage(text("gui.referee.sending", action=terms.action(action.kind)))
        self.commands.send(Command(target, action), self._done)

    def _done(self, outcome: CommandResult) -> None:
        name = terms.action(outcome.command.kind)
        if outcome.ok:
            self.statusBar().showMessage(text("gui.referee.done", name=name), 5000)
            created = getattr(outcome.result, "event", None)
            if outcome.command.kind == "event-create" and created is not None:
                self.select_event(created.id)  # the event just made is the one to work on
            return
        if outcome.code == "demo":
            self.statusBar().showMessage(text("gui.referee.demo-was-not-sent-no", name=name), 8000)
            return
        why = render(outcome.reason) if outcome.reason is not None else outcome.code
        self._refused(text("gui.referee.not-done", name=name, why=why))

    def _refused(self, why: str) -> None:
        """Say that something the referee asked for did not happen: status bar and a message box."""
        self.statusBar().showMessage(why, 15000)
        self.last_refusal = why
        if self.isVisible():
            # window-modal but not blocking: the clocks keep ticking behind it
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                text("gui.referee.the-daemon-refused"),
                why,
                QMessageBox.StandardButton.Ok,
                self,
            )
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()

    def _table(self, action: QAction) -> Table | None:
        """The selected table, if ``action`` may be done on it now."""
        table = self.current_table()
        if table is None:
            self.statusBar().showMessage(text("gui.referee.select-a-table-first-ctrl"), 4000)
        return table if action.isEnabled() else None

    def _match(self, action: QAction) -> tuple[Event, Match] | None:
        """The event shown and the selected match, if ``action`` may be done on it now."""
        event, m = self.model.state.event, self.current_match()
        if event is None or m is None or not action.isEnabled():
            return None
        return event, m

    def _event(self, action: QAction) -> Event | None:
        event = self.model.state.event
        return event if event is not None and action.isEnabled() else None

    @staticmethod
    def _item(event: Event, m: Match) -> str:
        return f"{event.id}/{m.id}"

    def pause_or_resume(self) -> None:
        table = self.current_table()
        if table is None or not self.act_toggle.isEnabled():
            return
        if self.act_resume.isEnabled():
            self.send(table.target, Resume())
        elif self.act_pause.isEnabled():
            self.send(table.target, Pause())

    def pause(self) -> None:
        table = self._table(self.act_pause)
        if table is not None:
            self.send(table.target, Pause())

    def resume(self) -> None:
        table = self._table(self.act_resume)
        if table is not None:
            self.send(table.target, Resume())

    def adjust(self) -> None:
        table = self._table(self.act_adjust)
        if table is None:
            return
        dialog = AdjustDialog(self.model.state, table.table, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(table.target, dialog.action())

    def note(self) -> None:
        table = self._table(self.act_note)
        if table is None:
            return
        dialog = NoteDialog(table.table, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(table.target, dialog.action())

    def clear_alerts(self) -> None:
        table = self._table(self.act_clear)
        if table is not None:
            self.send(table.target, ClearAlert(alert_id=None))

    def complete(self) -> None:
        table = self._table(self.act_complete)
        if table is not None:
            self.send(table.target, Complete())

    def confirm(self) -> None:
        found = self._match(self.act_confirm)
        if found is not None:
            self.send(self._item(*found), Confirm())

    def toss(self) -> None:
        found = self._match(self.act_toss)
        if found is None:
            return
        dialog = TossDialog(self.model.state, found[1], self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.winner is not None:
            self.send(self._item(*found), dialog.action())

    def override(self) -> None:
        found = self._match(self.act_override)
        if found is None:
            return
        dialog = OverrideDialog(self.model.state, found[1], self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(self._item(*found), dialog.action())

    def walkover(self) -> None:
        found = self._match(self.act_walkover)
        if found is None:
            return
        dialog = WalkoverDialog(self.model.state, found[1], self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(self._item(*found), dialog.action())

    def assign(self) -> None:
        event = self.model.state.event
        if event is None or not self.act_assign.isEnabled():
            return
        m = self.current_match()
        dialog = AssignDialog(
            self.model.state,
            self._assignable(),
            table=self.selected_table,
            match=m.id if m is not None else None,
            parent=self,
        )
        if dialog.exec() == QDialog.DialogCode.Accepted:
            match_id, action = dialog.action()
            self.send(f"{event.id}/{match_id}", action)

    def tiebreak(self) -> None:
        found = self._match(self.act_tiebreak)
        if found is None:
            return
        event, m = found
        dialog = AssignDialog.for_tiebreak(self.model.state, m, table=self.selected_table, parent=self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(self._item(event, m), dialog.tiebreak_action())

    def _toggle_presence(self, player: int) -> None:
        p = self.model.state.players.get(player)
        if p is None:
            return
        if p.presence == "present":
            self.check_out()
        else:
            self.check_in()

    def _player(self, action: QAction) -> tuple[Event, Player] | None:
        event, p = self.model.state.event, self.current_player()
        if event is None or p is None or not action.isEnabled():
            return None
        return event, p

    def check_in(self) -> None:
        found = self._player(self.act_checkin)
        if found is not None:
            self.send(found[0].id, CheckIn(player=found[1].id))

    def _check_in_found(self) -> None:
        """Enter in the search field: the one player it finds is checked in (as the button would)."""
        if self.players.select_only_match():
            self.check_in()

    def check_out(self) -> None:
        found = self._player(self.act_checkout)
        if found is not None:
            self.send(found[0].id, CheckOut(player=found[1].id))

    def withdraw(self) -> None:
        found = self._player(self.act_withdraw)
        if found is None:
            return
        event, p = found
        answer = QMessageBox.question(
            self,
            text("gui.referee.withdraw"),
            text("gui.referee.resigns-from-this-session", player=p.display_name),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.send(event.id, Withdraw(player=p.id))

    def close_checkin(self) -> None:
        event = self._event(self.act_close)
        if event is None:
            return
        answer = QMessageBox.question(
            self,
            text("gui.referee.close-check-in"),
            text("gui.referee.close-check-in-now-seats"),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.send(event.id, CloseCheckIn())

    def add_player(self) -> None:
        event = self._event(self.act_add_player)
        if event is None:
            return
        dialog = AddPlayerDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

    def import_signups(self) -> None:
        if self._event(self.act_import) is None:
            return
        path, _ = QFileDialog.getOpenFileName(
            self, text("gui.referee.the-sign-up-forms-export"), "", text("gui.referee.csv-files-csv-txt")
        )
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> None:
        """Send a sign-up CSV file's text; the daemon checks every row (and imports nothing if one is bad)."""
        event = self._event(self.act_import)
        if event is None:
            self._refused(self.reason("signups-import", "event"))
            return
        try:
            data = path.read_bytes()
        except OSError as exc:
            self._refused(text("gui.referee.cannot-read", path=str(path), problem=render_error(exc)))
            return
        try:
            csv_text = decode_signups(data, source=path.name)  # a form's UTF-8, or Excel's Windows-1250
        except SignupError as exc:
            self._refused(render(exc.msg))
            return
        size = len(json.dumps(csv_text, ensure_ascii=False).encode())  # as it goes over the wire
        if size > IMPORT_LIMIT:
            self._refused(
                text(
                    "gui.referee.is-too-long-for-one", file=path.name, size=str(size), limit=str(IMPORT_LIMIT)
                )
            )
            return
        self.send(event.id, ImportSignups(csv=csv_text, source=path.name))

    def new_session(self) -> None:
        if not self.act_new_session.isEnabled():
            return
        dialog = NewSessionDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send("", dialog.action())

    def new_timer(self) -> None:
        if not self.act_new_timer.isEnabled():
            return
        dialog = NewTimerDialog(sorted(self.model.state.tables), self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send("", dialog.action())

    def draw(self) -> None:
        event = self._event(self.act_draw)
        if event is None:
            return
        dialog = DrawDialog(self.model.state, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

    # -- the hall timer ------------------------------------------------------------------------
    def timer_start(self) -> None:
        event = self._event(self.act_timer_start)
        if event is not None:
            self.send(event.id, TimerStart())

    def timer_pause(self) -> None:
        self._described("timer-pause", self.act_timer_pause)

    def timer_resume(self) -> None:
        event = self._event(self.act_timer_resume)
        if event is not None:
            self.send(event.id, TimerResume())

    def timer_adjust(self) -> None:
        self._described("timer-adjust", self.act_timer_adjust)

    def timer_end(self) -> None:
        self._described("timer-end", self.act_timer_end)

    def finish_entry(self) -> None:
        event = self._event(self.act_finish)
        if event is None or event.hall is None:
            return
        dialog = FinishDialog(event.hall, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())
            missing = dialog.missing_action()
            if missing is not None:
                self.send(event.id, missing)

    def unfinish_entry(self) -> None:
        self._described("entry-unfinish", self.act_unfinish)

    def zone_entry(self, what: str) -> None:
        """Record for one entry (or seat, or table) what the referee saw: see :class:`ZoneEntryDialog`."""
        action = {
            "split": self.act_split,
            "count": self.act_count,
            "missing": self.act_missing,
            "void": self.act_void,
            "replace": self.act_replace,
            "done": self.act_table_done,
        }[what]
        event = self._event(action)
        if event is None or event.hall is None:
            return
        dialog = ZoneEntryDialog(what, event.hall, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

    def new_zone(self) -> None:
        if not self.act_new_zone.isEnabled():
            return
        dialog = NewZoneDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send("", dialog.action())

    def import_entries(self) -> None:
        event = self._event(self.act_import_entries)
        if event is None:
            return
        path, _ = QFileDialog.getOpenFileName(
            self, text("gui.referee.the-sign-up-forms-export"), "", text("gui.referee.csv-files-csv-txt")
        )
        if not path:
            return
        try:
            csv_text = decode_signups(Path(path).read_bytes(), source=Path(path).name)
        except OSError as exc:
            self._refused(text("gui.referee.cannot-read", path=path, problem=render_error(exc)))
            return
        except SignupError as exc:
            self._refused(render(exc.msg))
            return
        self.send(event.id, ImportEntries(csv=csv_text, source=Path(path).name))

    def entry_check_in(self) -> None:
        self._described("entry-check-in", self.act_entry_checkin)

    def entries_close(self) -> None:
        event = self._event(self.act_entries_close)
        if event is not None:
            self.send(event.id, CloseEntries())

    def entry_table(self) -> None:
        self._described("entry-table", self.act_entry_table)

    def _described(self, name: str, action: QAction) -> None:
        """Action ``name`` of the event shown, its form built from the daemon's description (the
        entries it may name now offered, as the daemon's picks say)."""
        event = self._event(action)
        if event is not None:
            self.described_panel.do(event.id, name)

    def confirm_ranking(self) -> None:
        event = self._event(self.act_confirm_ranking)
        if event is not None:
            self.send(event.id, ConfirmRanking())

    def finish_clicked(self, entry: str) -> None:
        """One click on an entry's row: its finish, now (the daemon's instant)."""
        event = self._event(self.act_finish)
        if event is None or event.hall is None:
            return
        if any(e == entry and not done for e, _, done in event.hall.finishable()):
            self.send(event.id, FinishEntry(entry=entry))

    def finish_nth(self, n: int) -> None:
        """Alt+N: the finish of the N-th entry (by table), as a click on its row."""
        event = self.model.state.event
        if event is None or event.hall is None or not self.act_finish_n[n - 1].isEnabled():
            return
        rows = event.hall.finishable()
        if n <= len(rows):
            self.finish_clicked(rows[n - 1][0])

    # -- the chess groups -----------------------------------------------------------------------
    def ready_groups(self) -> list[ReadyGroup]:
        """The chess groups whose next round the daemon allows to be paired now, in board order."""
        out = []
        for event in self.model.state.chess_groups():
            body = event.chess
            if body is not None and "chess-pair" in event.actions and event.actions["chess-pair"] is None:
                out.append(ReadyGroup(event.id, render(event.title), body.round + 1))
        return out

    def _pair_all_reason(self) -> str:
        if not self.model.state.chess_groups():
            return text("gui.referee.no-chess-group-in-the")
        if not self.ready_groups():
            return text("gui.referee.no-group-may-be-paired")
        sink = self.commands.available("chess-pair")
        return render(sink) if sink is not None else ""

    def chess_pair(self) -> None:
        event = self._event(self.act_chess_pair)
        if event is not None and event.chess is not None:
            next_round = event.chess.round + 1
            self.send(event.id, PairRound(round=next_round))

    def chess_pair_all(self) -> None:
        """Pair every ready group, one after another, in a dialog that shows the progress."""
        groups = self.ready_groups()
        if not groups or not self.act_chess_pair_all.isEnabled():
            return
        dialog = PairAllDialog(groups, self.commands, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.pair_all_dialog = dialog
        dialog.open()  # window-modal, not blocking: the desk keeps drawing the groups as they pair
        dialog.start()

    def chess_close(self, *, confirm: bool = True) -> None:
        """Close the round: the boards with no result reported become 0–0 (§H), listed first."""
        event = self._event(self.act_chess_close)
        if event is None or event.chess is None:
            return
        missing = [b.board for b in event.chess.boards if b.result is None]
        round_, title = str(event.chess.round), render(event.title)
        if missing:
            boards = ", ".join(str(b) for b in missing)
            question = text(
                "gui.referee.close-round-of-these-boards", round=round_, event=title, boards=boards
            )
        else:
            question = text("gui.referee.close-round-of-every-board", round=round_, event=title)
        if confirm:
            answer = QMessageBox.question(self, text("gui.referee.close-the-round"), question)
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.send(event.id, CloseRound())

    def chess_claim(self) -> None:
        event = self._event(self.act_chess_claim)
        if event is None or event.chess is None:
            return
        dialog = ClaimDialog(event.chess, self.chess_panel.entry.board, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

    def chess_appeal(self) -> None:
        event = self._event(self.act_chess_appeal)
        if event is None or event.chess is None:
            return
        dialog = AppealDialog(event.chess, self.chess_panel.entry.board, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

    def chess_withdraw(self) -> None:
        event = self._event(self.act_chess_withdraw)
        if event is None or event.chess is None:
            return
        dialog = ChessWithdrawDialog(event.chess, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.send(event.id, dialog.action())

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

    def people_dialog(self) -> PeopleDialog | None:
        """The RODO window (find, export, restrict, erase), or ``None`` with the reason shown:
        it needs the daemon's token, as ``duelclock person`` does."""
        refusal = self.commands.available("person-access")
        if refusal is not None or not hasattr(self.commands, "people"):
            self._refused(
                render(refusal) if refusal is not None else text("gui.referee.not-connected-to-a-daemon")
            )
            return None
        return PeopleDialog(self.commands, self.send, self)

    def show_nodes(self) -> None:
        """The Nodes window (non-modal, kept: it refreshes itself while open)."""
        if self.nodes_dialog is None:
            self.nodes_dialog = NodesDialog(self.model, self.commands, self)
        self.nodes_dialog.show()
        self.nodes_dialog.raise_()

    def show_people(self) -> None:
        dialog = self.people_dialog()
        if dialog is not None:
            dialog.show()

    def set_language(self, lang: str) -> None:
        translations.save_language(lang)
        translations.install(lang)  # Qt's words and the catalogue's, together

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self._render_event_page()
        super().changeEvent(event)

    def closeEvent(self, event: object) -> None:
        if self.audience is not None:
            self.audience.close()
        self.timer.stop()
        super().closeEvent(event)  # type: ignore[arg-type]


__all__ = ["Binding", "RefereeWindow"]
