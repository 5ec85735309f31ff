"""The Puzzle Duel knockout bracket (RULES.md §B; regulations §2.1.8–2.1.9, §2.2.1, §2.2.16–2.2.21).

Sixteen players draw their lines in the bracket (§2.2.1) and play rounds of 16, 8 and 4;
the semi-final losers play for 3rd place and the winners play the final. One loss and you
are out (§2.1.8) — except the semi-final losers, who play once more, for 3rd place.

**Fewer players.** With 9–15 players the missing lines are byes, placed where the
standard seeding puts the highest seed numbers: the bracket of 16 lists seeds by line as
``1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11`` (each pair of neighbours sums to 17, each half
to the same total, recursively), and the lines of seeds ``n+1 … 16`` are the byes. That
spreads byes evenly over halves and quarters, and never puts two byes against each other.
The draw then fills the other lines. With 8 or fewer players the bracket starts at the
round whose size fits (8 players: the quarter-final).

**State by events.** A :class:`Bracket` is immutable; each referee or clock event
(:data:`BracketEvent`) gives the next one through :meth:`Bracket.apply`, or raises
:class:`BracketError` and changes nothing. Folding the journaled events over
:meth:`Bracket.create` rebuilds it exactly.

The life of a match::

    waiting ──(both entrants known)──▶ ready ──Assign──▶ assigned ──DuelFinished──▶ result
       result ──Confirm──▶ decided (the winner advances; a semi-final loser goes to 3rd place)
       DuelFinished with the same time ──▶ tiebreak: a 49-piece tie-break match is created on
       the spot (``tiebreak_of`` names this match); its confirmed winner decides this match.
    Override (referee, with a reason: disqualification §8.1, dispute §2.2.19) and Walkover
    decide a match at once; a bye is decided when the bracket is made.

The seeding and the draw (who stands on which line before the first match) are in
:mod:`clockd.core.bracket_draw`: they are settled once, before there is a bracket, and
need none of the matches' life. Their names are re-exported here, where the service,
the CLI and the tests import them from.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Action, Allowed, RequiredReason, Target, action
from clockd.core.bracket_draw import (
    BracketError,
    Draw,
    DrawMethod,
    PlayerId,
    bracket_size,
    bye_lines,
    open_lines,
    seeded_draw,
    seeding_order,
)
from clockd.core.clock import PerSide, PerSideInt, PerSideStr, Side
from clockd.core.duel import DuelDecidedBy, TimeAdjustment, Verdict
from clockd.core.timecontrol import TimeControl
from clockd.core.tournament import RoundKind, TournamentConfig
from clockd.i18n import Msg, msg

# The draw's names are re-exported (its importers say ``clockd.core.bracket``).
__all__ = [
    "MATCH_ACTIONS",
    "Assign",
    "Bracket",
    "BracketError",
    "Confirm",
    "DecidedBy",
    "Decision",
    "Draw",
    "DrawMethod",
    "DuelFinished",
    "DuelReopened",
    "Match",
    "MatchInput",
    "MatchStatus",
    "Override",
    "OverrideReason",
    "PlayerId",
    "Score",
    "StartTiebreak",
    "Toss",
    "Walkover",
    "bracket_size",
    "bye_lines",
    "match_id",
    "open_lines",
    "replay_bracket",
    "seeded_draw",
    "seeding_order",
]


# -- matches ------------------------------------------------------------------------------


class MatchStatus(StrEnum):
    WAITING = "waiting"  # an entrant is not known yet
    READY = "ready"  # both entrants known, not on a table yet
    ASSIGNED = "assigned"  # on a table, the clock set for the round
    RESULT = "result"  # the clock decided; the referee has not confirmed yet
    TIEBREAK = "tiebreak"  # same time on both clocks: a tie-break match decides this one
    DECIDED = "decided"  # final: the winner has advanced
    CANCELLED = "cancelled"  # a tie-break made moot by a referee decision on its match


class DecidedBy(StrEnum):
    """How a match was decided, as the results file names it."""

    TIME = "time"
    FLAG = "flag"
    TIEBREAK = "tiebreak"
    REFEREE = "referee"
    BYE = "bye"
    WALKOVER = "walkover"


class Score(BaseModel):
    """A finished duel's figures in the match's own sides (``a`` = the match's first entrant)."""

    model_config = ConfigDict(frozen=True)

    remaining_ns: PerSide[int]
    displayed: PerSide[str]
    moves: PerSide[int]
    decided_by: DuelDecidedBy
    winner: Side | None
    ended_at_ns: int
    resolution_ns: int
    steps: PerSide[int]
    #: The referee's time adjustments, by the match's side (``a`` = the match's first entrant).
    adjustments: tuple[TimeAdjustment, ...] = ()


class Match(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    round: int  # 1-based, in the configuration's round table (I = 1)
    slot: int  # 1-based position within the round, top to bottom
    a: PlayerId | None = None
    b: PlayerId | None = None
    bye: Side | None = None  # which side is a bye (round 1 only)
    status: MatchStatus = MatchStatus.WAITING
    table: int | None = None
    clock_a: PlayerId | None = None  # who sits at the clock's side a (players choose, §2.2.3)
    toss_winner: PlayerId | None = None
    score: Score | None = None
    winner: PlayerId | None = None
    decided_by: DecidedBy | None = None
    tiebreak_of: str | None = None  # for a tie-break match: the match it settles
    tiebreaks: tuple[str, ...] = ()  # the tie-break matches created for this match

    @property
    def entrants(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in (self.a, self.b) if p is not None)

    @property
    def holds_table(self) -> bool:
        """Whether the match still needs its table: its duel is on it, its result waits for the
        referee, or a tie-break is to settle it. Once confirmed (or taken off) it gives the
        table back (DESIGN.md principle 12)."""
        return self.status in (MatchStatus.ASSIGNED, MatchStatus.RESULT, MatchStatus.TIEBREAK)

    @property
    def loser(self) -> PlayerId | None:
        if self.winner is None or self.bye is not None:
            return None
        return self.b if self.winner == self.a else self.a

    @property
    def is_tiebreak(self) -> bool:
        return self.tiebreak_of is not None

    def side_of(self, player: PlayerId) -> Side:
        if player == self.a:
            return Side.A
        if player == self.b:
            return Side.B
        raise BracketError("bracket.not-in-match", player=player, match=self.id)

    def player(self, side: Side) -> PlayerId | None:
        return self.a if side is Side.A else self.b


class OverrideReason(StrEnum):
    DISQUALIFICATION = "disqualification"  # §8.1: a breach of the rules
    DISPUTE = "dispute"  # §2.2.19: the referee settles a disputed result
    OTHER = "other"


class Decision(BaseModel):
    """A referee's decision on a match, with who made it and why (it is journaled too)."""

    model_config = ConfigDict(frozen=True)

    match: str
    #: ``cancel``: a duel on a table stopped because an override changed who plays it.
    kind: Literal["override", "walkover", "cancel"]
    winner: PlayerId | None
    reason: str
    category: OverrideReason | None = None
    referee: str = ""


# -- the referee's actions on a match (and the clock's verdict) -----------------------------


@action
class Assign(Action):
    """Put a match on a table; its clock is set for the match's round, locked until the toss."""

    kind: Literal["match-assign"] = "match-assign"
    target: ClassVar[Target] = "item"
    table: int = Field(ge=1)
    clock_a: PlayerId | None = None  # who sits at clock side a; default the match's first entrant


@action
class Toss(Action):
    """The puzzle toss (§2.2.7): its winner's time runs first; the loser's press starts it."""

    kind: Literal["match-toss"] = "match-toss"
    target: ClassVar[Target] = "item"
    winner: PlayerId


@action
class Confirm(Action):
    """The referee confirms the clock's result: the winner advances."""

    kind: Literal["match-confirm"] = "match-confirm"
    target: ClassVar[Target] = "item"


@action
class Override(Action):
    """The referee decides the match (disqualification §8.1, dispute §2.2.19), with a reason."""

    kind: Literal["match-override"] = "match-override"
    target: ClassVar[Target] = "item"
    winner: PlayerId
    category: OverrideReason
    reason: RequiredReason
    #: The match this one feeds is on a table (perhaps running): changing this result changes
    #: who plays there, so it is refused unless the referee says to cancel that duel too —
    #: its clock stops, the table is freed, and the cancellation is journaled beside this.
    cancel_running: bool = False


@action
class Walkover(Action):
    """A player does not come to the table (``absent``): the other advances."""

    kind: Literal["match-walkover"] = "match-walkover"
    target: ClassVar[Target] = "item"
    absent: PlayerId
    reason: RequiredReason


@action
class StartTiebreak(Action):
    """Put the tie-break duel of a tied match on a table (its own table unless ``table``)."""

    kind: Literal["match-tiebreak"] = "match-tiebreak"
    target: ClassVar[Target] = "item"
    table: int | None = Field(default=None, ge=1)


class DuelFinished(BaseModel):
    """The clock's verdict on the match's duel (in clock sides; the match maps them). A
    decision the table's program made, not a referee's action."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["duel-finished"] = "duel-finished"
    verdict: Verdict


class DuelReopened(BaseModel):
    """The duel's result is withdrawn: the adjustment that made its flag fall was taken back
    (:class:`clockd.core.duel.UndoAdjust`); the duel goes on on its table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["duel-reopened"] = "duel-reopened"


MatchInput = Assign | Toss | DuelFinished | DuelReopened | Confirm | Override | Walkover

#: The match actions a screen offers, in order.
MATCH_ACTIONS = (
    "match-assign",
    "match-toss",
    "match-confirm",
    "match-override",
    "match-walkover",
    "match-tiebreak",
)


# -- the bracket ----------------------------------------------------------------------------


def match_id(round_no: int, slot: int) -> str:
    return f"R{round_no}-{slot}"


class Bracket(BaseModel):
    """The whole knockout at one moment. Build with :meth:`create`; change with :meth:`apply`."""

    model_config = ConfigDict(frozen=True)

    config: TournamentConfig
    size: int
    first_round: int  # 1-based round of the configuration the bracket starts in
    draw: Draw
    matches: dict[str, Match]
    decisions: tuple[Decision, ...] = ()

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def create(cls, config: TournamentConfig, draw: Draw) -> Bracket:
        """The bracket for ``draw``; byes are decided and their players advanced at once."""
        players = list(draw.lines.values())
        if len(set(players)) != len(players):
            dupes = sorted({p for p in players if players.count(p) > 1})
            raise BracketError("bracket.draw-dupes", players=dupes)
        size = bracket_size(len(players), config.players)
        expected = open_lines(size, len(players))
        if sorted(draw.lines) != expected:
            byes = bye_lines(size, len(players))
            raise BracketError(
                "bracket.draw-lines",
                n=len(players),
                size=size,
                expected=expected,
                byes=byes,
                filled=sorted(draw.lines),
            )
        if size == 2:
            first = len(config.rounds)  # two players: straight to the final
        else:
            first = next(
                i + 1
                for i, r in enumerate(config.rounds)
                if r.players == size and config.round_kind(i) is RoundKind.KNOCKOUT
            )
        matches: dict[str, Match] = {}
        rounds = config.rounds
        for r in range(first, len(rounds) + 1):
            count = rounds[r - 1].players // 2
            for slot in range(1, count + 1):
                matches[match_id(r, slot)] = Match(id=match_id(r, slot), round=r, slot=slot)
        bracket = cls(config=config, size=size, first_round=first, draw=draw, matches=matches)
        for slot in range(1, size // 2 + 1):
            a, b = draw.lines.get(2 * slot - 1), draw.lines.get(2 * slot)
            m = bracket.matches[match_id(first, slot)]
            if a is None and b is None:  # cannot happen with standard seeding; guard the invariant
                raise BracketError("bracket.two-byes", first=2 * slot - 1, second=2 * slot)
            bye = Side.A if a is None else Side.B if b is None else None
            m = m.model_copy(update={"a": a, "b": b, "bye": bye, "status": MatchStatus.READY})
            bracket = bracket._put(m)
            if bye is not None:
                winner = b if bye is Side.A else a
                assert winner is not None
                bracket = bracket._decide(m, winner, DecidedBy.BYE)
        return bracket

    # -- reading ----------------------------------------------------------------------------
    def match(self, mid: str) -> Match:
        try:
            return self.matches[mid]
        except KeyError:
            raise BracketError("bracket.no-match", match=mid) from None

    def round_kind(self, round_no: int) -> RoundKind:
        return self.config.round_kind(round_no - 1)

    def time_control(self, mid: str) -> TimeControl:
        """The clock setting for a match: its round's, or the tie-break's."""
        m = self.match(mid)
        if m.is_tiebreak:
            return self.config.tiebreak.time_per_side
        return self.config.rounds[m.round - 1].time_per_side

    def pieces(self, mid: str) -> int:
        m = self.match(mid)
        return self.config.tiebreak.pieces if m.is_tiebreak else self.config.rounds[m.round - 1].pieces

    def duels(self) -> list[Match]:
        """Matches played (or to be played) on a clock: all but byes and tie-breaks cancelled unplayed."""
        return [
            m
            for m in self.matches.values()
            if m.bye is None and (m.status is not MatchStatus.CANCELLED or m.score is not None)
        ]

    def playable(self) -> list[Match]:
        """Matches waiting for a table, in playing order."""
        return [m for m in self.matches.values() if m.status is MatchStatus.READY]

    def on_table(self, table: int) -> Match | None:
        for m in self.matches.values():
            if m.table == table and m.status in (MatchStatus.ASSIGNED, MatchStatus.RESULT):
                return m
        return None

    @property
    def final_id(self) -> str:
        return match_id(len(self.config.rounds), 1)

    @property
    def third_place_id(self) -> str | None:
        """The 3rd-place match, if this bracket has one (not when it starts at the final)."""
        mid = match_id(len(self.config.rounds) - 1, 1)
        return mid if self.config.has_third_place and mid in self.matches else None

    @property
    def finished(self) -> bool:
        """Whether the final (and the 3rd-place duel, if any) are decided."""
        ids = [self.final_id] + ([self.third_place_id] if self.third_place_id else [])
        return all(self.matches[mid].status is MatchStatus.DECIDED for mid in ids)

    def podium(self) -> tuple[PlayerId | None, PlayerId | None, PlayerId | None]:
        """Places 1, 2 and 3 (§2.2.21), each ``None`` until decided."""
        final = self.matches[self.final_id]
        first = final.winner if final.status is MatchStatus.DECIDED else None
        second = final.loser if final.status is MatchStatus.DECIDED else None
        third: PlayerId | None = None
        if self.third_place_id:
            m = self.matches[self.third_place_id]
            third = m.winner if m.status is MatchStatus.DECIDED else None
        return first, second, third

    # -- what may be done now -------------------------------------------------------------
    def allowed(self, mid: str) -> Allowed:
        """The match actions on ``mid`` and why not, by the rules :meth:`apply` enforces."""
        m = self.match(mid)
        return {
            "match-assign": self._can_assign(m),
            "match-toss": self._can_toss(m),
            "match-confirm": self._can_confirm(m),
            "match-override": self._can_override_now(m, cancel_running=False),
            "match-walkover": self._can_walkover(m),
            "match-tiebreak": None
            if self.pending_tiebreak(mid) is not None
            else msg("bracket.no-tiebreak", match=mid),
        }

    def _can_assign(self, m: Match) -> Msg | None:
        if m.status not in (MatchStatus.READY, MatchStatus.ASSIGNED) or m.score is not None:
            return msg("bracket.cannot-assign", match=m.id, status=_status_term(m.status))
        return None

    def _can_toss(self, m: Match) -> Msg | None:
        if m.status is not MatchStatus.ASSIGNED:
            return msg("bracket.toss-not-on-table", match=m.id, status=_status_term(m.status))
        return None

    def _can_confirm(self, m: Match) -> Msg | None:
        if m.status is not MatchStatus.RESULT or m.score is None or m.winner is None:
            return msg("bracket.no-result", match=m.id, status=_status_term(m.status))
        return None

    def _can_override(self, m: Match) -> Msg | None:
        if m.is_tiebreak:
            return msg("bracket.is-tiebreak", match=m.id, root=m.tiebreak_of)
        if m.bye is not None:
            return msg("bracket.is-bye", match=m.id)
        if len(m.entrants) != 2:
            return msg("bracket.no-two-players", match=m.id)
        if m.status is MatchStatus.DECIDED:
            return self._can_undo(m)
        return None

    def _can_override_now(self, m: Match, cancel_running: bool) -> Msg | None:
        """As the view's ``match-override``, and whether the duel it feeds is on a table: that one
        is never reset in silence (the referee asks for it with ``cancel_running``)."""
        refused = self._can_override(m)
        if refused is None and m.status is MatchStatus.DECIDED and not cancel_running:
            for t in self._on_tables_fed(m):
                return msg("bracket.feeds-on-table", match=m.id, feeds=t.id, table=t.table)
        return refused

    def _on_tables_fed(self, m: Match) -> list[Match]:
        """The matches ``m`` feeds that are on a table now."""
        fed = (self.matches[target] for target, _side, _who in self._targets(m))
        return [t for t in fed if t.status is MatchStatus.ASSIGNED and t.table is not None]

    def _can_walkover(self, m: Match) -> Msg | None:
        if m.is_tiebreak:
            return msg("bracket.is-tiebreak", match=m.id, root=m.tiebreak_of)
        if len(m.entrants) != 2 or m.bye is not None:
            return msg("bracket.no-two-players", match=m.id)
        played = m.score is not None and m.status is not MatchStatus.TIEBREAK
        if m.status not in (MatchStatus.READY, MatchStatus.ASSIGNED, MatchStatus.TIEBREAK) or played:
            return msg("bracket.already-played", match=m.id, status=_status_term(m.status))
        return None

    def live_duel(self, mid: str) -> Match | None:
        """The duel being played for ``mid`` on a table now: itself, or its tie-break."""
        m = self.match(mid)
        if m.status is MatchStatus.ASSIGNED:
            return m
        for tb in m.tiebreaks:
            if self.matches[tb].status is MatchStatus.ASSIGNED:
                return self.matches[tb]
        return None

    def pending_tiebreak(self, mid: str) -> Match | None:
        """The tie-break of ``mid`` (or of the match a tie-break ``mid`` settles) waiting for a table."""
        m = self.match(mid)
        root = self.matches.get(m.tiebreak_of) if m.tiebreak_of else m
        if root is None:
            return None
        for tb in reversed(root.tiebreaks):
            if self.matches[tb].status is MatchStatus.READY:
                return self.matches[tb]
        return None

    # -- actions ----------------------------------------------------------------------------
    def apply(self, mid: str, event: MatchInput, *, referee: str = "") -> Bracket:
        """The bracket after ``event`` on match ``mid``; :class:`BracketError` (and no change) if not."""
        m = self.match(mid)
        if isinstance(event, Assign):
            return self._assign(m, event)
        if isinstance(event, Toss):
            return self._toss(m, event)
        if isinstance(event, DuelFinished):
            return self._finished(m, event)
        if isinstance(event, DuelReopened):
            if m.status is not MatchStatus.RESULT:
                raise BracketError("bracket.not-reopened", match=m.id, status=_status_term(m.status))
            return self._put(
                m.model_copy(update={"status": MatchStatus.ASSIGNED, "score": None, "winner": None})
            )
        if isinstance(event, Confirm):
            _refuse(self._can_confirm(m))
            return self._confirm(m)
        if isinstance(event, Override):
            return self._override(m, event, referee)
        return self._walkover(m, event, referee)

    def _assign(self, m: Match, e: Assign) -> Bracket:
        _refuse(self._can_assign(m))
        busy = self.on_table(e.table)
        if busy is not None and busy.id != m.id:
            raise BracketError(
                "bracket.table-busy", table=e.table, match=busy.id, status=_status_term(busy.status)
            )
        clock_a = e.clock_a if e.clock_a is not None else m.a
        if clock_a not in m.entrants:
            raise BracketError("bracket.not-in-match", player=clock_a, match=m.id)
        return self._put(
            m.model_copy(update={"status": MatchStatus.ASSIGNED, "table": e.table, "clock_a": clock_a})
        )

    def _toss(self, m: Match, e: Toss) -> Bracket:
        _refuse(self._can_toss(m))
        if e.winner not in m.entrants:
            raise BracketError("bracket.not-in-match", player=e.winner, match=m.id)
        return self._put(m.model_copy(update={"toss_winner": e.winner}))

    def clock_side(self, mid: str, player: PlayerId) -> Side:
        """The clock side ``player`` sits at in match ``mid``."""
        m = self.match(mid)
        m.side_of(player)
        return Side.A if player == m.clock_a else Side.B

    def _finished(self, m: Match, e: DuelFinished) -> Bracket:
        if m.status is not MatchStatus.ASSIGNED:
            raise BracketError("bracket.not-played", match=m.id, status=_status_term(m.status))
        v = e.verdict
        if v.resolution_ns != self.config.resolution_ns:
            raise BracketError(
                "bracket.resolution",
                match=m.id,
                judged_ns=v.resolution_ns,
                resolution_ns=self.config.resolution_ns,
            )
        swap = m.clock_a != m.a  # the clock's side a is the match's b

        def per_side(x: PerSide[int]) -> PerSide[int]:
            return PerSideInt(a=x.b, b=x.a) if swap else x

        winner_side = None if v.winner is None else (v.winner.other if swap else v.winner)
        score = Score(
            remaining_ns=per_side(v.remaining_ns),
            displayed=PerSideStr(a=v.displayed.b, b=v.displayed.a) if swap else v.displayed,
            moves=per_side(v.moves),
            decided_by=v.decided_by,
            winner=winner_side,
            ended_at_ns=v.ended_at_ns,
            resolution_ns=v.resolution_ns,
            steps=per_side(v.steps),
            adjustments=tuple(
                a.model_copy(update={"side": a.side.other}) if swap else a for a in v.adjustments
            ),
        )
        if v.winner is None:
            root = self.match(m.tiebreak_of) if m.tiebreak_of else m
            tb_id = f"{root.id}-TB{len(root.tiebreaks) + 1}"
            tb = Match(
                id=tb_id,
                round=root.round,
                slot=root.slot,
                a=root.a,
                b=root.b,
                status=MatchStatus.READY,
                tiebreak_of=root.id,
            )
            s = self._put(m.model_copy(update={"status": MatchStatus.TIEBREAK, "score": score}))
            s = s._put(
                s.matches[root.id].model_copy(
                    update={"status": MatchStatus.TIEBREAK, "tiebreaks": (*root.tiebreaks, tb_id)}
                )
            )
            return s._put(tb)
        winner = m.player(winner_side) if winner_side is not None else None
        return self._put(
            m.model_copy(update={"status": MatchStatus.RESULT, "score": score, "winner": winner})
        )

    def _confirm(self, m: Match) -> Bracket:
        assert m.score is not None and m.winner is not None
        by = DecidedBy.FLAG if m.score.decided_by is DuelDecidedBy.FLAG else DecidedBy.TIME
        s = self._decide(m, m.winner, by)
        if m.tiebreak_of is not None:
            root = s.matches[m.tiebreak_of]
            s = s._decide(root, m.winner, DecidedBy.TIEBREAK)
        return s

    def _override(self, m: Match, e: Override, referee: str) -> Bracket:
        _refuse(self._can_override_now(m, e.cancel_running))
        if e.winner not in m.entrants:
            raise BracketError("bracket.not-in-match", player=e.winner, match=m.id)
        cancelled = [
            Decision(match=t.id, kind="cancel", winner=None, reason=e.reason, referee=referee)
            for t in (self._on_tables_fed(m) if m.status is MatchStatus.DECIDED else [])
        ]
        s = self._undo_advance(m) if m.status is MatchStatus.DECIDED else self
        s = s._cancel_tiebreaks(s.matches[m.id])
        s = s._decide(s.matches[m.id], e.winner, DecidedBy.REFEREE)
        decision = Decision(
            match=m.id,
            kind="override",
            winner=e.winner,
            reason=e.reason,
            category=e.category,
            referee=referee,
        )
        return s.model_copy(update={"decisions": (*s.decisions, *cancelled, decision)})

    def _walkover(self, m: Match, e: Walkover, referee: str) -> Bracket:
        _refuse(self._can_walkover(m))
        if e.absent not in m.entrants:
            raise BracketError("bracket.not-in-match", player=e.absent, match=m.id)
        winner = m.b if e.absent == m.a else m.a
        assert winner is not None
        s = self._cancel_tiebreaks(m)
        s = s._decide(s.matches[m.id], winner, DecidedBy.WALKOVER)
        decision = Decision(match=m.id, kind="walkover", winner=winner, reason=e.reason, referee=referee)
        return s.model_copy(update={"decisions": (*s.decisions, decision)})

    # -- advancing --------------------------------------------------------------------------
    def _put(self, m: Match) -> Bracket:
        return self.model_copy(update={"matches": {**self.matches, m.id: m}})

    def _targets(self, m: Match) -> list[tuple[str, Side, Literal["winner", "loser"]]]:
        """Where a decided match sends its winner (and, from a semi-final, its loser)."""
        n = len(self.config.rounds)
        kind = self.round_kind(m.round)
        if kind is not RoundKind.KNOCKOUT:
            return []
        side = Side.A if m.slot % 2 else Side.B
        nxt = m.round + 1
        if self.round_kind(nxt) is RoundKind.THIRD_PLACE:  # m is a semi-final
            return [(match_id(n, 1), side, "winner"), (match_id(n - 1, 1), side, "loser")]
        return [(match_id(nxt, (m.slot + 1) // 2), side, "winner")]

    def _decide(self, m: Match, winner: PlayerId, by: DecidedBy) -> Bracket:
        decided = m.model_copy(update={"status": MatchStatus.DECIDED, "winner": winner, "decided_by": by})
        s = self._put(decided)
        if decided.is_tiebreak:
            return s
        for target, side, who in s._targets(decided):
            if who == "winner":
                player: PlayerId | None = winner
            else:
                player = decided.loser
            s = s._enter(target, side, player, from_bye=decided.bye is not None and who == "loser")
        return s

    def _enter(self, mid: str, side: Side, player: PlayerId | None, *, from_bye: bool) -> Bracket:
        t = self.matches[mid]
        update: dict[str, object] = {"a" if side is Side.A else "b": player}
        if from_bye:
            update["bye"] = side  # a semi-final bye leaves nobody to play for 3rd place on that side
        t = t.model_copy(update=update)
        if t.bye is not None and t.entrants:
            t = t.model_copy(update={"status": MatchStatus.READY})
            s = self._put(t)
            return s._decide(t, t.entrants[0], DecidedBy.BYE)
        if len(t.entrants) == 2:
            t = t.model_copy(update={"status": MatchStatus.READY})
        return self._put(t)

    def _can_undo(self, m: Match) -> Msg | None:
        """Whether a decided match can still be changed: the matches it feeds are not played yet."""
        for target, _side, _who in self._targets(m):
            t = self.matches[target]
            if t.status not in (MatchStatus.WAITING, MatchStatus.READY, MatchStatus.ASSIGNED) or t.score:
                return msg("bracket.feeds-played", match=m.id, feeds=t.id, status=_status_term(t.status))
        return None

    def _undo_advance(self, m: Match) -> Bracket:
        """Take a decided match's players back out of the matches they went to (for an override)."""
        _refuse(self._can_undo(m))
        s = self
        for target, side, _who in self._targets(m):
            t = s.matches[target]
            update: dict[str, object] = {
                "a" if side is Side.A else "b": None,
                "status": MatchStatus.WAITING,
                "table": None,
                "clock_a": None,
                "toss_winner": None,
            }
            s = s._put(t.model_copy(update=update))
        return s

    def _cancel_tiebreaks(self, m: Match) -> Bracket:
        s = self
        for tb in m.tiebreaks:
            t = s.matches[tb]
            if t.status is not MatchStatus.DECIDED and t.status is not MatchStatus.TIEBREAK:
                s = s._put(t.model_copy(update={"status": MatchStatus.CANCELLED}))
        return s


def replay_bracket(config: TournamentConfig, draw: Draw, events: list[tuple[str, MatchInput]]) -> Bracket:
    """Rebuild a bracket from its draw and its (match, event) pairs (the journal's view of it)."""
    bracket = Bracket.create(config, draw)
    for mid, event in events:
        bracket = bracket.apply(mid, event)
    return bracket


def _status_term(status: MatchStatus) -> Msg:
    return Msg(code=f"term.match-status.{status.value}")


def _refuse(reason: Msg | None) -> None:
    if reason is not None:
        raise BracketError(reason)
