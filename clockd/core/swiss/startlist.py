"""Start lists of a Swiss event from a registration spreadsheet (pure: text in, data out).

The school tournament (RULES.md §H) has up to 1000 players in 20 groups; the organiser
exports the registrations as CSV and the referees need one TRF start list per group.

* **Columns** are found by their header, in Polish or English (:data:`HEADER_ALIASES`:
  ``Imię``/``First name``, ``Nazwisko``/``Surname`` or one full-name column, ``Ranking``/
  ``Rating``, ``Płeć``/``Sex``, ``Rok urodzenia``/``Birth``, ``FIDE ID``/``ID``,
  ``Federacja``/``Federation``, ``Grupa``/``Group``). Headers are compared without case,
  diacritics or punctuation. Other columns are ignored (and listed, so the referee sees it).
* **A bad row stops everything.** Every row that cannot be read is reported with its line
  and the reason (:class:`RowProblem`); no start list is made until the file is fixed.
* **Order** is the one of FIDE start lists: rating descending, then name in Polish
  alphabetical order (surname, then first name); unrated players last. Start numbers are
  1..n in that order (:func:`start_list`).

Messages for people are not made here: problems are data (:class:`Reason` and the values
involved), and the command line words them in Polish or English.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from clockd.core.csvtext import (
    CONSENT_WORDS,
    GUARDIAN_WORDS,
    MAX_CELL_CHARS,
    control_character,
    header_score,
    sniff_delimiter,
)
from clockd.core.swiss.model import ZERO, Player, Record, Tournament

#: TRF's name field is columns 15–47.
NAME_WIDTH = 33
#: RULES.md §H: a group over this many players may be split by rating.
SPLIT_ABOVE = 250
#: TRF's start number is columns 5–8: a group has at most this many players.
MAX_PLAYERS = 9999


class Column(StrEnum):
    """What a column of the registration file holds."""

    FIRST_NAME = "first name"
    SURNAME = "surname"
    FULL_NAME = "full name"  # "Jan Kowalski" (or "Kowalski, Jan")
    FULL_NAME_SURNAME_FIRST = "full name, surname first"  # "Kowalski Jan"
    RATING = "rating"
    SEX = "sex"
    BIRTH = "birth"
    FIDE_ID = "FIDE id"
    FEDERATION = "federation"
    GROUP = "group"


#: Header names (folded: lower case, no diacritics, punctuation as spaces) of each column.
HEADER_ALIASES: Mapping[Column, frozenset[str]] = {
    Column.FIRST_NAME: frozenset({"imie", "imiona", "first name", "firstname", "given name", "forename"}),
    Column.SURNAME: frozenset({"nazwisko", "surname", "last name", "lastname", "family name"}),
    Column.FULL_NAME: frozenset(
        {
            "imie i nazwisko",
            "imie nazwisko",
            "name",
            "full name",
            "zawodnik",
            "zawodniczka",
            "uczestnik",
            "player",
            "first name and surname",
            "first name surname",
        }
    ),
    Column.FULL_NAME_SURNAME_FIRST: frozenset(
        {
            "nazwisko i imie",
            "nazwisko imie",
            "surname and first name",
            "surname first name",
            "last name first name",
        }
    ),
    Column.RATING: frozenset(
        {"ranking", "rating", "elo", "ranking fide", "fide rating", "ranking pzszach", "rtg"}
    ),
    Column.SEX: frozenset({"plec", "sex", "gender"}),
    Column.BIRTH: frozenset(
        {
            "rok urodzenia",
            "data urodzenia",
            "rocznik",
            "urodzony",
            "urodzona",
            "birth",
            "born",
            "year of birth",
            "date of birth",
            "birth year",
            "birth date",
            "birthdate",
        }
    ),
    Column.FIDE_ID: frozenset({"fide id", "id fide", "fide", "id", "nr fide", "numer fide", "fide number"}),
    Column.FEDERATION: frozenset({"federacja", "federation", "fed", "kraj", "country"}),
    Column.GROUP: frozenset({"grupa", "group", "grupa wiekowa", "kategoria wiekowa"}),
}

_NAME_COLUMNS = frozenset(
    {Column.FIRST_NAME, Column.SURNAME, Column.FULL_NAME, Column.FULL_NAME_SURNAME_FIRST}
)

_SEX = {
    "m": "m", "mezczyzna": "m", "chlopiec": "m", "chlopcy": "m", "chlopak": "m", "male": "m",
    "man": "m", "boy": "m", "boys": "m",
    "k": "w", "f": "w", "w": "w", "kobieta": "w", "dziewczyna": "w", "dziewczynka": "w",
    "dziewczeta": "w", "dziewczynki": "w", "female": "w", "woman": "w", "girl": "w", "girls": "w",
}  # fmt: skip
_UNRATED = frozenset({"", "-", "0", "brak", "bk", "none", "unrated"})


class Reason(StrEnum):
    """Why a registration file or one of its rows cannot make a start list."""

    EMPTY_FILE = "empty file"
    NO_NAME_COLUMN = "no name column"  # neither first name + surname nor a full-name column
    AMBIGUOUS_COLUMNS = "two columns for one field"  # value: the field; detail: the two headers
    NO_GROUP_COLUMN = "no such group column"  # value: the --group-by name; detail: the headers
    TOO_MANY_CELLS = "too many cells"  # value: cells in the row; detail: columns in the header
    NO_FIRST_NAME = "no first name"
    NO_SURNAME = "no surname"
    NAME_TOO_LONG = "name too long"  # value: the name as TRF would write it
    BAD_RATING = "bad rating"
    BAD_SEX = "bad sex"
    BAD_BIRTH = "bad birth"
    BAD_FIDE_ID = "bad FIDE id"
    BAD_FEDERATION = "bad federation"
    NO_GROUP = "no group"
    CONTROL_CHARACTER = "control character"  # value: the text; detail: the character, "U+0000"
    UNREADABLE_ROW = "unreadable row"  # value: the csv module's complaint
    CELL_TOO_LONG = "cell too long"  # value: the longest cell the csv module reads


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One thing wrong: the file's ``line`` (1 = the header), what, and the value found."""

    line: int
    reason: Reason
    value: str = ""
    detail: str = ""


