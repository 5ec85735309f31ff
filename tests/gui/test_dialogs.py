"""The referee's dialogs accept nothing half-filled, and hand over exactly their command's fields."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from gui.demo import demo_state
from gui.dialogs import (
    AddPlayerDialog,
    AdjustDialog,
    AssignDialog,
    DrawDialog,
    NewSessionDialog,
    OverrideDialog,
    TossDialog,
)

STATE = demo_state(0)


def test_a_time_adjustment_needs_a_side_and_a_reason(qtbot: QtBot) -> None:
    d = AdjustDialog(STATE, 3)
    qtbot.addWidget(d)
    assert not d.ok_button().isEnabled()
    sides = d.sides.buttons()
    assert [b.text() for b in sides] == ["strona A — Stanisław Ź.", "strona B — Bartłomiej K."]
    sides[1].setChecked(True)
    assert not d.ok_button().isEnabled()  # still no reason
    d.seconds.setValue(-15)
    d.reason.setText("  dotknął elementów rywala ")
    assert d.ok_button().isEnabled()
    assert d.fields() == {"table": 3, "side": "b", "delta_ms": -15_000, "reason": "dotknął elementów rywala"}
    d.seconds.setValue(0)
    assert not d.ok_button().isEnabled()  # adding nothing is not an adjustment


def test_an_override_needs_a_winner_and_a_reason(qtbot: QtBot) -> None:
    match = STATE.bracket.matches["R2-2"]  # type: ignore[union-attr]
    d = OverrideDialog(STATE, match)
    qtbot.addWidget(d)
    assert [b.text() for b in d.winners.buttons()] == ["Jędrzej N.", "Małgorzata D."]
    d.winners.buttons()[0].setChecked(True)
    assert not d.ok_button().isEnabled()
    d.category.setCurrentIndex(1)
    d.reason.setText("spór o ostatni element")
    assert d.fields() == {"match": "R2-2", "winner": 5, "category": "disqualification",
                          "reason": "spór o ostatni element"}  # fmt: skip


def test_a_match_goes_only_to_a_free_table(qtbot: QtBot) -> None:
    bracket = STATE.bracket
    assert bracket is not None
    ready = bracket.matches["R3-1"].model_copy(update={"b": 8, "status": "ready"})
    matches = {**bracket.matches, "R3-1": ready}
    state = STATE.model_copy(update={"bracket": bracket.model_copy(update={"matches": matches})})
    d = AssignDialog(state, table=3)
    qtbot.addWidget(d)
    assert [d.match.itemData(i) for i in range(d.match.count())] == ["R3-1"]
    assert d.table.currentData() == 3 and "zajęty: R2-3" in d.table.currentText()
    assert not d.ok_button().isEnabled()  # table 3 is busy with a quarter-final
    d.table.setCurrentIndex(d.table.findData(1))
    assert d.ok_button().isEnabled()
    d.side_a.setCurrentIndex(1)
    assert d.fields() == {"match": "R3-1", "table": 1, "clock_a": 8}


def test_the_toss_is_one_click_on_the_winner(qtbot: QtBot) -> None:
    d = TossDialog(STATE, STATE.bracket.matches["R2-3"])  # type: ignore[union-attr]
    qtbot.addWidget(d)
    d.show()
    names = {b.text(): b for b in d.findChildren(QPushButton)}
    names["Bartłomiej K."].click()
    assert d.result() == d.DialogCode.Accepted
    assert d.fields() == {"match": "R2-3", "winner": 11}


def test_a_physical_draw_must_place_every_player_once(qtbot: QtBot) -> None:
    d = DrawDialog(STATE)
    qtbot.addWidget(d)
    assert d.ok_button().isEnabled() and "seed" in d.fields()  # the app's draw: a seed is enough
    d.tabs.setCurrentIndex(1)
    assert len(d.lines) == 16 and not d.ok_button().isEnabled()
    for i, box in enumerate(d.lines):
        box.setCurrentIndex(i + 1)
    assert d.ok_button().isEnabled()
    d.lines[1].setCurrentIndex(1)  # the same player on lines 1 and 2
    assert not d.ok_button().isEnabled()


def test_adding_a_player_and_a_session(qtbot: QtBot) -> None:
    d = AddPlayerDialog()
    qtbot.addWidget(d)
    assert not d.ok_button().isEnabled()
    d.first.setText("Oskar")
    d.last.setText("Fąfara")
    d.age.setValue(15)
    assert d.fields() == {
        "first_name": "Oskar", "last_name": "Fąfara", "nickname": "", "age": 15, "email": "", "phone": "",
        "walk_in": True,
    }  # fmt: skip
    s = NewSessionDialog()
    qtbot.addWidget(s)
    qtbot.keyClicks(s.key, "Sb 20!")  # only small letters, digits, - and _ are taken
    assert s.key.text() == "b20"
    s.name.setText("Sobota 20.06")
    assert s.ok_button().isEnabled() and s.fields() == {"session": "b20", "name": "Sobota 20.06"}
