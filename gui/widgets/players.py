"""Check-in: the main list, the reserves in their order, walk-ins; who is here.

This is the referee's list, so it shows what the referee needs to find a missing player
(full name, phone, where a state holds them) — it is never part of a public screen. The
actions on the selected player (check in, check out, withdraw) are enabled from what the
daemon says of that player. At T−10 the referee closes
check-in: absent seats go to the reserves in order (§1.18), then to walk-ins (§1.19).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

import clockd.i18n
from clockd.core.people import fold_name
from clockd.i18n import render, text
from gui import terms
from gui.model import DeskState, Player, PossibleDuplicate, Refusal

_LIST_ORDER = {"main": 0, "reserve": 1, "walk-in": 2}


class PlayersTable(QTableWidget):
    """One row per player; ``player_activated`` on double-click or Enter (toggle presence)."""

    player_activated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 6, parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.setAlternatingRowColors(True)
        self.itemActivated.connect(lambda item: self._activated(item.row()))
        self.desk = DeskState()
        self._filter = ""
        self._retranslate_headers()

    def _retranslate_headers(self) -> None:
        self.setHorizontalHeaderLabels(
            [
                text("gui.players.list"),
                text("gui.players.no"),
                text("gui.players.display-name"),
                text("gui.players.full-name"),
                text("gui.players.phone"),
                text("gui.players.status"),
            ]
        )

    def _player_at(self, row: int) -> int | None:
        item = self.item(row, 0)
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def _activated(self, row: int) -> None:
        player = self._player_at(row)
        if player is not None:
            self.player_activated.emit(player)

    def selected_player(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        return self._player_at(rows[0].row()) if rows else None

    def set_state(self, state: DeskState) -> None:
        self.desk = state
        chosen = self.selected_player()
        players = sorted(state.players.values(), key=lambda p: (_LIST_ORDER.get(p.list, 3), p.order, p.id))
        self.setRowCount(len(players))
        for row, p in enumerate(players):
            # one numbering with the CLI: "No." is the player's number every command takes;
            # a reserve's place in the queue (§1.18) goes with its list
            listed = self._list_name(p) + (f" {p.order}" if p.list == "reserve" else "")
            cells = [listed, str(p.id), p.display_name, p.full_name, p.phone, self._status(p)]
            for col, cell in enumerate(cells):
                item = QTableWidgetItem(cell)
                if col == 0:
                    item.setData(Qt.ItemDataRole.UserRole, p.id)
                if p.presence == "present":
                    item.setForeground(QColor("#0f5132"))
                elif p.presence in ("absent", "withdrawn"):
                    item.setForeground(QColor("#8a95a3"))
                self.setItem(row, col, item)
            if p.id == chosen:
                self.selectRow(row)
        self._apply_filter()
        # the daemon's API gives public names only; show the private columns only when there is data
        for col, name in ((3, "full_name"), (4, "phone")):
            self.setColumnHidden(col, not any(getattr(p, name) for p in players))

    def set_filter(self, text: str) -> None:
        """Show only the players whose number is ``text`` or whose name has it (case and
        diacritics aside): the referee types what the person at the desk says."""
        self._filter = fold_name(text)
        self._apply_filter()

    def _apply_filter(self) -> None:
        for row in range(self.rowCount()):
            number, name = self.item(row, 1), self.item(row, 2)
            words = fold_name(f"{name.text() if name else ''}")
            shown = not self._filter or (number is not None and number.text() == self._filter)
            shown = shown or self._filter in words
            self.setRowHidden(row, not shown)

    def select_only_match(self) -> bool:
        """Select the one row the filter leaves, if only one is left."""
        shown = [row for row in range(self.rowCount()) if not self.isRowHidden(row)]
        if len(shown) != 1:
            return False
        self.selectRow(shown[0])
        return True

    def _list_name(self, p: Player) -> str:
        return terms.list_name(p.list)

    def _status(self, p: Player) -> str:
        words = {
            "expected": text("gui.players.not-here-yet"),
            "present": text("gui.players.present"),
            "absent": text("gui.players.absent"),
            "withdrawn": text("gui.players.withdrawn"),
        }
        label = words[p.presence]
        if p.in_field:
            label += " · " + text("gui.players.in-the-bracket")
        if p.took_seat_of is not None:
            label += " · " + text("gui.players.in-place-of", player=self.desk.name(p.took_seat_of))
        return label

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate_headers()
            self.set_state(self.desk)
        super().changeEvent(event)


class RefusalsLabel(QLabel):
    """Who the sign-up rules left out and why, so the referee can tell each of them.

    Under 13 (§1.9), a second sign-up of the same person (§1.14), or no room left on the
    main and reserve lists (§1.11). Hidden when nobody was refused.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("color: #8a1c1c;")
        self.refusals: tuple[Refusal, ...] = ()
        self.possible_duplicates: tuple[PossibleDuplicate, ...] = ()
        self.setVisible(False)

    def set_state(self, state: DeskState) -> None:
        self.refusals = state.refusals
        self.possible_duplicates = state.possible_duplicates
        self._render()

    def _render(self) -> None:
        self.setVisible(bool(self.refusals or self.possible_duplicates))
        lines: list[str] = []
        if self.refusals:
            lines.append(text("gui.players.refused-sign-ups", refused=str(len(self.refusals))))
            lines += [
                text("gui.players.line", line=str(r.line), name=r.name, why=self.why(r))
                for r in self.refusals
            ]
        if self.possible_duplicates:  # the referee decides (§1.14): the same words as the CLI's
            lines.append(clockd.i18n.text("cli.tournament.possible-duplicates"))
            lines += [
                clockd.i18n.text(
                    "cli.tournament.possible-duplicate", line=d.line, name=d.name, same_as=d.same_as
                )
                for d in self.possible_duplicates
            ]
        self.setText("\n".join(lines))

    def why(self, r: Refusal) -> str:
        """The daemon's sentence for the refusal, or the catalogue's word for its reason."""
        return render(r.detail) if r.detail is not None else clockd.i18n.text(f"term.refusal.{r.reason}")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._render()
        super().changeEvent(event)
