"""What a journal hands out: its entries with their seq, its snapshots, a check's findings.

Apart from :mod:`clockd.store.journal` because these are plain values: the engine's
replay, ``duelclock journal verify`` and the tests take them without the handle's files
and lock, and the chain check (:mod:`clockd.store.verify`) builds them without the handle.
``clockd.store.journal`` re-exports them, where most callers import them from.
"""

from __future__ import annotations

from dataclasses import dataclass

from clockd.store.entries import Entry

__all__ = ["ChainCheck", "Record", "Row", "Snapshot"]

#: An ``events`` row as read: ``(seq, t_ns, table_id, kind, body, hash)``.
Row = tuple[int, int, int | None, str, str, bytes | None]


@dataclass(frozen=True, slots=True)
class Record:
    """An entry as journaled: its sequence number and the entry."""

    seq: int
    entry: Entry


@dataclass(frozen=True, slots=True)
class Snapshot:
    seq: int
    format: int
    body: str
    #: Whether its checksum matches its content and the chain at its seq.
    intact: bool = True


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """What :meth:`Journal.verify` found. ``first_bad_seq`` is ``None`` when the chain holds."""

    path: str
    last_seq: int
    events: int
    first_bad_seq: int | None
    reason: str | None  # as JournalDamaged.reason
    problem: str | None  # the sentence
    snapshots: tuple[Snapshot, ...]
    integrity: str

    @property
    def ok(self) -> bool:
        return (
            self.first_bad_seq is None
            and self.problem is None
            and self.integrity == "ok"
            and all(s.intact for s in self.snapshots)
        )
