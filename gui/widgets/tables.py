"""The duel tables: a card per table with both clocks, as the players see them.

Side ``a`` is drawn on the left and ``b`` on the right, as on the physical clock, each
with the name of the player sitting there, the time (live, extrapolated between the
daemon's messages; the running side filled with the highlight colour) and, on the
referee's desk, the moves made, presses ignored, the clock's connection and any alert.

On the audience screen (``hall=True``) the same cards are the "live now" strip: only
tables with a duel on them, only display names, clocks as big as the card allows.
"""

from __future__ import annotations

import functools
import math

from PySide6.QtCore import QRect, Signal
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui import terms
from gui.model import DeskState, Match, Side, Table
from gui.widgets.painted import CENTER, LEFT, RIGHT, Box, DeskView, Item, elide, fit_font, fit_text, font


class TablesView(DeskView):
    """A grid of table cards; ``tick(now_ns)`` keeps their clocks current."""

    #: A table card was clicked: its number.
    table_clicked = Signal(int)

    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(hall=hall, parent=parent)
        self.selected: int | None = None
        #: Draw only this table (the referee's detail panel).
        self.only: int | None = None
        self.cards: dict[int, QRect] = {}
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 160)

    def select(self, table: int | None) -> None:
        self.selected = table
        self.relayout()

    def shown_tables(self) -> list[int]:
        """The tables drawn, in order: on the audience screen only those with a duel on them."""
        tables = sorted(self.state.tables)
        if self.only is not None:
            return [self.only] if self.only in self.state.tables else []
        if not self.hall:
            return tables
        bracket = self.state.bracket
        if bracket is None:
            return [t for t in tables if self.state.tables[t].phase != "ready"]
        return [t for t in tables if (m := bracket.on_table(t)) is not None and m.live]

    def tables_changed(self, state: DeskState, now_ns: int, tables: frozenset[int] | set[int]) -> None:
        """Only tables changed: redraw just their cards, unless which cards are shown changed."""
        same_cast = state.bracket is self.state.bracket and state.players is self.state.players
        self.state, self.now_ns = state, now_ns
        if not same_cast or self.shown_tables() != list(self.cards):
            self.relayout()
            return
        for t in tables:
            rect = self.cards.get(t)
            if rect is not None and t in state.tables:
                self.replace_keyed(str(t), functools.partial(self._card, state.tables[t], rect))
                self.update(rect.adjusted(-4, -4, 4, 4))

    def tick(self, now_ns: int) -> bool:
        self.now_ns = now_ns
        changed = False
        for item in self.items:
            if item.role not in ("time-a", "time-b"):
                continue
            table = self.state.tables.get(int(item.key))
            if table is None:
                continue
            text = table.shown(item.role[-1], now_ns)
            if text != item.text:
                item.text = text
                self.update(item.rect.adjusted(-2, -2, 2, 2))
                changed = True
        return changed

    def mousePressEvent(self, event: object) -> None:
        pos = event.position().toPoint()  # type: ignore[attr-defined]
        for table, rect in self.cards.items():
            if rect.contains(pos):
                self.table_clicked.emit(table)
                return

    # -- layout ---------------------------------------------------------------------------
    def relayout(self) -> None:
        self.boxes, self.items, self.lines, self.cards = [], [], [], {}
        pal = self.palette_
        tables = self.shown_tables()
        w, h = self.width(), self.height()
        if not tables:
            text = self.tr("No duel on a clock right now.") if self.hall else self.tr("No tables yet.")
            self.items.append(
                Item(
                    QRect(0, 0, w, h),
                    text,
                    "empty",
                    font=font(22 if self.hall else 14),
                    color=pal.muted,
                    align=CENTER,
                )
            )
            self.update()
            return
        gap = max(8, int(min(w, h) * 0.02))
        n = len(tables)
        # as many columns as keep a card at least about twice as wide as tall
        best = (1, n)
        best_score = -1.0
        for cols in range(1, n + 1):
            rows = math.ceil(n / cols)
            cw = (w - (cols + 1) * gap) / cols
            ch = (h - (rows + 1) * gap) / rows
            if cw <= 0 or ch <= 0:
                continue
            ideal = 2.6 if self.hall else 1.9
            card_h = min(ch, cw / ideal)
            score = card_h * min(cw, card_h * ideal)
            if score > best_score:
                best, best_score = (cols, rows), score
        cols, rows = best
        cw = (w - (cols + 1) * gap) // cols
        ch = (h - (rows + 1) * gap) // rows
        max_h = int(cw / (1.5 if self.hall else 1.45))
        ch = min(ch, max_h)
        for i, t in enumerate(tables):
            r, c = divmod(i, cols)
            rect = QRect(gap + c * (cw + gap), gap + r * (ch + gap), cw, ch)
            self._card(self.state.tables[t], rect)
        self.update()

    def _match(self, table: int) -> Match | None:
        bracket = self.state.bracket
        return bracket.on_table(table) if bracket is not None else None

    def _card(self, t: Table, rect: QRect) -> None:
        pal = self.palette_
        key = str(t.table)
        self.cards[t.table] = rect
        selected = t.table == self.selected
        alerting = (bool(t.alerts) or t.phase == "flagged") and not self.hall
        border = pal.header if selected and not self.hall else (pal.pending if alerting else pal.card_border)
        self.boxes.append(
            Box(
                rect,
                pal.card,
                border,
                3.0 if selected or alerting else 1.0,
                radius=rect.height() * 0.06,
                key=key,
                role="card",
            )
        )
        pad = max(6, int(rect.height() * 0.05))
        head_h = int(rect.height() * (0.17 if self.hall else 0.15))
        foot_h = 0 if self.hall else int(rect.height() * 0.17)
        match = self._match(t.table)
        bracket = self.state.bracket

        # header: table, what is played there; on the right the clock's phase and connection
        hf = font(head_h * 0.62, bold=True)
        head = QRect(rect.left() + pad, rect.top() + pad // 2, rect.width() - 2 * pad, head_h)
        title = self.tr("Table %1").replace("%1", str(t.table))
        if match is not None and bracket is not None:
            what = terms.round_title(bracket.round(match.round))
            if match.tiebreak_of is not None:
                what += " · " + self.tr("tie-break")
            title_rest = what if self.hall else f"{terms.match_label(match)} · {what}"
        else:
            title_rest = ""
        phase_text, phase_colour = self._phase_chip(t)
        chip_w = int(head.width() * 0.32)
        self.items.append(
            Item(
                QRect(head.right() - chip_w, head.top(), chip_w, head_h),
                phase_text,
                "phase",
                key,
                hf,
                phase_colour,
                RIGHT,
            )
        )
        tw = head.width() - chip_w - pad
        title_rect = QRect(head.left(), head.top(), tw, head_h)
        text, title_font = fit_text(
            f"{title} · {title_rest}" if title_rest else title,
            title_rect,
            head_h * 0.62,
            bold=True,
            min_px=head_h * 0.4,
        )
        self.items.append(
            Item(title_rect, text, "title", key, title_font, pal.text if not self.hall else pal.muted, LEFT)
        )

        body = QRect(
            rect.left() + pad,
            head.bottom() + 2,
            rect.width() - 2 * pad,
            rect.bottom() - head.bottom() - foot_h - pad,
        )
        half_w = (body.width() - pad) // 2
        halves = [
            QRect(body.left() + i * (half_w + pad), body.top(), half_w, body.height()) for i in range(2)
        ]
        name_h = int(body.height() * (0.26 if self.hall else 0.24))
        # both names in one size (the smaller of what each needs), so neither side looks favoured
        name_px = name_h * 0.62
        for side, half in zip((Side.A, Side.B), halves, strict=True):
            text = self._name_text(t, match, side)
            name_px = min(
                name_px,
                fit_text(
                    text,
                    QRect(0, 0, half.width() - 4, name_h),
                    name_h * 0.62,
                    bold=True,
                    min_px=name_h * 0.36,
                )[1].pixelSize(),
            )
        for side, half in zip((Side.A, Side.B), halves, strict=True):
            self._half(t, match, side, half, key, name_h, int(name_px))

        if not self.hall:
            foot = QRect(rect.left() + pad, rect.bottom() - foot_h - pad // 2, rect.width() - 2 * pad, foot_h)
            ff = font(foot_h * 0.46)
            if t.alerts:
                a = t.alerts[-1]
                text = terms.alert(a.code, a.message)
                if len(t.alerts) > 1:
                    text = f"({len(t.alerts)}) {text}"
                self.boxes.append(Box(foot, pal.alert, None, radius=4, key=key, role="alert"))
                self.items.append(
                    Item(
                        foot.adjusted(6, 0, -6, 0),
                        elide("⚠ " + text, ff, foot.width() - 12),
                        "alert",
                        key,
                        ff,
                        pal.alert_text,
                        LEFT,
                    )
                )
            else:
                dot = "●"
                colour = (
                    pal.ok
                    if t.device == "connected"
                    else (pal.offline if t.device == "disconnected" else pal.muted)
                )
                text = f"{dot} {terms.device(t.device)}"
                if t.device_detail and t.device != "connected":
                    text += f" — {t.device_detail}"
                self.items.append(
                    Item(
                        foot.adjusted(2, 0, -2, 0),
                        elide(text, ff, foot.width() - 4),
                        "device",
                        key,
                        ff,
                        colour,
                        LEFT,
                    )
                )

    def _phase_chip(self, t: Table) -> tuple[str, str]:
        pal = self.palette_
        if t.phase == "running":
            return ("" if self.hall else terms.phase("running").upper()), pal.live
        if t.phase == "paused":
            return terms.phase("paused").upper(), pal.paused
        if t.phase == "flagged":
            return terms.phase("flagged").upper(), pal.flag
        return ("" if self.hall else terms.phase("ready").upper()), pal.muted

    def _name_text(self, t: Table, match: Match | None, side: Side) -> str:
        """The player at ``side`` with the turn marker pointing at them when it is their move."""
        running = t.phase == "running" and t.running is side
        turn = t.to_move is side and t.phase in ("paused", "ready") and t.to_move is not None
        player = match.at_clock(side) if match is not None else None
        name = (
            self.state.name(player)
            if player is not None
            else self.tr("side %1").replace("%1", side.value.upper())
        )
        if running or turn:
            return "▶ " + name if side is Side.A else name + " ◀"
        return name

    def _half(
        self, t: Table, match: Match | None, side: Side, half: QRect, key: str, name_h: int, name_px: int
    ) -> None:
        pal = self.palette_
        running = t.phase == "running" and t.running is side
        turn = t.to_move is side and t.phase in ("paused", "ready") and t.to_move is not None
        moves_h = 0 if self.hall else int(half.height() * 0.18)
        clock = QRect(half.left(), half.top() + name_h, half.width(), half.height() - name_h - moves_h)
        if running:
            self.boxes.append(
                Box(
                    clock,
                    pal.running,
                    None,
                    radius=clock.height() * 0.12,
                    key=key,
                    role=f"clock-{side.value}",
                )
            )
        else:
            border = pal.paused if turn else pal.card_border
            self.boxes.append(
                Box(
                    clock,
                    None,
                    border,
                    2.0 if turn else 1.0,
                    radius=clock.height() * 0.12,
                    key=key,
                    role=f"clock-{side.value}",
                )
            )
        player = match.at_clock(side) if match is not None else None
        align = LEFT if side is Side.A else RIGHT
        name_rect = QRect(half.left() + 2, half.top(), half.width() - 4, name_h)
        nf = font(name_px, bold=player is not None)
        self.items.append(
            Item(
                name_rect,
                elide(self._name_text(t, match, side), nf, name_rect.width()),
                f"name-{side.value}",
                key,
                nf,
                pal.text if player is not None else pal.muted,
                align,
            )
        )
        text = t.shown(side, self.now_ns)
        tf = fit_font(
            "0:00:00" if t.remaining_ms[side] >= 3_600_000 else "00:00",
            clock.adjusted(8, 0, -8, 0),
            clock.height() * 0.62,
            bold=True,
        )
        colour = pal.running_text if running else pal.text
        if t.flag is side or (t.phase == "flagged" and text == "0:00"):
            colour = pal.flag
        self.items.append(Item(clock, text, f"time-{side.value}", key, tf, colour, CENTER))
        if moves_h:
            mf = font(moves_h * 0.6)
            moves = self.tr("moves %1").replace("%1", str(t.moves[side]))
            if t.ignored[side]:
                moves += " · " + self.tr("ignored %1").replace("%1", str(t.ignored[side]))
            mrect = QRect(half.left() + 2, clock.bottom() + 1, half.width() - 4, moves_h)
            self.items.append(
                Item(mrect, elide(moves, mf, mrect.width()), f"moves-{side.value}", key, mf, pal.muted, align)
            )
