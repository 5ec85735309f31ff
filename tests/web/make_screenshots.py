"""Screenshots of the public pages at phone size: ``python -m tests.web.make_screenshots [DIR]``.

A real daemon with the showcase's Puzzle Duel (two duels running), a chess group with
round 1 paired and a few results, and a relay counting down; the pages served beside it
and photographed in Debian's headless chromium at 390×844 (``make screenshots``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import EnterResult
from clockd.core.clock import Side
from clockd.core.hall import FinishEntry, TimerStart
from clockd.core.zone import AddEntry
from tests.web.conftest import GROUP, SESSION, make_desk, serve
from tests.web.test_browser import ARGS, CHROMIUM, PHONE


def main(folder: Path) -> int:
    desk = make_desk(Path(tempfile.mkdtemp(prefix="web-shots-")))
    for table in (1, 2):
        for side in (Side.A, Side.B):
            desk.press(table, side)
    for board, result in ((21, "1"), (22, "="), (24, "0")):
        desk.client.act(GROUP, EnterResult(board=board, result=result))
    desk.client.act("", CreateEvent(event_kind="relay", key="sztafeta", name="Sztafeta"))
    for i, name in enumerate(("Kasia i Ola", "Bracia Puzzlarze", "Szybkie Palce", "Zielone Klocki"), start=1):
        desk.client.act("sztafeta", AddEntry(entry=f"P{i}", name=name, table=None))
    desk.client.act("sztafeta", TimerStart())
    desk.client.act("sztafeta", FinishEntry(entry="P2"))
    desk.settle()
    web = serve(desk)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            context = browser.new_context(**PHONE)
            page = context.new_page()
            shots = {
                "web-events.png": "/",
                "web-bracket.png": f"/e/{SESSION}",
                "web-chess.png": f"/e/{GROUP}",
                "web-relay.png": "/e/sztafeta",
                "web-bracket-en.png": f"/e/{SESSION}?lang=en",
            }
            for name, path in shots.items():
                page.goto(web.url + path)
                page.wait_for_selector("body[data-seq]", state="attached")
                time.sleep(0.3)
                page.screenshot(path=str(folder / name))
            page.goto(web.url + f"/e/{GROUP}?lang=pl")
            page.fill("#find", "kowalski")
            page.screenshot(path=str(folder / "web-chess-find.png"))
            browser.close()
    finally:
        web.server.stop()
        desk.daemon.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")))
