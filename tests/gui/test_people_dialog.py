"""The desk's RODO window on a real daemon: a person found by e-mail, exported, erased — each
look audited by the daemon — and refused without the token."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from clockd.core.actions import CreateEvent
from clockd.core.puzzle_duel import ImportSignups
from tests.gui.live import Desk, Running, open_desk

CSV = (
    "Sygnatura czasowa;Imię;Nazwisko;E-mail;Telefon;Wiek;Zgoda na przetwarzanie danych osobowych (RODO)\n"
    "2026/06/06 12:00:00;Anna;Kowalska;anna.k@example.pl;601 222 333;24;Tak\n"
    "2026/06/06 12:01:00;Jan;Nowak;jan.n@example.pl;602 333 444;30;Tak\n"
)


def test_find_export_and_erase_a_person_from_the_desk(
    qtbot: QtBot, daemon: Running, desk: Desk, tmp_path: Path
) -> None:
    client = daemon.client()
    client.act("", CreateEvent(event_kind="puzzle-duel", key="pt"))
    client.act("pt", ImportSignups(csv=CSV, source="zapisy.csv"))
    dialog = desk.window.people_dialog()
    assert dialog is not None
    qtbot.addWidget(dialog)
    dialog.search.setText("anna.k@example.pl")
    dialog.look_up()  # no reason yet: nothing asked
    assert "powód" in dialog.status.text()
    dialog.reason.setText("prośba o wgląd w dane (mail z 2.06)")
    dialog.look_up()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=5000)
    cells = [dialog.table.item(0, c).text() for c in range(5)]  # type: ignore[union-attr]
    assert cells[1:4] == ["Anna Kowalska", "anna.k@example.pl", "601 222 333"] and cells[4] == "pt"
    dialog.table.selectRow(0)
    out = tmp_path / "anna.json"
    dialog.export(str(out))
    qtbot.waitUntil(out.exists, timeout=5000)
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported[0]["sources"][0]["person"]["email"] == "anna.k@example.pl"
    dialog.erase(confirmed=True)
    qtbot.waitUntil(
        lambda: not client.person("find", reason="sprawdzenie", text="anna.k@example.pl").people, timeout=5000
    )
    journal = daemon.daemon.engine.journal  # type: ignore[union-attr]
    desk_audit = [
        r.entry for r in journal.read() if r.entry.kind.startswith("person-") and r.entry.by == "Ola"
    ]
    kinds = [e.action.how if e.kind == "person-access" else e.kind for e in desk_audit]
    assert kinds == ["find", "export", "person-erase"]  # each look and the erasure, by the desk's referee
    assert all(e.action.reason.startswith("prośba o wgląd") for e in desk_audit)  # with the reason


def test_the_rodo_window_needs_the_token(qtbot: QtBot, daemon: Running) -> None:
    desk = open_desk(qtbot, daemon, token="")
    assert desk.window.people_dialog() is None
    assert desk.window.last_refusal  # said why (no token), not silently nothing
