"""Every round of every corpus tournament, re-paired from the rounds before it, must be
exactly the reference engine's pairing: the same boards, the same colours, the same bye.

Each (file, round) is its own test case, so a failure names the file and the round. All
324 rounds are here, the two 1000-player files included (one to three seconds a round;
``python -m benchmarks.bench_swiss_pairing --all-rounds`` times them against bbpPairings).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import Tournament
from tests.conftest import corpus_dir


def _files() -> list[Path]:
    root = corpus_dir() / "swiss"
    return sorted(root.glob("t_*.trf")) + sorted((root / "school").glob("*.trf"))


_CACHE: dict[Path, Tournament] = {}


def _load(path: Path) -> Tournament:
    if path not in _CACHE:
        _CACHE[path] = trf.load_bytes(path.read_bytes())
    return _CACHE[path]


def _cases() -> list[tuple[Path, int]]:
    return [(path, k) for path in _files() for k in range(2, _load(path).rounds_played + 1)]


def test_the_corpus_has_every_file_and_round() -> None:
    assert len(_files()) == 46
    assert len(_cases()) == 324


@pytest.mark.parametrize(
    ("path", "round_number"), _cases(), ids=lambda v: v.name if isinstance(v, Path) else f"round{v}"
)
def test_round_is_paired_as_the_reference_engine_paired_it(path: Path, round_number: int) -> None:
    t = _load(path)
    result = pair_round(t.pairing_input(round_number))
    boards, bye = t.pairings(round_number)
    expected = sorted((b.white, b.black) for b in boards)
    assert sorted(result.boards) == expected
    assert result.bye == bye
