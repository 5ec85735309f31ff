"""FIDE tie-breaks (Handbook C.07) for an individual Swiss tournament, in exact fractions.

The tie-breaks, by their C.07 acronyms:

========  =====================================================================
``PTS``   points
``BH``    Buchholz: the sum of the opponents' (adjusted) scores
``BH-C1`` Buchholz Cut-1: Buchholz without its least significant contribution
``SB``    Sonneborn–Berger: each opponent's score times the points made against them
``PS``    progressive score: the sum of the running scores after each round
``DE``    direct encounter (computed by :mod:`.standings`, since it needs the ranking)
``WIN``   rounds won, with or without playing (forfeit wins and byes worth a win count)
``WON``   games won over the board
``BWG``   games won with Black
``BPG``   games played with Black
``REP``   rounds the player elected to play: games played plus rounds won unplayed
========  =====================================================================

Article 16 (unplayed rounds), as FIDE's reference program TieBreakServer computes it —
the corpus values in ``tiebreaks/*.tsv`` come from that program and are matched exactly:

* **Voluntarily unplayed rounds (VUR)**: a round not played over the board that did not
  score a win — half-point and zero-point byes, forfeit losses (double forfeits too), and
  rounds with nothing recorded (absent, withdrawn). Forfeit wins, full-point byes and the
  pairing-allocated bye are not VURs.
* **Adjusted score** (what a player's score is worth to their opponents, 16.3): the actual
  points, except that VURs with no opponent after the player's last non-VUR round (a
  withdrawal) count as draws.
* **Dummy opponent** (16.4): for each of the player's own unplayed rounds, BH and SB count
  a dummy opponent. In the **2024** edition it has the player's own final score. The
  edition of **1 March 2026** caps it: against a scheduled opponent (forfeit) at that
  opponent's adjusted score; otherwise (byes, absences) at half the rounds (16.4.1/16.4.2).
* **Cut-1 exception** (16.5): a player with VURs has the least VUR contribution cut rather
  than the overall least one.

The edition in force is chosen by the event's date of start (TRF ``042``): on or after
1 March 2026 the 2026 edition, before it the 2024 edition; with no date, or one that cannot
be read, 2026 (:func:`choose_edition` says which basis applied, so a printout can say it).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from clockd.core.swiss.model import ONE, ZERO, Colour, RoundEntry, Tournament

HALF = Fraction(1, 2)


class Edition(StrEnum):
    """An edition of the Tie-Break Regulations (C.07)."""

    E2024 = "2024"
    E2026 = "2026"  # in force from 1 March 2026: the dummy opponent's score is capped

    @classmethod
    def in_force_on(cls, date: datetime.date | None) -> Edition:
        """The edition that applies to an event starting on ``date`` (2026 when unknown)."""
        if date is None or date >= EDITION_2026_FROM:
            return cls.E2026
        return cls.E2024


EDITION_2026_FROM = datetime.date(2026, 3, 1)


class EditionBasis(StrEnum):
    """Why an edition applies: what a printout says next to it."""

    GIVEN = "given"  # the caller chose it (``--edition``)
    DATE = "date"  # in force on the event's date of start (TRF ``042``)
    NO_DATE = "no date"  # the file gives no date of start: the edition in force now
    UNREADABLE_DATE = "unreadable date"  # record ``042`` is there but is not a date


def choose_edition(tournament: Tournament, given: Edition | None = None) -> tuple[Edition, EditionBasis]:
    """The edition for ``tournament``'s tie-breaks and why: ``given``, else the one in force
    on its date of start; without a readable date, the current (2026) edition."""
    if given is not None:
        return given, EditionBasis.GIVEN
    date = tournament.start_date
    if date is not None:
        return Edition.in_force_on(date), EditionBasis.DATE
    basis = EditionBasis.UNREADABLE_DATE if tournament.unreadable_start_date else EditionBasis.NO_DATE
    return Edition.in_force_on(None), basis


#: Every tie-break this module computes (DE is computed by :mod:`.standings`).
NAMES = ("PTS", "BH-C1", "BH", "SB", "PS", "DE", "WIN", "WON", "BWG", "BPG", "REP")


@dataclass(frozen=True, slots=True)
class _Round:
    """One player's round, as the tie-breaks see it."""

    entry: RoundEntry
    points: Fraction
    played: bool  # over the board
    vur: bool  # voluntarily unplayed round


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one round adds to a player's Buchholz (``score``) and Sonneborn–Berger
    (``score`` × the points the player made in it)."""

    round: int
    score: Fraction
    sb: Fraction
    vur: bool


class TieBreaks:
    """The tie-break values of every player of a tournament after ``rounds`` rounds
    (default: the last round paired).

    Rounds with nothing recorded count as absences (zero points, VUR). All values are
    :class:`~fractions.Fraction` (the counts too, for uniformity).
    """

    def __init__(
        self, tournament: Tournament, *, rounds: int | None = None, edition: Edition = Edition.E2026
    ) -> None:
        self.tournament = tournament
        self.rounds = tournament.rounds_paired if rounds is None else rounds
        if self.rounds < 0:
            raise ValueError(f"cannot compute tie-breaks after {self.rounds} rounds")
        self.edition = edition
        self._rounds: dict[int, tuple[_Round, ...]] = {}
        self._score: dict[int, Fraction] = {}
        self._adjusted: dict[int, Fraction] = {}
        self._contributions: dict[int, tuple[Contribution, ...]] = {}
        for player in tournament.players:
            rounds_ = tuple(self._round(player.entry(r)) for r in range(1, self.rounds + 1))
            sn = player.start_number
            self._rounds[sn] = rounds_
            self._score[sn] = sum((r.points for r in rounds_), ZERO)
            last_not_vur = max((i for i, r in enumerate(rounds_, start=1) if not r.vur), default=0)
            self._adjusted[sn] = sum(
                (
                    r.points if i <= last_not_vur or r.entry.opponent is not None else HALF
                    for i, r in enumerate(rounds_, start=1)
                ),
                ZERO,
            )

    @staticmethod
    def _round(entry: RoundEntry) -> _Round:
        points = entry.points
        played = entry.played
        return _Round(entry, points, played, vur=not played and points < ONE)

    # -- scores ------------------------------------------------------------------------
    def points(self, sn: int) -> Fraction:
        """PTS: the player's score after the rounds considered."""
        return self._score[sn]

    def adjusted_score(self, sn: int) -> Fraction:
        """The player's score as their opponents' tie-breaks count it (C.07 16.3)."""
        return self._adjusted[sn]

    def is_vur(self, sn: int, round_number: int) -> bool:
        return self._rounds[sn][round_number - 1].vur

    def contributions(self, sn: int) -> tuple[Contribution, ...]:
        """Each round's contribution to BH and SB: the opponent's adjusted score for a game
        played, the dummy opponent's score for an unplayed round (16.4)."""
        cached = self._contributions.get(sn)
        if cached is not None:
            return cached
        own = self._score[sn]
        cap_bye = HALF * self.rounds
        out = []
        for i, r in enumerate(self._rounds[sn], start=1):
            opponent = r.entry.opponent
            if r.played and opponent is not None:
                score = self._adjusted[opponent]
                vur = False
            else:
                score = own
                if self.edition is Edition.E2026:
                    cap = self._adjusted[opponent] if opponent is not None else cap_bye
                    score = min(score, cap)
                vur = r.vur
            out.append(Contribution(i, score, score * r.points, vur))
        self._contributions[sn] = result = tuple(out)
        return result

    # -- the tie-breaks ----------------------------------------------------------------
    def buchholz(self, sn: int, cut: int = 0) -> Fraction:
        """BH, or BH-C``cut`` (``cut`` least significant contributions left out, VURs first)."""
        return _sum_after_cut(self.contributions(sn), cut, lambda c: c.score)

    def sonneborn_berger(self, sn: int, cut: int = 0) -> Fraction:
        return _sum_after_cut(self.contributions(sn), cut, lambda c: c.sb)

    def progressive(self, sn: int) -> Fraction:
        """PS: the running score after round 1, plus after round 2, … after the last round."""
        total = running = ZERO
        for r in self._rounds[sn]:
            running += r.points
            total += running
        return total

    def wins(self, sn: int) -> Fraction:
        """WIN: rounds in which the player scored a win's points, played or not."""
        return Fraction(sum(1 for r in self._rounds[sn] if r.points == ONE))

    def games_won(self, sn: int) -> Fraction:
        """WON: games won over the board."""
        return Fraction(sum(1 for r in self._rounds[sn] if r.played and r.points == ONE))

    def black_games(self, sn: int) -> Fraction:
        """BPG: games played over the board with Black."""
        return Fraction(sum(1 for r in self._rounds[sn] if r.played and r.entry.colour is Colour.BLACK))

    def black_wins(self, sn: int) -> Fraction:
        """BWG: games won over the board with Black."""
        return Fraction(
            sum(
                1 for r in self._rounds[sn] if r.played and r.entry.colour is Colour.BLACK and r.points == ONE
            )
        )

    def rounds_elected(self, sn: int) -> Fraction:
        """REP: rounds the player elected to play — games played and rounds won unplayed."""
        return Fraction(sum(1 for r in self._rounds[sn] if r.played or r.points == ONE))

    def value(self, name: str, sn: int) -> Fraction:
        """The tie-break ``name`` (a C.07 acronym, see :data:`NAMES`; not DE) of player ``sn``."""
        try:
            function = _FUNCTIONS[name]
        except KeyError:
            raise ValueError(f"unknown tie-break {name!r}; known: {', '.join(n for n in NAMES)}") from None
        return function(self, sn)


