"""The Puzzle Duel inside the real daemon: journaled, decided by the pure duel, rebuilt after a restart.

Every test drives the daemon through its API (as ``duelclock tournament`` and the GUI do)
and presses the tables' buttons at exact instants on a clock the test moves.
"""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path
from typing import Any

import pytest

from clockd.api import tournament as api
from clockd.api.client import Subscription
from clockd.api.messages import ApiError
from clockd.cli import main
from clockd.core.clock import Side
from clockd.core.units import MINUTE, MS, SECOND

from .conftest import T0, Desk

A, B = Side.A, Side.B
CSV = "Imię;Nazwisko;E-mail;Wiek\n" + "".join(
    f"Gracz{i};Nazwisko{i};g{i}@example.pl;{20 + i}\n" for i in range(1, 21)
)


def ready_session(desk: Desk, players: int = 16, seed: int = 3) -> Any:
    desk.call(api.CreateTournament(session="pt"))
    desk.call(api.ImportSignups(session="pt", csv=CSV))
    for p in range(1, players + 1):
        desk.call(api.CheckIn(session="pt", player=p))
    desk.call(api.CloseCheckIn(session="pt"))
    return desk.call(api.MakeDraw(session="pt", seed=seed)).session


def start_duel(desk: Desk, match: str, table: int, *, toss_winner: str = "a", at: int = T0) -> Any:
    """Assign, toss, and the toss loser's press at ``at``; returns the match (clock side a = its ``a``)."""
    desk.call(api.AssignMatch(session="pt", match=match, table=table))
    m = desk.match(match)
    winner = m.a if toss_winner == "a" else m.b
    desk.call(api.RecordToss(session="pt", match=match, winner=winner))
    loser = B if toss_winner == "a" else A
    desk.press(table, loser, at)
    return m


