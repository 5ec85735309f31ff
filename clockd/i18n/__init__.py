"""One voice: every sentence a person reads comes from one message catalogue (DESIGN.md, principle 11).

The users are Polish referees and arbiters, so Polish is the default and English is one
switch away (``DUELCLOCK_LANG=en``, or :func:`set_language`). Two kinds of text:

* **Messages with a code.** Every refusal, error, alert and domain term — from the core,
  the daemon, the drivers, the CLI, the reports — is a :class:`Msg`: a stable ``code``
  (``table.unknown``, ``bracket.no-result``, ``term.round.final``) and its parameters.
  It travels as data (in exceptions, API replies, views, the journal) and is rendered by
  whoever shows it, in *their* language, from the catalogue
  (``clockd/i18n/locale/pl/LC_MESSAGES/duelclock.po``: a gettext catalogue, ``msgctxt`` =
  the code, ``msgid`` = the English text, ``msgstr`` = the Polish text; read with Babel).
  So the journal never holds a Polish sentence, and a Polish referee never reads an
  English one.
* **The command line's own help** (``--help`` texts) comes from the same catalogue
  (``cli.*`` codes), so a referee's terminal reads like their desk.

An error a person may read is a :class:`Problem` (or a subclass, e.g. the clock's
``ClockError``): ``str(problem)`` is the English sentence (for logs and developers),
``problem.msg`` the message to render for the user.

Usage::

    from clockd.i18n import Msg, Problem, render, text
    raise Problem("table.unknown", table=99, known="1–8")
    print(render(exc.msg))                # "nie ma stolika 99 (stoliki: 1–8)"
    print(text("cli.status.table"))       # "Stolik"
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pydantic is asked for a message's schema only when a model holds one
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic_core import CoreSchema

LANGUAGES = ("pl", "en")
_language: str | None = None


def language() -> str:
    """The current language: set by :func:`set_language`, else ``DUELCLOCK_LANG``, else Polish."""
    if _language is not None:
        return _language
    env = os.environ.get("DUELCLOCK_LANG", "").strip().lower()[:2]
    return env if env in LANGUAGES else "pl"


def set_language(lang: str | None) -> None:
    global _language
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _language = lang


#: What a message parameter may be: plain values, another message (rendered in the same
#: language), or a list of them (rendered joined by commas).
Param = Any

_PLAIN = (bool, int, float, str, type(None))


def _param(value: Any) -> Any:
    """A parameter as a message keeps it: plain JSON data, so that a message is the same
    value before and after the wire. A nested message is kept as the object JSON has for it
    (``{"code": …, "params": {…}}``; :func:`render` renders it), a path as its text, a
    tuple as a list, an exception as its message (or the system's reason: so that
    ``problem=exc`` reads in the reader's language, see :mod:`clockd.i18n.reasons`),
    anything else as its text.

    Written out rather than declared as a recursive union of types: a view carries a dozen
    messages, and validating nested models cost five times as much, on every push.
    """
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Msg):
        return {"code": value.code, "params": value.params}
    if isinstance(value, dict) and isinstance(value.get("code"), str):
        params = value.get("params") or {}
        if not isinstance(params, dict):
            raise ValueError(f"a nested message's params must be an object, not {params!r}")
        return {"code": value["code"], "params": {str(k): _param(v) for k, v in params.items()}}
    if isinstance(value, list | tuple):
        return [_param(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, BaseException):  # its message, or the system's reason, as a nested message
        from clockd.i18n.reasons import error_msg

        return _param(error_msg(value))
    return str(value)  # anything else as it reads: a message never fails


class Msg:
    """A sentence to show a person, as data: a catalogue ``code`` and its ``params``.

    Rendered by :func:`render` in the reader's language. Parameters are named as the
    catalogue's placeholders (``{table}``); a placeholder may carry a format
    (``{left_ms:clock}`` shows milliseconds as a clock face does; see
    :mod:`clockd.i18n.catalogue`). In JSON a message is ``{"code": …, "params": {…}}``.

    An immutable value with its own small pydantic schema rather than a pydantic model:
    every view carries a dozen of them (the reasons of refused actions), on every push,
    and a model's validation cost as much as the rest of the view.
    """

    __slots__ = ("code", "params")
    code: str
    params: dict[str, Param]

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        if not isinstance(code, str) or not 0 < len(code) <= 100:
            raise ValueError(f"a message code is a text of 1 to 100 characters, not {code!r}")
        if params is not None and not isinstance(params, Mapping):
            raise ValueError(f"a message's params are an object, not {params!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", {str(k): _param(v) for k, v in (params or {}).items()})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a message cannot be changed")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and self.code == other.code and self.params == other.params

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        return f"Msg(code={self.code!r}, params={self.params!r})"

    def __str__(self) -> str:
        return render(self, "en")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg, (self.code, self.params))

    # -- as data ------------------------------------------------------------------------------
    def model_dump(self, **_: Any) -> dict[str, Any]:
        """The message as JSON has it (named as pydantic's, so a message dumps like a model)."""
        return {"code": self.code, "params": self.params}

    @classmethod
    def model_validate(cls, data: Any) -> Msg:
        """A message from its JSON object (or a message)."""
        if isinstance(data, Msg):
            return data
        if not isinstance(data, Mapping) or "code" not in data:
            raise ValueError(f"a message is an object with a code, not {data!r}")
        extra = set(data) - {"code", "params"}
        if extra:
            raise ValueError(f"a message has only a code and params, not {sorted(extra)}")
        return cls(data["code"], data.get("params"))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            cls.model_validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda m: {"code": m.code, "params": m.params}, return_schema=core_schema.dict_schema()
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"code": {"type": "string"}, "params": {"type": "object"}},
            "required": ["code"],
        }


