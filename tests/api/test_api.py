"""The API against a running daemon: the token guards every change, bad input is refused with a
sentence and changes nothing, the subscription stream is complete and usable from Qt."""

from __future__ import annotations

import json
import time

import pytest

import clockd.service.compose  # noqa: F401  (every event kind's actions, as the daemon knows them)
from clockd.api import ApiError, Client, Subscription, TableStatePush, TimelinePush
from clockd.api.messages import API_VERSION, MAX_LINE_BYTES, MAX_REPLY_BYTES
from clockd.core.actions import action_types
from clockd.core.clock import Adjust, Side
from clockd.core.program import AddNote
from clockd.i18n import render

#: A valid body for every action (a new action must be added here: the test walks them all).
ACTION_BODIES: dict[str, dict[str, object]] = {
    "pause": {"target": "1"},
    "resume": {"target": "1"},
    "adjust": {"target": "1", "side": "a", "delta_ms": -5000, "reason": "x"},
    "adjust-undo": {"target": "1", "at_ns": 1, "side": "a", "delta_ms": -5000, "reason": "x"},
    "set-clock": {"target": "1", "control": "5m"},
    "table-free": {"target": "1", "reason": "x"},
    "clear-alert": {"target": "1"},
    "note": {"target": "1", "text": "hello"},
    "complete": {"target": "1"},
    "event-create": {"event_kind": "puzzle-duel", "key": "pt"},
    "person-access": {"how": "show", "person": "p1", "reason": "x"},
    "person-correct": {"person": "p1", "field": "email", "value": "a@b.pl", "reason": "x"},
    "person-restrict": {"person": "p1", "reason": "x"},
    "person-erase": {"person": "p1", "reason": "x"},
    "person-drop": {"person": "p1", "fields": ["email"], "reason": "x"},
    "person-consent": {"person": "p1", "consent": "image", "reason": "x"},
    "signups-import": {"target": "pt", "csv": "x"},
    "player-add": {"target": "pt", "first_name": "Ola", "age": 20},
    "check-in": {"target": "pt", "player": 1},
    "check-out": {"target": "pt", "player": 1},
    "withdraw": {"target": "pt", "player": 1},
    "check-in-close": {"target": "pt"},
    "check-in-reopen": {"target": "pt"},
    "draw": {"target": "pt", "seed": 1},
    "match-assign": {"target": "pt/R1-1", "table": 1},
    "match-toss": {"target": "pt/R1-1", "winner": 1},
    "match-confirm": {"target": "pt/R1-1"},
    "match-override": {"target": "pt/R1-1", "winner": 1, "category": "dispute", "reason": "x"},
    "match-walkover": {"target": "pt/R1-1", "absent": 1, "reason": "x"},
    "match-tiebreak": {"target": "pt/R1-1"},
    "timer-start": {"target": "relay"},
    "timer-pause": {"target": "relay"},
    "timer-resume": {"target": "relay"},
    "timer-adjust": {"target": "relay", "delta_ms": 1000, "reason": "x"},
    "timer-schedule": {"target": "relay", "start_in_ms": 60_000},
    "timer-end": {"target": "relay"},
    "entry-finish": {"target": "relay", "entry": "p1"},
    "entry-unfinish": {"target": "relay", "entry": "p1", "reason": "x"},
    "event-clear-alert": {"target": "relay"},
    "entry-add": {"target": "relay", "entry": "p1", "table": 1},
    "entries-import": {"target": "relay", "csv": "x"},
    "entry-check-in": {"target": "relay", "entry": "p1"},
    "entry-check-out": {"target": "relay", "entry": "p1"},
    "entries-close": {"target": "relay"},
    "entries-reopen": {"target": "relay"},
    "entry-table": {"target": "relay", "entry": "p1", "table": 1},
    "entry-split": {"target": "relay", "entry": "p1"},
    "entry-count": {"target": "relay", "entry": "p1", "pieces": 10},
    "entry-missing": {"target": "relay", "entry": "p1", "missing": 1},
    "entry-void": {"target": "relay", "entry": "p1", "reason": "x"},
    "entry-unvoid": {"target": "relay", "entry": "p1", "reason": "x"},
    "zone-confirm": {"target": "relay"},
    "switcher-seat": {"target": "rotacja", "seat": 1, "name": "Ola"},
    "switcher-replace": {"target": "rotacja", "seat": 1, "name": "Ela"},
    "switcher-table-done": {"target": "rotacja", "table": 1},
    "switcher-table-undone": {"target": "rotacja", "table": 1, "reason": "x"},
    "chess-pair": {"target": "sp3-ch", "round": 1},
    "chess-result": {"target": "sp3-ch", "board": 1, "result": "1"},
    "chess-undo": {"target": "sp3-ch", "board": 1},
    "chess-close": {"target": "sp3-ch"},
    "chess-claim": {"target": "sp3-ch", "board": 1, "player": 1},
    "chess-appeal": {"target": "sp3-ch", "board": 1, "player": 1, "text": "x", "decision": "y"},
    "chess-report": {"target": "sp3-ch", "player": 1},
    "chess-withdraw": {"target": "sp3-ch", "player": 1, "reason": "x"},
    "chess-add": {"target": "sp3-ch", "surname": "Nowak", "first_name": "Jan"},
    "chess-fix": {"target": "sp3-ch", "player": 1, "school": "SP 5", "reason": "x"},
    "chess-hand-match": {"target": "zapisy", "file": "bank.csv", "row": 1, "forms": [2]},
}


