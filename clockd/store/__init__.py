"""The journal: every input as an entry in SQLite, committed before it counts.

* :mod:`clockd.store.entries` — the :class:`Entry` base and the registry of entry kinds.
* :mod:`clockd.store.schema` — the SQLite schema, its version and ordered migrations.
* :mod:`clockd.store.journal` — :class:`Journal`: append (group commit), read, snapshots, metadata.
* :mod:`clockd.store.records` — what it hands out: :class:`Record`, :class:`Snapshot`, :class:`ChainCheck`.
* :mod:`clockd.store.verify` — reading the rows back against the chain; the head's and snapshots' checks.
* :mod:`clockd.store.vault` — people's personal data beside the chained rows, so an erasure keeps the chain.
* :mod:`clockd.store.chain` — the hash chain over the entries (damage that SQLite does not see).
* :mod:`clockd.store.files` — private files and folders, the writer's lock, the lock file.
* :mod:`clockd.store.token` — the referee's token, kept in the journal only as a salted hash.
* :mod:`clockd.store.errors` — what can go wrong, each a sentence naming the file.
"""

from clockd.store.entries import Entry, UnknownEntryKind, decode_entry, encode_entry, entry_kinds, entry_type
from clockd.store.errors import (
    JournalChanged,
    JournalDamaged,
    JournalError,
    JournalLocked,
    JournalMissing,
    UnsafeFolder,
)
from clockd.store.journal import Journal
from clockd.store.records import ChainCheck, Record, Snapshot
from clockd.store.schema import SCHEMA_VERSION, SchemaError

__all__ = [
    "SCHEMA_VERSION",
    "ChainCheck",
    "Entry",
    "Journal",
    "JournalChanged",
    "JournalDamaged",
    "JournalError",
    "JournalLocked",
    "JournalMissing",
    "Record",
    "SchemaError",
    "Snapshot",
    "UnknownEntryKind",
    "UnsafeFolder",
    "decode_entry",
    "encode_entry",
    "entry_kinds",
    "entry_type",
]
