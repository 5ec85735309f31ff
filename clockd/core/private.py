"""Personal data: how a field is marked private, and a model's data without it.

DESIGN.md principle 9: surnames, e-mails, phones, ages — and what the rules decided about a
person (a 12-year-old's refused sign-up) — never leave the daemon without the token. A
field holding such data is marked once, where it is declared::

    email: str = Field(default="", json_schema_extra=PRIVATE)

and :func:`public_data` drops every marked field, at any depth, from a model's JSON data:
the daemon applies it to every reply and push that goes to a client without the token, so
a new view, entry or event kind is public-safe as soon as its fields are marked, whatever
path it takes out (a reply, a push, a timeline).

The walk follows a model's typed fields (models, lists, tuples, dicts of models); a value
typed ``Any`` is not looked into, so personal data belongs in typed, marked fields. What
each class needs is worked out once and cached: a view without private fields anywhere in
it (a table's) costs one dictionary lookup.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel
from pydantic.config import JsonDict

#: Marks a field as personal data in the JSON schema (``json_schema_extra=PRIVATE``).
PRIVATE: JsonDict = {"private": True}


def is_private(model: type[BaseModel], name: str) -> bool:
    """Whether field ``name`` of ``model`` is marked :data:`PRIVATE`."""
    info = model.model_fields.get(name)
    extra = info.json_schema_extra if info is not None else None
    return isinstance(extra, dict) and bool(extra.get("private"))


def private_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` itself marked :data:`PRIVATE`."""
    return frozenset(name for name in model.model_fields if is_private(model, name))


def _models_in(annotation: Any) -> bool:
    """Whether a value of type ``annotation`` may hold a model (so must be looked into)."""
    if isinstance(annotation, type):
        return issubclass(annotation, BaseModel)
    origin = get_origin(annotation)
    if origin is Annotated:
        return _models_in(get_args(annotation)[0])
    if origin is typing.Literal:
        return False
    args = get_args(annotation)
    if origin in (typing.Union, types.UnionType) or origin is not None:
        return any(_models_in(a) for a in args if a is not Ellipsis)
    return False


@cache
def _plan(model: type[BaseModel]) -> tuple[frozenset[str], tuple[str, ...]]:
    """``model``'s private fields, and the other fields that may hold models."""
    private = private_fields(model)
    nested = tuple(
        name
        for name, info in model.model_fields.items()
        if name not in private and _models_in(info.annotation)
    )
    return private, nested


def _paths(value: Any, path: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
    if isinstance(value, BaseModel):
        private, nested = _plan(type(value))
        for name in private:
            out.append((*path, name))
        for name in nested:
            _paths(getattr(value, name), (*path, name), out)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if isinstance(item, BaseModel | list | tuple | Mapping):
                _paths(item, (*path, i), out)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(item, BaseModel | list | tuple | Mapping):
                _paths(item, (*path, key), out)


def private_paths(model: BaseModel) -> list[tuple[Any, ...]]:
    """Where ``model`` holds marked fields: each a path of field names, indices and keys."""
    out: list[tuple[Any, ...]] = []
    _paths(model, (), out)
    return out


def _drop(data: Any, path: tuple[Any, ...]) -> None:
    for step in path[:-1]:
        if isinstance(data, dict):
            data = data.get(step if step in data else str(step))
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            return
        if data is None:
            return
    if isinstance(data, dict):
        last = path[-1]
        data.pop(last if last in data else str(last), None)


def public_data(model: BaseModel, **dump: Any) -> dict[str, Any]:
    """``model.model_dump(mode="json", **dump)`` without its private fields, at any depth."""
    data = model.model_dump(mode="json", **dump)
    for path in private_paths(model):
        _drop(data, path)
    return data


__all__ = ["PRIVATE", "is_private", "private_fields", "private_paths", "public_data"]
