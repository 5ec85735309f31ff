"""What the daemon does with each API request: one handler per request type, in a registry.

A handler is ``async def handler(ctx: Context, request) -> Reply``. Read-only handlers
answer from ``ctx.current()`` (the engine's last published state) or the journal; a
state-changing handler builds a journal event and ``await ctx.submit(event)``, which
returns once the event is committed and applied (or raises
:class:`~clockd.service.component.Refused`). The server checks the token *before* a
mutating handler runs, so handlers never see an unauthorised request.

Adding a request: define it in the API (``clockd.api.messages`` style, ``@request_type``),
then here or in your own module::

    @handles(CheckIn)
    async def check_in(ctx: Context, req: CheckIn) -> Reply:
        seq = await ctx.submit(PlayerCheckedIn(player=req.player, by=req.by))
        return Done(id=req.id, seq=seq)

The module defining the handler must be imported before the server starts (the
composition root, ``clockd.cli.run``, imports the daemon's parts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from clockd import __version__
from clockd.api.messages import (
    AddNote,
    AdjustTable,
    ClearAlert,
    Done,
    PauseTable,
    Ping,
    Pong,
    Reply,
    Request,
    ResumeTable,
    SetClock,
    Status,
    StatusReply,
    TableView,
    Timeline,
    TimelineReply,
)
from clockd.core.clock import Side
from clockd.core.units import MS
from clockd.service.component import Refused
from clockd.service.engine import Current, Engine
from clockd.service.events import Adjusted, AlertCleared, ClockSet, NoteAdded, Paused, Resumed
from clockd.service.views import table_view, timeline_entry
from clockd.store.events import Event
from clockd.store.journal import Journal

Q = TypeVar("Q", bound=Request)
Handler = Callable[["Context", Any], Awaitable[Reply]]

_HANDLERS: dict[type[Request], Handler] = {}


def handles(
    request_type: type[Q],
) -> Callable[[Callable[[Context, Q], Awaitable[Reply]]], Callable[[Context, Q], Awaitable[Reply]]]:
    """Decorator: ``fn`` answers requests of ``request_type``."""

    def register(fn: Callable[[Context, Q], Awaitable[Reply]]) -> Callable[[Context, Q], Awaitable[Reply]]:
        if request_type in _HANDLERS:
            raise TypeError(f"{request_type.__name__} already has a handler")
        _HANDLERS[request_type] = fn
        return fn

    return register


def handler_for(request: Request) -> Handler | None:
    return _HANDLERS.get(type(request))


@dataclass
class Context:
    """What a handler may use: the engine's published state, the journal (read-only), submit."""

    engine: Engine

    def current(self) -> Current:
        return self.engine.current

    def now_ns(self) -> int:
        return self.engine.now_ns()

    async def submit(self, event: Event) -> int:
        """Journal and apply ``event`` (stamped now); its seq. Raises Refused / EngineStopped."""
        return await asyncio.wrap_future(self.engine.submit(event))

    def view(self, table: int, current: Current | None = None) -> TableView:
        current = current or self.current()
        state = current.tables.get(table)
        if state is None:
            known = ", ".join(str(t) for t in sorted(current.tables)) or "none"
            raise Refused(f"there is no table {table} (tables: {known})")
        return table_view(
            state, self.now_ns(), seq=current.seq, has_device=self.engine.tables.device(table) is not None
        )

    async def done(self, request: Request, event: Event, table: int | None) -> Done:
        seq = await self.submit(event)
        return Done(id=request.id, seq=seq, table=None if table is None else self.view(table))


@handles(Ping)
async def _ping(ctx: Context, req: Ping) -> Reply:
    return Pong(id=req.id, version=__version__)


@handles(Status)
async def _status(ctx: Context, req: Status) -> Reply:
    current = ctx.current()
    numbers = sorted(current.tables) if req.tables is None else req.tables
    return StatusReply(id=req.id, seq=current.seq, tables=[ctx.view(t, current) for t in numbers])


@handles(Timeline)
async def _timeline(ctx: Context, req: Timeline) -> Reply:
    ctx.view(req.table)  # refuses an unknown table
    path = ctx.engine.journal.path

    def read() -> TimelineReply:
        with Journal.reader(path) as journal:
            records = list(journal.read(after=req.after_seq, table=req.table, limit=req.limit))
            return TimelineReply(
                id=req.id,
                table=req.table,
                entries=[timeline_entry(r) for r in records],
                last_seq=journal.last_seq,
            )

    return await asyncio.to_thread(read)


@handles(PauseTable)
async def _pause(ctx: Context, req: PauseTable) -> Reply:
    return await ctx.done(req, Paused(table=req.table, by=req.by, reason=req.reason), req.table)


@handles(ResumeTable)
async def _resume(ctx: Context, req: ResumeTable) -> Reply:
    return await ctx.done(req, Resumed(table=req.table, by=req.by, reason=req.reason), req.table)


@handles(AdjustTable)
async def _adjust(ctx: Context, req: AdjustTable) -> Reply:
    event = Adjusted(
        table=req.table, side=Side(req.side), delta_ns=req.delta_ms * MS, by=req.by, reason=req.reason
    )
    return await ctx.done(req, event, req.table)


@handles(SetClock)
async def _set_clock(ctx: Context, req: SetClock) -> Reply:
    control = req.control
    if control is None:
        state = ctx.current().tables.get(req.table)
        if state is None:
            ctx.view(req.table)  # raises the usual "no table" refusal
            raise AssertionError("unreachable")
        control = str(state.clock.control)
    event = ClockSet(table=req.table, control=control, by=req.by, reason=req.reason)
    return await ctx.done(req, event, req.table)


@handles(ClearAlert)
async def _clear_alert(ctx: Context, req: ClearAlert) -> Reply:
    return await ctx.done(req, AlertCleared(table=req.table, alert_id=req.alert_id, by=req.by), req.table)


@handles(AddNote)
async def _note(ctx: Context, req: AddNote) -> Reply:
    return await ctx.done(req, NoteAdded(table=req.table, text=req.text, by=req.by), req.table)
