"""One person, one id, across every event of the day.

A puzzle player who also signs up for the relay, a parent who registers two children for
the chess day: the journal, the results and the screens refer to people by an id of
their own (:func:`clockd.core.ids.new_person_id`), the same in every event and session.
:class:`PeopleIndex` finds the id of a person seen before: the same name (case,
diacritics and spacing aside) *and* the same e-mail or phone — a shared name alone is not
enough (two Anna Kowalskas), and a shared e-mail alone is not either (siblings sign up
from a parent's address).

The index keeps no personal data: it holds salted digests of those keys, so a snapshot
of it tells nobody who signed up (DESIGN.md, principle 9).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.ids import new_person_id


def fold_name(text: str) -> str:
    """A name as people are told apart by: lower case, no diacritics (ł → l too), punctuation
    as spaces, single spaces ("  anna KOWALSKA-Nowak" = "Anna Kowalska Nowak")."""
    text = text.lower().replace("ł", "l")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def identity_keys(full_name: str, email: str = "", phone: str = "", *, salt: str = "") -> list[str]:
    """The digests a person is recognised by (none without an e-mail or a phone)."""
    name = fold_name(full_name)
    if not name:
        return []
    keys = []
    if email.strip():
        keys.append(f"{name}|e:{email.strip().lower()}")
    digits = re.sub(r"\D", "", phone)[-9:]
    if len(digits) >= 6:
        keys.append(f"{name}|p:{digits}")
    return [hashlib.sha256(f"{salt}|{k}".encode()).hexdigest()[:24] for k in keys]


def contact_digest(person_id: str, email: str) -> str:
    """An e-mail as an event keeps it when it needs no address (a chess child's guardian's): a
    digest salted with the person's id, ``""`` for none.

    Enough to answer "whom did this address sign up?" (``person find``), useless for writing to
    anyone; gone with the vault's record when the person is erased."""
    address = email.strip().lower()
    if not address:
        return ""
    return hashlib.sha256(f"{person_id}|{address}".encode()).hexdigest()[:32]


class PeopleIndex(BaseModel):
    """Digest of a recognisable identity → person id (immutable; :meth:`with_person` adds)."""

    model_config = ConfigDict(frozen=True)

    salt: str = ""
    ids: dict[str, str] = Field(default_factory=dict)

    def find(self, keys: Iterable[str]) -> str | None:
        for key in keys:
            found = self.ids.get(key)
            if found is not None:
                return found
        return None

    def with_person(self, person_id: str, keys: Iterable[str]) -> PeopleIndex:
        ids = dict(self.ids)
        for key in keys:
            ids.setdefault(key, person_id)
        return self.model_copy(update={"ids": ids})

    def identify(self, full_name: str, email: str = "", phone: str = "") -> tuple[str, PeopleIndex]:
        """The person's id (known, or new) and the index that knows it."""
        keys = identity_keys(full_name, email, phone, salt=self.salt)
        found = self.find(keys)
        person_id = found or new_person_id()
        return person_id, self.with_person(person_id, keys)


__all__ = ["PeopleIndex", "contact_digest", "fold_name", "identity_keys"]
