"""What an event shows and offers, for clients with no code of its kind: its lines and its picks.

Part of the description protocol (docs/architecture.md, "Adding an event kind: one folder"):
an event's view carries them beside its kind's own body, so the desk, the audience screen,
the web page and the command line render any kind the same way.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from clockd.i18n import Msg


class Shown(BaseModel):
    """One line of what an event shows, for a client with no widget of the event's kind (a
    kind's own folder may bring one): a label and its value — words, or a time in
    milliseconds, ``left`` (shown as a clock face shows it, rounded up) or ``gone`` (rounded
    down), which moves on while ``running`` from the instant the view arrived. Every client
    renders these the same way, so a new kind is on the desk, the audience screen and the
    web page with no client code."""

    model_config = ConfigDict(frozen=True)

    label: Msg
    text: Msg | None = None
    ms: int | None = None
    time: Literal["left", "gone"] = "left"
    running: bool = False

    def ms_at(self, since_ms: int) -> int | None:
        """The time shown ``since_ms`` after the view was made (a running clock moves on)."""
        if self.ms is None or not self.running:
            return self.ms
        return max(0, self.ms - since_ms) if self.time == "left" else self.ms + since_ms


class Pick(BaseModel):
    """One value an action's field may take now, and how people know it (``Para 3 · stolik 5``):
    what a form offers to choose from, so no client works out which entries are still to
    finish or which seats are taken."""

    model_config = ConfigDict(frozen=True)

    value: str | int
    label: Msg


__all__ = ["Pick", "Shown"]
