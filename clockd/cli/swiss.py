"""``duelclock swiss``: Swiss chess: pairings, standings, checks (FIDE Dutch, TRF)."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "swiss", "Swiss chess: pairings, standings, checks (FIDE Dutch, TRF)")
