"""Sign-ups for the zone's pairs and teams (RULES.md §A; regulations §1.9–1.19, §5.1.10–5.1.11).

One form is one person (§1.13), so a pair or a team is *formed* from the form export: the
rows naming the same pair or team in its column ("Nazwa drużyny", "Para") belong together;
a row naming its partner instead ("Imię i nazwisko partnera") is paired with the row of that
partner when the partner names it back. The persons are read by the duel's own reader
(:func:`~clockd.core.registration.parse_signups`: names, ages, duplicates counted once,
unreadable rows named with their line); this module adds what pairs and teams need:

* **the size** — a pair is 2 (the relay, blind puzzling), a team 3 or 4 (the team event,
  §5.1.4): a pair whose partner never signed up, a team of 2 or 5, are refused with their
  lines;
* **the ages** — 13 at least (§1.9), except in the team event, where a child under 13 is
  admitted when the team has a member of 18 or more (§1.9, §5.1.11);
* **the order** — by the form's own timestamp column (a pair or team counts from its last
  member's form: it is complete then), none before the opening time (§1.11, 06.06 12:00);
  the team event first takes teams with a member under 18 (§5.1.10);
* **the lists** — the main list and a reserve list of the same size (§1.11); beyond both,
  over the limit.

What comes out holds the public names ("Anna K. i Jan N.", or the team's own name), the
lines and, for the vault, each listed member as the form gives them (``persons``, private): the
daemon journals the lists with stand-ins and the people's data in the vault
(:func:`sealed_entries`, :func:`unsealed_entries`; ``docs/people.md``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.csvtext import sniff_delimiter
from clockd.core.formtime import day_first, parse_form_time
from clockd.core.people import fold_name as _fold
from clockd.core.private import PRIVATE
from clockd.core.registration import (
    SEALED_NAME,
    Person,
    Refusal,
    SignupError,
    display_names,
    parse_signups,
    seal_person,
    unseal_person,
)
from clockd.i18n import Msg, msg

EntryList = Literal["main", "reserve", "walk-in"]
EntryRefusalReason = Literal[
    "partner-missing",
    "team-size",
    "child-without-adult",
    "before-opening",
    "over-limit",
    "no-team",
    "under-age",
    "duplicate",
]

#: Headers of the pair's or team's column (folded: no accents, lower case).
TEAM_ALIASES = (
    "nazwa druzyny",
    "druzyna",
    "nazwa pary",
    "para",
    "zespol",
    "nazwa zespolu",
    "partner",
    "partnerka",
    "partnera",
    "partnerki",
    "imie i nazwisko partnera",
    "imie i nazwisko partnerki",
    "team",
    "team name",
    "pair",
    "pair name",
    "partner name",
)

#: The regulations' opening of the sign-ups (§1.11): 06.06.2026, 12:00 (the festival's time).
DEFAULT_OPENING = "2026-06-06 12:00"
#: Before every timestamp (a sign-up without one sorts first, as in the file).
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)


class EntrySignup(BaseModel):
    """A pair or team as the lists hold it: public names and the form's lines only."""

    model_config = ConfigDict(frozen=True)

    entry: str
    name: str
    members: tuple[str, ...]
    lines: tuple[int, ...]
    list: EntryList
    signed_up_at: str = ""
    minor: bool = False  # a member under 18 (the team event's priority, §5.1.10)


class EntryRefusal(BaseModel):
    """Sign-ups the rules leave out, with their lines and the reason."""

    model_config = ConfigDict(frozen=True)

    lines: tuple[int, ...]
    names: tuple[str, ...]
    reason: EntryRefusalReason
    detail: Msg


