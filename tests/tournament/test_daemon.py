"""The Puzzle Duel in the real daemon: journaled, decided by the duel on the table, rebuilt after a restart.

Every test drives the daemon through its API (as ``duelclock tournament`` and the GUI do)
and presses the tables' buttons at exact instants on a clock the test moves.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Subscription
from clockd.api.messages import ApiError, EventStatePush
from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Confirm, Override, OverrideReason, StartTiebreak, Toss, Walkover
from clockd.core.clock import Adjust, Pause, Resume, Side
from clockd.core.duel import Complete
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.core.units import MINUTE, MS, SECOND
from clockd.i18n import render

from .conftest import T0, Desk

A, B = Side.A, Side.B
CSV = "Imię;Nazwisko;E-mail;Wiek\n" + "".join(
    f"Gracz{i};Nazwisko{i};g{i}@example.pl;{20 + i}\n" for i in range(1, 21)
)


def ready_session(desk: Desk, players: int = 16, seed: int = 3) -> Any:
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    desk.act("pt", ImportSignups(csv=CSV))
    for p in range(1, players + 1):
        desk.act("pt", CheckIn(player=p))
    desk.act("pt", CloseCheckIn())
    return desk.act("pt", MakeDraw(seed=seed)).event.body


def start_duel(desk: Desk, match: str, table: int, *, toss_winner: str = "a", at: int = T0) -> Any:
    """Assign, toss, and the toss loser's press at ``at``; returns the match (clock side a = its ``a``)."""
    desk.act(f"pt/{match}", Assign(table=table))
    m = desk.match(match)
    winner = m.a if toss_winner == "a" else m.b
    desk.act(f"pt/{match}", Toss(winner=winner))
    loser = B if toss_winner == "a" else A
    desk.press(table, loser, at)
    return m


def clock(desk: Desk, table: int) -> Any:
    return desk.table(table).program.clock


def timeline_of(desk: Desk, table: int, match_id: str, resolution_ms: int) -> dict[str, Any]:
    """The duel's inputs from the table's journaled timeline, as ``duelclock duel replay`` reads them."""
    entries = desk.client.timeline(table).entries
    m = desk.match(match_id)
    # the duel starts with the program loaded after the toss
    start = max(i for i, e in enumerate(entries) if e.kind == "program" and e.data["program"].get("duel"))
    events: list[dict[str, Any]] = []
    for e in entries[start + 1 :]:
        t = e.t_ms - T0 // MS
        if e.kind == "press":
            events.append({"t_ms": t, "press": e.data["side"]})
        elif e.kind in ("pause", "resume"):
            events.append({"t_ms": t, e.kind: True})
        elif e.kind == "adjust":
            events.append(
                {"t_ms": t, "adjust": e.data["action"]["side"], "delta_ms": e.data["action"]["delta_ms"]}
            )
        elif e.kind == "complete":
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
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    ready_session(desk)
    desk.act("pt/R1-1", Assign(table=2))
    table = desk.table(2)
    assert table.program.kind == "puzzle-duel" and table.program.owner == "desk/pt/R1-1"
    assert table.program.clock.phase == "ready" and table.program.clock.control == "10m"  # round I's clock
    desk.press(2, A, T0)  # before the toss the clock cannot be started
    assert clock(desk, 2).phase == "ready"
    m = desk.match("R1-1")
    desk.act("pt/R1-1", Toss(winner=m.b))
    desk.press(2, B, T0 + SECOND)  # the toss winner's press is ignored …
    assert clock(desk, 2).phase == "ready"
    desk.press(2, A, T0 + 2 * SECOND)  # … the loser's starts the winner's time
    view = clock(desk, 2)
    assert view.phase == "running" and view.running == "b" and view.moves.a == view.moves.b == 0
    t = T0 + 2 * SECOND
    for dt, side in [(7_300, B), (4_100, A), (12_900, B), (3_000, A), (8_800, B)]:
        t += dt * MS
        desk.press(2, side, t)
    desk.at(t + 2_000 * MS)
    desk.act("pt/R1-1", Pause(reason="dispute at the table"))  # a table action aimed at the match
    desk.at(t + 30_000 * MS)
    desk.act("pt/R1-1", Resume())
    desk.act("pt/R1-1", Adjust(side=B, delta_ms=-1_500, reason="touched a piece"))  # m.b sits at side b
    desk.at(t + 34_000 * MS)
    desk.act("pt/R1-1", Complete())
    assert clock(desk, 2).phase == "paused"  # the picture is complete: the clock stops
    result = desk.match("R1-1")
    assert result.status == "result" and result.winner is None  # waits for the referee
    replayed = replay_cli(tmp_path, timeline_of(desk, 2, "R1-1", 1000), capsys)
    assert replayed["remaining_ms"] == result.score.remaining_ms.model_dump()
    assert replayed["displayed"] == result.score.displayed.model_dump()
    assert replayed["moves"] == result.score.moves.model_dump()
    assert replayed["decided_by"] == "time"
    winner = m.a if replayed["winner"] == "a" else m.b
    body = desk.act("pt/R1-1", Confirm()).event.body
    confirmed = next(x for x in body.bracket.matches if x.id == "R1-1")
    assert confirmed.winner == winner and confirmed.decided_by == "time"
    assert next(x for x in body.bracket.matches if x.id == "R2-1").a == winner


