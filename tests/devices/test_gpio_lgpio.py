"""Edge times on a Pi: gpiozero's real lgpio pin factory over a stand-in for the lgpio C library.

The stand-in behaves as lgpio does (``lgPthAlerts.c``, ``lgpio.py``): the kernel stamps each
edge in integer nanoseconds on ``CLOCK_MONOTONIC``, and one background thread calls every
registered ``func(chip, gpio, level, tick)``, possibly late. gpiozero's own
``LGPIOFactory``/``LGPIOPin`` run unchanged on top of it, so these tests follow the stamp
from the "kernel" through gpiozero into our driver's :class:`DevicePress`.
"""

from __future__ import annotations

import importlib
import queue
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clockd.core.clock import Side
from clockd.core.units import MS, SECOND
from clockd.devices.base import AnyDeviceInput, DevicePress
from clockd.devices.gpio import CallbackTime, GpioTable, KernelEdgeTime, PinEdgeTime, edge_time_for
from clockd.devices.gpio_config import TableConfig
from clockd.i18n import render
from hw_sim.gpio import ScriptedFactory

PI_4B = 0xC03111
IS_OUT, IS_INPUT, IS_OUTPUT = 1 << 1, 1 << 8, 1 << 9


class FakeLgpio(types.ModuleType):
    """The parts of the ``lgpio`` module gpiozero's lgpio pins call, over a pretend kernel."""

    SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_OPEN_SOURCE = 4, 8, 16
    SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE = 32, 64, 128
    RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3

    class error(Exception):
        pass

    def __init__(self) -> None:
        super().__init__("lgpio")
        self.modes: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self.callbacks: list[tuple[int, Callable[..., None]]] = []
        self.alerts: queue.Queue[tuple[float, int, int, int] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._alert_thread, name="fake-lgpio-alerts", daemon=True)
        self.thread.start()

    # the kernel side
    def edge(self, gpio: int, level: int, tick_ns: int, *, late_s: float = 0.0) -> None:
        """The line changed at ``tick_ns``; the alert thread reports it ``late_s`` after now."""
        self.levels[gpio] = level
        self.alerts.put((time.monotonic() + late_s, gpio, level, tick_ns))

    def drain(self) -> None:
        done = threading.Event()
        self.alerts.put((0.0, -1, 0, 0))
        self.callbacks.append((-1, lambda *args: done.set()))
        assert done.wait(5), "the alert thread is stuck"

    def close(self) -> None:
        self.alerts.put(None)
        self.thread.join(5)

    def _alert_thread(self) -> None:
        while (alert := self.alerts.get()) is not None:
            due, gpio, level, tick = alert
            time.sleep(max(0.0, due - time.monotonic()))
            for line, func in list(self.callbacks):
                if line == gpio:
                    func(0, gpio, level, tick)

    # the library calls
    def gpiochip_open(self, chip: int) -> int:
        return 7

    def gpiochip_close(self, handle: int) -> None:
        pass

    def gpio_claim_input(self, handle: int, gpio: int, flags: int = 0) -> None:
        self.modes[gpio] = IS_INPUT | flags
        self.levels.setdefault(gpio, 1 if flags & self.SET_PULL_UP else 0)

    def gpio_claim_output(self, handle: int, gpio: int, flags: int = 0, level: int = 0) -> None:
        self.modes[gpio] = IS_OUTPUT | IS_OUT | flags
        self.levels[gpio] = level

    def gpio_claim_alert(self, handle: int, gpio: int, edges: int, flags: int = 0) -> None:
        self.modes[gpio] = IS_INPUT | flags

    def gpio_free(self, handle: int, gpio: int) -> None:
        self.modes.pop(gpio, None)

    def gpio_get_mode(self, handle: int, gpio: int) -> int:
        return self.modes.get(gpio, 0)

    def gpio_read(self, handle: int, gpio: int) -> int:
        return self.levels.get(gpio, 0)

    def gpio_write(self, handle: int, gpio: int, level: int) -> None:
        self.levels[gpio] = int(level)

    def gpio_set_debounce_micros(self, handle: int, gpio: int, micros: int) -> None:
        pass

    def callback(self, handle: int, gpio: int, edges: int, func: Callable[..., None]) -> Any:
        entry = (gpio, func)
        self.callbacks.append(entry)
        fake = self

        class Callback:
            def cancel(self) -> None:
                if entry in fake.callbacks:
                    fake.callbacks.remove(entry)

        return Callback()


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeLgpio, Any]]:
    """The fake lgpio, and a gpiozero lgpio factory on it (for a Pi 4B); both undone afterwards."""
    fake = FakeLgpio()
    saved = sys.modules.pop("gpiozero.pins.lgpio", None)
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    module = importlib.import_module("gpiozero.pins.lgpio")

    class Pi4Factory(module.LGPIOFactory):  # type: ignore[misc, name-defined]
        def _get_revision(self) -> int:
            return PI_4B

    factory = Pi4Factory(chip=0)
    yield fake, factory
    factory.close()
    fake.close()
    sys.modules.pop("gpiozero.pins.lgpio", None)
    import gpiozero.pins

    if saved is not None:
        sys.modules["gpiozero.pins.lgpio"] = saved
        gpiozero.pins.lgpio = saved  # type: ignore[attr-defined]
    elif hasattr(gpiozero.pins, "lgpio"):
        delattr(gpiozero.pins, "lgpio")


