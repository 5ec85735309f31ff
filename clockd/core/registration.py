"""Players of a Puzzle Duel session: sign-ups, the main and reserve lists, check-in, the field.

The regulations (RULES.md §A, 000 §1.9–1.19) in the order a referee meets them:

* Sign-ups come from an online form, exported as CSV (:func:`parse_signups`). One form is
  one person; a second sign-up of the same person counts once (§1.13–1.14): the same name
  with the same e-mail or phone (siblings share a parent's e-mail; a person may type another
  address). The same name with other contacts *may* be the same person: it is shown to the
  referee, who decides (:attr:`SignupImport.possible_duplicates`). First come, first served
  (§1.12): the order is the form's own timestamp column (:mod:`clockd.core.formtime`),
  whatever order the rows are in; a sign-up sent before the form opened (§1.11: 06.06.2026,
  12:00) is refused with the reason. A file without a timestamp column keeps its rows' order.
* The minimum age is 13 (§1.9): a younger person's sign-up is refused, with its line.
* The main list and the reserve list have the same size (§1.11); sign-ups beyond both are
  over the limit.
* Players check in at the table; at T−10 an absent player's seat goes to the next reserve
  *in order* (§1.18), and at T−5 a seat still free goes to anyone waiting — walk-ins,
  typed in at the desk, in order of arrival (§1.19). :meth:`Registration.close` does both,
  and says who took which seat; until the draw the referee may open the check-in again
  (:class:`ReopenCheckIn`: a walk-in who came late, a check-in forgotten).

**A bad row stops the import.** A row that cannot be read (no name, an age that is not a
number, an e-mail without ``@``) is an error naming its line; nothing is imported until the
file is fixed (:class:`SignupError` lists every bad line at once). Refusals by the rules
(under 13, a duplicate, over the limit) are not errors: they are listed in the
:class:`SignupImport` so the referee sees who was left out and why.

**Personal data.** Surname, e-mail, phone and age are private (marked ``private`` in the
schema, never in :meth:`Player.public`); screens, the bracket and the results files show
the display name only ("Anna K."), DESIGN.md principle 9. The three sessions are three
tournaments, each with its own sign-up file.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from enum import StrEnum
from typing import ClassVar, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from clockd.core.actions import Action, Allowed, Target, action
from clockd.core.csvtext import CONSENT_WORDS, control_character, csv_error, sniff_delimiter
from clockd.core.formtime import FormTimeError, day_first, parse_form_time
from clockd.core.people import fold_name
from clockd.core.private import PRIVATE
from clockd.i18n import Msg, Problem, msg

PlayerId = int


class RegistrationError(Problem):
    """A registration step that cannot apply; the message says why. Nothing changed."""


class SignupError(RegistrationError):
    """A sign-up file with rows that cannot be read; nothing was imported.

    ``problems`` are the bad rows, each its line and what is wrong with it; the message
    lists them all (``signups.bad-rows``), so the file is fixed in one go.
    """

    def __init__(self, source: str, problems: list[tuple[int, Msg]]) -> None:
        self.source = source
        self.problems = problems
        rows = [msg("signups.row", source=source, line=line, problem=problem) for line, problem in problems]
        super().__init__("signups.bad-rows", source=source, n=len(problems), rows=rows)


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
        if self.email and _norm_email(self.email) == _norm_email(other.email):
            return msg("signups.same-name-email")
        if self.phone and _norm_phone(self.phone) == _norm_phone(other.phone):
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


# -- the sign-up file ---------------------------------------------------------------------

#: Column names a sign-up form may use, Polish and English; matched as whole words after
#: folding case and diacritics ("Adres e-mail" → "adres e mail"). The full-name column is
#: tried first so that "Imię i nazwisko" is not taken for a first-name column.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "full_name": ("imie i nazwisko", "imie nazwisko", "full name", "name and surname", "first and last name"),
    "first_name": ("imie", "first name", "firstname", "given name", "forename"),
    "last_name": ("nazwisko", "last name", "lastname", "surname", "family name"),
    "email": ("e mail", "email", "adres e mail", "adres email", "mail", "email address"),
    "phone": (
        "telefon",
        "nr telefonu",
        "numer telefonu",
        "tel",
        "phone",
        "phone number",
        "telephone",
        "mobile",
    ),
    "age": ("wiek", "age", "ile masz lat"),
    "nickname": ("pseudonim", "nick", "nickname", "display name", "nazwa wyswietlana"),
    "timestamp": ("sygnatura czasowa", "timestamp", "data zgloszenia", "czas zgloszenia", "submitted at"),
}


class Refusal(BaseModel):
    """A sign-up the rules leave out, with its line and the reason."""

    model_config = ConfigDict(frozen=True)

    line: int
    name: str  # "Anna K.": with the line, enough to find the row; no surname
    reason: Literal["under-age", "duplicate", "over-limit", "before-opening", "no-consent"]
    detail: Msg
    #: For a duplicate: the line of the earlier sign-up it repeats.
    same_as: int | None = None


class Signup(BaseModel):
    model_config = ConfigDict(frozen=True)

    line: int
    person: Person
    signed_up_at: str = ""  # the form's timestamp, as written


class PossibleDuplicate(BaseModel):
    """Two sign-ups with the same name and other contacts: the referee decides (§1.14).

    Both stay on the lists, the earlier in its place; if the referee finds they are one
    person, withdrawing the later keeps the earlier's place in the queue.
    """

    model_config = ConfigDict(frozen=True)

    line: int
    same_as: int  # the earlier sign-up's line
    name: str  # "Anna K."


class ChangedSignup(BaseModel):
    """A sign-up a later export has with other data (the fields' names, not their values)."""

    model_config = ConfigDict(frozen=True)

    player: PlayerId
    fields: tuple[str, ...]


class ImportReport(BaseModel):
    """What a later export of the same form changed: every row is accounted for.

    ``recognised``: rows already in (the same person and the same sent time); ``added``: new
    sign-ups, placed in the order they were sent after those already listed; ``changed``:
    recognised rows whose data differs (the newer export's data is kept, the place too);
    ``missing``: players of an earlier export that this one lacks — they stay on the lists
    (a row deleted from a sheet is not a resignation; the referee withdraws them if so).
    """

    model_config = ConfigDict(frozen=True)

    source: str
    recognised: int
    added: tuple[PlayerId, ...] = ()
    changed: tuple[ChangedSignup, ...] = ()
    missing: tuple[PlayerId, ...] = ()


class SignupImport(BaseModel):
    """The outcome of reading a sign-up file: who is in, who is out and why."""

    model_config = ConfigDict(frozen=True)

    source: str
    accepted: tuple[Signup, ...]  # in the order of sign-up (the form's timestamps)
    refused: tuple[Refusal, ...]
    columns: dict[str, str]  # field → the file's column header
    ignored_columns: tuple[str, ...]
    possible_duplicates: tuple[PossibleDuplicate, ...] = ()
    #: The consent columns read (the header → what it asks for).
    consent_columns: dict[str, ConsentKind] = Field(default_factory=dict)

    def kept(self, seats: int) -> SignupImport:
        """What a registration of ``seats`` keeps of it (:meth:`Registration.from_signups` gives
        the same registration for both): the first ``2 × seats`` sign-ups (main and reserve
        lists, §1.11); the rest become over-limit refusals, without their personal data."""
        over = self.accepted[2 * seats :]
        if not over:
            return self
        refused = self.refused + tuple(_over_limit(s, seats) for s in over)
        return self.model_copy(update={"accepted": self.accepted[: 2 * seats], "refused": refused})


class MixedEncoding(SignupError):
    """Some rows of the file are UTF-8 and others are not: two encodings in one file.

    ``lines`` are the rows in the other encoding (the fewer kind), ``like`` a few rows of the
    file's own encoding, to show what "the rest" means.
    """

    def __init__(self, source: str, lines: list[int], like: list[int], utf8: bool) -> None:
        self.lines, self.like, self.utf8 = lines, like, utf8
        shown = like[:3]  # a few of the rest, "…" when there are more; "wiersz"/"wiersze" by their number
        rest = ", ".join(str(n) for n in shown)
        more = "…" if len(like) > len(shown) else ""
        code = "signups.row-utf8" if utf8 else "signups.row-not-utf8"
        what = msg(code, lines=rest, more=more, n=len(shown))
        super().__init__(source, [(n, what) for n in lines])


def decode_signups(data: bytes, source: str = "<csv>") -> str:
    """The text of a sign-up file as it comes from a form's export or a spreadsheet.

    A form exports UTF-8 (often with a BOM); Excel on a Polish Windows saves "CSV" in
    Windows-1250. Anything else is refused rather than guessed, so no name is mangled; and so
    is a file whose rows are in both (a form's export with a row typed in in another editor):
    decoding it whole as Windows-1250 would store the UTF-8 rows as mojibake ("WiĹ›niewska"),
    so :class:`MixedEncoding` names the rows of the other encoding.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    utf8: list[int] = []
    other: list[int] = []
    for number, line in enumerate(data.removeprefix(b"\xef\xbb\xbf").split(b"\n"), start=1):
        if line.isascii():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            other.append(number)
            continue
        if all(c.isascii() or _meant_as_utf8(c) for c in text):
            utf8.append(number)
        else:  # Windows-1250 bytes that happen to form UTF-8 (e.g. "ÓŁ" as Cyrillic): not UTF-8 text
            other.append(number)
    if utf8:
        if len(other) <= len(utf8):
            raise MixedEncoding(source, other, utf8, utf8=False)
        raise MixedEncoding(source, utf8, other, utf8=True)
    try:
        return data.decode("cp1250")
    except UnicodeDecodeError:
        pass
    raise SignupError(source, [(1, msg("signups.not-text"))])


#: What a row of UTF-8 text holds beyond ASCII: Latin letters and signs (U+00A0–U+024F), the
#: typographic punctuation a spreadsheet puts in („…” – — ‘’, U+2000–U+206F), currency signs
#: (€) and letter-like symbols (™, №). Windows-1250 bytes read as UTF-8 give none of these in
#: Polish text (the "ÓŁ" pair is Cyrillic U+04E3; a General Punctuation character would need
#: "â" before it), so a row of only these is UTF-8 — the quotes of „Nazwa pary” included.
_UTF8_RANGES = (("\u00a0", "\u024f"), ("\u2000", "\u206f"), ("\u20a0", "\u20cf"), ("\u2100", "\u214f"))


def _meant_as_utf8(c: str) -> bool:
    return any(low <= c <= high for low, high in _UTF8_RANGES)


def parse_signups(
    text: str,
    *,
    min_age: int = 13,
    source: str = "<csv>",
    opens_at: datetime | None = None,
    time_zone: str = "Europe/Warsaw",
) -> SignupImport:
    """Read a sign-up form's CSV export (comma, semicolon or tab separated; BOM tolerated).

    Raises :class:`SignupError` naming every unreadable row (a timestamp none of the forms'
    formats reads among them); otherwise returns the accepted sign-ups in the order they were
    sent (the timestamp column; the file's order without one, or between equal times), and
    the refusals: sent before ``opens_at`` (§1.11; a naive time is ``time_zone``'s), under
    ``min_age`` (§1.9), duplicates of an earlier sign-up (§1.13–1.14). Each is decided in
    the order of sign-up, so the earlier of two duplicates keeps its place whatever the
    rows' order.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise SignupError(source, [(1, msg("signups.empty"))])
    reader = csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text))
    try:
        header = next(reader)
    except csv.Error as exc:
        raise SignupError(source, [(1, csv_error(exc))]) from None
    columns, ignored = _map_columns(header, source)
    index = {field: header.index(col) for field, col in columns.items()}
    consent_at = {i: kind for i, col in enumerate(header) if (kind := consent_kind(col)) is not None}
    ignored = [col for col in ignored if consent_kind(col) is None]

    problems: list[tuple[int, Msg]] = []
    rows: list[tuple[int, Person, str]] = []
    start = reader.line_num + 1
    for row in _rows(reader, problems):
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            extra = [c for c in row[len(header) :] if c.strip()]
            if extra:
                problems.append((line, msg("signups.too-many-cells", cells=len(row), columns=len(header))))
                continue

        def cell(field: str, row: list[str] = row) -> str:
            i = index.get(field)
            return row[i].strip() if i is not None and i < len(row) else ""

        person, problem = _person_from_row(cell)
        if problem:
            problems.append((line, problem))
            continue
        assert person is not None
        stamp = cell("timestamp")
        consents = tuple(
            Consent(
                kind=kind,
                text=header[i].strip(),
                answer=(answer := row[i].strip() if i < len(row) else ""),
                given=consent_given(answer),
                at=stamp,
            )
            for i, kind in consent_at.items()
        )
        rows.append((line, person.model_copy(update={"consents": consents}), stamp))
    sent = _sent_at(rows, "timestamp" in index, time_zone, problems)
    if problems:
        raise SignupError(source, problems)
    rows.sort(key=lambda r: (sent.get(r[0]) or _EPOCH, r[0]))
    opens = _aware(opens_at, time_zone) if opens_at is not None else None

    accepted: list[Signup] = []
    refused: list[Refusal] = []
    maybe: list[PossibleDuplicate] = []
    seen = _SeenPeople()
    for line, person, stamp in rows:
        at = sent.get(line)
        if opens is not None and at is not None and at < opens:
            refused.append(
                Refusal(
                    line=line,
                    name=person.short_name,
                    reason="before-opening",
                    detail=msg(
                        "signups.before-opening",
                        sent=stamp,
                        opens=opens.astimezone(ZoneInfo(time_zone)).strftime("%d.%m.%Y %H:%M"),
                    ),
                )
            )
            continue
        missing = next((c for c in person.consents if c.required and not c.given), None)
        if missing is not None:  # §1.5: the consents the rules require are the condition of taking part
            refused.append(
                Refusal(
                    line=line,
                    name=person.short_name,
                    reason="no-consent",
                    detail=msg("signups.no-consent", consent=missing.text),
                )
            )
            continue
        if person.age is not None and person.age < min_age:
            refused.append(
                Refusal(
                    line=line,
                    name=person.short_name,
                    reason="under-age",
                    detail=msg("signups.under-age", min_age=min_age),  # not the age: refusals are public
                )
            )
            continue
        keys = seen.keys(person)
        earlier = seen.earlier(person, keys)
        if earlier is not None:
            signup, why = earlier
            refused.append(
                Refusal(
                    line=line,
                    name=person.short_name,
                    reason="duplicate",
                    detail=msg("signups.duplicate", why=why, line=signup.line),
                    same_as=signup.line,
                )
            )
            continue
        namesake = seen.namesake(person)
        if namesake is not None:
            maybe.append(PossibleDuplicate(line=line, same_as=namesake.line, name=person.short_name))
        signup = Signup(line=line, person=person, signed_up_at=stamp)
        accepted.append(signup)
        seen.add(signup, keys)
    return SignupImport(
        source=source,
        accepted=tuple(accepted),
        refused=tuple(refused),
        columns=columns,
        ignored_columns=tuple(ignored),
        possible_duplicates=tuple(maybe),
        consent_columns={header[i].strip(): kind for i, kind in consent_at.items()},
    )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _aware(when: datetime, time_zone: str) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=ZoneInfo(time_zone))


