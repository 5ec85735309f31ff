"""Display rounding: what the clock face shows, and what "the same time" means."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clockd.core.display import format_clock, quantize, same_time
from clockd.core.units import HOUR, MINUTE, MS, SECOND


@pytest.mark.parametrize(
    ("remaining", "shown"),
    [
        (5 * MINUTE, "5:00"),
        (5 * MINUTE - 1, "5:00"),  # a clock rounds up: 4:59.999... shows 5:00
        (4 * MINUTE + 59 * SECOND, "4:59"),
        (1, "0:01"),
        (0, "0:00"),  # 0:00 only when no time is left
        (HOUR + 2 * MINUTE + 3 * SECOND, "1:02:03"),
    ],
)
def test_whole_seconds_round_up(remaining: int, shown: str) -> None:
    assert format_clock(remaining) == shown


def test_tenths_under_the_threshold() -> None:
    assert format_clock(19 * SECOND + 410 * MS, tenths_below_ns=20 * SECOND) == "0:19.5"
    assert format_clock(25 * SECOND + 410 * MS, tenths_below_ns=20 * SECOND) == "0:26"


def test_same_time_depends_on_the_resolution() -> None:
    a, b = 61 * SECOND + 200 * MS, 61 * SECOND + 900 * MS  # both show 1:02
    assert same_time(a, b)
    assert not same_time(a, b, resolution_ns=MS)
    assert same_time(a, a, resolution_ns=1)


@given(st.integers(0, 10 * HOUR), st.integers(0, 10 * HOUR))
def test_more_displayed_time_means_more_time(a: int, b: int) -> None:
    if quantize(a) > quantize(b):
        assert a > b
    assert format_clock(a) == format_clock(b) or same_time(a, b) is False


@given(st.integers(-2 * HOUR // MS, 10 * HOUR // MS))
def test_a_message_writes_a_time_as_the_clock_face_shows_it(ms: int) -> None:
    """A sentence's ``{x:clock}`` (the catalogue, below the core) and the clock face agree."""
    from clockd.i18n import msg
    from clockd.i18n.catalogue import parse

    one = parse('msgctxt "t"\nmsgid "{left:clock} left"\nmsgstr "zostało {left:clock}"\n')
    said = one.render(msg("t", left=ms), "pl").removeprefix("zostało ")
    assert said == ("-" if ms < 0 else "") + format_clock(abs(ms) * MS)
