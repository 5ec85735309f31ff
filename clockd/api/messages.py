"""Every message of the daemon's API, as versioned pydantic models.

The wire is newline-delimited JSON over TCP (``docs/api.md``): one JSON object per line,
UTF-8, at most :data:`MAX_LINE_BYTES` bytes. Every object has ``v`` (the API version,
:data:`API_VERSION`) and ``type``. Three families:

* **requests** (client → daemon, :class:`Request`): carry an optional ``id`` the reply
  echoes, and ``token`` for those that change state. Every state-changing request is an
  :class:`ActionRequest`: a referee's action (:mod:`clockd.core.actions`) and its
  ``target`` — ``{"type": "pause", "target": "3", "reason": "…"}``: the request *is* the
  action's definition, nothing is declared twice;
* **replies** (daemon → client, :class:`Reply`): exactly one per request, with its ``id``;
  :class:`ErrorReply` says what was wrong (``reason``: a catalogue message the client
  renders in its user's language) and that nothing changed;
* **pushes** (daemon → subscriber, :class:`Push`): the live stream after ``subscribe``.

Views carry, besides the state, the **actions allowed now** and the reasons for the others
(``actions``: name → ``null`` if allowed, else a message): a client enables a button from
that and shows the reason as its tooltip; it never works out a rule for itself.

This module imports nothing of the daemon (only the pure core's value types): a GUI, a web
page or any other client can use it alone.

Adding a read-only request is one class and a decorator (the ``type`` string must be new)::

    @request_type
    class Events(Request):
        type: Literal["events"] = "events"

:func:`parse_request` and :func:`parse_message` find the class by ``type``. The daemon
side then registers a handler for the request (``clockd.service.handlers``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
    model_serializer,
)

import clockd.core.duel
import clockd.core.hall  # noqa: F401  (registers the station program's view)
from clockd.api.shown import Pick, Shown
from clockd.core.actions import Action, Allowed, action_types, parse_action, validation_msg
from clockd.core.device import DeviceDetail, DeviceState
from clockd.core.private import PRIVATE
from clockd.core.program import AnyProgramView
from clockd.core.registry import PersonSource
from clockd.i18n import Msg, Problem, msg, render

#: The version of this API. A request with a higher ``v`` is refused (``unsupported-version``).
#: 2: every state change is an action request; views carry their allowed actions; errors
#: carry a catalogue message; events of every kind.
API_VERSION = 2

#: The longest request line the daemon reads (a longer one is refused with ``too-large``).
MAX_LINE_BYTES = 8 * 1024 * 1024

#: The longest line a client reads: replies are bigger than requests (``status`` of 500 tables).
MAX_REPLY_BYTES = 64 * 1024 * 1024

#: The daemon's default TCP port.
DEFAULT_PORT = 7531

Side = Literal["a", "b"]


class ApiError(Exception):
    """An error reply (or a message that could not be read), as an exception.

    ``code`` is one of :data:`ERROR_CODES`; ``reason`` says exactly what (a catalogue
    message: render it with :func:`clockd.i18n.render`); ``message`` is its English
    sentence, for logs.
    """

    def __init__(
        self,
        code: str,
        message: str | None = None,
        *,
        reason: Msg | None = None,
        request_id: int | str | None = None,
    ) -> None:
        self.code = code
        self.reason = reason or Msg(code=f"api.{code}")
        self.message = message if message is not None else render(self.reason, "en")
        self.request_id = request_id
        super().__init__(f"{code}: {self.message}")

    @property
    def msg(self) -> Msg:
        """What to tell the user (``clockd.i18n.render_error`` finds it here)."""
        return self.reason


#: The error replies' codes (each has a catalogue text, ``api.<code>``; docs/api.md says when).
ERROR_CODES = (
    "malformed",
    "too-large",
    "unknown-type",
    "unsupported-version",
    "invalid",
    "unauthorized",
    "refused",
    "unavailable",
    "internal",
)


class Message(BaseModel):
    """The base of every API message."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    v: int = API_VERSION
    type: str

    def to_line(self) -> bytes:
        """The message as one line of the wire format (with the trailing newline)."""
        return self.model_dump_json(exclude_none=False).encode() + b"\n"


