"""The Dutch engine's parts against hand-worked cases and brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core.swiss import trf
from clockd.core.swiss.dutch import NoValidPairing, build_input, pair_round
from clockd.core.swiss.dutch.bitsearch import perfect_matching_exists
from clockd.core.swiss.dutch.matching import max_weight_matching


def _tournament(lines: list[str], rounds: int) -> trf.Tournament:
    head = ["012 Test", f"XXR {rounds}", "XXC white1"]
    return trf.loads("\n".join(head + lines) + "\n")


def _line(sn: int, rating: int, points: str, *entries: str) -> str:
    name = f"Player{sn:04d}".ljust(33)
    line = f"001 {sn:4d}      {name} {rating:4d}{' ' * 28}{points:>4} {sn:>4}"
    for e in entries:
        line += "  " + e
    return line


def test_round_one_pairs_top_half_against_bottom_half_alternating_colours() -> None:
    t = _tournament([_line(i, 2000 - i, "0.0") for i in range(1, 9)], 5)
    result = pair_round(t)
    # S1 = 1..4 against S2 = 5..8; the top board takes the initial colour (White),
    # and colours alternate down the boards.
    assert result.boards == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert result.bye is None


def test_round_one_with_an_odd_number_gives_the_bye_to_the_last_player() -> None:
    t = _tournament([_line(i, 2000 - i, "0.0") for i in range(1, 8)], 5)
    result = pair_round(t)
    assert result.bye == 7
    assert sorted(result.boards) == [(1, 4), (3, 6), (5, 2)]


def test_a_forfeit_does_not_prevent_a_rematch() -> None:
    t = _tournament([_line(1, 2000, "1.0", "   2 w +"), _line(2, 1900, "0.0", "   1 b -")], 3)
    result = pair_round(t)
    assert len(result.boards) == 1 and set(result.boards[0]) == {1, 2}


def test_a_rematch_over_the_board_is_refused() -> None:
    t = _tournament([_line(1, 2000, "1.0", "   2 w 1"), _line(2, 1900, "0.0", "   1 b 0")], 3)
    with pytest.raises(NoValidPairing):
        pair_round(t)


def test_a_forfeit_carries_no_colour() -> None:
    t = _tournament(
        [
            _line(1, 2000, "1.0", "   2 w +"),
            _line(2, 1900, "0.0", "   1 b -"),
            _line(3, 1800, "1.0", "   4 w 1"),
            _line(4, 1700, "0.0", "   3 b 0"),
        ],
        3,
    )
    players = {p.start_number: p for p in build_input(t).players}
    assert players[1].colours == () and players[1].played_games == 0
    assert players[3].colours == (0,)  # White, from the game played


def test_nobody_gets_a_second_bye_or_a_bye_after_winning_without_playing() -> None:
    lines = [
        _line(1, 2000, "1.0", "   2 w +", "   3 b 0"),  # forfeit win: no bye any more
        _line(2, 1900, "1.0", "   1 b -", "0000 - U"),  # had the bye
        _line(3, 1800, "2.0", "   4 w 1", "   1 w 1"),
        _line(4, 1700, "1.0", "   3 b 0", "   5 b 1"),
        _line(5, 1600, "1.0", "0000 - U", "   4 w 0"),  # had the bye
    ]
    result = pair_round(_tournament(lines, 4))
    # Players 1, 2, 4 and 5 all have one point; only 4 may have the bye.
    assert result.bye == 4


def test_absent_players_known_in_advance_are_not_paired() -> None:
    lines = [
        _line(
            i,
            2000 - i,
            "1.0" if i % 2 else "0.0",
            f"{i + 1 if i % 2 else i - 1:4d} {'w' if i % 2 else 'b'} {1 if i % 2 else 0}",
        )
        for i in range(1, 7)
    ]
    lines[0] += "  0000 - H"  # player 1 asked for a half-point bye in round 2
    result = pair_round(_tournament(lines, 4))
    paired = {sn for board in result.boards for sn in board} | {result.bye}
    assert 1 not in paired and paired == {2, 3, 4, 5, 6}


def _brute_max(n: int, edges: list[tuple[int, int, int]]) -> int:
    best = 0
    for k in range(len(edges) + 1):
        for subset in itertools.combinations(edges, k):
            used = [v for e in subset for v in e[:2]]
            if len(used) == len(set(used)):
                best = max(best, sum(e[2] for e in subset))
    return best


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(1, 7))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=9)) if pairs else []
    weights = st.one_of(st.integers(1, 9), st.integers(1, 9).map(lambda x: (x << 90) + 3))
    return n, [(i, j, draw(weights)) for i, j in chosen]


@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_weighted_matching_finds_the_best_total(graph: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, edges = graph
    mate = max_weight_matching(n, edges)
    weight = {(i, j): w for i, j, w in edges} | {(j, i): w for i, j, w in edges}
    assert all(mate[mate[v]] == v for v in range(n) if mate[v] != -1)
    assert sum(weight[(v, mate[v])] for v in range(n) if mate[v] > v) == _brute_max(n, edges)


Graph = tuple[int, list[tuple[int, int, int]]]


@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_perfect_matching_check_agrees_with_brute_force(graph: Graph) -> None:
    n, edges = graph
    adjacency = [0] * n
    for i, j, _ in edges:
        adjacency[i] |= 1 << j
        adjacency[j] |= 1 << i
    exists = perfect_matching_exists(list(range(n)), lambda v: adjacency[v], n)
    unit = [(i, j, 1) for i, j, _ in edges]
    assert exists == (n % 2 == 0 and _brute_max(n, unit) == n // 2)
