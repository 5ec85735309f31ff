"""The API against a running daemon: the token guards every change, bad input is refused with a
sentence and changes nothing, the subscription stream is complete and usable from Qt."""

from __future__ import annotations

import json
import time

import pytest

from clockd.api import ApiError, Client, Subscription, TableState, TimelineEvent
from clockd.api.messages import MAX_LINE_BYTES, request_types


def journal_size(daemon) -> int:
    daemon.engine.barrier().result(5)
    return daemon.engine.journal.count()


def test_every_state_changing_request_needs_the_token(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False)
    mutating = {name for name, cls in request_types().items() if cls.mutating}
    assert {"pause", "resume", "adjust", "set-clock", "clear-alert", "note"} <= mutating
    bodies = {
        "pause": {"table": 1},
        "resume": {"table": 1},
        "adjust": {"table": 1, "side": "a", "delta_ms": -5000, "reason": "x"},
        "set-clock": {"table": 1, "control": "5m"},
        "clear-alert": {"table": 1},
        "note": {"table": 1, "text": "hello"},
    }
    # the Puzzle Duel's requests (clockd/api/tournament.py): valid bodies, so only the token is missing
    session, match = {"session": "pt"}, {"session": "pt", "match": "R1-1"}
    bodies |= {k: session for k in ("tournament-create", "tournament-close", "tournament-draw")}
    for kind in ("match-complete", "match-confirm", "match-tiebreak", "match-pause", "match-resume"):
        bodies[kind] = match
    bodies |= {
        "tournament-import": {**session, "csv": "x"},
        "tournament-add-player": {**session, "first_name": "Ola", "age": 20},
        "tournament-check-in": {**session, "player": 1},
        "tournament-withdraw": {**session, "player": 1},
        "match-assign": {**match, "table": 1},
        "match-toss": {**match, "winner": 1},
        "match-override": {**match, "winner": 1, "category": "dispute", "reason": "x"},
        "match-walkover": {**match, "absent": 1, "reason": "x"},
        "match-adjust": {**match, "player": 1, "delta_ms": 1000, "reason": "x"},
    }
    before = journal_size(daemon)
    digest = Client(port=daemon.port).status().tables[0].digest
    raw = raw_client(daemon.port)
    for kind in sorted(mutating):
        for token in (None, "wrong-token", ""):
            request = {"type": kind, "id": kind, **bodies.get(kind, {"table": 1})}
            if token is not None:
                request["token"] = token
            raw.send(json.dumps(request).encode() + b"\n")
            reply = json.loads(raw.line())
            assert reply["type"] == "error" and reply["code"] == "unauthorized", (kind, token, reply)
            assert reply["id"] == kind
            assert "needs the referee's token" in reply["message"]
    assert journal_size(daemon) == before
    with Client(port=daemon.port) as reader:
        assert reader.status().tables[0].digest == digest
        with pytest.raises(ApiError) as refused:
            reader.adjust(1, "a", -5000, reason="no token")
        assert refused.value.code == "unauthorized"
    with Client(port=daemon.port, token=daemon.token, by="Anna") as referee:
        done = referee.adjust(1, "a", -5000, reason="illegal move")
        assert done.table is not None and done.table.remaining_ms.a == 595_000
    assert journal_size(daemon) == before + 1


def test_reading_needs_no_token(start_daemon) -> None:
    daemon = start_daemon(tables=2, players=False)
    with Client(port=daemon.port) as c:
        assert c.ping().api == 1
        assert [t.table for t in c.status().tables] == [1, 2]
        assert c.timeline(1).entries[0].kind == "table-created"
    with Subscription(port=daemon.port) as sub:
        assert sub.seq >= 1


BAD_LINES = [
    (b"this is not json", "malformed", "not valid JSON"),
    (b"[1, 2, 3]", "malformed", "must be a JSON object, not list"),
    (b"\xff\xfe{}", "malformed", "not valid JSON"),
    (b'{"v": 1}', "invalid", 'no "type"'),
    (b'{"type": "explode", "id": 7}', "unknown-type", "there is no request 'explode'"),
    (b'{"type": "ping", "v": 99}', "unsupported-version", "speaks API v1; the request is v99"),
    (b'{"type": "status", "tables": "all"}', "invalid", "tables: Input should be a valid list"),
    (
        b'{"type": "adjust", "table": 1, "side": "c", "delta_ms": 5000, "reason": "x", "token": "T"}',
        "invalid",
        "side",
    ),
    (
        b'{"type": "adjust", "table": 1, "side": "a", "delta_ms": "ten", "reason": "x", "token": "T"}',
        "invalid",
        "delta_ms",
    ),
    (
        b'{"type": "adjust", "table": 1, "side": "a", "delta_sec": 5, "reason": "x", "token": "T"}',
        "invalid",
        "delta_sec: unknown field",
    ),
    (
        b'{"type": "adjust", "table": 1, "side": "a", "delta_ms": 5000, "reason": "", "token": "T"}',
        "invalid",
        "reason",
    ),
    (b'{"type": "pause", "table": 9, "token": "T"}', "refused", "there is no table 9"),
    (b'{"type": "resume", "table": 1, "token": "T"}', "refused", "only a paused clock can be resumed"),
    (b'{"type": "set-clock", "table": 1, "control": "forever", "token": "T"}', "refused", "'forever'"),
    (b'{"type": "clear-alert", "table": 1, "alert_id": 4, "token": "T"}', "refused", "no open alert 4"),
]