def _sent_at(
    rows: list[tuple[int, Person, str]], has_column: bool, time_zone: str, problems: list[tuple[int, Msg]]
) -> dict[int, datetime]:
    """When each row's form was sent (by line), from the timestamp column; a cell that cannot
    be read is a problem of its row. Empty without the column."""
    if not has_column:
        return {}
    first = day_first(stamp for _, _, stamp in rows)
    sent: dict[int, datetime] = {}
    for line, _, stamp in rows:
        if not stamp:
            problems.append((line, msg("signups.no-timestamp")))
            continue
        try:
            sent[line] = parse_form_time(stamp, time_zone, day_first=first)
        except FormTimeError:
            problems.append((line, msg("signups.bad-timestamp", text=stamp)))
    return sent


class _SeenPeople:
    """The sign-ups accepted so far, by what makes two the same person (§1.14): the full name
    with the e-mail, and the full name with the phone (:meth:`Person.same_person`), and by the
    name alone for the namesakes the referee is shown. Looking one up costs the same however
    many came before (a scan of every earlier sign-up made a 4000-row file take 82 s)."""

    def __init__(self) -> None:
        self._by_contact: dict[tuple[str, str], Signup] = {}
        self._by_name: dict[str, Signup] = {}

    @staticmethod
    def keys(person: Person) -> list[tuple[str, str]]:
        """What ``person`` is recognised by: the folded name with the e-mail, and with the phone."""
        name = fold_name(person.full_name)
        out = []
        if person.email:
            out.append((name, "e:" + _norm_email(person.email)))
        if person.phone:
            out.append((name, "p:" + _norm_phone(person.phone)))
        return out

    def add(self, signup: Signup, keys: list[tuple[str, str]]) -> None:
        for key in keys:
            self._by_contact.setdefault(key, signup)
        self._by_name.setdefault(fold_name(signup.person.full_name), signup)

    def earlier(self, person: Person, keys: list[tuple[str, str]]) -> tuple[Signup, Msg] | None:
        """The first earlier sign-up of the same person, and why it is the same, or ``None``."""
        found = sorted(
            {id(s): s for k in keys if (s := self._by_contact.get(k)) is not None}.values(),
            key=lambda s: s.line,
        )
        for signup in found:
            why = signup.person.same_person(person)
            if why is not None:
                return signup, why
        return None

    def namesake(self, person: Person) -> Signup | None:
        """The first earlier sign-up with the same name and other contacts (the referee decides)."""
        first = self._by_name.get(fold_name(person.full_name))
        return first if first is not None and first.person.maybe_same_person(person) else None


