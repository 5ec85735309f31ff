"""The daemon's parts, put together: the event kinds it hosts and the components that hold them.

Importing a kind's module registers it (:func:`clockd.service.events.event_kind`), and
:func:`default_components` hands the :class:`~clockd.service.events.EventHost` component
holding all of them to the daemon. A kind that is a package (:mod:`clockd.kinds`: built in,
or found through ``DUELCLOCK_KINDS``) is loaded by its ``service`` layer, with no line here;
the kinds still named below move into packages one by one.
"""

from __future__ import annotations

import clockd.service.chess  # the school chess day's groups
import clockd.service.chess_desk  # its registration desk's hand decisions
import clockd.service.puzzle  # the Puzzle Duel
import clockd.service.switcher  # the S(witcher) rotation
import clockd.service.timed  # timed hall events
import clockd.service.zone  # noqa: F401  (the zone's contests: relay, blind, team)
from clockd import kinds
from clockd.service.component import Component
from clockd.service.events import EventHost
from clockd.service.nodes import Nodes


def default_components() -> list[Component]:
    """Fresh components for a daemon: every registered event kind in one host, and the table
    nodes (idle on one machine; the desk's rows from its nodes, ``docs/mqtt.md``)."""
    kinds.load("service")
    return [EventHost(), Nodes()]
