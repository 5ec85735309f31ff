"""The referee's dialogs accept nothing half-filled, and hand over exactly the core's action."""

from __future__ import annotations

import tomllib

from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Override, OverrideReason, StartTiebreak, Toss
from clockd.core.clock import Adjust, Side
from clockd.core.hall import FinishEntry, HallEventConfig
from clockd.core.puzzle_duel import MakeDraw
from clockd.core.registration import AddPlayer
from clockd.core.units import MINUTE
from gui.demo import demo_state
from gui.dialogs import (
    AddPlayerDialog,
    AdjustDialog,
    AssignDialog,
    DrawDialog,
    FinishDialog,
    NewSessionDialog,
    NewTimerDialog,
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
    assert d.action() == Adjust(side=Side.B, delta_ms=-15_000, reason="dotknął elementów rywala")
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
    assert d.action() == Override(
        winner=5, category=OverrideReason.DISQUALIFICATION, reason="spór o ostatni element"
    )


def test_a_match_goes_on_a_table_the_referee_picks_and_busy_tables_say_by_what(qtbot: QtBot) -> None:
    bracket = STATE.bracket
    assert bracket is not None
    allowed = [m for m in bracket.matches.values() if m.actions.get("match-assign") is None]
    assert [m.id for m in allowed] == ["R2-3", "R2-4"]  # the daemon's word: what may go on a table now
    d = AssignDialog(STATE, allowed, table=3, match="R2-4")
    qtbot.addWidget(d)
    assert [d.match.itemData(i) for i in range(d.match.count())] == ["R2-3", "R2-4"]
    assert d.match.currentData() == "R2-4"
    assert d.table.currentData() == 3 and "zajęty: R2-3" in d.table.currentText()
    assert "zajęty" not in d.table.itemText(d.table.findData(1))  # the table's own clock: free
    d.table.setCurrentIndex(d.table.findData(1))
    assert d.ok_button().isEnabled()
    d.side_a.setCurrentIndex(1)
    assert d.action() == ("R2-4", Assign(table=1, clock_a=16))


def test_a_tie_break_asks_only_for_its_table(qtbot: QtBot) -> None:
    bracket = STATE.bracket
    assert bracket is not None
    d = AssignDialog.for_tiebreak(STATE, bracket.matches["R1-6-TB1"], table=5)
    qtbot.addWidget(d)
    assert d.windowTitle() == "Dogrywka meczu R1-6"
    assert not d.side_a.isEnabled()  # the players keep their seats
    assert d.tiebreak_action() == StartTiebreak(table=5)


def test_the_toss_is_one_click_on_the_winner(qtbot: QtBot) -> None:
    d = TossDialog(STATE, STATE.bracket.matches["R2-3"])  # type: ignore[union-attr]
    qtbot.addWidget(d)
    d.show()
    names = {b.text(): b for b in d.findChildren(QPushButton)}
    names["Bartłomiej K."].click()
    assert d.result() == d.DialogCode.Accepted
    assert d.action() == Toss(winner=11)


def test_a_physical_draw_must_place_every_player_once(qtbot: QtBot) -> None:
    d = DrawDialog(STATE)
    qtbot.addWidget(d)
    assert d.ok_button().isEnabled() and d.action().seed is not None  # the app's draw: a seed is enough
    d.tabs.setCurrentIndex(1)
    assert len(d.lines) == 16 and not d.ok_button().isEnabled()
    for i, box in enumerate(d.lines):
        box.setCurrentIndex(i + 1)
    assert d.ok_button().isEnabled()
    assert isinstance(d.action(), MakeDraw) and len(d.action().lines or {}) == 16
    d.lines[1].setCurrentIndex(1)  # the same player on lines 1 and 2
    assert not d.ok_button().isEnabled()


def test_adding_a_player_and_a_session(qtbot: QtBot) -> None:
    d = AddPlayerDialog()
    qtbot.addWidget(d)
    assert not d.ok_button().isEnabled()
    d.first.setText("Oskar")
    d.last.setText("Fąfara")
    d.age.setValue(15)
    assert d.action() == AddPlayer(first_name="Oskar", last_name="Fąfara", age=15, walk_in=True)
    s = NewSessionDialog()
    qtbot.addWidget(s)
    qtbot.keyClicks(s.key, "1sb-20!")  # an event's key starts with a letter; no "!"
    assert s.key.text() == "sb-20"
    s.name.setText("Sobota 20.06")
    assert s.ok_button().isEnabled()
    assert s.action() == CreateEvent(event_kind="puzzle-duel", key="sb-20", name="Sobota 20.06")


def test_a_new_timed_event_is_written_as_the_core_reads_it(qtbot: QtBot) -> None:
    d = NewTimerDialog([5, 6, 7])
    qtbot.addWidget(d)
    qtbot.keyClicks(d.key, "relay")
    d.name.setText("Sztafeta par")
    d.stations.setText("Para 1 = 5, Para 2")
    assert not d.ok_button().isEnabled()  # "Para 2" has no table
    d.stations.setText("Para 1 = 5, Para „2” = 6")
    assert d.ok_button().isEnabled()
    created = d.action()
    assert (created.event_kind, created.key, created.name) == ("timer", "relay", "Sztafeta par")
    config = HallEventConfig.model_validate(tomllib.loads(created.config_toml or ""))
    timer = config.timer()
    assert (timer.duration_ns, timer.plan.every_ns) == (60 * MINUTE, 5 * MINUTE)
    assert config.stations == {"Para 1": 5, "Para „2”": 6}
    d.duration.setValue(0)  # none: the event counts up
    count_up = HallEventConfig.model_validate(tomllib.loads(d.action().config_toml or ""))
    assert count_up.timer().duration_ns is None


def test_the_hall_timers_dialogs(qtbot: QtBot) -> None:
    hall = demo_state(0, shown="relay").hall
    assert hall is not None
    finish = FinishDialog(hall)
    qtbot.addWidget(finish)
    assert [finish.entry.itemData(i) for i in range(finish.entry.count())] == [
        "Para 1 — Ala i Ola", "Para 3 — Ewa i Jan"]  # fmt: skip
    assert finish.action() == FinishEntry(entry="Para 1 — Ala i Ola")
