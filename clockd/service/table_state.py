"""A table as the daemon holds it: its state (:class:`TableState`: program, device, alerts,
floor), the device's identity, a table's alerts, the presses already counted
(:class:`SeqRanges`, :func:`press_key`) and the phase of its clock at an instant.

Values only, apart from the :class:`~clockd.service.tables.Tables` component that changes
them: an event kind, the views and the API read a table's state with no part of its
machinery.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Allowed
from clockd.core.clock import ClockState, Phase
from clockd.core.device import DeviceDetail, DeviceState, Display
from clockd.core.program import (
    AnyProgram,
    Idle,
)
from clockd.devices.base import (
    DevicePress,
)
from clockd.i18n import Msg, msg


class DeviceInfo(BaseModel):
    """The table's device as the journal last saw it."""

    model_config = ConfigDict(frozen=True)

    state: DeviceState = DeviceState.UNKNOWN
    device_id: str = ""
    detail: DeviceDetail = None


class Alert(BaseModel):
    """An open alert for the referee (see :class:`~clockd.service.entries.AlertRaised`)."""

    model_config = ConfigDict(frozen=True)

    id: int
    code: str
    t_ns: int
    data: dict[str, int | str] = Field(default_factory=dict)


class TableState(BaseModel):
    """One table, between two entries. Immutable: safe to hand to any thread."""

    model_config = ConfigDict(frozen=True)

    table: int
    label: str
    #: The table's own time control: its clock when no event has it (``set-clock``).
    control: str
    program: AnyProgram
    device: DeviceInfo = DeviceInfo()
    alerts: tuple[Alert, ...] = ()
    next_alert_id: int = 1
    floor_ns: int = 0
    presses: int = 0
    #: The table node that times this table (``docs/mqtt.md``); ``""``: this daemon does.
    node: str = ""
    #: The program's event let the table go (its item is over): the program still shows, the
    #: table is free. A new program holds it again.
    released: bool = False

    @property
    def holder(self) -> str | None:
        """The event's item that holds the table (``desk/pt/R1-7``), or ``None``: the table is free."""
        return None if self.released else self.program.owner

    def display(self, t_ns: int) -> Display:
        """What the table's device should show at ``t_ns``."""
        return self.program.display(max(t_ns, self.floor_ns))

    def running(self, t_ns: int) -> bool:
        """Whether something runs at the table now: its clock, or an armed hall station."""
        if phase_of(self, t_ns) is Phase.RUNNING:
            return True
        return bool(getattr(self.program, "armed", False)) and not getattr(self.program, "finished", False)

    def allowed(self, t_ns: int) -> Allowed:
        """Every table action and whether it may be done now (the program's rules and the table's)."""
        out = self.program.allowed(max(t_ns, self.floor_ns))
        if self.released:  # a finished event's program: the table is the table's own again
            out["set-clock"] = None
        out["note"] = None
        out["clear-alert"] = None if self.alerts else msg("table.no-alerts", table=self.table)
        out["table-free"] = self.free_refusal(t_ns, stop_running=False)
        return out

    def free_refusal(self, t_ns: int, *, stop_running: bool) -> Msg | None:
        """Why the referee cannot free the table now (``None``: they can)."""
        if self.program.owner is None and isinstance(self.program, Idle):
            return msg("table.free-already", table=self.table)
        if not stop_running and self.running(max(t_ns, self.floor_ns)):
            return msg("table.free-running", table=self.table, holder=self.holder or "—")
        return None


class SeqRanges:
    """A set of sequence numbers stored as sorted, disjoint ``[lo, hi]`` ranges.

    A device's presses arrive almost always in order, so this is one range per device
    epoch however long the day — and still exact when a re-sent press fills a gap.
    """

    __slots__ = ("_his", "_los")

    def __init__(self, ranges: Sequence[Sequence[int]] = ()) -> None:
        self._los: list[int] = [int(r[0]) for r in ranges]
        self._his: list[int] = [int(r[1]) for r in ranges]

    def __contains__(self, seq: int) -> bool:
        i = bisect.bisect_right(self._los, seq) - 1
        return i >= 0 and seq <= self._his[i]

    def add(self, seq: int) -> None:
        if seq in self:
            return
        i = bisect.bisect_right(self._los, seq)  # ranges[i-1].lo <= seq < ranges[i].lo
        joins_left = i > 0 and self._his[i - 1] == seq - 1
        joins_right = i < len(self._los) and self._los[i] == seq + 1
        if joins_left and joins_right:
            self._his[i - 1] = self._his[i]
            del self._los[i], self._his[i]
        elif joins_left:
            self._his[i - 1] = seq
        elif joins_right:
            self._los[i] = seq
        else:
            self._los.insert(i, seq)
            self._his.insert(i, seq)

    def ranges(self) -> list[list[int]]:
        return [[lo, hi] for lo, hi in zip(self._los, self._his, strict=True)]


def press_key(press: DevicePress, run: str) -> tuple[str, str, int] | None:
    """The identity of a device press: (device id, device epoch, seq), if the device numbers them.

    The epoch tells a rebooted device's new seq 1 from its old seq 1: a serial clock
    sends its ``boot_id``. A device without one (GPIO buttons, which live in the daemon's
    process and can re-send nothing after it restarts) numbers its presses per daemon
    run, so its epoch is the run (``run``): its seq 1 after a restart is a new press.
    """
    if press.seq is None:
        return None
    epoch = str(press.boot_id) if press.boot_id is not None else run
    return (press.device_id, epoch, press.seq)


def phase_of(state: TableState, t_ns: int) -> Phase | None:
    """The phase of the table's clock at ``t_ns``, if its program has a two-sided clock."""
    clock = getattr(state.program, "clock", None)
    if isinstance(clock, ClockState):
        return clock.view(max(t_ns, state.floor_ns, clock.last_input_ns or 0)).phase
    return None
