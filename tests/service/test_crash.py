"""The crash test, short: the real ``duelclock run`` process with simulated serial clocks in this
process, killed with SIGKILL at random moments and restarted (the full run, 100+ kills, is
``python -m benchmarks.crash_test``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_kill_9_loses_no_acknowledged_press_duplicates_none_and_restarts_into_the_same_state() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.crash_test", "--cycles", "5", "--clocks", "6", "--seed", "3"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["cycles"] == 5
    assert summary["presses"] > 100  # the clocks were under load, through the kills
    assert summary["lost"] == 0, summary
    assert summary["duplicated"] == 0, summary
    assert summary["state_mismatches"] == 0, summary
    assert summary["states_checked"] >= 6 * 5
    assert summary["acked"] == summary["presses"] == summary["journaled"]
    assert summary["clean_exit"] == 0
    assert result.returncode == 0
