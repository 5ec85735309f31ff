"""The journal: every input as an event in SQLite, committed before it counts.

* :mod:`clockd.store.events` — the :class:`Event` base and the registry of event kinds.
* :mod:`clockd.store.schema` — the SQLite schema, its version and ordered migrations.
* :mod:`clockd.store.journal` — :class:`Journal`: append (group commit), read, snapshots, metadata.
* :mod:`clockd.store.chain` — the hash chain over the events (damage that SQLite does not see).
* :mod:`clockd.store.files` — private files and folders, the writer's lock, the lock file.
* :mod:`clockd.store.token` — the referee's token, kept in the journal only as a salted hash.
* :mod:`clockd.store.errors` — what can go wrong, each a sentence naming the file.
"""

from clockd.store.errors import (
    JournalChanged,
    JournalDamaged,
    JournalError,
    JournalLocked,
    JournalMissing,
    UnsafeFolder,
)
from clockd.store.events import Event, UnknownEventKind, decode_event, encode_event, event_kinds, event_type
from clockd.store.journal import ChainCheck, Journal, Record, Snapshot
from clockd.store.schema import SCHEMA_VERSION, SchemaError

__all__ = [
    "SCHEMA_VERSION",
    "ChainCheck",
    "Event",
    "Journal",
    "JournalChanged",
    "JournalDamaged",
    "JournalError",
    "JournalLocked",
    "JournalMissing",
    "Record",
    "SchemaError",
    "Snapshot",
    "UnknownEventKind",
    "UnsafeFolder",
    "decode_event",
    "encode_event",
    "event_kinds",
    "event_type",
]
