"""The adapter: the daemon's API on one side, the view model and the referee's commands on the other.

Pure part (no Qt, no sockets), so the translation itself is tested directly:

* :func:`table_from_api`, :func:`timeline_from_api` — API views → view-model values,
  stamped with the GUI's own monotonic instant of arrival (the base of the local
  extrapolation of a running clock);
* :func:`apply_push` — one push of the subscription stream → one update of a
  :class:`~gui.model.DeskModel`;
* :func:`build_request` — a :class:`~gui.commands.Command` → the daemon's request model,
  found by its ``type`` in the API's registry. An action whose request the connected
  daemon's API does not define is *unavailable* (the button says so) rather than sent.

Qt part: :class:`DaemonConnection` watches the subscription's socket with a
``QSocketNotifier`` (no thread, never blocks the window), applies every push to the
model, reconnects when the daemon goes away (a fresh subscription starts with every
table's full state), fetches a table's earlier timeline, and sends commands on a worker
thread with the referee's token, reporting each answer back in the GUI thread.
"""

from __future__ import annotations

import contextlib
import getpass
import inspect
import queue
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal

from clockd.api import (
    ApiError,
    Client,
    Push,
    Request,
    Subscription,
    TableState,
    TableView,
    TimelineEntry,
    TimelineEvent,
    resolve,
)
from clockd.api.messages import describe_validation, request_types
from clockd.api.tournament import ResultsView, SessionView, TournamentState
from gui.commands import Action, Command, Outcome
from gui.model import (
    Alert,
    Bracket,
    DeskModel,
    DeskState,
    Match,
    Pair,
    Player,
    Presence,
    Refusal,
    Round,
    Score,
    Side,
    Table,
    Texts,
    TimelineItem,
)

#: The API request ``type`` each action is sent as. The clock's own actions go to the
#: table (they work with or without a tournament); the rest to the tournament session shown.
REQUEST_TYPES: dict[Action, str] = {
    Action.PAUSE: "pause",
    Action.RESUME: "resume",
    Action.ADJUST: "adjust",
    Action.NOTE: "note",
    Action.CLEAR_ALERTS: "clear-alert",
    Action.ASSIGN: "match-assign",
    Action.TOSS: "match-toss",
    Action.COMPLETE: "match-complete",
    Action.CONFIRM: "match-confirm",
    Action.OVERRIDE: "match-override",
    Action.WALKOVER: "match-walkover",
    Action.TIEBREAK: "match-tiebreak",
    Action.CHECK_IN: "tournament-check-in",
    Action.CHECK_OUT: "tournament-check-in",
    Action.CLOSE_CHECKIN: "tournament-close",
    Action.DRAW: "tournament-draw",
    Action.ADD_PLAYER: "tournament-add-player",
    Action.WITHDRAW: "tournament-withdraw",
    Action.IMPORT: "tournament-import",
    Action.NEW_SESSION: "tournament-create",
}

#: Actions on a tournament session: they need one to be shown.
SESSION_ACTIONS = frozenset(
    a
    for a, t in REQUEST_TYPES.items()
    if t.startswith(("match-", "tournament-")) and a is not Action.NEW_SESSION
)

#: How long to wait before reconnecting to a daemon that went away.
RECONNECT_MS = 1000


# -- pure translation ----------------------------------------------------------------------------


def table_from_api(view: TableView, received_ns: int) -> Table:
    """A table's API view as the screens hold it, stamped with its arrival on the GUI's clock."""
    return Table(
        table=view.table,
        label=view.label,
        control=view.control,
        phase=view.phase,
        remaining_ms=Pair(a=view.remaining_ms.a, b=view.remaining_ms.b),
        running=Side(view.running) if view.running else None,
        to_move=Side(view.to_move) if view.to_move else None,
        moves=Pair(a=view.moves.a, b=view.moves.b),
        ignored=Pair(a=view.ignored.a, b=view.ignored.b),
        flag=Side(view.flag) if view.flag else None,
        flag_decided=view.flag_decided,
        presses=view.presses,
        device=view.device.state,
        device_detail=view.device.detail,
        alerts=tuple(Alert(id=a.id, code=a.code, message=a.message) for a in view.alerts),
        seq=view.seq,
        received_ns=received_ns,
    )


def timeline_from_api(entry: TimelineEntry) -> TimelineItem:
    return TimelineItem(seq=entry.seq, kind=entry.kind, t_ms=entry.t_ms, data=dict(entry.data))


def apply_push(model: DeskModel, push: Push, received_ns: int, *, fresh: bool = False) -> None:
    """One message of the subscription stream, applied to the model (``fresh``: see ``set_tables``)."""
    if isinstance(push, TableState):
        model.set_tables([table_from_api(push.table, received_ns)], fresh=fresh)
    elif isinstance(push, TimelineEvent) and push.entry.table is not None:
        model.add_timeline(push.entry.table, timeline_from_api(push.entry))


