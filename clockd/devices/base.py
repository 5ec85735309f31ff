"""The one small interface every clock device implements (DESIGN.md, principle 6).

A device — a USB-serial clock, two GPIO buttons on a Raspberry Pi, a DGT clock, an
in-process simulation — is "something that emits :class:`Press` and status events and
accepts :meth:`ClockDevice.show` and :meth:`ClockDevice.beep`".

Events reach the daemon through a *sink*: a thread-safe callable (typically
``queue.Queue.put`` or ``loop.call_soon_threadsafe``-wrapped). Drivers call it from
whatever thread their hardware library uses; they never touch the daemon's state.

A press is not yet safe when it is emitted: the daemon journals it first and then calls
:meth:`ClockDevice.acknowledge`, and only then may a device forget it (a serial clock
keeps it and re-sends it until this acknowledgement reaches it).

The events are plain, transport-free data (pydantic), so the same models can later be
published over MQTT by a daemon per table group.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from clockd.core.clock import Side


class DeviceEvent(BaseModel):
    model_config = ConfigDict(frozen=True)

    table: int
    t_ns: int  # the daemon's monotonic time base (time.monotonic_ns)


#: ``measured``: ``t_ns`` is when the press happened (a device's own stamp mapped onto the
#: daemon's clock, or a GPIO edge's kernel timestamp). ``upper-bound``: the exact instant is
#: unknown and the press happened no later than ``t_ns`` — a serial clock kept it across its
#: own reboot while the daemon restarted too, so nobody knows that clock's time base any more
#: (firmware_protocol/SPEC.md, section 6). The referee should be told.
TimeSource = Literal["measured", "upper-bound"]


class Press(DeviceEvent):
    """A side's button went down at ``t_ns`` (the edge time, not when we heard of it)."""

    kind: Literal["press"] = "press"
    side: Side
    device_id: str = ""
    seq: int | None = None  # the device's own sequence number, where it has one
    device_t_us: int | None = None  # the device's own timestamp, where it has one
    # The device's power-on epoch, where it has one: seq and device_t_us restart after a
    # reboot, so a press is identified by (device_id, boot_id, seq).
    boot_id: int | None = None
    time_source: TimeSource = "measured"


class Connected(DeviceEvent):
    kind: Literal["connected"] = "connected"
    device_id: str
    detail: str = ""  # e.g. firmware version, pin factory, timestamp source


class Disconnected(DeviceEvent):
    kind: Literal["disconnected"] = "disconnected"
    device_id: str
    reason: str = ""


class RefereeButton(DeviceEvent):
    """A referee's pause button wired to the table (GPIO tables may have one)."""

    kind: Literal["referee-button"] = "referee-button"
    device_id: str = ""


AnyDeviceEvent = Press | Connected | Disconnected | RefereeButton
EventSink = Callable[[AnyDeviceEvent], None]


class Display(BaseModel):
    """What the daemon asks a device to show."""

    model_config = ConfigDict(frozen=True)

    remaining_ms_a: int
    remaining_ms_b: int
    running: Side | None = None
    text: str = ""


class Beep(StrEnum):
    SHORT = "short"
    FLAG = "flag"
    TIE = "tie"
    CHANGE = "change"  # the relay's "ZMIANA"


class DeviceState(StrEnum):
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"


class DeviceStatus(BaseModel):
    model_config = ConfigDict(frozen=True)

    device_id: str
    state: DeviceState
    detail: str = ""  # a sentence for the referee: timestamp source, last error, firmware


@runtime_checkable
class ClockDevice(Protocol):
    """A clock at one table."""

    table: int

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink`` (from any thread)."""

    def stop(self) -> None:
        """Stop delivering events and release the hardware."""

    def acknowledge(self, press: Press) -> None:
        """``press`` is journaled: the device may now forget it."""

    def show(self, display: Display) -> None:
        """Show both times (and whose turn it is) on the device, if it has a display."""

    def beep(self, pattern: Beep) -> None:
        """Sound a signal, if the device can."""

    def status(self) -> DeviceStatus:
        """The device's state, in words a referee understands."""
