"""The chess day at the desk and on the audience screen, on the real daemon.

The groups are created, paired and given results the way the arbiters do (the desk's entry
line, its buttons, or a second arbiter's client); every check reads what the daemon then
holds, or what the screens drew from the daemon's pushes.
"""

from __future__ import annotations

import datetime

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from clockd.api import Client
from clockd.core import tomltext
from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import ChessGroupConfig, ClaimIllegalMove, CloseRound, EnterResult, PairRound
from clockd.core.chessday.roster import DayPlan
from gui.audience import AudienceWindow
from gui.chessdialogs import PairAllDialog, ReadyGroup
from gui.deskmodel import DeskModel
from gui.widgets.chess import VegaEntry
from tests.chessday.conftest import roster
from tests.gui.live import Desk, Running

HALL = "desk"


def midday_plan() -> tuple[str, DayPlan]:
    """Today's date and a plan whose round 1 was at 9:00 in a time zone where it is now about
    noon: every round-2 start of the plan has passed, so a group still playing round 1 lags,
    whatever the hour the tests run at."""
    utc = datetime.datetime.now(datetime.UTC)
    offset = 12 - utc.hour
    zone = f"Etc/GMT{-offset:+d}" if offset else "Etc/GMT"
    local = utc + datetime.timedelta(hours=offset)
    return local.date().isoformat(), DayPlan(first_round="09:00", time_zone=zone)


def create(client: Client, key: str, players: int, first_board: int, grade: int) -> None:
    """A boys' group of grade ``grade`` whose boards start at hall board ``first_board``."""
    day, plan = midday_plan()
    cfg = ChessGroupConfig(
        group=roster(players, key=key, grade=grade),
        title="Szkolny Turniej Szachowy",
        date=day,
        plan=plan,
        rounds=5,
        first_board=first_board,
    )
    text = tomltext.dumps(cfg.model_dump(mode="json", exclude_defaults=True))
    client.act("", CreateEvent(event_kind="chess", key=key, config_toml=text))


def group(client: Client, key: str) -> object:
    return client.events([key]).events[0].body


def board(client: Client, key: str, number: int) -> tuple[str | None, str, str | None]:
    """What the daemon holds of board ``number``: its result, who entered it, its proposal."""
    body = group(client, key)
    b = next(b for b in body.boards if b.board == number)  # type: ignore[attr-defined]
    return b.result, b.by, b.proposal


def hall_ids(desk: Desk) -> dict[str, str]:
    return {e.key: e.id for e in desk.model.state.chess_groups()}


def two_groups(qtbot: QtBot, daemon: Running, desk: Desk) -> Client:
    """Grade 3 on boards 1–6 and grade 4 on boards 11–15, round 1 paired in both; the desk shows grade 3."""
    client = daemon.client()
    create(client, "g3", 11, 1, 3)
    create(client, "g4", 10, 11, 4)
    client.act("g3", PairRound(round=1))
    client.act("g4", PairRound(round=1))
    model = desk.model
    qtbot.waitUntil(
        lambda: (
            len(model.state.chess_groups()) == 2
            and all(e.chess is not None and e.chess.phase == "playing" for e in model.state.chess_groups())
        ),
        timeout=5000,
    )
    desk.window.select_event(hall_ids(desk)["g3"])
    qtbot.waitUntil(lambda: desk.window.chess_panel.isVisible(), timeout=5000)
    return client


def type_into(qtbot: QtBot, entry: VegaEntry, keys: str) -> None:
    """The arbiter's keystrokes: ``\\n`` is Enter, every other character its own key."""
    for ch in keys:
        if ch == "\n":
            qtbot.keyClick(entry, Qt.Key.Key_Return)
        else:
            qtbot.keyClicks(entry, ch)


def answered(qtbot: QtBot, desk: Desk, before: int) -> None:
    qtbot.waitUntil(lambda: desk.window.chess_panel.answers > before, timeout=5000)


