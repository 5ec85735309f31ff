"""``duelclock gpio``: Raspberry Pi GPIO tables — check the pin file, test the buttons.

``duelclock gpio check FILE`` validates a GPIO configuration (``docs/raspberry-pi.md``)
and prints where each wire goes. ``duelclock gpio test [--config FILE]`` lights each
table's LEDs in turn, beeps its buzzer, then prints every press as it comes, with the
pin factory and the edge-time source in use — the check to run on a Pi before a session.
On a computer without GPIO it says so; ``--mock`` runs the same test on gpiozero's mock
pins with scripted presses, which shows the whole path without a Pi.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import time
from pathlib import Path
from typing import Any

from clockd.cli.argtypes import positive_int
from clockd.i18n import render_error, text

#: The wiring ``docs/raspberry-pi.md`` describes, used when ``gpio test`` gets no ``--config``.
DEFAULT_WIRING: dict[str, Any] = {
    "tables": [
        {
            "number": 1,
            "button_a": "GPIO17",
            "button_b": "GPIO27",
            "led_a": "GPIO22",
            "led_b": "GPIO23",
            "buzzer": "GPIO24",
            "referee": "GPIO25",
        }
    ]
}


def _role(role: str) -> str:
    """A pin's role as the wiring sheet names it ("przycisk A", "brzęczyk")."""
    return text(f"term.pin-role.{role}")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "gpio",
        help=text("cli.gpio.raspberry-pi-gpio-tables-check-the"),
        description=text("cli.gpio.raspberry-pi-gpio-duel-tables-see"),
    )
    actions = parser.add_subparsers(dest="gpio_command", required=True, metavar="ACTION")

    check = actions.add_parser(
        "check",
        help=text("cli.gpio.validate-a-gpio-configuration-file-and"),
        description=text("cli.gpio.validate-a-gpio-configuration-file-toml"),
    )
    check.add_argument(
        "config",
        type=Path,
        help=text("cli.gpio.the-gpio-configuration-file-toml"),
    )
    check.set_defaults(func=_check)

    test = actions.add_parser(
        "test",
        help=text("cli.gpio.light-and-beep-every-tables-outputs"),
        description=text("cli.gpio.light-each-tables-leds-beep-its"),
    )
    test.add_argument(
        "--config",
        type=Path,
        default=None,
        help=text("cli.gpio.gpio-configuration-file-toml"),
    )
    test.add_argument(
        "--mock",
        action="store_true",
        help=text("cli.gpio.use-gpiozero-mock-pins-and-scripted"),
    )
    test.add_argument(
        "--seconds",
        type=positive_int,
        default=None,
        help=text("cli.gpio.stop-after-this-many-seconds"),
    )
    test.set_defaults(func=_test)


def _load(path: Path | None) -> Any:
    from clockd.devices.gpio_config import load_gpio_config, parse_gpio_config

    if path is None:
        return parse_gpio_config(DEFAULT_WIRING, source="docs/raspberry-pi.md wiring")
    return load_gpio_config(path)


