"""The API server: newline-delimited JSON over TCP, on an asyncio loop in its own thread.

Why a separate thread with asyncio: many clients (a referee window, an audience screen,
``duelclock status`` calls, a crash test) sit mostly idle on sockets, which is what an
event loop is for; and running it beside the engine's thread means no client — however
slow, stuck or hostile — can delay a press reaching the journal. The engine hands each
committed batch over with ``loop.call_soon_threadsafe`` (never blocks), and the loop
never blocks on a client:

* requests on one connection are answered in order; a client that does not read its
  replies stalls only its own connection (TCP back-pressure);
* pushes to subscribers are written without waiting; a subscriber whose unsent output
  grows beyond ``max_backlog_bytes`` is disconnected (it may reconnect: a new
  subscription starts with every table's full state);
* a line longer than ``MAX_LINE_BYTES`` is refused (``too-large``) and skipped up to its
  newline; malformed, unknown or invalid requests get an ``error`` reply and change nothing;
* a mutating request without the right token is refused (``unauthorized``) before its
  handler runs.

Pushes come from *broadcasters* (:func:`register_broadcaster`): the built-in one sends
``table-state`` for each changed table and ``timeline-event`` for each journaled record.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import threading
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from clockd.api.messages import (
    DEFAULT_PORT,
    MAX_LINE_BYTES,
    ApiError,
    ErrorReply,
    Push,
    Reply,
    Request,
    Subscribe,
    Subscribed,
    TableState,
    TimelineEvent,
    parse_request,
)
from clockd.service.component import Refused
from clockd.service.engine import Batch, Engine, EngineStopped
from clockd.service.handlers import Context, handler_for
from clockd.service.views import timeline_entry

log = logging.getLogger(__name__)

_TOO_LARGE = object()


class Broadcaster(Protocol):
    """Source of pushes: what a new subscriber gets first, and what each batch adds.

    Each push is paired with the table it concerns (``None``: the whole daemon), so a
    subscriber that asked for some tables only gets theirs.
    """

    def initial(self, ctx: Context) -> Iterable[tuple[Push, int | None]]: ...

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, int | None]]: ...


class TablesBroadcaster:
    def initial(self, ctx: Context) -> Iterable[tuple[Push, int | None]]:
        current = ctx.current()
        for table in sorted(current.tables):
            yield TableState(table=ctx.view(table, current)), table

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, int | None]]:
        for record in batch.records:
            yield TimelineEvent(entry=timeline_entry(record)), record.event.table
        for table in sorted(batch.changed_tables):
            if table in batch.current.tables:
                yield TableState(table=ctx.view(table, batch.current)), table


_BROADCASTERS: list[Broadcaster] = [TablesBroadcaster()]


def register_broadcaster(broadcaster: Broadcaster) -> None:
    """Add a source of pushes (e.g. a tournament's bracket state). Call before the server starts."""
    _BROADCASTERS.append(broadcaster)


@dataclass(eq=False)
class _Subscriber:
    writer: asyncio.StreamWriter
    tables: frozenset[int] | None
    timeline: bool
    peer: str

    def wants(self, push: Push, table: int | None) -> bool:
        if isinstance(push, TimelineEvent) and not self.timeline:
            return False
        return table is None or self.tables is None or table in self.tables


@dataclass
class ServerStats:
    connections: int = 0
    requests: int = 0
    errors: int = 0
    dropped_subscribers: int = 0
    pushes: int = 0
    by_code: dict[str, int] = field(default_factory=dict)


class ApiServer:
    """Serves the API for ``engine`` on ``host:port`` (``port=0``: any free port)."""

    def __init__(
        self,
        engine: Engine,
        *,
        token: str,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        max_line_bytes: int = MAX_LINE_BYTES,
        max_backlog_bytes: int = 1 << 20,
        max_clients: int = 256,
    ) -> None:
        if not token:
            raise ValueError("the API needs a token for state-changing requests")
        self.engine = engine
        self.token = token
        self.host = host
        self.port = port
        self.max_line_bytes = max_line_bytes
        self.max_backlog_bytes = max_backlog_bytes
        self.max_clients = max_clients
        self.stats = ServerStats()
        self.ctx = Context(engine)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.base_events.Server | None = None
        self._subscribers: set[_Subscriber] = set()
        self._clients: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None

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
        try:
            self._server = loop.run_until_complete(
                asyncio.start_server(self._serve, self.host, self.port, limit=self.max_line_bytes * 2)
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
        for writer in list(self._clients):
            writer.close()
        self._subscribers.clear()

    # -- pushes -------------------------------------------------------------------------------------
    def _on_batch(self, batch: Batch) -> None:
        """Engine thread: hand the batch to the loop, never wait."""
        loop = self._loop
        if loop is not None and self._subscribers:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self._fanout, batch)

    def _fanout(self, batch: Batch) -> None:
        if not self._subscribers:
            return
        for broadcaster in _BROADCASTERS:
            try:
                pushes = list(broadcaster.changes(batch, self.ctx))
            except Exception:
                log.exception("a broadcaster failed")
                continue
            for push, table in pushes:
                line = push.to_line()
                for sub in list(self._subscribers):
                    if sub.wants(push, table):
                        self._push(sub, line)

    def _push(self, sub: _Subscriber, line: bytes) -> None:
        transport = sub.writer.transport
        if transport.is_closing():
            self._subscribers.discard(sub)
            return
        if transport.get_write_buffer_size() + len(line) > self.max_backlog_bytes:
            log.warning("subscriber %s reads too slowly: disconnected", sub.peer)
            self.stats.dropped_subscribers += 1
            self._subscribers.discard(sub)
            transport.abort()
            return
        sub.writer.write(line)
        self.stats.pushes += 1

    # -- connections --------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = str(writer.get_extra_info("peername"))
        self.stats.connections += 1
        if len(self._clients) >= self.max_clients:
            writer.write(ErrorReply(code="unavailable", message="too many clients connected").to_line())
            with contextlib.suppress(OSError):
                await writer.drain()
            writer.close()
            return
        self._clients.add(writer)
        subscriber: _Subscriber | None = None
        try:
            async for line in self._lines(reader):
                if line is _TOO_LARGE:
                    reply: Reply | None = self._error(
                        None,
                        "too-large",
                        f"a request line may have at most {self.max_line_bytes} bytes; it was skipped",
                    )
                else:
                    assert isinstance(line, bytes)
                    reply, new_sub = await self._handle(line, writer, peer)
                    if new_sub is not None:
                        if subscriber is not None:
                            self._subscribers.discard(subscriber)
                        subscriber = new_sub
                if reply is not None:
                    writer.write(reply.to_line())
                    await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if subscriber is not None:
                self._subscribers.discard(subscriber)
            self._clients.discard(writer)
            writer.close()

    async def _lines(self, reader: asyncio.StreamReader) -> AsyncIterator[bytes | object]:
        buffer = bytearray()
        skipping = False
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    if len(buffer) > self.max_line_bytes:
                        if not skipping:
                            yield _TOO_LARGE
                        skipping = True
                        buffer.clear()
                    break
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if skipping:
                    skipping = False  # the tail of the line already refused
                    continue
                if len(line) > self.max_line_bytes:
                    yield _TOO_LARGE
                elif line.strip():
                    yield line

    async def _handle(
        self, line: bytes, writer: asyncio.StreamWriter, peer: str
    ) -> tuple[Reply | None, _Subscriber | None]:
        self.stats.requests += 1
        try:
            request = parse_request(line)
        except ApiError as exc:
            return self._error(exc.request_id, exc.code, exc.message), None
        if request.mutating and not self._token_ok(request):
            return (
                self._error(
                    request.id,
                    "unauthorized",
                    f"{request.type!r} changes state and needs the referee's token "
                    "(printed by `duelclock run`, stored in its daemon.json)"
                    + (": the token given is wrong" if request.token else ": none was given"),
                ),
                None,
            )
        if isinstance(request, Subscribe):
            return self._subscribe(request, writer, peer)
        handler = handler_for(request)
        if handler is None:
            return self._error(
                request.id, "unknown-type", f"the daemon has no handler for {request.type!r}"
            ), None
        try:
            return await handler(self.ctx, request), None
        except Refused as exc:
            return self._error(request.id, "refused", str(exc)), None
        except EngineStopped as exc:
            return self._error(request.id, "unavailable", str(exc)), None
        except ApiError as exc:
            return self._error(request.id, exc.code, exc.message), None
        except Exception as exc:
            log.exception("request %s failed", request.type)
            return self._error(request.id, "internal", f"{type(exc).__name__}: {exc}"), None

    def _token_ok(self, request: Request) -> bool:
        return request.token is not None and hmac.compare_digest(request.token.encode(), self.token.encode())

    def _subscribe(
        self, request: Subscribe, writer: asyncio.StreamWriter, peer: str
    ) -> tuple[Reply | None, _Subscriber | None]:
        current = self.ctx.current()
        if request.tables is not None:
            unknown = [t for t in request.tables if t not in current.tables]
            if unknown:
                return self._error(request.id, "refused", f"there is no table {unknown[0]}"), None
        sub = _Subscriber(
            writer=writer,
            tables=None if request.tables is None else frozenset(request.tables),
            timeline=request.timeline,
            peer=peer,
        )
        # Reply and initial state are written in this one loop step, before any later batch.
        writer.write(Subscribed(id=request.id, seq=current.seq).to_line())
        for broadcaster in _BROADCASTERS:
            for push, table in broadcaster.initial(self.ctx):
                if sub.wants(push, table):
                    writer.write(push.to_line())
        self._subscribers.add(sub)
        return None, sub

    def _error(self, request_id: int | str | None, code: str, message: str) -> ErrorReply:
        self.stats.errors += 1
        self.stats.by_code[code] = self.stats.by_code.get(code, 0) + 1
        return ErrorReply(id=request_id, code=code, message=message)
