"""This checkout against another, in one run: the press-to-commit benchmark, alternated.

    git worktree add /tmp/duelclock-old <commit>       # the version to compare with
    python -m benchmarks.compare --baseline /tmp/duelclock-old
    python -m benchmarks.compare --baseline /tmp/duelclock-old --tables 16 128 512 --rounds 5

Machines are shared and noisy, so one run of each says little: each round runs
:func:`benchmarks.bench_daemon.load` (a real daemon, journal on disk, simulated players,
one subscriber) once for each version and each table count, in an order that alternates,
each in a fresh process with this interpreter (the other checkout is put first on the
import path, so it must need no package this one lacks; the benchmark itself is this
checkout's, so both are measured the same way). Per table count it prints the
medians of the rounds and the ratio new ÷ old (below 1: this checkout is faster), and
one JSON line per figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
FIGURES = ("latency_ms_p50", "latency_ms_p99", "cpu_cores")
# This checkout's benchmark (by its path), the other checkout's daemon (first on the import path):
# both versions measured by the same harness.
_SNIPPET = (
    "import importlib.util, json, sys, tempfile\n"
    "from pathlib import Path\n"
    "spec = importlib.util.spec_from_file_location('bench_daemon_here', sys.argv[3])\n"
    "bench = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(bench)\n"
    "load = bench.load\n"
    "with tempfile.TemporaryDirectory() as tmp:\n"
    "    print(json.dumps(load(int(sys.argv[1]), float(sys.argv[2]), Path(tmp))))\n"
)


def run_load(checkout: Path, tables: int, seconds: float) -> dict[str, Any]:
    """One load run of ``checkout``'s daemon, in its own process."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, "-c", _SNIPPET, str(tables), str(seconds), str(HERE / "benchmarks/bench_daemon.py")],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--tables", type=int, nargs="*", default=[16, 128, 512])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0, help="measured time per run")
    args = parser.parse_args()
    old_root = args.baseline.resolve()
    if not (old_root / "benchmarks" / "bench_daemon.py").exists():
        parser.error(f"{old_root} has no benchmarks/bench_daemon.py")
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in range(args.rounds):
        for n in args.tables:
            order = [("old", old_root), ("new", HERE)]
            if (r + n) % 2:
                order.reverse()
            for name, root in order:
                runs.setdefault((name, n), []).append(run_load(root, n, args.seconds))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    for n in args.tables:
        line: dict[str, Any] = {"bench": "compare", "tables": n, "rounds": args.rounds}
        for figure in FIGURES:
            old = statistics.median(x[figure] for x in runs[("old", n)])
            new = statistics.median(x[figure] for x in runs[("new", n)])
            old, new = round(old, 4), round(new, 4)  # a median of two runs is their mean: no float tails
            line[figure] = {"old": old, "new": new, "ratio": round(new / old, 3) if old else None}
        p50, p99 = line["latency_ms_p50"], line["latency_ms_p99"]
        print(
            f"{n:>4} tables: press→commit p50 {p50['old']} → {p50['new']} ms (×{p50['ratio']}), "
            f"p99 {p99['old']} → {p99['new']} ms (×{p99['ratio']}), "
            f"CPU ×{line['cpu_cores']['ratio']}",
            flush=True,
        )
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
