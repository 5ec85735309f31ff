"""How long a person waits for a ``duelclock`` command, beside Python's own start (issue 30, item 1).

    python -m benchmarks.bench_cli                 # median of 9 runs of each
    python -m benchmarks.bench_cli --runs 21 --bbp PATH

Each figure is a whole process, started the way a shell starts it, timed from start to exit:

* ``python -c pass`` and ``python -c "import pydantic"`` — the floors, in the same run;
* ``duelclock --help``;
* ``duelclock status`` against a daemon this benchmark starts (``run --sim 4`` in a
  temporary state folder, its four simulated tables playing);
* ``duelclock swiss pair`` of round 8 of a 300-player tournament (the corpus's
  ``t_0039_p300_r8.trf``, built for that round as ``bench_swiss_pairing`` builds it), and,
  with ``--bbp`` (or ``BBP_PAIRINGS``), bbpPairings on the same file.

The runs of the figures are interleaved (one of each, then again), so a burst of load on a
shared machine falls on all of them alike. One JSON line per figure: its median and best in
milliseconds, its goal where the issue sets one, and its ratio to ``python -c pass``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import corpus_dir

PYTHON = sys.executable
DUELCLOCK = (PYTHON, "-m", "clockd")
SWISS_FILE, SWISS_ROUND = "t_0039_p300_r8.trf", 8

#: The issue's goals, in milliseconds (swiss pair's is bbpPairings' own time, when measured).
GOALS_MS = {"help": 150, "status": 200}


def timed(argv: Sequence[str], env: dict[str, str]) -> float:
    """Seconds from starting ``argv`` to its exit (its output thrown away); it must succeed."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return time.perf_counter() - start


def start_daemon(state: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``duelclock run`` with four simulated tables; returns once its ``daemon.json`` is written."""
    daemon = subprocess.Popen(
        [*DUELCLOCK, "run", "--port", "0", "--sim", "4"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not (state / "daemon.json").exists():
        if daemon.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("bench_cli: the daemon did not start")
        time.sleep(0.1)
    return daemon


def swiss_input(folder: Path) -> Path:
    """Round 8 of the 300-player corpus file, as the file a referee pairs it from."""
    from clockd.core.swiss import trf

    t = trf.load_bytes((corpus_dir() / "swiss" / SWISS_FILE).read_bytes())
    path = folder / "round.trf"
    path.write_bytes(trf.dump_bytes(t.pairing_input(SWISS_ROUND)))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command (the median is shown)")
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS"), help="a bbpPairings to time too")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "DUELCLOCK_STATE_DIR": str(folder / "state")}
        env.pop("DUELCLOCK_LANG", None)
        (folder / "state").mkdir()
        trf_file = swiss_input(folder)
        out = str(folder / "pairs.txt")
        commands: dict[str, list[str]] = {
            "python_pass": [PYTHON, "-c", "pass"],
            "import_pydantic": [PYTHON, "-c", "import pydantic"],
            "help": [*DUELCLOCK, "--help"],
            "status": [*DUELCLOCK, "status"],
            "swiss_pair_p300": [*DUELCLOCK, "swiss", "pair", str(trf_file), "-p", out],
        }
        if args.bbp:
            commands["bbp_pair_p300"] = [args.bbp, "--dutch", str(trf_file), "-p", out]
        daemon = start_daemon(folder / "state", env)
        try:
            times: dict[str, list[float]] = {name: [] for name in commands}
            for _ in range(args.runs):
                for name, argv in commands.items():
                    times[name].append(timed(argv, env))
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)

    floor = statistics.median(times["python_pass"])
    for name, values in times.items():
        median = statistics.median(values)
        figure: dict[str, object] = {
            "bench": "cli",
            "figure": name,
            "median_ms": round(median * 1000, 1),
            "best_ms": round(min(values) * 1000, 1),
            "runs": len(values),
            "x_python_pass": round(median / floor, 2),
        }
        if name in GOALS_MS:
            figure["goal_ms"] = GOALS_MS[name]
        if name == "swiss_pair_p300" and "bbp_pair_p300" in times:
            figure["x_bbp"] = round(median / statistics.median(times["bbp_pair_p300"]), 2)
        print(json.dumps(figure), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
