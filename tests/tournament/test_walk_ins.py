"""Walk-ins keep their seat (§1.19; issue 26, item 3): the README's commands, on a real daemon.

A referee follows README.md: the form's export, the check-in, a walk-in typed in at the desk,
the close, the draw. The walk-in is at the hall, so present; the close gives the absent
player's seat to the reserves in order, then to the walk-ins, and says who took which; and
until the draw the close can be taken back (a check-in forgotten), after it not.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from .test_cli_daemon import cli


def _sample(tmp_path: Path) -> Path:
    """The README's sample export (16 on the main list, 4 in reserve), as a file outside the repository."""
    path = tmp_path / "zapisy.csv"
    path.write_bytes(resources.files("clockd.data").joinpath("sample-signups.csv").read_bytes())
    return path


def test_a_walk_in_takes_the_absent_players_seat_and_plays(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    assert cli(desk, capsys, "tournament", "import", str(_sample(tmp_path)))[0] == 0
    main_list = [p.id for p in desk.session().players if p.list == "main"]
    absent = main_list[-1]
    status, _, err = cli(desk, capsys, "tournament", "checkin", *[str(p) for p in main_list[:-1]])
    assert status == 0, err
    status, _, err = cli(
        desk, capsys, "tournament", "add", "--first", "Ola", "--last", "Zielińska", "--age", "30", "--walk-in"
    )
    assert status == 0, err
    ola = next(p for p in desk.session().players if p.list == "walk-in")
    assert ola.present  # typed in because she is here

    status, out, err = cli(desk, capsys, "tournament", "close")
    assert status == 0, err
    names = desk.session().names()
    assert (
        f"{names[ola.id]} ({ola.id}) zajmuje miejsce: {names[absent]} ({absent}) (chętny na miejscu, §1.19)"
        in out
    )
    assert cli(desk, capsys, "tournament", "draw", "--seed", "123")[0] == 0
    session = desk.session()
    assert ola.id in session.field and len(session.field) == 16
    first_round = [m for m in session.bracket.matches if m.id.startswith("R1-")]
    assert not any(m.bye for m in first_round)  # 16 players: nobody has a bye
    assert any(ola.id in (m.a, m.b) for m in first_round)


def test_the_close_is_taken_back_until_the_draw_and_no_later(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desk = open_desk()
    assert cli(desk, capsys, "tournament", "new", "pt")[0] == 0
    assert cli(desk, capsys, "tournament", "import", str(_sample(tmp_path)))[0] == 0
    main_list = [p.id for p in desk.session().players if p.list == "main"]
    late = main_list[-1]
    assert cli(desk, capsys, "tournament", "checkin", *[str(p) for p in main_list[:-1]])[0] == 0
    assert cli(desk, capsys, "tournament", "checkin", "17")[0] == 0  # the first reserve
    status, out, _ = cli(desk, capsys, "tournament", "close")
    assert status == 0 and "(lista rezerwowa po kolei, §1.18)" in out

    # the late player arrives: the check-in is closed, but no draw was made, and the refusal says so
    status, _, err = cli(desk, capsys, "tournament", "checkin", str(late))
    assert status == 2
    assert "losowanie dokonane" not in err and "tournament reopen" in err

    status, out, err = cli(desk, capsys, "tournament", "reopen")
    assert status == 0, err
    assert desk.session().stage == "registration" and desk.session().field is None
    assert cli(desk, capsys, "tournament", "checkin", str(late))[0] == 0
    status, out, _ = cli(desk, capsys, "tournament", "close")
    assert status == 0 and "zajmuje" not in out  # every main-list player is here: no seat changes hands
    assert late in desk.session().field and 17 not in desk.session().field

    assert cli(desk, capsys, "tournament", "draw", "--seed", "1")[0] == 0
    status, _, err = cli(desk, capsys, "tournament", "reopen")
    assert status == 2 and "sesja pt ma już losowanie" in err
    status, _, err = cli(desk, capsys, "tournament", "checkin", "--out", str(late))
    assert status == 2 and "skład jest w drabince" in err
    # the reopen and the refusals are journaled as they were: a restart rebuilds the same field
    field = desk.session().field
    desk.client.close()
    desk.daemon.stop()
    assert open_desk().session().field == field
