"""The GUI on the daemon's API: a fake daemon on a local socket, the GUI's real client and window.

What goes over the wire is checked as the raw JSON the server received — the requests are
not intercepted anywhere inside the GUI.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from gui import adapter
from gui.adapter import DaemonConnection
from gui.commands import Action, Command
from gui.model import DeskModel
from gui.referee import RefereeWindow


@pytest.fixture
def desk(qtbot: QtBot, fake_daemon: Any) -> Iterator[tuple[DeskModel, DaemonConnection, RefereeWindow]]:
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=fake_daemon.port, token=fake_daemon.token, by="Ola")
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitUntil(lambda: len(model.state.tables) == 3, timeout=3000)
    yield model, conn, window
    conn.stop()


def button_for(window: RefereeWindow, action: object) -> QToolButton:
    return next(b for b in window.findChildren(QToolButton) if b.defaultAction() is action)


def is_running(model: DeskModel, table: int) -> bool:
    t = model.state.tables.get(table)
    return t is not None and t.phase == "running"


def running(fake: Any, table_view: Any, table: int = 3, seq: int = 20, **kw: Any) -> dict[str, Any]:
    view = table_view(
        table,
        phase="running",
        running="a",
        to_move="a",
        seq=seq,
        remaining_ms={"a": 300_000, "b": 300_000},
        moves={"a": 10, "b": 10},
    )
    view.update(kw)
    fake.set_table(view)
    return view


def test_clicking_pause_sends_the_pause_command_with_the_token(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, table_view: Any, qtbot: QtBot
) -> None:
    model, _, window = desk
    running(fake_daemon, table_view)
    qtbot.waitUntil(lambda: model.state.tables[3].phase == "running", timeout=2000)
    window.select_table(3)
    pause = button_for(window, window.act_pause)
    assert pause.text() == "Pauza" and pause.isEnabled()
    qtbot.mouseClick(pause, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(fake_daemon.requests_of("pause")), timeout=3000)
    [sent] = fake_daemon.requests_of("pause")
    assert sent["table"] == 3
    assert sent["token"] == fake_daemon.token
    assert sent["by"] == "Ola"
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "Wykonano: pauza", timeout=2000)


def test_the_shortcut_does_what_the_button_does(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, table_view: Any, qtbot: QtBot
) -> None:
    model, _, window = desk
    running(fake_daemon, table_view, phase="paused", running=None)
    qtbot.waitUntil(lambda: model.state.tables[3].phase == "paused", timeout=2000)
    window.select_table(3)
    assert window.act_pause.text() == "Wznów"
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(fake_daemon.requests_of("resume")), timeout=3000)
    assert fake_daemon.requests_of("resume")[0]["table"] == 3
    assert fake_daemon.requests_of("pause") == []


def test_a_press_on_the_stream_changes_the_shown_time_within_one_refresh(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, table_view: Any, qtbot: QtBot
) -> None:
    model, _, window = desk
    running(fake_daemon, table_view, seq=20)
    qtbot.waitUntil(lambda: model.state.tables[3].seq == 20, timeout=2000)

    def shown(side: str) -> str:
        return next(i.text for i in window.tables.items_with(key="3", role=f"time-{side}"))

    qtbot.waitUntil(lambda: shown("a") in ("5:00", "4:59"), timeout=2000)
    # side a presses after 4.6 s: its clock stops at 295.4 s, side b's starts
    ticks = window.ticks
    fake_daemon.set_table(
        table_view(
            3,
            phase="running",
            running="b",
            to_move="b",
            seq=21,
            remaining_ms={"a": 295_400, "b": 300_000},
            moves={"a": 11, "b": 10},
        )
    )
    qtbot.waitUntil(lambda: shown("a") == "4:56", timeout=2000)
    assert window.ticks - ticks <= 1, "the new time must be on screen within one refresh"
    assert shown("b") == "5:00"
    names = {i.role: i.text for i in window.tables.items_with(key="3") if i.role.startswith("name-")}
    assert names["name-b"].endswith("◀")  # now b's turn
    # and it keeps running locally between messages: after a second b's face has moved on
    time.sleep(1.05)
    qtbot.waitUntil(lambda: shown("b") == "4:59", timeout=1000)
    assert shown("a") == "4:56"


def test_an_older_state_arriving_late_does_not_turn_the_clock_back(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, table_view: Any, qtbot: QtBot
) -> None:
    model, _, _ = desk
    running(fake_daemon, table_view, seq=30, remaining_ms={"a": 100_000, "b": 200_000})
    qtbot.waitUntil(lambda: model.state.tables[3].seq == 30, timeout=2000)
    running(fake_daemon, table_view, seq=29, remaining_ms={"a": 500_000, "b": 500_000})
    running(fake_daemon, table_view, seq=31, remaining_ms={"a": 99_000, "b": 200_000})
    qtbot.waitUntil(lambda: model.state.tables[3].seq == 31, timeout=2000)
    assert model.state.tables[3].remaining_ms.a == 99_000


def test_a_refused_command_is_reported_and_nothing_pretends_it_happened(
    qtbot: QtBot, fake_daemon: Any, table_view: Any
) -> None:
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=fake_daemon.port, token="wrong-token")
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    running(fake_daemon, table_view)
    qtbot.waitUntil(
        lambda: 3 in model.state.tables and model.state.tables[3].phase == "running", timeout=3000
    )
    window.select_table(3)
    window.act_pause.trigger()
    qtbot.waitUntil(lambda: bool(window.last_refusal), timeout=3000)
    assert window.last_refusal.startswith("Nie wykonano: pauza — ")
    assert "token" in window.last_refusal
    assert model.state.tables[3].phase == "running"
    conn.stop()


def test_without_a_token_the_controls_are_off_and_say_why(
    qtbot: QtBot, fake_daemon: Any, table_view: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path))  # no daemon.json to take a token from
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=fake_daemon.port)
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    running(fake_daemon, table_view)
    qtbot.waitUntil(
        lambda: 3 in model.state.tables and model.state.tables[3].phase == "running", timeout=3000
    )
    window.select_table(3)
    assert not window.act_pause.isEnabled()
    assert "wymaga tokenu sędziego" in window.act_pause.toolTip()
    window.act_pause.trigger()
    assert fake_daemon.requests_of("pause") == []
    conn.stop()


def test_the_gui_reconnects_and_gets_every_table_again(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow],
    fake_daemon: Any,
    table_view: Any,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model, _, window = desk
    monkeypatch.setattr(adapter, "RECONNECT_MS", 100)
    fake_daemon.drop_subscribers()
    qtbot.waitUntil(lambda: model.state.connection == "offline", timeout=3000)
    assert "BRAK POŁĄCZENIA" in window.header.status.text()
    fake_daemon.tables[2] = table_view(2, phase="paused", seq=50)
    qtbot.waitUntil(lambda: model.state.connection == "connected", timeout=3000)
    qtbot.waitUntil(lambda: model.state.tables[2].phase == "paused", timeout=3000)
    assert len(fake_daemon.requests_of("subscribe")) == 2


def test_a_tables_earlier_timeline_is_fetched_and_new_events_follow(
    qtbot: QtBot, fake_daemon: Any, table_view: Any
) -> None:
    fake_daemon.timelines[1] = [
        {"seq": 3, "table": 1, "kind": "clock-set", "t_ms": 1000, "data": {"control": "10m"}},
        {"seq": 4, "table": 1, "kind": "press", "t_ms": 5000, "data": {"side": "b", "outcome": "started"}},
    ]
    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=fake_daemon.port, token=fake_daemon.token)
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: len(model.state.timelines.get(1, ())) == 2, timeout=3000)
    fake_daemon.push(
        {
            "type": "timeline-event",
            "entry": {
                "seq": 5,
                "table": 1,
                "kind": "press",
                "t_ms": 9250,
                "data": {"side": "a", "outcome": "applied"},
            },
        }
    )
    qtbot.waitUntil(lambda: len(model.state.timelines.get(1, ())) == 3, timeout=3000)
    window.select_table(1)
    rows = window.timeline.timeline
    assert rows.rowCount() == 3
    last = [rows.data(rows.index(2, c)) for c in range(rows.columnCount())]
    assert last[1] == "0:08.250"  # since the clock was set
    assert last[3] == "naciśnięcie A"
    conn.stop()


def test_port_and_token_come_from_the_local_daemons_file_but_never_reach_the_audience(
    qtbot: QtBot, fake_daemon: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from clockd.api.local import DaemonInfo, write_info

    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path))
    write_info(DaemonInfo(host="127.0.0.1", port=fake_daemon.port, token=fake_daemon.token))
    referee = DaemonConnection(DeskModel())
    audience = DaemonConnection(DeskModel(), read_only=True, timeline=False)
    assert (referee.port, referee.token) == (fake_daemon.port, fake_daemon.token)
    assert (audience.port, audience.token) == (fake_daemon.port, None)
    audience.start()
    qtbot.waitUntil(lambda: len(audience.model.state.tables) == 3, timeout=3000)
    assert audience.available(Action.PAUSE) != ""
    assert all(r.get("token") is None for r in fake_daemon.requests)
    assert fake_daemon.requests_of("subscribe")[0]["timeline"] is False
    audience.stop()


def test_the_daemons_answer_is_handled_in_the_gui_thread(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, qtbot: QtBot
) -> None:
    """Widgets may only be touched from the GUI thread: the answer must not arrive on the sender's."""
    _, conn, _ = desk
    answered: list[tuple[bool, bool]] = []
    conn.send(
        Command(Action.NOTE, {"table": 1, "text": "ok"}),
        lambda o: answered.append((o.ok, threading.current_thread() is threading.main_thread())),
    )
    qtbot.waitUntil(lambda: bool(answered), timeout=3000)
    assert answered == [(True, True)]


