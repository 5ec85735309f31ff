"""The API server: newline-delimited JSON over TCP (or TLS), on an asyncio loop in its own thread.

Why a separate thread with asyncio: many clients (a referee window, an audience screen,
``duelclock status`` calls, a crash test) sit mostly idle on sockets, which is what an
event loop is for; and running it beside the engine's thread means no client — however
slow, stuck or hostile — can delay a press reaching the journal. The engine hands each
committed batch over with ``loop.call_soon_threadsafe`` (never blocks), and the loop
never blocks on a client.

**Nothing private without the token.** A connection that has sent a request carrying the
right token is the referee's (*trusted*); every reply and push to any other connection goes
through :func:`clockd.core.private.public_data`, which drops every field marked private (a
session's refused sign-ups …), and timeline entries never carry personal data at all.

**Hostile clients** (``docs/architecture.md``, "The API under hostile clients"): every limit is
in :class:`ServerLimits`. In short —

* requests on one connection are answered one at a time, in order: the next line is read
  only once the reply is written and drained, so a connection has one request in flight and
  a client that does not read its replies stalls only itself (and is dropped after
  ``idle_timeout_s``);
* connections without the token are *paced*: each may send ``public_rate`` requests a
  second, and all of them together may use ``public_work`` seconds of the loop's time a
  second (a request's cost: the loop's time for it and its worker threads' CPU time, never
  its waits); turns are dealt address by address, at most ``public_at_once`` carried out at
  once; the loop yields after every request, so connections take turns; the referee's
  (trusted) requests are never paced;
* a tokenless connection that closes while its request waits for a turn gives its place up
  at once: its requests still waiting are dropped, its memory goes with it;
* at most ``max_clients`` connections without the token, ``max_subscribers`` of them
  subscribed; the referee always has ``max_referee_clients`` more: when the public slots are
  full, a new connection is admitted only if its first request carries the token;
* a connection without the token that sends no request for ``idle_timeout_s`` (and is not
  subscribed) is closed; so is one whose reply cannot be delivered in that time;
* a tokenless request line is at most ``public_line_bytes`` unless it holds one of
  ``big_lines`` slots (a sign-up file sent on a fresh connection); the referee's up to
  ``MAX_LINE_BYTES``; a longer one is refused (``too-large``) and skipped up to its newline;
* a subscriber whose unsent output grows beyond ``max_backlog_bytes`` (without the token:
  ``public_backlog_bytes``) beyond the whole state it was sent on subscribing is
  disconnected, never waited for (it may reconnect: a new
  subscription starts with every table's full state); when the output held for every
  connection together passes ``total_backlog_bytes`` (the strangers' replies and pushes:
  ``public_output_bytes``), the largest strangers' backlogs go first;
* memory a connection held is returned to the system when connections close.

Malformed, unknown or invalid requests get an ``error`` reply and change nothing; a
mutating request without the right token is refused (``unauthorized``) before its handler
runs; a reply that cannot be written (it would not be UTF-8) is replaced by an error.

Pushes come from *broadcasters* (:func:`~clockd.service.broadcast.register_broadcaster`): the
built-in ones send ``table-state`` for each changed table, ``timeline-entry`` for each journaled record,
``event-state`` for each changed event and ``signal`` for each hall signal.

This module is the server itself: its thread and loop, admission, reading and answering
lines, and fanning pushes out. Apart, each a piece it uses: the limits and counts
(:mod:`clockd.service.server_limits`, ``ServerLimits`` re-exported here, where the
runtime, the CLI and the tests import it), the broadcasters (:mod:`clockd.service.broadcast`),
the tokenless requests' pacing (:mod:`clockd.service.pacing`) and what the server keeps of
a connection and a subscriber (:mod:`clockd.service.connection`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import hmac
import json
import logging
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from pathlib import Path

from clockd.api.messages import (
    DEFAULT_PORT,
    ApiError,
    ErrorReply,
    Message,
    Reply,
    Request,
    Subscribe,
    Subscribed,
    parse_request,
)
from clockd.core.private import private_paths, public_data
from clockd.i18n import Msg, Problem, msg, render
from clockd.service.broadcast import BROADCASTERS
from clockd.service.connection import Connection, Reader, Subscriber
from clockd.service.engine import Batch, Engine, EngineStopped
from clockd.service.handlers import OFF_LOOP, Context, OffLoop, handler_for
from clockd.service.pacing import Bucket, Turns
from clockd.service.server_limits import ServerLimits, ServerStats

log = logging.getLogger(__name__)

__all__ = ["ApiServer", "ServerLimits", "ServerStats", "public_line", "tls_server_context"]


@dataclass(frozen=True)
class _TooLarge:
    """A request line over the limit that applied to it (skipped up to its newline)."""

    limit: int


def tls_server_context(cert: str | Path, key: str | Path | None = None) -> ssl.SSLContext:
    """The daemon's TLS: ``cert`` (PEM, the chain if any) and its private ``key`` (PEM; default:
    in ``cert``), TLS 1.2 at least. Raises :class:`OSError` if a file cannot be read and
    :class:`ssl.SSLError` if they are no certificate and key, or not a pair."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), None if key is None else str(key))
    return context


