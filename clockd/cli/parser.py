"""argparse in the referee's language: argparse's own words come from the catalogue too.

Every ``duelclock`` parser is a :class:`Parser` — the top-level one directly, the
subcommands' because ``add_subparsers`` makes its parsers of the parent's class. The
subcommands write their own help texts with :func:`clockd.i18n.text`; argparse's own words
— the "usage:" prefix, the "positional arguments" and "options" headings, the help of
``-h/--help``, "error:" and its error messages — it asks gettext for
(``from gettext import gettext as _, ngettext``, at its import), with its English sentence
as the message id.

:func:`install` answers those calls from the project's catalogue: the entries listed in
:data:`ARGPARSE_MESSAGES` have argparse's exact message ids as their English text
(``%s``/``%(name)s`` placeholders, which argparse fills after translating), and their
Polish as the translation. A message id the catalogue does not list (a newer Python's
wording, a programming error's text) goes to gettext as before, so it reads as argparse
wrote it. Nothing is rewritten after the fact: what argparse says is looked up, as
gettext would.

The language is read when argparse asks (at a parser's building, its help, its error),
like every other text of the command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from clockd.i18n import language, text

#: The catalogue's entries whose English text is one of argparse's message ids (Python
#: 3.11–3.13): the words argparse prints to a user. ``cli.parser.expected-n-arguments`` is a
#: plural (argparse asks ``ngettext``).
ARGPARSE_MESSAGES = (
    "cli.parser.usage",
    "cli.parser.positional-arguments",
    "cli.parser.options",
    "cli.parser.show-this-help-message-and-exit",
    "cli.parser.error",
    "cli.parser.argument",
    "cli.parser.the-following-arguments-are-required",
    "cli.parser.one-of-the-arguments-is-required",
    "cli.parser.unrecognized-arguments",
    "cli.parser.invalid-choice",
    "cli.parser.invalid-value",
    "cli.parser.expected-one-argument",
    "cli.parser.expected-at-most-one-argument",
    "cli.parser.expected-at-least-one-argument",
    "cli.parser.expected-n-arguments",
    "cli.parser.not-allowed-with-argument",
    "cli.parser.ignored-explicit-argument",
    "cli.parser.ambiguous-option",
    "cli.parser.unexpected-option-string",
    "cli.parser.unknown-parser",
    "cli.parser.cannot-open",
)

_by_msgid: dict[str, str] | None = None
_original: tuple[Callable[[str], str], Callable[[str, str, int], str]] | None = None


def _codes() -> dict[str, str]:
    """argparse's message id (the singular, for a plural) → the catalogue's code for it."""
    global _by_msgid
    if _by_msgid is None:
        from clockd.i18n.catalogue import catalogue

        entries = catalogue().entries
        _by_msgid = {entries[code].en[0]: code for code in ARGPARSE_MESSAGES}
    return _by_msgid


def gettext(message: str) -> str:
    """argparse's ``_()``: ``message`` in the current language, if the catalogue has it."""
    code = _codes().get(message) if isinstance(message, str) else None
    if code is None:
        return _original[0](message) if _original is not None else message
    from clockd.i18n.catalogue import catalogue

    return catalogue().template(code, language()) or message


def ngettext(singular: str, plural: str, n: int) -> str:
    """argparse's ``ngettext()``: the form for ``n`` in the current language (Polish has three)."""
    code = _codes().get(singular)
    if code is None:
        return (
            _original[1](singular, plural, n) if _original is not None else (singular if n == 1 else plural)
        )
    from clockd.i18n.catalogue import catalogue

    return catalogue().template(code, language(), n) or (singular if n == 1 else plural)


def install() -> None:
    """Answer argparse's gettext calls from the catalogue (once; the same for every parser).

    argparse holds its ``_`` and ``ngettext`` as module globals, looked up at each call: they
    are its translation hook. Messages the catalogue does not list still go to the
    functions argparse had.
    """
    global _original
    if _original is None:
        hook = vars(argparse)  # the module's globals (the stubs do not declare these two)
        _original = (hook["_"], hook["ngettext"])
        hook["_"], hook["ngettext"] = gettext, ngettext


def _number(kind: type[int] | type[float], code: str) -> Callable[[str], int | float]:
    """``kind`` as an argument's type, refusing a text with the catalogue's sentence for it
    ("'x' nie jest liczbą całkowitą"), where argparse's would name the Python type."""

    def convert(value: str) -> int | float:
        try:
            return kind(value)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(text(code, value=repr(value))) from None

    convert.__name__ = kind.__name__
    return convert


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own words (headings, ``-h``, ``--version``, errors) are the catalogue's."""

    def __init__(self, **kwargs: Any) -> None:
        install()  # before argparse names its headings and ``-h``, below
        super().__init__(**kwargs)
        # int and float are argparse's own types: a refusal says "not an integer" in the
        # reader's words (argparse's own sentence would name the Python type, ``int``)
        self.register("type", int, _number(int, "cli.parser.invalid-int"))
        self.register("type", float, _number(float, "cli.parser.invalid-float"))

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("action") == "version":  # argparse does not ask gettext for this one
            kwargs.setdefault("help", text("cli.parser.show-programs-version-number-and-exit"))
        return super().add_argument(*args, **kwargs)
