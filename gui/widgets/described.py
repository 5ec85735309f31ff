"""An event of any kind, drawn from what the daemon describes: its lines, its actions, their forms.

The desk knows some kinds by heart (a session's bracket, a hall timer's panel, a chess
group's boards). Every other kind — one added as a folder (:mod:`clockd.kinds`) — is drawn
here from the daemon's own words, with no line of code for it:

* :class:`ShownWidget` paints the event's ``shown`` lines (:class:`clockd.api.shown.Shown`):
  a label and its value, a running time carried forward on the GUI's clock from the
  instant the view arrived. The same widget, ``hall=True``, is the audience screen's.
* :class:`DescribedPanel` adds a button for each action the event's view lists, enabled
  when the daemon allows it now, its tooltip the daemon's reason when not.
* :class:`FieldsDialog` asks for an action's fields as its description says
  (:class:`clockd.api.describe.ActionDescription`): a number within its limits, a text
  within its length, a yes/no, one of its choices, a time in seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRect
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clockd.api.describe import ActionDescription, Described, FieldDescription
from clockd.api.shown import Pick
from clockd.core.actions import Action
from clockd.core.units import MS
from clockd.i18n import msg, render
from gui.model import DeskState, Event
from gui.widgets.painted import CENTER, LEFT, RIGHT, DeskWidget, Item, fit_text, font

#: Actions every event has that the desk offers elsewhere (the alerts' own button).
_ELSEWHERE = frozenset({"event-clear-alert"})


def described_kind(state: DeskState) -> bool:
    """Whether the shown event is one the desk draws from the daemon's words: of a kind it has
    no panel of (no session, hall timer or chess group), that says what it shows."""
    ev = state.event
    return ev is not None and ev.session is None and ev.hall is None and ev.chess is None and bool(ev.shown)


def shown_value(event: Event, row_index: int, now_ns: int) -> str:
    """Line ``row_index``'s value as shown at ``now_ns`` (a running time moved on)."""
    row = event.shown[row_index]
    if row.ms is not None:
        since_ms = max(0, (now_ns - event.received_ns) // MS) if event.received_ns else 0
        ms = row.ms_at(since_ms) or 0
        return render(msg("shown.left" if row.time == "left" else "shown.gone", ms=ms))
    return render(row.text) if row.text is not None else ""


class ShownWidget(DeskWidget):
    """The shown event's title and lines (see the module docstring)."""

    def relayout(self) -> None:
        self.boxes, self.items, self.lines = [], [], []
        pal = self.palette_
        ev = self.state.event
        w, h = self.width(), self.height()
        if ev is None:
            self.update()
            return
        margin = max(8, int(min(w, h) * 0.03))
        rows = len(ev.shown) + 1
        line_h = max(24, (h - 2 * margin) // max(2, rows + 1))
        title, tf = fit_text(
            render(ev.title), QRect(margin, margin, w - 2 * margin, line_h), line_h * 0.6, bold=True
        )
        self.items.append(
            Item(QRect(margin, margin, w - 2 * margin, line_h), title, "title", "", tf, pal.text, CENTER)
        )
        y = margin + line_h
        for i, row in enumerate(ev.shown):
            big = i == 0 and row.ms is not None
            height = line_h * 2 if big else line_h
            label = QRect(margin, y, (w - 2 * margin) // 2, height)
            value = QRect(margin + (w - 2 * margin) // 2, y, (w - 2 * margin) // 2, height)
            lt, lf = fit_text(render(row.label), label, height * (0.35 if big else 0.5))
            vt, vf = fit_text(
                shown_value(ev, i, self.now_ns), value, height * (0.8 if big else 0.55), bold=True
            )
            self.items.append(Item(label, lt, "shown-label", str(i), lf, pal.muted, LEFT))
            self.items.append(Item(value, vt, "shown-value", str(i), vf, pal.text, RIGHT))
            y += height
        self.update()

    def tick(self, now_ns: int) -> None:
        """A running time moves on: redraw only when what it shows has changed."""
        ev = self.state.event
        if ev is None or not any(r.running for r in ev.shown):
            return
        before = [i.text for i in self.items_with(role="shown-value")]
        self.now_ns = now_ns
        after = [shown_value(ev, i, now_ns) for i in range(len(ev.shown))]
        if after != before:
            self.relayout()


def field_widget(field: FieldDescription, parent: QWidget, picks: tuple[Pick, ...] | None = None) -> QWidget:
    """The input for one field, within its description's limits; a field the daemon gave
    ``picks`` for offers exactly those (an entry still to finish, a seat)."""
    if picks is not None:
        combo = QComboBox(parent)
        for pick in picks:
            combo.addItem(render(pick.label), pick.value)
        return combo
    if field.type == "boolean":
        box = QCheckBox(parent)
        box.setChecked(bool(field.default))
        return box
    if field.type == "choice":
        combo = QComboBox(parent)
        for choice in field.choices:
            combo.addItem(str(choice), choice)
        return combo
    if field.type == "integer":
        spin = QSpinBox(parent)
        spin.setRange(
            int(field.minimum if field.minimum is not None else -(2**31)),
            int(field.maximum if field.maximum is not None else 2**31 - 1),
        )
        spin.setValue(int(field.default or max(0, spin.minimum())))
        return spin
    if field.type == "ms":
        seconds = QDoubleSpinBox(parent)
        seconds.setDecimals(1)
        seconds.setRange(
            (field.minimum if field.minimum is not None else -86_400_000) / 1000,
            (field.maximum if field.maximum is not None else 86_400_000) / 1000,
        )
        seconds.setSuffix(" s")
        seconds.setValue((field.default or 0) / 1000)
        return seconds
    line = QLineEdit(parent)
    if field.max_length is not None:
        line.setMaxLength(field.max_length)
    if isinstance(field.default, str):
        line.setText(field.default)
    return line


def field_value(field: FieldDescription, widget: QWidget) -> Any:
    """What the person gave (``None``: left empty, so the action's default holds)."""
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentData()
    if isinstance(widget, QDoubleSpinBox):
        return round(widget.value() * 1000)
    if isinstance(widget, QSpinBox):
        return widget.value()
    assert isinstance(widget, QLineEdit)
    typed = widget.text().strip()
    if field.type == "list":
        return [part.strip() for part in typed.split(",") if part.strip()] if typed else None
    return typed if typed or field.required else None


class FieldsDialog(QDialog):
    """An action's form, built from its description; :meth:`action` is what to send."""

    def __init__(
        self,
        description: ActionDescription,
        parent: QWidget | None = None,
        *,
        picks: dict[str, tuple[Pick, ...]] | None = None,
        given: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self.description = description
        self.setWindowTitle(render(description.title))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        layout.addLayout(form)
        self.inputs: dict[str, QWidget] = {}
        for field in description.fields:
            widget = field_widget(field, self, (picks or {}).get(field.name))
            widget.setObjectName(field.name)
            if given and field.name in given:
                _preset(widget, given[field.name])
            label = render(field.help) if field.help is not None else field.name
            form.addRow(label + ("" if not field.required else " *"), widget)
            self.inputs[field.name] = widget
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        for widget in self.inputs.values():  # OK only once every required field is given
            for signal in ("textChanged", "currentIndexChanged", "valueChanged", "toggled"):
                if hasattr(widget, signal):
                    getattr(widget, signal).connect(self.revalidate)
        self.revalidate()

    def valid(self) -> bool:
        """Every required field has a value (a text, a choice): the rest is the daemon's to check."""
        for f in self.description.fields:
            widget = self.inputs[f.name]
            if f.required and isinstance(widget, QLineEdit) and not widget.text().strip():
                return False
            if isinstance(widget, QComboBox) and widget.currentData() is None and f.required:
                return False
        return True

    def revalidate(self, *_: object) -> None:
        if self.ok is not None:
            self.ok.setEnabled(self.valid())

    def action(self) -> Action:
        fields = {
            f.name: value
            for f in self.description.fields
            if (value := field_value(f, self.inputs[f.name])) is not None
        }
        return Described(kind=self.description.name, **fields)


def _preset(widget: QWidget, value: Any) -> None:
    """A field's value given beforehand (the entry clicked, the table selected)."""
    if isinstance(widget, QComboBox):
        index = widget.findData(value)
        if index >= 0:
            widget.setCurrentIndex(index)
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QDoubleSpinBox):
        widget.setValue(float(value) / 1000)
    elif isinstance(widget, QSpinBox):
        widget.setValue(int(value))
    elif isinstance(widget, QLineEdit):
        widget.setText(str(value))


#: How the panel asks for an action's fields, given the daemon's picks and the values known
#: beforehand (a test answers instead of a person).
Ask = Callable[..., Action | None]


def ask_with_dialog(
    description: ActionDescription,
    parent: QWidget,
    *,
    picks: dict[str, tuple[Pick, ...]] | None = None,
    given: dict[str, Any] | None = None,
) -> Action | None:
    """The action's form (none for an action without fields, or with every field given)."""
    if all(f.name in (given or {}) for f in description.fields):
        return Described(kind=description.name, **(given or {}))
    dialog = FieldsDialog(description, parent, picks=picks, given=given)
    return dialog.action() if dialog.exec() == QDialog.DialogCode.Accepted else None


class DescribedPanel(QWidget):
    """An event of a kind the desk has no panel of: its lines and a button per action."""

    def __init__(
        self, send: Callable[[str, Action], None], parent: QWidget | None = None, ask: Ask = ask_with_dialog
    ) -> None:
        super().__init__(parent)
        self.send = send
        self.ask = ask
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.shown = ShownWidget(parent=self)
        layout.addWidget(self.shown, 1)
        self.row = QHBoxLayout()
        layout.addLayout(self.row)
        self.buttons: dict[str, QPushButton] = {}
        self._offered: tuple[str, ...] = ()

    def set_state(self, state: DeskState, now_ns: int) -> None:
        self.shown.set_state(state, now_ns)
        ev = state.event
        offered = tuple(sorted(a for a in (ev.actions if ev is not None else {}) if a not in _ELSEWHERE))
        if offered != self._offered:
            for button in self.buttons.values():
                self.row.removeWidget(button)
                button.deleteLater()
            self.buttons = {}
            for name in offered:
                button = QPushButton(self)
                button.setObjectName(name)
                button.setFont(font(14))
                button.clicked.connect(lambda _=False, n=name: self._clicked(n))
                self.row.addWidget(button)
                self.buttons[name] = button
            self._offered = offered
        if ev is None:
            return
        described = state.described
        for name, button in self.buttons.items():
            description = described.action(name) if described is not None else None
            button.setText(render(description.title) if description is not None else name)
            reason = ev.actions.get(name)
            button.setEnabled(reason is None and description is not None)
            button.setToolTip(
                render(reason)
                if reason is not None
                else render(description.help)
                if description and description.help
                else ""
            )

    def tick(self, now_ns: int) -> None:
        self.shown.tick(now_ns)

    def _clicked(self, name: str) -> None:
        ev = self.shown.state.event
        if ev is not None:
            self.do(ev.id, name)

    def do(self, event_id: str, name: str, given: dict[str, Any] | None = None) -> None:
        """Ask for action ``name``'s fields (its description's form, the event's picks offered,
        ``given`` filled in) and send it to the event."""
        state = self.shown.state
        description = state.described.action(name) if state.described is not None else None
        event = state.events.get(event_id)
        if description is None or event is None:
            return
        action = self.ask(description, self, picks=event.picks.get(name, {}), given=given)
        if action is not None:
            self.send(event_id, action)


__all__ = ["DescribedPanel", "FieldsDialog", "ShownWidget", "described_kind", "shown_value"]
