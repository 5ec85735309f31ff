"""A referee's action as a journal entry: derived from the action's one definition.

Every action class (:mod:`clockd.core.actions`) gets an entry class here, of the same
``kind`` — ``pause`` is journaled as a ``pause`` entry holding the :class:`Pause` action
itself — so that adding an action is writing its class and the rule that applies it,
never an entry class, a request class and a mapping between them. The entry adds what the
daemon knows: the instant (``t_ns``), the target as it was resolved (``target``, a
qualified name), the referee (``by``), who caused it (``source``) and, where the action
leaves a decision to the daemon, what it decided (``decided``: the sign-ups it read, the
seed it drew) — kept so that a replay never decides again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from pydantic import Field, create_model

from clockd.core.actions import Action, action_types
from clockd.core.private import PRIVATE
from clockd.service.entries import RequestKey, Source
from clockd.store.entries import Entry, entry_kinds, entry_type


class ActionEntry(Entry):
    """The base of every action's entry (one subclass per action, made by :func:`entry_for`)."""

    target: str
    by: str = ""
    source: Source = "referee"
    action: Action
    #: What the daemon decided (the sign-ups it read, with the people in them): private.
    decided: Any = Field(default=None, json_schema_extra=PRIVATE)
    #: The request it came in (an action the daemon made itself, or one sent without an id: none).
    request: RequestKey | None = None
    #: The personal data the action brought, by person id (then by where in the entry it
    #: belongs: a sign-up's line, ``"add"``): kept in the journal's vault, never in its row —
    #: left out of every dump — and gone once the person is erased (``docs/architecture.md``,
    #: "The vault").
    vault: dict[str, dict[str, Any]] = Field(default_factory=dict, exclude=True, json_schema_extra=PRIVATE)

    def vault_records(self) -> dict[str, dict[str, Any]]:
        return self.vault

    def vault_erases(self) -> str | None:
        person = getattr(self.action, "person", None) if self.kind == "person-erase" else None
        return person if isinstance(person, str) else None

    def vault_drops(self) -> tuple[str, tuple[str, ...]] | None:
        if self.kind != "person-drop":
            return None
        return str(getattr(self.action, "person", "")), tuple(getattr(self.action, "fields", ()))

    def with_vault(self, records: Mapping[str, Any]) -> ActionEntry:
        return self.model_copy(update={"vault": dict(records)})

    def at(self, t_ns: int) -> Entry:
        """Stamped, the action inside too (the core applies the action at its own instant)."""
        return self.model_copy(update={"t_ns": t_ns, "action": self.action.at(t_ns)})


_ENTRIES: dict[type[Action], type[ActionEntry]] = {}


def entry_for(cls: type[Action]) -> type[ActionEntry]:
    """The entry class of action ``cls`` (made and registered on first use)."""
    made = _ENTRIES.get(cls)
    if made is not None:
        return made
    kind = cls.model_fields["kind"].default
    model = create_model(
        f"{cls.__name__}Entry",
        __base__=ActionEntry,
        __module__=__name__,
        kind=(Literal[kind], kind),  # type: ignore[arg-type]
        action=(cls, ...),
    )
    registered = cast(type[ActionEntry], entry_type(model))
    _ENTRIES[cls] = registered
    return registered


def register_action_entries() -> None:
    """Make the entry class of every action known so far (before a journal is replayed)."""
    known = entry_kinds()
    for cls in action_types().values():
        kind = cls.model_fields["kind"].default
        if cls not in _ENTRIES and kind in known and not issubclass(known[kind], ActionEntry):
            raise TypeError(f"action {kind!r} has the kind of an entry that is not an action's")
        entry_for(cls)


def journal(
    action: Action,
    *,
    target: str,
    by: str = "",
    source: Source = "referee",
    table: int | None = None,
    event: str | None = None,
    decided: Any = None,
    request: RequestKey | None = None,
) -> ActionEntry:
    """The entry for ``action`` (stamped with ``action.t_ns``); ``request``: the API request it came in."""
    cls = entry_for(type(action))
    return cls(
        kind=action.kind,
        t_ns=action.t_ns,
        table=table,
        event=event,
        target=target,
        by=by,
        source=source,
        action=action,
        decided=decided,
        request=request,
    )


__all__ = ["ActionEntry", "RequestKey", "entry_for", "journal", "register_action_entries"]
