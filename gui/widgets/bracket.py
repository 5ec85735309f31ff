"""The knockout bracket: rounds as columns, the final and the 3rd-place duel side by side at the end.

Each match is a card: a header (table, state) and one row per entrant with the display
name and a time — the live clock while the duel is on a table (extrapolated between
the daemon's messages, the running side highlighted), the clock's final figures once it
has been played. Winners are marked with a bar and bold type; losers are greyed out.

The geometry follows the window: the first round's cards share the height, every later
card sits midway between the two it is fed by, and fonts are sized from the card height,
so the same widget serves the referee's laptop and the hall's projector (``hall=True``:
dark, bigger, no match ids).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Signal
from PySide6.QtWidgets import QSizePolicy, QWidget

from clockd.i18n import text
from gui import terms
from gui.model import Bracket, DeskState, Match, Side
from gui.widgets.painted import (
    CENTER,
    LEFT,
    RIGHT,
    Box,
    DeskWidget,
    Item,
    elide,
    fit_font,
    fit_text,
    font,
    text_width,
)


class BracketWidget(DeskWidget):
    """Draws ``state.bracket``; ``tick(now_ns)`` keeps the live clocks current."""

    #: A card was clicked: its match id.
    match_clicked = Signal(str)

    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(hall=hall, parent=parent)
        self.selected: str | None = None
        self.cards: dict[str, QRect] = {}
        self._card_args: dict[str, tuple[QRect, int, str | None]] = {}
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(640, 360)

    # -- inputs ---------------------------------------------------------------------------
    def tables_changed(self, state: DeskState, now_ns: int, tables: frozenset[int] | set[int]) -> None:
        """Only tables changed: redraw if one hosts a duel of the bracket, else just keep the state."""
        if state.bracket is not self.state.bracket or state.bracket is None:
            self.set_state(state, now_ns)
            return
        self.state, self.now_ns = state, now_ns
        bracket = state.bracket
        for mid in list(self._card_args):
            m = bracket.matches.get(mid)
            live = bracket.live_match_of(m) if m is not None else None
            if m is not None and live is not None and live.table in tables:
                self._recard(bracket, m)

    def _recard(self, bracket: Bracket, m: Match) -> None:
        """Redraw one card where it is (its table's clock changed hands, paused, flagged …)."""
        rect, card_h, frame = self._card_args[m.id]
        self.replace_keyed(m.id, lambda: self._card(bracket, m, rect, card_h, frame))
        self.update(rect.adjusted(-4, -4, 4, 4))

    def tick(self, now_ns: int) -> bool:
        """Advance the live clocks to ``now_ns``; repaint only the times whose text changed."""
        self.now_ns = now_ns
        bracket = self.state.bracket
        if bracket is None:
            return False
        changed = False
        for item in self.items:
            if item.role not in ("time-a", "time-b") or not item.key:
                continue
            m = bracket.matches.get(item.key)
            if m is None:
                continue
            text = self._time_text(bracket, m, Side(item.role[-1]))[0]
            if text != item.text:
                item.text = text
                self.update(item.rect.adjusted(-2, -2, 2, 2))
                changed = True
        return changed

    def select(self, match_id: str | None) -> None:
        self.selected = match_id
        self.relayout()

    def mousePressEvent(self, event: object) -> None:
        pos = event.position().toPoint()  # type: ignore[attr-defined]
        for mid, rect in self.cards.items():
            if rect.contains(pos):
                self.match_clicked.emit(mid)
                return

    # -- texts ----------------------------------------------------------------------------
    def _time_text(self, bracket: Bracket, m: Match, side: Side) -> tuple[str, bool]:
        """The time shown in ``m``'s row for its ``side``, and whether that clock is running now."""
        live = bracket.live_match_of(m)
        if live is not None and live.table is not None:
            table = self.state.tables.get(live.table)
            player = m.player(side)
            if table is None or player is None or table.clock is None:
                return "", False
            clock_side = live.clock_side(player)
            clock = table.clock
            if self.state.node_down(table.node):  # its node unheard: the last known time, not live
                return table.shown(clock_side, table.received_ns), False
            running = clock is not None and clock.phase == "running" and clock.running is clock_side
            return table.shown(clock_side, self.now_ns), running
        if m.score is not None and m.decided_by not in ("walkover", "referee", "bye"):
            return m.score.displayed[side], False
        return "", False

    def _placeholder(self, bracket: Bracket, m: Match, side: Side) -> str:
        """What an empty row says: a bye, or whose winner (loser) will come."""
        if m.bye is side:
            return text("term.bye")
        rnd = bracket.round(m.round)
        if rnd.kind == "knockout" and m.round == bracket.rounds[0].number:
            return ""
        feeders = self._feeders(bracket, m)
        if not feeders:
            return ""
        source = feeders[0 if side is Side.A else 1] if len(feeders) == 2 else ""
        if not source:
            return ""
        if rnd.kind == "third_place":
            return text("gui.bracket.loser-of", source=source)
        return text("gui.bracket.winner-of", source=source)

    @staticmethod
    def _feeders(bracket: Bracket, m: Match) -> list[str]:
        rnd = bracket.round(m.round)
        knockouts = bracket.knockout_rounds
        if rnd.kind in ("final", "third_place"):
            if not knockouts:
                return []
            last = knockouts[-1]
            return [x.id for x in bracket.round_matches(last.number)][:2]
        previous = [r for r in knockouts if r.number < m.round]
        if not previous:
            return []
        ids = [x.id for x in bracket.round_matches(previous[-1].number)]
        i = 2 * (m.slot - 1)
        return ids[i : i + 2]

    def _chip(self, bracket: Bracket, m: Match) -> tuple[str, str]:
        """The short state word in a card's header, and its colour: the catalogue's word for the
        clock's phase or the match's state where there is one; "LIVE" and the audience's
        "RESULT" are this screen's own."""
        pal = self.palette_
        live = bracket.live_match_of(m)
        if live is not None:
            table = self.state.tables.get(live.table or 0)
            if table is not None and table.phase in ("paused", "flagged"):
                return terms.phase(table.phase).upper(), pal.paused if table.phase == "paused" else pal.flag
            if live.tiebreak_of is not None:
                return terms.status("tiebreak").upper(), pal.live
            return text("gui.bracket.live"), pal.live
        if m.status == "result":
            return (text("gui.bracket.result") if self.hall else terms.status("result").upper()), pal.pending
        if m.status == "tiebreak":
            return terms.status("tiebreak").upper(), pal.pending
        if m.status == "ready" and m.table is None and not self.hall:
            return terms.status("ready"), pal.muted
        if m.status == "decided" and m.decided_by in ("tiebreak", "walkover", "referee"):
            return terms.decided_by(m.decided_by), pal.muted
        return "", pal.muted

    # -- layout ---------------------------------------------------------------------------
    def relayout(self) -> None:
        self.boxes, self.items, self.lines, self.cards = [], [], [], {}
        self._card_args = {}
        bracket = self.state.bracket
        pal = self.palette_
        w, h = self.width(), self.height()
        if bracket is None or not bracket.rounds:
            self.items.append(
                Item(
                    QRect(0, 0, w, h),
                    text("gui.bracket.no-bracket-yet-the-draw"),
                    "empty",
                    font=font(18 if self.hall else 14),
                    color=pal.muted,
                    align=CENTER,
                )
            )
            self.update()
            return
        knockouts = bracket.knockout_rounds
        finals = [r for r in (bracket.final, bracket.third_place) if r is not None]
        columns = len(knockouts) + (1 if finals else 0)
        margin = max(6, int(w * 0.008))
        header_h = max(22, int(h * (0.055 if self.hall else 0.05)))
        gap = max(18, int(w * (0.035 if self.hall else 0.03)))
        col_w = (w - 2 * margin - (columns - 1) * gap) // max(1, columns)
        top = margin + header_h
        avail = h - top - margin
        first = bracket.round_matches(knockouts[0].number) if knockouts else []
        n1 = max(1, len(first))
        slot_h = avail / n1
        card_h = int(min(slot_h * 0.86, 150 if self.hall else 96))
        head_px = max(10, card_h * 0.2)
        centers: dict[str, float] = {}

        for ci, rnd in enumerate(knockouts):
            x = margin + ci * (col_w + gap)
            rect = QRect(x, margin, col_w, header_h)
            shown, rf = fit_text(terms.round_title(rnd).upper(), rect, head_px * 1.05, bold=True, min_px=9)
            self.items.append(
                Item(rect, shown, "round", key=str(rnd.number), font=rf, color=pal.muted, align=LEFT)
            )
            for m in bracket.round_matches(rnd.number):
                span = 2**ci
                cy = top + ((m.slot - 1) * span + span / 2) * slot_h
                centers[m.id] = cy
                rect = QRect(x, int(cy - card_h / 2), col_w, card_h)
                self._card(bracket, m, rect, card_h)

        if finals:
            x = margin + len(knockouts) * (col_w + gap)
            final_r, third_r = bracket.final, bracket.third_place
            big_h = int(card_h * 1.3)
            mid = top + avail / 2
            slots = []
            if final_r is not None:
                slots.append((final_r, mid - (big_h * 0.9 if third_r else 0), big_h, pal.final))
            if third_r is not None:
                slots.append((third_r, mid + big_h * 0.9, card_h, pal.third))
            for rnd, cy, ch, frame in slots:
                ms = bracket.round_matches(rnd.number)
                if not ms:
                    continue
                m = ms[0]
                rect = QRect(x, int(cy - ch / 2), col_w, ch)
                label_h = int(head_px * 1.6)
                label = QRect(x, rect.top() - label_h - 2, col_w, label_h)
                shown, rf = fit_text(
                    terms.round_title(rnd).upper(), label, head_px * 1.15, bold=True, min_px=9
                )
                self.items.append(
                    Item(label, shown, "round", key=str(rnd.number), font=rf, color=frame, align=LEFT)
                )
                centers[m.id] = cy
                self._card(bracket, m, rect, ch, frame=frame)

        # connectors: each card to the one its winner goes to; semi-finals to the 3rd place dashed
        for ci, rnd in enumerate(knockouts):
            for m in bracket.round_matches(rnd.number):
                src = self.cards.get(m.id)
                if src is None:
                    continue
                targets: list[tuple[str, bool]] = []
                if ci + 1 < len(knockouts):
                    nxt = bracket.round_matches(knockouts[ci + 1].number)
                    idx = (m.slot - 1) // 2
                    if idx < len(nxt):
                        targets.append((nxt[idx].id, False))
                else:
                    if bracket.final is not None:
                        fm = bracket.round_matches(bracket.final.number)
                        targets += [(fm[0].id, False)] if fm else []
                    # the 3rd-place duel is fed by the losers: its rows say so ("loser of …"),
                    # a second set of lines into the last column would only tangle it
                for tid, dashed in targets:
                    dst = self.cards.get(tid)
                    if dst is None:
                        continue
                    y1 = src.center().y()
                    y2 = dst.center().y() + (int(dst.height() * 0.12) * (1 if m.slot % 2 == 0 else -1))
                    x1, x2 = src.right() + 1, dst.left() - 1
                    xm = x1 + (x2 - x1) // 2
                    pts = [QPoint(x1, y1), QPoint(xm, y1), QPoint(xm, y2), QPoint(x2, y2)]
                    self.lines.append((pts, pal.line, 1.5 if self.hall else 1.2, dashed))
        self.update()

    def _card(self, bracket: Bracket, m: Match, rect: QRect, card_h: int, frame: str | None = None) -> None:
        pal = self.palette_
        self.cards[m.id] = rect
        self._card_args[m.id] = (rect, card_h, frame)
        selected = m.id == self.selected
        live = bracket.live_match_of(m) is not None
        border = pal.live if live else frame or pal.card_border
        width = 3.0 if (frame or live or selected) else 1.0
        if selected:
            border = pal.header if not self.hall else pal.text
        self.boxes.append(Box(rect, pal.card, border, width, radius=card_h * 0.1, key=m.id, role="card"))

        pad = max(4, int(card_h * 0.08))
        head_h = int(card_h * 0.26)
        row_h = (rect.height() - head_h - pad) // 2
        head_px = max(9, head_h * 0.68)
        # header: match id and table on the left, the state word on the right
        left_parts = [] if self.hall else [terms.match_label(m)]
        shown_table = (
            (bracket.live_match_of(m) or m).table if m.status not in ("decided", "cancelled") else None
        )
        if shown_table is not None:
            left_parts.append(text("gui.bracket.table", table=str(shown_table)))
        head_rect = QRect(rect.left() + pad, rect.top() + pad // 2, rect.width() - 2 * pad, head_h)
        chip, chip_colour = self._chip(bracket, m)
        hf = font(head_px, bold=True)
        chip_w = int(rect.width() * 0.5)
        self.items.append(
            Item(
                QRect(head_rect.right() - chip_w, head_rect.top(), chip_w, head_h),
                chip,
                "chip",
                m.id,
                hf,
                chip_colour,
                RIGHT,
            )
        )
        left_w = head_rect.width() - (text_width(hf, chip) + pad if chip else 0)
        self.items.append(
            Item(
                QRect(head_rect.left(), head_rect.top(), left_w, head_h),
                elide(" · ".join(left_parts), font(head_px), left_w),
                "header",
                m.id,
                font(head_px),
                pal.muted,
                LEFT,
            )
        )
        name_px = row_h * (0.56 if self.hall else 0.6)
        for i, side in enumerate((Side.A, Side.B)):
            ry = rect.top() + head_h + pad // 2 + i * row_h
            row = QRect(rect.left() + 2, ry, rect.width() - 4, row_h)
            player = m.player(side)
            time_text, running = self._time_text(bracket, m, side)
            time_w = int(rect.width() * 0.34)
            time_rect = QRect(row.right() - time_w - pad, ry + 2, time_w, row_h - 4)
            if running:
                self.boxes.append(
                    Box(
                        row.adjusted(2, 1, -2, -1),
                        pal.running,
                        None,
                        key=m.id,
                        role=f"run-{side.value}",
                        radius=4,
                        alpha=70,
                    )
                )
                self.boxes.append(
                    Box(time_rect, pal.running, None, key=m.id, role=f"clock-{side.value}", radius=4)
                )
            won = m.winner is not None and player == m.winner and m.status == "decided"
            lost = (
                m.winner is not None and player is not None and player != m.winner and m.status == "decided"
            )
            if won:
                self.boxes.append(
                    Box(
                        QRect(row.left() + 1, ry + 3, max(3, pad // 2), row_h - 6),
                        pal.winner,
                        None,
                        radius=2,
                        key=m.id,
                        role=f"won-{side.value}",
                    )
                )
            name_rect = QRect(row.left() + pad + 4, ry, time_rect.left() - row.left() - pad - 8, row_h)
            if player is not None:
                shown, nf = fit_text(
                    self.state.name(player), name_rect, name_px, bold=won or live, min_px=name_px * 0.72
                )
                colour = pal.loser if lost else (pal.winner if won else pal.text)
                self.items.append(
                    Item(
                        name_rect,
                        shown,
                        f"name-{side.value}",
                        m.id,
                        nf,
                        colour,
                        LEFT,
                    )
                )
            else:
                label = self._placeholder(bracket, m, side)
                pf = font(name_px * 0.8)
                pf.setItalic(True)
                self.items.append(
                    Item(
                        name_rect,
                        elide(label, pf, name_rect.width()),
                        f"name-{side.value}",
                        m.id,
                        pf,
                        pal.muted,
                        LEFT,
                    )
                )
            tf = fit_font("00:00", time_rect, row_h * 0.64, bold=True)
            t_colour = pal.running_text if running else (pal.loser if lost else pal.text)
            table = self.state.tables.get((bracket.live_match_of(m) or m).table or 0)
            if live and table is not None and table.phase == "flagged" and time_text == "0:00":
                t_colour = pal.flag
            self.items.append(
                Item(
                    time_rect.adjusted(0, 0, -4, 0),
                    time_text,
                    f"time-{side.value}",
                    m.id,
                    tf,
                    t_colour,
                    RIGHT,
                )
            )
