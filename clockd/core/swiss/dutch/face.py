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

Ports nest (a score group inside a blossom of all but one of the players still to pair):
a port's own search sees the ports directly inside it contracted in turn, and re-basing a
port re-bases the one inside it that holds the new exposed player. A port may also sit
inside a stand-in's blossom (the whole field is one blossom when an odd number of players
is to be paired).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from clockd.core.swiss.dutch.bitsearch import augment_bits as _augment
from clockd.core.swiss.dutch.bitsearch import flip_path as _flip
from clockd.core.swiss.dutch.bitsearch import search_bits as _search

__all__ = ["Criteria", "Face", "face_of", "single_leftovers"]


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _members(mask: int) -> list[int]:
    """The members of a bit set, ascending: a dense one (the active players of a field of
    hundreds) read from its binary string in one pass, a sparse one bit by bit."""
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

    def __init__(
        self,
        m: int,
        adj: list[int],
        mate: list[int],
        req: int,
        ports: Sequence[int] = (),
        parents: Sequence[int] = (),
    ) -> None:
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
        #: the port each port lies in (-1: none); ports come outermost first
        self.parents = list(parents) if parents else [-1] * len(self.ports)
        self.port_of = [-1] * self.size  # the innermost port a vertex is in
        for p, mask in enumerate(self.ports):
            for v in _members(mask):
                q = self.port_of[v]
                if q == -1 or self.ports[p] & ~self.ports[q] == 0:
                    self.port_of[v] = p
        self.resolved = 0  # ports whose exposed player is settled with a partner outside
        # filled by each search with ports: each open port's exposed player, the players
        # that can be its exposed one, and the graph it was searched in
        self._base: dict[int, int] = {}
        self._even: dict[int, int] = {}
        self._levels: dict[int, _Level] = {}

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
        if self.ports and self.port_of[a] != self.port_of[b]:
            for p, inside in enumerate(self.ports):
                if (self.resolved >> p) & 1:
                    continue
                ina, inb = (inside >> a) & 1, (inside >> b) & 1
                if ina != inb:
                    self._resolve(p, a if ina else b)

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

    def _open_ports(self) -> tuple[list[int], dict[int, list[int]]]:
        """The open ports with no open port around them, and each open port's open ports
        directly inside it."""
        roots: list[int] = []
        children: dict[int, list[int]] = {}
        for p in range(len(self.ports)):
            if (self.resolved >> p) & 1:
                continue
            children.setdefault(p, [])
            q = self.parents[p]
            while q != -1 and (self.resolved >> q) & 1:
                q = self.parents[q]
            if q == -1:
                roots.append(p)
            else:
                children.setdefault(q, []).append(p)
        return roots, children

    def _cover_with_ports(self) -> bool:
        self._base.clear()
        self._even.clear()
        self._levels.clear()
        roots, children = self._open_ports()
        for p in roots:
            if not self._prepare(p, children):
                self._recount()
                return False
        level = _Level(self, self.active, roots, root=True)
        optional = ~level.req
        todo = level.free & level.req & level.active
        while todo:
            r = _low(todo)
            todo &= todo - 1
            if level.mate[r] != -1:
                continue
            got = _augment(level.adj, level.mate, level.active, optional, level.free, r, level.size)
            if got == -1:
                self._recount()
                return False
            level.free = got
        ok = self._realize(level)
        self._recount()
        return ok

    def _recount(self) -> None:
        free = 0
        for v in _members(self.active):
            if self.mate[v] == -1:
                free |= 1 << v
        self.free = free

    def _prepare(self, p: int, children: dict[int, list[int]]) -> bool:
        """Make port ``p`` have exactly one player not paired inside it (its open ports
        first), and find the players that can be that one."""
        for c in children[p]:
            if not self._prepare(c, children):
                return False
        inside = self.ports[p] & self.active
        level = _Level(self, inside, children[p])
        exposed = [x for x in _members(level.active) if level.mate[x] == -1]
        if len(exposed) != 1:
            for x in exposed:
                self._cut(level.player(x))
            free = 0
            for x in exposed:
                free |= 1 << x
            for r in exposed:
                if level.mate[r] == -1:
                    got = _augment(level.adj, level.mate, level.active, 0, free, r, level.size)
                    if got != -1:
                        free = got
            left = _members(free & level.active)
            if len(left) != 1 or not self._realize(level):
                return False
            exposed = left
        e = exposed[0]
        reach = _search(level.adj, level.mate, level.active, 0, 0, e, level.size)
        assert isinstance(reach, int)
        self._base[p] = level.player(e)
        self._even[p] = level.expand(reach)
        self._levels[p] = level
        return True

    def _cut(self, v: int) -> None:
        """Unpair ``v`` from its partner, leaving the partner's own record if it has moved on."""
        u = self.mate[v]
        if u != -1:
            self.mate[v] = -1
            if self.mate[u] == v:
                self.mate[u] = -1

    def _realize(self, level: _Level) -> bool:
        """Write ``level``'s pairing of contracted vertices back on the players: each port
        in it is re-based on a player its partner can have."""
        mate = self.mate
        size = self.size
        inside = level.region
        for c in level.ports:
            b = self._base[c]
            u = mate[b]
            if u != -1 and (level.root or (inside >> u) & 1) and not (self.ports[c] >> u) & 1:
                self._cut(b)
        for v in _members(level.region & ~level.hidden):
            t = level.mate[v]
            if t == -1:
                u = mate[v]
                if u != -1 and (level.root or (inside >> u) & 1):
                    self._cut(v)
            elif t < size:
                mate[v] = t
        done = 0
        for k, c in enumerate(level.ports):
            if (done >> k) & 1:
                continue
            done |= 1 << k
            t = level.mate[size + k]
            even = self._even[c]
            b = self._base[c]
            if t == -1:
                if not level.root:
                    continue  # the level's own exposed one: its partner, if any, is outside
                choices = even & ~self.req
                if not choices:
                    return False
                u = b if (choices >> b) & 1 else _low(choices)
                if not self._rebase(c, u):
                    return False
                self._cut(u)
            elif t < size:
                choices = even & self.adj[t]
                if not choices:
                    return False
                u = b if (choices >> b) & 1 else _low(choices)
                if not self._rebase(c, u):
                    return False
                mate[u], mate[t] = t, u
            else:
                j = t - size
                d = level.ports[j]
                done |= 1 << j
                other = self._even[d]
                pair = next(
                    ((u, _low(self.adj[u] & other)) for u in _members(even) if self.adj[u] & other), None
                )
                if pair is None:
                    return False
                u, w = pair
                if not self._rebase(c, u) or not self._rebase(d, w):
                    return False
                mate[u], mate[w] = w, u
        return True

    def _rebase(self, c: int, u: int) -> bool:
        """Make ``u`` (one of the players that can be) the player of port ``c`` not paired
        inside it, pairing the rest of the port within; ``u``'s partner outside is the
        caller's to set."""
        b = self._base[c]
        if u == b:
            return True
        self._cut(b)
        level = self._levels[c]
        e, nu = level.node(b), level.node(u)
        if nu != e:
            q = level.mate[nu]
            level.mate[nu] = level.mate[q] = -1
            free = (1 << q) | (1 << e)
            if _augment(level.adj, level.mate, level.active & ~(1 << nu), 0, free, q, level.size) == -1:
                return False
            if not self._realize(level):
                return False
        if nu >= self.size and not self._rebase(level.ports[nu - self.size], u):
            return False  # (u is in a port inside this one)
        self._cut(u)
        self._base[c] = u
        return True

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
        elif not (self.resolved >> p) & 1 and not any(
            self.parents[q] == p and not (self.resolved >> q) & 1 for q in range(len(self.ports))
        ):
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


