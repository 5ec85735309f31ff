"""What the journal records: one :class:`Event` per input, each a small frozen pydantic model.

Every input to the daemon — a press, a referee's command, a device (dis)connecting, a
decision such as a fallen flag — becomes an event, is appended to the journal and
committed, and only then changes any state (DESIGN.md, principle 2). The daemon's state is
a fold of these events, so an event type is also a piece of the file format: once an event
kind has been written to a real tournament's database it must stay readable.

Adding an event type is one class::

    @event_type
    class TossDecided(Event):
        kind: Literal["toss-decided"] = "toss-decided"
        winner: str

The ``kind`` string is stored in the journal next to the event's JSON and picks the class
back when the journal is read (:func:`decode_event`). Kinds are unique; registering one
twice is a programming error and raises at import time. The module defining an event type
must be imported before a journal holding such events is replayed (the component that
applies the events imports it, and the composition root imports the component).

Events carry no transport: the same models can later be published over MQTT.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError


class Event(BaseModel):
    """The base of every journaled event.

    ``t_ns`` is the instant the event takes effect on the *journal's time base*: the
    daemon's ``time.monotonic_ns()`` plus an offset that changes only when the machine
    has rebooted (see ``docs/architecture.md``, "Time across restarts"). It is stamped by
    the runtime, never by a client. ``table`` is the table the event concerns, or ``None``
    for events about the daemon as a whole.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    t_ns: int = 0
    table: int | None = None


E = TypeVar("E", bound=type[Event])

_EVENT_TYPES: dict[str, type[Event]] = {}


class UnknownEventKind(ValueError):
    """The journal holds an event kind this program does not know (a newer version wrote it?)."""


def event_type(cls: E) -> E:
    """Class decorator: make ``cls`` readable back from the journal by its ``kind``."""
    field = cls.__pydantic_fields__.get("kind")
    kind = field.default if field is not None else None
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__} needs a default for its 'kind' field (a Literal string)")
    known = _EVENT_TYPES.get(kind)
    if known is not None and known is not cls:
        raise TypeError(f"event kind {kind!r} is already taken by {known.__module__}.{known.__qualname__}")
    _EVENT_TYPES[kind] = cls
    return cls


def event_kinds() -> dict[str, type[Event]]:
    """Every registered kind and its class (a copy)."""
    return dict(_EVENT_TYPES)


def decode_event(kind: str, body: str | bytes, *, where: str = "") -> Event:
    """The event stored as ``body`` (JSON) under ``kind``.

    Raises :class:`UnknownEventKind` or ``ValueError`` with a sentence naming ``where``
    (e.g. ``"journal seq 1234"``) — a journal that cannot be read is never silently skipped.
    """
    cls = _EVENT_TYPES.get(kind)
    at = f" at {where}" if where else ""
    if cls is None:
        raise UnknownEventKind(
            f"event kind {kind!r}{at} is unknown to this duelclock "
            f"(known: {', '.join(sorted(_EVENT_TYPES))}); was the journal written by a newer version?"
        )
    try:
        return cls.model_validate_json(body)
    except ValidationError as exc:
        raise ValueError(f"event {kind!r}{at} does not read back: {_first_error(exc)}") from exc


def encode_event(event: Event) -> str:
    """The JSON text stored for ``event``."""
    return event.model_dump_json()


def _first_error(exc: ValidationError) -> str:
    errors: list[Any] = exc.errors()
    if not errors:
        return str(exc)
    e = errors[0]
    loc = ".".join(str(p) for p in e.get("loc", ())) or "(event)"
    return f"{loc}: {e.get('msg', '')}"
