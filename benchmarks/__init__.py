"""Speed measurements. ``python -m benchmarks`` (``make bench``) runs them all; each prints
its figures and one JSON line, so runs can be compared. Machines are shared and noisy:
compare ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import os
from pathlib import Path


def corpus_dir() -> Path:
    """The reference corpus: ``$DUELCLOCK_CORPUS``, else ``../shared/corpus`` beside the checkout
    (where the tests look too)."""
    env = os.environ.get("DUELCLOCK_CORPUS")
    return Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def percentile(values: list[int], q: float) -> int:
    """The ``q`` quantile (0 to 1; 1 is the maximum) of ``values`` by nearest rank below; 0 if empty.

    Shared by every benchmark so that "p99" means the same figure in each JSON line.
    """
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
