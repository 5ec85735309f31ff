"""A referee's action, declared once: its fields make the request, the journal entry and the core's input.

An action is what a person decides at the desk — pause table 3, confirm match R1-1, start
the relay's clock. Each is one class here or beside the state it changes::

    @action
    class Pause(Action):
        '''Stop a running clock.'''
        kind: Literal["pause"] = "pause"
        target: ClassVar[Target] = "table"
        reason: Reason = ""

and everything else derives from that one class:

* **the request** a client sends is the action's fields, plus ``target`` (what it acts on:
  ``3``, ``pt/R1-1``, ``relay``) and the referee's ``by`` — ``{"type": "pause",
  "target": "3", "reason": "…"}`` (``clockd.api.messages.ActionRequest``);
* **the journal entry** is the action as given and stamped with its instant ``t_ns``,
  plus the target, who, and what the daemon decided (``clockd.service.actions``): one
  entry kind per action, the action's ``kind``;
* **the core's input** is the action itself — stamped ``t_ns`` included — applied to the
  state it names (a table's program, a bracket, a hall timer), which raises a
  :class:`~clockd.i18n.Problem` with a code when it cannot apply.

``t_ns`` is set by the daemon when it applies the action, never by a client (a request
that carries it is refused).

Whether an action may be done *now* is asked of the same state that applies it (its
``allowed`` method), so the daemon's views carry the allowed actions and the reasons for
the refused ones, and no client re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clockd.core.private import PRIVATE
from clockd.i18n import Msg, Problem

#: What an action acts on: a table, an event (a session, a relay…), an item of an event
#: (a match, a board), a person, or the daemon as a whole.
Target = Literal["table", "event", "item", "daemon"]

#: A referee's reason, kept as typed.
Reason = Annotated[str, Field(max_length=500)]
RequiredReason = Annotated[str, Field(min_length=1, max_length=500)]

#: A time change in milliseconds: a day either way at most.
DeltaMs = Annotated[int, Field(ge=-24 * 3600 * 1000, le=24 * 3600 * 1000, strict=True)]

#: What :meth:`allowed` methods return: for each action name, ``None`` if it may be done
#: now, else the reason it may not.
Allowed = dict[str, Msg | None]


class Action(BaseModel):
    """The base of every action: frozen, strict about unknown fields (a typo is refused)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: The action's name: the request's ``type`` and the journal entry's ``kind`` (a
    #: ``Literal`` default in each subclass).
    kind: str
    #: The instant it applies at, on the journal's time base (stamped by the daemon).
    t_ns: int = 0
    #: What it acts on.
    target: ClassVar[Target]

    def at(self, t_ns: int) -> Action:
        """This action stamped with the instant it applies."""
        return self.model_copy(update={"t_ns": t_ns})


A = TypeVar("A", bound=type[Action])

_ACTIONS: dict[str, type[Action]] = {}


def action(cls: A) -> A:
    """Class decorator: register ``cls`` under its ``kind`` (kinds are unique)."""
    field = cls.__pydantic_fields__.get("kind")
    name = field.default if field is not None else None
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} needs a default for its 'kind' field (a Literal string)")
    if getattr(cls, "target", None) not in ("table", "event", "item", "daemon"):
        raise TypeError(f"{cls.__name__} needs a ClassVar 'target' (table, event, item or daemon)")
    known = _ACTIONS.get(name)
    if known is not None and known is not cls:
        raise TypeError(f"action {name!r} is already taken by {known.__module__}.{known.__qualname__}")
    _ACTIONS[name] = cls
    return cls


def action_types() -> dict[str, type[Action]]:
    """Every registered action by name (a copy)."""
    return dict(_ACTIONS)


def action_named(name: str) -> type[Action]:
    cls = _ACTIONS.get(name)
    if cls is None:
        raise Problem("action.unknown", action=name, known=sorted(_ACTIONS))
    return cls


def parse_action(name: str, fields: dict[str, Any]) -> Action:
    """The action ``name`` with ``fields`` as a client sent them; :class:`Problem` naming the
    first bad field (``t_ns`` and ``kind`` are the daemon's, not the client's)."""
    cls = action_named(name)
    for own in ("t_ns", "kind"):
        if own in fields:
            raise Problem("field.unknown", what=name, field=own)
    try:
        return cls.model_validate(fields)
    except ValidationError as exc:
        raise Problem(validation_msg(exc, name)) from None


