"""The adapter: the daemon's API on one side, the view model and the referee's commands on the other.

Pure part (no Qt, no sockets), so the translation itself is tested directly:

* :func:`table_from_api`, :func:`event_from_api`, :func:`timeline_from_api` — API views →
  view-model values, stamped with the GUI's own monotonic instant of arrival (the base of
  the local extrapolation of a running clock or hall timer). A table's program is taken as
  its kind shows it (two clocks, a station, nothing); a Puzzle Duel session's bracket is
  the session's own view (``SessionBody.bracket``), allowed actions included;
* :func:`apply_push` — one push of the subscription stream → one update of a
  :class:`~gui.model.DeskModel`.

Qt part: :class:`DaemonConnection` watches the subscription's socket with a
``QSocketNotifier`` (no thread, never blocks the window), applies every push to the
model, reconnects when the daemon goes away (a fresh subscription starts with every
table's and every event's full state), fetches earlier timelines, and sends the referee's
actions (``Client.act``) on a worker thread with the token, reporting each answer back in
the GUI thread.
"""

from __future__ import annotations

import contextlib
import inspect
import queue
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal

from clockd.api import (
    ApiError,
    Client,
    EventStatePush,
    EventView,
    Push,
    Subscription,
    TableStatePush,
    TableView,
    TimelineEntry,
    TimelinePush,
    resolve,
)
from clockd.api import Signal as HallSignal
from clockd.api.chess import ChessBody
from clockd.api.describe import Describe, DescribeReply
from clockd.api.hall import HallBody
from clockd.api.local import local_tls, login_name
from clockd.api.messages import NodesReply
from clockd.api.puzzle import BracketView, SessionBody
from clockd.api.switcher import SwitcherBody
from clockd.api.zone import ZoneBody
from clockd.core.device import DeviceState
from clockd.core.duel import DuelProgramView
from clockd.core.hall import StationView
from clockd.core.program import ClockFace, ClockProgramView
from clockd.i18n import Msg, msg
from gui.commands import Command, CommandResult
from gui.deskmodel import DeskModel
from gui.model import (
    Alert,
    Bracket,
    Clock,
    Event,
    Hall,
    Match,
    Player,
    PossibleDuplicate,
    Presence,
    Refusal,
    RotationTable,
    Round,
    Score,
    SeatRow,
    Session,
    Station,
    Table,
    TimelineItem,
    ZoneRow,
)

#: How long to wait before reconnecting to a daemon that went away.
RECONNECT_MS = 1000
#: How often the desk's table nodes are asked for (``nodes``) while anyone looks: a table
#: timed by a node is on screen, or the Nodes window is open. A link that drops shows within
#: about this long plus the desk's own detection.
NODES_POLL_MS = 1000


# -- pure translation ----------------------------------------------------------------------------


def clock_from_face(face: ClockFace) -> Clock:
    return Clock(
        control=face.control,
        phase=face.phase,
        remaining_ms=face.remaining_ms,
        running=face.running,
        to_move=face.to_move,
        moves=face.moves,
        ignored=face.ignored,
        flag=face.flag,
        flag_decided=face.flag_decided,
    )


def table_from_api(view: TableView, received_ns: int) -> Table:
    """A table's API view as the screens hold it, stamped with its arrival on the GUI's clock."""
    program = view.program
    fields: dict[str, Any] = {}
    if isinstance(program, ClockProgramView):
        fields["clock"] = clock_from_face(program.clock)
    elif isinstance(program, DuelProgramView):
        fields.update(
            clock=clock_from_face(program.clock), toss_winner=program.toss_winner, over=program.over
        )
    elif isinstance(program, StationView):
        fields.update(entry=program.entry, armed=program.armed, finished=program.finished)
    return Table(
        table=view.table,
        id=view.id,
        label=view.label,
        program=program.kind,
        owner=program.owner,
        presses=view.presses,
        device=DeviceState(view.device.state),
        device_detail=view.device.detail,
        alerts=tuple(Alert(id=a.id, text=a.text) for a in view.alerts),
        actions=dict(view.actions),
        seq=view.seq,
        received_ns=received_ns,
        node=view.node,
        released=view.holder is None and program.owner is not None,
        **fields,
    )


