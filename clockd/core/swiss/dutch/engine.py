"""The FIDE Dutch pairing of one round (C.04.3, edition applied from 1 July 2025).

How a round is paired
---------------------
Players are sorted by score, then pairing number, and split into score groups. Brackets
are paired from the top: a bracket is the players moved down from the bracket above
(MDPs) plus the next score group (the residents). For each bracket the engine finds the
best pairing *of the whole remaining field* under a weight that puts the criteria in the
rules' order (:mod:`.weights`): first that everyone left can still be paired (the
completion criterion), then this bracket's pairs and scores, then the next bracket's,
then colours and floats. Ties between equally good pairings are broken exactly as the
reference engine (bbpPairings) breaks them, by tie-break bits below the criteria:

1. *which* MDPs are paired: the higher ones first, then each MDP's opponent: the
   highest resident it can have;
2. in the rest of the bracket (the *remainder*, split into S1 = the top half and S2):
   as few exchanges between S1 and S2 as possible, then the smallest sum of the
   exchanged players' positions, then exchanging the lowest S1 players out and the
   highest S2 players in;
3. each S1 player, from the top, gets the highest opponent it can have.

Each of these is a lexicographic preference, which is stated as one more integer field
whose sub-fields are powers of a base; so the whole bracket takes two weighted matchings
(one for the MDPs, one for the remainder) instead of one per decision.

To keep the cost to the bracket's size, a matching is solved on the bracket, the next
score group and a *relaxed* picture of the rest of the field; the result is accepted only
when the rest can really absorb the players it floats down (otherwise more of the field
is brought in, up to all of it): see :class:`_Bracket`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clockd.core.swiss.dutch.bitsearch import unmatched_count
from clockd.core.swiss.dutch.colours import colour_of_first
from clockd.core.swiss.dutch.face import single_leftovers
from clockd.core.swiss.dutch.ordering import (
    FAST_FROM,
    Criteria,
    MdpOrder,
    Order,
    RemainderOrder,
    SlowPath,
    best_matching,
)
from clockd.core.swiss.dutch.state import WHITE, PairingInput, PlayerState
from clockd.core.swiss.dutch.weights import Weights

__all__ = ["NoValidPairing", "RoundPairing", "pair_players"]


class NoValidPairing(ValueError):
    """No pairing satisfies the absolute criteria (C.04.3 C1–C4)."""


@dataclass(frozen=True)
class RoundPairing:
    """A round's pairing: boards as ``(white, black)`` start numbers, and the bye."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None

    def lines(self) -> list[str]:
        """The pairing in the reference engines' output format (without line ends)."""
        out = [str(len(self.boards) + (self.bye is not None))]
        out.extend(f"{w} {b}" for w, b in self.boards)
        if self.bye is not None:
            out.append(f"{self.bye} 0")
        return out


def _bits(x: int) -> int:
    return max(1, x.bit_length())


def _members(mask: int) -> list[int]:
    """The members of a bit set, ascending (a dense one read from its binary string)."""
    if mask.bit_count() * 8 > mask.bit_length():
        digits = bin(mask)
        top = len(digits) - 1
        return [top - i for i in range(top, 1, -1) if digits[i] == "1"]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: How far :meth:`_Bracket._too_small` counts the players a model leaves over to float.
SHORT_ENOUGH = 4


