"""The referee's window on a real desk with a real table node, through a real Mosquitto.

The node ``pi1`` (an in-process daemon with its MQTT link) times tables 1 and 2; the desk's
daemon takes them in; the referee's window is connected to the desk over loopback, as
``duelclock gui`` is. The node stops: the window's cards turn to "last known" and the Nodes
window says it is disconnected — all from the daemon's own ``nodes`` answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from clockd.i18n import Problem, render
from clockd.mqtt.broker import mosquitto_binary
from clockd.mqtt.desk import DeskLink
from clockd.mqtt.node import NodeLink
from clockd.service.runtime import Daemon, TableSpec
from gui.adapter import DaemonConnection
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow
from tests.gui.live import HandClock
from tests.mqtt.conftest import TestBroker, free_port


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[TestBroker]:
    try:
        mosquitto_binary()
    except Problem as exc:
        pytest.fail(render(exc.msg, "en"), pytrace=False)
    running = TestBroker(tmp_path / "broker", ["pi1"], free_port())
    running.start()
    try:
        yield running
    finally:
        running.stop()


class Machines:
    """The desk's daemon with its link, and the node pi1's."""

    def __init__(self, tmp: Path, broker: TestBroker) -> None:
        self.desk = Daemon(tmp / "desk.db", port=0, boot_id="boot-desk", write_daemon_info=False)
        started = self.desk.start()
        self.port, self.token = started.port, started.token
        assert self.desk.engine is not None
        self.desk_link = DeskLink(broker.url("desk"), self.desk.engine)
        self.desk_link.start()
        self.node = Daemon(
            tmp / "pi1.db",
            tables=[TableSpec(t, control="10m") for t in (1, 2)],
            port=0,
            boot_id="boot-pi1",
            write_daemon_info=False,
            hall="pi1",
        )
        for t in (1, 2):
            self.node.add_device(t, HandClock(t))
        self.node.start()
        assert self.node.engine is not None
        link = NodeLink("pi1", broker.url("pi1"), self.node.engine, str(tmp / "pi1.db"))
        link.start()
        self.node_link: NodeLink | None = link

    def stop_node(self) -> None:
        if self.node_link is not None:
            self.node_link.stop()
            self.node_link = None
            self.node.stop()

    def stop(self) -> None:
        self.stop_node()
        self.desk_link.stop()
        self.desk.stop()


@pytest.fixture
def machines(tmp_path: Path, broker: TestBroker) -> Iterator[Machines]:
    m = Machines(tmp_path, broker)
    try:
        yield m
    finally:
        m.stop()


def card(window: RefereeWindow, table: int, role: str) -> str:
    return next((i.text for i in window.tables.items_with(key=str(table)) if i.role == role), "")


def test_the_window_shows_a_real_nodes_tables_and_their_node_going_down(
    qtbot: QtBot, machines: Machines
) -> None:
    model = DeskModel()
    connection = DaemonConnection(model, host="127.0.0.1", port=machines.port, token=machines.token)
    connection.start()
    window = RefereeWindow(model, connection)
    qtbot.addWidget(window)
    window.resize(1500, 950)
    window.show()
    try:
        qtbot.waitUntil(lambda: card(window, 1, "node") == "▲ węzeł pi1", timeout=15_000)
        assert card(window, 2, "node") == "▲ węzeł pi1"
        window.act_nodes.trigger()
        dialog = window.nodes_dialog
        assert dialog is not None
        qtbot.waitUntil(lambda: dialog.nodes.rowCount() == 1, timeout=5000)
        link = dialog.nodes.item(0, 1)
        assert link is not None and link.text().startswith("▲ połączony od ")
        machines.stop_node()
        qtbot.waitUntil(lambda: card(window, 1, "phase") == "OSTATNI ZNANY", timeout=15_000)
        assert card(window, 1, "node") == "▼ węzeł pi1 rozłączony"
        qtbot.waitUntil(
            lambda: (i := dialog.nodes.item(0, 1)) is not None and i.text().startswith("▼ rozłączony od "),
            timeout=5000,
        )
    finally:
        connection.stop()
