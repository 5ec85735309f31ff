"""The Puzzle Duel inside the daemon: journaled tournament events and the component holding them.

Each session (:class:`~clockd.core.puzzle_duel.PuzzleSession`: players, draw, bracket) is a
fold of the events below, journaled before they apply like every other input (DESIGN.md
principle 2). The component :class:`Tournament` owns them; requests arrive through
:mod:`clockd.service.tournament_api`.

**The duel on a table is decided by the pure duel.** For every match on a table the
component keeps a :class:`~clockd.core.duel.Duel` fed with that table's journaled inputs —
the clock set for the round (with the toss loser as the only one who may start it), the
presses, pauses, adjustments and the flag decision — exactly as ``duelclock duel replay``
feeds a dispute timeline. When the referee marks the picture complete, or when the tables
decide that a flag fell, the duel's :class:`~clockd.core.duel.Verdict` is journaled in a
``match-finished`` event and goes to the bracket. The table's own clock applies the same
inputs and the same toss rule, so what the clock face shows is what the duel decides.

Replaying the journal rebuilds the same sessions and the same duels (the verdicts are
journaled; the duels are rebuilt from the table events in journal order).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from pydantic import ValidationError

from clockd.core.bracket import (
    Assign,
    Confirm,
    DuelFinished,
    Match,
    Override,
    OverrideReason,
    Toss,
    Walkover,
)
from clockd.core.clock import Adjust, ClockError, Pause, Press, Resume, Side
from clockd.core.duel import Complete, Duel, DuelOutcome, DuelSetup, Verdict
from clockd.core.puzzle_duel import EnterDraw, MakeDraw, PuzzleSession
from clockd.core.puzzle_duel import ImportSignups as CoreImportSignups
from clockd.core.registration import AddPlayer, CheckIn, CheckOut, Close, Person, SignupImport, Withdraw
from clockd.core.timecontrol import TimeControl
from clockd.core.tournament import TournamentConfig
from clockd.service.component import Refused, ReplayMismatch, Staged
from clockd.service.events import (
    Adjusted,
    ClockSet,
    FlagFell,
    Paused,
    PressRecorded,
    RefereeButtonPressed,
    Resumed,
)
from clockd.store.events import Event, event_type
from clockd.store.journal import Record

log = logging.getLogger(__name__)


# -- events ---------------------------------------------------------------------------------


class TournamentEvent(Event):
    """Every tournament event names its session and the referee who made it."""

    session: str
    by: str = ""


@event_type
class TournamentCreated(TournamentEvent):
    """A session, with its whole configuration (so a later edit of the file changes nothing)."""

    kind: Literal["tournament-created"] = "tournament-created"
    name: str
    config: dict[str, Any]


@event_type
class SignupsImported(TournamentEvent):
    kind: Literal["tournament-signups"] = "tournament-signups"
    signups: SignupImport


@event_type
class PlayerAdded(TournamentEvent):
    kind: Literal["tournament-player-added"] = "tournament-player-added"
    person: Person
    walk_in: bool = False


@event_type
class PlayerCheckedIn(TournamentEvent):
    kind: Literal["tournament-check-in"] = "tournament-check-in"
    player: int
    present: bool = True


@event_type
class PlayerWithdrew(TournamentEvent):
    kind: Literal["tournament-withdraw"] = "tournament-withdraw"
    player: int


@event_type
class CheckInClosed(TournamentEvent):
    kind: Literal["tournament-close"] = "tournament-close"


@event_type
class DrawMade(TournamentEvent):
    """The bracket lines: drawn by the app with ``seed`` (``lines`` records the outcome), or
    ``lines`` as drawn at the table (``seed`` null)."""

    kind: Literal["tournament-draw"] = "tournament-draw"
    seed: int | None = None
    lines: dict[int, int] | None = None


class MatchEvent(TournamentEvent):
    match: str


@event_type
class MatchAssigned(MatchEvent):
    """A match goes to ``table``; ``clock_a`` is the player at the clock's side a."""

    kind: Literal["match-assigned"] = "match-assigned"
    clock_a: int | None = None


@event_type
class TossRecorded(MatchEvent):
    kind: Literal["match-toss"] = "match-toss"
    winner: int


@event_type
class MatchFinished(MatchEvent):
    """The duel ended: the referee marked the picture ``complete``, or a ``flag`` fell.

    ``verdict`` is the pure duel's decision, filled in when the event is journaled.
    """

    kind: Literal["match-finished"] = "match-finished"
    how: Literal["complete", "flag"]
    verdict: Verdict | None = None


@event_type
class MatchConfirmed(MatchEvent):
    kind: Literal["match-confirmed"] = "match-confirmed"


