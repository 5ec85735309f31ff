"""The S(witcher) rotation in the daemon's API: what clients see of it (message models only).

An event of kind ``switcher`` is a hall timer that signals every 15 minutes (each signal
is a change: everyone moves one seat to the right within their circle), its 13 tables and
26 seat numbers. For every seat number the view says who sits there now, at which table,
and at which table they will be after the next change; the replacements made (who left,
who came, when, where); the tables done; and who has stayed from the start without a
break. Names as the referee typed them (public names only).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from clockd.api.messages import EventBody, body_type
from clockd.core.hall import TimerView, timer_view
from clockd.core.switcher import SwitcherEvent
from clockd.core.units import ns_to_ms


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    circle: Literal["outer", "inner"]
    name: str | None
    table: int
    next_table: int
    partner: int


class ReplacementView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    left: str | None
    came: str | None
    elapsed_ms: int
    rotation: int
    table: int
    reason: str = ""


class TableDoneView(BaseModel):
    model_config = ConfigDict(frozen=True)

    table: int
    done_ms: int | None = None
    station: int | None = None  # the daemon's table whose button records it


@body_type
class SwitcherBody(EventBody):
    kind: Literal["switcher"] = "switcher"
    timer: TimerView
    rotations: int
    outer_direction: int
    seats: list[SeatView]
    tables: list[TableDoneView]
    replacements: list[ReplacementView]
    stayed: list[str]
    signal_tables: list[int]
    pattern: str


def switcher_body(event: SwitcherEvent, now_ns: int) -> SwitcherBody:
    return SwitcherBody(
        timer=timer_view(event.timer, now_ns),
        rotations=event.rotations,
        outer_direction=event.config.outer_direction,
        seats=[SeatView(**row) for row in event.seating()],
        tables=[
            TableDoneView(
                table=t,
                done_ms=ns_to_ms(event.done[t]) if t in event.done else None,
                station=event.table_of_station(t),
            )
            for t in range(1, event.config.tables + 1)
        ],
        replacements=[
            ReplacementView(
                seat=r.seat,
                left=r.left,
                came=r.came,
                elapsed_ms=ns_to_ms(r.elapsed_ns),
                rotation=r.rotation,
                table=r.table,
                reason=r.reason,
            )
            for r in event.replacements
        ],
        stayed=[name for _, name in event.stayed()],
        signal_tables=list(event.signal_tables()),
        pattern=event.timer.plan.pattern.value,
    )


__all__ = ["ReplacementView", "SeatView", "SwitcherBody", "TableDoneView", "switcher_body"]
