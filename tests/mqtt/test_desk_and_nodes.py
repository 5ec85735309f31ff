"""Two table nodes and one desk through a real Mosquitto, in this process: what a referee sees.

Node ``pi1`` times tables 1 and 2, ``pi2`` tables 3 and 4; their buttons are pressed by the
test at exact instants on each node's own clock (the two nodes' clocks are hours apart, as
two machines' are). The desk runs the Puzzle Duel session: its draw puts four duels on the
nodes' tables, the duels are played and decided on the nodes, and the desk's bracket moves on.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from clockd.api.client import Client
from clockd.core.actions import CreateEvent
from clockd.core.bracket import Confirm
from clockd.core.clock import Side
from clockd.core.device import Beep
from clockd.core.hall import TimerStart
from clockd.core.program import Pause
from clockd.core.units import HOUR, MINUTE, SECOND
from clockd.mqtt import topics, wire
from clockd.mqtt.desk import DeskLink
from clockd.mqtt.node import NodeLink
from clockd.service.actions import journal
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.entries import encode_entry
from tests.conftest import wait_until
from tests.mqtt.conftest import TestBroker, first_round_on_tables_1_to_4
from tests.tournament.conftest import T0, FakeClock
from tests.tournament.conftest import Buttons as PressedButtons

A, B = Side.A, Side.B


class Buttons(PressedButtons):
    """A table's two buttons and its buzzer, which remembers what it sounded."""

    def __init__(self, table: int) -> None:
        super().__init__(table)
        self.beeps: list[Beep] = []

    def beep(self, pattern: Any) -> None:
        self.beeps.append(pattern)


TABLES = {"pi1": [1, 2], "pi2": [3, 4]}


class MachineClock:
    """One machine's monotonic clock: the hall's time (the test's) plus this machine's own zero."""

    def __init__(self, hall: FakeClock, zero_ns: int) -> None:
        self.hall, self.zero_ns = hall, zero_ns

    def __call__(self) -> int:
        return self.hall.now + self.zero_ns

    @property
    def now(self) -> int:
        return self()


class Node:
    def __init__(self, name: str, db: Path, broker: TestBroker, clock: MachineClock) -> None:
        self.name, self.clock = name, clock
        self.daemon = Daemon(
            db,
            tables=[TableSpec(t) for t in TABLES[name]],
            port=0,
            clock=clock,
            boot_id=f"boot-{name}",
            write_daemon_info=False,
            hall=name,
        )
        self.buttons = {t: Buttons(t) for t in TABLES[name]}
        for t, b in self.buttons.items():
            self.daemon.add_device(t, b)
        self.daemon.start()
        assert self.daemon.engine is not None
        self.link = NodeLink(name, broker.url(name), self.daemon.engine, str(db))
        self.link.start()

    def settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(10)
        self.daemon.engine.barrier().result(10)

    def at(self, t_ns: int) -> None:
        """Let the hall's time run until this node's clock shows ``t_ns``."""
        assert t_ns >= self.clock.now
        self.clock.hall.now = t_ns - self.clock.zero_ns
        self.settle()

    def press(self, table: int, side: Side, t_ns: int) -> None:
        self.at(t_ns)
        self.buttons[table].press(side, t_ns)
        self.settle()

    def rows(self) -> list[Any]:
        assert self.daemon.engine is not None
        return [r for r in self.daemon.engine.journal.read()]

    def stop(self) -> None:
        self.link.stop()
        self.daemon.stop()


class Desk:
    def __init__(self, db: Path, broker: TestBroker, clock: FakeClock) -> None:
        self.clock = clock
        self.daemon = Daemon(db, port=0, clock=clock, boot_id="boot-desk", write_daemon_info=False)
        started = self.daemon.start()
        assert self.daemon.engine is not None
        self.link = DeskLink(broker.url("desk"), self.daemon.engine)
        self.link.start()
        self.client = Client("127.0.0.1", started.port, started.token, by="Sędzia")

    def rows(self) -> list[Any]:
        assert self.daemon.engine is not None
        return [r for r in self.daemon.engine.journal.read()]

    def stop(self) -> None:
        self.client.close()
        self.link.stop()
        self.daemon.stop()


