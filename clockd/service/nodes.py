"""The desk's table nodes, folded from its journal: which rows of each node it has taken, how
each node's time maps onto the desk's, the links' ups and downs, and the commands it sent.

A table node (``duelclock run --node``) is an ordinary daemon for its own tables: it times
them and journals every press before the device hears it is safe. The desk takes the node's
rows into its own journal (``docs/mqtt.md``), and this component is where the promise
*exactly once* is kept:

* **One row, one copy.** Every row taken carries its :class:`~clockd.store.entries.Origin`
  (node, the node's journal, seq). A row is taken only if the node's previous row (``after``)
  is already here and the row itself is not: a copy sent twice is dropped, a row that arrives
  past a gap is refused (the link then asks the node to send again from where the desk is).
  What the desk knows is folded from those origins, so a restarted desk resumes exactly
  where its journal ends.
* **A refused row takes no number.** A row the desk cannot take (not a table's, a table
  another machine has) is journaled as refused, with why, and raises an alert; but the
  next row the node sends under the same seq is judged on its own — a forged row refused
  once did not let the node's own press 56 be dropped as its "copy" — and the node's next
  rows may follow the refused one (a row of the node's own the desk cannot read does not stop
  its tables).
* **A copy is the same row, or an alert.** Each row taken keeps a digest of what the node
  sent (:attr:`~clockd.store.entries.Origin.digest`); a row sent again under a seq the desk
  holds must be that row, else the node's table and the desk's copy differ
  (:class:`~clockd.service.entries.NodeDiverged`, an alert the referee sees on the node).
* **The node's time, shifted once.** A row's instants are on the node's time base; the desk
  adds one offset per node time base (:class:`~clockd.service.entries.NodeClock`, measured
  from the heartbeats the first time the desk meets that base, then never changed), so the
  durations of a duel on the desk are exactly those the node timed.
* **A command is done when its row comes back.** The desk's entry for a node's table (a
  referee's pause, a match's duel) is journaled here as a
  :class:`~clockd.service.entries.NodeCommand` and sent. It is *sent* until the node's row
  carrying its number arrives (then *done*), the node says it refused it (*refused*), or
  :data:`COMMAND_TIMEOUT_NS` passes (*not delivered*; the node refuses a copy that arrives
  after :data:`COMMAND_VALID_NS` as expired, so a command shown as not delivered is never
  done behind the referee's back).

The links themselves (MQTT) are :mod:`clockd.mqtt.desk`'s; it feeds this component through
the engine's queue with the transport entries below, which are never journaled themselves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from clockd.core.units import MS
from clockd.i18n import Msg
from clockd.service.actions import RequestKey
from clockd.service.component import Refused, Restart, Staged, Staging, World
from clockd.service.entries import (
    DaemonStarted,
    NodeClock,
    NodeCommand,
    NodeCommandEnded,
    NodeDiverged,
    NodeLink,
    NodeRestarted,
    NodeRowRefused,
)
from clockd.store.entries import Entry, Origin, decode_entry, encode_entry
from clockd.store.journal import Record

#: How long the desk waits for a command's row before it shows the command as not delivered.
COMMAND_TIMEOUT_NS = 10_000 * MS
#: How long a node still carries out a command after the desk sent it (less than the timeout:
#: a copy the broker hands over late is refused as expired, never done after "not delivered").
COMMAND_VALID_NS = 8_000 * MS
#: How many ended commands the view keeps (the journal keeps them all).
VIEW_COMMANDS = 100
#: How many of a node's last rows taken the desk keeps the digest of, to check a copy sent
#: again (a node re-sends from the desk's last row: older copies are not sent).
RECENT_ROWS = 512
#: How many refused rows after the last one taken the desk remembers, and how many of a
#: node's alerts it shows (the journal keeps them all).
REFUSED_ROWS = 64
NODE_ALERTS = 20


def row_digest(kind: str, body: str) -> str:
    """The digest of a node's row as it was sent (its kind and its JSON text)."""
    return hashlib.sha256(f"{kind}\n{body}".encode()).hexdigest()[:32]


