"""Edge-to-event latency through the real GPIO driver on gpiozero mock pins.

What it measures, from the moment a scripted pin is driven low to the moment the press
reaches the sink:

* ``sync``: the sink is called in the driving thread (mock pins call back synchronously);
  this is the driver's own cost per press: edge time, debounce, lever, the Press model.
* ``queue``: one thread drives edges (as lgpio's callback thread does) and the main thread
  takes presses from a ``queue.Queue`` (as the daemon does): adds the thread hand-off.
* ``button``: the same edge into a bare gpiozero ``Button.when_pressed`` that appends to a
  list — gpiozero's own floor, for the ratio.
* ``bounce``: edges per second through the driver with 3 bounce pairs per press and release.

Latency on a Pi is dominated by lgpio's deliberate 0.5 ms sorting delay, not by this; and
the press *time* is the kernel's edge stamp either way. Run: ``python -m benchmarks.bench_gpio``.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

from gpiozero import Button

from benchmarks import percentile
from clockd.devices.base import AnyDeviceInput, DevicePress
from clockd.devices.gpio import GpioTable
from clockd.devices.gpio_config import TableConfig
from hw_sim.gpio import ScriptedFactory

PRESSES = 20_000
GAP_NS = 1_000_000_000  # presses a second apart in edge time: no debounce window in the way


def bench_sync() -> list[int]:
    pi = ScriptedFactory()
    table = GpioTable(TableConfig(number=1, button_a=17, button_b=27), pin_factory=pi)
    heard: list[int] = []

    def sink(event: AnyDeviceInput) -> None:
        if isinstance(event, DevicePress):
            heard.append(time.perf_counter_ns())

    table.start(sink)
    pins = (pi.scripted_pin(17), pi.scripted_pin(27))
    latencies = []
    t = 10**12
    for i in range(PRESSES):
        pin = pins[i % 2]
        before = time.perf_counter_ns()
        pin.drive_at(0, t)
        latencies.append(heard[-1] - before)
        pin.drive_at(1, t + 100_000_000)
        t += GAP_NS
    table.stop()
    pi.reset()
    assert len(heard) == PRESSES
    return latencies


def bench_queue() -> list[int]:
    pi = ScriptedFactory()
    table = GpioTable(TableConfig(number=1, button_a=17, button_b=27), pin_factory=pi)
    inbox: queue.Queue[AnyDeviceInput] = queue.Queue()
    table.start(inbox.put)
    inbox.get()  # Connected
    driven_at = [0] * (PRESSES + 1)
    pins = (pi.scripted_pin(17), pi.scripted_pin(27))
    go = threading.Event()

    def drive() -> None:
        t = 10**12
        for i in range(PRESSES):
            go.wait()
            go.clear()
            pin = pins[i % 2]
            driven_at[i + 1] = time.perf_counter_ns()
            pin.drive_at(0, t)
            pin.drive_at(1, t + 100_000_000)
            t += GAP_NS

    thread = threading.Thread(target=drive)
    thread.start()
    latencies = []
    for _ in range(PRESSES):
        go.set()
        event = inbox.get()
        now = time.perf_counter_ns()
        assert isinstance(event, DevicePress) and event.seq is not None
        latencies.append(now - driven_at[event.seq])
    thread.join()
    table.stop()
    pi.reset()
    return latencies


def bench_button() -> list[int]:
    pi = ScriptedFactory()
    button = Button(17, pin_factory=pi)
    heard: list[int] = []
    button.when_pressed = lambda: heard.append(time.perf_counter_ns())
    pin = pi.scripted_pin(17)
    latencies = []
    t = 10**12
    for _ in range(PRESSES):
        before = time.perf_counter_ns()
        pin.drive_at(0, t)
        latencies.append(heard[-1] - before)
        pin.drive_at(1, t + 100_000_000)
        t += GAP_NS
    button.close()
    pi.reset()
    return latencies


def bench_bounce() -> tuple[int, int]:
    """Edges per second through the driver when every press and release bounces three times."""
    pi = ScriptedFactory()
    table = GpioTable(TableConfig(number=1, button_a=17, button_b=27), pin_factory=pi)
    count = 0

    def sink(event: Any) -> None:
        nonlocal count
        count += isinstance(event, DevicePress)

    table.start(sink)
    pin = pi.scripted_pin(17)
    burst = [(0, 0), (200_000, 1), (400_000, 0), (900_000, 1), (1_100_000, 0), (2_000_000, 1), (2_300_000, 0)]
    release = [(120_000_000 + dt, 1 - level) for dt, level in burst]
    edges = 0
    t = 10**12
    started = time.perf_counter_ns()
    for _ in range(PRESSES // 4):
        for dt, level in burst + release:
            pin.drive_at(level, t + dt)
            edges += 1
        t += GAP_NS
    elapsed = time.perf_counter_ns() - started
    table.stop()
    pi.reset()
    assert count == PRESSES // 4
    return edges * 1_000_000_000 // elapsed, count


def main() -> None:
    sync = bench_sync()
    handed = bench_queue()
    button = bench_button()
    edges_per_s, _ = bench_bounce()
    figures = {
        "sync_median_ns": percentile(sync, 0.5),
        "sync_p99_ns": percentile(sync, 0.99),
        "queue_median_ns": percentile(handed, 0.5),
        "queue_p99_ns": percentile(handed, 0.99),
        "button_median_ns": percentile(button, 0.5),
    }
    ratio = figures["sync_median_ns"] / max(1, figures["button_median_ns"])
    print(f"presses per run: {PRESSES}")
    for name, label in (("sync", "driver, same thread"), ("queue", "driver + queue to another thread")):
        print(
            f"{label:36s} median {figures[f'{name}_median_ns'] / 1000:8.1f} µs   "
            f"p99 {figures[f'{name}_p99_ns'] / 1000:8.1f} µs"
        )
    print(f"{'bare gpiozero Button.when_pressed':36s} median {figures['button_median_ns'] / 1000:8.1f} µs")
    print(f"driver / bare Button (median): {ratio:.2f}")
    print(f"edges through the debouncer (3 bounce pairs per press and release): {edges_per_s} per second")
    print(
        json.dumps(
            {
                "bench": "gpio",
                "presses": PRESSES,
                **figures,
                "driver_vs_button": round(ratio, 2),
                "bounce_edges_per_s": edges_per_s,
            }
        )
    )


if __name__ == "__main__":
    main()
