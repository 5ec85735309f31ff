"""One client must not freeze, starve or lock out the others (issue 20, item 6).

On the original main, 20 000 requests on one connection made another client wait 13–28 s,
20 000 ``subscribe`` lines grew the daemon by ~90 MB, and 256 idle connections locked
everyone else out — the referee's desk included. The policy that replaced it is
``ServerLimits`` (docs/architecture.md, "The API under load: limits"); these tests hold the
daemon to it, with small limits so that they run in seconds.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest

from clockd.api import ApiError, Client
from clockd.core.program import AddNote
from clockd.service.server import ServerLimits
from tests.conftest import wait_until


def status_latency(port: int, token: str | None = None) -> float:
    started = time.perf_counter()
    with Client(port=port, token=token, retry=False) as client:
        client.status()
    return time.perf_counter() - started


def flood(port: int, line: bytes, count: int, *, read: bool) -> tuple[socket.socket, threading.Thread]:
    """A client that writes ``count`` copies of ``line`` at once, and reads every reply as fast
    as it comes (``read``) or never."""
    sock = socket.create_connection(("127.0.0.1", port))
    if not read:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)

    def drain() -> None:
        with contextlib.suppress(OSError):
            while sock.recv(1 << 20):
                pass

    if read:
        threading.Thread(target=drain, daemon=True).start()

    def send() -> None:
        with contextlib.suppress(OSError):
            sock.sendall(line * count)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return sock, thread


def test_twenty_thousand_requests_on_one_connection_do_not_make_another_client_wait(start_daemon) -> None:
    daemon = start_daemon(tables=64, think_ms=(300, 900))
    flooder, _ = flood(daemon.port, b'{"type": "status"}\n', 20_000, read=True)
    wait_until(lambda: daemon.server.stats.requests >= 100)  # the flood is under way
    latencies = [status_latency(daemon.port) for _ in range(10)]
    referee = [status_latency(daemon.port, daemon.token) for _ in range(10)]
    flooder.close()
    # On the original main the other client waited for the flood: 97 s here, 13–28 s in the review.
    # (Generous bounds: this machine may be busy with other work; the figures are in the soak.)
    assert max(latencies) < 5.0, latencies  # a stranger waits its turn, not the flood's
    assert max(referee) < 3.0, referee  # the referee is never paced
    assert daemon.server.stats.paced_s > 0  # the flood was


def test_a_stranger_is_paced_and_the_referee_is_not(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False, limits=ServerLimits(public_rate=50))
    raw = raw_client(daemon.port)
    started = time.perf_counter()
    raw.send(b'{"type": "ping"}\n' * 150)
    for _ in range(150):
        raw.line()
    stranger = time.perf_counter() - started
    assert stranger >= 1.9  # 50 at once, then 50 a second
    started = time.perf_counter()
    with Client(port=daemon.port, token=daemon.token) as client:
        for _ in range(150):
            client.ping()
    assert time.perf_counter() - started < stranger / 2


def test_a_flood_of_subscribe_lines_that_are_never_read_holds_little_and_stalls_only_itself(
    start_daemon,
) -> None:
    daemon = start_daemon(tables=64, players=False, limits=ServerLimits(idle_timeout_s=2))
    flooder, _ = flood(daemon.port, b'{"type": "subscribe", "timeline": true}\n', 20_000, read=False)

    def backed_up() -> list[int]:  # what the daemon holds for each connection, unsent
        return [c.writer.transport.get_write_buffer_size() for c in list(daemon.server._connections)]

    wait_until(lambda: any(backed_up()))  # its replies back up: it does not read them
    assert max(backed_up()) < 1 << 20  # held: little
    assert status_latency(daemon.port) < 0.5  # and the others are answered meanwhile
    wait_until(lambda: daemon.server.stats.idle_closed >= 1, timeout_s=10)  # a reply it never reads: closed
    # In all the time the daemon held it open it read no more of its lines (they waited in the
    # kernel's buffers, not the daemon's): it stalled only itself.
    assert daemon.server.stats.requests < 100
    flooder.close()


def test_idle_connections_never_lock_the_referee_out_and_are_closed(start_daemon, raw_client) -> None:
    limits = ServerLimits(max_clients=20, idle_timeout_s=1.5, first_line_timeout_s=1.0)
    daemon = start_daemon(tables=1, players=False, limits=limits)
    idle = [socket.create_connection(("127.0.0.1", daemon.port)) for _ in range(30)]
    wait_until(lambda: len(daemon.server._connections) == 30)
    stranger = raw_client(daemon.port)
    stranger.send(b'{"type": "status", "id": 1}\n')
    refused = json.loads(stranger.line())
    assert (refused["code"], refused["reason"]["code"]) == ("unavailable", "api.too-many-clients")
    with Client(port=daemon.port, token=daemon.token) as desk:  # the token always gets in
        assert len(desk.status().tables) == 1
        desk.act(1, AddNote(text="the desk is served"))
    wait_until(lambda: daemon.server.stats.idle_closed >= 20, timeout_s=10)  # the idle ones are closed
    assert status_latency(daemon.port) < 1.0  # and strangers get in again
    for sock in idle:
        sock.close()


def test_strangers_subscriptions_are_capped_the_referees_are_not(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False, limits=ServerLimits(max_subscribers=3))
    screens = [raw_client(daemon.port) for _ in range(4)]
    for screen in screens:
        screen.send(b'{"type": "subscribe", "id": "s"}\n')
    answers = [json.loads(screen.line()) for screen in screens]
    assert [a["type"] for a in answers[:3]] == ["subscribed"] * 3
    assert answers[3]["reason"]["code"] == "api.too-many-subscribers"
    desk = raw_client(daemon.port)
    desk.send(b'{"type": "subscribe", "id": "s", "token": "%s"}\n' % daemon.token.encode())
    assert json.loads(desk.line())["type"] == "subscribed"


def test_a_strangers_long_line_needs_one_of_few_places_the_referees_does_not(
    start_daemon, raw_client
) -> None:
    limits = ServerLimits(public_line_bytes=4096, big_lines=0)
    daemon = start_daemon(tables=1, players=False, limits=limits)
    stranger = raw_client(daemon.port)
    stranger.send(json.dumps({"type": "ping", "id": "x" * 5000}).encode() + b"\n")
    reply = json.loads(stranger.line())
    assert reply["code"] == "too-large" and reply["reason"]["params"]["limit"] == 4096
    with Client(port=daemon.port, token=daemon.token) as desk:  # introduces itself first
        with pytest.raises(ApiError) as refused:
            desk.events(["no-such-event"] * 20_000)  # a long line, read whole: refused for what it asks
        assert refused.value.code == "refused"


def test_a_strangers_long_line_is_read_whole_while_a_place_is_free(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False, limits=ServerLimits(public_line_bytes=4096, big_lines=1))
    stranger = raw_client(daemon.port)
    stranger.send(json.dumps({"type": "ping", "id": "y" * 100_000}).encode() + b"\n")
    assert json.loads(stranger.line())["type"] == "pong"


def test_a_wrong_token_on_an_action_is_still_refused_on_a_trusted_connection(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=1, players=False)
    raw = raw_client(daemon.port)
    raw.send(b'{"type": "ping", "id": 1, "token": "%s"}\n' % daemon.token.encode())
    assert json.loads(raw.line())["type"] == "pong"
    raw.send(b'{"type": "note", "id": 2, "target": "1", "text": "x"}\n')  # the connection is trusted …
    assert json.loads(raw.line())["code"] == "unauthorized"  # … but every action needs the token itself
    with pytest.raises(ApiError):
        Client(port=daemon.port, token="wrong").act(1, AddNote(text="x"))


def test_an_action_refused_for_want_of_a_place_is_not_applied(start_daemon, raw_client) -> None:
    limits = ServerLimits(max_clients=2, max_referee_clients=1, first_line_timeout_s=2.0)
    daemon = start_daemon(tables=1, players=False, limits=limits)
    idle = [socket.create_connection(("127.0.0.1", daemon.port)) for _ in range(2)]
    wait_until(lambda: len(daemon.server._connections) == 2)
    desk = Client(port=daemon.port, token=daemon.token)
    desk.ping()  # the one place for the referee beyond the public ones
    seq = daemon.engine.current.seq
    second = raw_client(daemon.port)
    second.send(
        b'{"type": "note", "id": 1, "target": "1", "text": "x", "token": "%s"}\n' % daemon.token.encode()
    )
    assert json.loads(second.line())["reason"]["code"] == "api.too-many-clients"
    assert daemon.engine.current.seq == seq  # refused before it was applied, not after
    desk.close()
    for sock in idle:
        sock.close()


def test_the_referees_new_connection_is_not_queued_behind_paced_strangers(start_daemon, raw_client) -> None:
    """Strangers wait for their turns at a budget they have spent; a command the referee starts
    now (a new connection whose first request carries the token) must not wait in that line."""
    daemon = start_daemon(
        tables=1, players=False, limits=ServerLimits(public_work=0.005, public_work_burst=0.001)
    )
    floods = [flood(daemon.port, b'{"type": "ping"}\n', 50_000, read=True)[0] for _ in range(6)]
    wait_until(lambda: daemon.server.stats.paced_s > 0)  # the strangers have spent their budget: they wait
    started = time.perf_counter()
    stranger = raw_client(daemon.port)
    stranger.send(b'{"type": "ping", "id": 1}\n')
    stranger.line()
    waited = time.perf_counter() - started
    started = time.perf_counter()
    with Client(port=daemon.port, token=daemon.token, retry=False) as desk:
        desk.ping()
    referee = time.perf_counter() - started
    for sock in floods:
        sock.close()
    assert waited > 0.1  # the strangers' line is long …
    assert referee < waited / 3, (referee, waited)  # … and the referee is not in it


def timeline_flood(port: int, table: int, count: int, *, source: str = "127.0.0.1") -> socket.socket:
    """A stranger's connection (from ``source``, any loopback address) that asks for ``count``
    timelines of ``table`` at once, as long as they may be."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    sock.sendall(b'{"type": "timeline", "table": %d, "limit": 10000}\n' % table * count)
    return sock


