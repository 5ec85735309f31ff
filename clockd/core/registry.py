"""The person registry: one person across every event, and the rights RODO gives them.

Both organisers promise every participant the GDPR (RODO) rights (000 "RODO", 003
"Załącznik nr 1"): to see their data, take it with them, correct it, restrict its
processing and have it erased. A person is the pseudonymous id of :mod:`clockd.core.people`;
where they appear (a player of a session, with the sign-up's line and time) is a
:class:`PersonSource` that each event kind lists, so the registry is derived from the
events, never a second copy of them to keep equal.

The actions here are the referee's, on the daemon (token only), and each is journaled:
the journal is the audit log of every use — who (``by``), when (``t_ns`` and the wall
clock in ``decided``), why (``reason``) — also of the ones that only read
(:class:`PersonAccess`: find, show, export). What they carry that is personal (the text
searched for, a corrected value) is marked private and kept out of the journal's rows.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Action, Target, action
from clockd.core.private import PRIVATE
from clockd.core.registration import Person

#: The fields ``person correct`` may change (the vault's, but for the age: a new sign-up).
CORRECTABLE = ("first_name", "last_name", "email", "phone", "nickname")


class PersonResult(BaseModel):
    """One duel a person played, as their export gives it (RODO art. 15/20: their results too):
    the round, the opponent's public name, who won and how, both clocks' time left."""

    model_config = ConfigDict(frozen=True)

    match: str
    round_name: str
    opponent: str | None = None
    won: bool | None = None  # None: not decided (yet), or not played
    decided_by: str | None = None
    remaining_ms: int | None = None
    opponent_remaining_ms: int | None = None
    status: str = ""


class PersonSource(BaseModel):
    """One place a person appears: a player of an event, and what the event holds of them
    (their results too: ``place`` once the podium is decided, each duel in ``results``)."""

    model_config = ConfigDict(frozen=True)

    person_id: str
    event: str
    player: int
    display_name: str
    list: str
    line: int | None = None
    signed_up_at: str = ""
    withdrawn: bool = False
    person: Person = Field(json_schema_extra=PRIVATE)
    place: int | None = None
    results: tuple[PersonResult, ...] = ()  # (not list[…]: the field ``list`` shadows it here)
    #: What else the event holds of them (a chess child's school and class).
    details: dict[str, str] = Field(default_factory=dict, json_schema_extra=PRIVATE)
    #: An e-mail the event keeps only as a digest (a chess child's guardian's: ``person find``
    #: finds the children by it, nobody can read it back; :func:`clockd.core.people.contact_digest`).
    email_digest: str = Field(default="", json_schema_extra=PRIVATE)


@action
class PersonAccess(Action):
    """A look at people's data (``find`` a text, ``show`` or ``export`` a person): journaled
    as the audit's record of who looked, when and why. The text searched for is private
    (the journal keeps how many were found, not what was asked)."""

    kind: Literal["person-access"] = "person-access"
    target: ClassVar[Target] = "daemon"
    how: Literal["find", "show", "export", "list"]
    person: str = Field(default="", max_length=64)
    event: str = Field(default="", max_length=40)  # ``list``: one event's people (all: empty)
    text: str = Field(default="", max_length=200, json_schema_extra=PRIVATE)
    reason: str = Field(min_length=1, max_length=500)


@action
class PersonCorrect(Action):
    """Correct one field of a person's data (RODO art. 16), everywhere it is held."""

    kind: Literal["person-correct"] = "person-correct"
    target: ClassVar[Target] = "daemon"
    person: str = Field(min_length=1, max_length=64)
    field: Literal["first_name", "last_name", "email", "phone", "nickname"]
    value: str = Field(max_length=200, json_schema_extra=PRIVATE)
    reason: str = Field(min_length=1, max_length=500)


@action
class PersonRestrict(Action):
    """Keep the person's data but process it no more (RODO art. 18): off every list and screen
    the software makes (``lift``: processing allowed again)."""

    kind: Literal["person-restrict"] = "person-restrict"
    target: ClassVar[Target] = "daemon"
    person: str = Field(min_length=1, max_length=64)
    lift: bool = False
    reason: str = Field(min_length=1, max_length=500)


