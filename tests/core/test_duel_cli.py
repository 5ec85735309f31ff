"""``duelclock duel replay TIMELINE.json``: the referee's dispute tool, through the real command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main


def replay(
    tmp_path: Path, timeline: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> tuple[int, Any, str]:
    path = tmp_path / "timeline.json"
    path.write_text(json.dumps(timeline), encoding="utf-8")
    status = main(["duel", "replay", str(path)])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def timeline(events: list[dict[str, Any]], **control: Any) -> dict[str, Any]:
    tc = {"base_ms": 60_000, "increment_ms": 0, "delay_ms": 0, "delay": "none"} | control
    return {"time_control": tc, "resolution_ms": 1000, "toss_winner": "a", "events": events}


def test_a_completed_duel_prints_the_result_in_the_issues_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A won the toss. B starts A's time at 1 s (not a move, no increment). 2 s increment.
    events = [
        {"t_ms": 1_000, "press": "b"},
        {"t_ms": 11_000, "press": "a"},  # A: 60 - 10 + 2 = 52 s
        {"t_ms": 14_500, "press": "b"},  # B: 60 - 3.5 + 2 = 58.5 s
        {"t_ms": 20_000, "pause": True},  # A used 5.5 s
        {"t_ms": 50_000, "resume": True},
        {"t_ms": 50_500, "adjust": "b", "delta_ms": -10_000},  # B: 48.5 s
        {"t_ms": 51_000, "complete": True},  # A used 1 s more: 52 - 6.5 = 45.5 s
    ]
    status, result, err = replay(tmp_path, timeline(events, increment_ms=2_000), capsys)
    assert status == 0, err
    assert result == {
        "winner": "b",
        "decided_by": "time",
        "remaining_ms": {"a": 45_500, "b": 48_500},
        "displayed": {"a": "0:46", "b": "0:49"},
        "moves": {"a": 1, "b": 1},
        "ended_at_ms": 51_000,
    }


def test_the_same_displayed_time_is_a_tie_and_a_finer_resolution_separates_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A uses 20.2 s, B 20.8 s: 39.8 s and 39.2 s left, both shown as 0:40.
    events = [
        {"t_ms": 0, "press": "b"},
        {"t_ms": 20_200, "press": "a"},
        {"t_ms": 41_000, "complete": True},
    ]
    status, result, _ = replay(tmp_path, timeline(events), capsys)
    assert status == 0
    assert result["winner"] is None and result["decided_by"] == "tie"
    assert result["displayed"] == {"a": "0:40", "b": "0:40"}
    assert result["remaining_ms"] == {"a": 39_800, "b": 39_200}
    fine = timeline(events) | {"resolution_ms": 100}
    status, result, _ = replay(tmp_path, fine, capsys)
    assert result["winner"] == "a" and result["decided_by"] == "time"


def test_a_flag_ends_the_duel_at_its_instant_and_later_events_are_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [
        {"t_ms": 0, "press": "b"},
        {"t_ms": 10_000, "press": "a"},  # B's 60 s run from 10 s: the flag falls at 70 s
        {"t_ms": 75_000, "press": "b"},  # too late
        {"t_ms": 80_000, "adjust": "b", "delta_ms": 30_000},  # too late
        {"t_ms": 90_000, "complete": True},
    ]
    status, result, _ = replay(tmp_path, timeline(events), capsys)
    assert status == 0
    assert result == {
        "winner": "a",
        "decided_by": "flag",
        "remaining_ms": {"a": 50_000, "b": 0},
        "displayed": {"a": "0:50", "b": "0:00"},
        "moves": {"a": 1, "b": 0},
        "ended_at_ms": 70_000,
    }


def test_a_timeline_that_stops_with_the_clock_running_ends_at_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, result, _ = replay(tmp_path, timeline([{"t_ms": 5, "press": "b"}], base_ms=1_000), capsys)
    assert status == 0
    assert result["decided_by"] == "flag" and result["winner"] == "b" and result["ended_at_ms"] == 1_005


def test_the_toss_winners_press_on_the_ready_clock_does_not_start_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [{"t_ms": 0, "press": "a"}, {"t_ms": 30_000, "press": "b"}, {"t_ms": 40_000, "complete": True}]
    status, result, _ = replay(tmp_path, timeline(events), capsys)
    assert status == 0
    # only B's press at 30 s started A's time: A used 10 s, not 40 s
    assert result["remaining_ms"] == {"a": 50_000, "b": 60_000}


@pytest.mark.parametrize(
    ("delay", "expected_a"),
    [("bronstein", 60_000 - 10_000 + 3_000), ("simple", 60_000 - (10_000 - 3_000))],
)
def test_delays_follow_the_time_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], delay: str, expected_a: int
) -> None:
    events = [{"t_ms": 0, "press": "b"}, {"t_ms": 10_000, "press": "a"}, {"t_ms": 10_000, "complete": True}]
    status, result, _ = replay(tmp_path, timeline(events, delay_ms=3_000, delay=delay), capsys)
    assert status == 0
    assert result["remaining_ms"]["a"] == expected_a


def test_a_malformed_timeline_names_every_bad_field_and_prints_no_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {
        "time_control": {"base_ms": 1.5},
        "resolution_ms": 0,
        "toss_winner": "c",
        "events": [{"t_ms": 0, "press": "b"}, {"t_ms": 1, "press": "a", "pause": True}],
    }
    status, result, err = replay(tmp_path, bad, capsys)
    assert status == 1 and result is None
    for where in ("time_control.base_ms", "resolution_ms", "toss_winner", "events[1]"):
        assert where in err


def test_an_impossible_event_is_named_by_its_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [{"t_ms": 0, "press": "b"}, {"t_ms": 10, "resume": True}]
    status, result, err = replay(tmp_path, timeline(events), capsys)
    assert status == 1 and result is None
    assert "events[1]" in err and "resume" in err


def test_a_duel_that_never_ended_has_no_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = [{"t_ms": 0, "press": "b"}, {"t_ms": 10, "pause": True}]
    status, result, err = replay(tmp_path, timeline(events), capsys)
    assert status == 1 and result is None and "stoi wstrzymany" in err  # Polish unless DUELCLOCK_LANG=en


def test_the_example_in_the_documentation_is_what_the_command_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "puzzle-duel.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Disputes") :]
    blocks = [b.split("```", 1)[0] for b in section.split("```json")[1:3]]
    status, result, _ = replay(tmp_path, json.loads(blocks[0]), capsys)
    assert status == 0 and result == json.loads(blocks[1])
