"""The referee's dialogs: each asks only what its command needs and will not accept half of it.

A dialog's OK button stays disabled until every required field is filled (a time
adjustment needs a reason; an override needs a winner, a category and a reason), so a
command never leaves the desk incomplete. ``fields()`` returns exactly the fields of
the :class:`~gui.commands.Command` it is for.
"""

from __future__ import annotations

import secrets
from typing import Any

from PySide6.QtCore import QCoreApplication, QRegularExpression, Qt
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui import terms
from gui.model import Bracket, DeskState, Match, Side


class _Form(QDialog):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.form = QFormLayout()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

    def ok_button(self) -> QPushButton:
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert button is not None
        return button

    def revalidate(self) -> None:
        self.ok_button().setEnabled(self.valid())

    def valid(self) -> bool:
        return True

    def fields(self) -> dict[str, Any]:
        raise NotImplementedError


def _side_choice(
    parent: QWidget, state: DeskState, match: Match | None
) -> tuple[QButtonGroup, list[QRadioButton]]:
    group = QButtonGroup(parent)
    buttons = []
    for side in (Side.A, Side.B):
        player = match.at_clock(side) if match is not None else None
        label = QCoreApplication.translate("Dialogs", "side %1").replace("%1", side.value.upper())
        if player is not None:
            label += f" — {state.name(player)}"
        b = QRadioButton(label, parent)
        b.setProperty("side", side.value)
        group.addButton(b)
        buttons.append(b)
    return group, buttons


