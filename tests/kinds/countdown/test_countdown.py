"""A new kind is one folder: the countdown with laps, in every client, with no change outside it.

The real ``duelclock run`` process is started with ``DUELCLOCK_KINDS`` naming this folder
(as an organiser adds a kind of their own) and the web pages on. Then, as a referee and
the public would: the command line creates the event, lists it and does its actions from
the daemon's descriptions; the desk shows its lines and a button per action, enabled as the
daemon allows, and its button's form records a lap; the audience screen shows the time
running; the public page shows it, in Polish and in English.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from clockd.api.client import Client
from clockd.api.describe import ActionDescription, Described
from clockd.api.messages import EventResults, EventResultsReply
from clockd.cli import main
from gui.adapter import DaemonConnection
from gui.audience import AudienceWindow
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow
from gui.widgets.described import FieldsDialog

FOLDER = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def hall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """``duelclock run`` with this kind and the web pages; this process sees the kind's words too."""
    monkeypatch.setenv("DUELCLOCK_KINDS", str(FOLDER))
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    web = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "clockd", "run", "--db", str(tmp_path / "j.db"), "--port", "0", "--sim", "2",
         "--web", f"127.0.0.1:{web}"],
        env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    banner = []
    for line in proc.stdout:
        banner.append(line)
        if "Ctrl+C" in line:
            break
    else:
        raise AssertionError(
            f"the daemon did not start: {banner} {proc.stderr.read() if proc.stderr else ''}"
        )
    info = json.loads((tmp_path / "state" / "daemon.json").read_text(encoding="utf-8"))
    yield {"port": info["port"], "token": info["token"], "web": web}
    proc.terminate()
    proc.wait(20)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out + out.err


def test_a_kind_added_as_a_folder_is_in_the_cli_the_desk_the_audience_and_the_web(
    hall: dict[str, Any], capsys: pytest.CaptureFixture[str], qtbot: QtBot, qapp: QApplication
) -> None:
    # the command line: created, listed in the user's language, its actions from the description
    status, out = cli(capsys, "event", "new", "bieg", "--kind", "countdown", "--name", "Bieg na orientację")
    assert status == 0, out
    status, out = cli(capsys, "event", "list")
    assert status == 0 and "odliczanie z okrążeniami" in out and "Bieg na orientację" in out
    assert "pozostało: 10:00" in out and "okrążenia: 0" in out
    status, out = cli(capsys, "event", "do", "bieg")
    assert "laps-start" in out and "okrążenie — nie teraz: odliczanie się nie zaczęło" in out
    with pytest.raises(SystemExit) as refused:  # a field the action does not have: argparse says so
        cli(capsys, "event", "do", "bieg", "laps-lap", "--nota", "Ala")
    assert refused.value.code == 2 and "--nota" in capsys.readouterr().err
    status, out = cli(capsys, "event", "do", "bieg", "laps-lap")
    assert status != 0 and "odliczanie się nie zaczęło" in out  # the daemon's rule, in its words
    assert cli(capsys, "event", "do", "bieg", "laps-start")[0] == 0
    status, out = cli(capsys, "event", "do", "bieg", "laps-lap", "--note", "Ala")
    assert status == 0 and "okrążenia: 1" in out

    # the desk: the event's lines, one button per action, enabled as the daemon says
    model = DeskModel()
    connection = DaemonConnection(model, host="127.0.0.1", port=hall["port"], token=hall["token"], by="Ola")
    answers: list[ActionDescription] = []

    def answer(description: ActionDescription, parent: Any, **context: Any) -> Described:
        answers.append(description)
        dialog = FieldsDialog(description, parent)  # the form the referee would fill
        dialog.inputs["note"].setText("Ola")  # type: ignore[attr-defined]
        return dialog.action()  # type: ignore[return-value]

    connection.start()
    window = RefereeWindow(model, connection)
    window.described_panel.ask = answer
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitUntil(
        lambda: (
            model.state.described is not None
            and any(e.kind == "countdown" for e in model.state.events.values())
        ),
        timeout=10_000,
    )
    window.select_event(next(k for k, e in model.state.events.items() if e.kind == "countdown"))
    panel = window.described_panel
    qtbot.waitUntil(
        lambda: window.event_view.currentWidget() is panel and "laps-lap" in panel.buttons, timeout=5000
    )
    texts = panel.shown.shown_texts()
    assert "Bieg na orientację" in texts and "pozostało" in texts and "okrążenia" in texts and "1" in texts
    buttons = {b.objectName(): b for b in panel.findChildren(QPushButton)}
    assert buttons["laps-lap"].text() == "okrążenie" and buttons["laps-lap"].isEnabled()
    assert not buttons["laps-start"].isEnabled() and buttons["laps-start"].toolTip() == "odliczanie już trwa"
    buttons["laps-lap"].click()
    qtbot.waitUntil(lambda: "2" in panel.shown.shown_texts(), timeout=5000)
    assert [a.name for a in answers] == ["laps-lap"] and answers[0].fields[0].max_length == 500

    # the audience screen: the time left runs on the GUI's clock (here, a minute ahead of it)
    audience = AudienceWindow(model, clock=lambda: time.monotonic_ns() + 65 * 10**9)
    qtbot.addWidget(audience)
    audience.resize(1280, 720)
    audience.show()
    qtbot.waitUntil(lambda: audience.described.isVisible(), timeout=5000)
    audience.tick()
    shown = audience.described.shown_texts()
    assert "Bieg na orientację" in shown and any(t.startswith("8:5") for t in shown), shown

    # the public page, in Polish and in English
    page = httpx.get(f"http://127.0.0.1:{hall['web']}/e/bieg", timeout=10).text
    assert (
        "pozostało" in page
        and "okrążenia" in page
        and "ostatnie okrążenie" in page
        and "data-countdown" in page
    )
    english = httpx.get(f"http://127.0.0.1:{hall['web']}/e/bieg?lang=en", timeout=10).text
    assert "time left" in english and "last lap" in english
    listing = httpx.get(f"http://127.0.0.1:{hall['web']}/", timeout=10).text
    assert "Bieg na orientację" in listing and "odliczanie z okrążeniami" in listing

    # the laps the referee recorded are the event's results, as the daemon keeps them
    with Client(port=hall["port"], token=hall["token"]) as client:
        results = client.request(EventResults(event="bieg"))
    assert isinstance(results, EventResultsReply) and results.results["notes"] == ["Ala", "Ola"]
    connection.stop()
