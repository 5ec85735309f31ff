"""The desk's link to its table nodes: their rows in, its commands and hall signals out.

The desk (``duelclock run --desk --mqtt URL``) is an ordinary daemon that runs the events;
the tables of its nodes appear in it as copies kept by the rows the nodes send
(:mod:`clockd.service.nodes` keeps the exactly-once promise). This link is the transport:

* every row received is handed to the engine as it came; a row past a gap is refused there,
  and the link asks the node to send again from where the desk's journal is
  (:class:`~clockd.mqtt.wire.Sync`) — as it does whenever a node comes up and whenever the
  desk itself (re)connects, so a broker outage or a desk restart costs a resend, never a row;
* each node's heartbeat measures the offset between the node's clock and the desk's (the
  lowest delay seen wins: the one least late), and its will tells the desk the node is gone;
* a command is published only while the node is up; one that cannot be sent lapses on the
  desk as *not delivered* (never *done*);
* a hall signal goes to every node at once (QoS 0: late is worse than never), and the nodes
  say when they sounded it: the spread across the hall is measured, not assumed.
"""

from __future__ import annotations

import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from clockd.core.device import Beep
from clockd.mqtt import topics, wire
from clockd.mqtt.node import no_delay, small_packets
from clockd.mqtt.url import BrokerUrl
from clockd.service.component import Refused
from clockd.service.engine import Batch, Engine
from clockd.service.nodes import NodeReplyIn, NodeRowIn, Nodes, NodeStatusIn

log = logging.getLogger(__name__)

KEEPALIVE_S = 2
#: How soon the desk asks a node again to resend (a gap seen while a resend is under way is
#: the same gap).
SYNC_AGAIN_NS = 1_000_000_000
#: How many heartbeats the offset is the lowest of (a window, so a node's clock that drifts is
#: followed by each new time base's measurement, never mid-duel).
OFFSET_WINDOW = 30


@dataclass(slots=True)
class LiveNode:
    """What the link knows of a node right now (not journaled: the lag, the heartbeat)."""

    name: str
    up: bool = False
    heard_mono_ns: int = 0
    node_last_seq: int = 0
    journal: str = ""
    base: str = ""
    tables: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    synced_mono_ns: int = 0
    lost_by_broker: bool = False
    rows_received: int = 0
    #: press → committed on the desk, ns, for the benchmark (same machine: one monotonic clock),
    #: and its two parts: press → the row's message on the desk, that → committed.
    latencies_ns: list[int] = field(default_factory=list)
    to_arrival_ns: list[int] = field(default_factory=list)
    arrival_to_commit_ns: list[int] = field(default_factory=list)


@dataclass(slots=True)
class SignalSent:
    id: str
    tables: list[int]
    sent_mono_ns: int
    heard: dict[str, wire.SignalHeard] = field(default_factory=dict)


