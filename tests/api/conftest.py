"""A running daemon (real journal, real TCP server, in-process simulated players) for API tests."""

from __future__ import annotations

import random
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.core.units import MS
from clockd.service.runtime import Daemon, TableSpec
from clockd.service.simclock import SimulatedClocks


class RawClient:
    """A bare TCP client: sends exactly the bytes a test gives, reads raw lines."""

    def __init__(self, port: int, *, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def line(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def start_daemon(tmp_path: Path) -> Iterator[Callable[..., Daemon]]:
    """Start a daemon on a free port with ``tables`` simulated tables; players think ``think_ms``."""
    started: list[tuple[Daemon, SimulatedClocks]] = []

    def start(
        *, tables: int = 2, think_ms: tuple[int, int] = (200, 600), players: bool = True, **kwargs: Any
    ) -> Daemon:
        daemon = Daemon(
            tmp_path / "journal.db",
            tables=[TableSpec(t, control="10m") for t in range(1, tables + 1)],
            port=0,
            write_daemon_info=False,
            **kwargs,
        )
        lo, hi = think_ms
        sims = SimulatedClocks(
            lambda rng: rng.randint(lo, hi) * MS, seed=random.randrange(1000), start_delay_ns=20 * MS
        )
        if players:
            for t in range(1, tables + 1):
                daemon.add_device(
                    t,
                    sims.device(t, phase_of=lambda t=t: daemon.engine.current.tables[t].program.clock.phase),
                )
        daemon.start()
        started.append((daemon, sims))
        daemon.sims = sims  # type: ignore[attr-defined]
        return daemon

    yield start
    for daemon, sims in started:
        daemon.stop()
        sims.stop()


@pytest.fixture
def raw_client() -> Iterator[Callable[..., RawClient]]:
    made: list[RawClient] = []

    def make(port: int, **kwargs: Any) -> RawClient:
        client = RawClient(port, **kwargs)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
