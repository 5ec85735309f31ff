"""The sources of the API's pushes: what a new subscriber gets first, and what each batch adds.

Apart from :mod:`clockd.service.server` because what is pushed is the daemon's state put
into messages (tables, timeline entries, events, hall signals), not the server's business
of connections; the server only asks each broadcaster and fans the pushes out to the
subscribers that want their :data:`Topic`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from clockd.api.messages import EventStatePush, Push, Signal, TableStatePush, TimelinePush
from clockd.core.ids import event_ref
from clockd.core.units import MS
from clockd.service.engine import Batch
from clockd.service.handlers import Context
from clockd.service.views import timeline_entry

__all__ = [
    "BROADCASTERS",
    "Broadcaster",
    "EventsBroadcaster",
    "TablesBroadcaster",
    "Topic",
    "register_broadcaster",
]

#: What a push concerns, for subscribers who asked for some tables or events only: a table
#: number, an event key, or ``None`` (everyone).
Topic = int | str | None


class Broadcaster(Protocol):
    """Source of pushes: what a new subscriber gets first, and what each batch adds.

    Each push is paired with what it concerns (:data:`Topic`), so a subscriber that
    asked for some tables or events only gets theirs. Pushes are built with everything in
    them; the server drops what is private for subscribers without the token.
    """

    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]: ...

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]: ...


class TablesBroadcaster:
    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        current = ctx.current()
        for table in sorted(current.tables):
            yield TableStatePush(table=ctx.view(table, current)), table

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        for record in batch.records:
            entry = record.entry
            topic: Topic = entry.table if entry.table is not None else entry.event
            yield TimelinePush(entry=timeline_entry(record)), topic
        for table in sorted(batch.changed_tables):
            if table in batch.current.tables:
                yield TableStatePush(table=ctx.view(table, batch.current)), table


class EventsBroadcaster:
    """An ``event-state`` per event (on subscribing, and after each change), and hall signals."""

    def initial(self, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        current = ctx.current()
        events = ctx.events(current)
        if events is None:
            return
        for key in events.order:
            yield EventStatePush(event=ctx.event_view(key, current)), key

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, Topic]]:
        events = ctx.events(batch.current)
        if events is None:
            return
        for record in batch.records:
            entry = record.entry
            if entry.kind == "timer-due" and entry.event is not None:  # a hall signal (service.hallclock)
                signal = Signal(
                    event=event_ref(batch.current.hall, entry.event),
                    what=getattr(entry, "what", "signal"),
                    offset_ms=getattr(entry, "offset_ns", 0) // MS,
                    pattern=getattr(entry, "pattern", ""),
                )
                yield signal, entry.event
            elif entry.kind == "timer-end" and entry.event is not None and entry.event in events.events:
                # the referee called time: the same "end" the hall hears when the time runs out
                timer = getattr(events.events[entry.event].state, "timer", None)
                end = getattr(getattr(timer, "plan", None), "end_pattern", None)
                signal = Signal(
                    event=event_ref(batch.current.hall, entry.event),
                    what="end",
                    offset_ms=getattr(timer, "run_ns", 0) // MS,
                    pattern="" if end is None else str(end.value),
                )
                yield signal, entry.event
        # the entries' events, and those a person action changed (``person erase`` names none)
        for key in sorted(batch.changed_events | events.changed):
            if key in events.events:
                yield EventStatePush(event=ctx.event_view(key, batch.current)), key


BROADCASTERS: list[Broadcaster] = [TablesBroadcaster(), EventsBroadcaster()]


def register_broadcaster(broadcaster: Broadcaster) -> None:
    """Add a source of pushes (e.g. a tournament's bracket state). Call before the server starts."""
    BROADCASTERS.append(broadcaster)
