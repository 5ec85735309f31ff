"""``duelclock sim``: hardware simulators run against the real drivers.

``sim serial`` lives in :mod:`clockd.cli.sim_serial`, ``sim gpio`` in :mod:`clockd.cli.sim_gpio`;
``sim press`` (a simulated table of the running daemon, pressed by hand) in :mod:`clockd.cli.sim_press`.
"""

from __future__ import annotations

import argparse
from typing import Any

from clockd.cli import sim_gpio, sim_press, sim_serial
from clockd.i18n import text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "sim",
        help=text("cli.sim.hardware-simulators-serial-clocks-gpio"),
        description=text("cli.sim.run-simulated-hardware-against-the-real"),
    )
    sim_sub = parser.add_subparsers(dest="sim_command", required=True, metavar="DEVICE")
    sim_serial.register(sim_sub)
    sim_gpio.register(sim_sub)
    sim_press.register(sim_sub)
