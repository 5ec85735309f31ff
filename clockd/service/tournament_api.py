"""The tournament's API on the daemon side: request handlers and the ``tournament-state`` push.

Importing this module registers the handlers (:func:`clockd.service.handlers.handles`) and
the broadcaster (:func:`clockd.service.server.register_broadcaster`); the composition root
imports it and passes a :class:`~clockd.service.tournament.Tournament` component to the
daemon (:func:`tournament_component`).

A request that touches a table's clock does it with the tables' own events, after the
tournament's: ``match-assign`` sets the clock for the round and locks it until the toss
(``clock-set`` with ``starter = "none"``); ``match-toss`` sets it again so that only the
toss loser's press starts it; ``match-complete`` pauses a running clock at the instant the
referee marks the picture complete, then journals the duel's verdict.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterable

from clockd.api.messages import Push, Reply
from clockd.api.tournament import (
    AddPlayer,
    AdjustMatch,
    AssignMatch,
    CheckIn,
    CloseCheckIn,
    CompleteMatch,
    ConfirmMatch,
    CreateTournament,
    ImportSignups,
    ListedPlayer,
    MakeDraw,
    OverrideMatch,
    PauseMatch,
    RecordToss,
    RefusalView,
    ResultsView,
    ResumeMatch,
    SeatChangeView,
    SessionView,
    StartTiebreak,
    TournamentDone,
    TournamentState,
    TournamentStatus,
    TournamentStatusReply,
    WalkoverMatch,
    Withdraw,
)
from clockd.core.bracket import MatchStatus, OverrideReason
from clockd.core.clock import Phase
from clockd.core.csvtext import control_character
from clockd.core.puzzle_duel import PuzzleSession
from clockd.core.registration import ListKind, Person, SignupError, parse_signups
from clockd.core.tournament import ConfigError, TournamentConfig
from clockd.reports.results import build_results
from clockd.service.component import Refused
from clockd.service.engine import Batch
from clockd.service.events import Adjusted, ClockSet, Paused, Resumed
from clockd.service.handlers import Context, handles
from clockd.service.server import register_broadcaster
from clockd.service.tournament import (
    TOURNAMENT_KINDS,
    CheckInClosed,
    DrawMade,
    MatchAssigned,
    MatchConfirmed,
    MatchFinished,
    MatchOverridden,
    MatchWalkover,
    PlayerAdded,
    PlayerCheckedIn,
    PlayerWithdrew,
    SignupsImported,
    TossRecorded,
    Tournament,
    TournamentCreated,
    TournamentEvent,
    TournamentView,
    clock_side,
    match_on_table,
)
from clockd.store.events import Event


def tournament_component() -> Tournament:
    """A fresh component to pass to :class:`~clockd.service.runtime.Daemon` (``components=``)."""
    return Tournament()


# -- views -----------------------------------------------------------------------------------


def session_view(s: PuzzleSession) -> SessionView:
    """What clients see of a session: public names only, the bracket as the results file."""
    reg = s.registration
    listed = [p for kind in (ListKind.MAIN, ListKind.RESERVE, ListKind.WALK_IN) for p in reg.listed(kind)]
    withdrawn = [p for p in reg.players.values() if p.id in reg.withdrawn]
    results = None
    if s.bracket is not None:
        built = build_results(s.bracket, s.names(), tournament=s.config.name, session=s.name)
        results = ResultsView.model_validate(built.model_dump(mode="json"))
    return SessionView(
        key=s.key,
        name=s.name,
        stage=s.stage,
        players=[
            ListedPlayer(
                id=p.id,
                name=p.display_name,
                list=p.list.value,
                present=p.id in reg.present,
                withdrawn=p.id in reg.withdrawn,
            )
            for p in [*listed, *withdrawn]
        ],
        field=list(reg.field) if reg.field is not None else None,
        seat_changes=[
            SeatChangeView(absent=c.absent, taken_by=c.taken_by, rule=c.rule) for c in reg.seat_changes
        ],
        refused=len(reg.refused),
        refusals=[
            RefusalView(line=r.line, name=r.name, reason=r.reason, same_as=r.same_as) for r in reg.refused
        ],
        results=results,
    )


def _tournament(ctx: Context) -> TournamentView:
    view = ctx.current().views.get("tournament")
    if not isinstance(view, TournamentView):
        raise Refused("this daemon runs no tournament (start it with the tournament component)")
    return view


async def _submit(ctx: Context, req: object, event: TournamentEvent) -> Reply:
    seq = await ctx.submit(event)
    session = _tournament(ctx).session(event.session)
    return TournamentDone(id=getattr(req, "id", None), seq=seq, session=session_view(session))


# -- read-only --------------------------------------------------------------------------------


@handles(TournamentStatus)
async def _status(ctx: Context, req: TournamentStatus) -> Reply:
    view = _tournament(ctx)
    keys = list(view.order) if req.session is None else [view.session(req.session).key]
    return TournamentStatusReply(id=req.id, sessions=[session_view(view.sessions[k]) for k in keys])


# -- the session --------------------------------------------------------------------------------


@handles(CreateTournament)
async def _create(ctx: Context, req: CreateTournament) -> Reply:
    from clockd.data import festival_config

    try:
        config = (
            festival_config()
            if req.config_toml is None
            else TournamentConfig.from_toml(req.config_toml, source="the configuration sent")
        )
    except ConfigError as exc:
        raise Refused(str(exc)) from exc
    name = req.name
    if not name:
        name = next((s.name for s in config.sessions if s.key == req.session), req.session)
    event = TournamentCreated(
        session=req.session, name=name, config=config.model_dump(mode="json"), by=req.by
    )
    return await _submit(ctx, req, event)


@handles(ImportSignups)
async def _import(ctx: Context, req: ImportSignups) -> Reply:
    s = _tournament(ctx).session(req.session)
    try:
        signups = parse_signups(req.csv, min_age=s.config.min_age, source=req.source)
    except SignupError as exc:
        raise Refused(str(exc)) from exc
    return await _submit(ctx, req, SignupsImported(session=req.session, signups=signups, by=req.by))


@handles(AddPlayer)
async def _add(ctx: Context, req: AddPlayer) -> Reply:
    for field in ("first_name", "last_name", "nickname", "email", "phone"):
        bad = control_character(getattr(req, field))
        if bad is not None:  # a NUL or a line break in a name would reach the pages and the TRF
            raise Refused(f"the {field.replace('_', ' ')} contains a control character ({bad}); retype it")
    person = Person(
        first_name=req.first_name,
        last_name=req.last_name,
        email=req.email,
        phone=req.phone,
        age=req.age,
        nickname=req.nickname,
    )
    return await _submit(
        ctx, req, PlayerAdded(session=req.session, person=person, walk_in=req.walk_in, by=req.by)
    )


@handles(CheckIn)
async def _check_in(ctx: Context, req: CheckIn) -> Reply:
    event = PlayerCheckedIn(session=req.session, player=req.player, present=req.present, by=req.by)
    return await _submit(ctx, req, event)


@handles(Withdraw)
async def _withdraw(ctx: Context, req: Withdraw) -> Reply:
    return await _submit(ctx, req, PlayerWithdrew(session=req.session, player=req.player, by=req.by))


@handles(CloseCheckIn)
async def _close(ctx: Context, req: CloseCheckIn) -> Reply:
    return await _submit(ctx, req, CheckInClosed(session=req.session, by=req.by))


@handles(MakeDraw)
async def _draw(ctx: Context, req: MakeDraw) -> Reply:
    if req.seed is not None and req.lines:
        raise Refused("give a seed (the app draws) or the drawn lines, not both")
    seed = req.seed if req.seed is not None or req.lines else secrets.randbelow(1_000_000_000)
    event = DrawMade(session=req.session, seed=seed, lines=None if seed is not None else req.lines, by=req.by)
    return await _submit(ctx, req, event)


# -- matches --------------------------------------------------------------------------------------


async def _assign(
    ctx: Context, req: AssignMatch | StartTiebreak, match: str, table: int, clock_a: int | None
) -> Reply:
    await ctx.submit(MatchAssigned(session=req.session, match=match, table=table, clock_a=clock_a, by=req.by))
    s, m = match_on_table(_tournament(ctx), req.session, match)
    assert s.bracket is not None
    label = f"{s.key} {m.id}: {s.config.rounds[m.round - 1].name}" + (" (dogrywka)" if m.is_tiebreak else "")
    control = str(s.bracket.time_control(m.id))
    seq = await ctx.submit(ClockSet(table=table, control=control, starter="none", by=req.by, reason=label))
    return TournamentDone(id=req.id, seq=seq, session=session_view(_tournament(ctx).session(req.session)))


@handles(AssignMatch)
async def _assign_match(ctx: Context, req: AssignMatch) -> Reply:
    ctx.view(req.table)  # refuses a table the daemon does not have
    return await _assign(ctx, req, req.match, req.table, req.clock_a)


@handles(StartTiebreak)
async def _tiebreak(ctx: Context, req: StartTiebreak) -> Reply:
    s, m = match_on_table(_tournament(ctx), req.session, req.match)
    root = s.bracket.match(m.tiebreak_of) if (s.bracket is not None and m.tiebreak_of) else m
    pending = [
        t for t in root.tiebreaks if s.bracket is not None and s.bracket.match(t).status is MatchStatus.READY
    ]
    if not pending:
        raise Refused(f"match {root.id} has no tie-break waiting for a table")
    table = req.table or root.table
    if table is None:
        raise Refused(f"match {root.id} was not on a table: give the tie-break's table")
    ctx.view(table)
    return await _assign(ctx, req, pending[-1], table, root.clock_a)


@handles(RecordToss)
async def _toss(ctx: Context, req: RecordToss) -> Reply:
    s, m = match_on_table(_tournament(ctx), req.session, req.match)
    if m.table is not None and m.status is MatchStatus.ASSIGNED:
        phase = ctx.current().tables[m.table].clock.phase
        if phase is not Phase.READY:
            raise Refused(f"the clock of table {m.table} has started: the toss comes before the duel")
    await ctx.submit(TossRecorded(session=req.session, match=req.match, winner=req.winner, by=req.by))
    s, m = match_on_table(_tournament(ctx), req.session, req.match)
    assert s.bracket is not None and m.table is not None and m.toss_winner is not None
    loser = clock_side(m, m.toss_winner).other
    winner_name = s.names().get(m.toss_winner, str(m.toss_winner))
    event = ClockSet(
        table=m.table,
        control=str(s.bracket.time_control(m.id)),
        starter=loser.value,
        by=req.by,
        reason=f"{s.key} {m.id}: toss won by {winner_name}; side {loser.value.upper()} starts the clock",
    )
    seq = await ctx.submit(event)
    return TournamentDone(id=req.id, seq=seq, session=session_view(_tournament(ctx).session(req.session)))


async def _pause_if_running(ctx: Context, table: int | None, reason: str, by: str) -> None:
    if table is None:
        return
    state = ctx.current().tables.get(table)
    if state is not None and state.clock.view(max(ctx.now_ns(), state.floor_ns)).phase is Phase.RUNNING:
        with contextlib.suppress(Refused):  # a flag fell meanwhile: the duel ended by it
            await ctx.submit(Paused(table=table, by=by, reason=reason))


@handles(CompleteMatch)
async def _complete(ctx: Context, req: CompleteMatch) -> Reply:
    s, m = match_on_table(_tournament(ctx), req.session, req.match)
    if m.status is not MatchStatus.ASSIGNED:
        raise Refused(f"match {m.id} is not being played (it is {m.status.value})")
    await _pause_if_running(ctx, m.table, f"{s.key} {m.id}: picture complete", req.by)
    event = MatchFinished(session=req.session, match=req.match, table=m.table, how="complete", by=req.by)
    return await _submit(ctx, req, event)


@handles(ConfirmMatch)
async def _confirm(ctx: Context, req: ConfirmMatch) -> Reply:
    return await _submit(ctx, req, MatchConfirmed(session=req.session, match=req.match, by=req.by))


@handles(OverrideMatch)
async def _override(ctx: Context, req: OverrideMatch) -> Reply:
    s, m = match_on_table(_tournament(ctx), req.session, req.match)
    if m.status is MatchStatus.ASSIGNED:
        await _pause_if_running(ctx, m.table, f"{s.key} {m.id}: referee's decision", req.by)
    event = MatchOverridden(
        session=req.session,
        match=req.match,
        winner=req.winner,
        category=OverrideReason(req.category),
        reason=req.reason,
        by=req.by,
    )
    return await _submit(ctx, req, event)


@handles(WalkoverMatch)
async def _walkover(ctx: Context, req: WalkoverMatch) -> Reply:
    event = MatchWalkover(
        session=req.session, match=req.match, absent=req.absent, reason=req.reason, by=req.by
    )
    return await _submit(ctx, req, event)


def _live_table(ctx: Context, session: str, match: str) -> int:
    _, m = match_on_table(_tournament(ctx), session, match)
    if m.table is None or m.status is not MatchStatus.ASSIGNED:
        raise Refused(f"match {match} is not being played on a table (it is {m.status.value})")
    return m.table


@handles(PauseMatch)
async def _pause(ctx: Context, req: PauseMatch) -> Reply:
    table = _live_table(ctx, req.session, req.match)
    return await ctx.done(req, Paused(table=table, by=req.by, reason=req.reason or f"{req.match}"), table)


@handles(ResumeMatch)
async def _resume(ctx: Context, req: ResumeMatch) -> Reply:
    table = _live_table(ctx, req.session, req.match)
    return await ctx.done(req, Resumed(table=table, by=req.by, reason=req.reason or f"{req.match}"), table)


@handles(AdjustMatch)
async def _adjust(ctx: Context, req: AdjustMatch) -> Reply:
    table = _live_table(ctx, req.session, req.match)
    _, m = match_on_table(_tournament(ctx), req.session, req.match)
    side = clock_side(m, req.player)
    event = Adjusted(table=table, side=side, delta_ns=req.delta_ms * 1_000_000, by=req.by, reason=req.reason)
    return await ctx.done(req, event, table)


# -- the live stream -------------------------------------------------------------------------------


class TournamentBroadcaster:
    """A ``tournament-state`` push per session: on subscribing, and after each change to it."""

    def initial(self, ctx: Context) -> Iterable[tuple[Push, int | None]]:
        view = ctx.current().views.get("tournament")
        if isinstance(view, TournamentView):
            for key in view.order:
                yield TournamentState(session=session_view(view.sessions[key])), None

    def changes(self, batch: Batch, ctx: Context) -> Iterable[tuple[Push, int | None]]:
        view = batch.current.views.get("tournament")
        if not isinstance(view, TournamentView):
            return
        touched: list[str] = []
        for record in batch.records:
            event: Event = record.event
            if (
                event.kind in TOURNAMENT_KINDS
                and isinstance(event, TournamentEvent)
                and event.session not in touched
            ):
                touched.append(event.session)
        for key in touched:
            if key in view.sessions:
                yield TournamentState(session=session_view(view.sessions[key])), None


register_broadcaster(TournamentBroadcaster())
