"""Among the pairings the criteria rank equal, the one the rules' order prefers.

The quality criteria (C.04.3 C1–C21, :mod:`.weights`) leave many pairings equally good in a
large bracket; the rules then prefer one by an *order*: the higher moved-down players
paired first, each against the highest resident it can have; in the remainder, the fewest
exchanges between S1 and S2, and each S1 player against the highest S2 player it can have.
Each of these is a lexicographic preference, so it can be written as a tie-break weight
below the criteria (:class:`MdpOrder`, :class:`RemainderOrder`) and solved as one weighted
matching. That is exact, and cheap on small brackets, but on a bracket of hundreds of
players almost every pair then has its own weight and the matching algorithm needs a dual
adjustment for nearly every one: minutes of pure Python.

So on large brackets the engine solves the matching **once, for the criteria alone**, and
keeps its optimal dual solution (:class:`~.matching.Certificate`). By complementary
slackness that dual describes every pairing that is as good as the best one: those that use
only edges of zero slack, cover every player whose dual is positive, and leave exactly one
player of each positive blossom unpaired inside it. The order's decisions are then taken
one at a time, as the rules state them, each by asking whether a pairing of that
description still exists with the decision made — an augmenting-path search on bit sets,
not a weighted matching. The result is the same matching the tie-break weight selects,
because among equally good pairings that weight is exactly that sequence of decisions.

When the dual has a shape this does not handle (nested positive blossoms, or a positive
blossom with a zero-slack edge leaving it), or the remainder needs more than one exchange
between S1 and S2 (or is to have no pairs at all), :func:`best_matching` falls back to the
one weighted matching. In the corpus that happens only where 24 players or fewer are left to
pair; no larger bracket needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from clockd.core.swiss.dutch.matching import max_weight_matching, max_weight_matching_with_duals

__all__ = ["FAST_FROM", "Criteria", "MdpOrder", "Order", "RemainderOrder", "best_matching"]

#: Explicit players from which a bracket is decided on the certificate; below it the one
#: weighted matching with the tie-break in the weight is as fast.
FAST_FROM = 20


def _bits(x: int) -> int:
    return max(1, x.bit_length())


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class _Choice:
    """The pairings as good as the best one, and the decisions taken so far.

    Vertices are the bracket's explicit players (local numbers ``0..m-1``) followed by one
    stand-in per positive blossom: the blossom's player left unpaired inside it is paired
    with its stand-in, so "exactly one unpaired" becomes "everyone paired". ``adj`` holds
    the zero-slack edges still allowed, ``req`` the vertices that must be paired, ``mate``
    a pairing of that description, ``active`` the vertices not yet settled.
    """

    def __init__(self, m: int, adj: list[int], mate: list[int], req: int) -> None:
        self.m = m
        self.size = len(adj)
        self.adj = adj
        self.mate = mate
        self.req = req
        self.tight = list(adj)  # every zero-slack edge, before any decision
        self.req0 = req
        self.active = (1 << self.size) - 1
        self.free = 0
        for v, u in enumerate(mate):
            if u == -1:
                self.free |= 1 << v

    # -- changing the allowed edges ---------------------------------------------------
    def forbid(self, v: int, mask: int) -> None:
        """No edge between ``v`` and the vertices in ``mask`` may be used any more (the
        caller unpairs ``v`` if its partner is among them)."""
        drop = self.adj[v] & mask
        self.adj[v] &= ~mask
        while drop:
            low = drop & -drop
            drop ^= low
            self.adj[low.bit_length() - 1] &= ~(1 << v)

    def unpair(self, v: int) -> int:
        u = self.mate[v]
        if u != -1:
            self.mate[v] = self.mate[u] = -1
            self.free |= (1 << v) | (1 << u)
        return u

    def settle(self, a: int, b: int) -> None:
        """Pair ``a`` with ``b`` for good (both must be paired with each other)."""
        self.mate[a], self.mate[b] = b, a
        self.free &= ~((1 << a) | (1 << b))
        self.active &= ~((1 << a) | (1 << b))

    # -- snapshots ----------------------------------------------------------------------
    def save(self) -> tuple[list[int], list[int], int, int, int]:
        return list(self.adj), list(self.mate), self.req, self.active, self.free

    def restore(self, snap: tuple[list[int], list[int], int, int, int]) -> None:
        adj, mate, self.req, self.active, self.free = snap
        self.adj = list(adj)
        self.mate = list(mate)

    # -- the search ---------------------------------------------------------------------
    def cover(self, vertices: Sequence[int]) -> bool:
        """Pair every required vertex among ``vertices`` that is active and unpaired,
        changing the pairing along augmenting paths; False if one cannot be."""
        for v in vertices:
            if (
                v != -1
                and (self.active >> v) & 1
                and self.mate[v] == -1
                and (self.req >> v) & 1
                and not self._augment_from(v)
            ):
                return False
        return True

    def _augment_from(self, root: int) -> bool:
        """Edmonds' search from the unpaired ``root`` for a path to an unpaired vertex, or
        to a vertex that need not be paired (which then gives up its partner): after it,
        ``root`` is paired and every vertex that was paired still is, except that one.

        Neighbourhoods are bit sets, so a vertex's whole neighbourhood is classified at
        once; the edges between two outer vertices (which only matter through odd cycles)
        are looked at only when the tree cannot grow otherwise.
        """
        adj = self.adj
        mate = self.mate
        active = self.active
        optional = ~self.req
        targets = self.free & active & ~(1 << root)
        parent = [-1] * self.size
        base = list(range(self.size))
        members: dict[int, int] = {}
        outer = 1 << root
        inner = 0
        queue = [root]
        qi = 0
        pending: list[int] = []
        while True:
            while qi < len(queue):
                v = queue[qi]
                qi += 1
                if v != root and (optional >> v) & 1:
                    self._flip(v, -1, parent, root)
                    return True
                nb = adj[v] & active
                hit = nb & targets
                if hit:
                    self._flip(v, _low(hit), parent, root)
                    return True
                grow = nb & ~outer & ~inner
                while grow:
                    low = grow & -grow
                    grow ^= low
                    if outer & low:
                        continue  # the partner of a vertex just reached: an odd cycle
                    u = low.bit_length() - 1
                    parent[u] = v
                    inner |= low
                    w = mate[u]
                    outer |= 1 << w
                    queue.append(w)
                pending.append(v)
            grown = False
            while pending and not grown:
                v = pending.pop()
                odd = adj[v] & active & outer
                while odd:
                    low = odd & -odd
                    odd ^= low
                    u = low.bit_length() - 1
                    if base[u] == base[v] or mate[v] == u:
                        continue
                    new = self._shrink(v, u, base, parent, members) & ~outer
                    if new:
                        outer |= new
                        inner &= ~new
                        while new:
                            low = new & -new
                            new ^= low
                            queue.append(low.bit_length() - 1)
                        grown = True
            if not grown:
                return False

    def _shrink(self, v: int, u: int, base: list[int], parent: list[int], members: dict[int, int]) -> int:
        """Contract the odd cycle closed by the edge ``v``–``u``; return its vertices."""
        mate = self.mate
        seen = set()
        a = v
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        b = u
        while True:
            b = base[b]
            if b in seen:
                break
            b = parent[mate[b]]
        top = b
        bases: set[int] = set()
        for x, child in ((v, u), (u, v)):
            while base[x] != top:
                bases.add(base[x])
                bases.add(base[mate[x]])
                parent[x] = child
                child = mate[x]
                x = parent[mate[x]]
        union = members.get(top, 1 << top)
        for bb in bases:
            union |= members.pop(bb, 1 << bb)
        members[top] = union
        rest = union
        while rest:
            low = rest & -rest
            rest ^= low
            base[low.bit_length() - 1] = top
        return union

    def _flip(self, v: int, to: int, parent: list[int], root: int) -> None:
        """Augment along the tree path from ``root`` to the outer vertex ``v``, then the
        edge to ``to`` (or, when ``to`` is -1, leave ``v`` unpaired)."""
        mate = self.mate
        self.free &= ~(1 << root)
        if to == -1:
            u = mate[v]
            mate[v] = -1
            self.free |= 1 << v
        else:
            self.free &= ~(1 << to)
            u = mate[v]
            mate[v] = to
            mate[to] = v
        while u != -1:
            pv = parent[u]
            ppv = mate[pv]
            mate[u] = pv
            mate[pv] = u
            u = ppv

    # -- decisions ----------------------------------------------------------------------
    def try_pair(self, a: int, b: int) -> bool:
        """Settle ``a``–``b`` if a pairing of the description has them together."""
        if self.mate[a] == b:
            self.settle(a, b)
            return True
        snap = self.save()
        pa = self.unpair(a)
        pb = self.unpair(b)
        self.settle(a, b)
        if self.cover((pa, pb)):
            return True
        self.restore(snap)
        return False


class Order(Protocol):
    """A lexicographic preference among equally good pairings of a bracket."""

    @property
    def bits(self) -> int:
        """Width of :meth:`weight`'s sums over a matching (tie-break field)."""
        ...

    def weight(self, i: int, j: int) -> int:
        """The tie-break weight of pairing players ``i < j`` (global numbers)."""
        ...

    def decide(self, choice: _Choice, local: dict[int, int]) -> bool:
        """Take the order's decisions on ``choice`` (players by local number through
        ``local``); False when the certificate cannot decide them here."""
        ...