@event_type
class MatchOverridden(MatchEvent):
    kind: Literal["match-override"] = "match-override"
    winner: int
    category: OverrideReason
    reason: str


@event_type
class MatchWalkover(MatchEvent):
    kind: Literal["match-walkover"] = "match-walkover"
    absent: int
    reason: str


TOURNAMENT_KINDS = frozenset(
    cls.model_fields["kind"].default
    for cls in (
        TournamentCreated,
        SignupsImported,
        PlayerAdded,
        PlayerCheckedIn,
        PlayerWithdrew,
        CheckInClosed,
        DrawMade,
        MatchAssigned,
        TossRecorded,
        MatchFinished,
        MatchConfirmed,
        MatchOverridden,
        MatchWalkover,
    )
)


# -- the component --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableDuel:
    """The match on a table and its duel (``None`` until the clock is set after the toss)."""

    session: str
    match: str
    duel: Duel | None = None


@dataclass(frozen=True, slots=True)
class TournamentView:
    """The committed state, immutable: safe to read from any thread."""

    sessions: MappingProxyType[str, PuzzleSession]
    order: tuple[str, ...]  # sessions in the order they were created
    duels: MappingProxyType[int, TableDuel]

    def session(self, key: str) -> PuzzleSession:
        try:
            return self.sessions[key]
        except KeyError:
            known = ", ".join(self.order) or "none yet"
            raise Refused(f"there is no tournament session {key!r} (sessions: {known})") from None


def clock_side(match: Match, player: int) -> Side:
    """The clock side ``player`` sits at in ``match``."""
    if player not in match.entrants:
        raise Refused(f"player {player} does not play in match {match.id}")
    return Side.A if player == match.clock_a else Side.B


