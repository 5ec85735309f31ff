"""``duelclock chess post`` against a real daemon: the wall's two sheets (the board order and
the same round by name) and the result slips for the tables, with the daemon's boards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level
from tests.chessday.test_chess_cli import daemon, run  # noqa: F401 - the fixture

#: Seven children whose Polish order is not a byte order (Ł after L, Ś after S, Ż after Z).
CHILDREN = (
    ("Żak", "Franek"),
    ("Łukasik", "Bartek"),
    ("Sowa", "Celek"),
    ("Lis", "Adam"),
    ("Śliwa", "Darek"),
    ("Zając", "Edek"),
    ("Nowak", "Gucio"),
)


def day_file(tmp_path: Path) -> Path:
    group = Group(
        key="sp5-ch",
        level=Level.PRIMARY,
        grade=5,
        sex="m",
        entrants=tuple(
            Entrant(start=i, surname=s, first_name=f, sex="m", school=f"SP {i}", email=f"r{i}@example.pl")
            for i, (s, f) in enumerate(CHILDREN, start=1)
        ),
    )
    path = tmp_path / "dzien.json"
    path.write_text(ChessDay(title="Turniej", rounds=3, groups=(group,)).model_dump_json(), encoding="utf-8")
    return path


def by_name_rows(page: str) -> list[tuple[str, str, str]]:
    """(name, board, colour or why not) of each row of the sheet by name, tags dropped."""
    rows = re.findall(
        r'<tr><td class="name">([^&]+)&nbsp;.*?</td><td class="school">[^<]*</td>'
        r'<td class="c">(.*?)</td><td class="">(.*?)</td></tr>',
        page,
    )
    return [(n, re.sub(r"</?b>", "", b), re.sub(r"</?b>", "", c)) for n, b, c in rows]


def test_post_writes_the_round_by_name_beside_the_board_order_and_the_slips_on_request(
    tmp_path: Path,
    daemon: list[str],  # noqa: F811 - the fixture
    capsys: Any,
) -> None:
    assert run(capsys, "chess", "import", str(day_file(tmp_path)), "--first-board", "11", *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    wall = tmp_path / "sciana"
    status, out, _ = run(capsys, "chess", "post", "sp5-ch", "--slips", "-o", str(wall), *daemon)
    assert status == 0
    for stem in ("sp5-ch-runda-1", "sp5-ch-runda-1-alfabetycznie", "sp5-ch-runda-1-blankiety"):
        assert str(wall / f"{stem}.pdf") in out
        assert (wall / f"{stem}.pdf").read_bytes().startswith(b"%PDF"), stem
    _, listed, _ = run(capsys, "chess", "pairings", "sp5-ch", "--json", *daemon)
    boards = json.loads(listed)
    where = {b["white"]["name"]: (str(b["board"]), "białe") for b in boards}
    where |= {b["black"]["name"]: (str(b["board"]), "czarne") for b in boards}
    page = (wall / "sp5-ch-runda-1-alfabetycznie.html").read_text(encoding="utf-8")
    rows = by_name_rows(page)
    assert [n for n, _, _ in rows] == [
        "Lis Adam", "Łukasik Bartek", "Nowak Gucio", "Sowa Celek", "Śliwa Darek", "Zając Edek", "Żak Franek"
    ]  # fmt: skip
    for name, board, colour in rows:  # the daemon's board and colour for each child, or the bye
        assert (board, colour) == where.get(name, ("—", "wolny los (1 pkt)")), name
    assert sum(1 for _, b, _ in rows if b == "—") == 1 and len(boards) == 3
    slips = (wall / "sp5-ch-runda-1-blankiety.html").read_text(encoding="utf-8")
    numbers = re.findall(r'<span class="board">Szachownica (\d+)<', slips)
    assert numbers == [str(b["board"]) for b in boards] == ["11", "12", "13"]
    assert "@" not in page + slips  # display names and schools only

    # a withdrawn child is on the next round's sheet by name, as withdrawn
    assert run(capsys, "chess", "close", "--all", *daemon)[0] == 0
    status, out, _ = run(capsys, "chess", "post", "sp5-ch", "--slips", "-o", str(wall), *daemon)
    assert status == 0 and "żadna runda nie jest grana, więc bez blankietów" in out
    assert (wall / "sp5-ch-klasyfikacja-1.pdf").exists() and not (wall / "sp5-ch-runda-2.pdf").exists()
    assert run(capsys, "chess", "withdraw", "sp5-ch", "Nowak Gucio", "--reason", "chory", *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    assert run(capsys, "chess", "post", "sp5-ch", "-o", str(wall), *daemon)[0] == 0
    rows = by_name_rows((wall / "sp5-ch-runda-2-alfabetycznie.html").read_text(encoding="utf-8"))
    assert ("Nowak Gucio", "—", "wycofany") in rows and len(rows) == 7
    assert not (wall / "sp5-ch-runda-2-blankiety.pdf").exists()  # slips only when asked for
