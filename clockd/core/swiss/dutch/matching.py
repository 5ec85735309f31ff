"""Maximum-weight matching in a general graph (Edmonds' blossom algorithm, primal–dual).

The pairing engine states every FIDE criterion as part of one integer edge weight, most
important criterion in the highest bits, so "the best pairing" is exactly "the matching of
maximum total weight". Weights are Python integers of any size; the algorithm uses only
integer arithmetic (duals are kept doubled), so huge lexicographic weights are exact.

The implementation follows the classic O(n³) formulation (Galil, "Efficient algorithms for
finding maximum matching in graphs", 1986): stages that grow alternating trees from every
free vertex, shrink odd cycles into blossoms, and adjust the dual variables by the
smallest slack until an augmenting path appears or no further improvement is possible.

:func:`perfect_matching_exists` is the unweighted check that a set of players can still
all be paired (the completion criterion).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Certificate",
    "augment_bits",
    "max_weight_matching",
    "max_weight_matching_with_duals",
    "perfect_matching_exists",
    "search_bits",
    "unmatched_count",
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


#: From this many distinct weights on, edges are followed one by one (:func:`_edgewise`);
#: below it they are bit sets by weight (:func:`_by_weight`).
FEW_WEIGHTS = 128


def max_weight_matching_with_duals(n: int, edges: Sequence[tuple[int, int, int]]) -> Certificate:
    """:func:`max_weight_matching` with its optimality certificate."""
    if not edges:
        return Certificate([-1] * n, [0] * n, [], [()] * n)
    if len({w for _, _, w in edges}) < FEW_WEIGHTS:
        return by_weight(n, rows_of(n, edges))
    return _edgewise(n, edges)


def _by_weight(n: int, edges: Sequence[tuple[int, int, int]]) -> Certificate:
    """:func:`by_weight` on a list of edges."""
    return by_weight(n, rows_of(n, edges))


def rows_of(n: int, edges: Sequence[tuple[int, int, int]]) -> list[dict[int, int]]:
    """Edges ``(u, v, weight)`` as rows: ``rows[v][weight]`` is the bit set of ``v``'s
    neighbours by an edge of that weight."""
    rows: list[dict[int, int]] = [{} for _ in range(n)]
    for i, j, w in edges:
        ri, rj = rows[i], rows[j]
        ri[w] = ri.get(w, 0) | (1 << j)
        rj[w] = rj.get(w, 0) | (1 << i)
    return rows


def by_weight(n: int, rows: Sequence[Mapping[int, int]]) -> Certificate:
    """Edmonds' algorithm for weights with few distinct values, on rows (:func:`rows_of`).

    The brackets it solves are dense (nearly every pair of a score group can meet) and
    their weights take few distinct values (the criteria's fields). So the edges are kept
    as bit sets, one per vertex and distinct weight, and the vertices in buckets by dual
    value: the zero-slack edges at a vertex are then a few bit-set intersections, not a
    pass over its neighbours, and the smallest slack the dual adjustment needs is found
    from the buckets when it is needed, instead of being tracked edge by edge (a dense
    bracket forms thousands of blossoms but needs only a handful of adjustments). An edge
    needs no number: its endpoints are numbered from the two vertices (``2 * (a * n + b)``
    and the next, ``a < b``), as the algorithm's bookkeeping wants them.
    """
    nvertex = n
    weights = sorted({w for row in rows for w, bits in row.items() if bits}, reverse=True)
    if not weights:
        return Certificate([-1] * n, [0] * n, [], [()] * n)
    maxweight = max(0, weights[0])
    twice_w = [2 * w for w in weights]
    nbits = [[row.get(w, 0) for row in rows] for w in weights]  # nbits[c][v]: by a weight-c edge
    classes = range(len(weights))
    # each vertex's own rows, as (twice the weight, neighbours): a vertex has edges of a few
    # of the classes only, and tight_at is the algorithm's innermost step
    own_rows = [[(2 * w, bits) for w, bits in row.items() if bits] for row in rows]

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
        get = by_dual.get
        for tw, row in own_rows[v]:
            same = get(tw - dv)
            if same:
                out |= row & same
        return out

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
                ends = tight_at(w) & single & ~(1 << v)
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
        ones to look at again once the duals have moved by that much."""
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
        for (b, d), members in groups.items():
            inside = members if b < nvertex else leafmask[b]
            own = _bits_of(members)
            for c in classes:
                row = nbits[c]
                reach = 0
                for v in own:
                    reach |= row[v]
                if not reach:
                    continue
                if reach & unlabelled:
                    for du, bits in free_buckets:
                        if reach & bits:
                            s = d + du - twice_w[c]
                            if best2 == -1 or s < best2:
                                best2, at2 = s, members
                            elif s == best2:
                                at2 |= members
                            break
                others = reach & outer & ~inside
                if others:
                    for du, bits in outer_buckets:
                        if others & bits:
                            s = (d + du - twice_w[c]) // 2
                            if best3 == -1 or s < best3:
                                best3, at3 = s, members
                            elif s == best3:
                                at3 |= members
                            break
        return best2, best3, at2, at3

    fresh = True  # zero-slack edges may have appeared between single vertices
    bucket()
    for _stage in range(nvertex):
        if fresh:
            pair_greedily()
            augment_short()
            fresh = False
        label[:] = [0] * (2 * nvertex)
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


def _bits_of(mask: int) -> list[int]:
    """The members of the bit set ``mask``, ascending. A dense set of hundreds of players
    is read from its binary string (one C-level pass), a sparse one bit by bit."""
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


def _mask(vertices: Sequence[int]) -> int:
    out = 0
    for v in vertices:
        out |= 1 << v
    return out


def _edgewise(n: int, edges: Sequence[tuple[int, int, int]]) -> Certificate:
    """Galil's O(n³) formulation as van Rantwijk wrote it, each edge's slack tracked: for
    weights that are (nearly) all different, as the tie-break in the weight makes them."""
    if not edges:
        return Certificate([-1] * n, [0] * n, [], [()] * n)
    nedge = len(edges)
    nvertex = n
    maxweight = max(0, max(w for _, _, w in edges))

    endpoint = [0] * (2 * nedge)
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k, (i, j, _w) in enumerate(edges):
        endpoint[2 * k] = i
        endpoint[2 * k + 1] = j
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)
    ends_u = [i for i, _, _ in edges]
    ends_v = [j for _, j, _ in edges]
    twice = [2 * w for _, _, w in edges]
    # each vertex's edges as (remote endpoint, edge, neighbour, twice the weight): what the
    # scan of a vertex reads, in one tuple
    around = [[(p, p >> 1, endpoint[p], twice[p >> 1]) for p in ends] for ends in neighbend]
    by_twice: dict[int, list[int]] = {}  # twice a weight -> the edges of that weight
    for k, tk in enumerate(twice):
        by_twice.setdefault(tk, []).append(k)

    mate = [-1] * nvertex  # remote endpoint index of the matched edge, or -1
    label = [0] * (2 * nvertex)
    labelend = [-1] * (2 * nvertex)
    inblossom = list(range(nvertex))
    blossomparent = [-1] * (2 * nvertex)
    blossomchilds: list[list[int] | None] = [None] * (2 * nvertex)
    blossombase = list(range(nvertex)) + [-1] * nvertex
    blossomendps: list[list[int] | None] = [None] * (2 * nvertex)
    bestedge = [-1] * (2 * nvertex)
    blossombestedges: list[list[int] | None] = [None] * (2 * nvertex)
    unusedblossoms = list(range(nvertex, 2 * nvertex))
    dualvar = [maxweight] * nvertex + [0] * nvertex
    allowedge = [False] * nedge
    queue: list[int] = []

    def slack(k: int) -> int:
        return dualvar[ends_u[k]] + dualvar[ends_v[k]] - twice[k]

    def blossom_leaves(b: int) -> list[int]:
        if b < nvertex:
            return [b]
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
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(blossom_leaves(b))
        else:
            base = blossombase[b]
            assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

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
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w = endpoint[2 * k], endpoint[2 * k + 1]
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
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        blossomchilds[b] = path
        blossomendps[b] = endps
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        for leaf in blossom_leaves(b):
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b
        bestedgeto = [-1] * (2 * nvertex)
        bestslack: dict[int, int] = {}  # bj -> slack of bestedgeto[bj] (duals do not move here)
        for bv in path:
            bbe = blossombestedges[bv]
            if bbe is None:
                nblists = [[p // 2 for p in neighbend[leaf]] for leaf in blossom_leaves(bv)]
            else:
                nblists = [bbe]
            for nblist in nblists:
                for kk in nblist:
                    j = endpoint[2 * kk + 1]
                    if inblossom[j] == b:
                        j = endpoint[2 * kk]
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1:
                        sk = dualvar[ends_u[kk]] + dualvar[ends_v[kk]] - twice[kk]
                        if bestedgeto[bj] == -1 or sk < bestslack[bj]:
                            bestedgeto[bj] = kk
                            bestslack[bj] = sk
            blossombestedges[bv] = None
            bestedge[bv] = -1
        blossombestedges[b] = [kk for kk in bestedgeto if kk != -1]
        bestedge[b] = -1
        for kk in blossombestedges[b] or ():
            if bestedge[b] == -1 or slack(kk) < slack(bestedge[b]):
                bestedge[b] = kk

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
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
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
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                allowedge[p // 2] = True
                j += jstep
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
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
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(v, 2, labelend[v])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
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
                augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= nvertex:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[childs[i]]

    def augment_matching(k: int) -> None:
        v, w = endpoint[2 * k], endpoint[2 * k + 1]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    def pair_greedily() -> None:
        # Pair single vertices along zero-slack edges between them: each such edge is an
        # augmenting path of length one, so this is what the next stages would do, one
        # stage per edge; on a bracket where most pairs are equally good that is most of
        # the work, and here it is one pass.
        #
        # The single vertices all have the same dual (they are the roots of every stage and
        # move together), so such an edge weighs exactly that dual: only the vertices on an
        # edge of that weight between two single ones are looked at, in the same order. (On a
        # leaders' matching most of these passes find nothing, and a pass over every single
        # vertex's edges cost a quarter of the time.)
        duals = {dualvar[v] for v in range(nvertex) if mate[v] == -1}
        if len(duals) == 1:
            (d,) = duals
            ends: set[int] = set()
            for k in by_twice.get(2 * d, ()):
                i, j = ends_u[k], ends_v[k]
                if mate[i] == -1 and mate[j] == -1:
                    ends.add(i)
                    ends.add(j)
            candidates: Iterable[int] = sorted(ends)
        else:
            candidates = range(nvertex)
        for v in candidates:
            if mate[v] != -1:
                continue
            dv = dualvar[v]
            bv = inblossom[v]
            for p in neighbend[v]:
                w = endpoint[p]
                if mate[w] == -1 and inblossom[w] != bv and dv + dualvar[w] == twice[p >> 1]:
                    mate[v] = p
                    mate[w] = p ^ 1
                    break

    fresh = True  # zero-slack edges may have appeared between single vertices
    for _stage in range(nvertex):
        if fresh:
            pair_greedily()
            fresh = False
        label[:] = [0] * (2 * nvertex)
        bestedge[:] = [-1] * (2 * nvertex)
        blossombestedges[nvertex:] = [None] * nvertex
        allowedge[:] = [False] * nedge
        queue.clear()
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                bv = inblossom[v]
                dv = dualvar[v]  # (duals move only between scans)
                for p, k, w, tk in around[v]:
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    if allowedge[k]:
                        kslack = 0
                    else:
                        kslack = dv + dualvar[w] - tk
                        if kslack <= 0:
                            allowedge[k] = True
                    if kslack <= 0:
                        lab = label[bw]
                        if lab == 0:
                            assign_label(w, 2, p ^ 1)
                        elif lab == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                                bv = inblossom[v]
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[bw] == 1:
                        kb = bestedge[bv]
                        if kb == -1 or kslack < dualvar[ends_u[kb]] + dualvar[ends_v[kb]] - twice[kb]:
                            bestedge[bv] = k
                    elif label[w] == 0:
                        kb = bestedge[w]
                        if kb == -1 or kslack < dualvar[ends_u[kb]] + dualvar[ends_v[kb]] - twice[kb]:
                            bestedge[w] = k
            if augmented:
                break
            deltatype = -1
            delta = 0
            deltaedge = deltablossom = -1
            # No max-cardinality requirement: vertices may stay single.
            deltatype = 1
            delta = min(dualvar[:nvertex])
            for v in range(nvertex):
                kb = bestedge[v]
                if kb != -1 and label[inblossom[v]] == 0:
                    d = dualvar[ends_u[kb]] + dualvar[ends_v[kb]] - twice[kb]
                    if d < delta:
                        delta = d
                        deltatype = 2
                        deltaedge = bestedge[v]
            for b in range(2 * nvertex):
                kb = bestedge[b]
                if kb != -1 and label[b] == 1 and blossomparent[b] == -1:
                    d = (dualvar[ends_u[kb]] + dualvar[ends_v[kb]] - twice[kb]) // 2
                    if d < delta:
                        delta = d
                        deltatype = 3
                        deltaedge = bestedge[b]
            for b in range(nvertex, 2 * nvertex):
                if (
                    blossombase[b] >= 0
                    and blossomparent[b] == -1
                    and label[b] == 2
                    and (deltatype == -1 or dualvar[b] < delta)
                ):
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
            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j = endpoint[2 * deltaedge], endpoint[2 * deltaedge + 1]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i = endpoint[2 * deltaedge]
                queue.append(i)
            elif deltatype == 4:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in range(nvertex, 2 * nvertex):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)

    result = [-1] * nvertex
    for v in range(nvertex):
        if mate[v] >= 0:
            result[v] = endpoint[mate[v]]
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


def perfect_matching_exists(vertices: Sequence[int], neighbours: Callable[[int], int], size: int) -> bool:
    """Whether every vertex of ``vertices`` can be matched.

    The graph is given by ``neighbours(v)``, a bit set of ``v``'s neighbours (bit ``u`` set
    for neighbour ``u``; vertex numbers below ``size``) already restricted to ``vertices``.
    Bit sets keep the large completion checks (hundreds of players, nearly everyone
    compatible with everyone) cheap: a greedy matching first, then one augmenting search
    (:func:`search_bits`) per vertex the greedy pass left single.
    """
    return unmatched_count(vertices, neighbours, size, stop_at=1) == 0


def unmatched_count(
    vertices: Sequence[int], neighbours: Callable[[int], int], size: int, stop_at: int = -1
) -> int:
    """How many of ``vertices`` a maximum matching leaves single (counting stops at
    ``stop_at`` when it is given): the deficiency a completion check compares."""
    adj = [0] * size
    member = 0
    for v in vertices:
        adj[v] = neighbours(v)
        member |= 1 << v
    mate = [-1] * size
    free = 0
    open_ = member
    while open_:
        low = open_ & -open_
        open_ ^= low
        v = low.bit_length() - 1
        options = adj[v] & open_
        if options:
            u = (options & -options).bit_length() - 1
            mate[v], mate[u] = u, v
            open_ &= ~(1 << u)
        else:
            free |= low
    single = 0
    for v in _bits_of(free):
        if mate[v] == -1:
            got = augment_bits(adj, mate, member, 0, free, v, size)
            if got == -1:
                single += 1
                if single == stop_at:
                    return single
            else:
                free = got
    return single


# -- Edmonds' search on bit sets -----------------------------------------------------------


def search_bits(
    adj: Sequence[int], mate: list[int], active: int, optional: int, targets: int, root: int, size: int
) -> tuple[int, int, list[int]] | int:
    """Edmonds' search from the unpaired ``root`` among the ``active`` vertices.

    Returns ``(v, to, parent)`` when it reaches an outer vertex ``v`` adjacent to a vertex in
    ``targets`` (``to``), or an outer ``v`` in ``optional`` (``to`` = -1: ``v`` may give up
    its partner); else the set of outer vertices (those an even alternating path from
    ``root`` reaches, blossoms included). Neighbourhoods are bit sets, so a vertex's whole
    neighbourhood is classified at once; edges between outer vertices (which only matter
    through odd cycles) are looked at only when the tree cannot grow otherwise.
    """
    parent = [-1] * size
    base = list(range(size))
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
                return v, -1, parent
            nb = adj[v] & active
            hit = nb & targets
            if hit:
                return v, (hit & -hit).bit_length() - 1, parent
            grow = nb & ~(outer | inner)
            for u in _bits_of(grow):
                low = 1 << u
                if outer & low:
                    continue  # the partner of a vertex just reached: an odd cycle
                w = mate[u]
                if w == -1 or not (active >> w) & 1:
                    continue  # only a target ends a path at an unpaired vertex
                parent[u] = v
                inner |= low
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
                new = _shrink(v, u, root, base, parent, members, mate) & ~outer
                if new:
                    outer |= new
                    inner &= ~new
                    while new:
                        low = new & -new
                        new ^= low
                        queue.append(low.bit_length() - 1)
                    grown = True
        if not grown:
            return outer


def _shrink(
    v: int, u: int, root: int, base: list[int], parent: list[int], members: dict[int, int], mate: list[int]
) -> int:
    """Contract the odd cycle closed by the edge ``v``–``u``; return its vertices. (The root
    may have a partner outside the search, so the walk up stops at it, not at a vertex
    without a partner.)"""
    seen = set()
    a = v
    while True:
        a = base[a]
        seen.add(a)
        if a == root:
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


def flip_path(mate: list[int], v: int, to: int, parent: list[int]) -> None:
    """Augment along the tree path from the root to the outer vertex ``v``, then the edge to
    ``to`` (or, when ``to`` is -1, leave ``v`` unpaired)."""
    u = mate[v]
    if to == -1:
        mate[v] = -1
    else:
        mate[v] = to
        mate[to] = v
    while u != -1:
        pv = parent[u]
        ppv = mate[pv]
        mate[u] = pv
        mate[pv] = u
        u = ppv


def augment_bits(
    adj: Sequence[int], mate: list[int], active: int, optional: int, free: int, root: int, size: int
) -> int:
    """Pair the unpaired ``root`` along an augmenting path (to an unpaired vertex, or to one in
    ``optional`` that gives up its partner); every vertex that was paired still is, but that
    one. Returns the new set of unpaired vertices, or -1 if there is no such path."""
    found = search_bits(adj, mate, active, optional, free & active & ~(1 << root), root, size)
    if isinstance(found, int):
        return -1
    v, to, parent = found
    flip_path(mate, v, to, parent)
    free &= ~(1 << root)
    if to == -1:
        free |= 1 << v
    else:
        free &= ~(1 << to)
    return free
