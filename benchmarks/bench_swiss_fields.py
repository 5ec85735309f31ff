"""The Dutch engine on adversarial fields of 300, 600 and 1000 players, round by round,
beside bbpPairings when a built one is given.

    python -m benchmarks.bench_swiss_fields                    # every round of every field
    python -m benchmarks.bench_swiss_fields --bbp PATH         # and bbpPairings on each round
    python -m benchmarks.bench_swiss_fields --players 300      # only the fields of that size
    python -m benchmarks.bench_swiss_fields --file NAME.trf    # only that field

``--engine PATH`` is the same as ``--bbp PATH``; ``BBP_PAIRINGS`` in the environment stands
for either. The fields are ``benchmarks/data/swiss/*.trf`` (lopsided colours, many draws,
many forfeits; see the README there). Each round k is paired from rounds 1..k−1 (the
input ``swiss check`` builds) and checked against the round recorded; with ``--bbp``
bbpPairings pairs the same input right after, so the two times of a round are taken under
the same load. For each field size the summary gives the median, p95 and maximum of the
round times (ours and bbpPairings'), the same of their CPU times (on a shared machine the
clock also counts the others' work; CPU time is what the pairing itself cost), the worst
ratio of each, and the largest bracket model that
went to the slow path (the one weighted matching with the whole tie-break in the weight,
taken when the certificate cannot decide; 0: none did) beside the largest the certificate
decided. Brackets of fewer than ``FAST_FROM`` (20) players always take the one weighted
matching, which is cheap at that size, and are not counted as the slow path.

Standard output is one JSON line per figure: ``{"bench": "swiss_fields", "figure": "round",
...}`` for each round as it is paired, then ``"figure": "field"`` for each field size (300,
600, 1000) and ``"figure": "all"`` last. The readable progress goes to standard error. The
exit status is 1 if a round is not paired as the file has it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import percentile
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import build_input, pair_players
from clockd.core.swiss.dutch.ordering import SlowPath
from clockd.core.swiss.dutch.state import initial_colour
from clockd.core.swiss.model import Tournament

DATA = Path(__file__).parent / "data" / "swiss"


def spread(seconds: list[float]) -> tuple[float, float, float]:
    """Median, p95 and maximum in seconds, by the shared :func:`benchmarks.percentile` (on
    milliseconds, so "p95" means what it means in the other benchmarks)."""
    ms = [round(1000 * s) for s in seconds]
    return percentile(ms, 0.5) / 1000, percentile(ms, 0.95) / 1000, percentile(ms, 1.0) / 1000


def prepared(t: Tournament, k: int) -> Tournament:
    """The input for round ``k``: rounds 1..k−1, with the first board's colour in round 1
    written down (``XXC white1``/``black1``) as ``swiss check`` does, since the generated files
    do not say it and round 1 cannot be paired without it."""
    out = t.pairing_input(k)
    xxc = out.record_value("XXC")
    colour = "white1" if initial_colour(t) == "w" else "black1"
    return out.with_record("XXC", f"{xxc} {colour}" if xxc else colour)


def pair_ours(t: Tournament, k: int) -> tuple[float, bool, int, int, float]:
    """Seconds to pair round ``k``, whether it is the recorded pairing, the largest model
    that took the slow path (0: none), the largest decided on the certificate, and the CPU
    seconds of the pairing (on a shared machine the clock also counts other work)."""
    prepared_input = prepared(t, k)
    slow = SlowPath()
    start = time.perf_counter()
    cpu = time.process_time()
    result = pair_players(build_input(prepared_input), slow=slow)
    cpu = time.process_time() - cpu
    seconds = time.perf_counter() - start
    boards, bye = t.pairings(k)
    same = sorted(result.boards) == sorted((b.white, b.black) for b in boards) and result.bye == bye
    return seconds, same, slow.largest, slow.largest_decided, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pair_bbp(bbp: str, t: Tournament, k: int) -> tuple[float, float]:
    """Seconds and CPU seconds bbpPairings takes to pair round ``k``."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.trf"
        src.write_bytes(trf.dump_bytes(prepared(t, k)))
        start = time.perf_counter()
        cpu = _children_cpu()
        subprocess.run(
            [bbp, "--dutch", str(src), "-p", str(Path(tmp) / "out.txt")], check=True, capture_output=True
        )
        return time.perf_counter() - start, _children_cpu() - cpu


