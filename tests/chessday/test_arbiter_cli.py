"""The arbiter's commands by start number or by name, and what they show between rounds."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from tests.chessday.test_chess_cli import daemon, day_file, run  # noqa: F401 - the fixture


def test_players_by_name_the_last_round_between_rounds_and_who_will_be_withdrawn(
    tmp_path: Path,
    daemon: list[str],  # noqa: F811 - the fixture
    capsys: Any,
) -> None:
    assert run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    status, out, _ = run(capsys, "chess", "pairings", "sp3-ch", *daemon)
    first = out.splitlines()[1]
    numbers = [int(n) for n in re.findall(r"\((\d+)\)", first)]
    assert status == 0 and len(numbers) == 2  # start numbers beside the names
    white, black = numbers
    names = re.findall(r"\(\d+\) (\S+ \S+)", first)
    # A claim by the player's name, surname first or not, as the arbiter hears it.
    surname, given = names[1].split()
    status, out, _ = run(capsys, "chess", "claim", "1", f"{given} {surname}", *daemon)
    assert status == 0 and f"nr {black}" in out
    # A child who came late during round 1, by name: recorded at once.
    status, out, _ = run(capsys, "chess", "report", "sp3-ch", names[0], *daemon)
    assert status == 0 and "w trakcie rundy 1" in out and str(white) in out
    status, _, err = run(capsys, "chess", "withdraw", "sp3-ch", "Nikt Taki", "--reason", "x", *daemon)
    assert status == 2 and "nikt nie pasuje do „Nikt Taki”" in err
    # Board 1's white reported, so the forfeit below does not withdraw them; board 2's black will be.
    assert run(capsys, "chess", "result", "1", "-", *daemon)[0] == 0
    assert run(capsys, "chess", "result", "2", "+", *daemon)[0] == 0
    assert run(capsys, "chess", "close", "--all", *daemon)[0] == 0
    status, out, _ = run(capsys, "chess", "status", *daemon)
    will = [line for line in out.splitlines() if "zostaną wycofani przed rundą 2" in line]
    assert len(will) == 1 and "sp3-ch" in will[0]
    status, out, _ = run(capsys, "chess", "pairings", "sp3-ch", *daemon)
    assert status == 0 and "runda 1, wyniki" in out and "-+" in out and "+-" in out
    status, out, _ = run(capsys, "chess", "standings", "sp3-ch", *daemon)
    assert out.splitlines()[1].split()[0] == "Nr"
    assert sorted(int(line.split()[1]) for line in out.splitlines()[2:]) == list(range(1, 8))


def test_export_into_a_folder_and_the_posted_standings_name_their_round(
    tmp_path: Path,
    daemon: list[str],  # noqa: F811 - the fixture
    capsys: Any,
) -> None:
    assert run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0
    assert run(capsys, "chess", "close", "--all", *daemon)[0] == 0
    assert run(capsys, "chess", "pair", *daemon)[0] == 0  # round 2 is being played
    status, out, _ = run(capsys, "chess", "export", "sp3-ch", "-o", str(tmp_path / "trf") + "/", *daemon)
    assert status == 0 and (tmp_path / "trf" / "sp3-ch.trf").read_text(encoding="utf-8").startswith("012")
    assert stat.S_IMODE(os.stat(tmp_path / "trf" / "sp3-ch.trf").st_mode) == 0o600  # the children's names
    status, out, _ = run(
        capsys, "chess", "post", "sp3-ch", "--standings", "-o", str(tmp_path / "sciana"), *daemon
    )
    assert status == 0 and "sp3-ch: klasyfikacja po rundzie 1" in out
    assert (tmp_path / "sciana" / "sp3-ch-klasyfikacja-1.pdf").exists()
    assert {stat.S_IMODE(os.stat(p).st_mode) for p in (tmp_path / "sciana").iterdir()} == {0o600}


def test_a_groups_trf_says_which_group_it_is_when_printed_alone(
    tmp_path: Path,
    daemon: list[str],  # noqa: F811 - the fixture
    capsys: Any,
) -> None:
    assert run(capsys, "chess", "import", str(day_file(tmp_path)), *daemon)[0] == 0
    assert run(capsys, "chess", "export", "--all", "-o", str(tmp_path / "trf"), *daemon)[0] == 0
    titles = {
        k: (tmp_path / "trf" / f"{k}.trf").read_text(encoding="utf-8").splitlines()[0]
        for k in ("sp3-ch", "sp4-ch")
    }
    assert titles == {"sp3-ch": "012 Turniej — Klasa 3, chłopcy", "sp4-ch": "012 Turniej — Klasa 4, chłopcy"}
    status, out, _ = run(capsys, "chess", "print", "lista-startowa", str(tmp_path / "trf" / "sp4-ch.trf"))
    assert status == 0 and "Klasa 4, chłopcy" in out
