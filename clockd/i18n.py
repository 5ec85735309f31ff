"""Polish first, English available — for the command line's human-readable text.

The users are Polish referees, so headings, status tables and prompts of ``duelclock``
speak Polish unless ``DUELCLOCK_LANG=en`` (or ``--lang en`` where a command offers it)
says otherwise. Machine output (JSON keys, CSV headers meant for other programs) and
developer-facing exception texts stay in English. The GUI uses Qt's own translation
files (``gui/i18n``); this is the small equivalent for the terminal.

Usage::

    from clockd.i18n import tr
    print(tr(pl="Stolik", en="Table"))
"""

from __future__ import annotations

import os

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
    """The text in the current language."""
    return en if language() == "en" else pl
