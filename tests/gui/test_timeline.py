"""A table's timeline, as a referee reads it to settle a dispute."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.core.display import format_exact_ms as exact_ms
from gui.model import TimelineItem
from gui.widgets.timeline import TimelineView, signed_seconds


def entries() -> tuple[TimelineItem, ...]:
    def e(seq: int, kind: str, t_ms: int, **data: object) -> TimelineItem:
        return TimelineItem(seq=seq, kind=kind, t_ms=t_ms, data=data)

    return (
        e(10, "clock-set", 50_000, control="10m", by="Ola", reason="R2-3"),
        e(11, "press", 62_500, side="a", outcome="started"),
        e(12, "press", 66_750, side="b", outcome="applied"),
        e(13, "press", 66_900, side="b", outcome="ignored-not-running"),
        e(14, "pause", 70_000, by="Ola", reason="lost piece"),
        e(15, "resume", 130_000, by="Ola"),
        e(16, "press", 131_001, side="a", outcome="applied"),
        e(17, "adjust", 131_500, side="b", delta_ms=-2_500, by="Ola", reason="touched a piece"),
    )


def rows(view: TimelineView) -> list[list[str]]:
    m = view.timeline
    return [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.rowCount())]


def test_each_event_with_its_instant_since_the_clock_was_set_and_the_think_time(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.show_entries(entries())
    r = rows(view)
    assert [x[0] for x in r] == ["10", "11", "12", "13", "14", "15", "16", "17"]
    assert r[1][1:4] == ["0:12.500", "", "naciśnięcie A"]  # the starting press: nothing to think about yet
    assert r[2][1:3] == ["0:16.750", "0:04.250"]
    # the pause of a minute is not thinking time: 66.750 → 131.001 less 60 s paused
    assert r[6][1:3] == ["1:21.001", "0:04.251"]
    assert r[7][4] == "-2.500 s · Ola: touched a piece"
    assert r[4][4] == "Ola: lost piece"


def test_ignored_presses_stand_out(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.show_entries(entries())
    m = view.timeline
    ignored = m.data(m.index(3, 3), Qt.ItemDataRole.ForegroundRole)
    applied = m.data(m.index(2, 3), Qt.ItemDataRole.ForegroundRole)
    assert ignored is not None and ignored.name() == "#c62828" and applied is None
    assert "zignorowane: nie kolej tej strony" in m.data(m.index(3, 4))


def test_new_events_are_appended_without_losing_the_readers_place(qtbot: QtBot) -> None:
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


def test_the_tournaments_decisions_name_the_match_and_the_player(qtbot: QtBot) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.timeline.names = {4: "Ola P.", 9: "Iga W."}
    match = {"session": "pt", "match": "R2-3"}
    view.show_entries((
        TimelineItem(seq=1, kind="match-assigned", t_ms=0, data={**match, "clock_a": 9}),
        TimelineItem(seq=2, kind="match-toss", t_ms=30_000, data={**match, "winner": 4}),
        TimelineItem(seq=3, kind="match-finished", t_ms=900_000, data={"match": "R2-3", "how": "complete"}),
    ))  # fmt: skip
    r = rows(view)
    assert r[0][3:] == ["pojedynek na stoliku", "R2-3 · po stronie A: Iga W."]
    assert r[1][3:] == ["rzut", "R2-3 · zwycięzca: Ola P."]
    assert r[2][3:] == ["koniec pojedynku", "R2-3 · obrazek ułożony"]


def test_columns_widen_when_appended_events_need_more_room(qtbot: QtBot) -> None:
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
