"""``duelclock demo``: play a whole simulated Puzzle Duel session."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "demo", "play a whole simulated Puzzle Duel session")