def session_push(key: str, name: str, stage: str, players: list[tuple[int, str, bool]]) -> dict[str, Any]:
    """A ``tournament-state`` push as the daemon sends it (docs/puzzle-duel.md, "The API")."""
    listed = [{"id": i, "name": n, "list": "main", "present": p, "withdrawn": False} for i, n, p in players]
    return {"type": "tournament-state", "session": {
        "key": key, "name": name, "stage": stage, "players": listed, "field": None, "seat_changes": [],
        "refused": 0, "results": None}}  # fmt: skip


def test_the_session_being_played_is_shown_and_the_referee_can_pick_another(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, qtbot: QtBot
) -> None:
    model, _, window = desk
    fake_daemon.push(session_push("pt", "Piątek 19.06", "finished", [(1, "Ala K.", True)]))
    fake_daemon.push(
        session_push("sb", "Sobota 20.06", "registration", [(1, "Ola P.", False), (2, "Iga W.", True)])
    )
    qtbot.waitUntil(lambda: model.state.session_key == "sb", timeout=3000)
    assert model.state.title == "Sobota 20.06"
    assert {p.display_name: p.presence for p in model.state.players.values()} == {
        "Ola P.": "expected", "Iga W.": "present"}  # fmt: skip
    qtbot.waitUntil(lambda: len(window.menu_sessions.actions()) == 2, timeout=2000)
    [friday] = [a for a in window.menu_sessions.actions() if "Piątek" in a.text()]
    friday.trigger()
    assert model.state.session_key == "pt" and model.state.title == "Piątek 19.06"
    fake_daemon.push(session_push("sb", "Sobota 20.06", "registration", [(1, "Ola P.", True)]))
    qtbot.wait(200)
    assert (
        model.state.session_key == "pt"
    )  # the referee chose Friday: a change elsewhere does not move the view


