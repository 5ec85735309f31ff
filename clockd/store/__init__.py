"""The journal: every input as an event in SQLite, committed before it counts.

* :mod:`clockd.store.events` — the :class:`Event` base and the registry of event kinds.
* :mod:`clockd.store.schema` — the SQLite schema, its version and ordered migrations.
* :mod:`clockd.store.journal` — :class:`Journal`: append (group commit), read, snapshots, metadata.
"""

from clockd.store.events import Event, UnknownEventKind, decode_event, encode_event, event_kinds, event_type
from clockd.store.journal import Journal, JournalError, JournalLocked, Record, Snapshot
from clockd.store.schema import SCHEMA_VERSION, SchemaError

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "Journal",
    "JournalError",
    "JournalLocked",
    "Record",
    "SchemaError",
    "Snapshot",
    "UnknownEventKind",
    "decode_event",
    "encode_event",
    "event_kinds",
    "event_type",
]
