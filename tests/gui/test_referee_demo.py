"""The referee window on the demo state: its controls say what the core's rules allow, and send nothing."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from clockd.core.bracket import Confirm
from gui.commands import Command, DemoSink
from gui.demo import demo_state
from gui.deskmodel import DeskModel
from gui.dialogs import ShortcutsDialog
from gui.referee import RefereeWindow
from tests.gui.live import button_for


def demo_window(qtbot: QtBot, shown: str | None = None) -> tuple[RefereeWindow, DemoSink]:
    sink = DemoSink()
    window = RefereeWindow(DeskModel(demo_state(0, shown=shown)), sink)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    return window, sink


def test_the_demos_buttons_follow_the_cores_rules_and_send_nothing(qtbot: QtBot) -> None:
    window, sink = demo_window(qtbot)
    window.select_match("R2-2")  # played, waiting for the referee
    confirm = button_for(window, window.act_confirm)
    assert confirm.isEnabled()
    assert window.selected_table == 2
    pause = button_for(window, window.act_pause)
    assert not pause.isEnabled() and pause.toolTip() == "pojedynek się zakończył"
    confirm.click()
    assert sink.sent == [Command("desk/pt/R2-2", Confirm())]
    assert window.statusBar().currentMessage() == "Demo: zatwierdź wynik nie wysłano (brak demona)."
    window.select_match("R1-1")
    assert not confirm.isEnabled()
    assert confirm.toolTip() == "mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „rozstrzygnięty”)"


def test_the_relays_page_offers_what_its_timer_allows(qtbot: QtBot) -> None:
    window, _ = demo_window(qtbot, shown="relay")
    assert window.event_view.currentWidget() is window.hall_panel
    start = button_for(window, window.act_timer_start)
    assert not start.isEnabled() and start.toolTip() == "zegar imprezy już wystartował (trwa)"
    assert button_for(window, window.act_timer_pause).isEnabled()
    assert button_for(window, window.act_timer_adjust).isEnabled()
    assert not button_for(window, window.act_timer_resume).isEnabled()


def test_the_keyboard_shortcuts_list_comes_from_the_actions(qtbot: QtBot) -> None:
    window, _ = demo_window(qtbot)
    rows = dict(window.shortcut_rows())
    assert rows["Ctrl+P"] == "Pauza / wznowienie"
    assert rows["Ctrl+Return"] == "Zatwierdź wynik"
    assert rows["Ctrl+Shift+S"] == "Start"
    assert rows["F1"] == "Skróty klawiszowe"
    assert rows["Ctrl+1 … Ctrl+9"] == "Wybierz stolik 1–9"
    dialog = ShortcutsDialog(window.shortcut_rows(), window)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Skróty klawiszowe"
    assert len(dialog.findChildren(type(window.side_title))) == 2 * len(window.shortcut_rows())


def test_the_audience_screen_on_one_monitor_is_a_window_that_escape_takes_out_of_full_screen(
    qtbot: QtBot,
) -> None:
    """Issue 18, item 9: on a single monitor it must not cover the referee's window."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    window, _ = demo_window(qtbot)
    assert len(QGuiApplication.screens()) == 1  # offscreen: one monitor, as on a referee's laptop
    window.toggle_audience()
    audience = window.audience
    assert audience is not None
    qtbot.waitExposed(audience)
    assert audience.isVisible() and not audience.isFullScreen()
    audience.showFullScreen()
    qtbot.waitUntil(audience.isFullScreen)
    audience.activateWindow()  # the projector's window has the keyboard when the referee clicks it
    qtbot.waitUntil(audience.isActiveWindow)
    qtbot.keyClick(audience, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not audience.isFullScreen())
    assert audience.isVisible()  # out of full screen, still open
    rows = dict(window.shortcut_rows())
    assert rows["Esc"] == "Ekran widowni: wyjście z pełnego ekranu"
    assert rows["Ctrl+Q"] == "Ekran widowni: zamknij"
    window.toggle_audience()


def test_the_keyboard_shortcuts_list_names_every_shortcut_the_window_has(qtbot: QtBot) -> None:
    from PySide6.QtGui import QAction, QKeySequence

    window, _ = demo_window(qtbot)
    listed = {keys for keys, _ in window.shortcut_rows()}
    native = QKeySequence.SequenceFormat.NativeText
    for action in window.findChildren(QAction):
        keys = action.shortcut().toString(native)
        if keys and action not in [*window.act_tables, *window.act_finish_n]:
            assert keys in listed, action.text()