def test_a_flag_ends_the_duel_at_its_instant_with_no_referee_needed(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-2", 1, toss_winner="a", at=T0)
    desk.press(1, A, T0 + 40 * SECOND)  # A places one piece; B's 10 minutes run out at T0+40s+10min
    desk.at(T0 + 40 * SECOND + 10 * MINUTE + 5 * SECOND)  # the daemon looks well after the flag
    m = desk.match("R1-2")
    assert m.status == "result"
    assert m.score.remaining_ms.model_dump() == {"a": 10 * 60_000 - 40_000, "b": 0}
    assert m.score.ended_at_ms == (T0 + 40 * SECOND + 10 * MINUTE) // MS  # the flag's instant, not the look's
    # the flag and the match's result are one decision: the same commit
    entries = desk.client.timeline(1).entries
    flag = next(e for e in entries if e.kind == "flag")
    finished = next(e for e in entries if e.kind == "match-finished")
    assert finished.seq == flag.seq + 1 and finished.t_ms == flag.t_ms
    desk.act("pt/R1-2", Confirm())
    m = desk.match("R1-2")
    assert m.winner == m.a and m.decided_by == "flag"


def test_the_same_time_creates_a_tiebreak_on_the_spot_and_its_winner_goes_on(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    start_duel(desk, "R1-3", 3, toss_winner="a", at=T0)
    desk.press(3, A, T0 + 20_200 * MS)  # A used 20.2 s
    desk.at(T0 + 41_000 * MS)  # B used 20.8 s: 9:39.8 and 9:39.2 both show 9:40
    desk.act("pt/R1-3", Complete())
    ms = {m.id: m for m in desk.session().bracket.matches}
    assert ms["R1-3"].status == "tiebreak" and ms["R1-3"].score.displayed.model_dump() == {
        "a": "9:40",
        "b": "9:40",
    }
    tb = ms["R1-3-TB1"]
    assert tb.tiebreak_of == "R1-3" and tb.pieces == 49 and tb.status == "ready"
    assert ms["R1-3"].actions["match-tiebreak"] is None  # the daemon offers the tie-break now
    desk.act("pt/R1-3", StartTiebreak())
    assert clock(desk, 3).control == "4m"  # the tie-break's clock, on the same table
    tb = desk.match("R1-3-TB1")
    desk.act("pt/R1-3-TB1", Toss(winner=tb.b))
    desk.press(3, A, T0 + 2 * MINUTE)
    desk.at(T0 + 2 * MINUTE + 30 * SECOND)  # B's time runs 30 s; A's 4 minutes untouched
    desk.act("pt/R1-3-TB1", Complete())
    desk.act("pt/R1-3-TB1", Confirm())
    root = desk.match("R1-3")
    assert root.winner == tb.a and root.decided_by == "tiebreak"
    assert desk.match("R2-2").a == tb.a


def test_referee_decisions_need_the_token_a_reason_and_are_listed(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    m = start_duel(desk, "R1-4", 4, at=T0)
    from clockd.api.client import Client

    with Client("127.0.0.1", desk.daemon.port, None) as anonymous, pytest.raises(ApiError) as err:
        anonymous.act("pt/R1-4", Override(winner=m.a, category=OverrideReason.DISPUTE, reason="x"))
    assert err.value.code == "unauthorized"
    raw = {"type": "match-override", "id": 1, "token": desk.client.token, "target": "pt/R1-4"}
    raw |= {"winner": m.a, "category": "dispute", "reason": ""}
    with socket.create_connection(("127.0.0.1", desk.daemon.port), timeout=10) as sock:
        sock.sendall(json.dumps(raw).encode() + b"\n")
        reply = json.loads(sock.makefile("rb").readline())
    assert (
        reply["type"] == "error"
        and reply["code"] == "invalid"
        and reply["reason"]["params"]["field"] == "reason"
    )
    assert desk.match("R1-4").status == "assigned"  # nothing changed
    done = desk.act(
        "pt/R1-4",
        Override(winner=m.b, category=OverrideReason.DISQUALIFICATION, reason="§8.1: left the table"),
    )
    # the referee's decision takes the duel off the table: no clock runs for a decided match
    assert desk.table(4).program.kind == "idle"
    bracket = done.event.body.bracket
    decided = next(x for x in bracket.matches if x.id == "R1-4")
    assert decided.winner == m.b and decided.decided_by == "referee"
    assert bracket.decisions[-1].model_dump() == {
        "match": "R1-4",
        "kind": "override",
        "winner": m.b,
        "category": "disqualification",
        "reason": "§8.1: left the table",
        "referee": "Sędzia A",
    }
    w = desk.match("R1-5")
    done = desk.act("pt/R1-5", Walkover(absent=w.a, reason="did not come"))
    assert next(x for x in done.event.body.bracket.matches if x.id == "R1-5").decided_by == "walkover"


def test_wrong_requests_are_refused_with_their_reason_and_change_nothing(open_desk: Any) -> None:
    desk = open_desk()
    with pytest.raises(ApiError) as err:
        desk.act("xx", CheckIn(player=1))
    assert err.value.reason.code == "event.unknown"
    ready_session(desk)
    before = desk.session()
    for target, action, code in [
        ("pt/R2-1", Assign(table=1), "bracket.cannot-assign"),
        ("pt/R1-1", Assign(table=9), "table.unknown"),
        ("pt/R1-1", Complete(), "event.item-not-on-table"),
        ("pt", ImportSignups(csv=CSV), "registration.closed"),
        ("pt", MakeDraw(seed=5), "session.drawn"),
        ("pt/R1-1", Confirm(), "bracket.no-result"),
    ]:
        with pytest.raises(ApiError) as err:
            desk.act(target, action)
        assert err.value.reason.code == code, (target, action, err.value.reason)
    assert "mecz R1-1 nie ma wyniku do zatwierdzenia" in render(err.value.reason, "pl")
    desk.act("pt/R1-1", Assign(table=1))
    with pytest.raises(ApiError) as err:
        desk.act("pt/R1-2", Assign(table=1))
    assert err.value.reason.code == "table.busy" and err.value.reason.params["owner"] == "desk/pt/R1-1"
    m = desk.match("R1-1")
    desk.act("pt/R1-1", Toss(winner=m.a))
    assert desk.match("R1-1").actions["match-toss"] is None  # a toss recorded wrongly may be redone
    desk.press(1, B, T0)
    # once the duel has begun, the match's view says so before anyone tries — and the daemon refuses
    said = desk.match("R1-1").actions["match-toss"]
    assert said is not None and said.code == "duel.toss-after-start"
    with pytest.raises(ApiError) as err:
        desk.act("pt/R1-1", Toss(winner=m.b))
    assert err.value.reason == said
    assert desk.session().bracket.draw_seed == before.bracket.draw_seed


def test_assigning_a_match_sets_its_duel_on_the_table_in_the_same_commit(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    done = desk.act("pt/R1-1", Assign(table=2))
    entries = desk.client.timeline(2).entries
    assigned = next(e for e in entries if e.kind == "match-assign")
    loaded = next(e for e in entries if e.kind == "program")
    assert assigned.seq == done.seq and loaded.seq == done.seq + 1 and loaded.t_ms == assigned.t_ms


def test_a_restart_rebuilds_every_session_and_the_duel_in_progress(open_desk: Any) -> None:
    desk = open_desk()
    ready_session(desk)
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="sb"))  # a second session in the same journal
    start_duel(desk, "R1-1", 1, at=T0)
    desk.press(1, A, T0 + 9 * SECOND)
    before = desk.event().model_dump()
    program_before = desk.table(1).program
    desk.client.close()
    desk.daemon.engine.stop(snapshot=False)  # a crash: no snapshot at the end
    desk.daemon.stop()
    # from the entries alone; then again (its clean stop writes a snapshot); then from that snapshot
    for i, use_snapshots in enumerate((False, True, True)):
        desk = open_desk(use_snapshots=use_snapshots)
        after = desk.event().model_dump()
        assert {k: v for k, v in after.items() if k != "seq"} == {
            k: v for k, v in before.items() if k != "seq"
        }
        assert desk.table(1).program == program_before  # the duel in progress, exactly
        assert [e.key for e in desk.client.events().events] == ["pt", "sb"]
        if i < 2:
            desk.client.close()
            desk.daemon.stop()
    assert desk.daemon.engine is not None and desk.daemon.engine.applied_seq > 0
    desk.at(T0 + 20 * SECOND)  # B (the toss loser) has used 11 s since A pressed
    desk.act("pt/R1-1", Complete())
    m = desk.match("R1-1")
    assert m.score.remaining_ms.model_dump() == {"a": 600_000 - 9_000, "b": 600_000 - 11_000}


def _wait_for(sub: Subscription, check: Any) -> EventStatePush:
    for _ in range(40):
        for push in sub.read(250):
            if isinstance(push, EventStatePush) and check(push):
                return push
    raise AssertionError("no event-state push came")


def test_subscribers_see_the_session_change(open_desk: Any) -> None:
    desk = open_desk()
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt", name="Piątek"))
    with Subscription("127.0.0.1", desk.daemon.port) as sub:
        first = _wait_for(sub, lambda p: True)
        assert render(first.event.title) == "Piątek" and first.event.body.stage == "registration"
        desk.act("pt", ImportSignups(csv=CSV))
        pushed = _wait_for(sub, lambda p: len(p.event.body.players) == 20)
        assert "Nazwisko" not in pushed.model_dump_json()  # display names only


def test_an_override_that_changes_who_plays_a_running_duel_is_refused_unless_it_is_cancelled(
    open_desk: Any,
) -> None:
    """Issue 18, item 4: R1-3 feeds R2-2; R2-2 running on table 2 is never reset in silence."""
    desk = open_desk()
    ready_session(desk)
    for match, table in (("R1-3", 1), ("R1-4", 3)):
        start_duel(desk, match, table, toss_winner="a", at=desk.clock.now + SECOND)
        desk.at(desk.clock.now + 3 * SECOND)  # side a's time ran: side b has more left
        desk.act(f"pt/{match}", Complete())
        desk.act(f"pt/{match}", Confirm())
    r13 = desk.match("R1-3")
    start_duel(desk, "R2-2", 2, toss_winner="a", at=desk.clock.now + SECOND)
    assert clock(desk, 2).phase == "running"
    loser = r13.b if r13.winner == r13.a else r13.a
    assert desk.match("R1-3").actions["match-override"].code == "bracket.feeds-on-table"  # the desk sees why
    with pytest.raises(ApiError) as refused:
        desk.act("pt/R1-3", Override(winner=loser, category=OverrideReason.DISPUTE, reason="misread"))
    assert refused.value.code == "refused" and refused.value.reason.code == "bracket.feeds-on-table"
    assert "R2-2" in render(refused.value.msg, "pl") and "stoliku 2" in render(refused.value.msg, "pl")
    assert clock(desk, 2).phase == "running" and desk.match("R2-2").status == "assigned"  # nothing changed

    desk.act(
        "pt/R1-3",
        Override(winner=loser, category=OverrideReason.DISPUTE, reason="misread", cancel_running=True),
    )
    assert desk.table(2).program.kind == "idle"  # the clock is off the table, not left running
    r22 = desk.match("R2-2")
    assert r22.status in ("waiting", "ready") and loser in (r22.a, r22.b) and r22.table is None
    decisions = desk.session().bracket.decisions
    assert [(d.match, d.kind) for d in decisions][-2:] == [("R2-2", "cancel"), ("R1-3", "override")]


def test_a_dispute_goes_from_the_tables_timeline_to_the_replay_in_two_commands(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18, item 7: the timeline reads as the referee thinks; duel replay reads its --json."""
    desk = open_desk()
    ready_session(desk)
    m = start_duel(desk, "R1-1", 2, toss_winner="a", at=T0 + SECOND)
    desk.press(2, A, T0 + 4 * SECOND + 250 * MS)
    desk.press(2, B, T0 + 9 * SECOND)
    desk.act("pt/R1-1", Adjust(side=A, delta_ms=-30_000, reason="dotknął cudzego elementu"))
    desk.at(T0 + 12 * SECOND)
    desk.act("pt/R1-1", Complete())
    names = desk.session().names()
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port)]

    assert main(["table", "2", "timeline", *conn]) == 0
    lines = capsys.readouterr().out.splitlines()
    press = next(line for line in lines if "naciśnięcie" in line and "0:04.250" in line)
    assert f"strona A ({names[m.a]})" in press and "zaliczone" in press  # 4.25 s after the first entry
    decided = next(line for line in lines if "pojedynek rozstrzygnięty" in line)
    assert f"wygrywa strona B ({names[m.b]})" in decided and "9:24 | 9:56" in decided and "{" not in decided
    adjust = next(line for line in lines if "−0:30" in line)
    assert f"strona A ({names[m.a]})" in adjust and "powód: dotknął cudzego elementu" in adjust
    assert "wykonał(a): Sędzia A" in adjust
    assert not any("outcome=" in line or "side=" in line for line in lines)  # no raw fields

    assert main(["table", "2", "timeline", "--json", *conn]) == 0
    path = tmp_path / "stolik2.jsonl"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["duel", "replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    score = desk.match("R1-1").score
    assert replayed["remaining_ms"] == score.remaining_ms.model_dump()
    assert replayed["displayed"] == score.displayed.model_dump() and replayed["decided_by"] == "time"
    assert replayed["winner"] == "b"  # side a lost 30 s: the clock's side b, the match's b (clock_a = a)
    assert main(["duel", "replay", str(path), "--match", "R1-7"]) == 1
    assert "nie zawiera pojedynku R1-7" in capsys.readouterr().err


def test_a_mistyped_adjustment_that_flagged_a_player_is_undone_as_such(
    open_desk: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18, item 7: −590 typed for −59 flags a player at once; undo it, not only override."""
    desk = open_desk()
    ready_session(desk)
    m = start_duel(desk, "R1-3", 3, toss_winner="a", at=T0 + SECOND)
    desk.at(T0 + 20 * SECOND)
    done = desk.act("pt/R1-3", Adjust(side=A, delta_ms=-590_000 * 2, reason="kara 59 s"))  # the typo
    assert desk.match("R1-3").status == "result" and clock(desk, 3).flag == "a"  # a's flag fell at once
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.client.token or ""]
    desk.at(T0 + 25 * SECOND)
    status = main(["table", "3", "undo-adjust", str(done.seq), "--reason", "pomyłka: miało być -59", *conn])
    _out, err = capsys.readouterr()
    assert status == 0, err
    face = clock(desk, 3)
    assert face.phase == "paused" and face.flag is None
    assert face.remaining_ms.a == 600_000 - 19_000  # a's 19 s of thinking counted, the typo not
    assert desk.match("R1-3").status == "assigned" and desk.match("R1-3").score is None
    desk.act("pt/R1-3", Resume())
    desk.act("pt/R1-3", Adjust(side=A, delta_ms=-59_000, reason="kara 59 s"))
    desk.at(T0 + 30 * SECOND)
    desk.act("pt/R1-3", Complete())
    desk.act("pt/R1-3", Confirm())
    r13 = desk.match("R1-3")
    assert r13.winner == m.b and r13.decided_by == "time"  # decided on the clock, not the typo
    status = main(["table", "3", "undo-adjust", str(done.seq), "--reason", "again", *conn])
    assert status == 2 and "wynik jest zatwierdzony" in capsys.readouterr().err  # closed once confirmed
    status = main(["table", "3", "undo-adjust", "3", "--reason", "x", *conn])
    assert status == 2 and "nie jest korektą czasu" in capsys.readouterr().err
