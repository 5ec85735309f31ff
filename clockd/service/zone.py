"""The zone's timed contests as event kinds: ``relay``, ``blind`` and ``team``.

The rules are :class:`~clockd.core.zone.ZoneEvent` (pure): its hall timer, its entries and
their finishes, splits, counts, missing pieces and voids, and the ranking. This module puts
them in the daemon as the ``timer`` kind (:mod:`clockd.service.timed`) puts a bare timer:

* **The hall's clock** is the :class:`~clockd.service.hallclock.HallClock` this kind holds,
  as the ``timer`` kind holds its own: the same actions (``timer-start`` … ``timer-end``) and
  the same decisions (``timer-due``: a signal, the end, journaled at their instants and
  sounded on the buzzers of the event's tables, pushed to the screens as ``signal``). The
  relay's "ZMIANA" every 5 minutes goes on after one picture is done (§3.2.8): the signals
  are the hall's, not a pair's.
* **Entries at their tables.** Each pair or team with a table has a
  :class:`~clockd.core.hall.Station` there; the start arms them, the end disarms them. A
  station's press is that entry's finish, journaled in the same commit as the press
  (``entry-finish``, source ``button``), at the press's instant. The referee's click records
  the same finish at the daemon's instant.
* **Everyone finished: the event ends** at the last finish (a ``timer-due`` end in the same
  commit), and the end sounds as when the time runs out.
* **Crash-safe.** Every input is an entry; a restart rebuilds the event by the same methods,
  and a hall clock that ran meanwhile raises an alert (after a reboot: paused), as a timer's does.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Any

from pydantic import ValidationError

from clockd.api.shown import Pick
from clockd.api.zone import ZoneBody, ZoneEntryView, zone_body
from clockd.core.actions import Allowed, validation_msgs
from clockd.core.hall import FinishEntry, UndoFinish
from clockd.core.registry import PersonSource
from clockd.core.zone import (
    ZONE_ACTIONS,
    AddEntry,
    CloseEntries,
    ConfirmRanking,
    CountEntry,
    EntryCheckIn,
    EntryCheckOut,
    EntryTable,
    ImportEntries,
    MissingPieces,
    ReopenEntries,
    SplitEntry,
    UnvoidEntry,
    VoidEntry,
    ZoneConfig,
    ZoneError,
    ZoneEvent,
    ZoneKind,
)
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Restart, Staged
from clockd.service.events import EventContext, Hosted, event_kind
from clockd.service.hallclock import HallClock
from clockd.service.tables import TableState
from clockd.store.entries import Entry

#: The default rules of each kind, as the regulations give them (``clockd/data``).
DEFAULT_FILES: dict[str, str] = {"relay": "relay.toml", "blind": "blind.toml", "team": "team.toml"}


def default_config_text(kind: str) -> str:
    return resources.files("clockd.data").joinpath(DEFAULT_FILES[kind]).read_text(encoding="utf-8")


def parse_config(text: str, name: str = "", source: str = "the configuration sent") -> ZoneConfig:
    """A zone contest's configuration from its TOML text; :class:`Refused` naming every problem."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused("config.not-toml", source=source, problem=str(exc)) from exc
    if name and "name" not in data:
        data["name"] = name
    try:
        return ZoneConfig.model_validate(data)
    except ValidationError as exc:
        raise Refused("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


def _stations(event: ZoneEvent) -> Iterable[tuple[str, int]]:
    """The contest's stations (those of its file and those given at the desk), by table."""
    return sorted(event.stations.items(), key=lambda kv: kv[1])


def _pick(e: ZoneEntryView) -> Pick:
    if e.table is None:
        return Pick(value=e.entry, label=msg("pick.entry", name=e.name))
    return Pick(value=e.entry, label=msg("pick.entry-at-table", name=e.name, table=e.table))


#: Which entries each entry action may name now (its ``entry`` field's picks).
ENTRY_PICKS: dict[str, Callable[[ZoneEntryView], bool]] = {
    "entry-finish": lambda e: e.finished_ms is None and e.why is None,
    "entry-unfinish": lambda e: e.finished_ms is not None,
    "entry-split": lambda e: e.finished_ms is None and e.split_ms is None and e.why is None,
    "entry-count": lambda e: e.finished_ms is None and e.why != "void",
    "entry-missing": lambda e: e.finished_ms is not None,
    "entry-void": lambda e: e.why != "void",
    "entry-unvoid": lambda e: e.why == "void",
    "entry-table": lambda e: e.table is None,
    "entry-check-in": lambda e: not e.present and e.on_list is not None,
    "entry-check-out": lambda e: e.present,
}


class ZoneContest:
    """The event kind of one zone contest (``relay``, ``blind`` or ``team``; see the module docstring)."""

    clock = HallClock(_stations)
    actions = clock.actions | {"entry-finish", "entry-unfinish", *ZONE_ACTIONS}
    entries = clock.entries
    reacts_to = clock.reacts_to

    def __init__(self, kind: ZoneKind) -> None:
        self.kind: ZoneKind = kind

    # -- creation --------------------------------------------------------------------------------
    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        if config_toml is None:
            source = f"clockd/data/{DEFAULT_FILES[self.kind]}"
            config = parse_config(default_config_text(self.kind), name, source)
        else:
            config = parse_config(config_toml, name)
        return ZoneEvent.new(self.kind, config), config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return ZoneEvent.new(self.kind, ZoneConfig.model_validate(config))

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.created(ctx, hosted)

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        from clockd.reports.zone import zone_results

        return zone_results(hosted.state, title=self._title_text(hosted, lang), key=hosted.key, lang=lang)

    def holds(self, hosted: Hosted, item: str) -> bool:
        """An entry holds its station until it is voided or the ranking is confirmed."""
        event: ZoneEvent = hosted.state
        return event.holds_table(item)

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        event: ZoneEvent = hosted.state
        return event.table_of(item)

    # -- staging ---------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        event: ZoneEvent = hosted.state
        try:
            if self.clock.owns(entry):
                return self.clock.stage(ctx, hosted, entry, replay=replay)
            assert isinstance(entry, ActionEntry)
            return self._action(ctx, hosted, event, entry, entry.action, entry.t_ns, replay)
        except ZoneError as exc:
            raise Refused(exc.msg) from exc

    def _action(
        self,
        ctx: EventContext,
        hosted: Hosted,
        event: ZoneEvent,
        entry: ActionEntry,
        action: Any,
        t: int,
        replay: bool,
    ) -> tuple[Any, Staged]:
        if isinstance(action, FinishEntry):
            after = event.finish(action.entry, t)
            follow: list[Entry] = []
            if not replay and entry.source != "button":
                follow += self.clock.marked(ctx, hosted, after.table_of(action.entry), True)
            if not replay and after.everyone_finished():  # the last finish ends the time
                follow += self.clock.ended(hosted, after, t)
            return after, Staged(entry, follow=follow)
        if isinstance(action, UndoFinish):
            after = event.unfinish(action.entry)
            follow = [] if replay else self.clock.marked(ctx, hosted, after.table_of(action.entry), False)
            return after, Staged(entry, follow=follow)
        if isinstance(action, AddEntry):
            after = event.add(action.entry, action.name, action.table)
            follow = []
            if action.table is not None and not replay:
                follow.append(self.clock.station(ctx, hosted, action.entry, action.table))
            return after, Staged(entry, follow=follow)
        if isinstance(action, ImportEntries):
            return self._import(ctx, event, entry, action, replay)
        if isinstance(action, EntryCheckIn):
            return event.check_in(action.entry), Staged(entry)
        if isinstance(action, EntryCheckOut):
            return event.check_out(action.entry), Staged(entry)
        if isinstance(action, CloseEntries):
            return event.close_check_in(), Staged(entry)
        if isinstance(action, ReopenEntries):
            return event.reopen_check_in(), Staged(entry)
        if isinstance(action, EntryTable):
            after = event.set_table(action.entry, action.table)
            follow = [] if replay else [self.clock.station(ctx, hosted, action.entry, action.table)]
            return after, Staged(entry, follow=follow)
        if isinstance(action, SplitEntry):
            return event.split(action.entry, t), Staged(entry)
        if isinstance(action, CountEntry):
            return event.count(action.entry, action.total(), action.per_picture), Staged(entry)
        if isinstance(action, MissingPieces):
            return event.set_missing(action.entry, action.missing), Staged(entry)
        if isinstance(action, VoidEntry):
            return event.void(action.entry, action.reason), Staged(entry)
        if isinstance(action, UnvoidEntry):
            return event.unvoid(action.entry), Staged(entry)
        if isinstance(action, ConfirmRanking):
            return event.confirm(), Staged(entry)
        raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover - the host routes only ours

    def _import(
        self, ctx: EventContext, event: ZoneEvent, entry: ActionEntry, action: ImportEntries, replay: bool
    ) -> tuple[Any, Staged]:
        """The form's export, read once: the lists are journaled with the members as stand-ins and
        their person ids, the people's data goes to the vault (as the duel's sign-ups do), the
        file itself is not journaled (a digest of it is)."""
        import hashlib

        from clockd.core.registration import SignupError
        from clockd.core.zone_signups import EntrySignups, form_entries, sealed_entries, unsealed_entries

        if replay:
            decided = entry.decided or {}
            signups = EntrySignups.model_validate(decided["signups"])
            ids = {int(k): str(v) for k, v in decided.get("person_ids", {}).items()}
            if not ids:  # a journal of an older version: public names only, no people
                return event.import_entries(signups), Staged(entry)
            found = {
                int(line): record
                for pid, held in entry.vault.items()
                for line, record in held.items()
                if ids.get(int(line)) == pid and isinstance(record, dict)
            }
            signups = unsealed_entries(signups.model_copy(update={"person_ids": ids}), found)
            for line, pid in ids.items():
                p = signups.persons.get(line)
                if p is not None:
                    ctx.remember(pid, p.full_name, p.email, p.phone)
            return event.import_entries(signups), Staged(entry)
        refusal = event.allowed(entry.t_ns)["entries-import"]
        if refusal is not None:
            raise Refused(refusal)
        try:
            read = form_entries(
                action.csv,
                kind=self.kind,
                seats=event.config.max_entries or 15,
                opening=event.config.signups_open,
                source=action.source or "<csv>",
            )
        except SignupError as exc:
            raise Refused(exc.msg) from exc
        ids = {line: ctx.identify(p.full_name, p.email, p.phone) for line, p in read.persons.items()}
        stored, records = sealed_entries(read.model_copy(update={"person_ids": ids}))
        vault: dict[str, dict[str, Any]] = {}
        for line, record in records.items():
            vault.setdefault(ids[line], {})[str(line)] = record
        signups = unsealed_entries(stored, records)  # the same fold as a replay's
        digest = "sha256:" + hashlib.sha256(action.csv.encode()).hexdigest()
        kept = action.model_copy(update={"csv": digest})
        stored_data = stored.model_dump(mode="json", exclude={"person_ids"})
        entry = entry.model_copy(
            update={
                "action": kept,
                "decided": {"signups": stored_data, "person_ids": {str(k): v for k, v in ids.items()}},
                "vault": vault,
            }
        )
        return event.import_entries(signups), Staged(entry)

    # -- the members as people of the vault (EventHost's person-* actions) ----------------------
    def people(self, hosted: Hosted) -> list[PersonSource]:
        event: ZoneEvent = hosted.state
        # the entry's place once it has a result (finished or counted), as the screens show it
        places = {r.id: r.place for r in event.ranking() if r.finished or r.pieces is not None}
        out = []
        for entry, lines in event.entry_lines.items():
            names = event.members.get(entry, ())
            for i, line in enumerate(lines):
                pid, person = event.person_ids.get(line), event.persons.get(line)
                if pid is None or person is None:
                    continue
                out.append(
                    PersonSource(
                        person_id=pid,
                        event=hosted.key,
                        player=line,
                        display_name=names[i] if i < len(names) else "",
                        list=event.lists.get(entry, "main"),
                        line=line,
                        signed_up_at=event.form_times.get(line, ""),
                        person=person,
                        place=places.get(entry),
                        details={"entry": entry, "entry_name": event.added_names.get(entry, "")},
                    )
                )
        return out

    def erase_person(self, hosted: Hosted, person_id: str) -> Any:
        event: ZoneEvent = hosted.state
        return event.erased(person_id)

    def correct_person(self, hosted: Hosted, person_id: str, field: str, value: object) -> Any:
        event: ZoneEvent = hosted.state
        return event.corrected(person_id, field, value)

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        return self.clock.react(ctx, hosted, entry, table)

    # -- time ---------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        return self.clock.deadline(hosted)

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.due(hosted, now_ns)

    # -- reading ----------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        event: ZoneEvent = hosted.state
        return event.allowed(now_ns)

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> ZoneBody:
        event: ZoneEvent = hosted.state
        return zone_body(event, now_ns)

    def picks(self, hosted: Hosted, now_ns: int) -> dict[str, dict[str, tuple[Pick, ...]]]:
        """For each entry action, the entries it may name now (a finish: those still out; a void
        taken back: those voided …), each by its public name and table."""
        body = zone_body(hosted.state, now_ns)
        allowed = self.allowed(hosted, now_ns)
        out: dict[str, dict[str, tuple[Pick, ...]]] = {}
        for action, fits in ENTRY_PICKS.items():
            if action in allowed:
                out[action] = {"entry": tuple(_pick(e) for e in body.entries if fits(e))}
        return out

    def _title_text(self, hosted: Hosted, lang: str) -> str:
        from clockd.i18n import render

        return render(self.title(hosted), lang)

    def title(self, hosted: Hosted) -> Msg:
        event: ZoneEvent = hosted.state
        name = hosted.name or event.config.name
        if name:
            return msg("text.as-typed", text=name)
        return Msg(code=f"term.event-kind.{self.kind}")

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        return self.clock.recovered(ctx, hosted, restart)

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return ZoneEvent.model_validate(data)


for _kind in ("relay", "blind", "team"):
    event_kind(ZoneContest(_kind))  # type: ignore[arg-type]

__all__ = ["DEFAULT_FILES", "ZoneContest", "default_config_text", "parse_config", "zone_body"]
