"""A client for the daemon's API: blocking requests, and a subscription usable from Qt.

Requests::

    from clockd.api import Client
    with Client.local() as c:                # address and token from the local daemon's daemon.json
        for t in c.status().tables:
            print(t.table, t.program.kind, t.actions)
        c.act(3, Pause(reason="toilet break"))   # needs the token; raises ApiError if refused

The live stream, three ways:

* **blocking iteration** (a worker thread, a script)::

      with Subscription.local() as sub:
          for msg in sub:                   # TableStatePush / EventStatePush / TimelinePush pushes
              ...

* **non-blocking, for an event loop** — a Qt window watches :meth:`Subscription.fileno`
  with a ``QSocketNotifier`` and calls :meth:`Subscription.poll`, which returns what has
  arrived without ever blocking::

      sub = Subscription.local()
      notifier = QSocketNotifier(sub.fileno(), QSocketNotifier.Type.Read)
      notifier.activated.connect(lambda: [window.apply(m) for m in sub.poll()])

  :meth:`poll` raises :class:`ConnectionError` when the daemon has gone (or dropped a
  subscriber that read too slowly): reconnect, and the fresh subscription starts with
  every table's full state again.

A daemon that cannot be reached (or goes away) is a :class:`DaemonUnreachable`, a
``ConnectionError`` carrying a message with a code (``client.cannot-reach``,
``client.went-away`` …) that the command line and the GUI render in their user's language.

* **a thread with a callback**: :meth:`Subscription.run_in_thread`.

This module uses only the standard library and :mod:`clockd.api.messages`: it does not
import the daemon.
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
import select
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from clockd.api.local import local_tls, resolve
from clockd.api.messages import (
    DEFAULT_PORT,
    MAX_REPLY_BYTES,
    ActionRequest,
    ApiError,
    Done,
    ErrorReply,
    Events,
    EventsReply,
    Message,
    NodesReply,
    NodesStatus,
    PersonReply,
    PersonRequest,
    Ping,
    Pong,
    Push,
    Reply,
    Request,
    SimPress,
    SimPressed,
    Status,
    StatusReply,
    Subscribe,
    Subscribed,
    Timeline,
    TimelineReply,
    parse_message,
)
from clockd.core.actions import Action
from clockd.i18n import Msg, msg, render

R = TypeVar("R", bound=Reply)

#: A request longer than this, on a new connection, is preceded by a ping carrying the token.
_INTRODUCE_ABOVE = 60_000


class DaemonUnreachable(ConnectionError):
    """The daemon cannot be reached, or went away: a ``ConnectionError`` with a message.

    ``msg`` is the whole sentence (``client.cannot-reach``: where, why, and what to do);
    ``problem`` the reason alone (the system's, e.g. ``oserror.connection-refused``), for a
    caller that says the rest itself. ``str(exc)`` is the English sentence, for logs.
    """

    def __init__(self, message: Msg, problem: Msg | str | None = None) -> None:
        super().__init__(message.code)
        self.msg = message
        self.problem: Msg | str = message if problem is None else problem

    def __str__(self) -> str:
        return render(self.msg, "en")


class _LineSocket:
    """A TCP connection carrying newline-delimited JSON."""

    def __init__(self, host: str, port: int, timeout_ms: int, tls: ssl.SSLContext | None = None) -> None:
        self.address = (host, port)
        try:
            sock = socket.create_connection(self.address, timeout=timeout_ms / 1000)
        except OSError as exc:
            raise self._unreachable("client.cannot-reach", exc) from exc
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if tls is not None:
            try:
                sock = tls.wrap_socket(sock, server_hostname=host)
            except ssl.SSLError as exc:
                sock.close()
                raise DaemonUnreachable(
                    msg("client.tls-refused", host=host, port=port, problem=exc.reason or str(exc))
                ) from exc
            except OSError as exc:
                sock.close()
                raise self._unreachable("client.cannot-reach", exc) from exc
        self.sock: socket.socket = sock
        self._buffer = bytearray()

    def _unreachable(self, code: str, exc: OSError | None = None) -> DaemonUnreachable:
        """``code``'s sentence about this daemon's address (and the system's reason, if any)."""
        from clockd.i18n.reasons import os_reason

        host, port = self.address
        if exc is None:
            return DaemonUnreachable(msg(code, host=host, port=port))
        problem = os_reason(exc)
        return DaemonUnreachable(msg(code, host=host, port=port, problem=problem), problem)

    def send(self, message: Message) -> None:
        try:
            self.sock.sendall(message.to_line())
        except OSError as exc:
            raise self._unreachable("client.went-away", exc) from exc

    def _lines(self) -> Iterator[bytes]:
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_REPLY_BYTES:
                    raise DaemonUnreachable(msg("client.line-too-long", limit=MAX_REPLY_BYTES))
                return
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if line.strip():
                yield line

    def has_line(self) -> bool:
        """Whether a complete message is already buffered (so waiting on the socket would be wrong)."""
        return b"\n" in self._buffer

    def read_message(self) -> Message:
        """The next message (blocking, within the socket's timeout)."""
        while True:
            for line in self._lines():
                return parse_message(line)
            self._fill()

    def read_available(self) -> list[Message]:
        """Every complete message already received, without blocking."""
        for _ in range(64):  # bounded: a busy stream must not keep the caller's event loop here
            try:
                readable, _, _ = select.select([self.sock], [], [], 0)
            except ValueError as exc:  # the socket was closed under us (fileno -1): by our own close()
                raise DaemonUnreachable(msg("client.subscription-closed")) from exc
            if not readable:
                break
            self._fill()
        return [parse_message(line) for line in self._lines()]

    def _fill(self) -> None:
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            raise
        except OSError as exc:
            raise self._unreachable("client.went-away", exc) from exc
        if not chunk:
            raise self._unreachable("client.closed")
        self._buffer += chunk
        pending = getattr(self.sock, "pending", None)  # TLS: bytes already decrypted, which select misses
        while pending is not None and pending() > 0:
            self._buffer += self.sock.recv(pending())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


class Client:
    """Request/response with the daemon over one connection (opened on first use).

    Not thread-safe: give each thread its own client. Every method raises
    :class:`ApiError` when the daemon refuses (``e.code``; ``e.reason``: the message to show)
    and :class:`DaemonUnreachable` (a :class:`ConnectionError`) when it cannot be reached.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        token: str | None = None,
        *,
        timeout_ms: int = 10_000,
        by: str = "",
        retry: bool = True,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.host, self.port, self.token = host, port, token
        self.timeout_ms = timeout_ms
        self.by = by
        self.retry = retry
        self.tls = tls
        self._conn: _LineSocket | None = None
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(5)  # request ids unique to this client, across connections

    @classmethod
    def local(
        cls, *, host: str | None = None, port: int | None = None, token: str | None = None, **kwargs: Any
    ) -> Client:
        """A client for the daemon started on this machine (``daemon.json``), unless told otherwise
        (its TLS certificate too, or ``tls``: a context from :func:`clockd.api.local.local_tls`)."""
        h, p, t = resolve(host, port, token)
        if "tls" not in kwargs:
            kwargs["tls"] = local_tls(host=host, port=port)
        return cls(h, p, t, **kwargs)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, request: Request, *, request_id: str | None = None) -> Reply:
        """Send ``request`` (with an id, and the token if this client has one); return its reply.

        With the token, reads are answered with what only the referee may see (a session's
        refused sign-ups) and the daemon keeps a place for this client however many others
        are connected; without it, reads are answered with public data only.

        The id is unique to this request (``<client>-<n>``). If the connection breaks or the
        reply does not come in time, the request is sent once more, on a new connection,
        with the same id: the daemon applies a request id once and answers a repeat with the
        seq it journaled the first at, so a retried action is never applied twice.

        ``request_id``: the caller's own id instead (a web page's queued entry, sent again
        after the Wi-Fi came back, carries the id it was made with — so it is applied once).
        """
        update: dict[str, Any] = {"id": request_id or f"{self._prefix}-{next(self._ids)}"}
        if request.token is None and self.token:
            update["token"] = self.token
        if request.mutating and not getattr(request, "by", "") and self.by:
            update["by"] = self.by
        request = request.model_copy(update=update)
        for attempt in range(2):
            try:
                message = self._exchange(request)
                break
            except (ConnectionError, TimeoutError):
                self.close()
                if attempt or not self.retry:
                    raise
        if isinstance(message, ErrorReply):
            raise ApiError(message.code, message.message, reason=message.reason, request_id=message.id)
        return message

    def _exchange(self, request: Request) -> Reply:
        if self._conn is None:
            self._conn = _LineSocket(self.host, self.port, self.timeout_ms, self.tls)
            if self.token and len(request.to_line()) > _INTRODUCE_ABOVE:
                # A long line from a connection that has not shown the token waits for one of the
                # daemon's few places for strangers' long lines: show it first (docs/architecture.md).
                self._reply_to(Ping(id=f"{self._prefix}-hello", token=self.token))
        return self._reply_to(request)

    def _reply_to(self, request: Request) -> Reply:
        assert self._conn is not None
        self._conn.send(request)
        while True:
            message = self._conn.read_message()
            if isinstance(message, Reply) and message.id == request.id:
                return message

    def _expect(self, request: Request, reply_type: type[R]) -> R:
        reply = self.request(request)
        if not isinstance(reply, reply_type):
            raise ApiError(
                "internal", reason=msg("api.unexpected-reply", expected=reply_type.__name__, got=reply.type)
            )
        return reply

    # -- read-only ---------------------------------------------------------------------------
    def ping(self) -> Pong:
        return self._expect(Ping(), Pong)

    def status(self, tables: list[int] | None = None) -> StatusReply:
        return self._expect(Status(tables=tables), StatusReply)

    def nodes(self) -> NodesReply:
        """The desk's table nodes: link, lag, outages, commands not done (``docs/mqtt.md``)."""
        return self._expect(NodesStatus(), NodesReply)

    def events(self, events: list[str] | None = None) -> EventsReply:
        return self._expect(Events(events=events), EventsReply)

    def timeline(
        self, table: int | None = None, *, event: str | None = None, after_seq: int = 0, limit: int = 1000
    ) -> TimelineReply:
        return self._expect(
            Timeline(table=table, event=event, after_seq=after_seq, limit=limit), TimelineReply
        )

    # -- the referee's actions (need the token) ------------------------------------------------
    def person(
        self, how: str, *, reason: str, text: str = "", person: str = "", event: str = "", by: str = ""
    ) -> PersonReply:
        """What is held about people (find/show/export/list), audited with ``reason``."""
        return self._expect(
            PersonRequest(how=how, text=text, person=person, event=event, reason=reason, by=by),
            PersonReply,
        )

    def sim_press(self, table: int, side: str) -> SimPressed:
        """Press ``side`` (``a``/``b``) on simulated table ``table``'s clock, by hand (needs the token)."""
        return self._expect(SimPress(table=table, side=side), SimPressed)

    def act(
        self, target: str | int, action: Action, *, request_id: str | None = None, by: str | None = None
    ) -> Done:
        """Do ``action`` on ``target`` (``3``, ``pt``, ``pt/R1-1``); the daemon's answer, or ApiError.

        ``request_id``: the id to send (default: this client's next); ``by``: who did it, when
        not this client's ``by`` (a web server acting for each arbiter by name).
        """
        request = ActionRequest.of(action, target)
        if by:
            request = request.model_copy(update={"by": by})
        reply = self.request(request, request_id=request_id)
        if not isinstance(reply, Done):
            raise ApiError("internal", reason=msg("api.unexpected-reply", expected="Done", got=reply.type))
        return reply


class Subscription:
    """The live stream: every table's state on subscribing, then every change (see the module doc).

    ``token``: the referee's; the pushes then carry what only the referee may see (a session's
    refused sign-ups). An audience screen subscribes without it.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        tables: list[int] | None = None,
        events: list[str] | None = None,
        timeline: bool = False,
        timeout_ms: int = 10_000,
        token: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self._conn = _LineSocket(host, port, timeout_ms, tls)
        self._conn.send(
            Subscribe(id="subscribe", tables=tables, events=events, timeline=timeline, token=token or None)
        )
        self._pending: list[Message] = []
        while True:
            message = self._conn.read_message()
            if isinstance(message, ErrorReply):
                self.close()
                raise ApiError(message.code, message.message, reason=message.reason)
            if isinstance(message, Subscribed):
                self.seq = message.seq
                break
            self._pending.append(message)
        self._conn.sock.settimeout(None)
        self._closed = False

    @classmethod
    def local(cls, *, host: str | None = None, port: int | None = None, **kwargs: Any) -> Subscription:
        h, p, _ = resolve(host, port)
        if "tls" not in kwargs:
            kwargs["tls"] = local_tls(host=host, port=port)
        return cls(h, p, **kwargs)

    def fileno(self) -> int:
        """The socket, for ``select`` or ``QSocketNotifier``: readable means :meth:`poll` has news."""
        return self._conn.sock.fileno()

    def poll(self) -> list[Push]:
        """What has arrived, without blocking (maybe nothing). :class:`ConnectionError` if gone."""
        out = [m for m in self._pending if isinstance(m, Push)]
        self._pending = []
        out += [m for m in self._conn.read_available() if isinstance(m, Push)]
        return out

    def read(self, timeout_ms: int | None = None) -> list[Push]:
        """Wait up to ``timeout_ms`` (forever: ``None``) for news; return it (maybe nothing)."""
        if self._pending or self._conn.has_line():
            return self.poll()
        if self._closed:
            raise DaemonUnreachable(msg("client.subscription-closed"))
        try:
            readable, _, _ = select.select(
                [self._conn.sock], [], [], None if timeout_ms is None else timeout_ms / 1000
            )
        except ValueError as exc:  # the socket was closed under us (fileno -1)
            raise DaemonUnreachable(msg("client.subscription-closed")) from exc
        if not readable:
            return []
        self._conn._fill()
        return self.poll()

    def __iter__(self) -> Iterator[Push]:
        """Every push, blocking, until the connection closes (then :class:`ConnectionError`)."""
        while True:
            yield from self.read()

    def run_in_thread(
        self, on_message: Callable[[Push], None], on_close: Callable[[Exception], None] | None = None
    ) -> threading.Thread:
        """Deliver every push to ``on_message`` from a daemon thread (for Qt: emit a signal there)."""

        def pump() -> None:
            try:
                for message in self:
                    on_message(message)
            except (ConnectionError, OSError, ApiError) as exc:
                if on_close is not None and not self._closed:
                    on_close(exc)

        thread = threading.Thread(target=pump, name="duelclock-subscription", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError):
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        self._conn.close()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
