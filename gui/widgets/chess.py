"""The chess day at the desk: the groups, the selected group's round and standings, and the
Vega-style result entry.

Twenty groups play at once in one hall, their boards numbered across it (each group owns a
range, ``first_board``..``last_board``). The arbiter's desk therefore shows:

* **the group list** — every chess group with its round, phase, the results still missing,
  the planned start of its next round, and a warning *in words* (not only a colour) when the
  daemon says the group lags behind the plan (``lag_minutes``);
* **the selected group** — its round's boards (hall number, White, school, points, the
  result and who entered it, Black), a proposal (a clock's flag, a second illegal move)
  highlighted for the arbiter to confirm; the bye and the absent; round 1's absentees who
  will be withdrawn before round 2 unless they reported (a *reported* button each); and the
  standings with the FIDE acronyms as column heads;
* **the entry line** (:class:`VegaEntry`) — the board number, Enter, then one keystroke
  ``1 0 = 5 + -`` which is sent at once; Enter on an empty result accepts the board's
  proposal; Ctrl+Z (or ``u``, ``u 12``) takes the last result this desk entered back. A board
  number finds its group by the groups' ranges, so any board of the hall can be typed
  without choosing its group first. The daemon decides: its refusal (another arbiter's
  different result …) is shown in the entry's status line, with a button to replace the
  result knowingly. Several desks work against the one daemon; nothing here is decided locally.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clockd.api.chess import ChessBoardView, ChessBody, ChessPlayerView, column_label
from clockd.core.actions import Action
from clockd.core.chessday.group import KEYSTROKES, EnterResult, ReportPresent, UndoResult
from clockd.i18n import Msg, language, msg, render, text
from gui.commands import Command, CommandResult, CommandSink
from gui.model import DeskState, Event
from gui.widgets.painted import font

#: The colours of the desk's chess view (a proposal to look at, a lagging group, a refusal).
PROPOSAL = "#fff1c2"
LAGGING = "#ffd9a8"
REFUSED = "#c62828"
DONE = "#0f5132"


def result_text(result: str | None) -> str:
    """A result as the hall reads it (``1–0``, ``½–½``, ``+/−``); "" for none."""
    if not result:
        return ""
    forfeits = {"+-": "+/−", "-+": "−/+", "--": "−/−"}
    return forfeits.get(result, result.replace("-", "–"))


def player_line(p: ChessPlayerView) -> str:
    return f"{p.name} ({p.points})"


def board_of(body: ChessBody, number: int) -> ChessBoardView | None:
    return next((b for b in body.boards if b.board == number), None)


class _Table(QTableWidget):
    """A read-only table of rows (the group list, the boards, the standings)."""

    def __init__(self, columns: int, parent: QWidget | None = None) -> None:
        super().__init__(0, columns, parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        # sized once per fill (end_fill), not per cell: ResizeToContents re-measures the whole
        # column on every item set, which made a 25-board round take a second to draw
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self._shown: object = None  # what was drawn last (a fill of the same is skipped)

    def begin_fill(self, shown: object) -> bool:
        """Start drawing ``shown`` (False, and nothing to do, if that is what is drawn already)."""
        if shown == self._shown:
            return False
        self._shown = shown
        self.setUpdatesEnabled(False)
        return True

    def end_fill(self) -> None:
        self.resizeColumnsToContents()
        self.setUpdatesEnabled(True)

    def put(self, row: int, col: int, text: str, *, data: object = None, bg: str = "", fg: str = "") -> None:
        item = QTableWidgetItem(text)
        if data is not None:
            item.setData(Qt.ItemDataRole.UserRole, data)
        if bg:
            item.setBackground(QColor(bg))
        if fg:
            item.setForeground(QColor(fg))
        self.setItem(row, col, item)

    def texts(self, row: int) -> list[str]:
        """What row ``row`` shows, cell by cell (for tests and the status line)."""
        return [
            (it.text() if (it := self.item(row, c)) is not None else "") for c in range(self.columnCount())
        ]


class GroupList(_Table):
    """Every chess group: its boards, round, phase, missing results, next round, a lag warning."""

    group_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(7, parent)
        self.itemSelectionChanged.connect(self._chosen)
        self._filling = False
        self.retranslate()

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels(
            [
                text("gui.chess.group"),
                text("gui.chess.boards"),
                text("gui.chess.round"),
                text("gui.chess.phase"),
                text("gui.chess.missing"),
                text("gui.chess.next-round"),
                text("gui.chess.plan"),
            ]
        )

    def phase(self, body: ChessBody) -> str:
        return {
            "start-list": text("gui.chess.start-list"),
            "playing": text("gui.chess.playing"),
            "between-rounds": text("gui.chess.between-rounds"),
            "finished": text("gui.chess.finished"),
        }.get(body.phase, body.phase)

    def lag_text(self, body: ChessBody) -> str:
        """The plan's word on the group: late by how much (written out: colour is not enough)."""
        if body.lag_minutes is None:
            return text("gui.chess.on-time") if body.phase != "finished" else ""
        return text("gui.chess.late-by-min", minutes=str(body.lag_minutes))

    def set_state(self, state: DeskState) -> None:
        groups = state.chess_groups()
        if not self.begin_fill((tuple(e.chess for e in groups), state.shown, text("gui.chess.group"))):
            return
        self._filling = True
        self.setRowCount(len(groups))
        for row, event in enumerate(groups):
            body = event.chess
            assert body is not None
            missing = sum(1 for b in body.boards if b.result is None) if body.phase == "playing" else 0
            lag = body.lag_minutes is not None
            bg = LAGGING if lag else ""
            cells = [
                render(event.title),
                f"{body.first_board}–{body.last_board}",
                f"{body.round}/{body.rounds}",
                self.phase(body),
                str(missing) if body.phase == "playing" else "",
                (body.next_round_at or "")[11:16],
                self.lag_text(body),
            ]
            for col, label in enumerate(cells):
                self.put(row, col, label, data=event.id if col == 0 else None, bg=bg)
            if event.id == state.shown:
                self.selectRow(row)
        self._filling = False
        self.end_fill()

    def _chosen(self) -> None:
        if self._filling:
            return
        rows = self.selectionModel().selectedRows()
        item = self.item(rows[0].row(), 0) if rows else None
        if item is not None:
            self.group_chosen.emit(str(item.data(Qt.ItemDataRole.UserRole)))


