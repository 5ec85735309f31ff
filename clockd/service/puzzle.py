"""The Puzzle Duel as an event kind: sessions, their bracket, and the duels on the tables.

A session (:class:`~clockd.core.puzzle_duel.PuzzleSession`: players, draw, bracket) is a
fold of the referee's actions, journaled before they apply like every other input
(DESIGN.md principle 2). This module is the glue between those actions, the bracket and
the tables:

* **A match goes to a table with its duel.** ``match-assign`` puts the match on the table
  in the bracket *and* loads the table's program (:class:`PuzzleDuelProgram`, the
  round's clock, locked until the toss) — two entries of one decision, in one commit.
  ``match-toss`` records the winner *and* reloads the program so that only the toss
  loser's press starts it (§2.2.8).
* **The duel on the table is the only clock.** Every press and referee input is folded
  once, into the table's program (the duel). When the duel ends — the referee's
  ``complete`` on the table, or its flag — this kind reacts to that table entry in the
  same commit: it journals ``match-finished`` with the duel's verdict, and the bracket
  takes it.
* **Nothing is left running for a match that is gone.** An override or a walkover that
  takes a match off its table (or resets a match it fed) unloads that table's program.

Replaying the journal rebuilds the same sessions: every decision is journaled (the sign-ups
as read, the seed drawn, the person ids, the verdicts).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any, Literal

from clockd.api.puzzle import SessionBody, session_body
from clockd.core.actions import Action, Allowed
from clockd.core.bracket import (
    Assign,
    Confirm,
    DuelFinished,
    DuelReopened,
    MatchStatus,
    Override,
    StartTiebreak,
    Toss,
    Walkover,
)
from clockd.core.clock import Side
from clockd.core.duel import PuzzleDuelProgram, Verdict
from clockd.core.ids import event_ref, read_id
from clockd.core.program import Idle
from clockd.core.puzzle_duel import ImportSignups, MakeDraw, PuzzleSession
from clockd.core.registration import (
    SEALED_FIELDS,
    VAULT_FIELDS,
    AddPlayer,
    CheckIn,
    CheckOut,
    CloseCheckIn,
    ConsentKind,
    ReopenCheckIn,
    Signup,
    SignupImport,
    Withdraw,
    parse_signups,
    seal_person,
    unseal_person,
)
from clockd.core.registry import PersonResult, PersonSource
from clockd.core.tournament import TournamentConfig
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Restart, Staged
from clockd.service.entries import ProgramLoaded
from clockd.service.events import EventContext, Hosted, event_kind, refuse
from clockd.service.tables import TableState
from clockd.store.entries import Entry, entry_type

KIND = "puzzle-duel"


@entry_type
class MatchFinished(Entry):
    """The duel of ``match`` ended (the referee's ``complete``, or a ``flag``): its verdict."""

    kind: Literal["match-finished"] = "match-finished"
    match: str
    how: Literal["complete", "flag"]
    verdict: Verdict


@entry_type
class MatchReopened(Entry):
    """The duel of ``match`` goes on: the adjustment that ended it was taken back; no result."""

    kind: Literal["match-reopened"] = "match-reopened"
    match: str


_ACTIONS: tuple[type[Action], ...] = (
    ImportSignups,
    AddPlayer,
    CheckIn,
    CheckOut,
    Withdraw,
    CloseCheckIn,
    ReopenCheckIn,
    MakeDraw,
    Assign,
    Toss,
    Confirm,
    Override,
    Walkover,
    StartTiebreak,
)


def _kind_of(cls: type[Action]) -> str:
    kind: str = cls.model_fields["kind"].default
    return kind


class PuzzleDuel:
    """The ``puzzle-duel`` event kind (see the module docstring)."""

    kind = KIND
    actions = frozenset(_kind_of(c) for c in _ACTIONS)
    entries = frozenset({"match-finished", "match-reopened"})
    reacts_to = frozenset({"press", "flag", "complete", "adjust", "adjust-undo"})

    # -- creation ------------------------------------------------------------------------------
    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        from clockd.data import festival_config

        config = (
            festival_config()
            if config_toml is None
            else TournamentConfig.from_toml(config_toml, source="the configuration sent")
        )
        return PuzzleSession.new(config, key, name), config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return PuzzleSession.new(TournamentConfig.model_validate(config), key, name)

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return []

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        from clockd.reports.results import build_results

        s: PuzzleSession = hosted.state
        if s.bracket is None:
            return None
        from clockd.i18n import render

        built = build_results(
            s.bracket,
            s.names(),
            tournament=s.config.name,
            session=render(self.title(hosted), lang),
            lang=lang,
        )
        return built.model_dump(mode="json")

    def holds(self, hosted: Hosted, item: str) -> bool:
        """A match holds its table until it is confirmed (or taken off it)."""
        s: PuzzleSession = hosted.state
        m = s.bracket.matches.get(item) if s.bracket is not None else None
        return m is not None and m.holds_table

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        s: PuzzleSession = hosted.state
        if s.bracket is None or item not in s.bracket.matches:
            return None
        m = s.bracket.matches[item]
        live = s.bracket.live_duel(item)
        return live.table if live is not None else m.table

    # -- staging -------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        s: PuzzleSession = hosted.state
        if isinstance(entry, MatchFinished):
            s = s.apply(DuelFinished(verdict=entry.verdict), match=entry.match)
            return s, Staged(entry)
        if isinstance(entry, MatchReopened):
            return s.apply(DuelReopened(), match=entry.match), Staged(entry)
        assert isinstance(entry, ActionEntry)
        action = entry.action
        if isinstance(action, ImportSignups):
            return self._import(ctx, s, entry, action, replay)
        if isinstance(action, AddPlayer):
            if replay:
                person_id = (entry.decided or {}).get("person_id")
                record = entry.vault.get(person_id or "", {}).get("add")
                if isinstance(record, dict):  # else erased: the stand-in stays
                    action = action.model_copy(update={f: record[f] for f in VAULT_FIELDS if f in record})
                if person_id:
                    ctx.remember(person_id, action.person().full_name, action.email, action.phone)
            else:
                if action.age is None:
                    raise Refused("registration.no-age")
                person_id = ctx.identify(action.person().full_name, action.email, action.phone)
                _, record = seal_person(action.person())
                sealed = action.model_copy(
                    update=SEALED_FIELDS
                )  # the journal's player-add: values in the vault
                entry = entry.model_copy(
                    update={
                        "action": sealed,
                        "decided": {"person_id": person_id},
                        "vault": {person_id: {"add": record}},
                    }
                )
            return s.apply(action, person_id=person_id), Staged(entry)
        if isinstance(action, CheckIn | CheckOut | Withdraw | CloseCheckIn | ReopenCheckIn):
            return s.apply(action), Staged(entry)
        if isinstance(action, MakeDraw):
            return self._draw(s, entry, action, replay)
        item = _item(entry.target)
        if isinstance(action, Assign):
            return self._assign(ctx, hosted, s, entry, item, action.table, action.clock_a, replay)
        if isinstance(action, StartTiebreak):
            return self._tiebreak(ctx, hosted, s, entry, item, action, replay)
        if isinstance(action, Toss):
            return self._toss(ctx, hosted, s, entry, item, action, replay)
        if isinstance(action, Confirm):
            after = s.apply(action, match=item, referee=entry.by)
            return after, Staged(entry, follow=[] if replay else _close_duel(ctx, s, item, entry.by))
        if isinstance(action, Override | Walkover):
            after = s.apply(action, match=item, referee=entry.by)
            follow = [] if replay else _unload_gone(ctx, s, after)
            return after, Staged(entry, follow=follow)
        raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover

    def _import(
        self, ctx: EventContext, s: PuzzleSession, entry: ActionEntry, action: ImportSignups, replay: bool
    ) -> tuple[Any, Staged]:
        refuse(s.registration.allowed()["signups-import"])
        if replay:
            decided = entry.decided or {}
            signups = SignupImport.model_validate(decided["signups"])
            person_ids = {int(k): v for k, v in decided.get("person_ids", {}).items()}
            signups = _unsealed(signups, person_ids, entry.vault)
            for signup in signups.accepted:
                pid = person_ids.get(signup.line)
                if pid:
                    p = signup.person
                    ctx.remember(pid, p.full_name, p.email, p.phone)
            return s.import_signups(signups, person_ids), Staged(entry)
        prepared = (entry.decided or {}).get("signups")  # read beside the engine (prepare), normally
        signups = prepared if isinstance(prepared, SignupImport) else self._read(s, action)
        person_ids = {
            sg.line: ctx.identify(sg.person.full_name, sg.person.email, sg.person.phone)
            for sg in signups.accepted
        }
        digest = "sha256:" + hashlib.sha256(action.csv.encode()).hexdigest()
        kept = action.model_copy(update={"csv": digest})  # what was read is in ``decided``
        stored, vault = _sealed(signups, person_ids)  # the people's data in the vault, not the row
        entry = entry.model_copy(
            update={
                "action": kept,
                "decided": {"signups": stored.model_dump(mode="json"), "person_ids": person_ids},
                "vault": vault,
            }
        )
        return s.import_signups(signups, person_ids), Staged(entry)

    # -- people's rights (the daemon's person-* actions, through EventHost) ----------------------
    def erase_person(self, hosted: Hosted, person_id: str) -> Any:
        s: PuzzleSession = hosted.state
        return s.model_copy(update={"registration": s.registration.erased(person_id)})

    def correct_person(self, hosted: Hosted, person_id: str, field: str, value: object) -> Any:
        s: PuzzleSession = hosted.state
        return s.model_copy(update={"registration": s.registration.corrected(person_id, field, value)})

    def restrict_person(self, hosted: Hosted, person_id: str, restricted: bool) -> Any:
        s: PuzzleSession = hosted.state
        return s.model_copy(update={"registration": s.registration.restricted_for(person_id, restricted)})

    def consent_person(
        self, hosted: Hosted, person_id: str, kind: ConsentKind, given: bool, at: str, resign: bool
    ) -> Any:
        s: PuzzleSession = hosted.state
        reg = s.registration.consent_changed(person_id, kind, given, at, resign=resign)
        return s.model_copy(update={"registration": reg})

    def people(self, hosted: Hosted) -> list[PersonSource]:
        s: PuzzleSession = hosted.state
        out = []
        results = self.results(hosted, "pl")
        for p in s.registration.players.values():
            if p.person_id:
                place, played = _results_of(results, p.id)
                out.append(
                    PersonSource(
                        person_id=p.person_id,
                        event=hosted.key,
                        player=p.id,
                        display_name=p.display_name,
                        list=p.list.value,
                        line=p.line,
                        signed_up_at=p.signed_up_at,
                        withdrawn=p.id in s.registration.withdrawn,
                        person=p.person,
                        place=place,
                        results=played,
                    )
                )
        return out

    # -- work done beside the engine -----------------------------------------------------------
    def prepare(self, hosted: Hosted, action: Action) -> Any:
        """What an action needs worked out before it is staged, off the engine's thread (the API
        server calls this in a worker thread): a sign-up file, read. ``None``: nothing."""
        if isinstance(action, ImportSignups):
            return {"signups": self._read(hosted.state, action)}
        return None

    @staticmethod
    def _read(s: PuzzleSession, action: ImportSignups) -> SignupImport:
        """The sign-up file, read, and kept as far as the registration needs it (the people past
        the lists are refusals without their data)."""
        cfg = s.config
        read = parse_signups(
            action.csv,
            min_age=cfg.min_age,
            source=action.source,
            opens_at=cfg.opens_at,
            time_zone=cfg.time_zone,
        )
        return read.kept(cfg.players)

    def _draw(
        self, s: PuzzleSession, entry: ActionEntry, action: MakeDraw, replay: bool
    ) -> tuple[Any, Staged]:
        if action.seed is not None and action.lines:
            raise Refused("session.seed-or-lines")
        if not replay and action.seed is None and not action.lines:
            action = action.model_copy(update={"seed": secrets.randbelow(1_000_000_000)})
            entry = entry.model_copy(update={"action": action})
        after = s.apply(action)
        assert after.bracket is not None
        lines = {str(k): v for k, v in after.bracket.draw.lines.items()}
        if replay and entry.decided is not None and entry.decided.get("lines") != lines:
            from clockd.service.component import ReplayMismatch

            raise ReplayMismatch("replay.draw", session=s.key, seed=action.seed)
        if not replay:
            entry = entry.model_copy(update={"decided": {"lines": lines}})
        return after, Staged(entry)

    def _check_table(self, ctx: EventContext, hosted: Hosted, table: int, item: str) -> TableState:
        state = ctx.table(table)
        if state is None:
            raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))
        holder = state.holder  # another event's: the tables refuse (one rule, in clockd.service.tables)
        mine = event_ref(ctx.hall, hosted.key, item)
        if holder is not None and holder != mine and holder.startswith(event_ref(ctx.hall, hosted.key) + "/"):
            s: PuzzleSession = hosted.state
            held = read_id(holder)  # an item of this event: it starts with the event's id and "/"
            item_held = held.item if held is not None else None
            m = s.bracket.matches.get(item_held) if s.bracket is not None and item_held is not None else None
            if m is not None and m.status in (MatchStatus.ASSIGNED, MatchStatus.RESULT):
                raise Refused("table.busy", table=table, owner=holder)
        return state

    def _assign(
        self,
        ctx: EventContext,
        hosted: Hosted,
        s: PuzzleSession,
        entry: ActionEntry,
        item: str,
        table: int,
        clock_a: int | None,
        replay: bool,
    ) -> tuple[Any, Staged]:
        if not replay:
            self._check_table(ctx, hosted, table, item)
        after = s.apply(Assign(table=table, clock_a=clock_a), match=item, referee=entry.by)
        entry = entry.model_copy(update={"table": table})
        if replay:
            return after, Staged(entry)
        assert after.bracket is not None
        program = PuzzleDuelProgram.before_toss(
            event_ref(ctx.hall, hosted.key, item), after.bracket.time_control(item), s.config.resolution_ns
        )
        return after, Staged(
            entry, follow=[ProgramLoaded(table=table, event=hosted.key, program=program, by=entry.by)]
        )

    def _tiebreak(
        self,
        ctx: EventContext,
        hosted: Hosted,
        s: PuzzleSession,
        entry: ActionEntry,
        item: str,
        action: StartTiebreak,
        replay: bool,
    ) -> tuple[Any, Staged]:
        if s.bracket is None:
            raise Refused("session.no-bracket", session=s.key)
        if replay:
            tb_id = str((entry.decided or {}).get("tiebreak", ""))
        else:
            tb = s.bracket.pending_tiebreak(item)
            if tb is None:
                raise Refused("bracket.no-tiebreak", match=item)
            tb_id = tb.id
            entry = entry.model_copy(update={"decided": {"tiebreak": tb_id}})
        root = s.bracket.match(s.bracket.match(tb_id).tiebreak_of or tb_id)
        table = action.table or root.table
        if table is None:
            raise Refused("bracket.tiebreak-table", match=root.id)
        return self._assign(ctx, hosted, s, entry, tb_id, table, root.clock_a, replay)

    def _toss(
        self,
        ctx: EventContext,
        hosted: Hosted,
        s: PuzzleSession,
        entry: ActionEntry,
        item: str,
        action: Toss,
        replay: bool,
    ) -> tuple[Any, Staged]:
        m = s.bracket.match(item) if s.bracket is not None else None
        if m is not None and m.table is not None and not replay:
            late = _toss_too_late(m.table, ctx.table(m.table))
            if late is not None:
                raise Refused(late)
        after = s.apply(action, match=item, referee=entry.by)
        assert after.bracket is not None
        m = after.bracket.match(item)
        entry = entry.model_copy(update={"table": m.table})
        if replay or m.table is None or m.toss_winner is None:
            return after, Staged(entry)
        winner = Side.A if m.toss_winner == m.clock_a else Side.B
        program = PuzzleDuelProgram.after_toss(
            event_ref(ctx.hall, hosted.key, item),
            after.bracket.time_control(item),
            s.config.resolution_ns,
            winner,
        )
        return after, Staged(
            entry, follow=[ProgramLoaded(table=m.table, event=hosted.key, program=program, by=entry.by)]
        )

    # -- the duels on the tables ------------------------------------------------------------------
    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        program = table.program
        if not isinstance(program, PuzzleDuelProgram):
            return []
        verdict = program.verdict
        s: PuzzleSession = hosted.state
        owner = read_id(program.owner)
        item = owner.item if owner is not None and owner.item is not None else ""
        m = s.bracket.matches.get(item) if s.bracket is not None else None
        if verdict is None:  # a duel taken back from its result goes on: the bracket withdraws it
            reopened = m is not None and m.status is MatchStatus.RESULT and m.table == table.table
            if reopened and program.duel is not None and program.duel.started:
                return [MatchReopened(t_ns=now_ns, table=table.table, event=hosted.key, match=item)]
            return []
        if m is None or m.status is not MatchStatus.ASSIGNED or m.table != table.table:
            return []
        how: Literal["complete", "flag"] = "flag" if verdict.decided_by.value == "flag" else "complete"
        return [
            MatchFinished(
                t_ns=now_ns,
                table=table.table,
                event=hosted.key,
                match=item,
                how=how,
                verdict=verdict,
            )
        ]

    def deadline(self, hosted: Hosted) -> int | None:
        return None

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return []

    # -- reading -------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        s: PuzzleSession = hosted.state
        return s.allowed()

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> SessionBody:
        body = session_body(hosted.state)
        if body.bracket is None:
            return body
        matches = []
        for m in body.bracket.matches:
            late = _toss_too_late(m.table, tables.get(m.table) if m.table is not None else None)
            if late is not None and m.actions.get("match-toss") is None:
                m = m.model_copy(update={"actions": {**m.actions, "match-toss": late}})
            matches.append(m)
        return body.model_copy(update={"bracket": body.bracket.model_copy(update={"matches": matches})})

    def title(self, hosted: Hosted) -> Msg:
        s: PuzzleSession = hosted.state
        if hosted.name:
            return msg("text.as-typed", text=hosted.name)
        for cfg in s.config.sessions:
            if cfg.key == s.key:
                return cfg.title()
        return msg("text.as-typed", text=s.key)

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        return []  # its duels are the tables' programs: the tables alert for them

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return PuzzleSession.model_validate(data)


