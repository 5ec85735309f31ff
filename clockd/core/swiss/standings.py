"""Standings: players ranked by points, then by tie-breaks in a chosen order.

The school tournament's order (RULES.md §H) is the default: points, Buchholz Cut-1,
Buchholz, Sonneborn–Berger, progressive score, direct encounter, number of wins, wins with
Black, and lots. Players still tied after every tie-break share a rank (1, 2, 2, 4 …)
unless lots are drawn, which needs a seed (:func:`~clockd.core.swiss.tiebreaks.lots`).

Direct encounter (C.07 Art. 6) lives here because it is not a number a player has on their
own: it looks at the games among the players *still tied* when it comes to its turn. It is
computed as FIDE's TieBreakServer computes it for a Swiss event, and reported the same way:
``0`` for a tied group it does not separate, else each player's place within the group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from clockd.core.swiss.model import ONE, ZERO, Tournament
from clockd.core.swiss.tiebreaks import NAMES, Edition, EditionBasis, TieBreaks, choose_edition, lots

#: RULES.md §H, after points (lots come last when a seed is given).
DEFAULT_ORDER = ("BH-C1", "BH", "SB", "PS", "DE", "WIN", "BWG")
#: Tie-breaks where a smaller value ranks higher.
ASCENDING = frozenset({"DE", "LOTS"})


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings. ``values`` holds the tie-breaks in the standings' order
    (and ``LOTS``, a player's drawn place, when lots were drawn)."""

    rank: int
    start_number: int
    name: str
    points: Fraction
    values: Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class Standings:
    rows: tuple[Row, ...]
    order: tuple[str, ...]  # the tie-breaks after points, as ranked (LOTS last if drawn)
    edition: Edition
    rounds: int
    lots_seed: str | None = None
    #: why ``edition`` applies (given by the caller, the event's date, no readable date)
    edition_basis: EditionBasis = EditionBasis.GIVEN


#: How many decimal places a tie-break is shown with at least (scores in halves, SB in quarters).
MIN_PLACES: Mapping[str, int] = {"PTS": 1, "BH-C1": 1, "BH": 1, "SB": 2, "PS": 1}


def score_text(points: Fraction) -> str:
    """``1½``, ``½``, ``2`` — as a pairing list on a wall writes a score."""
    if points.denominator not in (1, 2):  # not a chess score; say it exactly
        return str(points)
    whole, half = divmod(points * 2, 2)
    text = str(int(whole)) if whole or not half else ""
    return text + ("½" if half else "")


