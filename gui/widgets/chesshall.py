"""The chess day on the audience screen: every group's pairings, then its standings, in turn.

Twenty groups share one projector, so the screen cycles: a group's pairings (board, names,
school, points — what a player looks for to find their board), then its standings (FIDE
acronyms as column heads), a few seconds a page, then the next group. A group with more
boards (or players) than a page holds at a size readable from the back of the hall gets
several pages. Beside every page, the countdown to the group's next round
(``next_round_at``, the daemon's plan) in big digits, and its lag behind the plan in words.

Painted from a computed layout (:class:`~gui.widgets.painted.DeskWidget`), so the tests read
what it drew where. The page turns by :meth:`ChessScreen.advance` — the audience window's
timer calls it, a test calls it by hand.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QSizePolicy, QWidget

from clockd.api.chess import ChessBody, column_label
from clockd.core.display import format_clock
from clockd.core.units import SECOND
from clockd.i18n import render, text
from gui.model import DeskState, Event
from gui.widgets.chess import result_text
from gui.widgets.painted import CENTER, LEFT, RIGHT, Box, DeskWidget, Item, elide, fit_font, fit_text, font

#: How long a page stays on the screen.
PAGE_MS = 8000

#: The smallest row a page uses (pixels at 1080 lines): smaller is not read from the back.
MIN_ROW = 46

PageKind = Literal["pairings", "standings", "waiting"]


@dataclass(frozen=True)
class Page:
    """One screenful: a group's pairings or standings (rows ``start``..``stop``)."""

    event: str
    kind: PageKind
    start: int = 0
    stop: int = 0
    number: int = 1  # of this group's pages of this kind
    of: int = 1


def now_local() -> datetime.datetime:
    return datetime.datetime.now().astimezone()


def countdown(body: ChessBody, now: datetime.datetime) -> tuple[str, str] | None:
    """(caption, big text) for the group's next round: the time left, or when it was due (the
    daemon's ``next_round_at`` is the next round's planned start, during a round too)."""
    if body.next_round_at is None or body.phase == "finished":
        return None
    at = datetime.datetime.fromisoformat(body.next_round_at)
    if at.tzinfo is None:
        at = at.astimezone()
    left = (at - now).total_seconds()
    number = body.next_round or body.round + 1
    if left > 0:
        return f"round:{number}", format_clock(int(left * SECOND))
    return f"due:{number}", at.strftime("%H:%M")


