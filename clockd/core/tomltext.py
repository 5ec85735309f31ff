"""TOML text from plain data: an event's configuration sent to the daemon as the file a person
would write (``event-create`` carries TOML, and the journal keeps what was read from it).

Only what configurations hold: tables, arrays of tables (written inline, one line each, so a
roster of 250 players stays short), strings, integers, booleans and lists of those.
``None`` values are left out (TOML has no null: the field's default applies). Strings are
written as TOML basic strings, whose escapes are JSON's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def _key(key: object) -> str:
    text = str(key)
    return text if text.replace("_", "").replace("-", "").isalnum() and text.isascii() else json.dumps(text)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"TOML has no value for {type(value).__name__}")


def dumps(data: Mapping[str, Any]) -> str:
    """``data`` as a TOML document: top-level scalars first, then a ``[table]`` per mapping
    (arrays of tables as inline tables, one per line)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            tables.append((_key(key), value))
        else:
            lines.append(f"{_key(key)} = {_multiline(value)}")
    for name, table in tables:
        lines.append(f"\n[{name}]")
        lines.extend(f"{_key(k)} = {_multiline(v)}" for k, v in table.items() if v is not None)
    return "\n".join(lines) + "\n"


def _multiline(value: Any) -> str:
    if isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
        return "[\n" + "".join(f"  {_value(v)},\n" for v in value) + "]"
    return _value(value)