def decimal_text(value: Fraction, min_places: int = 0) -> str:
    """``value`` as an exact decimal (``12.5``, ``9.75``, ``-3``), with at least ``min_places``
    decimals. Raises ``ValueError`` for a fraction with no finite decimal expansion."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
        if places > 30:
            raise ValueError(f"{value} has no exact decimal form")
    places = max(places, min_places)
    scaled = int(value * 10**places)
    whole, frac = divmod(scaled, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}" if places else f"{sign}{whole}"


def parse_order(text: str, wins: str = "WIN") -> tuple[str, ...]:
    """A tie-break order from ``"BH-C1,BH,SB"``; ``wins`` ("WIN" or "WON") says which
    number-of-wins ``WIN`` means. Raises ``ValueError`` naming what is wrong."""
    if wins not in ("WIN", "WON"):
        raise ValueError(f"number of wins is WIN or WON, not {wins!r}")
    names = tuple(part.strip().upper() for part in text.split(",") if part.strip())
    return check_order(tuple(wins if n == "WIN" else n for n in names))


def check_order(order: Sequence[str]) -> tuple[str, ...]:
    known = [n for n in NAMES if n != "PTS"]
    for name in order:
        if name not in known:
            raise ValueError(f"unknown tie-break {name!r}; choose from {', '.join(known)}")
    repeated = sorted({n for n in order if list(order).count(n) > 1})
    if repeated:
        raise ValueError(f"tie-break {', '.join(repeated)} given twice")
    return tuple(order)


def standings(
    tournament: Tournament,
    *,
    order: Sequence[str] = DEFAULT_ORDER,
    rounds: int | None = None,
    edition: Edition | None = None,
    lots_seed: str | None = None,
) -> Standings:
    """The standings after ``rounds`` rounds (default: the last round paired).

    ``edition`` defaults to the one in force on the event's date (TRF ``042``); the table
    says which basis applied (:func:`~clockd.core.swiss.tiebreaks.choose_edition`).
    """
    order = check_order(order)
    if rounds is None:
        rounds = tournament.rounds_paired
    edition, basis = choose_edition(tournament, edition)
    tb = TieBreaks(tournament, rounds=rounds, edition=edition)
    numbers = list(tournament.start_numbers)
    values: dict[int, dict[str, Fraction]] = {sn: {} for sn in numbers}

    # Groups of players tied so far, best first; each list sorted by start number.
    groups: list[list[int]] = [sorted(numbers)]
    groups = _refine(groups, {sn: tb.points(sn) for sn in numbers}, descending=True)
    criteria = list(order) + (["LOTS"] if lots_seed is not None else [])
    drawn = lots(numbers, lots_seed) if lots_seed is not None else {}
    for name in criteria:
        if name == "DE":
            column: dict[int, Fraction] = {}
            for group in groups:
                column.update(direct_encounter(tb, group))
        elif name == "LOTS":
            column = {sn: Fraction(drawn[sn]) for sn in numbers}
        else:
            column = {sn: tb.value(name, sn) for sn in numbers}
        for sn in numbers:
            values[sn][name] = column[sn]
        groups = _refine(groups, column, descending=name not in ASCENDING)

    names = {p.start_number: p.name for p in tournament.players}
    rows: list[Row] = []
    for group in groups:
        rank = len(rows) + 1
        rows.extend(Row(rank, sn, names[sn], tb.points(sn), values[sn]) for sn in group)
    return Standings(tuple(rows), tuple(criteria), edition, rounds, lots_seed, basis)


def _refine(groups: list[list[int]], column: Mapping[int, Fraction], *, descending: bool) -> list[list[int]]:
    """Split every tied group by ``column`` (best first); within a group, start-number order."""
    out: list[list[int]] = []
    for group in groups:
        by_value: dict[Fraction, list[int]] = {}
        for sn in group:
            by_value.setdefault(column[sn], []).append(sn)
        for value in sorted(by_value, reverse=descending):
            out.append(by_value[value])
    return out


def direct_encounter(tb: TieBreaks, group: Sequence[int]) -> dict[int, Fraction]:
    """DE for one group of tied players (C.07 Art. 6, as TieBreakServer computes it).

    Only games played over the board among players still tied count (a repeated pairing
    counts as its average). If everyone in the group has met everyone, they are ordered by
    the points of those games. If not (a Swiss event), the leader is separated only when
    their points exceed what any other could have reached by winning the games they did
    not play; then the next, and so on. Separated subgroups are examined again among
    themselves until nothing changes. The value is 0 for everyone when the group is not
    separated at all, else each player's place in the group (1 = first).
    """
    players = sorted(group)
    if len(players) < 2:
        return {sn: ZERO for sn in players}
    place = {sn: 0 for sn in players}  # 0-based place within the group; equal = still tied
    again = {sn: True for sn in players}  # examine this player's subgroup in the next pass
    while True:
        changes = 0
        for sub in _subgroups(players, place):
            if len(sub) < 2 or not again[sub[0]]:
                continue
            changed = _direct_encounter_pass(tb, sub, place)
            for sn in sub:
                again[sn] = changed > 0
            changes += changed
        if not changes:
            break
    if len(set(place.values())) == 1:
        return {sn: ZERO for sn in players}
    return {sn: Fraction(place[sn] + 1) for sn in players}


def _subgroups(players: list[int], place: Mapping[int, int]) -> list[list[int]]:
    subgroups: dict[int, list[int]] = {}
    for sn in sorted(players, key=lambda s: (place[s], s)):
        subgroups.setdefault(place[sn], []).append(sn)
    return [subgroups[p] for p in sorted(subgroups)]


def _direct_encounter_pass(tb: TieBreaks, sub: list[int], place: dict[int, int]) -> int:
    """One examination of a tied subgroup; updates ``place``, returns how many splits."""
    members = set(sub)
    need = len(sub) - 1  # opponents each would have met if all had played all
    scored: dict[int, Fraction] = {}
    best_possible: dict[int, Fraction] = {}
    all_met = True
    for sn in sub:
        per_opponent: dict[int, list[Fraction]] = {}
        for r in range(1, tb.rounds + 1):
            entry = tb.tournament[sn].entry(r)
            if entry.played and entry.opponent in members:
                per_opponent.setdefault(entry.opponent, []).append(entry.points)
        scored[sn] = sum((sum(v, ZERO) / len(v) for v in per_opponent.values()), ZERO)
        met = len(per_opponent)
        if met < need:
            all_met = False
        best_possible[sn] = scored[sn] + (need - met) * ONE
    first = place[sub[0]]
    changes = 0
    if all_met:
        ranked = sorted(sub, key=lambda s: (-scored[s], s))
        current = first
        for i in range(1, len(ranked)):
            sn, previous = ranked[i], ranked[i - 1]
            if scored[sn] != scored[previous]:
                current = first + i
                changes += 1
            place[sn] = current
    else:
        ranked = sorted(sub, key=lambda s: (-scored[s], -best_possible[s], s))
        current = first
        separating = True
        for i in range(1, len(ranked)):
            sn, previous = ranked[i], ranked[i - 1]
            rest_best = max(best_possible[s] for s in ranked[i:])
            if separating and scored[previous] > rest_best:
                current = first + i
                changes += 1
            else:
                separating = False
            place[sn] = current
    return changes
