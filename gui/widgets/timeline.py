"""A table's (or an event's) timeline: every journaled entry, for settling a dispute.

One row per entry, oldest first: the journal's sequence number, the instant counted from
the clock being set for the duel (a new program on the table, to the millisecond, as
journaled — nothing is rounded), the time since the previous press less any pause (how
long a player thought), what happened and the details (which side, what the press did,
who decided and why). Presses the program ignored (a player hammering the wrong button, a
press on a paused clock) are shown in red.

A referee's action is journaled as the action itself (``data["action"]``: its fields, as
the referee gave them) beside who (``by``) and how (``source``); the other entries are the
daemon's own (a press, a flag, a program loaded, an alert, a hall signal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from clockd.core.display import format_exact_ms
from clockd.i18n import Msg, render, text
from gui import terms
from gui.model import TimelineItem
from gui.style import MONO, SANS

Index = QModelIndex | QPersistentModelIndex


def signed_seconds(ms: int) -> str:
    """A time adjustment as the referee typed it: ``+10 s``, ``-2.500 s``."""
    sign = "+" if ms >= 0 else "-"
    seconds, milli = divmod(abs(ms), 1000)
    return f"{sign}{seconds} s" if not milli else f"{sign}{seconds}.{milli:03d} s"


def _same(a: TimelineItem, b: TimelineItem) -> bool:
    """The same journal entry (entries are numbered by the journal; a timeline is in its order)."""
    return a is b or a.seq == b.seq


@dataclass(frozen=True, slots=True)
class _Fold:
    """The timeline's running figures after an entry: its clock's origin and owner, the last
    press, a pause under way and the paused time since the last press."""

    origin: int
    owner: object = None
    last_press: int | None = None
    paused_at: int | None = None
    paused: int = 0


class TimelineModel(QAbstractTableModel):
    COLUMNS = 5

    def __init__(self, parent: QWidget | None = None, *, event: bool = False) -> None:
        super().__init__(parent)
        #: An event's timeline (a hall timer's): its instants count from its first entry, the start.
        self.for_event = event
        self.entries: tuple[TimelineItem, ...] = ()
        #: Display names by player id, for the events that name a player (a toss, a decision).
        self.names: dict[int, str] = {}
        self._rows: list[tuple[str, str, str, str, str, bool]] = []
        self._fold: _Fold | None = None  # where the rows' arithmetic stands after the last entry

    def set_entries(self, entries: tuple[TimelineItem, ...]) -> int:
        """Show ``entries``; the number of the first row that changed (new rows at the end: the
        first of them — a press at a busy table costs its own row, not the whole timeline's)."""
        if entries is self.entries:
            return len(self._rows)
        old = self.entries
        n = len(old)
        appended = n > 0 and len(entries) > n and _same(entries[0], old[0]) and _same(entries[n - 1], old[-1])
        if appended:
            rows, self._fold = self._compute(entries[n:], self._fold)
            self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
            self.entries = entries
            self._rows = self._rows + rows
            self.endInsertRows()
            return n
        self.beginResetModel()
        self.entries = entries
        self._rows, self._fold = self._compute(entries, None)
        self.endResetModel()
        return 0

    def retranslate(self) -> None:
        self.beginResetModel()
        self._rows, self._fold = self._compute(self.entries, None)
        self.endResetModel()

    def _compute(
        self, entries: tuple[TimelineItem, ...], fold: _Fold | None
    ) -> tuple[list[tuple[str, str, str, str, str, bool]], _Fold]:
        """The rows of ``entries``, continuing from ``fold`` (``None``: the timeline's start)."""
        names = self.names
        rows = []
        if fold is None:
            fold = _Fold(origin=entries[0].t_ms if entries else 0)
        origin, owner, last_press = fold.origin, fold.owner, fold.last_press
        paused_at, paused = fold.paused_at, fold.paused  # paused time since the last press: not thinking
        for e in entries:
            data = e.data
            action = _fields(data, "action")
            program = data.get("program") if isinstance(data.get("program"), dict) else None
            if self.for_event:  # an event's time counts from its start; its tables' programs do not reset it
                new_clock = e.kind == "timer-start"
            else:  # a table's: from its creation, a fresh clock, or another event's program on it
                new_clock = e.kind in ("table-created", "set-clock") or (
                    program is not None and program.get("owner") != owner
                )
            if program is not None:
                owner = program.get("owner")
            if new_clock:
                origin, last_press, paused_at, paused = e.t_ms, None, None, 0
            elif e.kind == "pause" and paused_at is None:
                paused_at = e.t_ms
            elif e.kind == "resume" and paused_at is not None:
                paused += e.t_ms - paused_at
                paused_at = None
            think = ""
            if e.kind == "press" and data.get("outcome", "applied") in ("applied", "started"):
                if last_press is not None:
                    think = format_exact_ms(e.t_ms - last_press - paused)
                last_press, paused = e.t_ms, 0
            what = terms.entry(e.kind)
            side = data.get("side", action.get("side"))
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
        return rows, _Fold(origin, owner, last_press, paused_at, paused)

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
            text("gui.timeline.seq"),
            text("gui.timeline.since-start") if self.for_event else text("gui.timeline.since-set"),
            text("gui.timeline.think"),
            text("gui.timeline.event"),
            text("gui.timeline.details"),
        )
        return names[section]


