"""End to end: the real daemon (``duelclock run --sim``) in its own process, the GUI on its API.

Simulated players press simulated serial clocks through the real driver; the referee
window shows their presses and pauses a table with a click, and the daemon's own
state and journal say the pause happened.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from clockd.api import Client, read_info
from gui.adapter import DaemonConnection
from gui.commands import Action
from gui.model import DeskModel
from gui.referee import RefereeWindow


@pytest.fixture
def daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[subprocess.Popen[bytes]]:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path))
    cmd = [sys.executable, "-m", "clockd", "run", "--sim", "2", "--port", "0", "--db", str(tmp_path / "j.db"),
           "--think-ms", "300", "--seed", "3"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while (info := read_info()) is None or info.pid != proc.pid:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"duelclock run did not start: {err}")
        time.sleep(0.05)
    yield proc
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_the_referee_window_on_a_real_daemon(daemon: subprocess.Popen[bytes], qtbot: QtBot) -> None:
    model = DeskModel()
    conn = DaemonConnection(model, by="Ola")  # address and token from the daemon's daemon.json
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()

    # the simulated players are pressing: the presses reach the screen
    qtbot.waitUntil(
        lambda: (
            1 in model.state.tables and model.state.tables[1].moves.a + model.state.tables[1].moves.b >= 2
        ),
        timeout=15_000,
    )
    window.select_table(1)
    qtbot.waitUntil(lambda: model.state.tables[1].phase == "running", timeout=5000)
    shown = {i.role: i.text for i in window.tables.items_with(key="1")}
    table = model.state.tables[1]
    assert shown["moves-a"].startswith(f"ruchy {table.moves.a}")
    assert shown["time-a"] and shown["time-b"]

    pause = next(b for b in window.findChildren(QToolButton) if b.defaultAction() is window.act_pause)
    qtbot.waitUntil(pause.isEnabled, timeout=3000)
    qtbot.mouseClick(pause, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.state.tables[1].phase == "paused", timeout=5000)
    qtbot.waitUntil(lambda: any(i.text == "PAUZA" for i in window.tables.items_with(key="1", role="phase")),
                    timeout=2000)  # fmt: skip

    # the daemon itself says so, and its journal names who paused
    with Client.local() as client:
        assert client.status([1]).tables[0].phase == "paused"
        pauses = [e for e in client.timeline(1).entries if e.kind == "pause"]
    assert pauses and pauses[-1].data.get("by") == "Ola"
    qtbot.waitUntil(lambda: any(i.kind == "pause" for i in model.state.timelines.get(1, ())), timeout=3000)
    conn.stop()


def test_a_whole_semi_final_from_the_referee_window(daemon: subprocess.Popen[bytes], qtbot: QtBot) -> None:
    """Session, players, check-in, draw, a duel on a clock, complete, confirm: all sent by the GUI."""
    model = DeskModel()
    conn = DaemonConnection(model, by="Ola")
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitUntil(lambda: model.state.connection == "connected", timeout=5000)

    def sent(action: Action, **fields: object) -> None:
        """As the window sends it (a dialog's fields), waiting for the daemon's answer."""
        window.send(action, **fields)
        qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(("Wykonano", "Nie wykonano")),
                        timeout=5000)  # fmt: skip
        assert window.statusBar().currentMessage().startswith("Wykonano"), window.last_refusal
        window.statusBar().clearMessage()

    sent(Action.NEW_SESSION, session="sb", name="Sobota 20.06")
    conn.follow("sb")
    for first in ("Ala", "Bogdan", "Celina", "Dariusz"):
        sent(Action.ADD_PLAYER, first_name=first, last_name="Źdźbło", age=30, email="", phone="", nickname="",
             walk_in=False)  # fmt: skip
    qtbot.waitUntil(lambda: len(model.state.players) == 4, timeout=5000)
    assert {p.display_name for p in model.state.players.values()} == {
        "Ala Ź.",
        "Bogdan Ź.",
        "Celina Ź.",
        "Dariusz Ź.",
    }
    for pid in list(model.state.players):
        sent(Action.CHECK_IN, player=pid)
    sent(Action.CLOSE_CHECKIN)
    sent(Action.DRAW, seed=5)
    qtbot.waitUntil(lambda: model.state.bracket is not None, timeout=5000)
    bracket = model.state.bracket
    assert bracket is not None
    semi = bracket.round_matches(bracket.knockout_rounds[-1].number)[0]
    a, b = semi.a, semi.b
    assert a is not None and b is not None
    assert {window.bracket.text_at(p) for p in card_rows(window, semi.id)} == {
        model.state.name(a),
        model.state.name(b),
    }

    sent(Action.ASSIGN, match=semi.id, table=1, clock_a=a)
    sent(Action.TOSS, match=semi.id, winner=a)
    qtbot.waitUntil(
        lambda: model.state.tables[1].phase == "running", timeout=10_000
    )  # the players started it
    window.select_table(1)
    complete = next(b for b in window.findChildren(QToolButton) if b.defaultAction() is window.act_complete)
    qtbot.waitUntil(complete.isEnabled, timeout=3000)
    # a referee's correction makes the result clear (a second apart would do; the duel has barely begun)
    sent(Action.ADJUST, table=1, side="b", delta_ms=-20_000, reason="touched the opponent's pieces")
    qtbot.mouseClick(complete, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_of(model, semi.id) == "result", timeout=5000)
    qtbot.waitUntil(lambda: chip_of(window, semi.id) == "DO ZATWIERDZENIA", timeout=2000)
    window.select_match(semi.id)
    confirm = next(b for b in window.findChildren(QToolButton) if b.defaultAction() is window.act_confirm)
    qtbot.waitUntil(confirm.isEnabled, timeout=3000)
    qtbot.mouseClick(confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_of(model, semi.id) == "decided", timeout=5000)
    after = model.state.bracket
    assert after is not None and after.final is not None
    decided = after.matches[semi.id]
    assert decided.winner == a  # b lost 20 s to the referee's correction
    final = after.round_matches(after.final.number)[0]
    assert a in (final.a, final.b)  # … and a went on to the final, on screen too
    qtbot.waitUntil(lambda: model.state.name(a) in names_in(window, final.id), timeout=2000)
    conn.stop()


def status_of(model: DeskModel, match_id: str) -> str:
    bracket = model.state.bracket
    return bracket.matches[match_id].status if bracket is not None else ""


def names_in(window: RefereeWindow, match_id: str) -> set[str]:
    return {window.bracket.text_at(p) for p in card_rows(window, match_id)}


def chip_of(window: RefereeWindow, match_id: str) -> str:
    return next((i.text for i in window.bracket.items_with(key=match_id, role="chip")), "")


def card_rows(window: RefereeWindow, match_id: str) -> list[QPoint]:
    card = window.bracket.cards[match_id]
    return [
        QPoint(card.left() + card.width() // 4, int(card.top() + card.height() * f)) for f in (0.48, 0.80)
    ]


def test_importing_sign_ups_shows_who_was_refused_and_why(
    daemon: subprocess.Popen[bytes], qtbot: QtBot, tmp_path: Path
) -> None:
    """A spreadsheet saved on a Polish Windows: the people are in, the refused are named, with why."""
    model = DeskModel()
    conn = DaemonConnection(model, by="Ola")
    conn.start()
    window = RefereeWindow(model, conn)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: model.state.connection == "connected", timeout=5000)
    window.send(Action.NEW_SESSION, session="nd", name="Niedziela 21.06")
    qtbot.waitUntil(lambda: model.state.sessions.get("nd") is not None, timeout=5000)
    conn.follow("nd")
    csv = tmp_path / "zapisy.csv"
    lucja = "Łucja;Żak;l@example.pl;30\n"
    rows = "Imię;Nazwisko;E-mail;Wiek\n" + lucja + "Tymek;Mały;t@example.pl;11\n" + lucja
    csv.write_bytes(rows.encode("cp1250"))
    window.import_file(csv)
    qtbot.waitUntil(lambda: len(model.state.refusals) == 2, timeout=5000)
    assert [p.display_name for p in model.state.players.values()] == ["Łucja Ż."]
    window.tabs.setCurrentIndex(1)
    qtbot.waitUntil(window.refusals.isVisible, timeout=2000)
    assert window.refusals.text().splitlines() == [
        "Odrzucone zgłoszenia (2):",
        "wiersz 3: Tymek M. — poniżej minimalnego wieku (§1.9)",
        "wiersz 4: Łucja Ż. — ta sama osoba co w wierszu 2 (§1.14)",
    ]
    assert model.state.public().refusals == ()  # never on the audience screen
    conn.stop()
