"""``duelclock protocol``: decode and encode the clock wire protocol."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "protocol", "decode and encode the clock wire protocol")
