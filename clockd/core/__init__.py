"""The pure domain of duelclock: time is an argument here, never read; nothing does I/O.

* :mod:`clockd.core.units` — integer time units.
* :mod:`clockd.core.display` — how a time is rounded for a person or a rule (once).
* :mod:`clockd.core.timecontrol` — sudden death, increment, delays, multi-stage controls.
* :mod:`clockd.core.clock` — the two-sided clock as immutable, replayable state.

The names below are the clock's, looked up on first use (``from clockd.core import Pause``):
importing a part of the core (the Swiss engine, the ids) does not build the clock's models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clockd.core.clock import (
        Adjust,
        ClockError,
        ClockInput,
        ClockState,
        ClockView,
        Outcome,
        Pause,
        PerSide,
        Phase,
        Press,
        Resume,
        Side,
        Start,
        replay,
    )
    from clockd.core.display import format_clock, quantize, same_time
    from clockd.core.timecontrol import DelayMode, Stage, TimeControl

#: Where each name of :data:`__all__` is defined.
_HOMES = {
    **dict.fromkeys(
        [
            "Adjust",
            "ClockError",
            "ClockInput",
            "ClockState",
            "ClockView",
            "Outcome",
            "Pause",
            "PerSide",
            "Phase",
            "Press",
            "Resume",
            "Side",
            "Start",
            "replay",
        ],
        "clockd.core.clock",
    ),
    **dict.fromkeys(["format_clock", "quantize", "same_time"], "clockd.core.display"),
    **dict.fromkeys(["DelayMode", "Stage", "TimeControl"], "clockd.core.timecontrol"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "Adjust",
    "ClockError",
    "ClockInput",
    "ClockState",
    "ClockView",
    "DelayMode",
    "Outcome",
    "Pause",
    "PerSide",
    "Phase",
    "Press",
    "Resume",
    "Side",
    "Stage",
    "Start",
    "TimeControl",
    "format_clock",
    "quantize",
    "replay",
    "same_time",
]