class EntrySignups(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    entries: tuple[EntrySignup, ...]
    refused: tuple[EntryRefusal, ...]
    team_column: str
    #: The listed entries' members as the form gives them, by line: the vault's, never the
    #: journal's (:func:`sealed_entries`).
    persons: dict[int, Person] = Field(default_factory=dict, json_schema_extra=PRIVATE)
    #: Each member's person id, by line (the daemon's: :class:`clockd.core.people.PeopleIndex`).
    person_ids: dict[int, str] = Field(default_factory=dict)
    #: Each listed member's form time as the form wrote it, by line (the retention plan's
    #: 21-day reminder counts from the earliest).
    form_times: dict[int, str] = Field(default_factory=dict)
    #: Members of main-list entries whose form has no e-mail address (line, public name): the
    #: organiser cannot write to them, so the referee is warned at the import.
    no_email: tuple[tuple[int, str], ...] = ()

    def listed(self, kind: EntryList) -> list[EntrySignup]:
        return [e for e in self.entries if e.list == kind]


def _team_column(header: list[str]) -> tuple[int, str] | None:
    best: tuple[float, int, str] | None = None
    for i, col in enumerate(header):
        words = _fold(col).split()
        if not words:
            continue
        text = f" {' '.join(words)} "
        for alias in TEAM_ALIASES:
            if f" {alias} " in text:
                score = len(alias.split()) / len(words)
                if best is None or score > best[0]:
                    best = (score, i, col)
    return None if best is None else (best[1], best[2])


def _cells_by_line(text: str, column: int) -> dict[int, str]:
    """The pair's or team's cell of every row, by its line (numbered as the person reader does)."""
    reader = csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text))
    next(reader, None)
    out: dict[int, str] = {}
    start = reader.line_num + 1
    for row in reader:
        line, start = start, reader.line_num + 1
        out[line] = row[column].strip() if column < len(row) else ""
    return out


def _refused_partner(
    person: Person, cell: str, refused: tuple[Refusal, ...], cells: dict[int, str]
) -> Refusal | None:
    """The partner of a pair's only member among the refused rows: a row naming the same pair,
    or naming this person as its partner. So the pair's refusal says why the partner is not
    in it (under age, a duplicate, too early), not that the partner never signed up."""
    for r in refused:
        theirs = _fold(cells.get(r.line, ""))
        if theirs and theirs in (_fold(cell), _fold(person.full_name)):
            return r
    return None


