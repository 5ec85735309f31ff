"""The web pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

What a visitor and an arbiter see: a phone-sized page shows the bracket and follows a
press within a second without reloading; nothing private is on it or in its stream; an
arbiter logs in with a PIN, enters a result, loses the network, enters another, comes
back, and the desk has both exactly once; five wrong PINs lock the address out.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from clockd.core.chessday.group import EnterResult
from clockd.core.clock import Side
from tests.conftest import wait_until
from tests.web.conftest import GROUP, SESSION, Desk, Web, private_words, serve

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "pl-PL",
}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/system-deps)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**PHONE)
    yield context
    context.close()


def running_side(desk: Desk, table: int) -> str | None:
    face = desk.client.status([table]).tables[0].program.clock  # type: ignore[union-attr]
    return face.running.value if face.running is not None and face.phase == "running" else None


def start_clock(desk: Desk, table: int) -> float:
    """Press the side that starts the duel's clock; when (``perf_counter``) the press went in."""
    for side in (Side.A, Side.B):
        t0 = time.perf_counter()
        desk.press(table, side)
        desk.settle()
        if running_side(desk, table) is not None:
            return t0
    raise AssertionError("neither press started the clock")


def test_a_phone_shows_the_bracket_and_follows_a_press_within_a_second(
    phone: Any, desk: Desk, web: Web
) -> None:
    page = phone.new_page()
    page.goto(f"{web.url}/e/{SESSION}")
    assert page.viewport_size["width"] == 390
    matches = page.locator("section.round").first.locator("li.match")
    assert matches.count() == 8  # the 16-player bracket's first round
    assert page.locator("h2").first.inner_text().startswith("I runda")
    assert page.locator('[data-match="R1-1"] .clock.running').count() == 0
    page.evaluate("window.__same_page = true")  # gone if the page reloads
    page.wait_for_selector("body[data-seq]", state="attached")  # the stream is open
    t0 = start_clock(desk, 1)
    page.wait_for_selector('[data-match="R1-1"] .clock.running', timeout=1000)
    waited = time.perf_counter() - t0
    assert waited < 1.0, f"the press took {waited:.3f} s to show"
    assert page.evaluate("window.__same_page === true")
    # the running clock counts down in the page between pushes
    running = page.locator('[data-match="R1-1"] .clock.running')
    expect(running).not_to_have_text(running.inner_text(), timeout=3000)
    # the page fits a phone: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_no_email_phone_or_private_surname_on_the_pages_or_their_streams(
    phone: Any, desk: Desk, web: Web
) -> None:
    private = private_words()
    assert any("@" in w for w in private) and len(private) > 30
    page = phone.new_page()
    pages = {}
    for path in ("/", f"/e/{SESSION}", f"/e/{GROUP}", "/?lang=en", f"/e/{SESSION}?lang=en"):
        page.goto(web.url + path)
        pages[path] = page.content()
    streams = {}
    for path in ("/stream", f"/e/{SESSION}/stream", f"/e/{GROUP}/stream"):
        with httpx.stream("GET", web.url + path, timeout=5) as r:
            got = ""
            for chunk in r.iter_text():
                got += chunk
                if got.count("event: clocks") >= 1:
                    break
            streams[path] = got
    seen = {**pages, **streams}
    for where, html in seen.items():
        assert "@" not in html, where
        assert "600 100" not in html, where  # the sample sign-ups' phone numbers
        assert "2017/03/04" not in html, where  # the chess roster's birth dates
    # the puzzle zone's names are short ("Anna K."): no surname of the sign-ups
    for where in ("/", f"/e/{SESSION}", f"/e/{SESSION}?lang=en", f"/e/{SESSION}/stream"):
        found = [w for w in private if "@" not in w and not w[0].isdigit() and w in seen[where]]
        assert found == [], (where, found)
    assert "Anna K." in pages[f"/e/{SESSION}"]
    # a chess group's start list is published by full name (the regulations): that is expected
    assert "Nowak Jan" in pages[f"/e/{GROUP}"]


def log_in(page: Any, url: str, pin: str) -> None:
    page.goto(f"{url}/entry/login")
    page.fill("#pin", pin)
    page.click("button[type=submit]")


