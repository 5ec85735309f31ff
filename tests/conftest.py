"""Shared test set-up.

Qt runs offscreen (no display needed). The external test corpus lives beside the
checkout in ``../shared/corpus`` (or wherever ``DUELCLOCK_CORPUS`` points); tests that
need it fail with a clear message when it is missing rather than pass silently.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

if TYPE_CHECKING:
    from hw_sim.gpio import ScriptedFactory

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    env = os.environ.get("DUELCLOCK_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus"
    if not path.is_dir():
        raise FileNotFoundError(
            f"the external test corpus is not at {path}; set DUELCLOCK_CORPUS to its folder"
        )
    return path


def swiss_corpus_files() -> list[Path]:
    """Every TRF file of the corpus: the reference tournaments, then the school groups."""
    root = corpus_dir() / "swiss"
    return sorted(root.glob("*.trf")) + sorted((root / "school").glob("*.trf"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    return corpus_dir()


@pytest.fixture
def pi() -> Iterator[ScriptedFactory]:
    """A fresh simulated Pi (gpiozero mock pins) per test, reset afterwards so no pin or
    reservation leaks into the next test."""
    from hw_sim.gpio import ScriptedFactory

    factory = ScriptedFactory()
    yield factory
    factory.reset()


def wait_until(condition: Callable[[], T], timeout_s: float = 20.0, poll_s: float = 0.01) -> T:
    """Poll ``condition`` until it returns something true, and return that; fail the test
    if it has not within ``timeout_s`` (a daemon or a simulator thread does the work)."""
    deadline = time.monotonic() + timeout_s
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"not reached within {timeout_s} s")
        time.sleep(poll_s)
    return value
