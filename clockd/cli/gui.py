"""``duelclock gui``: open the referee window or the audience screen."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "gui", "open the referee window or the audience screen")
