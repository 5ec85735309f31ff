"""Tables are given back (DESIGN.md principle 12; issue 26, items 1 and 2).

One daemon, eight tables, one day: a Puzzle Duel session played to its podium on tables 1–8,
then a relay on the tables the session used, then another session's duel on the relay's
table once its ranking is confirmed. An event that is over lets its tables go; the referee
can free one by hand (with a reason, never a running clock in silence); a restart keeps it
so; and a dispute after the confirmation replays the daemon's result from the table's
timeline in the two commands a referee types.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clockd.api.messages import ApiError
from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Confirm, Toss, Walkover
from clockd.core.clock import Side
from clockd.core.duel import Complete
from clockd.core.hall import FinishEntry, TimerStart
from clockd.core.program import FreeTable
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.core.units import MS, SECOND
from clockd.core.zone import ConfirmRanking, UnvoidEntry, VoidEntry
from clockd.i18n import render

from .conftest import Desk

A, B = Side.A, Side.B
CSV = "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Nazwisko{i};{20 + i}\n" for i in range(1, 17))
RELAY = """
name = "Sztafeta"
duration = "60m"
pictures = 2
[stations]
"para-1" = 6
"para-2" = 7
"para-3" = 8
"""


def session(desk: Desk, key: str) -> Any:
    desk.act("", CreateEvent(event_kind="puzzle-duel", key=key))
    desk.act(key, ImportSignups(csv=CSV))
    for p in range(1, 17):
        desk.act(key, CheckIn(player=p))
    desk.act(key, CloseCheckIn())
    return desk.act(key, MakeDraw(seed=5)).event.body


def holders(desk: Desk) -> dict[int, str | None]:
    return {t.table: t.holder for t in desk.client.status().tables}


def start(desk: Desk, key: str, match: str, table: int) -> Any:
    """Assign, toss (side a wins), the toss loser's press: side a's time runs."""
    desk.act(f"{key}/{match}", Assign(table=table))
    m = desk.match(match, key)
    desk.act(f"{key}/{match}", Toss(winner=m.clock_a if m.clock_a is not None else m.a))
    desk.press(table, B, desk.clock.now + SECOND)
    return m


def play(desk: Desk, key: str, match: str, table: int) -> None:
    """A whole duel on ``table``: side a thinks 5 s, side b 2 s and completes; then confirmed."""
    start(desk, key, match, table)
    desk.press(table, A, desk.clock.now + 5 * SECOND)
    desk.at(desk.clock.now + 2 * SECOND)
    desk.act(f"{key}/{match}", Complete())
    desk.act(f"{key}/{match}", Confirm())


def play_to_the_podium(desk: Desk, key: str, tables: range) -> int:
    """Every match of the session, each on the first table of ``tables`` that is free."""
    played = 0
    while True:
        ready = [m for m in desk.session(key).bracket.matches if m.status == "ready"]
        if not ready:
            return played
        for m in ready:
            free = next(t for t in tables if desk.table(t).holder is None)
            play(desk, key, m.id, free)
            played += 1


def test_a_session_played_to_its_podium_gives_its_tables_to_a_relay_and_the_relay_its_table_to_a_duel(
    open_desk: Any,
) -> None:
    desk = open_desk(tables=8)
    session(desk, "pt")
    # round I: eight duels at once, one on each table; each table is the match's while it runs
    first = [m for m in desk.session("pt").bracket.matches if m.round == 1 and m.status == "ready"]
    assert len(first) == 8
    for table, m in enumerate(first, start=1):
        start(desk, "pt", m.id, table)
    assert holders(desk) == {t: f"desk/pt/{m.id}" for t, m in enumerate(first, start=1)}
    with pytest.raises(ApiError) as busy:
        desk.act("", CreateEvent(event_kind="relay", key="sztafeta", config_toml=RELAY))
    assert render(busy.value.reason, "pl") == f"stolik 6 jest zajęty: prowadzi desk/pt/{first[5].id}"
    for table, m in enumerate(first, start=1):
        desk.press(table, A, desk.clock.now + 5 * SECOND)
        desk.act(f"pt/{m.id}", Complete())
        assert desk.table(table).holder == f"desk/pt/{m.id}"  # a result the referee has not confirmed
        desk.act(f"pt/{m.id}", Confirm())
        assert desk.table(table).holder is None  # confirmed: the table is free, the result still shows
        assert desk.table(table).program.verdict is not None
    play_to_the_podium(desk, "pt", range(1, 9))
    matches = desk.session("pt").bracket.matches
    assert {m.status for m in matches} <= {"decided", "cancelled"}  # the podium is decided
    assert holders(desk) == dict.fromkeys(range(1, 9))

    # the pairs relay on tables 6–8, where the session's duels were
    desk.act("", CreateEvent(event_kind="relay", key="sztafeta", config_toml=RELAY))
    assert [holders(desk)[t] for t in (6, 7, 8)] == [f"desk/sztafeta/para-{i}" for i in (1, 2, 3)]
    session(desk, "sb")  # Saturday's session, drawn while the relay runs
    with pytest.raises(ApiError) as relay_busy:
        desk.act("sb/R1-1", Assign(table=8))
    assert "stolik 8 jest zajęty: prowadzi desk/sztafeta/para-3" in render(relay_busy.value.reason, "pl")
    desk.act("sztafeta", TimerStart())
    for entry in ("para-1", "para-2", "para-3"):
        desk.at(desk.clock.now + 60 * SECOND)
        desk.act("sztafeta", FinishEntry(entry=entry))
    assert holders(desk)[8] == "desk/sztafeta/para-3"  # ended, not confirmed: the ranking may change
    desk.act("sztafeta", ConfirmRanking())
    assert [holders(desk)[t] for t in (6, 7, 8)] == [None, None, None]
    desk.act("sb/R1-1", Assign(table=8))  # Saturday's duel takes the confirmed relay's table
    assert desk.table(8).holder == "desk/sb/R1-1" and desk.table(8).program.kind == "puzzle-duel"


def test_a_voided_entry_and_a_duel_taken_off_its_table_give_their_tables_back(open_desk: Any) -> None:
    desk = open_desk(tables=8)
    desk.act("", CreateEvent(event_kind="relay", key="sztafeta", config_toml=RELAY))
    session(desk, "pt")
    desk.act("sztafeta", VoidEntry(entry="para-2", reason="wycofała się przed startem"))
    assert holders(desk)[7] is None and holders(desk)[6] == "desk/sztafeta/para-1"
    desk.act("sztafeta", UnvoidEntry(entry="para-2", reason="pomyłka"))  # the pair is back at its table
    assert holders(desk)[7] == "desk/sztafeta/para-2"
    desk.act("sztafeta", VoidEntry(entry="para-2", reason="wycofała się przed startem"))
    desk.act("pt/R1-1", Assign(table=7))  # the voided pair's table goes to a duel
    assert desk.table(7).holder == "desk/pt/R1-1"
    timeline = [e.kind for e in desk.client.timeline(7).entries]
    assert timeline.count("table-released") == 2 and "table-retaken" in timeline
    # a duel that does not take place (a player absent) leaves its table at once
    m = desk.match("R1-1")
    desk.act("pt/R1-1", Walkover(absent=m.b, reason="nie przyszedł"))
    assert desk.table(7).holder is None
    # its table went to the duel meanwhile: a void taken back does not take it back
    desk.act("sztafeta", UnvoidEntry(entry="para-2", reason="pomyłka"))
    assert desk.table(7).holder is None and desk.table(7).program.kind == "idle"


def test_the_referee_frees_a_table_with_a_reason_but_a_running_clock_only_when_told(
    open_desk: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk(tables=4)
    session(desk, "pt")
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.client.token]
    read = conn[:4]
    start(desk, "pt", "R1-1", 3)
    assert main(["table", "3", *read]) == 0
    shown = capsys.readouterr().out
    assert "stolik 3 zajmuje pt/R1-1" in shown
    assert main(["table", "3", "free", "--reason", "sztafeta potrzebuje stolika", *conn]) != 0
    refused = capsys.readouterr().err
    assert "przy stoliku 3 biegnie zegar (desk/pt/R1-1)" in refused and "--stop-running" in refused
    assert desk.table(3).program.clock.phase == "running"  # nothing applied
    assert main(["table", "3", "free", "--reason", "stolik przewrócony", "--stop-running", *conn]) == 0
    capsys.readouterr()
    freed = desk.table(3)
    assert freed.holder is None and freed.program.kind == "idle"
    assert main(["table", "3", "show", *read]) == 0
    assert "stolik 3 jest wolny" in capsys.readouterr().out
    entry = desk.client.timeline(3).entries[-1]
    assert entry.kind == "table-free" and entry.data["action"]["reason"] == "stolik przewrócony"
    assert entry.data["by"]
    assert main(["table", "3", "free", "--reason", "jeszcze raz", *conn]) != 0
    assert "stolik 3 jest już wolny" in capsys.readouterr().err
    # a table held by a duel not yet started is freed without more ado; the GUI reads it in the view
    desk.act("pt/R1-2", Assign(table=4))
    assert desk.table(4).actions["table-free"] is None
    desk.act(4, FreeTable(reason="zamiana stolików"))
    assert desk.table(4).holder is None
    assert main(["status", *read]) == 0
    assert capsys.readouterr().out.count("nic") >= 2


def test_tables_given_back_stay_free_after_a_restart(open_desk: Any) -> None:
    desk = open_desk(tables=8)
    session(desk, "pt")
    play(desk, "pt", "R1-1", 6)
    start(desk, "pt", "R1-2", 7)
    desk.press(7, A, desk.clock.now + SECOND)
    desk.act(7, FreeTable(reason="awaria zegara", stop_running=True))
    start(desk, "pt", "R1-3", 8)
    before = holders(desk)
    assert before[6] is None and before[7] is None and before[8] == "desk/pt/R1-3"
    assert desk.daemon.engine is not None
    desk.client.close()
    desk.daemon.engine.stop(snapshot=False)  # no snapshot: the journal alone
    desk.daemon.stop()
    again = open_desk(tables=8)
    assert holders(again) == before
    again.act("", CreateEvent(event_kind="relay", key="sztafeta", config_toml=RELAY.replace("= 8", "= 5")))
    assert [holders(again)[t] for t in (6, 7)] == ["desk/sztafeta/para-1", "desk/sztafeta/para-2"]


def test_a_dispute_after_the_confirmation_replays_the_daemons_result_from_the_tables_timeline(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``duelclock table N timeline --json > f.json; duelclock duel replay f.json --match M``."""
    desk = open_desk(tables=4)
    session(desk, "pt")
    play(desk, "pt", "R1-1", 2)  # an earlier duel on the same table, confirmed
    m = start(desk, "pt", "R1-2", 2)
    t = desk.clock.now
    for dt, side in [(7_300, A), (4_100, B), (12_900, A), (3_050, B)]:
        t += dt * MS
        desk.press(2, side, t)
    desk.at(t + 1_700 * MS)
    desk.act("pt/R1-2", Complete())
    desk.act("pt/R1-2", Confirm())
    decided = desk.match("R1-2")
    assert decided.status == "decided"
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port)]
    assert main(["table", "2", *conn]) == 0
    shown = capsys.readouterr().out  # the result still shows; the table is free
    assert "pt/R1-2 (stolik wolny)" in shown and "stolik 2 jest wolny" in shown
    assert main(["table", "2", "timeline", *conn]) == 0
    assert "stolik zwolniony (impreza zakończona)" in capsys.readouterr().out
    # the two commands as the referee types them, in a shell (`duelclock` is this Python's clockd)
    duelclock = f"{shlex.quote(sys.executable)} -m clockd"
    where = f"--host 127.0.0.1 --port {desk.daemon.port}"
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state")}
    typed = f"{duelclock} table 2 timeline --json {where} > f.json; "
    typed += f"{duelclock} duel replay f.json --match R1-2"
    done = subprocess.run(
        typed, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert_replayed(desk, "R1-2", json.loads(done.stdout))
    # the earlier duel on the table, confirmed too, from the same file
    assert main(["duel", "replay", str(tmp_path / "f.json"), "--match", "R1-1"]) == 0
    assert_replayed(desk, "R1-1", json.loads(capsys.readouterr().out))
    assert m.id == "R1-2" and decided.score.moves.model_dump() == {"a": 2, "b": 2}


def assert_replayed(desk: Desk, match: str, replayed: dict[str, Any]) -> None:
    """The replay's winner and times are the daemon's."""
    played = desk.match(match)
    assert replayed["remaining_ms"] == played.score.remaining_ms.model_dump()
    assert replayed["displayed"] == played.score.displayed.model_dump()
    assert replayed["moves"] == played.score.moves.model_dump()
    side_a = played.clock_a if played.clock_a is not None else played.a
    side_b = played.b if side_a == played.a else played.a
    assert {"a": side_a, "b": side_b}[replayed["winner"]] == played.winner