class StartListError(ValueError):
    """The registration file cannot make start lists; ``problems`` lists every bad row."""

    def __init__(self, problems: Sequence[RowProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"line {p.line}: {p.reason.value} {p.value!r}" for p in self.problems))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One registered player, as read from one row."""

    line: int
    surname: str
    first_name: str
    rating: int | None = None
    sex: str = ""  # TRF: "m" or "w", or unknown
    birth: str = ""  # TRF: "YYYY" or "YYYY/MM/DD"
    fide_id: str = ""
    federation: str = ""
    group: str = ""

    @property
    def trf_name(self) -> str:
        """The name as TRF writes it: ``Surname, First name``."""
        return f"{self.surname}, {self.first_name}"


@dataclass(frozen=True, slots=True)
class Registrations:
    """The rows of a registration file, and which of its columns were used for what."""

    entrants: tuple[Entrant, ...]
    columns: Mapping[Column, str]  # what each used column holds → its header in the file
    ignored: tuple[str, ...]  # headers of the columns not used
    group_column: str | None  # the header the groups come from (None: one group)

    def groups(self) -> dict[str, list[Entrant]]:
        """The entrants of each group, groups in the order they first appear in the file."""
        out: dict[str, list[Entrant]] = {}
        for entrant in self.entrants:
            out.setdefault(entrant.group, []).append(entrant)
        return out


# -- reading ---------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case, no diacritics (``ł`` → ``l`` too), punctuation as spaces, single spaces."""
    text = text.lower().replace("ł", "l")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def _map_columns(header: Sequence[str], group_by: str | None) -> tuple[dict[Column, int], str | None]:
    found: dict[Column, list[int]] = {}
    loose: dict[Column, list[tuple[float, int]]] = {}
    for i, name in enumerate(header):
        folded = fold(name)
        exact = [column for column, aliases in HEADER_ALIASES.items() if folded in aliases]
        for column in exact:
            found.setdefault(column, []).append(i)
        words = folded.split()
        if exact or not words or CONSENT_WORDS & set(words):
            continue
        # As the registration desk reads a form: "Imię i nazwisko zawodnika" is the full name
        # (its alias covers most of the header's words); a guardian's column is never the player's.
        guardian = bool(GUARDIAN_WORDS & set(words))
        scored = [
            (header_score(words, alias), column)
            for column, aliases in HEADER_ALIASES.items()
            if not (guardian and column in _NAME_COLUMNS)
            for alias in aliases
        ]
        best = max(scored, key=lambda sc: sc[0], default=(0.0, Column.GROUP))
        if best[0] >= 0.5:
            loose.setdefault(best[1], []).append((best[0], i))
    for column, candidates in loose.items():
        if column not in found:
            top = max(score for score, _ in candidates)
            found[column] = [i for score, i in candidates if score == top]
    problems: list[RowProblem] = []
    if group_by is not None:
        found.pop(Column.GROUP, None)
        matching = [i for i, name in enumerate(header) if fold(name) == fold(group_by)]
        if matching:
            found[Column.GROUP] = matching
        else:
            problems.append(RowProblem(1, Reason.NO_GROUP_COLUMN, group_by, ", ".join(header)))
    if Column.FIRST_NAME in found and Column.SURNAME in found:
        found.pop(Column.FULL_NAME, None)
        found.pop(Column.FULL_NAME_SURNAME_FIRST, None)
    elif Column.FULL_NAME in found or Column.FULL_NAME_SURNAME_FIRST in found:
        found.pop(Column.FIRST_NAME, None)
        found.pop(Column.SURNAME, None)
        if Column.FULL_NAME in found and Column.FULL_NAME_SURNAME_FIRST in found:
            found[Column.FULL_NAME] += found.pop(Column.FULL_NAME_SURNAME_FIRST)
    else:
        problems.append(RowProblem(1, Reason.NO_NAME_COLUMN, "", ", ".join(header)))
    for column, where in found.items():
        if len(where) > 1:
            problems.append(
                RowProblem(1, Reason.AMBIGUOUS_COLUMNS, column.value, " / ".join(header[i] for i in where))
            )
    if problems:
        raise StartListError(problems)
    columns = {column: where[0] for column, where in found.items()}
    group = columns.get(Column.GROUP)
    return columns, None if group is None else header[group]


