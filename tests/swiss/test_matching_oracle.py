"""The weighted matching against networkx's: the same best total on random graphs.

The pairing engine's best pairing is the matching of maximum total weight
(:mod:`clockd.core.swiss.dutch.matching`); networkx's ``max_weight_matching`` is an
independent implementation of the same algorithm, so it is the oracle here (and only
here: the engine never imports it). Graphs are drawn in the regimes the engine produces:
few distinct weights (the criteria: many equally good matchings), weights nearly all
different (the tie-break in the weight), and lexicographic weights hundreds of bits wide.
Beside the total, the optimality certificate the engine decides on is checked against its
definition, and the result is checked to depend on the graph alone.
"""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core.swiss.dutch.matching import Certificate, max_weight_matching_with_duals

Graph = tuple[int, list[tuple[int, int, int]]]


@st.composite
def _graphs(draw: st.DrawFn) -> Graph:
    n = draw(st.integers(1, 26))
    density = draw(st.sampled_from([0.15, 0.4, 0.8, 1.0]))
    regime = draw(st.sampled_from(["few", "distinct", "wide"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    edges = []
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density:
                if regime == "few":
                    w = rng.randint(1, 3)
                elif regime == "distinct":
                    w = rng.randint(1, 1 << 40)
                else:  # criteria in high bits, a tie-break below them
                    w = (rng.randint(0, 3) << 200) + (rng.randint(0, 2) << 120) + rng.randint(1, 1 << 20)
                edges.append((i, j, w))
    return n, edges


def _total(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    weight = {(i, j): w for i, j, w in edges} | {(j, i): w for i, j, w in edges}
    assert all(mate[mate[v]] == v and (v, mate[v]) in weight for v in range(len(mate)) if mate[v] != -1)
    return sum(weight[(v, mate[v])] for v in range(len(mate)) if mate[v] > v)


def _oracle(n: int, edges: list[tuple[int, int, int]]) -> int:
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(edges)
    return sum(g[u][v]["weight"] for u, v in nx.max_weight_matching(g))


@settings(max_examples=300, deadline=None)
@given(_graphs())
def test_the_matching_has_the_best_total_networkx_finds(graph: Graph) -> None:
    n, edges = graph
    assert _total(max_weight_matching_with_duals(n, edges).mate, edges) == _oracle(n, edges)


def _check_certificate(n: int, edges: list[tuple[int, int, int]], cert: Certificate) -> None:
    """Complementary slackness, as :class:`Certificate` states it."""
    mate = cert.mate
    for u, v, w in edges:
        s = cert.slack(u, v, w)
        assert s >= 0
        if mate[u] == v:
            assert s == 0
    assert all(mate[v] != -1 for v in range(n) if cert.duals[v] > 0)
    for _, members, _ in cert.blossoms:
        inside = sum(1 for v in range(n) if (members >> v) & 1 and mate[v] > v and (members >> mate[v]) & 1)
        assert inside == members.bit_count() // 2


@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_the_certificate_proves_the_matching_best(graph: Graph) -> None:
    n, edges = graph
    _check_certificate(n, edges, max_weight_matching_with_duals(n, edges))


@settings(max_examples=100, deadline=None)
@given(_graphs(), st.randoms(use_true_random=False))
def test_the_result_depends_on_the_graph_not_the_order_of_its_edges(graph: Graph, rng: random.Random) -> None:
    """Among equally good matchings the same one comes back however the edges are listed
    (the engine's pairings do not rest on that choice, but a pairing must be reproducible)."""
    n, edges = graph
    shuffled = [(j, i, w) if rng.random() < 0.5 else (i, j, w) for i, j, w in edges]
    rng.shuffle(shuffled)
    assert max_weight_matching_with_duals(n, shuffled) == max_weight_matching_with_duals(n, edges)
