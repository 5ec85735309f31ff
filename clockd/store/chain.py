"""The journal's hash chain: each event row carries a hash of the previous row's hash and its own content.

Why: SQLite's ``integrity_check`` sees only the file's structure. A press moved by one
millisecond, a row deleted from the middle, or a bit flipped inside an event's JSON leaves a
perfectly well-formed database that replays into a different afternoon. With the chain,
changing any row changes its hash, and every later row's too, so the first row whose stored
hash does not match what its content and its predecessor give is *the first bad seq*.

The definition below is part of the file format (schema version 4 on): rows written by any
duelclock since then are hashed exactly so, and :func:`row_hash` must never change. A new
definition would need a new schema version and a migration that re-chains the rows.

* ``hash(seq) = SHA-256(hash(seq - 1) ‖ "<seq>␟<t_ns>␟<table or empty>␟<kind>␟" ‖ body)``,
  with ``␟`` the ASCII unit separator (0x1F) and ``hash(0)`` 32 zero bytes (:data:`GENESIS`).
  Numbers are decimal ASCII and cannot hold the separator; event kinds are registered words
  without it; the body comes last, so the encoding is unambiguous.
* The *head* is the last row's ``(seq, hash)``, kept in the ``meta`` table (updated in the
  same transaction as each append) and in the lock file (after each commit, and on disk when
  the journal is opened, snapshotted and closed), so that rows cut off the end are noticed
  too, with the ``meta`` head when a ``-wal`` removed after a crash took both.
* A snapshot's checksum covers its seq, format, body and the chain hash at its seq, which ties
  the snapshot to the very events it folds.

Not a signature: someone who can write the file can recompute the chain. It catches damage
and careless edits, which is what a referee's laptop meets (DESIGN.md, principle 2).
"""

from __future__ import annotations

import hashlib

#: The hash "before" the first event.
GENESIS = bytes(32)


def row_hash(prev: bytes, seq: int, t_ns: int, table: int | None, kind: str, body: str) -> bytes:
    """The chain hash of one event row, given the hash of the row before it."""
    where = b"" if table is None else b"%d" % table
    return hashlib.sha256(
        b"%b%d\x1f%d\x1f%b\x1f%b\x1f%b" % (prev, seq, t_ns, where, _utf8(kind), _utf8(body))
    ).digest()


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8; a byte that was not UTF-8 in the file (read back as a lone surrogate)
    goes in as the byte it was. Valid text encodes exactly as ``str.encode()`` did: no hash changes."""
    return text.encode("utf-8", "surrogateescape")


def snapshot_checksum(seq: int, format: int, chain_hash: bytes, body: str) -> bytes:
    """The checksum stored with a snapshot: its seq, format, the chain hash at its seq, its body."""
    h = hashlib.sha256(b"snapshot\x1f%d\x1f%d\x1f" % (seq, format))
    h.update(chain_hash)
    h.update(_utf8(body))
    return h.digest()


def format_head(seq: int, head: bytes) -> str:
    """The head as stored in ``meta`` and the lock file: ``"<seq>:<hash in hex>"``."""
    return f"{seq}:{head.hex()}"


def parse_head(text: str) -> tuple[int, bytes] | None:
    """``(seq, hash)`` of a stored head, or ``None`` when the text is not one."""
    seq, sep, digest = text.partition(":")
    try:
        value = (int(seq), bytes.fromhex(digest))
    except ValueError:
        return None
    return value if sep and len(value[1]) == len(GENESIS) and value[0] >= 0 else None
