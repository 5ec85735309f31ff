"""The words for the daemon's codes: phases, match states, alerts, timeline events, rounds.

The API speaks in stable English codes (``paused``, ``recovered-running``, ``press``);
the screens show words in the chosen language. The tables below mark the words for
translation (``QT_TRANSLATE_NOOP``, context ``Terms``) and the functions translate them
when called, so a language switch takes effect at the next redraw. An unknown code (a
newer daemon) is shown as it is rather than hidden.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from gui.model import Match, Round

_PHASES = {
    "ready": QT_TRANSLATE_NOOP("Terms", "ready"),
    "running": QT_TRANSLATE_NOOP("Terms", "running"),
    "paused": QT_TRANSLATE_NOOP("Terms", "paused"),
    "flagged": QT_TRANSLATE_NOOP("Terms", "flag fell"),
}

_STATUSES = {
    "waiting": QT_TRANSLATE_NOOP("Terms", "waiting"),
    "ready": QT_TRANSLATE_NOOP("Terms", "to play"),
    "assigned": QT_TRANSLATE_NOOP("Terms", "live"),
    "result": QT_TRANSLATE_NOOP("Terms", "to confirm"),
    "tiebreak": QT_TRANSLATE_NOOP("Terms", "tie-break"),
    "decided": QT_TRANSLATE_NOOP("Terms", "decided"),
    "cancelled": QT_TRANSLATE_NOOP("Terms", "cancelled"),
}

_DECIDED_BY = {
    "time": QT_TRANSLATE_NOOP("Terms", "on time"),
    "flag": QT_TRANSLATE_NOOP("Terms", "flag"),
    "tie": QT_TRANSLATE_NOOP("Terms", "same time"),
    "tiebreak": QT_TRANSLATE_NOOP("Terms", "tie-break"),
    "referee": QT_TRANSLATE_NOOP("Terms", "referee"),
    "bye": QT_TRANSLATE_NOOP("Terms", "bye"),
    "walkover": QT_TRANSLATE_NOOP("Terms", "walkover"),
}

_DEVICES = {
    "connected": QT_TRANSLATE_NOOP("Terms", "clock connected"),
    "disconnected": QT_TRANSLATE_NOOP("Terms", "clock disconnected"),
    "unknown": QT_TRANSLATE_NOOP("Terms", "clock not seen yet"),
    "none": QT_TRANSLATE_NOOP("Terms", "no clock"),
}

_ALERTS = {
    "recovered-running": QT_TRANSLATE_NOOP(
        "Terms",
        "Recovered after a daemon restart: the running side was charged for the gap. Check the clock.",
    ),
    "recovered-paused": QT_TRANSLATE_NOOP(
        "Terms", "Recovered after a machine restart: paused at the last recorded instant. Check, then resume."
    ),
    "press-time-uncertain": QT_TRANSLATE_NOOP(
        "Terms",
        "The clock kept presses across its restart; their exact time is unknown (an upper bound was used). "
        "Check the times.",
    ),
    "flag": QT_TRANSLATE_NOOP("Terms", "A flag fell."),
    "device-lost": QT_TRANSLATE_NOOP("Terms", "The clock was disconnected."),
}

_EVENTS = {
    "press": QT_TRANSLATE_NOOP("Terms", "press"),
    "pause": QT_TRANSLATE_NOOP("Terms", "pause"),
    "resume": QT_TRANSLATE_NOOP("Terms", "resume"),
    "adjust": QT_TRANSLATE_NOOP("Terms", "time adjusted"),
    "clock-set": QT_TRANSLATE_NOOP("Terms", "clock set"),
    "flag": QT_TRANSLATE_NOOP("Terms", "flag"),
    "referee-button": QT_TRANSLATE_NOOP("Terms", "referee button"),
    "device-connected": QT_TRANSLATE_NOOP("Terms", "clock connected"),
    "device-disconnected": QT_TRANSLATE_NOOP("Terms", "clock disconnected"),
    "alert": QT_TRANSLATE_NOOP("Terms", "alert"),
    "alert-cleared": QT_TRANSLATE_NOOP("Terms", "alert cleared"),
    "note": QT_TRANSLATE_NOOP("Terms", "note"),
    "table-created": QT_TRANSLATE_NOOP("Terms", "table created"),
    "daemon-started": QT_TRANSLATE_NOOP("Terms", "daemon started"),
    "match-assigned": QT_TRANSLATE_NOOP("Terms", "match on this table"),
    "match-toss": QT_TRANSLATE_NOOP("Terms", "toss"),
    "match-finished": QT_TRANSLATE_NOOP("Terms", "duel ended"),
    "match-confirmed": QT_TRANSLATE_NOOP("Terms", "result confirmed"),
    "match-override": QT_TRANSLATE_NOOP("Terms", "result overridden"),
    "match-walkover": QT_TRANSLATE_NOOP("Terms", "walkover"),
    "complete": QT_TRANSLATE_NOOP("Terms", "picture complete"),
}

_OUTCOMES = {
    "applied": "",
    "started": QT_TRANSLATE_NOOP("Terms", "started the clock"),
    "ignored-not-running": QT_TRANSLATE_NOOP("Terms", "ignored: not this side's turn"),
    "ignored-paused": QT_TRANSLATE_NOOP("Terms", "ignored: clock paused"),
    "ignored-flagged": QT_TRANSLATE_NOOP("Terms", "ignored: flag already fell"),
    "duplicate": QT_TRANSLATE_NOOP("Terms", "repeat of a press already counted"),
}

_ROUND_KINDS = {
    "final": QT_TRANSLATE_NOOP("Terms", "Final"),
    "third_place": QT_TRANSLATE_NOOP("Terms", "3rd place"),
    4: QT_TRANSLATE_NOOP("Terms", "Semi-final"),
    8: QT_TRANSLATE_NOOP("Terms", "Quarter-final"),
    16: QT_TRANSLATE_NOOP("Terms", "Round of 16"),
    32: QT_TRANSLATE_NOOP("Terms", "Round of 32"),
}

_ACTIONS = {
    "pause": QT_TRANSLATE_NOOP("Terms", "pause"),
    "resume": QT_TRANSLATE_NOOP("Terms", "resume"),
    "adjust": QT_TRANSLATE_NOOP("Terms", "time adjustment"),
    "note": QT_TRANSLATE_NOOP("Terms", "note"),
    "clear-alert": QT_TRANSLATE_NOOP("Terms", "clearing alerts"),
    "assign": QT_TRANSLATE_NOOP("Terms", "match to a table"),
    "toss": QT_TRANSLATE_NOOP("Terms", "toss"),
    "complete": QT_TRANSLATE_NOOP("Terms", "picture complete"),
    "confirm": QT_TRANSLATE_NOOP("Terms", "result confirmation"),
    "override": QT_TRANSLATE_NOOP("Terms", "result override"),
    "walkover": QT_TRANSLATE_NOOP("Terms", "walkover"),
    "tiebreak": QT_TRANSLATE_NOOP("Terms", "tie-break start"),
    "check-in": QT_TRANSLATE_NOOP("Terms", "check-in"),
    "check-out": QT_TRANSLATE_NOOP("Terms", "check-out"),
    "close-checkin": QT_TRANSLATE_NOOP("Terms", "closing check-in"),
    "draw": QT_TRANSLATE_NOOP("Terms", "draw"),
    "add-player": QT_TRANSLATE_NOOP("Terms", "adding a player"),
    "withdraw": QT_TRANSLATE_NOOP("Terms", "withdrawal"),
    "import": QT_TRANSLATE_NOOP("Terms", "sign-up import"),
    "new-session": QT_TRANSLATE_NOOP("Terms", "new session"),
}

_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def _t(text: object) -> str:
    """Translate a word marked above (``QT_TRANSLATE_NOOP`` returns it unchanged, typed ``object``)."""
    return QCoreApplication.translate("Terms", str(text)) if text else ""


def phase(code: str) -> str:
    return _t(_PHASES.get(code, code))


def status(code: str) -> str:
    return _t(_STATUSES.get(code, code))


def decided_by(code: str | None) -> str:
    return _t(_DECIDED_BY.get(code or "", code or ""))


def device(code: str) -> str:
    return _t(_DEVICES.get(code, code))


def alert(code: str, message: str) -> str:
    """An alert in the chosen language; the daemon's English sentence if the code is new to us."""
    known = _ALERTS.get(code)
    return _t(known) if known else message or code


def event(kind: str) -> str:
    return _t(_EVENTS.get(kind, kind))


def outcome(code: str) -> str:
    return _t(_OUTCOMES.get(code, code))


def action(code: str) -> str:
    """A referee action's name, for "Sending: …" and "Done: …" in the status bar."""
    return _t(_ACTIONS.get(code, code))


def roman(n: int) -> str:
    return _ROMAN[n] if 0 < n < len(_ROMAN) else str(n)


def round_title(r: Round) -> str:
    """``II · Quarter-final``: the round's number and what it is, in the chosen language."""
    key: str | int = r.kind if r.kind != "knockout" else r.players
    word = _ROUND_KINDS.get(key)
    return f"{roman(r.number)} · {_t(word)}" if word else f"{roman(r.number)} · {r.name}"


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