def _fields(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` if it is an object (an action's fields), else nothing."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


_LABELS = {
    "winner": "gui.timeline.winner",
    "absent": "gui.timeline.absent",
    "clock_a": "gui.timeline.at-side-a",
    "player": "gui.timeline.player",
}


def _who(value: object, names: dict[int, str]) -> str:
    return (
        names.get(value, f"#{value}")
        if isinstance(value, int) and not isinstance(value, bool)
        else str(value)
    )


def _details(kind: str, data: dict[str, Any], names: dict[int, str]) -> str:
    """The details column: the fields a referee needs to read the entry, in words."""
    parts: list[str] = []
    action = _fields(data, "action")
    target = str(data.get("target", ""))
    if target.count("/") == 2:  # an item of an event: the match
        parts.append(target.rsplit("/", 1)[-1])
    match = data.get("match")
    if match and not parts:
        parts.append(str(match))
    if kind == "match-finished" and data.get("how"):
        parts.append(terms.entry("complete") if data["how"] == "complete" else terms.entry("flag"))
    program = data.get("program")
    if isinstance(program, dict):
        parts.append(terms.program(str(program.get("kind", ""))))
        if program.get("entry"):
            parts.append(str(program["entry"]))
    for key, label in _LABELS.items():
        who = action.get(key, data.get(key))
        if isinstance(who, int) and not isinstance(who, bool):
            parts.append(f"{text(label)}: {_who(who, names)}")
    if isinstance(action.get("table"), int):
        parts.append(text("gui.timeline.table", table=str(action["table"])))
    if action.get("entry"):
        parts.append(str(action["entry"]))
    outcome = data.get("outcome")
    if isinstance(outcome, str) and outcome and outcome != "applied":
        parts.append(terms.outcome(outcome))
    delta = action.get("delta_ms", data.get("delta_ms"))
    if isinstance(delta, int) and not isinstance(delta, bool):
        parts.append(signed_seconds(delta))
    control = action.get("control", data.get("control"))
    if control:
        parts.append(str(control))
    if action.get("seed") is not None:
        parts.append(text("gui.timeline.seed", seed=str(action["seed"])))
    if kind == "alert" and data.get("code"):
        params = data.get("data") if isinstance(data.get("data"), dict) else {}
        parts.append(render(Msg(code=str(data["code"]), params=params)))
    if kind == "timer-due" and isinstance(data.get("offset_ns"), int):
        offset_ms = data["offset_ns"] // 1_000_000
        parts.append(
            f"{terms.signal(str(data.get('what', 'signal')), offset_ms)} · {format_exact_ms(offset_ms)}"
        )
    note = action.get("text", data.get("text"))
    if note:
        parts.append(f"„{note}”")
    if data.get("device_t_ns") is not None:
        parts.append(text("gui.timeline.clocks-own-time-ns", ns=str(data["device_t_ns"])))
    if data.get("source") == "button":
        parts.append(text("gui.timeline.by-the-tables-button"))
    by = data.get("by")
    reason = action.get("reason", data.get("reason"))
    if by or reason:
        who = str(by or "")
        why = str(reason or "")
        parts.append(f"{who}: {why}" if who and why else who or why)
    return " · ".join(parts)


class TimelineView(QTableView):
    """The timeline of one table (or, ``event``, of a hall event); follows the newest entry unless
    the referee scrolled up."""

    def __init__(self, parent: QWidget | None = None, *, event: bool = False) -> None:
        super().__init__(parent)
        self.timeline = TimelineModel(self, event=event)
        self.setModel(self.timeline)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(20)
        header = self.horizontalHeader()
        # Widths follow the text, but measured by this view on new rows only: Qt's own
        # ResizeToContents measures every row on every change (a day at one table is thousands).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # The details fill what is left, but never less than their title: a Stretch section is
        # squeezed to nothing in a narrow panel ("zczegó"); the last section stretched keeps the
        # width it was given, and the view scrolls sideways instead.
        header.setStretchLastSection(True)
        f = QFont(SANS)
        f.setPixelSize(12)
        self.setFont(f)
        self.setWordWrap(False)
        self._widen(0)  # no entries yet: every title fits its column from the start

    def show_entries(self, entries: tuple[TimelineItem, ...]) -> None:
        if entries is self.timeline.entries:
            return
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        first = self.timeline.set_entries(entries)
        self._widen(first)
        if at_end:
            self.scrollToBottom()

    def _widen(self, first: int) -> None:
        """Widen the columns to the rows from ``first`` on (from 0: measure them all anew)."""
        metrics = self.fontMetrics()
        header = self.horizontalHeader()
        rows = self.timeline._rows
        for column in range(TimelineModel.COLUMNS - 1):
            widest = max((metrics.horizontalAdvance(str(r[column])) for r in rows[first:]), default=0)
            # the title as the header draws it (its own font, margins): never clipped
            needed = max(widest + 16, header.sectionSizeFromContents(column).width())
            if first == 0 or needed > header.sectionSize(column):
                header.resizeSection(column, needed)
        last = TimelineModel.COLUMNS - 1
        needed = header.sectionSizeFromContents(last).width()
        if header.sectionSize(last) < needed:
            header.resizeSection(last, needed)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.timeline.retranslate()
            self._widen(0)
        super().changeEvent(event)
