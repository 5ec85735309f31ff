"""``duelclock run``: run the clock daemon.

With no hardware configured it starts simulated tables whose players keep pressing, so a
new user sees clocks run at once (``duelclock status`` in another terminal). It prints
the API's address and the referee's token, and writes both to ``daemon.json`` in the
state folder, where ``duelclock status``/``table`` and the GUI find them.

This module is the composition root of the daemon: it alone picks the device classes
(simulated, serial, GPIO) and the player models, and hands them to
:class:`clockd.service.runtime.Daemon`.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from clockd.i18n import Msg, Problem, msg, render, render_error, text

#: Simulated clocks ``duelclock run`` starts when no tables are configured and ``--sim`` is not given
#: (``make run``'s showcase asks for 8: ``duelclock start --tables``).
DEFAULT_SIM_TABLES = 4


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "run",
        help=text("cli.run.run-the-clock-daemon-simulated-tables"),
        description=text("cli.run.run-the-clock-daemon-tables-the"),
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=text("cli.run.configuration-toml-tables-and-devices"),
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help=text("cli.run.the-journal-default-duelclock-db-in"),
    )
    parser.add_argument(
        "--sim",
        type=int,
        metavar="N",
        help=text("cli.run.add-n-simulated-serial-clocks-default", n=DEFAULT_SIM_TABLES),
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="P",
        help=text("cli.run.api-port-default-7531-0-any"),
    )
    parser.add_argument(
        "--host",
        metavar="ADDR",
        help=text("cli.run.api-address-default-127-0-0"),
    )
    parser.add_argument(
        "--tls-cert",
        type=Path,
        metavar="CERT",
        help=text("cli.run.tls-cert"),
    )
    parser.add_argument(
        "--tls-key",
        type=Path,
        metavar="KEY",
        help=text("cli.run.tls-key"),
    )
    parser.add_argument(
        "--control",
        default=None,
        metavar="TC",
        help=text("cli.run.time-control-of-new-tables-default"),
    )
    parser.add_argument(
        "--think-ms",
        type=int,
        default=None,
        metavar="MS",
        help=text("cli.run.simulated-players-median-turn"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=text("cli.run.seed-for-the-simulated-players"),
    )
    parser.add_argument(
        "--replay-all",
        action="store_true",
        help=text("cli.run.ignore-snapshots-rebuild-from-every"),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=text("cli.run.log-more"))
    parser.add_argument("--web", default=None, metavar="HOST:PORT", help=text("cli.run.web"))
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--node", metavar="NAME", default=None, help=text("cli.run.node"))
    role.add_argument("--desk", action="store_true", help=text("cli.run.desk"))
    parser.add_argument("--mqtt", metavar="URL", default=None, help=text("cli.run.mqtt"))
    parser.add_argument(
        "--mqtt-password-file",
        type=Path,
        metavar="FILE",
        default=None,
        help=text("cli.run.mqtt-password-file"),
    )
    parser.add_argument(
        "--first-table", type=int, metavar="N", default=None, help=text("cli.run.first-table")
    )
    from clockd.cli.web import add_serve_options

    add_serve_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from clockd.api.local import DEFAULT_DB, is_loopback, state_dir
    from clockd.core.timecontrol import TimeControl
    from clockd.logs import configure_logging
    from clockd.service.config import DaemonConfig, DaemonConfigError, load_config
    from clockd.service.runtime import Daemon, TableSpec
    from clockd.store.journal import JournalError
    from clockd.store.schema import SchemaError

    configure_logging(verbose=args.verbose)  # a flood of one warning is bounded (clockd/logs.py)
    try:
        config = load_config(args.config) if args.config else DaemonConfig()
    except DaemonConfigError as exc:
        print(f"duelclock run: {render_error(exc)}", file=sys.stderr)
        return 2
    control = args.control or "10m"
    try:
        TimeControl.parse(control)
    except ValueError as exc:
        print(f"duelclock run: --control: {render_error(exc)}", file=sys.stderr)
        return 2
    broker = _mqtt_role(args)
    if broker is False:
        return 2
    default_sim = 0 if config.tables or args.desk else DEFAULT_SIM_TABLES  # the desk's tables are its nodes'
    n_sim = args.sim if args.sim is not None else default_sim
    if n_sim < 0:
        print(f"duelclock run: {text('cli.run.sim-negative')}", file=sys.stderr)
        return 2
    first_sim = max((t.id for t in config.tables), default=0) + 1
    if args.first_table is not None:
        if args.first_table < first_sim:
            print(
                f"duelclock run: {text('cli.run.first-table-taken', first=args.first_table, free=first_sim)}",
                file=sys.stderr,
            )
            return 2
        first_sim = args.first_table
    sim_tables = list(range(first_sim, first_sim + n_sim))
    specs = [TableSpec(t.id, t.label, t.control) for t in config.tables]
    specs += [TableSpec(t, "", control) for t in sim_tables]

    db = args.db or config.daemon.db or state_dir() / DEFAULT_DB
    host = args.host or config.daemon.host
    tls_cert = args.tls_cert or config.daemon.tls_cert
    tls_key = args.tls_key or config.daemon.tls_key
    if tls_key is not None and tls_cert is None:
        print(f"duelclock run: {text('cli.run.tls-key-without-cert')}", file=sys.stderr)
        return 2
    if tls_cert is not None:
        from clockd.service.server import tls_server_context

        try:
            tls_server_context(tls_cert, tls_key)
        except OSError as exc:  # a file that cannot be read; ssl.SSLError (no certificate, not a pair) too
            print(
                f"duelclock run: {render(msg('cli.run.tls-unusable', cert=str(tls_cert), problem=exc))}",
                file=sys.stderr,
            )
            return 2
    if not is_loopback(host):  # beyond this machine: say what that means (issue 20, item 10)
        code = "cli.run.network-tls" if tls_cert is not None else "cli.run.network-clear"
        print(f"duelclock run: {render(msg(code, host=host))}", file=sys.stderr)
    daemon = Daemon(
        db,
        tables=specs,
        host=host,
        tls_cert=tls_cert,
        tls_key=tls_key,
        port=config.daemon.port if args.port is None else args.port,
        grace_ns=config.daemon.grace_ms * 1_000_000,
        snapshot_every=config.daemon.snapshot_every,
        use_snapshots=not args.replay_all,
        hall=args.node or config.daemon.hall,
    )
    closers: list[Any] = []
    try:
        _configured_devices(daemon, config, args, closers)
        if sim_tables:
            closers.append(_simulated_serial_clocks(daemon, sim_tables, args))
    except _NotAvailable as exc:
        print(f"duelclock run: {render_error(exc)}", file=sys.stderr)
        _close(closers)
        return 2

    stop = threading.Event()  # installed first: a SIGTERM right after the banner must stop cleanly
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        started = daemon.start()
    except (JournalError, SchemaError, ValueError) as exc:
        print(f"duelclock run: {render_error(exc)}", file=sys.stderr)
        _close(closers)
        return 2
    except (RuntimeError, LookupError) as exc:  # a device that cannot start: no GPIO here, a pin taken
        logging.getLogger(__name__).info("start-up failed", exc_info=exc)
        print(f"duelclock run: {render_error(exc)}", file=sys.stderr)
        _close(closers)
        return 2
    except OSError as exc:
        where = f"{daemon.host}:{daemon.port}"
        print(
            f"duelclock run: {text('cli.run.cannot-listen-on')} {where}: {render_error(exc)}",
            file=sys.stderr,
        )
        _close(closers)
        return 2
    _banner(daemon, started, len(specs), n_sim)
    # The link stops before the daemon: a node says goodbye while it still runs, and its
    # reader of the journal is closed before the journal (SQLite then folds the WAL back in).
    link = _start_link(args, daemon, broker) if broker is not None else None
    if args.web:
        from clockd.cli.web import start_beside

        web = start_beside(args, started, tls_cert, prog="duelclock run")
        if web is None:
            _close([link] if link is not None else [])
            daemon.stop()
            _close(closers)
            return 2
        closers.append(web)
    try:
        while not stop.wait(0.5):
            if daemon.engine is None or not daemon.engine.running:
                break
    finally:
        failure = daemon.engine.failure if daemon.engine is not None else None
        _close([link] if link is not None else [])
        daemon.stop()
        _close(closers)
    if failure is not None:
        print(
            f"duelclock run: {text('cli.run.the-daemon-stopped')}: {render_error(failure)}", file=sys.stderr
        )
        return 1
    print(text("cli.run.stopped-journal"), daemon.db)
    return 0


class _NotAvailable(Problem):
    """A configured device that cannot be set up (a serial table without a port): its message says which."""


def _close(closers: list[Any]) -> None:
    for closer in closers:
        try:
            closer.close() if hasattr(closer, "close") else closer.stop()
        except Exception:
            logging.getLogger(__name__).exception("closing %r failed", closer)


def _phase_of(daemon: Any, table: int) -> Any:
    """What the simulated players see of their clock's state (set, running, paused, flag)."""

    from clockd.service.tables import phase_of

    def phase() -> Any:
        state = daemon.engine.current.tables.get(table) if daemon.engine is not None else None
        return None if state is None else phase_of(state, daemon.engine.now_ns())

    return phase