def a_busy_journal(start_daemon, **kwargs):
    """A daemon whose tables pressed for a while (a timeline to read), then stopped pressing."""
    daemon = start_daemon(tables=8, think_ms=(5, 15), **kwargs)
    wait_until(lambda: daemon.engine.current.seq > 800)
    daemon.sims.stop()
    return daemon


def test_strangers_are_answered_after_a_flood_of_timelines_that_left(start_daemon, raw_client) -> None:
    """Issue 29, item 4: 200 strangers asked for 50 big timelines each and left; every other
    stranger was starved for 31 minutes, and the dead connections were kept. (Their requests'
    waits for a worker thread were charged as work: the budget ran hours into debt.)"""
    limits = ServerLimits(public_work=0.05)
    daemon = a_busy_journal(start_daemon, limits=limits)
    seen = daemon.server.stats.connections
    for sock in [timeline_flood(daemon.port, 1, 20) for _ in range(100)]:
        sock.close()  # they asked, and left
    # The dead connections go at once, with the requests they left waiting (once the server has
    # taken them from the kernel's queue: on a loaded machine that comes after they closed) …
    wait_until(lambda: daemon.server.stats.connections >= seen + 100, timeout_s=20)
    wait_until(lambda: not daemon.server._connections, timeout_s=10)
    assert daemon.server.stats.abandoned >= 50
    assert daemon.server.stats.requests < 100 * 20 / 4
    # … and the next stranger (an audience screen, the web pages' hub) is answered
    screen = raw_client(daemon.port)
    screen.send(b'{"type": "subscribe", "id": "s"}\n')
    assert json.loads(screen.line())["type"] == "subscribed"


def test_strangers_turns_are_dealt_by_address(start_daemon) -> None:
    """Fifty connections from one address, reading every timeline they ask for, get that
    address's turns; a screen at another address waits for one round, not for all fifty."""
    daemon = a_busy_journal(start_daemon, limits=ServerLimits(public_work=0.05))
    floods = [timeline_flood(daemon.port, 1, 500, source="127.0.0.2") for _ in range(50)]
    for sock in floods:
        threading.Thread(target=lambda s=sock: _drain(s), daemon=True).start()
    wait_until(lambda: daemon.server._work.waiting)  # the budget is spent: they wait in line
    before = daemon.server.stats.requests
    with Client(port=daemon.port, retry=False) as screen:
        screen.ping()
    served_meanwhile = daemon.server.stats.requests - before - 1
    for sock in floods:
        sock.close()
    # on main the screen waited behind every flooding connection (50 and more)
    assert served_meanwhile <= daemon.server.limits.public_at_once + 4, served_meanwhile


def _drain(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while sock.recv(1 << 20):
            pass
