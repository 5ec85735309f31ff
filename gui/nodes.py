"""The desk's window on its table nodes: each node's link, lag, restarts and outages, and the
commands the desk sent that are not done.

A desk (``duelclock run --desk``) holds a copy of every node's tables (``docs/mqtt.md``);
this window is where the referee sees whether that copy is current. It draws the daemon's
``nodes`` answer as it is (:class:`~clockd.api.messages.NodesReply`, held in
:attr:`gui.model.DeskState.nodes`), asked every second while the window is open
(:meth:`gui.adapter.DaemonConnection.watch_nodes`).

**A command is done only when the node's row came back** (outcome ``done``). Everything else
is listed under the commands not done, each with its own words: *sent* (waiting for the
node), *refused* (with the node's reason, the :class:`~clockd.i18n.Msg` rendered in the
GUI's language) or *not delivered* (it will not be done: the node refuses a late copy). An
outcome this GUI does not know (a newer daemon) is shown as its code, never as done.

Instants: the daemon's are on the journal's time base (monotonic, not the wall clock); the
answer carries the journal's *now*, so an instant is shown as the GUI's wall clock at the
answer's arrival less how long before *now* it was — HH:MM:SS, the machine's local time.
"""

from __future__ import annotations

import datetime
from typing import Any

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clockd.api.messages import CommandView, NodesReply, NodeView, OutageView
from clockd.i18n import render, text
from gui import terms
from gui.deskmodel import Change, DeskModel
from gui.model import DeskState
from gui.style import DESK
from gui.widgets.painted import font


def clock_time(state: DeskState, t_ms: int) -> str:
    """A journal instant of the nodes' answer as the wall clock's HH:MM:SS (local time)."""
    reply = state.nodes
    assert reply is not None
    wall_ms = state.nodes_wall_ms - (reply.now_ms - t_ms)
    return datetime.datetime.fromtimestamp(wall_ms / 1000).strftime("%H:%M:%S")


