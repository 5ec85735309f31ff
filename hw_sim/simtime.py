"""Time sources for simulations: the host's clock, a jumpable clock, a device's drifting oscillator.

A simulated duel must be timed exactly like a real one — the device stamps presses with
*its* clock, the host receives them on *its* clock — yet a 30-minute duel must not take
30 minutes in a test. :class:`SimTime` is the host's ``time.monotonic_ns()`` plus jumps:
between two presses a test jumps over the think time, and everything that reads the
simulation's time (the simulated devices *and* the driver under test, which takes a
``clock`` argument) sees the same jump. Frames still travel in real time, so the
latency the host measures is the real latency of the pseudo-terminal, not a scaled one.

:class:`DeviceClock` is a device's own time base: microseconds since it booted, running
fast or slow by ``drift_ppb`` relative to the host, as a real crystal does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

NowNs = Callable[[], int]


class SimTime:
    """``source()`` plus the total of all :meth:`advance` jumps; call it for "now" in ns."""

    def __init__(self, source: NowNs = time.monotonic_ns) -> None:
        self._source = source
        self._offset = 0
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []

    def __call__(self) -> int:
        return self._source() + self._offset

    def advance(self, ns: int) -> None:
        """Jump forward by ``ns`` (time never runs backwards)."""
        if ns < 0:
            raise ValueError(f"time only moves forward; cannot advance by {ns} ns")
        with self._lock:
            self._offset += ns
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def on_advance(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` after every jump (a scheduler recomputes its deadlines)."""
        with self._lock:
            self._listeners.append(wake)


class DeviceClock:
    """Microseconds since boot on a device whose oscillator is off by ``drift_ppb``.

    Positive drift: the device's clock runs fast (it counts more than a million µs per
    host second). The mapping is exact integer arithmetic, so a test knows precisely
    which host instant a device timestamp belongs to (:meth:`host_ns`).
    """

    def __init__(self, host_now: NowNs, *, drift_ppb: int = 0, boot_host_ns: int | None = None) -> None:
        self._host_now = host_now
        self.drift_ppb = drift_ppb
        self.boot_host_ns = host_now() if boot_host_ns is None else boot_host_ns

    def us_at(self, host_ns: int) -> int:
        """The device time (µs since boot) at host instant ``host_ns``."""
        return (host_ns - self.boot_host_ns) * (1_000_000_000 + self.drift_ppb) // 1_000_000_000_000

    def now_us(self) -> int:
        return self.us_at(self._host_now())

    def host_ns(self, device_us: int) -> int:
        """The (first) host instant at which the device clock reads ``device_us``."""
        return self.boot_host_ns + -(-device_us * 1_000_000_000_000 // (1_000_000_000 + self.drift_ppb))
