"""The words for the daemon's codes, in the reader's language — each translated in one place.

Core terms — clock phases, match states, how a match was decided, device states, the
hall timer's phases, event and program kinds, the referee's actions, round names — are
the message catalogue's (``clockd/i18n``, codes ``term.*``), shared with the command line
and any later web page: they are rendered here with :func:`clockd.i18n.text`, never
translated a second time in Qt. The signal flashed on the audience screen ("ZMIANA") is
the catalogue's too (``gui.signal.*``).

What only the GUI's widgets show — the journal's entry kinds in a timeline ("press",
"program"), what a press did, the short name of a tie-break — is the catalogue's too, under
``gui.terms.*`` codes (the tables below name them, so the catalogue's checks find each). An
unknown code (a newer daemon) is shown as it is rather than hidden.
"""

from __future__ import annotations

from clockd.core.actions import action_types
from clockd.i18n import Msg, msg, render, text
from gui.model import Match, Round

#: Journal entry kinds that are not referee actions (an action's entry is named by its action).
_ENTRIES = {
    "press": "gui.terms.press",
    "flag": "gui.terms.flag",
    "program": "gui.terms.program-loaded",
    "referee-button": "gui.terms.referee-button",
    "device-connected": "gui.terms.clock-connected",
    "device-disconnected": "gui.terms.clock-disconnected",
    "alert": "gui.terms.alert",
    "table-created": "gui.terms.table-created",
    "daemon-started": "gui.terms.daemon-started",
    "match-finished": "gui.terms.duel-ended",
    "timer-due": "gui.terms.hall-signal",
    "event-create": "gui.terms.event-created",
}

#: The desk's own words for what a press did, where the catalogue has none (``term.outcome.*``
#: comes first: the command line's words, every program's outcomes).
_OUTCOMES = {
    "applied": "",
    "started": "gui.terms.started-the-clock",
    "ignored-not-running": "gui.terms.ignored-not-this-sides-turn",
    "ignored-paused": "gui.terms.ignored-clock-paused",
    "ignored-flagged": "gui.terms.ignored-flag-already-fell",
    "ignored-ended": "gui.terms.ignored-the-duel-is-over",
    "ignored-toss-winner": "gui.terms.ignored-the-toss-winner-does",
    "ignored-idle": "gui.terms.ignored-nothing-is-played-here",
    "ignored-not-started": "gui.terms.ignored-the-event-has-not",
    "ignored-finished": "gui.terms.ignored-already-finished",
    "finished": "gui.terms.finished",
    "flagged": "gui.terms.flag",
    "completed": "gui.terms.picture-complete",
    "duplicate": "gui.terms.repeat-of-a-press-already",
}


def _t(words: dict[str, str], kind: str) -> str:
    """The catalogue's text for ``kind`` in ``words`` (its code there); an unknown kind as it is."""
    code = words.get(kind)
    if code is None:
        return kind
    return text(code) if code else ""


# -- the catalogue's terms -------------------------------------------------------------------


def phase(code: str) -> str:
    return text(f"term.phase.{code}")


def status(code: str) -> str:
    return text(f"term.match-status.{code}")


def decided_by(code: str | None) -> str:
    return text(f"term.decided-by.{code}") if code else ""


def device(state: str) -> str:
    return text(f"term.device.{state}")


def timer_phase(code: str) -> str:
    return text(f"term.timer-phase.{code}")


def event_kind(kind: str) -> str:
    return text(f"term.event-kind.{kind}")


def program(kind: str) -> str:
    return text(f"term.program.{kind}")


def stage(code: str | None) -> str:
    return text(f"term.session-stage.{code}") if code else ""


def list_name(kind: str) -> str:
    return text(f"term.list.{kind}")


def action(kind: str) -> str:
    """A referee action's name (``pause``, ``match-confirm``), for the status bar and tooltips."""
    return text(f"term.action.{kind}")


def round_title(r: Round) -> str:
    """The round's name as the daemon gives it (``II runda — Ćwierćfinał``), in the reader's language."""
    return render(r.name)


#: The words a hall signal is flashed with (written out, so the catalogue's checks find each code).
_SIGNALS = {"signal": msg("gui.signal.signal"), "end": msg("gui.signal.end")}


def signal(what: str, offset_ms: int = 0) -> str:
    """What the audience screen flashes for a hall signal: ``ZMIANA``, ``KONIEC``, a start's T−x."""
    if what == "pre":
        return render(msg("gui.signal.pre", minutes=max(1, -offset_ms // 60_000)))
    return render(_SIGNALS.get(what, Msg(code=f"gui.signal.{what}")))


# -- the GUI's own words ------------------------------------------------------------------------


def entry(kind: str) -> str:
    """A timeline entry's kind: an action's name (the catalogue's), else the journal's word."""
    if kind in action_types():
        return action(kind)
    return _t(_ENTRIES, kind)


def outcome(code: str) -> str:
    """What a press did, in the catalogue's words (``term.outcome.*``: the command line's too)."""
    from clockd.i18n.catalogue import catalogue

    if code == "applied":  # the ordinary press: nothing to say
        return ""
    if f"term.outcome.{code}" in catalogue():
        return text(f"term.outcome.{code}")
    return _t(_OUTCOMES, code)


def match_label(m: Match) -> str:
    """A short name for a match: its id, with tie-breaks spelled out."""
    if m.tiebreak_of is not None:
        n = m.id.rsplit("TB", 1)[-1]
        return text("gui.terms.tie-break", match=m.tiebreak_of, number=n)
    return m.id
