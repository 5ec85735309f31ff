"""The vault: people's personal data in a table beside the chained event rows.

Why apart from the rows: an erasure (a person's right to be forgotten) must be able to
delete their data without changing a chained row, or the chain would break at the first
sign-up. So an entry's personal fields go into the ``vault`` table (keyed by seq and
person), the event row keeps the rest, and a full read joins them back
(:meth:`~clockd.store.journal.Journal.read`). Apart from :mod:`clockd.store.journal`
because these are only the SQL on a connection: the journal calls :func:`store_vault` in
its append's transaction and purges the old copies itself (:meth:`Journal.purge`).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from clockd.store.entries import Entry

__all__ = ["PURGE_KEY", "people_in_vault", "read_vault", "store_vault"]

#: Set (in the same transaction) by an entry that erases a person, until :meth:`Journal.purge`.
PURGE_KEY = "vault_purge_pending"


def store_vault(db: sqlite3.Connection, seq: int, entry: Entry) -> None:
    """In the append's transaction: ``entry``'s people's data, and the erasure it orders."""
    erased = entry.vault_erases()
    if erased:
        db.execute("DELETE FROM vault WHERE person = ?", (erased,))
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (PURGE_KEY,))
    drops = entry.vault_drops()
    if drops:
        person, fields = drops
        for seq_, body in db.execute("SELECT seq, body FROM vault WHERE person = ?", (person,)).fetchall():
            held = json.loads(body)
            for slot in held.values():  # a sign-up's fields, or a correction's {"field", "value"}
                if not isinstance(slot, dict):
                    continue
                if slot.get("field") in fields:
                    slot["value"] = ""
                slot.update({f: (None if f == "age" else "") for f in fields if f in slot})
            db.execute(
                "UPDATE vault SET body = ? WHERE seq = ? AND person = ?",
                (json.dumps(held, ensure_ascii=False), seq_, person),
            )
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (PURGE_KEY,))
    records = entry.vault_records()
    if records:
        db.executemany(
            "INSERT OR REPLACE INTO vault (seq, person, body) VALUES (?, ?, ?)",
            [(seq, person, json.dumps(body, ensure_ascii=False)) for person, body in records.items()],
        )


def read_vault(db: sqlite3.Connection, after: int, upto: int | None) -> dict[int, dict[str, Any]]:
    """The vault's records of the entries ``after < seq <= upto``: ``{seq: {person: body}}``."""
    sql, args = "SELECT seq, person, body FROM vault WHERE seq > ?", [after]
    if upto is not None:
        sql += " AND seq <= ?"
        args.append(upto)
    out: dict[int, dict[str, Any]] = {}
    for seq, person, body in db.execute(sql, args):
        out.setdefault(int(seq), {})[str(person)] = json.loads(body)
    return out


def people_in_vault(db: sqlite3.Connection) -> set[str]:
    """The people the vault holds anything of."""
    return {str(r[0]) for r in db.execute("SELECT DISTINCT person FROM vault")}
