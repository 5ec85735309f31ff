"""The daemon's own journal entries: start-ups, tables, presses, devices, decisions, programs.

Each class is one ``kind`` in the journal (see :mod:`clockd.store.entries` for how kinds
are registered and read back). A referee's action (pause, adjust, assign a match …) has
no class here: its entry is derived from the action itself (:mod:`clockd.service.actions`).
Fields are what a referee settling a dispute needs to see: who, why, the device's own
stamp next to the instant that was applied, what the press did.

Times are integers on the journal's time base (``*_ns``); the original device stamp is
kept beside the applied instant because a press may be applied later than it was stamped
(see :class:`PressRecorded`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.clock import Side
from clockd.core.device import DeviceDetail
from clockd.core.program import AnyProgram
from clockd.devices.base import TimeSource
from clockd.i18n import Msg
from clockd.store.entries import Entry, entry_type

#: Who caused an entry that a referee's action also causes: the referee, a button wired to
#: the table, the daemon's recovery after a crash, or an event (a follow-up).
Source = Literal["referee", "button", "recovery", "event"]


class RequestKey(BaseModel):
    """The API request an action came in: the client's id for it, and a digest of what it asked.

    Journaled with the action, so that the same request sent again — a client that lost the
    reply and retries, a replayed request — is answered with the seq it was journaled at and
    never applied twice, also after a restart (``docs/architecture.md``, "Requests applied
    once").
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int | str
    digest: str


@entry_type
class DaemonStarted(Entry):
    """The daemon (re)started on this journal; records how the time base continues.

    ``rule`` is how time that passed while the daemon was down was charged:
    ``first-start`` (new journal), ``same-boot`` (the monotonic clock kept counting: running
    clocks were charged for the downtime, as a physical clock would be) or ``new-boot`` (the
    machine rebooted: the time base is lost; running clocks were paused at the last
    journaled instant). ``offset_ns`` maps this run's ``time.monotonic_ns()`` onto the
    journal's time base. ``hall`` is the name the daemon's tables and events are known by.
    """

    kind: Literal["daemon-started"] = "daemon-started"
    boot_id: str
    monotonic_ns: int
    offset_ns: int
    rule: Literal["first-start", "same-boot", "new-boot"]
    downtime_ns: int | None = None
    version: str = ""
    hall: str = ""


@entry_type
class TableCreated(Entry):
    """A table of the configuration, with its own chess clock (``control``) to begin with."""

    kind: Literal["table-created"] = "table-created"
    label: str
    control: str  # TimeControl text, e.g. "10m" or "3m+2s"


@entry_type
class ProgramLoaded(Entry):
    """An event put a program on the table (a match's duel, a game, a hall event's station),
    or took it off (an idle program). ``program.owner`` names the event's item."""

    kind: Literal["program"] = "program"
    program: AnyProgram
    by: str = ""
    #: The desk's command it came in on a table node (then applied once however often it is sent).
    request: RequestKey | None = None


@entry_type
class TableReleased(Entry):
    """The event holding the table let it go: its item there is over (a match confirmed, an
    entry voided, the ranking confirmed, the hall's time ended). The program stays on the table
    (its result still shows) but no longer holds it: the next event may take the table.
    ``holder`` is the item that held it (``desk/pt/R1-7``)."""

    kind: Literal["table-released"] = "table-released"
    holder: str


@entry_type
class TableRetaken(Entry):
    """The event's item still on the table holds it again (a void taken back)."""

    kind: Literal["table-retaken"] = "table-retaken"
    holder: str


@entry_type
class PressRecorded(Entry):
    """A side's button was pressed.

    ``t_ns`` is the instant applied to the table's program; ``device_t_ns`` the instant
    the device stamped. They differ only when the press is stamped before the table's last
    input (a press re-sent after a restart, or overtaken by a referee's command or a flag
    decision): it is then applied at that input's instant, never before it, so that one
    order of inputs per table holds. ``outcome`` is what the press did in the program
    (recomputed and checked on replay). ``time_source`` is ``upper-bound`` when the
    device's stamp could only be bounded (a clock that kept the press across its own
    reboot, whose time base this daemon never knew): the press happened no later than
    ``device_t_ns``.
    """

    kind: Literal["press"] = "press"
    side: Side
    outcome: str
    device_id: str = ""
    device_epoch: str = ""
    device_seq: int | None = None
    device_t_ns: int
    device_t_us: int | None = None
    time_source: TimeSource = "measured"


@entry_type
class RefereeButtonPressed(Entry):
    """The referee's button wired to a table (GPIO): pauses a running clock, resumes a paused one."""

    kind: Literal["referee-button"] = "referee-button"
    device_id: str = ""
    action: Literal["pause", "resume", "ignored"]


@entry_type
class FlagFell(Entry):
    """Decision: ``side``'s time ran out at ``flag_at_ns`` (journaled after a short grace, see Tables)."""

    kind: Literal["flag"] = "flag"
    side: Side
    flag_at_ns: int


@entry_type
class DeviceConnected(Entry):
    kind: Literal["device-connected"] = "device-connected"
    device_id: str
    detail: DeviceDetail = None  # a message as data (no language); an older journal's text is kept


@entry_type
class DeviceDisconnected(Entry):
    kind: Literal["device-disconnected"] = "device-disconnected"
    device_id: str
    reason: DeviceDetail = None


@entry_type
class AlertRaised(Entry):
    """Something the referee must look at (a table that was running when the daemon stopped).

    ``code`` is a catalogue code (``alert.recovered-running``); ``data`` its parameters
    (``since_last_input_ms``), rendered by whoever shows it, in their language.
    """

    kind: Literal["alert"] = "alert"
    alert_id: int
    code: str
    data: dict[str, int | str] = Field(default_factory=dict)


# -- many machines (docs/mqtt.md): what the desk journals about its table nodes ----------------------


@entry_type
class NodeCommand(Entry):
    """The desk sent a table's entry (a referee's action, an event's program) to the node that
    times the table: the node journals it, or refuses it, or it lapses undelivered.

    ``command`` is the desk's number for it; ``body`` the entry's JSON as the node is to
    journal it (the node stamps it with its own instant). Only once the node's row comes back
    is the command done: until then it is *sent*, never shown as done.
    """

    kind: Literal["node-command"] = "node-command"
    node: str
    command: int = 0
    entry_kind: str
    body: str


@entry_type
class NodeCommandEnded(Entry):
    """A command that will not be done: the node refused it (``problem``), or it was not
    delivered in time (``not-delivered``; a late copy is refused by the node as expired)."""

    kind: Literal["node-command-ended"] = "node-command-ended"
    node: str
    command: int
    outcome: Literal["refused", "not-delivered"]
    problem: Msg | None = None


@entry_type
class NodeLink(Entry):
    """The desk's link to a node went up or down (``why``: the node's status, its will sent by
    the broker when the node vanished, or the desk's own link to the broker)."""

    kind: Literal["node-link"] = "node-link"
    node: str
    up: bool
    why: Literal["status", "will", "broker-lost", "broker-back"] = "status"


@entry_type
class NodeClock(Entry):
    """How the node's time base maps onto the desk's: desk instant = node instant + ``offset_ns``.

    Measured from the node's heartbeats when the desk first meets a time base of the node
    (``base``: its boot and offset), then kept: every row of that base is shifted by the same
    amount, so each duel's durations are exactly the node's.
    """

    kind: Literal["node-clock"] = "node-clock"
    node: str
    base: str
    offset_ns: int


@entry_type
class NodeRestarted(Entry):
    """The node's daemon started again (its ``DaemonStarted`` row, with the rule it applied)."""

    kind: Literal["node-restarted"] = "node-restarted"
    node: str
    rule: str
    base: str
    downtime_ns: int | None = None


@entry_type
class NodeDiverged(Entry):
    """A node sent row ``seq`` again and it is not the row the desk took under that number:
    the node's table and the desk's copy differ from there (a forged row taken, a node whose
    journal was edited). Nothing is changed on either side; the referee is alerted."""

    kind: Literal["node-diverged"] = "node-diverged"
    node: str
    journal: str
    seq: int
    row_kind: str


@entry_type
class NodeRowRefused(Entry):
    """A node's row the desk could not take (a table another machine has, a row that is not a
    table's): kept here with why, so the referee sees it. It does not take the row's number:
    another row under the same seq (the node's own, after a forged one) is judged on its own."""

    kind: Literal["node-row-refused"] = "node-row-refused"
    node: str
    row_kind: str
    problem: Msg
