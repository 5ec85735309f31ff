"""The daemon's log on its terminal: one handler, and the same warning never floods it.

A client that sends thousands of bad requests a second, a subscriber that reconnects and
stalls in a loop, or a device that keeps sending garbage makes one warning fire for each:
one such flood wrote 7 MB of log lines, burying the one line a referee needed and filling
the disk of a small laptop or a Pi.

**The policy** (:class:`BoundedHandler`): each kind of message — its logger, level and
format string, whatever its arguments (``"subscriber %s reads too slowly"`` is one kind for
every peer) — is written at most ``burst`` times (10) per ``window_s`` (60 s). The last one
written says that more like it are held back; when the window is over, the next one is
preceded by how many were not shown, and stopping the daemon writes the counts still owed.
So a flood costs at most ``burst + 2`` lines a minute per kind of message, and nothing is
silently lost: the counts are there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

FORMAT = "%(asctime)s %(name)s: %(message)s"
#: Distinct kinds of message remembered at once (kinds are format strings in the code: few).
MAX_KINDS = 1024

_Kind = tuple[str, int, str]


@dataclass(slots=True)
class _Window:
    start: float
    written: int = 0
    held: int = 0


class BoundedHandler(logging.StreamHandler[TextIO]):
    """A ``StreamHandler`` that writes each kind of message at most ``burst`` times per window."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        burst: int = 10,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stream)
        self.burst = burst
        self.window_s = window_s
        self.clock = clock
        self._windows: dict[_Kind, _Window] = {}

    def emit(self, record: logging.LogRecord) -> None:
        # Called under the handler's lock (Handler.handle), so the windows need no lock of their own.
        kind = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        window = self._windows.get(kind)
        if window is None or now - window.start >= self.window_s:
            if window is not None and window.held:
                super().emit(self._summary(record, window, now))
            if window is None and len(self._windows) >= MAX_KINDS:
                self._forget(now)
            window = self._windows[kind] = _Window(start=now)
        if window.written >= self.burst:
            window.held += 1
            return
        window.written += 1
        super().emit(record)
        if window.written == self.burst:
            super().emit(
                self._note(
                    record,
                    f"(more messages like the one above are held back for up to {self.window_s:.0f} s; "
                    "their number follows)",
                )
            )

    def close(self) -> None:
        """Write the counts still owed (the daemon stops in the middle of a flood)."""
        self.acquire()
        try:
            now = self.clock()
            for (name, level, msg), window in self._windows.items():
                if window.held:
                    record = logging.LogRecord(name, level, "", 0, msg, None, None)
                    super().emit(self._summary(record, window, now))
                    window.held = 0
        finally:
            self.release()
        super().close()

    def _forget(self, now: float) -> None:
        expired = [k for k, w in self._windows.items() if now - w.start >= self.window_s and not w.held]
        for kind in expired:
            del self._windows[kind]
        if len(self._windows) >= MAX_KINDS:  # a program bug logging f-strings: start afresh
            self._windows.clear()

    def _summary(self, record: logging.LogRecord, window: _Window, now: float) -> logging.LogRecord:
        return self._note(
            record,
            f"{window.held} more message(s) like {str(record.msg)!r} were not shown in the last "
            f"{now - window.start:.0f} s",
        )

    @staticmethod
    def _note(record: logging.LogRecord, text: str) -> logging.LogRecord:
        return logging.LogRecord(
            record.name, record.levelno, record.pathname, record.lineno, text, None, None
        )


def configure_logging(
    *, verbose: bool = False, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic
) -> BoundedHandler:
    """The daemon's logging: warnings (``verbose``: info too) to ``stream`` (stderr), bounded."""
    handler = BoundedHandler(stream, clock=clock)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    return handler