#: The fields that hold an *instant* (on a daemon's time base) wherever they appear in an
#: entry — its own, its action's, its program's clock and duel. Everything else ending in
#: ``_ns`` is a duration and is the same on every machine. A node's row is moved onto the
#: desk's time base, and the desk's command onto the node's, by shifting exactly these.
INSTANT_FIELDS = frozenset(
    {
        "t_ns",
        "device_t_ns",
        "flag_at_ns",
        "started_at_ns",
        "mark_ns",
        "last_input_ns",
        "ended_at_ns",
        "last_ns",
        "at_ns",
    }
)


def shifted(entry: Entry, delta_ns: int) -> Entry:
    """``entry`` with every instant in it moved by ``delta_ns`` (its ``origin`` kept as it is)."""
    if delta_ns == 0:
        return entry
    data = _shift(entry.model_dump(mode="json", exclude={"origin"}), delta_ns)
    return type(entry).model_validate({**data, "origin": entry.origin}).with_vault(entry.vault_records())


def _shift(value: Any, delta_ns: int) -> Any:
    if isinstance(value, dict):
        return {
            k: (v + delta_ns if k in INSTANT_FIELDS and isinstance(v, int) else _shift(v, delta_ns))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_shift(v, delta_ns) for v in value]
    return value


def node_base(started: DaemonStarted) -> str:
    """A node's time base: its boot and the offset its journal's time adds to the boot's clock."""
    return f"{started.boot_id}/{started.offset_ns}"


def command_request(journal_id: str, command: int, body: str) -> RequestKey:
    """The request a command is journaled with on the node: applied once however often sent."""
    return RequestKey(
        id=f"desk:{journal_id}:{command}", digest=hashlib.sha256(body.encode()).hexdigest()[:32]
    )


def command_of(request_id: object, journal_id: str) -> int | None:
    """The desk's command number in a node row's request id, if this desk sent it."""
    prefix = f"desk:{journal_id}:"
    if isinstance(request_id, str) and request_id.startswith(prefix):
        tail = request_id[len(prefix) :]
        return int(tail) if tail.isdigit() else None
    return None


# -- what the link feeds in (never journaled: each becomes rows, or nothing) ----------------------
class NodeRowIn(Entry):
    """One row of a node's journal as the link received it. ``after``: the node's previous row
    that it sends (the desk must hold it already)."""

    kind: Literal["node-row-in"] = "node-row-in"
    node: str
    journal: str
    seq: int
    after: int
    row_kind: str
    body: str
    #: Sent again by the link with why the desk could not take it: then journaled as refused.
    problem: Msg | None = None


class NodeStatusIn(Entry):
    """A node's status as the link received it (a heartbeat, its will, the desk's own link).
    ``offset_ns``: desk time minus node time, measured (``None``: not measured)."""

    kind: Literal["node-status-in"] = "node-status-in"
    node: str
    up: bool
    why: Literal["status", "will", "broker-lost", "broker-back"] = "status"
    base: str = ""
    offset_ns: int | None = None


class NodeReplyIn(Entry):
    """A node refused a command (``problem``: why, an expired copy too), or the link could not
    send it at all (``not-delivered``: the node is not reachable)."""

    kind: Literal["node-reply-in"] = "node-reply-in"
    node: str
    command: int
    outcome: Literal["refused", "not-delivered"] = "refused"
    problem: Msg | None = None


# -- the state ------------------------------------------------------------------------------------
class Outage(BaseModel):
    """A time the desk could not hear a node: from ``down_ns`` to ``up_ns`` (``None``: still)."""

    model_config = ConfigDict(frozen=True)

    down_ns: int
    up_ns: int | None = None
    why: str = "will"


class NodeAlert(BaseModel):
    """Something the referee must look at on a node: a row refused (``problem``: why), or a
    row that differs from the desk's copy."""

    model_config = ConfigDict(frozen=True)

    t_ns: int
    seq: int
    problem: Msg


