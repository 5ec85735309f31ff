"""How a duration reads: ``4:59``, ``1:02:03``, ``4:59.250``, ``−0:30`` — one text for all.

The catalogue's ``{left:clock}`` / ``{gone:gone}`` / ``{time:exact}`` placeholders and the
core's clock faces (:func:`clockd.core.display.format_clock`) write the same figures, so
they share these functions. They live here, below the core: the catalogue is what the core
raises its messages through, and it must not import the core back (the layering contract
"the catalogue stands below the core"). Plain integers in, text out; nothing else imported.
"""

from __future__ import annotations


def clock_face(seconds: int) -> str:
    """Whole seconds as a clock face shows them: ``m:ss``, ``h:mm:ss`` from one hour."""
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def format_exact_ms(ms: int) -> str:
    """``m:ss.mmm`` (``h:mm:ss.mmm`` from an hour) of a recorded duration: exact, never rounded.

    For timelines and disputes, where the referee reads the journal's own figures (a clock
    face's rounding is :func:`clockd.core.display.format_clock`).
    """
    sign = "-" if ms < 0 else ""
    seconds, milli = divmod(abs(ms), 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{seconds:02d}.{milli:03d}"
    return f"{sign}{minutes}:{seconds:02d}.{milli:03d}"


def format_delta_ms(delta_ms: int) -> str:
    """A time adjustment as a referee writes it: −0:30, +1:00, −0:00.500 (exact, always signed)."""
    sign = "−" if delta_ms < 0 else "+"
    seconds, milli = divmod(abs(delta_ms), 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"{sign}{minutes}:{seconds:02d}" + (f".{milli:03d}" if milli else "")


def format_duration_ms(ms: int, spec: str) -> str:
    """A placeholder's milliseconds in the catalogue's format ``spec``.

    ``clock``: a clock face, rounded up to the second (what a count-down shows);
    ``gone``: a count-up, whole seconds gone, rounded down (it shows 0:01 after a second);
    ``exact``: :func:`format_exact_ms`; ``s``: seconds with the milliseconds that are there
    (``90.5``). Negative values read with a leading ``-``.
    """
    sign = "-" if ms < 0 else ""
    whole, part = divmod(abs(ms), 1000)
    if spec == "clock":
        return sign + clock_face(-(-abs(ms) // 1000))
    if spec == "gone":
        return sign + clock_face(whole)
    if spec == "exact":
        return sign + format_exact_ms(abs(ms))
    return f"{sign}{whole}" + (f".{part:03d}".rstrip("0") if part else "")
