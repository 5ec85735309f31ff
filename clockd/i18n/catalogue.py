"""The message catalogue: a gettext ``.po`` file, read once with Babel, rendering :class:`Msg` values.

The file is ``locale/pl/LC_MESSAGES/duelclock.po`` beside this module: for every code one
entry whose ``msgctxt`` is the code, ``msgid`` the English text and ``msgstr`` the Polish
text — so translators' tools (Poedit, Weblate, ``msgfmt --check``) work on it as on any
gettext catalogue, and both languages of a message sit together. Entries with a plural
(``msgid_plural``) choose their form by the parameter ``n``, with the catalogue's own
``Plural-Forms`` rule (Polish has three: 1 zawodnik, 2 zawodnicy,
5 zawodników).

Placeholders are Python's ``{name}``; a format after a colon says how to show a value:

============ ==========================================================================
``{x}``      the value (a message is rendered in the same language; a list is joined
             by commas)
``{x:clock}`` milliseconds as a clock face shows them (``4:59``, rounded up)
``{x:gone}``  milliseconds gone, as a count-up shows them (``0:59``, rounded down)
``{x:exact}`` milliseconds exactly (``4:59.001``), for disputes
``{x:s}``    milliseconds as seconds with up to three decimals (``-30``, ``1.5``)
``{x:lines}`` a list, one item per line (indented), after a line break
============ ==========================================================================
"""

from __future__ import annotations

import gettext
import marshal
import os
import string
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clockd.i18n import Msg
from clockd.i18n.durations import format_duration_ms

#: Where the catalogue lives, inside the package.
CATALOGUE_FILE = ("locale", "pl", "LC_MESSAGES", "duelclock.po")


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One code's texts: English and Polish, each one form (or the forms of a plural)."""

    code: str
    en: tuple[str, ...]
    pl: tuple[str, ...]

    @property
    def plural(self) -> bool:
        return len(self.en) > 1


class CatalogueError(RuntimeError):
    """The catalogue file cannot be read (a packaging or editing mistake)."""


class Catalogue:
    """Every code's texts, and how to render a :class:`Msg` with them."""

    def __init__(self, entries: Mapping[str, CatalogueEntry], plural_pl: Callable[[int], int]) -> None:
        self.entries = dict(entries)
        self.plural_pl = plural_pl
        self._plural: dict[str, Callable[[int], int]] = {"pl": plural_pl, "en": _english_plural}
        self._formatter = _Formatter(self)
        self._rendered: dict[tuple[Msg, str], str] = {}

    def __contains__(self, code: object) -> bool:
        return code in self.entries

    def codes(self) -> Iterator[str]:
        return iter(sorted(self.entries))

    def template(self, code: str, lang: str, n: int | None = None) -> str | None:
        entry = self.entries.get(code)
        if entry is None:
            return None
        forms = entry.pl if lang == "pl" else entry.en
        if len(forms) == 1:
            return forms[0]
        index = self._plural[lang if lang == "pl" else "en"](abs(n or 0))
        return forms[min(index, len(forms) - 1)]

    def render(self, message: Msg, lang: str) -> str:
        """``message`` in ``lang``. The same message is rendered once per language and then
        remembered (a screen shows the same refusals after every press; messages are values)."""
        key = (message, lang)
        try:
            return self._rendered[key]
        except KeyError:
            pass
        except TypeError:  # a parameter that cannot be hashed: render it every time
            return self._render(message, lang)
        text = self._rendered[key] = self._render(message, lang)
        if len(self._rendered) > 4096:
            self._rendered.pop(next(iter(self._rendered)))
        return text

    def _render(self, message: Msg, lang: str) -> str:
        count = message.params.get("n")
        template = self.template(message.code, lang, count if isinstance(count, int) else None)
        if not template:  # unknown (a newer daemon's) or untranslated: the code says something
            if not message.params:
                return message.code
            shown = ", ".join(f"{k}={self._formatter.value(v, lang)}" for k, v in message.params.items())
            return f"{message.code} ({shown})"
        return self._formatter.render(template, message.params, lang)


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


class _Formatter(string.Formatter):
    """``str.format`` with the catalogue's formats, messages rendered in the same language."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._lang = threading.local()

    def render(self, template: str, params: Mapping[str, Any], lang: str) -> str:
        previous = getattr(self._lang, "value", None)
        self._lang.value = lang
        try:
            return self.vformat(template, (), _Missing(params))
        finally:
            self._lang.value = previous

    def value(self, value: Any, lang: str) -> str:
        if isinstance(value, Msg):
            return self.catalogue.render(value, lang)
        if isinstance(value, list | tuple):
            return ", ".join(self.value(v, lang) for v in value)
        if isinstance(value, dict) and "code" in value:  # a message that arrived as JSON
            return self.catalogue.render(Msg.model_validate(value), lang)
        if value is None:
            return "—"
        return str(value)

    def format_field(self, value: Any, format_spec: str) -> str:
        lang = getattr(self._lang, "value", None) or "pl"
        if (
            format_spec in ("clock", "gone", "exact", "s")
            and isinstance(value, int)
            and not isinstance(value, bool)
        ):
            return format_duration_ms(value, format_spec)
        if format_spec == "lines" and isinstance(value, list | tuple):
            return "".join("\n  " + self.value(v, lang) for v in value)
        if format_spec == "" or isinstance(value, Msg | list | tuple | dict) or value is None:
            return self.value(value, lang)
        try:
            return format(value, format_spec)
        except (TypeError, ValueError):
            return self.value(value, lang)


class _Missing(dict[str, Any]):
    """Parameters; a placeholder nobody filled shows as ``{name}`` instead of failing."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def parse(text: str) -> Catalogue:
    """Read a catalogue from the text of a ``.po`` file (Babel's reader)."""
    return _parse(text)[0]