def journal_size(daemon) -> int:
    daemon.engine.barrier().result(5)
    return daemon.engine.journal.count()


def test_every_action_needs_the_token(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False)
    assert set(action_types()) == set(ACTION_BODIES)  # every action the daemon knows is tried below
    before = journal_size(daemon)
    digest = Client(port=daemon.port).status().tables[0].digest
    raw = raw_client(daemon.port)
    for kind in sorted(ACTION_BODIES):
        for token in (None, "wrong-token", ""):
            request = {"type": kind, "id": kind, **ACTION_BODIES[kind]}
            if token is not None:
                request["token"] = token
            raw.send(json.dumps(request).encode() + b"\n")
            reply = json.loads(raw.line())
            assert reply["type"] == "error" and reply["code"] == "unauthorized", (kind, token, reply)
            assert reply["id"] == kind
            assert reply["reason"]["code"] in ("api.no-token", "api.wrong-token")
            assert "needs the referee's token" in reply["message"]
            assert "wymaga tokenu sędziego" in render(reply["reason"]["code"], "pl", type=kind)
    assert journal_size(daemon) == before
    with Client(port=daemon.port) as reader:
        assert reader.status().tables[0].digest == digest
        with pytest.raises(ApiError) as refused:
            reader.act(1, Adjust(side=Side.A, delta_ms=-5000, reason="no token"))
        assert refused.value.code == "unauthorized"
    with Client(port=daemon.port, token=daemon.token, by="Anna") as referee:
        done = referee.act(1, Adjust(side=Side.A, delta_ms=-5000, reason="illegal move"))
        assert done.table is not None and done.table.program.clock.remaining_ms.a == 595_000
    assert journal_size(daemon) == before + 1


def test_reading_needs_no_token(start_daemon) -> None:
    daemon = start_daemon(tables=2, players=False)
    with Client(port=daemon.port) as c:
        assert c.ping().api == API_VERSION
        assert [t.table for t in c.status().tables] == [1, 2]
        assert c.timeline(1).entries[0].kind == "table-created"
    with Subscription(port=daemon.port) as sub:
        assert sub.seq >= 1


BAD_LINES = [
    (b"this is not json", "malformed", "api.malformed", "not valid JSON"),
    (b"[1, 2, 3]", "malformed", "api.not-an-object", "must be a JSON object, not list"),
    (b"\xff\xfe{}", "malformed", "api.malformed", "not valid JSON"),
    (b'{"v": 2}', "invalid", "api.no-type", 'no "type"'),
    (b'{"type": "explode", "id": 7}', "unknown-type", "api.unknown-type", "there is no request explode"),
    (
        b'{"type": "ping", "v": 99}',
        "unsupported-version",
        "api.unsupported-version",
        "speaks API v2; the request is v99",
    ),
    (b'{"type": "status", "tables": "all"}', "invalid", "field.not-list", "tables must be a list"),
    (
        b'{"type": "adjust", "target": "1", "side": "c", "delta_ms": 5000, "reason": "x", "token": "T"}',
        "invalid",
        "field.not-one-of",
        "side must be one of",
    ),
    (
        b'{"type": "adjust", "target": "1", "side": "a", "delta_ms": "ten", "reason": "x", "token": "T"}',
        "invalid",
        "field.not-int",
        "delta_ms must be a whole number",
    ),
    (
        b'{"type": "adjust", "target": "1", "side": "a", "delta_sec": 5, "reason": "x", "token": "T"}',
        "invalid",
        "field.unknown",
        "there is no field delta_sec",
    ),
    (
        b'{"type": "adjust", "target": "1", "side": "a", "delta_ms": 5000, "reason": "", "token": "T"}',
        "invalid",
        "field.too-short",
        "reason must have at least 1",
    ),
    (
        b'{"type": "pause", "target": "1", "t_ns": 5, "token": "T"}',
        "invalid",
        "field.unknown",
        "no field t_ns",
    ),
    (b'{"type": "pause", "target": "9", "token": "T"}', "refused", "table.unknown", "there is no table 9"),
    (
        b'{"type": "pause", "target": "no such/thing/here/x", "token": "T"}',
        "refused",
        "ids.bad-ref",
        "names no table",
    ),
    (
        b'{"type": "resume", "target": "1", "token": "T"}',
        "refused",
        "clock.not-paused",
        "only a paused clock can be resumed",
    ),
    (
        b'{"type": "set-clock", "target": "1", "control": "forever", "token": "T"}',
        "refused",
        "control.bad-stage",
        "(forever)",
    ),
    (
        b'{"type": "clear-alert", "target": "1", "alert_id": 4, "token": "T"}',
        "refused",
        "table.no-alerts",
        "no open alerts",
    ),
    (
        b'{"type": "match-confirm", "target": "pt/R1-1", "token": "T"}',
        "refused",
        "event.unknown",
        "there is no event pt",
    ),
]