def _split_name(text: str, surname_first: bool) -> tuple[str, str]:
    """``(surname, first name)`` of a full name: ``Kowalski, Jan`` always; otherwise the
    last word is the surname (``Jan Kowalski``), or the first one when the column says
    surname first (``Kowalski Jan``)."""
    if "," in text:
        surname, _, first = text.partition(",")
        return " ".join(surname.split()), " ".join(first.split())
    words = text.split()
    if len(words) < 2:
        return (words[0], "") if words else ("", "")
    if surname_first:
        return words[0], " ".join(words[1:])
    return words[-1], " ".join(words[:-1])


_BIRTH_DATE = (
    re.compile(r"(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})"),
    re.compile(r"(?P<d>\d{1,2})[-/.](?P<m>\d{1,2})[-/.](?P<y>\d{4})"),
)


def _birth(text: str) -> str | None:
    """TRF's birth field (``YYYY`` or ``YYYY/MM/DD``), ``""`` for none, ``None`` if unreadable."""
    if not text:
        return ""
    if re.fullmatch(r"\d{4}", text):
        return text if 1900 <= int(text) <= 2100 else None
    for pattern in _BIRTH_DATE:
        m = pattern.fullmatch(text)
        if m:
            try:
                date = datetime.date(int(m["y"]), int(m["m"]), int(m["d"]))
            except ValueError:
                return None
            return date.strftime("%Y/%m/%d") if 1900 <= date.year <= 2100 else None
    return None