def _toss_too_late(table: int | None, state: TableState | None) -> Msg | None:
    """Why a match's toss can no longer be recorded: its duel on ``table`` has begun (the toss
    decides who starts). The one home of that rule: the toss refuses by it, and the match's
    view says it before anyone tries."""
    program = state.program if state is not None else None
    if isinstance(program, PuzzleDuelProgram) and program.duel is not None and program.duel.started:
        return msg("duel.toss-after-start", table=table)
    return None


def _item(target: str) -> str:
    ref = read_id(target)
    if ref is None or ref.item is None:
        raise Refused("event.which-item", target=target)
    return ref.item


def _close_duel(ctx: EventContext, s: PuzzleSession, item: str, by: str) -> list[Entry]:
    """The confirmed match's duel, still showing its result on the table, closed: nothing on it
    may be taken back any more (the bracket has moved on)."""
    m = s.bracket.matches.get(item) if s.bracket is not None else None
    state = ctx.table(m.table) if m is not None and m.table is not None else None
    if state is None:
        return []
    program = state.program
    if not isinstance(program, PuzzleDuelProgram) or not program.owner.endswith(f"/{item}"):
        return []
    closed = program.model_copy(update={"confirmed": True})
    return [ProgramLoaded(table=state.table, event=s.key, program=closed, by=by)]


