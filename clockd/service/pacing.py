"""The pacing of tokenless requests: a token bucket, and turns dealt address by address.

Apart from :mod:`clockd.service.server` because this is the fairness policy alone (who may
be carried out next, and when), on the loop's clock; the server gives each tokenless
connection its :class:`Bucket` (its own rate) and all of them one shared :class:`Turns`
(the work budget), and asks them before it handles a request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque

__all__ = ["Bucket", "Turns"]


class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up; its level may go below zero."""

    __slots__ = ("burst", "level", "rate", "t")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.level = rate, burst, burst
        self.t = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now

    def wait_s(self) -> float:
        """How long until the bucket is above zero (0: now)."""
        self._refill()
        return 0.0 if self.level > 0 else -self.level / self.rate + 1e-4

    def charge(self, amount: float) -> None:
        self._refill()
        self.level -= amount


class Turns:
    """The tokenless requests' turns at the shared work budget: address by address.

    A request that may not start now (the budget is spent, or ``at_once`` others are being
    carried out) waits in its address's line; each time the budget allows, the next address
    in the round gives its first request a turn (its expected cost charged at once) and goes
    to the end of the round. So 200 connections from one address share one address's turns:
    a screen at another address waits one turn per busy address, not one per connection.
    A request whose connection has gone gives its place up at once (:meth:`turn`).
    """

    def __init__(self, bucket: Bucket, at_once: int) -> None:
        self.bucket = bucket
        self.at_once = max(1, at_once)
        self.running = 0
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}  # in the round's order
        self._costs: dict[asyncio.Future[None], float] = {}
        self._timer: asyncio.TimerHandle | None = None

    def _free(self) -> bool:
        return self.running < self.at_once and self.bucket.wait_s() <= 0

    def _start(self, cost: float) -> None:
        self.running += 1
        self.bucket.charge(cost)

    async def turn(self, address: str, cost: float, gone: asyncio.Event) -> float | None:
        """Wait for a turn and charge ``cost``; how long it waited (s), or ``None`` if ``gone``
        was set first (the connection closed: its place in line is given up, nothing charged).
        Every turn given is ended by :meth:`done`."""
        if not self.waiting and self._free():
            self._start(cost)
            return 0.0
        if gone.is_set():
            return None
        started = time.monotonic()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(address, deque()).append(future)
        self._costs[future] = cost
        self._schedule()
        left = asyncio.ensure_future(gone.wait())
        try:
            await asyncio.wait((future, left), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.done(0.0)  # given just as the server stopped: never used
            raise
        finally:
            left.cancel()
            if not future.done():  # gone (or the server stops): out of the line at once
                future.cancel()
                self._forget(address, future)
        return time.monotonic() - started if not future.cancelled() else None

    def done(self, correction: float) -> None:
        """A turn ended: ``correction`` (what it cost beyond the charge) goes on the budget."""
        self.running -= 1
        self.bucket.charge(correction)
        self._schedule()

    def _forget(self, address: str, future: asyncio.Future[None]) -> None:
        self._costs.pop(future, None)
        line = self.waiting.get(address)
        if line is not None:
            with contextlib.suppress(ValueError):
                line.remove(future)
            if not line:
                del self.waiting[address]

    def _schedule(self) -> None:
        if self._timer is None and self.waiting and self.running < self.at_once:
            self._timer = asyncio.get_running_loop().call_later(self.bucket.wait_s(), self._wake)

    def _wake(self) -> None:
        self._timer = None
        while self.waiting and self._free():
            address = next(iter(self.waiting))
            line = self.waiting.pop(address)
            future = line.popleft()
            if line:
                self.waiting[address] = line  # to the end of the round
            cost = self._costs.pop(future, 0.0)
            if not future.done():
                self._start(cost)
                future.set_result(None)
        self._schedule()