class MdpOrder:
    """The MDP phase: pair the higher moved-down players first (C.04.3 takes MDPs in
    order), then give each MDP, from the top, the highest resident it can have."""

    def __init__(self, mdps: list[int], residents: list[int]) -> None:
        self.mdps = mdps
        self.residents = residents
        self.rpos = {v: k for k, v in enumerate(residents)}
        self.mpos = {v: k for k, v in enumerate(mdps)}
        nm, nr = len(mdps), len(residents)
        self.b3 = _bits(nr + 1)
        self.a3_bits = self.b3 * nm
        self.bits = nm + self.a3_bits + 2

    def weight(self, i: int, j: int) -> int:
        k = self.mpos.get(i)
        if k is None or j not in self.rpos:
            return 0
        nm, nr = len(self.mdps), len(self.residents)
        return ((1 << (nm - 1 - k)) << self.a3_bits) + ((nr - self.rpos[j]) << (self.b3 * (nm - 1 - k)))

    def decide(self, choice: _Choice, local: dict[int, int]) -> bool:
        res_mask = 0
        for r in self.residents:
            if r in local:
                res_mask |= 1 << local[r]
        paired: list[int] = []
        for g in self.mdps:
            if g not in local:
                continue
            v = local[g]
            current = choice.mate[v]
            if current != -1 and (res_mask >> current) & 1:
                choice.forbid(v, ~res_mask)
                choice.req |= 1 << v
                paired.append(v)
                continue
            snap = choice.save()
            choice.forbid(v, ~res_mask)
            was = choice.unpair(v)
            choice.req |= 1 << v
            if choice.adj[v] & res_mask and choice.cover((v, was)):
                paired.append(v)
            else:
                choice.restore(snap)
                choice.forbid(v, res_mask)
        for v in paired:
            current = choice.mate[v]
            options = choice.adj[v] & choice.active & res_mask & ((1 << current) - 1)
            while options:
                r = _low(options)
                options &= options - 1
                if choice.try_pair(v, r):
                    break
            else:
                choice.settle(v, current)
        return True


