"""The desk's window on people's data (RODO): find a person, see and export what is held,
restrict its processing, erase it — the token holder's rights of ``duelclock person``.

Nothing here decides: each look is the daemon's ``person`` request, which it journals as the
audit's record (who, when, why), and each change is the daemon's action (``person-restrict``,
``person-erase``), refused with the daemon's reason. The reason is asked first, because the
daemon refuses a look without one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clockd.core.registry import PersonErase, PersonRestrict
from clockd.i18n import Msg, render, text


class PeopleDialog(QDialog):
    """Find people by name, e-mail or phone; export, restrict or erase one (token only)."""

    def __init__(self, connection: Any, send: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.connection = connection
        self.send = send  # the window's command sink: (target, action)
        self.people: list[Any] = []
        self.setWindowTitle(text("gui.people.people-and-their-data-rodo"))
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(text("gui.people.name-e-mail-or-phone"))
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(text("gui.people.why-required-every-look-is"))
        self.find_button = QPushButton(text("gui.people.find"), self)
        self.find_button.clicked.connect(self.look_up)
        self.search.returnPressed.connect(self.look_up)
        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels(
            [
                text("gui.people.person"),
                text("gui.people.name"),
                text("gui.people.e-mail"),
                text("gui.people.phone"),
                text("gui.people.events"),
            ]
        )
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.export_button = QPushButton(text("gui.people.export-for-the-person"), self)
        self.export_button.clicked.connect(self.export)
        self.restrict_button = QPushButton(text("gui.people.restrict-processing"), self)
        self.restrict_button.clicked.connect(self.restrict)
        self.erase_button = QPushButton(text("gui.people.erase-dialog"), self)
        self.erase_button.clicked.connect(self.erase)
        row = QHBoxLayout()
        row.addWidget(self.search, 2)
        row.addWidget(self.reason, 2)
        row.addWidget(self.find_button)
        buttons = QHBoxLayout()
        for b in (self.export_button, self.restrict_button, self.erase_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self.resize(900, 420)

    # -- asking the daemon -------------------------------------------------------------------
    def _why(self) -> str | None:
        why = self.reason.text().strip()
        if not why:
            self.status.setText(text("gui.people.say-why-first-every-look"))
            self.reason.setFocus()
            return None
        return why

    def look_up(self) -> None:
        why = self._why()
        if why is None or not self.search.text().strip():
            return
        self.status.setText(text("gui.people.asking-the-daemon"))
        self.connection.people("find", reason=why, text=self.search.text().strip(), done=self._found)

    def _found(self, answer: Any) -> None:
        if isinstance(answer, Msg):
            self.status.setText(render(answer))
            return
        self.people = list(answer.people)
        self.table.setRowCount(len(self.people))
        for r, person in enumerate(self.people):
            first = person.sources[0].person if person.sources else None
            name = f"{first.first_name} {first.last_name}".strip() if first else ""
            events = ", ".join(sorted({s.event for s in person.sources}))
            cells = [
                person.person_id,
                name,
                first.email if first else "",
                first.phone if first else "",
                events,
            ]
            for c, value in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(value))
        self.table.resizeColumnsToContents()
        self.status.setText(
            text("gui.people.found-recorded-in-the-journal", found=str(len(self.people)), seq=str(answer.seq))
        )

    def _selected(self) -> str | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        if len(rows) != 1:
            self.status.setText(text("gui.people.choose-one-person-in-the"))
            return None
        return str(self.people[rows.pop()].person_id)

    def export(self, path: str | None = None) -> None:
        person, why = self._selected(), self._why()
        if person is None or why is None:
            return
        if not path:
            path, _ = QFileDialog.getSaveFileName(
                self, text("gui.people.save-the-persons-data"), f"{person}.json", "JSON (*.json)"
            )
        if not path:
            return
        target = Path(path)

        def save(answer: Any) -> None:
            if isinstance(answer, Msg):
                self.status.setText(render(answer))
                return
            data = [p.model_dump(mode="json") for p in answer.people]
            target.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            target.chmod(0o600)
            self.status.setText(text("gui.people.saved", target=str(target)))

        self.connection.people("export", reason=why, person=person, done=save)

    def restrict(self) -> None:
        person, why = self._selected(), self._why()
        if person is not None and why is not None:
            self.send("", PersonRestrict(person=person, reason=why))
            self.status.setText(text("gui.people.sent-restrict", person=person))

    def erase(self, confirmed: bool = False) -> None:
        person, why = self._selected(), self._why()
        if person is None or why is None:
            return
        if not confirmed:
            answer = QMessageBox.question(
                self,
                text("gui.people.erase"),
                text("gui.people.erase-everything-held-about-results", person=person),
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.send("", PersonErase(person=person, reason=why))
        self.status.setText(text("gui.people.sent-erase", person=person))
