"""A real daemon with a Puzzle Duel session and a chess group, and the web pages served beside it.

The daemon journals to a real SQLite file; its tables are test devices that press on
demand (``press``); the session is the showcase's (sample sign-ups: people with surnames,
e-mails and phones, which must never reach a public page); the chess group's roster has
birth dates and parents' e-mails. The web server is uvicorn in a thread, on a free port.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.cli.start import sample_signups, set_up_showcase
from clockd.core import tomltext
from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import PairRound
from clockd.core.clock import Side
from clockd.service.runtime import Daemon, TableSpec
from tests.chessday.conftest import config as chess_config
from tests.service.conftest import RecordingDevice
from web.access import AccessFile, Lockout
from web.app import WebSettings
from web.serve import Background
from web.serve import config as web_config

TABLES = (1, 2, 3, 4)
SESSION = "pokaz"
GROUP = "sp3-ch"


@dataclass
class Desk:
    daemon: Daemon
    devices: dict[int, RecordingDevice]
    client: Client
    token: str
    port: int
    access: AccessFile

    def press(self, table: int, side: Side) -> None:
        self.devices[table].press(side, time.monotonic_ns())

    def settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(10)

    def event(self, key: str) -> Any:
        return self.client.events([key]).events[0]


def private_words() -> list[str]:
    """Every surname, e-mail and phone of the sample sign-ups (the private part of the import)."""
    words: list[str] = []
    for row in sample_signups().splitlines()[1:]:
        cells = row.split(";")
        words += [cells[2], cells[3], cells[4]]
    return [w for w in words if w]


def make_desk(tmp_path: Path, *, paired: bool = True) -> Desk:
    """The hall: a puzzle-duel showcase and the chess group ``GROUP`` (11 players, 3 rounds,
    boards from 21), its round 1 paired unless ``paired`` is false (the group's round 0)."""
    daemon = Daemon(
        tmp_path / "hall.db",
        tables=[TableSpec(t, f"Stolik {t}") for t in TABLES],
        port=0,
        boot_id="web-test",
        write_daemon_info=False,
    )
    devices = {t: RecordingDevice(t) for t in TABLES}
    for t, d in devices.items():
        daemon.add_device(t, d)
    started = daemon.start()
    client = Client("127.0.0.1", started.port, started.token, by="Sędzia")
    set_up_showcase(client, tables=2)
    cfg = chess_config(11, rounds=3, first_board=21)
    text = tomltext.dumps(cfg.model_dump(mode="json", exclude_defaults=True))
    client.act("", CreateEvent(event_kind="chess", key=GROUP, config_toml=text))
    if paired:
        client.act(GROUP, PairRound(round=1))
    return Desk(
        daemon, devices, client, started.token, started.port, AccessFile(tmp_path / "web-access.json")
    )


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desk]:
    d = make_desk(tmp_path_factory.mktemp("desk"))
    yield d
    d.client.close()
    d.daemon.stop()


@dataclass
class Web:
    url: str
    server: Background
    settings: WebSettings


def serve(desk: Desk, **kw: Any) -> Web:
    settings = WebSettings(
        daemon_host="127.0.0.1",
        daemon_port=desk.port,
        token=desk.token,
        access=desk.access.path,
        lockout=Lockout(),
        **kw,
    )
    server = Background(web_config(settings, "127.0.0.1", 0))
    assert server.start(), "the web server did not start"
    url = f"http://127.0.0.1:{server.port()}"
    hub = server.server.config.app.state.hub  # type: ignore[union-attr]
    assert hub.wait_ready(10)
    return Web(url, server, settings)


@pytest.fixture(scope="module")
def web(desk: Desk) -> Iterator[Web]:
    w = serve(desk)
    yield w
    w.server.stop()
