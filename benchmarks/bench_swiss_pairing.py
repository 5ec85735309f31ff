"""How long the FIDE Dutch engine takes to pair one round, at 250 and at 1000 players.

    python -m benchmarks.bench_swiss_pairing                 # round 8 of a 250- and a 1000-player file
    python -m benchmarks.bench_swiss_pairing --bbp PATH      # and bbpPairings on the same inputs
    python -m benchmarks.bench_swiss_pairing --all-rounds    # every round of the 1000- and 250-player
                                                             # files, each checked against the file

``BBP_PAIRINGS`` in the environment stands for ``--bbp``. The inputs are the corpus files
(``../shared/corpus/swiss``), built for round k as its README says. Each timing is the best
of ``--repeat`` runs; with ``--bbp`` each round is timed for both engines back to back, so
the ratio holds even on a shared machine. ``--decide-from N`` passes the engine's threshold
(``pair_players(decide_from=N)``; a huge N times the one-weighted-matching path). The last
line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import corpus_dir
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import build_input, pair_players
from clockd.core.swiss.dutch.ordering import FAST_FROM
from clockd.core.swiss.model import Tournament

DEFAULT_CASES = (("t_0035_p250_r8.trf", 8), ("t_0041_p1000_r8.trf", 8))
ALL_ROUNDS_FILES = ("t_0041_p1000_r8.trf", "t_0042_p1000_r8.trf", "t_0035_p250_r8.trf", "t_0036_p250_r8.trf")


def load(name: str) -> Tournament:
    return trf.load_bytes((corpus_dir() / "swiss" / name).read_bytes())


def time_ours(t: Tournament, k: int, repeat: int, decide_from: int) -> tuple[float, bool]:
    prepared = t.pairing_input(k)
    best = float("inf")
    same = False
    for _ in range(repeat):
        start = time.perf_counter()
        result = pair_players(build_input(prepared), decide_from)
        best = min(best, time.perf_counter() - start)
        boards, bye = t.pairings(k)
        same = sorted(result.boards) == sorted((b.white, b.black) for b in boards) and result.bye == bye
    return best, same


def time_bbp(bbp: str, t: Tournament, k: int, repeat: int) -> float:
    best = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.trf"
        src.write_bytes(trf.dump_bytes(t.pairing_input(k)))
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(
                [bbp, "--dutch", str(src), "-p", str(Path(tmp) / "out.txt")], check=True, capture_output=True
            )
            best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--bbp",
        default=os.environ.get("BBP_PAIRINGS"),
        help="a locally built bbpPairings to time on the same inputs",
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--all-rounds",
        action="store_true",
        help="pair every round of the 1000- and 250-player files and check each",
    )
    parser.add_argument(
        "--decide-from",
        type=int,
        default=FAST_FROM,
        help=f"brackets of at least this many players are decided on the certificate (default {FAST_FROM})",
    )
    args = parser.parse_args()

    figures: dict[str, object] = {"bench": "swiss_pairing", "decide_from": args.decide_from}
    ok = True
    if args.all_rounds:
        rounds: list[dict[str, object]] = []
        for name in ALL_ROUNDS_FILES:
            t = load(name)
            for k in range(2, t.rounds_played + 1):
                seconds, same = time_ours(t, k, args.repeat, args.decide_from)
                ok &= same
                row: dict[str, object] = {
                    "file": name,
                    "players": len(t.players),
                    "round": k,
                    "seconds": round(seconds, 3),
                    "identical": same,
                }
                line = (
                    f"{name} round {k}: {seconds:.2f} s, {'identical' if same else 'DIFFERS from the file'}"
                )
                if args.bbp:
                    theirs = time_bbp(args.bbp, t, k, args.repeat)
                    row["bbp_seconds"] = round(theirs, 3)
                    row["ratio"] = round(seconds / theirs, 3)
                    line += f"; bbpPairings {theirs:.2f} s (ratio {seconds / theirs:.3f})"
                print(line, flush=True)
                rounds.append(row)
        figures["rounds"] = rounds
        figures["slowest_s"] = max(float(str(r["seconds"])) for r in rounds)
        if args.bbp:
            figures["worst_ratio"] = max(float(str(r["ratio"])) for r in rounds)
        figures["all_identical"] = ok
    else:
        for name, k in DEFAULT_CASES:
            t = load(name)
            players = len(t.players)
            seconds, same = time_ours(t, k, args.repeat, args.decide_from)
            ok &= same
            line = f"{players} players, round {k}: {seconds:.2f} s ({'identical' if same else 'DIFFERS'})"
            figures[f"p{players}_r{k}_s"] = round(seconds, 3)
            if args.bbp:
                theirs = time_bbp(args.bbp, t, k, args.repeat)
                figures[f"p{players}_r{k}_bbp_s"] = round(theirs, 3)
                line += f"; bbpPairings {theirs:.2f} s (ratio {seconds / theirs:.2f})"
            print(line, flush=True)
        figures["identical"] = ok
    print(json.dumps(figures))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
