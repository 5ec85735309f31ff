"""The tables: a card per table, drawn as the program the table runs shows itself.

What a card shows depends on the table's *program*, not on a fixed pair of clocks:

* a **clock** (a chess clock, a Puzzle Duel's clock) — both faces as the players see
  them: side ``a`` left and ``b`` right, each with the name of the player sitting there
  (when an event's match is on it), the time (live, extrapolated between the daemon's
  messages; the running side filled with the highlight colour) and, on the referee's
  desk, the moves made and presses ignored;
* a **station** of a hall event — the entry (a pair, a team) and whether it has finished,
  with its finish in the event's time;
* **idle** — the table's number and that nothing is played there.

On the referee's desk every card has a footer: the device's connection, or the newest
alert. A table timed by a table node (``docs/mqtt.md``) names its node there, with its
link as a symbol *and* a word (▲ up, ▼ down: never colour alone). While the desk cannot
hear the node, the card is the table's **last known** state: the clocks stand still at
what the node last sent (the node may have paused them; a flag may have fallen there), the
running side is not filled as live, and the header says "last known".

On the audience screen (``hall=True``) the same cards are the "live now" strip: only
display names, clocks as big as the card allows.
"""

from __future__ import annotations

import functools
import math

from PySide6.QtCore import QRect, Signal
from PySide6.QtWidgets import QSizePolicy, QWidget

from clockd.core.clock import Side
from clockd.core.device import DeviceState
from clockd.core.display import format_exact_ms
from clockd.i18n import render, text
from gui import terms
from gui.model import DeskState, Event, Match, Table
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