def request_class(action: Action) -> type[Request] | None:
    """The API's request model for ``action``, if the API defines it."""
    name = REQUEST_TYPES.get(action)
    return request_types().get(name) if name else None


def request_fields(command: Command, state: DeskState) -> dict[str, Any]:
    """The request's fields for ``command``: the screen's words (a table, a tie-break) in the API's."""
    fields = dict(command.fields)
    action = command.action
    bracket = state.bracket
    if action is Action.CLEAR_ALERTS:
        fields.setdefault("alert_id", None)
    elif action is Action.COMPLETE:
        table = fields.pop("table")
        on = bracket.on_table(table) if bracket is not None else None
        if on is None or not on.live:
            raise ValueError(f"no duel is being played at table {table}")
        fields["match"] = on.id
    elif action in (Action.CHECK_IN, Action.CHECK_OUT):
        fields["present"] = action is Action.CHECK_IN
    elif action is Action.TIEBREAK:
        # the API starts "the tie-break of a tied match": name the match it settles
        tb = bracket.matches.get(fields["match"]) if bracket is not None else None
        if tb is not None and tb.tiebreak_of is not None:
            fields["match"] = tb.tiebreak_of
        fields.pop("clock_a", None)
    return fields


def build_request(command: Command, state: DeskState | None = None, session: str | None = None) -> Request:
    """The daemon's request for ``command``; ``ValueError`` naming what does not fit.

    ``state`` is what the screen shows (to find the duel on a table); ``session`` the
    tournament session it belongs to.
    """
    cls = request_class(command.action)
    if cls is None:
        raise ValueError(f"the daemon's API has no request for {command.action.value!r}")
    fields = request_fields(command, state or DeskState())
    if "session" in cls.model_fields and "session" not in fields:
        if not session:
            raise ValueError("no tournament session is open")
        fields["session"] = session
    unknown = sorted(set(fields) - set(cls.model_fields))
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    try:
        return cls.model_validate(fields)
    except ValidationError as exc:
        raise ValueError(f"{REQUEST_TYPES[command.action]}: {describe_validation(exc)}") from None


# -- a tournament session into the view model ----------------------------------------------------


def _slot(match_id: str) -> int:
    """``R2-3`` and ``R2-3-TB1`` are in slot 3 of their round."""
    try:
        return int(match_id.split("-")[1])
    except (IndexError, ValueError):
        return 0


def bracket_from_results(results: ResultsView) -> Bracket:
    """The bracket as the session's results file describes it."""
    rounds: dict[int, Round] = {}
    tiebreaks: dict[str, list[str]] = {}
    for mv in results.matches:
        if mv.tiebreak_of is not None:
            tiebreaks.setdefault(mv.tiebreak_of, []).append(mv.id)
            continue
        held = rounds.get(mv.round)
        rounds[mv.round] = Round(
            number=mv.round,
            name=mv.round_name,
            kind=mv.kind,
            players=2 + (held.players if held is not None else 0),  # two per match of the round
            pieces=mv.pieces,
            time_control=mv.time_control,
        )
    matches: dict[str, Match] = {}
    for mv in results.matches:
        bye = None
        if mv.decided_by == "bye":
            bye = Side.A if mv.a is None else Side.B if mv.b is None else None
        score = None
        if mv.displayed is not None:
            clock = "flag" if mv.decided_by == "flag" else "tie" if mv.status == "tiebreak" else "time"
            score = Score(
                displayed=Texts(a=mv.displayed.a, b=mv.displayed.b),
                remaining_ms=Pair(a=mv.remaining_ms.a, b=mv.remaining_ms.b) if mv.remaining_ms else Pair(),
                moves=Pair(a=mv.moves.a, b=mv.moves.b) if mv.moves else Pair(),
                decided_by=clock,
            )
        matches[mv.id] = Match(
            id=mv.id,
            round=mv.round,
            slot=_slot(mv.id),
            a=mv.a,
            b=mv.b,
            bye=bye,
            status=mv.status,
            table=mv.table,
            clock_a=mv.clock_a,
            toss_winner=mv.toss_winner,
            score=score,
            winner=mv.winner,
            decided_by=mv.decided_by,
            tiebreak_of=mv.tiebreak_of,
            tiebreaks=tuple(tiebreaks.get(mv.id, ())),
        )
    return Bracket(rounds=tuple(rounds[n] for n in sorted(rounds)), matches=matches)