def _configured_devices(daemon: Any, config: Any, args: argparse.Namespace, closers: list[Any]) -> None:
    """The devices of the configuration file's tables (serial, GPIO, in-process simulated)."""
    from clockd.service.config import GpioDevice, SerialDevice, SimulatedDevice

    gpio = [t for t in config.tables if isinstance(t.device, GpioDevice)]
    if gpio:
        for device in _gpio_tables(gpio):
            daemon.add_device(device.table, device)
    simulated = None
    for table in config.tables:
        if isinstance(table.device, SerialDevice):
            daemon.add_device(table.id, _serial_clock(table.id, table.device))
        elif isinstance(table.device, SimulatedDevice):
            if simulated is None:
                from clockd.service.simclock import SimulatedClocks
                from hw_sim.players import PlayerModel

                model = PlayerModel(median_ms=args.think_ms or table.device.median_ms)
                simulated = SimulatedClocks(model.think_ns, seed=args.seed)
                closers.append(simulated)
            daemon.add_device(table.id, simulated.device(table.id, phase_of=_phase_of(daemon, table.id)))


def _serial_clock(table: int, device: Any) -> Any:
    from clockd.devices.serial import DEFAULT_PID, DEFAULT_VID, PortMatch, SerialClock

    if device.port:
        return SerialClock(table, port=device.port, expect_device_id=device.serial_number)
    if device.serial_number is None:
        raise _NotAvailable("cli.run.serial-needs-port", table=table)
    match = PortMatch(
        vid=DEFAULT_VID if device.vid is None else device.vid,
        pid=DEFAULT_PID if device.pid is None else device.pid,
        serial_number=device.serial_number,
    )
    return SerialClock(table, match=match)


