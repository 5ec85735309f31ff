"""``duelclock sim gpio``: simulated Raspberry Pi duel tables against the real GPIO driver.

Scripted players (``hw_sim.gpio``) press bouncing buttons on gpiozero mock pins; the real
driver (``clockd.devices.gpio``) debounces them and hands presses to a queue, read in the
main thread as the daemon would, while one background thread drives the edges (as lgpio
calls back from one thread). Then every table's duel is played twice on the core clock —
once from the driver's presses, once from the script directly — and the results compared.

The JSON summary: ``presses`` (scripted, out-of-turn ones included), ``events`` (presses
the driver delivered), ``lost`` (scripted presses with no event at their first edge's
instant), ``spurious`` (events matching no scripted press), ``edges`` driven,
``bounce_edges_dropped``, ``simultaneous_dropped``, ``ignored_by_clock`` (out-of-turn
presses the clock ignored), ``results_match`` / ``results_differ`` (tables), and more.
A Pi's header carries 13 tables of two buttons; more tables are spread over more Pis.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import time
from collections import Counter
from typing import Any

from clockd.cli.argtypes import non_negative_int, positive_int
from clockd.i18n import text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "gpio",
        help=text("cli.sim-gpio.simulated-gpio-tables-on-gpiozeros-mock"),
        description=text("cli.sim-gpio.play-scripted-duels-on-simulated"),
    )
    parser.add_argument(
        "--tables",
        type=positive_int,
        default=4,
        help=text("cli.sim-gpio.duel-tables-13-per-simulated-pi"),
    )
    parser.add_argument(
        "--presses",
        type=positive_int,
        default=40,
        help=text("cli.sim-gpio.presses-in-turn-per-table"),
    )
    parser.add_argument(
        "--bounce-ms",
        type=non_negative_int,
        default=5,
        help=text("cli.sim-gpio.contact-bounce-per-press-ms"),
    )
    parser.add_argument(
        "--debounce-ms",
        type=positive_int,
        default=30,
        help=text("cli.sim-gpio.the-drivers-debounce-window-ms"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=text("cli.sim-gpio.random-seed-printed-to-replay-a"),
    )
    parser.add_argument(
        "--same-thread",
        action="store_true",
        help=text("cli.sim-gpio.drive-the-edges-in-the-main"),
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    summary = simulate(
        tables=args.tables,
        presses=args.presses,
        bounce_ms=args.bounce_ms,
        debounce_ms=args.debounce_ms,
        seed=seed,
        threaded=not args.same_thread,
    )
    print(json.dumps(summary))
    return 0


TIME_CONTROL = "10m"


def simulate(
    *,
    tables: int,
    presses: int,
    bounce_ms: int,
    seed: int,
    debounce_ms: int = 30,
    threaded: bool = True,
) -> dict[str, Any]:
    """Run the simulation and return the summary (see the module docstring)."""
    from clockd.core.clock import Press as ClockPress
    from clockd.core.clock import Side
    from clockd.devices.base import AnyDeviceInput, DevicePress
    from clockd.devices.gpio import gpio_tables, start_all
    from clockd.devices.gpio_config import parse_gpio_config, usable_pins
    from hw_sim.gpio import BouncingContact, EdgePlayer, ScriptedFactory, duel_presses, press_edges

    rng = random.Random(seed)
    pins = usable_pins()
    per_pi = len(pins) // 2
    pis = [ScriptedFactory() for _ in range(-(-tables // per_pi))]
    devices = []
    pin_of: dict[tuple[int, str], tuple[int, int]] = {}
    for index, pi in enumerate(pis):
        numbers = range(index * per_pi + 1, min(tables, (index + 1) * per_pi) + 1)
        rows = []
        for slot, number in enumerate(numbers):
            a, b = pins[2 * slot], pins[2 * slot + 1]
            rows.append({"number": number, "button_a": a, "button_b": b})
            pin_of[(number, "a")] = (index, a)
            pin_of[(number, "b")] = (index, b)
        config = parse_gpio_config(
            {"debounce_ms": debounce_ms, "tables": rows}, source=f"simulated Pi {index + 1}"
        )
        devices += gpio_tables(config, pin_factory=pi)

    start_ns = time.monotonic_ns()
    script = []
    for number in range(1, tables + 1):
        script += duel_presses(number, presses, rng, start_ns=start_ns + rng.randrange(10**9))
    edges = press_edges(script, pin_of, BouncingContact(bounce_ms * 1_000_000), rng)

    inbox: queue.Queue[AnyDeviceInput] = queue.Queue()
    started = time.monotonic_ns()
    start_all(devices, inbox.put)
    player = EdgePlayer(pis)
    received: list[DevicePress] = []
    if threaded:
        thread = player.play_in_thread(edges)
        while thread.is_alive() or not inbox.empty():
            try:
                event = inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, DevicePress):
                received.append(event)
        thread.join()
    else:
        player.play(edges)
    while not inbox.empty():
        event = inbox.get_nowait()
        if isinstance(event, DevicePress):
            received.append(event)
    wall_ns = time.monotonic_ns() - started
    counters = [d.counters() for d in devices]
    edge_time = devices[0].edge_time.name if devices[0].edge_time is not None else "?"
    for device in devices:
        device.stop()

    scripted = Counter((p.table, p.side, p.t_ns) for p in script)
    delivered = Counter((e.table, e.side.value, e.t_ns) for e in received)
    end_ns = (edges[-1].t_ns if edges else start_ns) + 10**9

    def play(inputs: list[tuple[int, str]]) -> Any:
        from clockd.core.clock import ClockState
        from clockd.core.timecontrol import TimeControl

        state = ClockState.initial(TimeControl.parse(TIME_CONTROL))
        for t_ns, side in sorted(inputs):
            state, _ = state.apply(ClockPress(t_ns=t_ns, side=Side(side)))
        return state.view(end_ns), state.ignored

    match = ignored = 0
    for number in range(1, tables + 1):
        by_script = play([(p.t_ns, p.side) for p in script if p.table == number])
        by_driver = play([(e.t_ns, e.side.value) for e in received if e.table == number])
        match += by_script == by_driver
        ignored += by_driver[1].a + by_driver[1].b

    return {
        "tables": tables,
        "pis": len(pis),
        "presses": len(script),
        "out_of_turn_presses": sum(p.out_of_turn for p in script),
        "edges": len(edges),
        "events": len(received),
        "lost": sum((scripted - delivered).values()),
        "spurious": sum((delivered - scripted).values()),
        "bounce_edges_dropped": sum(c.bounce_edges for c in counters),
        "simultaneous_dropped": sum(c.simultaneous for c in counters),
        "ignored_by_clock": ignored,
        "results_match": match,
        "results_differ": tables - match,
        "edge_time": edge_time,
        "threaded": threaded,
        "bounce_ms": bounce_ms,
        "debounce_ms": debounce_ms,
        "time_control": TIME_CONTROL,
        "seed": seed,
        "wall_ms": wall_ns // 1_000_000,
    }