class RemainderOrder:
    """The remainder (``rp`` pairs: S1 is its first ``rp`` players).

    In order of importance: fewest exchanges (pairs whose higher player is in S1), the
    smallest sum of the higher players' positions, the lowest S1 players exchanged out,
    the highest S2 players exchanged in, and each S1 player's opponent as high as possible.
    """

    def __init__(self, remainder: list[int], rp: int, counted: bool = False) -> None:
        self.remainder = remainder
        self.rp = rp
        #: every pair inside the bracket counts in the criteria (C6), so all the best
        #: pairings have the same number of them: then one exchange can be decided here
        self.counted = counted
        nrem = len(remainder)
        self.idx = {v: k for k, v in enumerate(remainder)}
        self.n2 = nrem - rp
        self.b9 = _bits(nrem + 1)
        self.w9 = self.b9 * nrem + 1
        self.w7 = self.n2 + 1
        self.w6 = rp + 2
        self.ws = _bits(nrem * nrem + 1) + 1
        self.bits = _bits(rp + 1) + self.ws + self.w6 + self.w7 + self.w9 + 2

    def weight(self, i: int, j: int) -> int:
        x = self.idx.get(i)
        z = self.idx.get(j)
        if x is None or z is None:
            return 0
        rp, nrem = self.rp, len(self.remainder)
        exch = 1 if x < rp else 0
        a6 = -(1 << x) if x < rp else 0
        a7 = (1 << (self.n2 - 1 - (x - rp))) if x >= rp else 0
        a9 = (nrem - z) << (self.b9 * (nrem - 1 - x))
        t = (exch << self.ws) - x
        t = (t << self.w6) + a6
        t = (t << self.w7) + a7
        return (t << self.w9) + a9

    def decide(self, choice: _Choice, local: dict[int, int]) -> bool:
        # Decided here: the remainder without exchanges, or with one. Write L for the
        # players who are the higher of their pair inside the remainder (the "leaders").
        # Without exchanges L = S1: every S1 player against an S2 player. When a best
        # pairing of that kind exists, the exchange fields are at their maximum for it
        # and for no other kind (an S1-S1 pair leaves an S1 player out of L; an extra
        # pair led by an S2 player adds its position to the sum), so only the last field,
        # each leader's opponent, is left. With one exchange, L = S1 - {x} + {y}: the
        # candidates are tried in the fields' order (the smallest y - x, then the largest
        # x), and the first that a best pairing allows is the one.
        rp = self.rp
        if rp == 0:
            return False  # then a pair led by the first S2 player is not outweighed
        rem = [local[g] for g in self.remainder if g in local]
        if len(rem) != len(self.remainder):
            return False
        snap = choice.save()
        if self._pair_with_leaders(choice, rem, rem[:rp]):
            return True
        choice.restore(snap)
        # One exchange. Every best pairing must have the same number of pairs inside the
        # remainder (rp): pairs inside the bracket are counted by the criteria, and no
        # moved-down player left over can take a remainder player at zero slack.
        if not self.counted:
            return False
        rem_mask = sum(1 << v for v in rem)
        above = (1 << rem[0]) - 1
        if any(choice.tight[v] & above for v in rem):
            return False
        inside = sum(1 for v in rem if choice.mate[v] > v and (rem_mask >> choice.mate[v]) & 1)
        if inside != rp:
            return False
        budget = 4 * len(rem)
        n = len(rem)
        for d in range(1, n):
            for x in range(rp - 1, max(rp - d, 0) - 1, -1):
                y = x + d
                if y >= n:
                    continue
                budget -= 1
                if budget < 0:
                    return False
                choice.restore(snap)
                leaders = [v for k, v in enumerate(rem[:rp]) if k != x] + [rem[y]]
                if self._pair_with_leaders(choice, rem, sorted(leaders)):
                    return True
        return False

    @staticmethod
    def _pair_with_leaders(choice: _Choice, rem: list[int], leaders: list[int]) -> bool:
        """Restrict ``choice`` to pairings whose pairs inside the remainder ``rem`` are
        exactly one leader and a lower follower each, every leader paired; then give
        each leader, from the top, the highest follower it can have. False (``choice``
        left restricted) when no best pairing has these leaders."""
        rem_mask = sum(1 << v for v in rem)
        lead = sum(1 << v for v in leaders)
        follow = rem_mask & ~lead
        tight = choice.tight
        adj = choice.adj
        for v in range(choice.size):
            if (lead >> v) & 1:
                adj[v] = tight[v] & follow & ~((2 << v) - 1)
            elif (follow >> v) & 1:
                adj[v] = tight[v] & ((lead & ((1 << v) - 1)) | ~rem_mask)
            else:
                adj[v] = tight[v] & ~lead
        choice.req = choice.req0 | lead
        for v in range(choice.size):
            u = choice.mate[v]
            if u != -1 and not (adj[v] >> u) & 1:
                choice.unpair(v)
        if not choice.cover(list(range(choice.size))):
            return False
        for v in leaders:
            current = choice.mate[v]
            options = adj[v] & choice.active & ((1 << current) - 1)
            while options:
                z = _low(options)
                options &= options - 1
                if choice.try_pair(v, z):
                    break
            else:
                choice.settle(v, current)
        return True


