"""Maximum-weight matching in a general graph (Edmonds' blossom algorithm, primal–dual).

The pairing engine states every FIDE criterion as part of one integer edge weight, most
important criterion in the highest bits, so "the best pairing" is exactly "the matching of
maximum total weight". Weights are Python integers of any size; the algorithm uses only
integer arithmetic (duals are kept doubled), so huge lexicographic weights are exact.

The implementation follows the classic O(n³) formulation (Galil, "Efficient algorithms for
finding maximum matching in graphs", 1986, as van Rantwijk wrote it): stages that grow
alternating trees from every free vertex, shrink odd cycles into blossoms, and adjust the
dual variables by the smallest slack until an augmenting path appears or no further
improvement is possible. It is the only weighted matching of the project (networkx's
``max_weight_matching`` checks it in the tests, and is no dependency of the engine).

Ties. Where several matchings have the maximum weight, which one comes back is fixed by
the order the algorithm visits vertices in, which depends on the graph alone (vertex
numbers and weights, not the order the edges are listed in): it is deterministic, but not
"the first" in any sense the rules know, and the engine never relies on it. Every order
the rules impose is in the weight (the tie-break fields of :mod:`.ordering`) or decided
on the certificate, which describes all the best matchings at once. (Until this was the
one implementation, weights with many distinct values went to a second one, edge by
edge, which breaks such ties otherwise; every corpus round pairs the same with either.)

The unweighted search that checks whether players can all be paired is
:mod:`.bitsearch`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from clockd.core.swiss.dutch.bitsearch import bits_of as _bits_of

__all__ = [
    "Certificate",
    "max_weight_matching",
    "max_weight_matching_with_duals",
    "rows_of",
    "solve_rows",
]


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """A matching of maximum total weight; ``mate[v]`` is ``v``'s partner or ``-1``.

    ``edges`` are ``(u, v, weight)`` with ``0 <= u, v < n``, ``u != v``, each pair at most
    once. Edges of weight ≤ 0 are never worth taking and may be left out by the caller.
    """
    return max_weight_matching_with_duals(n, edges).mate


@dataclass(frozen=True)
class Certificate:
    """A maximum-weight matching with the optimal dual solution that proves it.

    Duals are doubled (so they stay integers): an edge ``(u, v, w)`` has the slack
    ``duals[u] + duals[v] - 2*w + 2*(sum of the duals of the blossoms holding both u and
    v)``, never negative (:meth:`slack`). By complementary slackness, a matching has
    maximum weight exactly when it uses edges of zero slack only, covers every vertex whose
    dual is positive, and pairs all but one vertex of each blossom with a positive dual
    inside it: this describes *every* optimal matching at once, which is what lets the
    engine choose among equally good pairings without solving another matching.
    """

    mate: list[int]
    duals: list[int]
    #: the blossoms with a positive dual: (dual, members as a bit set, the index of the
    #: smallest such blossom around it or -1)
    blossoms: list[tuple[int, int, int]]
    #: for each vertex, the indices of the positive blossoms holding it, outermost first
    chains: list[tuple[int, ...]]

    def slack(self, u: int, v: int, w: int) -> int:
        s = self.duals[u] + self.duals[v] - 2 * w
        for a, b in zip(self.chains[u], self.chains[v], strict=False):
            if a != b:
                break
            s += 2 * self.blossoms[a][0]
        return s


def max_weight_matching_with_duals(n: int, edges: Sequence[tuple[int, int, int]]) -> Certificate:
    """:func:`max_weight_matching` with its optimality certificate."""
    return solve_rows(n, rows_of(n, edges))


def rows_of(n: int, edges: Sequence[tuple[int, int, int]]) -> list[dict[int, int]]:
    """Edges ``(u, v, weight)`` as rows: ``rows[v][weight]`` is the bit set of ``v``'s
    neighbours by an edge of that weight."""
    rows: list[dict[int, int]] = [{} for _ in range(n)]
    for i, j, w in edges:
        ri, rj = rows[i], rows[j]
        ri[w] = ri.get(w, 0) | (1 << j)
        rj[w] = rj.get(w, 0) | (1 << i)
    return rows


def solve_rows(n: int, rows: Sequence[Mapping[int, int]]) -> Certificate:
    """Edmonds' algorithm on rows (:func:`rows_of`): edges as bit sets by weight.

    The brackets it solves are mostly dense (nearly every pair of a score group can meet)
    and their criteria take few distinct values. So the edges are kept as bit sets, one per
    vertex and distinct weight, and the vertices in buckets by dual value: the zero-slack
    edges at a vertex are then a few bit-set intersections, not a pass over its
    neighbours, and the smallest slack the dual adjustment needs is found from the buckets
    when it is needed, instead of being tracked edge by edge (a dense bracket forms
    thousands of blossoms but needs only a handful of adjustments). An edge needs no
    number: its endpoints are numbered from the two vertices (``2 * (a * n + b)`` and the
    next, ``a < b``), as the algorithm's bookkeeping wants them.

    Weights that are nearly all distinct (a small bracket with the tie-break in the weight,
    or the fallback of :func:`~.ordering.best_matching`) make each row a single
    neighbour; the smallest slack then walks each outer vertex's rows from the heaviest
    edge down and stops as soon as no lighter edge can give less (``smallest_slack``), which
    keeps a dual adjustment near the cost of the edges that can matter, and a group's
    figures are carried from one adjustment to the next within a stage. (Tracking each
    edge's slack, as the textbook does, was the second implementation: faster when every
    bracket of 200-300 players is forced onto the tie-break weight, which no corpus round
    does, slower on the dense brackets and on the leaders' matching.)
    """
    nvertex = n
    weights = [w for row in rows for w, bits in row.items() if bits]
    if not weights:
        return Certificate([-1] * n, [0] * n, [], [()] * n)
    maxweight = max(0, max(weights))
    # each vertex's own rows, as (twice the weight, neighbours), heaviest first: a vertex has
    # edges of a few of the weights only, tight_at (the innermost step) reads them all, and
    # smallest_slack reads them down to the first that cannot matter
    own_rows = [sorted(((2 * w, bits) for w, bits in row.items() if bits), reverse=True) for row in rows]
    neighbours = [_union(row.values()) for row in rows]
    own_by_weight = [dict(mine) for mine in own_rows]

    def endpoint(p: int) -> int:
        a, b = divmod(p >> 1, nvertex)
        return b if p & 1 else a

    def end_at(v: int, u: int) -> int:
        """The endpoint ``u`` has on the edge ``v``–``u``."""
        return 2 * (v * nvertex + u) + 1 if v < u else 2 * (u * nvertex + v)

    mate = [-1] * nvertex  # remote endpoint index of the matched edge, or -1
    label = [0] * (2 * nvertex)
    labelend = [-1] * (2 * nvertex)
    inblossom = list(range(nvertex))
    blossomparent = [-1] * (2 * nvertex)
    blossomchilds: list[list[int] | None] = [None] * (2 * nvertex)
    blossombase = list(range(nvertex)) + [-1] * nvertex
    blossomendps: list[list[int] | None] = [None] * (2 * nvertex)
    unusedblossoms = list(range(nvertex, 2 * nvertex))
    dualvar = [maxweight] * nvertex + [0] * nvertex
    queue: list[int] = []
    by_dual: dict[int, int] = {}
    leafmask: dict[int, int] = {}  # blossom -> its vertices
    # smallest_slack's figures per outer group, for the next call in the same stage
    remembered: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}

    def bucket() -> None:
        by_dual.clear()
        for v in range(nvertex):
            d = dualvar[v]
            by_dual[d] = by_dual.get(d, 0) | (1 << v)

    def tight_at(v: int) -> int:
        """The vertices joined to ``v`` by a zero-slack edge (ignoring blossom duals: right
        for every edge between two top-level blossoms)."""
        dv = dualvar[v]
        out = 0
        mine = own_rows[v]
        if len(mine) <= len(by_dual):
            get = by_dual.get
            for tw, row in mine:
                same = get(tw - dv)
                if same:
                    out |= row & same
        else:  # more weights at v than duals in the graph: look the weights up instead
            at = own_by_weight[v].get
            for du, those in by_dual.items():
                hit = at(dv + du)
                if hit:
                    out |= hit & those
        return out

    weight_at: dict[int, dict[int, int]] = {}  # v -> neighbour -> twice the weight, if wanted

    def twice_weight(v: int, u: int) -> int:
        """Twice the weight of the edge ``v``–``u`` (0 if none)."""
        mine = own_rows[v]
        if len(mine) <= 8:
            for tw, row in mine:
                if (row >> u) & 1:
                    return tw
            return 0
        table = weight_at.get(v)
        if table is None:
            table = weight_at[v] = {x: tw for tw, row in mine for x in _bits_of(row)}
        return table.get(u, 0)

    def blossom_leaves(b: int) -> list[int]:
        if b < nvertex:
            return [b]
        known = leafmask.get(b)
        if known is not None:
            return _bits_of(known)
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < nvertex:
                out.append(t)
            else:
                childs = blossomchilds[t]
                assert childs is not None
                stack.extend(childs)
        return out

    def assign_label(w: int, t: int, p: int) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        if t == 1:
            queue.extend(blossom_leaves(b))
        else:
            base = blossombase[b]
            assign_label(endpoint(mate[base]), 1, mate[base] ^ 1)

    def scan_blossom(v: int, w: int) -> int:
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint(labelend[b])
                b = inblossom[v]
                v = endpoint(labelend[b])
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w = endpoint(2 * k), endpoint(2 * k + 1)
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint(labelend[bv])
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint(labelend[bw])
            bw = inblossom[w]
        blossomchilds[b] = path
        blossomendps[b] = endps
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        leaves = 0
        for child in path:
            leaves |= leafmask[child] if child >= nvertex else 1 << child
        leafmask[b] = leaves
        for leaf in blossom_leaves(b):
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b

    def expand_blossom(b: int, endstage: bool) -> None:
        childs = blossomchilds[b]
        assert childs is not None
        for s in childs:
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for leaf in blossom_leaves(s):
                    inblossom[leaf] = s
        if not endstage and label[b] == 2:
            endps = blossomendps[b]
            assert endps is not None
            entrychild = inblossom[endpoint(labelend[b] ^ 1)]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = labelend[b]
            while j != 0:
                label[endpoint(p ^ 1)] = 0
                label[endpoint(endps[j - endptrick] ^ endptrick ^ 1)] = 0
                assign_label(endpoint(p ^ 1), 2, p)
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                j += jstep
            bv = childs[j]
            label[endpoint(p ^ 1)] = label[bv] = 2
            labelend[endpoint(p ^ 1)] = labelend[bv] = p
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                found = -1
                for v in blossom_leaves(bv):
                    if label[v] != 0:
                        found = v
                        break
                if found != -1:
                    v = found
                    label[v] = 0
                    label[endpoint(mate[blossombase[bv]])] = 0
                    assign_label(v, 2, labelend[v])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        leafmask.pop(b, None)
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            augment_blossom(t, v)
        childs = blossomchilds[b]
        endps = blossomendps[b]
        assert childs is not None and endps is not None
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= nvertex:
                augment_blossom(t, endpoint(p))
            j += jstep
            t = childs[j]
            if t >= nvertex:
                augment_blossom(t, endpoint(p ^ 1))
            mate[endpoint(p)] = p ^ 1
            mate[endpoint(p ^ 1)] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[childs[i]]

    def augment_matching(k: int) -> None:
        v, w = endpoint(2 * k), endpoint(2 * k + 1)
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint(labelend[bs])
                bt = inblossom[t]
                s = endpoint(labelend[bt])
                j = endpoint(labelend[bt] ^ 1)
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    def pair_greedily() -> None:
        # Pair single vertices along zero-slack edges between them: each such edge is an
        # augmenting path of length one, so this is what the next stages would do, one
        # stage per edge; on a bracket where most pairs are equally good that is most of
        # the work, and here it is one pass.
        single = 0
        for v in range(nvertex):
            if mate[v] == -1:
                single |= 1 << v
        rest = single
        while rest:
            low = rest & -rest
            rest ^= low
            v = low.bit_length() - 1
            if not (single >> v) & 1:
                continue
            bv = inblossom[v]
            own = low if bv == v else _mask(blossom_leaves(bv))
            options = tight_at(v) & single & ~own
            if options:
                w = (options & -options).bit_length() - 1
                p = end_at(v, w)
                mate[v] = p
                mate[w] = p ^ 1
                single &= ~(low | (1 << w))

    def augment_short() -> None:
        # Augmenting paths of length three on zero-slack edges between vertices in no
        # blossom (single - paired - paired - single): each would cost a stage of its own.
        loose = 0
        single = 0
        for v in range(nvertex):
            if inblossom[v] == v:
                loose |= 1 << v
                if mate[v] == -1:
                    single |= 1 << v
        tight: dict[int, int] = {}  # the duals stay put here: each vertex's tight set once
        for v in _bits_of(single):
            if not (single >> v) & 1:
                continue
            options = tight_at(v) & loose & ~single
            while options:
                low = options & -options
                options ^= low
                u = low.bit_length() - 1
                w = endpoint(mate[u])
                if not (loose >> w) & 1:
                    continue
                at_w = tight.get(w)
                if at_w is None:
                    at_w = tight[w] = tight_at(w)
                ends = at_w & single & ~(1 << v)
                if ends:
                    x = (ends & -ends).bit_length() - 1
                    pv, px = end_at(v, u), end_at(w, x)
                    mate[v], mate[u] = pv, pv ^ 1
                    mate[w], mate[x] = px, px ^ 1
                    single &= ~((1 << v) | (1 << x))
                    break

    def smallest_slack() -> tuple[int, int, int, int]:
        """The least slack of an edge from an outer (S) vertex to a vertex of an unlabelled
        top-level blossom, and the least half slack between two outer top-level blossoms
        (-1 where there is none), with the outer vertices of the edges that have them: the
        ones to look at again once the duals have moved by that much.

        The outer vertices go by group (a top-level blossom's, of one dual), each group's
        edges from the heaviest down, until even the least dual on the other side would give
        no less than the group's best so far. Within a stage a group's figures are
        remembered for the next call, moved by the duals' change since (its duals and the
        unlabelled vertices' move alike): until a blossom is expanded, vertices only leave
        the unlabelled ones and only join the outer ones, so a least slack stays while one
        vertex that gave it is still unlabelled, and a least half slack needs only the
        vertices near the group that have become outer since."""
        outer = unlabelled = 0
        for v in range(nvertex):
            lab = label[inblossom[v]]
            if lab == 1:
                outer |= 1 << v
            elif lab == 0:
                unlabelled |= 1 << v
        free_buckets = sorted((d, bits & unlabelled) for d, bits in by_dual.items() if bits & unlabelled)
        outer_buckets = sorted((d, bits & outer) for d, bits in by_dual.items() if bits & outer)
        best2 = best3 = -1
        at2 = at3 = 0
        groups: dict[tuple[int, int], int] = {}  # (top-level blossom, dual) -> its outer vertices
        for v in _bits_of(outer):
            key = (inblossom[v], dualvar[v])
            groups[key] = groups.get(key, 0) | (1 << v)
        least_free = free_buckets[0][0] if free_buckets else 0
        least_outer = outer_buckets[0][0] if outer_buckets else 0
        for (b, d), members in groups.items():
            inside = members if b < nvertex else leafmask[b]
            own = [b] if b < nvertex else _bits_of(members)
            near = neighbours[b] if b < nvertex else _union(neighbours[v] for v in own)
            # the group's least slack and half slack (-1: none), and some of the unlabelled
            # vertices that give the first
            low2 = low3 = -1
            arg2 = 0
            want2 = bool(near & unlabelled)  # still to be found by walking the edges
            want3 = bool(near & outer & ~inside)
            known = remembered.get((b, members))
            if known is not None:
                d0, k2, a2, k3, seen = known
                if k2 == -1 or a2 & unlabelled:
                    low2 = k2 if k2 == -1 else k2 - (d0 - d)
                    arg2, want2 = a2 & unlabelled, False
                low3 = k3 if k3 == -1 else k3 - (d0 - d)
                want3 = False
                for u in _bits_of(near & outer & ~seen & ~inside):
                    du = dualvar[u]
                    for v in own:
                        tw = twice_weight(v, u)
                        if tw and (low3 == -1 or (d + du - tw) // 2 < low3):
                            low3 = (d + du - tw) // 2
            if want2 or want3:
                # the group's neighbours by weight, heaviest first: a vertex's own rows,
                # or their union over a blossom's outer vertices
                if b < nvertex:
                    reach_by: Iterable[tuple[int, int]] = own_rows[b]
                else:
                    union: dict[int, int] = {}
                    for v in own:
                        for tw, row in own_rows[v]:
                            union[tw] = union.get(tw, 0) | row
                    reach_by = sorted(union.items(), reverse=True)
                for tw, reach in reach_by:
                    if want2 and low2 != -1 and d + least_free - tw >= low2:
                        want2 = False
                    if want3 and low3 != -1 and (d + least_outer - tw) // 2 >= low3:
                        want3 = False
                    if not (want2 or want3):
                        break
                    free = reach & unlabelled if want2 else 0
                    if free:
                        if free & (free - 1) == 0:  # one neighbour (weights nearly all distinct)
                            du = dualvar[free.bit_length() - 1]
                            hit = free
                        else:
                            du, hit = next((du, free & bits) for du, bits in free_buckets if free & bits)
                        s = d + du - tw
                        if low2 == -1 or s < low2:
                            low2, arg2 = s, hit
                        elif s == low2:
                            arg2 |= hit
                    others = reach & outer & ~inside if want3 else 0
                    if others:
                        if others & (others - 1) == 0:
                            du = dualvar[others.bit_length() - 1]
                        else:
                            du = next(du for du, bits in outer_buckets if others & bits)
                        s = (d + du - tw) // 2
                        if low3 == -1 or s < low3:
                            low3 = s
            remembered[b, members] = (d, low2, arg2, low3, outer)
            if low2 != -1:
                if best2 == -1 or low2 < best2:
                    best2, at2 = low2, members
                elif low2 == best2:
                    at2 |= members
            if low3 != -1:
                if best3 == -1 or low3 < best3:
                    best3, at3 = low3, members
                elif low3 == best3:
                    at3 |= members
        return best2, best3, at2, at3

    fresh = True  # zero-slack edges may have appeared between single vertices
    bucket()
    for _stage in range(nvertex):
        if fresh:
            pair_greedily()
            augment_short()
            fresh = False
        label[:] = [0] * (2 * nvertex)
        remembered.clear()
        queue.clear()
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                bv = inblossom[v]
                tight = tight_at(v) & ~(leafmask[bv] if bv >= nvertex else 1 << v)

                while tight:
                    low = tight & -tight
                    tight ^= low
                    w = low.bit_length() - 1
                    bw = inblossom[w]
                    bv = inblossom[v]
                    if bv == bw:
                        continue
                    p = end_at(v, w)
                    lab = label[bw]
                    if lab == 0:
                        assign_label(w, 2, p ^ 1)
                    elif lab == 1:
                        base = scan_blossom(v, w)
                        if base >= 0:
                            add_blossom(base, p >> 1)
                        else:
                            augment_matching(p >> 1)
                            augmented = True
                            break
                    elif label[w] == 0:
                        label[w] = 2
                        labelend[w] = p ^ 1
            if augmented:
                break
            # No zero-slack edge left to follow: adjust the duals by the smallest amount
            # that makes one (or ends the stage).
            deltatype = 1
            delta = min(dualvar[:nvertex])
            deltablossom = -1
            d2, d3, at2, at3 = smallest_slack()
            if d2 != -1 and d2 < delta:
                delta, deltatype = d2, 2
            if d3 != -1 and d3 < delta:
                delta, deltatype = d3, 3
            for b in range(nvertex, 2 * nvertex):
                if blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2 and dualvar[b] < delta:
                    delta = dualvar[b]
                    deltatype = 4
                    deltablossom = b
            fresh = fresh or delta != 0
            for v in range(nvertex):
                lab = label[inblossom[v]]
                if lab == 1:
                    dualvar[v] -= delta
                elif lab == 2:
                    dualvar[v] += delta
            for b in range(nvertex, 2 * nvertex):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta
            if delta:
                bucket()
            if deltatype == 1:
                break
            # the outer vertices with an edge the adjustment made of zero slack
            again = (at2 if d2 == delta else 0) | (at3 if d3 == delta else 0)
            if deltatype == 4:
                expand_blossom(deltablossom, False)
                remembered.clear()  # its vertices may be unlabelled again
            queue.extend(_bits_of(again))
        if not augmented:
            break
        for b in range(nvertex, 2 * nvertex):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)

    result = [-1] * nvertex
    for v in range(nvertex):
        if mate[v] >= 0:
            result[v] = endpoint(mate[v])
    positive = [b for b in range(nvertex, 2 * nvertex) if blossombase[b] >= 0 and dualvar[b] > 0]
    number = {b: k for k, b in enumerate(positive)}
    blossoms: list[tuple[int, int, int]] = []
    for b in positive:
        members = 0
        for leaf in blossom_leaves(b):
            members |= 1 << leaf
        t = blossomparent[b]
        while t != -1 and t not in number:
            t = blossomparent[t]
        blossoms.append((dualvar[b], members, number.get(t, -1)))
    chains: list[tuple[int, ...]] = []
    for v in range(nvertex):
        chain: list[int] = []
        t = blossomparent[v]
        while t != -1:
            if t in number:
                chain.append(number[t])
            t = blossomparent[t]
        chains.append(tuple(reversed(chain)))
    return Certificate(result, dualvar[:nvertex], blossoms, chains)


def _mask(vertices: Sequence[int]) -> int:
    out = 0
    for v in vertices:
        out |= 1 << v
    return out


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
