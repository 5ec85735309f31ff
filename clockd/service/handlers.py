"""What the daemon does with each API request: one handler per request type, in a registry.

A handler is ``async def handler(ctx: Context, request) -> Reply``. Read-only handlers
answer from ``ctx.current()`` (the engine's last published state) or the journal. Every
state change is an :class:`~clockd.api.messages.ActionRequest`, and one handler serves
them all (:func:`_act`): it resolves the target (``3`` → table 3 here; ``pt/R1-1`` → match
R1-1 of event pt — or, for a table action, the table that match is played on), journals
the action and returns the resulting view. Whether the action may be done is decided by
the component that applies it, never here. The server checks the token *before* a
mutating handler runs, so handlers never see an unauthorised request.

Adding a read-only request: define it in the API (``clockd.api.messages`` style,
``@request_type``), then here or in your own module::

    @handles(Events)
    async def events(ctx: Context, req: Events) -> Reply:
        return EventsReply(id=req.id, ...)
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from clockd import __version__
from clockd.api.describe import Describe, DescribeReply, KindDescription, describe_actions, kind_title
from clockd.api.messages import (
    ActionRequest,
    CommandView,
    Done,
    EventResults,
    EventResultsReply,
    Events,
    EventsReply,
    EventView,
    NodeAlertView,
    NodesReply,
    NodesStatus,
    NodeView,
    OutageView,
    PersonRecord,
    PersonReply,
    PersonRequest,
    Ping,
    Pong,
    Reply,
    Request,
    SimPress,
    SimPressed,
    Status,
    StatusReply,
    TableView,
    Timeline,
    TimelineReply,
)
from clockd.core.ids import Ref, event_ref, parse_ref, table_ref
from clockd.core.registry import FREE_TEXT_FIELDS, PersonAccess, matches, names_a_person
from clockd.core.units import MS, SECOND, ns_to_ms
from clockd.i18n import Problem
from clockd.service.actions import RequestKey, journal
from clockd.service.component import Refused
from clockd.service.engine import Current, Engine
from clockd.service.events import EventHost, EventsView, people_in
from clockd.service.nodes import Nodes
from clockd.service.views import event_view, table_view, timeline_entry
from clockd.store.journal import Journal

Q = TypeVar("Q", bound=Request)
T = TypeVar("T")
Handler = Callable[["Context", Any], Awaitable[Reply]]


@dataclass
class OffLoop:
    """What one request's work in worker threads cost: the threads' CPU time, and how long the
    request waited for them (a wait for a free worker costs the loop nothing)."""

    cpu_s: float = 0.0
    waited_s: float = 0.0


#: The current request's :class:`OffLoop` (set by the API server around each request).
OFF_LOOP: contextvars.ContextVar[OffLoop | None] = contextvars.ContextVar("off_loop", default=None)


async def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread, its cost written to the request's :data:`OFF_LOOP`.

    Why: the server paces strangers by what their requests cost. Counted as wall time, a
    request that waited behind 200 others for one of the few workers looked 200 times as
    dear, and one flood ran the strangers' budget into half an hour of debt (issue 29).
    """
    spent = OFF_LOOP.get()

    def timed() -> T:
        started = time.thread_time()
        try:
            return fn(*args)
        finally:
            if spent is not None:
                spent.cpu_s += time.thread_time() - started

    started = time.perf_counter()
    try:
        return await asyncio.to_thread(timed)
    finally:
        if spent is not None:
            spent.waited_s += time.perf_counter() - started


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
    #: The simulated tables' buttons, pressed by hand (``duelclock sim press``): table → press(side).
    hands: dict[int, Callable[[str], object]] = field(default_factory=dict)
    #: The ids of the hand presses done (a request sent again after a broken line presses once).
    pressed: dict[int | str, None] = field(default_factory=dict)

    def current(self) -> Current:
        return self.engine.current

    def now_ns(self) -> int:
        return self.engine.now_ns()

    @property
    def hall(self) -> str:
        return self.engine.hall

    async def submit(self, entry: Any) -> int:
        """Journal and apply ``entry`` (stamped now); its seq. Raises Refused / EngineStopped."""
        return await asyncio.wrap_future(self.engine.submit(entry))

    def events(self, current: Current | None = None) -> EventsView | None:
        view = (current or self.current()).views.get("events")
        return view if isinstance(view, EventsView) else None

    def view(self, table: int, current: Current | None = None) -> TableView:
        current = current or self.current()
        state = current.tables.get(table)
        if state is None:
            raise Refused("table.unknown", table=table, known=sorted(current.tables))
        return table_view(
            state,
            self.now_ns(),
            seq=current.seq,
            hall=current.hall,
            has_device=bool(state.node) or self.engine.devices.device(table) is not None,
        )

    async def prepare(self, key: str, action: Any) -> Any:
        """What event ``key``'s kind works out for ``action`` before it is staged (a sign-up file
        read: ``prepare(hosted, action)``, if the kind has it), in a worker thread: neither the
        engine nor the other clients wait for it. ``None``: nothing to prepare."""
        events = self.events()
        if events is None:
            return None
        hosted = events.live(key)
        component = self.engine.component("events")
        assert isinstance(component, EventHost)
        prepare = getattr(component.kind(hosted.kind), "prepare", None)
        if prepare is None:
            return None
        return await off_loop(prepare, hosted, action)

    def event_view(self, key: str, current: Current | None = None) -> EventView:
        current = current or self.current()
        events = self.events(current)
        if events is None:
            raise Refused("event.none-hosted")
        hosted = events.get(key)
        component = self.engine.component("events")
        assert isinstance(component, EventHost)
        return event_view(
            hosted,
            component.kind(hosted.kind),
            self.now_ns(),
            tables=current.tables,
            hall=current.hall,
            seq=current.seq,
        )