def timeline_of(desk: Desk, table: int, match_id: str, resolution_ms: int) -> dict[str, Any]:
    """The duel's inputs from the table's journaled timeline, as ``duelclock duel replay`` reads them."""
    entries = desk.client.timeline(table).entries
    m = desk.match(match_id)
    start = max(i for i, e in enumerate(entries) if e.kind == "clock-set")  # the clock set after the toss
    events: list[dict[str, Any]] = []
    for e in entries[start + 1 :]:
        t = e.t_ms - T0 // MS
        if e.kind == "press":
            events.append({"t_ms": t, "press": e.data["side"]})
        elif e.kind in ("pause", "resume"):
            events.append({"t_ms": t, e.kind: True})
        elif e.kind == "adjust":
            events.append({"t_ms": t, "adjust": e.data["side"], "delta_ms": e.data["delta_ns"] // MS})
        elif e.kind == "match-finished" and e.data["how"] == "complete":
            events.append({"t_ms": t, "complete": True})
    base_ms = int(m.time_control.removesuffix("m")) * 60_000
    toss = "a" if m.toss_winner == m.clock_a else "b"
    return {
        "time_control": {"base_ms": base_ms, "increment_ms": 0, "delay_ms": 0, "delay": "none"},
        "resolution_ms": resolution_ms,
        "toss_winner": toss,
        "events": events,
    }


def replay_cli(tmp_path: Path, timeline: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> Any:
    path = tmp_path / "timeline.json"
    path.write_text(json.dumps(timeline))
    assert main(["duel", "replay", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_duel_on_a_table_is_decided_exactly_as_duel_replay_decides_it(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    desk = open_desk()
    ready_session(desk)
    desk.call(api.AssignMatch(session="pt", match="R1-1", table=2))
    table = desk.table(2)
    assert table.phase == "ready" and table.control == "10m"  # the clock is set for round I
    desk.press(2, A, T0)  # before the toss the clock cannot be started
    assert desk.table(2).phase == "ready"
    m = desk.match("R1-1")
    desk.call(api.RecordToss(session="pt", match="R1-1", winner=m.b))
    desk.press(2, B, T0 + SECOND)  # the toss winner's press is ignored …
    assert desk.table(2).phase == "ready"
    desk.press(2, A, T0 + 2 * SECOND)  # … the loser's starts the winner's time
    view = desk.table(2)
    assert view.phase == "running" and view.running == "b" and view.moves.a == view.moves.b == 0
    t = T0 + 2 * SECOND
    for dt, side in [(7_300, B), (4_100, A), (12_900, B), (3_000, A), (8_800, B)]:
        t += dt * MS
        desk.press(2, side, t)
    desk.at(t + 2_000 * MS)
    desk.call(api.PauseMatch(session="pt", match="R1-1", reason="dispute at the table"))
    desk.at(t + 30_000 * MS)
    desk.call(api.ResumeMatch(session="pt", match="R1-1"))
    desk.call(
        api.AdjustMatch(session="pt", match="R1-1", player=m.b, delta_ms=-1_500, reason="touched a piece")
    )
    desk.at(t + 34_000 * MS)
    caplog.set_level(logging.WARNING, logger="clockd.service.tournament")
    done = desk.call(api.CompleteMatch(session="pt", match="R1-1"))
    assert desk.table(2).phase == "paused"  # the picture is complete: the clock stops
    result = next(x for x in done.session.results.matches if x.id == "R1-1")
    assert result.status == "result" and result.winner is None  # waits for the referee
    replayed = replay_cli(tmp_path, timeline_of(desk, 2, "R1-1", 1000), capsys)
    assert replayed["remaining_ms"] == result.remaining_ms.model_dump()
    assert replayed["displayed"] == result.displayed.model_dump()
    assert replayed["moves"] == result.moves.model_dump()
    assert replayed["decided_by"] == "time"
    winner = m.a if replayed["winner"] == "a" else m.b
    done = desk.call(api.ConfirmMatch(session="pt", match="R1-1"))
    confirmed = next(x for x in done.session.results.matches if x.id == "R1-1")
    assert confirmed.winner == winner and confirmed.decided_by == "time"
    assert next(x for x in done.session.results.matches if x.id == "R2-1").a == winner
    assert not [r for r in caplog.records if "took a press" in r.message]


def test_a_flag_ends_the_duel_at_its_instant_with_no_referee_needed(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-2", 1, toss_winner="a", at=T0)
    desk.press(1, A, T0 + 40 * SECOND)  # A places one piece; B's 10 minutes run out at T0+40s+10min
    desk.at(T0 + 40 * SECOND + 10 * MINUTE + 5 * SECOND)  # the daemon looks well after the flag
    m = desk.match("R1-2")
    assert m.status == "result"
    assert m.remaining_ms.model_dump() == {"a": 10 * 60_000 - 40_000, "b": 0}
    assert m.ended_at_ms == (T0 + 40 * SECOND + 10 * MINUTE) // MS  # the flag's instant, not the look's
    desk.call(api.ConfirmMatch(session="pt", match="R1-2"))
    m = desk.match("R1-2")
    assert m.winner == m.a and m.decided_by == "flag"


def test_the_same_time_creates_a_tiebreak_on_the_spot_and_its_winner_goes_on(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-3", 3, toss_winner="a", at=T0)
    desk.press(3, A, T0 + 20_200 * MS)  # A used 20.2 s
    desk.at(T0 + 41_000 * MS)  # B used 20.8 s: 9:39.8 and 9:39.2 both show 9:40
    done = desk.call(api.CompleteMatch(session="pt", match="R1-3"))
    ms = {m.id: m for m in done.session.results.matches}
    assert ms["R1-3"].status == "tiebreak" and ms["R1-3"].displayed.model_dump() == {"a": "9:40", "b": "9:40"}
    tb = ms["R1-3-TB1"]
    assert tb.tiebreak_of == "R1-3" and tb.pieces == 49 and tb.status == "ready"
    desk.call(api.StartTiebreak(session="pt", match="R1-3"))
    assert desk.table(3).control == "4m"  # the tie-break's clock, on the same table
    tb = desk.match("R1-3-TB1")
    desk.call(api.RecordToss(session="pt", match="R1-3-TB1", winner=tb.b))
    desk.press(3, A, T0 + 2 * MINUTE)
    desk.at(T0 + 2 * MINUTE + 30 * SECOND)  # B's time runs 30 s; A's 4 minutes untouched
    desk.call(api.CompleteMatch(session="pt", match="R1-3-TB1"))
    desk.call(api.ConfirmMatch(session="pt", match="R1-3-TB1"))
    root = desk.match("R1-3")
    assert root.winner == tb.a and root.decided_by == "tiebreak"
    assert desk.match("R2-2").a == tb.a


def test_referee_decisions_need_the_token_a_reason_and_are_listed(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    m = start_duel(desk, "R1-4", 4, at=T0)
    from clockd.api.client import Client

    with Client("127.0.0.1", desk.daemon.port, None) as anonymous:
        with pytest.raises(ApiError) as err:
            anonymous.request(
                api.OverrideMatch(session="pt", match="R1-4", winner=m.a, category="dispute", reason="x")
            )
        assert err.value.code == "unauthorized"
    raw = {"type": "match-override", "id": 1, "token": desk.client.token, "session": "pt", "match": "R1-4"}
    raw |= {"winner": m.a, "category": "dispute", "reason": ""}
    with socket.create_connection(("127.0.0.1", desk.daemon.port), timeout=10) as sock:
        sock.sendall(json.dumps(raw).encode() + b"\n")
        reply = json.loads(sock.makefile("rb").readline())
    assert reply["type"] == "error" and reply["code"] == "invalid" and "reason" in reply["message"]
    assert desk.match("R1-4").status == "assigned"  # nothing changed
    done = desk.call(
        api.OverrideMatch(
            session="pt", match="R1-4", winner=m.b, category="disqualification", reason="§8.1: left the table"
        )
    )
    assert desk.table(4).phase == "paused"  # the referee's decision stops the running clock
    results = done.session.results
    decided = next(x for x in results.matches if x.id == "R1-4")
    assert decided.winner == m.b and decided.decided_by == "referee"
    assert results.decisions[-1].model_dump() == {
        "match": "R1-4",
        "kind": "override",
        "winner": m.b,
        "category": "disqualification",
        "reason": "§8.1: left the table",
        "referee": "Sędzia A",
    }
    w = desk.match("R1-5")
    done = desk.call(api.WalkoverMatch(session="pt", match="R1-5", absent=w.a, reason="did not come"))
    assert next(x for x in done.session.results.matches if x.id == "R1-5").decided_by == "walkover"


def test_wrong_requests_are_refused_with_a_sentence_and_change_nothing(open_desk: Any) -> None:
    desk = open_desk()
    with pytest.raises(ApiError, match="no tournament session 'xx'"):
        desk.call(api.CheckIn(session="xx", player=1))
    ready_session(desk)
    before = desk.session()
    for request, text in [
        (api.AssignMatch(session="pt", match="R2-1", table=1), "waiting"),
        (api.AssignMatch(session="pt", match="R1-1", table=9), "no table 9"),
        (api.CompleteMatch(session="pt", match="R1-1"), "not being played"),
        (api.ImportSignups(session="pt", csv=CSV), "imported once"),
        (api.MakeDraw(session="pt", seed=5), "already has its draw"),
    ]:
        with pytest.raises(ApiError, match=text):
            desk.call(request)
    desk.call(api.AssignMatch(session="pt", match="R1-1", table=1))
    with pytest.raises(ApiError, match="table 1 is busy with match R1-1"):
        desk.call(api.AssignMatch(session="pt", match="R1-2", table=1))
    m = desk.match("R1-1")
    desk.call(api.RecordToss(session="pt", match="R1-1", winner=m.a))
    desk.press(1, B, T0)
    with pytest.raises(ApiError, match="the toss comes before the duel"):
        desk.call(api.RecordToss(session="pt", match="R1-1", winner=m.b))
    assert desk.session().results.draw == before.results.draw


def test_a_restart_rebuilds_every_session_and_the_duel_in_progress(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    desk.call(api.CreateTournament(session="sb"))  # a second session in the same journal
    start_duel(desk, "R1-1", 1, at=T0)
    desk.press(1, A, T0 + 9 * SECOND)
    before = desk.session().model_dump()
    desk.client.close()
    desk.daemon.engine.stop(snapshot=False)  # a crash: no snapshot at the end
    desk.daemon.stop()
    # from the events alone; then again (its clean stop writes a snapshot); then from that snapshot
    for i, use_snapshots in enumerate((False, True, True)):
        desk = open_desk(use_snapshots=use_snapshots)
        assert desk.session().model_dump() == before
        assert [s.key for s in desk.call(api.TournamentStatus()).sessions] == ["pt", "sb"]
        if i < 2:
            desk.client.close()
            desk.daemon.stop()
    assert desk.daemon.engine is not None and desk.daemon.engine.applied_seq > 0
    desk.at(T0 + 20 * SECOND)  # B (the toss loser) has used 11 s since A pressed
    done = desk.call(api.CompleteMatch(session="pt", match="R1-1"))
    m = next(x for x in done.session.results.matches if x.id == "R1-1")
    assert m.remaining_ms.model_dump() == {"a": 600_000 - 9_000, "b": 600_000 - 11_000}


def _wait_for(sub: Subscription, check: Any) -> api.TournamentState:
    for _ in range(40):
        for push in sub.read(250):
            if isinstance(push, api.TournamentState) and check(push):
                return push
    raise AssertionError("no tournament-state push came")


def test_subscribers_see_the_session_change(open_desk: Any) -> None:
    desk = open_desk()
    desk.call(api.CreateTournament(session="pt", name="Piątek"))
    with Subscription("127.0.0.1", desk.daemon.port) as sub:
        first = _wait_for(sub, lambda p: True)
        assert first.session.name == "Piątek" and first.session.stage == "registration"
        desk.call(api.ImportSignups(session="pt", csv=CSV))
        pushed = _wait_for(sub, lambda p: len(p.session.players) == 20)
        assert "Nazwisko" not in pushed.model_dump_json()  # display names only
