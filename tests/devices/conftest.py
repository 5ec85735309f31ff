"""Fixtures for driving the real serial driver against simulated clocks over ptys."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from clockd.devices.base import AnyDeviceEvent, Connected, Disconnected, Press
from hw_sim.serial_clock import SerialClockFarm


class Collector:
    """A sink that keeps what the driver reported, and waits for it."""

    def __init__(self) -> None:
        self.queue: queue.Queue[AnyDeviceEvent] = queue.Queue()
        self.events: list[AnyDeviceEvent] = []

    def __call__(self, event: AnyDeviceEvent) -> None:
        self.queue.put(event)

    def _drain(self, timeout_s: float) -> bool:
        try:
            self.events.append(self.queue.get(timeout=timeout_s))
        except queue.Empty:
            return False
        return True

    @property
    def presses(self) -> list[Press]:
        return [e for e in self.events if isinstance(e, Press)]

    @property
    def connects(self) -> list[Connected]:
        return [e for e in self.events if isinstance(e, Connected)]

    @property
    def disconnects(self) -> list[Disconnected]:
        return [e for e in self.events if isinstance(e, Disconnected)]

    def wait_presses(self, n: int, timeout_s: float = 5.0) -> list[Press]:
        """Wait until ``n`` presses have arrived; fails the test if they do not."""
        deadline = time.monotonic() + timeout_s
        while len(self.presses) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not self._drain(left):
                pytest.fail(f"only {len(self.presses)} of {n} presses arrived within {timeout_s} s")
        return self.presses

    def settle(self, quiet_s: float = 0.2) -> None:
        """Collect until nothing arrives for ``quiet_s`` (to catch late duplicates)."""
        while self._drain(quiet_s):
            pass

    def wait_for(self, kind: type, count: int = 1, timeout_s: float = 5.0) -> None:
        deadline = time.monotonic() + timeout_s
        while sum(isinstance(e, kind) for e in self.events) < count:
            left = deadline - time.monotonic()
            if left <= 0 or not self._drain(left):
                pytest.fail(f"no {kind.__name__} event #{count} within {timeout_s} s")


@pytest.fixture
def farm() -> Iterator[SerialClockFarm]:
    with SerialClockFarm(seed=7) as f:
        yield f
    assert not f.errors, f"the simulator's thread failed: {f.errors!r}"


@pytest.fixture
def sink() -> Collector:
    return Collector()


@pytest.fixture
def make_sink() -> type[Collector]:
    """For tests that need a second sink (a restarted daemon)."""
    return Collector
