"""The soak benchmark, short: the same hostile clients against a real daemon for a few seconds
(the full run, 5 minutes of them beside 64 busy tables, is ``python -m benchmarks.soak``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_short_soak_reports_every_figure_and_the_replayed_request_is_journaled_once() -> None:
    command = [sys.executable, "-m", "benchmarks.soak", "--seconds", "6", "--quiet-seconds", "3"]
    command += ["--settle-seconds", "2", "--tables", "8", "--think-ms", "300"]
    command += ["--subscribers", "20", "--connections", "300", "--floods", "2"]
    result = subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    figures = {line["figure"]: line for line in lines}
    assert set(figures) == {
        "press_to_commit_ms",
        "daemon_rss_mb",
        "referee_status_ms",
        "hostile_clients",
        "daemon_api",
    }
    commit = figures["press_to_commit_ms"]
    assert commit["quiet"]["presses"] > 0 and commit["hostile"]["presses"] > 0
    assert commit["quiet"]["p99"] > 0 and commit["p99_hostile_over_quiet"] is not None
    rss = figures["daemon_rss_mb"]
    assert 0 < rss["start"] <= rss["hostile_peak"] and rss["final"] > 0
    referee = figures["referee_status_ms"]
    assert referee["failed"] == {} and referee["hostile"]["n"] > 0  # the desk was answered throughout
    hostile = figures["hostile_clients"]
    assert hostile["replays_sent"] > 10 and hostile["replays_journaled"] == 1
    assert figures["daemon_api"]["refused_connections"] > 0  # 300 connections: more than the public slots
    assert figures["daemon_api"]["engine_failed"] is False
    assert result.returncode == 0, result.stderr[-2000:]
