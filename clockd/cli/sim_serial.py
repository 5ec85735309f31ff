"""``duelclock sim serial``: simulated USB clocks against the real serial driver.

Starts N simulated clocks (``hw_sim.serial_clock``, each on its own pseudo-terminal,
each with a random oscillator drift), one real :class:`~clockd.devices.serial.SerialClock`
driver per clock (found by serial number, acknowledging each press as soon as it
arrives, as a tool without a journal does), presses every clock K times, injects the
chosen faults, and prints one JSON line: how many presses were made and received, lost
and duplicated, and how far the driver's times were from the truth.

The clocks keep their unacknowledged presses across a reboot, as protocol 1.1 requires;
``--volatile`` makes them lose those instead (a non-conforming firmware), which the
summary counts apart as ``lost_on_reboot``.

At the end, with the line quiet again, each driver shows its clock a face of a program —
a countdown, a text, a count-up, two clocks, in turn — and the summary counts the clocks
that do not show what they should (``faces_wrong``): the face itself on a 1.2 clock, the
two-faced SHOW it maps to on one told to speak 1.1 (``--protocol 1.1``).

A clean run exits 0; a run that lost (on the wire or in a reboot), duplicated or
reordered a press exits 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from typing import Any

from clockd.cli.argtypes import positive_int
from clockd.i18n import text

_MS = 1_000_000


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "serial",
        help=text("cli.sim-serial.simulated-usb-serial-clocks-against-the"),
        description=text("cli.sim-serial.runs-n-simulated-clocks-pseudo-terminals"),
    )
    parser.add_argument(
        "--clocks", type=positive_int, default=4, metavar="N", help=text("cli.sim-serial.clocks")
    )
    parser.add_argument(
        "--presses",
        type=positive_int,
        default=100,
        metavar="K",
        help=text("cli.sim-serial.presses-per-clock"),
    )
    parser.add_argument(
        "--faults",
        default="",
        metavar="LIST",
        help=text("cli.sim-serial.faults-comma-separated-unplug-garbage"),
    )
    parser.add_argument(
        "--fault-rate",
        type=float,
        default=0.05,
        metavar="P",
        help=text("cli.sim-serial.chance-of-a-fault-per-frame"),
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help=text("cli.sim-serial.random-seed")
    )
    parser.add_argument(
        "--drift-ppm",
        type=float,
        default=200.0,
        metavar="PPM",
        help=text("cli.sim-serial.largest-oscillator-drift-ppm"),
    )
    parser.add_argument(
        "--interval-ms",
        type=positive_int,
        default=20,
        metavar="MS",
        help=text("cli.sim-serial.time-between-presses-of-a-clock"),
    )
    parser.add_argument(
        "--volatile",
        action="store_true",
        help=text("cli.sim-serial.non-conforming-clocks-that-lose-their"),
    )
    parser.add_argument(
        "--protocol",
        choices=("1.1", "1.2"),
        default="1.2",
        help=text("cli.sim-serial.the-protocol-version-the-clocks-speak"),
    )
    parser.add_argument(
        "--timeout",
        type=positive_int,
        default=60,
        metavar="S",
        help=text("cli.sim-serial.give-up-after-this-many-seconds"),
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from hw_sim.faults import FAULT_NAMES, parse_fault_names

    # The simulator's own refusal is English (hw_sim knows no catalogue): name the fault here.
    given = args.faults.split(",") if isinstance(args.faults, str) else list(args.faults or ())
    unknown = [n.strip() for n in given if n.strip() and n.strip() not in FAULT_NAMES]
    if unknown:
        said = text("cli.sim-serial.unknown-fault", fault=repr(unknown[0]), known=", ".join(FAULT_NAMES))
        print(f"duelclock sim serial: {said}", file=sys.stderr)
        return 2
    names = parse_fault_names(given)
    if not 0.0 <= args.fault_rate <= 0.5:
        print(
            text("cli.sim-serial.duelclock-sim-serial-fault-rate-must"),
            file=sys.stderr,
        )
        return 2
    summary = run_simulation(
        clocks=args.clocks,
        presses=args.presses,
        faults=names,
        fault_rate=args.fault_rate,
        seed=args.seed,
        drift_ppm=args.drift_ppm,
        interval_ms=args.interval_ms,
        timeout_s=args.timeout,
        persistent=not args.volatile,
        minor=int(args.protocol.split(".")[1]),
    )
    print(json.dumps(summary))
    lost = summary["lost"] + summary["lost_on_reboot"]
    clean = lost == 0 and summary["duplicated"] == 0 and summary["out_of_order"] == 0
    clean = clean and summary["faces_wrong"] == 0
    return 0 if clean and not summary["timed_out"] else 1


def run_simulation(
    *,
    clocks: int,
    presses: int,
    faults: set[str] | frozenset[str] = frozenset(),
    fault_rate: float = 0.05,
    seed: int | None = None,
    drift_ppm: float = 200.0,
    interval_ms: int = 20,
    timeout_s: float = 60.0,
    persistent: bool = True,
    minor: int | None = None,
) -> dict[str, Any]:
    """Run the simulation and return its summary (the JSON ``duelclock sim serial`` prints).

    ``minor``: the protocol minor version the clocks speak (default: this package's).
    """
    from clockd.devices.base import AnyDeviceInput, DevicePress
    from clockd.devices.serial import PortMatch, SerialClock
    from firmware_protocol.messages import PROTOCOL_MINOR
    from hw_sim.faults import preset
    from hw_sim.serial_clock import SerialClockFarm

    if minor is None:
        minor = PROTOCOL_MINOR
    if seed is None:
        seed = random.randrange(2**32)
    rng = random.Random(seed)
    received: list[DevicePress] = []
    lock = threading.Lock()

    def sink(event: AnyDeviceInput) -> None:
        if isinstance(event, DevicePress):
            with lock:
                received.append(event)

    started = time.monotonic()
    per_frame = preset(set(faults), rate=fault_rate)
    run_ns = presses * interval_ms * _MS
    with SerialClockFarm(seed=rng.getrandbits(64)) as farm:
        sims = [
            farm.add(
                f"SIM-{i + 1:04d}",
                drift_ppm=rng.uniform(-drift_ppm, drift_ppm),
                faults=per_frame,
                persistent=persistent,
                minor=minor,
            )
            for i in range(clocks)
        ]
        drivers = [
            SerialClock(
                i + 1,
                match=PortMatch(serial_number=sim.serial_number),
                list_ports=farm.list_ports,
                auto_ack=True,
                reconnect_min_ns=20 * _MS,
                reconnect_max_ns=200 * _MS,
            )
            for i, sim in enumerate(sims)
        ]
        for driver in drivers:
            driver.start(sink)
        connected = all(d.wait_connected(10) for d in drivers)
        for i, sim in enumerate(sims):
            farm.press_every(
                sim, interval_ms * _MS, count=presses, start_in_ns=(i * interval_ms * _MS) // clocks
            )
            if "unplug" in faults:
                at = rng.randrange(run_ns // 5, run_ns * 4 // 5 + 1)
                farm.call_later(at, sim.unplug)
                farm.call_later(at + rng.randrange(50, 300) * _MS, sim.replug)
            if "reboot" in faults:
                farm.call_later(rng.randrange(run_ns // 5, run_ns * 4 // 5 + 1), sim.reboot)
        deadline = started + timeout_s
        timed_out = not connected
        while not timed_out:
            made = sum(len(s.presses) for s in sims)
            expected = made - sum(len(s.lost_on_reboot) for s in sims)
            with lock:
                got = len({(p.device_id, p.boot_id, p.seq) for p in received})
            if (
                made == clocks * presses
                and got >= expected
                and all(s.plugged and s.pending == 0 for s in sims)
            ):
                break
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.01)
        time.sleep(0.05)  # a late duplicate would arrive now
        faces_wrong = [] if timed_out else _show_faces(sims, drivers)
        for driver in drivers:
            driver.stop()
        summary = _summarize(sims, received, drivers)
        summary.update(
            protocol=f"1.{minor}",
            faces_shown=0 if timed_out else clocks,
            faces_wrong=len(faces_wrong),
            faces_wrong_on=faces_wrong,
            clocks=clocks,
            presses_per_clock=presses,
            faults=sorted(faults),
            persistent=persistent,
            seed=seed,
            timed_out=timed_out,
            simulator_errors=[repr(e) for e in farm.errors],
            elapsed_s=round(time.monotonic() - started, 3),
        )
    return summary


def _show_faces(sims: list[Any], drivers: list[Any]) -> list[str]:
    """Show every clock a face of a program and return the clocks that do not show it.

    The line is quiet now (faults off): a SHOW_FACE dropped on the line is shown again
    only by the next one, which a daemon sends at the next change, and this check is
    about what the driver sends and the clock makes of it, not about the line.
    """
    from clockd.core.clock import PerSide, Side
    from clockd.core.device import Countdown, Display, Text, TwoClocks
    from clockd.devices.serial import wire_face
    from firmware_protocol.host import plain_show
    from firmware_protocol.messages import FACES_SINCE, WireFace, WireShowFace
    from hw_sim.faults import Faults

    programs: list[Display] = [
        Countdown(ms=10_800_000, running=True, text="Sztafeta"),
        Text(text="ZMIANA"),
        Countdown(ms=754_000, up=True, text="META 12:31"),
        TwoClocks(remaining_ms=PerSide[int](a=299_000, b=300_000), running=Side.B),
    ]
    wanted: dict[str, WireShowFace] = {}
    for i, (sim, driver) in enumerate(zip(sims, drivers, strict=True)):
        sim.faults = Faults()
        face = wire_face(programs[i % len(programs)])
        if (sim.config.major, sim.config.minor) < FACES_SINCE:
            show = plain_show(face)  # what a 1.1 clock is sent, and then shows as two clocks
            face = WireShowFace(
                face=WireFace.TWO_CLOCKS,
                time_ms_a=show.remaining_ms_a,
                time_ms_b=show.remaining_ms_b,
                running=show.running,
                text=show.text,
            )
        wanted[sim.serial_number] = face
        driver.show(programs[i % len(programs)])
    give_up = time.monotonic() + 5.0  # one frame each way per clock: plenty
    while True:
        wrong = [s.serial_number for s in sims if s.display != wanted[s.serial_number]]
        if not wrong or time.monotonic() > give_up:
            return wrong
        time.sleep(0.01)


def _summarize(sims: list[Any], received: list[Any], drivers: list[Any]) -> dict[str, Any]:
    by_clock: dict[str, list[Any]] = {}
    for p in received:
        by_clock.setdefault(p.device_id, []).append(p)
    sent = lost = duplicated = out_of_order = lost_on_reboot = time_uncertain = 0
    errors_us: list[float] = []
    for sim in sims:
        got = by_clock.get(sim.serial_number, [])
        keys = [(p.boot_id, p.seq) for p in got]
        pressed = {(r.boot_id, r.seq): i for i, r in enumerate(sim.presses)}  # the order they were made
        seen: set[tuple[int, int]] = set()
        latest = -1
        for p, key in zip(got, keys, strict=True):
            if key in seen:
                duplicated += 1
                continue
            seen.add(key)
            order = pressed.get(key, latest)
            if order < latest:
                out_of_order += 1  # reported after a press made later (in any epoch)
            latest = max(latest, order)
            if p.time_source != "measured":
                time_uncertain += 1
                continue  # a bound, not a measurement: not a timing error
            truth = sim.record(p.boot_id, p.seq)
            if truth is not None:
                errors_us.append((p.t_ns - truth.host_ns) / 1000)
        dropped = {(r.boot_id, r.seq) for r in sim.lost_on_reboot}
        sent += len(sim.presses)
        for r in sim.presses:
            if (r.boot_id, r.seq) not in seen:
                if (r.boot_id, r.seq) in dropped:
                    lost_on_reboot += 1
                else:
                    lost += 1
    errors_us.sort(key=abs)
    stats = [d.stats for d in drivers]
    frame_errors: dict[str, int] = {}
    for s in stats:
        for kind, n in s.protocol.errors.items():
            frame_errors[kind] = frame_errors.get(kind, 0) + n
    return {
        "sent": sent,
        "received": len({(p.device_id, p.boot_id, p.seq) for p in received}),
        "lost": lost,
        # held unacknowledged by a --volatile clock that rebooted: gone on the device
        "lost_on_reboot": lost_on_reboot,
        "duplicated": duplicated,
        "out_of_order": out_of_order,
        "time_uncertain": time_uncertain,  # presses whose time is only an upper bound
        "reboots": sum(s.counters.reboots for s in sims),
        "carried_across_reboots": sum(s.protocol.carried for s in stats),
        "worst_timing_error_us": round(max((abs(e) for e in errors_us), default=0.0), 1),
        "median_timing_error_us": round(abs(errors_us[len(errors_us) // 2]), 1) if errors_us else 0.0,
        "reconnects": sum(max(0, s.opens - 1) for s in stats),
        "duplicates_dropped_by_driver": sum(s.protocol.duplicates for s in stats),
        "frame_errors": frame_errors,
    }
