"""The adapter's pure half: API messages into the view model, commands into API requests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from clockd.api import Push, parse_message
from clockd.api.messages import request_types
from clockd.core.units import MS
from gui.adapter import REQUEST_TYPES, apply_push, apply_session, build_request, request_class
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


# -- a tournament session, built by the tournament's own core and shown as the daemon sends it ------

FIRST = [
    "Zofia", "Michał", "Agnieszka", "Paweł", "Jędrzej", "Łucja", "Grzegorz", "Małgorzata",
    "Stanisław", "Ewa", "Bartłomiej", "Anna", "Tomasz", "Katarzyna", "Piotr", "Helena",
]  # fmt: skip


def verdict(winner: str | None, a: str, b: str) -> object:
    from clockd.core.clock import PerSide, Side
    from clockd.core.duel import DecidedBy, SideTexts, Verdict
    from clockd.core.units import SECOND

    def ns(text: str) -> int:
        m, s = text.split(":")
        return (int(m) * 60 + int(s)) * SECOND

    return Verdict(
        winner=Side(winner) if winner else None, decided_by=DecidedBy.TIME if winner else DecidedBy.TIE,
        remaining_ns=PerSide(a=ns(a), b=ns(b)), displayed=SideTexts(a=a, b=b), moves=PerSide(a=40, b=40),
        ended_at_ns=10**12, resolution_ns=SECOND, steps=PerSide(a=ns(a) // SECOND, b=ns(b) // SECOND),
    )  # fmt: skip


@pytest.fixture
def session() -> Any:
    from clockd.core.bracket import Assign, Confirm, DuelFinished, Toss
    from clockd.core.puzzle_duel import MakeDraw, PuzzleSession
    from clockd.core.registration import AddPlayer, CheckIn, Close, Person
    from clockd.data import festival_config

    s = PuzzleSession.new(festival_config(), "pt", "Piątek 19.06")
    for i, first in enumerate(FIRST):
        s = s.apply(AddPlayer(person=Person(first_name=first, last_name=f"Nazwisko{i}", age=20,
                                            email=f"p{i}@example.pl")))  # fmt: skip
    for pid in list(s.registration.players):
        s = s.apply(CheckIn(player=pid))
    s = s.apply(Close())
    s = s.apply(MakeDraw(seed=7))
    assert s.bracket is not None
    r11, r12 = s.bracket.matches["R1-1"], s.bracket.matches["R1-2"]
    s = s.apply(Assign(match="R1-1", table=1, clock_a=r11.b))  # the second entrant sits at clock side a
    s = s.apply(Toss(match="R1-1", winner=r11.a))
    s = s.apply(DuelFinished(match="R1-1", verdict=verdict("a", "2:05", "1:10")))  # clock side a wins
    s = s.apply(Confirm(match="R1-1"))
    s = s.apply(Assign(match="R1-2", table=2))
    s = s.apply(Toss(match="R1-2", winner=r12.b))
    s = s.apply(DuelFinished(match="R1-2", verdict=verdict(None, "0:42", "0:42")))  # the same time: tie-break
    s = s.apply(Assign(match="R1-3", table=3))
    return s


def test_a_session_from_the_daemon_becomes_the_screens_bracket(session: Any) -> None:
    from clockd.service.tournament_api import session_view

    model = DeskModel()
    apply_session(model, session_view(session))
    state = model.state
    core = session.bracket
    shown = state.bracket
    assert shown is not None
    assert (state.title, state.session, state.stage) == ("Puzzlowy Pojedynek", "Piątek 19.06", "bracket")
    assert [(r.number, r.kind, r.players, r.pieces) for r in shown.rounds] == [
        (1, "knockout", 16, 99), (2, "knockout", 8, 99), (3, "knockout", 4, 200), (4, "third_place", 2, 200),
        (5, "final", 2, 200),
    ]  # fmt: skip
    for m in shown.round_matches(1):  # every entrant where the draw put them, by display name only
        assert (m.a, m.b) == (core.matches[m.id].a, core.matches[m.id].b)
        assert (
            state.name(m.a) == session.names()[m.a]
            and "Nazwisko" in session.registration.players[m.a].person.last_name
        )
    r11 = shown.matches["R1-1"]
    # clock side a was the match's b: it won, and the figures are in the match's own sides
    assert (r11.status, r11.winner, r11.decided_by) == ("decided", core.matches["R1-1"].b, "time")
    assert r11.score is not None and (r11.score.displayed.a, r11.score.displayed.b) == ("1:10", "2:05")
    assert shown.round_matches(2)[0].a == r11.winner  # advanced
    r12 = shown.matches["R1-2"]
    assert (r12.status, r12.tiebreaks) == ("tiebreak", ("R1-2-TB1",))
    assert shown.matches["R1-2-TB1"].tiebreak_of == "R1-2" and shown.matches["R1-2-TB1"].status == "ready"
    assert shown.on_table(3) == shown.matches["R1-3"] and shown.matches["R1-3"].live
    assert all(p.presence == "present" and p.in_field for p in state.players.values())
    assert all(p.email == "" for p in state.players.values())  # the API never carries private data


def test_tournament_commands_name_the_session_and_the_match(session: Any) -> None:
    from clockd.service.tournament_api import session_view

    model = DeskModel()
    apply_session(model, session_view(session))
    state = model.state

    def sent(action: Action, **fields: object) -> dict[str, object]:
        return json.loads(build_request(Command(action, dict(fields)), state, "pt").to_line())

    complete = sent(Action.COMPLETE, table=3)
    assert (complete["type"], complete["session"], complete["match"]) == ("match-complete", "pt", "R1-3")
    tiebreak = sent(Action.TIEBREAK, match="R1-2-TB1", table=5, clock_a=3)
    assert (tiebreak["type"], tiebreak["match"], tiebreak["table"]) == ("match-tiebreak", "R1-2", 5)
    assert sent(Action.CHECK_OUT, player=4)["present"] is False
    assert sent(Action.CHECK_IN, player=4)["present"] is True
    draw = sent(Action.DRAW, lines={1: 5, 2: 9})
    assert draw["type"] == "tournament-draw" and draw["lines"] == {"1": 5, "2": 9}
    with pytest.raises(ValueError, match="no duel is being played at table 2"):
        sent(Action.COMPLETE, table=2)  # table 2's duel ended in a tie: nothing to complete there
    with pytest.raises(ValueError, match="no tournament session is open"):
        build_request(Command(Action.CONFIRM, {"match": "R1-1"}), state, None)
    with pytest.raises(ValueError, match="reason"):
        sent(Action.OVERRIDE, match="R1-3", winner=1, category="dispute", reason="")
