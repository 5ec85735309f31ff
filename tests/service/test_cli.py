"""The commands a referee types, against a real ``duelclock run`` process: start, status, table
commands, ``kill -9`` and restart, clean stop."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from clockd.api import Client
from tests.conftest import wait_until


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}


def duelclock(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clockd", *args], env=env, capture_output=True, text=True, timeout=30
    )


def start(env: dict[str, str], db: Path, *extra: str) -> tuple[subprocess.Popen[str], list[str]]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clockd",
            "run",
            "--sim",
            "2",
            "--port",
            "0",
            "--db",
            str(db),
            "--think-ms",
            "150",
            *extra,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    banner = []
    for line in proc.stdout:
        banner.append(line.strip())
        if line.startswith("Clocks:"):
            return proc, banner
    raise AssertionError(f"the daemon did not start: {banner} {proc.stderr.read() if proc.stderr else ''}")


def status(env: dict[str, str]) -> dict:
    """What ``duelclock status --json`` prints."""
    result = duelclock(env, "status", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def quick_status(env: dict[str, str]) -> dict:
    """The same data through the API client in this process (for polling without process start-up)."""
    info = json.loads((Path(env["DUELCLOCK_STATE_DIR"]) / "daemon.json").read_text())
    with Client(port=info["port"]) as client:
        return client.status().model_dump(mode="json")


def test_run_status_table_commands_crash_and_restart(env: dict[str, str], tmp_path: Path) -> None:
    db = tmp_path / "festival.db"
    proc, banner = start(env, db)
    try:
        info = json.loads((tmp_path / "state" / "daemon.json").read_text())
        assert f"referee token: {info['token']}" in "\n".join(banner)
        assert f"API: 127.0.0.1:{info['port']}" in "\n".join(banner)
        assert "new journal" in banner[1]

        # The simulated players keep pressing: both clocks run and moves are counted.
        def moves(t: dict) -> int:
            return int(t["program"]["clock"]["moves"]["a"] + t["program"]["clock"]["moves"]["b"])

        wait_until(lambda: all(moves(t) >= 4 for t in quick_status(env)["tables"]))
        for t in status(env)["tables"]:
            clock = t["program"]["clock"]
            assert t["device"]["state"] == "connected"
            assert clock["running"] in ("a", "b") and 0 < clock["remaining_ms"]["a"] <= 600_000

        human = duelclock(env, "status")
        assert human.returncode == 0 and human.stdout.splitlines()[0].split()[:3] == ["Table", "A", "B"]

        assert duelclock(env, "table", "1", "pause", "--reason", "dispute").returncode == 0
        before = next(t for t in status(env)["tables"] if t["table"] == 1)["program"]["clock"]
        assert before["phase"] == "paused"
        adjusted = duelclock(
            env, "table", "1", "adjust", "b", "-30", "--reason", "illegal move", "--by", "Ewa"
        )
        assert adjusted.returncode == 0, adjusted.stderr
        after = next(t for t in status(env)["tables"] if t["table"] == 1)["program"]["clock"]
        assert after["remaining_ms"]["b"] == before["remaining_ms"]["b"] - 30_000
        assert after["remaining_ms"]["a"] == before["remaining_ms"]["a"]

        refused = duelclock(env, "table", "1", "resume", "--token", "not-the-token")
        assert refused.returncode == 2 and "the token given is wrong" in refused.stderr
        bad_side = duelclock(env, "table", "1", "adjust", "c", "5", "--reason", "x")
        assert bad_side.returncode == 2 and "argument SIDE: invalid choice: 'c'" in bad_side.stderr

        timeline = duelclock(env, "table", "1", "timeline", "--json")
        entries = [json.loads(line) for line in timeline.stdout.splitlines()]
        adjust = [e for e in entries if e["kind"] == "adjust"]
        assert adjust[0]["data"]["action"]["reason"] == "illegal move" and adjust[0]["data"]["by"] == "Ewa"
        assert adjust[0]["data"]["action"]["delta_ms"] == -30_000

        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc, banner = start(env, db)
        assert "resumed (clocks kept running)" in banner[1]
        # table 2 was running; table 1 was paused
        assert any(
            line.startswith("! table 2: the daemon stopped while this clock was running") for line in banner
        )
        assert not any(line.startswith("! table 1:") for line in banner)
        now = quick_status(env)["tables"]
        restarted = next(t for t in now if t["table"] == 1)["program"]["clock"]
        for key in ("phase", "remaining_ms", "moves", "elapsed_ms", "to_move"):
            assert restarted[key] == after[key], key
        table2 = next(t for t in now if t["table"] == 2)
        assert [a["code"] for a in table2["alerts"]] == ["alert.recovered-running"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    stopped = json.loads((tmp_path / "state" / "daemon.json").read_text())
    assert stopped["pid"] is None  # no daemon claims to run; the token stays for the next start
    # with no daemon.json the client falls back to the default port, where a developer's own daemon
    # may be listening: ask a port that was just free instead
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    unreachable = duelclock(env, "status", "--port", str(free_port))
    assert unreachable.returncode == 3 and "start it with `duelclock run`" in unreachable.stderr


def test_a_bad_configuration_is_refused_before_anything_starts(env: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "clocks.toml"
    config.write_text('[[tables]]\nid = 1\ncontrol = "10 minutes"\n\n[[tables]]\nid = 1\n', encoding="utf-8")
    result = duelclock(env, "run", "--config", str(config), "--db", str(tmp_path / "x.db"))
    assert result.returncode == 2
    assert "clocks.toml: the configuration cannot be used" in result.stderr
    assert "control (table 1, entry 1)" in result.stderr
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize("seconds", ["inf", "-Infinity", "nan", "thirty", "1.0005", "0"])
def test_a_time_adjustment_that_is_not_a_sensible_number_is_refused_with_a_sentence(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from clockd.cli import build_parser

    for argv in (["table", "1", "adjust", "a"], ["tournament", "adjust", "R1-1", "1"]):
        with pytest.raises(SystemExit) as exit_:
            build_parser().parse_args([*argv, seconds, "--reason", "x"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "±SECONDS" in err and "Traceback" not in err


def test_a_referee_token_can_always_be_typed_after_token() -> None:
    """``--token -Xy…`` would read as an option: no token the daemon makes starts with a dash."""
    from clockd.cli import build_parser
    from clockd.service.runtime import new_token

    tokens = [new_token() for _ in range(3000)]  # one in 64 would start with "-" unguarded
    assert len(set(tokens)) == len(tokens)
    parser = build_parser()
    for token in tokens:
        args = parser.parse_args(["table", "1", "pause", "--token", token])
        assert args.token == token
