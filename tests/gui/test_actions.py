"""The daemon says what may be done; the referee's buttons show exactly that (issue 12).

Every test runs the real daemon and the real referee window: a control is enabled when
the daemon's view allows its action, and when it does not, the control is disabled and its
tooltip is the daemon's own reason, rendered in Polish. After a change in the daemon, the
controls follow its new word.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.core.bracket import Assign, Toss
from clockd.core.clock import Pause, Side
from gui import translations
from tests.gui.live import Desk, Running, button_for, drawn_session, relay


def wait_for(qtbot: QtBot, condition: object, timeout: int = 5000) -> None:
    qtbot.waitUntil(condition, timeout=timeout)  # type: ignore[arg-type]


def select_r11(qtbot: QtBot, desk: Desk) -> None:
    model, window = desk.model, desk.window
    wait_for(qtbot, lambda: model.state.bracket is not None and "R1-1" in model.state.bracket.matches)
    window.select_match("R1-1")


def test_a_refused_match_action_is_disabled_and_says_the_daemons_reason_in_polish(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    drawn_session(daemon.client())
    select_r11(qtbot, desk)
    window = desk.window
    confirm = button_for(window, window.act_confirm)
    assert confirm.text() == "Zatwierdź wynik"
    assert not confirm.isEnabled()
    assert confirm.toolTip() == "mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „do rozegrania”)"
    toss = button_for(window, window.act_toss)
    assert not toss.isEnabled()
    assert toss.toolTip() == (
        "losowanie rozpoczynającego w meczu R1-1 odbywa się, gdy mecz jest przy stoliku; "
        "stan: „do rozegrania”"
    )
    # … and what the daemon allows is offered
    assign = button_for(window, window.act_assign)
    assert assign.isEnabled() and assign.toolTip() == "Na stolik… (Ctrl+M)"
    walkover = button_for(window, window.act_walkover)
    assert walkover.isEnabled()
    # pressing the disabled one sends nothing: the match is as it was
    window.act_confirm.trigger()
    assert desk.model.state.bracket is not None
    assert desk.model.state.bracket.matches["R1-1"].status == "ready"


def test_the_tooltips_follow_the_daemon_after_a_change(qtbot: QtBot, daemon: Running, desk: Desk) -> None:
    """Assign → the toss becomes allowed; the toss → the clock may be started, not paused; a press
    starts it → pause is allowed and resume is refused, with the clock's own reason."""
    event = drawn_session(daemon.client())
    select_r11(qtbot, desk)
    window, model = desk.window, desk.model
    toss = button_for(window, window.act_toss)
    assert not toss.isEnabled()

    window.send(f"{event.id}/R1-1", Assign(table=1))
    wait_for(qtbot, toss.isEnabled)
    assert toss.toolTip() == "Rzut… (Ctrl+R)"
    confirm = button_for(window, window.act_confirm)
    assert confirm.toolTip() == "mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „trwa”)"
    assert window.selected_table == 1  # the match's table is the one shown beside it
    pause, resume = button_for(window, window.act_pause), button_for(window, window.act_resume)
    assert not pause.isEnabled()
    assert pause.toolTip() == "losowanie w tym pojedynku nie jest jeszcze zapisane: zapisz je najpierw"

    bracket = model.state.bracket
    assert bracket is not None
    winner = bracket.matches["R1-1"].a
    assert winner is not None
    window.send(f"{event.id}/R1-1", Toss(winner=winner))
    wait_for(qtbot, lambda: "rozpoczyna go naciśnięcie" in pause.toolTip())
    assert pause.toolTip() == "pojedynek się nie zaczął: rozpoczyna go naciśnięcie przegranego losowania"

    # the toss loser (clock side b: the match's first entrant sits at a) starts the winner's time
    daemon.clocks[1].press(Side.B)
    wait_for(qtbot, pause.isEnabled)
    assert not resume.isEnabled()
    assert resume.toolTip() == "wznowić można tylko wstrzymany zegar; ten jest: trwa"
    assert window.act_toggle.isEnabled()


