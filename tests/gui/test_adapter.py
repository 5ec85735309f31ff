"""The adapter's pure half: the daemon's API views into the view model, exactly as the daemon sent them.

The views come from a real daemon (its ``status`` and ``events`` replies) or, for pushes, as
lines on the wire read by the API's own parser.
"""

from __future__ import annotations

import json

from clockd.api import Push, parse_message
from clockd.core.bracket import Assign, Toss
from clockd.core.clock import Side
from clockd.core.device import DeviceState
from clockd.core.units import MS
from clockd.i18n import render
from gui.adapter import apply_push, event_from_api, table_from_api
from gui.deskmodel import DeskModel
from tests.gui.live import Running, drawn_session, relay


def push(obj: dict[str, object]) -> Push:
    """A push as it arrives on the wire, read by the API's own parser."""
    message = parse_message(json.dumps({"v": 2, **obj}).encode())
    assert isinstance(message, Push)
    return message


def test_a_duels_table_becomes_two_clocks_owned_by_its_match(daemon: Running) -> None:
    client = daemon.client()
    event = drawn_session(client)
    r11 = next(m for m in event.body.bracket.matches if m.id == "R1-1")  # type: ignore[attr-defined]
    client.act("pt/R1-1", Assign(table=1))
    client.act("pt/R1-1", Toss(winner=r11.a))
    [view] = client.status([1]).tables
    t = table_from_api(view, received_ns=10**12)
    assert (t.program, t.owner, t.target) == ("puzzle-duel", "desk/pt/R1-1", "desk/1")
    assert t.clock is not None and (t.clock.phase, t.clock.control) == ("ready", "10m")
    assert t.toss_winner is Side.A and not t.over  # the toss winner sits at a (the match's first entrant)
    assert t.shown("a", 10**12) == "10:00"
    assert t.device is DeviceState.CONNECTED
    assert t.actions["adjust"] is None
    assert (
        render(t.actions["pause"])
        == "pojedynek się nie zaczął: rozpoczyna go naciśnięcie przegranego losowania"
    )
    assert (
        render(t.actions["set-clock"]) == "ten stolik prowadzi desk/pt/R1-1: zmienić to może tylko ta impreza"
    )


def test_a_station_an_own_clock_and_their_actions(daemon: Running) -> None:
    client = daemon.client()
    relay(client)
    views = {v.table: v for v in client.status().tables}
    station = table_from_api(views[5], received_ns=0)
    assert (station.program, station.entry, station.armed, station.finished) == (
        "station",
        "Para 1",
        False,
        False,
    )
    assert station.clock is None and station.owner == "desk/relay/Para 1"
    assert station.actions == dict(views[5].actions)
    own = table_from_api(views[7], received_ns=0)
    assert own.program == "clock" and own.owner is None and own.clock is not None
    assert own.actions["set-clock"] is None  # the table's own clock may be set again


def test_a_session_becomes_the_screens_bracket_with_the_daemons_actions(daemon: Running) -> None:
    client = daemon.client()
    drawn_session(client)
    [view] = client.events(["pt"]).events
    event = event_from_api(view, received_ns=0)
    assert (event.id, event.key, event.kind) == ("desk/pt", "pt", "puzzle-duel")
    assert render(event.title) == "Piątek 19.06, 15:00–17:30"
    session = event.session
    assert session is not None and session.stage == "bracket" and event.hall is None
    assert len(session.players) == 20
    assert sum(p.in_field for p in session.players.values()) == 16
    assert {p.presence for p in session.players.values()} == {"present", "absent"}  # check-in is closed
    assert all(p.email == "" and p.full_name == "" for p in session.players.values())  # public names only
    bracket = session.bracket
    assert bracket is not None
    assert [render(r.name) for r in bracket.rounds][:2] == ["I runda — Eliminacje", "II runda — Ćwierćfinał"]
    assert [r.kind for r in bracket.rounds] == ["knockout", "knockout", "knockout", "third_place", "final"]
    r11 = bracket.matches["R1-1"]
    assert r11.status == "ready" and len(r11.entrants) == 2 and r11.pieces == 99 and r11.time_control == "10m"
    assert r11.actions["match-assign"] is None
    assert (
        r11.actions["match-confirm"] is not None and r11.actions["match-confirm"].code == "bracket.no-result"
    )
    assert bracket.places() == (None, None, None)
    reason = event.actions["draw"]
    assert reason is not None and render(reason) == "sesja pt ma już losowanie"


def test_a_hall_timer_becomes_its_hall(daemon: Running) -> None:
    client = daemon.client()
    relay(client)
    [view] = client.events(["relay"]).events
    event = event_from_api(view, received_ns=5 * 10**9)
    hall = event.hall
    assert hall is not None and event.session is None and event.kind == "timer"
    assert (hall.timer.phase, hall.timer.duration_ms, hall.timer.every_ms) == ("ready", 3_600_000, 300_000)
    assert [(s.entry, s.table, s.finished_ms) for s in hall.stations] == [
        ("Para 1", 5, None),
        ("Para 2", 6, None),
    ]
    assert hall.signal_tables == (5, 6) and hall.tables == (5, 6)
    assert hall.shown(10**12) == "1:00:00"  # not started: the time does not run
    assert event.actions["timer-start"] is None


def test_pushes_go_where_they_belong() -> None:
    model = DeskModel()
    press = {
        "seq": 9,
        "table": 2,
        "event": None,
        "kind": "press",
        "t_ms": 5,
        "data": {"side": "a", "outcome": "applied"},
    }
    toss = {
        "seq": 10,
        "table": 2,
        "event": "pt",
        "kind": "match-toss",
        "t_ms": 6,
        "data": {"action": {"winner": 3}},
    }
    apply_push(model, push({"type": "timeline-entry", "entry": press}), received_ns=0)
    apply_push(model, push({"type": "timeline-entry", "entry": toss}), received_ns=0)
    assert [i.seq for i in model.state.timelines[2]] == [9, 10]  # the table's: both
    assert [i.seq for i in model.state.event_timelines["pt"]] == [10]  # the session's: its own
    signal = {
        "type": "signal",
        "event": "desk/relay",
        "what": "signal",
        "offset_ms": 300_000,
        "pattern": "change",
    }
    apply_push(model, push(signal), received_ns=7 * MS)
    flash = model.state.signal
    assert flash is not None and (flash.event, flash.what, flash.offset_ms, flash.received_ns) == (
        "desk/relay", "signal", 300_000, 7 * MS)  # fmt: skip
