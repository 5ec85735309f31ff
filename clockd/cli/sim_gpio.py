"""``duelclock sim gpio``."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "gpio", "simulated GPIO tables on gpiozero's mock pins against the real driver")
