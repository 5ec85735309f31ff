"""The output thread: acknowledgements, displays and beeps, in commit order, off the engine's thread.

A device call may block (a USB write to a clock that hangs, a buzzer pattern). Running
device calls on the engine's thread would let one bad clock delay every other table's
journal; so the engine only queues them here, after the commit that makes them true, and
one thread performs them in that order. A call that raises is logged and the next one
runs: a driver's failure must not stop acknowledgements to the other devices.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

_STOP = object()


class Outbox:
    def __init__(self, name: str = "clockd-outbox") -> None:
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.failures = 0

    def start(self) -> None:
        self._thread.start()

    def put(self, effects: Iterable[Callable[[], None]]) -> None:
        """Queue a batch's effects as one item: one wake-up of the thread per batch, not one
        per effect (each wake-up takes the interpreter's lock from the engine a moment)."""
        batch = tuple(effects)
        if batch:
            self._queue.put(batch)

    def stop(self, timeout_ms: int = 5000) -> None:
        """Run what is queued, then stop."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout_ms / 1000)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            assert isinstance(item, tuple)
            for effect in item:
                try:
                    effect()
                except Exception:
                    self.failures += 1
                    log.exception("a device call failed")
