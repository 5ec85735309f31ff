"""``duelclock swiss pair`` and ``duelclock swiss check``."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "pair", "pair the next round of a TRF tournament (FIDE Dutch)")
    add_stub(sub, "check", "re-pair every round of a TRF file and report differences")