class _Round:
    """The state of pairing one round: players in score order and what is decided."""

    def __init__(self, data: PairingInput, decide_from: int, slow: SlowPath | None = None) -> None:
        self.data = data
        self.decide_from = decide_from
        self.slow = slow
        players = sorted(data.players, key=lambda p: (-p.score, p.rank))
        self.p: list[PlayerState] = players
        n = self.n = len(players)
        played = data.round_number - 1
        last_rounds = played >= data.total_rounds - 1
        threshold = played  # half of the maximum score, in half points
        groups: list[list[int]] = []
        for i, pl in enumerate(players):
            if groups and players[groups[-1][0]].score == pl.score:
                groups[-1].append(i)
            else:
                groups.append([i])
        self.groups = groups
        shifts: dict[int, int] = {}
        total = 0
        for grp in reversed(groups):
            shifts[players[grp[0]].score] = total
            total += _bits(len(grp))
        self.weights = Weights(
            group_bits=_bits(max((len(g) for g in groups), default=1)),
            shifts=shifts,
            score_bits=total,
            played_rounds=played,
        )
        self.qbits = self.weights.quality_bits
        # compatibility (C1–C3) as bit sets
        index = {pl.start_number: i for i, pl in enumerate(players)}
        full = (1 << n) - 1
        absolute = {0: 0, 1: 0}
        top = 0
        for i, a in enumerate(players):
            if a.absolute:
                absolute[a.preference] |= 1 << i
            if last_rounds and a.score > threshold:
                top |= 1 << i
        compat: list[int] = []
        for i, a in enumerate(players):
            mask = full & ~(1 << i)
            for sn in a.opponents | a.forbidden:
                j = index.get(sn)
                if j is not None:
                    mask &= ~(1 << j)
            if a.absolute and not (top >> i) & 1:
                mask &= ~(absolute[a.preference] & ~top)
            compat.append(mask)
        self.compat = compat
        self.odd = n % 2 == 1
        self.refused = False  # a relaxed model of this round has been refused
        # What a pair's quality in its bracket depends on, per player (Weights.quality).
        self.kind = [
            (pl.score, pl.preference, pl.imbalance, pl.repeated, pl.strong, pl.float1, pl.float2)
            for pl in players
        ]
        self.paired_quality: dict[tuple[object, ...], int] = {}
        self.bye_score = 0
        self.single0 = False
        self.ranks: dict[int, int] = {}
        self.cand_mask = 0

    def set_bye_score(self, score: int) -> None:
        self.bye_score = score
        self.cand_mask = 0
        for i, pl in enumerate(self.p):
            if pl.bye_eligible and pl.score <= score:
                self.cand_mask |= 1 << i

    def perfect(self, member: int, cands: int = 0, apart: int = 0) -> bool:
        """Whether the players in the bit set ``member`` can all be paired: one of ``cands``
        left out when their number is odd; players in ``apart`` never paired together."""
        return self.unpaired(member, cands, apart, stop_at=1) == 0

    def unpaired(self, member: int, cands: int = 0, apart: int = 0, stop_at: int = -1) -> int:
        """How many players of ``member`` the best pairing of them (as :meth:`perfect`
        pairs them) leaves without an opponent."""
        vertices = _members(member)
        dummy = self.n
        compat = self.compat
        if len(vertices) % 2:
            cands &= member
            vertices.append(dummy)

            def neighbours(v: int) -> int:
                if v == dummy:
                    return cands
                m = compat[v] & member
                if (apart >> v) & 1:
                    m &= ~apart
                if (cands >> v) & 1:
                    m |= 1 << dummy
                return m
        else:

            def neighbours(v: int) -> int:
                m = compat[v] & member
                if (apart >> v) & 1:
                    m &= ~apart
                return m

        return unmatched_count(vertices, neighbours, self.n + 1, stop_at)

    def cand(self, i: int) -> bool:
        return bool((self.cand_mask >> i) & 1)

    def bye_bits(self, i: int, j: int, on: bool) -> int:
        if not on:
            return 0
        p = self.p
        r = 0
        if p[i].score == self.bye_score:
            r += self.ranks[p[i].played_games]
        if p[j].score == self.bye_score:
            r += self.ranks[p[j].played_games]
        return r

    def own_bye_bits(self, i: int, on: bool) -> int:
        pl = self.p[i]
        if on and pl.score == self.bye_score:
            return self.ranks[pl.played_games]
        return 0


