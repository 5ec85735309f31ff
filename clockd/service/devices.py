"""Which device sits at which table, and the effects any component may ask of them.

The tables (:mod:`clockd.service.tables`) turn a device's inputs into journal entries;
but what a device *does* — acknowledge a journaled press, show a time, sound a buzzer —
is asked for by whoever decided it: the table's program (a flag), a hall event's timer
("ZMIANA" on the buzzers of tables 5–8), an event that ended. So the binding of devices
to tables lives here, apart from any component, and every component gets the same
registry (:class:`~clockd.service.component.World`). Effects are closures the engine runs
on its output thread after the commit that makes them true; a table without a device
gets none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from clockd.core.device import Beep, Display
from clockd.devices.base import DevicePress, TableDevice
from clockd.service.component import Effect


class DeviceRegistry:
    """The devices of this daemon's tables, by table number."""

    def __init__(self) -> None:
        self._devices: dict[int, TableDevice] = {}
        #: Sounds the buzzers of tables other machines time (the desk's MQTT link sets it:
        #: ``docs/mqtt.md``, the hall signal). ``None``: a table with no device here is silent.
        self.remote_beep: Callable[[list[int], Beep], None] | None = None

    def bind(self, table: int, device: TableDevice) -> None:
        self._devices[table] = device

    def device(self, table: int) -> TableDevice | None:
        return self._devices.get(table)

    def tables(self) -> list[int]:
        return sorted(self._devices)

    # -- effects ---------------------------------------------------------------------------
    def acknowledge(self, device: TableDevice | None, press: DevicePress) -> list[Effect]:
        if device is None:
            return []
        return [lambda: device.acknowledge(press)]

    def show(self, table: int, display: Display) -> list[Effect]:
        device = self._devices.get(table)
        if device is None:
            return []
        return [lambda: device.show(display)]

    def beep(self, tables: Iterable[int], pattern: Beep) -> list[Effect]:
        effects: list[Effect] = []
        elsewhere: list[int] = []
        for table in tables:
            device = self._devices.get(table)
            if device is not None:
                effects.append(_beep(device, pattern))
            else:
                elsewhere.append(table)
        remote = self.remote_beep
        if remote is not None and elsewhere:
            effects.insert(0, lambda: remote(elsewhere, pattern))  # first: the network takes longest
        return effects


def _beep(device: TableDevice, pattern: Beep) -> Effect:
    return lambda: device.beep(pattern)