@action
class PersonErase(Action):
    """Erase the person's data (RODO art. 17): from the vault, the state, the snapshots and the
    files' free pages; the results stay, under a stand-in name, so brackets remain true."""

    kind: Literal["person-erase"] = "person-erase"
    target: ClassVar[Target] = "daemon"
    person: str = Field(min_length=1, max_length=64)
    reason: str = Field(min_length=1, max_length=500)


@action
class PersonConsent(Action):
    """A consent withdrawn (or given again) by the person, in every event that holds them.

    Withdrawing a required one (the processing of data, §1.6) is resignation: ``resign``
    must say so, and the person is withdrawn from every event whose lists are still open;
    an optional one (the image, a newsletter) is only noted.
    """

    kind: Literal["person-consent"] = "person-consent"
    target: ClassVar[Target] = "daemon"
    person: str = Field(min_length=1, max_length=64)
    consent: Literal["processing", "rules", "image", "newsletter", "other"]
    given: bool = False
    resign: bool = False
    reason: str = Field(min_length=1, max_length=500)


#: The fields the retention plan may drop while the person stays (contacts, the age).
DROPPABLE = ("email", "phone", "age")


@action
class PersonDrop(Action):
    """Drop some fields of a person's data for good (the retention plan: contacts N days after
    the results), from the vault too; the rest of the person stays."""

    kind: Literal["person-drop"] = "person-drop"
    target: ClassVar[Target] = "daemon"
    person: str = Field(min_length=1, max_length=64)
    fields: tuple[Literal["email", "phone", "age"], ...] = Field(min_length=1)
    reason: str = Field(min_length=1, max_length=500)


PersonAction = PersonAccess | PersonCorrect | PersonRestrict | PersonErase | PersonDrop | PersonConsent

#: The kinds of the person actions (EventHost stages them).
PERSON_KINDS = frozenset(
    {"person-access", "person-correct", "person-restrict", "person-erase", "person-drop", "person-consent"}
)


def matches(source: PersonSource, text: str) -> bool:
    """Whether ``text`` finds this person: a part of the name, the e-mail, or the phone's digits."""
    from clockd.core.people import fold_name

    wanted = text.strip()
    if not wanted:
        return False
    p = source.person
    folded = fold_name(wanted)
    if folded and (folded in fold_name(p.full_name) or folded in fold_name(source.display_name)):
        return True
    if "@" in wanted and wanted.lower() == p.email.lower():
        return True
    if "@" in wanted and source.email_digest:
        from clockd.core.people import contact_digest

        if contact_digest(source.person_id, wanted) == source.email_digest:
            return True
    digits = "".join(c for c in wanted if c.isdigit())
    phone = "".join(c for c in p.phone if c.isdigit())
    return len(digits) >= 6 and phone.endswith(digits[-9:])


#: The free-text fields of actions (a reason, a note): journaled as typed, for good.
FREE_TEXT_FIELDS = ("reason", "text")


def names_a_person(text: str, sources: list[PersonSource]) -> bool:
    """Whether ``text`` holds a person's full name, e-mail or phone ("toss won by Anna Kowalska").

    The journal keeps a reason or a note for good — an erasure could not reach it — so such a
    text is refused at the input; the public name ("Anna K.") or the player's number says the
    same. A first name or a surname alone is not refused: too many are ordinary words.
    """
    from clockd.core.people import fold_name

    folded = f" {fold_name(text)} "
    lower = text.lower()
    digits = re.sub(r"[\s\-()/.]", "", text)
    for src in sources:
        p = src.person
        if p.last_name and f" {fold_name(p.full_name)} " in folded:
            return True
        if p.email and p.email.lower() in lower:
            return True
        phone = re.sub(r"\D", "", p.phone)[-9:]
        if len(phone) == 9 and phone in digits:
            return True
    return False


__all__ = [
    "CORRECTABLE",
    "DROPPABLE",
    "FREE_TEXT_FIELDS",
    "PERSON_KINDS",
    "PersonAccess",
    "PersonAction",
    "PersonConsent",
    "PersonCorrect",
    "PersonDrop",
    "PersonErase",
    "PersonRestrict",
    "PersonSource",
    "matches",
    "names_a_person",
]