@dataclass
class Criteria:
    """A bracket's best pairings by the criteria alone, by player number: the optimal
    duals, the positive blossoms (none nested), and one best pairing (the last one the
    order chose).

    Taking pairs out of the bracket that are paired with each other in ``mate`` leaves a
    certificate of the smaller bracket (the duals still cover every edge, and the rest of
    ``mate`` still meets complementary slackness), so the next phase of the same bracket
    needs no new matching: see :meth:`restricted_to`.
    """

    duals: dict[int, int]
    blossom_duals: list[int]
    blossom_of: dict[int, int]  # player -> its positive blossom (absent: none)
    mate: dict[int, int]

    def restricted_to(self, vertices: list[int]) -> Criteria | None:
        """The certificate for ``vertices``, or None if they are not this bracket less
        pairs of ``mate``."""
        duals = self.duals
        if len(vertices) > len(duals) or any(g not in duals for g in vertices):
            return None
        kept = set(vertices)
        mate = self.mate
        for g in duals:
            if g not in kept:
                partner = mate.get(g)
                if partner is None or partner in kept:
                    return None
        return Criteria(
            duals, self.blossom_duals, self.blossom_of, {g: u for g, u in mate.items() if g in kept}
        )


def best_matching(
    vertices: list[int],
    edges: list[tuple[int, int, int]],
    order: Order,
    criteria: Criteria | None = None,
    decide_from: int = FAST_FROM,
) -> tuple[dict[int, int], Criteria | None]:
    """The maximum-weight matching of ``vertices`` (global player numbers, ascending)
    under the weight ``(base << order.bits) + order.weight(i, j)``: the best pairing by
    the criteria, and among those the one ``order`` prefers.

    ``edges`` are ``(a, b, base)`` on local numbers ``a < b``, ``base >= 0`` (a pair
    worth no more than leaving both players unpaired has base 0). From ``decide_from``
    players on, the order's decisions are taken on the criteria's certificate (computed,
    or ``criteria`` from an earlier phase of the same bracket when it applies); otherwise,
    or when the certificate cannot decide, by one weighted matching. Returns the pairing
    (each paired player mapped to its partner) and the certificate to reuse, if any.
    """
    m = len(vertices)
    if m >= decide_from:
        prior = criteria.restricted_to(vertices) if criteria is not None else None
        if prior is None:
            prior = _criteria(vertices, edges)
        if prior is not None:
            result = _decide(vertices, edges, order, prior)
            if result is not None:
                prior.mate = result
                return result, prior
    bits = order.bits
    weighted: list[tuple[int, int, int]] = []
    for a, b, base in edges:
        wt = (base << bits) + order.weight(vertices[a], vertices[b])
        if wt > 0:
            weighted.append((a, b, wt))
    mate = max_weight_matching(m, weighted)
    return {vertices[a]: vertices[b] for a, b in enumerate(mate) if b != -1}, None


