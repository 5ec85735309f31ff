"""A journal entry whose replay fails sets its event aside; the daemon starts and the rest runs.

The journal is written through the real store: a day of two chess groups imported by the CLI
into a real daemon, then — the daemon stopped — a chess group's creation whose configuration
the kind refuses when it replays it (one player: a round needs two), and an action on that
group after it. Before this, such a journal stopped every start ("replay.refused").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client, Subscription
from clockd.api.messages import ApiError, EventStatePush
from clockd.cli import main
from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import ChessGroupConfig, PairRound
from clockd.core.chessday.roster import ChessDay
from clockd.core.ids import DEFAULT_HALL
from clockd.service.actions import journal
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.journal import Journal
from tests.chessday.conftest import roster


class Desk:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.daemon: Daemon | None = None
        self.opts: list[str] = []
        self.port = 0
        self.token = ""

    def start(self) -> Any:
        self.daemon = Daemon(self.db, tables=[TableSpec(1, "Szachownica 1")], port=0, write_daemon_info=False)
        started = self.daemon.start()
        self.port, self.token = started.port, started.token
        self.opts = ["--port", str(started.port), "--token", started.token]
        return started

    def stop(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()
            self.daemon = None


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Desk]:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    d = Desk(tmp_path / "dziennik.db")
    d.start()
    yield d
    d.stop()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def write_a_bad_group(db: Path) -> tuple[int, int]:
    """A chess group's creation the kind refuses on replay, and an action on it: their seqs."""
    config = ChessGroupConfig(group=roster(1, key="sp9-ch", grade=8), rounds=3)
    with Journal(db) as j:
        t = max(r.entry.t_ns for r in j.read(after=0)) + 1
        create = journal(
            CreateEvent(event_kind="chess", key="sp9-ch", name="Zła grupa"),
            target=DEFAULT_HALL,
            event="sp9-ch",
            decided=config.model_dump(mode="json"),
        ).at(t)
        pair = journal(PairRound(round=1), target=f"{DEFAULT_HALL}/sp9-ch", event="sp9-ch").at(t + 1)
        first, second = j.append([create, pair])
    return first, second


def test_a_bad_entry_sets_its_event_aside_and_everything_else_runs(
    tmp_path: Path, desk: Desk, capsys: Any
) -> None:
    day = ChessDay(
        title="Turniej", rounds=2, groups=(roster(6, key="sp3-ch"), roster(4, key="sp4-ch", grade=4))
    )
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    assert run(capsys, "chess", "import", str(path), *desk.opts)[0] == 0
    desk.stop()
    bad, after = write_a_bad_group(desk.db)

    started = desk.start()  # before: ReplayMismatch "replay.refused", no daemon at all
    assert [(e, c, d["seq"]) for e, c, d in started.recovery.event_alerts] == [
        ("sp9-ch", "alert.event-quarantined", bad)
    ]
    with Client(port=desk.port) as c:
        shown = {e.key: e for e in c.events().events}
    assert list(shown) == ["sp3-ch", "sp4-ch", "sp9-ch"]
    aside = shown["sp9-ch"]
    assert aside.kind == "quarantined" and aside.body.event_kind == "chess" and aside.body.seq == bad
    (alert,) = aside.alerts
    assert (
        alert.code == "alert.event-quarantined"
        and alert.data["seq"] == bad
        and alert.data["event"] == "sp9-ch"
    )
    assert "do rundy potrzeba co najmniej 2" in str(alert.data["problem"])

    status, out, err = run(capsys, "event", "list", *desk.opts)
    assert status == 0, err
    line = next(x for x in out.splitlines() if x.startswith("sp9-ch"))
    assert "grupa szachowa" in line and f"odłożona przy starcie: wpisu {bad} dziennika (event-create)" in line
    status, out, err = run(capsys, "chess", "status", *desk.opts)
    assert status == 0 and "sp3-ch" in out and "sp4-ch" in out and "sp9-ch" not in out, err
    status, out, err = run(capsys, "chess", "pair", *desk.opts)
    assert status == 0 and "Skojarzono grup: 2: sp3-ch, sp4-ch" in out, err  # the others play on
    with Subscription(port=desk.port) as sub:
        pushed = {p.event.key: p.event.kind for p in sub.poll() if isinstance(p, EventStatePush)}
    assert pushed == {"sp3-ch": "chess", "sp4-ch": "chess", "sp9-ch": "quarantined"}
    with Client(port=desk.port) as c:
        entries = [(e.seq, e.kind) for e in c.timeline(event="sp9-ch").entries]
    assert entries[:2] == [(bad, "event-create"), (after, "chess-pair")]  # kept, as journaled
    assert [k for _, k in entries[2:]] == ["event-alert"]  # and the alert that names them

    with Client(port=desk.port, token=desk.token) as c, pytest.raises(ApiError) as refused:
        c.act("sp9-ch", PairRound(round=1))
    assert refused.value.reason is not None and refused.value.reason.code == "event.quarantined"

    desk.stop()  # a snapshot with the group set aside; the next start says it once, not twice
    started = desk.start()
    assert started.recovery.event_alerts == []
    with Client(port=desk.port) as c:
        again = {e.key: e for e in c.events().events}
    assert again["sp9-ch"].kind == "quarantined" and len(again["sp9-ch"].alerts) == 1
    assert again["sp3-ch"].body.round == 1  # the pairing made while the group was set aside


def test_duelclock_run_says_which_event_it_set_aside(tmp_path: Path, desk: Desk, capsys: Any) -> None:
    """The referee starting the daemon reads it in the banner: the event, the seq, the entry."""
    import os
    import signal
    import subprocess
    import sys

    day = ChessDay(title="Turniej", rounds=2, groups=(roster(4, key="sp3-ch"),))
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    assert run(capsys, "chess", "import", str(path), *desk.opts)[0] == 0
    desk.stop()
    bad, _ = write_a_bad_group(desk.db)
    env = {k: v for k, v in os.environ.items() if k != "DUELCLOCK_LANG"}
    env["DUELCLOCK_STATE_DIR"] = str(tmp_path / "stan")
    proc = subprocess.Popen(
        [sys.executable, "-m", "clockd", "run", "--sim", "1", "--port", "0", "--db", str(desk.db)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    banner = []
    try:
        for line in proc.stdout:
            banner.append(line.strip())
            if line.startswith("Zegary:"):
                break
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    said = [x for x in banner if x.startswith("! impreza sp9-ch odłożona przy starcie")]
    assert len(said) == 1, banner
    assert f"wpisu {bad} dziennika (event-create) nie dało się odtworzyć" in said[0]