def _check(args: argparse.Namespace) -> int:
    from clockd.devices.gpio_config import GpioConfigError, describe_pin

    try:
        config = _load(args.config)
    except GpioConfigError as exc:
        print(render_error(exc), file=sys.stderr)
        return 1
    print(text("cli.gpio.valid", config=args.config))
    debounce, simultaneous = config.debounce_ms, config.simultaneous_ms
    _say(
        text("cli.gpio.contact-bounce-ms-simultaneous-presses", debounce=debounce, simultaneous=simultaneous)
    )
    for table in config.tables:
        wires = ", ".join(f"{_role(role)} {describe_pin(pin)}" for role, pin in table.pins().items())
        print(text("cli.gpio.table", number=table.number, wires=wires))
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def _test(args: argparse.Namespace) -> int:
    from clockd.devices.gpio import GpioStartError, GpioUnavailable, gpio_tables, start_all
    from clockd.devices.gpio_config import GpioConfigError

    try:
        config = _load(args.config)
    except GpioConfigError as exc:
        print(render_error(exc), file=sys.stderr)
        return 1
    factory = None
    if args.mock:
        from hw_sim.gpio import ScriptedFactory

        factory = ScriptedFactory()
    tables = gpio_tables(config, pin_factory=factory)
    inbox: queue.Queue[Any] = queue.Queue()
    try:
        start_all(tables, inbox.put)
    except GpioUnavailable as exc:
        hint = text("cli.gpio.on-a-computer-without-gpio-use")
        print(render_error(exc), hint, file=sys.stderr)
        return 2
    except GpioStartError as exc:
        print(render_error(exc), file=sys.stderr)
        return 1
    try:
        first = tables[0]
        factory_name = type(first.pin_factory).__name__
        source = first.edge_time.describe() if first.edge_time is not None else "?"
        _say(text("cli.gpio.pin-factory-press-time", factory_name=factory_name, source=source))
        for table in tables:
            _light_and_beep(table, pause_s=0 if args.mock else 0.5)
        if args.mock:
            _script_presses(tables)
            _say(text("cli.gpio.mock-simulated-presses-with-5-ms"))
        else:
            _say(text("cli.gpio.press-the-buttons-ctrl-c-ends"))
        with contextlib.suppress(KeyboardInterrupt):
            _print_presses(tables, inbox, seconds=args.seconds, until_quiet=args.mock)
        for table in tables:
            c = table.counters()
            _say(
                text(
                    "cli.gpio.table-presses-referee-contact-bounce",
                    table=table.table,
                    presses=c.presses,
                    referee_presses=c.referee_presses,
                    bounce_edges=c.bounce_edges,
                    simultaneous=c.simultaneous,
                )
            )
    finally:
        for table in tables:
            table.stop()
    return 0


def _light_and_beep(table: Any, *, pause_s: float) -> None:
    """Each LED in turn (with the pin's state read back), then a short beep."""
    from clockd.core.clock import PerSide, Side
    from clockd.core.device import Beep, TwoClocks
    from clockd.devices.gpio_config import describe_pin

    n = table.table
    for side, role in ((Side.A, "led_a"), (Side.B, "led_b")):
        pin = getattr(table.config, role)
        if pin is None:
            continue
        table.show(TwoClocks(remaining_ms=PerSide[int](a=0, b=0), running=side))
        lit = int(table.pin_factory.pin(pin).state)
        _say(text("cli.gpio.table-lit-pin-state", n=n, value=_role(role), value2=describe_pin(pin), lit=lit))
        time.sleep(pause_s)
    table.show(TwoClocks(remaining_ms=PerSide[int](a=0, b=0), running=None))
    if table.config.buzzer is not None:
        table.beep(Beep.SHORT)
        where = describe_pin(table.config.buzzer)
        _say(text("cli.gpio.table-beep", n=n, where=where))
        time.sleep(max(pause_s, 0.15))


def _print_presses(
    tables: list[Any], inbox: queue.Queue[Any], *, seconds: int | None, until_quiet: bool
) -> None:
    """Print presses as they come, with their pin and their time since the first one."""
    from clockd.core.clock import Side
    from clockd.devices.base import DevicePress, RefereeButton
    from clockd.devices.gpio_config import describe_pin

    deadline = None if seconds is None else time.monotonic_ns() + seconds * 1_000_000_000
    configs = {t.table: t.config for t in tables}
    first_ns: int | None = None
    while deadline is None or time.monotonic_ns() < deadline:
        try:
            event = inbox.get(timeout=0.2)
        except queue.Empty:
            if until_quiet:
                return
            continue
        if not isinstance(event, DevicePress | RefereeButton):
            continue
        first_ns = event.t_ns if first_ns is None else first_ns
        ms = (event.t_ns - first_ns) // 1_000_000
        at = f"+{ms // 1000}.{ms % 1000:03d} s"
        role = "referee"
        if isinstance(event, DevicePress):
            role = "button_a" if event.side is Side.A else "button_b"
        pin = getattr(configs[event.table], role)
        where = describe_pin(pin) if pin is not None else "?"
        _say(text("cli.gpio.table-2", table=event.table, value=_role(role), where=where, at=at))


def _script_presses(tables: list[Any]) -> None:
    """On mock pins: press A, then B, then the referee button of every table, one second apart."""
    import random

    from hw_sim.gpio import BouncingContact, press_once

    rng = random.Random(0)
    contact = BouncingContact(bounce_ns=5_000_000)
    t = time.monotonic_ns()
    for table in tables:
        for pin in (table.config.button_a, table.config.button_b, table.config.referee):
            if pin is None:
                continue
            press_once(table.pin_factory.scripted_pin(pin), t, rng, contact, hold_ns=120_000_000)
            t += 1_000_000_000
