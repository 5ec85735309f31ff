"""The payloads on the broker: pydantic models, JSON, version 1 (``v``), one home for each.

A node's journal rows travel as the journal stores them (``kind`` and the entry's JSON): the
desk reads them with the same :func:`~clockd.store.entries.decode_entry` as a replay does,
so there is no second format for what a press is. Everything else is small and flat.
A payload that does not read as its model is logged with the topic and dropped: a hostile or
broken publisher cannot stop a link (and the broker's ACL keeps a node to its own topics).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from clockd.i18n import Msg

VERSION = 1


class _Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    v: int = VERSION


class NodeStatus(_Payload):
    """A node's heartbeat (retained): who it is, where its journal is, what time it is there.

    ``now_ns`` is the node's journal time when sent (the desk measures the offset of the two
    time bases from it), ``mono_ns`` its monotonic clock (the same clock on one machine: the
    benchmark's node-to-desk latency). ``up`` false is the node's will, sent by the broker
    when the node vanishes, or its goodbye.
    """

    node: str
    up: bool
    journal: str = ""
    base: str = ""
    now_ns: int = 0
    mono_ns: int = 0
    last_seq: int = 0
    tables: list[int] = Field(default_factory=list)
    version: str = ""
    #: The node has not heard from the desk where to resume (just connected, just restarted).
    waiting: bool = False


class Row(BaseModel):
    """One row of a node's journal; ``after``: the node's previous row it sends."""

    model_config = ConfigDict(frozen=True)

    seq: int
    after: int
    kind: str
    body: str


class JournalRows(_Payload):
    node: str
    journal: str
    rows: list[Row]
    #: The last seq of the node's journal read for this message (rows not sent included).
    upto: int


class Sync(_Payload):
    """Desk → node: send the rows of ``journal`` after ``after`` (what the desk holds), then go on."""

    type: Literal["sync"] = "sync"
    journal: str
    after: int


class Command(_Payload):
    """Desk → node: journal this entry for your table, unless it is after ``valid_until_ns``
    (the node's time) — then refuse it as expired."""

    type: Literal["command"] = "command"
    desk: str
    command: int
    entry_kind: str
    body: str
    table: int | None = None
    valid_until_ns: int


class CommandRefused(_Payload):
    type: Literal["refused"] = "refused"
    node: str
    command: int
    problem: Msg


class HallSignal(_Payload):
    """Desk → every node: sound these tables' buzzers (a hall-wide "ZMIANA")."""

    id: str
    tables: list[int]
    pattern: str
    sent_mono_ns: int = 0


class SignalHeard(_Payload):
    """Node → desk: when the node sounded a hall signal (its monotonic and journal clocks)."""

    type: Literal["heard"] = "heard"
    node: str
    id: str
    mono_ns: int
    now_ns: int
    tables: int


ToNode = Annotated[Sync | Command, Field(discriminator="type")]
FromNode = Annotated[CommandRefused | SignalHeard, Field(discriminator="type")]
_TO_NODE: TypeAdapter[Sync | Command] = TypeAdapter(ToNode)
_FROM_NODE: TypeAdapter[CommandRefused | SignalHeard] = TypeAdapter(FromNode)


def to_node(payload: bytes | bytearray) -> Sync | Command:
    return _TO_NODE.validate_json(payload)


def from_node(payload: bytes | bytearray) -> CommandRefused | SignalHeard:
    return _FROM_NODE.validate_json(payload)


def dump(model: BaseModel) -> bytes:
    return model.model_dump_json().encode()


__all__ = [
    "VERSION",
    "Command",
    "CommandRefused",
    "HallSignal",
    "JournalRows",
    "NodeStatus",
    "Row",
    "SignalHeard",
    "Sync",
    "ValidationError",
    "dump",
    "from_node",
    "to_node",
]
