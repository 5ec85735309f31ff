"""A table node's link to the desk: its journal out, the desk's commands in.

The node is an ordinary daemon (:class:`~clockd.service.runtime.Daemon`) for its own tables:
it times them and journals every press before its device hears the press is safe, whether or
not the broker or the desk is there. This link only *reads* that journal and publishes it, so
nothing the node does waits for the network:

* **Rows out, from the journal.** One publisher thread reads the node's journal (a second,
  read-only handle) after the last row the desk said it holds (:class:`~clockd.mqtt.wire.Sync`)
  and publishes the rows of the node's tables in order, each naming the row sent before it, so
  the desk can tell a copy from a gap. It starts only once the desk has said where it is: after
  a broker outage, a desk restart or the node's own SIGKILL, sending resumes from the desk's
  journal, not from the node's memory.
* **Commands in, applied once.** A desk's command is journaled with a request id made of the
  desk's journal and the command's number, so a copy (QoS 1 delivers at least once) is
  answered, not applied again, also after the node restarts. A command older than the desk's
  validity is refused as expired, so a command the desk shows as not delivered is never done.
* **Hall signals** sound the listed tables' buzzers at once and say when they did.
* **A heartbeat** every second (retained): the node's journal, time base, clock and last row;
  its will, sent by the broker when the node vanishes, says it is gone.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from clockd import __version__
from clockd.core.device import Beep
from clockd.i18n import Msg, Problem
from clockd.mqtt import topics, wire
from clockd.mqtt.url import BrokerUrl
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused
from clockd.service.engine import Batch, Engine, EngineStopped
from clockd.service.entries import ProgramLoaded
from clockd.service.nodes import command_request, node_base
from clockd.store.entries import decode_entry, encode_entry
from clockd.store.journal import Journal

log = logging.getLogger(__name__)

HEARTBEAT_NS = 1_000_000_000
#: Rows per message (a catch-up after a long outage goes in pieces of this size).
ROWS_PER_MESSAGE = 256
KEEPALIVE_S = 2


def no_delay(client: mqtt.Client) -> None:
    """Send small packets at once (a press's row, a signal): no Nagle wait for an earlier ACK."""
    sock = client.socket()
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def small_packets() -> Properties:
    """The CONNECT properties of the desk's and the nodes' clients: the broker sends them no
    packet over :data:`~clockd.mqtt.topics.MAX_PACKET_BYTES` (paho would read any size)."""
    # paho 2.2 types its client but not Properties.__init__ (no annotations): a stub gap
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    props.MaximumPacketSize = topics.MAX_PACKET_BYTES
    return props


def forwarded(kind: str, table: int | None, table_kinds: frozenset[str]) -> bool:
    """Whether a node's row goes to the desk: its tables' rows and its restarts."""
    return kind == "daemon-started" or (table is not None and kind in table_kinds)


class NodeLink:
    """``duelclock run --node NAME --mqtt URL``'s link (see the module docstring)."""

    def __init__(
        self,
        name: str,
        url: BrokerUrl,
        engine: Engine,
        journal_path: str,
        *,
        client_id: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        if not topics.valid_node_name(name):
            raise Problem("mqtt.bad-node-name", name=name)
        self.name = name
        self.url = url
        self.engine = engine
        self.journal_path = journal_path
        self.clock = clock
        self.journal_id = engine.journal.meta("journal_id") or ""
        self._table_kinds = engine.tables.kinds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._connected = False
        self._synced = False
        self._pos = 0  # the last journal seq read for the desk
        self._prev = 0  # the last row sent (the next row's ``after``)
        self.sent_rows = 0
        self.heard: list[wire.SignalHeard] = []
        self._thread: threading.Thread | None = None
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or f"duelclock-node-{name}",
            protocol=mqtt.MQTTv5,
        )
        url.configure(self.client)
        self.client.will_set(
            topics.node_topic(name, "status"),
            wire.dump(wire.NodeStatus(node=name, up=False, journal=self.journal_id)),
            qos=topics.QOS_STATUS,
            retain=True,
        )
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        engine.add_listener(self._on_batch)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(
            self.url.host, self.url.port, keepalive=KEEPALIVE_S, properties=small_packets()
        )
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"mqtt-node-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Say goodbye (the status "gone", retained) and close the link."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._connected:
            info = self.client.publish(
                topics.node_topic(self.name, "status"), wire.dump(self._status(up=False)), qos=1, retain=True
            )
            info.wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected

    # -- paho's thread --------------------------------------------------------------------------------
    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Properties | None
    ) -> None:
        if reason.is_failure:
            log.warning("node %s: the broker refused the connection: %s", self.name, reason)
            return
        no_delay(client)
        with self._lock:
            self._connected = True
            self._synced = False  # the desk says where to resume
        for topic in topics.node_subscriptions(self.name):
            client.subscribe(topic, qos=topics.QOS_COMMAND)
        self._publish_status()
        log.info("node %s: connected to %s", self.name, self.url.redacted())

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Properties | None
    ) -> None:
        with self._lock:
            self._connected = False
            self._synced = False
        log.info("node %s: link to the broker lost (%s); the tables go on here", self.name, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if topics.too_big(message.payload):
            log.warning(
                "node %s: a message of %d bytes on %s dropped unread",
                self.name,
                len(message.payload),
                message.topic,
            )
            return
        try:
            if message.topic == topics.HALL_SIGNAL:
                self._signal(wire.HallSignal.model_validate_json(message.payload))
            elif message.topic == topics.DESK_STATUS:
                return  # the desk's heartbeat: it syncs us when it is up
            else:
                received = wire.to_node(message.payload)
                if isinstance(received, wire.Sync):
                    self._sync(received)
                else:
                    self._command(received)
        except wire.ValidationError as exc:
            log.warning("node %s: a message on %s does not read: %s", self.name, message.topic, exc)

    def _sync(self, sync: wire.Sync) -> None:
        after = sync.after if sync.journal == self.journal_id else 0  # a desk that knew another journal
        with self._lock:
            self._pos = self._prev = after
            self._synced = True
        self._wake.set()

    def _command(self, cmd: wire.Command) -> None:
        if self.engine.now_ns() > cmd.valid_until_ns:
            self._refuse(cmd.command, Msg("node.command-expired", {"node": self.name}))
            return
        try:
            entry = decode_entry(cmd.entry_kind, cmd.body, where=f"command {cmd.command}")
        except Problem as exc:
            self._refuse(cmd.command, exc.msg)
            return
        if not isinstance(entry, ActionEntry | ProgramLoaded) or entry.table not in self.engine.tables.view():
            self._refuse(
                cmd.command, Msg("node.not-my-table", {"node": self.name, "table": entry.table or 0})
            )
            return
        request = command_request(cmd.desk, cmd.command, cmd.body)
        future = self.engine.submit(entry.model_copy(update={"request": request}))
        number = cmd.command

        def done(f: Any) -> None:
            exc = f.exception()
            if isinstance(exc, Refused):
                self._refuse(number, exc.msg)
            elif isinstance(exc, EngineStopped):
                pass  # the node is stopping: the desk sees the command lapse, never done
            elif exc is not None:
                self._refuse(number, Msg("daemon.internal", {"error": str(exc)}))

        future.add_done_callback(done)

    def _refuse(self, command: int, problem: Msg) -> None:
        reply = wire.CommandRefused(node=self.name, command=command, problem=problem)
        self.client.publish(topics.node_topic(self.name, "reply"), wire.dump(reply), qos=topics.QOS_COMMAND)

    def _signal(self, signal: wire.HallSignal) -> None:
        mine = [t for t in signal.tables if self.engine.devices.device(t) is not None]
        effects = self.engine.devices.beep(mine, Beep(signal.pattern))
        heard = wire.SignalHeard(
            node=self.name, id=signal.id, mono_ns=self.clock(), now_ns=self.engine.now_ns(), tables=len(mine)
        )
        self.engine.run_effects(effects)
        self.heard.append(heard)
        self.client.publish(topics.node_topic(self.name, "reply"), wire.dump(heard), qos=topics.QOS_COMMAND)

    # -- the engine's thread: a commit wakes the publisher ---------------------------------------------
    def _on_batch(self, batch: Batch) -> None:
        self._wake.set()

    # -- the publisher ------------------------------------------------------------------------------
    def _status(self, *, up: bool) -> wire.NodeStatus:
        start = self.engine.tables.last_start
        return wire.NodeStatus(
            node=self.name,
            up=up,
            journal=self.journal_id,
            base=node_base(start) if start is not None else "",
            now_ns=self.engine.now_ns(),
            mono_ns=self.clock(),
            last_seq=self.engine.current.seq,
            tables=sorted(self.engine.tables.view()),
            version=__version__,
            waiting=up and not self._synced,
        )

    def _publish_status(self) -> None:
        self.client.publish(
            topics.node_topic(self.name, "status"),
            wire.dump(self._status(up=True)),
            qos=topics.QOS_STATUS,
            retain=True,
        )

    def _run(self) -> None:
        reader = Journal.reader(self.journal_path)
        try:
            beat = self.clock()
            while not self._stop.is_set():
                self._wake.wait(0.2)
                self._wake.clear()
                if self._connected and self.clock() - beat >= HEARTBEAT_NS:
                    beat = self.clock()
                    self._publish_status()
                while self._send_some(reader):
                    pass
        except Exception:
            log.exception("node %s: the publisher stopped", self.name)
        finally:
            reader.close()

    def _send_some(self, reader: Journal) -> bool:
        """Publish the next rows the desk lacks; whether there may be more."""
        with self._lock:
            if not (self._connected and self._synced):
                return False
            pos, prev = self._pos, self._prev
        rows: list[wire.Row] = []
        upto, size = pos, 0
        for record in reader.read(after=pos, limit=ROWS_PER_MESSAGE * 4):
            entry = record.entry
            if forwarded(entry.kind, entry.table, self._table_kinds):
                body = encode_entry(entry)
                if rows and size + len(body) > topics.ROW_BYTES_PER_MESSAGE:
                    break  # the next message takes it: every message stays under the broker's limit
                rows.append(wire.Row(seq=record.seq, after=prev, kind=entry.kind, body=body))
                size += len(body)
                prev = record.seq
            upto = record.seq
            if len(rows) >= ROWS_PER_MESSAGE:
                break
        if upto == pos:
            return False
        message = wire.JournalRows(node=self.name, journal=self.journal_id, rows=rows, upto=upto)
        info = self.client.publish(topics.node_topic(self.name, "journal"), wire.dump(message), qos=1)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False  # not connected after all: the desk syncs us again
        with self._lock:
            if self._pos == pos:  # no sync came meanwhile
                self._pos, self._prev = upto, prev
        self.sent_rows += len(rows)
        return True
