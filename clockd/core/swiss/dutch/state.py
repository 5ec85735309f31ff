"""What the Dutch pairing needs to know about each player, computed from the tournament.

FIDE C.04.1/C.04.3 look at a player's score, colour history and float history; the
reference engine (bbpPairings) reads them from the TRF the same way, and reproducing its
pairings exactly starts with reproducing these facts exactly:

* colours come from games played over the board only: a forfeit carries no colour and
  does not prevent a rematch (C.04.1);
* a player who scored more than a loss without playing (forfeit win, pairing-allocated
  bye, a bye worth points) counts as having floated down in that round (C.04.3 1.4.3);
* a player who already had a pairing-allocated bye, or a win without playing, is not
  given the bye again (C.04.1);
* the round to pair is the first one in which nobody has been paired yet; players with
  an absence known in advance for that round (``0000 - H/Z/F``, and ``0000 - -`` as JaVaFo
  and Lichess write it) are not paired.

Scores are kept as integers in half points (a win is 2), so everything stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from clockd.core.swiss.model import (
    Code,
    Colour,
    Player,
    RoundEntry,
    Tournament,
)
from clockd.core.swiss.records import pairing_records

__all__ = ["Float", "PairingInput", "PairingInputError", "PlayerState", "build_input"]


class PairingInputError(ValueError):
    """The tournament cannot be paired as it stands (the message says why)."""


class Float(IntEnum):
    """A player's float in a past round, as C.04.3 counts it."""

    DOWN = 0
    UP = 1
    NONE = 2


WHITE = 0
BLACK = 1
NO_COLOUR = 2


def _colour(c: Colour | None) -> int:
    return NO_COLOUR if c is None else (WHITE if c is Colour.WHITE else BLACK)


