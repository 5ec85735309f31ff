"""What the engine publishes and reports: its committed state, each commit, its recovery, its counts.

Apart from :mod:`clockd.service.engine` because these are the values the rest of the
daemon reads (the server's subscriptions, the handlers, the MQTT bridges, the runtime's
start-up report) without needing the engine's thread, queue and chains; the engine makes
them. :mod:`clockd.service.engine` re-exports them, where their users import them from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clockd.core.ids import DEFAULT_HALL
from clockd.i18n import Msg, render
from clockd.service.tables import TableState
from clockd.store.journal import Record

__all__ = ["Batch", "Current", "EngineStats", "EngineStopped", "RecoveryReport"]


class EngineStopped(RuntimeError):
    """The engine is not running (stopped, or failed: see its ``failure``).

    Not a :class:`~clockd.i18n.Problem` (a request it fails is *unavailable*, not refused),
    but it carries its message all the same (``msg``: ``engine.*``), for the API's reply.
    """

    def __init__(self, message: Msg) -> None:
        super().__init__(render(message, "en"))
        self.msg = message


@dataclass(frozen=True, slots=True)
class Current:
    """The committed state, published atomically after every batch (safe from any thread)."""

    seq: int
    tables: Mapping[int, TableState]
    views: Mapping[str, Any]
    offset_ns: int
    hall: str = DEFAULT_HALL


@dataclass(frozen=True, slots=True)
class Batch:
    """What one commit changed: its records and the state after it."""

    records: tuple[Record, ...]
    changed_tables: frozenset[int]
    changed_events: frozenset[str]
    current: Current


@dataclass(slots=True)
class RecoveryReport:
    rule: str
    downtime_ns: int | None
    snapshot_seq: int | None
    replayed: int
    elapsed_ns: int
    alerts: list[tuple[int, str, dict[str, int | str]]] = field(default_factory=list)
    #: The events' alerts raised at start (event, code, parameters): an event set aside among them.
    event_alerts: list[tuple[str, str, dict[str, int | str]]] = field(default_factory=list)


@dataclass(slots=True)
class EngineStats:
    batches: int = 0
    events: int = 0
    presses: int = 0
    duplicates_acked: int = 0
    snapshots: int = 0
    #: press received → its batch committed, in ns (only when ``keep_latencies``).
    latencies_ns: list[int] = field(default_factory=list)
    keep_latencies: bool = False
