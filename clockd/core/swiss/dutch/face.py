"""Every pairing as good as the best one, described by an optimal dual, and decisions on it.

The criteria's best pairings of a bracket (:mod:`.weights`) are many. Solving the weighted
matching once gives an optimal dual solution (:class:`~.matching.Certificate`), and by
complementary slackness that dual describes *all* of them: they use only edges of zero
slack, pair every player whose dual is positive, and leave exactly one player of each
blossom with a positive dual not paired inside it. :class:`Face` holds that description
and a pairing that fits it, and answers the questions the rules' order asks — "is there
such a pairing with this pair in it?" — by augmenting-path searches on bit sets, not by
another weighted matching.

Positive blossoms come in two kinds, and both are handled:

* a blossom no zero-slack edge leaves: its exposed player is unpaired, which a *stand-in*
  vertex (paired with that player) turns into "everyone paired";
* a blossom that zero-slack edges leave (an odd score group whose extra player goes down to
  the next group, for instance): a *port*. Its exposed player may be paired outside it.
  Searches see it as one vertex (the blossom contracted, as in Edmonds' algorithm) whose
  neighbours are those of the players that can be the exposed one (those ``v`` for which
  the blossom less ``v`` still pairs within itself: the even vertices of an alternating tree
  grown inside it, Gallai and Edmonds' set D). After a search the blossom is re-based on the
  player its outside partner needs.

A port may sit inside a stand-in's blossom (the whole field is one blossom when an odd
number of players is to be paired); deeper nestings are not handled (:func:`face_of`
returns ``None`` and the caller uses the weighted matching).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from clockd.core.swiss.dutch.matching import augment_bits as _augment
from clockd.core.swiss.dutch.matching import flip_path as _flip
from clockd.core.swiss.dutch.matching import search_bits as _search

__all__ = ["Criteria", "Face", "face_of", "single_leftovers"]


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _members(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def single_leftovers(adj: Sequence[int], member: int, size: int) -> int:
    """The players of ``member`` (an odd set) each of whom the rest can be paired without:
    Gallai and Edmonds' D set when a maximum matching leaves one player out, else 0.

    ``adj[v]`` are ``v``'s possible opponents (any superset of ``member`` is cut to it). One
    maximum matching and one alternating tree, instead of a perfect-matching test per player.
    """
    mate = [-1] * size
    free = 0
    open_ = member
    while open_:  # greedy first: most players pair at once
        low = open_ & -open_
        open_ ^= low
        v = low.bit_length() - 1
        options = adj[v] & open_
        if options:
            u = _low(options)
            mate[v], mate[u] = u, v
            open_ &= ~(1 << u)
        else:
            free |= low
    for r in _members(free):
        if mate[r] == -1 and (free >> r) & 1:
            got = _augment(adj, mate, member, 0, free, r, size)
            if got != -1:
                free = got
    free &= member
    if free == 0 or free & (free - 1):
        return 0
    reach = _search(adj, mate, member, 0, 0, _low(free), size)
    assert isinstance(reach, int)
    return reach


# -- the face ------------------------------------------------------------------------------

Snapshot = tuple[list[int], list[int], list[int], int, int, int, int, int]


class Face:
    """The pairings as good as the best one, and the decisions taken so far.

    Vertices are the bracket's explicit players (local numbers ``0..m-1``) followed by one
    stand-in per blossom without leaving edges. ``adj`` holds the zero-slack edges still
    allowed, ``req`` the vertices that must be paired, ``mate`` a pairing of that
    description, ``active`` the vertices not yet settled; ``ports`` are the blossoms with
    leaving edges (bit sets of players), of which exactly one player each is paired outside
    the blossom or not at all.
    """

    def __init__(self, m: int, adj: list[int], mate: list[int], req: int, ports: Sequence[int] = ()) -> None:
        self.m = m
        self.size = len(adj)
        self.adj = adj
        self.mate = mate
        self.req = req
        self.tight = list(adj)  # every zero-slack edge still allowed, before the order's decisions
        self.req0 = req
        self.active = (1 << self.size) - 1
        self.free = 0
        for v, u in enumerate(mate):
            if u == -1:
                self.free |= 1 << v
        self.ports = list(ports)
        self.port_of = [-1] * self.size
        for p, mask in enumerate(self.ports):
            for v in _members(mask):
                self.port_of[v] = p
        self.resolved = 0  # ports whose exposed player is settled with a partner outside

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
        pa, pb = self.port_of[a], self.port_of[b]
        if pa != pb:
            for p, u in ((pa, a), (pb, b)):
                if p != -1 and not (self.resolved >> p) & 1:
                    self._resolve(p, u)

    def _resolve(self, p: int, u: int) -> None:
        """Port ``p``'s exposed player is ``u``, paired outside it for good: the rest of the
        port must pair within itself."""
        self.resolved |= 1 << p
        inside = self.ports[p]
        rest = inside & ~(1 << u)
        for v in range(self.size):
            if (rest >> v) & 1:
                self.adj[v] &= inside
                self.tight[v] &= inside
                w = self.mate[v]
                if w != -1 and not (inside >> w) & 1:
                    self.unpair(v)
            elif not (inside >> v) & 1:
                self.adj[v] &= ~rest
                self.tight[v] &= ~rest
        self.req |= rest
        self.req0 |= rest

    # -- snapshots ----------------------------------------------------------------------
    def save(self) -> Snapshot:
        return (
            list(self.adj),
            list(self.mate),
            list(self.tight),
            self.req,
            self.req0,
            self.active,
            self.free,
            self.resolved,
        )

    def restore(self, snap: Snapshot) -> None:
        adj, mate, tight, self.req, self.req0, self.active, self.free, self.resolved = snap
        # in place: the orders hold these lists while they decide
        self.adj[:] = adj
        self.mate[:] = mate
        self.tight[:] = tight

    # -- the search ---------------------------------------------------------------------
    def cover(self, vertices: Sequence[int] = ()) -> bool:
        """Pair every required vertex that is active and unpaired — those among ``vertices``,
        the ones a decision just unpaired, and any other (a port settled with a partner
        outside unpairs the rest of it) — changing the pairing along augmenting paths; False
        if one cannot be."""
        if self.ports and self.resolved != (1 << len(self.ports)) - 1:
            return self._cover_with_ports()
        optional = ~self.req
        roots = self.free & self.req & self.active
        while roots:
            v = _low(roots)
            roots &= roots - 1
            if self.mate[v] != -1:
                continue
            free = _augment(self.adj, self.mate, self.active, optional, self.free, v, self.size)
            if free == -1:
                return False
            self.free = free
        return True

    def _cover_with_ports(self) -> bool:
        size = self.size
        adj, mate = self.adj, self.mate
        active = self.active
        free = self.free
        open_ports = [p for p in range(len(self.ports)) if not (self.resolved >> p) & 1]
        bases: list[int] = []
        even: list[int] = []
        hidden = 0
        for p in open_ports:
            inside = self.ports[p] & active
            hidden |= inside
            exposed = [v for v in _members(inside) if mate[v] == -1 or not (inside >> mate[v]) & 1]
            if len(exposed) != 1:
                for v in exposed:
                    u = mate[v]
                    if u != -1:
                        mate[v] = mate[u] = -1
                        free |= (1 << v) | (1 << u)
                for r in exposed:
                    if mate[r] == -1:
                        got = _augment(adj, mate, inside, 0, free, r, size)
                        if got != -1:
                            free = got
                left = _members(free & inside)
                if len(left) != 1:
                    self.free = free
                    return False
                exposed = left
            base = exposed[0]
            reach = _search(adj, mate, inside, 0, 0, base, size)
            assert isinstance(reach, int)
            bases.append(base)
            even.append(reach)
        # The contracted graph: port k is vertex size + k; its players are hidden.
        hsize = size + len(open_ports)
        node = {p: size + k for k, p in enumerate(open_ports)}

        def contract(mask: int) -> int:
            h = mask & ~hidden
            if mask & hidden:
                for k in range(len(open_ports)):
                    if mask & even[k]:
                        h |= 1 << (size + k)
            return h

        hadj = [0] * hsize
        for v in range(size):
            if not (hidden >> v) & 1 and (active >> v) & 1:
                hadj[v] = contract(adj[v])
        hmate = [-1] * hsize
        for v in range(size):
            if (hidden >> v) & 1 or not (active >> v) & 1:
                continue
            u = mate[v]
            if u != -1 and (hidden >> u) & 1:
                hmate[v] = node[self.port_of[u]]
            else:
                hmate[v] = u
        hactive = active & ~hidden
        hreq = self.req & ~hidden
        hfree = free & ~hidden & active
        for k, p in enumerate(open_ports):
            h = size + k
            union = 0
            for v in _members(even[k]):
                union |= adj[v]
            hadj[h] = contract(union & ~self.ports[p])
            for w in _members(hadj[h]):
                hadj[w] |= 1 << h
            u = mate[bases[k]]
            if u != -1:
                hmate[h] = node[self.port_of[u]] if (hidden >> u) & 1 else u
            else:
                hfree |= 1 << h
            hactive |= 1 << h
            if not even[k] & ~self.req:
                hreq |= 1 << h
        optional = ~hreq
        roots = hfree & hreq & hactive
        while roots:
            r = _low(roots)
            roots &= roots - 1
            if hmate[r] != -1:
                continue
            got = _augment(hadj, hmate, hactive, optional, hfree, r, hsize)
            if got == -1:
                self.free = free
                return False
            hfree = got
        # Back to the players: the visible ones take their partners; each port is re-based on
        # a player its partner is adjacent to.
        for k in range(len(open_ports)):
            b = bases[k]
            u = mate[b]
            if u != -1 and not (self.ports[open_ports[k]] >> u) & 1:
                mate[b] = -1
                if not (hidden >> u) & 1:
                    mate[u] = -1
        for v in range(size):
            if (hidden >> v) & 1 or not (active >> v) & 1:
                continue
            t = hmate[v]
            if t < size:
                mate[v] = t
        done = 0
        for k, p in enumerate(open_ports):
            if (done >> k) & 1:
                continue
            t = hmate[size + k]
            inside = self.ports[p] & active
            if t == -1:
                choices = even[k] & ~self.req
                u = bases[k] if (choices >> bases[k]) & 1 else _low(choices)
                if not self._rebase(inside, bases[k], u):
                    return False
                mate[u] = -1
            elif t < size:
                choices = even[k] & adj[t]
                u = bases[k] if (choices >> bases[k]) & 1 else _low(choices)
                if not self._rebase(inside, bases[k], u):
                    return False
                mate[u], mate[t] = t, u
            else:
                j = t - size
                other = self.ports[open_ports[j]] & active
                pair = next(
                    ((u, _low(adj[u] & even[j])) for u in _members(even[k]) if adj[u] & even[j]),
                    None,
                )
                if pair is None:
                    return False
                u, w = pair
                if not self._rebase(inside, bases[k], u) or not self._rebase(other, bases[j], w):
                    return False
                mate[u], mate[w] = w, u
                done |= 1 << j
            done |= 1 << k
        free = 0
        for v in range(size):
            if (active >> v) & 1 and mate[v] == -1:
                free |= 1 << v
        self.free = free
        return True

    def _rebase(self, inside: int, base: int, u: int) -> bool:
        """Make ``u`` the player of ``inside`` not paired within it (``base`` is now)."""
        if u == base:
            return True
        mate = self.mate
        p = mate[u]
        mate[u] = mate[p] = -1
        free = (1 << p) | (1 << base)
        return _augment(self.adj, mate, inside & ~(1 << u), 0, free, p, self.size) != -1

    # -- decisions ----------------------------------------------------------------------
    def try_pair(self, a: int, b: int) -> bool:
        """Settle ``a``–``b`` if a pairing of the description has them together."""
        if self.mate[a] == b:
            self.settle(a, b)  # a valid pairing stays valid
            return True
        snap = self.save()
        pa = self.unpair(a)
        pb = self.unpair(b)
        self.settle(a, b)
        if self.ports and self._repair_locally(a, b, pa, pb):
            return True
        if self.cover((pa, pb)):
            return True
        self.restore(snap)
        return False

    def _repair_locally(self, a: int, b: int, pa: int, pb: int) -> bool:
        """After ``a``–``b`` is settled, pair their old partners again without touching a
        port's boundary: within the port all four are in, or away from every port. Then
        every port keeps its one exposed player and no contracted search is needed (the
        usual case when the order tries an opponent inside a large odd score group)."""
        if pa == -1 or pb == -1:
            return False
        ports = {self.port_of[v] for v in (a, b, pa, pb)}
        if len(ports) != 1:
            return False
        (p,) = ports
        if p == -1:
            region = self.active
            for q, inside in enumerate(self.ports):
                if not (self.resolved >> q) & 1:
                    region &= ~inside
        elif not (self.resolved >> p) & 1:
            region = self.ports[p] & self.active
        else:
            return False
        found = _search(self.adj, self.mate, region, 0, 1 << pb, pa, self.size)
        if isinstance(found, int):
            return False
        v, to, parent = found
        _flip(self.mate, v, to, parent)
        self.free &= ~((1 << pa) | (1 << pb))
        return True


# -- from a certificate --------------------------------------------------------------------


@dataclass
class Criteria:
    """A bracket's best pairings by the criteria alone, by player number: the optimal
    duals, the positive blossoms, and one best pairing (the last one the order chose).

    ``chains[g]`` are the positive blossoms holding player ``g``, outermost first;
    ``resolved`` the blossoms whose exposed player was taken out with a partner outside it.
    Taking out of the bracket players paired with each other in ``mate`` leaves a
    certificate of the smaller bracket (the duals still cover every edge, and the rest of
    ``mate`` still meets complementary slackness), so the next phase of the same bracket
    needs no new matching: see :meth:`restricted_to`.
    """

    duals: dict[int, int]
    blossom_duals: list[int]
    blossom_parent: list[int]
    chains: dict[int, tuple[int, ...]]
    mate: dict[int, int]
    resolved: frozenset[int] = field(default_factory=frozenset)

    def restricted_to(self, vertices: list[int]) -> Criteria | None:
        """The certificate for ``vertices``, or None if they are not this bracket less
        pairs of ``mate``."""
        duals = self.duals
        if len(vertices) > len(duals) or any(g not in duals for g in vertices):
            return None
        kept = set(vertices)
        mate = self.mate
        resolved = set(self.resolved)
        for g in duals:
            if g not in kept:
                partner = mate.get(g)
                if partner is None or partner in kept:
                    return None
                resolved.update(set(self.chains.get(g, ())) - set(self.chains.get(partner, ())))
        return Criteria(
            duals,
            self.blossom_duals,
            self.blossom_parent,
            self.chains,
            {g: u for g, u in mate.items() if g in kept},
            frozenset(resolved),
        )


def face_of(vertices: list[int], edges: list[tuple[int, int, int]], crit: Criteria) -> Face | None:
    """The face the certificate ``crit`` describes, on the bracket ``vertices`` (global
    numbers, ascending) with ``edges`` ``(a, b, base)`` on local numbers; ``None`` for a
    blossom nesting not handled here."""
    m = len(vertices)
    local = {g: k for k, g in enumerate(vertices)}
    y = [crit.duals[g] for g in vertices]
    zs = crit.blossom_duals
    chains = [tuple(b for b in crit.chains.get(g, ()) if b not in crit.resolved) for g in vertices]
    # Blossoms present, their players, and whether zero-slack edges leave them.
    inside: dict[int, int] = {}
    for k, chain in enumerate(chains):
        for b in chain:
            inside[b] = inside.get(b, 0) | (1 << k)
    resolved_inside: dict[int, int] = {}
    for k, g in enumerate(vertices):
        for b in crit.chains.get(g, ()):
            if b in crit.resolved:
                resolved_inside[b] = resolved_inside.get(b, 0) | (1 << k)
    adj = [0] * m
    leaves: set[int] = set()
    full_chains = [crit.chains.get(g, ()) for g in vertices]
    for a, b, base in edges:
        s = y[a] + y[b] - 2 * base
        for x, z in zip(full_chains[a], full_chains[b], strict=False):
            if x != z:
                break
            s += 2 * zs[x]
        if s != 0:
            continue
        adj[a] |= 1 << b
        adj[b] |= 1 << a
        if chains[a] != chains[b]:
            leaves.update(set(chains[a]) ^ set(chains[b]))
    # A blossom whose exposed player has gone with a partner outside: the rest pairs within.
    req = 0
    for members in resolved_inside.values():
        for k in _members(members):
            adj[k] &= members
            req |= 1 << k
        outside = ~members
        for k in range(m):
            if (outside >> k) & 1:
                adj[k] &= outside
    for k in range(m):
        if y[k] > 0:
            req |= 1 << k
    present = sorted(inside)
    parent = {b: next((q for q in _up(b, crit.blossom_parent) if q in inside), -1) for b in present}
    stand_ins: list[int] = []
    ports: list[int] = []
    for b in present:
        if parent[b] == -1:
            if b in leaves:
                ports.append(b)
            else:
                stand_ins.append(b)
    for b in present:
        q = parent[b]
        if q == -1:
            continue
        if q not in stand_ins or parent[q] != -1 or any(parent[c] == b for c in present):
            return None  # a nesting not handled here
        ports.append(b)
    if any(parent[c] == b for b in ports for c in present):
        return None
    size = m + len(stand_ins)
    adj.extend([0] * len(stand_ins))
    mate = [-1] * size
    for g, u in crit.mate.items():
        if g in local and u in local:
            mate[local[g]] = local[u]
    for k, b in enumerate(stand_ins):
        d = m + k
        req |= 1 << d
        members = inside[b]
        req |= members
        for v in _members(members):
            if y[v] == 0:
                adj[d] |= 1 << v
                adj[v] |= 1 << d
                if mate[v] == -1 and mate[d] == -1:
                    mate[v], mate[d] = d, v
    face = Face(m, adj, mate, req, [inside[b] for b in ports])
    if not face.cover(list(range(size))):
        return None  # cannot happen with an optimal certificate; be safe
    face.tight = list(face.adj)
    return face


def _up(b: int, parents: list[int]) -> list[int]:
    """``b``'s enclosing blossoms, innermost first."""
    out = []
    q = parents[b]
    while q != -1:
        out.append(q)
        q = parents[q]
    return out
