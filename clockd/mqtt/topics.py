"""The topics: one home for every name on the broker, and for who may use which.

Everything lives under ``duelclock/v1`` (the ``v1`` is the payloads' version: a desk and its
nodes of another major version do not meet). A node publishes only under its own name and
reads only its own commands; only the desk commands. The broker enforces it
(:func:`acl_lines` is what :mod:`clockd.mqtt.broker` writes into Mosquitto's ACL file)::

    duelclock/v1/node/<node>/status    node → desk  retained; "offline" is the node's will
    duelclock/v1/node/<node>/journal   node → desk  the node's journal records, in order
    duelclock/v1/node/<node>/reply     node → desk  a command the node refused, a signal it sounded
    duelclock/v1/node/<node>/cmd       desk → node  sync (where to resume) and commands
    duelclock/v1/hall/signal           desk → nodes a hall-wide signal for the buzzers
    duelclock/v1/desk/status           desk → nodes retained; "offline" is the desk's will
"""

from __future__ import annotations

import re

ROOT = "duelclock/v1"

#: The broker user the desk logs in as (a node may not take this name).
DESK_USER = "desk"

#: A node's name: what its user on the broker is called and what the desk shows. Letters,
#: digits, ``-`` and ``_``; a topic level must not hold ``/``, ``+`` or ``#``.
NODE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")

# QoS: the journal, commands and replies are at least once (QoS 1); duplicates are dropped
# by sequence number and command id. Status is retained at QoS 1. The hall signal is QoS 0:
# a signal that arrives late is worse than one that does not arrive at all.
QOS_JOURNAL = 1
QOS_COMMAND = 1
QOS_STATUS = 1
QOS_SIGNAL = 0

#: The largest MQTT packet anyone on the broker may send or be sent, in bytes: Mosquitto's
#: ``max_packet_size`` (a client that sends more is disconnected, the message never reaches
#: anyone) and the Maximum Packet Size the desk and the nodes ask for when they connect (the
#: broker sends them nothing bigger). One 100 MB message took the desk to 302 MB; a node's
#: largest honest message is a catch-up piece of :data:`ROW_BYTES_PER_MESSAGE`.
MAX_PACKET_BYTES = 1 << 20
#: How many bytes of rows a node puts into one journal message at most (besides the count in
#: :data:`clockd.mqtt.node.ROWS_PER_MESSAGE`): a quarter of the limit, for the JSON around them.
ROW_BYTES_PER_MESSAGE = MAX_PACKET_BYTES // 4


def too_big(payload: bytes | bytearray) -> bool:
    """Whether a received payload is over the limit: dropped unread (a broker configured by
    someone else may not enforce it)."""
    return len(payload) > MAX_PACKET_BYTES


def valid_node_name(name: str) -> bool:
    return bool(NODE_NAME.match(name)) and name != DESK_USER


def node_topic(node: str, what: str) -> str:
    """``duelclock/v1/node/<node>/<what>``: ``status``, ``journal``, ``reply`` or ``cmd``."""
    return f"{ROOT}/node/{node}/{what}"


def node_of(topic: str) -> tuple[str, str] | None:
    """``(node, what)`` of a node topic, or ``None``."""
    parts = topic.split("/")
    if len(parts) == 5 and "/".join(parts[:3]) == f"{ROOT}/node":
        return parts[3], parts[4]
    return None


HALL_SIGNAL = f"{ROOT}/hall/signal"
DESK_STATUS = f"{ROOT}/desk/status"

#: What the desk subscribes to.
DESK_SUBSCRIPTIONS = (node_topic("+", "status"), node_topic("+", "journal"), node_topic("+", "reply"))


def node_subscriptions(node: str) -> tuple[str, ...]:
    """What node ``node`` subscribes to."""
    return (node_topic(node, "cmd"), HALL_SIGNAL, DESK_STATUS)


def acl_lines(nodes: list[str]) -> list[str]:
    """Mosquitto ACL lines: the desk reads every node and commands; each node only its own."""
    out = [f"user {DESK_USER}"]
    out += [f"topic read {t}" for t in DESK_SUBSCRIPTIONS]
    out += [f"topic write {t}" for t in (node_topic("+", "cmd"), HALL_SIGNAL, DESK_STATUS)]
    for node in nodes:
        out += ["", f"user {node}"]
        out += [f"topic write {node_topic(node, w)}" for w in ("status", "journal", "reply")]
        out += [f"topic read {t}" for t in node_subscriptions(node)]
    return out