@handles(Ping)
async def _ping(ctx: Context, req: Ping) -> Reply:
    return Pong(id=req.id, version=__version__, hall=ctx.hall)


@handles(SimPress)
async def _sim_press(ctx: Context, req: SimPress) -> Reply:
    """A press of a simulated table's button, by hand: through its simulated device and driver."""
    press = ctx.hands.get(req.table)
    if press is None:
        raise Refused("sim.not-simulated", table=req.table, simulated=sorted(ctx.hands))
    if req.id is None or req.id not in ctx.pressed:
        await asyncio.to_thread(press, req.side)
        if req.id is not None:
            ctx.pressed[req.id] = None
            while len(ctx.pressed) > 1000:
                del ctx.pressed[next(iter(ctx.pressed))]
    return SimPressed(id=req.id, table=req.table, side=req.side)


@handles(Status)
async def _status(ctx: Context, req: Status) -> Reply:
    current = ctx.current()
    numbers = sorted(current.tables) if req.tables is None else req.tables
    return StatusReply(
        id=req.id, seq=current.seq, hall=current.hall, tables=[ctx.view(t, current) for t in numbers]
    )


@handles(NodesStatus)
async def _nodes(ctx: Context, req: NodesStatus) -> Reply:
    component = ctx.engine.component("nodes")
    assert isinstance(component, Nodes)
    current = ctx.current()
    tables: dict[str, list[int]] = {}
    for number, state in sorted(current.tables.items()):
        if state.node:
            tables.setdefault(state.node, []).append(number)
    return nodes_reply(req.id, component, ctx.now_ns(), tables)


@handles(Events)
async def _events(ctx: Context, req: Events) -> Reply:
    current = ctx.current()
    events = ctx.events(current)
    keys = list(events.order) if events is not None and req.events is None else list(req.events or [])
    return EventsReply(
        id=req.id, seq=current.seq, hall=current.hall, events=[ctx.event_view(k, current) for k in keys]
    )


@handles(Describe)
async def _describe(ctx: Context, req: Describe) -> Reply:
    host = ctx.engine.component("events")
    hosted = host.hosted_kinds() if isinstance(host, EventHost) else {}
    return DescribeReply(
        id=req.id,
        kinds=[
            KindDescription(kind=name, title=kind_title(name), actions=tuple(sorted(kind.actions)))
            for name, kind in sorted(hosted.items())
        ],
        actions=describe_actions(),
    )


