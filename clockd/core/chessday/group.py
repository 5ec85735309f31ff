"""One chess group of the day, as the daemon runs it: rounds paired, results entered, rounds closed.

The rules are the regulations' (RULES.md §H) on top of FIDE's (the Dutch system and the
tie-breaks are :mod:`clockd.core.swiss`, exact and unchanged):

* **A round is paired, played and closed.** Pairing the next round is allowed only when the
  previous one is closed; the pairing itself (seconds of work for a big group) is computed
  beside the daemon's thread and journaled as what was decided, so a replay does not pair
  again. Boards are numbered across the hall: each group owns a range starting at its
  ``first_board`` (the hall's plan: group by group).
* **Results, one keystroke.** ``1`` White wins, ``0`` Black wins, ``=`` (or ``5``) a draw,
  ``+``/``-`` a forfeit win for White/Black (the whole of :data:`~clockd.core.swiss.results.RESULT_TOKENS`
  is read too). A result already entered is not overwritten by a second arbiter by accident:
  a different result needs ``replace`` and the view says who entered what.
* **A game with no reported result is 0–0** (§H): closing the round writes it, and names the
  boards it wrote it for.
* **Illegal moves** (§H): the first correctly claimed illegal move of a player in a game has
  no consequence, the second loses — the software proposes the result, the arbiter enters it.
  A clock's flag proposes a result the same way (insufficient material is a draw: the
  arbiter looks at the board).
* **Appeals** to the chief arbiter are recorded with the decision, which is final: the board's
  result is no longer changed afterwards.
* **Round 1 absentees** (§H): a player who did not come to the round-1 game (a forfeit loss) is
  withdrawn before round 2 is paired, unless they reported to the group's arbiter.
* **Late entries** (FIDE C.04: the organiser's rule): a child added after the start gets the next
  start number (pairing numbers stay), and each round they missed is a half-point bye or nothing
  (``0000 - H`` / ``0000 - Z``) by the group's ``late_entry``; added during a round, they play
  from the next one. **Data fixes**: a name, school or class corrected after the start list was
  published is kept with who, why and what it was, so the list is published again saying so.

The state is :class:`ChessGroup`, frozen; each input is a method returning the next state or
raising :class:`ChessError` with a catalogue code. The group's games are a
:class:`~clockd.core.swiss.model.Tournament` — TRF is the interchange format, so a snapshot
holds the TRF text and an export is ``swiss check``-able as it is.

This module is the group's rules (:class:`ChessGroup`: what each action does to it, its
snapshot). Apart, and re-exported here where the service, the CLI, the reports and the tests
import them: the configuration and the records of its state
(:mod:`clockd.core.chessday.group_state`) and the arbiters' actions with the reading of a
typed result (:mod:`clockd.core.chessday.group_actions`).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from clockd.core.chessday.group_actions import (
    CHESS_ACTIONS,
    KEYSTROKES,
    AddLatePlayer,
    ClaimIllegalMove,
    CloseRound,
    EnterResult,
    FixPlayer,
    PairRound,
    RecordAppeal,
    ReportPresent,
    UndoResult,
    WithdrawPlayer,
    loss_for,
    read_result,
)
from clockd.core.chessday.group_state import (
    FIX_FIELDS,
    LATE_CODES,
    Appeal,
    BoardPlay,
    ChessError,
    ChessGroupConfig,
    Correction,
    GroupRound,
    LateEntrant,
    Phase,
    PlayerFix,
    PublicNames,
)
from clockd.core.chessday.roster import Entrant
from clockd.core.people import fold_name
from clockd.core.swiss import trf
from clockd.core.swiss.header import Header, with_header
from clockd.core.swiss.model import (
    ZERO,
    Board,
    BoardResult,
    Code,
    Player,
    RoundEntry,
    Tournament,
    record_round,
    round1_no_shows,
    withdraw_round1_no_shows,
)
from clockd.core.swiss.standings import DEFAULT_ORDER, Standings, standings
from clockd.core.swiss.startlist import start_list_records
from clockd.i18n import Msg, msg

#: The entry a withdrawn player gets in a round they are not paired in: absent, no points.
ABSENT = RoundEntry.bye(Code.ZERO_BYE)


#: The start list's TRF fields (as :mod:`clockd.core.swiss.trf` names them) a refusal names.
_TRF_FIELDS = {
    "sex": "term.trf-field.sex",
    "title": "term.trf-field.title",
    "rating": "term.trf-field.rating",
    "federation": "term.trf-field.federation",
    "FIDE id": "term.trf-field.fide-id",
    "birth date": "term.trf-field.birth-date",
}


@dataclass(frozen=True, slots=True)
class ChessGroup:
    """A chess group: its configuration, its games so far (a TRF's tournament), the open round."""

    config: ChessGroupConfig
    tournament: Tournament  # the start list and every closed round
    current: GroupRound | None = None  # the round paired and not yet closed
    reported: frozenset[int] = frozenset()  # round-1 absentees who reported to the arbiter
    withdrawn: frozenset[int] = frozenset()  # not paired in the rounds to come
    closed_with_zero: tuple[int, ...] = ()  # boards the last close entered as 0–0
    played: tuple[GroupRound, ...] = ()  # every closed round's boards as played, in round order
    corrections: tuple[Correction, ...] = ()  # results corrected after their round was closed
    late: tuple[LateEntrant, ...] = ()  # players added after the start, in the order added
    fixes: tuple[PlayerFix, ...] = ()  # players' data corrected after the start list was published
    _standings: dict[int, Standings] = field(default_factory=dict, compare=False, repr=False)

    KIND: ClassVar[str] = "chess"

    # -- creation ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, config: ChessGroupConfig) -> ChessGroup:
        if config.trf:
            try:
                tournament = trf.loads(config.trf)
            except trf.TrfError as exc:
                raise ChessError("chess.bad-trf", problem=str(exc)) from exc
        else:
            tournament = start_list(config)
        if len(tournament) < 2:
            raise ChessError("chess.too-few-players", group=config.group.key, players=len(tournament))
        try:  # the group's file must be writable: a field too wide is refused here, not in a view
            trf.check_fits(tournament)
        except trf.FieldTooLong as exc:
            term = _TRF_FIELDS.get(exc.field)
            raise ChessError(
                "chess.trf-field-too-long",
                group=config.group.key,
                player=exc.start_number,
                field=Msg(code=term) if term else msg("text.as-typed", text=exc.field),
                value=exc.value,
                width=exc.width,
            ) from exc
        return cls(config, tournament)

    def with_people(self, config: ChessGroupConfig) -> ChessGroup:
        """The group with its players' data from ``config`` (an erasure, a correction: the same
        players under the same start numbers): the start list's names follow, the games stay."""
        named = {p.start_number: p for p in start_list(config).players}  # a TRF group's late entrants
        if config.trf:
            named |= {p.start_number: p for p in trf.loads(config.trf).players}
        players = []
        for p in self.tournament.players:
            n = named.get(p.start_number)
            if n is not None and (n.name, n.fide_id, n.birth) != (p.name, p.fide_id, p.birth):
                p = p.replace(name=n.name, fide_id=n.fide_id, birth=n.birth)
            players.append(p)
        return dataclasses.replace(
            self, config=config, tournament=self.tournament.with_players(players), _standings={}
        )

    # -- reading -------------------------------------------------------------------------------------
    @property
    def rounds_closed(self) -> int:
        return self.tournament.rounds_paired

    @property
    def phase(self) -> Phase:
        if self.current is not None:
            return "playing"
        if self.rounds_closed >= self.config.rounds:
            return "finished"
        return "start-list" if self.rounds_closed == 0 else "between-rounds"

    @property
    def next_round(self) -> int:
        return self.rounds_closed + 1

    @property
    def boards_needed(self) -> int:
        """The most boards a round of this group can use: its range in the hall, as reserved at
        the import (a board a player), wider only when late entrants need more boards."""
        reserved = (len(self.tournament) - len(self.late) + 1) // 2
        return max(reserved, (len(self.tournament) - len(self.withdrawn)) // 2)

    @property
    def late_starts(self) -> frozenset[int]:
        """The players added after round 1 was paired: their round 1 is the organiser's rule
        (``H``/``Z``), not a no-show (one added before it who does not come is one)."""
        return frozenset(x.start for x in self.late if x.first_round > 1)

    def add_refusal(self) -> Msg | None:
        """Why no player can be added now (``None``: they can, to play from the next round)."""
        if self.phase == "finished":
            return msg("chess.all-rounds-played", rounds=self.config.rounds)
        if self.current is not None and self.current.number >= self.config.rounds:
            return msg("chess.add-last-round", round=self.current.number)
        return None

    def pair_refusal(self) -> Msg | None:
        """Why the next round cannot be paired now (``None``: it can)."""
        if self.current is not None:
            return msg("chess.round-open", round=self.current.number, missing=len(self.current.missing))
        if self.rounds_closed >= self.config.rounds:
            return msg("chess.all-rounds-played", rounds=self.config.rounds)
        return None

    def result_refusal(self) -> Msg | None:
        if self.current is None:
            return msg("chess.no-round-open")
        return None

    def report_refusal(self) -> Msg | None:
        """Reporting is for round 1's absentees: during round 1 (a child who comes late is
        recorded at once, and plays from round 2) and between rounds 1 and 2."""
        if self.in_round_one:
            return None
        if self.rounds_closed != 1 or self.current is not None:
            return msg("chess.report-when")
        if not self.round1_absentees():
            return msg("chess.no-absentees")
        return None

    @property
    def in_round_one(self) -> bool:
        return self.current is not None and self.current.number == 1

    def allowed(self) -> dict[str, Msg | None]:
        """The group's actions and why not (``None``: allowed now): what every client shows."""
        open_round = self.result_refusal()
        return {
            "chess-pair": self.pair_refusal(),
            "chess-result": open_round if self.rounds_closed == 0 else None,
            "chess-undo": open_round
            if self.current is not None or not self.rounds_closed
            else msg("chess.undo-closed", board="…", round=self.rounds_closed),
            "chess-close": open_round,
            "chess-claim": open_round,
            "chess-appeal": open_round,
            "chess-report": self.report_refusal(),
            "chess-withdraw": None,
            "chess-add": self.add_refusal(),
            "chess-fix": None,
        }

    def schedule(self, now: datetime.datetime) -> tuple[int | None, datetime.datetime | None, int | None]:
        """The round the hall waits for and its planned start — the round just paired while its
        start is still ahead (pairings posted at 9:30, round 1 at 10:00), else the one after —
        and how many minutes the group is behind the plan at ``now`` (aware): ``None`` when on
        time, or on any other day than the day's (before or after it nobody is late)."""
        if self.phase == "finished":
            return None, None, None
        plan = self.config.plan
        try:
            day = datetime.date.fromisoformat(self.config.date) if self.config.date else None
        except ValueError:
            day = None
        local = now.astimezone(plan.zone())
        day = day or local.date()
        number = self.next_round
        if self.current is not None:
            number = self.current.number
            if local >= plan.round_start(day, number):  # it has begun: the hall waits for the next
                number += 1
        planned = plan.round_start(day, number)
        if local.date() != day or local <= planned:
            return number, planned, None
        return number, planned, int((local - planned).total_seconds() // 60)

    def round1_absentees(self) -> tuple[int, ...]:
        """Players who missed their round-1 game (forfeit, nothing recorded), once round 1 is closed."""
        if self.rounds_closed < 1:
            return ()
        late = self.late_starts  # a late entrant's missed round 1 is the organiser's rule, not a no-show
        return tuple(sn for sn in round1_no_shows(self.tournament) if sn not in late)

    def to_withdraw(self) -> tuple[int, ...]:
        """The round-1 absentees who will be withdrawn when round 2 is paired (not reported)."""
        if self.rounds_closed != 1 or self.current is not None:
            return ()
        return tuple(sn for sn in self.round1_absentees() if sn not in self.reported)

    def standings(self) -> Standings:
        """The standings after the closed rounds, in the regulations' order (§H), lots last."""
        rounds = self.rounds_closed
        cached = self._standings.get(rounds)
        if cached is None:
            cached = standings(
                self.tournament,
                order=DEFAULT_ORDER,
                rounds=rounds,
                lots_seed=self.config.lots_seed or self.config.group.key,
            )
            self._standings[rounds] = cached
        return cached

    def points(self, player: int) -> Any:
        return self.tournament[player].score(self.rounds_closed)

    # -- pairing ---------------------------------------------------------------------------------------
    def pairing_input(self) -> Tournament:
        """The tournament the next round is paired from: round 1's absentees withdrawn before
        round 2 (§H), and every withdrawn player absent (``0000 - Z``) in the round to pair."""
        refusal = self.pair_refusal()
        if refusal is not None:
            raise ChessError(refusal)
        t = self.tournament
        number = self.next_round
        if number == 2:
            t = withdraw_round1_no_shows(t, self.reported | self.late_starts, self.config.rounds)
        out = [
            p.with_entry(number, ABSENT)
            if p.start_number in self.withdrawn and p.entry(number).is_blank
            else p
            for p in t.players
        ]
        return t.with_players(out)

    def paired(self, boards: Iterable[tuple[int, int]], bye: int | None) -> ChessGroup:
        """The next round paired as decided (``boards``: ``(white, black)`` in board order)."""
        prepared = self.pairing_input()
        number = self.next_round
        first = self.config.first_board
        plays = tuple(
            BoardPlay(board=first + i, white=w, black=b, table=self.config.clocks.get(first + i))
            for i, (w, b) in enumerate(boards)
        )
        seated = {sn for p in plays for sn in (p.white, p.black)} | ({bye} if bye else set())
        unknown = sorted(seated - set(prepared.start_numbers))
        if unknown:
            raise ChessError("chess.pairing-unknown", players=unknown)
        absent = tuple(p.start_number for p in prepared.players if p.start_number not in seated)
        withdrawn = self.withdrawn | frozenset(self.to_withdraw()) if number == 2 else self.withdrawn
        rnd = GroupRound(number=number, boards=plays, bye=bye, absent=absent)
        return dataclasses.replace(self, tournament=prepared, current=rnd, withdrawn=withdrawn)

    # -- results ---------------------------------------------------------------------------------------
    def _open(self) -> GroupRound:
        refusal = self.result_refusal()
        if refusal is not None:
            raise ChessError(refusal)
        assert self.current is not None
        return self.current

    def _with(self, rnd: GroupRound) -> ChessGroup:
        return dataclasses.replace(self, current=rnd)

    def enter(self, board: int, result: BoardResult, *, by: str, replace: bool = False) -> ChessGroup:
        rnd = self._open()
        play = rnd.board(board)
        if play.appeal is not None:
            raise ChessError("chess.appeal-final", board=board)
        if play.result is not None and play.result != result and not replace:
            raise ChessError("chess.result-entered", board=board, result=play.result.value, by=play.by or "?")
        return self._with(rnd.with_board(play.model_copy(update={"result": result, "by": by})))

    def undo(self, board: int) -> ChessGroup:
        if self.current is None and self.rounds_closed:
            raise ChessError("chess.undo-closed", board=board, round=self.rounds_closed)
        rnd = self._open()
        play = rnd.board(board)
        if play.appeal is not None:
            raise ChessError("chess.appeal-final", board=board)
        if play.result is None:
            raise ChessError("chess.no-result", board=board)
        return self._with(rnd.with_board(play.model_copy(update={"result": None, "by": ""})))

    # -- corrections after the close ---------------------------------------------------------------
    def closed_round(self, number: int | None = None) -> GroupRound:
        """A closed round's boards as played (``None``: the last closed round)."""
        if self.rounds_closed == 0:
            raise ChessError("chess.no-round-closed")
        number = self.rounds_closed if number is None else number
        if not 1 <= number <= self.rounds_closed:
            raise ChessError("chess.round-not-closed", round=number, closed=self.rounds_closed)
        for rnd in self.played:
            if rnd.number == number:
                return rnd
        raise ChessError("chess.round-not-kept", round=number)

    def correct(
        self, round_number: int, board: int, result: BoardResult, *, by: str, reason: str, replace: bool
    ) -> ChessGroup:
        """A result of a closed round corrected (a misreported game found out later): the
        round's entries, standings and tie-breaks follow; the pairings already made with the old
        result stay as they were posted (:attr:`Correction.paired_after` names them). Needs
        ``replace`` (a second look, as for an open round's result) and a reason: it is journaled."""
        rnd = self.closed_round(round_number)
        play = rnd.board(board)
        if play.appeal is not None:
            raise ChessError("chess.appeal-final", board=board)
        old = play.result or BoardResult.NO_RESULT
        if old == result:
            raise ChessError("chess.correction-same", round=round_number, board=board, result=result.value)
        if not replace:
            raise ChessError("chess.result-entered-closed", board=board, round=round_number, result=old.value)
        if not reason.strip():
            raise ChessError("chess.correction-reason", round=round_number, board=board)
        t = record_round(self.tournament, round_number, [Board(play.white, play.black, result)])
        fixed = rnd.with_board(play.model_copy(update={"result": result, "by": by}))
        last = self.current.number if self.current is not None else self.rounds_closed
        correction = Correction(
            round=round_number,
            board=board,
            white=play.white,
            black=play.black,
            old=old,
            new=result,
            by=by,
            reason=reason.strip(),
            paired_after=tuple(range(round_number + 1, last + 1)),
        )
        return dataclasses.replace(
            self,
            tournament=t,
            played=tuple(fixed if r.number == round_number else r for r in self.played),
            corrections=(*self.corrections, correction),
            _standings={},
        )

    def with_changed(self, changed: Iterable[int]) -> ChessGroup:
        """The last correction with the rounds it would have paired otherwise (worked out beside
        the engine: :func:`repairing_input`), as journaled."""
        if not self.corrections:
            return self
        last = self.corrections[-1].model_copy(update={"changed": tuple(sorted(changed))})
        return dataclasses.replace(self, corrections=(*self.corrections[:-1], last))

    def repairing_input(self, number: int) -> tuple[Tournament, GroupRound] | None:
        """Round ``number`` (already paired) as a pairing program would have seen it with the
        results as they stand now: the rounds before it as recorded, its absent players absent;
        and the round as it was paired. ``None`` if the round's pairing is not kept."""
        paired = self.current if self.current is not None and self.current.number == number else None
        if paired is None:
            paired = next((r for r in self.played if r.number == number), None)
        if paired is None:
            return None
        t = self.tournament.truncated(number - 1)
        later = {x.start for x in self.late if x.first_round > number}  # not in the group yet then
        out = [
            p.with_entry(number, ABSENT) if p.start_number in paired.absent else p
            for p in t.players
            if p.start_number not in later
        ]
        return t.with_players(out), paired

    def claim(self, board: int, player: int) -> tuple[ChessGroup, int]:
        """An illegal move of ``player`` correctly claimed: the claim's number in this game; the
        second proposes the loss of the game (§H)."""
        rnd = self._open()
        play = rnd.board(board)
        white = play.side_of(player)
        claims = (*play.claims, player)
        count = claims.count(player)
        update: dict[str, Any] = {"claims": claims}
        if count >= 2:
            update |= {"proposal": loss_for(white), "proposal_why": "illegal-move"}
        return self._with(rnd.with_board(play.model_copy(update=update))), count

    def appeal(self, board: int, appeal: Appeal) -> ChessGroup:
        rnd = self._open()
        play = rnd.board(board)
        play.side_of(appeal.player)
        if play.appeal is not None:
            raise ChessError("chess.appeal-final", board=board)
        update: dict[str, Any] = {"appeal": appeal}
        if appeal.result is not None:
            update |= {"result": appeal.result, "by": appeal.by}
        return self._with(rnd.with_board(play.model_copy(update=update)))

    def close(self) -> ChessGroup:
        """The round closed: every board without a reported result is 0–0 (§H)."""
        rnd = self._open()
        zero = rnd.missing
        boards = [Board(b.white, b.black, b.result or BoardResult.NO_RESULT) for b in rnd.boards]
        byes = {rnd.bye: Code.PAIRING_BYE} if rnd.bye is not None else {}
        t = record_round(self.tournament, rnd.number, boards, byes)
        played = rnd.model_copy(
            update={
                "boards": tuple(
                    b.model_copy(update={"result": b.result or BoardResult.NO_RESULT}) for b in rnd.boards
                )
            }
        )
        return dataclasses.replace(
            self,
            tournament=t,
            current=None,
            closed_with_zero=zero,
            played=(*self.played, played),
            _standings={},
        )

    def report(self, player: int) -> ChessGroup:
        """A round-1 absentee reported to the arbiter before round 2's pairings: stays in (§H)."""
        refusal = self.report_refusal()
        if refusal is not None:
            raise ChessError(refusal)
        if self.in_round_one:
            if player not in self.tournament:
                raise ChessError("chess.no-player", player=player, players=len(self.tournament))
        elif player not in self.round1_absentees():
            raise ChessError("chess.not-absent", player=player)
        return dataclasses.replace(self, reported=self.reported | {player})

    def withdraw(self, player: int) -> ChessGroup:
        if player not in self.tournament:
            raise ChessError("chess.no-player", player=player, players=len(self.tournament))
        if player in self.withdrawn:
            raise ChessError("chess.already-withdrawn", player=player)
        return dataclasses.replace(self, withdrawn=self.withdrawn | {player})

    # -- late entries and data fixes -----------------------------------------------------------------
    def add_check(self, entrant: Entrant) -> None:
        """:class:`ChessError` if ``entrant`` cannot be added: no surname or first name, or the
        group has them already (the same name and school). Asked before the entry is journaled;
        a replay does not ask again (an erased entrant comes back as the stand-in)."""
        refusal = self.add_refusal()
        if refusal is not None:
            raise ChessError(refusal)
        surname, first = entrant.surname.strip(), entrant.first_name.strip()
        if not surname or not first:
            raise ChessError("chess.add-name", name=f"{surname} {first}".strip() or "—")
        wanted = (fold_name(f"{surname} {first}"), fold_name(entrant.school))
        listed = {e.start for e in self.config.group.entrants}
        for e in self.config.group.entrants:
            if (fold_name(f"{e.surname} {e.first_name}"), fold_name(e.school)) == wanted:
                raise ChessError("chess.add-duplicate", name=f"{surname} {first}", player=e.start)
        for p in self.tournament.players:  # a group made from a TRF: its players have no school
            if p.start_number not in listed and fold_name(p.name.replace(",", " ")) == wanted[0]:
                raise ChessError("chess.add-duplicate", name=f"{surname} {first}", player=p.start_number)

    def add_late(
        self, entrant: Entrant, *, person_id: str = "", contact: str = "", by: str = ""
    ) -> ChessGroup:
        """A player added after the start (a late entry): the next start number — the others'
        pairing numbers stay (FIDE C.04.2) — and each round already paired, the one being played
        too, given by the group's rule (``late_entry``: ``0000 - H`` or ``0000 - Z``); the Dutch
        pairing takes them from the next round. ``entrant`` as the desk typed it (its start
        number and sex are the group's to give; :meth:`add_check` first); ``person_id`` and
        ``contact`` (the e-mail's digest): the vault's."""
        refusal = self.add_refusal()
        if refusal is not None:
            raise ChessError(refusal)
        surname, first = entrant.surname.strip(), entrant.first_name.strip()
        start = max(self.tournament.start_numbers, default=0) + 1
        entrant = entrant.model_copy(
            update={"start": start, "surname": surname, "first_name": first, "sex": self.config.group.sex}
        )
        first_round = (self.current.number if self.current is not None else self.rounds_closed) + 1
        missed = RoundEntry.bye(LATE_CODES[self.config.late_entry])
        player = Player(
            start_number=start,
            name=entrant.trf_name,
            sex=entrant.sex,
            rating=entrant.rating,
            federation=entrant.federation,
            fide_id=entrant.fide_id,
            points=ZERO,
            rounds=(missed,) * (first_round - 1),
        )
        cfg = self.config
        update: dict[str, Any] = {
            "group": cfg.group.model_copy(update={"entrants": (*cfg.group.entrants, entrant)})
        }
        if person_id:
            update["people"] = {**cfg.people, start: person_id}
        if contact:
            update["contacts"] = {**cfg.contacts, start: contact}
        current = self.current
        if current is not None:
            current = current.model_copy(update={"absent": (*current.absent, start)})
        late = LateEntrant(start=start, first_round=first_round, rule=cfg.late_entry, by=by)
        return dataclasses.replace(
            self,
            config=cfg.model_copy(update=update),
            tournament=self.tournament.with_players((*self.tournament.players, player)),
            current=current,
            late=(*self.late, late),
            _standings={},
        )

    def shown(self, start: int) -> dict[str, str]:
        """Player ``start``'s data as the start list shows it (:data:`FIX_FIELDS`)."""
        surname, _, first = self.tournament[start].name.partition(",")
        e = next((e for e in self.config.group.entrants if e.start == start), None)
        return {
            "name": f"{surname.strip()} {first.strip()}".strip(),
            "school": e.school if e is not None else "",
            "school_class": e.school_class if e is not None else "",
        }

    def fix_refusal(self, start: int, reason: str) -> None:
        """:class:`ChessError` if player ``start``'s data cannot be fixed (an unknown player, no reason)."""
        if start not in self.tournament:
            raise ChessError("chess.no-player", player=start, players=len(self.tournament))
        if not reason.strip():
            raise ChessError("chess.fix-reason", player=start)

    def fixed(self, start: int, config: ChessGroupConfig, *, by: str, reason: str) -> ChessGroup:
        """Player ``start``'s data as ``config`` now holds it (the vault's fold of the fix,
        :func:`clockd.core.chessday.people.fixed`), kept with what it was, who and why."""
        self.fix_refusal(start, reason)
        before = self.shown(start)
        after = self.with_people(config)
        now = after.shown(start)
        fields = tuple(f for f in FIX_FIELDS if before[f] != now[f])
        if not fields:
            raise ChessError("chess.fix-nothing", player=start)
        fix = PlayerFix(
            start=start,
            fields=fields,
            old={f: before[f] for f in fields},
            new={f: now[f] for f in fields},
            by=by,
            reason=reason.strip(),
            rounds_closed=self.rounds_closed,
        )
        return dataclasses.replace(after, fixes=(*self.fixes, fix))

    def fix_forgotten(self, start: int, fields: Iterable[str], *, by: str, reason: str) -> ChessGroup:
        """A fix replayed after its player was erased: which fields, who and why, no values."""
        fix = PlayerFix(
            start=start, fields=tuple(fields), by=by, reason=reason.strip(), rounds_closed=self.rounds_closed
        )
        return dataclasses.replace(self, fixes=(*self.fixes, fix))

    def forgotten(self, start: int) -> ChessGroup:
        """Player ``start`` erased: their fixes keep which fields and why, not what they were."""
        fixes = tuple(
            f.model_copy(update={"old": {}, "new": {}}) if f.start == start else f for f in self.fixes
        )
        return dataclasses.replace(self, fixes=fixes)

    def export(self, *, birth: bool = False, group_title: str = "") -> str:
        """The group's TRF: the start list and every closed round, points and ranks as the
        standings give them (``swiss check`` re-pairs it identically). Birth dates only with
        ``birth`` (the arbiter's copy for a rating office); names as on the start list.
        ``group_title`` (the group's name, rendered) joins the day's title in ``012``, so a file
        printed or read alone still says which group it is."""
        ranks = {row.start_number: row.rank for row in self.standings().rows}
        t = with_header(self._withdrawn_absent(self.tournament), self.header(group_title))
        t = t.with_players(
            p.replace(
                points=p.score(self.rounds_closed),
                rank=ranks.get(p.start_number) if self.rounds_closed else None,
                birth=p.birth if birth else "",
            )
            for p in t.players
        )
        return trf.dumps(t)

    def header(self, group_title: str = "") -> Header:
        """The federation's header of the group's file (TRF ``012``–``132``): the day's title and
        the group's, the place, the date of every round (one day), the arbiters, the rate of play."""
        cfg, off = self.config, self.config.officials
        name = self.tournament.record_value("012") or cfg.title
        if group_title and group_title not in name:
            name = f"{name} — {group_title}" if name else group_title
        try:
            day = datetime.date.fromisoformat(cfg.date) if cfg.date else None
        except ValueError:
            day = None
        return Header(
            name=name,
            city=off.place,
            federation=off.federation,
            start=day,
            end=day,
            chief_arbiter=off.chief_arbiter,
            deputies=off.deputy_arbiters,
            rate_of_play=f"{cfg.minutes}'",
            round_dates=[day] * cfg.rounds if day else [],
        )

    def _withdrawn_absent(self, t: Tournament) -> Tournament:
        """Every withdrawn player absent (``0000 - Z``) in each round still to come, as a
        round-1 absentee already is: a program pairing from the file leaves them out."""
        if not self.withdrawn:
            return t
        first = (self.current.number if self.current is not None else self.rounds_closed) + 1
        players = []
        for p in t.players:
            if p.start_number in self.withdrawn:
                for number in range(first, self.config.rounds + 1):
                    if p.entry(number).is_blank:
                        p = p.with_entry(number, ABSENT)
            players.append(p)
        return t.with_players(players)

    # -- snapshots ---------------------------------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {
            "config": self.config.model_dump(mode="json"),
            "trf": trf.dumps(self.tournament),
            # the names the TRF's 33 columns cut, in full (a snapshot keeps what the journal made)
            "names": {str(sn): full for sn, full, _ in trf.cut_names(self.tournament)},
            "current": None if self.current is None else self.current.model_dump(mode="json"),
            "reported": sorted(self.reported),
            "withdrawn": sorted(self.withdrawn),
            "closed_with_zero": list(self.closed_with_zero),
            "played": [r.model_dump(mode="json") for r in self.played],
            "corrections": [c.model_dump(mode="json") for c in self.corrections],
            "late": [x.model_dump(mode="json") for x in self.late],
            "fixes": [f.model_dump(mode="json") for f in self.fixes],
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> ChessGroup:
        current = data.get("current")
        tournament = trf.loads(data["trf"])
        names = data.get("names") or {}
        if names:
            tournament = tournament.with_players(
                p.replace(name=names.get(str(p.start_number), p.name)) for p in tournament.players
            )
        return cls(
            config=ChessGroupConfig.model_validate(data["config"]),
            tournament=tournament,
            current=None if current is None else GroupRound.model_validate(current),
            reported=frozenset(data.get("reported", ())),
            withdrawn=frozenset(data.get("withdrawn", ())),
            closed_with_zero=tuple(data.get("closed_with_zero", ())),
            played=tuple(GroupRound.model_validate(r) for r in data.get("played", ())),
            corrections=tuple(Correction.model_validate(c) for c in data.get("corrections", ())),
            late=tuple(LateEntrant.model_validate(x) for x in data.get("late", ())),
            fixes=tuple(PlayerFix.model_validate(f) for f in data.get("fixes", ())),
        )


def start_list(config: ChessGroupConfig) -> Tournament:
    """The group's TRF start list from its roster, with the roster's start numbers (FIDE order)."""
    players = tuple(
        Player(
            start_number=e.start,
            name=e.trf_name,
            sex=e.sex,
            rating=e.rating,
            federation=e.federation,
            fide_id=e.fide_id,
            birth=e.birth,
            points=ZERO,
        )
        for e in sorted(config.group.entrants, key=lambda e: e.start)
    )
    day = datetime.date.fromisoformat(config.date) if config.date else None
    return Tournament(players, start_list_records(title=config.title, rounds=config.rounds, date=day))


__all__ = [
    "ABSENT",
    "CHESS_ACTIONS",
    "FIX_FIELDS",
    "KEYSTROKES",
    "LATE_CODES",
    "AddLatePlayer",
    "Appeal",
    "BoardPlay",
    "ChessError",
    "ChessGroup",
    "ChessGroupConfig",
    "ClaimIllegalMove",
    "CloseRound",
    "Correction",
    "EnterResult",
    "FixPlayer",
    "GroupRound",
    "LateEntrant",
    "PairRound",
    "Phase",
    "PlayerFix",
    "PublicNames",
    "RecordAppeal",
    "ReportPresent",
    "UndoResult",
    "WithdrawPlayer",
    "loss_for",
    "read_result",
    "start_list",
]