def _entrant(line: int, cell: Mapping[Column, str]) -> tuple[Entrant | None, list[RowProblem]]:
    problems: list[RowProblem] = []

    def bad(reason: Reason, value: str = "") -> None:
        problems.append(RowProblem(line, reason, value))

    for column in (
        Column.FIRST_NAME,
        Column.SURNAME,
        Column.FULL_NAME,
        Column.FULL_NAME_SURNAME_FIRST,
        Column.GROUP,
    ):
        control = control_character(cell.get(column, ""))
        if control is not None:  # a NUL or a line break would end up inside the TRF line
            return None, [RowProblem(line, Reason.CONTROL_CHARACTER, cell[column], control)]
    if Column.FIRST_NAME in cell or Column.SURNAME in cell:
        surname = " ".join(cell.get(Column.SURNAME, "").split())
        first = " ".join(cell.get(Column.FIRST_NAME, "").split())
    else:
        full = cell.get(Column.FULL_NAME, cell.get(Column.FULL_NAME_SURNAME_FIRST, ""))
        surname, first = _split_name(full, Column.FULL_NAME_SURNAME_FIRST in cell)
    if not surname:
        bad(Reason.NO_SURNAME)
    if not first:
        bad(Reason.NO_FIRST_NAME, surname)
    if surname and first and len(f"{surname}, {first}") > NAME_WIDTH:
        bad(Reason.NAME_TOO_LONG, f"{surname}, {first}")

    rating_text = cell.get(Column.RATING, "")
    rating: int | None = None
    if fold(rating_text) not in _UNRATED:
        if rating_text.isdigit() and rating_text.isascii() and 0 < int(rating_text) <= 9999:
            rating = int(rating_text)
        else:
            bad(Reason.BAD_RATING, rating_text)

    sex_text = cell.get(Column.SEX, "")
    sex = _SEX.get(fold(sex_text), "") if sex_text else ""
    if sex_text and not sex:
        bad(Reason.BAD_SEX, sex_text)

    birth_text = cell.get(Column.BIRTH, "")
    birth = _birth(birth_text)
    if birth is None:
        bad(Reason.BAD_BIRTH, birth_text)

    fide_id = cell.get(Column.FIDE_ID, "")
    if fide_id and not (fide_id.isascii() and fide_id.isalnum() and len(fide_id) <= 11):
        bad(Reason.BAD_FIDE_ID, fide_id)

    federation = cell.get(Column.FEDERATION, "").upper()
    if federation and not (federation.isascii() and federation.isalpha() and len(federation) == 3):
        bad(Reason.BAD_FEDERATION, cell.get(Column.FEDERATION, ""))

    group = " ".join(cell.get(Column.GROUP, "").split())
    if Column.GROUP in cell and not group:
        bad(Reason.NO_GROUP)

    if problems:
        return None, problems
    return (
        Entrant(
            line=line,
            surname=surname,
            first_name=first,
            rating=rating,
            sex=sex,
            birth=birth or "",
            fide_id=fide_id,
            federation=federation,
            group=group,
        ),
        [],
    )


def read_registrations(text: str, group_by: str | None = None) -> Registrations:
    """The players of a registration file's text (comma, semicolon or tab separated).

    ``group_by`` names the column whose value is the player's group; by default the
    ``Grupa``/``Group`` column if there is one, else everyone is in one group (``""``).
    Raises :class:`StartListError` listing every bad row; blank rows are skipped.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise StartListError([RowProblem(1, Reason.EMPTY_FILE)])
    reader = csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text))
    entrants: list[Entrant] = []
    problems: list[RowProblem] = []
    rows = _rows(reader, problems)
    header = [h.strip() for h in next(rows, [])]
    if problems:
        raise StartListError(problems)
    columns, group_column = _map_columns(header, group_by)

    start = reader.line_num + 1
    for row in rows:
        line, start = start, reader.line_num + 1
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header) and any(c.strip() for c in row[len(header) :]):
            problems.append(RowProblem(line, Reason.TOO_MANY_CELLS, str(len(row)), str(len(header))))
            continue
        cells = {c: (row[i].strip() if i < len(row) else "") for c, i in columns.items()}
        entrant, row_problems = _entrant(line, cells)
        problems.extend(row_problems)
        if entrant is not None:
            entrants.append(entrant)
    if problems:
        raise StartListError(problems)
    used = set(columns.values())
    return Registrations(
        entrants=tuple(entrants),
        columns={c: header[i] for c, i in columns.items()},
        ignored=tuple(h for i, h in enumerate(header) if i not in used),
        group_column=group_column,
    )


def _rows(reader: Iterator[list[str]], problems: list[RowProblem]) -> Iterator[list[str]]:
    """The reader's rows; a row the ``csv`` module cannot read ends the reading, as a problem."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            line = getattr(reader, "line_num", 1)
            if "field larger than field limit" in str(exc):
                problems.append(RowProblem(line, Reason.CELL_TOO_LONG, str(MAX_CELL_CHARS)))
            else:
                problems.append(RowProblem(line, Reason.UNREADABLE_ROW, str(exc)))
            return
        yield row


