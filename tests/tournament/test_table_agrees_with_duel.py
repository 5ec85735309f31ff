"""The daemon's table clock and the pure duel take every input the same way.

``duelclock duel replay`` and the daemon's tournament decide with the pure duel
(:mod:`clockd.core.duel`); the table's own clock (what the clock face shows) is the
daemon's :class:`~clockd.service.tables.Tables`, set so that only the toss loser may
start it. For any sequence of presses, pauses and adjustments both must show the same
times, the same side running and the same moves — or the face and the result disagree.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core.clock import Adjust, ClockError, Pause, Press, Resume, Side
from clockd.core.duel import Duel, DuelOutcome, DuelSetup
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, SECOND
from clockd.devices.base import Press as DevicePress
from clockd.service.component import Refused
from clockd.service.events import Adjusted, ClockSet, Paused, Resumed, TableCreated
from clockd.service.tables import Tables
from clockd.store.journal import Record

T0 = 10**12

steps = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=90 * SECOND),
        st.sampled_from(["press-a", "press-b", "press-a", "press-b", "pause", "resume", "adjust"]),
    ),
    max_size=40,
)


def _commit(tables: Tables, event: object) -> None:
    tables.commit([Record(1, event)])  # type: ignore[arg-type]


@settings(max_examples=120, deadline=None)
@given(raw=steps, toss_winner=st.sampled_from([Side.A, Side.B]))
def test_the_table_and_the_duel_show_the_same_clock(raw: list[tuple[int, str]], toss_winner: Side) -> None:
    control = TimeControl.sudden_death(2 * MINUTE)
    tables = Tables(grace_ns=0)
    tables.begin()
    tables.stage(TableCreated(table=1, t_ns=T0, label="1", control="2m"), now_ns=T0, replay=False)
    _commit(tables, None)
    starter = toss_winner.other.value
    tables.stage(ClockSet(table=1, t_ns=T0, control="2m", starter=starter), now_ns=T0, replay=False)
    _commit(tables, None)
    duel = Duel.initial(DuelSetup(control=control, toss_winner=toss_winner))
    t = T0
    seq = 0
    for dt, kind in raw:
        t += dt
        if duel.over or duel.settle(t).over:
            break
        if kind.startswith("press"):
            side = Side.A if kind.endswith("a") else Side.B
            seq += 1
            press = DevicePress(table=1, t_ns=t, side=side, device_id="x", seq=seq)
            staged = tables.stage_device(press, None, now_ns=t, offset_ns=0)
            _commit(tables, None)
            duel, outcome = duel.apply(Press(t_ns=t, side=side))
            table_outcome = staged.event.outcome.value  # type: ignore[union-attr]
            expected = "ignored-not-running" if outcome is DuelOutcome.IGNORED_TOSS_WINNER else outcome.value
            assert table_outcome == expected
        else:
            event, clock_input = {
                "pause": (Paused(table=1, t_ns=t), Pause(t_ns=t)),
                "resume": (Resumed(table=1, t_ns=t), Resume(t_ns=t)),
                "adjust": (
                    Adjusted(table=1, t_ns=t, side=Side.A, delta_ns=-7 * SECOND, reason="test"),
                    Adjust(t_ns=t, side=Side.A, delta_ns=-7 * SECOND),
                ),
            }[kind]
            try:
                duel_after, _ = duel.apply(clock_input)
            except ClockError:
                try:
                    tables.stage(event, now_ns=t, replay=False)
                except Refused:
                    tables.abort()
                    continue
                raise AssertionError(f"the table took a {kind} the duel refused") from None
            tables.stage(event, now_ns=t, replay=False)
            _commit(tables, None)
            duel = duel_after
        table_view = tables.view()[1].clock.view(t)
        duel_view = duel.view(t)
        assert table_view.remaining_ns == duel_view.remaining_ns
        assert table_view.running == duel_view.running
        assert table_view.moves == duel_view.moves
        assert table_view.phase == duel_view.phase
