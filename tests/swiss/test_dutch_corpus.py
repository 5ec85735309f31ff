"""Every round of every corpus tournament, re-paired from the rounds before it, must be
exactly the reference engine's pairing: the same boards, the same colours, the same bye.

Each (file, round) is its own test case, so a failure names the file and the round. The
two 1000-player files are checked on their last two rounds here (all their rounds take
minutes: ``python -m benchmarks.bench_swiss_pairing --all-rounds`` checks every one).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import Tournament
from tests.conftest import corpus_dir

BIG = 1000  # players: only the last rounds of files this large are in the suite


def _files() -> list[Path]:
    root = corpus_dir() / "swiss"
    return sorted(root.glob("t_*.trf")) + sorted((root / "school").glob("*.trf"))


_CACHE: dict[Path, Tournament] = {}


def _load(path: Path) -> Tournament:
    if path not in _CACHE:
        _CACHE[path] = trf.load_bytes(path.read_bytes())
    return _CACHE[path]


def _cases() -> list[tuple[Path, int]]:
    cases = []
    for path in _files():
        t = _load(path)
        rounds = t.rounds_played
        first = rounds - 1 if len(t.players) >= BIG else 2
        cases.extend((path, k) for k in range(first, rounds + 1))
    return cases


def test_the_corpus_has_every_file() -> None:
    assert len(_files()) == 46


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
