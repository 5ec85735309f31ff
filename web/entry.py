"""Result entry from the tables: what a phone sends, turned into the daemon's own actions.

An entry is a small JSON object with an ``id`` the phone made (it keeps the entry in its
queue until the daemon has answered, and sends it again after a dropped Wi-Fi with the
same id). The id goes to the daemon as the request's id, prefixed with the person's: the
daemon journals it with the action and applies an id once ("Requests applied once",
docs/architecture.md) — so an entry sent twice, or after the reply was lost, counts once.

Every entry is an action of the desk's (``chess-result``, ``entry-finish``,
``entry-count``, ``entry-missing``) with ``by`` the person's name: journaled before it
counts, and the desk sees who entered what.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from clockd.api import ApiError, Client
from clockd.core.actions import Action
from clockd.core.chessday.group import EnterResult
from clockd.core.hall import FinishEntry
from clockd.core.zone import CountEntry, MissingPieces
from clockd.i18n import Msg, msg
from web.access import Person

_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class BadEntry(Exception):
    """An entry that cannot be an action: its message says why."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.code)
        self.msg = message


@dataclass(frozen=True)
class Entry:
    id: str
    event: str
    action: Action


def parse_entry(data: Any) -> Entry:
    """The action an entry asks for (refused with a message when it is not one we take)."""
    if not isinstance(data, dict):
        raise BadEntry(msg("web.entry-invalid"))
    entry_id, event, kind = data.get("id"), data.get("event"), data.get("kind")
    if not isinstance(entry_id, str) or not _ID.match(entry_id):
        raise BadEntry(msg("web.entry-invalid"))
    if not isinstance(event, str) or not event or len(event) > 60 or "/" in event:
        raise BadEntry(msg("web.entry-invalid"))
    try:
        action: Action
        if kind == "chess-result":
            action = EnterResult(
                board=int(data["board"]), result=str(data["result"]), replace=bool(data.get("replace", False))
            )
        elif kind == "entry-finish":
            action = FinishEntry(entry=str(data["entry"]))
        elif kind == "entry-count":
            action = CountEntry(entry=str(data["entry"]), pieces=int(data["pieces"]))
        elif kind == "entry-missing":
            action = MissingPieces(entry=str(data["entry"]), missing=int(data["missing"]))
        else:
            raise BadEntry(msg("web.entry-invalid"))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadEntry(msg("web.entry-invalid")) from exc
    return Entry(entry_id, event, action)


class Desk:
    """The daemon, as the web process acts on it: one client (with the token) per worker thread."""

    def __init__(self, host: str, port: int, token: str | None, tls: Any = None) -> None:
        self.host, self.port, self.token, self.tls = host, port, token, tls
        self._local = threading.local()

    def _client(self) -> Client:
        client = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = Client(
                self.host, self.port, self.token, tls=self.tls, timeout_ms=5000
            )
        return client

    def submit(self, person: Person, entry: Entry) -> dict[str, Any]:
        """Send ``entry`` as ``person``'s action; the daemon's answer as a small dict for the phone.

        ``{"ok": true, "seq": …}``; or ``{"ok": false, "conflict": …, "reason": Msg}`` when the
        daemon refused (a board with another result is a conflict: shown, never overwritten).
        """
        if self.token is None:
            return {"ok": False, "conflict": False, "reason": msg("web.no-token")}
        request_id = f"web-{person.id}-{entry.id}"
        try:
            done = self._client().act(entry.event, entry.action, request_id=request_id, by=person.name)
        except ApiError as exc:
            reason = exc.reason if exc.reason is not None else msg("web.entry-invalid")
            conflict = reason.code == "chess.result-entered"
            return {"ok": False, "conflict": conflict, "reason": reason, "retry": exc.code == "unavailable"}
        return {"ok": True, "seq": done.seq}
