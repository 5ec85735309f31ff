"""Time units. Every duration in the core is an ``int`` of nanoseconds (DESIGN.md, principle 1).

Floats never carry time: a float of seconds cannot hold a 30-minute duel to the
nanosecond, and two floats that "should" be equal often are not. Convert at the edge,
once, with these constants.
"""

from __future__ import annotations

from typing import Final

NS: Final = 1
US: Final = 1_000
MS: Final = 1_000_000
SECOND: Final = 1_000_000_000
MINUTE: Final = 60 * SECOND
HOUR: Final = 60 * MINUTE


def ns_to_ms(ns: int) -> int:
    """Whole milliseconds, rounded toward zero (for fields named ``*_ms``)."""
    return -(-ns // MS) if ns < 0 else ns // MS