class ChessScreen(DeskWidget):
    """The audience's chess view: the page shown, the countdown, the page's rows."""

    def __init__(
        self,
        *,
        wall: Callable[[], datetime.datetime] = now_local,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(hall=True, parent=parent)
        self.wall = wall
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.pages: list[Page] = []
        self.index = 0
        self.page: Page | None = None

    # -- pages ---------------------------------------------------------------------------------
    def rows_per_page(self) -> int:
        table_h = self.height() - self._band_h() - int(self.height() * 0.08)
        return max(4, table_h // MIN_ROW - 1)

    def _band_h(self) -> int:
        return max(120, int(self.height() * 0.2))

    def make_pages(self, state: DeskState) -> list[Page]:
        per = self.rows_per_page()
        out: list[Page] = []
        for event in state.chess_groups():
            body = event.chess
            assert body is not None
            kinds: tuple[tuple[PageKind, int], ...] = (
                ("pairings", len(body.boards)),
                ("standings", len(body.standings)),
            )
            for kind, n in kinds:
                chunks = [(i, min(n, i + per)) for i in range(0, n, per)]
                for k, (a, b) in enumerate(chunks, start=1):
                    out.append(Page(event.id, kind, a, b, k, len(chunks)))
            if not body.boards and not body.standings:
                out.append(Page(event.id, "waiting"))
        return out

    def set_state(self, state: DeskState, now_ns: int) -> None:
        self.state = state
        self.now_ns = now_ns
        self._repage()
        self.relayout()

    def _repage(self) -> None:
        """The pages anew (a group paired, a resize); the page shown stays if it still exists."""
        current = self.page
        self.pages = self.make_pages(self.state)
        if not self.pages:
            self.index, self.page = 0, None
            return
        if current is not None:
            same = [
                i
                for i, p in enumerate(self.pages)
                if (p.event, p.kind, p.number) == (current.event, current.kind, current.number)
            ]
            if same:
                self.index = same[0]
            else:
                group = [i for i, p in enumerate(self.pages) if p.event == current.event]
                self.index = group[0] if group else min(self.index, len(self.pages) - 1)
        else:  # the first page: the group the desk shows
            first = [i for i, p in enumerate(self.pages) if p.event == self.state.shown]
            self.index = first[0] if first else 0
        self.index = min(self.index, len(self.pages) - 1)
        self.page = self.pages[self.index]

    def advance(self) -> Page | None:
        """The next page (after the last group's standings: the first group's pairings)."""
        if not self.pages:
            return None
        self.index = (self.index + 1) % len(self.pages)
        self.page = self.pages[self.index]
        self.relayout()
        return self.page

    def shown_event(self) -> Event | None:
        return self.state.events.get(self.page.event) if self.page is not None else None

    def resizeEvent(self, event: object) -> None:
        self._repage()
        self.relayout()

    # -- texts -----------------------------------------------------------------------------------
    def caption(self, code: str) -> str:
        what, _, number = code.partition(":")
        if what == "round":
            return text("gui.chesshall.round-starts-in", round=number)
        return text("gui.chesshall.round-was-planned-at", round=number)

    def page_title(self, body: ChessBody, page: Page) -> str:
        if page.kind == "pairings":
            title = text("gui.chesshall.round-of-pairings", round=str(body.round), rounds=str(body.rounds))
        elif page.kind == "standings":
            after = body.round if body.phase != "playing" else body.round - 1
            title = text("gui.chesshall.standings-after-round-of", round=str(after), rounds=str(body.rounds))
        else:
            title = text("gui.chesshall.start-list-players", players=str(body.players))
        return title + (f"  ({page.number}/{page.of})" if page.of > 1 else "")

    def lag_text(self, body: ChessBody) -> str:
        if body.lag_minutes is None:
            return ""
        return text("gui.chesshall.min-behind-the-plan", minutes=str(body.lag_minutes))

    # -- layout ------------------------------------------------------------------------------------
    def relayout(self) -> None:
        self.boxes, self.items, self.lines = [], [], []
        pal = self.palette_
        w, h = self.width(), self.height()
        event = self.shown_event()
        body = event.chess if event is not None else None
        if body is None or self.page is None:
            self.items.append(
                Item(
                    QRect(0, 0, w, h),
                    text("gui.chesshall.no-chess-group-yet"),
                    "empty",
                    font=font(40),
                    color=pal.muted,
                    align=CENTER,
                )
            )
            self.update()
            return
        page = self.page
        m = max(16, int(w * 0.02))
        band = self._band_h()
        # the band: the page's title and the lag (left), the countdown (right)
        clock_w = int(w * 0.34)
        left = QRect(m, m // 2, w - 3 * m - clock_w, band - m)
        title = self.page_title(body, page)
        self.items.append(
            Item(
                QRect(left.x(), left.y(), left.width(), int(left.height() * 0.55)),
                elide(title, font(int(band * 0.26), bold=True), left.width()),
                "page-title",
                key=page.kind,
                font=font(int(band * 0.26), bold=True),
                color=pal.text,
            )
        )
        lag = self.lag_text(body)
        if lag:
            self.items.append(
                Item(
                    QRect(
                        left.x(), left.y() + int(left.height() * 0.55), left.width(), int(left.height() * 0.4)
                    ),
                    "⚠ " + lag,
                    "lag",
                    font=font(int(band * 0.2), bold=True),
                    color=pal.pending,
                )
            )
        cd = countdown(body, self.wall())
        if cd is not None:
            box = QRect(w - m - clock_w, m // 2, clock_w, band - m)
            self.boxes.append(Box(box, pal.card, pal.card_border, 2, 14))
            cap_h = int(box.height() * 0.28)
            self.items.append(
                Item(
                    QRect(box.x() + 12, box.y() + 4, box.width() - 24, cap_h),
                    elide(self.caption(cd[0]), font(int(cap_h * 0.7)), box.width() - 24),
                    "countdown-caption",
                    font=font(int(cap_h * 0.7)),
                    color=pal.muted,
                    align=CENTER,
                )
            )
            digits = QRect(box.x() + 12, box.y() + cap_h, box.width() - 24, box.height() - cap_h - 4)
            self.items.append(
                Item(
                    digits,
                    cd[1],
                    "countdown",
                    key=cd[0],
                    font=fit_font("88:88:88", digits, digits.height() * 0.85, bold=True, mono=True),
                    color=pal.running if cd[0].startswith("round") else pal.text,
                    align=CENTER,
                )
            )
        top = band + m // 2
        table = QRect(m, top, w - 2 * m, h - top - m)
        if page.kind == "pairings":
            self._pairings(body, page, table)
        elif page.kind == "standings":
            self._standings(body, page, table)
        self.update()

    def _columns(self, table: QRect, fractions: list[float]) -> list[tuple[int, int]]:
        out, x = [], table.x()
        for f in fractions:
            width = int(table.width() * f)
            out.append((x, width))
            x += width
        return out

    def _row_h(self, table: QRect, rows: int) -> int:
        return max(MIN_ROW, min(72, table.height() // max(1, rows + 1)))

    def _rows(
        self,
        table: QRect,
        head: list[str],
        rows: list[list[str]],
        fractions: list[float],
        aligns: list[Qt.AlignmentFlag],
        kind: str,
    ) -> None:
        pal = self.palette_
        cols = self._columns(table, fractions)
        row_h = self._row_h(table, len(rows))
        for (x, width), label, align in zip(cols, head, aligns, strict=True):
            shown, head_f = fit_text(
                label, QRect(0, 0, width - 12, row_h), row_h * 0.4, bold=True, min_px=row_h * 0.26
            )
            self.items.append(
                Item(
                    QRect(x + 6, table.y(), width - 12, row_h),
                    shown,
                    "head",
                    font=head_f,
                    color=pal.muted,
                    align=align,
                )
            )
        y = table.y() + row_h
        body_f, bold_f, small_f = font(row_h * 0.5), font(row_h * 0.5, bold=True), font(row_h * 0.38)
        for i, cells in enumerate(rows):
            if i % 2 == 0:
                self.boxes.append(Box(QRect(table.x(), y, table.width(), row_h), pal.card, None, radius=4))
            for c, ((x, width), label, align) in enumerate(zip(cols, cells, aligns, strict=True)):
                f = bold_f if c == 0 or (kind == "pairings" and c == 4) else body_f
                if head[c] == text("gui.chesshall.school"):  # read second: smaller
                    f = small_f
                # shrunk to fit rather than cut (down to a size still read from the back)
                f = fit_text(
                    label, QRect(0, 0, width - 12, row_h), f.pixelSize(), bold=f.bold(), min_px=row_h * 0.3
                )[1]
                rect = QRect(x + 6, y, width - 12, row_h)
                self.items.append(
                    Item(
                        rect,
                        elide(label, f, rect.width()),
                        kind,
                        key=cells[0],
                        font=f,
                        color=pal.text,
                        align=align,
                    )
                )
            y += row_h

    def _pairings(self, body: ChessBody, page: Page, table: QRect) -> None:
        head = [
            text("gui.chesshall.board-no"),
            text("gui.chesshall.white"),
            text("gui.chesshall.school"),
            text("gui.chesshall.pts"),
            text("gui.chesshall.result"),
            text("gui.chesshall.pts"),
            text("gui.chesshall.black"),
            text("gui.chesshall.school"),
        ]
        rows = [
            [
                str(b.board),
                b.white.name,
                b.white.school,
                b.white.points,
                result_text(b.result) or "–",
                b.black.points,
                b.black.name,
                b.black.school,
            ]
            for b in body.boards[page.start : page.stop]
        ]
        fractions = [0.07, 0.22, 0.16, 0.05, 0.08, 0.05, 0.22, 0.15]
        self._rows(
            table, head, rows, fractions, [CENTER, LEFT, LEFT, CENTER, CENTER, CENTER, LEFT, LEFT], "pairings"
        )
        extra = []
        last = page.number == page.of
        if last and body.bye is not None:
            extra.append(text("gui.chesshall.bye", player=body.bye.name))
        if extra:
            row_h = self._row_h(table, len(rows))
            y = table.y() + row_h * (len(rows) + 1) + 6
            f = font(row_h * 0.45)
            self.items.append(
                Item(
                    QRect(table.x() + 6, y, table.width() - 12, row_h),
                    elide("   ".join(extra), f, table.width() - 12),
                    "bye",
                    font=f,
                    color=self.palette_.muted,
                )
            )

    def _standings(self, body: ChessBody, page: Page, table: QRect) -> None:
        columns = list(body.columns)
        head = [
            text("gui.chesshall.place"),
            text("gui.chesshall.name"),
            text("gui.chesshall.school"),
            *(render(column_label(c)) for c in columns),
        ]
        rest = 0.50 / max(1, len(columns))
        fractions = [0.06, 0.25, 0.19, *([rest] * len(columns))]
        rows = [
            [str(s.rank), s.player.name, s.player.school, *(s.values.get(c, "") for c in columns)]
            for s in body.standings[page.start : page.stop]
        ]
        self._rows(table, head, rows, fractions, [CENTER, LEFT, LEFT, *([RIGHT] * len(columns))], "standings")

    # -- time ------------------------------------------------------------------------------------------
    def tick(self, now_ns: int) -> bool:
        """Repaint the countdown when its text changed (once a second)."""
        self.now_ns = now_ns
        event = self.shown_event()
        body = event.chess if event is not None else None
        if body is None:
            return False
        cd = countdown(body, self.wall())
        for item in self.items:
            if item.role == "countdown" and cd is not None and item.text != cd[1]:
                if item.key != cd[0]:
                    self.relayout()
                    return True
                item.text = cd[1]
                self.update(item.rect.adjusted(-2, -2, 2, 2))
                return True
        return False


__all__ = ["PAGE_MS", "ChessScreen", "Page", "countdown"]
