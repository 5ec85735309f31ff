"""One desk for every event: a Puzzle Duel session and a hall timer in one daemon, on one desk.

The referee picks the event shown from the list of every event; a hall timer has its own
panel (the big time, the next signal, the stations and their finishes) and its signals —
"ZMIANA", "KONIEC" — sound on the desk and flash across the audience screen.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint
from pytestqt.qtbot import QtBot

from clockd.core.clock import Side
from clockd.core.hall import TimerAdjust, TimerStart
from gui.audience import AudienceWindow
from tests.gui.live import Desk, Running, button_for, drawn_session, relay


def test_every_event_is_listed_and_the_referee_chooses_the_one_shown(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = daemon.client()
    session = drawn_session(client)
    hall = relay(client)
    model, window = desk.model, desk.window
    qtbot.waitUntil(lambda: len(model.state.events) == 2, timeout=5000)
    box = window.events_box
    assert [box.itemText(i) for i in range(box.count())] == [
        "Piątek 19.06, 15:00–17:30 — Puzzlowy Pojedynek",
        "Sztafeta par — impreza na czas",
    ]
    assert [a.text() for a in window.menu_events.actions()] == [box.itemText(i) for i in range(box.count())]
    # the session is being played: it is shown, with its bracket and check-in
    assert model.state.shown == session.id and window.event_view.currentWidget() is window.bracket
    assert window.tabs.isTabVisible(1)
    box.setCurrentIndex(1)
    box.activated.emit(1)  # as a click on the list does
    qtbot.waitUntil(lambda: window.event_view.currentWidget() is window.hall_panel, timeout=3000)
    assert model.state.shown == hall.id and model.state.chosen
    assert window.header.title.text() == "Sztafeta par"
    assert window.header.session.text() == "impreza na czas · nierozpoczęty"
    assert not window.tabs.isTabVisible(1)  # a hall timer has no check-in
    assert window.tables.shown_tables() == [5, 6]  # its stations
    assert window.selected_table == 5  # the page's first table is the one beside it
    [menu_session] = [a for a in window.menu_events.actions() if a.text().startswith("Piątek")]
    menu_session.trigger()
    qtbot.waitUntil(lambda: window.event_view.currentWidget() is window.bracket, timeout=3000)
    assert window.tables.shown_tables() == [1, 2, 3, 4, 7, 8]  # not the relay's stations
    assert window.selected_table == 1


def test_the_hall_panel_shows_the_daemons_timer_and_its_stations(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = daemon.client()
    hall = relay(client)
    model, window = desk.model, desk.window
    qtbot.waitUntil(lambda: hall.id in model.state.events, timeout=5000)
    window.select_event(hall.id)
    qtbot.waitUntil(lambda: window.hall.isVisible(), timeout=3000)
    view = window.hall

    def text(role: str, key: str = "") -> str:
        return next(i.text for i in view.items_with(role=role, key=key))

    assert text("hall-time") == "1:00:00" and text("hall-phase") == "NIEROZPOCZĘTY"
    assert text("hall-next") == "nierozpoczęta"
    assert text("station-finish", "Para 1") == "stolik 5  —"
    client.act(hall.key, TimerStart())
    qtbot.waitUntil(lambda: text("hall-phase") == "TRWA", timeout=5000)
    assert text("hall-next").startswith("następny sygnał za ") and text("hall-next").endswith("(o 5:00)")
    assert text("hall-signals") == "sygnały: 0 z 11 · co 5:00"

    daemon.clocks[6].press(Side.A)  # "Para 2" pressed their table's button: finished
    qtbot.waitUntil(lambda: text("station-finish", "Para 2").startswith("stolik 6  0:"), timeout=5000)
    finish = model.state.hall.stations[1].finished_ms  # type: ignore[union-attr]
    assert finish is not None
    card = next(i.text for i in window.tables.items_with(key="6", role="finish"))
    assert card == f"ukończone: {text('station-finish', 'Para 2').split()[-1]}"
    assert next(i.text for i in window.tables.items_with(key="6", role="phase")) == "UKOŃCZONE"
    # the daemon's timeline of the event shows it too, with the button as its source
    rows = window.event_timeline.timeline
    qtbot.waitUntil(lambda: rows.rowCount() >= 2, timeout=3000)
    last = [rows.data(rows.index(rows.rowCount() - 1, c)) for c in range(rows.columnCount())]
    assert last[3] == "zapisz ukończenie" and "przyciskiem na stoliku" in last[4]


def test_a_hall_signal_sounds_on_the_desk_and_flashes_on_the_audience_screen(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = daemon.client()
    hall = relay(client)
    model, window = desk.model, desk.window
    qtbot.waitUntil(lambda: hall.id in model.state.events, timeout=5000)
    window.select_event(hall.id)
    audience = AudienceWindow(model)
    qtbot.addWidget(audience)
    audience.resize(1280, 720)
    audience.show()
    client.act(hall.key, TimerStart())
    # five minutes taken from the event's time: the first "ZMIANA" is due now
    client.act(hall.key, TimerAdjust(delta_ms=-300_000, reason="start sprzed pięciu minut"))
    qtbot.waitUntil(lambda: window.beeps == 1, timeout=5000)
    assert window.statusBar().currentMessage() == "Sygnał: ZMIANA — Sztafeta par"
    qtbot.waitUntil(audience.flash.isVisible, timeout=3000)
    assert audience.flash.text() == "ZMIANA"
    img = audience.grab().toImage()
    inside = audience.flash.geometry().topLeft() + QPoint(30, 30)
    assert img.pixelColor(inside).name() == "#ffd84d"  # the flash, in the hall's highlight, across the screen
    audience._flash_timer.timeout.emit()  # its few seconds are up
    assert not audience.flash.isVisible()
    # the rest of the hour taken too, but for half a second: the signals still due, then the end
    [now] = client.events([hall.key]).events
    left = now.body.timer.remaining_ms  # type: ignore[attr-defined]
    client.act(hall.key, TimerAdjust(delta_ms=-(left - 500), reason="koniec zaraz"))
    qtbot.waitUntil(lambda: audience.flash.text() == "KONIEC", timeout=10_000)
    assert audience.flash.isVisible()
    qtbot.waitUntil(
        lambda: model.state.hall is not None and model.state.hall.timer.phase == "ended", timeout=5000
    )
    assert window.beeps >= 2
    assert next(i.text for i in window.hall.items_with(role="hall-time")) == "0:00"
    start = button_for(window, window.act_timer_start)
    assert not start.isEnabled() and start.toolTip() == "zegar imprezy już wystartował (zakończony)"


def test_a_desk_opened_mid_session_shows_the_match_on_its_first_table(qtbot: QtBot, daemon: Running) -> None:
    """The tables' states may arrive before the session's: the table's match is still found."""
    from clockd.core.bracket import Assign
    from tests.gui.live import open_desk

    client = daemon.client()
    drawn_session(client)
    client.act("pt/R1-1", Assign(table=1))
    d = open_desk(qtbot, daemon)
    qtbot.waitUntil(lambda: d.window.current_match() is not None, timeout=5000)
    match = d.window.current_match()
    assert match is not None and (match.id, d.window.selected_table) == ("R1-1", 1)
    assert d.window.match_label.text().startswith("Pojedynek R1-1: ")
    d.connection.stop()
