"""The GUI on a real daemon over loopback: actions sent with the token, the live stream, reconnection.

What the referee did is checked in the daemon itself (its state, its journal), never by
intercepting anything inside the GUI.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.api import Client
from clockd.core.clock import Pause, Side
from clockd.core.program import AddNote
from gui import adapter
from gui.adapter import DaemonConnection
from gui.commands import Command, CommandResult
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow
from tests.gui.live import Desk, Running, button_for, open_desk


def phase_at_daemon(client: Client, table: int) -> str:
    return str(client.status([table]).tables[0].program.clock.phase)  # type: ignore[attr-defined]


def running(qtbot: QtBot, daemon: Running, model: DeskModel, table: int = 3) -> None:
    """A player starts the table's own chess clock, and the desk has seen it."""
    daemon.clocks[table].press(Side.A)
    qtbot.waitUntil(lambda: model.state.tables[table].phase == "running", timeout=5000)


def test_clicking_pause_pauses_the_daemons_clock_and_journals_who(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    running(qtbot, daemon, desk.model)
    window = desk.window
    window.select_table(3)
    pause = button_for(window, window.act_pause)
    qtbot.waitUntil(pause.isEnabled, timeout=3000)
    qtbot.mouseClick(pause, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: desk.model.state.tables[3].phase == "paused", timeout=5000)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "Wykonano: pauza", timeout=3000)
    client = daemon.client()
    assert phase_at_daemon(client, 3) == "paused"
    [paused] = [e for e in client.timeline(3).entries if e.kind == "pause"]
    assert paused.data["by"] == "Ola" and paused.data["source"] == "referee"
    assert phase_at_daemon(client, 2) == "ready"  # only the selected table


def test_the_shortcut_does_what_the_button_does(qtbot: QtBot, daemon: Running, desk: Desk) -> None:
    running(qtbot, daemon, desk.model)
    daemon.client().act("3", Pause(reason="zgubiony element"))
    qtbot.waitUntil(lambda: desk.model.state.tables[3].phase == "paused", timeout=5000)
    window = desk.window
    window.select_table(3)
    qtbot.waitUntil(window.act_toggle.isEnabled, timeout=3000)
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: desk.model.state.tables[3].phase == "running", timeout=5000)
    assert phase_at_daemon(daemon.client(), 3) == "running"


def test_a_press_is_on_screen_without_waiting_for_a_refresh_and_the_clock_runs_on_between_messages(
    qtbot: QtBot, daemon: Running
) -> None:
    """The window's clock is stepped by hand and its refresh timer never fires on its own: what the
    screen shows after a press comes from the press, what it shows later from the hand's step."""
    now = [10**15]
    model = DeskModel()
    conn = DaemonConnection(
        model, host="127.0.0.1", port=daemon.port, token=daemon.token, clock=lambda: now[0]
    )
    conn.start()
    window = RefereeWindow(model, conn, clock=lambda: now[0], refresh_ms=3_600_000)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: 3 in model.state.tables, timeout=5000)

    def shown(side: str) -> str:
        return next(i.text for i in window.tables.items_with(key="3", role=f"time-{side}"))

    running(qtbot, daemon, model)  # a's press starts b's time
    t = model.state.tables[3]
    assert t.clock is not None and t.clock.running is Side.B
    qtbot.waitUntil(lambda: shown("b") == t.shown("b", now[0]), timeout=3000)
    daemon.clocks[3].press(Side.B)  # b presses: b's time stops, a's runs
    qtbot.waitUntil(lambda: model.state.tables[3].clock.running is Side.A, timeout=5000)  # type: ignore[union-attr]
    after = model.state.tables[3]
    qtbot.waitUntil(lambda: shown("b") == after.shown("b", now[0]), timeout=3000)
    assert window.ticks == 0  # drawn by the press itself, not by a refresh
    names = {i.role: i.text for i in window.tables.items_with(key="3") if i.role.startswith("name-")}
    assert names["name-a"].startswith("▶ ")  # now a's turn
    a_before = shown("a")
    now[0] += 1_500_000_000  # a second and a half later, on the desk's own clock
    window.tick()
    assert shown("a") == after.shown("a", now[0]) != a_before  # a's clock ran on
    assert shown("b") == after.shown("b", now[0])  # b's stands
    conn.stop()