@handles(EventResults)
async def _results(ctx: Context, req: EventResults) -> Reply:
    key = _ref(ctx, req.event).event
    events = ctx.events()
    if events is None:
        raise Refused("event.none-hosted")
    hosted = events.live(key)
    component = ctx.engine.component("events")
    assert isinstance(component, EventHost)
    results = component.kind(hosted.kind).results(hosted, req.lang)
    if results is None:
        raise Refused("event.no-results", event=key)
    private = results.pop("private", {})  # personal data: the reply's private field, token only
    return EventResultsReply(id=req.id, event=key, results=results, private=private)


@handles(Timeline)
async def _timeline(ctx: Context, req: Timeline) -> Reply:
    if (req.table is None) == (req.event is None):
        raise Refused("api.timeline-of")
    if req.table is not None:
        ctx.view(req.table)  # refuses an unknown table
    key = None
    if req.event is not None:
        key = _ref(ctx, req.event).event
        ctx.event_view(key)  # refuses an unknown event
    path = ctx.engine.journal.path

    def read() -> TimelineReply:
        with Journal.reader(path) as journal_:
            records = list(journal_.read(after=req.after_seq, table=req.table, event=key, limit=req.limit))
            return TimelineReply(
                id=req.id,
                table=req.table,
                event=key,
                entries=[timeline_entry(r) for r in records],
                last_seq=journal_.last_seq,
            )

    return await off_loop(read)


def _ref(ctx: Context, target: str) -> Ref:
    try:
        ref = parse_ref(target, ctx.hall)
    except Problem as exc:
        raise Refused(exc.msg) from exc
    if ref.hall != ctx.hall:
        raise Refused("ids.other-hall", ref=str(ref), hall=ctx.hall)
    return ref


def request_key(req: ActionRequest) -> RequestKey | None:
    """The request's id and a digest of what it asks (its action and target; not who asks), or
    ``None`` for a request without an id: journaled with the action, so that the same request
    sent again is answered with the same seq instead of being applied twice."""
    if req.id is None:
        return None
    asked = {"type": req.type, "target": req.target, "action": req.action.model_dump(mode="json")}
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return RequestKey(id=req.id, digest=hashlib.sha256(text.encode()).hexdigest()[:24])


@handles(PersonRequest)
async def _person(ctx: Context, req: PersonRequest) -> Reply:
    """People's data for the referee: first the audit's record journaled (who, when, why: a
    refusal — an unknown person — journals nothing), then the answer from the state it saw."""
    if req.how == "find" and not req.text.strip():
        raise Refused("person.find-what")
    if req.how in ("show", "export") and not req.person:
        raise Refused("person.which")
    if req.how == "list" and req.event:
        ctx.event_view(req.event)  # refuses an unknown event
    access = PersonAccess(how=req.how, person=req.person, text=req.text, event=req.event, reason=req.reason)
    key = None
    if req.id is not None:
        asked = json.dumps(req.model_dump(mode="json", exclude={"token", "id", "by"}), sort_keys=True)
        key = RequestKey(id=req.id, digest=hashlib.sha256(asked.encode()).hexdigest()[:24])
    seq = await ctx.submit(journal(access, target=ctx.hall, by=req.by, request=key))
    host = ctx.engine.component("events")
    view = ctx.events()
    assert isinstance(host, EventHost) and view is not None
    sources = people_in(host, view)
    if req.how == "find":
        sources = [
            src for src in sources if src.person_id in {s.person_id for s in sources if matches(s, req.text)}
        ]
    elif req.how == "list":
        sources = [src for src in sources if not req.event or src.event == req.event]
    else:
        sources = [src for src in sources if src.person_id == req.person]
    people: dict[str, PersonRecord] = {}
    for src in sources:
        record = people.setdefault(
            src.person_id, PersonRecord(person_id=src.person_id, restricted=src.person_id in view.restricted)
        )
        record.sources.append(src)
    return PersonReply(id=req.id, seq=seq, people=list(people.values()))


