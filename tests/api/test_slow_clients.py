"""A client that stops reading must not delay the clocks or the other clients.

The daemon here runs fast simulated players (a press every few ms per table), so the
stream of pushes is heavy. A stuck subscriber is one that subscribed and never reads
again, with a tiny receive buffer. While it is stuck (its unsent backlog growing on the
server), presses keep being journaled and a healthy subscriber keeps receiving every
event; then the stuck one is disconnected.
"""

from __future__ import annotations

import json

from clockd.api import Client, Subscription, TimelinePush
from clockd.core.program import AddNote
from clockd.service.server import ServerLimits
from tests.conftest import wait_until


def backlog(daemon, peer_port: int) -> int:
    """Bytes the server holds for the subscriber whose local port is ``peer_port``."""
    for sub in list(daemon.server._subscribers):
        if sub.writer.get_extra_info("peername")[1] == peer_port:
            return sub.writer.transport.get_write_buffer_size()
    return -1  # not subscribed (any more)


def test_a_stuck_subscriber_delays_neither_presses_nor_other_subscribers_and_is_dropped(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=4, think_ms=(2, 6), limits=ServerLimits(public_backlog_bytes=512 * 1024))
    stuck = raw_client(daemon.port, rcvbuf=4096)
    stuck.send(b'{"type": "subscribe", "timeline": true}\n')
    stuck_port = stuck.sock.getsockname()[1]
    healthy = Subscription(port=daemon.port, timeline=True)
    received: list[int] = []
    reader = healthy.run_in_thread(
        lambda m: received.append(m.entry.seq) if isinstance(m, TimelinePush) else None
    )

    wait_until(lambda: backlog(daemon, stuck_port) > 0)  # kernel buffers full: the server now holds the rest
    journaled_when_stuck = daemon.engine.current.seq
    # While it stays stuck, the clocks go on and the healthy subscriber sees every new event.
    wait_until(lambda: daemon.engine.current.seq >= journaled_when_stuck + 200)
    still_stuck = backlog(daemon, stuck_port)
    assert still_stuck > 0
    target = daemon.engine.current.seq
    wait_until(lambda: bool(received) and received[-1] >= target)
    wait_until(lambda: backlog(daemon, stuck_port) == -1)  # then it is dropped
    assert daemon.server.stats.dropped_subscribers == 1

    healthy.close()
    reader.join(5)
    assert received == list(range(received[0], received[-1] + 1))  # nothing lost, nothing repeated
    daemon.sims.stop()  # the players stop; then everything they pressed is journaled and acknowledged
    daemon.engine.barrier().result(5)
    daemon.engine._outbox.stop()
    sims = [d for d in daemon._devices.values()]
    assert sum(s.sent for s in sims) == daemon.engine.stats.presses + daemon.engine.stats.duplicates_acked
    assert sum(s.acked for s in sims) == daemon.engine.stats.presses  # every press journaled and acknowledged


def test_a_client_that_sends_requests_but_never_reads_replies_stalls_only_itself(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=2, think_ms=(5, 15))
    greedy = raw_client(daemon.port, rcvbuf=4096)
    request = json.dumps({"type": "status"}).encode() + b"\n"
    greedy.sock.setblocking(False)
    sent = 0
    try:  # push status requests until the server stops reading them (its replies are not read)
        for _ in range(20_000):
            greedy.sock.send(request)
            sent += 1
    except BlockingIOError:
        pass
    seq = daemon.engine.current.seq
    with Client(port=daemon.port, token=daemon.token) as other:
        assert len(other.status().tables) == 2
        other.act(1, AddNote(text="the referee is still served"))
    wait_until(lambda: daemon.engine.current.seq > seq + 100)  # presses keep being journaled
    assert sent > 100


def test_closing_a_subscription_ends_its_reader_thread_quietly(start_daemon, monkeypatch) -> None:
    """A GUI that closes the subscription from a message handler (its window closed) must not
    crash the reader thread, and a read after close says the connection is gone."""
    import threading

    import pytest

    crashes: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: crashes.append(args.exc_value))
    daemon = start_daemon(tables=1, players=False)
    closed: list[Exception] = []
    sub = Subscription(port=daemon.port)
    reader = sub.run_in_thread(lambda m: sub.close(), on_close=closed.append)
    reader.join(timeout=5)
    assert not reader.is_alive()
    assert crashes == [] and closed == []  # closed by us: not reported as the daemon going away
    with pytest.raises(ConnectionError):
        sub.read(timeout_ms=10)