def test_malformed_or_invalid_requests_get_a_clear_error_and_change_nothing(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False)
    before = journal_size(daemon)
    digest = Client(port=daemon.port).status().tables[0].digest
    raw = raw_client(daemon.port)
    for line, code, words in BAD_LINES:
        raw.send(line.replace(b'"T"', json.dumps(daemon.token).encode()) + b"\n")
        reply = json.loads(raw.line())
        assert (reply["type"], reply["code"]) == ("error", code), (line, reply)
        assert words in reply["message"], (line, reply["message"])
    raw.send(b'{"type": "ping", "id": "still-there"}\n')  # the connection survives all of it
    assert json.loads(raw.line())["id"] == "still-there"
    assert journal_size(daemon) == before
    assert Client(port=daemon.port).status().tables[0].digest == digest


def test_an_oversized_line_is_refused_and_skipped_without_closing_the_connection(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=1, players=False)
    before = journal_size(daemon)
    raw = raw_client(daemon.port)
    huge = json.dumps({"type": "note", "table": 1, "token": daemon.token, "text": "x" * (2 * MAX_LINE_BYTES)})
    raw.send(huge.encode() + b"\n" + b'{"type": "ping", "id": 2}\n')
    reply = json.loads(raw.line())
    assert reply["code"] == "too-large" and str(MAX_LINE_BYTES) in reply["message"]
    assert json.loads(raw.line()) == {"v": 1, "type": "pong", "id": 2, "api": 1, "version": "0.1.0"}
    assert journal_size(daemon) == before


def test_a_subscriber_gets_every_table_then_every_change_in_journal_order(start_daemon) -> None:
    daemon = start_daemon(tables=3, think_ms=(20, 60))
    with Subscription(port=daemon.port, timeline=True) as sub:
        first: list = []
        while len(first) < 3:
            first += sub.read(2000)
        initial = [m.table.table for m in first[:3]]
        assert initial == [1, 2, 3] and all(isinstance(m, TableState) for m in first[:3])
        seen = [m.entry.seq for m in first if isinstance(m, TimelineEvent)]
        deadline = time.monotonic() + 10
        while len(seen) < 150 and time.monotonic() < deadline:
            seen += [m.entry.seq for m in sub.read(1000) if isinstance(m, TimelineEvent)]
    assert len(seen) >= 150
    assert seen == list(range(seen[0], seen[0] + len(seen)))  # no gap, no repeat, in order


def test_a_subscription_can_ask_for_some_tables_only(start_daemon) -> None:
    daemon = start_daemon(tables=3, think_ms=(20, 60))
    with Subscription(port=daemon.port, tables=[2], timeline=True) as sub:
        messages = []
        deadline = time.monotonic() + 5
        while len(messages) < 40 and time.monotonic() < deadline:
            messages += sub.read(500)
    tables = {m.table.table if isinstance(m, TableState) else m.entry.table for m in messages}
    assert tables == {2}


def test_poll_never_blocks_and_reports_a_daemon_that_went_away(start_daemon) -> None:
    daemon = start_daemon(tables=1, players=False)
    sub = Subscription(port=daemon.port)
    assert [m.table.table for m in sub.read(2000)] == [1]  # the initial state
    started = time.monotonic_ns()
    assert sub.poll() == []
    assert time.monotonic_ns() - started < 1_000_000_000  # returned without waiting for news
    with Client(port=daemon.port, token=daemon.token) as referee:
        referee.note(1, "visible to subscribers")
    update = sub.read(2000)
    assert [m.table.table for m in update if isinstance(m, TableState)] == [1]
    daemon.stop()
    with pytest.raises(ConnectionError):
        for _ in range(50):
            sub.read(100)
    sub.close()


def test_a_qt_window_receives_the_stream_through_a_socket_notifier(start_daemon, qtbot) -> None:
    from PySide6.QtCore import QSocketNotifier

    daemon = start_daemon(tables=2, think_ms=(30, 80))
    sub = Subscription(port=daemon.port)
    received: list[TableState] = []
    notifier = QSocketNotifier(sub.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: received.extend(m for m in sub.poll() if isinstance(m, TableState)))
    received.extend(m for m in sub.poll() if isinstance(m, TableState))
    qtbot.waitUntil(lambda: sum(1 for m in received if m.table.presses > 0) >= 10, timeout=10_000)
    notifier.setEnabled(False)
    sub.close()
    assert {m.table.table for m in received} == {1, 2}


def test_a_status_of_many_tables_is_read_whole_though_larger_than_a_request_may_be(start_daemon) -> None:
    daemon = start_daemon(tables=200, players=False)
    with Client(port=daemon.port) as c:
        reply = c.status()
    assert [t.table for t in reply.tables] == list(range(1, 201))
    assert len(reply.to_line()) > MAX_LINE_BYTES
