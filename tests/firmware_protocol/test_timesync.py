"""The device-clock mapping, on synthetic links whose truth is known exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol.timesync import ClockMapping

MS = 1_000_000
SECOND = 1_000 * MS


class Link:
    """A device clock with drift and a link with latency: pairs as the host would see them."""

    def __init__(
        self, *, drift_ppb: int, offset_ns: int, base_ns: int, jitter_ns: int, spikes: float, seed: int
    ):
        self.drift_ppb = drift_ppb
        self.offset_ns = offset_ns
        self.base_ns = base_ns
        self.jitter_ns = jitter_ns
        self.spikes = spikes
        self.rng = random.Random(seed)

    def device_us(self, host_ns: int) -> int:
        return (host_ns - self.offset_ns) * (SECOND + self.drift_ppb) // (SECOND * 1000)

    def latency_ns(self) -> int:
        lat = self.base_ns + int(self.rng.expovariate(1 / self.jitter_ns)) if self.jitter_ns else self.base_ns
        if self.rng.random() < self.spikes:
            lat += self.rng.randrange(20 * MS)  # a busy host, a full USB buffer
        return lat


links = st.builds(
    Link,
    drift_ppb=st.integers(-200_000, 200_000),
    offset_ns=st.integers(0, 10**15),
    base_ns=st.integers(0, 2 * MS),
    jitter_ns=st.integers(0, 2 * MS),
    spikes=st.sampled_from([0.0, 0.01, 0.05]),
    seed=st.integers(0, 2**32),
)


def duel(link: Link, mapping: ClockMapping, *, minutes: int, warmup_s: int) -> list[int]:
    """Heartbeats every 250 ms and a press every few seconds; returns each press's error."""
    rng = random.Random(1)
    t = link.offset_ns + 5 * SECOND
    start_duel = t + warmup_s * SECOND
    next_press = start_duel
    errors = []
    while t < start_duel + minutes * 60 * SECOND:
        t += 250 * MS
        pressed = t >= next_press
        x = link.device_us(t)
        rx = t + link.latency_ns()
        mapping.add(x, rx)
        mapped = mapping.host_ns(x)
        assert mapped <= rx  # a press is never placed after the host heard of it
        if pressed:
            # the error beyond the link's fixed minimum latency (which no one-way method can see,
            # and which is the same for both players)
            errors.append(mapped - t - link.base_ns)
            next_press = t + rng.randrange(1 * SECOND, 8 * SECOND)
    return errors


@given(links)
@settings(max_examples=25, deadline=None)
def test_a_30_minute_duel_on_a_200_ppm_clock_is_timed_within_1_ms(link: Link) -> None:
    errors = duel(link, ClockMapping(), minutes=30, warmup_s=30)
    assert max(abs(e) for e in errors) < 1 * MS


def test_the_drift_estimate_converges() -> None:
    link = Link(
        drift_ppb=173_000, offset_ns=42 * SECOND, base_ns=300_000, jitter_ns=1 * MS, spikes=0.02, seed=3
    )
    mapping = ClockMapping()
    duel(link, mapping, minutes=20, warmup_s=0)
    # the mapping's slope is the residual's: a clock that runs fast has a falling residual
    assert abs(mapping.line().drift_ppb + 173_000) < 2_000


def test_without_jitter_the_mapping_is_exact_to_the_microsecond() -> None:
    link = Link(drift_ppb=-200_000, offset_ns=10**12, base_ns=0, jitter_ns=0, spikes=0.0, seed=0)
    errors = duel(link, ClockMapping(), minutes=5, warmup_s=1)
    assert max(abs(e) for e in errors) <= 1_000  # the device counts whole µs


def test_a_message_older_than_the_newest_adds_nothing() -> None:
    mapping = ClockMapping()
    assert mapping.add(1_000_000, 5 * SECOND)
    assert mapping.add(2_000_000, 6 * SECOND)
    before = mapping.line()
    # a press re-sent after a reconnect: an old device time, received late
    assert not mapping.add(1_500_000, 60 * SECOND)
    assert mapping.line() == before and mapping.samples == 2


def test_an_implausible_slope_is_clamped_and_the_line_stays_below_every_point() -> None:
    mapping = ClockMapping(max_drift_ppm=500)
    mapping.add(0, 0)
    mapping.add(1_000_000, 1 * SECOND + 50 * MS)  # looks like 5 %: one message was very late
    line = mapping.line()
    assert abs(line.drift_ppb) == 500_000
    assert mapping.host_ns(0) <= 0 and mapping.host_ns(1_000_000) <= 1 * SECOND + 50 * MS


def test_asking_before_any_message_is_an_error_that_says_so() -> None:
    with pytest.raises(ValueError, match=r"no \(device time, host time\) pair yet"):
        ClockMapping().host_ns(5)


@pytest.mark.parametrize(("bucket_us", "window_us"), [(0, 10), (10, 5)])
def test_a_bad_window_is_refused(bucket_us: int, window_us: int) -> None:
    with pytest.raises(ValueError, match="bucket_us"):
        ClockMapping(bucket_us=bucket_us, window_us=window_us)
