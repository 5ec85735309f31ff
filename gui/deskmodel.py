"""The desk's model: the :class:`DeskState` the daemon's stream keeps current, who listens to
its changes (:class:`Change`), and the public copy an audience screen is drawn from (every
private field emptied: :func:`redact`).

Apart from :mod:`gui.model`'s values because it is the one thing in the GUI that changes:
the widgets read values, the adapter and the demo write through this.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Literal, TypeVar

from clockd.api.describe import DescribeReply
from clockd.api.messages import NodesReply
from clockd.i18n import Msg
from gui.model import (
    Connection,
    DeskState,
    Event,
    Flash,
    Table,
    TimelineItem,
    choose_shown,
    redact,
)

_T = TypeVar("_T")


class PublicCopy:
    """:meth:`DeskState.public`, made cheap for a screen redrawn on every press.

    Events (players, brackets) change rarely; tables change on every press. The redacted
    events are kept while the state holds the very same object, so a press costs the
    redaction of the rest only. The result equals ``state.public()``.
    """

    def __init__(self) -> None:
        self._events_of: object = None
        self._events: dict[str, Event] = {}

    def __call__(self, state: DeskState) -> DeskState:
        if state.events is not self._events_of:
            self._events_of, self._events = state.events, redact(state.events)
        rest = state.model_copy(update={"events": {}, "timelines": {}, "event_timelines": {}})
        return redact(rest).model_copy(update={"events": self._events})


class Change(StrEnum):
    """What part of the state an update touched (a subscriber redraws only that)."""

    TABLES = "tables"
    EVENTS = "events"  # an event's body, the list of events, or which one is shown
    TIMELINE = "timeline"
    CONNECTION = "connection"
    SIGNAL = "signal"
    NODES = "nodes"  # the desk's table nodes: links, lag, outages, commands not done


Listener = Callable[[Change, frozenset[int]], None]
F = TypeVar("F", bound=Callable[..., Any])


def _weakly(fn: F) -> Callable[[], F | None]:
    """A reference to ``fn``: weak for a bound method (its object may go), strong for a function."""
    if inspect.ismethod(fn):
        return weakref.WeakMethod(fn)
    return lambda: fn


class DeskModel:
    """The current :class:`DeskState`, and who wants to know when it changes.

    Every update replaces the state (it is immutable) and calls each listener with what
    changed and, for tables and timelines, which table numbers. Listeners run in the
    caller's thread — in the GUI, Qt's main thread, where the adapter applies messages.
    """

    def __init__(self, state: DeskState | None = None) -> None:
        self._state = state or DeskState()
        self._listeners: list[Callable[[], Listener | None]] = []

    @property
    def state(self) -> DeskState:
        return self._state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change, tables)`` after every update; returns an unsubscribe function.

        A bound method is held weakly: a window that subscribes is not kept alive by the
        model, and no reference cycle (window → model → window) is left for Python's cycle
        collector — which may run in any thread, and a Qt widget must die in the GUI thread.
        """
        ref = _weakly(listener)
        self._listeners.append(ref)

        def unsubscribe() -> None:
            if ref in self._listeners:
                self._listeners.remove(ref)

        return unsubscribe

    def _emit(self, change: Change, tables: Iterable[int] = ()) -> None:
        keys = frozenset(tables)
        for ref in list(self._listeners):
            listener = ref()
            if listener is None:
                self._listeners.remove(ref)
            else:
                listener(change, keys)

    def _set(self, **update: Any) -> None:
        self._state = self._state.model_copy(update=update)

    # -- updates --------------------------------------------------------------------------
    def replace(self, state: DeskState) -> None:
        """A whole new state (a fresh connection, the demo): everything changed."""
        self._state = state
        for change in Change:
            self._emit(change, state.tables)

    def set_tables(self, tables: Iterable[Table], *, fresh: bool = False) -> set[int]:
        """Store tables' new states; an older one than held (lower ``seq``) is ignored as stale.

        ``fresh``: the first state of a new connection, which replaces whatever is held (the
        daemon may have restarted on another journal, whose sequence starts again).
        """
        current = dict(self._state.tables)
        changed = set()
        for t in tables:
            held = current.get(t.table)
            if held is not None and t.seq < held.seq and not fresh:
                continue
            current[t.table] = t
            changed.add(t.table)
        if changed:
            self._set(tables=current)
            self._emit(Change.TABLES, changed)
        return changed

    def keep_tables(self, numbers: Iterable[int]) -> None:
        """Forget every table but ``numbers`` (the daemon's tables now), with their timelines."""
        keep = set(numbers)
        gone = set(self._state.tables) - keep
        if not gone:
            return
        tables = {n: t for n, t in self._state.tables.items() if n in keep}
        timelines = {n: t for n, t in self._state.timelines.items() if n in keep}
        self._set(tables=tables, timelines=timelines)
        self._emit(Change.TABLES, gone)
        self._emit(Change.TIMELINE, gone)

    def set_event(self, event: Event, *, fresh: bool = False) -> bool:
        """Store an event's new state (a stale one, lower ``seq``, is ignored unless ``fresh``);
        the event shown follows the play unless the referee chose one (:func:`choose_shown`)."""
        held = self._state.events.get(event.id)
        if held is not None and event.seq < held.seq and not fresh:
            return False
        events = {**self._state.events, event.id: event}
        s = self._state
        self._set(events=events, shown=choose_shown(events, s.shown, s.chosen))
        self._emit(Change.EVENTS)
        return True

    def keep_events(self, ids: Iterable[str]) -> None:
        """Forget every event but ``ids`` (the daemon's events now)."""
        keep = set(ids)
        s = self._state
        if set(s.events) <= keep:
            return
        events = {k: e for k, e in s.events.items() if k in keep}
        keys = {e.key for e in events.values()}
        timelines = {k: t for k, t in s.event_timelines.items() if k in keys}
        chosen = s.chosen and s.shown in events
        self._set(
            events=events,
            event_timelines=timelines,
            chosen=chosen,
            shown=choose_shown(events, s.shown, chosen),
        )
        self._emit(Change.EVENTS)

    def choose_event(self, event_id: str) -> None:
        """The referee chose to see ``event_id`` (it stays shown while it exists)."""
        if (self._state.shown, self._state.chosen) == (event_id, True):
            return
        self._set(shown=event_id, chosen=True)
        self._emit(Change.EVENTS)

    def clear_timelines(self) -> None:
        """Forget every timeline (a new connection fetches them afresh)."""
        s = self._state
        if s.timelines or s.event_timelines:
            held = set(s.timelines)
            self._set(timelines={}, event_timelines={})
            self._emit(Change.TIMELINE, held)

    def set_timeline(self, table: int, items: Iterable[TimelineItem]) -> None:
        """The table's whole timeline (e.g. fetched on demand), oldest first."""
        self._set(timelines={**self._state.timelines, table: _merged(items)})
        self._emit(Change.TIMELINE, {table})

    def add_timeline(self, table: int, item: TimelineItem) -> None:
        """One new entry at the end of a table's timeline (a repeat of a known ``seq`` is dropped)."""
        held = self._state.timelines.get(table, ())
        items = _appended(held, item)
        if items is not held:
            self._set(timelines={**self._state.timelines, table: items})
            self._emit(Change.TIMELINE, {table})

    def set_event_timeline(self, key: str, items: Iterable[TimelineItem]) -> None:
        """An event's whole timeline (``key``: the event's key, as the journal names it)."""
        self._set(event_timelines={**self._state.event_timelines, key: _merged(items)})
        self._emit(Change.TIMELINE)

    def add_event_timeline(self, key: str, item: TimelineItem) -> None:
        held = self._state.event_timelines.get(key, ())
        items = _appended(held, item)
        if items is not held:
            self._set(event_timelines={**self._state.event_timelines, key: items})
            self._emit(Change.TIMELINE)

    def flash(
        self, event_id: str, what: Literal["signal", "end", "pre"], offset_ms: int, now_ns: int
    ) -> None:
        """A hall signal arrived: the screens sound and flash it."""
        number = (self._state.signal.number if self._state.signal is not None else 0) + 1
        self._set(
            signal=Flash(event=event_id, what=what, offset_ms=offset_ms, number=number, received_ns=now_ns)
        )
        self._emit(Change.SIGNAL)

    def set_nodes(self, reply: NodesReply, wall_ms: int) -> None:
        """The daemon's answer to ``nodes``, received when the GUI's wall clock read ``wall_ms``.

        A change of a node's link also changes how its tables are drawn (live or last
        known), so those tables are announced as changed too."""
        before = self._state
        if before.nodes is not None and before.nodes.model_dump(exclude={"id", "now_ms"}) == reply.model_dump(
            exclude={"id", "now_ms"}
        ):
            self._set(nodes=reply, nodes_wall_ms=wall_ms)  # the same nodes: only "ago" moved on
            self._emit(Change.NODES)
            return
        self._set(nodes=reply, nodes_wall_ms=wall_ms)
        after = self._state
        flipped = {
            n
            for n, t in after.tables.items()
            if t.node and before.node_down(t.node) != after.node_down(t.node)
        }
        self._emit(Change.NODES)
        if flipped:
            self._emit(Change.TABLES, flipped)

    def set_described(self, described: DescribeReply) -> None:
        """The daemon's descriptions arrived: the desk can offer every kind's actions."""
        self._set(described=described)
        self._emit(Change.EVENTS)

    def set_connection(self, connection: Connection, detail: Msg | None = None) -> None:
        if (connection, detail) == (self._state.connection, self._state.connection_detail):
            return
        self._set(connection=connection, connection_detail=detail)
        self._emit(Change.CONNECTION)


def _merged(items: Iterable[TimelineItem]) -> tuple[TimelineItem, ...]:
    by_seq = {i.seq: i for i in items}
    return tuple(by_seq[s] for s in sorted(by_seq))


def _appended(held: tuple[TimelineItem, ...], item: TimelineItem) -> tuple[TimelineItem, ...]:
    if any(i.seq == item.seq for i in held[-64:]):
        return held
    if not held or held[-1].seq < item.seq:
        return (*held, item)
    return tuple(sorted((*held, item), key=lambda i: i.seq))