def test_resume_on_a_running_clock_is_refused_and_pause_then_swaps_them(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    """A table's own chess clock (no event on it): either side starts it."""
    window, model = desk.window, desk.model
    window.select_table(2)
    daemon.clocks[2].press(Side.A)
    wait_for(qtbot, lambda: model.state.tables[2].phase == "running")
    pause, resume = button_for(window, window.act_pause), button_for(window, window.act_resume)
    wait_for(qtbot, pause.isEnabled)
    assert not resume.isEnabled()
    assert resume.toolTip() == "wznowić można tylko wstrzymany zegar; ten jest: trwa"
    pause.click()
    wait_for(qtbot, resume.isEnabled)
    assert not pause.isEnabled()
    assert pause.toolTip() == "wstrzymać można tylko chodzący zegar; ten jest: pauza"
    with daemon.client() as c:
        assert c.status([2]).tables[0].program.clock.phase == "paused"  # type: ignore[attr-defined]
    # the other tables were not touched
    assert model.state.tables[3].phase == "ready"


def test_a_players_and_a_sessions_actions_come_from_the_daemon(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    from clockd.core.actions import CreateEvent
    from clockd.core.puzzle_duel import ImportSignups
    from tests.gui.live import SIGNUPS

    client = daemon.client()
    client.act("", CreateEvent(event_kind="puzzle-duel", key="sb", name="Sobota 20.06"))
    client.act("sb", ImportSignups(csv=SIGNUPS.read_text(encoding="utf-8"), source="zapisy.csv"))
    window, model = desk.window, desk.model
    wait_for(qtbot, lambda: len(model.state.players) == 20)
    window.tabs.setCurrentIndex(1)
    window.players.selectRow(0)
    first = window.current_player()
    assert first is not None
    checkout = button_for(window, window.act_checkout)
    assert not checkout.isEnabled()
    assert checkout.toolTip() == f"{first.display_name} nie potwierdził(a) obecności"
    checkin = button_for(window, window.act_checkin)
    assert checkin.isEnabled()
    draw = button_for(window, window.act_draw)
    assert not draw.isEnabled() and draw.toolTip() == "losowanie odbywa się po zamknięciu rejestracji"
    imported = button_for(window, window.act_import)
    assert imported.isEnabled()  # a later export of the form may be imported again

    checkin.click()
    wait_for(qtbot, checkout.isEnabled)
    assert not checkin.isEnabled()
    assert checkin.toolTip() == f"{first.display_name} już potwierdził(a) obecność"


def test_a_hall_timers_buttons_follow_its_phase(qtbot: QtBot, daemon: Running, desk: Desk) -> None:
    client = daemon.client()
    event = relay(client)
    window, model = desk.window, desk.model
    wait_for(qtbot, lambda: event.id in model.state.events)
    window.select_event(event.id)
    wait_for(qtbot, lambda: window.event_view.currentWidget() is window.hall_panel)
    start = button_for(window, window.act_timer_start)
    pause = button_for(window, window.act_timer_pause)
    resume = button_for(window, window.act_timer_resume)
    assert start.isEnabled()
    assert not pause.isEnabled() and pause.toolTip() == "zegar imprezy nie chodzi (nierozpoczęty)"
    start.click()
    wait_for(qtbot, pause.isEnabled)
    assert not start.isEnabled()
    assert not resume.isEnabled()
    with daemon.client() as c:
        [shown] = c.events([event.key]).events
    assert shown.body.timer.phase == "running"  # type: ignore[attr-defined]


def test_the_reasons_are_in_english_when_the_referee_switches(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    drawn_session(daemon.client())
    select_r11(qtbot, desk)
    window = desk.window
    window.set_language("en")
    confirm = button_for(window, window.act_confirm)
    wait_for(qtbot, lambda: confirm.text() == "Confirm result")
    assert confirm.toolTip() == "match R1-1 has no result to confirm (it is to play)"
    window.set_language("pl")
    wait_for(qtbot, lambda: confirm.text() == "Zatwierdź wynik")
    assert confirm.toolTip() == "mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „do rozegrania”)"
    assert translations.chosen_language() == "pl"


def test_a_refusal_arriving_after_a_click_is_the_daemons_polish_sentence(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    """An action the view allowed but the daemon then refused (the state moved on): the refusal
    in the status bar is the daemon's reason, in Polish."""
    window = desk.window
    window.select_table(4)
    window.send(window.model.state.tables[4].target, Pause())
    wait_for(qtbot, lambda: bool(window.last_refusal))
    assert (
        window.last_refusal == "Nie wykonano: pauza — wstrzymać można tylko chodzący zegar; ten jest: gotowy"
    )


def test_check_in_by_the_name_the_person_says_with_the_clis_numbers(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    """Issue 18, item 5: a search field finds the player; No. is the number the CLI takes."""
    from clockd.core.actions import CreateEvent
    from clockd.core.puzzle_duel import ImportSignups
    from tests.gui.live import SIGNUPS

    client = daemon.client()
    client.act("", CreateEvent(event_kind="puzzle-duel", key="sb", name="Sobota 20.06"))
    client.act("sb", ImportSignups(csv=SIGNUPS.read_text(encoding="utf-8"), source="zapisy.csv"))
    window, model = desk.window, desk.model
    wait_for(qtbot, lambda: len(model.state.players) == 20)
    window.tabs.setCurrentIndex(1)
    table = window.players
    first_reserve = next(p for p in model.state.players.values() if p.list == "reserve" and p.order == 1)
    row = next(r for r in range(table.rowCount()) if table.item(r, 2).text() == first_reserve.display_name)
    assert table.item(row, 1).text() == str(first_reserve.id) == "17"  # as `tournament checkin 17`
    assert table.item(row, 0).text() == "rezerwowa 1"
    someone = model.state.players[5]
    typed = someone.display_name.lower().replace(".", "")  # as heard: "anna k"
    qtbot.keyClicks(window.player_search, typed)
    shown = [r for r in range(table.rowCount()) if not table.isRowHidden(r)]
    assert [table.item(r, 2).text() for r in shown] == [someone.display_name]
    qtbot.keyClick(window.player_search, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: model.state.players[5].presence == "present")
    window.player_search.clear()
    assert all(not table.isRowHidden(r) for r in range(table.rowCount()))
