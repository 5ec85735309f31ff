"""``duelclock sim serial``."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "serial", "simulated USB-serial clocks against the real serial driver")
