"""``duelclock duel``: duel tools (replay a disputed duel)."""

from __future__ import annotations

from typing import Any

from clockd.cli._stub import add_stub


def register(sub: Any) -> None:
    add_stub(sub, "duel", "duel tools (replay a disputed duel)")
