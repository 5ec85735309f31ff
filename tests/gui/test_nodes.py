"""The desk's table nodes in the referee's window (issue 17): each table card names its node
and its link, a table whose node is down is shown as last known (its clock stands still),
and the Nodes window lists links, lag, restarts, outages and the commands not done — a
command is never shown as done unless the node's row came back.

The views are fed the daemon's own message models (``NodesReply``, ``TableView``), or a real
daemon over loopback; everything is drawn by real widgets, offscreen, in Polish by default.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from clockd.api.messages import CommandView, NodesReply
from clockd.core.units import SECOND
from clockd.i18n import msg
from gui.adapter import table_from_api
from gui.commands import DemoSink
from gui.demonodes import NOW_MS, WALL, demo_nodes, demo_nodes_state, screenshot, wall_ms
from gui.deskmodel import DeskModel
from gui.nodes import NodesDialog
from gui.referee import RefereeWindow
from gui.style import DESK
from gui.widgets.tables import TablesWidget
from tests.gui.live import Desk, Running

T0 = 2_000 * SECOND


@pytest.fixture(autouse=True)
def _local_time_is_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The demo's wall clock is local time; the tests read it in one known zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def hhmmss(t_ms: int) -> str:
    """What the window must show for a journal instant of the demo answer."""
    wall = WALL + datetime.timedelta(milliseconds=t_ms - NOW_MS)
    return wall.strftime("%H:%M:%S")


def texts(view: TablesWidget, table: int) -> dict[str, str]:
    return {i.role: i.text for i in view.items_with(key=str(table))}


def cells(table: QTableWidget) -> list[list[str]]:
    return [
        [table.item(r, c).text() for c in range(table.columnCount())]  # type: ignore[union-attr]
        for r in range(table.rowCount())
    ]


@pytest.fixture
def window(qtbot: QtBot) -> RefereeWindow:
    w = RefereeWindow(DeskModel(demo_nodes_state(T0)), DemoSink(), clock=lambda: T0, refresh_ms=10_000)
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    w._render_all()
    return w


# -- the table cards -------------------------------------------------------------------------------


def test_each_card_names_its_node_with_a_symbol_and_a_word(window: RefereeWindow) -> None:
    assert texts(window.tables, 1)["node"] == "▲ węzeł pi1"
    assert texts(window.tables, 4)["node"] == "▼ węzeł pi2 rozłączony"
    assert texts(window.tables, 3)["phase"] == "TRWA"  # pi1's running duel is live
    assert texts(window.tables, 4)["phase"] == "OSTATNI ZNANY"  # pi2's is its last known state
    assert texts(window.tables, 5)["phase"] == "OSTATNI ZNANY"


def test_a_table_on_a_node_that_is_down_stands_still_and_is_not_filled_as_running(
    window: RefereeWindow,
) -> None:
    live, stale = texts(window.tables, 3), texts(window.tables, 4)
    window.tables.tick(T0 + 5 * SECOND)
    assert texts(window.tables, 3)["time-b"] != live["time-b"]  # pi1's running side counts down
    assert texts(window.tables, 4)["time-a"] == stale["time-a"] == "0:39"  # pi2's: last known
    img = window.tables.grab().toImage()
    boxes = {(b.key, b.role): b.rect for b in window.tables.boxes}
    r3, r4 = boxes[("3", "clock-b")], boxes[("4", "clock-a")]
    assert img.pixelColor(r3.left() + 12, r3.top() + 8).name() == DESK.running
    assert img.pixelColor(r4.left() + 12, r4.top() + 8).name() != DESK.running


def test_the_node_coming_back_makes_its_tables_live_again(qtbot: QtBot, window: RefereeWindow) -> None:
    window.model.set_nodes(demo_nodes(pi2_up=True), wall_ms())
    qtbot.waitUntil(lambda: texts(window.tables, 4)["phase"] == "TRWA", timeout=2000)
    assert texts(window.tables, 4)["node"] == "▲ węzeł pi2"
    window.tables.tick(T0 + 5 * SECOND)
    assert texts(window.tables, 4)["time-a"] == "0:34"  # counting again, from the last state


def test_the_desk_losing_the_broker_makes_every_nodes_table_last_known(
    qtbot: QtBot, window: RefereeWindow
) -> None:
    cut = demo_nodes(pi2_up=True).model_copy(update={"linked": False})
    window.model.set_nodes(cut, wall_ms())
    qtbot.waitUntil(lambda: texts(window.tables, 3)["phase"] == "OSTATNI ZNANY", timeout=2000)
    assert texts(window.tables, 1)["node"] == "▼ węzeł pi1 rozłączony"


def test_the_side_panel_says_whose_table_it_is_and_that_it_is_last_known(window: RefereeWindow) -> None:
    window.select_table(4)
    assert "▼ Węzeł pi2: rozłączony — stolik w ostatnim znanym stanie" in window.side_match.text()
    window.select_table(3)
    assert "▲ Węzeł pi1: połączony" in window.side_match.text()


def test_a_table_view_from_a_daemon_carries_its_node_into_the_card(qtbot: QtBot, daemon: Running) -> None:
    """The API's TableView (as a desk's daemon sends it) → the model → the card."""
    views = daemon.client().status().tables
    model = DeskModel()
    model.set_tables([table_from_api(v.model_copy(update={"node": "pi2"}), T0) for v in views])
    model.set_tables([table_from_api(views[0], T0 + 1).model_copy(update={"seq": views[0].seq + 1})])
    model.set_nodes(demo_nodes(), wall_ms())
    view = TablesWidget()
    qtbot.addWidget(view)
    view.resize(1200, 500)
    view.set_state(model.state, T0)
    first, second = views[0].table, views[1].table
    assert "node" not in texts(view, first)  # timed by this daemon: no node named
    assert texts(view, second)["node"] == "▼ węzeł pi2 rozłączony"
    assert texts(view, second)["phase"] == "OSTATNI ZNANY"


# -- the Nodes window ------------------------------------------------------------------------------


def open_nodes(qtbot: QtBot, window: RefereeWindow) -> NodesDialog:
    window.act_nodes.trigger()
    dialog = window.nodes_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_the_menu_entry_and_its_key_open_the_nodes_window(qtbot: QtBot, window: RefereeWindow) -> None:
    assert window.act_nodes.text() == "Węzły…" and window.act_nodes.shortcut().toString() == "Ctrl+Shift+N"
    assert window.act_nodes in window.menu_view.actions()
    assert ("Ctrl+Shift+N", "Węzły…") in window.shortcut_rows()
    dialog = open_nodes(qtbot, window)
    assert dialog.windowTitle() == "Węzły"


def test_each_node_shows_its_link_tables_lag_restarts_and_outages(
    qtbot: QtBot, window: RefereeWindow
) -> None:
    dialog = open_nodes(qtbot, window)
    assert [dialog.nodes.horizontalHeaderItem(c).text() for c in range(6)] == [  # type: ignore[union-attr]
        "Węzeł",
        "Łącze",
        "Stoliki",
        "Opóźnienie",
        "Restarty",
        "Przerwy",
    ]
    pi1, pi2 = cells(dialog.nodes)
    outage = f"przerwa 11 s, {hhmmss(NOW_MS - 611_000)}–{hhmmss(NOW_MS - 600_000)}"
    assert outage == "przerwa 11 s, 16:52:04–16:52:15"
    assert pi1 == [
        "pi1",
        f"▲ połączony od {hhmmss(NOW_MS - 1_800_000)}",
        "1, 2, 3",
        "zaległe wiersze: 0 · sygnał przed chwilą",
        "0",
        outage,
    ]
    assert pi2 == [
        "pi2",
        "▼ rozłączony od 17:01:55",
        "4, 5",
        "zaległe wiersze: 3 · sygnał 20 s temu",
        "1",
        f"{outage}\nprzerwa od 17:01:55, trwa",
    ]
    assert dialog.summary.text() == (
        "▲ Stanowisko sędziego jest połączone z brokerem; połączone węzły: 1 z 2."
    )


def test_the_commands_not_done_are_listed_each_with_its_table_and_what_it_was(
    qtbot: QtBot, window: RefereeWindow
) -> None:
    dialog = open_nodes(qtbot, window)
    rows = cells(dialog.commands)
    assert rows == [
        [
            "Stolik 1",
            "pi1",
            "korekta czasu",
            "17:01:15",
            "✗ odrzucone przez węzeł: węzeł pi1 nie ma stołu 1: polecenia nie wykonano",
        ],
        ["Stolik 4", "pi2", "pauza", "17:01:59", "✗ niedostarczone: nie wykonane"],
        ["Stolik 5", "pi2", "wznów", "17:02:12", "○ wysłane, czeka na węzeł"],
    ]  # the done resume (command 41) is not among them


def test_a_command_not_delivered_never_looks_done(qtbot: QtBot, window: RefereeWindow) -> None:
    """Whatever the outcome but ``done`` — even one this GUI does not know — it is listed as not done."""
    reply = demo_nodes()
    odd = CommandView(command=50, node="pi2", table=4, what="pause", t_ms=NOW_MS, outcome="expired")
    window.model.set_nodes(reply.model_copy(update={"commands": [*reply.commands, odd]}), wall_ms())
    dialog = open_nodes(qtbot, window)
    states = [row[4] for row in cells(dialog.commands)]
    assert len(states) == 4
    assert states[1] == "✗ niedostarczone: nie wykonane" and states[3] == "? expired"
    for state in states:
        assert "wykonano:" not in state.lower() and not state.startswith("✓")
    assert dialog.commands_label.text() == "Polecenia niewykonane"


def test_in_english_the_refusal_is_rendered_in_english_too(
    qtbot: QtBot, english: None, window: RefereeWindow
) -> None:
    dialog = open_nodes(qtbot, window)
    rows = cells(dialog.commands)
    assert rows[0][4] == "✗ refused by the node: node pi1 has no table 1: the command was not carried out"
    assert rows[1][4] == "✗ not delivered: not done"
    assert cells(dialog.nodes)[1][1] == "▼ disconnected since 17:01:55"


def test_the_window_follows_the_next_answer(qtbot: QtBot, window: RefereeWindow) -> None:
    dialog = open_nodes(qtbot, window)
    window.model.set_nodes(demo_nodes(pi2_up=True).model_copy(update={"commands": []}), wall_ms())
    assert cells(dialog.nodes)[1][1] == "▲ połączony od 17:01:55"
    assert dialog.commands_label.text() == "Polecenia niewykonane: brak."
    assert not dialog.commands.isVisibleTo(dialog)


def test_a_single_machine_says_so_in_one_sentence(qtbot: QtBot) -> None:
    model = DeskModel()
    model.set_nodes(NodesReply(now_ms=1, linked=None), 0)
    dialog = NodesDialog(model)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.summary.text() == "Ten demon nie ma węzłów: sam mierzy czas na każdym stoliku."
    assert not dialog.nodes.isVisibleTo(dialog) and not dialog.commands.isVisibleTo(dialog)


def test_on_a_real_daemon_the_window_asks_it_and_says_it_has_no_nodes(qtbot: QtBot, desk: Desk) -> None:
    dialog = open_nodes(qtbot, desk.window)
    assert desk.connection.nodes_watchers == 1
    qtbot.waitUntil(lambda: desk.model.state.nodes is not None, timeout=5000)
    assert dialog.summary.text() == "Ten demon nie ma węzłów: sam mierzy czas na każdym stoliku."
    dialog.close()
    assert desk.connection.nodes_watchers == 0


def test_the_screenshot_shows_the_cards_and_the_nodes_window(tmp_path: Path) -> None:
    out = tmp_path / "referee-nodes.png"
    assert screenshot(out) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1600, 1000)
    offline = sum(
        1
        for y in range(0, img.height(), 2)
        for x in range(0, img.width(), 2)
        if img.pixelColor(x, y).name() == DESK.offline
    )
    assert offline > 200  # the down node's cards' borders, its link, the failed commands


def test_a_refusal_problem_is_the_catalogues_message() -> None:
    """The demo's refusal is a real catalogue code (so the window renders it, never a raw code)."""
    problem = demo_nodes().commands[1].problem
    assert problem == msg("node.not-my-table", node="pi1", table=1)
