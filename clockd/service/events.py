"""The daemon's own journaled events: tables, presses, referee commands, devices, decisions.

Each class is one ``kind`` in the journal (see :mod:`clockd.store.events` for how kinds are
registered and read back). Fields are what a referee settling a dispute needs to see: who,
why, the device's own stamp next to the instant that was applied, what the press did.

Times are integers on the journal's time base (``*_ns``); the original device stamp is
kept beside the applied instant because a press may be applied later than it was stamped
(see :class:`PressRecorded`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from clockd.core.clock import Outcome, Side
from clockd.devices.base import TimeSource
from clockd.store.events import Event, event_type

Source = Literal["referee", "button", "recovery"]


@event_type
class DaemonStarted(Event):
    """The daemon (re)started on this journal; records how the time base continues.

    ``rule`` is how time that passed while the daemon was down was charged:
    ``first-start`` (new journal), ``same-boot`` (the monotonic clock kept counting: running
    clocks were charged for the downtime, as a physical clock would be) or ``new-boot`` (the
    machine rebooted: the time base is lost; running clocks were paused at the last
    journaled instant). ``offset_ns`` maps this run's ``time.monotonic_ns()`` onto the
    journal's time base.
    """

    kind: Literal["daemon-started"] = "daemon-started"
    boot_id: str
    monotonic_ns: int
    offset_ns: int
    rule: Literal["first-start", "same-boot", "new-boot"]
    downtime_ns: int | None = None
    version: str = ""


@event_type
class TableCreated(Event):
    kind: Literal["table-created"] = "table-created"
    label: str
    control: str  # TimeControl text, e.g. "10m" or "3m+2s"


@event_type
class ClockSet(Event):
    """The referee set the table's clock afresh (new duel, new round): both sides full, ready.

    ``starter`` is who may start the ready clock with a press: ``any`` side (a chess clock:
    Black's press starts White's time), only side ``a`` or ``b`` (a puzzle duel: the toss
    loser starts the toss winner's time, §2.2.8), or ``none`` (waiting for the toss). A
    press that may not start the clock is ignored (``ignored-not-running``).
    """

    kind: Literal["clock-set"] = "clock-set"
    control: str
    by: str = ""
    reason: str = ""
    starter: Literal["any", "a", "b", "none"] = "any"


@event_type
class PressRecorded(Event):
    """A side's button was pressed.

    ``t_ns`` is the instant applied to the clock; ``device_t_ns`` the instant the device
    stamped. They differ only when the press is stamped before the table's last input
    (a press re-sent after a restart, or overtaken by a referee's command or a flag
    decision): it is then applied at that input's instant, never before it, so that one
    order of inputs per table holds. ``outcome`` is what the press did (recomputed and
    checked on replay). ``time_source`` is ``upper-bound`` when the device's stamp could
    only be bounded (a clock that kept the press across its own reboot, whose time base
    this daemon never knew): the press happened no later than ``device_t_ns``.
    """

    kind: Literal["press"] = "press"
    side: Side
    outcome: Outcome
    device_id: str = ""
    device_epoch: str = ""
    device_seq: int | None = None
    device_t_ns: int
    device_t_us: int | None = None
    time_source: TimeSource = "measured"


@event_type
class Paused(Event):
    kind: Literal["pause"] = "pause"
    source: Source = "referee"
    by: str = ""
    reason: str = ""


@event_type
class Resumed(Event):
    kind: Literal["resume"] = "resume"
    source: Source = "referee"
    by: str = ""
    reason: str = ""


@event_type
class Adjusted(Event):
    """The referee added (``delta_ns > 0``) or took (``< 0``) time from a side, with a reason."""

    kind: Literal["adjust"] = "adjust"
    side: Side
    delta_ns: int
    by: str = ""
    reason: str = Field(min_length=1)


@event_type
class RefereeButtonPressed(Event):
    """The referee's button wired to a table (GPIO): pauses a running clock, resumes a paused one."""

    kind: Literal["referee-button"] = "referee-button"
    device_id: str = ""
    action: Literal["pause", "resume", "ignored"]


@event_type
class FlagFell(Event):
    """Decision: ``side``'s time ran out at ``flag_at_ns`` (journaled after a short grace, see Tables)."""

    kind: Literal["flag"] = "flag"
    side: Side
    flag_at_ns: int


@event_type
class DeviceConnected(Event):
    kind: Literal["device-connected"] = "device-connected"
    device_id: str
    detail: str = ""


@event_type
class DeviceDisconnected(Event):
    kind: Literal["device-disconnected"] = "device-disconnected"
    device_id: str
    reason: str = ""


@event_type
class AlertRaised(Event):
    """Something the referee must look at (e.g. a table that was running when the daemon stopped).

    ``code`` is stable (clients translate it); ``message`` is an English sentence;
    ``data`` holds the figures (e.g. ``downtime_ms``).
    """

    kind: Literal["alert"] = "alert"
    alert_id: int
    code: str
    message: str
    data: dict[str, int | str] = Field(default_factory=dict)


@event_type
class AlertCleared(Event):
    """The referee has seen an alert (``alert_id``), or all of a table's alerts (``None``)."""

    kind: Literal["alert-cleared"] = "alert-cleared"
    alert_id: int | None = None
    by: str = ""


@event_type
class NoteAdded(Event):
    """A referee's annotation on a table's timeline (a dispute, a decision, anything)."""

    kind: Literal["note"] = "note"
    text: str = Field(min_length=1)
    by: str = ""
