import random

from hw_sim.players import FAST, SLOW, PlayerModel


def test_a_seed_replays_the_same_think_times() -> None:
    a = [PlayerModel().think_ns(random.Random(3)) for _ in range(5)]
    b = [PlayerModel().think_ns(random.Random(3)) for _ in range(5)]
    assert a == b and all(isinstance(t, int) for t in a)


def test_fast_players_are_faster_than_slow_ones_on_average() -> None:
    rng = random.Random(1)
    fast = sum(FAST.think_ns(rng) for _ in range(500))
    slow = sum(SLOW.think_ns(rng) for _ in range(500))
    assert fast < slow
    assert min(PlayerModel(median_ms=10, min_ms=150).think_ns(rng) for _ in range(50)) >= 150_000_000
