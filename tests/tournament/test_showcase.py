"""``make run``'s showcase: a drawn session whose first round is on the tables, ready to play."""

from __future__ import annotations

from clockd.cli.start import SHOWCASE_SESSION, has_display, pause_showcase, resume_showcase, set_up_showcase
from clockd.core.actions import CreateEvent
from clockd.core.clock import Side
from clockd.core.units import SECOND

from .conftest import T0


def test_the_showcase_puts_round_one_on_the_tables_and_the_toss_losers_start_the_clocks(open_desk) -> None:
    desk = open_desk(tables=8)
    assert set_up_showcase(desk.client, tables=8)
    session = desk.session(SHOWCASE_SESSION)
    assert session.stage == "bracket" and len(session.field) == 16
    first_round = [m for m in session.bracket.matches if m.round == 1]
    assert sorted(m.table for m in first_round) == list(range(1, 9))
    assert all(m.status == "assigned" and m.toss_winner in (m.a, m.b) for m in first_round)
    # at every table the toss loser's press starts the toss winner's time
    for m in first_round:
        winner_side = Side.A if m.toss_winner == m.clock_a else Side.B
        desk.press(m.table, winner_side.other, T0 + SECOND)
    desk.at(T0 + 3 * SECOND)
    for m in first_round:
        clock = desk.table(m.table).program.clock
        assert clock.phase == "running"
        assert clock.running == ("a" if m.toss_winner == m.clock_a else "b")


def test_the_showcase_never_touches_a_daemon_that_already_has_a_session(open_desk) -> None:
    desk = open_desk(tables=2)
    desk.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    assert not set_up_showcase(desk.client, tables=2)
    assert [e.key for e in desk.client.events().events] == ["pt"]


def test_no_display_means_the_terminal_view(monkeypatch) -> None:
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")  # as in CI: a window could not be seen
    assert not has_display()
    monkeypatch.delenv("QT_QPA_PLATFORM")
    assert has_display()
    monkeypatch.delenv("DISPLAY")
    assert not has_display()


def test_closing_the_showcase_pauses_its_clocks_and_the_next_start_resumes_them(open_desk, tmp_path) -> None:
    """An hour between two `make run`s is not charged to the players: the clocks wait, paused."""
    desk = open_desk(tables=8)
    set_up_showcase(desk.client, tables=8)
    first_round = [m for m in desk.session(SHOWCASE_SESSION).bracket.matches if m.round == 1]
    for m in first_round[:3]:  # three tables started; the others still wait for their first press
        winner_side = Side.A if m.toss_winner == m.clock_a else Side.B
        desk.press(m.table, winner_side.other, T0 + SECOND)
    desk.at(T0 + 5 * SECOND)
    noted = tmp_path / "showcase-paused.json"
    assert pause_showcase(desk.client, noted) == [m.table for m in first_round[:3]]

    def phase(t: int) -> str:
        return str(desk.table(t).program.clock.phase)

    before = {t: desk.table(t).program.clock.remaining_ms for t in range(1, 9)}
    assert {phase(t) for t in (1, 2, 3)} == {"paused"} and phase(4) == "ready"

    desk.at(T0 + 3600 * SECOND)
    assert resume_showcase(desk.client, noted) == [1, 2, 3]
    assert {phase(t) for t in (1, 2, 3)} == {"running"} and phase(4) == "ready"
    assert {t: desk.table(t).program.clock.remaining_ms for t in range(1, 9)} == before
    assert not noted.exists() and resume_showcase(desk.client, noted) == []


def test_make_run_never_opens_the_referees_own_daemon(tmp_path, monkeypatch) -> None:
    """Issue 18, item 10: a tournament daemon already running is not the showcase's."""
    from clockd.api.local import read_info
    from clockd.cli.start import enter_showcase
    from clockd.service.runtime import Daemon, TableSpec

    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
    referee = Daemon(tmp_path / "state" / "duelclock.db", tables=[TableSpec(1, "Stolik 1", "10m")], port=0)
    referee.start()
    try:
        mine = read_info()
        assert mine is not None and mine.port == referee.port  # `duelclock status` finds the referee's
        showcase = enter_showcase()
        assert showcase == tmp_path / "state" / "showcase"
        assert read_info() is None  # the showcase starts its own daemon instead of opening that one
        monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
        assert read_info() == mine  # and the referee's daemon.json is untouched
    finally:
        referee.stop()


def test_make_run_without_a_display_plays_a_whole_session_in_the_terminal(
    tmp_path, monkeypatch, capsys
) -> None:
    """`make run` on a machine without a display: `duelclock start` falls back to the demo, through
    the demo's own parser (a demo option added later once broke it: `args.event` was missing)."""
    from clockd.cli import main

    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["start", "--terminal", "--speed", "0", "--web", "127.0.0.1:0"]) == 0
    out = capsys.readouterr().out
    assert "Strony na żywo: http://127.0.0.1:" in out  # the live pages beside it, address and QR code
    assert "Podium:" in out and "— Mistrz Pojedynków" in out  # a whole session, to its champion
    assert "Sprawdzenie wyników: OK — 16 pojedynków" in out