class DeskLink:
    """``duelclock run --desk --mqtt URL``'s link (see the module docstring)."""

    def __init__(
        self,
        url: BrokerUrl,
        engine: Engine,
        *,
        client_id: str = "duelclock-desk",
        clock: Callable[[], int] = time.monotonic_ns,
        keep_latencies: bool = False,
    ) -> None:
        self.url = url
        self.engine = engine
        self.clock = clock
        self.keep_latencies = keep_latencies
        component = engine.component("nodes")
        assert isinstance(component, Nodes)
        self.nodes = component
        self.journal_id = engine.journal.meta("journal_id") or ""
        component.journal_id = self.journal_id
        component.send = self._send_command
        component.live = self.live_nodes
        component.link_up = lambda: self.connected
        engine.devices.remote_beep = self.signal
        self._lock = threading.Lock()
        self.live: dict[str, LiveNode] = {}
        self.signals: dict[str, SignalSent] = {}
        self._connected = False
        self._node_mono: dict[str, tuple[int, int]] = {}  # node → (node mono, node journal time) offset
        self._arrived: dict[tuple[str, int], int] = {}  # (node, seq) → when its message came (keep_latencies)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        url.configure(self.client)
        self.client.will_set(topics.DESK_STATUS, b'{"v":1,"up":false}', qos=1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        if keep_latencies:
            engine.add_listener(self._measure)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(
            self.url.host, self.url.port, keepalive=KEEPALIVE_S, properties=small_packets()
        )
        self.client.loop_start()

    def stop(self) -> None:
        if self._connected:
            self.client.publish(
                topics.DESK_STATUS, b'{"v":1,"up":false}', qos=1, retain=True
            ).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()
        self.nodes.send = None
        self.engine.devices.remote_beep = None

    @property
    def connected(self) -> bool:
        return self._connected

    def live_nodes(self) -> dict[str, LiveNode]:
        with self._lock:
            return dict(self.live)

    # -- paho's thread --------------------------------------------------------------------------------
    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Properties | None
    ) -> None:
        if reason.is_failure:
            log.warning("desk: the broker refused the connection: %s", reason)
            return
        no_delay(client)
        self._connected = True
        for topic in topics.DESK_SUBSCRIPTIONS:
            client.subscribe(topic, qos=topics.QOS_JOURNAL)
        client.publish(topics.DESK_STATUS, b'{"v":1,"up":true}', qos=1, retain=True)
        log.info("desk: connected to %s", self.url.redacted())

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Properties | None
    ) -> None:
        self._connected = False
        log.warning("desk: link to the broker lost (%s)", reason)
        with self._lock:
            known = [n for n, live in self.live.items() if live.up]
            for name in known:
                self.live[name].up = False
                self.live[name].lost_by_broker = True
        for name in known:
            self.engine.submit(NodeStatusIn(node=name, up=False, why="broker-lost"))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.node_of(message.topic)
        if where is None:
            return
        node, what = where
        if topics.too_big(message.payload):  # before reading a byte of it
            log.warning(
                "desk: a message of %d bytes on %s dropped unread", len(message.payload), message.topic
            )
            return
        try:
            if what == "status":
                self._status(node, wire.NodeStatus.model_validate_json(message.payload))
            elif what == "journal":
                self._rows(node, wire.JournalRows.model_validate_json(message.payload))
            elif what == "reply":
                self._reply(node, wire.from_node(message.payload))
        except wire.ValidationError as exc:
            log.warning("desk: a message on %s does not read: %s", message.topic, exc)

    def _status(self, node: str, status: wire.NodeStatus) -> None:
        now_mono = self.clock()
        if status.node != node:
            log.warning("desk: node %s's status names %s: ignored", node, status.node)
            return
        with self._lock:
            live = self.live.setdefault(node, LiveNode(name=node))
            back, live.lost_by_broker = live.lost_by_broker, False
            live.up = status.up
            live.heard_mono_ns = now_mono
            live.node_last_seq = status.last_seq
            live.tables = list(status.tables)
            if status.base != live.base or status.journal != live.journal:
                live.offsets = []
            live.base, live.journal = status.base, status.journal
            offset: int | None = None
            if status.up and status.now_ns:
                live.offsets = [*live.offsets[-(OFFSET_WINDOW - 1) :], self.engine.now_ns() - status.now_ns]
                offset = min(live.offsets)  # the heartbeat that took least time to arrive
            self._node_mono[node] = (status.mono_ns, status.now_ns)
        why = "broker-back" if back and status.up else ("status" if status.up else "will")
        self.engine.submit(
            NodeStatusIn(
                node=node, up=status.up, why=why, base=status.base if status.up else "", offset_ns=offset
            )
        )
        if status.up and status.waiting:
            self._sync(node, status.journal)  # it waits to hear where the desk's journal is

    def _sync(self, node: str, journal: str) -> None:
        """Ask ``node`` to send the rows after those the desk holds (journaled, committed)."""
        now = self.clock()
        with self._lock:
            live = self.live.setdefault(node, LiveNode(name=node))
            if now - live.synced_mono_ns < SYNC_AGAIN_NS:
                return
            live.synced_mono_ns = now
        held = next((n for n in self.nodes.view().nodes if n.name == node), None)
        after = held.last_seq if held is not None and held.journal == journal else 0
        sync = wire.Sync(journal=journal, after=after)
        self.client.publish(topics.node_topic(node, "cmd"), wire.dump(sync), qos=topics.QOS_COMMAND)

    def _rows(self, node: str, message: wire.JournalRows) -> None:
        if message.node != node:
            log.warning("desk: node %s's rows name %s: ignored", node, message.node)
            return
        with self._lock:
            live = self.live.setdefault(node, LiveNode(name=node))
            live.rows_received += len(message.rows)
            if self.keep_latencies:
                now = self.clock()
                self._arrived.update(((node, row.seq), now) for row in message.rows if row.kind == "press")
        for row in message.rows:
            entry = NodeRowIn(
                node=node,
                journal=message.journal,
                seq=row.seq,
                after=row.after,
                row_kind=row.kind,
                body=row.body,
            )
            self.engine.submit(entry).add_done_callback(functools.partial(self._taken, row=entry))

    def _taken(self, future: Any, row: NodeRowIn) -> None:
        exc = future.exception()
        if exc is None:
            return
        if isinstance(exc, Refused) and exc.msg.code == "node.gap":
            self._sync(node=row.node, journal=row.journal)
            return
        problem = exc.msg if isinstance(exc, Refused) else None
        if problem is None:
            log.error("desk: node %s's row %d could not be taken: %s", row.node, row.seq, exc)
            return
        log.warning("desk: node %s's row %d (%s) refused: %s", row.node, row.seq, row.row_kind, exc)
        self.engine.submit(row.model_copy(update={"problem": problem}))

    def _reply(self, node: str, reply: wire.CommandRefused | wire.SignalHeard) -> None:
        if reply.node != node:
            return
        if isinstance(reply, wire.SignalHeard):
            with self._lock:
                sent = self.signals.get(reply.id)
                if sent is not None:
                    sent.heard[node] = reply
            return
        self.engine.submit(NodeReplyIn(node=node, command=reply.command, problem=reply.problem))

    # -- the engine's side ------------------------------------------------------------------------
    def _send_command(
        self, node: str, command: int, entry_kind: str, body: str, table: int | None, valid_until_ns: int
    ) -> None:
        """Publish a command (the output thread, once its row is committed) if the node is up."""
        with self._lock:
            live = self.live.get(node)
            offsets = list(live.offsets) if live is not None and live.up else []
        if not offsets or not self._connected:
            log.warning("desk: command %d for node %s not sent: the node is not reachable", command, node)
            self.engine.submit(NodeReplyIn(node=node, command=command, outcome="not-delivered"))
            return
        cmd = wire.Command(
            desk=self.journal_id,
            command=command,
            entry_kind=entry_kind,
            body=body,
            table=table,
            valid_until_ns=valid_until_ns - min(offsets),
        )
        self.client.publish(topics.node_topic(node, "cmd"), wire.dump(cmd), qos=topics.QOS_COMMAND)

    def signal(self, tables: list[int], pattern: Beep) -> None:
        """Sound ``tables``' buzzers on whichever nodes have them (one message to all)."""
        sent = SignalSent(id=secrets.token_hex(6), tables=list(tables), sent_mono_ns=self.clock())
        with self._lock:
            self.signals[sent.id] = sent
            while len(self.signals) > 100:
                self.signals.pop(next(iter(self.signals)))
        message = wire.HallSignal(
            id=sent.id, tables=sent.tables, pattern=pattern.value, sent_mono_ns=sent.sent_mono_ns
        )
        self.client.publish(topics.HALL_SIGNAL, wire.dump(message), qos=topics.QOS_SIGNAL)

    def reset_latencies(self) -> None:
        """Forget the latencies measured so far (a benchmark's window starts)."""
        with self._lock:
            for live in self.live.values():
                live.latencies_ns, live.to_arrival_ns, live.arrival_to_commit_ns = [], [], []

    def heard(self, ids: list[str]) -> list[SignalSent]:
        """The hall signals ``ids`` with the nodes' replies so far (copies)."""
        with self._lock:
            return [
                SignalSent(s.id, list(s.tables), s.sent_mono_ns, dict(s.heard))
                for i in ids
                if (s := self.signals.get(i)) is not None
            ]

    def _measure(self, batch: Batch) -> None:
        done = self.clock()
        for record in batch.records:
            origin = record.entry.origin
            if origin is None or record.entry.kind != "press":
                continue
            with self._lock:
                live = self.live.get(origin.node)
                pair = self._node_mono.get(origin.node)
                arrived = self._arrived.pop((origin.node, origin.seq), None)
                if live is None or pair is None:
                    continue
                node_mono, node_now = pair  # the node's two clocks at its last heartbeat
                pressed = origin.t_ns - node_now + node_mono  # the press, on this machine's clock
                live.latencies_ns.append(done - pressed)
                if arrived is not None:
                    live.to_arrival_ns.append(arrived - pressed)
                    live.arrival_to_commit_ns.append(done - arrived)


__all__ = ["DeskLink", "LiveNode", "SignalSent"]
