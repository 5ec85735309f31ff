"""The referee's table cards, drawn per program: two clocks, a hall event's station, nothing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.core.units import SECOND
from clockd.i18n import Msg
from gui.demo import demo_state
from gui.model import Alert, Clock, DeskState, Table
from gui.style import DESK
from gui.widgets.tables import TablesWidget

T0 = 2_000 * SECOND


@pytest.fixture
def view(qtbot: QtBot) -> TablesWidget:
    v = TablesWidget()
    qtbot.addWidget(v)
    v.resize(1200, 320)
    v.set_state(demo_state(T0), T0)
    return v


def texts(view: TablesWidget, table: int) -> dict[str, str]:
    return {i.role: i.text for i in view.items_with(key=str(table))}


def test_a_duels_table_shows_both_clocks_moves_and_the_player_at_each_side(view: TablesWidget) -> None:
    t3 = texts(view, 3)
    assert t3["time-a"] == "4:24" and t3["time-b"] == "5:18"
    assert t3["moves-a"] == "ruchy 21 · zignorowane 1" and t3["moves-b"] == "ruchy 21"
    assert t3["name-a"] == "Stanisław Ź." and t3["name-b"] == "Bartłomiej K. ◀"  # B's turn: the arrow
    assert t3["title"] == "Stolik 3 · R2-3 · II runda — Ćwierćfinał"  # the round's name is the daemon's
    assert t3["phase"] == "TRWA"  # the catalogue's word for a running clock


def test_the_session_page_lists_its_tables_and_not_another_events(view: TablesWidget) -> None:
    assert view.shown_tables() == [1, 2, 3, 4, 5]  # the relay's stations (6–8) are on its own page
    assert texts(view, 1)["title"] == "Stolik 1 · 15m"  # the table's own clock, and its control
    assert texts(view, 1)["name-a"] == "strona A"


def test_the_running_side_is_filled_and_the_other_is_not(view: TablesWidget) -> None:
    img = view.grab().toImage()
    for table, running, waiting in ((3, "b", "a"), (4, "a", "b")):
        boxes = {b.role: b.rect for b in view.boxes if b.key == str(table)}
        r, w = boxes[f"clock-{running}"], boxes[f"clock-{waiting}"]
        assert img.pixelColor(r.left() + 12, r.top() + 8).name() == DESK.running
        assert img.pixelColor(w.left() + 12, w.top() + 8).name() != DESK.running


def test_a_duel_that_ended_says_so(view: TablesWidget) -> None:
    t2 = texts(view, 2)
    assert t2["phase"] == "ROZEGRANY"
    assert (t2["time-a"], t2["time-b"]) == ("1:27", "1:02")


def test_connection_and_alerts_are_shown_in_words(view: TablesWidget) -> None:
    assert texts(view, 3)["device"] == "● urządzenie: połączony"
    assert texts(view, 5)["device"].startswith("● urządzenie: ODŁĄCZONY — port /dev/ttyACM4 zniknął")
    assert texts(view, 4)["alert"].startswith("⚠ demon zatrzymał się, gdy ten zegar chodził, i wrócił 0:04")


def test_an_alert_the_catalogue_does_not_know_still_says_what_it_is(qtbot: QtBot) -> None:
    v = TablesWidget()
    qtbot.addWidget(v)
    v.resize(600, 260)
    alert = Alert(id=1, text=Msg(code="alert.battery-low", params={"level": 7}))
    t = Table(table=1, program="idle", alerts=(alert,), received_ns=T0)
    v.set_state(DeskState(tables={1: t}), T0)
    assert "alert.battery-low" in texts(v, 1)["alert"] and "7" in texts(v, 1)["alert"]
    assert texts(v, 1)["idle"] == "nic się tu nie toczy"  # an idle table shows no clocks
    assert not any(i.role.startswith("time-") for i in v.items)


def test_a_fallen_flag_is_drawn_in_red(qtbot: QtBot) -> None:
    v = TablesWidget()
    qtbot.addWidget(v)
    v.resize(600, 260)
    clock = Clock.model_validate({"phase": "flagged", "remaining_ms": {"a": 0, "b": 42_000}, "flag": "a",
                                  "to_move": "a"})  # fmt: skip
    v.set_state(DeskState(tables={1: Table(table=1, program="clock", clock=clock, received_ns=T0)}), T0)
    item = next(i for i in v.items if i.role == "time-a")
    assert item.text == "0:00" and item.color == DESK.flag
    assert texts(v, 1)["phase"] == "FLAGA"


def test_a_hall_events_station_shows_its_entry_and_its_finish(qtbot: QtBot) -> None:
    v = TablesWidget()
    qtbot.addWidget(v)
    v.resize(1200, 320)
    state = demo_state(T0, shown="relay")
    v.set_state(state, T0)
    assert v.shown_tables() == [6, 7, 8]
    finished, waiting = texts(v, 7), texts(v, 6)
    assert finished["entry"] == "Para 2 — Kuba i Igor"
    assert finished["finish"] == "ukończone: 21:07.412"  # event time, exact: as journaled
    assert finished["phase"] == "UKOŃCZONE" and finished["title"] == "Stolik 7 · Sztafeta par"
    assert waiting["finish"] == "przycisk zapisze ukończenie" and waiting["phase"] == "W GRZE"


def test_clicking_a_card_selects_that_table(view: TablesWidget, qtbot: QtBot) -> None:
    with qtbot.waitSignal(view.table_clicked) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.cards[4].center())
    assert blocker.args == [4]
