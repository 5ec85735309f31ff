"""Every event the daemon hosts, of every kind, in one component.

An *event* is what people take part in: a Puzzle Duel session, a pairs relay, a team
event, a chess group. The daemon holds any number of them at once, each under a key
unique in its hall (``pt``, ``relay``, ``chess-g05``; qualified ``desk/pt``). Each kind
is an :class:`EventKind`: the rules live in its pure core module
(:mod:`clockd.core.puzzle_duel`, :mod:`clockd.core.hall`), and the kind is the glue that
turns journal entries into that core's inputs, puts programs on tables and says what a
referee may do. The :class:`EventHost` component does what every kind needs and none should
write again — routing entries by event, keys, staging with savepoints, snapshots, the
people index, reactions to table entries, time-driven decisions — so adding an event
kind is a core module and a class registered with :func:`event_kind`, not a change to
the engine, the tables or the GUI's internals.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from clockd.core.actions import Action, ClearEventAlert, CreateEvent
from clockd.core.ids import check_key, event_ref, read_id
from clockd.core.people import PeopleIndex, identity_keys
from clockd.core.program import Program
from clockd.core.registration import REQUIRED_CONSENTS
from clockd.core.registry import (
    PERSON_KINDS,
    PersonAccess,
    PersonConsent,
    PersonCorrect,
    PersonDrop,
    PersonErase,
    PersonRestrict,
    PersonSource,
    matches,
)
from clockd.i18n import Msg, Problem, msg, render
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, ReplayMismatch, Restart, Staged, Staging, World
from clockd.service.entries import TableReleased, TableRetaken
from clockd.service.event_kind import (
    EventAlert,
    EventAlertRaised,
    EventContext,
    EventKind,
    Hosted,
    Quarantine,
    Untimed,
    event_kind,
    event_kinds,
)
from clockd.service.tables import Tables, TableState
from clockd.store.entries import Entry
from clockd.store.journal import Record

log = logging.getLogger(__name__)


#: The alert an event set aside at start gets (it names the event and the entry's seq).
QUARANTINE_ALERT = "alert.event-quarantined"


def _problem(exc: BaseException) -> str:
    """What went wrong, in one line for the referee's alert (a rule's refusal in the daemon's
    language; anything else is a bug: its type and text, as the log has it)."""
    if isinstance(exc, Problem):
        return render(exc.msg)
    return f"{type(exc).__name__}: {exc}"


class EventsView:
    """The committed events, immutable and safe from any thread."""

    __slots__ = ("changed", "events", "hall", "order", "restricted")

    def __init__(
        self,
        events: MappingProxyType[str, Hosted],
        order: tuple[str, ...],
        hall: str,
        restricted: frozenset[str] = frozenset(),
        changed: frozenset[str] = frozenset(),
    ) -> None:
        self.events = events
        self.order = order
        self.hall = hall
        #: People whose data is kept but not processed (``person restrict``).
        self.restricted = restricted
        #: The events whose state the commit that made this view changed, also those its
        #: entries do not name (a person erased or corrected changes every event holding them).
        self.changed = changed

    def get(self, key: str) -> Hosted:
        found = self.events.get(key)
        if found is None:
            raise Refused("event.unknown", event=key, known=list(self.order))
        return found

    def of_kind(self, kind: str) -> list[Hosted]:
        return [self.events[k] for k in self.order if self.events[k].kind == kind]

    def live(self, key: str) -> Hosted:
        """Event ``key`` to act on or to ask its kind about: refused if it is set aside."""
        found = self.get(key)
        if found.quarantine is not None:
            raise Refused("event.quarantined", event=key, seq=found.quarantine.seq)
        return found


class EventHost:
    """The component hosting every event (see the module docstring)."""

    name = "events"

    def __init__(self, kinds: Iterable[EventKind] | None = None) -> None:
        self._kinds = {k.kind: k for k in (kinds if kinds is not None else event_kinds().values())}
        # An entry kind may be shared by several event kinds (the hall timer's actions are the
        # relay's and the team event's too): the event an entry names says which kind stages it.
        owned: dict[str, set[str]] = {}
        for k in self._kinds.values():
            for name in k.actions | k.entries:
                owned.setdefault(name, set()).add(k.kind)
        self._owner_kinds = {name: frozenset(kinds) for name, kinds in owned.items()}
        self.kinds = frozenset(owned) | {"event-create", "event-alert", "event-clear-alert"} | PERSON_KINDS
        self.reacts_to = frozenset().union(*(k.reacts_to for k in self._kinds.values()))
        self._world: World | None = None
        self._events: dict[str, Hosted] = {}
        self._order: list[str] = []
        self._staged = Staging(self._events)
        self._staged_order: list[str] = []
        self._people = PeopleIndex(salt=secrets.token_hex(8))
        self._people_staged: PeopleIndex | None = None
        self._restricted: frozenset[str] = frozenset()
        self._restricted_staged: frozenset[str] | None = None
        self._view = EventsView(MappingProxyType({}), (), "")  # the hall is set at the first commit
        #: Each event's last journaled entry (its seq): what an alert names if its state cannot be shown.
        self._last_seq: dict[str, int] = {}

    def hosted_kinds(self) -> Mapping[str, EventKind]:
        """The event kinds this host holds events of, by name (what ``describe`` lists)."""
        return MappingProxyType(self._kinds)

    # -- wiring and reading ----------------------------------------------------------------
    def bind(self, world: World) -> None:
        self._world = world

    @property
    def hall(self) -> str:
        return self.world.hall

    @property
    def world(self) -> World:
        assert self._world is not None, "the engine binds its components first"
        return self._world

    def view(self) -> EventsView:
        return self._view

    def kind(self, name: str) -> EventKind:
        found = self._kinds.get(name)
        if found is None:
            raise Refused("event.unknown-kind", kind=name, known=sorted(self._kinds))
        return found

    # -- what event kinds may use (EventContext) ------------------------------------------------
    def tables(self) -> Tables:
        found = self.world.component("tables")
        assert isinstance(found, Tables)
        return found

    def table(self, number: int) -> TableState | None:
        return self.tables().staged(number)

    def hosted(self) -> dict[str, Hosted]:
        found = {k: self._staged[k] for k in self._staged.all_keys()}
        return {k: h for k, h in found.items() if h.quarantine is None}

    def identify(self, full_name: str, email: str = "", phone: str = "") -> str:
        index = self._people_staged or self._people
        person_id, index = index.identify(full_name, email, phone)
        self._people_staged = index
        return person_id

    def remember(self, person_id: str, full_name: str, email: str = "", phone: str = "") -> None:
        index = self._people_staged or self._people
        self._people_staged = index.with_person(
            person_id, identity_keys(full_name, email, phone, salt=index.salt)
        )

    def owner_of(self, program: Program) -> Hosted | None:
        """The event (as staged) whose item put ``program`` on its table, if it is this hall's."""
        if program.owner is None:
            return None
        owner = read_id(program.owner)
        if owner is None or owner.key is None or owner.hall != self.hall:
            return None
        found = self._staged.get(owner.key)
        return found if found is None or found.quarantine is None else None  # set aside: no reactions

    # -- the component protocol -------------------------------------------------------------
    def begin(self) -> None:
        self._staged.clear()
        self._staged_order = list(self._order)
        self._people_staged = None
        self._restricted_staged = None

    def abort(self) -> None:
        self.begin()

    def mark(self) -> object:
        return (self._staged.mark(), len(self._staged_order), self._people_staged, self._restricted_staged)

    def rollback(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        staged: int = mark[0]
        order: int = mark[1]
        people: PeopleIndex | None = mark[2]
        self._staged.rollback(staged)
        del self._staged_order[order:]
        self._people_staged = people
        self._restricted_staged = mark[3]

    def commit(self, records: Sequence[Record]) -> None:
        for record in records:
            if record.entry.event is not None:
                self._last_seq[record.entry.event] = record.seq
        changes = self._staged.changes()
        if changes or self._staged_order != self._order:
            events = dict(self._events)
            events.update(changes)
            self._events = events
            self._order = list(self._staged_order)
        if self._people_staged is not None:
            self._people = self._people_staged
        if self._restricted_staged is not None:
            self._restricted = self._restricted_staged
        self._staged.rebase(self._events)
        self._view = EventsView(
            MappingProxyType(dict(self._events)),
            tuple(self._order),
            self.hall,
            self._restricted,
            frozenset(changes),
        )
        self.begin()

    def stage(self, entry: Entry, *, now_ns: int, replay: bool) -> Staged:
        if isinstance(entry, ActionEntry) and entry.kind == "event-create":
            return self._create(entry, now_ns=now_ns, replay=replay)
        if isinstance(entry, ActionEntry) and entry.kind in PERSON_KINDS:
            return self._person(entry, replay=replay)
        key = entry.event
        if key is None:
            raise Refused("event.which", kind=entry.kind)
        hosted: Hosted | None = self._staged.get(key)
        if hosted is None:
            raise Refused("event.unknown", event=key, known=list(self._staged_order))
        if isinstance(entry, EventAlertRaised | ActionEntry) and entry.kind in (
            "event-alert",
            "event-clear-alert",
        ):
            return self._alerts(hosted, entry, replay)
        if hosted.quarantine is not None:
            if replay:  # what came after the entry that failed stays in the journal, unapplied
                return Staged(entry)
            raise Refused("event.quarantined", event=key, seq=hosted.quarantine.seq)
        if hosted.kind not in self._owner_kinds.get(entry.kind, ()):
            raise Refused(
                "event.wrong-kind",
                action=Msg(code=f"term.action.{entry.kind}"),
                event=key,
                kind=_kind_term(hosted.kind),
            )
        kind = self._kinds[hosted.kind]
        try:
            state, staged = kind.stage(self, hosted, entry, now_ns=now_ns, replay=replay)
        except (Refused, ReplayMismatch):  # a mismatch on replay is no rule saying no
            raise
        except Problem as exc:  # a core rule said no
            raise Refused(exc.msg) from exc
        after = hosted.with_state(state)
        self._staged.put(key, after)
        if not replay:
            staged.follow = [*staged.follow, *self._holding(kind, after)]
        return staged

    # -- the tables the events hold (DESIGN.md principle 12) -------------------------------------
    def _holding(self, kind: EventKind, hosted: Hosted) -> list[Entry]:
        """The event's tables whose item is over, let go (and an item back in play, held again):
        the one place where an event gives its tables back, asked of every kind the same way
        (:meth:`EventKind.holds`). Journaled after the entry's own follow-ups, so a program the
        same decision loads is in place first."""
        holds = getattr(kind, "holds", None)
        if holds is None:
            return []
        prefix = self.ref(hosted.key) + "/"
        out: list[Entry] = []
        for state in self.tables().held_by(prefix):
            owner = state.program.owner
            assert owner is not None
            wanted = holds(hosted, owner[len(prefix) :])
            if wanted and state.released:
                out.append(TableRetaken(table=state.table, event=hosted.key, holder=owner))
            elif not wanted and not state.released:
                out.append(TableReleased(table=state.table, event=hosted.key, holder=owner))
        return out

    # -- people's rights ---------------------------------------------------------------------------
    def people(self) -> list[PersonSource]:
        """Every place a person appears, in every event (as committed)."""
        return people_in(self, self._view)

    def _person(self, entry: ActionEntry, *, replay: bool) -> Staged:
        """The person actions: an access is only its audit record; a correction, a restriction
        and an erasure change every event that holds the person."""
        a = entry.action
        if isinstance(a, PersonAccess):
            if not replay:
                decided: dict[str, object] = {"at": _wall_clock()}
                if a.how == "find":  # what was asked is personal: the record keeps how many answers
                    found = sorted({src.person_id for src in self.people() if matches(src, a.text)})
                    decided["found"] = len(found)
                    entry = entry.model_copy(
                        update={"action": a.model_copy(update={"text": ""}), "decided": decided}
                    )
                elif a.how in ("show", "export"):
                    self._known(a.person)
                    entry = entry.model_copy(update={"decided": decided})
            return Staged(entry)
        if isinstance(a, PersonConsent):
            return self._consent(entry, a, replay=replay)
        assert isinstance(a, PersonCorrect | PersonRestrict | PersonErase | PersonDrop)
        if not replay:
            self._known(a.person)
            entry = entry.model_copy(update={"decided": {"at": _wall_clock()}})
        if isinstance(a, PersonRestrict):
            restricted = self._restricted_staged if self._restricted_staged is not None else self._restricted
            self._restricted_staged = restricted - {a.person} if a.lift else restricted | {a.person}
            self._each_holding("restrict_person", a.person, not a.lift)
            return Staged(entry)
        if isinstance(a, PersonCorrect):
            if replay:
                record = entry.vault.get(a.person, {}).get("correct")
                if not isinstance(record, dict):
                    return Staged(entry)  # erased since: nothing left to correct
                value = record.get("value", "")
            else:
                value = a.value
                entry = entry.model_copy(
                    update={
                        "action": a.model_copy(update={"value": ""}),
                        "vault": {a.person: {"correct": {"field": a.field, "value": value}}},
                    }
                )
            self._each_holding("correct_person", a.person, a.field, value)
            return Staged(entry)
        if isinstance(a, PersonDrop):
            for field in a.fields:
                self._each_holding("correct_person", a.person, field, None if field == "age" else "")
        else:
            self._each_holding("erase_person", a.person)
        index = self._people_staged or self._people
        index = index.model_copy(update={"ids": {k: v for k, v in index.ids.items() if v != a.person}})
        if isinstance(a, PersonDrop):  # recognised again by what is left of them (a name with a phone)
            for src in self._sources_staged(a.person):
                p = src.person
                index = index.with_person(
                    a.person, identity_keys(p.full_name, p.email, p.phone, salt=index.salt)
                )
        self._people_staged = index
        return Staged(entry)

    def _consent(self, entry: ActionEntry, a: PersonConsent, *, replay: bool) -> Staged:
        """A consent withdrawn or given again; a required one withdrawn is resignation (§1.6)."""
        required = a.consent in REQUIRED_CONSENTS
        if not replay:
            self._known(a.person)
            if required and not a.given and not a.resign:
                raise Refused("person.consent-is-resignation", person=a.person)
            entry = entry.model_copy(update={"decided": {"at": _wall_clock()}})
        at = str((entry.decided or {}).get("at", ""))
        self._each_holding("consent_person", a.person, a.consent, a.given, at, required and not a.given)
        return Staged(entry)

    def _sources_staged(self, person_id: str) -> list[PersonSource]:
        out: list[PersonSource] = []
        for key in self._staged_order:
            hosted = self._staged[key]
            listed = getattr(self._kinds[hosted.kind], "people", None)
            if listed is not None and hosted.quarantine is None:
                out += [src for src in listed(hosted) if src.person_id == person_id]
        return out

    def _known(self, person_id: str) -> None:
        if not any(src.person_id == person_id for src in self.people()):
            raise Refused("person.unknown", person=person_id)

    def _each_holding(self, how: str, person_id: str, *args: object) -> None:
        for key in self._staged_order:
            hosted = self._staged[key]
            change = getattr(self._kinds[hosted.kind], how, None)
            if change is not None and hosted.quarantine is None:
                self._staged.put(key, hosted.with_state(change(hosted, person_id, *args)))

    def _alerts(self, hosted: Hosted, entry: Entry, replay: bool) -> Staged:
        if isinstance(entry, EventAlertRaised):
            alert_id = entry.alert_id if replay else max((a.id for a in hosted.alerts), default=0) + 1
            entry = entry.model_copy(update={"alert_id": alert_id})
            kept = tuple(a for a in hosted.alerts if a.code != entry.code)
            alert = EventAlert(id=alert_id, code=entry.code, t_ns=entry.t_ns, data=dict(entry.data))
            self._staged.put(hosted.key, replace(hosted, alerts=(*kept, alert)))
            return Staged(entry)
        assert isinstance(entry, ActionEntry) and isinstance(entry.action, ClearEventAlert)
        wanted = entry.action.alert_id
        if not hosted.alerts:
            raise Refused("event.no-alerts", event=hosted.key)
        if wanted is not None and all(a.id != wanted for a in hosted.alerts):
            raise Refused(
                "event.no-alert", event=hosted.key, alert=wanted, open=[a.id for a in hosted.alerts]
            )
        kept = () if wanted is None else tuple(a for a in hosted.alerts if a.id != wanted)
        self._staged.put(hosted.key, replace(hosted, alerts=kept))
        return Staged(entry)

    def recovered(self, restart: Restart) -> list[Entry]:
        out: list[Entry] = []
        self._set_aside_unshowable(restart.now_ns)
        for key in self._order:
            hosted = self._events[key]
            q = hosted.quarantine
            kind = self._kinds[hosted.kind]
            if q is None:
                out += kind.recovered(self, hosted, restart)
                out += self._holding(kind, hosted)  # a journal from before tables were given back
            elif not any(a.code == QUARANTINE_ALERT and a.data.get("seq") == q.seq for a in hosted.alerts):
                data: dict[str, int | str] = {
                    "event": key,
                    "seq": q.seq,
                    "entry": q.entry,
                    "problem": q.problem,
                }
                out.append(EventAlertRaised(event=key, alert_id=0, code=QUARANTINE_ALERT, data=data))
        return out

    def _set_aside_unshowable(self, now_ns: int) -> None:
        """At start, after the replay: an event whose state cannot be shown (its view, its
        digest, its snapshot fail) is set aside too, naming the last entry that changed it,
        so that one bad state does not take every subscriber and every snapshot down."""
        shown = dict(self.tables().view())
        changed = False
        for key in self._order:
            hosted = self._events[key]
            if hosted.quarantine is not None:
                continue
            try:
                self._show(hosted, now_ns, shown)
            except Exception as exc:
                log.exception("event %s cannot be shown after the replay: set aside", key)
                last = self._last_seq.get(key, 0)
                self._events[key] = replace(hosted, quarantine=Quarantine(last, "view", _problem(exc)))
                changed = True
        if changed:
            self._view = EventsView(
                MappingProxyType(dict(self._events)), tuple(self._order), self.hall, self._restricted
            )

    def _show(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState]) -> None:
        """Build the event's view as a client gets it (title, actions, body, digest) and its
        snapshot data: raises whatever the kind raises."""
        from clockd.service.views import event_view  # views build on this module

        kind = self._kinds[hosted.kind]
        kind.dump(hosted.state)
        event_view(hosted, kind, now_ns, tables=tables, hall=self.hall, seq=0)

    def quarantine(self, record: Record, problem: BaseException) -> bool:
        """Set aside the event whose journal entry ``record`` failed to replay (``problem``):
        whether this component could (the entry names an event of its own; a person's
        action, which touches every event, cannot be set aside)."""
        entry = record.entry
        key = entry.event
        if key is None or entry.kind in PERSON_KINDS:
            return False
        q = Quarantine(seq=record.seq, entry=entry.kind, problem=_problem(problem))
        hosted: Hosted | None = self._staged.get(key)
        if hosted is None:
            a = getattr(entry, "action", None)
            if not isinstance(a, CreateEvent) or a.event_kind not in self._kinds:
                return False
            hosted = Hosted(a.event_kind, key, a.name, None)
            self._staged_order.append(key)
        self._staged.put(key, replace(hosted, quarantine=q))
        return True

    def verify(self, mark: object, now_ns: int) -> None:
        """Refuse (:class:`Refused`) a chain that creates an event whose first state cannot be
        shown or saved: called by the engine before anything is journaled, so an event made
        from what a client sent (a chess day's roster) is known to reach every view, reply and
        snapshot before it is on disk — else it would be journaled and then fail them all.

        Only a creation is checked: an existing event's actions are its kind's rules' to
        refuse, and building the whole view on the engine's thread after every action would
        hold the clocks up (2.4 s for a session's 30 000-row sign-up import)."""
        assert isinstance(mark, tuple)
        created: list[str] = self._staged_order[mark[1] :]
        if not created:
            return
        tables = self.tables()
        shown = {n: t for n in tables.view() if (t := tables.staged(n)) is not None}
        for key in created:
            hosted: Hosted | None = self._staged.get(key)
            if hosted is None or hosted.quarantine is not None:
                continue
            try:
                self._show(hosted, now_ns, shown)
            except Exception as exc:
                log.exception("event %s: created in a state that cannot be shown: refused", key)
                raise Refused("event.cannot-show", event=key, problem=_problem(exc)) from exc

    def _create(self, entry: ActionEntry, *, now_ns: int, replay: bool) -> Staged:
        a = entry.action
        assert isinstance(a, CreateEvent)
        try:
            check_key(a.key)
        except Problem as exc:
            raise Refused(exc.msg) from exc
        if a.key in self._staged:
            raise Refused("event.exists", event=a.key)
        kind = self.kind(a.event_kind)
        # A kind whose creation brings people (a chess group's children) journals stand-ins and
        # puts their data in the vault, as a sign-up import does ("The vault", architecture.md).
        people = getattr(kind, "created_people", None)
        restore_people = getattr(kind, "restore_people", None)
        try:
            if replay:
                state = kind.restore_created(a.key, a.name, entry.decided or {})
                if restore_people is not None:
                    state = restore_people(self, state, entry.vault)
            else:
                state, config = kind.create(self, a.key, a.name, a.config_toml)
                update: dict[str, Any] = {"decided": config, "event": a.key}
                if people is not None:
                    digest = "sha256:" + hashlib.sha256((a.config_toml or "").encode()).hexdigest()
                    update |= {"vault": people(state), "action": a.model_copy(update={"config_toml": digest})}
                entry = entry.model_copy(update=update)
        except Problem as exc:
            raise Refused(exc.msg) from exc
        hosted = Hosted(kind.kind, a.key, a.name, state)
        self._staged.put(a.key, hosted)
        self._staged_order.append(a.key)
        follow = [] if replay else kind.created(self, hosted, now_ns)
        return Staged(entry, follow=follow)

    def react(self, entry: Entry, *, now_ns: int) -> list[Entry]:
        if entry.table is None:
            return []
        table = self.table(entry.table)
        if table is None:
            return []
        hosted = self.owner_of(table.program)
        if hosted is None:
            return []
        kind = self._kinds[hosted.kind]
        if entry.kind not in kind.reacts_to:
            return []
        return kind.react(self, hosted, entry, table, now_ns=now_ns)

    def due(self, now_ns: int) -> list[Entry]:
        out: list[Entry] = []
        for key in self._order:
            hosted = self._events[key]
            if hosted.quarantine is not None:
                continue
            deadline = self._kinds[hosted.kind].deadline(hosted)
            if deadline is not None and deadline <= now_ns:
                out += self._kinds[hosted.kind].due(self, hosted, now_ns)
        return out

    def next_deadline(self) -> int | None:
        deadlines = [
            d
            for h in self._events.values()
            if h.quarantine is None and (d := self._kinds[h.kind].deadline(h)) is not None
        ]
        return min(deadlines, default=None)

    # -- snapshots ---------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "order": list(self._order),
            "events": [
                {
                    "kind": h.kind,
                    "key": h.key,
                    "name": h.name,
                    "state": self._kinds[h.kind].dump(h.state) if h.quarantine is None else None,
                    "alerts": [[a.id, a.code, a.t_ns, a.data] for a in h.alerts],
                    **({"quarantine": astuple(h.quarantine)} if h.quarantine is not None else {}),
                }
                for h in (self._events[k] for k in self._order)
            ],
            "people": self._people.model_dump(mode="json"),
            "restricted": sorted(self._restricted),
        }

    def restore(self, data: dict[str, Any]) -> None:
        events = {}
        for item in data["events"]:
            kind = self.kind(item["kind"])
            alerts = tuple(EventAlert(i, c, t, d) for i, c, t, d in item.get("alerts", []))
            q = item.get("quarantine")
            if q is not None:  # set aside when the snapshot was written: its state was not kept
                quarantine = Quarantine(int(q[0]), str(q[1]), str(q[2]))
                events[item["key"]] = Hosted(kind.kind, item["key"], item["name"], None, alerts, quarantine)
                continue
            events[item["key"]] = Hosted(
                kind.kind, item["key"], item["name"], kind.load(item["state"]), alerts
            )
        self._events = events
        self._order = list(data["order"])
        self._people = PeopleIndex.model_validate(data["people"])
        self._restricted = frozenset(data.get("restricted", ()))
        self._staged.rebase(self._events)
        self._view = EventsView(
            MappingProxyType(dict(self._events)), tuple(self._order), self.hall, self._restricted
        )
        self.begin()

    # -- views -------------------------------------------------------------------------------------
    def ref(self, key: str, item: str | None = None) -> str:
        return event_ref(self.hall, key, item)


