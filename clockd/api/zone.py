"""The zone's timed contests in the daemon's API: what clients see of a relay, a blind-puzzling
round or a team event (message models only).

An event of kind ``relay``, ``blind`` or ``team`` is a hall timer (its countdown, its
signals) and its entries — pairs or teams, each at its table — with the ranking as the
daemon decides it now (:mod:`clockd.core.zone`). Public names only: the audience screen
shows this body as it is. The referee's requests are the timer's actions
(``timer-start`` …, ``entry-finish``, ``entry-unfinish``) and the zone's
(``entry-add``, ``entry-split``, ``entry-count``, ``entry-missing``, ``entry-void``,
``entry-unvoid``, ``zone-confirm``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.api.messages import EventBody, body_type
from clockd.core.hall import TimerView, timer_view
from clockd.core.private import PRIVATE
from clockd.core.zone import ZoneEvent
from clockd.i18n import Msg


class ZoneEntryView(BaseModel):
    """One pair or team: its table, what it did (event time, ms) and its place so far."""

    model_config = ConfigDict(frozen=True)

    entry: str
    name: str
    table: int | None = None
    place: int | None = None
    finished_ms: int | None = None
    split_ms: int | None = None
    pieces: int | None = None
    missing: int = 0
    classified: bool = True
    why: Literal["void", "missing", "late"] | None = None
    #: The sign-up lists: main, reserve or walk-in (None: not from the sign-ups), and the check-in.
    on_list: Literal["main", "reserve", "walk-in"] | None = None
    present: bool = False
    members: list[str] = Field(default_factory=list)


class SignupRefusalView(BaseModel):
    """Sign-ups the rules left out: the form's lines, public names, why."""

    model_config = ConfigDict(frozen=True)

    lines: list[int]
    names: list[str]
    reason: str
    detail: Msg


class ZoneSeatChangeView(BaseModel):
    """Who took a seat at the close: an absent main entry's (``absent``), or a free one (``None``)."""

    model_config = ConfigDict(frozen=True)

    absent: str | None
    taken_by: str
    rule: str  # "reserve §1.18" or "walk-in §1.19"
    absent_name: str = ""  # public names: the absent entry is no longer among the entries
    taken_by_name: str = ""


class ZoneBody(EventBody):
    """A zone contest's view (its ``kind`` is the event's: relay, blind, team)."""

    timer: TimerView
    #: In ranking order (the unclassified last).
    entries: list[ZoneEntryView]
    signal_tables: list[int]
    pattern: str
    confirmed: bool = False
    splits: bool = False
    max_missing: int | None = None
    pieces: int | None = None
    pictures: int = 1
    check_in: Literal["none", "open", "closed"] = "none"
    refusals: list[SignupRefusalView] = Field(default_factory=list)
    #: Main-list members whose form has no e-mail address (line, public name): the referee's.
    no_email: list[tuple[int, str]] = Field(default_factory=list, json_schema_extra=PRIVATE)
    seat_changes: list[ZoneSeatChangeView] = Field(default_factory=list)


@body_type
class RelayBody(ZoneBody):
    kind: Literal["relay"] = "relay"


@body_type
class BlindBody(ZoneBody):
    kind: Literal["blind"] = "blind"


@body_type
class TeamBody(ZoneBody):
    kind: Literal["team"] = "team"


ZONE_BODIES: dict[str, type[ZoneBody]] = {"relay": RelayBody, "blind": BlindBody, "team": TeamBody}


def zone_body(event: ZoneEvent, now_ns: int) -> ZoneBody:
    """The event as screens show it: the timer, the entries in ranking order."""
    rows = []
    for r in event.ranking():
        # an entry with no result yet (not finished, not counted) has no place on the screens
        place = r.place if (r.finished or r.pieces is not None) else None
        rows.append(
            ZoneEntryView(
                entry=r.id,
                name=event.name_of(r.id),
                table=event.table_of(r.id),
                place=place,
                finished_ms=r.time_ms,
                split_ms=r.split_ms,
                pieces=r.pieces,
                missing=r.missing,
                classified=r.classified,
                why=r.why,
                on_list=event.lists.get(r.id),
                present=r.id in event.present,
                members=list(event.members.get(r.id, ())),
            )
        )
    cls = ZONE_BODIES[event.kind]
    check_in: Literal["none", "open", "closed"] = (
        "none" if not event.lists else "closed" if event.field is not None else "open"
    )
    return cls(
        kind=event.kind,
        timer=timer_view(event.timer, now_ns),
        entries=rows,
        signal_tables=list(event.signal_tables()),
        pattern=event.timer.plan.pattern.value,
        confirmed=event.confirmed,
        splits=event.splits,
        max_missing=event.max_missing,
        pieces=event.config.pieces,
        pictures=event.config.pictures,
        check_in=check_in,
        refusals=[
            SignupRefusalView(lines=list(r.lines), names=list(r.names), reason=r.reason, detail=r.detail)
            for r in event.signup_refusals
        ],
        no_email=[(line, name) for line, name in event.signup_no_email],
        seat_changes=[
            ZoneSeatChangeView(
                absent=absent,
                taken_by=taken,
                rule=rule,
                absent_name=event.name_of(absent) if absent is not None else "",
                taken_by_name=event.name_of(taken),
            )
            for absent, taken, rule in event.seat_changes
        ],
    )


__all__ = [
    "ZONE_BODIES",
    "BlindBody",
    "RelayBody",
    "SignupRefusalView",
    "TeamBody",
    "ZoneBody",
    "ZoneEntryView",
    "ZoneSeatChangeView",
    "zone_body",
]
