"""The daemon assembled: journal, engine, devices and API server, started and stopped in order.

Start-up order matters for the promises the daemon makes:

1. open the journal (taking its lock; migrating its schema);
2. **recover**: rebuild every table from the snapshot and the journal, continue the time
   base, journal the restart and the referee's alerts (:meth:`Engine.recover`);
3. create the configured tables the journal does not have yet;
4. start the engine thread, then the API server, then the devices — a device's first
   press can only be journaled once the engine runs, and re-sent presses from before a
   crash are then de-duplicated against the rebuilt state.

Stopping reverses it: devices first (no new input), then the server, then the engine
(which drains its queue and writes a snapshot), and the journal last.
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from clockd.api.local import DaemonInfo, mark_stopped, read_info, state_dir, write_info
from clockd.api.messages import DEFAULT_PORT
from clockd.core.ids import DEFAULT_HALL, check_hall
from clockd.devices.base import TableDevice
from clockd.service.component import Component
from clockd.service.engine import Engine, RecoveryReport
from clockd.service.entries import TableCreated
from clockd.service.server import ApiServer, ServerLimits, tls_server_context
from clockd.service.tables import DEFAULT_GRACE_NS, Tables
from clockd.store.errors import HOLDS_TOKEN
from clockd.store.files import private_folder
from clockd.store.journal import Journal
from clockd.store.token import referee_token

log = logging.getLogger(__name__)

BOOT_ID_PATH = Path("/proc/sys/kernel/random/boot_id")


def current_boot_id() -> str:
    """This machine's boot identity; changes on every reboot (Linux).

    Where it cannot be read, a random value: every start then counts as after a reboot,
    which pauses running clocks — the safe side.
    """
    try:
        return BOOT_ID_PATH.read_text(encoding="ascii").strip()
    except OSError:
        return "unknown-" + secrets.token_hex(8)


def new_token() -> str:
    """A referee token: 144 random bits, URL-safe, and never starting with ``-``.

    A token that starts with a dash reads as an option on the command line
    (``--token -Xy…`` fails in argparse), which would bite one referee in 64.
    """
    while True:
        token = secrets.token_urlsafe(18)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True)
class TableSpec:
    table: int
    label: str = ""
    control: str = "10m"


@dataclass
class Started:
    """What :meth:`Daemon.start` reports: where the API listens, its token, what recovery did."""

    host: str
    port: int
    token: str
    recovery: RecoveryReport
    created: list[int] = field(default_factory=list)


class Daemon:
    """Everything ``duelclock run`` runs. Use :meth:`add_device` before :meth:`start`."""

    def __init__(
        self,
        db: str | Path,
        *,
        tables: Sequence[TableSpec] = (),
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        boot_id: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        grace_ns: int = DEFAULT_GRACE_NS,
        snapshot_every: int = 20_000,
        components: Sequence[Component] | None = None,
        use_snapshots: bool = True,
        write_daemon_info: bool = True,
        max_backlog_bytes: int | None = None,
        hall: str = DEFAULT_HALL,
        limits: ServerLimits | None = None,
        tls_cert: str | Path | None = None,
        tls_key: str | Path | None = None,
    ) -> None:
        self.db = Path(db)
        self.hall = check_hall(hall)
        self.table_specs = list(tables)
        self.host = host
        self.port = port
        self.boot_id = boot_id or current_boot_id()
        self.clock = clock
        self.grace_ns = grace_ns
        self.snapshot_every = snapshot_every
        if components is None:
            from clockd.service.compose import default_components

            components = default_components()
        self.extra_components = list(components)
        self.use_snapshots = use_snapshots
        self.write_daemon_info = write_daemon_info
        self.max_backlog_bytes = max_backlog_bytes
        self.limits = limits
        #: Serve TLS with this certificate and key (``--tls-cert``/``--tls-key``): read at start.
        self.tls_cert = None if tls_cert is None else Path(tls_cert).absolute()
        self.tls_key = None if tls_key is None else Path(tls_key).absolute()
        self._devices: dict[int, TableDevice] = {}
        self._hands: dict[int, Callable[[str], object]] = {}
        self.journal: Journal | None = None
        self.engine: Engine | None = None
        self.server: ApiServer | None = None
        self.token = ""

    def add_device(self, table: int, device: TableDevice) -> None:
        if table in self._devices:
            raise ValueError(f"table {table} already has a device")
        self._devices[table] = device

    def add_hand(self, table: int, press: Callable[[str], object]) -> None:
        """Let ``duelclock sim press TABLE SIDE`` press simulated table ``table``'s button: ``press``
        presses side ``a``/``b`` on its simulated device (the farm's, on the device's own wire)."""
        self._hands[table] = press

    def start(self) -> Started:
        if self.write_daemon_info:
            private_folder(state_dir(), holds=HOLDS_TOKEN)
        self.journal = Journal(self.db)
        try:
            # The journal keeps only the token's hash; daemon.json keeps the token (clockd/store/token.py).
            remembered = read_info() if self.write_daemon_info else None
            self.token = referee_token(self.journal, remembered.token if remembered else None, new_token)
            self.engine = Engine(
                self.journal,
                boot_id=self.boot_id,
                tables=Tables(grace_ns=self.grace_ns),
                components=self.extra_components,
                clock=self.clock,
                snapshot_every=self.snapshot_every,
                hall=self.hall,
            )
            report = self.engine.recover(use_snapshots=self.use_snapshots)
            existing = self.engine.tables.view()
            missing = [s for s in self.table_specs if s.table not in existing]
            self.engine.apply_now(
                [
                    TableCreated(table=s.table, label=s.label or str(s.table), control=s.control)
                    for s in missing
                ]
            )
            for table in self._devices:
                if table not in self.engine.tables.view():
                    raise ValueError(f"a device is configured for table {table}, which does not exist")
            sinks = {table: self.engine.attach(table, device) for table, device in self._devices.items()}
            tls = tls_server_context(self.tls_cert, self.tls_key) if self.tls_cert is not None else None
            self.engine.start()
            self.server = ApiServer(
                self.engine,
                token=self.token,
                host=self.host,
                port=self.port,
                max_backlog_bytes=self.max_backlog_bytes,
                limits=self.limits,
                tls=tls,
            )
            self.server.ctx.hands.update(self._hands)
            self.port = self.server.start()
            for table, device in self._devices.items():
                device.start(sinks[table])
        except BaseException:
            self.stop()
            raise
        if self.write_daemon_info:
            write_info(
                DaemonInfo(
                    host=self.host,
                    port=self.port,
                    token=self.token,
                    pid=os.getpid(),
                    db=str(self.db.absolute()),  # `journal verify` finds it from any folder
                    tls_cert=None if self.tls_cert is None else str(self.tls_cert),
                )
            )
        return Started(
            host=self.host,
            port=self.port,
            token=self.token,
            recovery=report,
            created=[s.table for s in missing],
        )

    def stop(self) -> None:
        for device in self._devices.values():
            try:
                device.stop()
            except Exception:
                log.exception("a device did not stop cleanly")
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.engine is not None:
            self.engine.stop()
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        if self.write_daemon_info:
            mark_stopped(os.getpid())  # kept: its token is the one the next start takes back

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Block until the engine stops (it only stops on :meth:`stop` or a journal failure)."""
        return self.engine is not None and self.engine.wait(timeout_ms)