def bracket_from_view(view: BracketView) -> Bracket:
    """The bracket as the session's view carries it (each match with its allowed actions)."""
    rounds = tuple(
        Round(
            number=r.number,
            name=r.name,
            kind=r.kind,
            players=r.players,
            pieces=r.pieces,
            time_control=r.time_control,
        )
        for r in view.rounds
    )
    matches: dict[str, Match] = {}
    for mv in view.matches:
        score = None
        if mv.score is not None:
            score = Score(
                displayed=mv.score.displayed,
                remaining_ms=mv.score.remaining_ms,
                moves=mv.score.moves,
                decided_by=mv.score.decided_by,
            )
        matches[mv.id] = Match(
            id=mv.id,
            round=mv.round,
            slot=mv.slot,
            a=mv.a,
            b=mv.b,
            bye=mv.bye,
            status=mv.status,
            table=mv.table,
            clock_a=mv.clock_a,
            toss_winner=mv.toss_winner,
            score=score,
            winner=mv.winner,
            decided_by=mv.decided_by,
            tiebreak_of=mv.tiebreak_of,
            tiebreaks=tuple(mv.tiebreaks),
            pieces=mv.pieces,
            time_control=mv.time_control,
            actions=dict(mv.actions),
        )
    return Bracket(rounds=rounds, matches=matches, podium=tuple(view.podium))


def session_from_body(body: SessionBody) -> Session:
    """A session's players (public names: all the API gives), refusals and bracket."""
    field = set(body.field or ())
    closed = body.stage != "registration"
    took = {c.taken_by: c.absent for c in body.seat_changes}
    players: dict[int, Player] = {}
    for lp in body.players:
        if lp.withdrawn:
            presence: Presence = "withdrawn"
        elif lp.present:
            presence = "present"
        else:
            presence = "absent" if closed else "expected"
        players[lp.id] = Player(
            id=lp.id,
            display_name=lp.name,
            list=lp.list,
            order=lp.order,
            presence=presence,
            in_field=lp.in_field or lp.id in field,
            took_seat_of=lp.took_seat_of if lp.took_seat_of is not None else took.get(lp.id),
            actions=dict(lp.actions),
        )
    refusals = tuple(
        Refusal(line=r.line, name=r.name, reason=r.reason, same_as=r.same_as, detail=r.detail)
        for r in body.refusals
    )
    maybe = tuple(
        PossibleDuplicate(line=d.line, same_as=d.same_as, name=d.name) for d in body.possible_duplicates
    )
    return Session(
        tournament=body.tournament,
        stage=body.stage,
        players=players,
        refusals=refusals,
        possible_duplicates=maybe,
        bracket=bracket_from_view(body.bracket) if body.bracket is not None else None,
    )


def hall_from_body(body: HallBody, received_ns: int) -> Hall:
    return Hall(
        timer=body.timer,
        stations=tuple(
            Station(entry=s.entry, table=s.table, finished_ms=s.finished_ms) for s in body.stations
        ),
        signal_tables=tuple(body.signal_tables),
        pattern=body.pattern,
        received_ns=received_ns,
    )


def hall_from_zone(body: ZoneBody, received_ns: int) -> Hall:
    """The relay, blind puzzling, the team event: a hall timer, its entries ranked."""
    rows = tuple(
        ZoneRow(
            entry=e.entry,
            name=e.name,
            table=e.table,
            place=e.place,
            finished_ms=e.finished_ms,
            split_ms=e.split_ms,
            pieces=e.pieces,
            missing=e.missing,
            classified=e.classified,
            why=e.why,
            on_list=e.on_list,
            present=e.present,
        )
        for e in body.entries
    )
    stations = tuple(
        Station(entry=e.entry, table=e.table, finished_ms=e.finished_ms, name=e.name)
        for e in sorted(body.entries, key=lambda e: e.table or 0)
        if e.table is not None
    )
    return Hall(
        timer=body.timer,
        stations=stations,
        signal_tables=tuple(body.signal_tables),
        pattern=body.pattern,
        received_ns=received_ns,
        kind=body.kind,
        ranking=rows,
        splits=body.splits,
        confirmed=body.confirmed,
        max_missing=body.max_missing,
        pictures=body.pictures,
    )


