"""The engine on a real journal: commit before acknowledgement, one order per table, refusals,
flags decided at the right instant, duplicates, and what a failing disk does."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from clockd.core.clock import Adjust, Outcome, Pause, Phase, Resume, Side
from clockd.core.device import Beep
from clockd.core.program import SetClock
from clockd.core.units import MS, SECOND
from clockd.i18n import Msg, msg, render
from clockd.service.component import Refused
from clockd.service.engine import Engine, EngineStopped
from clockd.service.entries import PressRecorded
from clockd.service.views import state_digest
from clockd.store.journal import JournalError
from tests.service.conftest import act

A, B = Side.A, Side.B


def settle(engine: Engine) -> None:
    engine.barrier().result(5)


def presses(engine: Engine, table: int) -> list[PressRecorded]:
    return [r.entry for r in engine.journal.read(table=table) if isinstance(r.entry, PressRecorded)]


def test_every_press_is_on_disk_before_its_device_hears_it_was_taken(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    for i in range(60):
        device.press(B if i % 2 == 0 else A, clock.advance(700 * MS))
    settle(engine)
    engine._outbox.stop()  # run every queued acknowledgement
    assert [p.seq for p in device.acked] == list(range(1, 61))
    assert device.acked_before_journaled == []
    v = engine.current.tables[1].program.clock.view(clock.now)
    assert (v.moves.a, v.moves.b) == (30, 29)  # B's first press only started A's time


def test_a_commit_that_fails_acknowledges_nothing_applies_nothing_and_stops_the_engine(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    device.press(B, clock.advance(SECOND))
    settle(engine)
    before = engine.current.tables[1]
    engine.journal._db.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )
    device.press(A, clock.advance(SECOND))
    assert engine.wait(5000)
    assert isinstance(engine.failure, JournalError)
    engine._outbox.stop()
    assert [p.seq for p in device.acked] == [1]
    assert engine.current.tables[1] is before
    with pytest.raises(EngineStopped):
        engine.submit(act(1, Pause())).result(5)


def test_a_press_sent_again_is_journaled_once_and_acknowledged_each_time(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    first = device.press(B, clock.advance(SECOND))
    second = device.press(A, clock.advance(3 * SECOND))
    settle(engine)
    device.resend(first)
    device.resend(second)
    device.resend(first)
    settle(engine)
    engine._outbox.stop()
    assert [p.device_seq for p in presses(engine, 1)] == [1, 2]
    assert sorted(p.seq for p in device.acked) == [1, 1, 1, 2, 2]
    assert engine.current.tables[1].program.clock.moves.a == 1


def test_presses_arriving_out_of_order_within_a_device_are_all_kept(
    make_engine, device_factory, clock
) -> None:
    """A dropped frame re-sent later must not be mistaken for a duplicate (seq 3 before seq 2)."""
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    t = clock.advance(SECOND)
    device.press(B, t, seq=1)
    device.press(A, t + 2 * SECOND, seq=3)
    clock.advance(3 * SECOND)
    device.press(B, t + SECOND, seq=2)
    settle(engine)
    assert sorted(p.device_seq for p in presses(engine, 1)) == [1, 2, 3]  # type: ignore[type-var]


def test_a_rebooted_device_starting_its_numbering_again_is_not_a_duplicate(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine()
    old = device_factory(1, device_id="clock-7#boot-a")
    old.start(engine.attach(1, old))
    old.press(B, clock.advance(SECOND))
    settle(engine)
    new = device_factory(1, device_id="clock-7#boot-b")
    new.start(engine.sink_for(new))
    new.press(A, clock.advance(SECOND))  # seq 1 again, new epoch
    settle(engine)
    assert [(p.device_id, p.device_seq) for p in presses(engine, 1)] == [
        ("clock-7#boot-a", 1),
        ("clock-7#boot-b", 1),
    ]


def test_a_refused_command_changes_nothing_and_says_why(make_engine, clock) -> None:
    engine, _ = make_engine()
    count = engine.journal.count()
    digest = state_digest(engine.current.tables[1])
    with pytest.raises(Refused, match="only a paused clock can be resumed; this one is ready"):
        engine.submit(act(1, Resume())).result(5)
    with pytest.raises(Refused, match=r"there is no table 9 \(tables: 1\)"):
        engine.submit(act(9, Adjust(side=A, delta_ms=(SECOND) // MS, reason="x"))).result(5)
    with pytest.raises(Refused, match=r"time control stage 1 \(ten minutes\)"):
        engine.submit(act(1, SetClock(control="ten minutes"))).result(5)
    assert engine.journal.count() == count
    assert state_digest(engine.current.tables[1]) == digest


def test_referee_commands_are_stamped_by_the_engine_and_journaled_with_who_and_why(
    make_engine, clock
) -> None:
    engine, _ = make_engine()
    engine.submit(
        act(1, Adjust(side=B, delta_ms=(-30 * SECOND) // MS, reason="illegal move"), by="Anna")
    ).result(5)
    (record,) = [r for r in engine.journal.read(table=1) if r.entry.kind == "adjust"]
    assert record.entry.t_ns == clock.now
    assert (record.entry.by, record.entry.action.reason) == ("Anna", "illegal move")  # type: ignore[attr-defined]
    assert (
        engine.current.tables[1].program.clock.view(clock.now).remaining_ns.b
        == 10 * 60 * SECOND - 30 * SECOND
    )


def test_a_press_stamped_before_the_referees_pause_is_applied_at_the_pause(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    device.press(B, clock.advance(SECOND))  # starts A's time
    settle(engine)
    stamped = clock.advance(5 * SECOND)
    clock.advance(20 * MS)
    engine.submit(act(1, Pause(reason="dispute"))).result(5)
    paused_at = clock.now
    device.press(A, stamped)  # arrives after the pause, stamped before it
    settle(engine)
    last = presses(engine, 1)[-1]
    assert last.t_ns == paused_at and last.device_t_ns == stamped
    assert last.outcome == Outcome.IGNORED_PAUSED
    assert engine.current.tables[1].program.clock.phase is Phase.PAUSED


def test_a_press_stamped_in_the_future_is_applied_now(make_engine, device_factory, clock) -> None:
    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    device.press(B, clock.now + 10 * SECOND)
    settle(engine)
    assert presses(engine, 1)[-1].t_ns == clock.now


def flag_setup(make_engine, device_factory, clock) -> tuple[Engine, Callable[..., object], int]:
    engine, _ = make_engine(control="1m", grace_ns=250 * MS)
    device = device_factory(1)
    device.start(engine.attach(1, device))
    started = clock.advance(SECOND)
    device.press(B, started)  # A's minute starts
    settle(engine)
    return engine, device, started + 60 * SECOND


def test_a_press_in_flight_when_the_flag_falls_still_counts(make_engine, device_factory, clock) -> None:
    engine, device, flag_at = flag_setup(make_engine, device_factory, clock)
    clock.now = flag_at + 100 * MS  # the press below was stamped 50 ms before the flag, heard 100 ms after
    settle(engine)
    assert not any(r.entry.kind == "flag" for r in engine.journal.read())
    device.press(A, flag_at - 50 * MS)
    settle(engine)
    assert presses(engine, 1)[-1].outcome == Outcome.APPLIED
    assert engine.current.tables[1].program.clock.view(clock.now).running is B


def test_a_flag_is_decided_at_its_instant_once_the_grace_is_over(make_engine, device_factory, clock) -> None:
    engine, device, flag_at = flag_setup(make_engine, device_factory, clock)
    clock.now = flag_at + 250 * MS
    settle(engine)
    (flag,) = [r.entry for r in engine.journal.read() if r.entry.kind == "flag"]
    assert flag.side is A and flag.flag_at_ns == flag_at  # type: ignore[attr-defined]
    engine._outbox.stop()
    assert device.beeps == [Beep.FLAG]
    assert device.shows[-1].remaining_ms.a == 0
    # A press heard now, stamped before the flag, is too late: the flag was decided.
    device.press(A, flag_at - 10 * MS)
    engine._outbox = type(engine._outbox)()
    engine._outbox.start()
    settle(engine)
    assert presses(engine, 1)[-1].outcome == Outcome.IGNORED_FLAGGED
    assert engine.current.tables[1].program.flag_decided


def test_time_given_back_after_a_flag_reopens_the_table(make_engine, device_factory, clock) -> None:
    engine, _, flag_at = flag_setup(make_engine, device_factory, clock)
    clock.now = flag_at + SECOND
    settle(engine)
    assert engine.current.tables[1].program.flag_decided
    engine.submit(act(1, Adjust(side=A, delta_ms=(10 * SECOND) // MS, reason="clock malfunction"))).result(5)
    state = engine.current.tables[1]
    assert not state.program.flag_decided and state.program.clock.phase is Phase.PAUSED
    engine.submit(act(1, Resume())).result(5)
    clock.advance(10 * SECOND + 250 * MS)
    settle(engine)
    assert sum(1 for r in engine.journal.read() if r.entry.kind == "flag") == 2


def test_a_device_that_raises_does_not_stop_acknowledgements_to_the_others(
    make_engine, device_factory, clock
) -> None:
    engine, _ = make_engine(tables=(1, 2))
    bad = device_factory(1)
    good = device_factory(2)

    def broken(display: object) -> None:
        raise OSError("USB write failed")

    bad.show = broken  # type: ignore[method-assign]
    bad.start(engine.attach(1, bad))
    good.start(engine.attach(2, good))
    for i in range(5):
        bad.press(B if i % 2 == 0 else A, clock.advance(SECOND))
        good.press(B if i % 2 == 0 else A, clock.advance(SECOND))
    settle(engine)
    engine._outbox.stop()
    assert len(bad.acked) == len(good.acked) == 5
    assert engine._outbox.failures == 5


def test_the_referees_button_pauses_a_running_clock_and_resumes_it(
    make_engine, device_factory, clock
) -> None:
    from clockd.devices.base import RefereeButton

    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    button = RefereeButton(table=1, t_ns=clock.now, device_id="gpio:1")
    device.sink(button)  # a ready clock: the button does nothing, but it is on the timeline
    device.press(B, clock.advance(SECOND))
    clock.advance(SECOND)
    device.sink(button)
    settle(engine)
    assert engine.current.tables[1].program.clock.phase is Phase.PAUSED
    clock.advance(SECOND)
    device.sink(button)
    settle(engine)
    assert engine.current.tables[1].program.clock.phase is Phase.RUNNING
    actions = [r.entry.action for r in engine.journal.read() if r.entry.kind == "referee-button"]
    assert actions == ["ignored", "pause", "resume"]


def test_a_device_that_disconnects_is_shown_with_its_reason_and_back_when_it_returns(
    make_engine, device_factory, clock
) -> None:
    from clockd.devices.base import Disconnected

    engine, _ = make_engine()
    device = device_factory(1)
    device.start(engine.attach(1, device))
    device.connect(clock.now)
    settle(engine)
    assert engine.current.tables[1].device.state == "connected"
    pulled = msg("driver.serial.port-went-away", path="/dev/ttyUSB0", exc=Msg("oserror.no-such-device"))
    device.sink(Disconnected(table=1, t_ns=clock.now, device_id="test-1", reason=pulled))
    settle(engine)
    info = engine.current.tables[1].device
    assert (info.state, info.detail) == ("disconnected", pulled)
    assert render(info.detail, "pl") == "port /dev/ttyUSB0 zniknął (nie ma takiego urządzenia)"
    device.connect(clock.advance(SECOND))
    settle(engine)
    assert engine.current.tables[1].device.state == "connected"