def validation_msg(exc: ValidationError, what: str) -> Msg:
    """Pydantic's first error as a message of the catalogue (``field.*``), naming the field."""
    found = validation_msgs(exc, what)
    if not found:
        return Msg(code="field.invalid", params={"what": what, "field": "", "problem": str(exc)})
    return found[0]


def validation_msgs(
    exc: ValidationError,
    what: str,
    *,
    limit: int = 20,
    where: Callable[[tuple[Any, ...]], str | Msg] | None = None,
) -> list[Msg]:
    """Every problem pydantic found, as messages of the catalogue, each naming its field.

    A :class:`~clockd.i18n.Problem` raised by a validator (a time control that does not
    parse) keeps its own message; a validator's ``PydanticCustomError`` whose type is a
    catalogue code becomes that message with the error's context; pydantic's own errors
    become ``field.*`` messages. ``where`` names a field from its location (default:
    ``tables[1].device``), for files that have a friendlier way to say it.
    """
    out: list[Msg] = []
    # A typo (an unknown field) says more than the field it leaves missing: name it first.
    errors = sorted(exc.errors(), key=lambda e: e.get("type") != "extra_forbidden")
    for e in errors[:limit]:
        field = (where or _where)(tuple(e.get("loc", ()))) or what
        out.append(error_msg(e, what, field))
    return out


def error_msg(error: Mapping[str, Any], what: str | Msg, field: str | Msg) -> Msg:
    """One of pydantic's errors (an item of ``ValidationError.errors()``) as a catalogue message
    about ``field`` of ``what`` (see :func:`validation_msgs`)."""
    kind = str(error.get("type", ""))
    ctx = dict(error.get("ctx") or {})
    cause = ctx.get("error")
    if isinstance(cause, Problem):
        return Msg(code="field.problem", params={"what": what, "field": field, "problem": cause.msg})
    plain = {k: v for k, v in ctx.items() if isinstance(v, int | str | float | list)}
    code = _FIELD_CODES.get(kind)
    if code is None and "." in kind:  # our own PydanticCustomError: the type is the code
        code = kind
    if code is None:
        return Msg(
            code="field.invalid", params={"what": what, "field": field, "problem": error.get("msg", "")}
        )
    return Msg(code=code, params={"what": what, "field": field, **plain})


def _where(loc: Any) -> str:
    where = ""
    for part in loc:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += f".{part}" if where else str(part)
    return where


#: Pydantic's error types that a person meets, and their messages.
_FIELD_CODES = {
    "missing": "field.missing",
    "extra_forbidden": "field.unknown",
    "int_type": "field.not-int",
    "int_parsing": "field.not-int",
    "int_from_float": "field.not-int",
    "bool_type": "field.not-bool",
    "bool_parsing": "field.not-bool",
    "string_type": "field.not-text",
    "string_too_short": "field.too-short",
    "string_too_long": "field.too-long",
    "greater_than_equal": "field.too-small",
    "greater_than": "field.too-small-strict",
    "less_than_equal": "field.too-big",
    "less_than": "field.too-big-strict",
    "literal_error": "field.not-one-of",
    "enum": "field.not-one-of",
    "list_type": "field.not-list",
    "dict_type": "field.not-object",
    "model_type": "field.not-object",
}


# -- the daemon's own action ------------------------------------------------------------------


@action
class CreateEvent(Action):
    """A new event of kind ``event_kind`` under ``key``; ``config_toml``: its rules (TOML text;
    ``None``: the kind's defaults, e.g. the festival's Puzzle Duel rules)."""

    kind: Literal["event-create"] = "event-create"
    target: ClassVar[Target] = "daemon"
    event_kind: str = Field(min_length=1, max_length=40)
    key: str = Field(min_length=1, max_length=40)
    name: str = Field(default="", max_length=200)
    #: Private: a chess group's is its roster (a journal of an older version holds it as sent).
    config_toml: str | None = Field(default=None, max_length=64_000, json_schema_extra=PRIVATE)


@action
class ClearEventAlert(Action):
    """The referee has seen an event's alert (``alert_id``), or all of them (``None``)."""

    kind: Literal["event-clear-alert"] = "event-clear-alert"
    target: ClassVar[Target] = "event"
    alert_id: int | None = None


__all__ = [
    "Action",
    "Allowed",
    "ClearEventAlert",
    "CreateEvent",
    "DeltaMs",
    "Reason",
    "RequiredReason",
    "Target",
    "action",
    "action_named",
    "action_types",
    "parse_action",
    "validation_msg",
]
