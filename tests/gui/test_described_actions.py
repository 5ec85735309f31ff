"""Every action of the event shown is on the desk, its form built from the daemon's description.

Event → "Wszystkie czynności tej imprezy" lists what the view says may be done now and what
may not (greyed, the daemon's reason as the tooltip); an item opens the form the action's
description makes (here a test fills it as the referee would) and the daemon applies it.
"""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from clockd.api.describe import ActionDescription
from clockd.core.actions import Action
from gui.widgets.described import FieldsDialog
from tests.gui.live import Desk, Running, relay


def test_the_desk_offers_every_action_of_the_event_from_the_daemons_description(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    client = daemon.client()
    hall = relay(client)
    model, window = desk.model, desk.window
    qtbot.waitUntil(lambda: hall.id in model.state.events and model.state.described is not None, timeout=5000)
    window.select_event(hall.id)
    menu = window.menu_described
    qtbot.waitUntil(lambda: bool(menu.actions()), timeout=3000)
    items = {a.objectName().removeprefix("described-"): a for a in menu.actions()}
    assert menu.title() == "Wszystkie czynności tej imprezy"
    assert items["timer-start"].isEnabled() and items["timer-start"].text() == "start imprezy"
    assert not items["timer-pause"].isEnabled() and items["timer-pause"].toolTip()  # not running: why not
    asked: list[ActionDescription] = []

    def fill(description: ActionDescription, parent: Any, **context: Any) -> Action:
        asked.append(description)
        form = FieldsDialog(description, parent)
        if description.name == "timer-adjust":
            form.inputs["delta_ms"].setValue(-30)  # type: ignore[attr-defined]  # seconds taken
            form.inputs["reason"].setText("awaria światła")  # type: ignore[attr-defined]
        return form.action()

    window.described_panel.ask = fill
    items["timer-start"].trigger()
    qtbot.waitUntil(lambda: model.state.events[hall.id].hall.timer.phase == "running", timeout=5000)  # type: ignore[union-attr]
    qtbot.waitUntil(
        lambda: (
            menu.actions()
            and {a.objectName() for a in menu.actions() if a.isEnabled()} >= {"described-timer-adjust"}
        ),
        timeout=3000,
    )
    adjust = next(a for a in menu.actions() if a.objectName() == "described-timer-adjust")
    before = client.events([hall.key]).events[0].body.timer.remaining_ms  # type: ignore[attr-defined]
    adjust.trigger()
    qtbot.waitUntil(
        lambda: any(e.kind == "timer-adjust" for e in client.timeline(event=hall.key, limit=100).entries),
        timeout=5000,
    )
    entry = next(e for e in client.timeline(event=hall.key, limit=100).entries if e.kind == "timer-adjust")
    assert entry.data["action"]["delta_ms"] == -30_000 and entry.data["action"]["reason"] == "awaria światła"
    assert entry.data["by"] == "Ola"
    # the journal has it before the committed view does (journal first): wait for the view
    assert before is not None
    qtbot.waitUntil(
        lambda: client.events([hall.key]).events[0].body.timer.remaining_ms < before - 25_000,  # type: ignore[attr-defined]
        timeout=5000,
    )  # 30 s taken (the time left can never exceed the event's length)
    assert [a.name for a in asked] == ["timer-start", "timer-adjust"]


def test_taking_back_a_finish_offers_only_the_entries_that_finished(
    qtbot: QtBot, daemon: Running, desk: Desk
) -> None:
    from clockd.core.hall import FinishEntry, TimerStart

    client = daemon.client()
    hall = relay(client)
    client.act(hall.key, TimerStart())
    client.act(hall.key, FinishEntry(entry="Para 1"))
    model, window = desk.model, desk.window
    qtbot.waitUntil(lambda: hall.id in model.state.events, timeout=5000)
    window.select_event(hall.id)
    qtbot.waitUntil(
        lambda: (
            model.state.described is not None
            and bool(model.state.events[hall.id].picks.get("entry-unfinish", {}).get("entry"))
        ),
        timeout=5000,
    )
    offered: list[list[Any]] = []

    def fill(description: ActionDescription, parent: Any, **context: Any) -> Action:
        form = FieldsDialog(description, parent, **context)
        entry = form.inputs["entry"]
        offered.append([entry.itemData(i) for i in range(entry.count())])  # type: ignore[attr-defined]
        assert not form.ok.isEnabled()  # the reason is required
        form.inputs["reason"].setText("przycisk potrącony")  # type: ignore[attr-defined]
        assert form.ok.isEnabled()
        return form.action()

    window.described_panel.ask = fill
    window.unfinish_entry()
    assert offered == [["Para 1"]]  # Para 2 has not finished: it is not offered
    qtbot.waitUntil(
        lambda: not client.events([hall.key]).events[0].body.stations[0].finished_ms,  # type: ignore[attr-defined]
        timeout=5000,
    )
    entry = next(e for e in client.timeline(event=hall.key, limit=100).entries if e.kind == "entry-unfinish")
    assert entry.data["action"] == {
        "kind": "entry-unfinish",
        "t_ns": entry.data["action"]["t_ns"],
        "entry": "Para 1",
        "reason": "przycisk potrącony",
    }
