"""What is wrong with bad input, as a code and its parameters: for whoever shows it to a person.

The protocol's errors name the message and the field that is wrong (``PRESS: field 'seq'
is 0, less than 1``) in two forms: ``str(error)`` is the English sentence (logs, a
developer's terminal, the ``detail`` of ``duelclock protocol decode``), and ``code`` with
``params`` is the same sentence as data, which a client renders in its user's language
from the daemon's message catalogue (``clockd/i18n``: ``render_error`` reads any
exception with these two attributes). This package cannot import that catalogue — it is
the pure far side of the wire — so the English templates live here, in :data:`TEXTS`,
and a test holds the catalogue's English (``msgid``) to them.

Every code starts with ``wire.``.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

#: Each code's English sentence, with ``{name}`` placeholders for its parameters.
TEXTS: dict[str, str] = {
    "wire.empty-payload": "an empty payload: no message type",
    "wire.body-ends": "{message}: body ends before field '{field}'",
    "wire.too-short": "{message}: body is {size} bytes, too short for field '{field}'",
    "wire.text-overrun": "{message}: field '{field}' claims {size} bytes, {remain} remain",
    "wire.not-utf8": "{message}: field '{field}' is not UTF-8 (byte {at} of the text)",
    "wire.no-value": "{message}: field '{field}' has no value {value}",
    "wire.too-small": "{message}: field '{field}' is {value}, less than {least}",
    "wire.too-many": "{message}: field '{field}' has {n} entries, at most {most}",
    "wire.text-too-long": "{message}: field '{field}' is {size} bytes of UTF-8, at most {most}",
    "wire.held-overrun": "{message}: field '{field}' claims {n} epochs ({size} bytes), {remain} remain",
    "wire.held-empty": (
        "{message}: field '{field}', epoch {epoch}: acked_seq {acked} is not below last_seq {last}"
    ),
    "wire.held-current": "{message}: field '{field}' lists the current boot id {boot_id} as an earlier epoch",
    "wire.held-twice": "{message}: field '{field}' lists the earlier epoch {boot_id} twice",
    "wire.face-unused": "{message}: field '{field}' is {value}, but a {face} face does not use it",
    "wire.invalid": "{message}: field '{field}': {reason}",
    "wire.missing": "{message}: field '{field}' is missing",
    "wire.not-int": "{message}: field '{field}' is not a whole number",
    "wire.not-one-of": "{message}: field '{field}' must be {expected}",
    "wire.json-not-object": "a message is a JSON object, not {found}",
    "wire.json-unknown-type": "unknown message type {found}; one of {known}",
    "wire.json-syntax": "not JSON: {reason} (column {column})",
    "wire.json-is-error": "this is a decode error ({error}), not a message",
    "wire.hex-not-digit": "line {line}: {char} is not a hexadecimal digit",
    "wire.hex-odd": "line {line}: an odd number of hex digits ({n})",
}


class WireError(ValueError):
    """Bad protocol input; ``code`` and ``params`` say what and where (see the module's doc)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in TEXTS:
            raise AssertionError(f"no text for the error code {code!r}")
        self.code = code
        self.params: dict[str, Any] = params
        super().__init__(TEXTS[code].format(**params))


class MalformedError(WireError):
    """A payload of a known type whose body cannot be read: the message and the field are named."""


class JsonMessageError(WireError):
    """A JSON value that is not a message (``duelclock protocol encode``'s input).

    ``code`` and ``params`` describe the first problem; ``str()`` lists them all, as
    pydantic found them (``show-face message: time_ms_b: …; text: …``).
    """

    def __init__(self, code: str, /, *, text: str | None = None, **params: Any) -> None:
        super().__init__(code, **params)
        if text is not None:
            self.args = (text,)

    def __str__(self) -> str:
        return str(self.args[0])


def from_validation(exc: ValidationError, message: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of the first problem pydantic found in a message ``message``.

    The models' own checks raise ``PydanticCustomError`` with a ``wire.`` code and the
    parameters as its context (a ``field`` there names the field when the check is the
    model's, not a field's); pydantic's built-in checks a person meets (a range, a missing
    field, not a number, not one of the choices) get codes here. Anything else is
    ``wire.invalid`` with pydantic's (English) reason.
    """
    err = exc.errors(include_url=False)[0]
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    loc = ".".join(str(p) for p in err["loc"])
    field = str(ctx.pop("field", "") or loc or "?")
    kind = str(err["type"])
    if kind in TEXTS:
        return kind, {"message": message, "field": field, **ctx}
    if kind == "greater_than_equal":
        return "wire.too-small", {
            "message": message,
            "field": field,
            "value": err["input"],
            "least": ctx["ge"],
        }
    if kind == "missing":
        return "wire.missing", {"message": message, "field": field}
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "wire.not-int", {"message": message, "field": field}
    if kind in ("enum", "literal_error") and "expected" in ctx:
        return "wire.not-one-of", {"message": message, "field": field, "expected": str(ctx["expected"])}
    if kind == "too_long" and "max_length" in ctx:
        n = len(err["input"]) if isinstance(err["input"], list | tuple) else ctx.get("actual_length")
        return "wire.too-many", {"message": message, "field": field, "n": n, "most": ctx["max_length"]}
    return "wire.invalid", {"message": message, "field": field, "reason": str(err["msg"])}


__all__ = ["TEXTS", "JsonMessageError", "MalformedError", "WireError", "from_validation"]
