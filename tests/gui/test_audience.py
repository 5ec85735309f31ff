"""The audience screen never shows a field marked private — whatever the state holds."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QAbstractButton, QLabel
from pytestqt.qtbot import QtBot

from clockd.core.units import SECOND
from gui.audience import AudienceWindow
from gui.demo import demo_state
from gui.model import DeskModel, Player, private_fields
from gui.style import HALL

T0 = 1_000 * SECOND


def everything_shown(window: AudienceWindow) -> list[str]:
    """Every text on the screen: painted items, labels, the window title."""
    texts = [window.windowTitle()]
    texts += window.bracket.shown_texts() + window.live.shown_texts()
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


def test_surnames_emails_phones_and_ages_never_reach_the_audience(qtbot: QtBot) -> None:
    state = demo_state(T0)
    # make every surname unmistakable, and long enough that any leak would be seen
    players = {
        pid: p.model_copy(update={"full_name": f"{p.full_name.split()[0]} Tajnowska-{pid}"})
        for pid, p in state.players.items()
    }
    model = DeskModel(state.model_copy(update={"players": players}))
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
    model.set_players(players.values())
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
    assert state.bracket is not None
    matches = dict(state.bracket.matches)
    for mid in ("R2-3", "R2-4"):  # the quarter-finals on the clocks end …
        matches[mid] = matches[mid].model_copy(update={"status": "decided", "winner": matches[mid].a})
    matches["R4-1"] = matches["R4-1"].model_copy(update={"a": 5, "b": 13, "status": "decided", "winner": 13})
    matches["R5-1"] = matches["R5-1"].model_copy(update={"a": 1, "b": 9, "status": "decided", "winner": 9})
    bracket = state.bracket.model_copy(update={"matches": matches})
    model = DeskModel(state.model_copy(update={"bracket": bracket}))
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
    state = demo_state(T0).model_copy(update={"bracket": None})
    window = AudienceWindow(DeskModel(state), clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    assert not window.bracket.isVisible() and window.live_panel.isVisible()
    assert window.live.shown_tables() == [2, 3, 4]  # every table whose clock is not just set
    assert window.live.width() > 1800
