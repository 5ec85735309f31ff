"""The sign-up file: a form's CSV export read into sign-ups, refusals and possible duplicates.

Apart from :mod:`clockd.core.registration` because reading the file — its encoding, its
columns matched by meaning, each row's person, consents and time sent, the same person
signed up twice — is a job of its own that the CLI and the desk do before anything is
journaled; the session's registration then takes the :class:`SignupImport` as it is.
:class:`RegistrationError` lives here, below both, because a sign-up file's refusals are
registration errors too (:class:`SignupError` derives from it), and so does
:func:`over_limit_refusal`, which both the import and the registration give a sign-up
beyond the seats. :mod:`clockd.core.registration` re-exports these names.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.csvtext import CONSENT_WORDS, control_character, csv_error, sniff_delimiter
from clockd.core.formtime import FormTimeError, day_first, parse_form_time
from clockd.core.people import fold_name
from clockd.core.registrant import (
    Consent,
    ConsentKind,
    Person,
    PlayerId,
    norm_email,
    norm_phone,
)
from clockd.i18n import Msg, Problem, msg


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
        refused = self.refused + tuple(over_limit_refusal(s, seats) for s in over)
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
            out.append((name, "e:" + norm_email(person.email)))
        if person.phone:
            out.append((name, "p:" + norm_phone(person.phone)))
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


def over_limit_refusal(signup: Signup, seats: int) -> Refusal:
    return Refusal(
        line=signup.line,
        name=signup.person.short_name,
        reason="over-limit",
        detail=msg("signups.over-limit", seats=seats),
    )


__all__ = [
    "COLUMN_ALIASES",
    "ChangedSignup",
    "ImportReport",
    "MixedEncoding",
    "PossibleDuplicate",
    "Refusal",
    "RegistrationError",
    "Signup",
    "SignupError",
    "SignupImport",
    "consent_given",
    "consent_kind",
    "decode_signups",
    "over_limit_refusal",
    "parse_signups",
]