#: What a consent question asks for, by the words of its text (folded: no case, no diacritics).
_CONSENT_KINDS: tuple[tuple[ConsentKind, tuple[str, ...]], ...] = (
    ("image", ("wizerunek", "wizerunku", "zdjec", "zdjecia", "fotografi", "film", "image", "photo")),
    ("newsletter", ("newsletter", "marketing", "handlow", "informacji o")),
    (
        "processing",
        ("przetwarzan", "dane osobowe", "danych osobowych", "rodo", "processing", "personal data"),
    ),
    ("rules", ("regulamin", "terms", "rules")),
)


def consent_kind(header: str) -> ConsentKind | None:
    """What the column asks the person to agree to, or ``None`` if it is no consent question.

    A question about the image is the image's even when it names the data too ("zgoda na
    przetwarzanie wizerunku"): its refusal is no resignation.
    """
    words = fold_name(header).split()
    if not any(w.startswith(c) for w in words for c in CONSENT_WORDS):
        return None
    text = " ".join(words)
    for kind, stems in _CONSENT_KINDS:
        if any(stem in text for stem in stems):
            return kind
    return "other"


#: Answers that mean no (a checkbox left empty is no too).
_NO = frozenset({"nie", "no", "n", "false", "0", "brak", "nie wyrazam", "nie zgadzam sie", "nie akceptuje"})