class BoardsTable(_Table):
    """The round's boards; a proposal (flag, second illegal move) highlighted for the arbiter."""

    board_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(10, parent)
        self._result_font = font(14, bold=True)
        self.itemActivated.connect(self._activated)
        self.retranslate()

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels(
            [
                text("gui.chess.board"),
                text("gui.chess.white"),
                text("gui.chess.school"),
                text("gui.chess.pts"),
                text("gui.chess.result"),
                text("gui.chess.black"),
                text("gui.chess.school"),
                text("gui.chess.pts"),
                text("gui.chess.entered-by"),
                text("gui.chess.to-the-arbiter"),
            ]
        )

    def proposal_text(self, b: ChessBoardView) -> str:
        if b.appeal is not None:
            return text("gui.chess.appeal-final", decision=b.appeal.decision)
        if b.proposal is None or b.result is not None:
            claims = len(b.claims)
            return text("gui.chess.illegal-moves-claimed", claims=str(claims)) if claims else ""
        why = {"flag": text("gui.chess.flag"), "illegal-move": text("gui.chess.2nd-illegal-move")}.get(
            b.proposal_why, ""
        )
        return text("gui.chess.proposed", proposal=result_text(b.proposal), why=why)

    def set_body(self, body: ChessBody | None) -> None:
        if not self.begin_fill((body, text("gui.chess.board"))):
            return
        boards = body.boards if body is not None else []
        self.setRowCount(len(boards))
        for row, b in enumerate(boards):
            proposed = b.proposal is not None and b.result is None
            bg = PROPOSAL if proposed else ""
            cells = [
                str(b.board),
                b.white.name,
                b.white.school,
                b.white.points,
                result_text(b.result),
                b.black.name,
                b.black.school,
                b.black.points,
                b.by,
                self.proposal_text(b),
            ]
            for col, label in enumerate(cells):
                self.put(row, col, label, data=b.board if col == 0 else None, bg=bg)
            result = self.item(row, 4)
            if result is not None:
                result.setFont(self._result_font)
                result.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        self.end_fill()

    def select_board(self, number: int) -> None:
        """Select the row of board ``number`` (the board the entry line is on)."""
        for row in range(self.rowCount()):
            item = self.item(row, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == number:
                self.selectRow(row)
                self.scrollToItem(item)
                return
        self.clearSelection()

    def _activated(self, item: QTableWidgetItem) -> None:
        first = self.item(item.row(), 0)
        if first is not None:
            self.board_chosen.emit(int(first.data(Qt.ItemDataRole.UserRole)))


class StandingsTable(_Table):
    """The standings after the closed rounds, each tie-break column headed by its FIDE acronym."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(3, parent)
        self._columns: list[str] = []
        self.retranslate()

    def retranslate(self) -> None:
        labels = [render(column_label(c)) for c in self._columns]
        self.setHorizontalHeaderLabels(
            [text("gui.chess.place"), text("gui.chess.name"), text("gui.chess.school"), *labels]
        )

    def set_body(self, body: ChessBody | None) -> None:
        if not self.begin_fill((body.standings if body is not None else None, text("gui.chess.place"))):
            return
        self._columns = list(body.columns) if body is not None else []
        rows = body.standings if body is not None else []
        self.setColumnCount(3 + len(self._columns))
        self.retranslate()
        self.setRowCount(len(rows))
        for row, s in enumerate(rows):
            cells = [
                str(s.rank),
                s.player.name,
                s.player.school,
                *(s.values.get(c, "") for c in self._columns),
            ]
            for col, label in enumerate(cells):
                self.put(row, col, label)
        self.end_fill()


class VegaEntry(QLineEdit):
    """One line, one keystroke each: the board number, Enter, then the result (sent at once).

    In the *board* step it takes digits (or ``u`` / ``u N``: undo); Enter picks the board. In
    the *result* step a key of ``1 0 = 5 + -`` is the result, Enter is "the proposal",
    Escape or Backspace go back. Ctrl+Z in either step takes back the last result entered here.
    """

    board_entered = Signal(int)
    result_typed = Signal(str)
    proposal_accepted = Signal()
    undo_requested = Signal(int)  # 0: the last result entered here
    problem = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board: int | None = None
        self.setFont(font(22, bold=True, mono=True))
        self.setMinimumHeight(44)

    def back_to_board(self) -> None:
        self.board = None
        self.clear()
        self.setPlaceholderText(text("gui.chess.board-no-enter"))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.back_to_board()
            self.undo_requested.emit(0)
            return
        key = event.key()
        enter = key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if self.board is not None:  # the result step: one keystroke
            if event.text() in KEYSTROKES:
                self.result_typed.emit(event.text())
            elif enter:
                self.proposal_accepted.emit()
            elif key in (Qt.Key.Key_Escape, Qt.Key.Key_Backspace):
                self.back_to_board()
            return
        if enter:
            self.type_board(self.text().strip().lower())
            return
        if key == Qt.Key.Key_Escape:
            self.back_to_board()
            return
        super().keyPressEvent(event)

    def type_board(self, typed: str) -> None:
        """What Enter does in the board step with ``typed`` on the line (a board, or ``u``/``u N``)."""
        if typed.startswith("u"):
            rest = typed[1:].strip()
            self.back_to_board()
            if rest and not rest.isdigit():
                self.problem.emit(text("gui.chess.is-not-a-board-number", typed=rest))
                return
            self.undo_requested.emit(int(rest) if rest else 0)
            return
        if not typed.isdigit() or int(typed) < 1:
            if typed:
                self.problem.emit(text("gui.chess.is-not-a-board-number", typed=typed))
            self.back_to_board()
            return
        self.board = int(typed)
        self.setText(f"{self.board} ▸ ")
        self.setPlaceholderText("")
        self.board_entered.emit(self.board)


@dataclass
class _Pending:
    """A result the daemon refused because another was entered: what replacing it would send."""

    event: str
    board: int
    result: str


@dataclass
class EntryLog:
    """What this desk entered, newest last (the undo key takes back the last one)."""

    entered: list[tuple[str, int]] = field(default_factory=list)


class ChessPanel(QWidget):
    """The desk's chess view: group list, entry line, the group's round and standings, buttons.

    ``commands`` is the desk's command sink (the Vega entry sends through it and shows the
    answer in its own status line, fast, without a message box); ``send`` is the window's
    (the buttons' way, which also reports a refusal in a message box).
    """

    def __init__(
        self,
        commands: CommandSink,
        send: Callable[[str, Action], None],
        choose: Callable[[str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.commands = commands
        self.send = send
        self.choose = choose
        self.state = DeskState()
        self.log = EntryLog()
        self.pending: _Pending | None = None
        self.answers = 0  # the daemon's answers to the entry so far (tests wait on it)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        split = QSplitter(Qt.Orientation.Vertical, self)
        layout.addWidget(split, 1)
        self.groups = GroupList(split)
        self.groups.group_chosen.connect(self.choose)
        split.addWidget(self.groups)
        lower = QWidget(split)
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        entry_row = QHBoxLayout()
        self.entry_label = QLabel(lower)
        self.entry_label.setFont(font(14, bold=True))
        entry_row.addWidget(self.entry_label)
        self.entry = VegaEntry(lower)
        self.entry.setFixedWidth(300)
        entry_row.addWidget(self.entry)
        self.status = QLabel(lower)
        self.status.setFont(font(14))
        self.status.setWordWrap(True)
        entry_row.addWidget(self.status, 1)
        self.replace_button = QPushButton(lower)
        self.replace_button.setFont(font(13, bold=True))
        self.replace_button.clicked.connect(self.replace)
        self.replace_button.hide()
        entry_row.addWidget(self.replace_button)
        ll.addLayout(entry_row)
        self.title = QLabel(lower)
        self.title.setFont(font(16, bold=True))
        ll.addWidget(self.title)
        self.tabs = QTabWidget(lower)
        round_page = QWidget(self.tabs)
        rl = QVBoxLayout(round_page)
        rl.setContentsMargins(0, 4, 0, 0)
        self.boards = BoardsTable(round_page)
        self.boards.board_chosen.connect(self._board_clicked)
        rl.addWidget(self.boards, 1)
        self.others = QLabel(round_page)  # the bye and the absent
        self.others.setWordWrap(True)
        rl.addWidget(self.others)
        self.withdraw_box = QWidget(round_page)  # round 1's absentees: reported?
        self.withdraw_row = QHBoxLayout(self.withdraw_box)
        self.withdraw_row.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.withdraw_box)
        self.tabs.addTab(round_page, "")
        self.standings = StandingsTable(self.tabs)
        self.tabs.addTab(self.standings, "")
        ll.addWidget(self.tabs, 1)
        self.buttons = QHBoxLayout()
        ll.addLayout(self.buttons)
        split.addWidget(lower)
        split.setStretchFactor(0, 30)
        split.setStretchFactor(1, 70)
        split.setSizes([170, 730])
        self.entry.board_entered.connect(self._board)
        self.entry.result_typed.connect(self._result)
        self.entry.proposal_accepted.connect(self._proposal)
        self.entry.undo_requested.connect(self.undo)
        self.entry.problem.connect(lambda text: self.say(text, refused=True))
        self.report_buttons: dict[int, QToolButton] = {}
        self._withdraw_key: object = None
        self.retranslate()
        self.say(self.hint())

    def hint(self) -> str:
        """What the entry line takes (its status line says it until the first board is typed)."""
        return text("gui.chess.board-number-enter-then-one")

    def add_buttons(self, widgets: list[QWidget]) -> None:
        for w in widgets:
            self.buttons.addWidget(w)

    def retranslate(self) -> None:
        self.entry_label.setText(text("gui.chess.result-label"))
        self.entry.back_to_board()
        self.replace_button.setText(text("gui.chess.replace-it-knowingly"))
        self.tabs.setTabText(0, text("gui.chess.round"))
        self.tabs.setTabText(1, text("gui.chess.standings"))
        self.groups.retranslate()
        self.boards.retranslate()
        self.standings.retranslate()
        self._render()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the state ---------------------------------------------------------------------------
    def set_state(self, state: DeskState) -> None:
        self.state = state
        self._render()

    def _render(self) -> None:
        state = self.state
        self.groups.set_state(state)
        body = state.chess
        self.boards.set_body(body)
        self.standings.set_body(body)
        event = state.event
        if body is None or event is None:
            self.title.setText("")
            self.others.setText("")
            self._render_to_withdraw(None, None)
            return
        self.title.setText(
            text(
                "gui.chess.round-of-boards-players",
                event=render(event.title),
                round=str(body.round),
                rounds=str(body.rounds),
                first=str(body.first_board),
                last=str(body.last_board),
                players=str(body.players),
            )
        )
        parts = []
        if body.bye is not None:
            parts.append(text("gui.chess.bye", player=player_line(body.bye)))
        if body.absent:
            parts.append(text("gui.chess.not-paired", players=", ".join(p.name for p in body.absent)))
        if body.closed_with_zero and body.phase != "playing":
            boards = ", ".join(str(b) for b in body.closed_with_zero)
            parts.append(text("gui.chess.closed-as-00-no-result", boards=boards))
        self.others.setText("   ·   ".join(parts))
        self._render_to_withdraw(event, body)

    def _render_to_withdraw(self, event: Event | None, body: ChessBody | None) -> None:
        """Round 1's absentees, each with a *reported* button (enabled by the daemon's word)."""
        key = (
            (event.id, tuple(body.to_withdraw), event.actions.get("chess-report"), language())
            if event is not None and body is not None
            else None
        )
        if key == self._withdraw_key:
            return
        self._withdraw_key = key
        while self.withdraw_row.count():
            item = self.withdraw_row.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self.report_buttons = {}
        if event is None or body is None or not body.to_withdraw:
            self.withdraw_box.hide()
            return
        label = QLabel(text("gui.chess.absent-from-round-1-withdrawn"), self.withdraw_box)
        label.setStyleSheet(f"color: {REFUSED}; font-weight: bold;")
        self.withdraw_row.addWidget(label)
        refused = event.actions.get(
            "chess-report", msg("gui.not-offered", action=Msg(code="term.action.chess-report"))
        )
        for p in body.to_withdraw:
            b = QToolButton(self.withdraw_box)
            b.setText(text("gui.chess.reported", player=f"{p.start}. {p.name}"))
            b.setEnabled(refused is None)
            b.setToolTip(render(refused) if refused is not None else b.text())
            b.clicked.connect(
                lambda _=False, sn=p.start, eid=event.id: self.send(eid, ReportPresent(player=sn))
            )
            self.withdraw_row.addWidget(b)
            self.report_buttons[p.start] = b
        self.withdraw_row.addStretch(1)
        self.withdraw_box.show()

    # -- the entry -----------------------------------------------------------------------------
    def say(self, text: str, *, refused: bool = False, ok: bool = False) -> None:
        colour = REFUSED if refused else DONE if ok else "#14202b"
        self.status.setStyleSheet(f"color: {colour};")
        self.status.setText(text)

    def _board(self, number: int) -> None:
        event = self.state.group_of_board(number)
        if event is None or event.chess is None:
            ranges = [e.chess for e in self.state.chess_groups() if e.chess is not None]
            hall = (
                f"{min(c.first_board for c in ranges)}–{max(c.last_board for c in ranges)}" if ranges else "—"
            )
            self.say(
                text("gui.chess.no-group-plays-on-board-the", board=str(number), boards=hall), refused=True
            )
            self.entry.back_to_board()
            return
        if self.state.shown != event.id:
            self.choose(event.id)  # the desk shows the group whose board this is
        b = board_of(event.chess, number)
        where = text("gui.chess.board-title", board=str(number)) + f" · {render(event.title)}"
        self.boards.select_board(number)
        if b is None:
            self.say(where + " · " + text("gui.chess.not-in-a-round-being"))
            return
        parts = [f"{where}: {b.white.name} – {b.black.name}"]
        if b.result is not None:
            parts.append(text("gui.chess.has", result=result_text(b.result), by=b.by or "?"))
        if b.proposal is not None and b.result is None:
            parts.append(text("gui.chess.proposed-enter-accepts", proposal=result_text(b.proposal)))
        parts.append(text("gui.chess.type-1-0"))
        self.say(" · ".join(parts))
        self.pending = None
        self.replace_button.hide()

    def _target(self) -> tuple[Event, int] | None:
        number = self.entry.board
        event = self.state.group_of_board(number) if number is not None else None
        if event is None or number is None:
            self.entry.back_to_board()
            return None
        return event, number

    def _result(self, key: str) -> None:
        found = self._target()
        if found is None:
            return
        event, number = found
        self.entry.back_to_board()
        self.enter(event.id, number, key)

    def _proposal(self) -> None:
        found = self._target()
        if found is None:
            return
        event, number = found
        b = board_of(event.chess, number) if event.chess is not None else None
        self.entry.back_to_board()
        if b is None or b.proposal is None or b.result is not None:
            self.say(text("gui.chess.board-has-no-proposal-type", board=str(number)), refused=True)
            return
        self.enter(event.id, number, b.proposal)

    def enter(self, event_id: str, board: int, result: str, *, replace: bool = False) -> None:
        """Send a board's result; the answer comes to the status line (a refusal may be replaced)."""
        action = EnterResult(board=board, result=result, replace=replace)
        self._send(Command(event_id, action), lambda outcome: self._entered(outcome, event_id, board, result))
        self.say(text("gui.chess.board-sent", board=str(board), result=result_text(result) or result))

    def _send(self, command: Command, done: Callable[[CommandResult], None]) -> None:
        why = self.commands.available(command.kind)
        if why is not None:
            self.say(render(why), refused=True)
            return
        self.commands.send(command, done)

    def _entered(self, outcome: CommandResult, event_id: str, board: int, result: str) -> None:
        self.answers += 1
        if outcome.ok:
            self.log.entered.append((event_id, board))
            self.pending = None
            self.replace_button.hide()
            self.say(
                text(
                    "gui.chess.board-entered",
                    board=str(board),
                    result=self._shown_result(event_id, board, result),
                ),
                ok=True,
            )
            return
        why = render(outcome.reason) if outcome.reason is not None else outcome.code
        self.say(text("gui.chess.board-not-entered", board=str(board), why=why), refused=True)
        if outcome.reason is not None and outcome.reason.code == "chess.result-entered":
            self.pending = _Pending(event_id, board, result)
            self.replace_button.show()

    def _shown_result(self, event_id: str, board: int, typed: str) -> str:
        """The result as the daemon now holds it (its reading of the keystroke), else as typed."""
        event = self.state.events.get(event_id)
        b = board_of(event.chess, board) if event is not None and event.chess is not None else None
        return result_text(b.result) if b is not None and b.result else typed

    def replace(self) -> None:
        """Replace the other arbiter's result with the one refused (knowingly: the button says so)."""
        p = self.pending
        if p is None:
            return
        self.pending = None
        self.replace_button.hide()
        self.enter(p.event, p.board, p.result, replace=True)

    def undo(self, board: int = 0) -> None:
        """Take back board ``board``'s result (0: the last one this desk entered)."""
        if board:
            event = self.state.group_of_board(board)
            if event is None:
                self.say(text("gui.chess.no-group-plays-on-board", board=str(board)), refused=True)
                return
            target = (event.id, board)
        elif self.log.entered:
            target = self.log.entered[-1]
        else:
            self.say(text("gui.chess.nothing-entered-here-to-take"), refused=True)
            return
        event_id, number = target

        def done(outcome: CommandResult) -> None:
            self.answers += 1
            if outcome.ok:
                if target in self.log.entered:
                    self.log.entered.remove(target)
                self.say(text("gui.chess.board-result-taken-back", board=str(number)), ok=True)
            else:
                why = render(outcome.reason) if outcome.reason is not None else outcome.code
                self.say(text("gui.chess.board-not-taken-back", board=str(number), why=why), refused=True)

        self._send(Command(event_id, UndoResult(board=number)), done)
        self.say(text("gui.chess.board-taking-the-result-back", board=str(number)))

    def _board_clicked(self, number: int) -> None:
        """A double-click (or Enter) on a board's row: the entry line takes that board."""
        self.entry.setFocus()
        self.entry.setText(str(number))
        self.entry.type_board(str(number))


__all__ = ["BoardsTable", "ChessPanel", "GroupList", "StandingsTable", "VegaEntry", "board_of", "result_text"]