def _gpio_tables(tables: list[Any]) -> list[Any]:
    """One GPIO configuration for all GPIO tables, checked whole (a pin used twice across tables)."""
    from clockd.devices.gpio import gpio_tables
    from clockd.devices.gpio_config import GpioConfigError, parse_gpio_config

    timing: dict[str, Any] = {}
    entries = []
    for table in tables:
        pins = dict(table.device.model_extra or {})
        for key in ("debounce_ms", "simultaneous_ms"):
            if key in pins:
                timing[key] = pins.pop(key)
        entries.append({"number": table.id, **pins})
    try:
        config = parse_gpio_config({**timing, "tables": entries}, source=Msg("cli.run.gpio-tables"))
    except GpioConfigError as exc:
        raise _NotAvailable(exc.msg) from None
    return list(gpio_tables(config))


def _simulated_serial_clocks(daemon: Any, tables: list[int], args: argparse.Namespace) -> Any:
    """Simulated USB-serial clocks on pseudo-terminals, read through the real serial driver.

    Their players watch the clock (the daemon's display and the table's state): the side
    whose time runs thinks and presses; on a clock that is set and not started, one of
    them starts the other's time; during a pause or after a flag they wait.
    """
    import random

    from clockd.devices.serial import PortMatch, SerialClock
    from hw_sim.players import PlayerModel
    from hw_sim.serial_clock import SerialClockFarm

    farm = SerialClockFarm(seed=args.seed)
    rng = random.Random(args.seed)
    model = PlayerModel(median_ms=args.think_ms or 4_000)
    for table in tables:
        serial_number = f"SIM-{table:04d}"
        sim = farm.add(serial_number, drift_ppm=rng.uniform(-100, 100))
        driver = SerialClock(table, match=PortMatch(serial_number=serial_number), list_ports=farm.list_ports)
        daemon.add_device(table, driver)
        daemon.add_hand(table, _hand(sim))
        _WatchfulPlayers(
            farm, sim, _phase_of(daemon, table), model, random.Random(rng.getrandbits(32))
        ).start()
    return farm


def _hand(sim: Any) -> Any:
    """A referee's hand on ``sim``'s buttons (``duelclock sim press``): side ``a``/``b``."""
    from firmware_protocol.messages import WireSide

    def press(side: str) -> None:
        sim.press(WireSide.A if side == "a" else WireSide.B)

    return press


