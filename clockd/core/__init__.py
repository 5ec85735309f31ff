"""The pure domain of duelclock: time is an argument here, never read; nothing does I/O.

* :mod:`clockd.core.units` — integer time units.
* :mod:`clockd.core.display` — how a time is rounded for a person or a rule (once).
* :mod:`clockd.core.timecontrol` — sudden death, increment, delays, multi-stage controls.
* :mod:`clockd.core.clock` — the two-sided clock as immutable, replayable state.
"""

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