def test_checking_a_player_in_sends_the_session_and_the_player(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, qtbot: QtBot
) -> None:
    model, _, window = desk
    fake_daemon.push(
        session_push("sb", "Sobota 20.06", "registration", [(7, "Ola P.", False), (8, "Iga W.", True)])
    )
    qtbot.waitUntil(lambda: len(model.state.players) == 2, timeout=3000)
    window.tabs.setCurrentIndex(1)
    window.players.selectRow(0)
    assert window.players.selected_player() == 7
    checkin = button_for(window, window.act_checkin)
    assert checkin.isEnabled() and not button_for(window, window.act_checkout).isEnabled()
    qtbot.mouseClick(checkin, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(fake_daemon.requests_of("tournament-check-in")), timeout=3000)
    [sent] = fake_daemon.requests_of("tournament-check-in")
    assert (sent["session"], sent["player"], sent["present"], sent["token"]) == (
        "sb",
        7,
        True,
        fake_daemon.token,
    )


def test_a_daemon_restarted_on_a_new_journal_replaces_what_the_screen_held(
    desk: tuple[DeskModel, DaemonConnection, RefereeWindow], fake_daemon: Any, table_view: Any, qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    model, _, window = desk
    monkeypatch.setattr(adapter, "RECONNECT_MS", 100)
    running(fake_daemon, table_view, seq=400)
    qtbot.waitUntil(lambda: model.state.tables[3].seq == 400, timeout=2000)
    # the daemon comes back on a fresh journal: its sequence starts again, and table 1 is gone
    fake_daemon.tables = {2: table_view(2, seq=3), 3: table_view(3, phase="paused", seq=5)}
    fake_daemon.drop_subscribers()
    qtbot.waitUntil(lambda: model.state.connection == "offline", timeout=3000)
    qtbot.waitUntil(lambda: 3 in model.state.tables and model.state.tables[3].seq == 5, timeout=3000)
    assert model.state.tables[3].phase == "paused"
    qtbot.waitUntil(lambda: sorted(model.state.tables) == [2, 3], timeout=3000)
    qtbot.waitUntil(lambda: sorted(window.tables.cards) == [2, 3], timeout=2000)


def test_no_worker_thread_keeps_the_connection_alive(qtbot: QtBot, fake_daemon: Any) -> None:
    """A Qt object must be destroyed in the GUI thread: so no worker thread and no reference cycle
    through the model may hold the connection (Python's cycle collector runs in whatever thread
    allocates; a thread's last reference is dropped in that thread)."""
    import gc
    import weakref

    model = DeskModel()
    conn = DaemonConnection(model, host="127.0.0.1", port=fake_daemon.port, token=fake_daemon.token)
    conn.start()
    qtbot.waitUntil(lambda: len(model.state.tables) == 3 and len(model.state.timelines) == 3, timeout=3000)
    answered: list[bool] = []
    conn.send(Command(Action.NOTE, {"table": 1, "text": "x"}), lambda o: answered.append(o.ok))
    qtbot.waitUntil(lambda: answered == [True], timeout=3000)
    conn.stop()
    ref = weakref.ref(conn)
    gc.disable()
    try:
        del conn
        assert ref() is None  # gone by reference counting, here, in the GUI thread
    finally:
        gc.enable()
    model.set_tables([])  # the model outlives it and no longer calls it
