"""The chess clock core: rules a referee checks against a real clock, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core import (
    Adjust,
    ClockError,
    ClockState,
    Outcome,
    Pause,
    Phase,
    Press,
    Resume,
    Side,
    Start,
    TimeControl,
    replay,
)
from clockd.core.units import MINUTE, MS, SECOND

A, B = Side.A, Side.B


def started(control: TimeControl, side: Side = A, t: int = 0) -> ClockState:
    return ClockState.initial(control).start(t, side)


# -- examples ------------------------------------------------------------------------------


def test_sudden_death_counts_down_the_running_side_only() -> None:
    s = started(TimeControl.sudden_death(5 * MINUTE))
    v = s.view(10 * SECOND)
    assert v.remaining_ns.a == 5 * MINUTE - 10 * SECOND
    assert v.remaining_ns.b == 5 * MINUTE
    assert v.running is A


def test_press_by_the_waiting_side_is_ignored_and_counted() -> None:
    s = started(TimeControl.sudden_death(5 * MINUTE))
    s2, outcome = s.press(3 * SECOND, B)
    assert outcome is Outcome.IGNORED_NOT_RUNNING
    assert s2.view(3 * SECOND).running is A
    assert s2.ignored.b == 1
    assert s2.view(4 * SECOND).remaining_ns == s.view(4 * SECOND).remaining_ns


def test_the_first_press_on_a_ready_clock_starts_the_other_side_and_is_not_a_move() -> None:
    s, outcome = ClockState.initial(TimeControl.fischer(MINUTE, 5 * SECOND)).press(7, B)
    assert outcome is Outcome.STARTED
    v = s.view(7 + SECOND)
    assert v.running is A and v.remaining_ns.a == MINUTE - SECOND and v.remaining_ns.b == MINUTE
    assert v.moves.a == v.moves.b == 0


def test_a_press_the_rules_do_not_let_act_leaves_the_ready_clock_ready_and_is_counted() -> None:
    ready = ClockState.initial(TimeControl.sudden_death(5 * MINUTE))
    s = ready.ignore_press(Press(t_ns=2 * SECOND, side=A))  # e.g. a duel's toss winner
    assert s.phase is Phase.READY and s.ignored.a == 1 and s.ignored.b == 0
    assert s.apply(Press(t_ns=3 * SECOND, side=B))[1] is Outcome.STARTED  # the allowed side still can
    with pytest.raises(ClockError, match="before the clock's last input"):
        s.ignore_press(Press(t_ns=SECOND, side=A))


def test_fischer_adds_the_increment_after_each_move() -> None:
    s = started(TimeControl.fischer(3 * MINUTE, 2 * SECOND))
    s, _ = s.press(5 * SECOND, A)
    assert s.view(5 * SECOND).remaining_ns.a == 3 * MINUTE - 5 * SECOND + 2 * SECOND
    assert s.moves.a == 1


def test_bronstein_gives_back_at_most_the_delay() -> None:
    s = started(TimeControl.bronstein(3 * MINUTE, 3 * SECOND))
    s, _ = s.press(2 * SECOND, A)  # quick move: costs nothing
    assert s.view(2 * SECOND).remaining_ns.a == 3 * MINUTE
    s, _ = s.press(12 * SECOND, B)  # 10 s move: costs 7 s
    assert s.view(12 * SECOND).remaining_ns.b == 3 * MINUTE - 7 * SECOND


def test_simple_delay_waits_before_counting_down() -> None:
    s = started(TimeControl.simple_delay(1 * MINUTE, 5 * SECOND))
    assert s.view(4 * SECOND).remaining_ns.a == 1 * MINUTE
    assert s.view(7 * SECOND).remaining_ns.a == 1 * MINUTE - 2 * SECOND
    assert s.flag_at() == 1 * MINUTE + 5 * SECOND


def test_multi_stage_adds_the_next_period_after_move_40() -> None:
    control = TimeControl.parse("90m/40+30s, 30m+30s")
    s = started(control)
    t = 0
    for _ in range(40):
        t += 1 * SECOND
        s, _ = s.press(t, A)
        t += 1 * SECOND
        s, _ = s.press(t, B)
    # 40 moves of 1 s each, +30 s per move, +30 min at move 40
    expected = 90 * MINUTE - 40 * SECOND + 40 * 30 * SECOND + 30 * MINUTE
    assert s.view(t).remaining_ns.a == expected


def test_flag_falls_at_the_exact_instant_and_a_late_press_is_too_late() -> None:
    s = started(TimeControl.sudden_death(10 * SECOND))
    assert s.flag_at() == 10 * SECOND
    s2, outcome = s.press(10 * SECOND + 1, A)
    assert outcome is Outcome.IGNORED_FLAGGED
    assert s2.phase is Phase.FLAGGED and s2.flag is A and s2.flag_at_ns == 10 * SECOND
    assert s2.view(20 * SECOND).remaining_ns.a == 0


def test_pause_freezes_both_sides_and_resume_continues() -> None:
    s = started(TimeControl.sudden_death(MINUTE)).pause(10 * SECOND)
    assert s.view(40 * SECOND).remaining_ns.a == 50 * SECOND
    s = s.resume(40 * SECOND)
    assert s.view(45 * SECOND).remaining_ns.a == 45 * SECOND
    assert s.flag_at() == 40 * SECOND + 50 * SECOND


def test_adjust_below_zero_flags_that_side_and_giving_time_back_lifts_the_flag() -> None:
    s = started(TimeControl.sudden_death(MINUTE)).adjust(5 * SECOND, B, -2 * MINUTE // MS, "penalty")
    assert s.phase is Phase.FLAGGED and s.flag is B
    assert s.view(6 * SECOND).remaining_ns.b == 0
    s = s.adjust(8 * SECOND, B, 30 * SECOND // MS, "mistake corrected")
    assert s.phase is Phase.PAUSED and s.flag is None
    assert s.view(9 * SECOND).remaining_ns.b == 30 * SECOND


def test_referee_mistakes_are_refused_with_a_sentence() -> None:
    s = started(TimeControl.sudden_death(MINUTE), t=100)
    with pytest.raises(ClockError, match="only a paused clock"):
        s.resume(200)
    with pytest.raises(ClockError, match="before the clock's last input"):
        s.pause(50)
    with pytest.raises(ClockError, match="already started"):
        s.start(300, B)


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("10m", "10m"),
        ("3m+2s", "3m+2s"),
        ("5m d3s", "5m d3s"),
        ("5m b3s", "5m b3s"),
        ("90m/40+30s, 30m+30s", "1h30m/40+30s, 30m+30s"),
        ("1m30s", "1m30s"),
    ],
)
def test_time_control_text_round_trips(text: str, normal: str) -> None:
    assert str(TimeControl.parse(text)) == normal


def test_time_control_text_errors_name_the_stage() -> None:
    with pytest.raises(ValueError, match=r"stage 2 \(30x\)"):
        TimeControl.parse("90m/40, 30x")


# -- properties ------------------------------------------------------------------------------

controls = st.one_of(
    st.builds(TimeControl.sudden_death, st.integers(1, 10 * MINUTE)),
    st.builds(TimeControl.fischer, st.integers(1, 10 * MINUTE), st.integers(0, 30 * SECOND)),
    st.builds(TimeControl.bronstein, st.integers(1, 10 * MINUTE), st.integers(0, 30 * SECOND)),
    st.builds(TimeControl.simple_delay, st.integers(1, 10 * MINUTE), st.integers(0, 30 * SECOND)),
    st.just(TimeControl.parse("2m/3+1s b1s, 1m/2 b2s, 30s b1s")),
    st.just(TimeControl.parse("2m/3 d1s, 1m/2+1s d2s, 30s")),
)

steps = st.lists(
    st.tuples(
        st.integers(0, 90 * SECOND),  # gap since the previous input
        st.sampled_from(["press-a", "press-b", "pause", "resume", "adjust-a", "adjust-b"]),
        st.integers(-3 * MINUTE // MS, 3 * MINUTE // MS),  # an adjustment, in ms
    ),
    max_size=60,
)


def run_script(control: TimeControl, first: Side, script: list[tuple[int, str, int]]):
    inputs: list = [Start(t_ns=1_000, side=first)]
    state, _ = ClockState.initial(control).apply(inputs[0])
    t = 1_000
    for gap, action, delta in script:
        t += gap
        if action.startswith("press"):
            event: object = Press(t_ns=t, side=Side(action[-1]))
        elif action == "pause":
            event = Pause(t_ns=t)
        elif action == "resume":
            event = Resume(t_ns=t)
        else:
            event = Adjust(t_ns=t, side=Side(action[-1]), delta_ms=delta, reason="test")
        try:
            state, _ = state.apply(event)  # type: ignore[arg-type]
        except ClockError:
            continue  # refused: the state is unchanged, and the input is not part of the log
        inputs.append(event)
    return state, inputs, t


@settings(max_examples=300, deadline=None)
@given(controls, st.sampled_from([A, B]), steps, st.integers(0, 5 * MINUTE))
def test_elapsed_plus_paused_is_the_wall_time_exactly(control, first, script, extra) -> None:
    state, _, t = run_script(control, first, script)
    now = t + extra
    v = state.view(now)
    end = v.flag_at_ns if v.phase is Phase.FLAGGED else now
    assert v.elapsed_ns.a + v.elapsed_ns.b + v.paused_ns == end - 1_000


@settings(max_examples=300, deadline=None)
@given(controls, st.sampled_from([A, B]), steps, st.integers(0, 5 * MINUTE))
def test_remaining_never_below_zero_and_flag_instant_is_the_zero_crossing(
    control, first, script, extra
) -> None:
    state, _, t = run_script(control, first, script)
    v = state.view(t + extra)
    assert v.remaining_ns.a >= 0 and v.remaining_ns.b >= 0
    flag_at = state.flag_at()
    if flag_at is not None:
        side = state.to_move
        assert state.view(flag_at).remaining_ns[side] == 0
        if flag_at - 1 >= t:
            before = state.view(flag_at - 1)
            assert before.remaining_ns[side] > 0 and before.phase is Phase.RUNNING
        assert state.view(flag_at).phase is Phase.FLAGGED


@settings(max_examples=300, deadline=None)
@given(controls, st.sampled_from([A, B]), steps)
def test_rebuilding_from_the_inputs_gives_the_same_state(control, first, script) -> None:
    state, inputs, _ = run_script(control, first, script)
    assert replay(control, inputs) == state
    # and through JSON, as the journal stores them
    from pydantic import TypeAdapter

    from clockd.core import ClockInput

    adapter = TypeAdapter(list[ClockInput])
    assert replay(control, adapter.validate_json(adapter.dump_json(inputs))) == state
    assert ClockState.model_validate_json(state.model_dump_json()) == state


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["fischer", "bronstein", "simple"]),
    st.integers(1, 10 * MINUTE),
    st.integers(0, 30 * SECOND),
    st.integers(0, 60 * SECOND),
)
def test_one_move_costs_what_its_control_defines(kind, base, extra, used) -> None:
    control = {
        "fischer": TimeControl.fischer,
        "bronstein": TimeControl.bronstein,
        "simple": TimeControl.simple_delay,
    }[kind](base, extra)
    s = started(control)
    s, _ = s.press(used, A)
    if used >= {"simple": base + extra}.get(kind, base):
        assert s.phase is Phase.FLAGGED
        return
    left = s.view(used).remaining_ns.a
    expected = {
        "fischer": base - used + extra,
        "bronstein": base - used + min(used, extra),
        "simple": base - max(0, used - extra),
    }[kind]
    assert left == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10 * MINUTE))
def test_a_press_at_the_flag_instant_is_too_late(base) -> None:
    s = started(TimeControl.sudden_death(base))
    s, outcome = s.press(base, A)
    assert outcome is Outcome.IGNORED_FLAGGED
    assert s.flag is A and s.flag_at_ns == base
