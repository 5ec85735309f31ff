"""A timed hall event: its big countdown (or count-up), the next signal, and the stations' finishes.

The relay's 60 minutes with "ZMIANA" every 5, the team event's 180: the hall runs on one
clock, the daemon's :class:`~clockd.core.hall.HallTimer`. This view draws what the daemon
said of it — the time left (a count-up: the time so far), its phase, when the next signal
comes and how many were given — carried forward between messages on the GUI's own clock
while it runs (:class:`~gui.model.Hall`), and below it each station: the entry and its
finish in the event's time, exact to the millisecond (as journaled).

The same widget serves the referee's panel and the audience screen (``hall=True``: dark,
bigger). Like the bracket it is painted from a computed layout that records which text
it drew where, so tests probe it at computed points.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Signal
from PySide6.QtWidgets import QSizePolicy, QWidget

from clockd.core.display import format_clock, format_exact_ms
from clockd.core.units import MS
from clockd.i18n import text
from gui import terms
from gui.model import Hall, ZoneRow
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

#: Medal colours of places 1–3 (the results' printout uses the same).
MEDALS = {1: "#ffd54f", 2: "#cfd8dc", 3: "#ffcc80"}


class HallWidget(DeskWidget):
    """Draws the shown event's hall timer (``state.hall``); ``tick(now_ns)`` keeps it current.

    A relay's, blind puzzling's or team event's entries are drawn as the ranking so far (a
    click on an unfinished entry's row: ``entry_clicked``, the desk records its finish); the
    S(witcher) rotation's as its tables, each with who sits there now and where each goes
    at the next change.
    """

    entry_clicked = Signal(str)

    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(hall=hall, parent=parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)

    # -- texts --------------------------------------------------------------------------------
    def next_signal_text(self, hall: Hall, now_ns: int) -> str:
        """When the next signal comes: in how long, and at which time of the event."""
        timer = hall.timer
        if timer.phase == "ended":
            return text("gui.hall.the-events-time-is-over")
        if timer.starts_in_ms is not None and timer.phase == "ready":
            starts = text("gui.hall.start-in", when=format_clock(timer.starts_in_ms * MS))
        else:
            starts = ""
        at, left = timer.next_signal_ms, hall.next_signal_in_ms(now_ns)
        if at is None or left is None:
            if timer.phase == "ready":
                return starts or text("gui.hall.not-started")
            return text("gui.hall.no-more-signals")
        when = format_clock(left * MS)
        if at < 0:
            line = text("gui.hall.in", signal=terms.signal("pre", at), when=when)
            return f"{starts} · {line}" if starts else line
        return text("gui.hall.next-signal-in-at", when=when, at=format_clock(at * MS))

    def signals_text(self, hall: Hall) -> str:
        timer = hall.timer
        given = text(
            "gui.hall.signals-given-of", given=str(timer.signals_given), signals=str(len(timer.signals_ms))
        )
        parts = [given]
        if timer.every_ms:
            parts.append(text("gui.hall.every", every=format_clock(timer.every_ms * MS)))
        if timer.duration_ms is None:
            parts.append(text("gui.hall.counting-up"))
        if timer.paused_ms:
            parts.append(text("gui.hall.paused", paused=format_clock(timer.paused_ms * MS)))
        if timer.adjusted_ms:
            sign = "+" if timer.adjusted_ms > 0 else "−"
            parts.append(text("gui.hall.adjusted", adjusted=sign + format_exact_ms(abs(timer.adjusted_ms))))
        return " · ".join(parts)

    def _colour(self, hall: Hall) -> str:
        pal = self.palette_
        phase = hall.timer.phase
        if phase == "paused":
            return pal.paused
        if phase == "ended":
            return pal.flag
        if phase == "ready":
            return pal.muted
        return pal.text

    # -- inputs ---------------------------------------------------------------------------------
    def tick(self, now_ns: int) -> bool:
        """Carry a running timer forward to ``now_ns``; repaint only the texts that changed."""
        self.now_ns = now_ns
        hall = self.state.hall
        if hall is None or not hall.running:
            return False
        changed = False
        for item in self.items:
            if item.role == "hall-time":
                text = hall.shown(now_ns)
            elif item.role == "hall-next":
                text = elide(self.next_signal_text(hall, now_ns), item.font, item.rect.width())
            else:
                continue
            if text != item.text:
                item.text = text
                self.update(item.rect.adjusted(-2, -2, 2, 2))
                changed = True
        return changed

    # -- layout ---------------------------------------------------------------------------------
    def relayout(self) -> None:
        self.boxes, self.items, self.lines = [], [], []
        pal = self.palette_
        hall = self.state.hall
        w, h = self.width(), self.height()
        if hall is None:
            self.items.append(
                Item(
                    QRect(0, 0, w, h),
                    text("gui.hall.no-timed-event-shown"),
                    "empty",
                    font=font(16),
                    color=pal.muted,
                )
            )
            self.update()
            return
        now = self.now_ns
        margin = max(8, int(min(w, h) * 0.03))
        stations = hall.stations or hall.ranking or hall.seats
        time_h = int(h * (0.48 if stations else 0.66))
        if hall.ranking or hall.seats:
            time_h = int(h * (0.26 if self.hall else 0.22))
        line_h = int(h * 0.07)
        # the big time, and its phase above it
        phase_rect = QRect(margin, margin, w - 2 * margin, line_h)
        pf = font(line_h * 0.7, bold=True)
        self.items.append(
            Item(
                phase_rect,
                terms.timer_phase(hall.timer.phase).upper(),
                "hall-phase",
                "",
                pf,
                self._colour(hall),
                CENTER,
            )
        )
        time_rect = QRect(margin, phase_rect.bottom(), w - 2 * margin, time_h)
        sample = "0:00:00" if (hall.timer.duration_ms or hall.elapsed_ms(now)) >= 3_600_000 else "00:00"
        tf = fit_font(sample, time_rect.adjusted(0, 0, 0, 0), time_h * 0.8, bold=True)
        self.items.append(Item(time_rect, hall.shown(now), "hall-time", "", tf, self._colour(hall), CENTER))
        next_rect = QRect(margin, time_rect.bottom(), w - 2 * margin, line_h)
        nf = font(min(line_h * 0.62, w * 0.034), bold=True)
        self.items.append(
            Item(
                next_rect,
                elide(self.next_signal_text(hall, now), nf, next_rect.width()),
                "hall-next",
                "",
                nf,
                pal.live,
                CENTER,
            )
        )
        bottom = next_rect.bottom()
        if not self.hall:
            sig_rect = QRect(margin, bottom, w - 2 * margin, int(line_h * 0.8))
            sf = font(min(line_h * 0.45, w * 0.026))
            self.items.append(
                Item(
                    sig_rect,
                    elide(self.signals_text(hall), sf, sig_rect.width()),
                    "hall-signals",
                    "",
                    sf,
                    pal.muted,
                    CENTER,
                )
            )
            bottom = sig_rect.bottom()
        area = QRect(margin, bottom + margin // 2, w - 2 * margin, h - bottom - margin)
        if hall.ranking:
            self._ranking(hall, area)
        elif hall.seats:
            self._rotation(hall, area)
        elif stations:
            self._stations(hall, area)
        self.update()

    def mousePressEvent(self, event: object) -> None:
        pos = event.position().toPoint()  # type: ignore[attr-defined]
        for box in self.boxes:
            if box.role == "zone-row" and box.rect.contains(pos):
                self.entry_clicked.emit(box.key)
                return

    # -- the relay, blind puzzling, the team event: the ranking so far ----------------------------
    def _result_text(self, r: ZoneRow) -> str:
        if r.finished_ms is not None:
            return format_exact_ms(r.finished_ms)
        if r.pieces is not None:
            return text("gui.hall.pieces", pieces=str(r.pieces))
        return "—"

    def _note(self, hall: Hall, r: ZoneRow) -> str:
        if r.why == "void":
            return text("gui.hall.not-classified")
        if r.why == "missing":
            return text("gui.hall.over-missing-void", missing=str(hall.max_missing or 10))
        if r.why == "late":
            return text("gui.hall.after-the-end")
        if r.on_list is not None and hall.timer.phase == "ready" and not self.hall:
            listed = {
                "main": text("gui.hall.main-list"),
                "reserve": text("gui.hall.reserve"),
                "walk-in": text("gui.hall.walk-in"),
            }
            return listed.get(r.on_list, "") + (" ✓" if r.present else "")
        return ""

    def _ranking(self, hall: Hall, area: QRect) -> None:
        """One row per entry: place, name, table, time or pieces, the split, missing pieces, a note."""
        pal = self.palette_
        rows = hall.ranking
        n = len(rows)
        gap = max(2, area.height() // 120)
        rh = min((area.height() - (n) * gap) // max(1, n + 1), 84 if self.hall else 40)
        if rh < 12:
            rh = 12
        team = hall.kind == "team"
        # columns: place | name | table | time | split | missing | note
        cols: list[tuple[str, float]] = [("place", 0.1), ("name", 0.36 if self.hall else 0.26)]
        if not self.hall:
            cols.append(("table", 0.09))
        cols.append(("time", 0.22 if self.hall else 0.25))
        if hall.splits:
            cols.append(("split", 0.2))
        if team:
            cols.append(("missing", 0.1))
        cols.append(("note", 1.0 - sum(w for _, w in cols)))
        heads = {
            "place": text("gui.hall.place"),
            "name": text("gui.hall.entry"),
            "table": text("gui.hall.table"),
            "time": text("gui.hall.time-pieces"),
            "split": text("gui.hall.bag-2"),
            "missing": text("gui.hall.missing"),
            "note": "",
        }
        hf = font(rh * 0.36, bold=True)
        x = area.left()
        widths = {}
        for key, frac in cols:
            widths[key] = int(area.width() * frac)
        top = area.top()
        aligns = {"time": RIGHT, "split": RIGHT, "missing": CENTER}
        for key, _ in cols:
            rect = QRect(x + 6, top, widths[key] - 10, rh)
            self.items.append(Item(rect, heads[key], "zone-head", key, hf, pal.muted, aligns.get(key, LEFT)))
            x += widths[key]
        for i, r in enumerate(rows):
            y = top + (i + 1) * (rh + gap)
            rect = QRect(area.left(), y, area.width(), rh)
            medal = MEDALS.get(r.place or 0) if r.place is not None and r.place <= 3 else None
            done = r.finished_ms is not None
            border = pal.ok if done and r.classified else pal.card_border
            self.boxes.append(
                Box(rect, medal or pal.card, border, 2.0 if done else 1.0, key=r.entry, role="zone-row")
            )
            ink = "#14202b" if medal else (pal.muted if not r.classified else pal.text)
            x = area.left()
            values = {
                "place": "—" if r.place is None else f"{r.place}.",
                "name": r.name,
                "table": "" if r.table is None else str(r.table),
                "time": self._result_text(r),
                "split": "" if r.split_ms is None else format_exact_ms(r.split_ms),
                "missing": str(r.missing) if done else "",
                "note": self._note(hall, r),
            }
            for key, _ in cols:
                cell = QRect(x + 6, y, widths[key] - 10, rh)
                label = values[key]
                bold = key in ("place", "name", "time")
                if key == "name":
                    shown, f = fit_text(label, cell, rh * 0.5, bold=True, min_px=rh * 0.3)
                elif key == "note":
                    shown, f = fit_text(label, cell, rh * 0.4, min_px=rh * 0.25)
                else:
                    px = rh * (0.5 if key in ("place", "time") else 0.4)
                    f = (
                        fit_font(label, cell, px, bold=bold)
                        if key in ("time", "split") and label
                        else font(px, bold=bold)
                    )
                    shown = elide(label, f, cell.width())
                align = aligns.get(key, LEFT)
                self.items.append(Item(cell, shown, f"zone-{key}", r.entry, f, ink, align))
                x += widths[key]

    # -- the S(witcher) rotation: every table, who sits there, where each goes next --------------------
    def _rotation(self, hall: Hall, area: QRect) -> None:
        pal = self.palette_
        by_table: dict[int, dict[str, tuple[str, int]]] = {}
        for s in hall.seats:
            by_table.setdefault(s.table, {})[s.circle] = (s.name or "—", s.next_table)
        done = {t.table: t.done_ms for t in hall.rotation_tables}
        tables = sorted(by_table)
        n = len(tables)
        head_h = int(area.height() * 0.1)
        summary = text("gui.hall.change", change=str(hall.rotations))
        if not self.hall:
            summary += " · " + text("gui.hall.stayed-from-the-start", stayed=str(len(hall.stayed)))
            summary += " · " + text("gui.hall.replacements", replacements=str(hall.replacements))
        head_rect = QRect(area.left(), area.top(), area.width(), head_h)
        head_px = min(head_h * 0.7, area.width() * 0.03)
        summary, hf = fit_text(summary, head_rect, head_px, bold=True, min_px=9)
        self.items.append(Item(head_rect, summary, "rotation-head", "", hf, pal.text, CENTER))
        grid = area.adjusted(0, head_h, 0, 0)
        cols = max(3, min(7 if n > 8 else 4, grid.width() // 150))
        rows = -(-n // cols)
        gap = max(4, grid.width() // 150)
        cw = (grid.width() - (cols - 1) * gap) // cols
        ch = (grid.height() - (rows - 1) * gap) // max(1, rows)
        for i, t in enumerate(tables):
            r, c = divmod(i, cols)
            rect = QRect(grid.left() + c * (cw + gap), grid.top() + r * (ch + gap), cw, ch)
            finished = done.get(t) is not None
            self.boxes.append(
                Box(rect, pal.card, pal.ok if finished else pal.card_border, 2.0 if finished else 1.0,
                    key=str(t), role="rotation-table")
            )  # fmt: skip
            line = min(ch // 4, cw // 5)
            title = text("gui.hall.table-number", table=str(t)) + ("  ✓" if finished else "")
            inner = rect.adjusted(6, 2, -6, -2)
            title_rect = QRect(inner.left(), inner.top(), inner.width(), line)
            colour = pal.ok if finished else pal.muted
            title, tf = fit_text(title, title_rect, line * 0.62, bold=True, min_px=line * 0.3)
            self.items.append(Item(title_rect, title, "rotation-title", str(t), tf, colour, CENTER))
            for k, circle in enumerate(("outer", "inner")):
                name, nxt = by_table.get(t, {}).get(circle, ("—", t))
                row = QRect(
                    inner.left(), inner.top() + int(line * (1 + k * 1.4)), inner.width(), int(line * 1.4)
                )
                arrow = f"→ {nxt}"
                af = font(line * 0.55, bold=True)
                aw = text_width(af, arrow) + 6
                shown, nf = fit_text(
                    name, row.adjusted(0, 0, -aw, 0), line * 0.7, bold=True, min_px=line * 0.3
                )
                self.items.append(
                    Item(row.adjusted(0, 0, -aw, 0), shown, "seat-name", f"{t}-{circle}", nf, pal.text, LEFT)
                )
                self.items.append(Item(row, arrow, "seat-next", f"{t}-{circle}", af, pal.live, RIGHT))

    def _stations(self, hall: Hall, area: QRect) -> None:
        """A box per station: the entry on the left, its finish (or a dash) on the right."""
        pal = self.palette_
        n = len(hall.stations)
        cols = 1 if n <= 3 else 2 if n <= 8 else 3
        rows = -(-n // cols)
        gap = max(4, area.height() // 40)
        cw = (area.width() - (cols - 1) * gap) // cols
        ch = min((area.height() - (rows - 1) * gap) // max(1, rows), 90 if self.hall else 44)
        for i, s in enumerate(hall.stations):
            r, c = divmod(i, cols)
            rect = QRect(area.left() + c * (cw + gap), area.top() + r * (ch + gap), cw, ch)
            done = s.finished_ms is not None
            self.boxes.append(
                Box(
                    rect,
                    pal.card,
                    pal.ok if done else pal.card_border,
                    2.0 if done else 1.0,
                    key=s.entry,
                    role="station",
                )
            )
            inner = rect.adjusted(8, 0, -8, 0)
            finish = format_exact_ms(s.finished_ms) if s.finished_ms is not None else "—"
            ff = font(ch * 0.42, bold=done)
            fw = int(inner.width() * 0.45)
            name_rect = QRect(inner.left(), inner.top(), inner.width() - fw, inner.height())
            shown, nf = fit_text(s.entry, name_rect, ch * 0.42, bold=True, min_px=ch * 0.25)
            self.items.append(Item(name_rect, shown, "station-name", s.entry, nf, pal.text, LEFT))
            table = "" if self.hall else text("gui.hall.table-number", table=str(s.table)) + "  "
            self.items.append(
                Item(
                    QRect(inner.right() - fw, inner.top(), fw, inner.height()),
                    table + finish,
                    "station-finish",
                    s.entry,
                    ff,
                    pal.ok if done else pal.muted,
                    RIGHT,
                )
            )
