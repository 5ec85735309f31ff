"""Recovery meets the hash chain: a changed event stops the start (naming its seq), ``--replay-all``
checks every event, and a damaged snapshot makes the daemon replay instead of restoring it."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from clockd.core.clock import Side
from clockd.core.units import SECOND
from clockd.service.engine import Engine
from clockd.store import JournalDamaged

A, B = Side.A, Side.B


def tamper(path: Path, sql: str, *args: object) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(sql, args)
    db.close()


def press_seqs(engine: Engine) -> list[int]:
    return [r.seq for r in engine.journal.read() if r.entry.kind == "press"]


def play(make_engine, device_factory, clock, presses: int = 8) -> Engine:
    engine, _ = make_engine(tables=(1,))
    device = device_factory(1, check_journal=False)
    device.start(engine.attach(1, device))
    for i in range(presses):
        device.press(B if i % 2 == 0 else A, clock.advance(3 * SECOND))
    engine.barrier().result(5)
    return engine


def test_a_press_moved_by_a_millisecond_after_the_snapshot_stops_the_start_naming_its_seq(
    make_engine, device_factory, clock, crash_engine, tmp_path: Path
) -> None:
    engine = play(make_engine, device_factory, clock)
    seq = press_seqs(engine)[-2]
    crash_engine(engine)  # no snapshot at stop: the restart replays these presses
    tamper(
        tmp_path / "journal.db",
        "UPDATE events SET t_ns = t_ns + 1000000, body = json_set(body, '$.t_ns', t_ns + 1000000) "
        "WHERE seq = ?",
        seq,
    )
    with pytest.raises(
        JournalDamaged, match=rf"the event at seq {seq} does not match the hash chain"
    ) as refused:
        make_engine(tables=(1,))
    assert refused.value.seq == seq


def test_replay_all_checks_the_events_behind_the_snapshot_too(
    make_engine, device_factory, clock, tmp_path: Path
) -> None:
    engine = play(make_engine, device_factory, clock)
    seq = press_seqs(engine)[1]
    engine.stop()  # a clean stop: a snapshot of everything
    engine.journal.close()
    # One flipped digit in a field replay does not recompute: the clocks would not notice.
    tamper(
        tmp_path / "journal.db",
        "UPDATE events SET body = json_set(body, '$.device_t_ns', json_extract(body, '$.device_t_ns') + 1) "
        "WHERE seq = ?",
        seq,
    )
    with pytest.raises(JournalDamaged, match=rf"seq {seq} does not match"):
        make_engine(tables=(1,), use_snapshots=False)


def test_a_damaged_snapshot_is_named_and_the_events_are_replayed_instead(
    make_engine, device_factory, clock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = play(make_engine, device_factory, clock)
    live = engine.current.tables[1]
    engine.stop()
    engine.journal.close()
    last = engine.journal.last_seq
    tamper(tmp_path / "journal.db", "UPDATE snapshots SET body = replace(body, 'Stolik 1', 'Stolik 7')")
    with caplog.at_level(logging.WARNING):
        engine2, report = make_engine(tables=(1,))
    assert report.snapshot_seq is None and report.replayed == last
    assert engine2.current.tables[1].label == "Stolik 1"
    assert engine2.current.tables[1].program == live.program
    assert f"journal {tmp_path / 'journal.db'}: the snapshot at seq {last} is damaged" in caplog.text