class _Level:
    """A region (a port's players, or the whole field) as a search sees it: the open ports
    directly inside it contracted, each to one vertex (numbered from ``face.size``) whose
    neighbours are those of the players that can be its exposed one."""

    def __init__(self, face: Face, region: int, ports: list[int], root: bool = False) -> None:
        self.face = face
        self.region = region
        self.ports = ports
        self.root = root
        size = face.size
        self.size = size + len(ports)
        adj, mate, active = face.adj, face.mate, face.active
        even = [face._even[c] for c in ports]
        hidden = 0
        for c in ports:
            hidden |= face.ports[c] & active
        self.hidden = hidden
        self.even = even
        scope = region if not root else active

        def contract(mask: int) -> int:
            h = mask & ~hidden
            if mask & hidden:
                for k in range(len(ports)):
                    if mask & even[k]:
                        h |= 1 << (size + k)
            return h

        self.contract = contract
        hadj = [0] * self.size
        hmate = [-1] * self.size
        visible = scope & ~hidden
        for v in _members(visible):
            hadj[v] = contract(adj[v] & scope)
            u = mate[v]
            if u != -1 and (scope >> u) & 1:
                hmate[v] = self.node(u)
        for k, c in enumerate(ports):
            h = size + k
            union = 0
            for v in _members(even[k]):
                union |= adj[v]
            hadj[h] = contract(union & scope & ~face.ports[c])
            b = face._base[c]
            u = mate[b]
            if u != -1 and (scope >> u) & 1 and not (face.ports[c] >> u) & 1:
                hmate[h] = self.node(u)
        self.adj = hadj
        self.mate = hmate
        self.active = visible | (((1 << len(ports)) - 1) << size)
        req = face.req & visible
        free = 0
        for v in _members(visible):
            if hmate[v] == -1:
                free |= 1 << v
        for k in range(len(ports)):
            if hmate[size + k] == -1:
                free |= 1 << (size + k)
            if not even[k] & ~face.req:
                req |= 1 << (size + k)
        self.req = req
        self.free = free

    def node(self, v: int) -> int:
        """The vertex of this level a player is seen as."""
        if (self.hidden >> v) & 1:
            face = self.face
            for k, c in enumerate(self.ports):
                if (face.ports[c] >> v) & 1:
                    return face.size + k
        return v

    def player(self, x: int) -> int:
        """The player a vertex of this level stands for (a port: its exposed player)."""
        size = self.face.size
        return x if x < size else self.face._base[self.ports[x - size]]

    def expand(self, nodes: int) -> int:
        """Players of the vertices ``nodes``: a port's are those that can be its exposed one."""
        size = self.face.size
        out = nodes & ((1 << size) - 1)
        for k in range(len(self.ports)):
            if (nodes >> (size + k)) & 1:
                out |= self.even[k]
        return out


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
        if s <= 0:  # (blossom duals are positive: above 0 the pair has slack anyway)
            fa = full_chains[a]
            if fa:
                for x, z in zip(fa, full_chains[b], strict=False):
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
    depth = {b: len(_up(b, crit.blossom_parent)) for b in present}
    stand_ins = [b for b in present if parent[b] == -1 and b not in leaves]
    # Every other blossom is a port; one inside a stand-in's blossom is searched at the top.
    ports = sorted((b for b in present if b not in stand_ins), key=lambda b: depth[b])
    port_index = {b: k for k, b in enumerate(ports)}
    port_parents = [port_index.get(parent[b], -1) for b in ports]
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
    face = Face(m, adj, mate, req, [inside[b] for b in ports], port_parents)
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
