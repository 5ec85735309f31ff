"""What clients read of a countdown with laps: its view body (message models only)."""

from __future__ import annotations

from typing import Literal

from clockd.api.messages import EventBody, body_type


@body_type
class CountdownBody(EventBody):
    kind: Literal["countdown"] = "countdown"
    remaining_ms: int
    running: bool
    laps_ms: list[int]
