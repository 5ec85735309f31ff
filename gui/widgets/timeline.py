"""A table's timeline: every journaled press and decision, for settling a dispute.

One row per event, oldest first: the journal's sequence number, the instant counted from
the clock being set for the duel (to the millisecond, as journaled — nothing is rounded),
the time since the previous press less any pause (how long a player thought), what happened and the
details (which side, what the press did, who decided and why). Presses the clock ignored
(a player hammering the wrong button, a press on a paused clock) are shown in red.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from clockd.core.display import format_exact_ms
from gui import terms
from gui.model import TimelineItem
from gui.style import MONO, SANS

Index = QModelIndex | QPersistentModelIndex


def signed_seconds(ms: int) -> str:
    """A time adjustment as the referee typed it: ``+10 s``, ``-2.500 s``."""
    sign = "+" if ms >= 0 else "-"
    seconds, milli = divmod(abs(ms), 1000)
    return f"{sign}{seconds} s" if not milli else f"{sign}{seconds}.{milli:03d} s"


class TimelineModel(QAbstractTableModel):
    COLUMNS = 5

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: tuple[TimelineItem, ...] = ()
        #: Display names by player id, for the events that name a player (a toss, a decision).
        self.names: dict[int, str] = {}
        self._rows: list[tuple[str, str, str, str, str, bool]] = []

    def set_entries(self, entries: tuple[TimelineItem, ...]) -> None:
        if entries is self.entries:
            return
        old = self.entries
        if old and len(entries) > len(old) and entries[: len(old)] == old:
            # the common case: new events at the end; append without resetting the view
            first = len(self._rows)
            rows = self._compute(entries)
            self.beginInsertRows(QModelIndex(), first, len(rows) - 1)
            self.entries, self._rows = entries, rows
            self.endInsertRows()
            return
        self.beginResetModel()
        self.entries = entries
        self._rows = self._compute(entries)
        self.endResetModel()

    def retranslate(self) -> None:
        self.beginResetModel()
        self._rows = self._compute(self.entries)
        self.endResetModel()

    def _compute(self, entries: tuple[TimelineItem, ...]) -> list[tuple[str, str, str, str, str, bool]]:
        names = self.names
        rows = []
        origin = entries[0].t_ms if entries else 0
        last_press: int | None = None
        paused_at: int | None = None
        paused = 0  # paused time since the last press: not thinking time
        for e in entries:
            if e.kind == "clock-set":
                origin, last_press, paused_at, paused = e.t_ms, None, None, 0
            elif e.kind == "pause" and paused_at is None:
                paused_at = e.t_ms
            elif e.kind == "resume" and paused_at is not None:
                paused += e.t_ms - paused_at
                paused_at = None
            data = e.data
            think = ""
            if e.kind == "press" and data.get("outcome", "applied") in ("applied", "started"):
                if last_press is not None:
                    think = format_exact_ms(e.t_ms - last_press - paused)
                last_press, paused = e.t_ms, 0
            what = terms.event(e.kind)
            side = data.get("side")
            if isinstance(side, str) and side:
                what += f" {side.upper()}"
            rows.append(
                (
                    str(e.seq),
                    format_exact_ms(e.t_ms - origin),
                    think,
                    what,
                    _details(e.kind, data, names),
                    str(data.get("outcome", "")).startswith("ignored"),
                )
            )
        return rows

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.COLUMNS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and row[5]:
            return QColor("#c62828")
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 1, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and index.column() in (1, 2):
            f = QFont(MONO)
            f.setPixelSize(12)
            return f
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        names = (
            QCoreApplication.translate("Timeline", "#"),
            QCoreApplication.translate("Timeline", "Since set"),
            QCoreApplication.translate("Timeline", "Think"),
            QCoreApplication.translate("Timeline", "Event"),
            QCoreApplication.translate("Timeline", "Details"),
        )
        return names[section]


def _details(kind: str, data: dict[str, Any], names: dict[int, str]) -> str:
    parts: list[str] = []
    if kind.startswith("match-") and data.get("match"):
        parts.append(str(data["match"]))
    if kind == "match-finished" and data.get("how"):
        parts.append(terms.event(str(data["how"])))
    for key in ("winner", "absent", "clock_a"):
        who = data.get(key)
        if isinstance(who, int) and not isinstance(who, bool):
            label = {
                "winner": QCoreApplication.translate("Timeline", "winner"),
                "absent": QCoreApplication.translate("Timeline", "absent"),
                "clock_a": QCoreApplication.translate("Timeline", "at side A"),
            }[key]
            parts.append(f"{label}: {names.get(who, f'#{who}')}")
    outcome = data.get("outcome")
    if isinstance(outcome, str) and outcome and outcome != "applied":
        parts.append(terms.outcome(outcome))
    if kind == "adjust" and isinstance(data.get("delta_ms"), int):
        parts.append(signed_seconds(data["delta_ms"]))
    if kind == "clock-set" and data.get("control"):
        parts.append(str(data["control"]))
    if kind == "alert" and data.get("code"):
        parts.append(terms.alert(str(data["code"]), str(data.get("message", ""))))
    if data.get("text"):
        parts.append(f"„{data['text']}”")
    if data.get("device_t_ns") is not None:
        parts.append(
            QCoreApplication.translate("Timeline", "clock's own time %1 ns").replace(
                "%1", str(data["device_t_ns"])
            )
        )
    by = data.get("by")
    reason = data.get("reason")
    if by or reason:
        who = str(by or "")
        why = str(reason or "")
        parts.append(f"{who}: {why}" if who and why else who or why)
    return " · ".join(parts)


class TimelineView(QTableView):
    """The timeline of one table; follows the newest event unless the referee scrolled up."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline = TimelineModel(self)
        self.setModel(self.timeline)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(20)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TimelineModel.COLUMNS - 1, QHeaderView.ResizeMode.Stretch)
        f = QFont(SANS)
        f.setPixelSize(12)
        self.setFont(f)
        self.setWordWrap(False)

    def show_entries(self, entries: tuple[TimelineItem, ...]) -> None:
        if entries is self.timeline.entries:
            return
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        self.timeline.set_entries(entries)
        # Appended rows do not make the header re-measure its ResizeToContents columns.
        for column in range(TimelineModel.COLUMNS - 1):
            self.resizeColumnToContents(column)
        if at_end:
            self.scrollToBottom()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.timeline.retranslate()
        super().changeEvent(event)
