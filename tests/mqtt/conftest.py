"""A real Mosquitto for the tests of many machines, and a small MQTT client to talk to it.

``broker`` (function-scoped) writes a plan for the nodes ``pi1`` and ``pi2`` into the test's
``tmp_path`` on a free loopback port and starts Mosquitto on it; ``broker.url_for(user)`` is
the URL a desk or a node is given. ``broker.stop()`` and ``broker.start()`` stop and start it
again on the *same* port (what a node sees when the broker machine restarts), ``kill()``
kills it (a power cut). It is always stopped at teardown.

Mosquitto is a system package (``.ci/system-deps`` installs it, as CI does): when it is
missing the fixture fails, naming that script, rather than skipping the tests.

:class:`Peer` is a paho client with the waits the tests need: connect and get the CONNACK's
reason code, subscribe and get the SUBACK's, publish at QoS 1 and get the PUBACK's, and the
messages received, in order. To show that a message did *not* arrive, a test sends a marker
after it and waits for the marker (``Peer.until``): MQTT keeps the order of one publisher's
messages to one subscriber, and Mosquitto handles one client's packets in order, so anything
the refused message had caused would have come first. No test sleeps.
"""

from __future__ import annotations

import queue
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from clockd.i18n import Problem, render
from clockd.mqtt.broker import Broker, BrokerFiles, BrokerPlan, mosquitto_binary
from clockd.mqtt.url import BrokerUrl, broker_url

NODES = ["pi1", "pi2"]
WAIT_S = 10.0


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's choice; the broker binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TestBroker:
    """A running Mosquitto for the desk and ``nodes``, its files in ``folder``."""

    __test__ = False  # a helper, not a test class

    def __init__(self, folder: Path, nodes: list[str], port: int) -> None:
        self.plan = BrokerPlan(folder=folder, nodes=nodes, port=port)
        self.broker = Broker(self.plan)
        self.port = port

    @property
    def files(self) -> BrokerFiles:
        return self.broker.files

    def url_for(self, user: str) -> str:
        return self.files.url_for(user)

    def url(self, user: str) -> BrokerUrl:
        return broker_url(self.url_for(user))

    def start(self) -> None:
        self.broker.start()

    def stop(self) -> None:
        self.broker.stop()

    def kill(self) -> None:
        self.broker.kill()

    @property
    def running(self) -> bool:
        return self.broker.running


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[TestBroker]:
    try:
        mosquitto_binary()
    except Problem as exc:
        pytest.fail(render(exc.msg, "en"), pytrace=False)
    running = TestBroker(tmp_path / "broker", list(NODES), free_port())
    running.start()
    try:
        yield running
    finally:
        running.stop()


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    retain: bool


class Peer:
    """One MQTT v5 client (paho, its network loop in a thread) and what it has received."""

    def __init__(self, client_id: str) -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        self.messages: queue.Queue[Received] = queue.Queue()
        self._lock = threading.Condition()
        self._connack: tuple[ReasonCode, bool] | None = None
        self._subacks: dict[int, list[ReasonCode]] = {}
        self._pubacks: dict[int, ReasonCode] = {}
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    # -- callbacks (paho's thread) ---------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        with self._lock:
            self._connack = (reason, bool(flags.session_present))
            self._lock.notify_all()

    def _on_subscribe(
        self, client: Any, userdata: Any, mid: int, reasons: list[ReasonCode], props: Any
    ) -> None:
        with self._lock:
            self._subacks[mid] = list(reasons)
            self._lock.notify_all()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: ReasonCode, props: Any) -> None:
        with self._lock:
            self._pubacks[mid] = reason
            self._lock.notify_all()

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.messages.put(Received(message.topic, bytes(message.payload), bool(message.retain)))

    def _wait(self, what: Any) -> Any:
        with self._lock:
            if not self._lock.wait_for(what, WAIT_S):
                pytest.fail(f"no answer from the broker within {WAIT_S} s")
            return what()

    # -- what the tests call ---------------------------------------------------------------

    def connect(
        self, url: BrokerUrl | None, port: int | None = None, *, session_expiry_s: int | None = None
    ) -> tuple[ReasonCode, bool]:
        """Connect (``url`` ``None``: anonymously, to ``port``); the CONNACK's reason code and
        session-present flag. A refused client is stopped (paho would retry for ever)."""
        properties = None
        if session_expiry_s is not None:
            properties = Properties(PacketTypes.CONNECT)
            properties.SessionExpiryInterval = session_expiry_s
        if url is not None:
            url.configure(self.client)
        with self._lock:
            self._connack = None
        host, at = (url.host, url.port) if url is not None else ("127.0.0.1", port or 0)
        self.client.connect(host, at, clean_start=session_expiry_s is None, properties=properties)
        self.client.loop_start()
        reason, present = self._wait(lambda: self._connack)
        if reason.is_failure:
            self.close()
        return reason, present

    def subscribe(self, *topics: str, qos: int = 1) -> list[ReasonCode]:
        """Subscribe to ``topics``; the SUBACK's reason code for each."""
        result, mid = self.client.subscribe([(t, qos) for t in topics])
        assert result == mqtt.MQTT_ERR_SUCCESS
        return list(self._wait(lambda: self._subacks.get(mid)))

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False) -> ReasonCode | None:
        """Publish; at QoS 1 wait for the PUBACK and return its reason code."""
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if qos == 0:
            return None
        return self._wait(lambda: self._pubacks.get(info.mid))  # type: ignore[no-any-return]

    def until(self, marker: bytes) -> list[Received]:
        """Every message up to and including the one whose payload is ``marker``, in order."""
        got: list[Received] = []
        while True:
            try:
                message = self.messages.get(timeout=WAIT_S)
            except queue.Empty:
                pytest.fail(f"the marker {marker!r} did not arrive within {WAIT_S} s (got {got})")
            got.append(message)
            if message.payload == marker:
                return got

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def peers() -> Iterator[Any]:
    """Make :class:`Peer` clients (``peers("pi1")``); all closed at teardown."""
    made: list[Peer] = []

    def make(client_id: str) -> Peer:
        peer = Peer(client_id)
        made.append(peer)
        return peer

    yield make
    for peer in made:
        peer.close()


#: Sixteen players for the Puzzle Duel sessions the desk runs in these tests.
SIGNUPS = "Imię;Nazwisko;Wiek\n" + "".join(f"Gracz{i};Nazwisko{i};{20 + i}\n" for i in range(1, 17))


def first_round_on_tables_1_to_4(client: Any, *, seed: int, config_toml: str | None = None) -> list[Any]:
    """A Puzzle Duel session on the desk (``pt``): 16 players checked in, the draw, and the first
    four matches of round I assigned to tables 1–4 with their toss (side a won it: side b starts)."""
    from clockd.core.actions import CreateEvent
    from clockd.core.bracket import Assign, Toss
    from clockd.core.puzzle_duel import ImportSignups, MakeDraw
    from clockd.core.registration import CheckIn, CloseCheckIn

    client.act("", CreateEvent(event_kind="puzzle-duel", key="pt", config_toml=config_toml))
    client.act("pt", ImportSignups(csv=SIGNUPS))
    for p in range(1, 17):
        client.act("pt", CheckIn(player=p))
    client.act("pt", CloseCheckIn())
    bracket = client.act("pt", MakeDraw(seed=seed)).event.body.bracket
    first = [m for m in bracket.matches if m.round == 1][:4]
    for table, m in zip(range(1, 5), first, strict=True):
        client.act(f"pt/{m.id}", Assign(table=table))
        client.act(f"pt/{m.id}", Toss(winner=m.a))
    return first