def form_entries(
    text: str,
    *,
    kind: Literal["relay", "blind", "team"],
    seats: int,
    opening: str | None = DEFAULT_OPENING,
    source: str = "<csv>",
    time_zone: str = "Europe/Warsaw",
) -> EntrySignups:
    """The main and reserve lists of pairs (relay, blind) or teams (team) from a form export.

    Raises :class:`~clockd.core.registration.SignupError` naming the rows that cannot be read
    (a name, an age, a timestamp), or a file without the pair's or team's column; every
    refusal by the rules is listed with its lines and reason.
    """
    text = text.removeprefix("\ufeff")
    # one reading of the form for every event: its timestamps (any locale's export, the zone),
    # the opening (§1.11, refused with the reason), ages, duplicates counted once
    opens = datetime.fromisoformat(opening) if opening else None
    people = parse_signups(
        text, min_age=0 if kind == "team" else 13, source=source, opens_at=opens, time_zone=time_zone
    )
    header = next(csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text)), [])
    found = _team_column(header)
    if found is None:
        what = "signups.no-team-column" if kind == "team" else "signups.no-pair-column"
        raise SignupError(source, [(1, msg(what, header=", ".join(header)))])
    column, column_name = found
    cells = _cells_by_line(text, column)
    refused: list[EntryRefusal] = [
        EntryRefusal(lines=(r.line,), names=(r.name,), reason=r.reason, detail=r.detail)
        for r in people.refused
        if r.reason in ("under-age", "duplicate", "before-opening")
    ]
    # the order of the form's own timestamp column (parse_signups read every one already)
    first = day_first(s.signed_up_at for s in people.accepted)
    timed: list[tuple[datetime | None, int, Person, str]] = [
        (
            parse_form_time(s.signed_up_at, time_zone, day_first=first) if s.signed_up_at else None,
            s.line,
            s.person,
            s.signed_up_at,
        )
        for s in people.accepted
    ]
    # groups: the same pair's or team's name; or partners naming each other
    groups: dict[str, list[tuple[datetime | None, int, Person, str]]] = {}
    alone: list[tuple[datetime | None, int, Person, str]] = []
    for row in timed:
        cell = _fold(cells.get(row[1], ""))
        if not cell:
            alone.append(row)
            continue
        groups.setdefault(cell, []).append(row)
    by_name = {_fold(r[2].full_name): key for key, rows in groups.items() if len(rows) == 1 for r in rows}
    for key, rows in list(groups.items()):
        if key not in groups or len(rows) != 1:
            continue
        partner_key = by_name.get(key)  # this row names a person whose own row is alone too
        if partner_key is None or partner_key == key or partner_key not in groups:
            continue
        partner_rows = groups[partner_key]
        if len(partner_rows) == 1 and _fold(cells.get(partner_rows[0][1], "")) == _fold(rows[0][2].full_name):
            groups[key] = rows + partner_rows
            del groups[partner_key]
    for row in alone:
        refused.append(
            EntryRefusal(
                lines=(row[1],),
                names=(row[2].short_name,),
                reason="no-team",
                detail=msg("signups.no-team", column=column_name),
            )
        )
    low, high = (3, 4) if kind == "team" else (2, 2)
    formed: list[
        tuple[tuple[int, datetime | None, int], list[tuple[datetime | None, int, Person, str]], str]
    ] = []
    for rows in groups.values():
        rows.sort(key=lambda r: r[1])
        lines = tuple(r[1] for r in rows)
        names = tuple(r[2].short_name for r in rows)
        if not low <= len(rows) <= high:
            reason: EntryRefusalReason = (
                "partner-missing" if kind != "team" and len(rows) < 2 else "team-size"
            )
            cell = cells.get(rows[0][1], "")
            if reason == "team-size":
                detail = msg("signups.team-size", n=len(rows), low=low, high=high, team=cell)
            elif (partner := _refused_partner(rows[0][2], cell, people.refused, cells)) is not None:
                line, name, why = partner.line, partner.name, partner.detail
                detail = msg("signups.partner-refused", pair=cell, line=line, name=name, why=why)
            else:
                detail = msg("signups.partner-missing", pair=cell)
            refused.append(EntryRefusal(lines=lines, names=names, reason=reason, detail=detail))
            continue
        ages = [r[2].age for r in rows]
        child = any(a is not None and a < 13 for a in ages)
        adult = any(a is not None and a >= 18 for a in ages)
        if kind == "team" and child and not adult:
            refused.append(
                EntryRefusal(
                    lines=lines,
                    names=names,
                    reason="child-without-adult",
                    detail=msg("signups.child-without-adult", team=cells.get(rows[0][1], "")),
                )
            )
            continue
        complete = max((r[0] for r in rows if r[0] is not None), default=None)
        minor = any(a is not None and a < 18 for a in ages)
        priority = 0 if kind == "team" and minor else 1
        order = (priority, complete or _NEVER, max(lines))
        formed.append((order, rows, cells.get(rows[0][1], "")))
    formed.sort(key=lambda f: (f[0][0], f[0][1], f[0][2]))
    entries: list[EntrySignup] = []
    persons: dict[int, Person] = {}
    form_times: dict[int, str] = {}
    prefix = "druzyna" if kind == "team" else "para"
    everyone = [(r[1], r[2]) for _, rows, _ in formed for r in rows]
    public = display_names(everyone)
    for i, (_order, rows, cell) in enumerate(formed, start=1):
        lines = tuple(r[1] for r in rows)
        members = tuple(public[r[1]] for r in rows)
        if i > 2 * seats:
            refused.append(
                EntryRefusal(
                    lines=lines,
                    names=members,
                    reason="over-limit",
                    detail=msg("signups.over-limit", seats=seats),
                )
            )
            continue
        persons |= {r[1]: r[2] for r in rows}
        form_times |= {r[1]: r[3] for r in rows if r[0] is not None}
        names_partner = any(_fold(cell) == _fold(r[2].full_name) for r in rows)
        # a pair is shown by its members' public names, a team by its own name
        name = cell if kind == "team" and not names_partner else " i ".join(members)
        timed_rows = [r for r in rows if r[0] is not None]  # a pair counts from its last form
        entries.append(
            EntrySignup(
                entry=f"{prefix}-{i}",
                name=name,
                members=members,
                lines=lines,
                list="main" if i <= seats else "reserve",
                signed_up_at=max(timed_rows, key=lambda r: r[0] or _NEVER)[3] if timed_rows else "",
                minor=any(r[2].age is not None and r[2].age < 18 for r in rows),
            )
        )
    refused.sort(key=lambda r: min(r.lines))
    main_lines = {line for e in entries if e.list == "main" for line in e.lines}
    no_email = tuple(
        (s.line, public[s.line]) for s in people.accepted if s.line in main_lines and not s.person.email
    )
    return EntrySignups(
        source=source,
        entries=tuple(entries),
        refused=tuple(refused),
        team_column=column_name,
        persons=persons,
        form_times=form_times,
        no_email=no_email,
    )


