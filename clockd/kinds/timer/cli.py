"""The hall timer's words under ``duelclock event``: its clock and its stations' finishes.

``duelclock event start sztafeta`` is ``timer-start``; the options of each word are its
action's fields (:mod:`clockd.cli.described`). The relay, blind, team and S(witcher) events
hold the same hall clock, so the words serve them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clockd.cli.described import Verb

#: No top-level word of its own: the timer's commands are ``duelclock event``'s.
COMMANDS: dict[str, str] = {}


def event_verbs() -> tuple[Verb, ...]:
    """The short words, each one action, its fields typed by position as listed."""
    import clockd.core.hall  # noqa: F401  (its actions, which the words name)
    from clockd.cli.described import Verb

    return (
        Verb("start", "timer-start"),
        Verb("pause", "timer-pause"),
        Verb("resume", "timer-resume"),
        Verb("end", "timer-end"),
        Verb("adjust", "timer-adjust", ("delta_ms",)),
        Verb("unfinish", "entry-unfinish", ("entry",)),
    )
