"""The retention plan: what personal data goes when, per event (RODO art. 5(1)(e); 000 "RODO" §7–8).

Data is kept only as long as it serves the event. The plan, for every event that holds
people:

* **the reserve list, when the event is over**: a person who signed up but never played
  (a reserve or a walk-in left without a seat, a withdrawal) has no result to keep; once
  the event is finished their data is erased — unless they are in another event still
  going, or played elsewhere;
* **contacts, N days after the results are published** (``contacts_days``, default 30):
  the e-mail and the phone of everyone in a finished event are dropped (the name, the
  results, the consents stay), unless the person is in an event not finished yet;
* **results are kept** (the bracket, the public names).

And the promise of the puzzle zone's clause (§7): the form's responses are moved off the
provider's servers and deleted there within 21 days of the sending — the reminder gives
each event's date (its earliest sign-up + 21 days) and whether it is past.

:func:`plan` only says what would go; the command shows it, and with ``--apply`` journals
each step as a ``person-erase`` or ``person-drop`` with the plan's reason (the log).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

from clockd.core.formtime import FormTimeError, parse_form_time
from clockd.core.registry import PersonSource

#: The provider's copy of the form's responses is deleted within this many days (§7).
FORM_DAYS = 21
CONTACTS_DAYS = 30


class Step(BaseModel):
    """One thing the plan deletes: a person's data (``erase``), or their contacts (``drop``)."""

    model_config = ConfigDict(frozen=True)

    person_id: str
    how: Literal["erase", "drop"]
    events: tuple[str, ...]
    names: tuple[str, ...]  # the public names, to tell the referee who it is
    why: Literal["not-played", "contacts"]


class Reminder(BaseModel):
    """Delete the form's responses at the provider by ``due`` (21 days after the first sign-up)."""

    model_config = ConfigDict(frozen=True)

    event: str
    first_sent: str
    due: date
    past: bool


class Plan(BaseModel):
    model_config = ConfigDict(frozen=True)

    steps: tuple[Step, ...]
    reminders: tuple[Reminder, ...]


def plan(
    sources: list[PersonSource],
    *,
    finished: set[str],
    played: dict[str, set[int]],
    today: date,
    published: date | None = None,
    contacts_days: int = CONTACTS_DAYS,
) -> Plan:
    """What the plan deletes today. ``finished``: the events that are over; ``played``: each
    event's players who took a seat; ``published``: when the results were (none: no contacts
    are dropped yet)."""
    by_person: dict[str, list[PersonSource]] = {}
    for src in sources:
        by_person.setdefault(src.person_id, []).append(src)
    steps: list[Step] = []
    contacts_due = published is not None and today >= published + timedelta(days=contacts_days)
    for pid, srcs in sorted(by_person.items()):
        events = tuple(s.event for s in srcs)
        names = tuple(s.display_name for s in srcs)
        if not all(s.event in finished for s in srcs):
            continue  # still taking part somewhere: nothing goes yet
        if all(s.player not in played.get(s.event, set()) for s in srcs):
            steps.append(Step(person_id=pid, how="erase", events=events, names=names, why="not-played"))
        elif contacts_due and any(s.person.email or s.person.phone for s in srcs):
            steps.append(Step(person_id=pid, how="drop", events=events, names=names, why="contacts"))
    return Plan(steps=tuple(steps), reminders=tuple(reminders(sources, today=today)))


def reminders(sources: list[PersonSource], *, today: date) -> list[Reminder]:
    """Each event's date to have the form's responses deleted at the provider by."""
    first: dict[str, tuple[datetime, str]] = {}
    for src in sources:
        if not src.signed_up_at:
            continue
        try:
            at = parse_form_time(src.signed_up_at)
        except FormTimeError:
            continue
        if src.event not in first or at < first[src.event][0]:
            first[src.event] = (at, src.signed_up_at)
    out = []
    for event, (at, text) in sorted(first.items()):
        due = (at.astimezone(ZoneInfo("Europe/Warsaw")) + timedelta(days=FORM_DAYS)).date()
        out.append(Reminder(event=event, first_sent=text, due=due, past=today > due))
    return out


__all__ = ["CONTACTS_DAYS", "FORM_DAYS", "Plan", "Reminder", "Step", "plan", "reminders"]