def _unload_gone(ctx: EventContext, before: PuzzleSession, after: PuzzleSession) -> list[Entry]:
    """Programs to take off tables whose match is no longer being played (an override, a walkover)
    — where the match's duel is still on the table (the referee may have freed it for another event)."""
    if before.bracket is None or after.bracket is None:
        return []
    out: list[Entry] = []
    for mid, m in before.bracket.matches.items():
        if m.status is not MatchStatus.ASSIGNED or m.table is None:
            continue
        now = after.bracket.matches.get(mid)
        state = ctx.table(m.table)
        on_table = state is not None and state.program.owner == event_ref(ctx.hall, before.key, mid)
        if on_table and (now is None or now.status is not MatchStatus.ASSIGNED):
            out.append(ProgramLoaded(table=m.table, event=before.key, program=Idle()))
    return out


event_kind(PuzzleDuel())

__all__ = ["KIND", "MatchFinished", "MatchReopened", "PuzzleDuel"]


def _sealed(
    signups: SignupImport, person_ids: Mapping[int, str]
) -> tuple[SignupImport, dict[str, dict[str, Any]]]:
    """The sign-ups as the journal keeps them (no one's data), and the vault's records by person."""
    vault: dict[str, dict[str, Any]] = {}
    accepted: list[Signup] = []
    for sg in signups.accepted:
        stand_in, record = seal_person(sg.person)
        pid = person_ids.get(sg.line)
        if pid:
            vault.setdefault(pid, {})[str(sg.line)] = record
        accepted.append(sg.model_copy(update={"person": stand_in}))
    return signups.model_copy(update={"accepted": tuple(accepted)}), vault