def consent_given(answer: str) -> bool:
    """Whether a consent cell says yes: "Tak", "Wyrażam zgodę", the option's own text, "x"."""
    folded = fold_name(answer)
    return bool(folded) and folded not in _NO and not folded.startswith("nie ")


def _column_match(col: str) -> tuple[str, float] | None:
    """The field a header names and how much of the header the name is (1.0: all of it).

    A consent question that mentions "imię, nazwisko, wiek" scores low against the plain
    "Imię" column, so the plain column wins.
    """
    words = fold_name(col).split()
    if not words or CONSENT_WORDS & set(words):
        return None
    text = f" {' '.join(words)} "
    best: tuple[str, float] | None = None
    for field, aliases in COLUMN_ALIASES.items():
        for alias in aliases:
            if f" {alias} " in text:
                score = len(alias.split()) / len(words)
                if best is None or score > best[1]:
                    best = (field, score)
    return best


def _map_columns(header: list[str], source: str) -> tuple[dict[str, str], list[str]]:
    by_field: dict[str, list[tuple[float, str]]] = {}
    for col in header:
        hit = _column_match(col)
        if hit is not None:
            by_field.setdefault(hit[0], []).append((hit[1], col))
    found: dict[str, str] = {}
    for field, cols in by_field.items():
        cols.sort(key=lambda sc: -sc[0])
        if len(cols) > 1 and cols[0][0] == cols[1][0]:
            raise SignupError(
                source,
                [
                    (
                        1,
                        msg(
                            "signups.columns-alike",
                            first=cols[0][1],
                            second=cols[1][1],
                            field=_field_term(field),
                        ),
                    )
                ],
            )
        found[field] = cols[0][1]
    if "first_name" in found and "last_name" in found:
        found.pop("full_name", None)
    ignored = [col for col in header if col not in found.values()]
    missing: list[Msg] = []
    if "full_name" not in found and not ("first_name" in found and "last_name" in found):
        missing.append(msg("signups.no-name-column", header=", ".join(header)))
    if "age" not in found:
        missing.append(msg("signups.no-age-column", header=", ".join(header)))
    if missing:
        raise SignupError(source, [(1, m) for m in missing])
    return found, ignored


