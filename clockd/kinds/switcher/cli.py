"""The S(witcher)'s words under ``duelclock event``: who sits where, a replacement, a table done.

``duelclock event seat zmiana 3 "Anna K."`` is ``switcher-seat``; the options of each word
are its action's fields (:mod:`clockd.cli.described`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clockd.cli.described import Verb

#: No top-level word of its own: the rotation's commands are ``duelclock event``'s.
COMMANDS: dict[str, str] = {}


def event_verbs() -> tuple[Verb, ...]:
    """The short words, each one action, its fields typed by position as listed."""
    import clockd.core.switcher  # noqa: F401  (its actions, which the words name)
    from clockd.cli.described import Verb

    return (
        Verb("seat", "switcher-seat", ("seat", "name")),
        Verb("replace", "switcher-replace", ("seat", "name")),
        Verb("done", "switcher-table-done", ("table",)),
        Verb("undone", "switcher-table-undone", ("table",)),
    )
