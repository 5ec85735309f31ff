"""Edmonds' search for augmenting paths on bit sets: can a set of players all be paired?

The completion criterion asks, again and again, whether the players still to be paired
can all be paired, in fields of hundreds where nearly everyone is compatible with
everyone. No weight enters there, so this is not :mod:`.matching`'s weighted algorithm but
the plain alternating-tree search of Edmonds' cardinality matching, on neighbourhoods held
as bit sets: a greedy matching first, then one search per vertex left single.
:mod:`.face` runs the same search on the certificate's zero-slack pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = [
    "augment_bits",
    "bits_of",
    "flip_path",
    "perfect_matching_exists",
    "search_bits",
    "unmatched_count",
]


def bits_of(mask: int) -> list[int]:
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
    for v in bits_of(free):
        if mate[v] == -1:
            got = augment_bits(adj, mate, member, 0, free, v, size)
            if got == -1:
                single += 1
                if single == stop_at:
                    return single
            else:
                free = got
    return single


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
            for u in bits_of(grow):
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
