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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from clockd.core.swiss.dutch.colours import colour_of_first
from clockd.core.swiss.dutch.matching import max_cardinality_matching, max_weight_matching
from clockd.core.swiss.dutch.state import WHITE, PairingInput, PlayerState
from clockd.core.swiss.dutch.weights import Weights, compatible

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


class _Round:
    """The state of pairing one round: players in score order and what is decided."""

    def __init__(self, data: PairingInput) -> None:
        self.data = data
        players = sorted(data.players, key=lambda p: (-p.score, p.rank))
        self.p: list[PlayerState] = players
        n = self.n = len(players)
        played = data.round_number - 1
        self.played_rounds = played
        last_rounds = played >= data.total_rounds - 1
        threshold = played  # half of the maximum score, in half points
        # score groups, top down
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
        # compatibility as bit sets
        index = {pl.start_number: i for i, pl in enumerate(players)}
        compat: list[int] = []
        full = (1 << n) - 1
        for i, a in enumerate(players):
            mask = full & ~(1 << i)
            for sn in a.opponents:
                j = index.get(sn)
                if j is not None:
                    mask &= ~(1 << j)
            compat.append(mask)
        for i, a in enumerate(players):
            if not a.absolute:
                continue
            for j in range(i + 1, n):
                b = players[j]
                if (b.absolute and a.preference == b.preference
                        and not compatible(a, b, last_rounds, threshold)):
                    compat[i] &= ~(1 << j)
                    compat[j] &= ~(1 << i)
        self.compat = compat
        self.odd = n % 2 == 1
        self.bye_score = 0
        self.single0 = False
        self.ranks: dict[int, int] = {}

    # -- completion ----------------------------------------------------------------------
    def perfect(self, vertices: Sequence[int], bye_candidates: Sequence[int] = (),
                forbidden: int = 0) -> bool:
        """Whether ``vertices`` can all be paired (one of ``bye_candidates`` left out when
        their number is odd). ``forbidden`` is a bit set of vertices that may not meet each
        other."""
        vs = list(vertices)
        m = len(vs)
        local = {v: k for k, v in enumerate(vs)}
        member = 0
        for v in vs:
            member |= 1 << v
        adj: list[list[int]] = []
        for v in vs:
            mask = self.compat[v] & member
            if forbidden >> v & 1:
                mask &= ~forbidden
            row = []
            while mask:
                low = mask & -mask
                row.append(local[low.bit_length() - 1])
                mask ^= low
            adj.append(row)
        if m % 2:
            dummy = m
            row = [local[c] for c in bye_candidates if c in local]
            for k in row:
                adj[k].append(dummy)
            adj.append(row)
            m += 1
        mate = max_cardinality_matching(m, adj)
        return all(x != -1 for x in mate)

    def cand(self, i: int) -> bool:
        p = self.p[i]
        return p.bye_eligible and p.score <= self.bye_score


def pair_players(data: PairingInput) -> RoundPairing:
    """Pair one round. Raises :class:`NoValidPairing` when no pairing satisfies the
    absolute criteria."""
    rnd = _Round(data)
    p = rnd.p
    n = rnd.n
    if n == 0:
        return RoundPairing((), None)
    everyone = list(range(n))
    if rnd.odd:
        found = False
        for score in sorted({pl.score for pl in p if pl.bye_eligible}):
            cands = [i for i in everyone if p[i].bye_eligible and p[i].score == score]
            if rnd.perfect(everyone, cands):
                rnd.bye_score = score
                found = True
                break
        if not found:
            raise NoValidPairing("the players cannot all be paired with the bye going to a "
                                 "player allowed to have it")
        top = rnd.groups[0]
        if rnd.bye_score >= p[0].score:
            rest = everyone[len(top):]
            rnd.single0 = (rnd.perfect(top, [i for i in top if p[i].bye_eligible])
                           and rnd.perfect(rest))
        counts = sorted((pl.played_games for pl in p if pl.score == rnd.bye_score), reverse=True)
        for rank, games in enumerate(counts):
            rnd.ranks[games] = rank
    elif not rnd.perfect(everyone):
        raise NoValidPairing("the players cannot all be paired without breaking an absolute "
                             "criterion (a rematch, or two players who both must have the "
                             "same colour)")
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
    left = [i for i in everyone if i not in matched]
    assert len(left) <= 1
    bye = p[left[0]].start_number if left else None
    scores = data.score_by_number
    ranks = data.rank_by_number

    def key(board: tuple[int, int]) -> tuple[int, int, int]:
        wh, bl = board
        hi, lo = (wh, bl) if (scores[wh], -ranks[wh]) >= (scores[bl], -ranks[bl]) else (bl, wh)
        return (-scores[hi], -scores[lo], ranks[hi])

    boards.sort(key=key)
    return RoundPairing(tuple(boards), bye)


