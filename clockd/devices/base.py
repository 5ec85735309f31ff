"""The one small interface every table device implements (DESIGN.md, principle 6).

A device — a USB-serial clock, two GPIO buttons on a Raspberry Pi, a DGT clock, an
in-process simulation — is "something that reports :class:`DevicePress` and status
inputs and accepts :meth:`TableDevice.show` and :meth:`TableDevice.beep`". What it is
asked to show (two clocks, one countdown, a text: :mod:`clockd.core.device`) depends on
the program the table runs, never on the device.

Inputs reach the daemon through a *sink*: a thread-safe callable (typically
``queue.SimpleQueue.put``). Drivers call it from whatever thread their hardware library
uses; they never touch the daemon's state.

A press is not yet safe when it is reported: the daemon journals it first and then calls
:meth:`TableDevice.acknowledge`, and only then may a device forget it (a serial clock
keeps it and re-sends it until this acknowledgement reaches it).

The inputs are plain, transport-free data (pydantic), so a table node publishes the same
models over MQTT.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from clockd.core.clock import Side
from clockd.core.device import Beep, DeviceDetail, DeviceState, Display


class DeviceInput(BaseModel):
    """Something a device reports about its table, stamped on the daemon's monotonic time base."""

    model_config = ConfigDict(frozen=True)

    table: int
    t_ns: int  # the daemon's monotonic time base (time.monotonic_ns)


#: ``measured``: ``t_ns`` is when the press happened (a device's own stamp mapped onto the
#: daemon's clock, or a GPIO edge's kernel timestamp). ``upper-bound``: the exact instant is
#: unknown and the press happened no later than ``t_ns`` — a serial clock kept it across its
#: own reboot while the daemon restarted too, so nobody knows that clock's time base any more
#: (firmware_protocol/SPEC.md, section 6). The referee should be told.
TimeSource = Literal["measured", "upper-bound"]


class DevicePress(DeviceInput):
    """A side's button went down at ``t_ns`` (the edge time, not when we heard of it), with
    the device's own identity of the press (so a re-sent press is recognised)."""

    kind: Literal["press"] = "press"
    side: Side
    device_id: str = ""
    seq: int | None = None  # the device's own sequence number, where it has one
    device_t_us: int | None = None  # the device's own timestamp, where it has one
    # The device's power-on epoch, where it has one: seq and device_t_us restart after a
    # reboot, so a press is identified by (device_id, boot_id, seq).
    boot_id: int | None = None
    time_source: TimeSource = "measured"


class Connected(DeviceInput):
    kind: Literal["connected"] = "connected"
    device_id: str
    detail: DeviceDetail = None  # e.g. firmware version, pin factory, timestamp source


class Disconnected(DeviceInput):
    kind: Literal["disconnected"] = "disconnected"
    device_id: str
    reason: DeviceDetail = None  # why (the port went away, the driver stopped)


class RefereeButton(DeviceInput):
    """A referee's pause button wired to the table (GPIO tables may have one)."""

    kind: Literal["referee-button"] = "referee-button"
    device_id: str = ""


AnyDeviceInput = DevicePress | Connected | Disconnected | RefereeButton
Sink = Callable[[AnyDeviceInput], None]


class DeviceStatus(BaseModel):
    """What a driver says of its device right now."""

    model_config = ConfigDict(frozen=True)

    device_id: str
    state: DeviceState
    detail: DeviceDetail = None  # what a referee needs: timestamp source, last error, firmware


@runtime_checkable
class TableDevice(Protocol):
    """The device at one table."""

    table: int

    def start(self, sink: Sink) -> None:
        """Begin delivering inputs to ``sink`` (from any thread)."""

    def stop(self) -> None:
        """Stop delivering inputs and release the hardware."""

    def acknowledge(self, press: DevicePress) -> None:
        """``press`` is journaled: the device may now forget it."""

    def show(self, display: Display) -> None:
        """Show what the table's program shows (what the device can of it)."""

    def beep(self, pattern: Beep) -> None:
        """Sound a signal, if the device can."""

    def status(self) -> DeviceStatus:
        """The device's state, in words a referee understands."""


__all__ = [
    "AnyDeviceInput",
    "Connected",
    "DeviceInput",
    "DevicePress",
    "DeviceStatus",
    "Disconnected",
    "RefereeButton",
    "Sink",
    "TableDevice",
    "TimeSource",
]
