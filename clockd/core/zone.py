"""The puzzle zone's timed contests: the pairs relay, blind puzzling and the team event.

Three events of the festival's puzzle zone (RULES.md §C–§E, regulations §3–§5) share one
shape: entries (pairs, teams) at their tables start together on the referee's signal, race
against the hall's clock (:class:`~clockd.core.hall.HallTimer`: 60 or 180 minutes, the
relay's "ZMIANA" every 5 minutes), and are ranked by the same rules:

* **finishers first, by time** — the event time of the finish (pauses excluded), at the
  millisecond; the team event then ranks **fewer missing pieces** higher (§5.2.6);
* **then the unfinished, by counted pieces**, more first (the referees count pieces in
  groups of 3 or more joined, §3.2.10, §4.2.14, §5.2.5); an unfinished entry not yet
  counted comes after those counted;
* entries equal on every criterion **share a place** and the next place is skipped
  ("1, 2, 2, 4");
* **not classified** (``place`` ``None``, listed last): an entry the referee voided, a team
  with more than 10 pieces missing (§5.2.7), a finish that came after the end (refused as a
  finish: the time had run out).

Blind puzzling records a **split** too: the instant the referee verified bag 2 (§4.2.9),
shown on the ranking sheet. The relay's pair finishes when both pictures are done (the
pair's table button or the referee's click).

The state is :class:`ZoneEvent`, frozen; each input is a method returning the next state or
raising :class:`ZoneError` with a catalogue code. The daemon (:mod:`clockd.service.zone`)
and the referee's dispute tool (:func:`replay`, ``duelclock event replay``) apply the same
methods in the same order, so both rank alike.

This module is the event's state and rules (:class:`ZoneEvent`), its ranking and the
dispute tool's replay. Apart, and re-exported here where the service, the CLI, the desk and
the tests import them: what an event is created with and what the referee sends it
(:mod:`clockd.core.zone_inputs`: kinds, configuration, actions) and the replay file's
format (:mod:`clockd.core.zone_replay_file`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Allowed
from clockd.core.hall import (
    HallTimer,
    TimerAction,
    TimerError,
    TimerPause,
    TimerPhase,
    TimerResume,
    TimerStart,
)
from clockd.core.private import PRIVATE
from clockd.core.registration import SEALED_NAME, Person
from clockd.core.units import MINUTE, MS, ns_to_ms
from clockd.core.zone_inputs import (
    TEAM_MAX_MISSING,
    ZONE_ACTIONS,
    ZONE_KINDS,
    AddEntry,
    CloseEntries,
    ConfirmRanking,
    CountEntry,
    EntryCheckIn,
    EntryCheckOut,
    EntryId,
    EntryTable,
    ImportEntries,
    MissingPieces,
    ReopenEntries,
    SplitEntry,
    UnvoidEntry,
    VoidEntry,
    ZoneConfig,
    ZoneError,
    ZoneKind,
)
from clockd.core.zone_replay_file import (
    ReplayCount,
    ReplayError,
    ReplayFile,
    ReplayFinish,
    ReplayPause,
    ReplayResume,
    ReplaySplit,
    ReplayStart,
    ReplayTimed,
    ReplayVoid,
    parse_replay,
)
from clockd.core.zone_signups import EntryRefusal, EntrySignups
from clockd.i18n import Msg, msg

# -- the state ---------------------------------------------------------------------------------


class EntryRecord(BaseModel):
    """What happened to one entry (times in event time, ns)."""

    model_config = ConfigDict(frozen=True)

    finish_ns: int | None = None
    split_ns: int | None = None
    missing: int = 0
    pieces: int | None = None
    per_picture: tuple[int, ...] = ()  # the relay's count, picture by picture
    void: str | None = None  # the referee's reason
    late: bool = False  # a finish came after the end: refused, not classified


class RankRow(BaseModel):
    """One line of a ranking (the replay's output, the results file, the screens)."""

    model_config = ConfigDict(frozen=True)

    place: int | None
    id: EntryId
    finished: bool
    time_ms: int | None
    split_ms: int | None
    pieces: int | None
    missing: int
    classified: bool
    #: Why not classified: ``void``, ``missing`` (too many), ``late``; ``None`` when classified.
    why: Literal["void", "missing", "late"] | None = None
    reason: str | None = None  # the referee's, for a void

    def public(self) -> dict[str, Any]:
        """The row as ``duelclock event replay`` prints it (exactly its fields)."""
        return self.model_dump(include=set(REPLAY_FIELDS))


REPLAY_FIELDS = ("place", "id", "finished", "time_ms", "split_ms", "pieces", "missing", "classified")


class ZoneEvent(BaseModel):
    """One relay, blind-puzzling or team event: its timer and what each entry did."""

    model_config = ConfigDict(frozen=True)

    kind: ZoneKind
    config: ZoneConfig
    timer: HallTimer
    records: dict[EntryId, EntryRecord] = Field(default_factory=dict)
    confirmed: bool = False
    #: Entries added at the desk (after those of the file), their names and tables.
    added: tuple[EntryId, ...] = ()
    added_names: dict[EntryId, str] = Field(default_factory=dict)
    added_tables: dict[EntryId, int] = Field(default_factory=dict)
    #: Sign-up lists (entries imported or walked in), check-in and the field once closed.
    lists: dict[EntryId, Literal["main", "reserve", "walk-in"]] = Field(default_factory=dict)
    members: dict[EntryId, tuple[str, ...]] = Field(default_factory=dict)
    present: frozenset[EntryId] = frozenset()
    field: tuple[EntryId, ...] | None = None
    seat_changes: tuple[tuple[EntryId | None, EntryId, str], ...] = ()  # (absent, taken by, rule)
    signup_refusals: tuple[EntryRefusal, ...] = ()  # the import's refusals: lines and public names
    #: The imported entries' members as people (the vault's: ``docs/people.md``): each one's form
    #: line in its entry, person id and data, by line.
    entry_lines: dict[EntryId, tuple[int, ...]] = Field(default_factory=dict)
    person_ids: dict[int, str] = Field(default_factory=dict)
    persons: dict[int, Person] = Field(default_factory=dict, json_schema_extra=PRIVATE)
    form_times: dict[int, str] = Field(default_factory=dict)  # each member's form time, by line
    signup_no_email: tuple[tuple[int, str], ...] = ()  # main-list members without an e-mail: line, name

    @classmethod
    def new(cls, kind: ZoneKind, config: ZoneConfig) -> ZoneEvent:
        return cls(kind=kind, config=config, timer=config.timer())

    # -- the rules of the kind -------------------------------------------------------------
    @property
    def splits(self) -> bool:
        return self.kind == "blind"

    @property
    def max_missing(self) -> int | None:
        if self.config.max_missing is not None:
            return self.config.max_missing
        return TEAM_MAX_MISSING if self.kind == "team" else None

    @property
    def entries(self) -> tuple[EntryId, ...]:
        """The entries that compete: the file's, those added — once the check-in is closed,
        of the listed ones only those in the field."""
        every = self.config.entry_ids() + self.added
        if self.field is None:
            return every
        return tuple(e for e in every if e not in self.lists or e in self.field)

    @property
    def signed_up(self) -> tuple[EntryId, ...]:
        """Every entry, in the lists or not (the check-in's view)."""
        return self.config.entry_ids() + self.added

    def import_entries(self, signups: EntrySignups) -> ZoneEvent:
        """The sign-up lists (:class:`~clockd.core.zone_signups.EntrySignups`) join the event."""
        if self.timer.phase is not TimerPhase.READY:
            raise ZoneError("zone.add-after-start")
        if self.lists:
            raise ZoneError("zone.imported-already", n=len(self.lists))
        event = self
        for e in signups.entries:
            if e.entry in event.signed_up:
                raise ZoneError("zone.entry-exists", entry=e.entry)
        added = tuple(e.entry for e in signups.entries)
        return event.model_copy(
            update={
                "added": (*self.added, *added),
                "added_names": {**self.added_names, **{e.entry: e.name for e in signups.entries}},
                "lists": {**self.lists, **{e.entry: e.list for e in signups.entries}},
                "members": {**self.members, **{e.entry: tuple(e.members) for e in signups.entries}},
                "signup_refusals": tuple(signups.refused),
                "entry_lines": {**self.entry_lines, **{e.entry: tuple(e.lines) for e in signups.entries}},
                "person_ids": {**self.person_ids, **signups.person_ids},
                "persons": {**self.persons, **signups.persons},
                "form_times": {**self.form_times, **signups.form_times},
                "signup_no_email": signups.no_email,
            }
        )

    # -- the members' data (the person registry's actions: correct, erase) ------------------
    def _member_renamed(self, line: int, name: str) -> ZoneEvent:
        members, names = dict(self.members), dict(self.added_names)
        for entry, lines in self.entry_lines.items():
            if line not in lines:
                continue
            old = self.members.get(entry, ())
            i = lines.index(line)
            new = (*old[:i], name, *old[i + 1 :])
            members[entry] = new
            if names.get(entry) == " i ".join(old):  # a pair's name is its members' names
                names[entry] = " i ".join(new)
        no_email = tuple((n, name if n == line else shown) for n, shown in self.signup_no_email)
        return self.model_copy(update={"members": members, "added_names": names, "signup_no_email": no_email})

    def erased(self, person_id: str) -> ZoneEvent:
        """The person's data gone: their member's name is the stand-in; the entries, their
        results and the lists stay."""
        event = self
        for line, pid in self.person_ids.items():
            if pid == person_id:
                event = event._member_renamed(line, SEALED_NAME)
                event = event.model_copy(
                    update={
                        "person_ids": {k: v for k, v in event.person_ids.items() if k != line},
                        "persons": {k: v for k, v in event.persons.items() if k != line},
                    }
                )
        return event

    def corrected(self, person_id: str, field: str, value: object) -> ZoneEvent:
        """One field of the person's data corrected (a name: the public name follows)."""
        event = self
        for line, pid in self.person_ids.items():
            person = event.persons.get(line)
            if pid != person_id or person is None:
                continue
            person = person.model_copy(update={field: value})
            event = event.model_copy(update={"persons": {**event.persons, line: person}})
            if field in ("first_name", "last_name"):
                event = event._member_renamed(line, person.short_name)
        return event

    def _check_in_open(self, entry: EntryId | None = None) -> None:
        if self.field is not None:
            raise ZoneError("zone.check-in-closed")
        if self.timer.phase is not TimerPhase.READY:
            raise ZoneError("zone.add-after-start")
        if entry is not None and entry not in self.signed_up:
            raise ZoneError("hall.no-entry", entry=entry, known=list(self.signed_up))

    def check_in(self, entry: EntryId) -> ZoneEvent:
        self._check_in_open(entry)
        return self.model_copy(update={"present": self.present | {entry}})

    def check_out(self, entry: EntryId) -> ZoneEvent:
        self._check_in_open(entry)
        if entry not in self.present:
            raise ZoneError("zone.not-present", entry=entry)
        return self.model_copy(update={"present": self.present - {entry}})

    def close_check_in(self) -> ZoneEvent:
        """Present main entries keep their seats; each empty seat goes to the next present
        reserve (§1.18), then to present walk-ins in order of arrival (§1.19)."""
        self._check_in_open()
        if not self.lists:
            raise ZoneError("zone.no-lists")
        seats = self.config.max_entries or sum(1 for v in self.lists.values() if v == "main")
        order = self.signed_up
        main = [e for e in order if self.lists.get(e) == "main"]
        field = [e for e in main if e in self.present]
        absent: list[EntryId | None] = [e for e in main if e not in self.present]
        absent += [None] * max(0, seats - len(main))
        queue = [(e, "reserve §1.18") for e in order if self.lists.get(e) == "reserve" and e in self.present]
        queue += [(e, "walk-in §1.19") for e in order if self.lists.get(e) == "walk-in" and e in self.present]
        changes: list[tuple[EntryId | None, EntryId, str]] = []
        for seat in absent:
            if not queue:
                break
            entry, rule = queue.pop(0)
            field.append(entry)
            changes.append((seat, entry, rule))
        return self.model_copy(update={"field": tuple(field), "seat_changes": tuple(changes)})

    def reopen_check_in(self) -> ZoneEvent:
        """The close taken back, before the start: the check-in is open again."""
        if self.timer.phase is not TimerPhase.READY:
            raise ZoneError("zone.reopen-after-start")
        if self.field is None:
            raise ZoneError("zone.check-in-not-closed")
        return self.model_copy(update={"field": None, "seat_changes": ()})

    def set_table(self, entry: EntryId, table: int) -> ZoneEvent:
        if self.timer.phase is not TimerPhase.READY:
            raise ZoneError("zone.add-after-start")
        if entry not in self.signed_up:
            raise ZoneError("hall.no-entry", entry=entry, known=list(self.signed_up))
        if entry in self.config.stations or entry in self.added_tables:
            raise ZoneError("zone.has-table", entry=entry, table=self.stations[entry])
        owner = next((e for e, t in self.stations.items() if t == table), None)
        if owner is not None:
            raise ZoneError("zone.table-taken", table=table, entry=owner)
        return self.model_copy(update={"added_tables": {**self.added_tables, entry: table}})

    def name_of(self, entry: EntryId) -> str:
        return self.added_names.get(entry) or self.config.name_of(entry)

    @property
    def stations(self) -> dict[EntryId, int]:
        """Every entry's table (those of the file, then those added)."""
        return {**self.config.stations, **self.added_tables}

    def table_of(self, entry: EntryId) -> int | None:
        return self.stations.get(entry)

    def signal_tables(self) -> tuple[int, ...]:
        """The tables whose buzzers sound the signals (the file's ``devices``, else the stations')."""
        if self.config.devices is not None:
            return self.config.devices
        return tuple(sorted(self.stations.values()))

    def add(self, entry: EntryId, name: str = "", table: int | None = None) -> ZoneEvent:
        """A pair or team joins before the start (its table: its station)."""
        if self.confirmed:
            raise ZoneError("zone.confirmed")
        if self.timer.phase is not TimerPhase.READY:
            raise ZoneError("zone.add-after-start")
        if entry in self.signed_up:
            raise ZoneError("zone.entry-exists", entry=entry)
        if self.field is not None:
            raise ZoneError("zone.check-in-closed")
        limit = self.config.max_entries
        if not self.lists and limit is not None and len(self.entries) >= limit:
            raise ZoneError("zone.full", most=limit)
        if table is not None:
            owner = next((e for e, t in self.stations.items() if t == table), None)
            if owner is not None:
                raise ZoneError("zone.table-taken", table=table, entry=owner)
        update: dict[str, Any] = {"added": (*self.added, entry)}
        if self.lists:  # after the sign-ups: someone waiting at the hall (§1.19), so present
            update["lists"] = {**self.lists, entry: "walk-in"}
            update["present"] = self.present | {entry}
        if name:
            update["added_names"] = {**self.added_names, entry: name}
        if table is not None:
            update["added_tables"] = {**self.added_tables, entry: table}
        return self.model_copy(update=update)

    def record(self, entry: EntryId) -> EntryRecord:
        return self.records.get(entry, EntryRecord())

    def holds_table(self, entry: EntryId) -> bool:
        """Whether ``entry`` still needs its table: not once it is voided, nor once the ranking
        is confirmed (DESIGN.md principle 12: the next event takes the table)."""
        return not self.confirmed and self.record(entry).void is None

    # -- reading -------------------------------------------------------------------------------
    def raw_elapsed(self, t_ns: int) -> int:
        """Event time at ``t_ns``, not capped at the end (a finish past it is late)."""
        timer = self.timer
        if timer.phase is TimerPhase.RUNNING:
            return timer.run_ns + (t_ns - timer.mark_ns)
        return timer.run_ns

    def everyone_finished(self) -> bool:
        return bool(self.entries) and all(self.record(e).finish_ns is not None for e in self.entries)

    def allowed(self, t_ns: int) -> Allowed:
        out = self.timer.allowed(t_ns)
        phase = Msg(code=f"term.timer-phase.{self.timer.phase.value}")
        started = self.timer.phase in (TimerPhase.RUNNING, TimerPhase.PAUSED)
        ended = self.timer.phase is TimerPhase.ENDED
        if self.confirmed:
            confirmed = msg("zone.confirmed")
            return dict.fromkeys(
                (*out, "entry-finish", "entry-unfinish", *ZONE_ACTIONS),
                confirmed,
            )
        out["entry-finish"] = None if started else msg("timer.not-running", phase=phase)
        finished = [e for e in self.entries if self.record(e).finish_ns is not None]
        out["entry-unfinish"] = None if finished else msg("hall.no-finish")
        out["entry-split"] = (
            msg("zone.no-split", kind=_kind_term(self.kind))
            if not self.splits
            else None
            if started
            else msg("timer.not-running", phase=phase)
        )
        out["entry-count"] = None if ended else msg("zone.count-after-end")
        out["entry-missing"] = None if finished else msg("hall.no-finish")
        ready = self.timer.phase is TimerPhase.READY
        before = None if ready else msg("zone.add-after-start")
        out["entry-add"] = before or (msg("zone.check-in-closed") if self.field is not None else None)
        out["entries-import"] = before or (
            msg("zone.imported-already", n=len(self.lists)) if self.lists else None
        )
        open_check_in = before or (msg("zone.check-in-closed") if self.field is not None else None)
        out["entry-check-in"] = open_check_in or (None if self.lists else msg("zone.no-lists"))
        out["entry-check-out"] = open_check_in or (None if self.present else msg("zone.none-present"))
        out["entries-close"] = open_check_in or (None if self.lists else msg("zone.no-lists"))
        out["entries-reopen"] = (
            msg("zone.reopen-after-start")
            if not ready
            else None
            if self.field is not None
            else msg("zone.check-in-not-closed")
        )
        out["entry-table"] = before
        if ready and self.lists and self.field is None:
            out["timer-start"] = msg("zone.check-in-open")
        out["entry-void"] = None
        voided = [e for e in self.entries if self.record(e).void is not None]
        out["entry-unvoid"] = None if voided else msg("zone.no-void")
        out["zone-confirm"] = self._confirm_refusal()
        return out

    def _confirm_refusal(self) -> Msg | None:
        if self.timer.phase is not TimerPhase.ENDED:
            return msg("zone.confirm-before-end")
        uncounted = [
            e
            for e in self.entries
            if (r := self.record(e)).finish_ns is None and r.pieces is None and r.void is None and not r.late
        ]
        if uncounted:
            return msg("zone.uncounted", entries=uncounted)
        return None

    # -- inputs ----------------------------------------------------------------------------------
    def _known(self, entry: EntryId) -> EntryRecord:
        if entry not in self.entries:
            raise ZoneError("hall.no-entry", entry=entry, known=list(self.entries))
        if self.confirmed:
            raise ZoneError("zone.confirmed")
        return self.record(entry)

    def _with(self, entry: EntryId, record: EntryRecord) -> ZoneEvent:
        return self.model_copy(update={"records": {**self.records, entry: record}})

    def apply_timer(self, action: TimerAction) -> ZoneEvent:
        if self.confirmed:
            raise ZoneError("zone.confirmed")
        if action.kind == "timer-start" and self.lists and self.field is None:
            raise ZoneError("zone.check-in-open")
        try:
            timer = self.timer.apply(action)
        except TimerError as exc:
            raise ZoneError(exc.msg) from None
        return self.model_copy(update={"timer": timer})

    def fire(self, offset_ns: int) -> ZoneEvent:
        return self.model_copy(update={"timer": self.timer.fire(offset_ns)})

    def end(self, t_ns: int) -> ZoneEvent:
        """The time ran out at ``t_ns`` (or everyone finished, or the referee called time)."""
        return self.model_copy(update={"timer": self.timer.end(t_ns)})

    def late_after_end(self, t_ns: int) -> bool:
        """Whether an input at ``t_ns`` comes after the event's end (its time ran out)."""
        timer = self.timer
        if timer.phase is TimerPhase.ENDED:
            return timer.ended_at_ns is not None and t_ns > timer.ended_at_ns
        return timer.duration_ns is not None and self.raw_elapsed(t_ns) > timer.duration_ns

    def finish(self, entry: EntryId, t_ns: int, missing: int = 0) -> ZoneEvent:
        """``entry`` finished at ``t_ns`` (its picture(s) complete), ``missing`` pieces short.

        Refused before the start, twice, and after the end (the time had run out:
        ``zone.finish-after-end``; see :meth:`late_finish` for the record of it)."""
        record = self._known(entry)
        if self.timer.phase is TimerPhase.READY:
            raise ZoneError("timer.not-running", phase=Msg(code="term.timer-phase.ready"))
        if record.finish_ns is not None:
            raise ZoneError("hall.finished-already", entry=entry, at_ms=ns_to_ms(record.finish_ns))
        if self.late_after_end(t_ns):
            assert self.timer.duration_ns is not None or self.timer.ended_at_ns is not None
            raise ZoneError("zone.finish-after-end", entry=entry, end_ms=self._end_ms())
        if missing < 0:
            raise ZoneError("zone.missing-negative", entry=entry)
        elapsed = self.raw_elapsed(t_ns)
        if self.timer.duration_ns is not None:
            elapsed = min(elapsed, self.timer.duration_ns)
        return self._with(entry, record.model_copy(update={"finish_ns": max(0, elapsed), "missing": missing}))

    def _end_ms(self) -> int:
        if self.timer.phase is TimerPhase.ENDED:
            return ns_to_ms(self.timer.run_ns)
        return ns_to_ms(self.timer.duration_ns or 0)

    def late_finish(self, entry: EntryId) -> ZoneEvent:
        """A finish reported after the end: not a finish, and the entry is not classified."""
        record = self._known(entry)
        return self._with(entry, record.model_copy(update={"late": True}))

    def unfinish(self, entry: EntryId) -> ZoneEvent:
        record = self._known(entry)
        if record.finish_ns is None:
            raise ZoneError("hall.not-finished", entry=entry)
        return self._with(entry, record.model_copy(update={"finish_ns": None, "missing": 0}))

    def split(self, entry: EntryId, t_ns: int) -> ZoneEvent:
        record = self._known(entry)
        refusal = self.allowed(t_ns)["entry-split"]
        if refusal is not None:
            raise ZoneError(refusal)
        if record.split_ns is not None:
            raise ZoneError("zone.split-already", entry=entry, at_ms=ns_to_ms(record.split_ns))
        if record.finish_ns is not None:
            raise ZoneError("hall.finished-already", entry=entry, at_ms=ns_to_ms(record.finish_ns))
        if self.late_after_end(t_ns):
            raise ZoneError("zone.split-after-end", entry=entry, end_ms=self._end_ms())
        return self._with(entry, record.model_copy(update={"split_ns": max(0, self.raw_elapsed(t_ns))}))

    def count(self, entry: EntryId, pieces: int, per_picture: tuple[int, ...] = ()) -> ZoneEvent:
        record = self._known(entry)
        if self.timer.phase is not TimerPhase.ENDED:
            raise ZoneError("zone.count-after-end")
        if record.finish_ns is not None:
            raise ZoneError("zone.count-finished", entry=entry, at_ms=ns_to_ms(record.finish_ns))
        if pieces < 0:
            raise ZoneError("zone.pieces-negative", entry=entry)
        if per_picture and len(per_picture) != self.config.pictures:
            raise ZoneError(
                "zone.count-pictures", entry=entry, n=len(per_picture), pictures=self.config.pictures
            )
        self._within_puzzle(entry, pieces, per_picture)
        return self._with(entry, record.model_copy(update={"pieces": pieces, "per_picture": per_picture}))

    def _within_puzzle(self, entry: EntryId, pieces: int, per_picture: tuple[int, ...]) -> None:
        """A count cannot exceed the puzzle: ``pieces`` per picture (the file's), times the pictures."""
        each = self.config.pieces
        if each is None:
            return
        for number, counted in enumerate(per_picture, start=1):
            if counted > each:
                raise ZoneError(
                    "zone.count-over-picture", entry=entry, picture=number, pieces=counted, limit=each
                )
        limit = each * self.config.pictures
        if pieces > limit:
            raise ZoneError("zone.count-over-pieces", entry=entry, pieces=pieces, limit=limit)

    def set_missing(self, entry: EntryId, missing: int) -> ZoneEvent:
        record = self._known(entry)
        if record.finish_ns is None:
            raise ZoneError("hall.not-finished", entry=entry)
        if missing < 0:
            raise ZoneError("zone.missing-negative", entry=entry)
        return self._with(entry, record.model_copy(update={"missing": missing}))

    def void(self, entry: EntryId, reason: str) -> ZoneEvent:
        record = self._known(entry)
        if record.void is not None:
            raise ZoneError("zone.voided-already", entry=entry, reason=record.void)
        return self._with(entry, record.model_copy(update={"void": reason or "—"}))

    def unvoid(self, entry: EntryId) -> ZoneEvent:
        record = self._known(entry)
        if record.void is None:
            raise ZoneError("zone.not-voided", entry=entry)
        return self._with(entry, record.model_copy(update={"void": None}))

    def confirm(self) -> ZoneEvent:
        if self.confirmed:
            raise ZoneError("zone.confirmed")
        refusal = self._confirm_refusal()
        if refusal is not None:
            raise ZoneError(refusal)
        return self.model_copy(update={"confirmed": True})

    # -- the ranking -------------------------------------------------------------------------------
    def ranking(self) -> list[RankRow]:
        """Every entry in ranking order (see the module docstring)."""
        return rank(self.kind, self.entries, self.records, self.max_missing)


def rank(
    kind: ZoneKind,
    entries: tuple[EntryId, ...],
    records: dict[EntryId, EntryRecord],
    max_missing: int | None,
) -> list[RankRow]:
    """The ranking of ``entries`` by their ``records`` (module docstring); ties keep the
    entries' order."""
    classified: list[tuple[tuple[int, ...], RankRow]] = []
    unclassified: list[RankRow] = []
    for entry in entries:
        r = records.get(entry, EntryRecord())
        finished = r.finish_ns is not None and not r.late
        time_ms = ns_to_ms(r.finish_ns) if finished and r.finish_ns is not None else None
        split_ms = ns_to_ms(r.split_ns) if r.split_ns is not None else None
        why: Literal["void", "missing", "late"] | None = None
        if r.void is not None:
            why = "void"
        elif r.late:
            why = "late"
        elif finished and max_missing is not None and r.missing > max_missing:
            why = "missing"
        row = RankRow(
            place=None,
            id=entry,
            finished=finished,
            time_ms=time_ms,
            split_ms=split_ms,
            pieces=None if finished else r.pieces,
            missing=r.missing,
            classified=why is None,
            why=why,
            reason=r.void,
        )
        if why is not None:
            unclassified.append(row)
            continue
        if finished:
            assert time_ms is not None
            key: tuple[int, ...] = (0, time_ms, r.missing if kind == "team" else 0)
        elif r.pieces is not None:
            key = (1, -r.pieces)
        else:
            key = (2,)
        classified.append((key, row))
    classified.sort(key=lambda kr: kr[0])  # stable: equal keys keep the entries' order
    out: list[RankRow] = []
    place = 0
    previous: tuple[int, ...] | None = None
    for i, (key, row) in enumerate(classified):
        if key != previous:
            place = i + 1
            previous = key
        out.append(row.model_copy(update={"place": place}))
    return out + unclassified


# -- the referee's dispute tool: one event's inputs, ranked as the daemon ranks them ----------------


class ReplayResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    ranking: list[RankRow]
    signals_ms: list[int]
    ended_at_ms: int

    def public(self) -> dict[str, Any]:
        return {
            "ranking": [row.public() for row in self.ranking],
            "signals_ms": list(self.signals_ms),
            "ended_at_ms": self.ended_at_ms,
        }


def replay(data: Any, source: str = "<file>") -> ReplayResult:
    """Replay one event's inputs (``duelclock event replay``'s file) and rank it.

    Timed events (``t_ms`` on the daemon's clock, in order) apply as the daemon applies them:
    before each, whatever time has brought is decided first (a signal, the end), as the
    daemon decides what falls due before the inputs of the same instant. A ``finish`` after
    the end is not a finish: the entry is not classified. The timeless decisions follow: a
    ``void`` applies where it stands, the ``count`` of pieces after the end (where the daemon
    takes it). After the last timed event the time runs on to its end, unless every entry
    finished (then the event ended at the last finish).
    """
    header, events = parse_replay(data, source)
    config = ZoneConfig(
        duration=header.duration_min * MINUTE,
        signal_every=None if header.signal_every_min is None else header.signal_every_min * MINUTE,
        entries=tuple(header.entries),
    )
    ev = ZoneEvent.new(header.event, config)
    signals: list[int] = []
    last_t: int | None = None
    counts: list[tuple[int, ReplayCount]] = []

    def advance(upto_ns: int | None) -> None:
        nonlocal ev
        while True:
            d = ev.timer.due()
            if d is None or (upto_ns is not None and d.at_ns > upto_ns):
                return
            if d.what == "signal":
                if d.offset_ns >= 0:
                    signals.append(d.at_ns)
                ev = ev.fire(d.offset_ns)
            else:
                ev = ev.end(d.at_ns)

    for i, e in enumerate(events):
        where = f"events[{i}]"
        try:
            if isinstance(e, ReplayCount):
                counts.append((i, e))
                continue
            if isinstance(e, ReplayVoid):
                ev = ev.void(e.void, e.reason)
                continue
            assert isinstance(e, ReplayTimed)
            if last_t is not None and e.t_ms < last_t:
                raise ZoneError("zone.replay-back-in-time", t_ms=e.t_ms, last_ms=last_t)
            last_t = e.t_ms
            t = e.t_ms * MS
            advance(t)
            if isinstance(e, ReplayStart):
                ev = ev.apply_timer(TimerStart(t_ns=t))
            elif isinstance(e, ReplayPause):
                ev = ev.apply_timer(TimerPause(t_ns=t))
            elif isinstance(e, ReplayResume):
                ev = ev.apply_timer(TimerResume(t_ns=t))
            elif isinstance(e, ReplaySplit):
                ev = ev.split(e.split, t)
            elif isinstance(e, ReplayFinish):
                already = ev.record(e.finish).finish_ns is not None
                if ev.timer.phase is not TimerPhase.READY and ev.late_after_end(t) and not already:
                    ev = ev.late_finish(e.finish)
                else:
                    ev = ev.finish(e.finish, t, e.missing)
                    if ev.everyone_finished() and ev.timer.phase is not TimerPhase.ENDED:
                        ev = ev.end(t)
        except ZoneError as exc:
            raise ReplayError("zone.replay-refused", source=source, where=where, problem=exc.msg) from None
    if ev.timer.phase is TimerPhase.READY:
        raise ReplayError("zone.replay-no-start", source=source)
    if ev.timer.phase is TimerPhase.PAUSED:
        raise ReplayError("zone.replay-paused-at-end", source=source, at_ms=ns_to_ms(ev.timer.run_ns))
    advance(None)
    assert ev.timer.phase is TimerPhase.ENDED and ev.timer.ended_at_ns is not None
    for i, c in counts:
        try:
            ev = ev.count(c.count, c.pieces)
        except ZoneError as exc:
            raise ReplayError(
                "zone.replay-refused", source=source, where=f"events[{i}]", problem=exc.msg
            ) from None
    ended = ev.timer.ended_at_ns
    assert ended is not None
    return ReplayResult(
        ranking=ev.ranking(),
        signals_ms=[ns_to_ms(s) for s in signals],
        ended_at_ms=ns_to_ms(ended),
    )


def _kind_term(kind: str) -> Msg:
    return Msg(code=f"term.event-kind.{kind}")


__all__ = [
    "REPLAY_FIELDS",
    "TEAM_MAX_MISSING",
    "ZONE_ACTIONS",
    "ZONE_KINDS",
    "AddEntry",
    "CloseEntries",
    "ConfirmRanking",
    "CountEntry",
    "EntryCheckIn",
    "EntryCheckOut",
    "EntryId",
    "EntryRecord",
    "EntryTable",
    "ImportEntries",
    "MissingPieces",
    "RankRow",
    "ReopenEntries",
    "ReplayError",
    "ReplayFile",
    "ReplayResult",
    "SplitEntry",
    "UnvoidEntry",
    "VoidEntry",
    "ZoneConfig",
    "ZoneError",
    "ZoneEvent",
    "ZoneKind",
    "parse_replay",
    "rank",
    "replay",
]
