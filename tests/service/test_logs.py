"""The daemon's log under a flood: one warning repeated 20 000 times costs a dozen lines, with
the number not shown; other messages still get through; stopping writes the counts owed."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from clockd.logs import configure_logging


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def daemon_log() -> Iterator[tuple[io.StringIO, Clock, logging.Handler]]:
    """The logging ``duelclock run`` sets up, writing to a buffer, with a clock the test moves."""
    stream, clock = io.StringIO(), Clock()
    root = logging.getLogger()
    level = root.level
    handler = configure_logging(stream=stream, clock=clock)
    yield stream, clock, handler
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_flood_of_one_warning_is_bounded_and_counted(
    daemon_log: tuple[io.StringIO, Clock, logging.Handler],
) -> None:
    stream, clock, handler = daemon_log
    server = logging.getLogger("clockd.service.server")
    for i in range(20_000):
        server.warning("subscriber %s reads too slowly: disconnected", f"('127.0.0.1', {i})")
        if i == 10_000:
            logging.getLogger("clockd.service.engine").critical("the engine stopped: %s", "disk full")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 12  # ten of them, the note that more are held back, and the one critical line
    assert len(stream.getvalue()) < 2_000  # not 7 MB
    assert "('127.0.0.1', 9)" in lines[9] and "held back for up to 60 s" in lines[10]
    assert "the engine stopped: disk full" in lines[11]

    clock.now += 61  # a new minute: the count of what was not shown comes first
    server.warning("subscriber %s reads too slowly: disconnected", "('127.0.0.1', 7)")
    summary, again = stream.getvalue().splitlines()[12:14]
    assert (
        "19990 more message(s) like 'subscriber %s reads too slowly: disconnected' were not shown" in summary
    )
    assert again.endswith("subscriber ('127.0.0.1', 7) reads too slowly: disconnected")

    for _ in range(20):
        server.warning("subscriber %s reads too slowly: disconnected", "x")
    handler.close()  # the daemon stops in the middle of a flood: the count is still written
    assert "11 more message(s) like" in stream.getvalue().splitlines()[-1]
