"""What the PIN digest costs: one login's check, and a million candidates against a copied file.

    python -m benchmarks.bench_pin_kdf [--logins 20]

``web-access.json`` keeps each PIN as scrypt under the file's salt (``web/access.py``,
``PIN_KDF``). A login is one scrypt (in a worker thread of the web process); someone who
copied the file must run one per candidate PIN. Figures, one JSON line each: a check's
median and worst time, and the time a million candidates would take on this machine, one
core, set against the HMAC the file held before (measured over 100 000 candidates).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import statistics
import tempfile
import time
from pathlib import Path

from web.access import PIN_KDF, AccessFile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        access = AccessFile(Path(tmp) / "web-access.json")
        pin = access.add_pin("Anna", ["*"])
        times = []
        for _ in range(args.logins):
            t0 = time.perf_counter()
            assert access.check_pin(pin) is not None
            times.append(time.perf_counter() - t0)
    p50 = statistics.median(times)
    print(json.dumps({"figure": "pin_check_s", "p50": round(p50, 4), "max": round(max(times), 4), **PIN_KDF}))
    key = b"k" * 32
    t0 = time.perf_counter()
    for n in range(100_000):
        hmac.digest(key, f"{n:06d}".encode(), hashlib.sha256)
    hmac_million_s = (time.perf_counter() - t0) * 10
    print(
        json.dumps(
            {
                "figure": "million_candidates_one_core_s",
                "scrypt": round(p50 * 1_000_000),
                "hmac_before": round(hmac_million_s, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
