"""Run every benchmark module in this folder (``bench_*.py``), each in its own process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).parent
    only = set(sys.argv[1:])
    status = 0
    for path in sorted(here.glob("bench_*.py")):
        if only and path.stem not in only and path.stem.removeprefix("bench_") not in only:
            continue
        print(f"== {path.stem}", flush=True)
        status |= subprocess.call([sys.executable, "-m", f"benchmarks.{path.stem}"])
    return status


if __name__ == "__main__":
    raise SystemExit(main())
