"""What the referee asks the daemon to do, independent of how it is sent.

Every state change is one of the core's actions (:mod:`clockd.core.actions`: ``Pause``,
``Confirm``, ``TimerStart`` …) aimed at a target — a table (``desk/3``), an event
(``desk/pt``), an item of it (``desk/pt/R1-1``), or the daemon (``""``). The widgets build a
:class:`Command` of the two and hand it to a :class:`CommandSink`: the adapter
(:mod:`gui.adapter`) sends it with the referee's token, the demo has a sink that sends
nothing. So the windows never build a request, and a test can watch the daemon's own
state change.

Whether an action may be done now is the daemon's word, in the views (``actions``). What
only the sink knows — there is no token, no connection, this is the demo — it says in
:meth:`CommandSink.available`, as a message of the catalogue (``gui.*``), so the tooltip
reads the same way whoever refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from clockd.core.actions import Action
from clockd.i18n import Msg, msg


@dataclass(frozen=True)
class Command:
    """``action`` on ``target`` (a table's, an event's or a match's qualified id; ``""``: the daemon)."""

    target: str
    action: Action

    @property
    def kind(self) -> str:
        return self.action.kind


@dataclass(frozen=True)
class CommandResult:
    """What became of a command: ``ok``, or the error ``code`` and the ``reason`` to show (render it)."""

    command: Command
    ok: bool
    code: str = ""
    reason: Msg | None = None
    #: What the daemon answered with (an event's or a table's new state), if anything.
    result: object = field(default=None, compare=False)


class CommandSink(Protocol):
    def available(self, kind: str) -> Msg | None:
        """``None`` if an action of ``kind`` can be sent now; else why not (no token, no connection)."""

    def send(self, command: Command, done: Callable[[CommandResult], None]) -> None:
        """Send ``command``; call ``done`` in the GUI thread when the daemon has answered."""


class DemoSink:
    """The sink of the demo state (no daemon): the controls work as they would, nothing is sent.

    The demo's views carry the allowed actions a daemon would send in that state, so its
    controls show what applies to what; pressing one says in the status bar that the demo
    sent nothing.
    """

    def __init__(self) -> None:
        self.sent: list[Command] = []

    def available(self, kind: str) -> Msg | None:
        return None

    def send(self, command: Command, done: Callable[[CommandResult], None]) -> None:
        self.sent.append(command)
        done(CommandResult(command, ok=False, code="demo", reason=msg("gui.demo-not-sent")))