def players_from_session(view: SessionView) -> list[Player]:
    """The session's players as the check-in list shows them (public names: all the API gives)."""
    field = set(view.field or ())
    closed = view.stage != "registration"
    took = {c.taken_by: c.absent for c in view.seat_changes}
    order: dict[str, int] = {}
    out = []
    for lp in view.players:
        order[lp.list] = order.get(lp.list, 0) + 1
        if lp.withdrawn:
            presence: Presence = "withdrawn"
        elif lp.present:
            presence = "present"
        else:
            presence = "absent" if closed else "expected"
        out.append(
            Player(
                id=lp.id,
                display_name=lp.name,
                list=lp.list,
                order=order[lp.list],
                presence=presence,
                in_field=lp.id in field,
                took_seat_of=took.get(lp.id),
            )
        )
    return out


def apply_session(model: DeskModel, view: SessionView) -> None:
    """Show tournament session ``view``: its name, stage, players and bracket."""
    results = view.results
    if results is not None:
        model.set_title(results.tournament, view.name, view.stage)
    else:
        model.set_title(view.name, "", view.stage)
    refusals = [Refusal(line=r.line, name=r.name, reason=r.reason, same_as=r.same_as) for r in view.refusals]
    model.set_players(players_from_session(view), refusals)
    model.set_bracket(bracket_from_results(results) if results is not None else None)


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


