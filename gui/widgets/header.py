"""The band at the top of both screens: the event shown, where it stands, and whether the daemon is there."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from clockd.i18n import render, text
from gui import terms
from gui.model import DeskState
from gui.style import DESK, HALL
from gui.widgets.painted import font


def titles(state: DeskState, *, phase: bool = True) -> tuple[str, str]:
    """The header's two lines for the event shown: a session's tournament over its name and
    stage; a hall event's name over its kind and (``phase``) the timer's phase."""
    event = state.event
    if event is None:
        return "duelclock", ""
    name = render(event.title)
    if event.session is not None:
        return event.session.tournament or name, " · ".join(
            x for x in (name, terms.stage(event.session.stage)) if x
        )
    if event.hall is not None:
        kind = terms.event_kind(event.kind)
        return name, f"{kind} · {terms.timer_phase(event.hall.timer.phase)}" if phase else kind
    return name, terms.event_kind(event.kind)


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
            f"#header QLabel {{ background: transparent; color: {pal.header_text}; }}"
        )
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(24 if hall else 14, 8, 24 if hall else 14, 8)
        lines = QVBoxLayout()
        lines.setSpacing(0)
        self.title = QLabel(self)
        self.title.setFont(font(40 if hall else 20, bold=True))
        self.session = QLabel(self)
        self.session.setFont(font(22 if hall else 13))
        self.session.setStyleSheet(f"color: {pal.muted if hall else '#c8d3e0'};")
        lines.addWidget(self.title)
        lines.addWidget(self.session)
        self.row.addLayout(lines, 1)
        self.status = QLabel(self)
        self.status.setFont(font(26 if hall else 13, bold=True))
        self.status.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.row.addWidget(self.status)
        self.state = DeskState()

    def add_widget(self, widget: QWidget) -> None:
        """A control beside the titles (the referee's list of events)."""
        self.row.insertWidget(1, widget)

    def set_state(self, state: DeskState, *, status_text: str = "") -> None:
        self.state = state
        title, line = titles(state, phase=not self.hall)  # the audience has the phase above its big time
        self.title.setText(title)
        self.session.setText(line)
        if self.hall:
            self.status.setText(status_text)
            return
        colour, text = self._connection(state)
        self.status.setText(f"<span style='color:{colour}'>●</span> {text}")
        self.status.setToolTip(render(state.connection_detail) if state.connection_detail else "")

    def _connection(self, state: DeskState) -> tuple[str, str]:
        if state.connection == "connected":
            return "#7ee2a8", text("gui.header.connected-to-the-daemon")
        if state.connection == "demo":
            return "#4da3ff", text("gui.header.demo-no-daemon")
        if state.connection == "connecting":
            return "#ffd84d", text("gui.header.connecting")
        return "#ff6b6b", text("gui.header.no-connection-times-shown-may")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and not self.hall:  # the audience redraws its own
            self.set_state(self.state)
        super().changeEvent(event)