def invert(c: int) -> int:
    return NO_COLOUR if c == NO_COLOUR else 1 - c


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player to be paired, as the pairing rules see them."""

    start_number: int
    rank: int  # 0-based pairing number among the tournament's players (start number order)
    score: int  # half points, with the acceleration of this round (the score it is paired on)
    colours: tuple[int, ...]  # colours of games played over the board, in order
    preference: int  # WHITE, BLACK or NO_COLOUR
    imbalance: int  # |whites - blacks| over played games
    repeated: int  # the colour of the last two played games when equal, else NO_COLOUR
    strong: bool
    played_games: int
    bye_eligible: bool
    float1: Float  # the float of the previous round
    float2: Float  # the float of the round before that
    opponents: frozenset[int]  # start numbers met over the board
    forbidden: frozenset[int] = frozenset()  # start numbers it may not meet (XXP, 260)

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated != NO_COLOUR


@dataclass(frozen=True, slots=True)
class PairingInput:
    """Everything the engine needs to pair one round."""

    round_number: int  # the round being paired (1-based)
    total_rounds: int
    players: tuple[PlayerState, ...]  # the players to pair, in pairing-number order
    initial_colour: int  # the colour of the first player in round 1 (WHITE/BLACK)
    score_by_number: dict[int, int]  # every valid player's score (half points, no acceleration)
    rank_by_number: dict[int, int]


def _entry_points2(entry: RoundEntry) -> int:
    return int(entry.points * 2)


def round_to_pair(tournament: Tournament) -> int:
    """The round to pair: the one after the last round anybody was paired in (given an
    opponent, the pairing-allocated bye, or a win without playing). Entries from there on
    are blank or absences known in advance (``0000 - H/F/Z/-/=``), whose players are not
    paired. As bbpPairings reads a file: a round in which every player already has an
    entry — all of them absent — counts as played, and the next one is paired.
    """
    last = 0
    for p in tournament.players:
        for r, e in enumerate(p.rounds, start=1):
            if e.paired and r > last:
                last = r
    k = last + 1
    players = tournament.players
    while players and all(not p.entry(k).is_blank for p in players):
        k += 1
    return k


def _float_of(entry: RoundEntry, before: int, opponent_before: int | None) -> Float:
    if not entry.played:
        return Float.DOWN if _entry_points2(entry) > 0 else Float.NONE
    assert opponent_before is not None
    if before > opponent_before:
        return Float.DOWN
    if before < opponent_before:
        return Float.UP
    return Float.NONE


def _participated(entry: RoundEntry) -> bool:
    # bbpPairings: the player was paired, or got the pairing-allocated bye (or a forfeit win).
    return entry.paired


def _infer_initial_colour(players: list[Player], played_rounds: int) -> int:
    """The colour of the top player in the first round that has colours (as bbpPairings
    infers it when the file does not say: ``XXC white1``/``black1``)."""
    min_round = None
    for p in players:
        for r in range(1, played_rounds + 1):
            e = p.entry(r)
            if e.colour is not None:
                min_round = r if min_round is None else min(min_round, r)
                break
    if min_round is None:
        return WHITE
    number = 0
    for p in players:
        if any(_participated(p.entry(r)) for r in range(1, min_round + 1)):
            c = _colour(p.entry(min_round).colour)
            if c != NO_COLOUR:
                return invert(c) if number & 1 else c
            number += 1
    return WHITE


def initial_colour(tournament: Tournament) -> str:
    """The first board's colour in round 1, ``"w"`` or ``"b"``: as the file says it (``XXC
    white1``/``black1``, ``152 W``/``B``), else as bbpPairings infers it from the whole file."""
    records = pairing_records(tournament)
    if records.initial_colour is not None:
        return records.initial_colour
    players = (
        list(tournament.players)
        if records.by_rank
        else sorted(tournament.players, key=lambda p: p.start_number)
    )
    return "w" if _infer_initial_colour(players, tournament.rounds_played) == WHITE else "b"


def build_input(tournament: Tournament, total_rounds: int | None = None) -> PairingInput:
    """The pairing input for the next round of ``tournament``.

    ``total_rounds`` defaults to the file's ``XXR``/``142`` record; without one, the round
    being paired is taken as the last.
    """
    k = round_to_pair(tournament)
    played_rounds = k - 1
    n_total = total_rounds or tournament.total_rounds or k
    if n_total < k:
        raise PairingInputError(
            f"round {k} is to be paired, but the tournament has only {n_total} rounds (XXR)"
        )
    records = pairing_records(tournament, n_total)
    byes = records.byes.get(k, frozenset())
    if records.by_rank:  # XXC rank: pairing numbers follow the order of the 001 lines
        ordered = list(tournament.players)
    else:
        ordered = sorted(tournament.players, key=lambda p: p.start_number)

    def absent(p: Player) -> bool:
        return not p.entry(k).is_blank or p.start_number in byes

    # A player who never took part in a pairing and is absent now is not in the event.
    valid: list[Player] = []
    for p in ordered:
        if absent(p) and not any(_participated(p.entry(r)) for r in range(1, k)):
            continue
        valid.append(p)
    rank_by_number = {p.start_number: i for i, p in enumerate(valid)}
    score_hist: dict[int, list[int]] = {}
    for p in valid:
        running = [0]
        for r in range(1, k):
            running.append(running[-1] + _entry_points2(p.entry(r)))
        score_hist[p.start_number] = running

    def pairing_score(sn: int, r: int) -> int:
        """The score ``sn`` is paired on in round ``r``: points before it plus acceleration."""
        return score_hist[sn][r - 1] + records.acceleration(sn, r)

    if records.initial_colour is not None:
        initial = WHITE if records.initial_colour == "w" else BLACK
    else:
        initial = _infer_initial_colour(valid, played_rounds)

    states: list[PlayerState] = []
    for p in valid:
        if absent(p):
            continue  # absent this round, known in advance
        sn = p.start_number
        colours: list[int] = []
        opponents: set[int] = set()
        eligible = True
        for r in range(1, k):
            e = p.entry(r)
            if e.played:
                assert e.opponent is not None
                if e.opponent not in rank_by_number:
                    raise PairingInputError(
                        f"player {sn} played round {r} against {e.opponent}, who is not in the tournament"
                    )
                colours.append(_colour(e.colour))
                opponents.add(e.opponent)
            else:
                pts = _entry_points2(e)
                if pts >= 2 or e.code is Code.PAIRING_BYE:
                    eligible = False
        whites = colours.count(WHITE)
        blacks = colours.count(BLACK)
        consecutive = 0
        last = NO_COLOUR
        for c in colours:
            if consecutive == 0 or c != last:
                consecutive = 1
            else:
                consecutive += 1
            last = c
        lower = BLACK if whites > blacks else WHITE
        imbalance = abs(whites - blacks)
        if imbalance > 1:
            pref = lower
        elif consecutive > 1:
            pref = invert(last)
        elif imbalance > 0:
            pref = lower
        elif consecutive:
            pref = invert(last)
        else:
            pref = NO_COLOUR
        repeated = last if consecutive > 1 else NO_COLOUR
        absolute = imbalance > 1 or repeated != NO_COLOUR
        strong = not absolute and imbalance > 0

        def float_back(back: int, p: Player = p) -> Float:
            r = k - back
            if r < 1:
                return Float.NONE
            e = p.entry(r)
            before = pairing_score(p.start_number, r)
            opp_before = None
            if e.played:
                assert e.opponent is not None
                opp_before = pairing_score(e.opponent, r)
            return _float_of(e, before, opp_before)

        states.append(
            PlayerState(
                start_number=sn,
                rank=rank_by_number[sn],
                score=pairing_score(sn, k),
                colours=tuple(colours),
                preference=pref,
                imbalance=imbalance,
                repeated=repeated,
                strong=strong,
                played_games=len(colours),
                bye_eligible=eligible,
                float1=float_back(1),
                float2=float_back(2),
                opponents=frozenset(opponents),
                forbidden=records.forbidden_with(sn, k),
            )
        )
    return PairingInput(
        round_number=k,
        total_rounds=n_total,
        players=tuple(states),
        initial_colour=initial,
        score_by_number={sn: h[-1] for sn, h in score_hist.items()},
        rank_by_number=rank_by_number,
    )