class TablesWidget(DeskWidget):
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
        """The tables drawn, in order.

        The desk lists the tables of the event shown (:meth:`DeskState.tables_of_shown`). The
        audience sees what is being played: a session's duels on a clock now, a hall event's
        stations, or — with no event shown — every clock that has been started.
        """
        state = self.state
        if self.only is not None:
            return [self.only] if self.only in state.tables else []
        if not self.hall:
            return state.tables_of_shown()
        shown = state.event
        if shown is not None and shown.hall is not None:
            return state.tables_of_shown()
        if shown is not None and shown.session is not None and shown.session.bracket is not None:
            out = []
            for t in sorted(state.tables):
                duel = state.duel_at(t)
                if duel is not None and duel[0].id == shown.id and duel[1].live:
                    out.append(t)
            return out
        return [
            n for n, t in sorted(state.tables.items()) if t.clock is not None and t.clock.phase != "ready"
        ]

    def tables_changed(self, state: DeskState, now_ns: int, tables: frozenset[int] | set[int]) -> None:
        """Only tables changed: redraw just their cards, unless which cards are shown changed."""
        same_cast = state.events is self.state.events and state.shown == self.state.shown
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
            text = table.shown(item.role[-1], self._clock_now(table, now_ns))
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
            label = text("gui.tables.no-duel-on-a-clock") if self.hall else text("gui.tables.no-tables-yet")
            self.items.append(
                Item(
                    QRect(0, 0, w, h),
                    label,
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

    def _stale(self, t: Table) -> bool:
        """The table's node is down: what is drawn is the last known state, not a live one."""
        return self.state.node_down(t.node)

    def _clock_now(self, t: Table, now_ns: int) -> int:
        """The instant a clock is drawn at: now, or — a node the desk cannot hear — the
        instant its last state arrived (the time is never extrapolated as if live)."""
        return t.received_ns if self._stale(t) else now_ns

    def _duel(self, table: int) -> tuple[Event, Match] | None:
        return self.state.duel_at(table)

    def _name(self, event: Event | None, player: int | None) -> str:
        if player is None:
            return ""
        players = event.session.players if event is not None and event.session is not None else {}
        p = players.get(player)
        return p.display_name if p is not None else f"#{player}"

    def _card(self, t: Table, rect: QRect) -> None:
        pal = self.palette_
        key = str(t.table)
        self.cards[t.table] = rect
        selected = t.table == self.selected
        alerting = (bool(t.alerts) or t.phase == "flagged") and not self.hall
        stale = self._stale(t)
        border = pal.header if selected and not self.hall else (pal.pending if alerting else pal.card_border)
        if stale and not selected:
            border = pal.offline
        self.boxes.append(
            Box(
                rect,
                pal.card,
                border,
                3.0 if selected or alerting or stale else 1.0,
                radius=rect.height() * 0.06,
                key=key,
                role="card",
            )
        )
        pad = max(6, int(rect.height() * 0.05))
        head_h = int(rect.height() * (0.17 if self.hall else 0.15))
        foot_h = 0 if self.hall else int(rect.height() * 0.17)
        duel = self._duel(t.table)

        # header: the table and what is played there; on the right the program's state word
        hf = font(head_h * 0.62, bold=True)
        head = QRect(rect.left() + pad, rect.top() + pad // 2, rect.width() - 2 * pad, head_h)
        title = text("gui.tables.table", table=str(t.table))
        rest = self._what(t, duel)
        chip_text, chip_colour = self._chip(t)
        # the state word takes what it needs, up to 40 % of the line (smaller type, if it must)
        chip_w = min(int(head.width() * 0.4), text_width(hf, chip_text) + 6) if chip_text else 0
        chip_rect = QRect(head.right() - chip_w, head.top(), chip_w, head_h)
        shown_chip, cf = fit_text(chip_text, chip_rect, head_h * 0.62, bold=True, min_px=head_h * 0.3)
        self.items.append(Item(chip_rect, shown_chip, "phase", key, cf, chip_colour, RIGHT))
        tw = head.width() - chip_w - (pad if chip_w else 0)
        title_rect = QRect(head.left(), head.top(), tw, head_h)
        label, title_font = fit_text(
            f"{title} · {rest}" if rest else title,
            title_rect,
            head_h * 0.62,
            bold=True,
            min_px=head_h * 0.4,
        )
        self.items.append(
            Item(title_rect, label, "title", key, title_font, pal.text if not self.hall else pal.muted, LEFT)
        )

        body = QRect(
            rect.left() + pad,
            head.bottom() + 2,
            rect.width() - 2 * pad,
            rect.bottom() - head.bottom() - foot_h - pad,
        )
        if t.clock is not None:
            self._clocks(t, duel, body, pad, key)
        elif t.program == "station":
            self._station(t, body, key)
        else:
            self._idle(t, body, key)
        if not self.hall:
            self._footer(t, rect, pad, foot_h, key)

    def _what(self, t: Table, duel: tuple[Event, Match] | None) -> str:
        """What the header says is played at ``t``: the match and its round, a station's event."""
        if duel is not None:
            event, match = duel
            bracket = event.session.bracket if event.session is not None else None
            what = terms.round_title(bracket.round(match.round)) if bracket is not None else ""
            if match.tiebreak_of is not None:
                what += " · " + text("gui.tables.tie-break")
            if self.hall:
                return what
            here = event.id == self.state.shown
            label = terms.match_label(match) if here else f"{event.key}/{terms.match_label(match)}"
            return f"{label} · {what}" if what else label
        owned = self.state.owner_of(t.table)
        if t.program == "station":
            return render(owned[0].title) if owned is not None else ""
        if t.clock is not None and t.owner is None and not self.hall:
            return t.clock.control
        return ""

    def _chip(self, t: Table) -> tuple[str, str]:
        pal = self.palette_
        if self._stale(t):
            return text("gui.tables.last-known"), pal.offline
        if t.program == "station":
            if t.finished:
                return text("gui.tables.finished"), pal.ok
            return (
                "" if self.hall else text("gui.tables.in-play") if t.armed else text("gui.tables.waiting")
            ), pal.muted
        phase = t.phase
        if t.over:
            return text("gui.tables.duel-over"), pal.pending
        if phase is None:
            return ("" if self.hall else terms.program(t.program).upper()), pal.muted
        if phase == "running":
            return ("" if self.hall else terms.phase("running").upper()), pal.live
        if phase == "paused":
            return terms.phase("paused").upper(), pal.paused
        if phase == "flagged":
            return terms.phase("flagged").upper(), pal.flag
        return ("" if self.hall else terms.phase("ready").upper()), pal.muted

    # -- the programs' bodies ------------------------------------------------------------------
    def _clocks(self, t: Table, duel: tuple[Event, Match] | None, body: QRect, pad: int, key: str) -> None:
        half_w = (body.width() - pad) // 2
        halves = [
            QRect(body.left() + i * (half_w + pad), body.top(), half_w, body.height()) for i in range(2)
        ]
        name_h = int(body.height() * (0.26 if self.hall else 0.24))
        # both names in one size (the smaller of what each needs), so neither side looks favoured
        name_px = name_h * 0.62
        for side, half in zip((Side.A, Side.B), halves, strict=True):
            text = self._name_text(t, duel, side)
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
            self._half(t, duel, side, half, key, name_h, int(name_px))

    def _station(self, t: Table, body: QRect, key: str) -> None:
        pal = self.palette_
        entry_h = int(body.height() * 0.55)
        entry_rect = QRect(body.left(), body.top(), body.width(), entry_h)
        shown, ef = fit_text(self._entry_name(t), entry_rect, entry_h * 0.6, bold=True, min_px=entry_h * 0.3)
        self.items.append(Item(entry_rect, shown, "entry", key, ef, pal.text, CENTER))
        finish_rect = QRect(
            body.left(), entry_rect.bottom() + 1, body.width(), body.bottom() - entry_rect.bottom()
        )
        finished_ms = self._finished_ms(t)
        if t.finished and finished_ms is not None:
            line = text("gui.tables.finished-at", at=format_exact_ms(finished_ms))
            colour = pal.ok
        elif t.finished:
            line, colour = text("gui.tables.finished-state"), pal.ok
        elif t.armed:
            line, colour = text("gui.tables.the-button-records-the-finish"), pal.muted
        elif self._hall_phase(t) == "ended":
            line, colour = text("gui.tables.the-events-time-is-over"), pal.muted
        else:
            line, colour = text("gui.tables.waiting-for-the-start"), pal.muted
        shown_line, ff = fit_text(line, finish_rect, finish_rect.height() * 0.42, bold=t.finished, min_px=9)
        self.items.append(Item(finish_rect, shown_line, "finish", key, ff, colour, CENTER))

    def _entry_name(self, t: Table) -> str:
        """The entry's public name (the pair, the team), as its event names it; else its id."""
        owned = self.state.owner_of(t.table)
        hall = owned[0].hall if owned is not None else None
        if hall is None:
            return t.entry
        return next((s.name for s in hall.stations if s.entry == t.entry and s.name), t.entry)

    def _hall_phase(self, t: Table) -> str:
        owned = self.state.owner_of(t.table)
        hall = owned[0].hall if owned is not None else None
        return hall.timer.phase if hall is not None else ""

    def _finished_ms(self, t: Table) -> int | None:
        owned = self.state.owner_of(t.table)
        hall = owned[0].hall if owned is not None else None
        if hall is None:
            return None
        return next((s.finished_ms for s in hall.stations if s.entry == t.entry), None)

    def _idle(self, t: Table, body: QRect, key: str) -> None:
        pal = self.palette_
        f = font(body.height() * 0.16)
        self.items.append(
            Item(body, text("gui.tables.nothing-is-played-here"), "idle", key, f, pal.muted, CENTER)
        )

    def node_text(self, t: Table) -> str:
        """The node that times ``t`` and its link, as the footer shows it ("" : this daemon's)."""
        if not t.node:
            return ""
        if self._stale(t):
            return "▼ " + text("gui.tables.node-down", node=t.node)
        return "▲ " + text("gui.tables.node", node=t.node)

    def _footer(self, t: Table, rect: QRect, pad: int, foot_h: int, key: str) -> None:
        pal = self.palette_
        foot = QRect(rect.left() + pad, rect.bottom() - foot_h - pad // 2, rect.width() - 2 * pad, foot_h)
        ff = font(foot_h * 0.46)
        node = self.node_text(t)
        if node:  # the node on the right, up to 55 % of the footer; the device or alert in the rest
            nw = min(int(foot.width() * 0.55), text_width(ff, node) + 8)
            node_rect = QRect(foot.right() - nw, foot.top(), nw, foot_h)
            colour = pal.offline if self._stale(t) else pal.muted
            self.items.append(Item(node_rect, elide(node, ff, nw), "node", key, ff, colour, RIGHT))
            foot = QRect(foot.left(), foot.top(), foot.width() - nw - 6, foot_h)
        if t.alerts:
            label = render(t.alerts[-1].text)
            if len(t.alerts) > 1:
                label = f"({len(t.alerts)}) {label}"
            self.boxes.append(Box(foot, pal.alert, None, radius=4, key=key, role="alert"))
            self.items.append(
                Item(
                    foot.adjusted(6, 0, -6, 0),
                    elide("⚠ " + label, ff, foot.width() - 12),
                    "alert",
                    key,
                    ff,
                    pal.alert_text,
                    LEFT,
                )
            )
            return
        colour = (
            pal.ok
            if t.device is DeviceState.CONNECTED
            else (pal.offline if t.device is DeviceState.DISCONNECTED else pal.muted)
        )
        label = "● " + text("gui.tables.device", device=terms.device(t.device.value))
        if t.device_detail is not None and t.device is not DeviceState.CONNECTED:
            label += f" — {render(t.device_detail)}"
        self.items.append(
            Item(
                foot.adjusted(2, 0, -2, 0),
                elide(label, ff, foot.width() - 4),
                "device",
                key,
                ff,
                colour,
                LEFT,
            )
        )

    def _name_text(self, t: Table, duel: tuple[Event, Match] | None, side: Side) -> str:
        """The player at ``side`` with the turn marker pointing at them when it is their move."""
        clock = t.clock
        assert clock is not None
        running = clock.phase == "running" and clock.running is side
        turn = clock.to_move is side and clock.phase in ("paused", "ready")
        player = duel[1].at_clock(side) if duel is not None else None
        name = (
            self._name(duel[0] if duel else None, player)
            if player is not None
            else text("gui.tables.side", side=side.value.upper())
        )
        if running or turn:
            return "▶ " + name if side is Side.A else name + " ◀"
        return name

    def _half(
        self,
        t: Table,
        duel: tuple[Event, Match] | None,
        side: Side,
        half: QRect,
        key: str,
        name_h: int,
        name_px: int,
    ) -> None:
        pal = self.palette_
        clock_state = t.clock
        assert clock_state is not None
        # a node the desk cannot hear: its running side is not filled as live (it may not run)
        running = clock_state.phase == "running" and clock_state.running is side and not self._stale(t)
        turn = clock_state.to_move is side and clock_state.phase in ("paused", "ready")
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
        player = duel[1].at_clock(side) if duel is not None else None
        align = LEFT if side is Side.A else RIGHT
        name_rect = QRect(half.left() + 2, half.top(), half.width() - 4, name_h)
        nf = font(name_px, bold=player is not None)
        self.items.append(
            Item(
                name_rect,
                elide(self._name_text(t, duel, side), nf, name_rect.width()),
                f"name-{side.value}",
                key,
                nf,
                pal.text if player is not None else pal.muted,
                align,
            )
        )
        label = t.shown(side, self._clock_now(t, self.now_ns))
        tf = fit_font(
            "0:00:00" if clock_state.remaining_ms[side] >= 3_600_000 else "00:00",
            clock.adjusted(8, 0, -8, 0),
            clock.height() * 0.62,
            bold=True,
        )
        colour = pal.running_text if running else (pal.muted if self._stale(t) else pal.text)
        if clock_state.flag is side or (clock_state.phase == "flagged" and label == "0:00"):
            colour = pal.flag
        self.items.append(Item(clock, label, f"time-{side.value}", key, tf, colour, CENTER))
        if moves_h:
            mf = font(moves_h * 0.6)
            moves = text("gui.tables.moves", moves=str(clock_state.moves[side]))
            if clock_state.ignored[side]:
                moves += " · " + text("gui.tables.ignored", ignored=str(clock_state.ignored[side]))
            mrect = QRect(half.left() + 2, clock.bottom() + 1, half.width() - 4, moves_h)
            self.items.append(
                Item(mrect, elide(moves, mf, mrect.width()), f"moves-{side.value}", key, mf, pal.muted, align)
            )
