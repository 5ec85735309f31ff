"""The crash test, short: the real ``duelclock run`` process with simulated serial clocks in this
process, killed with SIGKILL at random moments and restarted (the full run, 100+ kills, is
``python -m benchmarks.crash_test``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.crash_test import SESSION_TOML, SIGNUPS, half_states
from clockd.api.client import Client
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Assign, Toss
from clockd.core.puzzle_duel import ImportSignups, MakeDraw
from clockd.core.registration import CheckIn, CloseCheckIn
from clockd.service.runtime import Daemon, TableSpec

ROOT = Path(__file__).resolve().parents[2]


def test_kill_9_loses_no_acknowledged_press_duplicates_none_and_restarts_into_the_same_state() -> None:
    """And a removed -wal or a second name for the journal loses nothing without an alert (issue 20)."""
    result = subprocess.run(
        [
            *(sys.executable, "-m", "benchmarks.crash_test", "--cycles", "5", "--clocks", "6", "--seed", "3"),
            *("--wal-removed", "1", "--hard-links", "1"),
        ],
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
    # the referee assigned and tossed through the kills, and no kill split one of those in two
    assert summary["referee_actions"]["match-assign"] >= 5 and summary["referee_actions"]["match-toss"] >= 5
    assert summary["half_states"] == 0, summary["notes"]
    assert summary["half_state_checks"] >= 3
    assert summary["clean_exit"] == 0
    # a bad day each: the -wal removed under the daemon (it stops by itself, saying so, and nothing
    # acknowledged is lost), and the journal given a second name (a daemon started through it refuses)
    assert (summary["wal_removed"], summary["wal_alerts"]) == (1, 1), summary["notes"]
    assert (summary["hard_links"], summary["link_refusals"]) == (1, 1), summary["notes"]
    assert result.returncode == 0


def test_the_half_state_check_names_a_match_whose_table_does_not_run_it(tmp_path: Path) -> None:
    """The crash test's check can fail: a match on a table that shows something else is named."""
    daemon = Daemon(tmp_path / "j.db", tables=[TableSpec(1), TableSpec(2)], port=0, write_daemon_info=False)
    started = daemon.start()
    try:
        with Client(port=started.port, token=started.token, by="Sędzia") as c:
            c.act("", CreateEvent(event_kind="puzzle-duel", key="s1", config_toml=SESSION_TOML))
            c.act("s1", ImportSignups(csv=SIGNUPS))
            for p in range(1, 5):
                c.act("s1", CheckIn(player=p))
            c.act("s1", CloseCheckIn())
            first = c.act("s1", MakeDraw(seed=1)).event.body.bracket.matches[0]
            c.act(f"s1/{first.id}", Assign(table=2))
            c.act(f"s1/{first.id}", Toss(winner=first.a))
            events, tables = c.events().events, c.status().tables
    finally:
        daemon.stop()
    assert half_states(events, tables) == []
    idle = tables[1].model_copy(update={"program": tables[0].program})  # table 2 as if the load was lost
    assert half_states(events, [tables[0], idle]) == [f"desk/s1/{first.id} is on table 2, which runs None"]