def people_in(host: EventHost, view: EventsView) -> list[PersonSource]:
    """Every place a person appears in the events of ``view`` (safe from any thread)."""
    out: list[PersonSource] = []
    for key in view.order:
        hosted = view.events[key]
        listed = getattr(host.kind(hosted.kind), "people", None)
        if listed is not None and hosted.quarantine is None:
            out += listed(hosted)
    return out


def _wall_clock() -> str:
    """Now, on the wall clock (UTC, ISO 8601): when a person's data was used, for the audit."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _kind_term(kind: str) -> Msg:
    return Msg(code=f"term.event-kind.{kind}")


def refuse(reason: Msg | None) -> None:
    """Raise :class:`Refused` with ``reason`` unless it is ``None`` (an action is allowed)."""
    if reason is not None:
        raise Refused(reason)


def action_of(entry: Entry) -> Action:
    if not isinstance(entry, ActionEntry):
        raise Refused("event.not-an-action", kind=entry.kind)
    return entry.action


__all__ = [
    "EventAlert",
    "EventAlertRaised",
    "EventContext",
    "EventHost",
    "EventKind",
    "EventsView",
    "Hosted",
    "Quarantine",
    "Untimed",
    "action_of",
    "event_kind",
    "event_kinds",
    "msg",
    "people_in",
    "refuse",
]
