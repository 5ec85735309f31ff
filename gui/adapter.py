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
import queue
import threading
import time
from collections.abc import Callable

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
    read_info,
)
from clockd.api.messages import DEFAULT_PORT, request_types
from gui.commands import Action, Command, Outcome
from gui.model import Alert, DeskModel, Pair, Side, Table, TimelineItem

#: The API request ``type`` each action is sent as, and how its fields are named there.
#: Tournament actions (check-in … tie-break) are sent once the daemon's API defines them.
REQUEST_TYPES: dict[Action, str] = {
    Action.PAUSE: "pause",
    Action.RESUME: "resume",
    Action.ADJUST: "adjust",
    Action.NOTE: "note",
    Action.CLEAR_ALERTS: "clear-alert",
    Action.ASSIGN: "assign",
    Action.TOSS: "toss",
    Action.COMPLETE: "complete",
    Action.CONFIRM: "confirm",
    Action.OVERRIDE: "override",
    Action.WALKOVER: "walkover",
    Action.TIEBREAK: "assign",
    Action.CHECK_IN: "check-in",
    Action.CHECK_OUT: "check-out",
    Action.CLOSE_CHECKIN: "close-checkin",
    Action.DRAW: "draw",
}

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


def apply_push(model: DeskModel, push: Push, received_ns: int) -> None:
    """One message of the subscription stream, applied to the model."""
    if isinstance(push, TableState):
        model.set_tables([table_from_api(push.table, received_ns)])
    elif isinstance(push, TimelineEvent) and push.entry.table is not None:
        model.add_timeline(push.entry.table, timeline_from_api(push.entry))


def request_class(action: Action) -> type[Request] | None:
    """The API's request model for ``action``, if the API defines it."""
    name = REQUEST_TYPES.get(action)
    return request_types().get(name) if name else None


def build_request(command: Command) -> Request:
    """The daemon's request for ``command``; ``ValueError`` naming the field if it does not fit."""
    cls = request_class(command.action)
    if cls is None:
        raise ValueError(f"the daemon's API has no request for {command.action.value!r}")
    fields = dict(command.fields)
    if command.action is Action.CLEAR_ALERTS:
        fields.setdefault("alert_id", None)
    known = set(cls.model_fields)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    return cls.model_validate(fields)


# -- Qt: the live connection ---------------------------------------------------------------------


class _Worker(QObject):
    """Sends commands on its own thread (a request waits for the journal; the window must not)."""

    answered = Signal(object, object)  # (Outcome, callback)

    def __init__(self, host: str, port: int, token: str | None, by: str) -> None:
        super().__init__()
        self.client = Client(host, port, token, timeout_ms=10_000, by=by)
        self.jobs: queue.Queue[tuple[Command, Callable[[Outcome], None]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="duelclock-gui-commands", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                self.client.close()
                return
            command, done = job
            try:
                request = build_request(command)
                self.client.request(request)
                outcome = Outcome(command, ok=True)
            except ApiError as exc:
                outcome = Outcome(command, ok=False, code=exc.code, message=exc.message)
            except (ConnectionError, TimeoutError, OSError) as exc:
                outcome = Outcome(command, ok=False, code="unavailable", message=str(exc))
            except ValueError as exc:
                outcome = Outcome(command, ok=False, code="invalid", message=str(exc))
            self.answered.emit(outcome, done)

    def stop(self) -> None:
        self.jobs.put(None)


class DaemonConnection(QObject):
    """The GUI's link to a daemon: the live stream into a :class:`DeskModel`, and a command sink."""

    #: A table's earlier timeline arrived (table, entries) — emitted from the fetch thread.
    _history = Signal(int, object)

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
        clock: Callable[[], int] = time.monotonic_ns,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        info = read_info()
        self.host = host or (info.host if info else "127.0.0.1")
        self.port = port or (info.port if info else DEFAULT_PORT)
        # a read-only screen (the audience) never holds the token, even if daemon.json has it
        self.token = None if read_only else token if token is not None else (info.token if info else None)
        self.by = by if by is not None else _user()
        self.model = model
        self.timeline = timeline
        self.clock = clock
        self.subscription: Subscription | None = None
        self.notifier: QSocketNotifier | None = None
        self.worker: _Worker | None = None
        self.pushes = 0
        self._fetched: set[int] = set()
        self._stopped = False
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.timeout.connect(self._connect)
        self._history.connect(self._apply_history)
        model.subscribe(self._model_changed)

    # -- the stream -------------------------------------------------------------------------
    def start(self) -> None:
        self._stopped = False
        self.model.set_connection("connecting", f"{self.host}:{self.port}")
        if self.token is not None and self.worker is None:
            self.worker = _Worker(self.host, self.port, self.token, self.by)
            # a method of this QObject (in the GUI thread): Qt queues the call from the worker's
            # thread into the GUI thread; a bare lambda would run in the worker's thread
            self.worker.answered.connect(self._answered)
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
            apply_push(self.model, push, now)
        self.pushes += len(pushes)

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
        threading.Thread(target=self._fetch, args=(new,), name="duelclock-gui-timeline", daemon=True).start()

    def _fetch(self, tables: list[int]) -> None:
        try:
            with Client(self.host, self.port, timeout_ms=5000) as client:
                for table in tables:
                    reply = client.timeline(table, limit=10_000)
                    self._history.emit(table, [timeline_from_api(e) for e in reply.entries])
        except (ApiError, ConnectionError, OSError):
            return  # the stream will reconnect and fetch again

    def _apply_history(self, table: int, items: list[TimelineItem]) -> None:
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
        return ""

    def _answered(self, outcome: Outcome, done: Callable[[Outcome], None]) -> None:
        done(outcome)

    def send(self, command: Command, done: Callable[[Outcome], None]) -> None:
        reason = self.available(command.action)
        if reason or self.worker is None:
            done(Outcome(command, ok=False, code="unavailable", message=reason or "no token"))
            return
        self.worker.jobs.put((command, done))


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
