"""A request id is applied once and answered the same way each time it is repeated; a request
that cannot be answered is refused, not applied; hostile JSON gets a reply (issue 20, items 7, 11).

On the original main the same ``adjust`` sent three times moved the clock by +90 s, an id with
an unpaired surrogate applied the action and dropped the connection without a reply, an
``after_seq`` of 2^63 was an internal error and ``delta_ms: true`` was taken as 1 ms.
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path

from clockd.api import Client
from clockd.core.clock import Adjust
from clockd.service.actions import RequestKey, journal
from clockd.service.engine import _Command
from clockd.service.runtime import Daemon, TableSpec


def adjust(token: str, request_id: object, delta_ms: object = 30_000, **extra: object) -> bytes:
    request = {"type": "adjust", "id": request_id, "target": "1", "token": token, "side": "a"}
    request.update(delta_ms=delta_ms, reason="illegal move", **extra)
    return json.dumps(request).encode() + b"\n"


def remaining_a(daemon: Daemon) -> int:
    with Client(port=daemon.port) as client:
        return client.status([1]).tables[0].program.clock.remaining_ms.a


def adjusts(daemon: Daemon) -> list[int]:
    with Client(port=daemon.port) as client:
        return [e.seq for e in client.timeline(1).entries if e.kind == "adjust"]


def test_the_same_adjust_sent_three_times_is_applied_once_and_answered_alike(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=1, players=False)
    before = remaining_a(daemon)
    replies = []
    for _ in range(3):  # a client that lost the reply and retried, twice, each time on a new connection
        raw = raw_client(daemon.port)
        raw.send(adjust(daemon.token, "desk-7"))
        replies.append(json.loads(raw.line()))
    assert [r["type"] for r in replies] == ["done"] * 3
    assert len({r["seq"] for r in replies}) == 1 and replies[0]["id"] == "desk-7"
    assert remaining_a(daemon) - before == 30_000  # +30 s, not +90 s
    assert adjusts(daemon) == [replies[0]["seq"]]
    same = raw_client(daemon.port)  # repeated on one connection, back to back
    same.send(adjust(daemon.token, 8) * 3)
    assert len({json.loads(same.line())["seq"] for _ in range(3)}) == 1
    assert remaining_a(daemon) - before == 60_000


def test_an_id_used_again_for_another_request_is_refused_and_nothing_changes(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=1, players=False)
    raw = raw_client(daemon.port)
    raw.send(adjust(daemon.token, "r1"))
    first = json.loads(raw.line())
    before = remaining_a(daemon)
    raw.send(adjust(daemon.token, "r1", delta_ms=-60_000))
    reply = json.loads(raw.line())
    assert (reply["code"], reply["reason"]["code"]) == ("refused", "daemon.request-id-reused")
    assert reply["reason"]["params"] == {"id": "r1", "seq": first["seq"]}
    assert remaining_a(daemon) == before
    raw.send(adjust(daemon.token, 7))  # 7 and "7" are two ids
    raw.send(adjust(daemon.token, "7"))
    assert json.loads(raw.line())["seq"] != json.loads(raw.line())["seq"]


def test_a_request_id_is_remembered_across_a_restart(tmp_path: Path, raw_client) -> None:
    def start() -> Daemon:
        daemon = Daemon(
            tmp_path / "j.db", tables=[TableSpec(1, control="10m")], port=0, write_daemon_info=False
        )
        daemon.start()
        return daemon

    daemon = start()
    raw = raw_client(daemon.port)
    raw.send(adjust(daemon.token, "before-the-crash"))
    first = json.loads(raw.line())
    daemon.stop()
    for snapshots in (True, False):  # from the snapshot written at the stop, and from the events alone
        daemon = Daemon(
            tmp_path / "j.db",
            tables=[TableSpec(1, control="10m")],
            port=0,
            write_daemon_info=False,
            use_snapshots=snapshots,
        )
        daemon.start()
        before = remaining_a(daemon)
        raw = raw_client(daemon.port)
        raw.send(adjust(daemon.token, "before-the-crash"))
        again = json.loads(raw.line())
        assert (again["type"], again["seq"]) == ("done", first["seq"])
        assert remaining_a(daemon) == before and adjusts(daemon) == [first["seq"]]
        daemon.stop()


def test_the_same_request_twice_in_one_batch_is_journaled_once(tmp_path: Path) -> None:
    from clockd.service.compose import default_components
    from clockd.service.engine import Engine
    from clockd.service.entries import TableCreated
    from clockd.store.journal import Journal

    engine = Engine(Journal(tmp_path / "j.db"), boot_id="t", components=default_components())
    engine.recover()
    engine.apply_now([TableCreated(table=1, label="1", control="10m")])
    key = RequestKey(id="twice", digest="d1")
    entry = journal(Adjust(side="a", delta_ms=1000, reason="x"), target="desk/1", table=1, request=key)
    other = entry.model_copy(update={"request": RequestKey(id="twice", digest="another")})
    futures: list[Future[int]] = [Future(), Future(), Future()]
    engine._process([_Command(entry, futures[0]), _Command(entry, futures[1]), _Command(other, futures[2])])
    seq = futures[0].result(0)
    assert futures[1].result(0) == seq  # answered with the first one's seq, once committed
    assert futures[2].exception(0).msg.code == "daemon.request-id-reused"  # type: ignore[union-attr]
    assert [r.seq for r in engine.journal.read() if r.entry.kind == "adjust"] == [seq]
    engine.journal.close()


def test_a_request_that_could_not_be_answered_is_refused_with_a_reply_and_not_applied(
    start_daemon, raw_client
) -> None:
    daemon = start_daemon(tables=1, players=False)
    seq = daemon.engine.current.seq
    raw = raw_client(daemon.port)
    lone = b'{"type": "note", "id": "\\ud800", "target": "1", "text": "x", "token": "%s"}\n'
    raw.send(lone % daemon.token.encode())
    reply = json.loads(raw.line())
    assert (reply["type"], reply["id"], reply["code"]) == ("error", None, "malformed")
    assert reply["reason"]["code"] == "api.not-unicode" and "\\ud800" in reply["message"]
    raw.send(
        b'{"type": "note", "id": 2, "target": "1", "text": "a\\udc00b", "token": "%s"}\n'
        % daemon.token.encode()
    )
    assert json.loads(raw.line())["id"] == 2  # elsewhere in it: refused too, its id echoed
    raw.send(
        b'{"type": "note", "id": 3, "target": "1", "text": "\\ud83d\\ude00", "token": "%s"}\n'
        % daemon.token.encode()
    )
    assert json.loads(raw.line())["type"] == "done"  # a whole pair is an emoji: fine
    assert daemon.engine.current.seq == seq + 1


def test_hostile_json_gets_a_reply_and_the_connection_stays(start_daemon, raw_client) -> None:
    daemon = start_daemon(tables=1, players=False)
    before = remaining_a(daemon)
    raw = raw_client(daemon.port)
    raw.send(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    assert json.loads(raw.line())["code"] == "malformed"
    raw.send(b'{"type": "status", "id": 1, "tables": ' + b"[" * 5000 + b"]" * 5000 + b"}\n")
    assert json.loads(raw.line())["code"] == "malformed"
    raw.send(b'{"type": "timeline", "id": 2, "table": 1, "after_seq": %d}\n' % 2**63)
    reply = json.loads(raw.line())
    assert (reply["id"], reply["code"], reply["reason"]["code"]) == (2, "invalid", "field.too-big")
    raw.send(adjust(daemon.token, 3, delta_ms=True))  # a boolean is not a number of milliseconds
    reply = json.loads(raw.line())
    assert (reply["code"], reply["reason"]["code"]) == ("invalid", "field.not-int")
    raw.send(b'{"type": "ping", "id": "still-there"}\n')
    assert json.loads(raw.line())["id"] == "still-there"
    assert remaining_a(daemon) == before  # nothing applied, not even 1 ms