class Request(Message):
    id: int | str | None = None
    token: str | None = None
    #: Whether the request changes state (and so needs the token).
    mutating: ClassVar[bool] = False


class Reply(Message):
    id: int | str | None = None


class Push(Message):
    """A message of the subscription stream."""


M = TypeVar("M", bound=type[Message])

_REQUESTS: dict[str, type[Request]] = {}
_MESSAGES: dict[str, type[Message]] = {}  # replies and pushes (what a client reads)


def _type_of(cls: type[Message]) -> str:
    field = cls.model_fields.get("type")
    name = field.default if field is not None else None
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} needs a default for its 'type' field (a Literal string)")
    return name


def request_type(cls: M) -> M:
    """Class decorator: make a :class:`Request` subclass parseable by its ``type``."""
    name = _type_of(cls)
    if not issubclass(cls, Request):
        raise TypeError(f"{cls.__name__} is not a Request")
    if name in _REQUESTS and _REQUESTS[name] is not cls:
        raise TypeError(f"request type {name!r} is already taken by {_REQUESTS[name].__qualname__}")
    _REQUESTS[name] = cls
    return cls


def message_type(cls: M) -> M:
    """Class decorator: make a :class:`Reply` or :class:`Push` subclass parseable by its ``type``."""
    name = _type_of(cls)
    if name in _MESSAGES and _MESSAGES[name] is not cls:
        raise TypeError(f"message type {name!r} is already taken by {_MESSAGES[name].__qualname__}")
    _MESSAGES[name] = cls
    return cls


def request_types() -> dict[str, type[Request]]:
    return dict(_REQUESTS)


# -- reading -----------------------------------------------------------------------------------


def _load_object(line: bytes | str, limit: int = MAX_LINE_BYTES) -> dict[str, Any]:
    if isinstance(line, bytes) and len(line) > limit:
        raise ApiError("too-large", reason=msg("api.too-large", size=len(line), limit=limit))
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ApiError("malformed", reason=msg("api.malformed", problem=str(exc)[:200])) from None
    if not isinstance(data, dict):
        raise ApiError("malformed", reason=msg("api.not-an-object", found=type(data).__name__))
    return data


