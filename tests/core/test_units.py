"""Unit conversions at the edge: ``*_ms`` fields from integer nanoseconds."""

from __future__ import annotations

import pytest

from clockd.core.units import MS, ns_to_ms


@pytest.mark.parametrize(
    ("ns", "ms"),
    [
        (1_500_000, 1),
        (-1_500_000, -1),  # toward zero: a 1.5 ms correction either way reads as 1 ms
        (-999_999, 0),
        (-MS, -1),
        # a figure beyond a float's 53 bits stays exact (a float division would lose the last digits)
        (-(2**70 + 987_654_321), -((2**70 + 987_654_321) // MS)),
        (2**70 + 987_654_321, (2**70 + 987_654_321) // MS),
    ],
)
def test_ns_to_ms_truncates_toward_zero_exactly(ns: int, ms: int) -> None:
    assert ns_to_ms(ns) == ms
