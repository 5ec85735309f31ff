"""A person as a session's registration holds them, and how their name is shown.

Apart from :mod:`clockd.core.registration` because the person is what every other part
reads: the sign-up file makes people (:mod:`clockd.core.signup_file`), the vault seals and
unseals their personal fields (:func:`seal_person`, :func:`unseal_person`), the views and
printouts show their display names (:func:`display_names`, the first name and as few
letters of the surname as tell two apart) — none of which needs the session's rules.
:mod:`clockd.core.registration` re-exports these names, where their users import them from.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.people import fold_name
from clockd.core.private import PRIVATE
from clockd.i18n import Msg, msg

PlayerId = int


# -- people -------------------------------------------------------------------------------


ConsentKind = Literal["processing", "rules", "image", "newsletter", "other"]

#: The consents a sign-up cannot go without (§1.5): the processing of the person's data
#: (§1.6; withdrawing it is resignation) and the acceptance of the rules (§1.4). The rest —
#: the image (photos, films), a newsletter — are asked, kept, and may be refused.
REQUIRED_CONSENTS: frozenset[str] = frozenset({"processing", "rules"})


class Consent(BaseModel):
    """One consent question of the form as the person answered it: its text (the column's
    header), the answer as written, whether it is a yes, and when it was given (the form's
    timestamp, as written)."""

    model_config = ConfigDict(frozen=True)

    kind: ConsentKind
    text: str
    answer: str
    given: bool
    at: str = ""

    @property
    def required(self) -> bool:
        return self.kind in REQUIRED_CONSENTS


class Person(BaseModel):
    """What a sign-up form says about a person. Everything but the first name is private."""

    model_config = ConfigDict(frozen=True)

    first_name: str = Field(min_length=1)
    last_name: str = Field(default="", json_schema_extra=PRIVATE)
    email: str = Field(default="", json_schema_extra=PRIVATE)
    phone: str = Field(default="", json_schema_extra=PRIVATE)
    age: int | None = Field(default=None, ge=0, le=130, json_schema_extra=PRIVATE)
    nickname: str = ""  # a display name the person chose, if the form asks for one
    #: The form's consent questions, as answered (RODO: what was agreed to, and when).
    consents: tuple[Consent, ...] = Field(default=(), json_schema_extra=PRIVATE)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def short_name(self) -> str:
        """First name and the surname's initial: what may be shown without the surname."""
        return f"{self.first_name} {self.last_name[:1]}.".strip() if self.last_name else self.first_name

    def same_person(self, other: Person) -> Msg | None:
        """Why ``other`` is the same person (§1.14), or ``None``.

        The same full name (case, diacritics and spacing aside) *and* the same e-mail or phone:
        the rule :class:`clockd.core.people.PeopleIndex` recognises a person by across events.
        A shared e-mail alone is not enough (siblings signed up from a parent's address), nor
        a shared name alone (two Anna Kowalskas: :meth:`maybe_same_person`).
        """
        if fold_name(self.full_name) != fold_name(other.full_name):
            return None
        if self.email and norm_email(self.email) == norm_email(other.email):
            return msg("signups.same-name-email")
        if self.phone and norm_phone(self.phone) == norm_phone(other.phone):
            return msg("signups.same-name-phone")
        return None

    def maybe_same_person(self, other: Person) -> bool:
        """The same name with other contacts: perhaps one person with a new e-mail, perhaps a
        namesake. Not decided by the software: the referee is shown both (§1.14)."""
        return fold_name(self.full_name) == fold_name(other.full_name) and self.same_person(other) is None


#: What the journal keeps of a person whose data lives in the vault (and all that is left of an
#: erased one): a name that is no one's ("nomen nescio"), the rest empty.
SEALED_NAME = "N.N."

#: A person's fields kept in the vault (``docs/architecture.md``, "The vault"), not in the journal.
VAULT_FIELDS = ("first_name", "last_name", "email", "phone", "age", "nickname", "consents")


def seal_person(person: Person) -> tuple[Person, dict[str, object]]:
    """``person`` as the journal keeps it (no one's name, no data), and the vault's record."""
    record: dict[str, object] = person.model_dump(mode="json", include=set(VAULT_FIELDS))
    return erased_person(person), record


#: A person's fields as the journal keeps them (the values are in the vault), and as an
#: erased person is left: the sealed stand-in.
SEALED_FIELDS: dict[str, object] = {
    "first_name": SEALED_NAME,
    "last_name": "",
    "email": "",
    "phone": "",
    "age": None,
    "nickname": "",
}


def erased_person(person: Person) -> Person:
    """What is left of ``person`` once erased: the sealed stand-in."""
    return person.model_copy(update={**SEALED_FIELDS, "consents": ()})


