"""What the referee can ask the daemon to do, independent of how it is sent.

The widgets build a :class:`Command` — an :class:`Action` and its fields, in the
vocabulary of the screen (a table number, a side, a match id, a player id) — and hand it
to a :class:`CommandSink`. The adapter (:mod:`gui.adapter`) is the sink that turns it into
the daemon's API request and sends it with the referee's token; the demo has a sink
that refuses politely. So the windows never import the API's request models, and a
test can watch the real requests arrive at a socket.

An action the connected daemon does not offer (an older daemon, no token, the demo) is
*unavailable*: its button and shortcut are disabled with a tooltip saying why, instead of
failing when pressed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class Action(StrEnum):
    # a table's clock
    PAUSE = "pause"
    RESUME = "resume"
    ADJUST = "adjust"  # table, side, delta_ms, reason
    NOTE = "note"  # table, text
    CLEAR_ALERTS = "clear-alert"  # table
    # the duel and the bracket
    ASSIGN = "assign"  # match, table, clock_a
    TOSS = "toss"  # match, winner
    COMPLETE = "complete"  # table: the picture is complete now
    CONFIRM = "confirm"  # match
    OVERRIDE = "override"  # match, winner, category, reason
    WALKOVER = "walkover"  # match, absent, reason
    TIEBREAK = "tiebreak"  # match (the tie-break), table
    # players
    CHECK_IN = "check-in"  # player
    CHECK_OUT = "check-out"  # player
    CLOSE_CHECKIN = "close-checkin"
    DRAW = "draw"  # seed, or lines (physical draw)
    ADD_PLAYER = "add-player"  # first_name, last_name, email, phone, age, nickname, walk_in
    WITHDRAW = "withdraw"  # player
    IMPORT = "import"  # csv (text), source (file name)
    NEW_SESSION = "new-session"  # session (key), name


@dataclass(frozen=True)
class Command:
    action: Action
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What became of a command: ``ok``, or the daemon's error ``code`` and English ``message``."""

    command: Command
    ok: bool
    code: str = ""
    message: str = ""


class CommandSink(Protocol):
    def available(self, action: Action) -> str:
        """``""`` if ``action`` can be sent now; else an English reason (shown translated if known)."""

    def send(self, command: Command, done: Callable[[Outcome], None]) -> None:
        """Send ``command``; call ``done`` in the GUI thread when the daemon has answered."""

    def follow(self, session: str) -> None:
        """Show tournament session ``session`` (the daemon may hold several: Fri, Sat, Sun)."""


class DemoSink:
    """The sink of the demo state (no daemon): the controls work as they would, nothing is sent.

    Every action is offered, so the demo shows which controls apply to what; pressing one
    says in the status bar that the demo sent nothing.
    """

    def __init__(self) -> None:
        self.sent: list[Command] = []

    def available(self, action: Action) -> str:
        return ""

    def follow(self, session: str) -> None:
        return

    def send(self, command: Command, done: Callable[[Outcome], None]) -> None:
        self.sent.append(command)
        done(Outcome(command, ok=False, code="demo", message="demo: no daemon, nothing was sent"))