_AGE_RE = re.compile(r"(\d{1,3})\s*(lat|lata|rok|years?|yrs?|y)?\.?")
_EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def _field_term(field: str) -> Msg:
    return Msg(code=f"term.field.{field}")


def _rows(reader: Iterator[list[str]], problems: list[tuple[int, Msg]]) -> Iterator[list[str]]:
    """The reader's rows; a row the ``csv`` module cannot read ends the reading, as a problem."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append((getattr(reader, "line_num", 0), csv_error(exc)))
            return
        yield row


def _person_from_row(get: Callable[[str], str]) -> tuple[Person | None, Msg | None]:
    """A person from one row (``get``: field name → the stripped cell), or what is wrong."""
    for field in ("full_name", "first_name", "last_name", "nickname", "email", "phone"):
        bad = control_character(get(field))
        if bad is not None:
            return None, msg("signups.control-character", field=_field_term(field), character=bad)
    if get("full_name"):
        parts = get("full_name").rsplit(None, 1)
        first, last = (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")
    else:
        first, last = get("first_name"), get("last_name")
    if not first:
        return None, msg("signups.no-first-name")
    if not last:
        return None, msg("signups.no-surname")
    age_text = get("age")
    m = _AGE_RE.fullmatch(age_text.lower())
    if not m:
        return None, msg("signups.bad-age", age=age_text) if age_text else msg("signups.no-age")
    email = get("email")
    if email and not _EMAIL_RE.fullmatch(email):
        return None, msg("signups.bad-email", email=email)
    phone = get("phone")
    if phone and len(re.sub(r"\D", "", phone)) < 6:
        return None, msg("signups.bad-phone", phone=phone)
    person = Person(
        first_name=first,
        last_name=last,
        email=email,
        phone=phone,
        age=int(m.group(1)),
        nickname=get("nickname"),
    )
    return person, None


def _norm_email(email: str) -> str:
    return email.strip().lower()


def _norm_phone(phone: str) -> str:
    digits = re.sub(r"\D", "", phone)
    return digits[-9:]  # Polish numbers are 9 digits; drop +48 / 0048


#: What public screens, the bracket and the results call a player: ``short`` — a chosen
#: nickname, else first name and the surname's initial ("Anna K."); ``full`` — first name and
#: surname ("Anna Kowalska"), for an event whose players agreed to it. Never e-mail or phone.
PublicNames = Literal["short", "full"]


#: What a later export may change about a person (shown by name, never by value).
_PERSON_FIELDS = ("first_name", "last_name", "email", "phone", "age", "nickname")

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


# -- the session's registration: the referee's actions -------------------------------------


@action
class AddPlayer(Action):
    """Type a person in at the desk: to the main list while it has room, then the reserve;
    ``walk_in`` for someone waiting on the day (§1.19)."""

    kind: Literal["player-add"] = "player-add"
    target: ClassVar[Target] = "event"
    first_name: str = Field(min_length=1, max_length=100)
    last_name: str = Field(default="", max_length=100, json_schema_extra=PRIVATE)
    email: str = Field(default="", max_length=200, json_schema_extra=PRIVATE)
    phone: str = Field(default="", max_length=50, json_schema_extra=PRIVATE)
    #: Required; ``None`` only in the journal, where the vault keeps it (or it was erased).
    age: int | None = Field(ge=0, le=130, json_schema_extra=PRIVATE)
    nickname: str = Field(default="", max_length=100)
    walk_in: bool = False

    @field_validator("first_name", "last_name", "email", "phone", "nickname")
    @classmethod
    def _no_control_character(cls, value: str) -> str:
        bad = control_character(value)
        if bad is not None:  # a NUL or a line break in a name would reach the pages and the TRF
            raise PydanticCustomError(
                "field.control-character",
                "{what}: {field} contains a control character ({character}); retype it",
                {"character": bad},
            )
        return value

    def person(self) -> Person:
        return Person(
            first_name=self.first_name,
            last_name=self.last_name,
            email=self.email,
            phone=self.phone,
            age=self.age,
            nickname=self.nickname,
        )


@action
class CheckIn(Action):
    """The player is at the table."""

    kind: Literal["check-in"] = "check-in"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class CheckOut(Action):
    """Undo a check-in made by mistake, or a player who left before the start."""

    kind: Literal["check-out"] = "check-out"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class Withdraw(Action):
    """The person resigns (or withdraws consent to their data, which is resignation, RODO)."""

    kind: Literal["withdraw"] = "withdraw"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class CloseCheckIn(Action):
    """Start time: fill empty seats from the reserve in order, then from walk-ins (§1.18–1.19)."""

    kind: Literal["check-in-close"] = "check-in-close"
    target: ClassVar[Target] = "event"


@action
class ReopenCheckIn(Action):
    """Take the close back, until the draw: the field and its seat changes are undone, the
    check-in is open again (someone came late, a check-in was forgotten); close again after."""

    kind: Literal["check-in-reopen"] = "check-in-reopen"
    target: ClassVar[Target] = "event"


RegistrationAction = AddPlayer | CheckIn | CheckOut | Withdraw | CloseCheckIn | ReopenCheckIn


class SeatChange(BaseModel):
    """Who took an absent player's seat at the start (``absent``: ``None`` for a seat no one
    on the main list had), for the referee's record."""

    model_config = ConfigDict(frozen=True)

    absent: PlayerId | None
    taken_by: PlayerId
    rule: Literal["reserve §1.18", "walk-in §1.19"]


