"""What the API server keeps of each connection and each subscription.

Apart from :mod:`clockd.service.server` because these are the records its parts share:
the reader that notices at once when the peer has gone (so its waiting requests give their
turn up, :mod:`clockd.service.pacing`), a connection's trust, slot and pacing, and a
subscriber's choice of tables, events and timeline (:meth:`Subscriber.wants`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from clockd.api.messages import Push, TimelinePush
from clockd.service.broadcast import Topic
from clockd.service.pacing import Bucket

__all__ = ["Connection", "Reader", "Subscriber"]


class Reader(asyncio.StreamReader):
    """The stream reader, which also says at once when the peer has gone (``gone``: its end of
    the connection closed or reset), so that its requests still waiting are dropped then."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit=limit)
        self.gone = asyncio.Event()

    def feed_eof(self) -> None:
        super().feed_eof()
        self.gone.set()

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        self.gone.set()


@dataclass(eq=False)
class Connection:
    writer: asyncio.StreamWriter
    peer: str
    address: str = ""  # the peer's address without the port: strangers' turns are dealt by it
    gone: asyncio.Event = field(default_factory=asyncio.Event)
    trusted: bool = False  # a request of it carried the token
    slot: str | None = None  # "public" or "referee": admitted; None: the slots were full
    subscriber: Subscriber | None = None
    opened: float = field(default_factory=time.monotonic)
    last_request: float = field(default_factory=time.monotonic)
    bucket: Bucket | None = None
    cost: float = 0.001  # what its last request cost the loop (s): reserved before the next


@dataclass(eq=False)
class Subscriber:
    writer: asyncio.StreamWriter
    tables: frozenset[int] | None
    events: frozenset[str] | None
    timeline: bool
    peer: str
    private: bool = False  # the token was shown: pushes carry everything
    #: The size of the whole state it was sent on subscribing: a reader may be that much
    #: behind, on top of the backlog limit, before it is "too slow" (a hall of 512 tables'
    #: state is larger than a stranger's limit, and arrives in one write).
    initial_bytes: int = 0

    def wants(self, push: Push, topic: Topic) -> bool:
        if isinstance(push, TimelinePush) and not self.timeline:
            return False
        if topic is None:
            return True
        if isinstance(topic, int):
            return self.tables is None or topic in self.tables
        return self.events is None or topic in self.events
