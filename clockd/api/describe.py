"""The daemon describes, the clients render: every action's definition as data.

An action is declared once, as a pydantic model (:mod:`clockd.core.actions`). A client
needs to know of it what a person is asked: its name, what it acts on, and each field's
type, limits and help text. :func:`describe_action` turns the definition into an
:class:`ActionDescription`, and the ``describe`` request gives every client the
descriptions of every action and every event kind the daemon hosts — so the command line
(``duelclock event do``), the desk's dialogs and buttons and any later client build their
forms from the daemon's own definitions, and a new kind's actions appear in every client
without a line of client code.

Texts are catalogue messages, never sentences: an action's name is ``term.action.<name>``,
its help ``action-help.<name>``; a field's help is ``field-help.<action>.<field>``, else
the shared ``field-help.<field>``. A help the catalogue lacks is left out (``None``), not
invented.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from clockd.api.messages import Reply, Request, message_type, request_type
from clockd.core.actions import Action, Target, action_types
from clockd.i18n import Msg
from clockd.i18n.catalogue import catalogue

#: What a field holds, as a form shows it (``ms``: a duration or an offset in milliseconds).
FieldType = Literal["text", "integer", "number", "ms", "boolean", "choice", "list", "object"]

#: Fields a client never sends: the daemon's own (the action's name, its instant).
_DAEMONS = frozenset({"kind", "t_ns"})


class FieldDescription(BaseModel):
    """One field of an action: what a form asks for, and within which limits."""

    model_config = ConfigDict(frozen=True)

    name: str
    type: FieldType
    required: bool
    default: Any = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    min_length: int | None = None
    max_length: int | None = None
    #: The values allowed (a ``Literal`` field's), in order.
    choices: tuple[str | int, ...] = ()
    #: What a list holds (``integer``, ``text``), for a field of type ``list``.
    items: FieldType | None = None
    #: Personal data (an e-mail, an age): shown and kept for the token's holders only.
    personal: bool = False
    help: Msg | None = None


class ActionDescription(BaseModel):
    """One action: its name, what it acts on, the person's words for it, its fields."""

    model_config = ConfigDict(frozen=True)

    name: str
    target: Target
    title: Msg
    help: Msg | None = None
    fields: tuple[FieldDescription, ...] = ()


class KindDescription(BaseModel):
    """One event kind the daemon hosts: its name for people and the actions it applies."""

    model_config = ConfigDict(frozen=True)

    kind: str
    title: Msg
    actions: tuple[str, ...]


class Described(Action):
    """An action a client knows only by its description (the daemon's, not the client's own
    classes): its name (``kind``) and its fields as a person gave them, checked by the daemon
    when it arrives, as every request is."""

    model_config = ConfigDict(frozen=True, extra="allow")
    target: ClassVar[Target] = "event"


@request_type
class Describe(Request):
    """Every event kind the daemon hosts and every action's description. No token needed."""

    type: Literal["describe"] = "describe"


@message_type
class DescribeReply(Reply):
    type: Literal["describe"] = "describe"
    kinds: list[KindDescription]
    actions: list[ActionDescription]

    def action(self, name: str) -> ActionDescription | None:
        return next((a for a in self.actions if a.name == name), None)

    def kind(self, name: str) -> KindDescription | None:
        return next((k for k in self.kinds if k.kind == name), None)


def _known(code: str) -> Msg | None:
    return Msg(code) if code in catalogue() else None


def _field_type(schema: dict[str, Any], name: str) -> tuple[FieldType, tuple[str | int, ...]]:
    if "const" in schema:
        return "choice", (schema["const"],)
    if "enum" in schema:
        return "choice", tuple(schema["enum"])
    kinds = [schema] if "type" in schema else [s for s in schema.get("anyOf", ()) if s.get("type") != "null"]
    if len(kinds) != 1:
        return "text", ()
    only = kinds[0]
    if "enum" in only or "const" in only:
        return _field_type(only, name)
    json_type = only.get("type")
    if json_type == "integer":
        return ("ms" if name.endswith("_ms") else "integer"), ()
    mapped: dict[str, FieldType] = {
        "string": "text",
        "number": "number",
        "boolean": "boolean",
        "array": "list",
        "object": "object",
    }
    return mapped.get(str(json_type), "text"), ()


def _limits(schema: dict[str, Any]) -> dict[str, Any]:
    parts = [schema, *(s for s in schema.get("anyOf", ()) if isinstance(s, dict))]
    out: dict[str, Any] = {}
    for part in parts:
        for key, field in (
            ("minimum", "minimum"),
            ("maximum", "maximum"),
            ("minLength", "min_length"),
            ("maxLength", "max_length"),
        ):
            if key in part:
                out.setdefault(field, part[key])
    return out


def _resolved(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with its references (an enum's ``$ref``) replaced by what they name."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _resolved(
                {**defs.get(ref.rsplit("/", 1)[1], {}), **{k: v for k, v in schema.items() if k != "$ref"}},
                defs,
            )
        return {k: _resolved(v, defs) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_resolved(v, defs) for v in schema]
    return schema


@cache
def describe_action(cls: type[Action]) -> ActionDescription:
    """The description of one action, from its definition (cached: definitions do not change)."""
    name = str(cls.model_fields["kind"].default)
    schema = cls.model_json_schema()
    properties: dict[str, Any] = {
        k: _resolved(v, schema.get("$defs", {})) for k, v in schema.get("properties", {}).items()
    }
    required = set(schema.get("required", ()))
    fields = []
    for field, info in cls.model_fields.items():
        if field in _DAEMONS:
            continue
        prop = properties.get(field, {})
        kind, choices = _field_type(prop, field)
        items = None
        if kind == "list":
            inner: dict[str, Any] = next(
                (p.get("items", {}) for p in (prop, *prop.get("anyOf", ())) if "items" in p), {}
            )
            items = _field_type(inner, field)[0] if inner else None
        extra = info.json_schema_extra
        fields.append(
            FieldDescription(
                name=field,
                type=kind,
                required=field in required,
                default=None if field in required else prop.get("default"),
                choices=choices,
                items=items,
                personal=isinstance(extra, dict) and bool(extra.get("private")),
                help=_known(f"field-help.{name}.{field}") or _known(f"field-help.{field}"),
                **_limits(prop),
            )
        )
    return ActionDescription(
        name=name,
        target=cls.target,
        title=Msg(f"term.action.{name}"),
        help=_known(f"action-help.{name}"),
        fields=tuple(fields),
    )


def describe_actions(names: set[str] | frozenset[str] | None = None) -> list[ActionDescription]:
    """The descriptions of every registered action (or of those named), by name."""
    return [
        describe_action(cls) for name, cls in sorted(action_types().items()) if names is None or name in names
    ]


def kind_title(kind: str) -> Msg:
    """An event kind's name for people: ``term.event-kind.<kind>``, which every kind defines
    (a kind's folder, in its ``messages.po``)."""
    return Msg(f"term.event-kind.{kind}")
