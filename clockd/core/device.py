"""What the domain says to and about a device: what it shows, what it sounds, what state it is in.

A table's device may be a two-faced USB-serial clock, two buttons with LEDs and a buzzer
on a Raspberry Pi, or a simulation. What it should show depends on the *program* the
table runs (:mod:`clockd.core.program`), not on the device:

* :class:`TwoClocks` — both players' times and whose runs (a duel, a chess game);
* :class:`Countdown` — one time: a hall event's time left, or its time so far;
* :class:`Text` — a line of text ("ZMIANA", "META 12:31", a table's name).

A device shows what it can of that: a clock with a display shows it all; a GPIO table
lights the running side's LED for two clocks and nothing for a countdown. Texts are
rendered by the daemon in its own language before they are sent (a device is no reader
with a language of its own) and are at most :data:`TEXT_MAX` characters, what the
serial protocol's text field carries.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from clockd.core.clock import PerSide, Side
from clockd.i18n import Msg

#: The longest text a device is sent (the wire protocol's ``str8 ≤ 64``).
TEXT_MAX = 64


class _Face(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TwoClocks(_Face):
    """Both times, rounded up to the millisecond, and the side whose time runs (``None``: stopped)."""

    kind: Literal["two-clocks"] = "two-clocks"
    remaining_ms: PerSide[int]
    running: Side | None = None
    text: str = Field(default="", max_length=TEXT_MAX)


class Countdown(_Face):
    """One time: ``ms`` left (or, with ``up``, gone so far); ``running``: it changes by itself."""

    kind: Literal["countdown"] = "countdown"
    ms: int = Field(ge=0)
    running: bool = False
    up: bool = False
    text: str = Field(default="", max_length=TEXT_MAX)


class Text(_Face):
    kind: Literal["text"] = "text"
    text: str = Field(max_length=TEXT_MAX)


#: What a device is asked to show.
Display = Annotated[TwoClocks | Countdown | Text, Field(discriminator="kind")]


class Beep(StrEnum):
    """The signals a device can sound (a buzzer pattern, a clock's beeper)."""

    SHORT = "short"
    FLAG = "flag"  # a time ran out
    TIE = "tie"
    CHANGE = "change"  # a hall signal: the relay's "ZMIANA", a rotation's move


class DeviceState(StrEnum):
    """The one state a table's device is in, from the driver to the screen.

    ``none``: no device is attached to the table; ``unknown``: attached, not heard from
    since the daemon started; then what the driver last reported.
    """

    NONE = "none"
    UNKNOWN = "unknown"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"


def _as_detail(value: Any) -> Any:
    """A detail an older duelclock journaled (or sent) as text, in its daemon's language, is
    shown as it was written: the journal is not rewritten."""
    if isinstance(value, str):
        return Msg("device.as-recorded", {"text": value}) if value else None
    return value


#: What a referee needs to know of a table's device — its firmware and time source, why it
#: went away — as a message (``driver.serial.*``, ``driver.gpio.*``): the driver says it as
#: data, the journal keeps it as data, and whoever shows it renders it in their reader's
#: language. ``None``: nothing to say.
DeviceDetail = Annotated[Msg | None, BeforeValidator(_as_detail)]


def fit_text(text: str) -> str:
    """``text`` cut to what a device can show."""
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"


__all__ = ["TEXT_MAX", "Beep", "Countdown", "DeviceState", "Display", "Text", "TwoClocks", "fit_text"]
