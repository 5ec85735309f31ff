"""Every message of the daemon's API, as versioned pydantic models.

The wire is newline-delimited JSON over TCP (``docs/api.md``): one JSON object per line,
UTF-8, at most :data:`MAX_LINE_BYTES` bytes. Every object has ``v`` (the API version,
:data:`API_VERSION`) and ``type``. Three families:

* **requests** (client → daemon, :class:`Request`): carry an optional ``id`` the reply
  echoes, and ``token`` for those that change state (``mutating = True``);
* **replies** (daemon → client, :class:`Reply`): exactly one per request, with its ``id``;
  :class:`ErrorReply` says what was wrong and that nothing changed;
* **pushes** (daemon → subscriber, :class:`Push`): the live stream after ``subscribe``.

This module imports nothing of the daemon: a GUI or any other client can use it alone.

Adding a message type is one class and a decorator (the ``type`` string must be new)::

    @request_type
    class CheckIn(Request):
        type: Literal["check-in"] = "check-in"
        mutating: ClassVar[bool] = True
        player: int

:func:`parse_request` and :func:`parse_message` find the class by ``type``. The daemon
side then registers a handler for the request (``clockd.service.handlers``).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

#: The version of this API. A request with a higher ``v`` is refused (``unsupported-version``).
API_VERSION = 1

#: The longest request line the daemon reads (a longer one is refused with ``too-large``).
MAX_LINE_BYTES = 64 * 1024

#: The longest line a client reads: replies are bigger than requests (``status`` of 500 tables).
MAX_REPLY_BYTES = 64 * 1024 * 1024

#: The daemon's default TCP port.
DEFAULT_PORT = 7531

Side = Literal["a", "b"]


class ApiError(Exception):
    """An error reply (or a message that could not be read), as an exception.

    ``code`` is one of :data:`ERROR_CODES`; ``message`` is an English sentence.
    """

    def __init__(self, code: str, message: str, *, request_id: int | str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id


#: Error codes, and what each means.
ERROR_CODES = {
    "malformed": "the line is not a JSON object",
    "too-large": f"the line is longer than {MAX_LINE_BYTES} bytes",
    "unknown-type": "no request has this type",
    "unsupported-version": f"the request's v is newer than this daemon's API (v{API_VERSION})",
    "invalid": "a field is missing, of the wrong type, or not allowed",
    "unauthorized": "the request changes state and its token is missing or wrong",
    "refused": "the request is valid but cannot apply now (e.g. resume a running clock)",
    "unavailable": "the daemon is stopping or its engine has failed",
    "internal": "a bug in the daemon; the request did not change anything",
}


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
        raise ApiError("too-large", f"the line has {len(line)} bytes; the limit is {limit}")
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError("malformed", f"the line is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ApiError("malformed", f"a message must be a JSON object, not {type(data).__name__}")
    return data


def parse_request(line: bytes | str) -> Request:
    """The request on ``line``, or :class:`ApiError` saying exactly what is wrong with it."""
    data = _load_object(line)
    rid = data.get("id")
    request_id = rid if isinstance(rid, int | str) and not isinstance(rid, bool) else None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ApiError("invalid", 'the request has no "type" (a string)', request_id=request_id)
    version = data.get("v", API_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApiError("invalid", f'"v" must be a positive integer, not {version!r}', request_id=request_id)
    if version > API_VERSION:
        raise ApiError(
            "unsupported-version",
            f"this daemon speaks API v{API_VERSION}; the request is v{version}",
            request_id=request_id,
        )
    cls = _REQUESTS.get(kind)
    if cls is None:
        raise ApiError(
            "unknown-type",
            f"there is no request {kind!r}; known: {', '.join(sorted(_REQUESTS))}",
            request_id=request_id,
        )
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ApiError("invalid", f"{kind}: {describe_validation(exc)}", request_id=request_id) from None


def parse_message(line: bytes | str) -> Message:
    """A reply or push read by a client. An unknown ``type`` raises :class:`ApiError`."""
    data = _load_object(line, MAX_REPLY_BYTES)
    kind = data.get("type")
    cls = _MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ApiError("unknown-type", f"the daemon sent a message of unknown type {kind!r}")
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ApiError("invalid", f"{kind}: {describe_validation(exc)}") from None


def describe_validation(exc: ValidationError) -> str:
    """Pydantic's errors as one short sentence per field: ``delta_ms: Input should be …``."""
    parts = []
    for error in exc.errors()[:5]:
        loc = ".".join(str(p) for p in error.get("loc", ())) or "(message)"
        msg = error.get("msg", "invalid")
        if error.get("type") == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


# -- the daemon's state, as clients see it ------------------------------------------------------


class PerSide(BaseModel):
    model_config = ConfigDict(frozen=True)

    a: int
    b: int


class DeviceView(BaseModel):
    model_config = ConfigDict(frozen=True)

    state: Literal["unknown", "connected", "disconnected", "none"]
    device_id: str = ""
    detail: str = ""


class AlertView(BaseModel):
    """An open alert. ``code`` is stable (translate it); ``message`` is English."""

    model_config = ConfigDict(frozen=True)

    id: int
    code: str
    message: str
    data: dict[str, int | str] = Field(default_factory=dict)


