"""Serial clocks: N simulated clocks pressing at 10 Hz each against N real drivers.

    python -m benchmarks.bench_serial [--clocks 8,64,256] [--seconds 5]

The simulated clocks run in a child process (``--farm N``, one thread for all of them,
over real ptys); this process runs the real :class:`~clockd.devices.serial.SerialClock`
drivers (one reader thread each) with auto-acknowledgement. Both read the same
``CLOCK_MONOTONIC``, and the child's clocks have no drift and boot at a known host
instant, so a press's true instant is known here exactly: *press-to-event latency* is
the time from the button press (the instant the simulated device stamps and writes its
PRESS frame) to the driver handing the event to the sink. *Timing error* is how far the
event's mapped ``t_ns`` is from that true instant. Presses start 5 s after the clocks
connect, as at a table where the clock is plugged in before play (SPEC.md §6). CPU is
measured per process over the pressing window (% of one core; this machine has two,
shared by both processes).

Where the host's time goes: the pure protocol work per press (parse, session, ACK, the
daemon's event) is timed on its own, in one thread with no I/O; the rest of the CPU per
event is threads waking, system calls and heartbeats.

The wire's own limit is computed from the codec's frame sizes at 115 200 baud: a pty
has no baud rate, so it is not measured but stated next to the measurements.

Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from benchmarks import percentile

MS = 1_000_000
RATE_HZ = 10
BAUD = 115_200
QUANTILES = (("p50", 0.50), ("p99", 0.99), ("max", 1.0))


# -- the child: simulated clocks -------------------------------------------------------------------


def farm_main(n: int) -> int:
    from hw_sim.serial_clock import SerialClockFarm

    with SerialClockFarm(seed=1) as farm:
        clocks = [farm.add(f"BENCH-{i:04d}") for i in range(n)]
        ports = [(c.path, c.serial_number, c.clock.boot_host_ns) for c in clocks]
        print(json.dumps({"ports": ports}), flush=True)
        command = sys.stdin.readline().split()  # "go SECONDS"
        seconds = float(command[1])
        count = int(seconds * RATE_HZ)
        interval = 1000 * MS // RATE_HZ
        cpu0, wall0 = time.process_time(), time.monotonic()
        for i, clock in enumerate(clocks):
            farm.press_every(clock, interval, count=count, start_in_ns=(i * interval) // n)
        time.sleep(seconds + 0.3)
        cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
        presses = sum(len(c.presses) for c in clocks)
        print(
            json.dumps({"cpu_s": cpu, "wall_s": wall, "presses": presses, "errors": len(farm.errors)}),
            flush=True,
        )
        sys.stdin.readline()  # "stop"
    return 0


# -- the parent: real drivers ------------------------------------------------------------------------


def cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run(n: int, seconds: float) -> dict[str, Any]:
    from clockd.devices.base import AnyDeviceInput, DevicePress
    from clockd.devices.serial import SerialClock

    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.bench_serial", "--farm", str(n)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    ports = json.loads(child.stdout.readline())["ports"]
    boot_ns = {serial: boot for _, serial, boot in ports}
    received: list[tuple[int, DevicePress]] = []

    def sink(event: AnyDeviceInput) -> None:
        if isinstance(event, DevicePress):
            received.append((time.monotonic_ns(), event))

    drivers = [
        SerialClock(i + 1, port=path, expect_device_id=serial, auto_ack=True)
        for i, (path, serial, _) in enumerate(ports)
    ]
    for d in drivers:
        d.start(sink)
    connected = sum(d.wait_connected(20) for d in drivers)
    time.sleep(5.0)  # clocks are plugged in before play starts: the mapping has settled (SPEC.md §6)
    cpu0, wall0 = cpu_s(), time.monotonic()
    child.stdin.write(f"go {seconds}\n")
    child.stdin.flush()
    farm = json.loads(child.stdout.readline())
    time.sleep(0.2)
    cpu, wall = cpu_s() - cpu0, time.monotonic() - wall0
    for d in drivers:
        d.stop()
    child.stdin.write("stop\n")
    child.stdin.flush()
    child.wait(timeout=30)

    latencies, errors = [], []
    seen: set[tuple[str, int, int]] = set()
    duplicated = 0
    for recv_ns, p in received:
        key = (p.device_id, p.boot_id or 0, p.seq or 0)
        if key in seen:
            duplicated += 1
            continue
        seen.add(key)
        true_ns = boot_ns[p.device_id] + (p.device_t_us or 0) * 1000
        latencies.append(recv_ns - true_ns)
        errors.append(abs(p.t_ns - true_ns))
    arrivals = [recv for recv, _ in received]
    window = (max(arrivals) - min(arrivals)) / 1e9 if len(arrivals) > 1 else farm["wall_s"]
    return {
        "clocks": n,
        "connected": connected,
        "offered_per_s": n * RATE_HZ,
        "presses": farm["presses"],
        "received": len(seen),
        "lost": farm["presses"] - len(seen),
        "duplicated": duplicated,
        "events_per_s": round(len(seen) / window, 1),
        "latency_us": {k: round(percentile(latencies, p) / 1000, 1) for k, p in QUANTILES},
        "timing_error_us": {k: round(percentile(errors, p) / 1000, 1) for k, p in QUANTILES},
        "host_cpu_pct": round(100 * cpu / wall, 1),
        "sim_cpu_pct": round(100 * farm["cpu_s"] / farm["wall_s"], 1),
        "host_cpu_us_per_event": round(1e6 * cpu / max(1, len(seen)), 1),
    }


def protocol_costs(n: int = 20_000) -> dict[str, float]:
    """µs of pure protocol work per press, in one thread with no I/O."""
    from clockd.core.clock import Side as CoreSide
    from clockd.devices.base import DevicePress
    from firmware_protocol.codec import MessageParser, encode
    from firmware_protocol.host import Delivered, HostSession
    from firmware_protocol.messages import Heartbeat, Hello, WirePress, WireSide

    frames = [encode(WirePress(boot_id=1, seq=i, side=WireSide.A, t_us=i * 100_000)) for i in range(1, n + 1)]
    t0 = time.perf_counter()
    parser = MessageParser()
    for f in frames:
        parser.feed(f)
    parse = time.perf_counter() - t0
    host = HostSession(settle_samples=1)
    host.open(0)
    host.receive(encode(Hello(major=1, minor=0, boot_id=1, t_us=0, device_id="x")), 0)
    t0 = time.perf_counter()
    for i, f in enumerate(frames, 1):
        for e in host.receive(f, i * 100 * MS).events:
            assert isinstance(e, Delivered)
            host.acknowledge(e.boot_id, e.seq)
            DevicePress(
                table=1,
                t_ns=e.host_t_ns,
                side=CoreSide(e.side.value),
                device_id=e.device_id,
                seq=e.seq,
                device_t_us=e.device_t_us,
                boot_id=e.boot_id,
            )
    session = time.perf_counter() - t0
    beats = [encode(Heartbeat(boot_id=1, t_us=(n + i) * 100_000, acked_seq=n, last_seq=n)) for i in range(n)]
    t0 = time.perf_counter()
    for i, f in enumerate(beats):
        host.receive(f, (n + i) * 100 * MS)
    heartbeat = time.perf_counter() - t0
    return {
        "parse_us": round(1e6 * parse / n, 1),  # part of the next figure
        "press_to_event_and_ack_us": round(1e6 * session / n, 1),
        "heartbeat_us": round(1e6 * heartbeat / n, 1),
    }


def wire_limit() -> dict[str, Any]:
    """Frame sizes from the codec, at 115 200 baud 8N1 (10 bits a byte)."""
    from firmware_protocol.codec import encode
    from firmware_protocol.messages import Ack, Heartbeat, WirePress, WireSide

    press = len(encode(WirePress(boot_id=1, seq=1, side=WireSide.A, t_us=1)))
    beat = len(encode(Heartbeat(boot_id=1, t_us=1, acked_seq=1, last_seq=1)))
    ack = len(encode(Ack(boot_id=1, seq=1)))
    bytes_per_s = BAUD // 10
    up = RATE_HZ * press + 4 * beat  # presses plus the default 4 heartbeats a second
    return {
        "baud": BAUD,
        "press_frame_bytes": press,
        "heartbeat_frame_bytes": beat,
        "ack_frame_bytes": ack,
        "press_frame_us": round(1e6 * press / bytes_per_s, 1),
        "max_presses_per_s_per_link": bytes_per_s // press,
        "link_use_at_10hz_pct": round(100 * up / bytes_per_s, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clocks", default="8,64,256")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--farm", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.farm:
        return farm_main(args.farm)
    wire = wire_limit()
    print(
        f"wire at {BAUD} baud: PRESS frame {wire['press_frame_bytes']} B = {wire['press_frame_us']} µs, "
        f"{wire['max_presses_per_s_per_link']} presses/s per link; 10 Hz + heartbeats use "
        f"{wire['link_use_at_10hz_pct']} % of a link"
    )
    print(
        f"{'clocks':>6} {'events/s':>9} {'lat p50':>8} {'lat p99':>8} {'lat max':>8} {'err p99':>8} "
        f"{'host cpu':>8} {'sim cpu':>8} {'µs/event':>8} {'lost':>4} {'dup':>4}"
    )
    runs = []
    for n in (int(x) for x in args.clocks.split(",")):
        r = run(n, args.seconds)
        runs.append(r)
        lat, err = r["latency_us"], r["timing_error_us"]
        print(
            f"{n:>6} {r['events_per_s']:>9} {lat['p50']:>8} {lat['p99']:>8} {lat['max']:>8} {err['p99']:>8} "
            f"{r['host_cpu_pct']:>7}% {r['sim_cpu_pct']:>7}% {r['host_cpu_us_per_event']:>8} "
            f"{r['lost']:>4} {r['duplicated']:>4}",
            flush=True,
        )
    costs = protocol_costs()
    print(
        f"pure protocol work per press: {costs['press_to_event_and_ack_us']} µs (of which parsing "
        f"{costs['parse_us']} µs) for the frame, the session, the ACK and the daemon's event; "
        f"{costs['heartbeat_us']} µs per heartbeat"
    )
    print(json.dumps({"bench": "serial", "wire": wire, "protocol": costs, "runs": runs}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