def pair_players(
    data: PairingInput, decide_from: int = FAST_FROM, slow: SlowPath | None = None
) -> RoundPairing:
    """Pair one round. Raises :class:`NoValidPairing` when no pairing satisfies the
    absolute criteria.

    ``decide_from``: brackets of at least this many players take the rules' order on the
    criteria's certificate instead of in one more weighted matching (:mod:`.ordering`);
    the pairing is the same either way (0 = always, a huge number = never). ``slow``, if
    given, records the models that could not be decided on the certificate.
    """
    rnd = _Round(data, decide_from, slow)
    p = rnd.p
    n = rnd.n
    if n == 0:
        return RoundPairing((), None)
    everyone = (1 << n) - 1
    if rnd.odd:
        found = False
        for score in sorted({pl.score for pl in p if pl.bye_eligible}):
            cands = 0
            for i, pl in enumerate(p):
                if pl.bye_eligible and pl.score == score:
                    cands |= 1 << i
            if rnd.perfect(everyone, cands):
                rnd.set_bye_score(score)
                found = True
                break
        if not found:
            raise NoValidPairing(
                "the players cannot all be paired with the bye going to a player allowed to have it"
            )
        top = rnd.groups[0]
        if rnd.bye_score >= p[0].score:
            top_mask = (1 << len(top)) - 1
            rnd.single0 = rnd.perfect(top_mask, rnd.cand_mask & top_mask) and rnd.perfect(
                everyone & ~top_mask
            )
        counts = sorted((pl.played_games for pl in p if pl.score == rnd.bye_score), reverse=True)
        for rank, games in enumerate(counts):
            rnd.ranks[games] = rank
    else:
        rnd.set_bye_score(0)
        if not rnd.perfect(everyone):
            raise NoValidPairing(
                "the players cannot all be paired without breaking an "
                "absolute criterion (a rematch, or two players who both "
                "must have the same colour)"
            )
    pairs = _pair_brackets(rnd)
    boards: list[tuple[int, int]] = []
    matched: set[int] = set()
    for a, b in pairs:
        matched.add(a)
        matched.add(b)
        pa, pb = p[a], p[b]
        if pa.start_number > pb.start_number:
            pa, pb = pb, pa
        if colour_of_first(pa, pb, data.initial_colour) == WHITE:
            boards.append((pa.start_number, pb.start_number))
        else:
            boards.append((pb.start_number, pa.start_number))
    left = [i for i in range(n) if i not in matched]
    assert len(left) <= 1
    bye = p[left[0]].start_number if left else None
    scores = data.score_by_number
    ranks = data.rank_by_number

    def key(board: tuple[int, int]) -> tuple[int, int, int]:
        wh, bl = board
        hi, lo = (wh, bl) if (scores[wh], -ranks[wh]) >= (scores[bl], -ranks[bl]) else (bl, wh)
        return (-scores[hi], -scores[lo], rank_of[hi])

    rank_of = ranks
    boards.sort(key=key)
    return RoundPairing(tuple(boards), bye)


