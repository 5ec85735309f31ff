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

from clockd.i18n import tr


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "run",
        help="run the clock daemon (simulated tables when no hardware is configured)",
        description="Run the clock daemon: tables, the journal, recovery after a crash, the API. "
        "With no hardware configured, N simulated tables whose players keep pressing.",
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="configuration (TOML): tables and devices"
    )
    parser.add_argument(
        "--db", type=Path, metavar="PATH", help="the journal (default: duelclock.db in the state folder)"
    )
    parser.add_argument(
        "--sim",
        type=int,
        metavar="N",
        help="add N simulated tables (default 4 when no tables are configured)",
    )
    parser.add_argument("--port", type=int, metavar="P", help="API port (default 7531; 0: any free port)")
    parser.add_argument("--host", metavar="ADDR", help="API address (default 127.0.0.1: this machine only)")
    parser.add_argument(
        "--control", default=None, metavar="TC", help="time control of new tables (default 10m)"
    )
    parser.add_argument(
        "--think-ms", type=int, default=None, metavar="MS", help="simulated players' median turn"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the simulated players")
    parser.add_argument(
        "--replay-all", action="store_true", help="ignore snapshots: rebuild from every event"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from clockd.api.local import DEFAULT_DB, state_dir
    from clockd.service.config import ConfigError, DaemonConfig, SimulatedDevice, TableConfig, load_config
    from clockd.service.runtime import Daemon, TableSpec
    from clockd.store.journal import JournalError
    from clockd.store.schema import SchemaError

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(asctime)s %(name)s: %(message)s"
    )
    try:
        config = load_config(args.config) if args.config else DaemonConfig()
    except ConfigError as exc:
        print(f"duelclock run: {exc}", file=sys.stderr)
        return 2
    control = args.control or "10m"
    tables = list(config.tables)
    n_sim = args.sim if args.sim is not None else (0 if tables else 4)
    if n_sim < 0:
        print("duelclock run: --sim needs a number of tables (0 or more)", file=sys.stderr)
        return 2
    first = max((t.id for t in tables), default=0) + 1
    tables += [TableConfig(id=first + i, control=control, device=SimulatedDevice()) for i in range(n_sim)]
    try:
        from clockd.core.timecontrol import TimeControl

        TimeControl.parse(control)
    except ValueError as exc:
        print(f"duelclock run: --control: {exc}", file=sys.stderr)
        return 2

    db = args.db or config.daemon.db or state_dir() / DEFAULT_DB
    daemon = Daemon(
        db,
        tables=[TableSpec(t.id, t.label, t.control) for t in tables],
        host=args.host or config.daemon.host,
        port=config.daemon.port if args.port is None else args.port,
        grace_ns=config.daemon.grace_ms * 1_000_000,
        snapshot_every=config.daemon.snapshot_every,
        use_snapshots=not args.replay_all,
    )
    simulated = None
    try:
        for table in tables:
            if table.device is None:
                continue
            if isinstance(table.device, SimulatedDevice):
                simulated = simulated or _players(args, table.device.median_ms)
                daemon.add_device(table.id, simulated.device(table.id, phase_of=_phase_of(daemon, table.id)))
            else:
                daemon.add_device(table.id, _hardware(table))
    except _NotAvailable as exc:
        print(f"duelclock run: {exc}", file=sys.stderr)
        return 2

    try:
        started = daemon.start()
    except (JournalError, SchemaError) as exc:
        print(f"duelclock run: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"duelclock run: {tr(pl='nie można nasłuchiwać na', en='cannot listen on')} "
            f"{daemon.host}:{daemon.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2
    _banner(daemon, started, len(tables))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            if daemon.engine is None or not daemon.engine.running:
                break
    finally:
        failure = daemon.engine.failure if daemon.engine is not None else None
        daemon.stop()
        if simulated is not None:
            simulated.stop()
    if failure is not None:
        print(
            f"duelclock run: {tr(pl='demon zatrzymany', en='the daemon stopped')}: {failure}", file=sys.stderr
        )
        return 1
    print(tr(pl="Zatrzymano. Dziennik:", en="Stopped. Journal:"), daemon.db)
    return 0


class _NotAvailable(Exception):
    pass


def _players(args: argparse.Namespace, median_ms: int) -> Any:
    from clockd.service.simclock import SimulatedClocks
    from hw_sim.players import PlayerModel

    model = PlayerModel(median_ms=args.think_ms or median_ms)
    return SimulatedClocks(model.think_ns, seed=args.seed)


def _phase_of(daemon: Any, table: int) -> Any:
    def phase() -> Any:
        state = daemon.engine.current.tables.get(table) if daemon.engine is not None else None
        return None if state is None else state.clock.phase

    return phase


def _hardware(table: Any) -> Any:
    """A serial or GPIO device for ``table``, from the drivers' own modules."""
    kind = table.device.kind
    try:
        if kind == "serial":
            from clockd.devices import serial as driver  # type: ignore[attr-defined]
        else:
            from clockd.devices import gpio as driver  # type: ignore[attr-defined]
    except ImportError:
        raise _NotAvailable(
            f"table {table.id}: the {kind} driver (clockd.devices.{kind}) is not part of this build yet"
        ) from None
    factory = getattr(driver, "from_config", None)
    if factory is None:
        raise _NotAvailable(f"table {table.id}: clockd.devices.{kind} has no from_config(table, settings)")
    return factory(table.id, table.device.model_dump())


def _banner(daemon: Any, started: Any, n_tables: int) -> None:
    rec = started.recovery
    rule = {
        "first-start": tr(pl="nowy dziennik", en="new journal"),
        "same-boot": tr(
            pl="wznowiono po przerwie (zegary liczyły dalej)", en="resumed (clocks kept running)"
        ),
        "new-boot": tr(
            pl="wznowiono po restarcie komputera (zegary wstrzymane)",
            en="resumed after a reboot (clocks paused)",
        ),
    }[rec.rule]
    tables, journal = tr(pl="stoliki", en="tables"), tr(pl="dziennik", en="journal")
    print(f"duelclock: {tables}: {n_tables}, {journal}: {daemon.db}")
    print(
        f"  {rule}; {tr(pl='odtworzono zdarzeń', en='events replayed')}: {rec.replayed}"
        + (f" ({tr(pl='od migawki', en='from snapshot')} {rec.snapshot_seq})" if rec.snapshot_seq else "")
    )
    print(f"  API: {started.host}:{started.port}")
    print(f"  {tr(pl='token sędziego', en='referee token')}: {started.token}")
    for table, code in rec.alerts:
        print(f"  ! {tr(pl='stolik', en='table')} {table}: {code}")
    print(
        tr(pl="Zegary: duelclock status   Zatrzymanie: Ctrl+C", en="Clocks: duelclock status   Stop: Ctrl+C"),
        flush=True,
    )
