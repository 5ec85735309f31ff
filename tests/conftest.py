"""Shared test set-up.

Qt runs offscreen (no display needed). The external test corpus lives beside the
checkout in ``../shared/corpus`` (or wherever ``DUELCLOCK_CORPUS`` points); tests that
need it fail with a clear message when it is missing rather than pass silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hw_sim.gpio import ScriptedFactory

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

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