def public_line(message: Message) -> bytes:
    """``message`` as a line for a client without the token: every private field dropped."""
    if not private_paths(message):
        return message.to_line()
    data = public_data(message)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _trim_memory() -> None:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim``; elsewhere
    nothing)."""
    if not _MALLOC_TRIM:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _MALLOC_TRIM.append(libc.malloc_trim)
        except (OSError, AttributeError):
            _MALLOC_TRIM.append(lambda pad: 0)
    _MALLOC_TRIM[0](0)


_MALLOC_TRIM: list[Callable[[int], int]] = []


class ApiServer:
    """Serves the API for ``engine`` on ``host:port`` (``port=0``: any free port).

    ``tls``: an :class:`ssl.SSLContext` to serve TLS instead of clear TCP. ``limits``: the
    policy towards clients (:class:`ServerLimits`); ``max_backlog_bytes``, ``max_clients``
    and ``max_line_bytes`` override single limits.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        token: str,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        limits: ServerLimits | None = None,
        tls: ssl.SSLContext | None = None,
        max_line_bytes: int | None = None,
        max_backlog_bytes: int | None = None,
        max_clients: int | None = None,
    ) -> None:
        if not token:
            raise ValueError("the API needs a token for state-changing requests")
        limits = limits or ServerLimits()
        overrides = {
            name: value
            for name, value in (
                ("max_line_bytes", max_line_bytes),
                ("max_backlog_bytes", max_backlog_bytes),
                ("max_clients", max_clients),
            )
            if value is not None
        }
        self.limits = replace(limits, **overrides) if overrides else limits
        self.engine = engine
        self.token = token
        self.host = host
        self.port = port
        self.tls = tls
        self.stats = ServerStats()
        self.ctx = Context(engine)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.base_events.Server | None = None
        self._subscribers: set[Subscriber] = set()
        self._connections: set[Connection] = set()
        self._public = 0  # admitted connections without the token
        self._referee = 0  # admitted connections with it
        self._work = Turns(
            Bucket(self.limits.public_work, self.limits.public_work_burst), self.limits.public_at_once
        )
        self._big_lines: asyncio.Semaphore | None = None
        self._trim_pending = False
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None

    @property
    def max_line_bytes(self) -> int:
        return self.limits.max_line_bytes

    @max_line_bytes.setter
    def max_line_bytes(self, value: int) -> None:
        self.limits = replace(self.limits, max_line_bytes=value)

    @property
    def max_backlog_bytes(self) -> int:
        return self.limits.max_backlog_bytes

    @max_backlog_bytes.setter
    def max_backlog_bytes(self, value: int) -> None:
        self.limits = replace(self.limits, max_backlog_bytes=value)

    @property
    def max_clients(self) -> int:
        return self.limits.max_clients

    @max_clients.setter
    def max_clients(self, value: int) -> None:
        self.limits = replace(self.limits, max_clients=value)

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> int:
        """Start listening; returns the port. Raises ``OSError`` (e.g. the port is taken)."""
        self._thread = threading.Thread(target=self._run, name="clockd-api", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._startup_error is not None:
            raise self._startup_error
        self.engine.add_listener(self._on_batch)
        return self.port

    def stop(self) -> None:
        loop = self._loop
        if loop is None or self._thread is None:
            return
        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(5)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(loop.stop)
        self._thread.join(5)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._big_lines = asyncio.Semaphore(self.limits.big_lines)
        try:

            def protocol() -> asyncio.Protocol:  # asyncio.start_server's, with a reader that says "gone"
                reader = Reader(limit=64 << 10)  # what it buffers before it stops reading
                return asyncio.StreamReaderProtocol(reader, self._serve)

            self._server = loop.run_until_complete(
                loop.create_server(
                    protocol,
                    self.host,
                    self.port,
                    ssl=self.tls,
                    ssl_handshake_timeout=self.limits.first_line_timeout_s * 2 if self.tls else None,
                    backlog=512,
                )
            )
            self.port = self._server.sockets[0].getsockname()[1]
        except BaseException as exc:
            self._startup_error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for conn in list(self._connections):
            conn.writer.close()
        self._subscribers.clear()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:  # every connection's task ends here, not destroyed pending with the loop
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)

    # -- pushes -------------------------------------------------------------------------------------
    def _on_batch(self, batch: Batch) -> None:
        """Engine thread: hand the batch to the loop, never wait."""
        loop = self._loop
        if loop is not None and self._subscribers:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self._fanout, batch)

    def _fanout(self, batch: Batch) -> None:
        subscribers = list(self._subscribers)
        if not subscribers:
            return
        out: dict[Subscriber, list[bytes]] = {}
        for broadcaster in BROADCASTERS:
            try:
                pushes = list(broadcaster.changes(batch, self.ctx))
            except Exception:
                log.exception("a broadcaster failed")
                continue
            for push, topic in pushes:
                full: bytes | None = None
                public: bytes | None = None
                for sub in subscribers:
                    if not sub.wants(push, topic):
                        continue
                    if sub.private:
                        line = full = full or push.to_line()
                    else:
                        line = public = public or public_line(push)
                    out.setdefault(sub, []).append(line)
        for sub, lines in out.items():  # one write per subscriber and batch
            self._push(sub, b"".join(lines), len(lines))
        self._bound_backlog()

    def _push(self, sub: Subscriber, data: bytes, count: int = 1) -> None:
        transport = sub.writer.transport
        if transport.is_closing():
            self._subscribers.discard(sub)
            return
        limit = self.limits.max_backlog_bytes if sub.private else self.limits.public_backlog_bytes
        limit += sub.initial_bytes
        if transport.get_write_buffer_size() + len(data) > limit:
            self._drop(sub, "subscriber %s reads too slowly: disconnected")
            return
        sub.writer.write(data)
        self.stats.pushes += count

    def _drop(self, sub: Subscriber, why: str) -> None:
        log.warning(why, sub.peer)
        self.stats.dropped_subscribers += 1
        self._subscribers.discard(sub)
        sub.writer.transport.abort()
        self._trim_soon()

    def _bound_backlog(self) -> None:
        """Every connection's unsent output together stays under ``total_backlog_bytes``, and the
        strangers' under ``public_output_bytes``: the largest strangers' backlogs go first."""
        held = [(c.writer.transport.get_write_buffer_size(), c) for c in self._connections]
        total = sum(size for size, _ in held)
        public = sum(size for size, c in held if not c.trusted)
        limits = self.limits
        if total <= limits.total_backlog_bytes and public <= limits.public_output_bytes:
            return
        held.sort(key=lambda sc: (sc[1].trusted, -sc[0]))  # the tokenless first, the largest first
        for size, conn in held:
            over_public = public > limits.public_output_bytes and not conn.trusted
            if (total <= limits.total_backlog_bytes and not over_public) or size == 0:
                break
            total -= size
            if not conn.trusted:
                public -= size
            if conn.subscriber is not None:
                self._drop(conn.subscriber, "subscriber %s holds too much unsent output: disconnected")
            else:
                log.warning("client %s holds too much unsent output: disconnected", conn.peer)
                conn.writer.transport.abort()
                self._trim_soon()

    def _trim_soon(self) -> None:
        """Return freed memory to the system, once, a moment after connections went away."""
        loop = self._loop
        if loop is None or self._trim_pending or loop.is_closed():
            return
        self._trim_pending = True

        def trim() -> None:
            self._trim_pending = False
            _trim_memory()

        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_later(1.0, trim)

    # -- connections --------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        conn = Connection(writer=writer, peer=str(peername))
        conn.address = str(peername[0]) if isinstance(peername, tuple) and peername else conn.peer
        if isinstance(reader, Reader):
            conn.gone = reader.gone
        self.stats.connections += 1
        sock = writer.get_extra_info("socket")
        if sock is not None:  # what the kernel holds for a client that does not read: bounded too
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.socket_buffer_bytes)
        if self._public < self.limits.max_clients:
            conn.slot = "public"
            self._public += 1
        conn.bucket = Bucket(self.limits.public_rate, self.limits.public_rate)
        self._connections.add(conn)
        try:
            async for line in self._lines(reader, conn):
                started = time.perf_counter()
                # Read first (a line is at most public_line_bytes unless it holds a place), so that
                # the referee's first request on a new connection is never paced behind strangers.
                parsed = self._parse(line, conn)
                spent = time.perf_counter() - started  # the loop's time it costs (not its waits)
                reserved = 0.0
                if not conn.trusted:
                    turn = await self._pace(conn)
                    if turn is None:  # it closed while this waited: this and the rest go unanswered
                        self.stats.abandoned += 1
                        return
                    reserved = turn
                try:
                    if not await self._answer(parsed, conn, spent):
                        return
                finally:
                    if reserved:  # the turn ends: what it cost beyond the reservation is charged
                        self._work.done(conn.cost - reserved)
                await asyncio.sleep(0)  # the other connections' turn
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:  # the server stops: end as a closed connection would
            pass  # (a cancelled task here makes asyncio's stream callback raise, Python 3.11)
        finally:
            self._connections.discard(conn)
            if conn.subscriber is not None:
                self._subscribers.discard(conn.subscriber)
            if conn.slot == "referee":
                self._referee -= 1
            elif conn.slot == "public":
                self._public -= 1
            writer.close()
            self._trim_soon()

    async def _answer(self, parsed: Request | ErrorReply, conn: Connection, spent: float) -> bool:
        """Carry out one request and write its reply; whether the connection goes on. Its cost
        (``spent`` reading it, plus the loop's and the worker threads' time for it, not its
        waits) becomes ``conn.cost``, the next request's reservation."""
        writer = conn.writer
        started = time.perf_counter()
        off = OffLoop()
        context = OFF_LOOP.set(off)
        try:
            if isinstance(parsed, Request):
                reply: Reply | None = await self._handle(parsed, conn)
            else:
                reply = parsed
        finally:
            OFF_LOOP.reset(context)
        if conn.slot is None:  # the slots were full, and its first request had no token
            self.stats.refused_connections += 1
            writer.write(self._error(None, "unavailable", msg("api.too-many-clients")).to_line())
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(self.limits.first_line_timeout_s):
                    await writer.drain()
            return False
        if reply is not None:
            writer.write(self._reply_line(reply, conn))
        spent += time.perf_counter() - started - off.waited_s + off.cpu_s
        conn.cost = max(spent, 0.0001)
        if not conn.trusted and writer.transport.get_write_buffer_size():
            self._bound_backlog()  # what strangers' replies hold, unsent, is bounded too
        return await self._drained(conn)

    def _admit(self, conn: Connection) -> bool:
        """A connection that arrived while the public slots were full, after its first request."""
        if conn.trusted and self._referee < self.limits.max_referee_clients:
            conn.slot = "referee"
            self._referee += 1
            return True
        return False

    def _trust(self, conn: Connection) -> None:
        """``conn`` showed the token: it is the referee's from now on (and leaves the public slots)."""
        if conn.trusted:
            return
        conn.trusted = True
        if conn.subscriber is not None:
            conn.subscriber.private = True
        if conn.slot == "public" and self._referee < self.limits.max_referee_clients:
            conn.slot = "referee"
            self._public -= 1
            self._referee += 1

    async def _pace(self, conn: Connection) -> float | None:
        """Wait until a tokenless connection may send its next request (its rate, everyone's
        work, its address's turn); reserve what it is expected to cost (returned), so the others
        see it at once. ``None``: the connection closed meanwhile (nothing reserved)."""
        assert conn.bucket is not None
        waited = 0.0
        while (wait := conn.bucket.wait_s()) > 0:  # its own rate
            if conn.gone.is_set():
                return None
            waited += wait
            await asyncio.sleep(wait)
        conn.bucket.charge(1.0)
        turn = await self._work.turn(conn.address, conn.cost, conn.gone)  # its turn at everyone's budget
        if turn is None:
            return None
        self.stats.paced_s += waited + turn
        return conn.cost

    async def _drained(self, conn: Connection) -> bool:
        """Whether the connection's output went out in time (a tokenless one's within the idle
        timeout, or it is closed; the referee's are waited for)."""
        writer = conn.writer
        if conn.trusted:
            await writer.drain()
            return True
        try:
            async with asyncio.timeout(self.limits.idle_timeout_s):
                await writer.drain()
        except TimeoutError:
            self.stats.idle_closed += 1
            log.warning("client %s does not read its replies: disconnected", conn.peer)
            writer.transport.abort()
            return False
        return True

    def _timeout(self, conn: Connection) -> float | None:
        """How long to wait for the connection's next bytes (``None``: as long as it takes)."""
        now = time.monotonic()
        if conn.slot is None:
            return max(0.0, conn.opened + self.limits.first_line_timeout_s - now)
        if conn.trusted or conn.subscriber is not None:
            return None
        return max(0.0, conn.last_request + self.limits.idle_timeout_s - now)

    async def _read(self, reader: asyncio.StreamReader, conn: Connection) -> bytes:
        timeout = self._timeout(conn)
        if timeout is None:
            return await reader.read(65536)
        try:
            if timeout <= 0:
                raise TimeoutError
            async with asyncio.timeout(timeout):  # no inner task (wait_for's would outlive a closed loop)
                return await reader.read(65536)
        except TimeoutError:
            if conn.slot is None:
                self.stats.refused_connections += 1
                conn.writer.write(self._error(None, "unavailable", msg("api.too-many-clients")).to_line())
            else:
                self.stats.idle_closed += 1
            return b""

    async def _lines(
        self, reader: asyncio.StreamReader, conn: Connection
    ) -> AsyncIterator[bytes | _TooLarge]:
        """The connection's request lines (or :class:`_TooLarge` for one over its limit, skipped).

        A tokenless connection's line may grow beyond ``public_line_bytes`` only while it holds
        one of the ``big_lines`` slots (it waits for one, reading nothing meanwhile).
        """
        limits = self.limits
        big_lines = self._big_lines
        assert big_lines is not None
        buffer = bytearray()
        skipping = False
        big = False  # holds a big-line slot

        def limit() -> int:
            return limits.max_line_bytes if conn.trusted or big else limits.public_line_bytes

        try:
            while True:
                chunk = await self._read(reader, conn)
                if not chunk:
                    return
                buffer += chunk
                while True:
                    end = buffer.find(b"\n")
                    if end < 0:
                        if (
                            not skipping
                            and not conn.trusted
                            and not big
                            and limits.big_lines > 0
                            and len(buffer) > limits.public_line_bytes
                        ):
                            await big_lines.acquire()  # a long line from a stranger: a few at once
                            big = True
                        if len(buffer) > limit():
                            if not skipping:
                                yield _TooLarge(limit())
                            skipping = True
                            buffer.clear()
                            if big:
                                big_lines.release()
                                big = False
                        break
                    line = bytes(buffer[:end])
                    del buffer[: end + 1]
                    too_large = limit() if len(line) > limit() else 0
                    if big:
                        big_lines.release()
                        big = False
                    if skipping:
                        skipping = False  # the tail of the line already refused
                    elif too_large:
                        yield _TooLarge(too_large)
                    elif line.strip():
                        conn.last_request = time.monotonic()
                        yield line
                if not buffer:
                    buffer = bytearray()  # a long line's memory goes with it
        finally:
            if big:
                big_lines.release()

    def _reply_line(self, reply: Reply, conn: Connection) -> bytes:
        """The reply as the connection may see it; one that cannot be written becomes an error."""
        try:
            return reply.to_line() if conn.trusted else public_line(reply)
        except (ValueError, TypeError) as exc:  # e.g. text that is not UTF-8 (a lone surrogate)
            log.warning("a %s reply could not be written: %s", reply.type, exc)
            return self._error(None, "internal", msg("api.reply-unwritable", type=reply.type)).to_line()

    def _parse(self, line: bytes | _TooLarge, conn: Connection) -> Request | ErrorReply:
        """The request on ``line`` (its token, if right, makes the connection the referee's), or
        the error reply for a line that is none or may not be carried out."""
        self.stats.requests += 1
        if isinstance(line, _TooLarge):
            return self._error(None, "too-large", msg("api.line-too-large", limit=line.limit))
        try:
            request = parse_request(line)
        except ApiError as exc:
            return self._error(exc.request_id, exc.code, exc.reason)
        if request.token is not None and self._token_ok(request):
            self._trust(conn)
        elif request.mutating:
            code = "api.wrong-token" if request.token else "api.no-token"
            return self._error(request.id, "unauthorized", msg(code, type=request.type))
        return request

    async def _handle(self, request: Request, conn: Connection) -> Reply | None:
        if conn.slot is None and not self._admit(conn):
            return None  # the slots are full and it is not the referee's: refused by the caller
        if isinstance(request, Subscribe):
            return self._subscribe(request, conn)
        handler = handler_for(request)
        if handler is None:
            return self._error(request.id, "unknown-type", msg("api.no-handler", type=request.type))
        try:
            return await handler(self.ctx, request)
        except Problem as exc:  # Refused, or a core rule the handler met
            return self._error(request.id, "refused", exc.msg)
        except EngineStopped as exc:
            return self._error(request.id, "unavailable", msg("api.engine-stopped", problem=exc.msg))
        except ApiError as exc:
            return self._error(request.id, exc.code, exc.reason)
        except Exception as exc:
            log.exception("request %s failed", request.type)
            return self._error(
                request.id, "internal", msg("api.internal", problem=f"{type(exc).__name__}: {exc}")
            )

    def _token_ok(self, request: Request) -> bool:
        return request.token is not None and hmac.compare_digest(request.token.encode(), self.token.encode())

    def _subscribe(self, request: Subscribe, conn: Connection) -> Reply | None:
        current = self.ctx.current()
        if request.tables is not None:
            unknown = [t for t in request.tables if t not in current.tables]
            if unknown:
                reason = msg("table.unknown", table=unknown[0], known=sorted(current.tables))
                return self._error(request.id, "refused", reason)
        events = self.ctx.events(current)
        if request.events is not None:
            missing = [e for e in request.events if events is None or e not in events.events]
            if missing:
                known = list(events.order) if events is not None else []
                return self._error(request.id, "refused", msg("event.unknown", event=missing[0], known=known))
        if conn.subscriber is not None:  # one subscription per connection: the new one replaces it
            self._subscribers.discard(conn.subscriber)
            conn.subscriber = None
        if not conn.trusted:
            public = sum(1 for s in self._subscribers if not s.private)
            if public >= self.limits.max_subscribers:
                reason = msg("api.too-many-subscribers", limit=self.limits.max_subscribers)
                return self._error(request.id, "unavailable", reason)
        writer = conn.writer
        sub = Subscriber(
            writer=writer,
            tables=None if request.tables is None else frozenset(request.tables),
            events=None if request.events is None else frozenset(request.events),
            timeline=request.timeline,
            peer=conn.peer,
            private=conn.trusted,
        )
        # Reply and initial state are written in this one loop step, before any later batch.
        lines = [Subscribed(id=request.id, seq=current.seq).to_line()]
        for broadcaster in BROADCASTERS:
            for push, table in broadcaster.initial(self.ctx):
                if sub.wants(push, table):
                    lines.append(push.to_line() if sub.private else public_line(push))
        data = b"".join(lines)
        sub.initial_bytes = len(data)
        writer.write(data)
        self._subscribers.add(sub)
        conn.subscriber = sub
        return None

    def _error(self, request_id: int | str | None, code: str, reason: Msg) -> ErrorReply:
        self.stats.errors += 1
        self.stats.by_code[code] = self.stats.by_code.get(code, 0) + 1
        return _error_reply(request_id, code, reason)


def _error_reply(request_id: int | str | None, code: str, reason: Msg) -> ErrorReply:
    """An error reply: ``reason`` for the client to render, its English sentence for logs."""
    return ErrorReply(id=request_id, code=code, message=render(reason, "en"), reason=reason)
