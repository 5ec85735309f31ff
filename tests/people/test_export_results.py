"""A person's export holds their results too (issue 26, item 6): the duels they played, the
opponent, who won, both clocks' time left — what the session's results file says of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clockd.core.clock import Side
from clockd.core.units import SECOND
from tests.tournament.conftest import T0
from tests.tournament.test_cli_daemon import CSV, cli

from .test_person_cli import person


def test_the_export_of_a_player_lists_the_duel_they_won_and_against_whom(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    for argv in (("new", "pt"), ("import", str(csv)), ("checkin", *map(str, range(1, 17))), ("close",)):
        assert cli(desk, capsys, "tournament", *argv)[0] == 0
    assert cli(desk, capsys, "tournament", "draw", "--seed", "99")[0] == 0
    assert cli(desk, capsys, "tournament", "assign", "R1-1", "2")[0] == 0
    m = desk.match("R1-1")
    assert cli(desk, capsys, "tournament", "toss", "R1-1", str(m.a))[0] == 0
    desk.press(2, Side.B, T0)  # the toss loser starts the winner's time
    desk.at(T0 + 12 * SECOND)
    assert cli(desk, capsys, "tournament", "complete", "R1-1")[0] == 0
    assert cli(desk, capsys, "tournament", "confirm", "R1-1")[0] == 0
    names = desk.session().names()

    status, out, _ = person(desk, capsys, "find", f"g{m.b}@example.pl", "--reason", "request", "--json")
    assert status == 0
    (found,) = json.loads(out)["people"]
    target = tmp_path / "export.json"
    status, out, err = person(
        desk, capsys, "export", found["person_id"], "--json", str(target), "--reason", "request"
    )
    assert status == 0, err
    (event,) = json.loads(target.read_text(encoding="utf-8"))["events"]
    results = event["results"]
    assert results["place"] is None  # the session goes on: no podium yet
    duel, *ahead = results["matches"]
    assert [d["won"] for d in ahead] == [None]  # the next round's duel, still to be played
    assert duel["match"] == "R1-1" and duel["round_name"]
    assert duel["opponent"] == names[m.a] and duel["won"] is True and duel["decided_by"] == "time"
    assert (duel["remaining_ms"], duel["opponent_remaining_ms"]) == (600_000, 588_000)