def summary(rows: list[dict[str, object]], with_bbp: bool) -> dict[str, object]:
    ours = [float(str(r["seconds"])) for r in rows]
    median, p95, top = spread(ours)
    cpu_median, cpu_p95, cpu_top = spread([float(str(r["cpu_seconds"])) for r in rows])
    out: dict[str, object] = {
        "rounds": len(rows),
        "median_s": median,
        "p95_s": p95,
        "max_s": top,
        "cpu_median_s": cpu_median,
        "cpu_p95_s": cpu_p95,
        "cpu_max_s": cpu_top,
        "largest_slow_path_bracket": max((int(str(r["slow_path_players"])) for r in rows), default=0),
        "largest_certificate_bracket": max((int(str(r["certificate_players"])) for r in rows), default=0),
        "all_identical": all(bool(r["identical"]) for r in rows),
    }
    if with_bbp:
        theirs = [float(str(r["bbp_seconds"])) for r in rows]
        median, p95, top = spread(theirs)
        cpu_median, cpu_p95, cpu_top = spread([float(str(r["bbp_cpu_seconds"])) for r in rows])
        out |= {
            "bbp_median_s": median,
            "bbp_p95_s": p95,
            "bbp_max_s": top,
            "bbp_cpu_median_s": cpu_median,
            "bbp_cpu_p95_s": cpu_p95,
            "bbp_cpu_max_s": cpu_top,
            "worst_ratio": round(max(float(str(r["ratio"])) for r in rows), 3) if rows else 0.0,
            "worst_cpu_ratio": round(max(float(str(r["cpu_ratio"])) for r in rows), 3) if rows else 0.0,
            "rounds_slower_than_bbp": sum(1 for r in rows if float(str(r["ratio"])) > 1),
        }
    return out


def emit(figure: str, values: dict[str, object]) -> None:
    print(json.dumps({"bench": "swiss_fields", "figure": figure} | values), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--bbp",
        "--engine",
        dest="bbp",
        default=os.environ.get("BBP_PAIRINGS"),
        metavar="PATH",
        help="a locally built bbpPairings to time on the same inputs",
    )
    parser.add_argument("--players", type=int, action="append", help="only fields of this size (repeatable)")
    parser.add_argument("--file", action="append", help="only this file of the data folder (repeatable)")
    args = parser.parse_args()

    files = sorted(DATA.glob("p*_*.trf"), key=lambda p: (int(p.name[1:].split("_")[0]), p.name))
    if args.players:
        files = [p for p in files if int(p.name[1:].split("_")[0]) in args.players]
    if args.file:
        files = [p for p in files if p.name in args.file]
    rows: list[dict[str, object]] = []
    for path in files:
        t = trf.load_bytes(path.read_bytes())
        for k in range(1, t.rounds_paired + 1):
            seconds, same, slow, decided, cpu = pair_ours(t, k)
            row: dict[str, object] = {
                "file": path.name,
                "players": len(t.players),
                "round": k,
                "seconds": round(seconds, 3),
                "cpu_seconds": round(cpu, 3),
                "identical": same,
                "slow_path_players": slow,
                "certificate_players": decided,
            }
            line = f"{path.name} round {k}: {seconds:.2f} s ({cpu:.2f} s CPU)"
            line += "" if same else ", DIFFERS from the file"
            if slow:
                line += f", slow path up to {slow} players"
            if args.bbp:
                theirs, theirs_cpu = pair_bbp(args.bbp, t, k)
                row["bbp_seconds"] = round(theirs, 3)
                row["bbp_cpu_seconds"] = round(theirs_cpu, 3)
                row["ratio"] = round(seconds / theirs, 3)
                row["cpu_ratio"] = round(cpu / max(theirs_cpu, 1e-3), 3)
                line += f"; bbpPairings {theirs:.2f} s ({theirs_cpu:.2f} s CPU, ratio {seconds / theirs:.2f})"
            print(line, file=sys.stderr, flush=True)
            emit("round", row)
            rows.append(row)
    for size in sorted({int(str(r["players"])) for r in rows}):
        field = [r for r in rows if r["players"] == size]
        emit(
            "field",
            {"players": size, "files": sorted({str(r["file"]) for r in field})}
            | summary(field, bool(args.bbp)),
        )
    identical = all(bool(r["identical"]) for r in rows)
    emit("all", {"bbp": bool(args.bbp)} | summary(rows, bool(args.bbp)))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
