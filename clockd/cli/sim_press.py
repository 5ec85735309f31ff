"""``duelclock sim press TABLE SIDE``: press a simulated table's button by hand, on the real daemon.

The simulated clocks of ``duelclock run`` (``--sim N``, ``make run``) have players that press
while a duel's clock runs; a station of a hall event (a relay's pair, a team's table) has
nobody to press its "finished" button. This presses it, through the simulated clock and its
real driver, so the press is timed, journaled and decided like a real one::

    duelclock sim press 5 a          # table 5's left button: the pair at table 5 finished

A table with real hardware is refused with a sentence; the referee's token is needed (as
for any change), from ``daemon.json`` unless ``--token`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from clockd.cli.argtypes import clock_side
from clockd.cli.status import add_connection_options, call
from clockd.i18n import msg, render, text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "press",
        help=text("cli.sim-press.help"),
        description=text("cli.sim-press.description"),
    )
    parser.add_argument("table", type=int, metavar="TABLE", help=text("cli.table.table-number"))
    parser.add_argument("side", type=clock_side, metavar="SIDE", help=text("cli.table.a-or-b"))
    add_connection_options(parser, token=True)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    def press(client: Any) -> int:
        reply = client.sim_press(args.table, args.side)
        if args.json:
            print(json.dumps(reply.model_dump(mode="json", exclude={"v", "id"}), ensure_ascii=False))
        else:
            print(render(msg("cli.sim-press.pressed", table=reply.table, side=reply.side.upper())))
        return 0

    return call(args, press)
