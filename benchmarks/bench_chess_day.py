"""Pairing the next round of a whole school chess day in one action, beside pairing it file by file.

    python -m benchmarks.bench_chess_day                  # 20 groups, 1000 players, round 6
    python -m benchmarks.bench_chess_day --players 600 --round 4

The day is the demo's (``duelclock demo --event chess``: 20 groups, FIDE order, seeded), its
first rounds played by the pure core with random results, each group written as a TRF. Then, in
one run:

* **the desk:** a real daemon (``duelclock run``, its own process, SQLite journal) gets the 20
  groups from those TRFs, and ``duelclock chess pair`` — one action for every ready group — is
  timed from the command's start to its end; the daemon's peak memory is its ``VmHWM``;
* **file by file:** ``duelclock swiss pair FILE`` for each of the 20 files, one process each, as an
  arbiter with one TRF per group would; the sum of their wall times and the largest peak memory.

Each figure is a JSON line. The two are run alternately ``--repeat`` times; compare their ratio
(the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clockd.core.chessday.group import ChessGroup, ChessGroupConfig, read_result
from clockd.core.swiss.dutch import pair_round


def played_groups(players: int, rounds_played: int, seed: int) -> list[tuple[str, str]]:
    """``(key, TRF text)`` of each group of the demo day, ``rounds_played`` rounds closed."""
    from clockd.kinds.chess.demo import demo_day

    rng = random.Random(seed)
    day = demo_day(rng, players, 8)
    out = []
    for group in day.groups:
        g = ChessGroup.new(ChessGroupConfig(group=group, rounds=8))
        for _ in range(rounds_played):
            p = pair_round(g.pairing_input(), 8)
            g = g.paired(p.boards, p.bye)
            assert g.current is not None
            for b in g.current.boards:
                g = g.enter(b.board, read_result(rng.choices("10=+", weights=(42, 36, 20, 2))[0]), by="bench")
            g = g.close()
        out.append((group.key, g.export()))
    return out


def _peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def desk(files: list[tuple[str, Path]], work: Path) -> dict[str, float]:
    """A daemon with the 20 groups; ``duelclock chess pair`` timed."""
    env = dict(os.environ, DUELCLOCK_STATE_DIR=str(work / "state"), DUELCLOCK_LANG="en")
    exe = [sys.executable, "-m", "clockd"]
    daemon = subprocess.Popen(
        [*exe, "run", "--db", str(work / "day.db"), "--port", "0", "--sim", "0"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not (work / "state" / "daemon.json").exists():
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise RuntimeError(
                    "the daemon did not start: " + (daemon.stderr.read().decode() if daemon.stderr else "")
                )
            time.sleep(0.05)
        for key, path in files:
            subprocess.run(
                [*exe, "chess", "import-trf", key, str(path)], env=env, check=True, capture_output=True
            )
        before = _peak_kb(daemon.pid)
        start = time.perf_counter()
        subprocess.run([*exe, "chess", "pair"], env=env, check=True, capture_output=True)
        wall = time.perf_counter() - start
        return {
            "desk_pair_all_s": wall,
            "daemon_peak_kb": _peak_kb(daemon.pid),
            "daemon_peak_before_kb": before,
        }
    finally:
        daemon.terminate()
        daemon.wait(30)


def file_by_file(files: list[tuple[str, Path]]) -> dict[str, float]:
    """``duelclock swiss pair FILE`` for every group, one process each."""
    total = 0.0
    peak = 0
    for _key, path in files:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "clockd", "swiss", "pair", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        total += time.perf_counter() - start
        peak = max(peak, usage.ru_maxrss)
        if status != 0:
            raise RuntimeError(f"swiss pair {path} failed ({status})")
    return {"swiss_pair_sum_s": total, "swiss_pair_peak_kb": peak}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--round", type=int, default=6, help="the round to pair (the ones before are played)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    groups = played_groups(args.players, args.round - 1, args.seed)
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-chess-") as tmp:
        base = Path(tmp)
        files = []
        for key, text in groups:
            path = base / f"{key}.trf"
            path.write_text(text, encoding="utf-8")
            files.append((key, path))
        for i in range(args.repeat):
            work = base / f"run{i}"
            work.mkdir()
            for name, value in {**desk(files, work), **file_by_file(files)}.items():
                figures.setdefault(name, []).append(value)
    common = {"players": args.players, "groups": len(groups), "round": args.round}
    for name, values in figures.items():
        print(
            json.dumps({"bench": "chess_day", "figure": name, "best": min(values), "runs": values, **common})
        )
    ratio = min(figures["desk_pair_all_s"]) / min(figures["swiss_pair_sum_s"])
    print(
        json.dumps(
            {"bench": "chess_day", "figure": "desk_over_file_by_file", "ratio": round(ratio, 3), **common}
        )
    )
    print(
        json.dumps(
            {
                "bench": "chess_day",
                "figure": "bench_process_peak_kb",
                "value": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
