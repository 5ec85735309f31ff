"""The audience screen never shows a field marked private — whatever the state holds."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QAbstractButton, QLabel
from pytestqt.qtbot import QtBot

from clockd.core.units import SECOND
from gui.audience import AudienceWindow
from gui.demo import RELAY, SESSION, demo_state
from gui.deskmodel import DeskModel
from gui.model import DeskState, Player, private_fields
from gui.style import HALL

T0 = 1_000 * SECOND


def everything_shown(window: AudienceWindow) -> list[str]:
    """Every text on the screen: painted items, labels, the window title."""
    texts = [window.windowTitle()]
    texts += window.bracket.shown_texts() + window.live.shown_texts() + window.hall.shown_texts()
    texts += [label.text() for label in window.findChildren(QLabel) if label.isVisible()]
    return [t for t in texts if t]


def private_values(players: dict[int, Player]) -> list[str]:
    out = []
    for p in players.values():
        for name in private_fields(Player):
            value = getattr(p, name)
            if value not in (None, ""):
                out.append(str(value))
    return out


def leaks(shown: list[str], secrets: list[str]) -> list[tuple[str, str]]:
    found = []
    for secret in secrets:
        for text in shown:
            # a number (an age) leaks only as a text of its own; anything longer leaks as a substring
            if (secret.isdigit() and text.strip() == secret) or (not secret.isdigit() and secret in text):
                found.append((secret, text))
    return found


def with_players(state: DeskState, players: dict[int, Player]) -> DeskState:
    """``state`` with the session's players replaced."""
    event = state.events[SESSION]
    assert event.session is not None
    session = event.session.model_copy(update={"players": players})
    return state.model_copy(
        update={"events": {**state.events, SESSION: event.model_copy(update={"session": session})}}
    )


def test_surnames_emails_phones_and_ages_never_reach_the_audience(qtbot: QtBot) -> None:
    state = demo_state(T0)
    # make every surname unmistakable, and long enough that any leak would be seen
    players = {
        pid: p.model_copy(update={"full_name": f"{p.full_name.split()[0]} Tajnowska-{pid}"})
        for pid, p in state.players.items()
    }
    model = DeskModel(with_players(state, players))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)

    shown = everything_shown(window)
    secrets = private_values(players)
    assert len(secrets) >= 4 * len(players)  # the state really holds private data
    assert leaks(shown, secrets) == []
    # … while the display names are on screen (so the check above looked at real text)
    for name in ("Zofia Ł.", "Helena M.", "Bartłomiej K."):
        assert any(name in t for t in shown), name
    # and the window itself never holds what it must not show
    assert private_values(window.state.players) == []


def test_private_data_arriving_later_stays_off_the_screen_too(qtbot: QtBot) -> None:
    model = DeskModel(demo_state(T0))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1600, 900)
    window.show()
    newcomer = Player(
        id=3,
        display_name="Agnieszka Ś.",
        full_name="Agnieszka Ślęzak-Zmieniona",
        email="nowy.adres@example.pl",
        phone="+48 999 888 777",
        age=71,
    )
    players = {**model.state.players, 3: newcomer}
    model.replace(with_players(model.state, players))
    qtbot.waitUntil(
        lambda: (
            window.state.players.get(3) is not None and window.state.players[3].display_name == "Agnieszka Ś."
        ),
        timeout=2000,
    )
    assert leaks(everything_shown(window), private_values({3: newcomer})) == []
    assert any("Agnieszka Ś." in t for t in everything_shown(window))


