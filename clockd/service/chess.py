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
"""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from clockd.api.chess import ChessBody, chess_body
from clockd.core.actions import Action, Allowed, validation_msgs
from clockd.core.chessday.group import (
    CHESS_ACTIONS,
    Appeal,
    ChessError,
    ChessGroup,
    ChessGroupConfig,
    ClaimIllegalMove,
    CloseRound,
    EnterResult,
    PairRound,
    RecordAppeal,
    ReportPresent,
    UndoResult,
    WithdrawPlayer,
    read_result,
)
from clockd.core.chessday.roster import Group, Level
from clockd.core.clock import Side
from clockd.core.ids import event_ref
from clockd.core.program import ChessClock, ChessGame, ClockFace, ClockProgramView, Idle
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import NoValidPairing, pair_round
from clockd.core.timecontrol import TimeControl
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
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
        group = ChessGroup.new(config)
        return group, config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return ChessGroup.new(ChessGroupConfig.model_validate(config))

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
            return after, Staged(entry)
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
        raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover - routed by kind

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
            owner = event_ref(ctx.hall, hosted.key, f"board-{play.board}")
            if state.program.owner is not None and not state.program.owner.startswith(
                event_ref(ctx.hall, hosted.key) + "/"
            ):
                raise Refused("table.busy", table=play.table, owner=state.program.owner)
            program = ChessClock.fresh(control, owner=owner, game=ChessGame(white=Side.A))
            out.append(ProgramLoaded(table=play.table, event=hosted.key, program=program))
        return out

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
        body = chess_body(hosted.state, next_round_at=None, lag=None)
        return {
            "kind": "chess",
            "event": hosted.key,
            "rounds": body.round if body.phase != "playing" else body.round - 1,
            "columns": body.columns,
            "standings": [row.model_dump(mode="json") for row in body.standings],
            "trf": hosted.state.export(),
            # the names TRF's name field cuts (33 columns): the file's writer says so, the
            # printouts made from the file put the full name back
            "trf_cut": [
                {"start": sn, "name": full, "written": cut}
                for sn, full, cut in trf.cut_names(hosted.state.tournament)
            ],
        }

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