def test_malformed_or_invalid_requests_get_a_clear_error_and_change_nothing(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False)
    before = journal_size(daemon)
    digest = Client(port=daemon.port).status().tables[0].digest
    raw = raw_client(daemon.port)
    for line, code, reason, words in BAD_LINES:
        raw.send(line.replace(b'"T"', json.dumps(daemon.token).encode()) + b"\n")
        reply = json.loads(raw.line())
        assert (reply["type"], reply["code"]) == ("error", code), (line, reply)
        assert reply["reason"]["code"] == reason, (line, reply)
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
    huge = json.dumps(
        {"type": "note", "target": "1", "token": daemon.token, "text": "x" * (2 * MAX_LINE_BYTES)}
    )
    raw.send(huge.encode() + b"\n" + b'{"type": "ping", "id": 2}\n')
    reply = json.loads(raw.line())
    assert reply["code"] == "too-large" and str(MAX_LINE_BYTES) in reply["message"]
    pong = json.loads(raw.line())
    assert (pong["type"], pong["id"], pong["api"], pong["hall"]) == ("pong", 2, API_VERSION, "desk")
    assert journal_size(daemon) == before


def test_a_subscriber_gets_every_table_then_every_change_in_journal_order(start_daemon) -> None:
    daemon = start_daemon(tables=3, think_ms=(20, 60))
    with Subscription(port=daemon.port, timeline=True) as sub:
        first: list = []
        while len(first) < 3:
            first += sub.read(2000)
        initial = [m.table.table for m in first[:3]]
        assert initial == [1, 2, 3] and all(isinstance(m, TableStatePush) for m in first[:3])
        seen = [m.entry.seq for m in first if isinstance(m, TimelinePush)]
        deadline = time.monotonic() + 10
        while len(seen) < 150 and time.monotonic() < deadline:
            seen += [m.entry.seq for m in sub.read(1000) if isinstance(m, TimelinePush)]
    assert len(seen) >= 150
    assert seen == list(range(seen[0], seen[0] + len(seen)))  # no gap, no repeat, in order


def test_a_subscription_can_ask_for_some_tables_only(start_daemon) -> None:
    daemon = start_daemon(tables=3, think_ms=(20, 60))
    with Subscription(port=daemon.port, tables=[2], timeline=True) as sub:
        messages = []
        deadline = time.monotonic() + 5
        while len(messages) < 40 and time.monotonic() < deadline:
            messages += sub.read(500)
    tables = {m.table.table if isinstance(m, TableStatePush) else m.entry.table for m in messages}
    assert tables == {2}


def test_poll_never_blocks_and_reports_a_daemon_that_went_away(start_daemon) -> None:
    daemon = start_daemon(tables=1, players=False)
    sub = Subscription(port=daemon.port)
    assert [m.table.table for m in sub.read(2000)] == [1]  # the initial state
    started = time.monotonic_ns()
    assert sub.poll() == []
    assert time.monotonic_ns() - started < 1_000_000_000  # returned without waiting for news
    with Client(port=daemon.port, token=daemon.token) as referee:
        referee.act(1, AddNote(text="visible to subscribers"))
    update = sub.read(2000)
    assert [m.table.table for m in update if isinstance(m, TableStatePush)] == [1]
    daemon.stop()
    with pytest.raises(ConnectionError):
        for _ in range(50):
            sub.read(100)
    sub.close()


def test_a_qt_window_receives_the_stream_through_a_socket_notifier(start_daemon, qtbot) -> None:
    from PySide6.QtCore import QSocketNotifier

    daemon = start_daemon(tables=2, think_ms=(30, 80))
    sub = Subscription(port=daemon.port)
    received: list[TableStatePush] = []
    notifier = QSocketNotifier(sub.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(
        lambda *_: received.extend(m for m in sub.poll() if isinstance(m, TableStatePush))
    )
    received.extend(m for m in sub.poll() if isinstance(m, TableStatePush))
    qtbot.waitUntil(lambda: sum(1 for m in received if m.table.presses > 0) >= 10, timeout=10_000)
    notifier.setEnabled(False)
    sub.close()
    assert {m.table.table for m in received} == {1, 2}


def test_a_status_of_many_tables_is_read_whole_though_larger_than_a_request_may_be(start_daemon) -> None:
    daemon = start_daemon(tables=200, players=False)
    daemon.server.max_line_bytes = 64 * 1024  # a daemon that reads short requests only
    with Client(port=daemon.port) as c:
        reply = c.status()
    assert [t.table for t in reply.tables] == list(range(1, 201))
    assert len(reply.to_line()) > daemon.server.max_line_bytes
    assert MAX_LINE_BYTES < MAX_REPLY_BYTES  # and by default, replies may be longer than requests