def unseal_person(person: Person, record: object) -> Person:
    """The person the journal's ``person`` stands for, from the vault's ``record`` (``None``:
    erased — the stand-in stays)."""
    if not isinstance(record, dict):
        return person
    return Person.model_validate(
        {**person.model_dump(), **{f: record[f] for f in VAULT_FIELDS if f in record}}
    )


class ListKind(StrEnum):
    MAIN = "main"
    RESERVE = "reserve"
    WALK_IN = "walk-in"


class Player(BaseModel):
    """A person registered for one session, with the public name screens show."""

    model_config = ConfigDict(frozen=True)

    id: PlayerId
    display_name: str
    person: Person
    list: ListKind
    line: int | None = None  # the sign-up file's line, for the referee's questions
    signed_up_at: str = ""  # the form's timestamp, as written
    #: The person (one id across every event of the day, :mod:`clockd.core.ids`).
    person_id: str | None = None

    def public(self) -> dict[str, object]:
        """What may leave the organiser's store: id and display name."""
        return {"id": self.id, "name": self.display_name}


PublicNames = Literal["short", "full"]


#: What a later export may change about a person (shown by name, never by value).
PERSON_FIELDS = ("first_name", "last_name", "email", "phone", "age", "nickname")

#: The most letters of a surname a short public name shows ("Anna Koz."), to tell two apart.
NAME_PREFIX = 3


def display_names(people: list[tuple[PlayerId, Person]], style: PublicNames = "short") -> dict[PlayerId, str]:
    """Public names: a chosen nickname, else "Anna K." (or the full name when ``style`` is
    ``full``); longer only where two would look alike: "Anna Koz." beside "Anna Kow." (at most
    :data:`NAME_PREFIX` letters, never the whole surname), and namesakes by their number,
    "Anna K. (1)" and "Anna K. (4)" — a short name never shows a surname in full."""
    names: dict[PlayerId, str] = {}
    candidates: dict[PlayerId, list[str]] = {}
    surnames: dict[str, set[str]] = {}  # first name → the surnames that go with it
    for _, p in people:
        surnames.setdefault(fold_name(p.first_name), set()).add(fold_name(p.last_name))
    for pid, p in people:
        if p.nickname:
            candidates[pid] = [p.nickname, f"{p.nickname} ({pid})"]
        elif style == "full":
            candidates[pid] = [p.full_name, f"{p.full_name} ({pid})"]
        else:  # never the whole surname, nor more than its first letters: then the number
            last = p.last_name
            short = f"{p.first_name} {last[:1]}." if last else p.first_name
            options = [short]
            others = surnames[fold_name(p.first_name)] - {fold_name(last)}
            for k in range(2, min(len(last), NAME_PREFIX + 1)):
                if fold_name(last[:k]) not in others:  # "Ola Lis." would name Ola Lis, not Ola Lisowska
                    options.append(f"{p.first_name} {last[:k]}.")
            options.append(f"{short} ({pid})")
            candidates[pid] = options
    level = dict.fromkeys(candidates, 0)
    while True:
        for pid, opts in candidates.items():
            names[pid] = opts[min(level[pid], len(opts) - 1)]
        seen: dict[str, list[PlayerId]] = {}
        for pid, name in names.items():
            seen.setdefault(fold_name(name), []).append(pid)
        clashes = [pids for pids in seen.values() if len(pids) > 1]
        if not clashes:
            return names
        progressed = False
        for pids in clashes:
            for pid in pids:
                if level[pid] < len(candidates[pid]) - 1:
                    level[pid] += 1
                    progressed = True
        if not progressed:  # pragma: no cover - the "(id)" form is always unique
            return names


def norm_email(email: str) -> str:
    return email.strip().lower()


def norm_phone(phone: str) -> str:
    digits = re.sub(r"\D", "", phone)
    return digits[-9:]  # Polish numbers are 9 digits; drop +48 / 0048


#: What public screens, the bracket and the results call a player: ``short`` — a chosen
#: nickname, else first name and the surname's initial ("Anna K."); ``full`` — first name and
#: surname ("Anna Kowalska"), for an event whose players agreed to it. Never e-mail or phone.


__all__ = [
    "NAME_PREFIX",
    "PERSON_FIELDS",
    "REQUIRED_CONSENTS",
    "SEALED_FIELDS",
    "SEALED_NAME",
    "VAULT_FIELDS",
    "Consent",
    "ConsentKind",
    "ListKind",
    "Person",
    "Player",
    "PlayerId",
    "PublicNames",
    "display_names",
    "erased_person",
    "norm_email",
    "norm_phone",
    "seal_person",
    "unseal_person",
]