class NodeState(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    #: The node's journal the desk takes rows from, and the last row of it taken.
    journal: str = ""
    last_seq: int = 0
    rows: int = 0
    up: bool = False
    since_ns: int = 0
    outages: tuple[Outage, ...] = ()
    restarts: int = 0
    #: The node's time base of the rows taken last, and that row's instants (node, desk).
    base: str = ""
    last_node_ns: int = 0
    last_desk_ns: int = 0
    #: The last rows taken, ``(seq, digest)`` (of ``journal``), to check a copy against.
    recent: tuple[tuple[int, str], ...] = ()
    #: Rows refused after ``last_seq``: ``(journal, seq, digest)``. They take no number.
    refused: tuple[tuple[str, int, str], ...] = ()
    alerts: tuple[NodeAlert, ...] = ()


class CommandState(BaseModel):
    model_config = ConfigDict(frozen=True)

    command: int
    node: str
    table: int | None
    entry_kind: str
    t_ns: int
    outcome: Literal["sent", "done", "refused", "not-delivered"] = "sent"
    node_seq: int | None = None
    problem: Msg | None = None
    #: The desk's journal seq of the command (what the referee's request was answered with).
    seq: int = 0


class NodesView(BaseModel):
    """The committed state, for the API (immutable)."""

    model_config = ConfigDict(frozen=True)

    nodes: tuple[NodeState, ...] = ()
    commands: tuple[CommandState, ...] = ()


#: The link's hook: send command ``(node, command, entry_kind, body, table, valid_until_desk_ns)``.
SendCommand = Callable[[str, int, str, str, int | None, int], None]


_TRANSPORT = frozenset({"node-row-in", "node-status-in", "node-reply-in"})
_KINDS = frozenset(
    {
        "node-command",
        "node-command-ended",
        "node-link",
        "node-clock",
        "node-restarted",
        "node-row-refused",
        "node-diverged",
    }
)


class Nodes:
    """The component (see the module docstring)."""

    name = "nodes"
    kinds = _KINDS | _TRANSPORT
    reacts_to: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self._world: World | None = None
        self._nodes: dict[str, NodeState] = {}
        self._offsets: dict[tuple[str, str], int] = {}
        self._commands: dict[int, CommandState] = {}
        self._staged = Staging(self._nodes)
        self._staged_offsets = Staging(self._offsets)
        self._staged_commands = Staging(self._commands)
        self._next_command = 1  # the number the next command gets (committed)
        self._next_staged = 1
        self._view = NodesView()
        #: Set by the desk's link (:mod:`clockd.mqtt.desk`); ``None``: commands wait and lapse.
        self.send: SendCommand | None = None
        #: The desk journal's id (its commands' request ids name it).
        self.journal_id = ""
        #: The link's live view of the nodes (heartbeats, lag), for the API; ``None``: no link.
        self.live: Callable[[], Mapping[str, Any]] | None = None
        #: Whether the desk's own link to the broker is up; ``None``: this daemon has no link.
        self.link_up: Callable[[], bool] | None = None

    def bind(self, world: World) -> None:
        self._world = world

    # -- reading --------------------------------------------------------------------------------
    def view(self) -> NodesView:
        return self._view

    def offset(self, node: str, base: str) -> int | None:
        return self._staged_offsets.get((node, base))

    def node(self, name: str) -> NodeState:
        found: NodeState | None = self._staged.get(name)
        return found if found is not None else NodeState(name=name)

    # -- the component protocol -----------------------------------------------------------------
    def begin(self) -> None:
        self._staged.clear()
        self._staged_offsets.clear()
        self._staged_commands.clear()
        self._next_staged = self._next_command

    def abort(self) -> None:
        self.begin()

    def mark(self) -> object:
        return (
            self._staged.mark(),
            self._staged_offsets.mark(),
            self._staged_commands.mark(),
            self._next_staged,
        )

    def rollback(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        self._staged.rollback(mark[0])
        self._staged_offsets.rollback(mark[1])
        self._staged_commands.rollback(mark[2])
        self._next_staged = mark[3]

    def react(self, entry: Entry, *, now_ns: int) -> list[Entry]:
        return []

    def stage(self, entry: Entry, *, now_ns: int, replay: bool) -> Staged:
        if isinstance(entry, NodeRowIn):
            return self._row_in(entry, now_ns)
        if isinstance(entry, NodeStatusIn):
            return self._status_in(entry)
        if isinstance(entry, NodeReplyIn):
            command = self._staged_commands.get(entry.command)
            if command is None or command.outcome != "sent":
                return Staged(None)
            ended = NodeCommandEnded(
                node=entry.node, command=entry.command, outcome=entry.outcome, problem=entry.problem
            )
            return Staged(None, follow=[ended])
        if isinstance(entry, NodeCommand):
            return self._command(entry, replay)
        if isinstance(entry, NodeCommandEnded):
            command = self._staged_commands.get(entry.command)
            if command is not None:
                update = {"outcome": entry.outcome, "problem": entry.problem}
                self._staged_commands.put(entry.command, command.model_copy(update=update))
            return Staged(entry)
        if isinstance(entry, NodeLink):
            self._link(entry)
            return Staged(entry)
        if isinstance(entry, NodeClock):
            self._staged_offsets.put((entry.node, entry.base), entry.offset_ns)
            return Staged(entry)
        if isinstance(entry, NodeRestarted):
            st = self.node(entry.node)
            self._staged.put(
                entry.node,
                st.model_copy(
                    update={"restarts": st.restarts + (entry.rule != "first-start"), "base": entry.base}
                ),
            )
            self._taken(entry)
            return Staged(entry)
        if isinstance(entry, NodeRowRefused):
            self._refused(entry)
            return Staged(entry)
        if isinstance(entry, NodeDiverged):
            problem = Msg("node.row-differs", {"node": entry.node, "seq": entry.seq, "kind": entry.row_kind})
            self._alert(entry.node, NodeAlert(t_ns=entry.t_ns, seq=entry.seq, problem=problem))
            return Staged(entry)
        raise Refused("daemon.no-owner", kind=entry.kind)

    def _command(self, entry: NodeCommand, replay: bool) -> Staged:
        if not replay:
            entry = entry.model_copy(update={"command": self._next_staged, "body": self._for_node(entry)})
        self._next_staged = max(self._next_staged, entry.command + 1)
        kind = entry.entry_kind
        command = CommandState(
            command=entry.command, node=entry.node, table=entry.table, entry_kind=kind, t_ns=entry.t_ns
        )
        self._staged_commands.put(entry.command, command)
        effects = []
        send = self.send
        if not replay and send is not None:
            args = (entry.node, entry.command, kind, entry.body, entry.table, entry.t_ns + COMMAND_VALID_NS)
            effects.append(lambda: send(*args))
        return Staged(entry, effects)

    def _for_node(self, command: NodeCommand) -> str:
        """The command's entry on the node's time base (a program carries the instants of its
        clock: a duel closed on the desk goes back to the node as the node timed it)."""
        st = self.node(command.node)
        offset = self._staged_offsets.get((command.node, st.base))
        if offset is None:
            return command.body  # a node the desk never heard: not sent (not delivered) anyway
        entry = decode_entry(command.entry_kind, command.body, where=f"command for {command.node}")
        return encode_entry(shifted(entry, -offset))

    def _link(self, e: NodeLink) -> None:
        st = self.node(e.node)
        outages = list(st.outages)
        if not e.up and st.up:
            outages.append(Outage(down_ns=e.t_ns, why=e.why))
        elif e.up and outages and outages[-1].up_ns is None:
            outages[-1] = outages[-1].model_copy(update={"up_ns": e.t_ns})
        self._staged.put(
            e.node, st.model_copy(update={"up": e.up, "since_ns": e.t_ns, "outages": tuple(outages)})
        )

    def _taken(self, e: Entry) -> None:
        """Row ``e.origin`` is in the desk's journal (staged): the next row must follow it."""
        origin = e.origin
        assert origin is not None
        st = self.node(origin.node)
        same = origin.journal == st.journal
        if same and origin.seq <= st.last_seq:
            return  # staged already (the commit sees every row again)
        recent = st.recent if same else ()
        update = {
            "journal": origin.journal,
            "last_seq": origin.seq,
            "rows": st.rows + 1,
            "last_node_ns": origin.t_ns,
            "last_desk_ns": e.t_ns,
            "recent": (*recent[-(RECENT_ROWS - 1) :], (origin.seq, origin.digest)),
            "refused": tuple(r for r in st.refused if r[0] == origin.journal and r[1] > origin.seq),
        }
        self._staged.put(origin.node, st.model_copy(update=update))

    def _refused(self, e: NodeRowRefused) -> None:
        """A row refused: remembered (a copy of it is dropped; the node's next row may follow
        it), never taken — the desk's last row stays where it was — and an alert."""
        origin = e.origin
        assert origin is not None
        st = self.node(origin.node)
        held = (origin.journal, origin.seq, origin.digest)
        if held not in st.refused:
            st = st.model_copy(update={"refused": (*st.refused[-(REFUSED_ROWS - 1) :], held)})
            self._staged.put(origin.node, st)
        self._alert(origin.node, NodeAlert(t_ns=e.t_ns, seq=origin.seq, problem=e.problem))

    def _alert(self, node: str, alert: NodeAlert) -> None:
        st = self.node(node)
        alerts = (*st.alerts[-(NODE_ALERTS - 1) :], alert)
        self._staged.put(node, st.model_copy(update={"alerts": alerts}))

    # -- a node's row ---------------------------------------------------------------------------
    def _row_in(self, e: NodeRowIn, now_ns: int) -> Staged:
        st = self.node(e.node)
        same = e.journal == st.journal
        have = st.last_seq if same else 0  # a node's new journal starts again
        digest = row_digest(e.row_kind, e.body)
        if e.seq <= have:  # taken already: a copy — of the same row, or the two sides differ
            held = dict(st.recent).get(e.seq) if same else None
            if not held or held == digest or any(a.seq == e.seq for a in st.alerts):
                return Staged(None)
            diverged = NodeDiverged(node=e.node, journal=e.journal, seq=e.seq, row_kind=e.row_kind)
            return Staged(None, follow=[diverged])
        refused = {s: d for j, s, d in st.refused if j == e.journal}
        if refused.get(e.seq) == digest:
            return Staged(None)  # a copy of a row refused already
        if e.after > have and e.after not in refused:
            raise Refused("node.gap", node=e.node, seq=e.seq, have=have)
        if e.problem is not None:  # a row the desk could not take: kept with why, taking no seq
            origin = Origin(node=e.node, journal=e.journal, seq=e.seq, t_ns=0, digest=digest)
            refusal = NodeRowRefused(origin=origin, node=e.node, row_kind=e.row_kind, problem=e.problem)
            return Staged(None, follow=[refusal])
        row = decode_entry(e.row_kind, e.body, where=f"{e.node} seq {e.seq}")
        if row.origin is not None:
            raise Refused("node.row-from-elsewhere", node=e.node, seq=e.seq)
        if not isinstance(row, DaemonStarted) and (row.table is None or row.kind not in self._table_kinds()):
            # A node's say is its own tables: never an event, a person, the desk's own state.
            raise Refused("node.not-a-table-row", node=e.node, seq=e.seq, kind=row.kind)
        origin = Origin(node=e.node, journal=e.journal, seq=e.seq, t_ns=row.t_ns, digest=digest)
        if isinstance(row, DaemonStarted):
            base = node_base(row)
            st = st.model_copy(update={"base": base})
            self._staged.put(e.node, st)
            t = self._desk_time(st, row.t_ns, now_ns)
            restarted = NodeRestarted(
                t_ns=t, origin=origin, node=e.node, rule=row.rule, base=base, downtime_ns=row.downtime_ns
            )
            return Staged(None, follow=[restarted])
        t = self._desk_time(st, row.t_ns, now_ns)
        row = shifted(row, t - row.t_ns).model_copy(update={"origin": origin})
        self._taken(row)
        return Staged(None, follow=[row])

    def _table_kinds(self) -> frozenset[str]:
        assert self._world is not None
        kinds: frozenset[str] = self._world.component("tables").kinds
        return kinds

    def _desk_time(self, st: NodeState, node_ns: int, now_ns: int) -> int:
        offset = self._staged_offsets.get((st.name, st.base))
        if offset is None:  # a time base the desk never heard live: continue from the last row
            offset = st.last_desk_ns - st.last_node_ns if st.last_node_ns else now_ns - node_ns
        return node_ns + offset

    def _status_in(self, e: NodeStatusIn) -> Staged:
        st = self.node(e.node)
        follow: list[Entry] = []
        if e.up != st.up or (e.why == "broker-back" and not st.up):
            follow.append(NodeLink(node=e.node, up=e.up, why=e.why))
        if e.up and e.base and e.offset_ns is not None and self.offset(e.node, e.base) is None:
            follow.append(NodeClock(node=e.node, base=e.base, offset_ns=e.offset_ns))
        return Staged(None, follow=follow)

    # -- commits --------------------------------------------------------------------------------
    def commit(self, records: Sequence[Record]) -> None:
        for record in records:  # rows of other components taken from nodes (a replay, too)
            if isinstance(record.entry, NodeCommand):
                sent = self._staged_commands.get(record.entry.command)
                if sent is not None:
                    self._staged_commands.put(
                        record.entry.command, sent.model_copy(update={"seq": record.seq})
                    )
            origin = record.entry.origin
            if origin is None or record.entry.kind in _KINDS:
                continue
            self._taken(record.entry)
            request = getattr(record.entry, "request", None)
            number = command_of(request.id, self.journal_id) if request is not None else None
            command = self._staged_commands.get(number) if number is not None else None
            if number is not None and command is not None:
                update = {"outcome": "done", "node_seq": origin.seq, "problem": None}
                self._staged_commands.put(number, command.model_copy(update=update))
        nodes, offsets, commands = (
            self._staged.changes(),
            self._staged_offsets.changes(),
            self._staged_commands.changes(),
        )
        if nodes:
            self._nodes = {**self._nodes, **nodes}
        if offsets:
            self._offsets = {**self._offsets, **offsets}
        if commands:
            self._commands = {**self._commands, **commands}
        self._next_command = self._next_staged
        self._staged.rebase(self._nodes)
        self._staged_offsets.rebase(self._offsets)
        self._staged_commands.rebase(self._commands)
        if nodes or offsets or commands:
            self._view = self._make_view()
        self.begin()

    def _make_view(self) -> NodesView:
        live = [c for c in self._commands.values() if c.outcome != "done"]
        recent = sorted(self._commands)[-VIEW_COMMANDS:]
        shown = {c.command: c for c in live} | {n: self._commands[n] for n in recent}
        return NodesView(
            nodes=tuple(self._nodes[n] for n in sorted(self._nodes)),
            commands=tuple(shown[n] for n in sorted(shown)),
        )

    # -- time -------------------------------------------------------------------------------------
    def next_deadline(self) -> int | None:
        pending = [c.t_ns for c in self._commands.values() if c.outcome == "sent"]
        return min(pending) + COMMAND_TIMEOUT_NS if pending else None

    def due(self, now_ns: int) -> list[Entry]:
        return [
            NodeCommandEnded(t_ns=now_ns, node=c.node, command=c.command, outcome="not-delivered")
            for c in sorted(self._commands.values(), key=lambda c: c.command)
            if c.outcome == "sent" and c.t_ns + COMMAND_TIMEOUT_NS <= now_ns
        ]

    def recovered(self, restart: Restart) -> list[Entry]:
        return []

    # -- snapshots --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "nodes": [s.model_dump(mode="json") for s in self._nodes.values()],
            "offsets": [[n, b, o] for (n, b), o in self._offsets.items()],
            "commands": [c.model_dump(mode="json") for c in self._commands.values()],
            "next": self._next_command,
        }

    def restore(self, data: dict[str, Any]) -> None:
        self._nodes = {s.name: s for s in (NodeState.model_validate(x) for x in data.get("nodes", []))}
        self._offsets = {(str(n), str(b)): int(o) for n, b, o in data.get("offsets", [])}
        self._commands = {
            c.command: c for c in (CommandState.model_validate(x) for x in data.get("commands", []))
        }
        self._next_command = int(data.get("next", 1))
        self._staged.rebase(self._nodes)
        self._staged_offsets.rebase(self._offsets)
        self._staged_commands.rebase(self._commands)
        self._view = self._make_view()
        self.begin()


__all__ = [
    "COMMAND_TIMEOUT_NS",
    "COMMAND_VALID_NS",
    "CommandState",
    "NodeAlert",
    "NodeReplyIn",
    "NodeRowIn",
    "NodeState",
    "NodeStatusIn",
    "Nodes",
    "NodesView",
    "Outage",
    "command_of",
    "command_request",
    "node_base",
]
