"""The words for the daemon's codes, in the reader's language — each translated in one place.

Core terms — clock phases, match states, how a match was decided, device states, the
hall timer's phases, event and program kinds, the referee's actions, round names — are
the message catalogue's (``clockd/i18n``, codes ``term.*``), shared with the command line
and any later web page: they are rendered here with :func:`clockd.i18n.text`, never
translated a second time in Qt. The signal flashed on the audience screen ("ZMIANA") is
the catalogue's too (``gui.signal.*``).

What only the GUI's widgets show — the journal's entry kinds in a timeline ("press",
"program"), what a press did, the short name of a tie-break — is marked for Qt's
translation (``QT_TRANSLATE_NOOP``, context ``Terms``) and translated when called. An
unknown code (a newer daemon) is shown as it is rather than hidden.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from clockd.core.actions import action_types
from clockd.i18n import Msg, msg, render, text
from gui.model import Match, Round

#: Journal entry kinds that are not referee actions (an action's entry is named by its action).
_ENTRIES = {
    "press": QT_TRANSLATE_NOOP("Terms", "press"),
    "flag": QT_TRANSLATE_NOOP("Terms", "flag"),
    "program": QT_TRANSLATE_NOOP("Terms", "program loaded"),
    "referee-button": QT_TRANSLATE_NOOP("Terms", "referee button"),
    "device-connected": QT_TRANSLATE_NOOP("Terms", "clock connected"),
    "device-disconnected": QT_TRANSLATE_NOOP("Terms", "clock disconnected"),
    "alert": QT_TRANSLATE_NOOP("Terms", "alert"),
    "table-created": QT_TRANSLATE_NOOP("Terms", "table created"),
    "daemon-started": QT_TRANSLATE_NOOP("Terms", "daemon started"),
    "match-finished": QT_TRANSLATE_NOOP("Terms", "duel ended"),
    "timer-due": QT_TRANSLATE_NOOP("Terms", "hall signal"),
    "event-create": QT_TRANSLATE_NOOP("Terms", "event created"),
}

#: The desk's own words for what a press did, where the catalogue has none (``term.outcome.*``
#: comes first: the command line's words, every program's outcomes).
_OUTCOMES = {
    "applied": "",
    "started": QT_TRANSLATE_NOOP("Terms", "started the clock"),
    "ignored-not-running": QT_TRANSLATE_NOOP("Terms", "ignored: not this side's turn"),
    "ignored-paused": QT_TRANSLATE_NOOP("Terms", "ignored: clock paused"),
    "ignored-flagged": QT_TRANSLATE_NOOP("Terms", "ignored: flag already fell"),
    "ignored-ended": QT_TRANSLATE_NOOP("Terms", "ignored: the duel is over"),
    "ignored-toss-winner": QT_TRANSLATE_NOOP("Terms", "ignored: the toss winner does not start the clock"),
    "ignored-idle": QT_TRANSLATE_NOOP("Terms", "ignored: nothing is played here"),
    "ignored-not-started": QT_TRANSLATE_NOOP("Terms", "ignored: the event has not started"),
    "ignored-finished": QT_TRANSLATE_NOOP("Terms", "ignored: already finished"),
    "finished": QT_TRANSLATE_NOOP("Terms", "finished"),
    "flagged": QT_TRANSLATE_NOOP("Terms", "flag"),
    "completed": QT_TRANSLATE_NOOP("Terms", "picture complete"),
    "duplicate": QT_TRANSLATE_NOOP("Terms", "repeat of a press already counted"),
}


def _t(word: object) -> str:
    """Translate a word marked above (``QT_TRANSLATE_NOOP`` returns it unchanged, typed ``object``)."""
    return QCoreApplication.translate("Terms", str(word)) if word else ""


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
    return _t(_ENTRIES.get(kind, kind))


def outcome(code: str) -> str:
    """What a press did, in the catalogue's words (``term.outcome.*``: the command line's too)."""
    from clockd.i18n.catalogue import catalogue

    if code == "applied":  # the ordinary press: nothing to say
        return ""
    if f"term.outcome.{code}" in catalogue():
        return text(f"term.outcome.{code}")
    return _t(_OUTCOMES.get(code, code))


def match_label(m: Match) -> str:
    """A short name for a match: its id, with tie-breaks spelled out."""
    if m.tiebreak_of is not None:
        n = m.id.rsplit("TB", 1)[-1]
        return (
            QCoreApplication.translate("Terms", "%1 tie-break %2")
            .replace("%1", m.tiebreak_of)
            .replace("%2", n)
        )
    return m.id
