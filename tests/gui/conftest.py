"""GUI tests: real Qt widgets, offscreen, with the bundled fonts and a chosen language.

The settings file goes to a temporary folder, so a test never reads or changes the
referee's real settings. Each test that builds a window gets the language it asks for
(``lang`` fixture, Polish by default, as users get).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui import style, translations


@pytest.fixture(autouse=True)
def _gui_env(qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    style.load_fonts()
    translations.install("pl")
    yield
    translations.install("en")


@pytest.fixture
def english() -> None:
    translations.install("en")


class FakeDaemon:
    """A small server on a local socket speaking the daemon's wire protocol (docs/api.md).

    It is the far side of the GUI's real client: newline-delimited JSON over TCP; it answers
    ``subscribe`` (then pushes whatever the test sends with :meth:`push`), ``timeline`` and
    ``status``, and every other request with ``done`` — or ``unauthorized`` without the right
    token, as the daemon does. Every request is kept, as the raw JSON object received, so a
    test sees exactly what went over the wire.
    """

    def __init__(self, token: str = "s3cret-token", tables: list[dict[str, Any]] | None = None) -> None:
        self.token = token
        self.tables = {t["table"]: t for t in (tables or [])}
        self.timelines: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[dict[str, Any]] = []
        self.subscribers: list[socket.socket] = []
        self.lock = threading.Lock()
        self.seq = 100
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.connections.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _send(self, conn: socket.socket, obj: dict[str, Any]) -> None:
        obj.setdefault("v", 1)
        with contextlib.suppress(OSError):
            conn.sendall(json.dumps(obj).encode() + b"\n")

    def _serve(self, conn: socket.socket) -> None:
        buffer = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.strip():
                    self._handle(conn, json.loads(line))

    def _handle(self, conn: socket.socket, req: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append(req)
            self.seq += 1
            seq = self.seq
        rid = req.get("id")
        kind = req.get("type")
        if kind == "subscribe":
            self._send(conn, {"type": "subscribed", "id": rid, "seq": seq})
            for view in list(self.tables.values()):
                self._send(conn, {"type": "table-state", "table": view})
            with self.lock:
                self.subscribers.append(conn)
        elif kind == "timeline":
            entries = self.timelines.get(req["table"], [])
            self._send(
                conn,
                {
                    "type": "timeline",
                    "id": rid,
                    "table": req["table"],
                    "entries": entries,
                    "last_seq": entries[-1]["seq"] if entries else 0,
                },
            )
        elif kind == "status":
            self._send(conn, {"type": "status", "id": rid, "seq": seq, "tables": list(self.tables.values())})
        elif kind == "ping":
            self._send(conn, {"type": "pong", "id": rid, "api": 1, "version": "fake"})
        elif req.get("token") != self.token:
            self._send(
                conn,
                {
                    "type": "error",
                    "id": rid,
                    "code": "unauthorized",
                    "message": f"{kind!r} changes state and needs the referee's token",
                },
            )
        else:
            self._send(conn, {"type": "done", "id": rid, "seq": seq, "table": None})

    def push(self, obj: dict[str, Any]) -> None:
        """Send one push to every subscriber (e.g. a table's new state after a press)."""
        with self.lock:
            subscribers = list(self.subscribers)
        for conn in subscribers:
            self._send(conn, dict(obj))

    def set_table(self, view: dict[str, Any]) -> None:
        self.tables[view["table"]] = view
        self.push({"type": "table-state", "table": view})

    def requests_of(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r for r in self.requests if r.get("type") == kind]

    def drop_subscribers(self) -> None:
        """As the daemon does to a subscriber that reads too slowly: close its connection."""
        with self.lock:
            subscribers, self.subscribers = self.subscribers, []
        for conn in subscribers:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def close(self) -> None:
        self._closed = True
        self.server.close()
        with self.lock:
            for conn in self.connections:
                with contextlib.suppress(OSError):
                    conn.close()


def table_view(table: int, **kw: Any) -> dict[str, Any]:
    """A table view as the daemon sends it (docs/api.md, "The table view")."""
    view: dict[str, Any] = {
        "table": table,
        "label": f"Stolik {table}",
        "control": "10m",
        "phase": "ready",
        "remaining_ms": {"a": 600_000, "b": 600_000},
        "display": {"a": "10:00", "b": "10:00"},
        "running": None,
        "to_move": None,
        "moves": {"a": 0, "b": 0},
        "ignored": {"a": 0, "b": 0},
        "elapsed_ms": {"a": 0, "b": 0},
        "paused_ms": 0,
        "flag": None,
        "flag_decided": False,
        "presses": 0,
        "device": {"state": "connected", "device_id": f"SIM-{table}", "detail": ""},
        "alerts": [],
        "seq": 1,
        "digest": "0" * 20,
    }
    view.update(kw)
    return view


@pytest.fixture
def fake_daemon() -> Iterator[FakeDaemon]:
    daemon = FakeDaemon(tables=[table_view(1), table_view(2), table_view(3)])
    yield daemon
    daemon.close()


@pytest.fixture(name="table_view")
def _table_view() -> Any:
    return table_view