def _unsealed(
    signups: SignupImport, person_ids: Mapping[int, str], vault: Mapping[str, Mapping[str, Any]]
) -> SignupImport:
    """The sign-ups as they were read, from the vault (an erased person stays the stand-in)."""
    accepted = []
    for sg in signups.accepted:
        record = vault.get(person_ids.get(sg.line, ""), {}).get(str(sg.line))
        accepted.append(sg.model_copy(update={"person": unseal_person(sg.person, record)}))
    return signups.model_copy(update={"accepted": tuple(accepted)})


def _results_of(results: dict[str, Any] | None, player: int) -> tuple[int | None, tuple[PersonResult, ...]]:
    """``player``'s place on the podium (if there) and each duel they sat at, from the session's
    results file (the one ``tournament export`` writes): what their export says they achieved."""
    if results is None:
        return None, ()
    names = {p["id"]: p["name"] for p in results["players"]}
    podium = results["podium"]
    place = podium.index(player) + 1 if player in podium else None
    played = []
    for m in results["matches"]:
        if player not in (m["a"], m["b"]):
            continue
        other = m["b"] if m["a"] == player else m["a"]
        own_side, other_side = ("a", "b") if player == (m.get("clock_a") or m["a"]) else ("b", "a")
        left = m["remaining_ms"] or {}
        played.append(
            PersonResult(
                match=m["id"],
                round_name=m["round_name"],
                opponent=names.get(other) if other is not None else None,
                won=None if m["winner"] is None else m["winner"] == player,
                decided_by=m["decided_by"],
                remaining_ms=left.get(own_side),
                opponent_remaining_ms=left.get(other_side),
                status=m["status"],
            )
        )
    return place, tuple(played)
