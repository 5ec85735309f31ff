"""The referee's table cards: both times, whose turn, moves per side, the clock's connection, alerts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.core.units import SECOND
from gui.demo import demo_state
from gui.model import Alert, DeskState, Pair, Side, Table
from gui.style import DESK
from gui.widgets.tables import TablesView

T0 = 2_000 * SECOND


@pytest.fixture
def view(qtbot: QtBot) -> TablesView:
    v = TablesView()
    qtbot.addWidget(v)
    v.resize(1200, 320)
    v.set_state(demo_state(T0), T0)
    return v


def texts(view: TablesView, table: int) -> dict[str, str]:
    return {i.role: i.text for i in view.items_with(key=str(table))}


def test_each_table_shows_both_clocks_moves_and_the_player_at_each_side(view: TablesView) -> None:
    t3 = texts(view, 3)
    assert t3["time-a"] == "4:24" and t3["time-b"] == "5:18"
    assert t3["moves-a"] == "ruchy 21 · zignorowane 1" and t3["moves-b"] == "ruchy 21"
    assert t3["name-a"] == "Stanisław Ź." and t3["name-b"] == "Bartłomiej K. ◀"  # B's turn: the arrow
    assert t3["title"].startswith("Stolik 3 · R2-3")
    assert t3["phase"] == "CHODZI"


def test_the_running_side_is_filled_and_the_other_is_not(view: TablesView) -> None:
    img = view.grab().toImage()
    for table, running, waiting in ((3, "b", "a"), (4, "a", "b")):
        boxes = {b.role: b.rect for b in view.boxes if b.key == str(table)}
        r, w = boxes[f"clock-{running}"], boxes[f"clock-{waiting}"]
        assert img.pixelColor(r.left() + 12, r.top() + 8).name() == DESK.running
        assert img.pixelColor(w.left() + 12, w.top() + 8).name() != DESK.running


def test_a_paused_clock_shows_whose_turn_it_is(view: TablesView) -> None:
    t2 = texts(view, 2)
    assert t2["phase"] == "PAUZA"
    assert t2["name-a"].startswith("▶ ")  # side a is to move when it resumes
    assert not t2["name-b"].endswith("◀")


def test_connection_and_alerts_are_shown_in_words(view: TablesView) -> None:
    assert texts(view, 3)["device"] == "● zegar podłączony"
    assert texts(view, 5)["device"].startswith("● zegar odłączony — /dev/ttyACM4")
    assert texts(view, 4)["alert"].startswith("⚠ Odtworzono po restarcie demona")


def test_an_unknown_alert_code_is_shown_in_the_daemons_words(qtbot: QtBot) -> None:
    v = TablesView()
    qtbot.addWidget(v)
    v.resize(600, 260)
    t = Table(
        table=1, alerts=(Alert(id=1, code="battery-low", message="Battery low on the clock"),), received_ns=T0
    )
    v.set_state(DeskState(tables={1: t}), T0)
    assert "Battery low on the clock" in texts(v, 1)["alert"]


def test_a_fallen_flag_is_drawn_in_red(qtbot: QtBot) -> None:
    v = TablesView()
    qtbot.addWidget(v)
    v.resize(600, 260)
    t = Table(
        table=1,
        phase="flagged",
        remaining_ms=Pair(a=0, b=42_000),
        flag=Side.A,
        to_move=Side.A,
        received_ns=T0,
    )
    v.set_state(DeskState(tables={1: t}), T0)
    item = next(i for i in v.items if i.role == "time-a")
    assert item.text == "0:00" and item.color == DESK.flag
    assert texts(v, 1)["phase"] == "FLAGA"


def test_clicking_a_card_selects_that_table(view: TablesView, qtbot: QtBot) -> None:
    with qtbot.waitSignal(view.table_clicked) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.cards[4].center())
    assert blocker.args == [4]
