"""A press on a duel's table is folded into one clock: the duel's, which is the table's program.

Before the runtime had table programs, a press went into two clocks — the table's and the
tournament's copy of the duel — kept equal only by a test. Now the duel *is* what the table
runs: the event holds the bracket and nothing that ticks, and every press is applied once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from clockd.core.clock import ClockState, Side
from clockd.core.units import SECOND

from .conftest import T0
from .test_daemon import ready_session, start_duel

A, B = Side.A, Side.B


def test_each_press_on_a_duels_table_is_one_fold_of_one_clock(
    open_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-1", 1, toss_winner="a", at=T0)
    folds: list[int] = []
    apply = ClockState.apply

    def counted(self: ClockState, event: Any) -> Any:  # the real fold, counted
        folds.append(event.t_ns)
        return apply(self, event)

    monkeypatch.setattr(ClockState, "apply", counted)
    t = T0
    for i, side in enumerate([A, B, A, B, A, B]):
        t += (3 + i) * SECOND
        before = len(folds)
        desk.press(1, side, t)
        assert len(folds) - before == 1, f"press {i + 1} was folded {len(folds) - before} times"
    assert desk.table(1).program.clock.moves.model_dump() == {"a": 3, "b": 3}


def test_the_event_holds_the_bracket_and_no_clock(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-1", 1, at=T0)
    desk.press(1, A, T0 + 5 * SECOND)
    events = desk.daemon.engine.component("events")
    snapshot = json.dumps(events.snapshot())
    assert '"base_ns"' not in snapshot and '"move_used_ns"' not in snapshot  # no ClockState in the event
    tables = json.dumps(desk.daemon.engine.component("tables").snapshot())
    assert tables.count('"move_used_ns"') == 4  # one clock per table, the duel's on table 1