def _pair_name(entry: EntrySignup, members: tuple[str, ...]) -> str:
    """The entry's name with ``members`` for its members: a pair's (and a team's named after
    its members) is made of their public names; a team's own name stays."""
    return " i ".join(members) if entry.name == " i ".join(entry.members) else entry.name


def sealed_entries(signups: EntrySignups) -> tuple[EntrySignups, dict[int, dict[str, object]]]:
    """The lists as the journal keeps them — each member with a person id the stand-in ``N.N.``,
    no one's data — and the vault's record of each (by line: the form's data and the public
    name the lists showed). Members without an id (a journal of an older version) stay."""
    records: dict[int, dict[str, object]] = {}
    for line, person in signups.persons.items():
        if line in signups.person_ids:
            records[line] = seal_person(person)[1]
    entries = []
    for e in signups.entries:
        shown = dict(zip(e.lines, e.members, strict=False))
        for line in e.lines:
            if line in records:
                records[line]["display_name"] = shown.get(line, "")
        members = tuple(
            SEALED_NAME if line in signups.person_ids else name
            for line, name in zip(e.lines, e.members, strict=False)
        )
        entries.append(e.model_copy(update={"members": members, "name": _pair_name(e, members)}))
    no_email = tuple((line, SEALED_NAME if line in records else name) for line, name in signups.no_email)
    sealed = signups.model_copy(update={"entries": tuple(entries), "persons": {}, "no_email": no_email})
    return sealed, records


def unsealed_entries(signups: EntrySignups, records: Mapping[int, Mapping[str, Any]]) -> EntrySignups:
    """The journal's lists with what the vault holds of each member (an erased one: ``N.N.``)."""
    persons: dict[int, Person] = {}
    for line, record in records.items():
        stand_in = Person(first_name=SEALED_NAME)
        persons[line] = unseal_person(stand_in, dict(record))
    entries = []
    for e in signups.entries:
        members = tuple(
            str(records[line].get("display_name") or SEALED_NAME) if line in records else name
            for line, name in zip(e.lines, e.members, strict=False)
        )
        entries.append(e.model_copy(update={"members": members, "name": _pair_name(e, members)}))
    no_email = tuple(
        (line, str(records[line].get("display_name") or SEALED_NAME) if line in records else name)
        for line, name in signups.no_email
    )
    return signups.model_copy(update={"entries": tuple(entries), "persons": persons, "no_email": no_email})


__all__ = [
    "DEFAULT_OPENING",
    "EntryRefusal",
    "EntrySignup",
    "EntrySignups",
    "form_entries",
    "sealed_entries",
    "unsealed_entries",
]
