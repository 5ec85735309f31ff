"""``tournament toss --winner`` takes the name the referee hears at the table, as ``checkin`` does
(issue 26, item 6): a number still works, a name is looked up among the match's two players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_cli_daemon import CSV, cli


def test_the_toss_winner_is_named_by_the_start_of_their_name(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    csv = tmp_path / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    for argv in (("new", "pt"), ("import", str(csv)), ("checkin", *map(str, range(1, 17))), ("close",)):
        assert cli(desk, capsys, "tournament", *argv)[0] == 0
    assert cli(desk, capsys, "tournament", "draw", "--seed", "5")[0] == 0
    assert cli(desk, capsys, "tournament", "assign", "R1-1", "1")[0] == 0
    m = desk.match("R1-1")
    names = desk.session().names()
    said = names[m.b].split()[0].lower()  # "gracz7": what the referee hears, in any case
    status, out, err = cli(desk, capsys, "tournament", "toss", "R1-1", "--winner", said)
    assert status == 0, err
    assert desk.match("R1-1").toss_winner == m.b
    assert f"rzut wygrał(a) {names[m.b]} ({m.b})" in out
    # a name that is no player of this duel is refused with the reason, and nothing is changed
    assert cli(desk, capsys, "tournament", "assign", "R1-2", "2")[0] == 0
    r12 = desk.match("R1-2")
    stranger = names[m.a].split()[0]
    status, _, err = cli(desk, capsys, "tournament", "toss", "R1-2", "--winner", stranger)
    assert status == 2 and f"„{stranger}”" in err
    assert desk.match("R1-2").toss_winner is None
    assert cli(desk, capsys, "tournament", "toss", "R1-2", "--winner", str(r12.a))[0] == 0