def _sum_after_cut(
    contributions: Sequence[Contribution], cut: int, value: Callable[[Contribution], Fraction]
) -> Fraction:
    """Sum of the contributions after cutting the ``cut`` least significant ones.

    C.07 16.5 (TieBreakServer's reading): if the player has VURs, the cut takes the VUR
    with the least opponent score — unless a non-VUR contribution is strictly less
    significant than every VUR's (possible for SB, where a lost game contributes 0).
    """
    remaining = list(contributions)
    for _ in range(min(cut, len(remaining))):
        least = min(remaining, key=lambda c: (c.score, value(c)))
        least_vur = min(remaining, key=lambda c: (not c.vur, c.score, value(c)))
        remaining.remove(least if value(least) > value(least_vur) else least_vur)
    return sum((value(c) for c in remaining), ZERO)


_FUNCTIONS: Mapping[str, Callable[[TieBreaks, int], Fraction]] = {
    "PTS": TieBreaks.points,
    "BH": lambda t, sn: t.buchholz(sn),
    "BH-C1": lambda t, sn: t.buchholz(sn, cut=1),
    "SB": lambda t, sn: t.sonneborn_berger(sn),
    "PS": TieBreaks.progressive,
    "WIN": TieBreaks.wins,
    "WON": TieBreaks.games_won,
    "BWG": TieBreaks.black_wins,
    "BPG": TieBreaks.black_games,
    "REP": TieBreaks.rounds_elected,
}


# -- lots -------------------------------------------------------------------------------------


def lots(start_numbers: Iterable[int], seed: str) -> dict[int, int]:
    """A drawing of lots: each start number's place (1 = best) in an order fixed by ``seed``.

    The order is SHA-256 of ``"{seed}:{start number}"``, so the same seed gives the same
    draw on any machine and any Python, and a player's lot does not depend on who else is
    tied. Record the seed (print it with the standings) and anyone can re-draw.
    """
    numbers = list(start_numbers)
    digest = {sn: hashlib.sha256(f"{seed}:{sn}".encode()).hexdigest() for sn in numbers}
    return {sn: place for place, sn in enumerate(sorted(numbers, key=lambda s: (digest[s], s)), start=1)}