def test_the_audience_has_big_live_clocks_with_the_running_side_highlighted(qtbot: QtBot) -> None:
    model = DeskModel(demo_state(T0))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    live = window.live
    assert live.shown_tables() == [3, 4]  # the two duels on a clock; idle and finished tables are not shown
    times = {(i.key, i.role): i for i in live.items if i.role.startswith("time-")}
    assert times[("3", "time-b")].text == "5:18" and times[("4", "time-a")].text == "0:39"
    assert min(i.font.pixelSize() for i in times.values()) >= 60  # readable from the back of a hall
    img = live.grab().toImage()

    def inside(role: str) -> QPoint:  # a point in the clock box, clear of its rounded corner and digits
        box = next(b for b in live.boxes if b.key == "3" and b.role == role)
        return QPoint(box.rect.left() + box.rect.width() // 10, box.rect.top() + box.rect.height() // 5)

    assert QColor(img.pixelColor(inside("clock-b"))) == QColor(HALL.running)
    assert QColor(img.pixelColor(inside("clock-a"))) != QColor(HALL.running)


def test_the_audience_screen_has_no_controls(qtbot: QtBot) -> None:
    window = AudienceWindow(DeskModel(demo_state(T0)), clock=lambda: T0)
    qtbot.addWidget(window)
    assert window.findChildren(QAbstractButton) == []
    assert window.findChildren(QAction) == []


def test_when_the_final_is_decided_the_podium_takes_the_live_panels_place(qtbot: QtBot) -> None:
    state = demo_state(T0)
    bracket = state.bracket
    assert bracket is not None
    matches = dict(bracket.matches)
    for mid in ("R2-3", "R2-4"):  # the quarter-finals on the clocks end …
        matches[mid] = matches[mid].model_copy(update={"status": "decided", "winner": matches[mid].a})
    matches["R4-1"] = matches["R4-1"].model_copy(update={"a": 5, "b": 13, "status": "decided", "winner": 13})
    matches["R5-1"] = matches["R5-1"].model_copy(update={"a": 1, "b": 9, "status": "decided", "winner": 9})
    # … and the daemon's podium says who stands where (§2.2.20)
    done = bracket.model_copy(update={"matches": matches, "podium": (9, 1, 13)})
    event = state.events[SESSION]
    assert event.session is not None
    session = event.session.model_copy(update={"bracket": done, "stage": "finished"})
    events = {**state.events, SESSION: event.model_copy(update={"session": session})}
    model = DeskModel(state.model_copy(update={"events": events}))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    assert not window.live_panel.isVisible()
    assert window.podium.isVisible()
    assert window.podium.title.text() == "MISTRZ POJEDYNKÓW"
    assert [p.text() for p in window.podium.places] == ["1. Stanisław Ź.", "2. Zofia Ł.", "3. Tomasz S."]


def test_without_a_bracket_the_clocks_get_the_whole_screen(qtbot: QtBot) -> None:
    state = demo_state(T0)
    event = state.events[SESSION]
    assert event.session is not None
    before_draw = event.model_copy(update={"session": event.session.model_copy(update={"bracket": None})})
    window = AudienceWindow(
        DeskModel(state.model_copy(update={"events": {**state.events, SESSION: before_draw}})),
        clock=lambda: T0,
    )
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    assert not window.bracket.isVisible() and window.live_panel.isVisible()
    assert window.live.shown_tables() == [2, 3, 4]  # every clock that is not just set; not the stations
    assert window.live.width() > 1800


def test_a_hall_timer_gets_the_screen_with_its_big_time_and_the_stations(qtbot: QtBot) -> None:
    model = DeskModel(demo_state(T0, shown="relay"))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    assert window.hall.isVisible() and not window.bracket.isVisible() and not window.live_panel.isVisible()
    big = next(window.hall.items_with(role="hall-time"))
    assert big.text == "37:19" and big.font.pixelSize() >= 250  # the hour's time left, seen from the back
    assert next(window.hall.items_with(role="hall-next")).text == "następny sygnał za 2:19 (o 25:00)"
    finishes = {i.key: i.text for i in window.hall.items_with(role="station-finish")}
    assert finishes == {
        "Para 1 — Ala i Ola": "—",
        "Para 2 — Kuba i Igor": "21:07.412",
        "Para 3 — Ewa i Jan": "—",
    }
    assert window.header.title.text() == "Sztafeta par"
    # a minute later on the hall's own clock, the big time has moved on without a message
    window.clock = lambda: T0 + 60 * SECOND
    window.tick()
    assert next(window.hall.items_with(role="hall-time")).text == "36:19"


def test_a_signal_flashes_only_for_the_event_on_the_screen(qtbot: QtBot) -> None:
    model = DeskModel(demo_state(T0, shown="relay"))
    window = AudienceWindow(model, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    model.flash(SESSION, "signal", 300_000, T0)  # another event's signal
    window._flush()  # what the window draws of it, now (not waiting for the event loop's turn)
    assert not window.flash.isVisible()
    model.flash(RELAY, "signal", 1_500_000, T0)
    qtbot.waitUntil(window.flash.isVisible, timeout=2000)
    assert window.flash.text() == "ZMIANA"
    model.flash(RELAY, "pre", -600_000, T0)
    qtbot.waitUntil(lambda: window.flash.text() == "START ZA 10 MIN", timeout=2000)
