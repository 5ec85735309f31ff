"""The band at the top of both screens: the event, the session, and whether the daemon is there."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from gui.model import DeskState
from gui.style import DESK, HALL
from gui.widgets.painted import font


class HeaderBar(QWidget):
    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hall = hall
        pal = HALL if hall else DESK
        self.pal = pal
        self.setObjectName("header")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(
            f"#header {{ background: {pal.header}; }} "
            f"QLabel {{ background: transparent; color: {pal.header_text}; }}"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(24 if hall else 14, 8, 24 if hall else 14, 8)
        titles = QVBoxLayout()
        titles.setSpacing(0)
        self.title = QLabel(self)
        self.title.setFont(font(40 if hall else 20, bold=True))
        self.session = QLabel(self)
        self.session.setFont(font(22 if hall else 13))
        self.session.setStyleSheet(f"color: {pal.muted if hall else '#c8d3e0'};")
        titles.addWidget(self.title)
        titles.addWidget(self.session)
        layout.addLayout(titles, 1)
        self.status = QLabel(self)
        self.status.setFont(font(26 if hall else 13, bold=True))
        self.status.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.status)
        self.state = DeskState()

    def set_state(self, state: DeskState, *, status_text: str = "") -> None:
        self.state = state
        self.title.setText(state.title or "duelclock")
        stage = self._stage(state.stage) if not self.hall else ""
        self.session.setText(" · ".join(x for x in (state.session, stage) if x))
        if self.hall:
            self.status.setText(status_text)
            return
        colour, text = self._connection(state)
        self.status.setText(f"<span style='color:{colour}'>●</span> {text}")

    def _stage(self, stage: str | None) -> str:
        return {
            "registration": self.tr("sign-ups and check-in"),
            "draw": self.tr("check-in closed: the draw"),
            "bracket": self.tr("the duels"),
            "finished": self.tr("finished"),
        }.get(stage or "", "")

    def _connection(self, state: DeskState) -> tuple[str, str]:
        if state.connection == "connected":
            return "#7ee2a8", self.tr("connected to the daemon")
        if state.connection == "demo":
            return "#4da3ff", self.tr("DEMO — no daemon")
        if state.connection == "connecting":
            return "#ffd84d", self.tr("connecting…")
        return "#ff6b6b", self.tr("NO CONNECTION — times shown may be stale")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and not self.hall:
            self.set_state(self.state)
        super().changeEvent(event)
