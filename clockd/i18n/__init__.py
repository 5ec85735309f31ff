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
* **The command line's own help** (``--help`` texts), written in place with :func:`tr`.
  They belong to one screen only and are tested to have both languages.

An error a person may read is a :class:`Problem` (or a subclass, e.g. the clock's
``ClockError``): ``str(problem)`` is the English sentence (for logs and developers),
``problem.msg`` the message to render for the user.

Usage::

    from clockd.i18n import Msg, Problem, render, tr
    raise Problem("table.unknown", table=99, known="1–8")
    print(render(exc.msg))                # "nie ma stolika 99 (stoliki: 1–8)"
    print(tr(pl="Stolik", en="Table"))
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Union

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

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


def tr(*, pl: str, en: str) -> str:
    """A text written in place in both languages (the command line's help), in the current one."""
    return en if language() == "en" else pl


#: What a message parameter may be: plain values, another message (rendered in the same
#: language), or a list of them (rendered joined by commas).
if TYPE_CHECKING:
    Param = Any
else:
    Param = TypeAliasType("Param", Union[bool, int, float, str, "Msg", list["Param"], None])


class Msg(BaseModel):
    """A sentence to show a person, as data: a catalogue ``code`` and its ``params``.

    Rendered by :func:`render` in the reader's language. Parameters are named as the
    catalogue's placeholders (``{table}``); a placeholder may carry a format
    (``{left_ms:clock}`` shows milliseconds as a clock face does; see
    :mod:`clockd.i18n.catalogue`).
    """

    model_config = ConfigDict(frozen=True)

    code: str = Field(min_length=1, max_length=100)
    params: dict[str, Param] = Field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, "en")


def msg(code: str, /, **params: Any) -> Msg:
    """``Msg(code=code, params=params)``, shorter; a path is given as its text (a file named)."""
    return Msg(
        code=code, params={k: os.fspath(v) if isinstance(v, os.PathLike) else v for k, v in params.items()}
    )


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


def render(message: Msg | str, lang: str | None = None, /, **params: Any) -> str:
    """``message`` (a :class:`Msg`, or a code with ``params``) in ``lang`` (default: the current one).

    An unknown code is shown as the code with its parameters, never as nothing: a newer
    daemon's message still tells the referee something.
    """
    from clockd.i18n.catalogue import catalogue

    if isinstance(message, str):
        message = msg(message, **params)
    return catalogue().render(message, lang or language())


def text(code: str, /, **params: Any) -> str:
    """The catalogue's text for ``code`` in the current language (a term or a sentence)."""
    return render(msg(code, **params))


def render_error(exc: BaseException, lang: str | None = None) -> str:
    """What to tell a person about ``exc``: its message if it has one (a :class:`Problem`, or
    anything with ``code`` and ``params`` attributes, as the wire protocol's errors), else
    the exception's own text."""
    found = getattr(exc, "msg", None)
    if isinstance(found, Msg):
        return render(found, lang)
    code, params = getattr(exc, "code", None), getattr(exc, "params", None)
    if isinstance(code, str) and isinstance(params, dict):
        return render(Msg(code=code, params=params), lang)
    return str(exc)


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
    "tr",
]