class AdjustDialog(_Form):
    """Add or remove time on one side of a table's clock, with a reason (it is journaled)."""

    def __init__(self, state: DeskState, table: int, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Adjust the time — table %1").replace("%1", str(table)), parent)
        self.table = table
        match = state.bracket.on_table(table) if state.bracket else None
        self.sides, radios = _side_choice(self, state, match)
        box = QWidget(self)
        row = QVBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        for r in radios:
            row.addWidget(r)
            r.toggled.connect(self.revalidate)
        self.form.addRow(self.tr("Side"), box)
        self.seconds = QSpinBox(self)
        self.seconds.setRange(-3600, 3600)
        self.seconds.setSuffix(" s")
        self.seconds.setValue(10)
        self.seconds.valueChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Add (negative: remove)"), self.seconds)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("why — required, it is journaled"))
        self.reason.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return (
            self.sides.checkedButton() is not None
            and self.seconds.value() != 0
            and bool(self.reason.text().strip())
        )

    def fields(self) -> dict[str, Any]:
        button = self.sides.checkedButton()
        assert button is not None
        return {
            "table": self.table,
            "side": str(button.property("side")),
            "delta_ms": self.seconds.value() * 1000,
            "reason": self.reason.text().strip(),
        }


class NoteDialog(_Form):
    def __init__(self, table: int, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Note in the timeline — table %1").replace("%1", str(table)), parent)
        self.table = table
        self.text = QLineEdit(self)
        self.text.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Note"), self.text)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.text.text().strip())

    def fields(self) -> dict[str, Any]:
        return {"table": self.table, "text": self.text.text().strip()}


def _player_choice(form: _Form, label: str, state: DeskState, match: Match) -> QButtonGroup:
    """A row of the form with one radio button per entrant of ``match``; each choice revalidates."""
    group = QButtonGroup(form)
    box = QWidget(form)
    col = QVBoxLayout(box)
    col.setContentsMargins(0, 0, 0, 0)
    for player in match.entrants:
        b = QRadioButton(state.name(player), box)
        b.setProperty("player", player)
        group.addButton(b)
        col.addWidget(b)
        b.toggled.connect(form.revalidate)
    form.form.addRow(label, box)
    return group


class OverrideDialog(_Form):
    """The referee decides a match (disqualification §8.1, a dispute §2.2.19)."""

    CATEGORIES = ("dispute", "disqualification", "other")

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Decide match %1").replace("%1", terms.match_label(match)), parent)
        self.match = match
        self.winners = _player_choice(self, self.tr("Winner"), state, match)
        self.category = QComboBox(self)
        labels = {
            "dispute": self.tr("dispute (§2.2.19)"),
            "disqualification": self.tr("disqualification (§8.1)"),
            "other": self.tr("other"),
        }
        for c in self.CATEGORIES:
            self.category.addItem(labels[c], c)
        self.form.addRow(self.tr("Why"), self.category)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("what happened — required, it is journaled"))
        self.reason.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return self.winners.checkedButton() is not None and bool(self.reason.text().strip())

    def fields(self) -> dict[str, Any]:
        button = self.winners.checkedButton()
        assert button is not None
        return {
            "match": self.match.id,
            "winner": int(button.property("player")),
            "category": self.category.currentData(),
            "reason": self.reason.text().strip(),
        }


class WalkoverDialog(_Form):
    """A player did not come to the table: the other advances."""

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Walkover in %1").replace("%1", terms.match_label(match)), parent)
        self.match = match
        self.absent = _player_choice(self, self.tr("Absent"), state, match)
        self.reason = QLineEdit(self)
        self.reason.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return self.absent.checkedButton() is not None and bool(self.reason.text().strip())

    def fields(self) -> dict[str, Any]:
        button = self.absent.checkedButton()
        assert button is not None
        return {
            "match": self.match.id,
            "absent": int(button.property("player")),
            "reason": self.reason.text(),
        }


class AssignDialog(_Form):
    """Put a match (or a tie-break) on a table: the table's clock is set for its round."""

    def __init__(
        self,
        state: DeskState,
        *,
        table: int | None = None,
        match: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(self.tr("Put a match on a table"), parent)
        self.state = state
        bracket = state.bracket or Bracket(rounds=())
        self.match = QComboBox(self)
        for m in sorted(bracket.matches.values(), key=lambda m: (m.round, m.slot, m.id)):
            if m.status != "ready" or len(m.entrants) != 2:
                continue
            text = f"{terms.match_label(m)}: {state.name(m.a)} – {state.name(m.b)}"
            self.match.addItem(text, m.id)
        if match is not None:
            i = self.match.findData(match)
            if i >= 0:
                self.match.setCurrentIndex(i)
        self.form.addRow(self.tr("Match"), self.match)
        self.table = QComboBox(self)
        for t in sorted(state.tables):
            busy = bracket.on_table(t)
            label = self.tr("Table %1").replace("%1", str(t))
            if busy is not None:
                label += " — " + self.tr("busy: %1").replace("%1", terms.match_label(busy))
            self.table.addItem(label, t)
        if table is not None:
            i = self.table.findData(table)
            if i >= 0:
                self.table.setCurrentIndex(i)
        self.form.addRow(self.tr("Table"), self.table)
        self.side_a = QComboBox(self)
        self.form.addRow(self.tr("Sits at side A"), self.side_a)
        self.match.currentIndexChanged.connect(self._match_changed)
        self.table.currentIndexChanged.connect(self.revalidate)
        self._match_changed()

    def _match_changed(self) -> None:
        self.side_a.clear()
        mid = self.match.currentData()
        m = self.state.bracket.matches.get(mid) if self.state.bracket and mid else None
        if m is not None:
            for p in m.entrants:
                self.side_a.addItem(self.state.name(p), p)
        self.revalidate()

    def valid(self) -> bool:
        if self.match.currentData() is None or self.table.currentData() is None:
            return False
        bracket = self.state.bracket
        return bracket is None or bracket.on_table(int(self.table.currentData())) is None

    def fields(self) -> dict[str, Any]:
        return {
            "match": self.match.currentData(),
            "table": int(self.table.currentData()),
            "clock_a": self.side_a.currentData(),
        }


class TossDialog(QDialog):
    """The puzzle toss (§2.2.7): one button per player; the winner's time runs first."""

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Toss — %1").replace("%1", terms.match_label(match)))
        self.match = match
        self.winner: int | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                self.tr("Who won the toss? Their time runs first; the other player starts the clock."), self
            )
        )
        grid = QGridLayout()
        for i, player in enumerate(match.entrants):
            b = QPushButton(state.name(player), self)
            b.setMinimumHeight(48)
            b.clicked.connect(lambda _=False, p=player: self._choose(p))
            grid.addWidget(b, 0, i)
        layout.addLayout(grid)
        cancel = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        cancel.rejected.connect(self.reject)
        layout.addWidget(cancel)

    def _choose(self, player: int) -> None:
        self.winner = player
        self.accept()

    def fields(self) -> dict[str, Any]:
        return {"match": self.match.id, "winner": self.winner}