class Registration(BaseModel):
    """One session's players, lists and check-in; immutable, changed by :meth:`apply`."""

    model_config = ConfigDict(frozen=True)

    seats: int = Field(ge=2)
    min_age: int = 13
    name_style: PublicNames = "short"  # the configuration's public_names
    players: dict[PlayerId, Player] = {}
    present: frozenset[PlayerId] = frozenset()
    withdrawn: frozenset[PlayerId] = frozenset()
    field: tuple[PlayerId, ...] | None = None  # set at close: who plays, in seat order
    seat_changes: tuple[SeatChange, ...] = ()
    refused: tuple[Refusal, ...] = ()
    possible_duplicates: tuple[PossibleDuplicate, ...] = ()  # for the referee to decide (§1.14)
    last_import: ImportReport | None = None  # what the latest export of the form changed
    #: Players whose person restricted the processing of their data (RODO art. 18): kept, but
    #: shown on no screen and in no results under their name.
    restricted: frozenset[PlayerId] = frozenset()

    @classmethod
    def from_signups(
        cls,
        signups: SignupImport,
        *,
        seats: int,
        min_age: int = 13,
        name_style: PublicNames = "short",
        person_ids: dict[int, str] | None = None,
    ) -> Registration:
        """Main list = the first ``seats`` sign-ups, reserve = the next ``seats`` (§1.11).

        ``person_ids`` gives the person each sign-up is (by its line), where known.
        """
        ids = person_ids or {}
        accepted = list(signups.accepted)
        over = accepted[2 * seats :]
        people = [(i, s.person) for i, s in enumerate(accepted[: 2 * seats], start=1)]
        names = display_names(people, name_style)
        players = {
            i: Player(
                id=i,
                display_name=names[i],
                person=s.person,
                list=ListKind.MAIN if i <= seats else ListKind.RESERVE,
                line=s.line,
                signed_up_at=s.signed_up_at,
                person_id=ids.get(s.line),
            )
            for i, s in enumerate(accepted[: 2 * seats], start=1)
        }
        refused = list(signups.refused) + [_over_limit(s, seats) for s in over]
        return cls(
            seats=seats,
            min_age=min_age,
            name_style=name_style,
            players=players,
            refused=tuple(refused),
            possible_duplicates=signups.possible_duplicates,
        )

    def with_later_export(
        self, signups: SignupImport, person_ids: dict[int, str] | None = None
    ) -> Registration:
        """The lists after a later export of the same form (§1.11–1.14): nothing already listed
        moves or is lost, new sign-ups join in the order they were sent, changes are noted.

        A row is recognised by who sent it and when (the form's timestamp); without a
        timestamp column, by the person (:meth:`Person.same_person`). The same person sent
        again at another time is a duplicate (§1.14), refused naming the first sign-up.
        """
        ids = person_ids or {}
        players = dict(self.players)
        from_form = [p for p in players.values() if p.list is not ListKind.WALK_IN]
        by_row = {(fold_name(p.person.full_name), p.signed_up_at): p for p in from_form if p.signed_up_at}
        seen: set[PlayerId] = set()
        added: list[PlayerId] = []
        changed: list[ChangedSignup] = []
        refused: list[Refusal] = []  # this export's, with its lines; then the earlier ones it lacks
        for s in signups.accepted:
            p = by_row.get((fold_name(s.person.full_name), s.signed_up_at)) if s.signed_up_at else None
            if p is None and not s.signed_up_at:
                p = next((q for q in from_form if q.person.same_person(s.person)), None)
            if p is not None:
                seen.add(p.id)
                fields = tuple(f for f in _PERSON_FIELDS if getattr(p.person, f) != getattr(s.person, f))
                if fields:
                    changed.append(ChangedSignup(player=p.id, fields=fields))
                    players[p.id] = p.model_copy(update={"person": s.person, "line": s.line})
                elif p.line != s.line:  # the referee's questions name the line of the latest export
                    players[p.id] = p.model_copy(update={"line": s.line})
                continue
            again = next((q for q in players.values() if q.person.same_person(s.person)), None)
            if again is not None:
                why = again.person.same_person(s.person)
                refusal = Refusal(
                    line=s.line,
                    name=s.person.short_name,
                    reason="duplicate",
                    detail=msg(
                        "signups.duplicate-of-player", why=why, player=again.id, name=again.display_name
                    ),
                )
            elif len([q for q in players.values() if q.list is ListKind.MAIN]) < self.seats:
                refusal, kind = None, ListKind.MAIN
            elif len([q for q in players.values() if q.list is ListKind.RESERVE]) < self.seats:
                refusal, kind = None, ListKind.RESERVE
            else:
                refusal = Refusal(
                    line=s.line,
                    name=s.person.short_name,
                    reason="over-limit",
                    detail=msg("signups.over-limit", seats=self.seats),
                )
            if refusal is not None:
                refused.append(refusal)
                continue
            pid = max(players, default=0) + 1
            players[pid] = Player(
                id=pid,
                display_name="",
                person=s.person,
                list=kind,
                line=s.line,
                signed_up_at=s.signed_up_at,
                person_id=ids.get(s.line),
            )
            added.append(pid)
        # this export's own refusals (under age, duplicates, too early) with this file's lines; an
        # earlier export's refusal stays only for a row this one no longer has
        refused += signups.refused
        now = {_refusal_key(r) for r in refused}
        refused += [r for r in self.refused if _refusal_key(r) not in now]
        refused.sort(key=lambda r: r.line)
        names = display_names([(q.id, q.person) for q in players.values()], self.name_style)
        players = {pid: q.model_copy(update={"display_name": names[pid]}) for pid, q in players.items()}
        report = ImportReport(
            source=signups.source,
            recognised=len(seen),
            added=tuple(added),
            changed=tuple(changed),
            missing=tuple(p.id for p in from_form if p.id not in seen),
        )
        return self.model_copy(
            update={
                "players": players,
                "refused": tuple(refused),
                "possible_duplicates": self.possible_duplicates + signups.possible_duplicates,
                "last_import": report,
            }
        )

    def erased(self, person_id: str) -> Registration:
        """The registration with person ``person_id`` erased (RODO art. 17): each of their players
        keeps the seat, the list and the results under the stand-in name, and every display
        name is derived again (a namesake's "(3)" may go)."""
        if not any(p.person_id == person_id for p in self.players.values()):
            return self
        players = {
            pid: p.model_copy(update={"person": erased_person(p.person)}) if p.person_id == person_id else p
            for pid, p in self.players.items()
        }
        return self._renamed(players)

    def corrected(self, person_id: str, field: str, value: object) -> Registration:
        """The registration with one field of person ``person_id`` corrected (RODO art. 16)."""
        if not any(p.person_id == person_id for p in self.players.values()):
            return self
        players = {
            pid: p.model_copy(
                update={"person": Person.model_validate({**p.person.model_dump(), field: value})}
            )
            if p.person_id == person_id
            else p
            for pid, p in self.players.items()
        }
        return self._renamed(players)

    def consent_changed(
        self, person_id: str, kind: ConsentKind, given: bool, at: str, *, resign: bool
    ) -> Registration:
        """Person ``person_id``'s ``kind`` of consent withdrawn (or given again) at ``at``; with
        ``resign`` (a required one withdrawn, §1.6) they leave the lists while these are open."""
        players = dict(self.players)
        mine = [p for p in players.values() if p.person_id == person_id]
        if not mine:
            return self
        for p in mine:
            kept = tuple(c for c in p.person.consents if c.kind != kind)
            old = next((c for c in p.person.consents if c.kind == kind), None)
            new = Consent(kind=kind, text=old.text if old else kind, answer="", given=given, at=at)
            person = p.person.model_copy(update={"consents": (*kept, new)})
            players[p.id] = p.model_copy(update={"person": person})
        withdrawn = self.withdrawn
        if resign and not self.closed:
            withdrawn = withdrawn | {p.id for p in mine}
        return self.model_copy(
            update={"players": players, "withdrawn": withdrawn, "present": self.present - withdrawn}
        )

    def _renamed(self, players: dict[PlayerId, Player]) -> Registration:
        names = display_names([(q.id, q.person) for q in players.values()], self.name_style)
        players = {pid: q.model_copy(update={"display_name": names[pid]}) for pid, q in players.items()}
        return self.model_copy(update={"players": players})

    # -- reading ----------------------------------------------------------------------------
    def listed(self, kind: ListKind) -> list[Player]:
        """A list in its order (sign-up order; arrival order for walk-ins), without withdrawals."""
        return [p for p in self.players.values() if p.list is kind and p.id not in self.withdrawn]

    def without_email(self) -> list[Player]:
        """Main-list players with no e-mail address (an empty cell of the form): the organiser
        cannot write to them before the day (a change of time, a place freed), so the referee
        is warned at the import. An erased person's is gone on purpose, so not counted."""
        main = self.listed(ListKind.MAIN)
        return [p for p in main if not p.person.email and p.person.first_name != SEALED_NAME]

    def player(self, pid: PlayerId) -> Player:
        try:
            return self.players[pid]
        except KeyError:
            raise RegistrationError("registration.no-player", player=pid) from None

    @property
    def closed(self) -> bool:
        return self.field is not None

    def public_names(self) -> dict[PlayerId, str]:
        return {pid: self.shown_name(pid) for pid in self.players}

    def shown_name(self, pid: PlayerId) -> str:
        """What screens and results call the player: the display name, or for a restricted
        person the stand-in with the number ("N.N. (7)")."""
        p = self.players[pid]
        return f"{SEALED_NAME} ({pid})" if pid in self.restricted else p.display_name

    def restricted_for(self, person_id: str, restricted: bool) -> Registration:
        """Person ``person_id``'s players restricted (or no longer)."""
        mine = {p.id for p in self.players.values() if p.person_id == person_id}
        if not mine:
            return self
        return self.model_copy(
            update={"restricted": self.restricted | mine if restricted else self.restricted - mine}
        )

    # -- what may be done now ------------------------------------------------------------------
    def allowed(self) -> Allowed:
        """The session-wide registration actions, and why not where they may not be done."""
        closed = msg("registration.closed") if self.closed else None
        return {
            "player-add": closed,
            "check-in-close": closed,
            "check-in-reopen": None if self.closed else msg("registration.not-closed"),
            "signups-import": closed,  # again and again: a later export joins what is listed
        }

    def player_allowed(self, pid: PlayerId) -> Allowed:
        """The actions on one player (check in, check out, withdraw) and why not."""
        p = self.players.get(pid)
        if p is None:
            no = msg("registration.no-player", player=pid)
            return {"check-in": no, "check-out": no, "withdraw": no}
        if self.closed:
            closed = msg("registration.closed")
            return {"check-in": closed, "check-out": closed, "withdraw": closed}
        if pid in self.withdrawn:
            gone = msg("registration.withdrawn", player=pid, name=p.display_name)
            return {"check-in": gone, "check-out": gone, "withdraw": gone}
        here = pid in self.present
        return {
            "check-in": msg("registration.already-present", name=p.display_name) if here else None,
            "check-out": None if here else msg("registration.not-present", name=p.display_name),
            "withdraw": None,
        }

    # -- actions --------------------------------------------------------------------------------
    def apply(self, event: RegistrationAction, *, person_id: str | None = None) -> Registration:
        """The registration after ``event``; ``person_id`` is the person a new player is."""
        if isinstance(event, AddPlayer):
            _refuse(self.allowed()["player-add"])
            return self._add(event, person_id)
        if isinstance(event, CloseCheckIn):
            _refuse(self.allowed()["check-in-close"])
            return self._close()
        if isinstance(event, ReopenCheckIn):
            _refuse(self.allowed()["check-in-reopen"])
            return self.model_copy(update={"field": None, "seat_changes": ()})
        _refuse(self.player_allowed(event.player)[event.kind])
        player = self.players[event.player]
        if isinstance(event, CheckIn):
            return self.model_copy(update={"present": self.present | {player.id}})
        if isinstance(event, CheckOut):
            return self.model_copy(update={"present": self.present - {player.id}})
        return self.model_copy(
            update={"withdrawn": self.withdrawn | {player.id}, "present": self.present - {player.id}}
        )

    def _add(self, e: AddPlayer, person_id: str | None) -> Registration:
        person = e.person()
        if person.age is not None and person.age < self.min_age:
            raise RegistrationError("registration.under-age", age=person.age, min_age=self.min_age)
        for p in self.players.values():
            why = p.person.same_person(person)
            if why:
                raise RegistrationError("registration.duplicate", player=p.id, name=p.display_name, why=why)
        if e.walk_in:
            kind = ListKind.WALK_IN
        elif len(self.listed(ListKind.MAIN)) < self.seats:
            kind = ListKind.MAIN
        elif len(self.listed(ListKind.RESERVE)) < self.seats:
            kind = ListKind.RESERVE
        else:
            raise RegistrationError("registration.lists-full", seats=self.seats)
        pid = max(self.players, default=0) + 1
        people = [(p.id, p.person) for p in self.players.values()] + [(pid, person)]
        names = display_names(people, self.name_style)
        players = {i: p.model_copy(update={"display_name": names[i]}) for i, p in self.players.items()}
        players[pid] = Player(id=pid, display_name=names[pid], person=person, list=kind, person_id=person_id)
        # a walk-in is typed in because they are here (§1.19): present, in the queue for a seat
        present = self.present | {pid} if kind is ListKind.WALK_IN else self.present
        return self.model_copy(update={"players": players, "present": present})

    def _close(self) -> Registration:
        """The field: present main-list players keep their seats; each empty seat goes to the
        next present reserve in list order (§1.18), then to present walk-ins in arrival
        order (§1.19)."""
        main = self.listed(ListKind.MAIN)
        field = [p.id for p in main if p.id in self.present]
        absent: list[PlayerId | None] = [p.id for p in main if p.id not in self.present]
        absent += [None] * (self.seats - len(main))  # seats nobody signed up for
        changes: list[SeatChange] = []
        queue: list[tuple[PlayerId, Literal["reserve §1.18", "walk-in §1.19"]]] = [
            (p.id, "reserve §1.18") for p in self.listed(ListKind.RESERVE) if p.id in self.present
        ] + [(p.id, "walk-in §1.19") for p in self.listed(ListKind.WALK_IN) if p.id in self.present]
        for seat in absent:
            if not queue:
                break
            pid, rule = queue.pop(0)
            field.append(pid)
            changes.append(SeatChange(absent=seat, taken_by=pid, rule=rule))
        if len(field) < 2:
            raise RegistrationError("registration.too-few-present", n=len(field))
        return self.model_copy(update={"field": tuple(field), "seat_changes": tuple(changes)})


def _refusal_key(r: Refusal) -> tuple[str, str, str]:
    """What tells one refused sign-up from another across two exports of a form (not its line)."""
    return (r.name, r.reason, r.detail.code)


def _over_limit(signup: Signup, seats: int) -> Refusal:
    return Refusal(
        line=signup.line,
        name=signup.person.short_name,
        reason="over-limit",
        detail=msg("signups.over-limit", seats=seats),
    )


def _refuse(reason: Msg | None) -> None:
    if reason is not None:
        raise RegistrationError(reason)
