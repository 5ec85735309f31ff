"""A timed hall event in the daemon's API: what clients see of it (message models only).

An event of kind ``timer`` is a hall's own time — a countdown or count-up with its
signals ("ZMIANA" every 5 minutes) — and its tables: *stations* (an entry's table, whose
button records the finish) and the tables whose buzzers sound the signals. Its
:class:`HallBody` is the ``body`` of the event's view. The referee's requests are the
actions of :mod:`clockd.core.hall` (``timer-start``, ``timer-pause``, ``timer-resume``,
``timer-adjust``, ``timer-schedule``, ``timer-end``, ``entry-finish``, ``entry-unfinish``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from clockd.api.messages import EventBody, body_type
from clockd.core.hall import TimerView


class StationEntryView(BaseModel):
    """An entry (a pair, a team) at its table, and its finish in event time, if any."""

    model_config = ConfigDict(frozen=True)

    entry: str
    table: int
    finished_ms: int | None = None


@body_type
class HallBody(EventBody):
    kind: Literal["timer"] = "timer"
    timer: TimerView
    stations: list[StationEntryView]
    signal_tables: list[int]
    pattern: str
