"""Serving the web pages with uvicorn: in the foreground (``duelclock web``) or in a thread
beside the daemon (``duelclock run --web HOST:PORT``), and the address with its QR code.

**The web port cannot take the process down** (issue 29, item 3). Beside the daemon the pages
share its file descriptors with the referee's API and the journal: 1 100 idle connections to
the web port once used every one of the 1 024, and the referee's pings got no answer. So
(:class:`WebLimits`):

* a connection that has not sent a whole request within ``request_timeout_s`` of opening (or
  of its last answer) is closed: an idle one, or one that sends its headers a byte at a time;
  a page's open stream is an answer in progress, not idle (its writes have their own timeout,
  :mod:`web.stream`);
* at most :func:`connection_cap` connections are open at once — below the process's file
  limit by a ``reserve`` for the API, the journal and the devices. At the cap the server takes
  no more from the kernel's queue (:class:`Gate`): they wait there, holding no descriptor of
  this process and costing it nothing, until one closes;
* the process asks for a file limit that fits (:func:`raise_file_limit`) and the commands say
  when the system allows less.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import resource
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
import segno
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from web.app import WebSettings, create_app

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebLimits:
    """What the web port may cost the process (docs/architecture.md, the limits table)."""

    #: Open connections at most, whatever the file limit (a hall's phones, each page one stream).
    max_connections: int = 4096
    #: A connection must have sent a whole request this long after opening or its last answer
    #: (a TLS handshake too).
    request_timeout_s: float = 10.0
    #: Connections taken from the kernel's queue in one turn of the loop.
    accept_batch: int = 64
    #: Connections the kernel may queue before they are taken (they hold no descriptor of ours).
    listen_backlog: int = 2048
    #: Descriptors kept for the rest of the process (the journal, logs, the hub's link, pipes).
    own_files: int = 64


def file_limit() -> int:
    """The process's soft limit on open files (``RLIMIT_NOFILE``)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_file_limit(wanted: int) -> int:
    """Raise the soft file limit towards ``wanted`` as far as the hard limit allows; the limit now.

    The usual soft limit is 1 024 while the hard one is far higher (systemd's default hard limit
    is 524 288): a process that needs more may simply ask.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return file_limit()


def connection_cap(limits: WebLimits, reserve: int, files: int | None = None) -> int:
    """How many web connections may be open at once: ``files`` (the file limit) less ``reserve``
    (what else in the process needs descriptors) and ``own_files``; at least 16."""
    files = file_limit() if files is None else files
    return max(16, min(limits.max_connections, files - reserve - limits.own_files))


def files_wanted(limits: WebLimits, reserve: int) -> int:
    """The file limit at which the cap is ``max_connections``."""
    return limits.max_connections + reserve + limits.own_files


@dataclass
class PortStats:
    """What the web port did to protect the process (``/healthz`` shows them)."""

    cap: int = 0
    open: int = 0
    full: int = 0  # times the cap was reached (the kernel's queue waited meanwhile)
    timed_out: int = 0  # no whole request within request_timeout_s


class WebConfig(uvicorn.Config):
    """uvicorn's configuration with the port's limits (its protocol and gate read them)."""

    limits: WebLimits
    cap: int
    port_stats: PortStats
    gate: Gate | None = None


class Gate:
    """Takes connections from the listening sockets while fewer than ``cap`` are open.

    It stands in for asyncio's own accept loop (which takes whatever the kernel has queued,
    up to the descriptors' end): at the cap it stops reading the listening sockets, so new
    connections wait in the kernel's queue, and it starts again when one closes. Each
    connection taken is handed to uvicorn's protocol with ``loop.connect_accepted_socket``.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        listeners: list[socket.socket],
        factory: Callable[[], asyncio.Protocol],
        cfg: WebConfig,
        is_open: Callable[[], int],
    ) -> None:
        self.loop, self.listeners, self.factory, self.cfg = loop, listeners, factory, cfg
        self.is_open = is_open
        self.pending = 0  # taken, not yet handed to the protocol
        self.reading = False
        self.closed = False

    def start(self) -> None:
        self._read(True)

    def close(self) -> None:
        self._read(False)
        self.closed = True
        for sock in self.listeners:
            sock.close()

    def count(self) -> int:
        return self.is_open() + self.pending

    def _read(self, on: bool) -> None:
        if on == self.reading or self.closed:
            return
        self.reading = on
        for sock in self.listeners:
            if on:
                self.loop.add_reader(sock.fileno(), self._accept, sock)
            else:
                self.loop.remove_reader(sock.fileno())

    def room(self) -> None:
        """A connection closed (or was not made): read the listening sockets again if there is room."""
        if not self.reading and self.count() < self.cfg.cap:
            self._read(True)

    def _accept(self, listener: socket.socket) -> None:
        for _ in range(self.cfg.limits.accept_batch):
            if self.count() >= self.cfg.cap:
                self.cfg.port_stats.full += 1
                self._read(False)
                return
            try:
                sock, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno == errno.ECONNABORTED:
                    continue
                # out of descriptors or memory after all: wait a moment, as asyncio itself does
                log.warning("web: cannot take a connection (%s); trying again in a second", exc)
                self._read(False)
                self.loop.call_later(1.0, self.room)
                return
            sock.setblocking(False)
            self.pending += 1
            self.loop.create_task(self._hand_over(sock))

    async def _hand_over(self, sock: socket.socket) -> None:
        tls = self.cfg.ssl
        try:
            await self.loop.connect_accepted_socket(
                self.factory,
                sock,
                ssl=tls,
                ssl_handshake_timeout=self.cfg.limits.request_timeout_s if tls is not None else None,
            )
        except (OSError, ssl.SSLError, TimeoutError, ConnectionError):
            sock.close()
        finally:
            self.pending -= 1
            self.room()