@handles(ActionRequest)
async def _act(ctx: Context, req: ActionRequest) -> Reply:
    """Every referee action: resolve its target, journal it (with its request's id: a repeat
    is answered with the seq of the first), answer with what it changed."""
    action = req.action
    _no_person_in_free_text(ctx, action)
    request = request_key(req)
    if action.target == "daemon":
        key = getattr(action, "key", None)
        entry = journal(action, target=ctx.hall, by=req.by, event=key, request=request)
        seq = await ctx.submit(entry)
        return Done(id=req.id, seq=seq, event=ctx.event_view(key) if key else None)
    ref = _ref(ctx, req.target)
    if action.target == "table":
        table = ref.number if ref.is_table else _table_of(ctx, ref)
        assert table is not None
        ctx.view(table)  # refuses an unknown table before anything is queued
        entry = journal(action, target=table_ref(ctx.hall, table), by=req.by, table=table, request=request)
        seq = await ctx.submit(entry)
        return Done(id=req.id, seq=seq, table=ctx.view(table))
    if ref.is_table:
        raise Refused("ids.not-an-event", ref=str(ref))
    key = ref.event
    if action.target == "item" and ref.item is None:
        raise Refused("event.which-item", target=str(ref))
    if action.target == "event" and ref.item is not None:
        raise Refused("ids.not-an-event", ref=str(ref))
    ctx.event_view(key)  # refuses an unknown event
    decided = await ctx.prepare(key, action)  # e.g. the sign-up file read, beside the engine
    target = event_ref(ctx.hall, key, ref.item)
    entry = journal(action, target=target, by=req.by, event=key, request=request, decided=decided)
    seq = await ctx.submit(entry)
    return Done(id=req.id, seq=seq, event=ctx.event_view(key))


def _no_person_in_free_text(ctx: Context, action: Any) -> None:
    """Refuse a reason or a note that names a person: the journal would keep it for good."""
    texts = [t for f in FREE_TEXT_FIELDS if isinstance(t := getattr(action, f, None), str) and t.strip()]
    if not texts:
        return
    host = ctx.engine.component("events")
    view = ctx.events()
    if not isinstance(host, EventHost) or view is None:
        return
    if names_a_person(" ".join(texts), people_in(host, view)):
        raise Refused("person.in-free-text")


def _table_of(ctx: Context, ref: Ref) -> int:
    """The table an item (a match) is played on now: where a table action aimed at it goes."""
    if ref.item is None:
        raise Refused("event.which-item", target=str(ref))
    events = ctx.events()
    if events is None:
        raise Refused("event.none-hosted")
    hosted = events.live(ref.event)
    component = ctx.engine.component("events")
    assert isinstance(component, EventHost)
    table = component.kind(hosted.kind).table_of(hosted, ref.item)
    if table is None:
        raise Refused("event.item-not-on-table", item=str(ref))
    return table


def nodes_reply(request_id: Any, nodes: Nodes, now_ns: int, tables: dict[str, list[int]]) -> NodesReply:
    """The desk's nodes as the journal has them, with what the link hears now (lag, heartbeat)."""
    view = nodes.view()
    live = nodes.live() if nodes.live is not None else {}
    mono = time.monotonic_ns()
    out = []
    for st in view.nodes:
        heard = live.get(st.name)
        outages = [
            OutageView(
                down_ms=ns_to_ms(o.down_ns),
                up_ms=None if o.up_ns is None else ns_to_ms(o.up_ns),
                seconds=None if o.up_ns is None else (o.up_ns - o.down_ns) // SECOND,
                why=o.why,
            )
            for o in st.outages
        ]
        behind = 0
        if heard is not None and heard.journal == st.journal:
            behind = max(0, heard.node_last_seq - st.last_seq)
        out.append(
            NodeView(
                name=st.name,
                up=st.up,
                since_ms=ns_to_ms(st.since_ns),
                tables=tables.get(st.name, []),
                rows=st.rows,
                restarts=st.restarts,
                rows_behind=behind,
                heard_ms_ago=None
                if heard is None or not heard.heard_mono_ns
                else (mono - heard.heard_mono_ns) // MS,
                outages=outages,
                alerts=[
                    NodeAlertView(t_ms=ns_to_ms(a.t_ns), seq=a.seq, problem=a.problem) for a in st.alerts
                ],
            )
        )
    commands = [
        CommandView(
            command=c.command,
            node=c.node,
            table=c.table,
            what=c.entry_kind,
            t_ms=ns_to_ms(c.t_ns),
            outcome=c.outcome,
            node_seq=c.node_seq,
            problem=c.problem,
            seq=c.seq,
        )
        for c in view.commands
    ]
    linked = None if nodes.link_up is None else nodes.link_up()
    return NodesReply(id=request_id, now_ms=ns_to_ms(now_ns), linked=linked, nodes=out, commands=commands)