def test_a_refused_action_is_reported_in_the_daemons_polish_and_nothing_pretends_it_happened(
    qtbot: QtBot, daemon: Running
) -> None:
    d = open_desk(qtbot, daemon, token="wrong-token")
    running(qtbot, daemon, d.model)
    d.window.select_table(3)
    qtbot.waitUntil(
        d.window.act_pause.isEnabled, timeout=3000
    )  # the daemon allows a pause: the token is refused
    d.window.act_pause.trigger()
    qtbot.waitUntil(lambda: bool(d.window.last_refusal), timeout=5000)
    assert d.window.last_refusal == (
        "Nie wykonano: pauza — pause zmienia stan i wymaga tokenu sędziego (wypisuje go `duelclock run`, "
        "jest też w daemon.json): podany token jest błędny"
    )
    assert d.model.state.tables[3].phase == "running"
    assert phase_at_daemon(daemon.client(), 3) == "running"
    d.connection.stop()


def test_without_a_token_the_controls_are_off_and_say_why(qtbot: QtBot, daemon: Running) -> None:
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=daemon.port)  # no daemon.json to take a token from
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: 3 in model.state.tables, timeout=5000)
    running(qtbot, daemon, model)
    window.select_table(3)
    assert not window.act_pause.isEnabled()
    assert window.act_pause.toolTip() == "wymaga tokenu sędziego (--token albo daemon.json lokalnego demona)"
    window.act_pause.trigger()
    assert phase_at_daemon(daemon.client(), 3) == "running"
    conn.stop()


