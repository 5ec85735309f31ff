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

Pushes come from *broadcasters* (:func:`register_broadcaster`): the built-in ones send
``table-state`` for each changed table, ``timeline-entry`` for each journaled record,
``event-state`` for each changed event and ``signal`` for each hall signal.
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
    EventStatePush,
    Push,
    Reply,
    Request,
    Signal,
    Subscribe,
    Subscribed,
    TableStatePush,
    TimelinePush,
    parse_request,
)
from clockd.core.ids import event_ref
from clockd.core.units import MS
from clockd.i18n import Msg, Problem, msg, render
from clockd.service.engine import Batch, Engine, EngineStopped
from clockd.service.handlers import Context, handler_for
from clockd.service.views import timeline_entry

log = logging.getLogger(__name__)

_TOO_LARGE = object()


#: What a push concerns, for subscribers who asked for some tables or events only: a table
#: number, an event key, or ``None`` (everyone).
Topic = int | str | None


class Broadcaster(Protocol):
    """Source of pushes: what a new subscriber gets first, and what each batch adds.

    Each push is paired with what it concerns (:data:`Topic`), so a subscriber that
    asked for some tables or events only gets theirs.
    """

    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]: ...

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]: ...


class TablesBroadcaster:
    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        current = ctx.current()
        for table in sorted(current.tables):
            yield TableStatePush(table=ctx.view(table, current)), table

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        for record in batch.records:
            entry = record.entry
            topic: Topic = entry.table if entry.table is not None else entry.event
            yield TimelinePush(entry=timeline_entry(record)), topic
        for table in sorted(batch.changed_tables):
            if table in batch.current.tables:
                yield TableStatePush(table=ctx.view(table, batch.current)), table


class EventsBroadcaster:
    """An ``event-state`` per event (on subscribing, and after each change), and hall signals."""

    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        current = ctx.current()
        events = ctx.events(current)
        if events is None:
            return
        for key in events.order:
            yield EventStatePush(event=ctx.event_view(key, current)), key

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        events = ctx.events(batch.current)
        if events is None:
            return
        for record in batch.records:
            entry = record.entry
            if entry.kind == "timer-due" and entry.event is not None:  # a hall signal (clockd.service.timed)
                signal = Signal(
                    event=event_ref(batch.current.hall, entry.event),
                    what=getattr(entry, "what", "signal"),
                    offset_ms=getattr(entry, "offset_ns", 0) // MS,
                    pattern=getattr(entry, "pattern", ""),
                )
                yield signal, entry.event
            elif entry.kind == "timer-end" and entry.event is not None and entry.event in events.events:
                # the referee called time: the same "end" the hall hears when the time runs out
                timer = getattr(events.events[entry.event].state, "timer", None)
                end = getattr(getattr(timer, "plan", None), "end_pattern", None)
                signal = Signal(
                    event=event_ref(batch.current.hall, entry.event),
                    what="end",
                    offset_ms=getattr(timer, "run_ns", 0) // MS,
                    pattern="" if end is None else str(end.value),
                )
                yield signal, entry.event
        for key in sorted(batch.changed_events):
            if key in events.events:
                yield EventStatePush(event=ctx.event_view(key, batch.current)), key


_BROADCASTERS: list[Broadcaster] = [TablesBroadcaster(), EventsBroadcaster()]


def register_broadcaster(broadcaster: Broadcaster) -> None:
    """Add a source of pushes (e.g. a tournament's bracket state). Call before the server starts."""
    _BROADCASTERS.append(broadcaster)


@dataclass(eq=False)
class _Subscriber:
    writer: asyncio.StreamWriter
    tables: frozenset[int] | None
    events: frozenset[str] | None
    timeline: bool
    peer: str

    def wants(self, push: Push, topic: Topic) -> bool:
        if isinstance(push, TimelinePush) and not self.timeline:
            return False
        if topic is None:
            return True
        if isinstance(topic, int):
            return self.tables is None or topic in self.tables
        return self.events is None or topic in self.events


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
            writer.write(_error_reply(None, "unavailable", msg("api.too-many-clients")).to_line())
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
                        None, "too-large", msg("api.line-too-large", limit=self.max_line_bytes)
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
            return self._error(exc.request_id, exc.code, exc.reason), None
        if request.mutating and not self._token_ok(request):
            code = "api.wrong-token" if request.token else "api.no-token"
            return self._error(request.id, "unauthorized", msg(code, type=request.type)), None
        if isinstance(request, Subscribe):
            return self._subscribe(request, writer, peer)
        handler = handler_for(request)
        if handler is None:
            return self._error(request.id, "unknown-type", msg("api.no-handler", type=request.type)), None
        try:
            return await handler(self.ctx, request), None
        except Problem as exc:  # Refused, or a core rule the handler met
            return self._error(request.id, "refused", exc.msg), None
        except EngineStopped as exc:
            return self._error(request.id, "unavailable", msg("api.engine-stopped", problem=exc.msg)), None
        except ApiError as exc:
            return self._error(request.id, exc.code, exc.reason), None
        except Exception as exc:
            log.exception("request %s failed", request.type)
            return self._error(
                request.id, "internal", msg("api.internal", problem=f"{type(exc).__name__}: {exc}")
            ), None

    def _token_ok(self, request: Request) -> bool:
        return request.token is not None and hmac.compare_digest(request.token.encode(), self.token.encode())

    def _subscribe(
        self, request: Subscribe, writer: asyncio.StreamWriter, peer: str
    ) -> tuple[Reply | None, _Subscriber | None]:
        current = self.ctx.current()
        if request.tables is not None:
            unknown = [t for t in request.tables if t not in current.tables]
            if unknown:
                reason = msg("table.unknown", table=unknown[0], known=sorted(current.tables))
                return self._error(request.id, "refused", reason), None
        events = self.ctx.events(current)
        if request.events is not None:
            missing = [e for e in request.events if events is None or e not in events.events]
            if missing:
                known = list(events.order) if events is not None else []
                return self._error(
                    request.id, "refused", msg("event.unknown", event=missing[0], known=known)
                ), None
        sub = _Subscriber(
            writer=writer,
            tables=None if request.tables is None else frozenset(request.tables),
            events=None if request.events is None else frozenset(request.events),
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

    def _error(self, request_id: int | str | None, code: str, reason: Msg) -> ErrorReply:
        self.stats.errors += 1
        self.stats.by_code[code] = self.stats.by_code.get(code, 0) + 1
        return _error_reply(request_id, code, reason)


def _error_reply(request_id: int | str | None, code: str, reason: Msg) -> ErrorReply:
    """An error reply: ``reason`` for the client to render, its English sentence for logs."""
    return ErrorReply(id=request_id, code=code, message=render(reason, "en"), reason=reason)
