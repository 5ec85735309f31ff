"""How long reading a TRF file, writing it back and computing the standings take, at 250
and 1000 players (corpus files). ``python -m benchmarks.bench_swiss_standings``.

Prints one line per file and one JSON line. Each figure is the best of a few runs (the
machine is shared: compare ratios within a run).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from benchmarks import corpus_dir
from clockd.core.swiss import trf
from clockd.core.swiss.standings import standings
from clockd.core.swiss.tiebreaks import Edition

FILES = ("t_0035_p250_r8.trf", "t_0041_p1000_r8.trf", "t_0042_p1000_r8.trf")
REPEAT = 3


def best_ms(action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter_ns()
        action()
        best = min(best, (time.perf_counter_ns() - start) / 1e6)
    return round(best, 1)


def main() -> int:
    results = []
    for name in FILES:
        data = (corpus_dir() / "swiss" / name).read_bytes()
        tournament = trf.load_bytes(data)
        figures = {
            "file": name,
            "players": len(tournament),
            "read_ms": best_ms(lambda data=data: trf.load_bytes(data)),
            "write_ms": best_ms(lambda t=tournament: trf.dump_bytes(t)),
            "standings_2024_ms": best_ms(lambda t=tournament: standings(t, edition=Edition.E2024)),
            "standings_2026_ms": best_ms(lambda t=tournament: standings(t, edition=Edition.E2026)),
        }
        results.append(figures)
        print(
            f"{name}: {figures['players']} players — read {figures['read_ms']} ms, write "
            f"{figures['write_ms']} ms, standings {figures['standings_2026_ms']} ms (2026), "
            f"{figures['standings_2024_ms']} ms (2024)"
        )
    print(json.dumps({"bench": "swiss_standings", "repeat": REPEAT, "results": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