def test_a_board_number_of_the_hall_finds_its_group_and_one_key_enters_its_result(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = two_groups(qtbot, daemon, desk)
    panel = desk.window.chess_panel
    before = panel.answers
    type_into(qtbot, panel.entry, "13\n1")  # board 13 is grade 4's, not the group shown
    answered(qtbot, desk, before)
    assert board(client, "g4", 13)[:2] == ("1-0", "Ola")
    assert desk.model.state.shown == hall_ids(desk)["g4"]  # the desk went to the board's group
    assert "Szachownica 13" in panel.status.text()
    # the next board at once, with = (a draw): the line is back on its board step
    before = panel.answers
    type_into(qtbot, panel.entry, "2\n=")
    answered(qtbot, desk, before)
    assert board(client, "g3", 2)[:2] == ("½-½", "Ola")
    # the group list says which group lags behind the plan, in words
    rows = [panel.groups.texts(r) for r in range(panel.groups.rowCount())]
    assert all(any(cell.startswith("⚠ OPÓŹNIENIE") for cell in row) for row in rows), rows


def test_enter_accepts_the_proposal_and_ctrl_z_takes_the_result_back(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = two_groups(qtbot, daemon, desk)
    panel = desk.window.chess_panel
    white = next(b.white.start for b in group(client, "g4").boards if b.board == 12)  # type: ignore[attr-defined]
    client.act("g4", ClaimIllegalMove(board=12, player=white))
    client.act("g4", ClaimIllegalMove(board=12, player=white))  # the second: loss proposed (§H)
    g4 = hall_ids(desk)["g4"]
    qtbot.waitUntil(
        lambda: any(b.board == 12 and b.proposal == "0-1" for b in desk.model.state.events[g4].chess.boards),  # type: ignore[union-attr]
        timeout=5000,
    )
    before = panel.answers
    type_into(qtbot, panel.entry, "12\n")
    assert "0–1" in panel.status.text()  # the proposal is named before it is accepted
    type_into(qtbot, panel.entry, "\n")
    answered(qtbot, desk, before)
    assert board(client, "g4", 12)[:2] == ("0-1", "Ola")
    before = panel.answers
    qtbot.keyClick(panel.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    answered(qtbot, desk, before)
    assert board(client, "g4", 12)[:2] == (None, "")
    assert "cofnięty" in panel.status.text()
    # "u 3": the undo command with a board number
    client.act("g3", EnterResult(board=3, result="1"))
    before = panel.answers
    type_into(qtbot, panel.entry, "u 3\n")
    answered(qtbot, desk, before)
    assert board(client, "g3", 3)[0] is None


def test_a_conflicting_result_shows_the_daemons_refusal_and_can_be_replaced_knowingly(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = two_groups(qtbot, daemon, desk)
    panel = desk.window.chess_panel
    client.act("g4", EnterResult(board=14, result="1"))  # another arbiter, "test"
    before = panel.answers
    type_into(qtbot, panel.entry, "14\n=")
    answered(qtbot, desk, before)
    status = panel.status.text()
    assert "nie wpisano" in status and "ma już wynik 1-0" in status and "test" in status, status
    assert board(client, "g4", 14)[:2] == ("1-0", "test")  # nothing changed
    assert panel.replace_button.isVisible()
    before = panel.answers
    qtbot.mouseClick(panel.replace_button, Qt.MouseButton.LeftButton)
    answered(qtbot, desk, before)
    assert board(client, "g4", 14)[:2] == ("½-½", "Ola")


def test_the_refusal_is_english_with_english_chosen(
    qtbot: QtBot, daemon: Running, desk: Desk, english: None
) -> None:
    client = two_groups(qtbot, daemon, desk)
    panel = desk.window.chess_panel
    client.act("g3", EnterResult(board=1, result="0"))
    before = panel.answers
    type_into(qtbot, panel.entry, "1\n1")
    answered(qtbot, desk, before)
    assert "not entered" in panel.status.text() and "already has 0-1" in panel.status.text()
    assert desk.window.act_chess_pair_all.text() == "Pair all ready groups…"


def test_pair_all_pairs_every_ready_group_with_its_progress_to_the_end(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = daemon.client()
    for i, key in enumerate(("g1", "g2", "g3")):
        create(client, key, 10, 1 + 10 * i, i + 1)
    client.act("g2", PairRound(round=1))  # already playing: not ready
    model, window = desk.model, desk.window
    qtbot.waitUntil(
        lambda: (
            len(model.state.chess_groups()) == 3
            and any(e.chess is not None and e.chess.phase == "playing" for e in model.state.chess_groups())
        ),
        timeout=5000,
    )
    window.select_event(hall_ids(desk)["g1"])
    qtbot.waitUntil(lambda: window.act_chess_pair_all.isEnabled(), timeout=5000)
    assert [g.event for g in window.ready_groups()] == [f"{HALL}/g1", f"{HALL}/g3"]
    window.act_chess_pair_all.trigger()
    dialog = window.pair_all_dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.done_all, timeout=10_000)
    assert dialog.bar.value() == dialog.bar.maximum() == 2
    assert dialog.current.text() == "Skojarzono grupy: 2 z 2."
    assert [group(client, k).phase for k in ("g1", "g2", "g3")] == ["playing"] * 3  # type: ignore[attr-defined]
    # a group the daemon refuses is listed at the end with its reason
    late = PairAllDialog([ReadyGroup(f"{HALL}/g1", "Klasa 1 — chłopcy", 1)], desk.connection, window)
    qtbot.addWidget(late)
    late.start()
    qtbot.waitUntil(lambda: late.done_all, timeout=5000)
    assert "runda 1 jeszcze trwa" in late.report.text()
    qtbot.waitUntil(lambda: not window.act_chess_pair_all.isEnabled(), timeout=5000)


def test_the_audience_screen_shows_a_groups_pairings_then_its_standings_with_the_countdown(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = two_groups(qtbot, daemon, desk)
    for b in group(client, "g3").boards:  # type: ignore[attr-defined]
        client.act("g3", EnterResult(board=b.board, result="1"))
    client.act("g3", CloseRound())
    client.act("g3", PairRound(round=2))
    model = desk.model
    g3 = hall_ids(desk)["g3"]
    qtbot.waitUntil(lambda: model.state.events[g3].chess.round == 2, timeout=5000)  # type: ignore[union-attr]
    body = model.state.events[g3].chess
    assert body is not None and body.next_round_at is not None and body.standings
    start = datetime.datetime.fromisoformat(body.next_round_at)
    screen_model = DeskModel(model.state)
    window = AudienceWindow(
        screen_model, page_ms=3_600_000, wall=lambda: start - datetime.timedelta(minutes=5, seconds=3)
    )
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitUntil(lambda: window.chess.page is not None, timeout=5000)
    chess = window.chess
    assert chess.page is not None and (chess.page.event, chess.page.kind) == (g3, "pairings")
    texts = chess.shown_texts()
    first = body.boards[0]
    assert first.white.name in texts and first.black.name in texts and first.white.school in texts
    assert "Runda 2 z 5 — kojarzenie" in texts
    assert "5:03" in texts and "Runda 3 za" in texts  # round 2 is on: the countdown to the next one
    assert window.header.title.text() == "Klasa 3, chłopcy"
    window.next_page()
    assert chess.page.kind == "standings" and chess.page.event == g3
    texts = chess.shown_texts()
    assert "Klasyfikacja po 1. rundzie z 5" in texts
    assert {"Pkt", "BH-C1", "BH", "SB"} <= set(texts)  # as on paper: Pkt, then the FIDE acronyms
    leader = body.standings[0]
    assert leader.player.name in texts and leader.values["PTS"] in texts
    window.next_page()  # the next group: grade 4's pairings
    assert chess.page.kind == "pairings" and chess.page.event == hall_ids(desk)["g4"]
    assert window.header.title.text() == "Klasa 4, chłopcy"


def test_a_round_1_absentee_who_reported_is_kept_by_the_reported_button(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = two_groups(qtbot, daemon, desk)
    boards = group(client, "g3").boards  # type: ignore[attr-defined]
    absent = boards[0].black
    client.act("g3", EnterResult(board=boards[0].board, result="+"))  # Black did not come
    for b in boards[1:]:
        client.act("g3", EnterResult(board=b.board, result="="))
    panel = desk.window.chess_panel
    g3 = hall_ids(desk)["g3"]
    qtbot.waitUntil(lambda: all(b.result for b in desk.model.state.events[g3].chess.boards), timeout=5000)  # type: ignore[union-attr]
    desk.window.chess_close(confirm=False)
    qtbot.waitUntil(lambda: absent.start in panel.report_buttons, timeout=5000)
    button = panel.report_buttons[absent.start]
    assert button.isEnabled() and absent.name in button.text()
    assert group(client, "g3").to_withdraw[0].start == absent.start  # type: ignore[attr-defined]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.report_buttons, timeout=5000)
    assert group(client, "g3").to_withdraw == []  # type: ignore[attr-defined]
    client.act("g3", PairRound(round=2))
    after = group(client, "g3")
    paired = {p.start for b in after.boards for p in (b.white, b.black)}  # type: ignore[attr-defined]
    paired |= {after.bye.start} if after.bye is not None else set()  # type: ignore[attr-defined]
    assert absent.start in paired  # reported to the arbiter: not withdrawn (§H)


def test_a_big_group_is_paged_on_the_audience_screen_at_a_readable_size(qtbot: QtBot) -> None:
    """70 players, 35 boards: more than a readable page; every board on exactly one page."""
    from clockd.api.chess import chess_body
    from clockd.core.chessday.group import ChessGroup
    from gui.demochess import play
    from gui.model import DeskState, Event
    from gui.widgets.chesshall import MIN_ROW

    cfg = ChessGroupConfig(group=roster(70, key="duza", grade=5), rounds=7)
    g = play(ChessGroup.new(cfg), 1, last_open=-1)
    at = datetime.datetime(2026, 6, 20, 10, 0, tzinfo=datetime.UTC)
    body = chess_body(g, next_round=2, next_round_at=at, lag=None)
    event = Event(
        id=f"{HALL}/duza", key="duza", kind="chess", title=cfg.group.title(), actions=g.allowed(), chess=body
    )
    window = AudienceWindow(DeskModel(DeskState(events={event.id: event}, shown=event.id)), wall=lambda: at)
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    qtbot.waitUntil(lambda: window.chess.page is not None and window.chess.height() > 800, timeout=5000)
    pages = window.chess.pages
    assert len(pages) >= 2 and all(p.kind == "pairings" for p in pages)
    seen: list[str] = []
    for _ in pages:
        board_cells = [i for i in window.chess.items if i.role == "pairings" and i.rect.x() < 150]
        assert all(i.rect.height() >= MIN_ROW for i in board_cells)
        seen += [i.text for i in board_cells]
        window.next_page()
    assert sorted(seen, key=int) == [str(n) for n in range(1, 36)]
    assert f"Runda 1 z 7 — kojarzenie  (1/{len(pages)})" in window.chess.shown_texts()  # back to the first


def test_the_appeal_and_claim_dialogs_ask_what_their_actions_need(qtbot: QtBot) -> None:
    from gui.chessdialogs import AppealDialog, ClaimDialog
    from gui.demo import demo_state

    body = demo_state(0, shown="szachy").chess
    assert body is not None
    board = body.boards[5]
    claim = ClaimDialog(body, board.board)
    qtbot.addWidget(claim)
    claim.player.setCurrentIndex(1)  # Black
    assert claim.action() == ClaimIllegalMove(board=board.board, player=board.black.start)
    appeal = AppealDialog(body, board.board)
    qtbot.addWidget(appeal)
    assert not appeal.ok_button().isEnabled()  # the appeal and the decision are required
    appeal.text.setText("przeciwnik dotknął dwóch figur")
    assert not appeal.ok_button().isEnabled()
    appeal.decision.setText("odwołanie oddalone")
    appeal.result_box.setCurrentIndex(appeal.result_box.findData("0-1"))
    assert appeal.ok_button().isEnabled()
    action = appeal.action()
    assert (action.board, action.player, action.result) == (board.board, board.white.start, "0-1")
    assert action.decision == "odwołanie oddalone"
    from gui.chessdialogs import ChessWithdrawDialog

    withdraw = ChessWithdrawDialog(body)
    qtbot.addWidget(withdraw)
    assert withdraw.player.count() == body.players and not withdraw.ok_button().isEnabled()
    withdraw.player.setCurrentIndex(2)
    withdraw.reason.setText("rozchorował się")
    assert withdraw.ok_button().isEnabled()
    assert (withdraw.action().player, withdraw.action().reason) == (3, "rozchorował się")
