"""The adapter's pure half: API messages into the view model, commands into API requests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from clockd.api.messages import request_types

from clockd.api import Push, parse_message
from clockd.core.units import MS
from gui.adapter import REQUEST_TYPES, apply_push, build_request, request_class
from gui.commands import Action, Command
from gui.model import DeskModel, Side

MakeView = Callable[..., dict[str, Any]]


def push(obj: dict[str, object]) -> Push:
    """A push as it arrives on the wire, read by the API's own parser."""
    message = parse_message(json.dumps({"v": 1, **obj}).encode())
    assert isinstance(message, Push)
    return message


def test_a_table_state_becomes_the_tables_view_stamped_with_its_arrival(table_view: MakeView) -> None:
    model = DeskModel()
    view = table_view(
        4,
        phase="running",
        running="b",
        to_move="b",
        remaining_ms={"a": 61_000, "b": 119_001},
        moves={"a": 7, "b": 6},
        ignored={"a": 0, "b": 2},
        seq=77,
        device={"state": "disconnected", "device_id": "DC-4", "detail": "no reply"},
        alerts=[{"id": 3, "code": "recovered-paused", "message": "…", "data": {}}],
    )
    apply_push(model, push({"type": "table-state", "table": view}), received_ns=10**12)
    t = model.state.tables[4]
    assert (t.phase, t.running, t.to_move, t.seq) == ("running", Side.B, Side.B, 77)
    assert (t.moves.a, t.moves.b, t.ignored.b) == (7, 6, 2)
    assert t.device == "disconnected" and t.device_detail == "no reply"
    assert [a.code for a in t.alerts] == ["recovered-paused"]
    assert t.shown("b", 10**12) == "2:00"  # 119.001 s shows as 2:00, as a clock rounds
    assert t.remaining_ns("b", 10**12 + 1_001 * MS) == 118_000 * MS
    assert t.shown("a", 10**12 + 30_000 * MS) == "1:01"  # side a waits: its time stands


def test_timeline_events_go_to_their_table() -> None:
    model = DeskModel()
    entry = {"seq": 9, "table": 2, "kind": "adjust", "t_ms": 5, "data": {"side": "a", "delta_ms": -2500}}
    apply_push(model, push({"type": "timeline-event", "entry": entry}), received_ns=0)
    [item] = model.state.timelines[2]
    assert (item.seq, item.kind, item.data["delta_ms"]) == (9, "adjust", -2500)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (Command(Action.PAUSE, {"table": 3}), {"type": "pause", "table": 3}),
        (Command(Action.RESUME, {"table": 3}), {"type": "resume", "table": 3}),
        (
            Command(Action.ADJUST, {"table": 2, "side": "b", "delta_ms": -30_000, "reason": "illegal move"}),
            {"type": "adjust", "table": 2, "side": "b", "delta_ms": -30_000, "reason": "illegal move"},
        ),
        (
            Command(Action.NOTE, {"table": 1, "text": "lost piece found"}),
            {"type": "note", "table": 1, "text": "lost piece found"},
        ),
        (Command(Action.CLEAR_ALERTS, {"table": 4}), {"type": "clear-alert", "table": 4, "alert_id": None}),
    ],
)
def test_table_commands_become_the_documented_requests(command: Command, expected: dict[str, object]) -> None:
    sent = json.loads(build_request(command).to_line())
    assert {k: sent[k] for k in expected} == expected
    assert sent["v"] == 1


def test_a_command_with_a_field_the_request_lacks_is_refused_before_sending() -> None:
    with pytest.raises(ValueError, match="has no field"):
        build_request(Command(Action.PAUSE, {"table": 1, "seconds": 5}))


def test_an_adjustment_without_a_reason_is_refused_before_sending() -> None:
    with pytest.raises(ValueError, match="reason"):
        build_request(Command(Action.ADJUST, {"table": 1, "side": "a", "delta_ms": 1000, "reason": ""}))


def test_actions_are_offered_exactly_when_the_api_defines_their_request() -> None:
    defined = request_types()
    for action in Action:
        cls = request_class(action)
        assert (cls is not None) == (REQUEST_TYPES[action] in defined), action