class DrawDialog(_Form):
    """The draw (§2.2.1): by the app with a recorded seed, or the lines the players drew by hand."""

    def __init__(self, state: DeskState, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("The draw"), parent)
        self.state = state
        self.tabs = QTabWidget(self)
        seeded = QWidget(self)
        seeded_form = QFormLayout(seeded)
        self.seed = QSpinBox(seeded)
        self.seed.setRange(1, 2_000_000_000)
        self.seed.setValue(secrets.randbelow(999_999) + 1)
        seeded_form.addRow(self.tr("Seed (recorded; anyone can re-run the draw)"), self.seed)
        self.tabs.addTab(seeded, self.tr("Drawn by the app"))
        physical = QWidget(self)
        grid = QFormLayout(physical)
        self.lines: list[QComboBox] = []
        field = sorted((p for p in state.players.values() if p.in_field), key=lambda p: p.display_name)
        for line in range(1, max(2, len(field)) + 1):
            box = QComboBox(physical)
            box.addItem("—", None)
            for p in field:
                box.addItem(p.display_name, p.id)
            box.currentIndexChanged.connect(self.revalidate)
            self.lines.append(box)
            grid.addRow(self.tr("Line %1").replace("%1", str(line)), box)
        self.tabs.addTab(physical, self.tr("Drawn at the table"))
        self.tabs.currentChanged.connect(self.revalidate)
        self.form.addRow(self.tabs)
        self.revalidate()

    def valid(self) -> bool:
        if self.tabs.currentIndex() == 0:
            return True
        chosen = [b.currentData() for b in self.lines]
        return None not in chosen and len(set(chosen)) == len(chosen)

    def fields(self) -> dict[str, Any]:
        if self.tabs.currentIndex() == 0:
            return {"seed": self.seed.value()}
        return {"lines": {i + 1: int(b.currentData()) for i, b in enumerate(self.lines)}}


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts, as the actions themselves define them (so this never goes stale)."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        layout = QGridLayout(self)
        for i, (keys, what) in enumerate(rows):
            k = QLabel(f"<b>{keys}</b>", self)
            k.setTextFormat(Qt.TextFormat.RichText)
            layout.addWidget(k, i, 0)
            layout.addWidget(QLabel(what, self), i, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout.addWidget(close, len(rows), 0, 1, 2)


class AddPlayerDialog(_Form):
    """A person typed in at the desk: a late sign-up, or a walk-in on the day (§1.19)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Add a player"), parent)
        self.first = QLineEdit(self)
        self.first.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("First name"), self.first)
        self.last = QLineEdit(self)
        self.form.addRow(self.tr("Surname"), self.last)
        self.nickname = QLineEdit(self)
        self.nickname.setPlaceholderText(self.tr("optional: the name on the screens"))
        self.form.addRow(self.tr("Nickname"), self.nickname)
        self.age = QSpinBox(self)
        self.age.setRange(0, 130)
        self.age.setValue(18)
        self.form.addRow(self.tr("Age"), self.age)
        self.email = QLineEdit(self)
        self.form.addRow(self.tr("E-mail"), self.email)
        self.phone = QLineEdit(self)
        self.form.addRow(self.tr("Phone"), self.phone)
        self.walk_in = QCheckBox(self.tr("walk-in: waiting at the desk now (§1.19)"), self)
        self.walk_in.setChecked(True)
        self.form.addRow("", self.walk_in)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.first.text().strip())

    def fields(self) -> dict[str, Any]:
        return {
            "first_name": self.first.text().strip(),
            "last_name": self.last.text().strip(),
            "nickname": self.nickname.text().strip(),
            "age": self.age.value(),
            "email": self.email.text().strip(),
            "phone": self.phone.text().strip(),
            "walk_in": self.walk_in.isChecked(),
        }


class NewSessionDialog(_Form):
    """A new tournament session on the festival's rules: a short key and the name screens show."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("New session"), parent)
        self.key = QLineEdit(self)
        self.key.setPlaceholderText(self.tr("e.g. pt, sb, nd — small letters, digits, - or _"))
        self.key.setValidator(QRegularExpressionValidator(QRegularExpression(r"[a-z0-9_-]{1,40}"), self.key))
        self.key.textChanged.connect(self.revalidate)
        self.form.addRow(self.tr("Key"), self.key)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. Friday 19.06, 15:00–17:30"))
        self.form.addRow(self.tr("Name"), self.name)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.key.text())

    def fields(self) -> dict[str, Any]:
        return {"session": self.key.text(), "name": self.name.text().strip()}
