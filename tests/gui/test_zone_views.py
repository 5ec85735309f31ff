"""The zone's contests at the desk and on the audience screen: the ranking so far, the rotation's
seats, the referee's buttons for what the daemon allows, one click for a finish."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from clockd.core.hall import FinishEntry
from clockd.core.units import SECOND
from clockd.core.zone import CountEntry
from gui.audience import AudienceWindow
from gui.commands import Command, DemoSink
from gui.demo import HALL, demo_state
from gui.deskmodel import DeskModel
from gui.dialogs import ZoneEntryDialog
from gui.referee import RefereeWindow
from tests.gui.live import button_for

T0 = 1_000 * SECOND


def audience(qtbot: QtBot, shown: str) -> AudienceWindow:
    window = AudienceWindow(DeskModel(demo_state(T0, shown=shown)), clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_team_events_screen_shows_the_ranking_with_places_and_the_void_last(qtbot: QtBot) -> None:
    window = audience(qtbot, "druzynowy")
    rows = [(i.key, i.text) for i in window.hall.items_with(role="zone-place")]
    names = [i.text for i in window.hall.items_with(role="zone-name")]
    assert [t for _, t in rows] == ["1.", "2.", "3.", "4.", "5.", "—"]
    assert names == ["Wiedźmini", "Gryfy", "Smoki", "Elfy", "Feniksy", "Krasnoludy"]
    times = [i.text for i in window.hall.items_with(role="zone-time")]
    assert times[:2] == ["2:31:20.000", "2:31:20.000"]  # the tie: fewer missing pieces first
    assert times[3] == "874 el."
    assert "ponad 10 braków: nieważne" in [i.text for i in window.hall.items_with(role="zone-note")]
    big = next(window.hall.items_with(role="hall-time"))
    assert big.font.pixelSize() >= 120  # readable from across the hall


def test_the_rotations_screen_shows_every_seat_and_where_it_goes_next(qtbot: QtBot) -> None:
    window = audience(qtbot, "switcher")
    names = {i.key: i.text for i in window.hall.items_with(role="seat-name")}
    nexts = {i.key: i.text for i in window.hall.items_with(role="seat-next")}
    assert len(names) == 26
    # after 3 changes: table 1 has seat 21 (outer, from table 11) and seat 8 (inner, from table 4)
    assert names["1-outer"] == "Kasia" and nexts["1-outer"] == "→ 2"
    assert names["1-inner"].startswith("Tom") and nexts["1-inner"] == "→ 13"
    assert names["5-outer"] == "Kuba"  # seat 3 (table 2) moved three tables on
    assert names["8-outer"] == "Wiktor"  # the replacement sits where Hania sat
    assert next(window.hall.items_with(role="rotation-head")).text == "zmiana 3"


def test_the_relays_desk_records_a_finish_with_one_click_or_a_key(qtbot: QtBot) -> None:
    sink = DemoSink()
    window = RefereeWindow(DeskModel(demo_state(T0, shown="sztafeta")), sink, clock=lambda: T0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    assert button_for(window, window.act_finish).isEnabled()
    split = button_for(window, window.act_split)
    assert not split.isEnabled() and "nie ma międzyczasu" in split.toolTip()
    assert not button_for(window, window.act_replace).isVisible()  # the rotation's, not the relay's
    window.finish_clicked("para-2")
    assert sink.sent[-1] == Command(f"{HALL}/sztafeta", FinishEntry(entry="para-2"))
    window.finish_clicked("para-3")  # finished already: nothing is sent
    assert len(sink.sent) == 1
    window.finish_nth(2)  # Alt+2: the entry at the second table (12: Kuba N. i Igor L.)
    assert sink.sent[-1] == Command(f"{HALL}/sztafeta", FinishEntry(entry="para-2"))


def test_counting_pieces_after_the_team_event_offers_only_the_unfinished(qtbot: QtBot) -> None:
    state = demo_state(T0, shown="druzynowy")
    hall = state.events[f"{HALL}/druzynowy"].hall
    assert hall is not None
    dialog = ZoneEntryDialog("count", hall)
    qtbot.addWidget(dialog)
    offered = [dialog.entry.itemData(i) for i in range(dialog.entry.count())]
    assert offered == ["druzyna-3", "druzyna-6"]
    dialog.number.setValue(880)
    assert dialog.action() == CountEntry(entry="druzyna-3", pieces=880)
    relay = demo_state(T0, shown="sztafeta").events[f"{HALL}/sztafeta"].hall
    assert relay is not None
    per_picture = ZoneEntryDialog("count", relay)  # the relay's pair: each picture on its own
    qtbot.addWidget(per_picture)
    per_picture.per_picture[0].setValue(150)
    per_picture.per_picture[1].setValue(162)
    assert per_picture.action() == CountEntry(entry="para-2", per_picture=(150, 162))


def test_a_new_zone_contest_from_the_desk_and_its_sign_up_buttons_only_before_the_start(qtbot: QtBot) -> None:
    from clockd.core.actions import CreateEvent
    from gui.dialogs import NewZoneDialog

    dialog = NewZoneDialog()
    qtbot.addWidget(dialog)
    assert not dialog.ok_button().isEnabled()
    dialog.kind.setCurrentIndex(2)
    dialog.key.setText("druzynowy")
    assert dialog.ok_button().isEnabled()
    assert dialog.action() == CreateEvent(event_kind="team", key="druzynowy", name="")
    sink = DemoSink()
    window = RefereeWindow(DeskModel(demo_state(T0, shown="sztafeta")), sink, clock=lambda: T0)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    # the relay is running: importing, checking in and seating are over, their buttons are gone
    assert not window.zone_widgets[window.act_import_entries].isVisible()
    assert window.zone_widgets[window.act_count].isVisible()
