"""The bracket shows the entrants and results of a known state — probed at computed points.

A hand-made 8-player session: two quarter-finals decided, one on a clock right now, one
waiting for the referee's confirmation. The tests read what is drawn inside each card's
rows (the text at a point, and pixel colours of the grabbed image), never a golden image.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from clockd.core.units import SECOND
from clockd.i18n import Msg, msg
from gui.model import Bracket, Clock, DeskState, Event, Match, Player, Round, Score, Session, Table, texts
from gui.style import DESK, HALL
from gui.widgets.bracket import BracketWidget

T0 = 5_000 * SECOND
NAMES = {
    1: "Ala Ż.",
    2: "Bartek Ś.",
    3: "Celina Ó.",
    4: "Darek Ł.",
    5: "Ewa Ć.",
    6: "Filip Ń.",
    7: "Gosia Ą.",
    8: "Henryk Ę.",
}


def score(a: str, b: str, how: str = "time") -> Score:
    return Score(displayed=texts(a, b), decided_by=how)


def stage(name: str) -> Msg:
    """A round's name as the daemon sends it (the festival's, as typed)."""
    return msg("text.as-typed", text=name)


def clock(phase: str, a_ms: int, b_ms: int, running: str | None = None) -> Clock:
    return Clock.model_validate(
        {"phase": phase, "remaining_ms": {"a": a_ms, "b": b_ms}, "running": running, "to_move": running}
    )


def known_state() -> DeskState:
    rounds = (
        Round(number=1, name=stage("I · Ćwierćfinał"), players=8, pieces=99),
        Round(number=2, name=stage("II · Półfinał"), players=4, pieces=200),
        Round(number=3, name=stage("III · O 3. miejsce"), kind="third_place", players=2, pieces=200),
        Round(number=4, name=stage("IV · Finał"), kind="final", players=2, pieces=200),
    )
    matches = [
        Match(
            id="R1-1",
            round=1,
            slot=1,
            a=1,
            b=2,
            status="decided",
            winner=2,
            decided_by="time",
            score=score("0:45", "1:12"),
        ),
        Match(
            id="R1-2",
            round=1,
            slot=2,
            a=3,
            b=4,
            status="decided",
            winner=3,
            decided_by="flag",
            score=score("2:03", "0:00", "flag"),
        ),
        # on table 2; player 6 sits at the clock's side a and is to move
        Match(id="R1-3", round=1, slot=3, a=5, b=6, status="assigned", table=2, clock_a=6, toss_winner=6),
        Match(
            id="R1-4",
            round=1,
            slot=4,
            a=7,
            b=8,
            status="result",
            table=4,
            clock_a=7,
            winner=8,
            score=score("0:30", "0:31"),
        ),
        Match(id="R2-1", round=2, slot=1, a=2, b=3, status="ready"),
        Match(id="R2-2", round=2, slot=2),
        Match(id="R3-1", round=3, slot=1),
        Match(id="R4-1", round=4, slot=1),
    ]
    tables = {
        2: Table(
            table=2,
            program="puzzle-duel",
            owner="desk/pt/R1-3",
            clock=clock("running", 125_000, 61_000, running="a"),
            seq=40,
            received_ns=T0,
        ),
        4: Table(
            table=4,
            program="puzzle-duel",
            owner="desk/pt/R1-4",
            clock=clock("paused", 30_000, 30_200),
            over=True,
            seq=41,
            received_ns=T0,
        ),
    }
    players = {pid: Player(id=pid, display_name=name) for pid, name in NAMES.items()}
    session = Session(
        stage="bracket", players=players, bracket=Bracket(rounds=rounds, matches={m.id: m for m in matches})
    )
    event = Event(id="desk/pt", key="pt", kind="puzzle-duel", title=stage("Piątek"), session=session)
    return DeskState(events={event.id: event}, shown=event.id, tables=tables)


@pytest.fixture
def view(qtbot: QtBot) -> BracketWidget:
    v = BracketWidget()
    qtbot.addWidget(v)
    v.resize(1200, 640)
    v.set_state(known_state(), T0)
    return v


# Points inside a card, computed from its rectangle: the card is a header line over two
# rows (side a, then side b); a name sits in the left part, the time in the right part.
def name_point(card: QRect, side: str) -> QPoint:
    y = card.top() + card.height() * (0.48 if side == "a" else 0.80)
    return QPoint(card.left() + card.width() // 4, int(y))


def time_point(card: QRect, side: str) -> QPoint:
    y = card.top() + card.height() * (0.48 if side == "a" else 0.80)
    return QPoint(card.right() - card.width() // 8, int(y))


def close(pixel: QColor, expected: str, tolerance: int = 40) -> bool:
    want = QColor(expected)
    return all(
        abs(a - b) <= tolerance
        for a, b in zip(
            (pixel.red(), pixel.green(), pixel.blue()), (want.red(), want.green(), want.blue()), strict=True
        )
    )


def share(img: QImage, at: QPoint, colour: str, radius: int = 6) -> float:
    """The fraction of pixels around ``at`` that are ``colour`` (digits drawn over a box cover some)."""
    hits = total = 0
    for x in range(at.x() - radius, at.x() + radius + 1):
        for y in range(at.y() - radius // 2, at.y() + radius // 2 + 1):
            total += 1
            hits += close(img.pixelColor(x, y), colour)
    return hits / total


def image(view: BracketWidget) -> QImage:
    return view.grab().toImage()


def test_every_entrant_is_shown_in_its_row(view: BracketWidget) -> None:
    for mid, (a, b) in {
        "R1-1": (1, 2),
        "R1-2": (3, 4),
        "R1-3": (5, 6),
        "R1-4": (7, 8),
        "R2-1": (2, 3),
    }.items():
        card = view.cards[mid]
        assert view.text_at(name_point(card, "a")) == NAMES[a], mid
        assert view.text_at(name_point(card, "b")) == NAMES[b], mid


def test_played_duels_show_the_times_left_on_the_clock(view: BracketWidget) -> None:
    expected = {"R1-1": ("0:45", "1:12"), "R1-2": ("2:03", "0:00"), "R1-4": ("0:30", "0:31")}
    for mid, (a, b) in expected.items():
        card = view.cards[mid]
        assert view.text_at(time_point(card, "a")) == a, mid
        assert view.text_at(time_point(card, "b")) == b, mid


def test_winners_are_marked_and_losers_greyed(view: BracketWidget) -> None:
    img = image(view)
    card = view.cards["R1-1"]  # Bartek (side b) won
    bar_x = card.left() + 3
    assert close(img.pixelColor(bar_x, name_point(card, "b").y()), DESK.winner)
    assert not close(img.pixelColor(bar_x, name_point(card, "a").y()), DESK.winner)
    loser = next(view.items_with(key="R1-1", role="name-a"))
    assert loser.color == DESK.loser


def test_a_result_waiting_for_the_referee_says_so(view: BracketWidget) -> None:
    chip = next(view.items_with(key="R1-4", role="chip"))
    assert chip.text == "DO ZATWIERDZENIA"
    winner_bar_x = view.cards["R1-4"].left() + 3
    img = image(view)
    card = view.cards["R1-4"]
    assert not close(img.pixelColor(winner_bar_x, name_point(card, "b").y()), DESK.winner)  # not advanced yet


def test_a_live_duel_shows_both_clocks_by_the_seat_each_player_took(view: BracketWidget) -> None:
    card = view.cards["R1-3"]
    # Filip (match side b) sits at clock side a: 125 s left and running; Ewa at clock side b: 61 s.
    assert view.text_at(time_point(card, "b")) == "2:05"
    assert view.text_at(time_point(card, "a")) == "1:01"
    img = image(view)
    assert share(img, time_point(card, "b"), DESK.running) > 0.5
    assert share(img, time_point(card, "a"), DESK.running) == 0


def test_the_running_clock_ticks_between_messages_and_the_waiting_one_does_not(view: BracketWidget) -> None:
    card = view.cards["R1-3"]
    assert view.tick(T0 + 1 * SECOND)
    assert view.text_at(time_point(card, "b")) == "2:04"
    assert view.text_at(time_point(card, "a")) == "1:01"
    assert not view.tick(T0 + 1 * SECOND + 300_000_000)  # nothing changed on any face: no repaint


def test_later_rounds_name_where_their_players_come_from(view: BracketWidget) -> None:
    assert view.text_at(name_point(view.cards["R2-2"], "a")) == "zwycięzca R1-3"
    assert view.text_at(name_point(view.cards["R2-2"], "b")) == "zwycięzca R1-4"
    assert view.text_at(name_point(view.cards["R3-1"], "a")) == "przegrany R2-1"
    assert view.text_at(name_point(view.cards["R4-1"], "b")) == "zwycięzca R2-2"


def test_rounds_are_columns_and_each_card_sits_between_the_two_it_is_fed_by(view: BracketWidget) -> None:
    c = view.cards
    assert c["R1-1"].left() == c["R1-4"].left() < c["R2-1"].left() < c["R4-1"].left()
    assert c["R1-1"].center().y() < c["R2-1"].center().y() < c["R1-2"].center().y()
    assert c["R1-3"].center().y() < c["R2-2"].center().y() < c["R1-4"].center().y()
    # the final and the 3rd-place duel share the last column, the final above
    assert c["R4-1"].left() == c["R3-1"].left() and c["R4-1"].bottom() < c["R3-1"].top()
    assert c["R4-1"].height() > c["R1-1"].height()  # the final is drawn bigger


def test_the_final_and_the_third_place_duel_are_framed_in_their_colours(view: BracketWidget) -> None:
    img = image(view)
    for mid, colour in (("R4-1", DESK.final), ("R3-1", DESK.third)):
        card = view.cards[mid]
        assert close(img.pixelColor(card.left() + 1, card.center().y()), colour, 30), mid
    titles = [i.text for i in view.items_with(role="round")]
    assert titles == [
        "I · ĆWIERĆFINAŁ",
        "II · PÓŁFINAŁ",
        "IV · FINAŁ",
        "III · O 3. MIEJSCE",
    ]  # the daemon's names


def test_the_hall_version_shows_no_match_ids_and_the_same_names(qtbot: QtBot) -> None:
    v = BracketWidget(hall=True)
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.set_state(known_state(), T0)
    assert not any("R1-" in t and "zwycięzca" not in t for t in v.shown_texts())
    assert v.text_at(name_point(v.cards["R1-1"], "a")) == NAMES[1]
    assert share(v.grab().toImage(), time_point(v.cards["R1-3"], "b"), HALL.running) > 0.5


def test_a_press_redraws_only_the_card_of_its_table(view: BracketWidget) -> None:
    state = known_state()
    untouched = [i for i in view.items if i.key == "R1-1"]
    pressed = state.tables[2].model_copy(
        update={"seq": 41, "clock": clock("running", 121_000, 61_000, running="b")}
    )
    new = state.model_copy(update={"tables": {**state.tables, 2: pressed}})
    view.tables_changed(new, T0, {2})
    card = view.cards["R1-3"]
    assert view.text_at(time_point(card, "b")) == "2:01"  # Filip's clock stopped at 121 s
    img = image(view)
    assert share(img, time_point(card, "a"), DESK.running) > 0.5  # Ewa's (clock side b) now runs
    assert share(img, time_point(card, "b"), DESK.running) == 0
    assert [i for i in view.items if i.key == "R1-1"] == untouched  # other cards were left alone