class Tournament:
    """The tournament component (see :mod:`clockd.service.component` for the protocol)."""

    name = "tournament"
    kinds = TOURNAMENT_KINDS

    def __init__(self) -> None:
        self._sessions: dict[str, PuzzleSession] = {}
        self._order: list[str] = []
        self._duels: dict[int, TableDuel] = {}
        self._pending: dict[tuple[str, str], int] = {}  # (session, match) → table: a flag ended it
        self._staged: dict[str, PuzzleSession] | None = None
        self._staged_order: list[str] | None = None
        self._view = self._make_view()

    # -- reading ----------------------------------------------------------------------------
    def view(self) -> TournamentView:
        return self._view

    def _make_view(self) -> TournamentView:
        return TournamentView(
            sessions=MappingProxyType(dict(self._sessions)),
            order=tuple(self._order),
            duels=MappingProxyType(dict(self._duels)),
        )

    # -- the protocol -------------------------------------------------------------------------
    def begin(self) -> None:
        self._staged = None
        self._staged_order = None

    def abort(self) -> None:
        self.begin()

    def stage(self, event: Event, *, now_ns: int, replay: bool) -> Staged:
        if not isinstance(event, TournamentEvent):
            raise Refused(f"the tournament does not apply events of kind {event.kind!r}")
        if self._staged is None:
            self._staged = dict(self._sessions)
            self._staged_order = list(self._order)
        assert self._staged_order is not None
        if isinstance(event, TournamentCreated):
            if event.session in self._staged:
                raise Refused(f"tournament session {event.session!r} already exists")
            try:
                config = TournamentConfig.model_validate(event.config)
            except ValidationError as exc:
                raise Refused(f"the tournament configuration is not valid: {exc.errors()[0]['msg']}") from exc
            self._staged[event.session] = PuzzleSession.new(config, event.session, event.name)
            self._staged_order.append(event.session)
            return Staged(event)
        session = self._staged.get(event.session)
        if session is None:
            known = ", ".join(self._staged_order) or "none yet"
            raise Refused(f"there is no tournament session {event.session!r} (sessions: {known})")
        try:
            session, event = self._apply(session, event, replay=replay)
        except ValueError as exc:  # a session, bracket, registration or clock rule said no
            raise Refused(str(exc)) from exc
        self._staged[event.session] = session
        return Staged(event)

    def _apply(
        self, s: PuzzleSession, e: TournamentEvent, *, replay: bool
    ) -> tuple[PuzzleSession, TournamentEvent]:
        if isinstance(e, SignupsImported):
            return s.apply(CoreImportSignups(signups=e.signups)), e
        if isinstance(e, PlayerAdded):
            return s.apply(AddPlayer(person=e.person, walk_in=e.walk_in)), e
        if isinstance(e, PlayerCheckedIn):
            return s.apply(CheckIn(player=e.player) if e.present else CheckOut(player=e.player)), e
        if isinstance(e, PlayerWithdrew):
            return s.apply(Withdraw(player=e.player)), e
        if isinstance(e, CheckInClosed):
            return s.apply(Close()), e
        if isinstance(e, DrawMade):
            return self._draw(s, e, replay=replay)
        if not isinstance(e, MatchEvent):  # pragma: no cover - every kind is handled above
            raise Refused(f"unknown tournament event {e.kind!r}")
        if s.bracket is None:
            raise Refused(f"session {s.key} has no bracket yet: close check-in and make the draw first")
        match = s.bracket.match(e.match)
        if isinstance(e, MatchAssigned):
            if e.table is None:
                raise Refused("a match is assigned to a table: give its number")
            self._check_table_free(e.table, s.key, e.match)
            s = s.apply(Assign(match=e.match, table=e.table, clock_a=e.clock_a, referee=e.by))
            assert s.bracket is not None
            return s, e.model_copy(update={"clock_a": s.bracket.match(e.match).clock_a})
        e = e.model_copy(update={"table": match.table})  # the event shows in that table's timeline
        if isinstance(e, TossRecorded):
            return s.apply(Toss(match=e.match, winner=e.winner, referee=e.by)), e
        if isinstance(e, MatchFinished):
            verdict = e.verdict if replay or e.how == "flag" else self._complete(match, e.t_ns)
            if verdict is None:
                raise Refused(f"match {e.match}: no verdict to record")
            return s.apply(DuelFinished(match=e.match, verdict=verdict, referee=e.by)), e.model_copy(
                update={"verdict": verdict}
            )
        if isinstance(e, MatchConfirmed):
            return s.apply(Confirm(match=e.match, referee=e.by)), e
        if isinstance(e, MatchOverridden):
            override = Override(
                match=e.match, winner=e.winner, category=e.category, reason=e.reason, referee=e.by
            )
            return s.apply(override), e
        if isinstance(e, MatchWalkover):
            return s.apply(Walkover(match=e.match, absent=e.absent, reason=e.reason, referee=e.by)), e
        raise Refused(f"unknown tournament event {e.kind!r}")  # pragma: no cover

    def _draw(self, s: PuzzleSession, e: DrawMade, *, replay: bool) -> tuple[PuzzleSession, DrawMade]:
        if e.seed is None:
            if not e.lines:
                raise Refused("a draw needs a seed or the drawn lines")
            return s.apply(EnterDraw(lines=e.lines)), e
        s = s.apply(MakeDraw(seed=e.seed))
        assert s.bracket is not None
        lines = dict(s.bracket.draw.lines)
        if replay and e.lines is not None and e.lines != lines:
            raise ReplayMismatch(f"session {s.key}: the draw with seed {e.seed} replays differently")
        return s, e.model_copy(update={"lines": lines})

    def _check_table_free(self, table: int, session: str, match: str) -> None:
        assert self._staged is not None
        for key, other in self._staged.items():
            if other.bracket is None:
                continue
            busy = other.bracket.on_table(table)
            if busy is not None and (key, busy.id) != (session, match):
                raise Refused(f"table {table} is busy with match {busy.id} of session {key}")

    def _complete(self, match: Match, t_ns: int) -> Verdict:
        """The pure duel's verdict when the referee marks the picture complete at ``t_ns``."""
        td = self._duels.get(match.table) if match.table is not None else None
        if td is None or td.match != match.id or td.duel is None or not td.duel.started:
            raise Refused(f"the duel of match {match.id} has not started: the toss loser's press starts it")
        duel, _ = td.duel.apply(Complete(t_ns=max(t_ns, td.duel.clock.last_input_ns or t_ns)))
        verdict = duel.verdict()
        assert verdict is not None
        return verdict

    def commit(self, records: Sequence[Record]) -> None:
        if self._staged is not None:
            assert self._staged_order is not None
            self._sessions = self._staged
            self._order = self._staged_order
        for record in records:
            self._observe(record.event)
        self._view = self._make_view()
        self.begin()

    # -- the duels on the tables ------------------------------------------------------------
    def _observe(self, e: Event) -> None:
        if isinstance(e, MatchEvent):
            self._observe_match(e)
            return
        if e.table is None or e.table not in self._duels:
            return
        td = self._duels[e.table]
        if isinstance(e, ClockSet):
            self._duels[e.table] = TableDuel(td.session, td.match, self._new_duel(td, e))
            return
        if td.duel is None or td.duel.over:
            return
        clock_input: Press | Pause | Resume | Adjust | None = None
        if isinstance(e, PressRecorded):
            clock_input = Press(t_ns=e.t_ns, side=e.side)
        elif isinstance(e, Paused) or (isinstance(e, RefereeButtonPressed) and e.action == "pause"):
            clock_input = Pause(t_ns=e.t_ns)
        elif isinstance(e, Resumed) or (isinstance(e, RefereeButtonPressed) and e.action == "resume"):
            clock_input = Resume(t_ns=e.t_ns)
        elif isinstance(e, Adjusted):
            clock_input = Adjust(t_ns=e.t_ns, side=e.side, delta_ns=e.delta_ns, reason=e.reason)
        duel = td.duel
        try:
            if clock_input is not None:
                duel, outcome = duel.apply(clock_input)
                if (
                    isinstance(e, PressRecorded)
                    and _TABLE_OUTCOME.get(outcome, outcome.value) != e.outcome.value
                ):
                    log.warning(
                        "table %s: the duel of %s took a press as %s, the table as %s",
                        e.table,
                        td.match,
                        outcome.value,
                        e.outcome.value,
                    )
            elif isinstance(e, FlagFell):
                duel = duel.settle(e.t_ns)
        except ClockError as exc:
            log.error("table %s: the duel of match %s cannot follow the table: %s", e.table, td.match, exc)
            return
        self._duels[e.table] = TableDuel(td.session, td.match, duel)
        if duel.over and not td.duel.over:
            self._pending[(td.session, td.match)] = e.table

    def _new_duel(self, td: TableDuel, e: ClockSet) -> Duel | None:
        """The duel a fresh clock starts: only once the toss is known and the loser may start it."""
        session = self._sessions.get(td.session)
        if session is None or session.bracket is None:
            return None
        match = session.bracket.matches.get(td.match)
        if match is None or match.toss_winner is None or match.clock_a is None:
            return None
        winner = clock_side(match, match.toss_winner)
        if e.starter != winner.other.value:
            return None
        try:
            control = TimeControl.parse(e.control)
        except ValueError:
            return None
        setup = DuelSetup(control=control, toss_winner=winner, resolution_ns=session.config.resolution_ns)
        return Duel.initial(setup)

    def _observe_match(self, e: MatchEvent) -> None:
        if isinstance(e, MatchAssigned) and e.table is not None:
            self._duels[e.table] = TableDuel(e.session, e.match, None)
            return
        if isinstance(e, MatchFinished | MatchOverridden | MatchWalkover):
            self._pending.pop((e.session, e.match), None)
            for table, td in list(self._duels.items()):
                if (td.session, td.match) == (e.session, e.match):
                    del self._duels[table]

    # -- time-driven events -------------------------------------------------------------------
    def due(self, now_ns: int) -> list[Event]:
        """A duel a flag ended is journaled as finished (with the duel's verdict) at once."""
        out: list[Event] = []
        for (session, match), table in sorted(self._pending.items()):
            td = self._duels.get(table)
            verdict = td.duel.verdict() if td is not None and td.duel is not None else None
            if verdict is not None:
                out.append(
                    MatchFinished(
                        session=session, match=match, table=table, t_ns=now_ns, how="flag", verdict=verdict
                    )
                )
        self._pending.clear()
        return out

    def next_deadline(self) -> int | None:
        return 0 if self._pending else None

    # -- snapshots ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "sessions": {k: s.model_dump(mode="json") for k, s in self._sessions.items()},
            "order": list(self._order),
            "duels": [
                [t, d.session, d.match, None if d.duel is None else d.duel.model_dump(mode="json")]
                for t, d in self._duels.items()
            ],
            "pending": [[s, m, t] for (s, m), t in self._pending.items()],
        }

    def restore(self, data: dict[str, Any]) -> None:
        self._sessions = {k: PuzzleSession.model_validate(v) for k, v in data["sessions"].items()}
        self._order = list(data["order"])
        self._duels = {
            int(t): TableDuel(s, m, None if d is None else Duel.model_validate(d))
            for t, s, m, d in data["duels"]
        }
        self._pending = {(s, m): int(t) for s, m, t in data["pending"]}
        self._view = self._make_view()
        self.begin()


#: How the table's clock names what a duel's outcome calls more precisely.
_TABLE_OUTCOME = {
    DuelOutcome.IGNORED_TOSS_WINNER: "ignored-not-running",
    DuelOutcome.IGNORED_ENDED: "ignored-flagged",
}


def match_on_table(view: TournamentView, session: str, match: str) -> tuple[PuzzleSession, Match]:
    """The session and match a request names (:class:`Refused` if either is unknown)."""
    s = view.session(session)
    if s.bracket is None:
        raise Refused(f"session {session} has no bracket yet: close check-in and make the draw first")
    m = s.bracket.matches.get(match)
    if m is None:
        raise Refused(f"session {session} has no match {match!r}")
    return s, m