@pytest.fixture
def hall(broker: TestBroker, tmp_path: Path) -> Iterator[tuple[Desk, dict[str, Node]]]:
    time = FakeClock(T0 + 5 * HOUR)
    desk = Desk(tmp_path / "desk.db", broker, time)
    nodes = {  # pi1's clock is hours behind the desk's, pi2's ahead: the desk must not mix them up
        "pi1": Node("pi1", tmp_path / "pi1.db", broker, MachineClock(time, -4 * HOUR)),
        "pi2": Node("pi2", tmp_path / "pi2.db", broker, MachineClock(time, 7 * HOUR + 123_456_789)),
    }
    try:
        yield desk, nodes
    finally:
        for n in nodes.values():
            n.stop()
        desk.stop()


def table_views(desk: Desk) -> dict[int, Any]:
    return {t.table: t for t in desk.client.status().tables}


def node_view(desk: Desk, name: str) -> Any:
    """What the desk's ``nodes`` answer says of node ``name``."""
    return next(v for v in desk.client.nodes().nodes if v.name == name)


def referee_args(desk: Desk) -> list[str]:
    """``duelclock …``'s options to reach the desk's daemon as the referee."""
    return ["--host", "127.0.0.1", "--port", str(desk.daemon.port), "--token", desk.daemon.token]


def test_the_desk_sees_every_node_table_and_names_its_node(hall: Any) -> None:
    desk, _ = hall
    tables = wait_until(lambda: (v := table_views(desk)) and len(v) == 4 and v)
    assert {t: v.node for t, v in tables.items()} == {1: "pi1", 2: "pi1", 3: "pi2", 4: "pi2"}
    assert [v.id for v in tables.values()] == ["desk/1", "desk/2", "desk/3", "desk/4"]


def test_a_duel_on_a_nodes_table_advances_the_desks_bracket(hall: Any) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    c = desk.client
    first = first_round_on_tables_1_to_4(c, seed=7)  # side a won each toss: side b starts a's time
    # the duels arrive on the nodes' tables (the desk's commands, journaled there)
    wait_until(lambda: all(v.program.kind == "puzzle-duel" for v in table_views(desk).values()))
    node_of = {t: n for n, ts in TABLES.items() for t in ts}
    for table in range(1, 5):
        n = nodes[node_of[table]]
        t0 = n.clock.now + SECOND
        n.press(table, B, t0)  # b starts a's time
        n.press(table, A, t0 + (20 + table) * SECOND)  # a placed a piece: b's time runs
        n.press(table, B, t0 + (50 + 2 * table) * SECOND)
    # table 1's a runs out of time on pi1: the node decides the flag, the desk's bracket moves
    n = nodes["pi1"]
    n.at(n.clock.now + 10 * MINUTE + SECOND)

    def match(mid: str) -> Any:
        return next(m for m in c.events(["pt"]).events[0].body.bracket.matches if m.id == mid)

    wait_until(lambda: match(first[0].id).status == "result")
    c.act(f"pt/{first[0].id}", Confirm())  # the referee confirms: the bracket moves on
    decided = match(first[0].id)
    assert decided.winner == first[0].b and decided.decided_by == "flag"  # a's flag fell: b wins
    # the duel, closed, is sent back to its table on pi1: the node's copy is confirmed too
    closed = wait_until(
        lambda: [r for r in n.rows() if r.entry.kind == "program" and r.entry.program.confirmed]
    )
    assert closed[0].entry.table == 1
    # … on the node's own time base: a press on the closed duel is journaled (and changes nothing)
    n.press(1, A, n.clock.now + SECOND)
    late = [r.entry for r in n.rows() if r.entry.kind == "press" and r.entry.table == 1][-1]
    assert late.outcome == "ignored-ended" and late.t_ns > closed[0].entry.program.duel.clock.last_input_ns
    # the desk's journal holds each node press exactly once, with where it came from
    for name, node in nodes.items():
        pressed = [(r.entry.table, r.seq) for r in node.rows() if r.entry.kind == "press"]
        assert len(pressed) == (7 if name == "pi1" else 6)

        def taken(name: str = name) -> list[tuple[int, int]]:
            rows = desk.rows()
            return sorted(
                (r.entry.table, r.entry.origin.seq)
                for r in rows
                if r.entry.kind == "press" and r.entry.origin.node == name
            )

        wait_until(lambda t=taken, p=pressed: t() == sorted(p))


