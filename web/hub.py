"""One subscription to the daemon per web process, fanned out to every open page.

The daemon allows strangers 64 subscriptions; a hall has a thousand phones. So the web
process subscribes once, **without the token** — what it gets is already public (the
daemon strips every private field for a connection without it) — keeps the latest view of
every event and table, and tells the open pages what changed.

Changes are *coalesced*: the first change after a quiet moment starts a short window
(``coalesce_s``, 0.1 s), and at its end every page watching a changed topic gets one
message. 64 busy tables then cost a few sends per page per second, not one per press.
Each page has a bounded queue; a page whose queue is full (a phone that stopped reading)
is dropped — its browser reconnects and gets the whole state again — and no other page or
the daemon ever waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from clockd.api import EventStatePush, EventView, Subscription, TableStatePush, TableView
from clockd.api.messages import Push
from clockd.core.ids import read_id

log = logging.getLogger(__name__)

#: What a page listens to: ``("events", "")`` the list of the day's events, ``("event", key)`` one event.
Topic = tuple[str, str]

EVENTS: Topic = ("events", "")


def event_topic(key: str) -> Topic:
    return ("event", key)


@dataclass(eq=False)
class Listener:
    """One open page's stream: its topic, language, and a bounded queue of topic names changed."""

    topic: Topic
    lang: str
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=16))
    dropped: bool = False

    def tell(self, what: str) -> bool:
        """Queue ``what`` ("html" or "clocks"); False (and the page dropped) if it is not reading."""
        if self.dropped:
            return False
        try:
            self.queue.put_nowait(what)
            return True
        except asyncio.QueueFull:
            self.drop()
            return False

    def drop(self) -> None:
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)  # wakes the stream, which then ends


@dataclass(frozen=True)
class Held:
    """A view and when (this process's monotonic clock) it arrived, to count clocks on from."""

    view: EventView | TableView
    at_ns: int


class Hub:
    """The daemon's public state as last pushed, and the pages that watch it."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        tls: ssl.SSLContext | None = None,
        coalesce_s: float = 0.1,
        retry_s: float = 1.0,
    ) -> None:
        self.host, self.port, self.tls = host, port, tls
        self.coalesce_s = coalesce_s
        self.retry_s = retry_s
        self.events: dict[str, Held] = {}
        self.tables: dict[int, Held] = {}
        self.connected = False
        self.seq = 0
        self.listeners: set[Listener] = set()
        self.dropped = 0
        self._dirty: dict[Topic, set[str]] = {}
        self._flush_at: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._sub: Subscription | None = None
        self._first = threading.Event()
        self.on_flush: list[Callable[[dict[Topic, set[str]]], None]] = []

    # -- the daemon's side (a thread) -----------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.Thread(target=self._pump, name="duelclock-web-hub", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout_s: float = 10.0) -> bool:
        """Whether the first state arrived within ``timeout_s`` (a start-up's check)."""
        return self._first.wait(timeout_s)

    def stop(self) -> None:
        self._stop.set()
        sub = self._sub
        if sub is not None:
            sub.close()
        if self._thread is not None:
            self._thread.join(5)

    def _pump(self) -> None:
        while not self._stop.is_set():
            try:
                sub = Subscription(self.host, self.port, tls=self.tls)
            except (ConnectionError, OSError, TimeoutError) as exc:
                self._set_connected(False)
                log.info(
                    "web: the daemon at %s:%s cannot be reached (%s); trying again", self.host, self.port, exc
                )
                self._stop.wait(self.retry_s)
                continue
            except Exception as exc:  # an ApiError (too many subscribers): try again later
                log.warning("web: subscription refused: %s", exc)
                self._stop.wait(self.retry_s)
                continue
            self._sub = sub
            self._set_connected(True)
            try:
                while not self._stop.is_set():
                    pushes = sub.read(500)
                    if pushes:
                        self._hand_over(pushes)
            except (ConnectionError, OSError) as exc:
                if not self._stop.is_set():
                    log.info("web: the daemon's stream ended (%s); subscribing again", exc)
            finally:
                sub.close()
                self._sub = None
                self._set_connected(False)
            self._stop.wait(self.retry_s)

    def _set_connected(self, value: bool) -> None:
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._connected, value)

    def _hand_over(self, pushes: list[Push]) -> None:
        if self._loop is None or self._loop.is_closed():
            return
        at = time.monotonic_ns()
        with contextlib.suppress(RuntimeError):  # the loop closed while we read: we are stopping
            self._loop.call_soon_threadsafe(self.apply, pushes, at)

    # -- the pages' side (the event loop) --------------------------------------------------------
    def _connected(self, value: bool) -> None:
        if value != self.connected:
            self.connected = value
            self._mark(EVENTS, "html")
            for key in self.events:
                self._mark(event_topic(key), "html")

    def apply(self, pushes: list[Push], at_ns: int | None = None) -> None:
        """Take the daemon's pushes in; mark what changed for the pages."""
        at = time.monotonic_ns() if at_ns is None else at_ns
        for push in pushes:
            if isinstance(push, EventStatePush):
                view = push.event
                self.events[view.key] = Held(view, at)
                self.seq = max(self.seq, view.seq)
                self._mark(event_topic(view.key), "html")
                self._mark(EVENTS, "html")
            elif isinstance(push, TableStatePush):
                table = push.table
                old = self.tables.get(table.table)
                self.tables[table.table] = Held(table, at)
                self.seq = max(self.seq, table.seq)
                owner = self.owner_event(table)
                if owner is None and old is not None:
                    owner = self.owner_event(old.view)  # type: ignore[arg-type]
                if owner is not None:
                    self._mark(event_topic(owner), "clocks")
        self._first.set()

    def owner_event(self, table: TableView) -> str | None:
        """The key of the event whose program runs on ``table`` (``desk/pt/R1-1`` → ``pt``)."""
        owner = read_id(getattr(table.program, "owner", None))
        return None if owner is None else owner.key

    def _mark(self, topic: Topic, what: str) -> None:
        self._dirty.setdefault(topic, set()).add(what)
        if self._flush_at is None and self._loop is not None:
            self._flush_at = self._loop.call_later(self.coalesce_s, self.flush)

    def flush(self) -> None:
        """Tell every page watching a changed topic (once per window, whatever the number of changes)."""
        self._flush_at = None
        dirty, self._dirty = self._dirty, {}
        for hook in self.on_flush:
            hook(dirty)
        for listener in list(self.listeners):
            changed = dirty.get(listener.topic)
            if not changed:
                continue
            what = "html" if "html" in changed else "clocks"
            if not listener.tell(what):
                self.listeners.discard(listener)
                self.dropped += 1

    def listen(self, topic: Topic, lang: str) -> Listener:
        listener = Listener(topic, lang)
        self.listeners.add(listener)
        return listener

    def close_pages(self) -> None:
        """End every page's stream (the server is stopping: their browsers reconnect later)."""
        for listener in list(self.listeners):
            listener.drop()
        self.listeners.clear()

    def forget(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    def event(self, key: str) -> Held | None:
        return self.events.get(key)

    def table(self, number: int) -> Held | None:
        return self.tables.get(number)