def _parse(text: str) -> tuple[Catalogue, str]:
    """The catalogue of a ``.po`` file's text, and its Polish plural rule (C's expression)."""
    import io

    from babel.messages.pofile import read_po

    try:
        catalog = read_po(io.StringIO(text), locale="pl", charset="utf-8", abort_invalid=True)
    except Exception as exc:  # Babel raises its own PoFileError and ValueErrors
        raise CatalogueError(f"the message catalogue cannot be read: {exc}") from exc
    entries: dict[str, CatalogueEntry] = {}
    for message in catalog:
        if not message.id or not message.context:
            continue  # the header
        en = tuple(message.id) if isinstance(message.id, list | tuple) else (message.id,)
        pl_raw = message.string
        pl = tuple(pl_raw) if isinstance(pl_raw, list | tuple) else (pl_raw,)
        if message.context in entries:
            raise CatalogueError(f"the message catalogue defines {message.context!r} twice")
        entries[message.context] = CatalogueEntry(code=message.context, en=en, pl=tuple(p or "" for p in pl))
    expression = catalog.plural_expr or "(n != 1)"
    plural: Callable[[int], int] = gettext.c2py(expression)
    return Catalogue(entries, plural), expression


#: What a cached catalogue's file starts with (its format; a new one is read afresh).
_CACHE_FORMAT = "duelclock-catalogue-1"


def read(path: Path) -> Catalogue:
    """The catalogue of the ``.po`` file ``path``, through a cache beside it.

    Babel reads the whole catalogue in about 0.1 s, longer than the rest of a ``duelclock``
    command's start: so, as Python does with a module's bytecode, what it read is kept in
    ``__pycache__/`` next to the file (``marshal``: plain tuples and strings), valid while
    the file's size and modification time are the same, and read again only when they
    change. A folder that cannot be written (an installed package) costs the parse only.
    """
    stat = path.stat()
    stamp = (_CACHE_FORMAT, sys.implementation.cache_tag, stat.st_size, stat.st_mtime_ns)
    cache = path.parent / "__pycache__" / f"{path.name}.marshal"
    try:
        stored = marshal.loads(cache.read_bytes())
        if stored[0] == stamp:
            entries, expression = stored[1], stored[2]
            return Catalogue(
                {code: CatalogueEntry(code, en, pl) for code, en, pl in entries}, gettext.c2py(expression)
            )
    except (OSError, ValueError, EOFError, TypeError, IndexError):
        pass  # none yet, or not ours: parse the file
    catalogue, expression = _parse(path.read_text(encoding="utf-8"))
    data = (stamp, tuple((e.code, e.en, e.pl) for e in catalogue.entries.values()), expression)
    try:
        cache.parent.mkdir(exist_ok=True)
        partial = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(data))
        os.replace(partial, cache)  # whole or not at all, whoever reads it meanwhile
    except OSError:
        pass
    return catalogue


_CATALOGUE: Catalogue | None = None
_CATALOGUE_KINDS: tuple[object, ...] = ()
_LOCK = threading.Lock()


def catalogue() -> Catalogue:
    """The package's catalogue with every kind's sentences (read on first use, and again
    only if the kinds found change: a test adding a kind with ``DUELCLOCK_KINDS``)."""
    global _CATALOGUE, _CATALOGUE_KINDS
    from clockd import kinds

    found = kinds.packages()
    if _CATALOGUE is None or found is not _CATALOGUE_KINDS:
        with _LOCK:
            if _CATALOGUE is None or found is not _CATALOGUE_KINDS:
                source = resources.files("clockd.i18n").joinpath(*CATALOGUE_FILE)
                own = read(source) if isinstance(source, Path) else parse(source.read_text(encoding="utf-8"))
                _CATALOGUE = merged(own, *_kinds_catalogues())
                _CATALOGUE_KINDS = found
    return _CATALOGUE


def _kinds_catalogues() -> list[Catalogue]:
    """Each event kind's own sentences (its folder's ``messages.po``, :mod:`clockd.kinds`)."""
    from clockd import kinds

    out = []
    for path in kinds.files("messages.po"):
        try:
            out.append(read(path))
        except CatalogueError as exc:
            raise CatalogueError(f"{path}: {exc}") from None
    return out


def merged(first: Catalogue, *more: Catalogue) -> Catalogue:
    """One catalogue of several (the project's, then each kind's): a code defined twice is a
    mistake said at once, not a sentence silently replaced."""
    entries = dict(first.entries)
    for cat in more:
        for code, entry in cat.entries.items():
            if code in entries:
                raise CatalogueError(f"the message catalogue defines {code!r} twice")
            entries[code] = entry
    return Catalogue(entries, first.plural_pl)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses (``{table}`` → ``table``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def missing_texts(cat: Catalogue, languages: Sequence[str] = ("pl", "en")) -> list[str]:
    """Codes whose text is empty in one of ``languages`` (a test keeps this list empty)."""
    out = []
    for entry in cat.entries.values():
        for lang in languages:
            forms = entry.pl if lang == "pl" else entry.en
            if not forms or not all(f.strip() for f in forms):
                out.append(f"{entry.code} ({lang})")
    return out