def board_result(desk: Desk, board: int) -> tuple[str | None, str]:
    b = next(b for b in desk.event(GROUP).body.boards if b.board == board)
    return b.result, b.by


def results_journaled(desk: Desk) -> list[tuple[int, str, str]]:
    timeline = desk.client.timeline(event=GROUP, limit=1000)
    return [
        (e.data["action"]["board"], e.data["action"]["result"], e.data["by"])
        for e in timeline.entries
        if e.kind == "chess-result"
    ]


def test_an_arbiter_enters_results_offline_and_the_desk_has_each_exactly_once(
    browser: Any, desk: Desk, web: Web
) -> None:
    pin = desk.access.add_pin("Ewa Sędzia", [GROUP])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, web.url, pin)
    page.wait_for_selector('[data-board="21"] button[data-result="1-0"]')
    assert "Ewa Sędzia" in page.inner_text("body")
    page.click('[data-board="21"] button[data-result="1-0"]')
    page.wait_for_selector('#status[data-queued="0"]')
    assert board_result(desk, 21) == ("1-0", "Ewa Sędzia")

    context.set_offline(True)
    page.click('[data-board="22"] button[data-result="½-½"]')
    page.wait_for_selector('#status[data-queued="1"]')
    queued = json.loads(page.evaluate("localStorage.getItem('duelclock-entries')"))
    assert [(q["board"], q["result"]) for q in queued] == [(22, "½-½")]
    assert board_result(desk, 22) == (None, "")  # nothing reached the desk while offline

    context.set_offline(False)
    page.wait_for_selector('#status[data-queued="0"]', timeout=10_000)
    assert board_result(desk, 22) == ("½-½", "Ewa Sędzia")
    # The reply to the queued entry got lost, say: the phone sends it again with its id.
    again = page.evaluate(
        """e => fetch('/entry/api/submit', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRF-Token': document.getElementById('entry').dataset.csrf}, body: JSON.stringify(e)})
             .then(r => r.json())""",
        queued[0],
    )
    assert again["ok"] is True
    journaled = [(board, by) for board, _, by in results_journaled(desk)]
    assert sorted(journaled) == [(21, "Ewa Sędzia"), (22, "Ewa Sędzia")]  # each exactly once
    context.close()


def test_an_arbiter_sees_a_conflict_with_another_arbiters_result(browser: Any, desk: Desk, web: Web) -> None:
    desk.client.act(GROUP, EnterResult(board=23, result="1"))  # the desk's own arbiter first
    pin = desk.access.add_pin("Olek Sędzia", [GROUP])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, web.url, pin)
    page.wait_for_selector('[data-board="23"] button[data-result="0-1"]')
    page.click('[data-board="23"] button[data-result="0-1"]')
    problem = page.wait_for_selector(".problems li")
    assert "Konflikt" in problem.inner_text() and "Sędzia" in problem.inner_text()
    assert board_result(desk, 23) == ("1-0", "Sędzia")  # never overwritten by accident
    context.close()


def test_five_wrong_pins_lock_the_address_out(browser: Any, desk: Desk) -> None:
    own = serve(desk)  # its own lock-out, so the other tests' logins are not locked out
    try:
        pin = desk.access.add_pin("Jan Wolontariusz", ["*"])
        wrong = "000000" if pin != "000000" else "111111"
        context = browser.new_context(**PHONE)
        page = context.new_page()
        for attempt in range(1, 6):
            log_in(page, own.url, wrong)
            text = page.inner_text("#problem")
            assert ("błędny PIN" in text) == (attempt < 5), (attempt, text)
        assert "blokada" in text
        log_in(page, own.url, pin)  # even the right PIN now: locked out
        assert "blokada" in page.inner_text("#problem")
        assert page.url.endswith("/entry/login")
        context.close()
    finally:
        own.server.stop()


