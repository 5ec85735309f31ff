"""State is a replay of the journal: live state = replay = snapshot + tail; and the restart rules
for time that passed while the daemon was down (same boot: charged; new boot: paused)."""

from __future__ import annotations

import json
import random

import pytest

from clockd.core.clock import Adjust, ClockState, Pause, Phase, Press, Resume, Side, replay
from clockd.core.program import AddNote, ClearAlert, SetClock
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, MS, SECOND
from clockd.service.component import Refused
from clockd.service.engine import Engine
from clockd.service.tables import Tables
from clockd.service.views import state_digest
from clockd.store.journal import Journal
from tests.service.conftest import act

A, B = Side.A, Side.B


def settle(engine: Engine) -> None:
    engine.barrier().result(5)


def digests(engine: Engine) -> dict[int, str]:
    return {t: state_digest(s) for t, s in engine.current.tables.items()}


def rebuilt(path, *, use_snapshots: bool, upto: int | None = None) -> tuple[Engine, int | None, int]:
    engine = Engine(Journal.reader(path), boot_id="audit", tables=Tables())
    snapshot_seq, replayed = engine.rebuild(use_snapshots=use_snapshots, upto=upto)
    return engine, snapshot_seq, replayed


def play(engine: Engine, devices: dict, clock, rng: random.Random, steps: int) -> None:
    """A random afternoon: presses (some by the wrong side, some re-sent, some late), pauses,
    corrections, new duels, flags, notes — with refused commands mixed in."""
    sent = []
    for _ in range(steps):
        table = rng.choice(sorted(devices))
        device = devices[table]
        roll = rng.random()
        try:
            if (
                engine.current.tables[table].program.clock.view(clock.now).phase is Phase.FLAGGED
                and roll < 0.3
            ):
                engine.submit(act(table, SetClock(control=rng.choice(("2m", "2m+1s", "2m b2s"))))).result(5)
            elif roll < 0.65:
                state = engine.current.tables[table].program.clock
                side = state.to_move or rng.choice((A, B))
                if rng.random() < 0.1:
                    side = side.other
                t = clock.advance(rng.randint(50, 6000) * MS)
                sent.append(device.press(side, t - rng.randint(0, 40) * MS))
            elif roll < 0.72 and sent:
                device.resend(rng.choice(sent))
            elif roll < 0.77:
                engine.submit(act(table, Pause(reason="r"), by="ref")).result(5)
            elif roll < 0.83:
                engine.submit(act(table, Resume())).result(5)
            elif roll < 0.88:
                delta = rng.choice((-1, 1)) * rng.randint(1, 90) * SECOND
                engine.submit(
                    act(table, Adjust(side=rng.choice((A, B)), delta_ms=(delta) // MS, reason="fix"))
                ).result(5)
            elif roll < 0.9:
                engine.submit(act(table, SetClock(control=rng.choice(("1m", "2m+1s", "1m b2s"))))).result(5)
            elif roll < 0.92:
                clock.advance(rng.randint(10, 70) * SECOND)  # long thinks: flags fall
                settle(engine)
            elif roll < 0.96:
                engine.submit(act(table, AddNote(text="dispute noted"), by="ref")).result(5)
            else:
                engine.submit(act(table, ClearAlert(alert_id=rng.randint(1, 3)))).result(5)
        except Refused:
            pass
    settle(engine)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_replay_and_snapshot_plus_tail_rebuild_exactly_the_live_state(
    seed, make_engine, device_factory, clock, tmp_path
) -> None:
    engine, _ = make_engine(tables=(1, 2, 3), control="2m", snapshot_every=100)
    devices = {t: device_factory(t, check_journal=False) for t in (1, 2, 3)}
    for t, d in devices.items():
        d.start(engine.attach(t, d))
    play(engine, devices, clock, random.Random(seed), 500)
    live = digests(engine)
    live_seq = engine.current.seq
    assert live_seq > 300 and engine.stats.snapshots >= 3
    path = tmp_path / "journal.db"

    from_events, snap, replayed = rebuilt(path, use_snapshots=False)
    assert snap is None and replayed == live_seq
    assert digests(from_events) == live

    from_snapshot, snap, replayed = rebuilt(path, use_snapshots=True)
    assert snap is not None and replayed == live_seq - snap < 100
    assert digests(from_snapshot) == live


def test_the_tables_clocks_equal_the_cores_own_fold_of_the_journaled_inputs(
    make_engine, device_factory, clock, tmp_path
) -> None:
    """An independent check of the runtime: feed the journaled clock inputs to clockd.core.replay."""
    engine, _ = make_engine(tables=(1,), control="3m+2s")
    device = device_factory(1, check_journal=False)
    device.start(engine.attach(1, device))
    rng = random.Random(9)
    for _ in range(80):
        state = engine.current.tables[1].program.clock
        device.press(state.to_move or B, clock.advance(rng.randint(100, 4000) * MS))
        if rng.random() < 0.1:
            settle(engine)
            try:
                engine.submit(act(1, Pause())).result(5)
                clock.advance(5 * SECOND)
                engine.submit(act(1, Resume())).result(5)
            except Refused:
                pass
    settle(engine)
    inputs = []
    for record in engine.journal.read(table=1):
        e = record.entry
        if e.kind == "press":
            inputs.append(Press(t_ns=e.t_ns, side=e.side))  # type: ignore[attr-defined]
        elif e.kind == "pause":
            inputs.append(Pause(t_ns=e.t_ns))
        elif e.kind == "resume":
            inputs.append(Resume(t_ns=e.t_ns))
    expected: ClockState = replay(TimeControl.parse("3m+2s"), inputs)
    assert engine.current.tables[1].program.clock == expected


def test_a_restart_on_the_same_boot_charges_the_downtime_and_alerts_the_referee(
    make_engine, device_factory, clock, crash_engine
) -> None:
    engine, _ = make_engine(tables=(1, 2))
    d1 = device_factory(1)
    d1.start(engine.attach(1, d1))
    d1.press(B, clock.advance(SECOND))  # table 1 runs (A to move); table 2 stays ready
    clock.advance(10 * SECOND)
    settle(engine)
    crash_engine(engine)
    left_at_crash = engine.current.tables[1].program.clock.view(clock.now).remaining_ns.a

    clock.advance(30 * SECOND)  # nobody is watching for 30 s; the players keep playing
    press_during_downtime = clock.now - 5 * SECOND
    engine2, report = make_engine(tables=(1, 2))
    assert report.rule == "same-boot"
    assert report.downtime_ns == 40 * SECOND  # since the last journaled input: all the daemon can know
    assert report.alerts == [(1, "alert.recovered-running", {"since_last_input_ms": 40_000, "side": "a"})]
    (alert,) = engine2.current.tables[1].alerts
    assert alert.code == "alert.recovered-running" and alert.data == {
        "since_last_input_ms": 40_000,
        "side": "a",
    }
    assert engine2.current.tables[2].alerts == ()
    state = engine2.current.tables[1]
    assert state.program.clock.phase is Phase.RUNNING
    assert state.program.clock.view(clock.now).remaining_ns.a == left_at_crash - 30 * SECOND
    # The clock kept A's press made while the daemon was down and re-sends it with its own stamp.
    d1b = device_factory(1)
    d1b.seq = d1.seq
    d1b.start(engine2.attach(1, d1b))
    d1b.press(A, press_during_downtime)
    settle(engine2)
    v = engine2.current.tables[1].program.clock.view(clock.now)
    assert v.running is B
    assert v.remaining_ns.a == left_at_crash - 25 * SECOND


def test_a_restart_after_a_reboot_pauses_running_clocks_at_the_last_journaled_instant(
    make_engine, device_factory, clock, crash_engine
) -> None:
    engine, _ = make_engine(tables=(1,))
    d1 = device_factory(1)
    d1.start(engine.attach(1, d1))
    d1.press(B, clock.advance(SECOND))
    last = clock.advance(7 * SECOND)
    d1.press(A, last)  # B runs from here; this is the last journaled instant
    settle(engine)
    crash_engine(engine)
    at_last = engine.current.tables[1].program.clock.view(last).remaining_ns

    clock.now = 40 * SECOND  # the machine rebooted: monotonic time starts again, near zero
    engine2, report = make_engine(tables=(1,), boot_id="boot-2")
    assert report.rule == "new-boot"
    assert report.alerts == [(1, "alert.recovered-paused", {"side": "b"})]
    state = engine2.current.tables[1]
    assert state.program.clock.phase is Phase.PAUSED
    assert state.program.clock.view(engine2.now_ns() + MINUTE).remaining_ns == at_last  # paused: nothing runs
    assert engine2.now_ns() >= last  # the journal's time goes on from where it stopped
    pause = [r.entry for r in engine2.journal.read() if r.entry.kind == "pause"][-1]
    assert pause.source == "recovery" and pause.t_ns == last  # type: ignore[attr-defined]
    engine2.submit(act(1, Resume(reason="checked the clock"))).result(5)
    clock.advance(3 * SECOND)
    assert (
        engine2.current.tables[1].program.clock.view(engine2.now_ns()).remaining_ns.b
        == at_last.b - 3 * SECOND
    )


def test_a_restart_uses_the_newest_snapshot_and_replays_only_the_tail(
    make_engine, device_factory, clock, crash_engine
) -> None:
    engine, _ = make_engine(tables=(1,), snapshot_every=50)
    d = device_factory(1, check_journal=False)
    d.start(engine.attach(1, d))
    for i in range(180):
        d.press(B if i % 2 == 0 else A, clock.advance(SECOND))
    settle(engine)
    live = engine.current.tables[1].program.clock
    crash_engine(engine)
    engine2, report = make_engine(tables=(1,))
    assert report.snapshot_seq is not None and report.replayed < 50
    assert report.snapshot_seq + report.replayed == engine.current.seq
    assert engine2.current.tables[1].program.clock == live


def test_a_snapshot_written_by_another_version_is_ignored(
    make_engine, device_factory, clock, crash_engine, tmp_path
) -> None:
    engine, _ = make_engine(tables=(1,), snapshot_every=20)
    d = device_factory(1, check_journal=False)
    d.start(engine.attach(1, d))
    for i in range(60):
        d.press(B if i % 2 == 0 else A, clock.advance(SECOND))
    settle(engine)
    live = engine.current.tables[1].program.clock
    crash_engine(engine)
    with Journal(tmp_path / "journal.db") as j:
        for snap in j.snapshots():
            body = json.loads(snap.body)
            body["version"] = "0.0.0-other"
            j.save_snapshot(snap.seq, snap.format, json.dumps(body))
    engine2, report = make_engine(tables=(1,))
    assert report.snapshot_seq is None and report.replayed == engine.current.seq
    assert engine2.current.tables[1].program.clock == live


def test_rebuild_up_to_a_seq_gives_the_state_published_at_that_seq(
    make_engine, device_factory, clock, tmp_path
) -> None:
    engine, _ = make_engine(tables=(1,), snapshot_every=25)
    d = device_factory(1, check_journal=False)
    d.start(engine.attach(1, d))
    published: dict[int, str] = {}
    engine.add_listener(
        lambda batch: published.__setitem__(batch.current.seq, state_digest(batch.current.tables[1]))
    )
    for i in range(100):
        d.press(B if i % 2 == 0 else A, clock.advance(SECOND))
        if i % 7 == 0:
            settle(engine)
    settle(engine)
    for seq in sorted(published)[:: max(1, len(published) // 10)]:
        audit, _, _ = rebuilt(tmp_path / "journal.db", use_snapshots=True, upto=seq)
        assert state_digest(audit.current.tables[1]) == published[seq], seq


def test_after_a_restart_a_clock_that_resends_is_deduplicated_and_one_that_renumbers_is_not(
    make_engine, device_factory, clock, crash_engine
) -> None:
    """A serial clock (with a boot id) re-sends what it kept; GPIO buttons number presses per daemon run."""
    engine, _ = make_engine(tables=(1, 2))
    serial_like = device_factory(1, device_id="clock-1")
    serial_like.boot_id = 0xBEEF
    gpio_like = device_factory(2, device_id="gpio:2")
    serial_like.start(engine.attach(1, serial_like))
    gpio_like.start(engine.attach(2, gpio_like))
    kept = [serial_like.press(B, clock.advance(SECOND)), serial_like.press(A, clock.advance(SECOND))]
    gpio_like.press(B, clock.advance(SECOND))
    gpio_like.press(A, clock.advance(SECOND))
    settle(engine)
    crash_engine(engine)
    journaled = engine.journal.last_seq

    engine2, _ = make_engine(tables=(1, 2))
    serial_again = device_factory(1, device_id="clock-1")
    serial_again.boot_id = 0xBEEF
    gpio_again = device_factory(2, device_id="gpio:2")
    serial_again.start(engine2.attach(1, serial_again))
    gpio_again.start(engine2.attach(2, gpio_again))
    for press in kept:  # the clock did not hear the ACKs before the crash
        serial_again.resend(press)
    gpio_again.press(B, clock.advance(SECOND))  # seq 1 again: a new press of this run
    settle(engine2)
    engine2._outbox.stop()
    new = [r.entry for r in engine2.journal.read(after=journaled) if r.entry.kind == "press"]
    assert [(p.device_id, p.device_seq) for p in new] == [("gpio:2", 1)]  # type: ignore[attr-defined]
    assert sorted(p.seq for p in serial_again.acked) == [1, 2]
    assert engine2.current.tables[2].presses == 3 and engine2.current.tables[2].program.clock.moves.b == 1


def test_restarting_twice_leaves_one_open_alert_per_kind_and_both_on_the_timeline(
    make_engine, device_factory, clock, crash_engine
) -> None:
    engine, _ = make_engine(tables=(1,))
    d = device_factory(1)
    d.start(engine.attach(1, d))
    d.press(B, clock.advance(SECOND))
    settle(engine)
    crash_engine(engine)
    clock.advance(5 * SECOND)
    engine2, _ = make_engine(tables=(1,))
    crash_engine(engine2)
    clock.advance(7 * SECOND)
    engine3, _ = make_engine(tables=(1,))
    (alert,) = engine3.current.tables[1].alerts
    assert alert.code == "alert.recovered-running" and alert.data["since_last_input_ms"] == 7_000
    alerts = [r.entry for r in engine3.journal.read(table=1) if r.entry.kind == "alert"]
    assert len(alerts) == 2