def test_a_referees_pause_on_a_nodes_table_is_done_only_when_the_node_journaled_it(hall: Any) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi2"]
    n.press(3, A, n.clock.now + SECOND)  # the table's own clock runs
    wait_until(lambda: table_views(desk)[3].presses == 1)
    reply = desk.client.act("desk/3", Pause(reason="skarga"))
    assert reply.seq > 0
    paused = wait_until(lambda: [r for r in n.rows() if r.entry.kind == "pause"])
    assert paused[0].entry.request is not None  # applied once, however often it is sent
    view = wait_until(
        lambda: (v := desk.client.nodes()) and v.commands and v.commands[-1].outcome == "done" and v
    )
    assert view.commands[-1].node == "pi2" and view.commands[-1].table == 3


TIMER = """
name = "Sztafeta"
duration = "30m"
signal_every = "5m"
devices = [1, 2, 3, 4]
"""


def test_a_hall_signal_sounds_on_the_buzzers_of_every_nodes_tables(hall: Any) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    desk.client.act("", CreateEvent(event_kind="timer", key="zmiana", config_toml=TIMER))
    desk.client.act("zmiana", TimerStart())
    start = desk.clock.now
    desk.clock.now = start + 5 * MINUTE  # the hall's time: every machine's clock moves with it
    desk.daemon.engine.barrier().result(10)  # type: ignore[union-attr]
    for node in nodes.values():
        wait_until(lambda n=node: all(b.beeps == [Beep.CHANGE] for b in n.buttons.values()))
    heard = wait_until(lambda: [s for s in desk.link.signals.values() if len(s.heard) == 2])
    assert {h.tables for h in heard[0].heard.values()} == {2}  # each node sounded its own two tables


def test_duelclock_status_names_each_tables_node_and_the_nodes_link(hall: Any, capsys: Any) -> None:
    desk, _ = hall
    wait_until(lambda: len(table_views(desk)) == 4 and all(n.up for n in desk.client.nodes().nodes))
    from clockd.cli import main

    assert main(["status", "--host", "127.0.0.1", "--port", str(desk.daemon.port)]) == 0
    out = capsys.readouterr().out
    assert "Węzeł" in out.splitlines()[0]
    assert "węzeł pi1: połączony" in out and "stoły 1, 2" in out
    assert "węzeł pi2: połączony" in out and "stoły 3, 4" in out


def test_a_command_for_a_node_that_is_gone_is_shown_not_delivered_and_never_done(
    hall: Any, capsys: Any
) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi2"]
    n.press(3, A, n.clock.now + SECOND)
    wait_until(lambda: table_views(desk)[3].presses == 1)
    n.link.stop()  # pi2's network is gone (its tables go on)
    wait_until(lambda: not node_view(desk, "pi2").up)
    from clockd.cli import main

    where = referee_args(desk)
    assert main(["table", "3", "pause", "--reason", "skarga", *where]) == 2  # at once: pi2 is away
    said = capsys.readouterr()
    assert "dla węzła pi2" in said.out and "NIEWYKONANE" in said.err and "niedostarczone" in said.err
    assert main(["status", *where[:4]]) == 0
    assert "NIEDOSTARCZONE" in capsys.readouterr().out
    # pi2 comes back: the pause was never done there, and the desk still says so
    n.link = NodeLink("pi2", n.link.url, n.daemon.engine, n.link.journal_path)  # type: ignore[arg-type]
    n.link.start()
    n.press(3, B, n.clock.now + 2 * SECOND)
    wait_until(lambda: table_views(desk)[3].presses == 2)
    assert [r for r in n.rows() if r.entry.kind == "pause"] == []
    assert table_views(desk)[3].program.clock.phase == "running"
    assert [c.outcome for c in desk.client.nodes().commands] == ["not-delivered"]


def test_a_command_the_node_does_not_answer_lapses_as_not_delivered_after_10_s(
    hall: Any, capsys: Any
) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi1"]
    n.press(1, A, n.clock.now + SECOND)
    wait_until(lambda: table_views(desk)[1].presses == 1)
    n.daemon.engine.stop()  # type: ignore[union-attr]  # pi1's daemon is stuck; its link still answers the broker
    from clockd.cli import main

    where = referee_args(desk)
    code: list[int] = []
    referee = threading.Thread(target=lambda: code.append(main(["table", "1", "pause", *where])))
    referee.start()
    sent = wait_until(lambda: [c for c in desk.client.nodes().commands if c.outcome == "sent"])
    assert sent[0].node == "pi1" and sent[0].table == 1
    desk.clock.now += 9 * SECOND
    desk.daemon.engine.barrier().result(10)  # type: ignore[union-attr]
    assert [c.outcome for c in desk.client.nodes().commands] == ["sent"]  # still only sent, never done
    desk.clock.now += 2 * SECOND  # 10 s passed on the desk's clock
    desk.daemon.engine.barrier().result(10)  # type: ignore[union-attr]
    referee.join(20)
    assert code == [2] and "niedostarczone" in capsys.readouterr().err
    assert [c.outcome for c in desk.client.nodes().commands] == ["not-delivered"]