class _Sender:
    """Sends commands on its own thread (a request waits for the journal; the window must not)."""

    def __init__(self, host: str, port: int, token: str | None, by: str) -> None:
        self.client = Client(host, port, token, timeout_ms=10_000, by=by)
        self.jobs: queue.Queue[tuple[Command, Request, Callable[[], Callable[[Any], None] | None]] | None] = (
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
            command, request, done = job
            try:
                self.client.request(request)
                outcome = Outcome(command, ok=True)
            except ApiError as exc:
                outcome = Outcome(command, ok=False, code=exc.code, message=exc.message)
            except (ConnectionError, TimeoutError, OSError) as exc:
                outcome = Outcome(command, ok=False, code="unavailable", message=str(exc))
            self.relay.delivered.emit(done, outcome)
            del job, done  # the receiver's reference, weak or not, goes with the job

    def send(self, command: Command, request: Request, done: Callable[[Outcome], None]) -> None:
        self.jobs.put((command, request, _weak(done)))

    def stop(self) -> None:
        self.jobs.put(None)


def _fetch_tables(host: str, port: int, deliver: Callable[[], Callable[[Any], None] | None]) -> None:
    """The daemon's table numbers, handed to ``deliver`` in the GUI thread (a worker thread's job)."""
    try:
        with Client(host, port, timeout_ms=5000) as client:
            numbers = [t.table for t in client.status().tables]
    except (ApiError, ConnectionError, OSError):
        return
    relay().delivered.emit(deliver, numbers)


def _fetch_timelines(
    host: str, port: int, tables: list[int], deliver: Callable[[], Callable[[Any], None] | None]
) -> None:
    """Each table's earlier timeline, handed to ``deliver`` as ``(table, items)`` in the GUI thread."""
    try:
        with Client(host, port, timeout_ms=5000) as client:
            for table in tables:
                reply = client.timeline(table, limit=10_000)
                relay().delivered.emit(deliver, (table, [timeline_from_api(e) for e in reply.entries]))
    except (ApiError, ConnectionError, OSError):
        return  # the stream will reconnect and fetch again


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
        session: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.host, self.port, local_token = resolve(host, port, token)
        # a read-only screen (the audience) never holds the token, even if daemon.json has it
        self.token = None if read_only else local_token
        self.by = by if by is not None else _user()
        self.model = model
        self.timeline = timeline
        self.clock = clock
        self.subscription: Subscription | None = None
        self.notifier: QSocketNotifier | None = None
        self.worker: _Sender | None = None
        relay()  # made here, in the GUI thread, before any worker needs it
        self.pushes = 0
        #: Every tournament session the daemon holds, as last pushed; the one shown, and whether
        #: the referee chose it (else it follows the session being played, see _choose_session).
        self.sessions: dict[str, SessionView] = {}
        self.session: str | None = session
        self._chosen = session is not None
        self._fetched: set[int] = set()
        self._stopped = False
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.timeout.connect(self._connect)
        self._seen: set[int] = set()  # tables whose state arrived on this connection
        model.subscribe(self._model_changed)

    # -- the stream -------------------------------------------------------------------------
    def start(self) -> None:
        self._stopped = False
        self.model.set_connection("connecting", f"{self.host}:{self.port}")
        if self.token is not None and self.worker is None:
            self.worker = _Sender(self.host, self.port, self.token, self.by)
        self._connect()

    def _connect(self) -> None:
        if self._stopped:
            return
        try:
            sub = Subscription(self.host, self.port, timeline=self.timeline, timeout_ms=3000)
        except (ConnectionError, OSError, ApiError) as exc:
            self.model.set_connection("offline", str(exc))
            self._retry.start(RECONNECT_MS)
            return
        self.subscription = sub
        self._fetched.clear()
        self._seen.clear()
        self.model.clear_timelines()  # fetched afresh: the daemon may have restarted on another journal
        threading.Thread(
            target=_fetch_tables, args=(self.host, self.port, _weak(self._keep_tables)), daemon=True
        ).start()
        self.notifier = QSocketNotifier(sub.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._readable)
        self.model.set_connection("connected", f"{self.host}:{self.port}")
        self._readable()  # what arrived with the subscription's answer

    def _readable(self) -> None:
        sub = self.subscription
        if sub is None:
            return
        try:
            pushes = sub.poll()
        except (ConnectionError, OSError, ApiError, ValueError) as exc:  # ValueError: a closed socket
            self._lost(str(exc))
            return
        now = self.clock()
        for push in pushes:
            if isinstance(push, TournamentState):
                self._session_pushed(push.session)
            elif isinstance(push, TableState):
                fresh = push.table.table not in self._seen
                self._seen.add(push.table.table)
                apply_push(self.model, push, now, fresh=fresh)
            else:
                apply_push(self.model, push, now)
        self.pushes += len(pushes)

    # -- tournament sessions ----------------------------------------------------------------
    def _session_pushed(self, view: SessionView) -> None:
        self.sessions[view.key] = view
        self._choose_session()
        if view.key == self.session:
            apply_session(self.model, view)
        self.model.set_sessions({k: v.name for k, v in self.sessions.items()}, self.session)

    def _choose_session(self) -> None:
        """Unless the referee chose one: the session being played (not finished), else the newest."""
        if self._chosen and self.session is not None:
            return
        current = self.sessions.get(self.session) if self.session is not None else None
        if current is not None and current.stage != "finished":
            return
        playing = [k for k, v in self.sessions.items() if v.stage != "finished"]
        candidates = playing or list(self.sessions)
        if candidates and candidates[-1] != self.session:
            self.session = candidates[-1]
            apply_session(self.model, self.sessions[self.session])

    def follow(self, session: str) -> None:
        """Show ``session`` from now on (the referee's choice in the Session menu)."""
        self.session, self._chosen = session, True
        view = self.sessions.get(session)
        if view is not None:
            apply_session(self.model, view)
        self.model.set_sessions({k: v.name for k, v in self.sessions.items()}, self.session)

    def _lost(self, why: str) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None
        if self.subscription is not None:
            with contextlib.suppress(OSError):
                self.subscription.close()
            self.subscription = None
        self.model.set_connection("offline", why)
        if not self._stopped:
            self._retry.start(RECONNECT_MS)

    def stop(self) -> None:
        self._stopped = True
        self._retry.stop()
        if self.subscription is not None:
            self._lost("closed")
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

    # -- earlier timelines ------------------------------------------------------------------
    def _model_changed(self, change: object, tables: frozenset[int]) -> None:
        """Fetch the earlier timeline of every table the first time it is seen on this connection."""
        if not self.timeline or self.subscription is None:
            return
        new = [t for t in self.model.state.tables if t not in self._fetched]
        if not new:
            return
        self._fetched.update(new)
        threading.Thread(
            target=_fetch_timelines, args=(self.host, self.port, new, _weak(self._apply_history)), daemon=True
        ).start()

    def _keep_tables(self, numbers: list[int]) -> None:
        self.model.keep_tables(numbers)

    def _apply_history(self, delivered: tuple[int, list[TimelineItem]]) -> None:
        table, items = delivered
        held = self.model.state.timelines.get(table, ())
        self.model.set_timeline(table, [*items, *held])

    # -- the command sink -------------------------------------------------------------------
    def available(self, action: Action) -> str:
        if request_class(action) is None:
            return "the daemon does not offer this yet"
        if not self.token:
            return "no token"
        if self.subscription is None:
            return "not connected"
        if action in SESSION_ACTIONS and self.session is None:
            return "no tournament session"
        return ""

    def send(self, command: Command, done: Callable[[Outcome], None]) -> None:
        reason = self.available(command.action)
        if reason or self.worker is None:
            done(Outcome(command, ok=False, code="unavailable", message=reason or "no token"))
            return
        try:  # built here, in the GUI thread, from what the screen shows now
            request = build_request(command, self.model.state, self.session)
        except ValueError as exc:
            done(Outcome(command, ok=False, code="invalid", message=str(exc)))
            return
        self.worker.send(command, request, done)


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return ""


__all__ = [
    "REQUEST_TYPES",
    "DaemonConnection",
    "apply_push",
    "build_request",
    "request_class",
    "table_from_api",
    "timeline_from_api",
]