class _Bracket:
    """One bracket being paired: its MDPs and residents, the next score group, the rest.

    :meth:`solve` finds the best pairing of the bracket under the current tie-break, on a
    model as small as it can be trusted: at level 0 only the bracket's players are
    explicit, and a player left unpaired is assumed to go into the next score group (if
    it has an opponent there) or further down; at level ``k`` the next ``k`` score groups
    are explicit too; at the last level everything is. A result is accepted only if the
    players it leaves unpaired can really be absorbed below in a way that scores what the
    model assumed — then no pairing of the full field is better, because the model never
    scores a pairing lower than the full field would.
    """

    def __init__(self, rnd: _Round, g: int, mdps: list[int], remaining: int, single: bool) -> None:
        self.rnd = rnd
        self.g = g
        self.mdps = mdps
        groups = rnd.groups
        self.residents = [v for v in groups[g]] if g < len(groups) else []
        self.next = groups[g + 1] if g + 1 < len(groups) else []
        self.remaining = remaining
        self.single = single
        self.mdp_mask = sum(1 << v for v in mdps)
        self.res_mask = sum(1 << v for v in self.residents)
        self.next_mask = sum(1 << v for v in self.next)
        # the same as sets: _edge_quality asks for every pair of a model (hundreds of
        # thousands), and a set answers without shifting a bit set of the whole field
        self._mdp_set = frozenset(mdps)
        self._res_set = frozenset(self.residents)
        self._next_set = frozenset(self.next)
        self._zone_set = self._mdp_set | self._res_set | self._next_set
        self.score_next = rnd.p[self.next[0]].score if self.next else None
        # per level (-1: the whole field): the players it was built for, its edges
        # (player numbers and base weight) and the criteria's certificate, reused by the
        # next solve of this bracket on the same players less those paired meanwhile
        self._models: dict[int, tuple[int, list[tuple[int, int, int]], Criteria | None]] = {}
        self.level = 0  # the smallest model tried first

    def lower_mask(self, level: int) -> int:
        """The players of the score groups below the explicit ones and (at level 0) below
        the next score group."""
        groups = self.rnd.groups
        mask = 0
        for grp in groups[self.g + 1 + max(level, 1) :]:
            for v in grp:
                mask |= 1 << v
        return mask & self.remaining

    def solve(self, order: Order) -> dict[int, int]:
        rnd = self.rnd
        levels = len(rnd.groups) - self.g  # level = groups below the bracket made explicit
        # A model the bracket's first phase found too small is too small for its second
        # (what the field below cannot absorb is the same): start where the first ended.
        level = self.level
        total_left = bin(self.remaining).count("1")
        if total_left <= 24:
            level = levels
        while True:
            if level >= levels - 1:
                self.level = levels
                return self._solve_full(order)
            # (the test is not free: it is taken once a model of this round was refused)
            if not (rnd.refused and self._too_small(level)):
                result = self._solve_relaxed(level, order)
                if result is not None:
                    self.level = level
                    return result
                rnd.refused = True
            level = level + 1 if level < 2 else levels

    def _too_small(self, level: int) -> bool:
        """Whether the model of ``level`` is not worth solving: the field below it cannot
        pair within itself, short of more players than a best pairing of the model's own
        players leaves over to float down (each floater pairs one of them at most), so the
        model's answer would be refused unless it floated more players than it must. Taking
        a larger model instead is always exact; this only saves time."""
        rnd = self.rnd
        below = self.lower_mask(level)
        if level == 0:
            below |= self.next_mask & self.remaining
        spare = rnd.unpaired(self.remaining & ~below, stop_at=SHORT_ENOUGH)
        if spare >= SHORT_ENOUGH:
            return False
        cands = (rnd.cand_mask if rnd.odd else 0) & below
        return rnd.unpaired(below, cands, stop_at=spare + 1) > spare

    def _edge_quality(self, i: int, j: int) -> int:
        """The reference engine's weight (without the completion field) at this point."""
        rnd = self.rnd
        p = rnd.p
        w = rnd.weights
        if j in self._res_set:
            # the same for every pair of players with the same history: computed once
            bye = rnd.bye_bits(i, j, self.single)
            key = (rnd.kind[i], rnd.kind[j], bye)
            q = rnd.paired_quality.get(key)
            if q is None:
                q = rnd.paired_quality[key] = w.quality(
                    p[i], p[j], in_current=True, in_next=False, bye_bits=bye
                )
            return q
        if j in self._next_set and i in self._zone_set:
            return w.into_next(p[i].score, rnd.bye_bits(i, j, self.single))
        if i in self._mdp_set and j in self._mdp_set:
            return -1
        return w.outside(rnd.bye_bits(i, j, rnd.single0))

    def _edges(
        self, level: int, players: int, base: Callable[[int, int, int], int]
    ) -> list[tuple[int, int, int]]:
        """The compatible pairs among ``players`` (a bit set) with ``base(i, j, q) >= 0``
        (``q``: the pair's quality), as ``(i, j, base)``; taken from the last model of
        this level when it was built on a superset (the weights do not change while a
        bracket is being paired)."""
        cached = self._models.get(level)
        vertices = _members(players)
        if cached is not None and not players & ~cached[0]:
            # membership by index, not by shifting a bit set of a thousand players per edge
            inside = bytearray(cached[0].bit_length())
            for v in vertices:
                inside[v] = 1
            return [e for e in cached[1] if inside[e[0]] and inside[e[1]]]
        compat = self.rnd.compat
        edges: list[tuple[int, int, int]] = []
        for i in vertices:
            # the compatible players of the model after i, ascending
            for j in _members(compat[i] & players & ~((2 << i) - 1)):
                q = self._edge_quality(i, j)
                if q < 0:
                    continue
                b = base(i, j, q)
                if b >= 0:
                    edges.append((i, j, b))
        return edges

    def _match(
        self, level: int, players: int, edges: list[tuple[int, int, int]], order: Order
    ) -> dict[int, int]:
        vertices = _members(players)
        local = {g: k for k, g in enumerate(vertices)}
        cached = self._models.get(level)
        criteria = cached[2] if cached is not None else None
        mate, criteria = best_matching(
            vertices,
            [(local[i], local[j], b) for i, j, b in edges],
            order,
            criteria,
            self.rnd.decide_from,
            self.rnd.slow,
        )
        self._models[level] = (players, edges, criteria)
        return mate

    def _solve_full(self, order: Order) -> dict[int, int]:
        rnd = self.rnd
        qbits = rnd.qbits
        # 1 for each player who cannot take the bye (read once, not per pair)
        no_bye = [0 if rnd.cand(v) else 1 for v in range(rnd.n + 1)]

        def base(i: int, j: int, q: int) -> int:
            return ((1 + no_bye[i] + no_bye[j]) << qbits) + q

        edges = self._edges(-1, self.remaining, base)
        return self._match(-1, self.remaining, edges, order)

    def _solve_relaxed(self, level: int, order: Order) -> dict[int, int] | None:
        rnd = self.rnd
        w = rnd.weights
        lower = self.lower_mask(level)
        next_sink = level == 0 and bool(self.next)
        explicit = self.remaining & ~lower & ~(self.next_mask if next_sink else 0)
        vertices = _members(explicit)
        compat = rnd.compat
        must = 1 << (rnd.qbits + _bits(rnd.n) + 2)
        # the value of leaving each explicit player unpaired (floated below), and how
        into_next: dict[int, bool] = {}
        value: dict[int, int] = {}
        for v in vertices:
            options: list[int] = []
            goes_next = False
            if next_sink and (compat[v] & self.next_mask) and not (self.next_mask >> v) & 1:
                options.append(w.float_value(self.score_next, rnd.own_bye_bits(v, self.single)))
                goes_next = True
            elif compat[v] & lower:
                options.append(w.float_value(None, rnd.own_bye_bits(v, rnd.single0)))
            if rnd.odd and rnd.cand(v):
                options.append(0)
            value[v] = max(options) if options else -must
            into_next[v] = goes_next
        edges = self._edges(level, explicit, lambda i, j, q: q - value[i] - value[j])
        mate = self._match(level, explicit, edges, order)
        floated = [v for v in vertices if v not in mate]
        if any(value[v] < 0 for v in floated):
            return None
        if not self._absorbed(floated, lower, into_next, value, next_sink):
            return None
        return mate

    def _absorbed(
        self,
        floated: list[int],
        lower: int,
        into_next: dict[int, bool],
        value: dict[int, int],
        next_sink: bool,
    ) -> bool:
        """Whether the players ``floated`` can be placed below as the model assumed."""
        rnd = self.rnd
        compat = rnd.compat
        cands = rnd.cand_mask if rnd.odd else 0
        byeable = 0
        down = 0
        for v in floated:
            if value[v] == 0 and (cands >> v) & 1:
                byeable |= 1 << v
        if not next_sink:
            for v in floated:
                down |= 1 << v
            return rnd.perfect(down | lower, (cands & lower) | byeable, down)
        # Every floater with an opponent in the next group must get one there, the next
        # group must pair within itself (one player at most left over), and the rest of
        # the field must take what is left.
        nxt = self.next_mask & self.remaining
        capable = [v for v in floated if into_next[v]]
        taken = 0
        for v in capable:
            options = compat[v] & nxt & ~taken
            if not options:
                return False
            low = options & -options
            taken |= low
        left_next = nxt & ~taken
        members = _members(left_next)
        if len(members) % 2 == 0:
            if not rnd.perfect(left_next):
                return False
            leftover = 0
        else:
            # the first player the rest of the group can pair without
            can_leave = single_leftovers(rnd.compat, left_next, rnd.n)
            if not can_leave:
                return False
            leftover = can_leave & -can_leave
        rest = leftover
        for v in floated:
            if not into_next[v]:
                rest |= 1 << v
        apart = rest & ~leftover
        return rnd.perfect(rest | lower, (cands & (lower | leftover)) | byeable, apart)