def test_the_desk_reconnects_to_a_restarted_daemon_and_shows_what_recovery_said(
    qtbot: QtBot, restartable: Callable[..., Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adapter, "RECONNECT_MS", 100)
    first = restartable()
    d = open_desk(qtbot, first)
    try:
        running(qtbot, first, d.model, table=2)
        first.stop()
        qtbot.waitUntil(lambda: d.model.state.connection == "offline", timeout=5000)
        assert "BRAK POŁĄCZENIA" in d.window.header.status.text()
        assert f"127.0.0.1:{first.port}" in d.window.header.status.toolTip()  # where it tries, in Polish
        assert d.window.header.status.toolTip().startswith("nie można połączyć się z demonem")
        restartable(first.db, port=first.port)  # the same journal, the same port
        qtbot.waitUntil(lambda: d.model.state.connection == "connected", timeout=10_000)
        qtbot.waitUntil(lambda: bool(d.model.state.tables[2].alerts), timeout=5000)
        d.window.select_table(2)

        def alert_shown() -> str:
            return next((i.text for i in d.window.tables.items_with(key="2", role="alert")), "")

        qtbot.waitUntil(lambda: bool(alert_shown()), timeout=3000)  # drawn at the event loop's next turn
        shown = alert_shown()
        assert shown.startswith("⚠ demon zatrzymał się, gdy ten zegar chodził")  # the catalogue's words
    finally:
        d.connection.stop()


def test_a_daemon_restarted_on_a_new_journal_replaces_what_the_screen_held(
    qtbot: QtBot, restartable: Callable[..., Running], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adapter, "RECONNECT_MS", 100)
    first = restartable()
    d = open_desk(qtbot, first)
    try:
        assert sorted(d.model.state.tables) == list(range(1, 9))
        first.stop()
        qtbot.waitUntil(lambda: d.model.state.connection == "offline", timeout=5000)
        restartable(tmp_path / "other.db", port=first.port, tables=3)
        qtbot.waitUntil(lambda: sorted(d.model.state.tables) == [1, 2, 3], timeout=10_000)
        qtbot.waitUntil(lambda: sorted(d.window.tables.cards) == [1, 2, 3], timeout=3000)
    finally:
        d.connection.stop()


def test_a_tables_earlier_timeline_is_fetched_and_new_entries_follow(qtbot: QtBot, daemon: Running) -> None:
    daemon.clocks[1].press(Side.A)  # before the desk opens
    d = open_desk(qtbot, daemon)

    def kinds() -> list[str]:
        return [i.kind for i in d.model.state.timelines.get(1, ())]

    # the fetched history (from the table's creation) and the stream, merged in journal order
    qtbot.waitUntil(lambda: kinds()[:1] == ["table-created"] and "press" in kinds(), timeout=5000)
    assert "device-connected" in kinds() and kinds().index("device-connected") < kinds().index("press")
    daemon.clocks[1].press(Side.B)
    qtbot.waitUntil(lambda: kinds().count("press") == 2, timeout=5000)
    d.window.select_table(1)
    rows = d.window.timeline.timeline
    last = [rows.data(rows.index(rows.rowCount() - 1, c)) for c in range(rows.columnCount())]
    assert last[3] == "naciśnięcie B"
    d.connection.stop()


def test_port_and_token_come_from_the_local_daemons_file_but_never_reach_the_audience(
    qtbot: QtBot, restartable: Callable[..., Running]
) -> None:
    daemon = restartable(write_info=True)  # writes daemon.json in the test's state folder
    referee = DaemonConnection(DeskModel())
    audience = DaemonConnection(DeskModel(), read_only=True, timeline=False)
    assert (referee.port, referee.token) == (daemon.port, daemon.token)
    assert (audience.port, audience.token) == (daemon.port, None)
    audience.start()
    qtbot.waitUntil(lambda: len(audience.model.state.tables) == 8, timeout=5000)
    reason = audience.available("pause")
    assert reason is not None and reason.code == "gui.no-token"
    assert audience.model.state.timelines == {}
    audience.stop()


def test_the_daemons_answer_is_handled_in_the_gui_thread(qtbot: QtBot, daemon: Running, desk: Desk) -> None:
    """Widgets may only be touched from the GUI thread: the answer must not arrive on the sender's."""
    answered: list[tuple[bool, bool]] = []

    def done(o: CommandResult) -> None:
        answered.append((o.ok, threading.current_thread() is threading.main_thread()))

    desk.connection.send(Command("1", AddNote(text="ok")), done)
    qtbot.waitUntil(lambda: bool(answered), timeout=5000)
    assert answered == [(True, True)]
    assert [e.data["action"]["text"] for e in daemon.client().timeline(1).entries if e.kind == "note"] == [
        "ok"
    ]


def test_no_worker_thread_keeps_the_connection_alive(qtbot: QtBot, daemon: Running) -> None:
    """A Qt object must be destroyed in the GUI thread: so no worker thread and no reference cycle
    through the model may hold the connection (Python's cycle collector runs in whatever thread
    allocates; a thread's last reference is dropped in that thread)."""
    import gc
    import weakref

    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=daemon.port, token=daemon.token)
    conn.start()
    qtbot.waitUntil(lambda: len(model.state.tables) == 8 and len(model.state.timelines) == 8, timeout=5000)
    answered: list[bool] = []
    conn.send(Command("1", AddNote(text="x")), lambda o: answered.append(o.ok))
    qtbot.waitUntil(lambda: answered == [True], timeout=5000)
    conn.stop()
    ref = weakref.ref(conn)
    gc.disable()
    try:
        del conn
        assert ref() is None  # gone by reference counting, here, in the GUI thread
    finally:
        gc.enable()
    model.set_tables([])  # the model outlives it and no longer calls it
