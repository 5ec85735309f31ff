"""End to end: a whole session from the referee window, on the real daemon; players press its clocks.

Every step is one the referee takes at the desk — the window sends the core's action, the
daemon journals and applies it, and the screen shows what the daemon then says (the
bracket, the clocks, the buttons allowed next).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from clockd.core.actions import Action, CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.clock import Adjust, Side
from clockd.core.puzzle_duel import MakeDraw
from clockd.core.registration import AddPlayer, CheckIn, CloseCheckIn
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow
from tests.gui.live import Desk, Running, button_for


def sent(qtbot: QtBot, window: RefereeWindow, target: str, action: Action) -> None:
    """As the window sends it (a dialog's action), waiting for the daemon's answer."""
    window.send(target, action)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(("Wykonano", "Nie wykonano")),
                    timeout=5000)  # fmt: skip
    assert window.statusBar().currentMessage().startswith("Wykonano"), window.last_refusal
    window.statusBar().clearMessage()


def status_of(model: DeskModel, match_id: str) -> str:
    bracket = model.state.bracket
    return bracket.matches[match_id].status if bracket is not None else ""


def card_rows(window: RefereeWindow, match_id: str) -> list[QPoint]:
    card = window.bracket.cards[match_id]
    return [
        QPoint(card.left() + card.width() // 4, int(card.top() + card.height() * f)) for f in (0.48, 0.80)
    ]


def names_in(window: RefereeWindow, match_id: str) -> set[str]:
    return {window.bracket.text_at(p) for p in card_rows(window, match_id)}


def chip_of(window: RefereeWindow, match_id: str) -> str:
    return next((i.text for i in window.bracket.items_with(key=match_id, role="chip")), "")


def test_a_whole_semi_final_from_the_referee_window(qtbot: QtBot, daemon: Running, desk: Desk) -> None:
    """Session, players, check-in, draw, a duel on a clock, complete, confirm: all sent by the GUI."""
    model, window = desk.model, desk.window
    sent(qtbot, window, "", CreateEvent(event_kind="puzzle-duel", key="sb", name="Sobota 20.06"))
    qtbot.waitUntil(lambda: model.state.event is not None and model.state.event.key == "sb", timeout=5000)
    event = model.state.event
    assert event is not None and window.events_box.currentText() == "Sobota 20.06 — Puzzlowy Pojedynek"
    for first in ("Ala", "Bogdan", "Celina", "Dariusz"):
        sent(qtbot, window, event.id, AddPlayer(first_name=first, last_name="Źdźbło", age=30))
    qtbot.waitUntil(lambda: len(model.state.players) == 4, timeout=5000)
    assert {p.display_name for p in model.state.players.values()} == {
        "Ala Ź.",
        "Bogdan Ź.",
        "Celina Ź.",
        "Dariusz Ź.",
    }
    for pid in list(model.state.players):
        sent(qtbot, window, event.id, CheckIn(player=pid))
    sent(qtbot, window, event.id, CloseCheckIn())
    sent(qtbot, window, event.id, MakeDraw(seed=5))
    qtbot.waitUntil(lambda: model.state.bracket is not None, timeout=5000)
    bracket = model.state.bracket
    assert bracket is not None
    semi = bracket.round_matches(bracket.knockout_rounds[-1].number)[0]
    a, b = semi.a, semi.b
    assert a is not None and b is not None
    qtbot.waitUntil(
        lambda: names_in(window, semi.id) == {model.state.name(a), model.state.name(b)}, timeout=3000
    )

    sent(qtbot, window, f"{event.id}/{semi.id}", Assign(table=1, clock_a=a))
    sent(qtbot, window, f"{event.id}/{semi.id}", Toss(winner=a))
    daemon.clocks[1].press(Side.B)  # the toss loser (at side b) starts a's time
    qtbot.waitUntil(lambda: model.state.tables[1].phase == "running", timeout=5000)
    window.select_table(1)
    complete = button_for(window, window.act_complete)
    qtbot.waitUntil(complete.isEnabled, timeout=3000)
    # a referee's correction makes the result clear (the duel has barely begun)
    sent(qtbot, window, "desk/1", Adjust(side=Side.B, delta_ms=-20_000, reason="dotknął elementów rywala"))
    qtbot.mouseClick(complete, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_of(model, semi.id) == "result", timeout=5000)
    qtbot.waitUntil(lambda: chip_of(window, semi.id) == "DO ZATWIERDZENIA", timeout=3000)
    window.select_match(semi.id)
    confirm = button_for(window, window.act_confirm)
    qtbot.waitUntil(confirm.isEnabled, timeout=3000)
    qtbot.mouseClick(confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_of(model, semi.id) == "decided", timeout=5000)
    after = model.state.bracket
    assert after is not None and after.final is not None
    assert after.matches[semi.id].winner == a  # b lost 20 s to the referee's correction
    final = after.round_matches(after.final.number)[0]
    assert a in (final.a, final.b)  # … and a went on to the final, on screen too
    qtbot.waitUntil(lambda: model.state.name(a) in names_in(window, final.id), timeout=3000)
    assert not confirm.isEnabled()  # the result is confirmed: the daemon says there is nothing to confirm
    assert "nie ma wyniku do zatwierdzenia" in confirm.toolTip()
    window.select_table(1)  # the confirmed duel gave its table back: the desk says so
    qtbot.waitUntil(lambda: "oddany przez imprezę: stolik wolny" in window.side_match.text(), timeout=3000)


def test_importing_sign_ups_shows_who_was_refused_and_why(
    qtbot: QtBot, daemon: Running, desk: Desk, tmp_path: Path
) -> None:
    """A spreadsheet saved on a Polish Windows: the people are in, the refused are named, with why."""
    model, window = desk.model, desk.window
    sent(qtbot, window, "", CreateEvent(event_kind="puzzle-duel", key="nd", name="Niedziela 21.06"))
    qtbot.waitUntil(lambda: window.act_import.isEnabled(), timeout=5000)
    csv = tmp_path / "zapisy.csv"
    lucja = "Łucja;Żak;l@example.pl;30\n"
    rows = "Imię;Nazwisko;E-mail;Wiek\n" + lucja + "Tymek;Mały;t@example.pl;11\n" + lucja
    csv.write_bytes(rows.encode("cp1250"))
    window.import_file(csv)
    qtbot.waitUntil(lambda: len(model.state.refusals) == 2, timeout=5000)
    assert [p.display_name for p in model.state.players.values()] == ["Łucja Ż."]
    window.tabs.setCurrentIndex(1)
    qtbot.waitUntil(window.refusals.isVisible, timeout=3000)
    lines = window.refusals.text().splitlines()
    assert lines[0] == "Odrzucone zgłoszenia (2):"
    assert lines[1].startswith("wiersz 3: Tymek M. — ") and "(§1.9)" in lines[1]
    assert (
        lines[2].startswith("wiersz 4: Łucja Ż. — ")
        and "co w wierszu 2; każdy zgłasza się raz (§1.14)" in lines[2]
    )
    assert model.state.public().refusals == ()  # never on the audience screen
    # the file is in; a later export of the form may still be imported (issue 18, item 3)
    assert window.act_import.isEnabled()


def test_a_file_that_is_not_text_is_refused_at_the_desk_in_polish(
    qtbot: QtBot, desk: Desk, tmp_path: Path
) -> None:
    window = desk.window
    sent(qtbot, window, "", CreateEvent(event_kind="puzzle-duel", key="nd"))
    qtbot.waitUntil(lambda: window.act_import.isEnabled(), timeout=5000)
    junk = tmp_path / "zdjęcie.csv"
    junk.write_bytes(bytes(range(256)) * 4)
    window.import_file(junk)
    assert "zdjęcie.csv" in window.last_refusal
    assert desk.model.state.players == {}


def test_a_namesake_with_other_contacts_is_shown_at_the_desk_for_the_referee_to_decide(
    qtbot: QtBot, daemon: Running, desk: Desk, tmp_path: Path
) -> None:
    """Issue 18, item 2: both stay listed; the desk says they may be one person, never the audience."""
    model, window = desk.model, desk.window
    sent(qtbot, window, "", CreateEvent(event_kind="puzzle-duel", key="nd", name="Niedziela 21.06"))
    qtbot.waitUntil(lambda: window.act_import.isEnabled(), timeout=5000)
    csv = tmp_path / "zapisy.csv"
    rows = "Imię;Nazwisko;E-mail;Wiek\nAnna;Kowalska;ak@example.pl;30\nJan;Nowak;jn@example.pl;30\n"
    csv.write_text(rows + "Anna;Kowalska;inny@example.pl;30\n", encoding="utf-8")
    window.import_file(csv)
    qtbot.waitUntil(lambda: len(model.state.players) == 3, timeout=5000)
    window.tabs.setCurrentIndex(1)
    qtbot.waitUntil(window.refusals.isVisible, timeout=3000)
    lines = window.refusals.text().splitlines()
    assert lines[0].startswith("Być może ta sama osoba")
    assert lines[1].startswith("wiersz 4: Anna K") and "to samo imię i nazwisko co w wierszu 2" in lines[1]
    assert model.state.public().possible_duplicates == ()  # never on the audience screen
