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

That description, and the searches on it, are :mod:`.face`'s: blossoms no zero-slack edge
leaves get a stand-in, blossoms with leaving edges (an odd score group whose extra player
goes down) are searched as one contracted vertex. When the dual has a shape it does not
handle (a blossom inside a blossom inside a blossom), or the remainder needs more than one
exchange between S1 and S2, :func:`best_matching` falls back to the one weighted matching.

The remainder's number of pairs (which makes S1) is read from the criteria's best pairing
(:meth:`RemainderOrder.fit`): every pair inside the bracket counts in the criteria, so every
best pairing has as many.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from clockd.core.swiss.dutch.face import Criteria, Face, face_of
from clockd.core.swiss.dutch.matching import max_weight_matching, max_weight_matching_with_duals

__all__ = ["FAST_FROM", "Criteria", "MdpOrder", "Order", "RemainderOrder", "SlowPath", "best_matching"]

#: Explicit players from which a bracket is decided on the certificate; below it the one
#: weighted matching with the tie-break in the weight is as fast.
FAST_FROM = 20
#: Single exchanges tried on the certificate, in the rules' order, before the leaders are
#: taken from a weighted matching instead (each try is a search over the whole face).
ONE_EXCHANGE_TRIES = 32


def _bits(x: int) -> int:
    return max(1, x.bit_length())


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Order(Protocol):
    """A lexicographic preference among equally good pairings of a bracket."""

    @property
    def bits(self) -> int:
        """Width of :meth:`weight`'s sums over a matching (tie-break field)."""
        ...

    def weight(self, i: int, j: int) -> int:
        """The tie-break weight of pairing players ``i < j`` (global numbers)."""
        ...

    def decide(self, choice: Face, local: dict[int, int]) -> bool:
        """Take the order's decisions on ``choice`` (players by local number through
        ``local``); False when the certificate cannot decide them here."""
        ...

    @property
    def fitted(self) -> bool:
        """Whether the order knows what :meth:`fit` tells it."""
        ...

    def fit(self, mate: Mapping[int, int]) -> Order:
        """This order for a bracket of which ``mate`` is one best pairing by the criteria
        (global numbers): what it needs to know of the best pairings before it decides."""
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

    fitted = True

    def fit(self, mate: Mapping[int, int]) -> MdpOrder:
        return self

    def weight(self, i: int, j: int) -> int:
        k = self.mpos.get(i)
        if k is None or j not in self.rpos:
            return 0
        nm, nr = len(self.mdps), len(self.residents)
        return ((1 << (nm - 1 - k)) << self.a3_bits) + ((nr - self.rpos[j]) << (self.b3 * (nm - 1 - k)))

    def decide(self, choice: Face, local: dict[int, int]) -> bool:
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

    ``rp`` is the number of pairs the remainder has in the best pairings (bbpPairings
    counts it in its matching before it orders the remainder); ``None`` takes it from the
    criteria's best pairing (:meth:`fit`), which gives it exactly when ``counted``.
    """

    def __init__(self, remainder: list[int], rp: int | None = None, counted: bool = False) -> None:
        self.remainder = remainder
        self.fitted = rp is not None
        rp = len(remainder) // 2 if rp is None else rp
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

    def fit(self, mate: Mapping[int, int]) -> RemainderOrder:
        if self.fitted:
            return self
        idx = self.idx
        pairs = sum(1 for v, u in mate.items() if v < u and v in idx and u in idx)
        return RemainderOrder(self.remainder, pairs, self.counted)

    def weight(self, i: int, j: int) -> int:
        x = self.idx.get(i)
        z = self.idx.get(j)
        if x is None or z is None:
            return 0
        nrem = len(self.remainder)
        a9 = (nrem - z) << (self.b9 * (nrem - 1 - x))
        return self.leader_weight(i, j) + a9

    def leader_weight(self, i: int, j: int) -> int:
        """:meth:`weight` without its last field (each leader's opponent): what chooses the
        leaders, S1 less the players exchanged out plus those exchanged in."""
        x = self.idx.get(i)
        z = self.idx.get(j)
        if x is None or z is None:
            return 0
        rp = self.rp
        x = min(x, z)
        exch = 1 if x < rp else 0
        a6 = -(1 << x) if x < rp else 0
        a7 = (1 << (self.n2 - 1 - (x - rp))) if x >= rp else 0
        t = (exch << self.ws) - x
        t = (t << self.w6) + a6
        t = (t << self.w7) + a7
        return t << self.w9

    def decide_leaders(self, choice: Face, local: dict[int, int], leaders: list[int]) -> bool:
        """Take the last decisions with the leaders given (global numbers, as the other
        fields choose them): each leader, from the top, against the highest follower."""
        rem = [local[g] for g in self.remainder if g in local]
        if len(rem) != len(self.remainder) or any(g not in local for g in leaders):
            return False
        return self._pair_with_leaders(choice, rem, sorted(local[g] for g in leaders))

    def decide(self, choice: Face, local: dict[int, int]) -> bool:
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
            # No pairs in the remainder, in every best pairing when they all have the same
            # number; otherwise a pair led by the first S2 player is not outweighed here.
            return self.counted
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
        # A few of the exchanges, in the fields' order; past them (or for more exchanges) the
        # leaders come from one weighted matching (``_best_leaders``), exact but dearer.
        budget = ONE_EXCHANGE_TRIES
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
    def _pair_with_leaders(choice: Face, rem: list[int], leaders: list[int]) -> bool:
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


class SlowPath:
    """Where a pairing fell back to the one weighted matching although its bracket was large
    enough for the certificate (what a benchmark reports): ``(players, kind)`` per model,
    ``kind`` the order's class name; and, beside them, the size of each model that the
    certificate did decide (``decided``)."""

    def __init__(self) -> None:
        self.models: list[tuple[int, str]] = []
        self.decided: list[int] = []

    @property
    def largest(self) -> int:
        return max((m for m, _ in self.models), default=0)

    @property
    def largest_decided(self) -> int:
        return max(self.decided, default=0)


def best_matching(
    vertices: list[int],
    edges: list[tuple[int, int, int]],
    order: Order,
    criteria: Criteria | None = None,
    decide_from: int = FAST_FROM,
    slow: SlowPath | None = None,
) -> tuple[dict[int, int], Criteria | None]:
    """The maximum-weight matching of ``vertices`` (global player numbers, ascending)
    under the weight ``(base << order.bits) + order.weight(i, j)``: the best pairing by
    the criteria, and among those the one ``order`` prefers.

    ``edges`` are ``(a, b, base)`` on local numbers ``a < b``, ``base >= 0`` (a pair
    worth no more than leaving both players unpaired has base 0). From ``decide_from``
    players on, the order's decisions are taken on the criteria's certificate (computed,
    or ``criteria`` from an earlier phase of the same bracket when it applies); otherwise,
    or when the certificate cannot decide, by one weighted matching (recorded in ``slow``).
    Returns the pairing (each paired player mapped to its partner) and the certificate to
    reuse, if any.
    """
    m = len(vertices)
    if m >= decide_from:
        prior = criteria.restricted_to(vertices) if criteria is not None else None
        if prior is None:
            prior = _criteria(vertices, edges)
        order = order.fit(prior.mate)
        result = _decide(vertices, edges, order, prior)
        if result is not None:
            prior.mate = result
            if slow is not None:
                slow.decided.append(m)
            return result, prior
        if slow is not None:
            slow.models.append((m, type(order).__name__))
    elif not order.fitted:
        order = order.fit(_criteria(vertices, edges).mate)
    bits = order.bits
    weighted: list[tuple[int, int, int]] = []
    for a, b, base in edges:
        wt = (base << bits) + order.weight(vertices[a], vertices[b])
        if wt > 0:
            weighted.append((a, b, wt))
    mate = max_weight_matching(m, weighted)
    return {vertices[a]: vertices[b] for a, b in enumerate(mate) if b != -1}, None


def _criteria(vertices: list[int], edges: list[tuple[int, int, int]]) -> Criteria:
    """Solve the criteria alone: the certificate of the bracket's best pairings."""
    cert = max_weight_matching_with_duals(len(vertices), [e for e in edges if e[2] > 0])
    return Criteria(
        duals={g: cert.duals[k] for k, g in enumerate(vertices)},
        blossom_duals=[z for z, _, _ in cert.blossoms],
        blossom_parent=[parent for _, _, parent in cert.blossoms],
        chains={g: cert.chains[k] for k, g in enumerate(vertices) if cert.chains[k]},
        mate={g: vertices[u] for g, u in zip(vertices, cert.mate, strict=True) if u != -1},
    )


def _decide(
    vertices: list[int], edges: list[tuple[int, int, int]], order: Order, crit: Criteria
) -> dict[int, int] | None:
    """Take ``order``'s decisions among the pairings ``crit`` describes; None if the
    certificate's shape or the order's case is not one handled here."""
    face = face_of(vertices, edges, crit)
    if face is None:
        return None
    m = len(vertices)
    tight = face.tight[:m]
    local = {g: k for k, g in enumerate(vertices)}
    if not order.decide(face, local):
        if not isinstance(order, RemainderOrder) or not order.counted:
            return None
        # Several exchanges: the leaders by one weighted matching on the zero-slack pairs
        # with every field but the last, then the last field on the certificate.
        leaders = _best_leaders(vertices, edges, order, tight, crit)
        face = face_of(vertices, edges, crit)
        if face is None or not order.decide_leaders(face, local, leaders):
            return None
    return {vertices[a]: vertices[b] for a, b in enumerate(face.mate[:m]) if 0 <= b < m}


def _best_leaders(
    vertices: list[int],
    edges: list[tuple[int, int, int]],
    order: RemainderOrder,
    tight: list[int],
    crit: Criteria,
) -> list[int]:
    """The remainder's leaders in the best pairing (global numbers): a weighted matching with
    the criteria and the exchange fields in the weight, on the pairs of zero slack only (a
    best pairing uses no other), so its weights stay few.

    The criteria enter that weight not as their own (hundreds of bits, a score of distinct
    values) but as what the certificate ``crit`` makes of them on zero-slack pairs: a pair
    of zero slack is worth exactly its players' duals and its common blossoms' duals, so a
    matching of such pairs falls short of the best by what it leaves uncovered (a player of
    positive dual single, a positive blossom not full). Counting each of those as one unit
    instead of its dual changes how much a matching falls short but not which matchings do
    not: the best pairings are the same set, and among them the exchange fields choose as
    before (they fix the leaders: one field holds the S1 leaders, one the S2 leaders, as
    bit sets). On the worst known round (1000 players, a remainder of 203 needing three
    exchanges) this takes the matching from 9 s to 3: its weights are 1 + 2 small integers
    wide, not 1857 bits, and the algorithm meets far fewer blossoms.

    The last field (each leader's opponent) is left out of :meth:`RemainderOrder.leader_weight`
    as a factor ``2**w9``; it is divided out here, which leaves the same best matching.
    """
    shift = order.w9
    bits = order.bits - shift
    positive = [1 if crit.duals[g] > 0 else 0 for g in vertices]
    chains = [crit.chains.get(g, ()) for g in vertices]
    weighted: list[tuple[int, int, int]] = []
    for a, b, _base in edges:
        if (tight[a] >> b) & 1:
            # twice the pair's worth in units: its players' positive duals, and 2 for each
            # positive blossom holding both (chains list them outermost first)
            units = positive[a] + positive[b]
            for x, z in zip(chains[a], chains[b], strict=False):
                if x != z:
                    break
                units += 2
            wt = (units << bits) + (order.leader_weight(vertices[a], vertices[b]) >> shift)
            if wt > 0:
                weighted.append((a, b, wt))
    mate = max_weight_matching(len(vertices), weighted)
    idx = order.idx
    return [
        min(vertices[a], vertices[b])
        for a, b in enumerate(mate)
        if b > a and vertices[a] in idx and vertices[b] in idx
    ]
