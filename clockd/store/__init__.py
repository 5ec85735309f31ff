"""The journal: every input as an entry in SQLite, committed before it counts.

* :mod:`clockd.store.entries` — the :class:`Entry` base and the registry of entry kinds.
* :mod:`clockd.store.schema` — the SQLite schema, its version and ordered migrations.
* :mod:`clockd.store.journal` — :class:`Journal`: append (group commit), read, snapshots, metadata.
"""

from clockd.store.entries import Entry, UnknownEntryKind, decode_entry, encode_entry, entry_kinds, entry_type
from clockd.store.journal import Journal, JournalError, JournalLocked, Record, Snapshot
from clockd.store.schema import SCHEMA_VERSION, SchemaError

__all__ = [
    "SCHEMA_VERSION",
    "Entry",
    "Journal",
    "JournalError",
    "JournalLocked",
    "Record",
    "SchemaError",
    "Snapshot",
    "UnknownEntryKind",
    "decode_entry",
    "encode_entry",
    "entry_kinds",
    "entry_type",
]
