"""What an event kind is to the daemon: the :class:`EventKind` protocol, the record of one hosted
event (:class:`Hosted`, its alerts, why it was set aside), what a kind may use while staging
(:class:`EventContext`), and the registry of kinds (:func:`event_kind`).

Apart from :mod:`clockd.service.events` (the component that hosts them) because a kind's
module needs these and nothing of the host's machinery: a kind imports this, the host
imports the kinds' registrations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from clockd.core.actions import Allowed
from clockd.i18n import Msg
from clockd.service.component import Restart, Staged, World
from clockd.service.tables import Tables, TableState
from clockd.store.entries import Entry, entry_type


@entry_type
class EventAlertRaised(Entry):
    """Something the referee must look at about an event (its clock ran while the daemon was
    down). ``code`` is a catalogue code, ``data`` its parameters, as for a table's alert."""

    kind: Literal["event-alert"] = "event-alert"
    alert_id: int
    code: str
    data: dict[str, int | str] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventAlert:
    id: int
    code: str
    t_ns: int
    data: dict[str, int | str]


@dataclass(frozen=True, slots=True)
class Quarantine:
    """Why an event is set aside: the journal entry (``seq``, its ``entry`` kind) whose replay
    failed, and the ``problem`` it raised (the referee's alert names both)."""

    seq: int
    entry: str
    problem: str


@dataclass(frozen=True, slots=True)
class Hosted:
    """One event: its kind, key, name, the kind's own state (immutable), the open alerts.

    A *quarantined* event (``quarantine`` set) could not be rebuilt from the journal: its
    state is what the entries before the failing one made (``None`` if its creation failed),
    it is shown as set aside, takes no action and no reaction, and every other event runs.
    """

    kind: str
    key: str
    name: str
    state: Any
    alerts: tuple[EventAlert, ...] = ()
    quarantine: Quarantine | None = None

    def with_state(self, state: Any) -> Hosted:
        return replace(self, state=state)


class EventContext(Protocol):
    """What an event kind may use while staging (the :class:`EventHost` component is one)."""

    @property
    def hall(self) -> str: ...

    def table(self, number: int) -> TableState | None: ...

    def tables(self) -> Tables: ...

    def identify(self, full_name: str, email: str = "", phone: str = "") -> str: ...

    def remember(self, person_id: str, full_name: str, email: str = "", phone: str = "") -> None: ...

    def hosted(self) -> dict[str, Hosted]: ...

    @property
    def world(self) -> World: ...


class EventKind(Protocol):
    """One kind of event (see the module docstring). Every method is called on the engine's thread."""

    #: The kind's name ("puzzle-duel", "timer"): what ``event-create`` names.
    kind: str
    #: The action kinds it applies (targets: its events, or their items).
    actions: frozenset[str]
    #: Its own (non-action) entry kinds: the decisions it journals.
    entries: frozenset[str]
    #: Table entry kinds after which it looks at its tables (a press, a flag …).
    reacts_to: frozenset[str]

    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        """A new event's state, and the configuration to journal (so a replay needs no file)."""
        ...

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        """The state a journaled ``event-create`` made."""
        ...

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        """Follow-ups of the creation (programs onto the event's tables)."""
        ...

    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        """The event's next state after ``entry`` and what to journal, do and follow up."""
        ...

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        """Follow-ups for a table entry on ``table``, a table whose program this event owns."""
        ...

    def deadline(self, hosted: Hosted) -> int | None: ...

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]: ...

    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        """The event's actions and why not (its items' actions are in its view)."""
        ...

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> BaseModel:
        """What clients see of the event: its kind's API view (public names only).

        Called from any thread with committed state only (``tables``: the committed tables).
        """
        ...

    def title(self, hosted: Hosted) -> Msg:
        """The event's name for screens (as the organiser typed it, or the kind's standard one)."""
        ...

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        """The event's results file (JSON), texts in ``lang``; ``None`` while it has none."""
        ...

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        """The table an item of the event (a match) is played on now, if any: where a table
        action aimed at the item goes."""
        ...

    # Optional: ``shown(hosted, now_ns) -> list[Shown]`` — what the event shows, line by line,
    # for clients without a widget of the kind (``clockd.api.shown.Shown``).

    # Optional: ``picks(hosted, now_ns) -> dict[str, dict[str, tuple[Pick, ...]]]`` — for an
    # action's fields that name something of the event, the values they may take now
    # (``clockd.api.shown.Pick``: what a form offers to choose from).

    # Optional: ``holds(hosted, item) -> bool`` — whether the event's ``item`` still holds the
    # table its program is on (``False``: it is over, the table is given back). A kind without
    # it keeps its tables until it unloads them itself (a chess round's boards) or the referee
    # frees them (``table-free``). See :meth:`EventHost._holding`.

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        """What a restart means for the event (a running clock: an alert; after a reboot, a
        pause at the last journaled instant)."""
        ...

    def dump(self, state: Any) -> Any: ...

    def load(self, data: Any) -> Any: ...


class Untimed:
    """The parts of :class:`EventKind` for a kind that no time drives and no table entry moves
    (a chess group: its clocks' flags are the tables' own; the chess day's registration desk):
    no reactions, no deadlines, nothing to do at a restart. Mix it in; override what differs."""

    reacts_to: frozenset[str] = frozenset()

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return []

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        return []

    def deadline(self, hosted: Hosted) -> int | None:
        return None

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return []

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        return None

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        return []


_KINDS: dict[str, EventKind] = {}


def event_kind(kind: EventKind) -> EventKind:
    """Register an event kind (call at import time; the composition root imports the kinds)."""
    known = _KINDS.get(kind.kind)
    if known is not None and known is not kind:
        raise TypeError(f"event kind {kind.kind!r} is registered twice")
    _KINDS[kind.kind] = kind
    return kind


def event_kinds() -> dict[str, EventKind]:
    return dict(_KINDS)
