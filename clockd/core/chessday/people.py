"""The chess day's children as people of the vault: what a group journals of them, and what not.

The day file (:mod:`.roster`) is the organiser's and holds what the desk needed to register a
child: the birth date, the guardian's e-mail. A chess group in the daemon needs neither — the
boards, the standings, the printouts and the TRF need a name, a school, a class and a rating
(principle 9; RODO art. 5(1)(c), data minimisation) — so:

* **the daemon keeps no birth date and no e-mail** of a child (:func:`admitted`): the birth is
  dropped (or, when the organiser wants it for the TRF, ``birth_year``, cut to the year and kept
  in the vault), the e-mail is kept as a digest salted with the child's person id only, so that
  ``person find`` still finds the children a guardian's address registered;
* **the journal keeps stand-ins** (:func:`sealed`): each child is ``N.N.`` with the start
  number, sex, rating, federation and medal (the pairing's and the pick-up desk's inputs, no
  one's identity), and the person id; the name, school, class, FIDE id and the e-mail's digest
  are the vault's records (:func:`records`), one per child, keyed by the start number;
* **everything the group holds of a child comes back from the vault** (:func:`unsealed`), live
  and on replay alike — and an erasure or a correction is the same fold with the record gone or
  changed (:func:`erased`, :func:`corrected`), so the state after it is the replay's.

A group made from a TRF (``chess import-trf``) is the same: its ``001`` lines' names and FIDE
ids are the vault's, its birth dates are dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clockd.core.chessday.group import ChessGroupConfig
from clockd.core.chessday.roster import Entrant
from clockd.core.people import contact_digest
from clockd.core.registration import SEALED_NAME
from clockd.core.swiss import trf

#: A child's fields the vault keeps (the rest of an :class:`Entrant` stays in the journal,
#: but for the birth date and the e-mail, which are not kept at all).
ENTRANT_FIELDS = ("surname", "first_name", "school", "school_class", "fide_id")

#: A child as the journal keeps them, and all that is left of an erased one.
_STAND_IN: dict[str, object] = {
    "surname": SEALED_NAME,
    "first_name": "",
    "school": "",
    "school_class": "",
    "fide_id": "",
    "birth": "",
    "email": "",
}


def full_name(config: ChessGroupConfig, start: int) -> tuple[str, str]:
    """``(first name, surname)`` of player ``start`` as the group holds them (roster or TRF)."""
    for e in config.group.entrants:
        if e.start == start:
            return e.first_name, e.surname
    if config.trf:
        for p in trf.loads(config.trf).players:
            if p.start_number == start:
                surname, _, first = p.name.partition(",")
                return first.strip(), surname.strip()
    return "", ""


def starts(config: ChessGroupConfig) -> list[int]:
    """The start numbers of the group's players (the roster's, else the TRF's)."""
    found = {e.start for e in config.group.entrants}
    if config.trf:
        found |= set(trf.loads(config.trf).start_numbers)
    return sorted(found)


def birth_year(config: ChessGroupConfig, birth: str) -> str:
    """What the daemon keeps of a birth date: its year when the organiser wants it, else nothing."""
    year = birth.strip()[:4]
    return year if config.birth_year and len(year) == 4 and year.isdigit() else ""


def admitted(config: ChessGroupConfig, person_ids: Mapping[int, str]) -> ChessGroupConfig:
    """The configuration a client sent as the daemon keeps it: each player's person id, the
    e-mail's digest for the e-mail, no birth date (the year only if wanted; see the module
    docstring)."""
    contacts = {
        e.start: digest
        for e in config.group.entrants
        if (digest := contact_digest(person_ids.get(e.start, ""), e.email)) and e.start in person_ids
    }
    entrants = tuple(
        e.model_copy(update={"birth": birth_year(config, e.birth), "email": ""})
        for e in config.group.entrants
    )
    text = config.trf
    if text:
        t = trf.loads(text)
        text = trf.dumps(t.with_players(p.replace(birth=birth_year(config, p.birth)) for p in t.players))
    return config.model_copy(
        update={
            "group": config.group.model_copy(update={"entrants": entrants}),
            "trf": text,
            "people": dict(person_ids),
            "contacts": contacts,
        }
    )