def _pair_brackets(rnd: _Round) -> list[tuple[int, int]]:
    p = rnd.p
    w = rnd.weights
    groups = rnd.groups
    remaining = set(range(rnd.n))
    pairs: list[tuple[int, int]] = []
    mdps: list[int] = []
    single = rnd.single0
    g = 0
    while True:
        residents = groups[g] if g < len(groups) else []
        nxt = groups[g + 1] if g + 1 < len(groups) else []
        if len(mdps) + len(residents) <= 1 and not nxt:
            break
        res_set = set(residents)
        next_set = set(nxt)
        mdp_set = set(mdps)
        zone = mdp_set | res_set | next_set

        def bye_bits(i: int, j: int, on: bool) -> int:
            if not on:
                return 0
            r = 0
            if p[i].score == rnd.bye_score:
                r += rnd.ranks[p[i].played_games]
            if p[j].score == rnd.bye_score:
                r += rnd.ranks[p[j].played_games]
            return r

        def base(i: int, j: int, single: bool = single, res_set: set[int] = res_set,
                 next_set: set[int] = next_set, zone: set[int] = zone,
                 mdp_set: set[int] = mdp_set) -> int:
            """The reference engine's edge weight at this point (i before j)."""
            if not (rnd.compat[i] >> j) & 1:
                return 0
            if i in mdp_set and j in mdp_set:
                return 0  # both floated from the bracket above: never paired together
            cf = 1 + (not rnd.cand(i)) + (not rnd.cand(j))
            if j in res_set:
                return w.base(p[i], p[j], compat_field=cf, in_current=True, in_next=False,
                              bye_bits=bye_bits(i, j, single))
            if j in next_set and i in zone:
                return w.base(p[i], p[j], compat_field=cf, in_current=False, in_next=True,
                              bye_bits=bye_bits(i, j, single))
            return w.base(p[i], p[j], compat_field=cf, in_current=False, in_next=False,
                          bye_bits=bye_bits(i, j, rnd.single0))

        # Phase 1: which MDPs are paired, and with whom.
        tb1, tb1_bits = _mdp_tiebreak(mdps, residents)
        mate = _solve(sorted(remaining), base, tb1, tb1_bits)
        for m in mdps:
            r = mate.get(m, -1)
            if r in res_set:
                pairs.append((m, r))
                remaining.discard(m)
                remaining.discard(r)
        remainder = [v for v in residents if v in remaining]
        rp = sum(1 for v in remainder if mate.get(v, -1) in res_set and mate[v] < v)

        # Phase 2: the remainder — exchanges, then each S1 player's opponent.
        tb2, tb2_bits = _remainder_tiebreak(remainder, rp)
        idx = {v: k for k, v in enumerate(remainder)}
        mate = _solve(sorted(remaining), base, tb2, tb2_bits)
        for v in remainder:
            u = mate.get(v, -1)
            if u in idx and u > v:
                pairs.append((v, u))
                remaining.discard(v)
                remaining.discard(u)
        new_mdps = [v for v in mdps + remainder if v in remaining]
        # Is the next bracket closed (it pairs within itself, the bye apart)?
        single = False
        if rnd.odd and nxt and rnd.bye_score >= p[nxt[0]].score:
            inside = set(new_mdps) | next_set
            single = all(mate.get(v, -1) in inside or v not in mate for v in inside)
        mdps = new_mdps
        g += 1
    return pairs


def _solve(vertices: list[int], base: Callable[[int, int], int],
           tb: Callable[[int, int], int], tb_bits: int) -> dict[int, int]:
    """A maximum-weight matching of ``vertices`` under ``base << tb_bits + tb``."""
    edges: list[tuple[int, int, int]] = []
    m = len(vertices)
    for a in range(m):
        i = vertices[a]
        for b in range(a + 1, m):
            j = vertices[b]
            bw = base(i, j)
            if bw:
                edges.append((a, b, (bw << tb_bits) + tb(i, j)))
    mate = max_weight_matching(m, edges)
    return {vertices[a]: vertices[b] for a, b in enumerate(mate) if b != -1}


def _mdp_tiebreak(mdps: list[int], residents: list[int]) -> tuple[Callable[[int, int], int], int]:
    """Tie-break bits for the MDP phase: pair the higher MDPs first (C.04.3 takes MDPs in
    order), then give each MDP, from the top, the highest resident it can have."""
    nm, nr = len(mdps), len(residents)
    rpos = {v: k for k, v in enumerate(residents)}
    mpos = {v: k for k, v in enumerate(mdps)}
    b3 = _bits(nr + 1)
    a3_bits = b3 * nm

    def tb(i: int, j: int) -> int:
        k = mpos.get(i)
        if k is None or j not in rpos:
            return 0
        return ((1 << (nm - 1 - k)) << a3_bits) + ((nr - rpos[j]) << (b3 * (nm - 1 - k)))

    return tb, nm + a3_bits + 2


def _remainder_tiebreak(remainder: list[int], rp: int) -> tuple[Callable[[int, int], int], int]:
    """Tie-break bits for the remainder (``rp`` pairs: S1 is its first ``rp`` players).

    In order of importance: fewest exchanges (pairs whose higher player is in S1), the
    smallest sum of the higher players' positions, the lowest S1 players exchanged out,
    the highest S2 players exchanged in, and each S1 player's opponent as high as possible.
    """
    nrem = len(remainder)
    idx = {v: k for k, v in enumerate(remainder)}
    n2 = nrem - rp
    b9 = _bits(nrem + 1)
    w9 = b9 * nrem + 1
    w7 = n2 + 1
    w6 = rp + 2
    ws = _bits(nrem * nrem + 1) + 1

    def tb(i: int, j: int) -> int:
        x = idx.get(i)
        z = idx.get(j)
        if x is None or z is None:
            return 0
        exch = 1 if x < rp else 0
        a6 = -(1 << x) if x < rp else 0
        a7 = (1 << (n2 - 1 - (x - rp))) if x >= rp else 0
        a9 = (nrem - z) << (b9 * (nrem - 1 - x))
        t = (exch << ws) - x
        t = (t << w6) + a6
        t = (t << w7) + a7
        return (t << w9) + a9

    return tb, _bits(rp + 1) + ws + w6 + w7 + w9 + 2