def test_a_node_may_report_only_its_own_tables_and_a_payload_that_does_not_read_is_dropped(
    hall: Any, broker: TestBroker, peers: Any
) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi1"]
    n.link.stop()  # whoever has pi1's password is pi1 to the broker: here, a rogue program
    have = next(v for v in desk.link.nodes.view().nodes if v.name == "pi1")
    rogue = peers("rogue-pi1")
    rogue.connect(broker.url("pi1"))
    topic = topics.node_topic("pi1", "journal")
    assert rogue.publish(topic, b"\x00not json").is_failure is False  # dropped by the desk, logged
    create = journal(CreateEvent(event_kind="timer", key="fake", config_toml=TIMER), target="desk")
    row = wire.Row(seq=have.last_seq + 1, after=have.last_seq, kind=create.kind, body=encode_entry(create))
    rows = wire.JournalRows(node="pi1", journal=have.journal, rows=[row], upto=row.seq)
    rogue.publish(topic, wire.dump(rows))
    refused = wait_until(lambda: [r for r in desk.rows() if r.entry.kind == "node-row-refused"])
    assert refused[0].entry.problem.code == "node.not-a-table-row" and refused[0].entry.origin.seq == row.seq
    assert [e.key for e in desk.client.events().events] == []  # nothing of it was applied


def test_a_node_that_starts_on_a_new_journal_is_taken_from_its_first_row(
    hall: Any, broker: TestBroker, tmp_path: Path
) -> None:
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    old = nodes["pi2"]
    old.press(3, A, old.clock.now + SECOND)
    wait_until(lambda: table_views(desk)[3].presses == 1)
    before = next(v for v in desk.link.nodes.view().nodes if v.name == "pi2")
    old.stop()  # its SD card is replaced: a new database, the same name and tables
    nodes["pi2"] = new = Node("pi2", tmp_path / "pi2-new.db", broker, old.clock)
    wait_until(
        lambda: next(v for v in desk.link.nodes.view().nodes if v.name == "pi2").journal != before.journal
    )
    new.press(4, B, new.clock.now + SECOND)
    tables = wait_until(lambda: (v := table_views(desk)) and v[4].presses == 1 and v)
    assert tables[3].presses == 0 and tables[3].node == "pi2"  # table 3 begins again with the new journal
    assert [r for r in desk.rows() if r.entry.kind == "node-row-refused"] == []


def forged_press(node: Node, desk: Desk, table: int) -> wire.JournalRows:
    """A row that would count as a press on ``table`` if the desk took it: a copy of the node's
    last press there, as the node's next row (what the desk would take at once)."""
    held = next(v for v in desk.link.nodes.view().nodes if v.name == node.name)
    pressed = [r.entry for r in node.rows() if r.entry.kind == "press" and r.entry.table == table][-1]
    row = wire.Row(seq=held.last_seq + 1, after=held.last_seq, kind="press", body=encode_entry(pressed))
    return wire.JournalRows(node=node.name, journal=held.journal, rows=[row], upto=row.seq)


