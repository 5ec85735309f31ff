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

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QSizePolicy, QWidget

from clockd.core.display import format_clock, format_exact_ms
from clockd.core.units import MS
from gui import terms
from gui.model import Hall
from gui.widgets.painted import CENTER, LEFT, RIGHT, Box, DeskWidget, Item, elide, fit_font, fit_text, font


class HallWidget(DeskWidget):
    """Draws the shown event's hall timer (``state.hall``); ``tick(now_ns)`` keeps it current."""

    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(hall=hall, parent=parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)

    # -- texts --------------------------------------------------------------------------------
    def next_signal_text(self, hall: Hall, now_ns: int) -> str:
        """When the next signal comes: in how long, and at which time of the event."""
        timer = hall.timer
        if timer.phase == "ended":
            return self.tr("the event's time is over")
        if timer.starts_in_ms is not None and timer.phase == "ready":
            starts = self.tr("start in %1").replace("%1", format_clock(timer.starts_in_ms * MS))
        else:
            starts = ""
        at, left = timer.next_signal_ms, hall.next_signal_in_ms(now_ns)
        if at is None or left is None:
            if timer.phase == "ready":
                return starts or self.tr("not started")
            return self.tr("no more signals")
        when = format_clock(left * MS)
        if at < 0:
            line = self.tr("%1 in %2").replace("%1", terms.signal("pre", at)).replace("%2", when)
            return f"{starts} · {line}" if starts else line
        return self.tr("next signal in %1 (at %2)").replace("%1", when).replace("%2", format_clock(at * MS))

    def signals_text(self, hall: Hall) -> str:
        timer = hall.timer
        given = self.tr("signals given: %1 of %2").replace("%1", str(timer.signals_given))
        given = given.replace("%2", str(len(timer.signals_ms)))
        parts = [given]
        if timer.every_ms:
            parts.append(self.tr("every %1").replace("%1", format_clock(timer.every_ms * MS)))
        if timer.duration_ms is None:
            parts.append(self.tr("counting up"))
        if timer.paused_ms:
            parts.append(self.tr("paused %1").replace("%1", format_clock(timer.paused_ms * MS)))
        if timer.adjusted_ms:
            sign = "+" if timer.adjusted_ms > 0 else "−"
            parts.append(self.tr("adjusted %1").replace("%1", sign + format_exact_ms(abs(timer.adjusted_ms))))
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
                    self.tr("No timed event shown."),
                    "empty",
                    font=font(16),
                    color=pal.muted,
                )
            )
            self.update()
            return
        now = self.now_ns
        margin = max(8, int(min(w, h) * 0.03))
        stations = hall.stations
        time_h = int(h * (0.48 if stations else 0.66))
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
        nf = font(line_h * 0.62, bold=True)
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
            sf = font(line_h * 0.45)
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
        if stations:
            self._stations(hall, QRect(margin, bottom + margin // 2, w - 2 * margin, h - bottom - margin))
        self.update()

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
            table = "" if self.hall else self.tr("table %1").replace("%1", str(s.table)) + "  "
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
