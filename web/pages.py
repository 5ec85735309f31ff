"""The public pages, built from the views the hub holds: what a phone in the hall shows.

Everything here is read from the daemon's public views (the hub subscribes without the
token), so a name is the ``public_names`` rule's (``Anna K.``; chess groups' start lists by
full name, as the regulations publish them) and no e-mail, phone or age ever reaches a
page. Clocks and countdowns are counted on from the instant their view arrived, so a page
opened between two presses shows the time left now; the browser counts on from there.
"""

from __future__ import annotations

import json
import time
from typing import Any

import jinja2
from markupsafe import Markup

from clockd.api import EventView, TableView
from clockd.api.chess import ChessBody, column_label
from clockd.api.puzzle import SessionBody
from clockd.api.zone import ZoneBody
from clockd.i18n import msg, render
from web.hub import EVENTS, Held, Hub, Topic
from web.render import Words, clock_text, page_context

#: Why an entry is not classified, as the ranking says it.
_WHY = {"void": "web.why-void", "missing": "web.why-missing", "late": "web.why-late"}


def _age_ms(held: Held) -> int:
    return max(0, (time.monotonic_ns() - held.at_ns) // 1_000_000)


def href(key: str) -> str:
    return f"e/{key}"


class Pages:
    """Fragments of the public pages, rendered once per change and language for every open page."""

    def __init__(self, hub: Hub, env: jinja2.Environment) -> None:
        self.hub = hub
        self.env = env
        self.link = href  # a published copy links to files (``pt.html``) instead
        #: Rendered fragments and when: a page opened later than ``fresh_s`` after them gets a new one
        #: (the clocks and countdowns in it are counted on from the views' arrival when rendered).
        self._html: dict[tuple[Topic, str], tuple[int, str]] = {}
        self.fresh_s = 1.0
        self._clocks: dict[Topic, tuple[int, str]] = {}
        self._sse: dict[tuple[Topic, str, str], tuple[int, bytes]] = {}
        hub.on_flush.append(self._forget)

    def _forget(self, dirty: dict[Topic, set[str]]) -> None:
        for topic, what in dirty.items():
            self._clocks.pop(topic, None)
            for key in [k for k in self._sse if k[0] == topic]:
                del self._sse[key]
            if "html" in what or topic[0] == "event":
                for lang in ("pl", "en"):
                    self._html.pop((topic, lang), None)

    # -- what the stream sends ----------------------------------------------------------------
    def html(self, topic: Topic, lang: str, *, root: str = "/") -> str:
        """The live part of ``topic``'s page in ``lang`` (cached until it changes, ``fresh_s`` at most)."""
        key = (topic, lang)
        now = time.monotonic_ns()
        if root == "/" and key in self._html:
            at, cached = self._html[key]
            if now - at <= self.fresh_s * 1e9:
                return cached
        out = self._render(topic, lang, root)
        if root == "/":
            self._html[key] = (now, out)
        return out

    def sse(self, topic: Topic, lang: str, what: str) -> bytes:
        """The stream's message ``what`` ("html" or "clocks"), formatted once for every page."""
        key = (topic, lang if what == "html" else "", what)
        now = time.monotonic_ns()
        held = self._sse.get(key)
        if held is not None and now - held[0] <= self.fresh_s * 1e9:
            return held[1]
        data = self.html(topic, lang) if what == "html" else self.clocks(topic)
        lines = "".join(f"data: {line}\n" for line in data.split("\n"))
        out = f"event: {what}\n{lines}\n".encode()
        self._sse[key] = (now, out)
        return out

    def clocks(self, topic: Topic) -> str:
        """The running clocks of an event's tables, as JSON: ``{"3": {"a": ms, "b": ms, "run": "a"}}``."""
        now = time.monotonic_ns()
        held = self._clocks.get(topic)
        if held is not None and now - held[0] <= self.fresh_s * 1e9:
            return held[1]
        out = json.dumps({"seq": self.hub.seq, "tables": self._clock_map(topic[1])}, separators=(",", ":"))
        self._clocks[topic] = (now, out)
        return out

    def title(self, topic: Topic, lang: str) -> str:
        words = Words(lang)
        if topic == EVENTS:
            return words("web.todays-events")
        held = self.hub.event(topic[1])
        if held is None or not isinstance(held.view, EventView):
            return words("web.no-such-event", key=topic[1])
        return words(held.view.title)

    def exists(self, topic: Topic) -> bool:
        return topic == EVENTS or self.hub.event(topic[1]) is not None

    # -- rendering ---------------------------------------------------------------------------------
    def _render(self, topic: Topic, lang: str, root: str) -> str:
        ctx = page_context(lang, connected=self.hub.connected, root=root)
        if topic == EVENTS:
            return self.env.get_template("events.html").render(events=self._events(lang, root), **ctx)
        held = self.hub.event(topic[1])
        if held is None:
            return ""
        view = held.view
        assert isinstance(view, EventView)
        body = view.body
        if isinstance(body, SessionBody):
            return self.env.get_template("puzzle.html").render(**self._puzzle(view, body, lang), **ctx)
        if isinstance(body, ChessBody):
            return self.env.get_template("chess.html").render(**self._chess(body, lang), **ctx)
        if getattr(body, "timer", None) is None:  # a kind the pages know only by the daemon's words
            return self.env.get_template("shown.html").render(rows=self._shown(held, lang), **ctx)
        return self.env.get_template("zone.html").render(**self._zone(held, lang), **ctx)

    def _shown(self, held: Held, lang: str) -> list[dict[str, Any]]:
        """An event's ``shown`` lines for the page: a running time carried on by the page's script."""
        view = held.view
        assert isinstance(view, EventView)
        age = _age_ms(held)
        rows = []
        for i, row in enumerate(view.shown):
            ms = row.ms_at(age) if row.running else row.ms
            if ms is not None:
                words = render(msg("shown.left" if row.time == "left" else "shown.gone", ms=ms), lang)
            else:
                words = render(row.text, lang) if row.text is not None else ""
            rows.append(
                {
                    "label": render(row.label, lang),
                    "text": words,
                    "ms": ms,
                    "dir": -1 if row.time == "left" else 1,
                    "running": "true" if row.running else "false",
                    "big": i == 0 and ms is not None,
                }
            )
        return rows

    def _events(self, lang: str, root: str) -> list[dict[str, str]]:
        words = Words(lang)
        out = []
        for key, held in sorted(self.hub.events.items()):
            view = held.view
            assert isinstance(view, EventView)
            out.append(
                {
                    "href": self.link(key),
                    "title": words(view.title),
                    "kind": words(f"term.event-kind.{view.kind}") if view.kind else "",
                    "summary": self._summary(view, lang),
                }
            )
        return out

    def _summary(self, view: EventView, lang: str) -> str:
        body: Any = view.body
        if isinstance(body, SessionBody):
            return render(msg(f"term.session-stage.{body.stage}"), lang)
        if isinstance(body, ChessBody):
            return render(msg(f"chess.phase.{body.phase}"), lang)
        timer = getattr(body, "timer", None)
        if timer is not None:
            return render(msg(f"term.timer-phase.{timer.phase}"), lang)
        return " · ".join(
            f"{render(r.label, lang)}: {render(r.text, lang)}" for r in view.shown if r.text is not None
        )

    def _clock_map(self, key: str) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for number, held in self.hub.tables.items():
            table = held.view
            assert isinstance(table, TableView)
            if self.hub.owner_event(table) != key:
                continue
            face = getattr(table.program, "clock", None)
            if face is None:
                continue
            age = _age_ms(held) if face.phase == "running" else 0
            out[str(number)] = {
                "a": face.remaining_after("a", age),
                "b": face.remaining_after("b", age),
                "run": face.running.value if face.running is not None and face.phase == "running" else None,
                "n": table.presses,
            }
        return out

    def _puzzle(self, view: EventView, body: SessionBody, lang: str) -> dict[str, Any]:
        words = Words(lang)
        names = {p.id: p.name for p in body.players}
        clocks = self._clock_map(view.key)
        rounds = []
        bracket = body.bracket
        if bracket is not None:
            for r in bracket.rounds:
                matches = []
                for m in (m for m in bracket.matches if m.round == r.number):
                    if m.status == "cancelled":
                        continue
                    side_a = "b" if (m.clock_a is not None and m.clock_a == m.b) else "a"
                    side_b = "b" if side_a == "a" else "a"
                    clock = (
                        clocks.get(str(m.table)) if m.table is not None and m.status == "assigned" else None
                    )
                    score_a = score_b = ""
                    if m.score is not None:
                        score_a, score_b = m.score.displayed[side_a], m.score.displayed[side_b]
                    winner = None if m.winner is None else ("a" if m.winner == m.a else "b")
                    matches.append(
                        {
                            "id": m.id,
                            "status": m.status,
                            "status_text": words(f"term.match-status.{m.status}"),
                            "a": names.get(m.a, "—") if m.a is not None else "—",
                            "b": names.get(m.b, "—") if m.b is not None else "—",
                            "table": m.table,
                            "side_a": side_a,
                            "side_b": side_b,
                            "clock": clock,
                            "score_a": score_a,
                            "score_b": score_b,
                            "winner": winner,
                        }
                    )
                rounds.append({"name": words(r.name), "matches": matches})
        podium = [names.get(p, "—") for p in (bracket.podium if bracket else []) if p is not None]
        return {
            "stage": words(f"term.session-stage.{body.stage}"),
            "players": [p.name for p in body.players if p.in_field or body.field is None],
            "rounds": rounds,
            "podium": podium if bracket is not None and bracket.finished else [],
            "clocks_json": Markup(json.dumps(clocks).replace("<", "\\u003c")),
        }

    def _chess(self, body: ChessBody, lang: str) -> dict[str, Any]:
        words = Words(lang)
        next_in = None
        if body.next_round_at:
            try:
                from datetime import datetime

                at = datetime.fromisoformat(body.next_round_at)
                now = datetime.now(at.tzinfo)
                next_in = int((at - now).total_seconds() * 1000)
                shown = at.strftime("%H:%M")
            except ValueError:
                shown = body.next_round_at
        return {
            "phase": words(f"chess.phase.{body.phase}"),
            "round": body.round,
            "rounds": body.rounds,
            "next_round_at": shown if body.next_round_at else None,
            "next_round": body.next_round,
            "next_in_ms": next_in if next_in is not None and next_in > 0 else None,
            "boards": [
                {
                    "board": b.board,
                    "white": b.white.name,
                    "black": b.black.name,
                    "white_points": b.white.points,
                    "black_points": b.black.points,
                    "result": b.result,
                    "names": f"{b.white.name} {b.black.name}".lower(),
                }
                for b in body.boards
            ],
            "bye": body.bye.name if body.bye is not None else None,
            "columns": [words(column_label(c)) for c in body.columns],
            # "cells", not "values": in the template ``s.values`` would be the dict's own method
            "standings": [
                {"rank": s.rank, "name": s.player.name, "cells": [s.values.get(c, "") for c in body.columns]}
                for s in body.standings
            ],
            # before round 1 is paired (and nothing to rank yet): who is in the group
            "players": [] if body.boards or body.standings else [p.name for p in body.start_list],
        }

    def _zone(self, held: Held, lang: str) -> dict[str, Any]:
        words = Words(lang)
        view = held.view
        assert isinstance(view, EventView)
        body: Any = view.body
        timer = body.timer
        running = timer.phase == "running"
        age = _age_ms(held) if running else 0
        if timer.remaining_ms is not None:
            shown, direction = max(0, timer.remaining_ms - age), -1
        else:
            shown, direction = timer.elapsed_ms + age, 1
        if timer.phase == "ready" and timer.starts_in_ms is not None:
            shown, direction, running = max(0, timer.starts_in_ms - _age_ms(held)), -1, True
        next_in = timer.next_signal_in_ms
        if next_in is not None:
            next_in = max(0, next_in - (age if running else 0))
        entries: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        stayed: list[str] = []
        outcome = ""
        if timer.phase == "ended":
            # an ended event shows what it came to, not a clock that has nothing left to count
            if isinstance(body, ZoneBody):
                podium = [e for e in body.entries if e.place is not None and e.place <= 3]
                outcome = words("web.result-final" if body.confirmed else "web.result-provisional")
                if podium:
                    outcome += " — " + " · ".join(f"{e.place}. {e.name}" for e in podium)
            else:
                outcome = words("web.switcher-all-done")
        if isinstance(body, ZoneBody):
            for e in body.entries:
                if e.why is not None and e.why in _WHY:
                    result = words(_WHY[e.why])
                elif e.finished_ms is not None:
                    result = clock_text(e.finished_ms)
                elif e.pieces is not None:
                    result = words("web.pieces", pieces=e.pieces)
                else:
                    result = ""
                if e.missing and e.why is None:
                    result += " " + words("web.missing-pieces", missing=e.missing)
                entries.append(
                    {
                        "place": e.place,
                        "name": e.name,
                        "table": e.table,
                        "result": result,
                        "classified": e.classified,
                    }
                )
        else:  # S(witcher): seat numbers (drawn before the start), not places in a ranking
            seats = [
                {"seat": seat.seat, "name": seat.name or "—", "table": seat.table, "next": seat.next_table}
                for seat in getattr(body, "seats", [])
            ]
            stayed = list(getattr(body, "stayed", []))
        return {
            "timer": {
                "phase": timer.phase,
                "phase_text": words(f"term.timer-phase.{timer.phase}"),
                "shown_ms": shown,
                "dir": direction,
                "running": "true" if running else "false",
                "next_in_ms": next_in,
            },
            "entries": entries,
            "seats": seats,
            "stayed": stayed,
            "outcome": outcome,
        }