def test_a_chess_groups_page_and_publish_answer_at_every_state_of_its_day(
    phone: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 0 (nothing paired), paired, results in, closed, a result corrected after the close
    (``chess result BOARD R --replace --reason``), the next rounds, the last round closed and
    corrected too: the parents' phones get the page with status 200 (and its standings once a
    round is closed, the correction in them), ``publish`` writes it at every state."""
    from clockd.cli import main
    from clockd.core.chessday.group import CloseRound, PairRound
    from tests.web.conftest import make_desk

    desk = make_desk(tmp_path, paired=False)
    web = serve(desk)
    page = phone.new_page()
    connection = ["--port", str(desk.port), "--token", desk.token]
    visited = []

    def visit(state: str) -> str:
        response = page.goto(f"{web.url}/e/{GROUP}")
        assert response is not None and response.status == 200, state
        assert main(["publish", str(tmp_path / state), "--daemon-port", str(desk.port)]) == 0, state
        published = (tmp_path / state / f"{GROUP}.html").read_text(encoding="utf-8")
        capsys.readouterr()
        visited.append(state)
        return published

    def points() -> dict[str, str]:
        """The page's standings: each player's points (the first column after the name)."""
        rows = page.locator("table.standings tbody tr")
        # every player of the group, once the page's live update (it replaces the table) has landed
        expect(rows).to_have_count(11, timeout=5000)
        cells = [rows.nth(i).locator("td") for i in range(rows.count())]
        assert cells[0].nth(0).inner_text() == "1"
        return {c.nth(1).inner_text(): c.nth(2).inner_text() for c in cells}

    def correct(board: int, result: str, *, rnd: int) -> None:
        """The CLI's correction of a closed round, then the page once the web has it."""
        before = len(desk.event(GROUP).body.corrections)
        argv = ["chess", "result", str(board), result, "--replace", "--reason", "blankiet", *connection]
        assert main(argv) == 0
        capsys.readouterr()
        wait_until(lambda: len(web_body(web).corrections) > before)
        published = visit(f"corrected-{rnd}")
        assert '<table class="standings">' in published

    try:
        assert desk.event(GROUP).body.round == 0
        published = visit("round-0")  # nothing paired yet: the start list
        assert "Nowak Jan" in published and "Nowak Jan" in page.inner_text("body")
        for rnd in (1, 2, 3):
            desk.client.act(GROUP, PairRound(round=rnd))
            wait_until(lambda r=rnd: web_body(web).round == r and bool(web_body(web).boards))
            visit(f"paired-{rnd}")
            boards = desk.event(GROUP).body.boards
            for b in boards:
                desk.client.act(GROUP, EnterResult(board=b.board, result="1"))
            wait_until(lambda: all(b.result for b in web_body(web).boards))
            visit(f"results-{rnd}")
            desk.client.act(GROUP, CloseRound())
            wait_until(lambda r=rnd: web_round_closed(web, r))
            published = visit(f"closed-{rnd}")
            assert '<table class="standings">' in published
            before = points()
            if rnd in (1, 3):  # a misreported game found out after the close: Black won on the first board
                first = boards[0]
                correct(first.board, "0", rnd=rnd)
                after = points()
                white, black = first.white.name, first.black.name
                assert after[white] != before[white] and after[black] != before[black], (rnd, white, black)
        assert web_body(web).round == 3 and web_body(web).phase != "playing"  # the last round closed
        assert visited == [
            "round-0", "paired-1", "results-1", "closed-1", "corrected-1", "paired-2", "results-2",
            "closed-2", "paired-3", "results-3", "closed-3", "corrected-3",
        ]  # fmt: skip
    finally:
        web.server.stop()
        desk.client.close()
        desk.daemon.stop()


def web_body(web: Web) -> Any:
    """The web process's own view of the group (what its pages are made from)."""
    hub = web.server.server.config.app.state.hub  # type: ignore[union-attr]
    held = hub.event(GROUP)
    assert held is not None
    return held.view.body


def web_round_closed(web: Web, rnd: int) -> bool:
    """Whether the web process's view of the group has round ``rnd`` closed (its standings in)."""
    hub = web.server.server.config.app.state.hub  # type: ignore[union-attr]
    held = hub.event(GROUP)
    body = held.view.body if held is not None else None
    return body is not None and body.phase != "playing" and body.round == rnd and bool(body.standings)
