"""``duelclock demo``: a whole session through the real daemon, drivers and simulated serial clocks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.reports.results import Results, check_results


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def test_demo_seed_7_plays_a_whole_session_by_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    # --speed only paces the show: the session runs on simulated time, so 0 gives the same results
    assert main(["demo", "--seed", "7", "--json-out", str(out), "--speed", "0"]) == 0
    printed = capsys.readouterr().out
    assert "Podium" in printed
    data = json.loads(out.read_text())
    res = data["resolution_ms"]
    duels = [m for m in data["matches"] if m["remaining_ms"] is not None]
    ties = [m for m in data["matches"] if m["tiebreak_of"] is not None]
    assert len(duels) == 16 + len(ties)  # 8 + 4 + 2 + 1 + 1, and one more per tie-break
    decisions = {d["match"] for d in data["decisions"]}
    for m in data["matches"]:
        assert m["winner"] in (m["a"], m["b"])
        loser_side = "b" if m["winner"] == m["a"] else "a"
        winner_side = "a" if loser_side == "b" else "b"
        if m["decided_by"] in ("time", "flag"):
            mine, theirs = m["remaining_ms"][winner_side], m["remaining_ms"][loser_side]
            assert ceil_div(mine, res) > ceil_div(theirs, res), m
        elif m["decided_by"] == "tiebreak":
            last = [t for t in ties if t["tiebreak_of"] == m["id"]][-1]
            assert last["winner"] == m["winner"]
        else:
            assert m["decided_by"] == "referee" and m["id"] in decisions
    assert len(set(data["podium"])) == 3
    assert check_results(Results.model_validate(data)) == []


def test_the_same_seed_plays_the_same_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for i in range(2):
        out = tmp_path / f"r{i}.json"
        assert (
            main(
                [
                    "demo",
                    "--seed",
                    "11",
                    "--players",
                    "9",
                    "--tables",
                    "4",
                    "--speed",
                    "0",
                    "--json-out",
                    str(out),
                ]
            )
            == 0
        )
        runs.append(json.loads(out.read_text()))
    capsys.readouterr()
    assert runs[0] == runs[1]
    byes = [m for m in runs[0]["matches"] if m["decided_by"] == "bye"]
    assert len(byes) == 7  # 9 players in a bracket of 16