class NodesDialog(QDialog):
    """Every table node the desk knows, and the desk's commands to them that are not done."""

    def __init__(self, model: DeskModel, connection: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.connection = connection  # has watch_nodes (a live daemon) or not (the demo)
        self._watching = False
        self.setWindowTitle(text("gui.nodes.table-nodes"))
        self.setMinimumSize(900, 520)
        layout = QVBoxLayout(self)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setFont(font(13))
        layout.addWidget(self.summary)
        self.nodes = QTableWidget(0, 6, self)
        self.nodes.setHorizontalHeaderLabels(
            [
                text("gui.nodes.node"),
                text("gui.nodes.link"),
                text("gui.nodes.tables"),
                text("gui.nodes.lag"),
                text("gui.nodes.restarts"),
                text("gui.nodes.outages"),
            ]
        )
        self._table_style(self.nodes)
        layout.addWidget(self.nodes, 2)
        self.commands_label = QLabel(self)
        self.commands_label.setFont(font(13, bold=True))
        self.commands_label.setWordWrap(True)
        layout.addWidget(self.commands_label)
        self.commands = QTableWidget(0, 5, self)
        self.commands.setHorizontalHeaderLabels(
            [
                text("gui.nodes.table"),
                text("gui.nodes.node"),
                text("gui.nodes.command"),
                text("gui.nodes.sent"),
                text("gui.nodes.state"),
            ]
        )
        self._table_style(self.commands)
        layout.addWidget(self.commands, 3)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self._unsubscribe = model.subscribe(self._changed)
        self.refresh()

    @staticmethod
    def _table_style(table: QTableWidget) -> None:
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        table.setWordWrap(False)  # a cell's lines are its own (outages: one a line)
        table.verticalHeader().setVisible(False)
        table.setFont(font(12))
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

    # -- polling while shown ---------------------------------------------------------------
    def _watch(self, on: bool) -> None:
        if on != self._watching and hasattr(self.connection, "watch_nodes"):
            self._watching = on
            self.connection.watch_nodes(on)

    def showEvent(self, event: QShowEvent) -> None:
        self._watch(True)
        super().showEvent(event)

    def done(self, result: int) -> None:
        self._watch(False)
        super().done(result)

    def hideEvent(self, event: Any) -> None:
        self._watch(False)
        super().hideEvent(event)

    def _changed(self, change: Change, tables: frozenset[int]) -> None:
        if not shiboken6.isValid(self):
            self._unsubscribe()
            return
        if change in (Change.NODES, Change.CONNECTION):
            self.refresh()

    # -- drawing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        state = self.model.state
        reply = state.nodes
        if reply is None:
            self._show(False)
            self.summary.setText(text("gui.nodes.asking-the-daemon-for-its"))
            return
        if not reply.nodes and reply.linked is None:
            self._show(False)
            self.summary.setText(text("gui.nodes.this-daemon-has-no-table"))
            return
        self._show(True)
        self.summary.setText(self._summary(reply))
        self.nodes.setRowCount(len(reply.nodes))
        for row, node in enumerate(reply.nodes):
            self._node_row(state, row, node)
        self.nodes.resizeRowsToContents()
        pending = [c for c in reply.commands if c.outcome != "done"]
        if pending:
            self.commands_label.setText(text("gui.nodes.commands-not-done"))
        else:
            self.commands_label.setText(text("gui.nodes.commands-not-done-none"))
        self.commands.setVisible(bool(pending))
        self.commands.setRowCount(len(pending))
        for row, command in enumerate(pending):
            self._command_row(state, row, command)
        self.commands.resizeRowsToContents()

    def _show(self, on: bool) -> None:
        for w in (self.nodes, self.commands_label, self.commands):
            w.setVisible(on)

    def _summary(self, reply: NodesReply) -> str:
        if reply.linked is False:
            return text("gui.nodes.the-desk-is-not-connected")
        if not reply.nodes:
            return text("gui.nodes.the-desk-is-connected-to")
        up = sum(1 for n in reply.nodes if n.up)
        return text("gui.nodes.the-desk-is-connected-to-the", up=str(up), nodes=str(len(reply.nodes)))

    def _cell(self, table: QTableWidget, row: int, column: int, text: str, *, bad: bool = False) -> None:
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        item.setToolTip(text)  # a cell cut by a narrow window still says it all
        if bad:
            item.setForeground(QColor(DESK.offline))
        table.setItem(row, column, item)

    def link_text(self, state: DeskState, node: NodeView) -> str:
        if node.up:
            return "▲ " + text("gui.nodes.connected-since", since=clock_time(state, node.since_ms))
        return "▼ " + text("gui.nodes.disconnected-since", since=clock_time(state, node.since_ms))

    def lag_text(self, node: NodeView) -> str:
        rows = text("gui.nodes.rows-behind", rows=str(node.rows_behind))
        if node.heard_ms_ago is None:
            heard = text("gui.nodes.not-heard")
        elif node.heard_ms_ago < 1000:
            heard = text("gui.nodes.heard-just-now")
        else:
            heard = text("gui.nodes.heard-s-ago", seconds=str((node.heard_ms_ago + 500) // 1000))
        return f"{rows} · {heard}"

    def outage_text(self, state: DeskState, outage: OutageView) -> str:
        start = clock_time(state, outage.down_ms)
        if outage.up_ms is None:
            return text("gui.nodes.outage-since-still-out", start=start)
        seconds = outage.seconds if outage.seconds is not None else (outage.up_ms - outage.down_ms) // 1000
        return text(
            "gui.nodes.outage-s", seconds=str(seconds), start=start, end=clock_time(state, outage.up_ms)
        )

    def _node_row(self, state: DeskState, row: int, node: NodeView) -> None:
        self._cell(self.nodes, row, 0, node.name)
        self._cell(self.nodes, row, 1, self.link_text(state, node), bad=not node.up)
        self._cell(self.nodes, row, 2, ", ".join(str(t) for t in node.tables) or "—")
        self._cell(self.nodes, row, 3, self.lag_text(node), bad=node.rows_behind > 0)
        self._cell(self.nodes, row, 4, str(node.restarts))
        outages = [self.outage_text(state, o) for o in node.outages]
        self._cell(self.nodes, row, 5, "\n".join(outages) or text("gui.nodes.none"))

    def state_text(self, command: CommandView) -> str:
        """What became of a command not done, in words (never "done": see the module)."""
        if command.outcome == "sent":
            return "○ " + text("gui.nodes.sent-waiting-for-the-node")
        if command.outcome == "refused":
            why = render(command.problem) if command.problem is not None else "—"
            return "✗ " + text("gui.nodes.refused-by-the-node", why=why)
        if command.outcome == "not-delivered":
            return "✗ " + text("gui.nodes.not-delivered-not-done")
        return "? " + command.outcome

    def _command_row(self, state: DeskState, row: int, command: CommandView) -> None:
        table = text("gui.nodes.table-number", table=str(command.table)) if command.table is not None else "—"
        self._cell(self.commands, row, 0, table)
        self._cell(self.commands, row, 1, command.node)
        self._cell(self.commands, row, 2, terms.entry(command.what))
        self._cell(self.commands, row, 3, clock_time(state, command.t_ms))
        self._cell(self.commands, row, 4, self.state_text(command), bad=command.outcome != "sent")


__all__ = ["NodesDialog", "clock_time"]
