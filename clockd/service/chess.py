"""A chess group of the school chess day as an event kind: ``chess``.

The rules are :class:`~clockd.core.chessday.group.ChessGroup` (pure); this module puts a group in
the daemon, beside the puzzle zone's events, so that 20 groups are 20 events of one daemon:

* **Created from its roster** (the day file's group, :mod:`clockd.core.chessday.roster`) or a TRF,
  sent as TOML and journaled as read: a replay needs no file.
* **Pairing beside the engine.** ``chess-pair`` is paired in :meth:`ChessKind.prepare`, which the
  API server runs in a worker thread (a big group's round takes seconds; the clocks of the hall
  do not wait for it); the pairing is journaled as what was decided (``decided``), so a replay,
  or a restart, never pairs again. An action that arrives without it (a test's direct submit)
  is paired on the engine's thread, the same way.
* **Clocks on the boards.** A board the hall's plan gives a table (``clocks``: board → table)
  gets a chess clock's program when its round is paired: 10 minutes a player, White on side A.
  Its flag is not a result: the table's view proposes one (FIDE Laws 6.9: the arbiter looks at
  the board), and the group's view shows the proposal on the board for the arbiter to confirm
  with one key. Closing the round puts the tables back to idle.
* **Who entered what.** A result's ``by`` is the arbiter the request came from; a second arbiter's
  different result is refused naming the first, unless it says ``replace``.
* **Late entries and fixes go through the vault.** ``chess-add`` makes the child a person of the
  vault as the import does (``person find`` finds them, ``person erase`` erases them): the row
  keeps a stand-in, the decided person id and start number, the vault the name, school, class
  and the e-mail's digest. ``chess-fix`` keeps its values in the vault the same way, the row
  which fields changed, who and why.
"""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from clockd.api.chess import ChessBody, chess_body
from clockd.core.actions import Action, Allowed, validation_msgs
from clockd.core.chessday import people as chess_people
from clockd.core.chessday.group import (
    CHESS_ACTIONS,
    AddLatePlayer,
    Appeal,
    ChessError,
    ChessGroup,
    ChessGroupConfig,
    ClaimIllegalMove,
    CloseRound,
    EnterResult,
    FixPlayer,
    PairRound,
    RecordAppeal,
    ReportPresent,
    UndoResult,
    WithdrawPlayer,
    read_result,
)
from clockd.core.chessday.roster import Entrant, Group, Level
from clockd.core.clock import Pause, Side
from clockd.core.ids import derived_person_id, event_ref, table_ref
from clockd.core.program import ChessClock, ChessGame, ClockFace, ClockProgramView, Idle
from clockd.core.registration import SEALED_NAME, Person
from clockd.core.registry import PersonSource
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import NoValidPairing, pair_round
from clockd.core.timecontrol import TimeControl
from clockd.i18n import Msg, msg, render
from clockd.service.actions import ActionEntry, journal
from clockd.service.component import Refused, Staged
from clockd.service.entries import ProgramLoaded
from clockd.service.events import EventContext, Hosted, Untimed, event_kind
from clockd.service.tables import TableState
from clockd.store.entries import Entry


def parse_config(text: str, name: str = "", source: str = "the configuration sent") -> ChessGroupConfig:
    """A chess group's configuration from its TOML text; :class:`Refused` naming every problem."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused("config.not-toml", source=source, problem=str(exc)) from exc
    if name and not data.get("title"):
        data["title"] = name
    try:
        return ChessGroupConfig.model_validate(data)
    except ValidationError as exc:
        raise Refused("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


def changed_pairings(group: ChessGroup) -> list[int]:
    """The rounds, paired before the last correction, that the corrected results would have
    paired otherwise: each re-paired from the rounds before it as they stand now."""
    if not group.corrections:
        return []
    out = []
    for number in group.corrections[-1].paired_after:
        found = group.repairing_input(number)
        if found is None:
            continue
        t, paired = found
        try:
            again = pair_round(t, group.config.rounds)
        except NoValidPairing:
            out.append(number)
            continue
        made = [(b.white, b.black) for b in paired.boards]
        if list(again.boards) != made or again.bye != paired.bye:
            out.append(number)
    return out


def pairing_of(group: ChessGroup) -> dict[str, Any]:
    """The next round's pairing, as journaled: ``{"boards": [[white, black], …], "bye": n}``."""
    try:
        pairing = pair_round(group.pairing_input(), group.config.rounds)
    except NoValidPairing as exc:
        raise Refused("chess.no-pairing", round=group.next_round) from exc
    return {"round": group.next_round, "boards": [list(b) for b in pairing.boards], "bye": pairing.bye}