def _not_text(value: Any) -> str | None:
    """A string in ``value`` (a key or a value, at any depth) that is not Unicode text — JSON's
    ``"\\ud800"``, half of a surrogate pair — as its escape; or ``None``."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return value[exc.start : exc.end].encode("unicode_escape").decode("ascii")
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            bad = _not_text(key) or _not_text(item)
            if bad:
                return bad
    elif isinstance(value, list):
        for item in value:
            bad = _not_text(item)
            if bad:
                return bad
    return None


def parse_request(line: bytes | str) -> Request:
    """The request on ``line``, or :class:`ApiError` saying exactly what is wrong with it.

    A request holding a string that is not Unicode text (an unpaired surrogate, ``"\\ud800"``)
    is refused whole: its reply could not be written, nor its text journaled.
    """
    data = _load_object(line)
    rid = data.get("id")
    request_id = rid if isinstance(rid, int | str) and not isinstance(rid, bool) else None
    maybe = not isinstance(line, bytes) or b"\\u" in line  # in UTF-8 bytes, only an escape can make one
    if maybe and (bad := _not_text(data)) is not None:
        echo = request_id if _not_text(request_id) is None else None
        raise ApiError("malformed", reason=msg("api.not-unicode", found=bad), request_id=echo)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ApiError("invalid", reason=msg("api.no-type"), request_id=request_id)
    version = data.get("v", API_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApiError("invalid", reason=msg("api.bad-version", found=repr(version)), request_id=request_id)
    if version > API_VERSION:
        raise ApiError(
            "unsupported-version",
            reason=msg("api.unsupported-version", api=API_VERSION, found=version),
            request_id=request_id,
        )
    if kind in action_types() and kind not in _REQUESTS:
        return ActionRequest.from_wire(data, request_id)
    cls = _REQUESTS.get(kind)
    if cls is None:
        known = sorted({*_REQUESTS, *action_types()})
        raise ApiError(
            "unknown-type", reason=msg("api.unknown-type", type=kind, known=known), request_id=request_id
        )
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ApiError("invalid", reason=validation_msg(exc, kind), request_id=request_id) from None


def parse_message(line: bytes | str) -> Message:
    """A reply or push read by a client. An unknown ``type`` raises :class:`ApiError`."""
    data = _load_object(line, MAX_REPLY_BYTES)
    kind = data.get("type")
    cls = _MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ApiError("unknown-type", reason=msg("api.unknown-message", type=str(kind)))
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ApiError("invalid", reason=validation_msg(exc, str(kind))) from None


# -- the daemon's state, as clients see it ------------------------------------------------------


class DeviceView(BaseModel):
    model_config = ConfigDict(frozen=True)

    state: DeviceState
    device_id: str = ""
    detail: DeviceDetail = None  # a message: render it (an older daemon sent text: kept as it is)


class AlertView(BaseModel):
    """An open alert: ``code`` is a catalogue code, ``data`` its parameters (render them)."""

    model_config = ConfigDict(frozen=True)

    id: int
    code: str
    data: dict[str, int | str] = Field(default_factory=dict)

    @property
    def text(self) -> Msg:
        return Msg(code=self.code, params=dict(self.data))


class TableView(BaseModel):
    """One table at one instant: its device, alerts and the program it runs.

    ``program`` is what the table runs, as its kind shows it (``clock``: a chess clock's
    two faces; ``puzzle-duel``: the duel's, with the toss and the verdict; ``station``: a
    hall event's table; ``idle``), with ``owner`` the event's item that put it there.
    ``actions`` says which table actions may be done now and why not the others. ``seq``
    is the journal position of the state: a view with a lower ``seq`` than one you have is
    stale. ``digest`` identifies the exact state (equal digests, equal states), which is
    how a recovery is checked.
    """

    model_config = ConfigDict(frozen=True)

    table: int
    id: str  # qualified: "hall/3"
    label: str
    program: AnyProgramView
    device: DeviceView
    alerts: tuple[AlertView, ...] = ()
    presses: int
    actions: Allowed = Field(default_factory=dict)
    seq: int
    digest: str
    #: The table node that times the table (``docs/mqtt.md``); ``""``: the daemon itself.
    node: str = ""
    #: The event's item that holds the table (``desk/pt/R1-7``); ``None``: the table is free —
    #: nothing is on it, or its event is over and let it go (its result may still show).
    holder: str | None = None


class OutageView(BaseModel):
    """A time the desk could not hear a node (journal times, ms; ``up_ms`` ``None``: still out)."""

    model_config = ConfigDict(frozen=True)

    down_ms: int
    up_ms: int | None = None
    seconds: int | None = None
    why: str = ""


class NodeAlertView(BaseModel):
    """Something the referee must look at on a node (journal time, ms): a row of it the desk
    refused, or one that differs from the desk's copy (``problem``: what, as a message)."""

    model_config = ConfigDict(frozen=True)

    t_ms: int
    seq: int
    problem: Msg


class NodeView(BaseModel):
    """One table node as the desk sees it: its link, its tables, how far behind the desk is.

    ``rows_behind``: rows the node has journaled for its tables that the desk's journal does
    not hold yet (from the node's last heartbeat); ``heard_ms_ago``: since that heartbeat.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    up: bool
    since_ms: int
    tables: list[int] = Field(default_factory=list)
    rows: int = 0
    restarts: int = 0
    rows_behind: int = 0
    heard_ms_ago: int | None = None
    outages: list[OutageView] = Field(default_factory=list)
    alerts: list[NodeAlertView] = Field(default_factory=list)


class CommandView(BaseModel):
    """A desk's command to a node: ``sent`` (not done yet), ``done`` (its row came back, ``node_seq``),
    ``refused`` (by the node, ``problem``) or ``not-delivered``."""

    model_config = ConfigDict(frozen=True)

    command: int
    node: str
    table: int | None = None
    what: str
    t_ms: int
    outcome: str
    node_seq: int | None = None
    problem: Msg | None = None
    #: The desk's journal seq of the command: what the action that made it was answered with.
    seq: int = 0


class EventBody(BaseModel):
    """What an event kind shows of one event (each kind has its own, by ``kind``)."""

    model_config = ConfigDict(frozen=True)

    kind: str


_BODIES: dict[str, type[EventBody]] = {}


def body_type(cls: type[EventBody]) -> type[EventBody]:
    """Class decorator: register an event kind's view body by its ``kind``."""
    kind = cls.model_fields["kind"].default
    _BODIES[kind] = cls
    return cls


def _load_body(data: Any) -> EventBody:
    if isinstance(data, EventBody):
        return data
    if not isinstance(data, dict):
        raise ValueError("an event's body is an object with a kind")
    cls = _BODIES.get(str(data.get("kind")), EventBody)
    return cls.model_validate(data)


def _dump_body(value: BaseModel, info: Any) -> Any:
    return value.model_dump(mode=info.mode)


AnyEventBody = Annotated[EventBody, PlainValidator(_load_body), PlainSerializer(_dump_body)]


@body_type
class QuarantinedBody(EventBody):
    """An event set aside at start: replaying its journal entry ``seq`` (of kind ``entry``;
    ``"view"``: its state could not be shown) failed with ``problem``. ``event_kind`` is what
    the event is. It takes no action and no reaction; everything else runs
    (docs/architecture.md, "An event set aside at replay")."""

    kind: Literal["quarantined"] = "quarantined"
    event_kind: str
    seq: int
    entry: str
    problem: str


class EventView(BaseModel):
    """One event the daemon hosts: its kind, names, the actions allowed on it now, and what
    its kind shows (``body``: a Puzzle Duel session's players and bracket, a hall event's
    timer and stations …). Names of people are public names only."""

    model_config = ConfigDict(frozen=True)

    id: str  # qualified: "hall/pt"
    key: str
    kind: str
    title: Msg
    actions: Allowed = Field(default_factory=dict)
    alerts: tuple[AlertView, ...] = ()
    body: AnyEventBody
    seq: int
    digest: str = ""  # a fingerprint of the event's exact state: equal digests, equal states
    #: What the event shows, line by line, for clients without a widget of its kind.
    shown: tuple[Shown, ...] = ()
    #: For an action's fields that name something of the event (an entry, a seat), the values
    #: they may take now: action → field → picks (public names only).
    picks: dict[str, dict[str, tuple[Pick, ...]]] = Field(default_factory=dict)


class TimelineEntry(BaseModel):
    """One journaled entry of a table or an event: a press, an action, a decision, a device change.

    ``t_ms`` is the instant on the journal's time base (milliseconds; only differences
    between entries mean something). ``data`` is the entry's own fields (e.g. ``side``,
    ``outcome``, ``device_t_ns``, ``by``, ``action``) — everything needed to settle a dispute.
    """

    model_config = ConfigDict(frozen=True)

    seq: int
    table: int | None
    event: str | None = None
    kind: str
    t_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


# -- requests ---------------------------------------------------------------------------------


@request_type
class Ping(Request):
    type: Literal["ping"] = "ping"


@request_type
class NodesStatus(Request):
    """The desk's table nodes and its commands not yet done (``docs/mqtt.md``). No token needed."""

    type: Literal["nodes"] = "nodes"


@request_type
class Status(Request):
    """Every table (or those listed) now. No token needed."""

    type: Literal["status"] = "status"
    tables: list[int] | None = None


@request_type
class Events(Request):
    """Every event the daemon hosts (or those listed, by key) now. No token needed."""

    type: Literal["events"] = "events"
    events: list[str] | None = None


@request_type
class EventResults(Request):
    """An event's results file (a Puzzle Duel session: ``results.json``), texts in ``lang``."""

    type: Literal["event-results"] = "event-results"
    event: str = Field(min_length=1, max_length=120)
    lang: Literal["pl", "en"] = "pl"


@request_type
class Timeline(Request):
    """A table's (or an event's) journaled entries after ``after_seq`` (oldest first, at most ``limit``)."""

    type: Literal["timeline"] = "timeline"
    table: int | None = None
    event: str | None = Field(default=None, max_length=120)
    after_seq: int = Field(default=0, ge=0, le=2**62)
    limit: int = Field(default=1000, ge=1, le=10_000)


@request_type
class Subscribe(Request):
    """Start the live stream on this connection: the state now, then every change.

    ``tables``/``events``: only these (default: all). ``timeline``: also push every
    journaled entry (:class:`TimelinePush`). No token needed. A subscriber that does not
    read fast enough is disconnected (it may reconnect and subscribe again).
    """

    type: Literal["subscribe"] = "subscribe"
    tables: list[int] | None = None
    events: list[str] | None = None
    timeline: bool = False


class RefereeRequest(Request):
    """A state-changing request: needs ``token``; ``by`` names the referee (journaled)."""

    mutating: ClassVar[bool] = True
    by: str = Field(default="", max_length=100)


class ActionRequest(RefereeRequest):
    """A referee's action on a ``target`` — the request for every state change.

    On the wire the action's fields sit beside the request's own:
    ``{"v": 2, "type": "adjust", "id": 7, "token": "…", "by": "Anna", "target": "3",
    "side": "a", "delta_ms": -30000, "reason": "illegal move"}``. ``type`` is the
    action's kind; ``target`` names what it acts on (``3``: table 3 here; ``pt``: the
    event pt; ``pt/R1-1``: its match; the daemon for ``event-create``).
    """

    type: str
    target: str = Field(default="", max_length=120)
    action: Action

    @classmethod
    def of(cls, action: Action, target: str | int = "", **fields: Any) -> ActionRequest:
        return cls(type=action.kind, target=str(target), action=action, **fields)

    @classmethod
    def from_wire(cls, data: dict[str, Any], request_id: int | str | None) -> ActionRequest:
        own = {k: data[k] for k in ("v", "type", "id", "token", "by", "target") if k in data}
        fields = {k: v for k, v in data.items() if k not in own}
        try:
            action = parse_action(str(data["type"]), fields)
        except Problem as exc:
            raise ApiError("invalid", reason=exc.msg, request_id=request_id) from None
        try:
            return cls.model_validate({**own, "action": action})
        except ValidationError as exc:
            raise ApiError(
                "invalid", reason=validation_msg(exc, str(data["type"])), request_id=request_id
            ) from None

    @model_serializer(mode="plain")
    def _flat(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "v": self.v,
            "type": self.type,
            "id": self.id,
            "token": self.token,
            "by": self.by,
        }
        out["target"] = self.target
        out.update(self.action.model_dump(mode="json", exclude={"kind", "t_ns"}))
        return out


@request_type
class SimPress(RefereeRequest):
    """Press ``side``'s button of a *simulated* table's clock by hand (``duelclock sim press``), so
    a rehearsal on the real daemon can press a station's "finished" button or start a clock.

    The press goes through the simulated device and its real driver like any press, and is
    journaled as one; a table with real hardware (or another machine's) is refused."""

    type: Literal["sim-press"] = "sim-press"
    table: int = Field(ge=1, le=10_000)
    side: Side


# -- replies ----------------------------------------------------------------------------------


@request_type
class PersonRequest(RefereeRequest):
    """What is held about people (``find`` a name, an e-mail or a phone; ``show`` or ``export``
    a person): the token only, and journaled as the audit's record (who, when, ``reason``)."""

    type: Literal["person"] = "person"
    how: Literal["find", "show", "export", "list"]
    text: str = Field(default="", max_length=200, json_schema_extra=PRIVATE)
    person: str = Field(default="", max_length=64)
    #: ``list``: the people of this event (every event's: empty), for the lists to notify them.
    event: str = Field(default="", max_length=40)
    reason: str = Field(min_length=1, max_length=500)


@message_type
class Pong(Reply):
    type: Literal["pong"] = "pong"
    api: int = API_VERSION
    version: str = ""
    hall: str = ""


@message_type
class NodesReply(Reply):
    """``linked``: the desk's own link to the broker (``None``: this daemon has no link)."""

    type: Literal["nodes"] = "nodes"
    now_ms: int
    linked: bool | None = None
    nodes: list[NodeView] = Field(default_factory=list)
    commands: list[CommandView] = Field(default_factory=list)


@message_type
class StatusReply(Reply):
    type: Literal["status"] = "status"
    seq: int
    hall: str = ""
    tables: list[TableView]


@message_type
class EventsReply(Reply):
    type: Literal["events"] = "events"
    seq: int
    hall: str = ""
    events: list[EventView]


@message_type
class EventResultsReply(Reply):
    type: Literal["event-results"] = "event-results"
    event: str
    results: dict[str, Any]
    #: What only the token's holder gets (a chess group's TRF with the birth years).
    private: dict[str, Any] = Field(default_factory=dict, json_schema_extra=PRIVATE)


class PersonRecord(BaseModel):
    """Everything held about one person, with where it came from (each event's player)."""

    person_id: str
    restricted: bool = False
    sources: list[PersonSource] = Field(default_factory=list)


@message_type
class PersonReply(Reply):
    type: Literal["person"] = "person"
    #: The audit record's seq in the journal.
    seq: int
    people: list[PersonRecord] = Field(default_factory=list, json_schema_extra=PRIVATE)


@message_type
class TimelineReply(Reply):
    type: Literal["timeline"] = "timeline"
    table: int | None
    event: str | None = None
    entries: list[TimelineEntry]
    last_seq: int


@message_type
class SimPressed(Reply):
    """The simulated clock of ``table`` sent the press (its driver journals it as it does any)."""

    type: Literal["sim-pressed"] = "sim-pressed"
    table: int
    side: Side


@message_type
class Subscribed(Reply):
    type: Literal["subscribed"] = "subscribed"
    seq: int


@message_type
class Done(Reply):
    """An action was journaled (at ``seq``) and applied; ``table``/``event``: the result."""

    type: Literal["done"] = "done"
    seq: int
    table: TableView | None = None
    event: EventView | None = None


@message_type
class ErrorReply(Reply):
    """The request was not carried out; nothing changed. ``code``: see :data:`ERROR_CODES`;
    ``reason``: exactly why (render it); ``message``: the same in English, for logs."""

    type: Literal["error"] = "error"
    code: str
    message: str
    reason: Msg | None = None


# -- pushes -----------------------------------------------------------------------------------


@message_type
class TableStatePush(Push):
    """A table's state changed (or: its state when you subscribed)."""

    type: Literal["table-state"] = "table-state"
    table: TableView


@message_type
class EventStatePush(Push):
    """An event changed (or: its state when you subscribed)."""

    type: Literal["event-state"] = "event-state"
    event: EventView


@message_type
class Signal(Push):
    """A hall signal now (``signal``: "ZMIANA"; ``end``: the event's time is over; ``pre``: a
    T−x before its planned start): the desk plays a sound, the audience screen flashes."""

    type: Literal["signal"] = "signal"
    event: str  # qualified
    what: Literal["signal", "end", "pre"]
    offset_ms: int
    pattern: str


@message_type
class TimelinePush(Push):
    type: Literal["timeline-entry"] = "timeline-entry"
    entry: TimelineEntry