def test_a_two_megabyte_message_reaches_no_one_and_its_sender_is_cut_off(
    hall: Any, broker: TestBroker, peers: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A 100 MB message took the desk to 302 MB: the broker had no limit and the desk read
    whatever came. Mosquitto now disconnects whoever sends more than the limit (the message
    reaches nobody), and the desk's own client drops an over-size payload before reading it."""
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi1"]
    n.press(2, A, n.clock.now + SECOND)
    wait_until(lambda: table_views(desk)[2].presses == 1)
    big = wire.dump(forged_press(n, desk, 2))[:-1] + b',"padding":"' + b"x" * (2 << 20) + b'"}'
    assert wire.JournalRows.model_validate_json(big).rows  # it reads: taken, if it arrived
    rogue = peers("rogue-pi1")
    rogue.connect(broker.url("pi1"))
    cut = threading.Event()
    rogue.client.on_disconnect = lambda *args: cut.set()
    rogue.publish(topics.node_topic("pi1", "journal"), big, qos=0)
    assert cut.wait(10)  # the broker cut it off (paho would connect again: the event, not the state)
    n.press(1, A, n.clock.now + SECOND)  # pi1's own next row, the seq the forged one named
    tables = wait_until(lambda: (v := table_views(desk)) and v[1].presses == 1 and v)
    assert tables[2].presses == 1
    # a broker configured by someone else: the desk's client drops it unread all the same
    message = mqtt.MQTTMessage(topic=topics.node_topic("pi1", "journal").encode())
    message.payload = wire.dump(forged_press(n, desk, 2))[:-1] + b',"padding":"' + b"x" * (2 << 20) + b'"}'
    before = len(desk.rows())
    desk.link.client.on_message(desk.link.client, None, message)  # as paho's thread hands it over
    desk.daemon.engine.barrier().result(10)  # type: ignore[union-attr]
    assert len(desk.rows()) == before and table_views(desk)[2].presses == 1
    assert "dropped unread" in caplog.text


def test_a_forged_row_refused_takes_no_seq_and_a_row_that_differs_from_the_desks_copy_is_an_alert(
    hall: Any, broker: TestBroker, peers: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """N7: a rogue with pi1's password sent a row the desk refused under the seq of pi1's next
    press; the press (acknowledged on pi1) was then dropped as its "copy", and the desk's
    table 1 went on without it, no one told. A refused row takes no number now, and a row
    that comes again different from the one the desk took under its seq is an alert."""
    desk, nodes = hall
    wait_until(lambda: len(table_views(desk)) == 4)
    n = nodes["pi1"]
    n.press(1, A, n.clock.now + SECOND)
    n.press(2, A, n.clock.now + SECOND)
    wait_until(lambda: (v := table_views(desk)) and v[1].presses == 1 and v[2].presses == 1)
    rogue = peers("rogue-pi1")
    rogue.connect(broker.url("pi1"))
    topic = topics.node_topic("pi1", "journal")

    def forge(kind: str, body: str) -> None:
        held = next(v for v in desk.link.nodes.view().nodes if v.name == "pi1")
        nxt = n.rows()[-1].seq + 1  # the seq pi1's next row will have
        row = wire.Row(seq=nxt, after=held.last_seq, kind=kind, body=body)
        rogue.publish(
            topic, wire.dump(wire.JournalRows(node="pi1", journal=held.journal, rows=[row], upto=nxt))
        )

    create = journal(CreateEvent(event_kind="timer", key="fake", config_toml=TIMER), target="desk")
    forge(create.kind, encode_entry(create))
    wait_until(lambda: [r for r in desk.rows() if r.entry.kind == "node-row-refused"])
    n.press(1, B, n.clock.now + SECOND)  # pi1's own row under the seq the forged one named
    tables = wait_until(lambda: (v := table_views(desk)) and v[1].presses == 2 and v)
    assert tables[2].presses == 1 and [e.key for e in desk.client.events().events] == []
    (refused,) = node_view(desk, "pi1").alerts
    assert refused.problem.code == "node.not-a-table-row"

    # a forged row the desk takes (table 1's last press, as if on table 2, whose clock runs
    # the same way): pi1's own row under its seq, when it comes, differs from it
    pressed = [r.entry for r in n.rows() if r.entry.kind == "press" and r.entry.table == 1][-1]
    forge("press", encode_entry(pressed.model_copy(update={"table": 2, "device_id": "", "device_seq": None})))
    wait_until(lambda: table_views(desk)[2].presses == 2)
    n.press(1, A, n.clock.now + SECOND)
    alerts = wait_until(lambda: (a := node_view(desk, "pi1").alerts) and len(a) == 2 and a)
    assert alerts[1].problem.code == "node.row-differs" and alerts[1].seq == n.rows()[-1].seq
    from clockd.cli import main

    assert main(["status", *referee_args(desk)]) == 0
    out = capsys.readouterr().out
    assert f"alarm węzła pi1: węzeł pi1 przysłał ponownie swój wiersz {alerts[1].seq}" in out