def _pair_brackets(rnd: _Round) -> list[tuple[int, int]]:
    p = rnd.p
    groups = rnd.groups
    remaining = (1 << rnd.n) - 1
    pairs: list[tuple[int, int]] = []
    mdps: list[int] = []
    single = rnd.single0
    g = 0
    while True:
        residents = groups[g] if g < len(groups) else []
        nxt = groups[g + 1] if g + 1 < len(groups) else []
        if len(mdps) + len(residents) <= 1 and not nxt:
            break
        br = _Bracket(rnd, g, mdps, remaining, single)
        res_set = set(residents)
        if mdps:
            mate = br.solve(MdpOrder(mdps, residents))
            for m in mdps:
                r = mate.get(m, -1)
                if r in res_set:
                    pairs.append((m, r))
                    remaining &= ~((1 << m) | (1 << r))
            remainder = [v for v in residents if (remaining >> v) & 1]
        else:
            remainder = list(residents)
        br.remaining = remaining
        # The remainder's number of pairs is the same in all the best pairings (every pair
        # in the bracket counts in the criteria): the order takes it from the one it gets.
        mate = br.solve(RemainderOrder(remainder, counted=True))
        idx = set(remainder)
        for v in remainder:
            u = mate.get(v, -1)
            if u in idx and u > v:
                pairs.append((v, u))
                remaining &= ~((1 << v) | (1 << u))
        new_mdps = [v for v in mdps + remainder if (remaining >> v) & 1]
        single = False
        if rnd.odd and nxt and rnd.bye_score >= p[nxt[0]].score:
            inside = sum(1 << v for v in new_mdps) | sum(1 << v for v in nxt)
            apart = sum(1 << v for v in new_mdps)
            single = rnd.perfect(inside, rnd.cand_mask & inside, apart) and rnd.perfect(remaining & ~inside)
        mdps = new_mdps
        g += 1
    return pairs