# -- ordering and the start list -------------------------------------------------------------

_ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_RANK = {c: i for i, c in enumerate(_ALPHABET)}


def _letter_key(ch: str) -> tuple[int, ...]:
    if ch in _RANK:
        return (_RANK[ch],)
    if ch.isdigit():
        return (-10 + int(ch),)  # digits before letters, after spaces and punctuation
    if not ch.isalpha():
        return (-20,)
    base = unicodedata.normalize("NFKD", ch)[0]  # é → e, ü → u: with the plain letter
    return (_RANK[base], 1) if base in _RANK else (len(_ALPHABET) + ord(ch),)


def polish_key(text: str) -> tuple[tuple[int, ...], ...]:
    """A sort key in Polish alphabetical order (a ą b c ć … z ź ż), case ignored."""
    return tuple(_letter_key(c) for c in text.lower())


def start_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """FIDE start-list order: rating descending, then surname and first name in Polish
    alphabetical order; unrated players after the rated ones. Equal players keep the
    file's order."""
    return sorted(
        entrants,
        key=lambda e: (
            e.rating is None,
            -(e.rating or 0),
            polish_key(e.surname),
            polish_key(e.first_name),
        ),
    )


def possible_duplicates(entrants: Iterable[Entrant]) -> list[tuple[int, int]]:
    """Pairs of lines ``(earlier, later)`` that look like the same person signed up twice in
    one group: the same name (case and diacritics ignored) and the same birth."""
    seen: dict[tuple[str, str, str], int] = {}
    out: list[tuple[int, int]] = []
    for e in entrants:
        key = (e.group, fold(e.trf_name), e.birth)
        if key in seen:
            out.append((seen[key], e.line))
        else:
            seen[key] = e.line
    return out


def start_list(
    entrants: Iterable[Entrant],
    *,
    title: str,
    rounds: int,
    date: datetime.date | None = None,
) -> Tournament:
    """A TRF start list: the players in :func:`start_order`, start numbers 1..n, no rounds
    yet; records ``012`` (``title``), ``042`` (``date``, if given), ``XXR`` (``rounds``) and
    ``XXC white1`` (the top seed has White in round 1, written down so that every pairing
    program reads the same choice)."""
    if rounds < 1:
        raise ValueError(f"a tournament has at least one round, not {rounds}")
    players = tuple(
        Player(
            start_number=n,
            name=e.trf_name,
            sex=e.sex,
            rating=e.rating,
            federation=e.federation,
            fide_id=e.fide_id,
            birth=e.birth,
            points=ZERO,
            group=e.group,
        )
        for n, e in enumerate(start_order(entrants), start=1)
    )
    return Tournament(players, start_list_records(title=title, rounds=rounds, date=date))


def start_list_records(*, title: str, rounds: int, date: datetime.date | None) -> tuple[Record, ...]:
    """A start list's records: ``012`` (the title), ``042`` (the date, if known), ``XXR`` (the
    rounds) and ``XXC white1`` (the top seed has White in round 1, for every pairing program)."""
    texts = [f"012 {title}".rstrip()]
    if date is not None:
        texts.append(f"042 {date:%Y/%m/%d}")
    texts += [f"XXR {rounds}", "XXC white1"]
    return tuple(Record(t, 0) for t in texts)


def file_stem(name: str) -> str:
    """A file name (without extension) for a group name: ASCII letters, digits and ``-``
    only (``Klasa 3 – dziewczęta`` → ``klasa-3-dziewczeta``); ``""`` if nothing is left."""
    return fold(name).replace(" ", "-")