def _criteria(vertices: list[int], edges: list[tuple[int, int, int]]) -> Criteria | None:
    """Solve the criteria alone; None when the certificate has nested positive blossoms."""
    cert = max_weight_matching_with_duals(len(vertices), [e for e in edges if e[2] > 0])
    if any(parent != -1 for _, _, parent in cert.blossoms):
        return None
    return Criteria(
        duals={g: cert.duals[k] for k, g in enumerate(vertices)},
        blossom_duals=[z for z, _, _ in cert.blossoms],
        blossom_of={g: cert.chains[k][0] for k, g in enumerate(vertices) if cert.chains[k]},
        mate={g: vertices[u] for g, u in zip(vertices, cert.mate, strict=True) if u != -1},
    )


def _decide(
    vertices: list[int], edges: list[tuple[int, int, int]], order: Order, crit: Criteria
) -> dict[int, int] | None:
    """Take ``order``'s decisions among the pairings ``crit`` describes; None if the
    certificate's shape or the order's case is not one handled here."""
    m = len(vertices)
    local = {g: k for k, g in enumerate(vertices)}
    y = [crit.duals[g] for g in vertices]
    numbers: dict[int, int] = {}  # positive blossoms present, renumbered from 0
    blossom_of = [-1] * m
    for k, g in enumerate(vertices):
        b = crit.blossom_of.get(g)
        if b is not None:
            blossom_of[k] = numbers.setdefault(b, len(numbers))
    zs = [0] * len(numbers)
    for b, k in numbers.items():
        zs[k] = crit.blossom_duals[b]
    size = m + len(zs)
    adj = [0] * size
    for a, b, base in edges:
        s = y[a] + y[b] - 2 * base
        ka = blossom_of[a]
        if ka != -1 and ka == blossom_of[b]:
            s += 2 * zs[ka]
        if s == 0:
            if ka != blossom_of[b]:
                return None  # a zero-slack edge leaves a positive blossom
            adj[a] |= 1 << b
            adj[b] |= 1 << a
    mate = [-1] * size
    for g, u in crit.mate.items():
        mate[local[g]] = local[u]
    req = 0
    for v in range(m):
        if y[v] > 0 or blossom_of[v] != -1:
            req |= 1 << v
    for k in range(len(zs)):
        d = m + k
        req |= 1 << d
        for v in range(m):
            if blossom_of[v] == k and y[v] == 0:
                adj[d] |= 1 << v
                adj[v] |= 1 << d
                if mate[v] == -1 and mate[d] == -1:
                    mate[v], mate[d] = d, v
    choice = _Choice(m, adj, mate, req)
    if not choice.cover(list(range(size))):
        return None  # cannot happen with an optimal certificate; be safe
    if not order.decide(choice, local):
        return None
    return {vertices[a]: vertices[b] for a, b in enumerate(choice.mate[:m]) if 0 <= b < m}
