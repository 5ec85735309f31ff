"""argparse in the referee's language: the words argparse itself prints, in one place.

Every ``duelclock`` parser is a :class:`Parser` — the top-level one directly, the
subcommands' because ``add_subparsers`` makes its parsers of the parent's class. The
subcommands write their own help texts with :func:`clockd.i18n.tr`; this class supplies
argparse's: the "usage:" prefix, the "positional arguments" and "options" headings, the
help of ``-h/--help`` and ``--version``, and "error:" with the common error messages.

The language is read when a parser is built (``build_parser()`` at each ``main()``),
like every other ``tr()`` text of the command line.

argparse composes its error messages from English templates (through gettext, which
this project does not touch: that is global state of the whole process). In Polish,
:func:`polish_error` recognises those templates and says them in Polish; a message it
does not know (a newer Python's wording, a type's own sentence) is printed as it is.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from clockd.i18n import language, text


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the "usage:" prefix in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        if prefix is None:
            prefix = text("cli.parser.usage")
        super().add_usage(usage, actions, groups, prefix)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own words (headings, ``-h``, ``--version``, errors) follow ``tr()``."""

    def __init__(self, *, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(add_help=False, **kwargs)
        self.add_help = add_help
        self._positionals.title = text("cli.parser.positional-arguments")
        self._optionals.title = text("cli.parser.options")
        if add_help:
            prefix = "-" if "-" in self.prefix_chars else self.prefix_chars[0]
            self.add_argument(
                prefix + "h",
                prefix * 2 + "help",
                action="help",
                default=argparse.SUPPRESS,
                help=text("cli.parser.show-this-help-message-and-exit"),
            )

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("action") == "version":
            kwargs.setdefault(
                "help",
                text("cli.parser.show-programs-version-number-and-exit"),
            )
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        if language() != "en":
            message = polish_error(message)
        self.exit(2, f"{self.prog}: {text('cli.parser.error')}: {message}\n")


def _invalid_value(m: re.Match[str]) -> str:
    kind = {"int": "liczbą całkowitą", "float": "liczbą"}.get(m["type"])
    if kind is None:
        return f"nieprawidłowa wartość: {m['value']}"
    return f"{m['value']} nie jest {kind}"


#: argparse's English templates (Python 3.11-3.13) and what a Polish referee reads instead.
_POLISH: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.DOTALL), polish)
    for pattern, polish in (
        (r"the following arguments are required: (?P<x>.*)", "wymagane są argumenty: {x}"),
        (r"unrecognized arguments: (?P<x>.*)", "nierozpoznane argumenty: {x}"),
        (r"one of the arguments (?P<x>.*) is required", "wymagany jest jeden z argumentów: {x}"),
        (
            r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)",
            "nieprawidłowy wybór: {value} (do wyboru: {choices})",
        ),
        (r"invalid (?P<type>\S+) value: (?P<value>.*)", _invalid_value),
        (r"expected one argument", "wymaga jednej wartości"),
        (r"expected at most one argument", "przyjmuje najwyżej jedną wartość"),
        (r"expected at least one argument", "wymaga co najmniej jednej wartości"),
        (r"expected (?P<n>\d+) arguments?", "wymaga wartości w liczbie: {n}"),
        (r"not allowed with argument (?P<x>.*)", "nie można łączyć z argumentem {x}"),
        (r"ignored explicit argument (?P<x>.*)", "ta opcja nie przyjmuje wartości (podano {x})"),
        (
            r"ambiguous option: (?P<option>.*) could match (?P<matches>.*)",
            "niejednoznaczna opcja: {option} pasuje do {matches}",
        ),
    )
)

_ARGUMENT = re.compile(r"argument (?P<name>.+?): (?P<message>.*)", re.DOTALL)


def polish_error(message: str) -> str:
    """argparse's error ``message`` in Polish, or as it is when it is not one of argparse's own."""
    about = _ARGUMENT.fullmatch(message)
    if about is not None:
        return f"argument {about['name']}: {_polish(about['message'])}"
    return _polish(message)


def _polish(message: str) -> str:
    for pattern, polish in _POLISH:
        m = pattern.fullmatch(message)
        if m is not None:
            return polish(m) if callable(polish) else polish.format(**m.groupdict())
    return message