class LimitedHttp(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the request timeout (module docstring), which tells
    the :class:`Gate` when a connection closes."""

    def __init__(self, config: WebConfig, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.web_config = config
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.web_config.port_stats.open = len(self.connections)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)
        cfg = self.web_config
        cfg.port_stats.open = len(self.connections)
        if cfg.gate is not None:
            cfg.gate.room()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request has the same time to arrive whole

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.web_config.limits.request_timeout_s, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.DONE or self.transport.is_closing():
            return  # a whole request arrived: it is being answered (a page's stream, for instance)
        self.web_config.port_stats.timed_out += 1
        self.transport.close()


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
    settings: WebSettings,
    host: str,
    port: int,
    *,
    ssl_cert: str | None = None,
    ssl_key: str | None = None,
    limits: WebLimits | None = None,
    reserve: int = 0,
) -> WebConfig:
    """uvicorn's configuration for the pages; ``reserve``: the descriptors the rest of the
    process needs (the daemon's API beside it), kept out of the web's cap."""
    limits = limits or WebLimits()
    cfg = WebConfig(
        create_app(settings),
        host=host,
        port=port,
        http=LimitedHttp,
        log_level="warning",
        access_log=False,
        ssl_certfile=ssl_cert,
        ssl_keyfile=ssl_key,
        timeout_graceful_shutdown=2,
        limit_concurrency=None,  # the cap is the Gate's, counted in connections
        backlog=limits.listen_backlog,
        loop="asyncio",  # the Gate reads the listening sockets through the selector loop
    )
    cfg.limits = limits
    cfg.cap = connection_cap(limits, reserve)
    cfg.port_stats = PortStats(cap=cfg.cap)
    app_state = getattr(cfg.app, "state", None)
    if app_state is not None:
        app_state.port_stats = cfg.port_stats
    return cfg


class WebServer(uvicorn.Server):
    """uvicorn, which ends the open pages' streams first when it stops (else it would wait for
    them, then cancel them)."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.close_pages()
        super().handle_exit(sig, frame)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        cfg = self.config
        if not isinstance(cfg, WebConfig) or not self.started:
            return
        # asyncio's accept loop out, the Gate in (on copies of the listening sockets: uvicorn
        # closes its own at the stop, the Gate its copies)
        loop = asyncio.get_running_loop()
        listeners = []
        for server in self.servers:
            for sock in server.sockets:
                loop.remove_reader(sock.fileno())
                copy = sock.dup()
                copy.setblocking(False)
                listeners.append(copy)
        state = self.server_state

        def factory() -> asyncio.Protocol:  # what uvicorn's own startup makes for each connection
            return cfg.http_protocol_class(  # type: ignore[call-arg]
                config=cfg, server_state=state, app_state=self.lifespan.state
            )

        cfg.gate = Gate(loop, listeners, factory, cfg, lambda: len(state.connections))
        cfg.gate.start()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        gate = getattr(self.config, "gate", None)
        if gate is not None:
            gate.close()
        await super().shutdown(sockets)

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