def msg(code: str, /, **params: Any) -> Msg:
    """``Msg(code=code, params=params)``, shorter."""
    return Msg(code=code, params=params)


class Problem(ValueError):
    """An error a person reads: ``msg`` is the message, ``str(problem)`` its English sentence.

    ``Problem("clock.not-paused", table=3)`` or ``Problem(some_msg)``. Subclasses name the
    layer that refused (``ClockError``, ``BracketError``, ``Refused`` …) so callers can
    catch what they expect; the text comes from the code either way.
    """

    def __init__(self, message: Msg | str, /, **params: Any) -> None:
        self.msg = message if isinstance(message, Msg) else Msg(code=message, params=params)
        super().__init__(self.msg.code)

    def __str__(self) -> str:  # rendered when read: a refusal caught and handled costs no text
        return render(self.msg, "en")

    @property
    def code(self) -> str:
        return self.msg.code


def render(message: Msg | str | Mapping[str, Any], lang: str | None = None, /, **params: Any) -> str:
    """``message`` (a :class:`Msg`, its JSON object, or a code with ``params``) in ``lang``
    (default: the current one).

    An unknown code is shown as the code with its parameters, never as nothing: a newer
    daemon's message still tells the referee something.
    """
    from clockd.i18n.catalogue import catalogue

    if isinstance(message, str):
        message = msg(message, **params)
    elif not isinstance(message, Msg):
        message = Msg.model_validate(message)
    return catalogue().render(message, lang or language())


def text(code: str, /, **params: Any) -> str:
    """The catalogue's text for ``code`` in the current language (a term or a sentence)."""
    return render(msg(code, **params))


def render_error(exc: BaseException, lang: str | None = None) -> str:
    """What to tell a person about ``exc``: its message if it has one (a :class:`Problem`, or
    anything with ``code`` and ``params`` attributes, as the wire protocol's errors), an
    operating system's or SQLite's reason from the catalogue (:mod:`clockd.i18n.reasons`),
    else the exception's own text."""
    from clockd.i18n.reasons import error_msg

    found = error_msg(exc)
    return render(found, lang) if isinstance(found, Msg) else found


__all__ = [
    "LANGUAGES",
    "Msg",
    "Param",
    "Problem",
    "language",
    "msg",
    "render",
    "render_error",
    "set_language",
    "text",
]