def hall_from_switcher(body: SwitcherBody, received_ns: int) -> Hall:
    """The S(witcher) rotation: a hall timer, every seat and table."""
    return Hall(
        timer=body.timer,
        signal_tables=tuple(body.signal_tables),
        pattern=body.pattern,
        received_ns=received_ns,
        kind="switcher",
        seats=tuple(
            SeatRow(
                seat=s.seat,
                circle=s.circle,
                name=s.name,
                table=s.table,
                next_table=s.next_table,
                partner=s.partner,
            )
            for s in body.seats
        ),
        rotations=body.rotations,
        rotation_tables=tuple(
            RotationTable(table=t.table, done_ms=t.done_ms, station=t.station) for t in body.tables
        ),
        stayed=tuple(body.stayed),
        replacements=len(body.replacements),
    )


def hall_of(body: object, received_ns: int) -> Hall | None:
    if isinstance(body, HallBody):
        return hall_from_body(body, received_ns)
    if isinstance(body, ZoneBody):
        return hall_from_zone(body, received_ns)
    if isinstance(body, SwitcherBody):
        return hall_from_switcher(body, received_ns)
    return None


def event_from_api(view: EventView, received_ns: int) -> Event:
    """An event's API view as the screens hold it: a session's or a hall timer's body, by kind."""
    body = view.body
    return Event(
        id=view.id,
        key=view.key,
        kind=view.kind,
        title=view.title,
        actions=dict(view.actions),
        seq=view.seq,
        session=session_from_body(body) if isinstance(body, SessionBody) else None,
        hall=hall_of(body, received_ns),
        chess=body if isinstance(body, ChessBody) else None,
        shown=view.shown,
        received_ns=received_ns,
        picks=view.picks,
    )


def timeline_from_api(entry: TimelineEntry) -> TimelineItem:
    return TimelineItem(seq=entry.seq, kind=entry.kind, t_ms=entry.t_ms, data=dict(entry.data))


def apply_push(model: DeskModel, push: Push, received_ns: int, *, fresh: bool = False) -> None:
    """One message of the subscription stream, applied to the model (``fresh``: see ``set_tables``)."""
    if isinstance(push, TableStatePush):
        model.set_tables([table_from_api(push.table, received_ns)], fresh=fresh)
    elif isinstance(push, EventStatePush):
        model.set_event(event_from_api(push.event, received_ns), fresh=fresh)
    elif isinstance(push, TimelinePush):
        entry = push.entry
        item = timeline_from_api(entry)
        if entry.table is not None:
            model.add_timeline(entry.table, item)
        if entry.event is not None:
            model.add_event_timeline(entry.event, item)
    elif isinstance(push, HallSignal):
        model.flash(push.event, push.what, push.offset_ms, received_ns)


# -- Qt: the live connection ---------------------------------------------------------------------


class _Relay(QObject):
    """Carries answers from worker threads into the GUI thread.

    A worker thread never holds a Qt object: it holds this relay (one for the application,
    made in the GUI thread, never deleted) and *weak* references to the receivers, so the last
    reference to a window or a connection is never dropped — and the object destroyed — in a
    worker thread, which Qt does not allow. A signal emitted here from a worker is queued
    into the GUI thread, where the receiver, if it still exists, is called.
    """

    delivered = Signal(object, object)  # (a weak reference to a callable, its argument)

    def __init__(self) -> None:
        super().__init__()
        self.delivered.connect(self._deliver)

    def _deliver(self, ref: Callable[[], Callable[[Any], None] | None], argument: object) -> None:
        receiver = ref()
        if receiver is not None:
            receiver(argument)


_relay: _Relay | None = None


def relay() -> _Relay:
    """The application's relay (made on first use, which must be in the GUI thread)."""
    global _relay
    if _relay is None:
        _relay = _Relay()
    return _relay


def _weak(fn: Callable[[Any], None]) -> Callable[[], Callable[[Any], None] | None]:
    """A weak reference to a bound method; a plain function is held as it is."""
    if inspect.ismethod(fn):
        return weakref.WeakMethod(fn)
    return lambda: fn


def _gone(host: str, port: int) -> Msg:
    return msg("gui.daemon-unreachable", address=f"{host}:{port}")