def records(config: ChessGroupConfig) -> dict[int, dict[str, Any]]:
    """The vault's record of each player with a person id, by start number."""
    out: dict[int, dict[str, Any]] = {}
    for e in config.group.entrants:
        if e.start in config.people:
            out[e.start] = e.model_dump(mode="json", include=set(ENTRANT_FIELDS))
            if year := birth_year(config, e.birth):
                out[e.start]["birth_year"] = year
    if config.trf:
        for p in trf.loads(config.trf).players:
            if p.start_number in config.people:
                record = out.setdefault(p.start_number, {})
                record.update({"name": p.name, "trf_fide_id": p.fide_id})
                if year := birth_year(config, p.birth):
                    record["trf_birth_year"] = year
    for start, digest in config.contacts.items():
        if start in out:
            out[start]["email_digest"] = digest
    return out


def _entrant(e: Entrant, record: Mapping[str, Any] | None) -> Entrant:
    update = dict(_STAND_IN)
    if record is not None:
        update.update({f: str(record[f]) for f in ENTRANT_FIELDS if f in record})
        update["birth"] = str(record.get("birth_year", ""))
    return e.model_copy(update=update)


def _with(config: ChessGroupConfig, found: Mapping[int, Mapping[str, Any]]) -> ChessGroupConfig:
    """``config`` with every player's data from ``found`` (by start number; none: the stand-in)."""
    entrants = tuple(_entrant(e, found.get(e.start)) for e in config.group.entrants)
    text = config.trf
    if text:
        t = trf.loads(text)
        players = []
        for p in t.players:
            record = found.get(p.start_number)
            name = str(record.get("name", SEALED_NAME)) if record is not None else SEALED_NAME
            fide = str(record.get("trf_fide_id", "")) if record is not None else ""
            year = str(record.get("trf_birth_year", "")) if record is not None else ""
            players.append(p.replace(name=name, fide_id=fide, birth=year))
        text = trf.dumps(t.with_players(players))
    contacts = {start: str(r["email_digest"]) for start, r in found.items() if r.get("email_digest")}
    return config.model_copy(
        update={
            "group": config.group.model_copy(update={"entrants": entrants}),
            "trf": text,
            "contacts": contacts,
        }
    )


def sealed(config: ChessGroupConfig) -> ChessGroupConfig:
    """The configuration as the journal keeps it: every player the stand-in, the person ids."""
    return _with(config, {})


def unsealed(config: ChessGroupConfig, found: Mapping[int, Mapping[str, Any]]) -> ChessGroupConfig:
    """The journal's configuration with what the vault still holds (an erased child: the stand-in)."""
    return _with(sealed(config), found)


def erased(config: ChessGroupConfig, start: int) -> ChessGroupConfig:
    """Player ``start`` erased: the stand-in from now on, and no longer a person of the group."""
    kept = {s: r for s, r in records(config).items() if s != start}
    people = {s: pid for s, pid in config.people.items() if s != start}
    return unsealed(config, kept).model_copy(update={"people": people})


def corrected(config: ChessGroupConfig, start: int, field: str, value: object) -> ChessGroupConfig:
    """One field of player ``start`` corrected (``person correct``; ``email``: its digest)."""
    found = records(config)
    record = dict(found.get(start, {}))
    text = "" if value is None else str(value)
    if field == "email":
        record["email_digest"] = contact_digest(config.people.get(start, ""), text)
    elif field in ("first_name", "last_name"):
        first, surname = full_name(config, start)
        first, surname = (text, surname) if field == "first_name" else (first, text)
        if any(e.start == start for e in config.group.entrants):
            record.update({"first_name": first, "surname": surname})
        if "name" in record:
            record["name"] = f"{surname}, {first}"
    else:
        return config  # a phone, a nickname: a child of the chess day has none here
    found[start] = record
    return unsealed(config, found)


def fixed(config: ChessGroupConfig, start: int, changes: Mapping[str, str]) -> ChessGroupConfig:
    """Player ``start``'s data fixed at the desk (``chess fix``: ``surname``, ``first_name``,
    ``school``, ``school_class``), the same fold as a correction, so the replay's state is the live one."""
    found = records(config)
    record = dict(found.get(start, {}))
    first, surname = full_name(config, start)
    first, surname = changes.get("first_name", first), changes.get("surname", surname)
    if any(e.start == start for e in config.group.entrants):
        record.update({"first_name": first, "surname": surname})
        record.update({f: changes[f] for f in ("school", "school_class") if f in changes})
    else:  # a player of a group made from a TRF: a name, no school
        record["name"] = f"{surname}, {first}"
    found[start] = record
    return unsealed(config, found)


__all__ = [
    "ENTRANT_FIELDS",
    "admitted",
    "birth_year",
    "contact_digest",
    "corrected",
    "erased",
    "fixed",
    "full_name",
    "records",
    "sealed",
    "starts",
    "unsealed",
]
