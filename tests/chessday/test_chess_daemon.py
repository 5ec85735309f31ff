"""Chess groups as events of a real daemon: pairing through the API, two arbiters, a clocked
board, and a restart that rebuilds every group from the journal without pairing again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.api.messages import ApiError
from clockd.core import tomltext
from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import CloseRound, EnterResult, PairRound, UndoResult
from clockd.core.clock import Side
from clockd.service.runtime import Daemon, TableSpec
from tests.chessday.conftest import config
from tests.service.conftest import FakeClock, RecordingDevice


class Hall:
    def __init__(self, db: Path, clock: FakeClock) -> None:
        self.clock = clock
        self.daemon = Daemon(
            db,
            tables=[TableSpec(t, f"Szachownica {t}") for t in (1, 2)],
            port=0,
            clock=clock,
            boot_id="test-boot",
            write_daemon_info=False,
        )
        self.devices = {t: RecordingDevice(t) for t in (1, 2)}
        for t, d in self.devices.items():
            self.daemon.add_device(t, d)
        started = self.daemon.start()
        self.anna = Client("127.0.0.1", started.port, started.token, by="Anna")
        self.piotr = Client("127.0.0.1", started.port, started.token, by="Piotr")

    def group(self, key: str) -> Any:
        return self.anna.events([key]).events[0].body

    def settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(10)
        self.daemon.engine.barrier().result(10)

    def stop(self) -> None:
        self.anna.close()
        self.piotr.close()
        self.daemon.stop()


@pytest.fixture
def halls(tmp_path: Path) -> Iterator[Any]:
    made: list[Hall] = []
    clock = FakeClock()

    def make() -> Hall:
        h = Hall(tmp_path / "szachy.db", clock)
        made.append(h)
        return h

    yield make
    for h in made:
        h.stop()


def create(client: Client, key: str = "sp3-ch", **kw: Any) -> None:
    cfg = config(11, rounds=3, first_board=21, **kw)
    text = tomltext.dumps(cfg.model_dump(mode="json", exclude_defaults=True))
    client.act("", CreateEvent(event_kind="chess", key=key, config_toml=text))


def test_a_group_pairs_takes_results_from_two_arbiters_and_survives_a_restart(halls: Any) -> None:
    hall = halls()
    create(hall.anna, clocks={21: 1})
    body = hall.group("sp3-ch")
    assert body.phase == "start-list" and (body.first_board, body.last_board) == (21, 26)
    hall.anna.act("sp3-ch", PairRound(round=1))
    with pytest.raises(ApiError) as twice:
        hall.piotr.act("sp3-ch", PairRound(round=1))  # a second arbiter's click pairs nothing
    assert twice.value.reason.code == "chess.round-open"
    body = hall.group("sp3-ch")
    assert [b.board for b in body.boards] == [21, 22, 23, 24, 25]
    # Board 21 has a clock: a chess game's clock, White on side A, 10 minutes.
    assert body.boards[0].table == 1 and body.boards[0].clock is not None
    assert body.boards[0].clock.remaining_ms.a == 10 * 60_000
    hall.anna.act("sp3-ch", EnterResult(board=22, result="1"))
    with pytest.raises(ApiError) as conflict:
        hall.piotr.act("sp3-ch", EnterResult(board=22, result="="))
    assert conflict.value.reason.params["by"] == "Anna"
    hall.piotr.act("sp3-ch", EnterResult(board=23, result="="))
    hall.piotr.act("sp3-ch", EnterResult(board=24, result="+"))
    hall.piotr.act("sp3-ch", UndoResult(board=24))
    body = hall.group("sp3-ch")
    entered = {b.board: (b.result, b.by) for b in body.boards}
    assert entered[22] == ("1-0", "Anna") and entered[23] == ("½-½", "Piotr") and entered[24] == (None, "")
    before = [(b.board, b.white.start, b.black.start) for b in body.boards]
    hall.stop()

    again = halls()
    body = again.group("sp3-ch")
    assert [(b.board, b.white.start, b.black.start) for b in body.boards] == before
    assert {b.board: (b.result, b.by) for b in body.boards} == entered
    journal = again.daemon.engine.journal  # type: ignore[union-attr]
    pairings = [r.entry for r in journal.read() if r.entry.kind == "chess-pair"]
    assert len(pairings) == 1 and pairings[0].decided["round"] == 1  # paired once, replayed as decided
    again.anna.act("sp3-ch", CloseRound())
    body = again.group("sp3-ch")
    assert body.phase == "between-rounds" and body.closed_with_zero == [21, 24, 25]
    assert body.standings and body.columns[:3] == ["PTS", "BH-C1", "BH"]


def test_a_flag_on_a_clocked_board_proposes_a_result_and_decides_nothing(halls: Any) -> None:
    hall = halls()
    create(hall.anna, clocks={21: 1})
    hall.anna.act("sp3-ch", PairRound())
    device = hall.devices[1]
    hall.settle()
    t = hall.clock.now
    device.press(Side.B, t)  # Black presses: White's clock runs
    hall.settle()
    hall.clock.advance(10 * 60 * 1_000_000_000 + 1_000_000_000)
    hall.settle()
    hall.settle()
    board = hall.group("sp3-ch").boards[0]
    assert board.result is None
    assert board.proposal == "0-1" and board.proposal_why == "flag"
    hall.anna.act("sp3-ch", EnterResult(board=21, result=board.proposal))
    assert hall.group("sp3-ch").boards[0].result == "0-1"


def test_a_name_longer_than_trfs_33_columns_is_shown_whole_and_survives_a_snapshot(halls: Any) -> None:
    """A child called "Brzęczyszczykiewicz-Wierzbicki, Aleksander Konstanty" (52 characters):
    the group pairs, its snapshot is written at the stop (TRF's name field cut to its 33 columns)
    and read at the restart, and the screens show the whole name. (It stopped the engine.)"""
    cfg = config(11, rounds=3, first_board=21)
    long = cfg.group.entrants[0].model_copy(
        update={"surname": "Brzęczyszczykiewicz-Wierzbicki", "first_name": "Aleksander Konstanty"}
    )
    group = cfg.group.model_copy(update={"entrants": (long, *cfg.group.entrants[1:])})
    text = tomltext.dumps(
        cfg.model_copy(update={"group": group}).model_dump(mode="json", exclude_defaults=True)
    )
    hall = halls()
    hall.anna.act("", CreateEvent(event_kind="chess", key="sp3-ch", config_toml=text))
    hall.anna.act("sp3-ch", PairRound(round=1))
    whole = "Brzęczyszczykiewicz-Wierzbicki Aleksander Konstanty"
    assert whole in [p.name for p in hall.group("sp3-ch").start_list]
    hall.stop()  # a clean stop writes the snapshot

    again = halls()
    body = again.group("sp3-ch")
    assert whole in [p.name for p in body.start_list] and len(body.boards) == 5
    again.anna.act("sp3-ch", EnterResult(board=21, result="1"))  # the engine runs on