class _Sender:
    """Sends actions on its own thread (a request waits for the journal; the window must not)."""

    def __init__(self, host: str, port: int, token: str | None, by: str, tls: Any = None) -> None:
        self.address = (host, port)
        self.client = Client(host, port, token, timeout_ms=10_000, by=by, tls=tls)
        self.jobs: queue.Queue[tuple[Command, Callable[[], Callable[[Any], None] | None]] | None] = (
            queue.Queue()
        )
        self.relay = relay()
        threading.Thread(target=self._run, name="duelclock-gui-commands", daemon=True).start()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                self.client.close()
                return
            command, done = job
            try:
                reply = self.client.act(command.target, command.action)
                outcome = CommandResult(command, ok=True, result=reply)
            except ApiError as exc:
                outcome = CommandResult(command, ok=False, code=exc.code, reason=exc.reason)
            except (ConnectionError, TimeoutError, OSError):
                outcome = CommandResult(command, ok=False, code="unavailable", reason=_gone(*self.address))
            self.relay.delivered.emit(done, outcome)
            del job, done  # the receiver's reference, weak or not, goes with the job

    def send(self, command: Command, done: Callable[[CommandResult], None]) -> None:
        self.jobs.put((command, _weak(done)))

    def stop(self) -> None:
        self.jobs.put(None)


def _fetch_known(
    host: str,
    port: int,
    deliver: Callable[[], Callable[[Any], None] | None],
    token: str | None = None,
    tls: Any = None,
) -> None:
    """The daemon's table numbers, event ids and descriptions of its kinds and actions
    (``None`` from a daemon too old to describe them), handed to ``deliver`` in the GUI thread."""
    try:
        with Client(host, port, token, timeout_ms=5000, tls=tls) as client:
            numbers = [t.table for t in client.status().tables]
            ids = [e.id for e in client.events().events]
            try:
                described = client.request(Describe())
            except ApiError:
                described = None
    except (ApiError, ConnectionError, OSError):
        return
    relay().delivered.emit(deliver, (numbers, ids, described))


def _fetch_timelines(
    host: str,
    port: int,
    tables: list[int],
    events: list[str],
    deliver: Callable[[], Callable[[Any], None] | None],
    token: str | None = None,
    tls: Any = None,
) -> None:
    """Each table's (``(int, items)``) and event's (``(key, items)``) earlier timeline, handed
    to ``deliver`` in the GUI thread."""
    try:
        with Client(host, port, token, timeout_ms=5000, tls=tls) as client:
            for table in tables:
                reply = client.timeline(table, limit=10_000)
                relay().delivered.emit(deliver, (table, [timeline_from_api(e) for e in reply.entries]))
            for key in events:
                reply = client.timeline(event=key, limit=10_000)
                relay().delivered.emit(deliver, (key, [timeline_from_api(e) for e in reply.entries]))
    except (ApiError, ConnectionError, OSError):
        return  # the stream will reconnect and fetch again


