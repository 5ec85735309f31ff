"""How a remaining time is shown to a person and compared by a rule — defined once, here.

A chess clock counts down and **rounds up**: with 4:59.3 left it shows ``5:00``, and it
shows ``0:00`` only when no time is left at all. A player therefore never has more time
than the display says (at most a fraction less), and "0:00" means the flag has fallen.
This is how tournament clocks behave (set G/5, start it: 5:00 stays up for a full
second), so it is what the referee and the audience expect to see.

The same quantisation decides "the same time on both clocks" in a puzzle duel
(RULES.md §2.2.17): two remaining times are equal at a resolution when they fall into the
same displayed step. The default resolution is the whole second the clock displays; a
tournament may choose a finer one, down to the millisecond.

Everything that shows or compares a time calls :func:`quantize` or :func:`format_clock`;
nothing else rounds. Exact figures (a timeline's offsets) are written by :func:`format_exact_ms`.
The texts themselves (``m:ss``, exact and signed figures) are :mod:`clockd.i18n.durations`',
below the core, because the message catalogue writes the same figures into its sentences
(``{left:clock}``, rounded up to the second as here) and must not import the core back.
"""

from __future__ import annotations

from clockd.core.units import MS, SECOND
from clockd.i18n.durations import clock_face, format_delta_ms, format_exact_ms

__all__ = [
    "DEFAULT_RESOLUTION_NS",
    "format_clock",
    "format_delta_ms",
    "format_exact_ms",
    "quantize",
    "same_time",
]

#: The default resolution: whole seconds, what a clock displays.
DEFAULT_RESOLUTION_NS = SECOND


def quantize(remaining_ns: int, resolution_ns: int = DEFAULT_RESOLUTION_NS) -> int:
    """The displayed step of ``remaining_ns`` at ``resolution_ns``: ceil(remaining / resolution).

    Negative values (which the clock never produces) are treated as zero.
    """
    if resolution_ns <= 0:
        raise ValueError(f"resolution must be a positive number of nanoseconds, not {resolution_ns}")
    if remaining_ns <= 0:
        return 0
    return -(-remaining_ns // resolution_ns)


def same_time(a_ns: int, b_ns: int, resolution_ns: int = DEFAULT_RESOLUTION_NS) -> bool:
    """Whether two remaining times count as "exactly the same" at this resolution."""
    return quantize(a_ns, resolution_ns) == quantize(b_ns, resolution_ns)


def format_clock(remaining_ns: int, *, tenths_below_ns: int | None = None) -> str:
    """Text a clock face shows: ``m:ss`` (``h:mm:ss`` from one hour), rounded up.

    With ``tenths_below_ns`` set (e.g. 20 s), times under it show tenths: ``0:19.4``.
    """
    if tenths_below_ns is not None and 0 < remaining_ns < tenths_below_ns:
        tenths = quantize(remaining_ns, 100 * MS)
        seconds, tenth = divmod(tenths, 10)
        minutes, seconds = divmod(seconds, 60)
        return f"{minutes}:{seconds:02d}.{tenth}"
    return clock_face(quantize(remaining_ns, SECOND))
