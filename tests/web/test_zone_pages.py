"""The zone's pages on a phone (issue 26, item 7), in a real headless Chromium: the entry form says
which button saves what; an ended event's page shows its result, not the clock; the
S(witcher) page's numbers are seat numbers, titled as such."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from clockd.api.client import Client
from clockd.core.actions import CreateEvent
from clockd.core.hall import FinishEntry, TimerEnd, TimerStart
from clockd.core.switcher import TakeSeat
from clockd.core.zone import AddEntry, ConfirmRanking, CountEntry
from clockd.service.runtime import Daemon, TableSpec
from tests.service.conftest import RecordingDevice
from tests.service.test_switcher_event import ROTATION
from tests.web.conftest import Desk, Web, serve
from tests.web.test_browser import CHROMIUM, PHONE, log_in
from web.access import AccessFile

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/system-deps)"
)

TEAMS = {"druzyna-1": ("Smoki", 5), "druzyna-2": ("Elfy", 6)}


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desk]:
    tmp = tmp_path_factory.mktemp("zone-desk")
    tables = tuple(range(1, 7))
    daemon = Daemon(
        tmp / "hall.db",
        tables=[TableSpec(t, f"Stolik {t}") for t in tables],
        port=0,
        boot_id="web-zone-test",
        write_daemon_info=False,
    )
    devices = {t: RecordingDevice(t) for t in tables}
    for t, d in devices.items():
        daemon.add_device(t, d)
    started = daemon.start()
    client = Client("127.0.0.1", started.port, started.token, by="Sędzia")
    client.act("", CreateEvent(event_kind="team", key="druzynowy"))
    for entry, (name, table) in TEAMS.items():
        client.act("druzynowy", AddEntry(entry=entry, name=name, table=table))
    client.act("druzynowy", TimerStart())
    client.act("", CreateEvent(event_kind="switcher", key="switcher", config_toml=ROTATION))
    for seat in range(1, 27):
        client.act("switcher", TakeSeat(seat=seat, name=f"Osoba {seat}"))
    d = Desk(daemon, devices, client, started.token, started.port, AccessFile(tmp / "web-access.json"))
    yield d
    client.close()
    daemon.stop()


@pytest.fixture(scope="module")
def web(desk: Desk) -> Iterator[Web]:
    w = serve(desk)
    yield w
    w.server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from tests.web.test_browser import ARGS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def test_the_entry_form_says_which_button_saves_what(browser: Any, desk: Desk, web: Web) -> None:
    desk.client.act("druzynowy", FinishEntry(entry="druzyna-2"))
    desk.client.act("druzynowy", TimerEnd())
    pin = desk.access.add_pin("Ola Wolontariuszka", ["druzynowy"])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, web.url, pin)
    smoki = page.wait_for_selector('[data-entry="druzyna-1"]')
    assert smoki is not None
    buttons = {b.get_attribute("data-saves"): b.inner_text() for b in smoki.query_selector_all("button")}
    assert buttons == {
        "finish": "Ukończone: zapisz czas teraz",
        "pieces": "Zapisz policzone elementy",
        "missing": "Zapisz braki",
    }
    # each number field is labelled with what it is, beside the button that saves it
    labels = [label.inner_text().strip() for label in smoki.query_selector_all("label")]
    assert labels == ["policzone elementy", "brakujące elementy"]
    assert "ukończone ✓" in page.inner_text('[data-entry="druzyna-2"] [data-saves="finish"]')
    page.fill('[data-entry="druzyna-1"] input[name="pieces"]', "700")
    page.click('[data-entry="druzyna-1"] button[data-saves="pieces"]')
    page.wait_for_selector('#status[data-queued="0"]')
    body = desk.event("druzynowy").body
    assert next(e for e in body.entries if e.entry == "druzyna-1").pieces == 700
    context.close()


def confirmed(desk: Desk) -> None:
    """The team event ended (Elfy finished) and its ranking confirmed, whichever test comes first."""
    body = desk.event("druzynowy").body
    if body.timer.phase != "ended":
        desk.client.act("druzynowy", FinishEntry(entry="druzyna-2"))
        desk.client.act("druzynowy", TimerEnd())
    body = desk.event("druzynowy").body
    if next(e for e in body.entries if e.entry == "druzyna-1").pieces is None:
        desk.client.act("druzynowy", CountEntry(entry="druzyna-1", pieces=700))
    if not body.confirmed:
        desk.client.act("druzynowy", ConfirmRanking())


def test_an_ended_event_shows_its_result_not_a_clock(browser: Any, desk: Desk, web: Web) -> None:
    confirmed(desk)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{web.url}/e/druzynowy")
    page.wait_for_selector(".timer .result")
    shown = page.inner_text(".timer")
    assert shown.startswith("Wyniki ostateczne — 1. Elfy")
    assert page.locator(".timer [data-countdown]").count() == 0  # no clock counting there
    assert "0:00" not in shown and "3:00:00" not in shown
    context.close()


def test_the_switcher_page_numbers_are_seats(browser: Any, desk: Desk, web: Web) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{web.url}/e/switcher")
    page.wait_for_selector("table.seats")
    heads = [th.inner_text() for th in page.query_selector_all("table.seats th")]
    assert heads == ["Nr miejsca", "Osoba", "Stolik teraz", "Po zmianie"]
    assert "Miejsca (numery wylosowane na starcie)" in page.inner_text("h2")
    first = [td.inner_text() for td in page.query_selector_all("table.seats tbody tr:first-child td")]
    assert first == ["1", "Osoba 1", "1", "2"]
    assert page.locator("table.rank").count() == 0  # no ranking: nobody is placed
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the published copy says the same
    assert "Nr miejsca" in httpx.get(f"{web.url}/e/switcher", timeout=10).text
    context.close()


def test_the_published_files_say_the_same(tmp_path: Path, desk: Desk, web: Web) -> None:
    from web.publish import publish

    confirmed(desk)
    written = publish(tmp_path / "www", "127.0.0.1", desk.port)
    pages = {str(p.relative_to(tmp_path / "www")): p.read_text(encoding="utf-8") for p in written}
    assert "Nr miejsca" in pages["switcher.html"] and "Seat no." in pages["en/switcher.html"]
    assert "Wyniki ostateczne — 1. Elfy" in pages["druzynowy.html"]
