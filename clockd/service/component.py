"""The shape of a piece of daemon state that is folded from the journal: a *component*.

The engine (:mod:`clockd.service.engine`) owns the journal and the order of inputs; the
state itself lives in components. The built-in one is :class:`~clockd.service.tables.Tables`
(the clocks); a tournament, a bracket or a Swiss round can be another, added without
touching the engine (``docs/architecture.md``, "Adding to the daemon").

A batch of inputs goes through a component in four steps, all on the engine's thread:

1. :meth:`Component.begin` — a batch starts.
2. :meth:`Component.stage` — for each event the component owns (by ``kind``): compute the
   state it leads to *without* making it visible, and return the event to journal
   (completed with what the component decided: an outcome, an id) plus the *effects* to
   run once it is committed (acknowledge a press, update a display). A command that
   cannot apply raises :class:`Refused`: nothing of it is journaled or applied.
3. The engine commits the batch to the journal.
4. :meth:`Component.commit` makes the staged state current — or :meth:`Component.abort`
   drops it if the commit failed.

Replaying the journal calls the same :meth:`Component.stage` with ``replay=True`` (the
event is taken as recorded; effects are discarded), so the state after a restart is built
by the very code that built it live.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from clockd.store.events import Event
from clockd.store.journal import Record

#: Something to do once the batch holding an event is on disk (run on the output thread).
Effect = Callable[[], None]


class Refused(ValueError):
    """A command that cannot apply now. The message is an English sentence for the referee."""


class ReplayMismatch(RuntimeError):
    """Replaying the journal did not reproduce what was recorded (a bug or a damaged file)."""


@dataclass(slots=True)
class Staged:
    """What staging one input produced: the event to journal (``None``: nothing) and effects."""

    event: Event | None
    effects: list[Effect] = field(default_factory=list)


class Component(Protocol):
    """A piece of state folded from the journal. See the module docstring for the protocol."""

    #: A short unique name: the key of this component's part of a snapshot.
    name: str
    #: The event kinds this component applies (each kind has exactly one owner).
    kinds: frozenset[str]

    def begin(self) -> None: ...

    def stage(self, event: Event, *, now_ns: int, replay: bool) -> Staged: ...

    def commit(self, records: Sequence[Record]) -> None: ...

    def abort(self) -> None: ...

    def due(self, now_ns: int) -> list[Event]:
        """Events that time alone makes due at ``now_ns`` (e.g. a flag decision)."""
        ...

    def next_deadline(self) -> int | None:
        """The journal-time instant :meth:`due` will next return something, if known."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The committed state as JSON-ready data."""
        ...

    def restore(self, data: dict[str, Any]) -> None: ...

    def view(self) -> Any:
        """The committed state as an immutable object other threads may read."""
        ...
