"""Serving the web pages with uvicorn: in the foreground (``duelclock web``) or in a thread
beside the daemon (``duelclock run --web HOST:PORT``), and the address with its QR code."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

import segno
import uvicorn

from web.app import WebSettings, create_app


def public_url(host: str, port: int, *, tls: bool = False) -> str:
    """The address phones in the hall open: this machine's address on the network for ``0.0.0.0``."""
    shown = host
    if host in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
                shown = s.getsockname()[0]
        except OSError:
            shown = "127.0.0.1"
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"{'https' if tls else 'http'}://{shown}:{port}/"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with text blocks, for a terminal (segno: pure Python, no images).

    The *light* modules are the blocks, as ``qrencode -t UTF8`` draws them: on a terminal's
    dark background the code then reads dark-on-light, as printed ones do.
    """
    qr = segno.make(url, error="m")
    rows = [[not v for v in row] for row in qr.matrix_iter(scale=1, border=2)]
    out = []
    for top, bottom in zip(rows[::2], [*rows[1::2], [False] * len(rows[0])], strict=False):
        out.append(
            "".join(
                {(1, 1): "█", (1, 0): "▀", (0, 1): "▄", (0, 0): " "}[(int(a), int(b))]
                for a, b in zip(top, bottom, strict=True)
            )
        )
    return "\n".join(out)


def config(
    settings: WebSettings, host: str, port: int, *, ssl_cert: str | None = None, ssl_key: str | None = None
) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ssl_certfile=ssl_cert,
        ssl_keyfile=ssl_key,
        timeout_graceful_shutdown=2,
        limit_concurrency=4096,
        backlog=2048,
    )


class WebServer(uvicorn.Server):
    """uvicorn, which ends the open pages' streams first when it stops (else it would wait for
    them, then cancel them)."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.close_pages()
        super().handle_exit(sig, frame)

    def close_pages(self) -> None:
        hub = getattr(getattr(self.config.app, "state", None), "hub", None)
        loop = getattr(hub, "_loop", None)
        if hub is not None and loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(hub.close_pages)


class Background:
    """uvicorn in a thread of its own (beside the daemon in ``duelclock run --web``)."""

    def __init__(self, cfg: uvicorn.Config) -> None:
        self.server = WebServer(cfg)
        self.thread = threading.Thread(target=self.server.run, name="duelclock-web", daemon=True)

    def start(self, timeout_s: float = 10.0) -> bool:
        self.thread.start()
        deadline = threading.Event()
        for _ in range(int(timeout_s * 20)):
            if self.server.started or not self.thread.is_alive():
                break
            deadline.wait(0.05)
        return bool(self.server.started)

    def port(self) -> int:
        servers: Any = getattr(self.server, "servers", [])
        for s in servers:
            for sock in s.sockets:
                return int(sock.getsockname()[1])
        return int(self.server.config.port)

    def stop(self) -> None:
        self.server.close_pages()
        self.server.should_exit = True
        self.thread.join(10)
