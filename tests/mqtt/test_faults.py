"""Faults between machines, for real: node processes, a real Mosquitto, the broker stopped for
10 s in the middle of the duels, a node SIGKILLed and started again, the desk restarted.

Two table nodes run as their own processes (``duelclock run --node … --sim 2``: simulated
USB-serial clocks on pseudo-terminals, read by the real serial driver, pressed by simulated
players). The desk (in this process) runs a Puzzle Duel session whose four first-round duels
are on the nodes' tables, with 12 s a side so they end by the flag within the test. What a
referee must be able to rely on:

* every press a node acknowledged to its clock (it is in the node's journal: a node
  acknowledges only what it has committed) is in the desk's journal exactly once;
* the results the desk's bracket shows are those one machine gets from the same presses;
* the desk shows that both nodes were out while the broker was down, and for how long,
  and that ``pi2`` restarted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from clockd.api.client import Client
from clockd.data import default_config_text
from clockd.mqtt.desk import DeskLink
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.entries import ProgramLoaded
from clockd.service.runtime import Daemon, TableSpec
from clockd.service.views import event_digest, state_digest
from clockd.store.journal import Journal
from tests.conftest import wait_until
from tests.mqtt.conftest import TestBroker, first_round_on_tables_1_to_4
from tests.tournament.conftest import Buttons, FakeClock

FIRST = {"pi1": 1, "pi2": 3}


def start_node(name: str, tmp: Path, broker: TestBroker, seed: int) -> subprocess.Popen[bytes]:
    state = tmp / f"state-{name}"
    state.mkdir(mode=0o700, exist_ok=True)
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(state), "DUELCLOCK_LANG": "en"}
    args = [sys.executable, "-m", "clockd", "run", "--node", name, "--mqtt", broker.url_for(name)]
    args += ["--sim", "2", "--first-table", str(FIRST[name]), "--db", str(tmp / f"{name}.db")]
    args += ["--port", "0", "--think-ms", "300", "--seed", str(seed)]
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / f"{name}.log").open("ab"))


class Desk:
    def __init__(self, db: Path, broker: TestBroker) -> None:
        self.daemon = Daemon(db, port=0, boot_id="boot-desk", write_daemon_info=False)
        started = self.daemon.start()
        assert self.daemon.engine is not None
        self.link = DeskLink(broker.url("desk"), self.daemon.engine)
        self.link.start()
        self.client = Client("127.0.0.1", started.port, started.token, by="Sędzia")

    def stop(self) -> None:
        self.client.close()
        self.link.stop()
        self.daemon.stop()


def config_with_short_duels() -> str:
    text = default_config_text()
    assert 'time_per_side = "10m"' in text
    return text.replace('time_per_side = "10m"', 'time_per_side = "12s"', 1)


def node_rows(tmp: Path, name: str) -> list[Any]:
    reader = Journal.reader(tmp / f"{name}.db")
    try:
        return list(reader.read())
    finally:
        reader.close()


def one_machine_verdicts(tmp: Path, rows: list[Any]) -> dict[int, Any]:
    """The same presses on one machine: a daemon whose tables are its own, the node's programs
    loaded and its presses pressed at the instants the node applied them."""
    tables = sorted({r.entry.table for r in rows if r.entry.kind == "table-created"})
    clock = FakeClock(rows[0].entry.t_ns)
    daemon = Daemon(
        tmp / f"one-{tables[0]}.db",
        tables=[TableSpec(t) for t in tables],
        port=0,
        clock=clock,
        boot_id="one",
        write_daemon_info=False,
    )
    buttons = {t: Buttons(t) for t in tables}
    for t, b in buttons.items():
        daemon.add_device(t, b)
    daemon.start()
    engine = daemon.engine
    assert engine is not None
    try:
        for r in rows:
            e = r.entry
            if e.kind not in ("program", "press"):
                continue
            clock.now = max(clock.now, e.t_ns)
            engine.barrier().result(10)  # a flag the time made due is decided first
            if isinstance(e, ProgramLoaded):
                engine.submit(ProgramLoaded(table=e.table, event=e.event, program=e.program)).result(10)
            else:
                buttons[e.table].press(e.side, e.t_ns)
            engine.barrier().result(10)
        clock.now += 60 * 10**9  # every flag still to fall falls
        engine.barrier().result(10)
        engine.barrier().result(10)
        return {t: engine.current.tables[t].program.verdict for t in tables}
    finally:
        daemon.stop()


def test_nothing_acknowledged_is_lost_or_doubled_across_a_broker_outage_and_a_node_sigkill(
    broker: TestBroker, tmp_path: Path
) -> None:
    nodes = {name: start_node(name, tmp_path, broker, seed) for name, seed in (("pi1", 1), ("pi2", 2))}
    desk = Desk(tmp_path / "desk.db", broker)
    try:
        c = desk.client
        wait_until(lambda: len(c.status().tables) == 4, timeout_s=30)
        first = first_round_on_tables_1_to_4(c, seed=3, config_toml=config_with_short_duels())

        def presses_on_desk() -> int:
            return sum(t.presses for t in c.status().tables)

        wait_until(lambda: presses_on_desk() >= 8, timeout_s=30)  # the duels are under way
        broker.stop()  # the broker machine goes down in the middle of the duels …
        stopped = time.monotonic()
        time.sleep(4)  # (the nodes keep timing and journaling meanwhile: wall time must pass)
        nodes["pi2"].send_signal(signal.SIGKILL)  # … and pi2 loses power meanwhile
        nodes["pi2"].wait(10)
        nodes["pi2"] = start_node("pi2", tmp_path, broker, 22)
        time.sleep(max(0.0, 10 - (time.monotonic() - stopped)))
        broker.start()  # … and comes back after 10 s
        desk.stop()  # the referee's laptop restarts too
        desk = Desk(tmp_path / "desk.db", broker)
        c = desk.client

        def results() -> list[Any]:
            bracket = c.events(["pt"]).events[0].body.bracket
            return [m for m in bracket.matches if m.id in {f.id for f in first} and m.status == "result"]

        wait_until(lambda: len(results()) == 4, timeout_s=120)
        for name in nodes:  # the nodes' last rows reach the desk (the duels are over: no more come)
            wait_until(lambda n=name: next(v for v in c.nodes().nodes if v.name == n).rows_behind == 0, 30)
        desk_rows = [r for r in desk.daemon.engine.journal.read()]  # type: ignore[union-attr]
        origins = Counter((r.entry.origin.node, r.entry.origin.seq) for r in desk_rows if r.entry.origin)
        assert max(origins.values()) == 1  # no node row twice
        for name in nodes:
            rows = node_rows(tmp_path, name)
            acknowledged = {(name, r.seq) for r in rows if r.entry.kind == "press"}
            taken = {(n, s) for (n, s) in origins if n == name}
            assert acknowledged and acknowledged <= taken  # every acknowledged press, on the desk
            # the results: the desk's bracket, and one machine with the same presses
            one = one_machine_verdicts(tmp_path, rows)
            for m in results():
                if m.table in one:
                    finished = [
                        r.entry
                        for r in desk_rows
                        if r.entry.kind == "match-finished" and r.entry.match == m.id
                    ][-1]
                    assert finished.verdict.winner == one[m.table].winner
                    assert finished.verdict.remaining_ns == one[m.table].remaining_ns

        # the desk's journal alone rebuilds what the desk shows: every node's table, the bracket
        def same_instant() -> Any:
            status, events = c.status(), c.events(["pt"])
            return (status, events) if status.seq == events.seq else None

        status, events_now = wait_until(same_instant)
        live = {t.table: t.digest for t in status.tables}
        bracket = events_now.events[0].digest
        replay = Engine(
            Journal.reader(tmp_path / "desk.db"), boot_id="audit", components=default_components()
        )
        try:
            replay.rebuild(use_snapshots=False, upto=status.seq)
            assert {t: state_digest(s) for t, s in replay.current.tables.items()} == live
            events = replay.current.views["events"]
            hosted = events.get("pt")
            assert event_digest(hosted, replay.component("events").kind("puzzle-duel")) == bracket
        finally:
            replay.journal.close()
        view = {n.name: n for n in c.nodes().nodes}
        for name in nodes:
            outages = [o for o in view[name].outages if o.seconds is not None]
            assert outages and 8 <= max(o.seconds for o in outages) <= 60, view[name]
        assert view["pi2"].restarts >= 1 and view["pi1"].restarts == 0
    finally:
        desk.stop()
        for p in nodes.values():
            p.send_signal(signal.SIGTERM)
        for p in nodes.values():
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
