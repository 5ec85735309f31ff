"""A table's timeline, as a referee reads it to settle a dispute — entries as the journal keeps them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.core.display import format_exact_ms as exact_ms
from clockd.core.units import SECOND
from gui.model import TimelineItem
from gui.widgets.timeline import TimelineView, signed_seconds

DUEL = {"kind": "puzzle-duel", "owner": "desk/pt/R2-3"}


def action(
    seq: int, kind: str, t_ms: int, target: str = "desk/3", by: str = "Ola", **fields: Any
) -> TimelineItem:
    """A referee's action as the daemon journals it: the action's own fields, who, and how."""
    data = {"target": target, "by": by, "source": "referee", "action": {"kind": kind, "t_ns": 0, **fields}}
    return TimelineItem(seq=seq, kind=kind, t_ms=t_ms, data=data)


def entries() -> tuple[TimelineItem, ...]:
    def e(seq: int, kind: str, t_ms: int, **data: object) -> TimelineItem:
        return TimelineItem(seq=seq, kind=kind, t_ms=t_ms, data=data)

    return (
        e(10, "program", 50_000, program=DUEL, by="Ola"),
        e(11, "press", 62_500, side="a", outcome="started"),
        e(12, "press", 66_750, side="b", outcome="applied"),
        e(13, "press", 66_900, side="b", outcome="ignored-not-running"),
        action(14, "pause", 70_000, reason="lost piece"),
        action(15, "resume", 130_000, reason=""),
        e(16, "press", 131_001, side="a", outcome="applied"),
        action(17, "adjust", 131_500, side="b", delta_ms=-2_500, reason="touched a piece"),
    )


def rows(view: TimelineView) -> list[list[str]]:
    m = view.timeline
    return [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.rowCount())]


def test_each_entry_with_its_instant_since_the_duel_was_loaded_and_the_think_time(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.show_entries(entries())
    r = rows(view)
    assert [x[0] for x in r] == ["10", "11", "12", "13", "14", "15", "16", "17"]
    assert r[0][3:] == ["program na stoliku", "Puzzlowy Pojedynek · Ola"]
    assert r[1][1:4] == ["0:12.500", "", "naciśnięcie A"]  # the starting press: nothing to think about yet
    assert r[2][1:3] == ["0:16.750", "0:04.250"]
    # the pause of a minute is not thinking time: 66.750 → 131.001 less 60 s paused
    assert r[6][1:3] == ["1:21.001", "0:04.251"]
    assert r[7][3:] == [
        "korekta czasu B",
        "-2.500 s · Ola: touched a piece",
    ]  # an action: the catalogue's name
    assert r[4][3:] == ["pauza", "Ola: lost piece"]


def test_the_toss_reloading_the_same_duel_does_not_restart_the_count(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    first = entries()
    toss = (
        action(18, "match-toss", 140_000, target="desk/pt/R2-3", winner=4),
        TimelineItem(seq=19, kind="program", t_ms=140_000, data={"program": DUEL}),
        TimelineItem(seq=20, kind="program", t_ms=150_000, data={"program": {"kind": "idle", "owner": None}}),
    )
    view.show_entries(first + toss)
    r = rows(view)
    assert r[9][1] == "1:30.000"  # the same duel's program again: still counted from its loading
    assert r[10][1] == "0:00.000"  # another program on the table: counted afresh


def test_ignored_presses_stand_out(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.show_entries(entries())
    m = view.timeline
    ignored = m.data(m.index(3, 3), Qt.ItemDataRole.ForegroundRole)
    applied = m.data(m.index(2, 3), Qt.ItemDataRole.ForegroundRole)
    assert ignored is not None and ignored.name() == "#c62828" and applied is None
    assert "pominięte: nie czas tej strony" in m.data(m.index(3, 4))  # the catalogue's words, as the CLI's


def test_new_entries_are_appended_without_losing_the_readers_place(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    first = entries()
    view.show_entries(first[:5])
    inserted: list[tuple[int, int]] = []
    view.timeline.rowsInserted.connect(lambda _p, a, b: inserted.append((a, b)))
    view.show_entries(first)
    assert inserted == [(5, 7)]
    assert len(rows(view)) == 8


def test_durations_are_exact_to_the_millisecond() -> None:
    assert exact_ms(0) == "0:00.000"
    assert exact_ms(59_999) == "0:59.999"
    assert exact_ms(3_600_001) == "1:00:00.001"
    assert signed_seconds(10_000) == "+10 s" and signed_seconds(-250) == "-0.250 s"


def test_the_sessions_decisions_name_the_match_and_the_player(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.timeline.names = {4: "Ola P.", 9: "Iga W."}
    match = "desk/pt/R2-3"
    view.show_entries((
        action(1, "match-assign", 0, target=match, table=3, clock_a=9),
        action(2, "match-toss", 30_000, target=match, winner=4),
        TimelineItem(seq=3, kind="match-finished", t_ms=900_000, data={"match": "R2-3", "how": "complete"}),
    ))  # fmt: skip
    r = rows(view)
    assert r[0][3:] == ["przydziel do stolika", "R2-3 · po stronie A: Iga W. · stolik 3 · Ola"]
    assert r[1][3:] == ["zapisz losowanie", "R2-3 · zwycięzca: Ola P. · Ola"]
    assert r[2][3:] == ["koniec pojedynku", "R2-3 · obrazek ułożony"]


def test_a_hall_events_signals_and_a_finish_by_the_button(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    finish = {"target": "desk/relay", "by": "GPIO-7", "source": "button", "action": {"entry": "Para 2"}}
    signal = {"what": "signal", "offset_ns": 300 * SECOND}
    view.show_entries((
        action(1, "timer-start", 0, target="desk/relay"),
        TimelineItem(seq=2, kind="timer-due", t_ms=300_000, data=signal),
        TimelineItem(seq=3, kind="entry-finish", t_ms=301_250, data=finish),
        TimelineItem(seq=4, kind="alert", t_ms=302_000,
                     data={"code": "alert.recovered-paused", "data": {}, "alert_id": 1}),
    ))  # fmt: skip
    r = rows(view)
    assert r[0][3:] == ["start imprezy", "Ola"]
    assert r[1][3:] == ["sygnał na sali", "ZMIANA · 5:00.000"]
    assert r[2][3:] == ["zapisz ukończenie", "Para 2 · przyciskiem na stoliku · GPIO-7"]
    assert r[3][4].startswith("komputer uruchomiono ponownie, gdy ten zegar chodził")  # the catalogue's


def test_columns_widen_when_appended_entries_need_more_room(qtbot: QtBot) -> None:
    """A three-digit journal number or a long think time arriving later is not cut to '1…'."""
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    first = entries()[:2]
    view.show_entries(first)
    qtbot.wait(10)
    narrow = view.columnWidth(0), view.columnWidth(2)

    def e(seq: int, t_ms: int, side: str) -> TimelineItem:
        return TimelineItem(seq=seq, kind="press", t_ms=t_ms, data={"side": side, "outcome": "applied"})

    view.show_entries((*first, e(123456, 3_000_000, "b")))
    qtbot.wait(10)
    hint = view.sizeHintForColumn(0), view.sizeHintForColumn(2)
    assert view.columnWidth(0) > narrow[0] and view.columnWidth(0) >= hint[0]
    assert view.columnWidth(2) >= hint[1]


def clipped_titles(view: TimelineView) -> list[str]:
    """The column titles the header cannot show whole (the width the header needs for each)."""
    header = view.horizontalHeader()
    out = []
    for column in range(view.timeline.columnCount()):
        needed = header.sectionSizeFromContents(column).width()
        if header.sectionSize(column) < needed:
            title = view.timeline.headerData(column, Qt.Orientation.Horizontal)
            out.append(f"{title}: {header.sectionSize(column)} of {needed} px")
    return out


def test_no_column_title_is_clipped_in_a_narrow_panel(qtbot: QtBot) -> None:
    """The desk's timeline panel beside the tables is narrow: "Szczegóły" read "zczegó" (issue 26,
    item 7). Each title fits its column, before the first entry and after, and a column whose
    content is wider than the panel scrolls sideways instead of squeezing the last title."""
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(330, 240)
    view.show()
    qtbot.wait(10)
    assert clipped_titles(view) == []
    view.show_entries(entries())
    qtbot.wait(10)
    assert clipped_titles(view) == []
    view.resize(250, 240)  # narrower still
    qtbot.wait(10)
    assert clipped_titles(view) == []