def start(factory: Any) -> tuple[GpioTable, list[tuple[AnyDeviceInput, str, int]]]:
    received: list[tuple[AnyDeviceInput, str, int]] = []
    table = GpioTable(TableConfig(number=3, button_a=17, button_b=27), pin_factory=factory)
    table.start(lambda event: received.append((event, threading.current_thread().name, time.monotonic_ns())))
    return table, received


def test_a_late_callback_still_stamps_the_press_at_the_kernels_edge_time(
    kernel: tuple[FakeLgpio, Any],
) -> None:
    fake, factory = kernel
    table, received = start(factory)
    assert table.edge_time is not None and table.edge_time.name == "kernel"
    edge = time.monotonic_ns()
    fake.edge(17, 0, edge, late_s=0.08)  # the alert thread is 80 ms late
    fake.edge(17, 1, edge + 1 * MS, late_s=0.08)  # contact bounce
    fake.edge(17, 0, edge + 2 * MS, late_s=0.08)
    fake.drain()
    table.stop()
    [(press, thread, heard_at)] = [r for r in received if isinstance(r[0], DevicePress)]
    assert press.side is Side.A
    assert abs(press.t_ns - edge) < 1_000  # the kernel's instant (exact for 48 days of uptime) ...
    assert heard_at - edge >= 80 * MS  # ... not the instant the callback ran
    assert thread == "fake-lgpio-alerts"  # delivered from lgpio's thread, straight to the sink
    assert table.counters().bounce_edges == 2
    assert "czas zbocza z jądra (lgpio, CLOCK_MONOTONIC)" in render(table.status().detail, "pl")


def test_a_kernel_stamp_on_another_time_base_falls_back_to_the_callback_time_and_is_reported(
    kernel: tuple[FakeLgpio, Any],
) -> None:
    fake, factory = kernel
    table, received = start(factory)
    before = time.monotonic_ns()
    fake.edge(27, 0, time.time_ns())  # a kernel stamping CLOCK_REALTIME
    fake.drain()
    after = time.monotonic_ns()
    detail = table.status().detail
    table.stop()
    [press] = [r[0] for r in received if isinstance(r[0], DevicePress)]
    assert press.side is Side.B and before <= press.t_ns <= after
    assert table.counters().edge_time_rejected == 1
    assert "1 stamps rejected (another time base?)" in render(detail, "en")
    assert "1 znaczników odrzuconych" in render(detail, "pl")


@given(st.integers(min_value=0, max_value=2**22 * SECOND), st.integers(min_value=0, max_value=10 * SECOND))
def test_kernel_nanoseconds_survive_gpiozeros_float_seconds(edge_ns: int, age_ns: int) -> None:
    """gpiozero passes lgpio's integer ns as ns / 1e9; we get the integer back (48 days of uptime)."""
    assert KernelEdgeTime().to_ns(edge_ns / 1_000_000_000, now_ns=edge_ns + age_ns) == edge_ns


def test_kernel_stamps_from_the_future_or_more_than_an_hour_old_are_rejected() -> None:
    clock = KernelEdgeTime()
    now = 10_000 * SECOND
    assert clock.to_ns((now + 5 * MS) / 1e9, now) == now
    assert clock.to_ns((now - 2 * 3600 * SECOND) / 1e9, now) == now
    assert clock.to_ns((now - 59 * 60 * SECOND) / 1e9, now) == now - 59 * 60 * SECOND
    assert clock.rejected == 2


def test_the_edge_time_source_follows_the_pin_factory(kernel: tuple[FakeLgpio, Any]) -> None:
    from gpiozero.pins.mock import MockFactory

    _, lgpio_factory = kernel
    assert isinstance(edge_time_for(lgpio_factory), KernelEdgeTime)
    assert isinstance(edge_time_for(ScriptedFactory()), PinEdgeTime)
    assert isinstance(edge_time_for(MockFactory()), CallbackTime)
