"""The shape of a piece of daemon state folded from the journal: a *component*.

The engine (:mod:`clockd.service.engine`) owns the journal and the order of inputs; the
state lives in components: :class:`~clockd.service.tables.Tables` (every table: its
device side and the program it runs) and :class:`~clockd.service.events.EventHost` (every
event of every kind: Puzzle Duel sessions, hall events, …). A new kind of state is
another component, added without touching the engine.

A batch of inputs goes through the components in four steps, all on the engine's thread:

1. :meth:`Component.begin` — a batch starts.
2. :meth:`Component.stage` — for each entry the component owns (by ``kind``): compute
   the state it leads to *without* making it visible, and return the entry to journal
   (completed with what the component decided: an outcome, a verdict, an id), the
   *effects* to run once it is committed (acknowledge a press, show a time, sound a
   buzzer), and *follow-ups*: entries of any component that belong to the same decision
   ("assign a match to a table" is also "load the duel onto the table"). A command that
   cannot apply raises :class:`Refused`: nothing of it — follow-ups included — is
   journaled or applied (the engine rolls every component back to the
   :meth:`Component.mark` it took before the command).
3. The engine commits the batch to the journal.
4. :meth:`Component.commit` makes the staged state current — or :meth:`Component.abort`
   drops it if the commit failed.

A component may also :meth:`Component.react` to entries other components staged (the
kinds it lists in ``reacts_to``): a duel's table decided a flag, so the bracket journals
the match's result — in the same commit. Reactions happen live only; on replay the
follow-ups are in the journal already, right after what caused them.

Replaying the journal calls the same :meth:`Component.stage` with ``replay=True`` (the
entry is taken as recorded; effects and follow-ups are discarded), so the state after a
restart is built by the very code that built it live.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload

from clockd.i18n import Problem
from clockd.store.entries import Entry
from clockd.store.journal import Record

if TYPE_CHECKING:
    from clockd.service.devices import DeviceRegistry

#: Something to do once the batch holding an entry is on disk (run on the output thread).
Effect = Callable[[], None]


class Refused(Problem):
    """A command that cannot apply now. Its message (a code and parameters) says why."""


class ReplayMismatch(Problem, RuntimeError):
    """Replaying the journal did not reproduce what was recorded (a bug or a damaged file).

    A message with a code (``replay.*``): ``duelclock run`` prints it in the referee's language.
    """


@dataclass(frozen=True, slots=True)
class Restart:
    """How the daemon came back (:meth:`Component.recovered`): ``same-boot`` (time went on:
    running clocks were charged for ``downtime_ns``) or ``new-boot`` (time is lost: what ran
    stops at ``last_t_ns``, the last journaled instant), and the instant it is now."""

    rule: str
    downtime_ns: int | None
    last_t_ns: int
    now_ns: int


@dataclass(slots=True)
class Staged:
    """What staging one entry produced: the entry to journal (``None``: nothing), the effects
    to run after the commit, and follow-up entries to stage in the same commit."""

    entry: Entry | None
    effects: list[Effect] = field(default_factory=list)
    follow: list[Entry] = field(default_factory=list)


class World(Protocol):
    """What a component may read of the others while staging (the engine implements it).

    Reads see what is staged so far in this batch: a reaction to an entry sees the state
    that entry led to.
    """

    devices: DeviceRegistry

    def component(self, name: str) -> Component: ...

    @property
    def hall(self) -> str: ...


class Component(Protocol):
    """A piece of state folded from the journal. See the module docstring for the protocol."""

    #: A short unique name: the key of this component's part of a snapshot and of the views.
    name: str
    #: The entry kinds this component applies (each kind has exactly one owner).
    kinds: frozenset[str]
    #: The entry kinds (of any component) this component reacts to, live.
    reacts_to: frozenset[str]

    def bind(self, world: World) -> None:
        """Called once by the engine before anything else."""
        ...

    def begin(self) -> None: ...

    def stage(self, entry: Entry, *, now_ns: int, replay: bool) -> Staged: ...

    def react(self, entry: Entry, *, now_ns: int) -> list[Entry]:
        """Follow-up entries for ``entry`` (just staged by any component), or none."""
        ...

    def mark(self) -> object:
        """A savepoint of the staged state, for :meth:`rollback`."""
        ...

    def rollback(self, mark: object) -> None:
        """Drop what was staged since ``mark`` (a composite command was refused part-way)."""
        ...

    def commit(self, records: Sequence[Record]) -> None: ...

    def abort(self) -> None: ...

    def due(self, now_ns: int) -> list[Entry]:
        """Entries that time alone makes due at ``now_ns`` (e.g. a flag decision)."""
        ...

    def recovered(self, restart: Restart) -> list[Entry]:
        """What a restart means for this component's state: the referee's alerts for what was
        running, and (after a machine reboot) pauses at the last journaled instant."""
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


K = TypeVar("K")
V = TypeVar("V")


class Staging(Generic[K, V]):
    """A component's staged changes to a dict of committed values, with savepoints.

    ``get`` sees the staged value over the committed one; ``put`` stages a value; ``mark``
    and ``rollback`` undo back to a point (a command refused half-way through its
    follow-ups); :meth:`changes` is what :meth:`Component.commit` publishes.
    """

    __slots__ = ("_base", "_staged", "_undo")

    def __init__(self, base: dict[K, V]) -> None:
        self._base = base
        self._staged: dict[K, V] = {}
        #: (key, its staged value before the put, boxed; ``None``: it had none, rollback unstages it)
        self._undo: list[tuple[K, tuple[V] | None]] = []

    def rebase(self, base: dict[K, V]) -> None:
        self._base = base
        self.clear()

    def clear(self) -> None:
        self._staged = {}
        self._undo = []

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: V) -> V: ...
    def get(self, key: K, default: V | None = None) -> V | None:
        if key in self._staged:
            return self._staged[key]
        return self._base.get(key, default)

    def __getitem__(self, key: K) -> V:
        """The value of a key known to be there (one of :meth:`all_keys`); KeyError if not."""
        if key in self._staged:
            return self._staged[key]
        return self._base[key]

    def __contains__(self, key: object) -> bool:
        return key in self._staged or key in self._base

    def put(self, key: K, value: V) -> None:
        self._undo.append((key, (self._staged[key],) if key in self._staged else None))
        self._staged[key] = value

    def mark(self) -> int:
        return len(self._undo)

    def rollback(self, mark: int) -> None:
        while len(self._undo) > mark:
            key, old = self._undo.pop()
            if old is None:
                self._staged.pop(key, None)
            else:
                self._staged[key] = old[0]

    def changes(self) -> dict[K, V]:
        return self._staged

    def all_keys(self) -> set[K]:
        """Every key, committed or staged."""
        return set(self._base) | set(self._staged)