class _WatchfulPlayers:
    """Two players at a simulated serial clock, looking at its display every 50 ms."""

    LOOK_NS = 50_000_000
    START_NS = 2_000_000_000

    def __init__(self, farm: Any, sim: Any, phase_of: Any, model: Any, rng: Any) -> None:
        self.farm, self.sim, self.phase_of, self.model, self.rng = farm, sim, phase_of, model, rng
        self.thinking: Any = None  # the side whose turn is being thought about
        self.starting = False
        self.start_side: Any = None  # the side that last tried to start a ready clock

    def start(self) -> None:
        self.farm.call_later(self.LOOK_NS, self._look)

    def _running(self) -> Any:
        from clockd.core.clock import Phase

        show = self.sim.display
        if self.phase_of() is not Phase.RUNNING or show is None:
            return None
        return show.running

    def _look(self) -> None:
        from clockd.core.clock import Phase

        running = self._running()
        if running is not None and running != self.thinking:
            self.thinking = running
            self.farm.call_later(self.model.think_ns(self.rng), self._press, running)
        elif self.phase_of() is Phase.READY and not self.starting:
            self.starting = True
            self.farm.call_later(self.START_NS, self._start)
        self.farm.call_later(self.LOOK_NS, self._look)

    def _press(self, side: Any) -> None:
        if self._running() == side:
            self.sim.press(side)
        else:
            self.thinking = None  # paused (or flagged) meanwhile: think again when it runs

    def _start(self) -> None:
        from clockd.core.clock import Phase
        from firmware_protocol.messages import WireSide

        self.starting = False
        if self.phase_of() is Phase.READY:
            # The player who may start (the toss loser) does: try one side, then the other.
            self.start_side = (
                self.rng.choice((WireSide.A, WireSide.B))
                if self.start_side is None
                else (WireSide.B if self.start_side == WireSide.A else WireSide.A)
            )
            self.sim.press(self.start_side)


def _banner(daemon: Any, started: Any, n_tables: int, n_sim: int) -> None:
    rec = started.recovery
    rule = {
        "first-start": text("cli.run.new-journal"),
        "same-boot": text("cli.run.resumed-clocks-kept-running"),
        "new-boot": text("cli.run.resumed-after-a-reboot-clocks-paused"),
    }[rec.rule]
    tables, journal = text("cli.run.tables"), text("cli.run.journal")
    sims = f" ({text('cli.run.simulated-clocks')}: {n_sim})" if n_sim else ""
    print(f"duelclock: {tables}: {n_tables}{sims}, {journal}: {daemon.db}")
    replayed = f"{text('cli.run.events-replayed')}: {rec.replayed}"
    if rec.snapshot_seq:
        replayed += f" ({text('cli.run.from-snapshot')} {rec.snapshot_seq})"
    print(f"  {rule}; {replayed}")
    tls = " (TLS)" if daemon.tls_cert is not None else ""
    print(f"  API: {started.host}:{started.port}{tls}")
    print(f"  {text('cli.run.referee-token')}: {started.token}")
    from clockd.i18n import Msg, render

    for table, code, data in rec.alerts:
        print(f"  ! {text('cli.run.table')} {table}: {render(Msg(code=code, params=data))}")
    for _event, code, data in rec.event_alerts:
        if code == "alert.event-quarantined":  # the one an event's alerts hold that stops it
            print(f"  ! {render(Msg(code=code, params=data))}")
    print(
        text("cli.run.clocks-duelclock-status-stop-ctrl-c"),
        flush=True,
    )


def _mqtt_role(args: argparse.Namespace) -> Any:
    """The broker of ``--node``/``--desk`` (``None``: one machine, as before; ``False``: an error, said)."""
    from clockd.mqtt.topics import valid_node_name

    role = args.node is not None or args.desk
    if args.mqtt is None:
        if role:
            print(f"duelclock run: {text('cli.run.role-needs-mqtt')}", file=sys.stderr)
            return False
        return None
    if not role:
        print(f"duelclock run: {text('cli.run.mqtt-needs-role')}", file=sys.stderr)
        return False
    if args.node is not None and not valid_node_name(args.node):
        print(f"duelclock run: {render(msg('mqtt.bad-node-name', name=args.node))}", file=sys.stderr)
        return False
    from clockd.mqtt.url import broker_url

    try:
        return broker_url(args.mqtt, password_file=args.mqtt_password_file)
    except Problem as exc:
        print(f"duelclock run: --mqtt: {render_error(exc)}", file=sys.stderr)
        return False


def _start_link(args: argparse.Namespace, daemon: Any, url: Any) -> Any:
    """The node's or the desk's link to the broker, started beside the running daemon."""
    if args.node is not None:
        from clockd.mqtt.node import NodeLink

        link: Any = NodeLink(args.node, url, daemon.engine, str(daemon.db))
        print(f"  {text('cli.run.node-link', node=args.node, broker=url.redacted())}", flush=True)
    else:
        from clockd.mqtt.desk import DeskLink

        link = DeskLink(url, daemon.engine)
        print(f"  {text('cli.run.desk-link', broker=url.redacted())}", flush=True)
    link.start()
    return link
