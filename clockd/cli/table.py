"""``duelclock table``: referee commands for one table (pause, resume, adjust)."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "table", "referee commands for one table (pause, resume, adjust)")