class ChessKind(Untimed):
    """The event kind ``chess``: one group of the chess day (see the module docstring; a board's
    clock is its table's: a flag, and a restart's alerts, are the tables')."""

    kind = "chess"
    actions = CHESS_ACTIONS
    entries: frozenset[str] = frozenset()

    # -- creation --------------------------------------------------------------------------------
    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        if config_toml is None:
            raise Refused("chess.config-needed", event=key)
        config = parse_config(config_toml, name)
        for table in sorted(config.clocks.values()):
            if ctx.table(table) is None:
                raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))
        ChessGroup.new(config)  # the rules' refusals first, before anyone is identified
        emails = {e.start: e.email for e in config.group.entrants}
        ids = {}
        for start in chess_people.starts(config):
            first, surname = chess_people.full_name(config, start)
            ids[start] = ctx.identify(f"{first} {surname}", emails.get(start, ""))
        kept = chess_people.admitted(config, ids)
        group = ChessGroup.new(chess_people.unsealed(kept, chess_people.records(kept)))
        return group, chess_people.sealed(group.config).model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return ChessGroup.new(ChessGroupConfig.model_validate(config))

    # -- the children as people of the vault (EventHost's person-* actions) ----------------------
    def created_people(self, group: ChessGroup) -> dict[str, dict[str, Any]]:
        """The vault's records of a new group's players (person id → start number → record):
        the journal keeps the stand-ins (:mod:`clockd.core.chessday.people`)."""
        out: dict[str, dict[str, Any]] = {}
        for start, record in chess_people.records(group.config).items():
            out.setdefault(group.config.people[start], {})[str(start)] = record
        return out

    def restore_people(
        self, ctx: EventContext, group: ChessGroup, vault: Mapping[str, Mapping[str, Any]]
    ) -> ChessGroup:
        """The journaled group with what the vault still holds of its players (replay).

        A group journaled before its players were people (its row holds the roster as sent: no
        person ids, no vault) is read as the daemon now keeps a new one — ids derived from the
        group and the start number, the same at every replay; no birth date, the e-mail's
        digest — so its children are found, exported and erased in the state and the
        snapshots; that old row itself the hash chain keeps (docs/chess-day.md)."""
        if not group.config.people and chess_people.starts(group.config):
            return self._migrated(ctx, group)
        people = group.config.people
        found = {
            int(start): dict(record)
            for pid, held in vault.items()
            for start, record in held.items()
            if people.get(int(start)) == pid and isinstance(record, dict)
        }
        live = ChessGroup.new(chess_people.unsealed(group.config, found))
        for start, pid in people.items():
            first, surname = chess_people.full_name(live.config, start)
            ctx.remember(pid, f"{first} {surname}")
        return live

    @staticmethod
    def _migrated(ctx: EventContext, group: ChessGroup) -> ChessGroup:
        cfg = group.config
        emails = {e.start: e.email for e in cfg.group.entrants}
        ids = {
            start: derived_person_id(f"chess|{cfg.group.key}|{start}") for start in chess_people.starts(cfg)
        }
        kept = chess_people.admitted(cfg, ids)
        live = ChessGroup.new(chess_people.unsealed(kept, chess_people.records(kept)))
        for start, pid in ids.items():
            first, surname = chess_people.full_name(live.config, start)
            ctx.remember(pid, f"{first} {surname}", emails.get(start, ""))
        return live

    def people(self, hosted: Hosted) -> list[PersonSource]:
        group: ChessGroup = hosted.state
        cfg = group.config
        body = chess_body(group, next_round_at=None, lag=None)
        shown = {p.start: p.name for p in body.start_list}
        roster = {e.start: e for e in cfg.group.entrants}
        out = []
        for start, pid in sorted(cfg.people.items()):
            first, surname = chess_people.full_name(cfg, start)
            e = roster.get(start)
            details = {"school": e.school, "school_class": e.school_class} if e is not None else {}
            out.append(
                PersonSource(
                    person_id=pid,
                    event=hosted.key,
                    player=start,
                    display_name=shown.get(start, ""),
                    list="main",
                    line=e.form_line if e is not None else None,
                    withdrawn=start in group.withdrawn,
                    person=Person(first_name=first or SEALED_NAME, last_name=surname),
                    details={k: v for k, v in details.items() if v},
                    email_digest=cfg.contacts.get(start, ""),
                )
            )
        return out

    def erase_person(self, hosted: Hosted, person_id: str) -> Any:
        group: ChessGroup = hosted.state
        for start, pid in group.config.people.items():
            if pid == person_id:
                group = group.with_people(chess_people.erased(group.config, start)).forgotten(start)
        return group

    def correct_person(self, hosted: Hosted, person_id: str, field: str, value: object) -> Any:
        group: ChessGroup = hosted.state
        for start, pid in group.config.people.items():
            if pid == person_id:
                group = group.with_people(chess_people.corrected(group.config, start, field, value))
        return group

    # -- work done beside the engine -----------------------------------------------------------
    def prepare(self, hosted: Hosted, action: Action) -> Any:
        """The next round's pairing, worked out in the API server's worker thread."""
        group: ChessGroup = hosted.state
        if isinstance(action, PairRound):
            if group.pair_refusal() is not None or (action.round not in (None, group.next_round)):
                return None  # the stage says why
            return pairing_of(group)
        if isinstance(action, EnterResult) and self._correction_round(group, action) is not None:
            try:
                corrected = self._correct(group, action, by="")
            except ChessError:
                return None  # the stage says why
            return {"changed": changed_pairings(corrected)}
        return None

    @staticmethod
    def _correction_round(group: ChessGroup, action: EnterResult) -> int | None:
        """The closed round a result is for, if it corrects one (else ``None``: the open round)."""
        if action.round is not None:
            if group.current is not None and action.round == group.current.number:
                return None
            return action.round
        return group.rounds_closed if group.current is None and group.rounds_closed else None

    def _correct(self, group: ChessGroup, action: EnterResult, *, by: str) -> ChessGroup:
        number = self._correction_round(group, action)
        assert number is not None
        return group.correct(
            number,
            action.board,
            read_result(action.result),
            by=by,
            reason=action.reason,
            replace=action.replace,
        )

    # -- staging -----------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        assert isinstance(entry, ActionEntry)
        group: ChessGroup = hosted.state
        try:
            return self._action(ctx, hosted, group, entry, entry.action, replay, now_ns)
        except ChessError as exc:
            raise Refused(exc.msg) from exc

    def _action(
        self,
        ctx: EventContext,
        hosted: Hosted,
        group: ChessGroup,
        entry: ActionEntry,
        action: Action,
        replay: bool,
        now_ns: int,
    ) -> tuple[ChessGroup, Staged]:
        if isinstance(action, PairRound):
            return self._pair(ctx, hosted, group, entry, action, replay)
        if isinstance(action, EnterResult):
            if self._correction_round(group, action) is not None:
                after = self._correct(group, action, by=entry.by)
                decided = entry.decided if isinstance(entry.decided, dict) else None
                if decided is None or "changed" not in decided:
                    decided = {"changed": changed_pairings(after)}
                    entry = entry.model_copy(update={"decided": decided})
                return after.with_changed(int(r) for r in decided["changed"]), Staged(entry)
            after = group.enter(action.board, read_result(action.result), by=entry.by, replace=action.replace)
            follow = [] if replay else self._stop_clock(ctx, hosted, group, action.board, now_ns)
            return after, Staged(entry, follow=follow)
        if isinstance(action, UndoResult):
            return group.undo(action.board), Staged(entry)
        if isinstance(action, CloseRound):
            if not replay and not action.stop_clocks:
                running = self._running(ctx, hosted, group, now_ns)
                if running:
                    raise Refused("chess.close-clocks-running", boards=", ".join(map(str, running)))
            after = group.close()
            if not replay:
                entry = entry.model_copy(update={"decided": {"zero": list(after.closed_with_zero)}})
            follow = [] if replay else self._idle(ctx, hosted, group)
            return after, Staged(entry, follow=follow)
        if isinstance(action, ClaimIllegalMove):
            after, count = group.claim(action.board, action.player)
            if not replay:
                entry = entry.model_copy(update={"decided": {"claim": count}})
            return after, Staged(entry)
        if isinstance(action, RecordAppeal):
            result = read_result(action.result) if action.result else None
            appeal = Appeal(
                player=action.player, text=action.text, decision=action.decision, result=result, by=entry.by
            )
            return group.appeal(action.board, appeal), Staged(entry)
        if isinstance(action, ReportPresent):
            return group.report(action.player), Staged(entry)
        if isinstance(action, WithdrawPlayer):
            return group.withdraw(action.player), Staged(entry)
        if isinstance(action, AddLatePlayer):
            return self._add(ctx, hosted, group, entry, action, replay)
        if isinstance(action, FixPlayer):
            return self._fix(ctx, group, entry, action, replay)
        raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover - routed by kind

    def _add(
        self,
        ctx: EventContext,
        hosted: Hosted,
        group: ChessGroup,
        entry: ActionEntry,
        action: AddLatePlayer,
        replay: bool,
    ) -> tuple[ChessGroup, Staged]:
        """A late entrant, a person of the vault: the row a stand-in, the vault their data."""
        fields = {"surname", "first_name", "school", "school_class"}
        if replay:
            decided = entry.decided if isinstance(entry.decided, dict) else {}
            person_id = str(decided.get("person_id", ""))
            record = entry.vault.get(person_id, {}).get("add")
            if isinstance(record, dict):
                typed = Entrant(
                    start=1,
                    sex=group.config.group.sex,
                    rating=action.rating,
                    **{f: str(record.get(f, "")) for f in fields},
                )
                contact = str(record.get("email_digest", ""))
                ctx.remember(person_id, f"{typed.first_name} {typed.surname}")
            else:  # erased since: the stand-in, as the import's erased children
                typed = Entrant(
                    start=1,
                    surname=SEALED_NAME,
                    first_name="",
                    sex=group.config.group.sex,
                    rating=action.rating,
                )
                contact = ""
            after = group.add_late(
                typed, person_id=person_id if isinstance(record, dict) else "", contact=contact, by=entry.by
            )
            return after, Staged(entry)
        typed = Entrant(
            start=1,
            sex=group.config.group.sex,
            rating=action.rating,
            **{f: " ".join(str(getattr(action, f)).split()) for f in fields},
        )
        group.add_check(typed)
        self._check_elsewhere(ctx, hosted, typed)
        person_id = ctx.identify(f"{typed.first_name} {typed.surname}", action.email)
        contact = chess_people.contact_digest(person_id, action.email)
        after = group.add_late(typed, person_id=person_id, contact=contact, by=entry.by)
        self._check_boards(ctx, hosted, after)
        start = after.late[-1].start
        record = chess_people.records(after.config)[start]
        sealed = action.model_copy(update={f: "" for f in (*fields, "email")})
        entry = entry.model_copy(
            update={
                "action": sealed,
                "decided": {"person_id": person_id, "start": start},
                "vault": {person_id: {"add": record}},
            }
        )
        return after, Staged(entry)

    @staticmethod
    def _check_elsewhere(ctx: EventContext, hosted: Hosted, typed: Entrant) -> None:
        """A child who already plays in another group of the day is not added again."""
        from clockd.core.people import fold_name

        wanted = (fold_name(f"{typed.surname} {typed.first_name}"), fold_name(typed.school))
        for key, other in ctx.hosted().items():
            if key == hosted.key or not isinstance(other.state, ChessGroup):
                continue
            for e in other.state.config.group.entrants:
                if (fold_name(f"{e.surname} {e.first_name}"), fold_name(e.school)) == wanted:
                    raise Refused(
                        "chess.add-elsewhere",
                        name=f"{typed.surname} {typed.first_name}",
                        group=key,
                        player=e.start,
                    )

    @staticmethod
    def _check_boards(ctx: EventContext, hosted: Hosted, after: ChessGroup) -> None:
        """The group's boards, one more for the late entrant, stay clear of the other groups' range."""
        first = after.config.first_board
        last = first + after.boards_needed - 1
        for key, other in ctx.hosted().items():
            if key == hosted.key or not isinstance(other.state, ChessGroup):
                continue
            o_first = other.state.config.first_board
            o_last = o_first + other.state.boards_needed - 1
            if first <= o_last and o_first <= last:
                raise Refused(
                    "chess.add-no-board", group=hosted.key, board=last, other=key, first=o_first, last=o_last
                )

    def _fix(
        self, ctx: EventContext, group: ChessGroup, entry: ActionEntry, action: FixPlayer, replay: bool
    ) -> tuple[ChessGroup, Staged]:
        """A player's data fixed: the values in the vault, the row which fields, who and why."""
        fields = ("surname", "first_name", "school", "school_class")
        start = action.player
        if replay:
            decided = entry.decided if isinstance(entry.decided, dict) else {}
            person_id = str(decided.get("person_id", ""))
            record = entry.vault.get(person_id, {}).get("fix")
            if not isinstance(record, dict):  # erased since: which fields, who and why, no values
                return group.fix_forgotten(
                    start, decided.get("fields", ()), by=entry.by, reason=action.reason
                ), Staged(entry)
            changes = {f: str(v) for f, v in record.items() if f in fields}
        else:
            group.fix_refusal(start, action.reason)
            person_id = group.config.people.get(start, "")
            if not person_id:
                raise Refused("chess.fix-erased", player=start)
            changes = {f: " ".join(v.split()) for f in fields if (v := getattr(action, f)) is not None}
            if any(f in changes and not changes[f] for f in ("surname", "first_name")):
                raise Refused(
                    "chess.add-name", name=" ".join(changes.get(f, "") for f in fields[:2]).strip() or "—"
                )
        after = group.fixed(
            start, chess_people.fixed(group.config, start, changes), by=entry.by, reason=action.reason
        )
        first, surname = chess_people.full_name(after.config, start)
        ctx.remember(person_id, f"{first} {surname}")
        if not replay:
            sealed = action.model_copy(update={f: None for f in fields})
            entry = entry.model_copy(
                update={
                    "action": sealed,
                    "decided": {"person_id": person_id, "fields": list(after.fixes[-1].fields)},
                    "vault": {person_id: {"fix": changes}},
                }
            )
        return after, Staged(entry)

    def _pair(
        self,
        ctx: EventContext,
        hosted: Hosted,
        group: ChessGroup,
        entry: ActionEntry,
        action: PairRound,
        replay: bool,
    ) -> tuple[ChessGroup, Staged]:
        refusal = group.pair_refusal()
        if refusal is not None:
            raise Refused(refusal)
        if action.round is not None and action.round != group.next_round:
            raise Refused("chess.round-expected", asked=action.round, next=group.next_round)
        decided = entry.decided
        if not isinstance(decided, dict) or decided.get("round") != group.next_round:
            if replay:
                raise Refused("chess.pairing-missing", round=group.next_round)
            decided = pairing_of(group)
            entry = entry.model_copy(update={"decided": decided})
        boards = [(int(w), int(b)) for w, b in decided["boards"]]
        after = group.paired(boards, decided.get("bye"))
        follow = [] if replay else self._clocks(ctx, hosted, after)
        return after, Staged(entry, follow=follow)

    def _clocks(self, ctx: EventContext, hosted: Hosted, group: ChessGroup) -> list[Entry]:
        """A fresh chess clock on every board of the round that has a table."""
        assert group.current is not None
        control = TimeControl.parse(f"{group.config.minutes}m")
        out: list[Entry] = []
        for play in group.current.boards:
            if play.table is None:
                continue
            state = ctx.table(play.table)
            if state is None:
                raise Refused("table.unknown", table=play.table, known=sorted(ctx.tables().view()))
            # A table another event holds: the tables refuse (clockd.service.tables).
            owner = event_ref(ctx.hall, hosted.key, f"board-{play.board}")
            program = ChessClock.fresh(control, owner=owner, game=ChessGame(white=Side.A))
            out.append(ProgramLoaded(table=play.table, event=hosted.key, program=program))
        return out

    def _stop_clock(
        self, ctx: EventContext, hosted: Hosted, group: ChessGroup, board: int, now_ns: int
    ) -> list[Entry]:
        """The board's clock paused when its result is entered by hand: the game is over, and a
        clock left running would flag and propose a result for a finished game."""
        if board not in self._running(ctx, hosted, group, now_ns):
            return []
        table = group.current.board(board).table if group.current else None
        assert table is not None
        return [journal(Pause(reason=""), target=table_ref(ctx.hall, table), source="event", table=table)]

    def _running(self, ctx: EventContext, hosted: Hosted, group: ChessGroup, now_ns: int) -> list[int]:
        """The round's boards with no result whose clock is still running: a game may go on."""
        out: list[int] = []
        for play in group.current.boards if group.current else ():
            state = ctx.table(play.table) if play.table is not None else None
            if state is None or play.result is not None:
                continue
            view = state.program.view(now_ns)
            if (
                isinstance(view, ClockProgramView)
                and view.owner == event_ref(ctx.hall, hosted.key, f"board-{play.board}")
                and view.clock.phase == "running"
            ):
                out.append(play.board)
        return out

    def _idle(self, ctx: EventContext, hosted: Hosted, group: ChessGroup) -> list[Entry]:
        assert group.current is not None
        out: list[Entry] = []
        for play in group.current.boards:
            state = ctx.table(play.table) if play.table is not None else None
            if state is not None and state.program.owner == event_ref(
                ctx.hall, hosted.key, f"board-{play.board}"
            ):
                out.append(ProgramLoaded(table=play.table, event=hosted.key, program=Idle()))
        return out

    # -- reading -------------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        group: ChessGroup = hosted.state
        return group.allowed()

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> ChessBody:
        group: ChessGroup = hosted.state
        clocks: dict[int, ClockFace] = {}
        flags: dict[int, str] = {}
        for play in group.current.boards if group.current else ():
            state = tables.get(play.table) if play.table is not None else None
            view = state.program.view(now_ns) if state is not None else None
            if isinstance(view, ClockProgramView) and view.owner == event_ref(
                hall, hosted.key, f"board-{play.board}"
            ):
                clocks[play.board] = view.clock
                if view.proposal is not None:
                    flags[play.board] = view.proposal.result_if_mate_possible
        number, next_at, lag = group.schedule(datetime.datetime.now(datetime.UTC))
        return chess_body(
            group, next_round=number, next_round_at=next_at, lag=lag, clocks=clocks, flags=flags
        )

    def title(self, hosted: Hosted) -> Msg:
        if hosted.name:
            return msg("text.as-typed", text=hosted.name)
        group: Group = hosted.state.config.group
        return group.title()

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        """The standings and the TRF; the TRF with the birth years (when the organiser asked for
        them at the import) under ``private``, which the reply's private field carries: only a
        client with the token receives it."""
        group: ChessGroup = hosted.state
        body = chess_body(group, next_round_at=None, lag=None)
        title = render(group.config.group.title(), lang)
        out: dict[str, Any] = {
            "kind": "chess",
            "event": hosted.key,
            "rounds": body.round if body.phase != "playing" else body.round - 1,
            "columns": body.columns,
            "standings": [row.model_dump(mode="json") for row in body.standings],
            "trf": group.export(group_title=title),
            # the names TRF's name field cuts (33 columns): the file's writer says so, the
            # printouts made from the file put the full name back
            "trf_cut": [
                {"start": sn, "name": full, "written": cut}
                for sn, full, cut in trf.cut_names(group.tournament)
            ],
        }
        if group.config.birth_year:
            out["private"] = {"trf_birth_year": group.export(birth=True, group_title=title)}
        return out

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        group: ChessGroup = hosted.state
        if group.current is None or not item.startswith("board-"):
            return None
        for play in group.current.boards:
            if f"board-{play.board}" == item:
                return play.table
        return None

    def dump(self, state: Any) -> Any:
        assert isinstance(state, ChessGroup)
        return state.dump()

    def load(self, data: Any) -> Any:
        return ChessGroup.load(data)


event_kind(ChessKind())

__all__ = ["ChessKind", "Level", "chess_body", "pairing_of", "parse_config"]
