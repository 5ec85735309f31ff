"""The zone contests' words under ``duelclock event``: entries, splits, counts, missing pieces, voids.

``duelclock event add sztafeta para-3`` is ``entry-add``; the options of each word are its
action's fields (:mod:`clockd.cli.described`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clockd.cli.described import Verb

#: No top-level word of its own: the contests' commands are ``duelclock event``'s.
COMMANDS: dict[str, str] = {}


def event_verbs() -> tuple[Verb, ...]:
    """The short words, each one action, its fields typed by position as listed."""
    import clockd.core.zone  # noqa: F401  (its actions, which the words name)
    from clockd.cli.described import Verb

    return (
        Verb("add", "entry-add", ("entry",)),
        Verb("checkout", "entry-check-out", ("entry",)),
        Verb("close", "entries-close"),
        Verb("reopen", "entries-reopen"),
        Verb("table", "entry-table", ("entry", "table")),
        Verb("split", "entry-split", ("entry",)),
        Verb("missing", "entry-missing", ("entry", "missing")),
        Verb("void", "entry-void", ("entry",)),
        Verb("unvoid", "entry-unvoid", ("entry",)),
        Verb("confirm", "zone-confirm"),
    )