def _fetch_nodes(
    host: str,
    port: int,
    deliver: Callable[[], Callable[[Any], None] | None],
    token: str | None = None,
    tls: Any = None,
) -> None:
    """The daemon's ``nodes`` answer with the wall clock (Unix ms) at its arrival, or the
    :class:`ApiError` (a daemon too old to know ``nodes``), or ``None`` (no answer)."""
    answer: object
    try:
        with Client(host, port, token, timeout_ms=3000, tls=tls) as client:
            answer = (client.nodes(), time.time_ns() // 1_000_000)
    except ApiError as exc:
        answer = exc
    except (ConnectionError, TimeoutError, OSError):
        answer = None
    relay().delivered.emit(deliver, answer)


class DaemonConnection(QObject):
    """The GUI's link to a daemon: the live stream into a :class:`DeskModel`, and a command sink."""

    def __init__(
        self,
        model: DeskModel,
        *,
        host: str | None = None,
        port: int | None = None,
        token: str | None = None,
        by: str | None = None,
        read_only: bool = False,
        timeline: bool = True,
        event: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.host, self.port, local_token = resolve(host, port, token)
        self.tls = local_tls(host=host, port=port)  # daemon.json's certificate, or $DUELCLOCK_TLS_CA
        # a read-only screen (the audience) never holds the token, even if daemon.json has it
        self.token = None if read_only else local_token
        self.by = by if by is not None else login_name()
        self.model = model
        self.timeline = timeline
        self.clock = clock
        #: The event asked for at start (``--event``): shown as soon as the daemon sends it.
        self.wanted = event
        self.subscription: Subscription | None = None
        self.notifier: QSocketNotifier | None = None
        self.worker: _Sender | None = None
        relay()  # made here, in the GUI thread, before any worker needs it
        self.pushes = 0
        self._fetched: set[int] = set()
        self._fetched_events: set[str] = set()
        self._stopped = False
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.timeout.connect(self._connect)
        self._seen: set[int] = set()  # tables whose state arrived on this connection
        self._seen_events: set[str] = set()
        # the table nodes: asked once per connection, then every NODES_POLL_MS while anyone looks
        self.nodes_watchers = 0
        self._nodes_busy = False
        self._nodes_asked = False
        self._nodes_unknown = False  # the daemon does not know the request: ask no more
        self._nodes_timer = QTimer(self)
        self._nodes_timer.setInterval(NODES_POLL_MS)
        self._nodes_timer.timeout.connect(self.poll_nodes)
        model.subscribe(self._model_changed)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    # -- the stream -------------------------------------------------------------------------
    def start(self) -> None:
        self._stopped = False
        self.model.set_connection("connecting", msg("gui.connecting", address=self.address))
        if self.token is not None and self.worker is None:
            self.worker = _Sender(self.host, self.port, self.token, self.by, self.tls)
        self._nodes_timer.start()
        self._connect()

    def _connect(self) -> None:
        if self._stopped:
            return
        try:
            # the referee's window shows the token (refused sign-ups reach it); the audience's does not
            sub = Subscription(
                self.host, self.port, timeline=self.timeline, timeout_ms=3000, token=self.token, tls=self.tls
            )
        except ApiError as exc:
            self.model.set_connection("offline", exc.reason)
            self._retry.start(RECONNECT_MS)
            return
        except (ConnectionError, OSError):
            self.model.set_connection("offline", _gone(self.host, self.port))
            self._retry.start(RECONNECT_MS)
            return
        self.subscription = sub
        self._fetched.clear()
        self._fetched_events.clear()
        self._seen.clear()
        self._seen_events.clear()
        self._nodes_asked = self._nodes_unknown = False  # the daemon may be another one now
        self.model.clear_timelines()  # fetched afresh: the daemon may have restarted on another journal
        threading.Thread(
            target=_fetch_known,
            args=(self.host, self.port, _weak(self._keep_known), self.token, self.tls),
            daemon=True,
        ).start()
        self.notifier = QSocketNotifier(sub.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._readable)
        self.model.set_connection("connected")
        self._readable()  # what arrived with the subscription's answer

    def _readable(self) -> None:
        sub = self.subscription
        if sub is None:
            return
        try:
            pushes = sub.poll()
        except (ConnectionError, OSError, ApiError, ValueError):  # ValueError: a closed socket
            self._lost()
            return
        now = self.clock()
        for push in pushes:
            if isinstance(push, TableStatePush):
                fresh = push.table.table not in self._seen
                self._seen.add(push.table.table)
                apply_push(self.model, push, now, fresh=fresh)
            elif isinstance(push, EventStatePush):
                fresh = push.event.id not in self._seen_events
                self._seen_events.add(push.event.id)
                apply_push(self.model, push, now, fresh=fresh)
                if self.wanted is not None and self.wanted in (push.event.id, push.event.key):
                    self.wanted = None
                    self.model.choose_event(push.event.id)
            else:
                apply_push(self.model, push, now)
        self.pushes += len(pushes)

    def _lost(self) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None
        if self.subscription is not None:
            with contextlib.suppress(OSError):
                self.subscription.close()
            self.subscription = None
        self.model.set_connection("offline", _gone(self.host, self.port))
        if not self._stopped:
            self._retry.start(RECONNECT_MS)

    def stop(self) -> None:
        self._stopped = True
        self._retry.stop()
        self._nodes_timer.stop()
        if self.subscription is not None:
            self._lost()
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def wait_for_state(self, timeout_ms: int) -> bool:
        """Run the event loop until the daemon has sent some table's state (for a screenshot)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop

        deadline = QDeadlineTimer(timeout_ms)
        while not self.model.state.tables and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)
        return bool(self.model.state.tables)

    # -- the desk's table nodes ----------------------------------------------------------------
    def watch_nodes(self, on: bool) -> None:
        """The Nodes window opened (``True``: ask now and every second) or closed."""
        self.nodes_watchers = max(0, self.nodes_watchers + (1 if on else -1))
        if on:
            self.poll_nodes()

    def poll_nodes(self) -> None:
        """Ask the daemon for its nodes, on a worker thread, if anyone looks and no ask is pending."""
        if self._nodes_busy or self.subscription is None or self._nodes_unknown:
            return
        on_nodes = any(t.node for t in self.model.state.tables.values())
        if self._nodes_asked and not on_nodes and not self.nodes_watchers:
            return
        self._nodes_busy = self._nodes_asked = True
        threading.Thread(
            target=_fetch_nodes,
            args=(self.host, self.port, _weak(self._nodes_arrived), self.token, self.tls),
            name="duelclock-gui-nodes",
            daemon=True,
        ).start()

    def _nodes_arrived(self, answer: object) -> None:
        self._nodes_busy = False
        if isinstance(answer, ApiError):
            self._nodes_unknown = True
        elif isinstance(answer, tuple):
            reply, wall_ms = answer
            assert isinstance(reply, NodesReply)
            self.model.set_nodes(reply, wall_ms)

    # -- earlier timelines ------------------------------------------------------------------
    def _model_changed(self, change: object, tables: frozenset[int]) -> None:
        """Fetch the earlier timeline of every table and event the first time it is seen here."""
        if not self.timeline or self.subscription is None:
            return
        state = self.model.state
        new = [t for t in state.tables if t not in self._fetched]
        new_events = [e.key for e in state.events.values() if e.key not in self._fetched_events]
        if not new and not new_events:
            return
        self._fetched.update(new)
        self._fetched_events.update(new_events)
        threading.Thread(
            target=_fetch_timelines,
            args=(self.host, self.port, new, new_events, _weak(self._apply_history), self.token, self.tls),
            daemon=True,
        ).start()

    def _keep_known(self, delivered: tuple[list[int], list[str], Any]) -> None:
        numbers, ids, described = delivered
        self.model.keep_tables(numbers)
        self.model.keep_events(ids)
        if isinstance(described, DescribeReply):
            self.model.set_described(described)

    def _apply_history(self, delivered: tuple[int | str, list[TimelineItem]]) -> None:
        which, items = delivered
        state = self.model.state
        if isinstance(which, int):
            self.model.set_timeline(which, [*items, *state.timelines.get(which, ())])
        else:
            self.model.set_event_timeline(which, [*items, *state.event_timelines.get(which, ())])

    # -- what is held about people (the token only; every look audited by the daemon) ---------
    def people(
        self, how: str, *, reason: str, text: str = "", person: str = "", done: Callable[[Any], None]
    ) -> None:
        """Ask the daemon what it holds about people (``find`` a text, ``show``/``export`` a
        person), on a worker thread; ``done`` gets the reply, or a :class:`Msg` saying why not."""
        refusal = self.available("person-access")
        if refusal is not None:
            done(refusal)
            return
        deliver = _weak(done)

        def ask() -> None:
            try:
                with Client(
                    self.host, self.port, self.token, timeout_ms=10_000, by=self.by, tls=self.tls
                ) as c:
                    answer: Any = c.person(how, reason=reason, text=text, person=person)
            except ApiError as exc:
                answer = exc.reason
            except (ConnectionError, TimeoutError, OSError):
                answer = _gone(self.host, self.port)
            relay().delivered.emit(deliver, answer)

        threading.Thread(target=ask, name="duelclock-gui-people", daemon=True).start()

    # -- the command sink -------------------------------------------------------------------
    def available(self, kind: str) -> Msg | None:
        if not self.token:
            return msg("gui.no-token")
        if self.subscription is None:
            return msg("gui.not-connected", address=self.address)
        return None

    def send(self, command: Command, done: Callable[[CommandResult], None]) -> None:
        reason = self.available(command.kind)
        if reason is not None or self.worker is None:
            done(CommandResult(command, ok=False, code="unavailable", reason=reason or msg("gui.no-token")))
            return
        self.worker.send(command, done)


__all__ = [
    "DaemonConnection",
    "apply_push",
    "bracket_from_view",
    "event_from_api",
    "session_from_body",
    "table_from_api",
    "timeline_from_api",
]