class TableView(BaseModel):
    """One table at one instant.

    ``remaining_ms`` is each side's time left at the instant the daemon built this view,
    rounded *up* to the millisecond (a clock never shows more than is left); ``display``
    is what a clock face shows (whole seconds, rounded up). ``running`` is the side whose
    time is falling. To show a ticking clock between messages, subtract the time elapsed
    since you received the view from the running side (:meth:`remaining_after`).
    ``seq`` is the journal position of the table's state: a view with a lower ``seq`` than
    one you have is stale. ``digest`` identifies the exact state (equal digests, equal
    states), which is how a recovery is checked.
    """

    model_config = ConfigDict(frozen=True)

    table: int
    label: str
    control: str
    phase: Literal["ready", "running", "paused", "flagged"]
    remaining_ms: PerSide
    display: dict[Side, str]
    running: Side | None
    to_move: Side | None
    moves: PerSide
    ignored: PerSide
    elapsed_ms: PerSide
    paused_ms: int
    flag: Side | None
    flag_decided: bool
    presses: int
    device: DeviceView
    alerts: tuple[AlertView, ...] = ()
    seq: int
    digest: str

    def remaining_after(self, side: Side, elapsed_ms: int) -> int:
        """``side``'s time left ``elapsed_ms`` after this view was built (never below zero)."""
        left = self.remaining_ms.a if side == "a" else self.remaining_ms.b
        if self.running == side:
            left -= elapsed_ms
        return max(0, left)


class TimelineEntry(BaseModel):
    """One journaled event of a table: a press, a referee command, a decision, a device change.

    ``t_ms`` is the instant on the journal's time base (milliseconds; only differences
    between entries mean something). ``data`` is the event's own fields (e.g. ``side``,
    ``outcome``, ``device_t_ns``, ``by``, ``reason``) — everything needed to settle a dispute.
    """

    model_config = ConfigDict(frozen=True)

    seq: int
    table: int | None
    kind: str
    t_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


# -- requests ---------------------------------------------------------------------------------


@request_type
class Ping(Request):
    type: Literal["ping"] = "ping"


@request_type
class Status(Request):
    """Every table (or those listed) now. No token needed."""

    type: Literal["status"] = "status"
    tables: list[int] | None = None


@request_type
class Timeline(Request):
    """A table's journaled events after ``after_seq`` (oldest first, at most ``limit``). No token."""

    type: Literal["timeline"] = "timeline"
    table: int
    after_seq: int = Field(default=0, ge=0)
    limit: int = Field(default=1000, ge=1, le=10_000)


@request_type
class Subscribe(Request):
    """Start the live stream on this connection: every table's state now, then every change.

    ``tables``: only these (default: all). ``timeline``: also push every journaled event
    (:class:`TimelineEvent`). No token needed. A subscriber that does not read fast
    enough is disconnected (it may reconnect and subscribe again).
    """

    type: Literal["subscribe"] = "subscribe"
    tables: list[int] | None = None
    timeline: bool = False


class RefereeRequest(Request):
    """A state-changing request: needs ``token``; ``by`` names the referee (journaled)."""

    mutating: ClassVar[bool] = True
    by: str = Field(default="", max_length=100)


@request_type
class PauseTable(RefereeRequest):
    type: Literal["pause"] = "pause"
    table: int
    reason: str = Field(default="", max_length=500)


@request_type
class ResumeTable(RefereeRequest):
    type: Literal["resume"] = "resume"
    table: int
    reason: str = Field(default="", max_length=500)


@request_type
class AdjustTable(RefereeRequest):
    """Add (``delta_ms > 0``) or remove (``< 0``) time from a side; a reason is required."""

    type: Literal["adjust"] = "adjust"
    table: int
    side: Side
    delta_ms: int = Field(ge=-24 * 3600 * 1000, le=24 * 3600 * 1000)
    reason: str = Field(min_length=1, max_length=500)


@request_type
class SetClock(RefereeRequest):
    """Set the table's clock afresh (both sides full, ready), optionally with a new time control."""

    type: Literal["set-clock"] = "set-clock"
    table: int
    control: str | None = Field(default=None, max_length=200)
    reason: str = Field(default="", max_length=500)


@request_type
class ClearAlert(RefereeRequest):
    """Mark an alert as seen (``alert_id``), or all of the table's alerts (``null``)."""

    type: Literal["clear-alert"] = "clear-alert"
    table: int
    alert_id: int | None = None


@request_type
class AddNote(RefereeRequest):
    type: Literal["note"] = "note"
    table: int
    text: str = Field(min_length=1, max_length=2000)


# -- replies ----------------------------------------------------------------------------------


@message_type
class Pong(Reply):
    type: Literal["pong"] = "pong"
    api: int = API_VERSION
    version: str = ""


@message_type
class StatusReply(Reply):
    type: Literal["status"] = "status"
    seq: int
    tables: list[TableView]


@message_type
class TimelineReply(Reply):
    type: Literal["timeline"] = "timeline"
    table: int
    entries: list[TimelineEntry]
    last_seq: int


@message_type
class Subscribed(Reply):
    type: Literal["subscribed"] = "subscribed"
    seq: int


@message_type
class Done(Reply):
    """A state-changing request was journaled (at ``seq``) and applied; ``table`` is the result."""

    type: Literal["done"] = "done"
    seq: int
    table: TableView | None = None


@message_type
class ErrorReply(Reply):
    """The request was not carried out; nothing changed. ``code``: see :data:`ERROR_CODES`."""

    type: Literal["error"] = "error"
    code: str
    message: str


# -- pushes -----------------------------------------------------------------------------------


@message_type
class TableState(Push):
    """A table's state changed (or: its state when you subscribed)."""

    type: Literal["table-state"] = "table-state"
    table: TableView


@message_type
class TimelineEvent(Push):
    type: Literal["timeline-event"] = "timeline-event"
    entry: TimelineEntry
