"""The Puzzle Duel rule on one clock (§2.2.7–2.2.17): the toss, the end, who wins.

Expected figures are worked out by hand from the rules (a clock rounds remaining time up
to its step), never read back from the implementation.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core.clock import Adjust, ClockError, Pause, Phase, Press, Resume, Side
from clockd.core.duel import (
    Complete,
    Duel,
    DuelDecidedBy,
    DuelOutcome,
    DuelSetup,
    EndReason,
    replay_duel,
)
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, MS, SECOND

A, B = Side.A, Side.B


def duel(base_ns: int = 10 * MINUTE, toss_winner: Side = A, resolution_ns: int = SECOND) -> Duel:
    return Duel.initial(
        DuelSetup(
            control=TimeControl.sudden_death(base_ns), toss_winner=toss_winner, resolution_ns=resolution_ns
        )
    )


def play(d: Duel, *events: Press | Pause | Resume | Adjust | Complete) -> Duel:
    for e in events:
        d, _ = d.apply(e)
    return d


# -- the toss -------------------------------------------------------------------------------


def test_the_toss_losers_press_starts_the_toss_winners_time_and_is_not_a_move() -> None:
    d, outcome = duel(toss_winner=A).apply(Press(t_ns=0, side=B))
    assert outcome is DuelOutcome.STARTED
    v = d.view(3 * SECOND)
    assert v.running is A
    assert v.remaining_ns.a == 10 * MINUTE - 3 * SECOND
    assert v.remaining_ns.b == 10 * MINUTE
    assert v.moves.a == v.moves.b == 0


def test_a_press_by_the_toss_winner_on_the_ready_clock_is_ignored_and_reported() -> None:
    d, outcome = duel(toss_winner=A).apply(Press(t_ns=0, side=A))
    assert outcome is DuelOutcome.IGNORED_TOSS_WINNER
    assert d.ignored_toss_winner == 1
    assert d.view(5 * SECOND).phase is Phase.READY
    assert d.view(5 * SECOND).remaining_ns.a == d.view(5 * SECOND).remaining_ns.b == 10 * MINUTE
    # the toss loser can still start it, and the winner's time is the one that runs
    d, outcome = d.apply(Press(t_ns=6 * SECOND, side=B))
    assert outcome is DuelOutcome.STARTED
    assert d.view(7 * SECOND).running is A


def test_the_toss_decides_whose_time_runs_first_on_either_side() -> None:
    d = play(duel(toss_winner=B), Press(t_ns=0, side=A))
    assert d.view(SECOND).running is B


# -- the end ----------------------------------------------------------------------------------


def test_picture_complete_ends_the_duel_at_that_instant() -> None:
    # B won the toss; A starts B's time at 0. B places in 20 s, A in 30 s, B runs 5 s more.
    d = play(
        duel(toss_winner=B),
        Press(t_ns=0, side=A),
        Press(t_ns=20 * SECOND, side=B),
        Press(t_ns=50 * SECOND, side=A),
        Complete(t_ns=55 * SECOND),
    )
    assert d.end is EndReason.COMPLETE and d.ended_at_ns == 55 * SECOND
    v = d.verdict()
    assert v is not None
    assert v.remaining_ns.a == 10 * MINUTE - 30 * SECOND
    assert v.remaining_ns.b == 10 * MINUTE - 25 * SECOND
    assert v.winner is B and v.decided_by is DuelDecidedBy.TIME
    assert (v.moves.a, v.moves.b) == (1, 1)
    assert (v.displayed.a, v.displayed.b) == ("9:30", "9:35")
    # the clock stands still after the end: a later reading shows the same times
    assert d.view(20 * MINUTE).remaining_ns == v.remaining_ns


def test_a_flag_ends_the_duel_at_the_flag_instant_not_when_somebody_next_looks() -> None:
    # 1 minute each; A wins the toss; B presses at 2 s; A places at 12 s; B never presses again.
    d = play(
        duel(base_ns=MINUTE, toss_winner=A), Press(t_ns=2 * SECOND, side=B), Press(t_ns=12 * SECOND, side=A)
    )
    assert d.ends_at() == 12 * SECOND + MINUTE
    # The daemon's next look comes much later (a slow poll, a late timer): the end is still 72 s.
    late = d.settle(10 * MINUTE)
    assert late.end is EndReason.FLAG
    assert late.ended_at_ns == 72 * SECOND
    v = late.verdict()
    assert v is not None
    assert v.winner is A and v.decided_by is DuelDecidedBy.FLAG
    assert v.remaining_ns.b == 0 and v.remaining_ns.a == MINUTE - 10 * SECOND
    assert v.ended_at_ns == 72 * SECOND


def test_a_complete_after_the_flag_fell_is_too_late() -> None:
    d = play(duel(base_ns=MINUTE, toss_winner=A), Press(t_ns=0, side=B))
    d, outcome = d.apply(Complete(t_ns=MINUTE + 1))
    assert outcome is DuelOutcome.FLAGGED
    v = d.verdict()
    assert v is not None and v.decided_by is DuelDecidedBy.FLAG and v.winner is B
    assert v.ended_at_ns == MINUTE


def test_a_press_one_nanosecond_before_the_flag_saves_the_player() -> None:
    d = play(duel(base_ns=MINUTE, toss_winner=A), Press(t_ns=0, side=B), Press(t_ns=MINUTE - 1, side=A))
    assert not d.over
    assert d.view(MINUTE - 1).remaining_ns.a == 1


def test_paused_time_does_not_bring_the_flag_closer() -> None:
    d = play(
        duel(base_ns=MINUTE, toss_winner=A),
        Press(t_ns=0, side=B),
        Pause(t_ns=10 * SECOND),
        Resume(t_ns=40 * SECOND),
    )
    assert d.ends_at() == 90 * SECOND
    assert d.settle(5 * MINUTE).ended_at_ns == 90 * SECOND


def test_events_after_the_end_are_ignored() -> None:
    d = play(duel(toss_winner=A), Press(t_ns=0, side=B), Complete(t_ns=10 * SECOND))
    before = d.verdict()
    for e in (
        Press(t_ns=11 * SECOND, side=A),
        Adjust(t_ns=12 * SECOND, side=B, delta_ms=MINUTE // MS, reason="test"),
        Complete(t_ns=13 * SECOND),
    ):
        d, outcome = d.apply(e)
        assert outcome is DuelOutcome.IGNORED_ENDED
    assert d.verdict() == before


def test_taking_a_sides_time_to_zero_is_a_flag_at_that_instant() -> None:
    d = play(duel(toss_winner=A), Press(t_ns=0, side=B))
    d, outcome = d.apply(Adjust(t_ns=5 * SECOND, side=A, delta_ms=-20 * MINUTE // MS, reason="§8.1"))
    assert outcome is DuelOutcome.FLAGGED
    v = d.verdict()
    assert v is not None and v.winner is B and v.decided_by is DuelDecidedBy.FLAG
    assert v.ended_at_ns == 5 * SECOND


def test_complete_while_paused_keeps_the_times_of_the_pause() -> None:
    d = play(
        duel(toss_winner=A),
        Press(t_ns=0, side=B),
        Pause(t_ns=4 * SECOND),
        Complete(t_ns=2 * MINUTE),
    )
    v = d.verdict()
    assert v is not None and v.remaining_ns.a == 10 * MINUTE - 4 * SECOND and v.winner is B


def test_impossible_inputs_raise_and_change_nothing() -> None:
    d = duel()
    with pytest.raises(ClockError, match="has not started") as early:
        d.apply(Complete(t_ns=0))
    assert early.value.msg.code == "duel.not-started"
    with pytest.raises(ClockError, match="not started"):
        d.apply(Pause(t_ns=0))
    started = play(d, Press(t_ns=5 * SECOND, side=B))
    with pytest.raises(ClockError, match="before"):
        started.apply(Press(t_ns=4 * SECOND, side=A))
    assert started.view(6 * SECOND).remaining_ns.a == 10 * MINUTE - SECOND


# -- who wins, at each resolution -----------------------------------------------------------


def finished(a_left_ns: int, b_left_ns: int, resolution_ns: int) -> Duel:
    """A duel completed with exactly these times left (A won the toss; 10 min each)."""
    base = 10 * MINUTE
    a_used, b_used = base - a_left_ns, base - b_left_ns
    return play(
        duel(base_ns=base, toss_winner=A, resolution_ns=resolution_ns),
        Press(t_ns=0, side=B),
        Press(t_ns=a_used, side=A),
        Complete(t_ns=a_used + b_used),
    )


@pytest.mark.parametrize(
    ("a_left", "b_left", "resolution", "winner"),
    [
        # the clock shows 9:59 vs 9:58 → A
        (599 * SECOND, 598 * SECOND, SECOND, A),
        # 59.001 s and 59.999 s both show 1:00 (a clock rounds up): the same time → tie-break
        (59 * SECOND + 1 * MS, 59 * SECOND + 999 * MS, SECOND, None),
        # ... but at 100 ms they are 59.1 and 60.0 → B; at 1 ms 59.001 vs 59.999 → B
        (59 * SECOND + 1 * MS, 59 * SECOND + 999 * MS, 100 * MS, B),
        (59 * SECOND + 1 * MS, 59 * SECOND + 999 * MS, MS, B),
        # 0.4 ms apart inside one millisecond step: the same at 1 ms
        (30 * SECOND + 100_000, 30 * SECOND + 500_000, MS, None),
        # exactly one step apart at 10 ms: 12.340 vs 12.350
        (12 * SECOND + 340 * MS, 12 * SECOND + 350 * MS, 10 * MS, B),
        # identical to the nanosecond: a tie at any resolution
        (123_456_789_012, 123_456_789_012, MS, None),
        (123_456_789_012, 123_456_789_012, SECOND, None),
    ],
)
def test_more_time_wins_and_the_same_displayed_time_is_a_tie(
    a_left: int, b_left: int, resolution: int, winner: Side | None
) -> None:
    v = finished(a_left, b_left, resolution).verdict()
    assert v is not None
    assert v.remaining_ns.a == a_left and v.remaining_ns.b == b_left
    assert v.winner is winner
    assert v.decided_by is (DuelDecidedBy.TIE if winner is None else DuelDecidedBy.TIME)


@settings(max_examples=200, deadline=None)
@given(
    a_left=st.integers(min_value=1, max_value=10 * MINUTE),
    b_left=st.integers(min_value=1, max_value=10 * MINUTE),
    resolution=st.sampled_from([MS, 10 * MS, 100 * MS, SECOND]),
)
def test_the_winner_is_the_side_with_more_whole_steps_rounded_up(
    a_left: int, b_left: int, resolution: int
) -> None:
    v = finished(a_left, b_left, resolution).verdict()
    assert v is not None
    steps_a = (a_left + resolution - 1) // resolution  # what the clock face shows, in steps
    steps_b = (b_left + resolution - 1) // resolution
    if steps_a == steps_b:
        assert v.winner is None and v.decided_by is DuelDecidedBy.TIE
    else:
        assert v.winner is (A if steps_a > steps_b else B) and v.decided_by is DuelDecidedBy.TIME


# -- replay and fairness --------------------------------------------------------------------

events = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=40 * SECOND),
        st.sampled_from(["press-a", "press-b", "pause", "resume", "adjust", "complete"]),
    ),
    max_size=40,
)


def _inputs(raw: list[tuple[int, str]]) -> list[Press | Pause | Resume | Adjust | Complete]:
    t = 0
    out: list[Press | Pause | Resume | Adjust | Complete] = []
    for dt, kind in raw:
        t += dt
        if kind.startswith("press"):
            out.append(Press(t_ns=t, side=A if kind.endswith("a") else B))
        elif kind == "pause":
            out.append(Pause(t_ns=t))
        elif kind == "resume":
            out.append(Resume(t_ns=t))
        elif kind == "adjust":
            out.append(Adjust(t_ns=t, side=A, delta_ms=-5 * SECOND // MS, reason="test"))
        else:
            out.append(Complete(t_ns=t))
    return out


@settings(max_examples=150, deadline=None)
@given(raw=events)
def test_replaying_the_inputs_gives_the_same_duel_and_the_times_add_up(raw: list[tuple[int, str]]) -> None:
    setup = DuelSetup(control=TimeControl.sudden_death(2 * MINUTE), toss_winner=A)
    live = Duel.initial(setup)
    accepted = []
    for e in _inputs(raw):
        try:
            live, _ = live.apply(e)
        except ClockError:
            continue  # e.g. resume of a running clock: refused, nothing changed
        accepted.append(e)
    assert replay_duel(setup, accepted) == live
    end = live.settle(10**15)
    if end.over and end.clock.started_at_ns is not None:
        assert end.ended_at_ns is not None
        v = end.view(end.ended_at_ns)
        # principle 4: both clocks' run time plus paused time is the duel's wall time
        assert v.elapsed_ns.a + v.elapsed_ns.b + v.paused_ns == end.ended_at_ns - end.clock.started_at_ns
