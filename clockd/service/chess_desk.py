"""The registration desk of the chess day as an event kind: ``chess-registrations``.

It holds one thing, the organiser's hand matches of payments to forms
(:mod:`clockd.core.chessday.desk`), each a journaled action with who (``by``), when (the wall
time, decided once and journaled, so a replay gives the same) and why. The forms and the bank
statements themselves stay in the organiser's files: the daemon keeps decisions, not people's
data.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from clockd.api.chess import ChessDeskBody, HandMatchView
from clockd.core.actions import Allowed
from clockd.core.chessday.desk import MatchPayment, decided
from clockd.core.chessday.registrations import Decisions
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Staged
from clockd.service.events import EventContext, Hosted, Untimed, event_kind
from clockd.service.tables import TableState
from clockd.store.entries import Entry


class ChessDeskKind(Untimed):
    """The event kind ``chess-registrations`` (see the module docstring)."""

    kind = "chess-registrations"
    actions = frozenset({"chess-hand-match"})
    entries: frozenset[str] = frozenset()

    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        return Decisions(), {}

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return Decisions()

    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        if not isinstance(entry, ActionEntry) or not isinstance(entry.action, MatchPayment):
            raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover - routed by kind
        match = entry.action
        at = (entry.decided or {}).get("at") if replay else None
        if at is None:
            at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
            entry = entry.model_copy(update={"decided": {"at": at}})
        return decided(hosted.state, match, by=entry.by, at=at), Staged(entry)

    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        return {"chess-hand-match": None}

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> ChessDeskBody:
        state: Decisions = hosted.state
        return ChessDeskBody(
            matches=[
                HandMatchView(
                    file=m.payment.file, row=m.payment.row, forms=list(m.forms), by=m.by, at=m.at, why=m.why
                )
                for m in state.matches
            ]
        )

    def title(self, hosted: Hosted) -> Msg:
        return (
            msg("text.as-typed", text=hosted.name)
            if hosted.name
            else Msg(code=f"term.event-kind.{self.kind}")
        )

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        state: Decisions = hosted.state
        return state.model_dump(mode="json")

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return Decisions.model_validate(data)


event_kind(ChessDeskKind())

__all__ = ["ChessDeskKind"]
