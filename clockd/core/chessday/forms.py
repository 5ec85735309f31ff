"""The registration form's export (§H "Zgłoszenia", condition 1: "imienne zgłoszenie przez formularz").

One row is one player's form: the time it was sent, the player's name (one column, or first
name and surname), sex, level and class, school, birth, rating (optional), the medal (50 zł
instead of 30 zł), and the guardian's e-mail and phone. Headers are found by their words
(:mod:`.columns`), in Polish or English; the level is read from what people type:
"przedszkole", "zerówka", "3", "3b", "klasa 3", "III b", "trzecia", "liceum", "technikum",
"szkoła średnia"… A value that cannot be read is an error naming its line and column: the
group of a player is never guessed.

Personal data (birth, e-mail, phone, the guardian's name) is marked private: the lists the
organiser prints show the player's name, school and class only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from functools import cached_property
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.chessday.columns import GUARDIAN_WORDS, ColumnMap, header_score, map_columns
from clockd.core.chessday.csvfile import ChessFileError, FileProblem, Row, read_rows
from clockd.core.chessday.roster import Level, Sex
from clockd.core.csvtext import CONSENT_WORDS, control_character
from clockd.core.formtime import FormTimeError, day_first, parse_form_time
from clockd.core.people import fold_name
from clockd.core.private import PRIVATE
from clockd.i18n import Msg, msg

#: The day's local time: a form time without a zone, and the day a form was sent, are Warsaw's.
LOCAL_ZONE = "Europe/Warsaw"

#: The form's fields and their header words, in order of precedence (see :mod:`.columns`).
FORM_ALIASES: dict[str, tuple[str, ...]] = {
    "timestamp": (
        "sygnatura czasowa",
        "timestamp",
        "znacznik czasu",
        "data zgloszenia",
        "czas zgloszenia",
        "data wyslania",
        "submitted at",
        "submission time",
    ),
    "class": (
        "klasa",
        "klasy",
        "klasie",
        "class",
        "grade",
        "poziom",
        "level",
        "etap edukacji",
        "poziom edukacji",
        "rok nauki",
        "year",
        *("grupa", "group", "kategoria"),  # weak: see WEAK_CLASS_WORDS
    ),
    "school": (
        "szkola",
        "nazwa szkoly",
        "szkola przedszkole",
        "przedszkole szkola",
        "placowka",
        "school",
        "school name",
        "kindergarten school",
    ),
    "sex": ("plec", "sex", "gender", "chlopiec dziewczynka"),
    "birth": (
        "data urodzenia",
        "rok urodzenia",
        "rocznik",
        "urodzony",
        "urodzona",
        "date of birth",
        "birth date",
        "year of birth",
        "birth year",
        "birth",
        "born",
    ),
    "rating": ("ranking", "rating", "elo", "ranking fide", "fide rating", "ranking pzszach", "rtg"),
    "medal": (
        "medal",
        "pamiatkowy medal",
        "medal pamiatkowy",
        "wpisowe",
        "wpisowego",
        "kwota wpisowego",
        "oplata",
        "wariant wpisowego",
        "entry fee",
        "fee",
        "souvenir medal",
    ),
    "email": ("e mail", "email", "adres e mail", "adres email", "mail", "email address"),
    "phone": (
        "telefon",
        "nr telefonu",
        "numer telefonu",
        "tel",
        "komorka",
        "phone",
        "phone number",
        "mobile",
    ),
    "name_surname_first": (
        "nazwisko i imie",
        "nazwisko imie",
        "surname and first name",
        "surname first name",
        "last name first name",
    ),
    "name": (
        "imie i nazwisko",
        "imie nazwisko",
        "full name",
        "name and surname",
        "first and last name",
        "player name",
        "name",
        "zawodnik",
        "zawodniczka",
        "uczestnik",
        "player",
    ),
    "first_name": ("imie", "imiona", "first name", "firstname", "given name", "forename"),
    "surname": ("nazwisko", "surname", "last name", "lastname", "family name"),
    "guardian": ("opiekun", "opiekuna", "imie i nazwisko opiekuna", "rodzic", "guardian", "parent"),
}
_NAME_FIELDS = frozenset({"name", "name_surname_first", "first_name", "surname"})


class Form(BaseModel):
    """One player's form, as read from one row of the export."""

    model_config = ConfigDict(frozen=True)

    line: int = Field(ge=1)  # the data row (1 = the first row under the header): ``form_line``
    file_line: int = Field(ge=1)  # the file's line the row starts on, for the organiser's editor
    sent_at: datetime | None = None  # aware, UTC; None without a timestamp column
    sent: str = ""  # the timestamp as written
    first_name: str
    surname: str
    sex: Sex
    level: Level
    grade: int | None = None  # primary school 1–8
    school_class: str = ""  # the class as written ("3b")
    school: str = ""
    rating: int | None = None
    medal: bool = False
    birth: str = Field(default="", json_schema_extra=PRIVATE)  # TRF form: "YYYY" or "YYYY/MM/DD"
    email: str = Field(default="", json_schema_extra=PRIVATE)
    phone: str = Field(default="", json_schema_extra=PRIVATE)
    guardian: str = Field(default="", json_schema_extra=PRIVATE)

    @property
    def name(self) -> str:
        """The player as people write them: ``First name Surname``."""
        return f"{self.first_name} {self.surname}"

    @cached_property
    def first_words(self) -> tuple[str, ...]:
        return tuple(fold_name(self.first_name).split())

    @cached_property
    def surname_words(self) -> tuple[str, ...]:
        return tuple(fold_name(self.surname).split())

    @cached_property
    def person_key(self) -> frozenset[str]:
        """The name's words in any order: "Kowalska Zofia" is "zofia KOWALSKA"."""
        return frozenset(self.first_words + self.surname_words)

    @property
    def sent_day(self) -> date | None:
        return self.sent_at.astimezone(ZoneInfo(LOCAL_ZONE)).date() if self.sent_at else None


class FormExport(BaseModel):
    """The forms of one export, in the file's order, and which column was read as what."""

    model_config = ConfigDict(frozen=True)

    source: str
    forms: tuple[Form, ...]
    columns: dict[str, str]  # field → the header of its column
    ignored: tuple[str, ...]  # headers not read


# -- the values people type --------------------------------------------------------------------

_SECONDARY = frozenset(
    {
        "liceum",
        "lo",
        "technikum",
        "ponadpodstawowa",
        "ponadpodstawowej",
        "ponadpodstawowe",
        "ponadpodstawowych",
        "ponadgimnazjalna",
        "srednia",
        "sredniej",
        "srednie",
        "branzowa",
        "branzowej",
        "secondary",
        "high",
    }
)
_PRESCHOOL = frozenset(
    {
        "przedszkole",
        "przedszkola",
        "przedszkolna",
        "przedszkolny",
        "przedszkolak",
        "zerowka",
        "zerowki",
        "zerowa",
        "zero",
        "0",
        "kindergarten",
        "preschool",
        "reception",
    }
)
_ORDINALS = {
    "pierwsza": 1, "druga": 2, "trzecia": 3, "czwarta": 4, "piata": 5, "szosta": 6, "siodma": 7,
    "osma": 8, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8,
}  # fmt: skip
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}
_DIGIT_GRADE = re.compile(r"(?:sp|kl)?(\d{1,2})(?:st|nd|rd|th)?[a-z]?")
_ROMAN_GRADE = re.compile(r"(viii|vii|vi|iv|v|iii|ii|i)[a-h]?")

_SEX: dict[str, Sex] = {
    "m": "m", "mezczyzna": "m", "chlopiec": "m", "chlopcy": "m", "chlopak": "m", "male": "m",
    "man": "m", "boy": "m", "boys": "m", "ch": "m",
    "k": "w", "f": "w", "w": "w", "d": "w", "kobieta": "w", "dziewczyna": "w", "dziewczynka": "w",
    "dziewczeta": "w", "dziewczynki": "w", "female": "w", "woman": "w", "girl": "w", "girls": "w",
}  # fmt: skip
_UNRATED = frozenset({"", "-", "0", "brak", "bk", "nie", "none", "unrated", "no"})
_MEDAL_NO = frozenset({"nie", "no", "bez", "false", "0", "n", "30"})
_MEDAL_YES = frozenset({"tak", "yes", "true", "1", "x", "t", "y", "medal", "medalem", "50"})


#: Class headers that often mean something else ("Grupa": the group's name, "Kategoria
#: szachowa": a chess category): a column named so is read as the class only when no column
#: with a class's own word ("Klasa w roku szkolnym …") holds classes.
WEAK_CLASS_WORDS = frozenset({"grupa", "group", "kategoria"})

#: The share of a weak column's filled cells that must read as a class for it to be the class
#: (a column with a class's own word needs one: its other cells are each named as wrong).
CLASS_SHARE = 0.8


def class_column(header: Sequence[str], rows: Sequence[Row], others: set[int]) -> int | None:
    """The column holding the players' classes: of the columns whose header has a class word
    (and no other field's column, ``others``), one whose filled cells read as classes
    (:func:`parse_level`, :data:`CLASS_SHARE`) — a class's own word before a weak one
    (:data:`WEAK_CLASS_WORDS`), then the header's score. ``None``: no column holds classes."""
    best: tuple[tuple[int, float, float], int] | None = None
    for i, h in enumerate(header):
        words = fold_name(h).split()
        if i in others or not words or CONSENT_WORDS & set(words) or GUARDIAN_WORDS & set(words):
            continue
        scores = [
            (alias not in WEAK_CLASS_WORDS, header_score(words, alias)) for alias in FORM_ALIASES["class"]
        ]
        scores = [sc for sc in scores if sc[1]]
        if not scores:
            continue
        cells = [r.cells[i] for r in rows if i < len(r.cells) and r.cells[i].strip()]
        if not cells:
            continue
        share = sum(parse_level(c) is not None for c in cells) / len(cells)
        strong, score = max(scores)
        if not share or (not strong and share < CLASS_SHARE):
            continue
        key = (int(strong), score, share)
        if best is None or key > best[0]:
            best = (key, i)
    return None if best is None else best[1]


def parse_level(text: str) -> tuple[Level, int | None] | None:
    """The level (and the primary grade) a class cell names, or ``None`` if it names none.

    A secondary school's word wins over a number ("2 LO", "klasa 1 technikum"); "0",
    "zerówka" and "przedszkole" are the preschool group (§H: "przedszkola"); otherwise one
    grade 1–8, as a digit ("3", "3b", "kl. 3"), a Roman numeral ("III b") or a word.
    """
    words = fold_name(text).split()
    if not words:
        return None
    if _SECONDARY & set(words):
        return Level.SECONDARY, None
    if _PRESCHOOL & set(words) or "oddzial przedszkolny" in " ".join(words):
        return Level.PRESCHOOL, None
    grades = set()
    for word in words:
        m = _DIGIT_GRADE.fullmatch(word)
        if m:
            grades.add(int(m.group(1)))
        elif word in _ORDINALS:
            grades.add(_ORDINALS[word])
    if not grades:
        romans = [w for w in words if _ROMAN_GRADE.fullmatch(w)]
        grades = {_ROMAN[_ROMAN_GRADE.fullmatch(w).group(1)] for w in romans}  # type: ignore[union-attr]
    if len(grades) != 1:
        return None
    grade = grades.pop()
    if grade == 0:
        return Level.PRESCHOOL, None
    return (Level.PRIMARY, grade) if 1 <= grade <= 8 else None


def parse_sex(text: str) -> Sex | None:
    words = fold_name(text).split()
    for word in words:
        if word in _SEX:
            return _SEX[word]
    return None


def parse_medal(text: str) -> bool | None:
    """Whether a medal cell says yes ("Tak", "50 zł z medalem") or no ("", "Nie", "30 zł")."""
    words = set(fold_name(text).split())
    if not words:
        return False
    if words & _MEDAL_NO:
        return False
    if words & _MEDAL_YES:
        return True
    return None


def parse_rating(text: str) -> tuple[bool, int | None]:
    """``(readable, rating)``: a number 1–9999, or none ("", "-", "brak", "0")."""
    if fold_name(text) in _UNRATED:
        return True, None
    if text.isascii() and text.isdigit() and 0 < int(text) <= 9999:
        return True, int(text)
    return False, None


_BIRTH_DATE = (
    re.compile(r"(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})"),
    re.compile(r"(?P<d>\d{1,2})[-/.](?P<m>\d{1,2})[-/.](?P<y>\d{4})"),
)


def parse_birth(text: str) -> str | None:
    """TRF's birth field (``YYYY`` or ``YYYY/MM/DD``), ``""`` for none, ``None`` if unreadable."""
    text = text.strip()
    if not text:
        return ""
    if re.fullmatch(r"\d{4}", text):
        return text if 1990 <= int(text) <= 2030 else None
    for pattern in _BIRTH_DATE:
        m = pattern.fullmatch(text.split()[0])
        if m:
            try:
                born = date(int(m["y"]), int(m["m"]), int(m["d"]))
            except ValueError:
                return None
            return born.strftime("%Y/%m/%d") if 1990 <= born.year <= 2030 else None
    return None


def split_name(text: str, surname_first: bool) -> tuple[str, str]:
    """``(first name, surname)`` of a full name: "Kowalska, Zofia" always; otherwise the last
    word is the surname ("Zofia Kowalska"), or the first when the column is surname first."""
    if "," in text:
        surname, _, first = text.partition(",")
        return " ".join(first.split()), " ".join(surname.split())
    words = text.split()
    if len(words) < 2:
        return (" ".join(words), "")
    if surname_first:
        return " ".join(words[1:]), words[0]
    return " ".join(words[:-1]), words[-1]


# -- the file ----------------------------------------------------------------------------------


def read_forms(text: str, source: str, columns: Mapping[str, str] | None = None) -> FormExport:
    """The forms of an export's text (decoded); :class:`ChessFileError` lists every bad cell.

    ``columns`` maps fields to headers by hand (``--column class="Do której klasy…"``).
    Required: the name (one column, or first name and surname), sex and class.
    """
    rows = read_rows(text, source)
    header = list(rows[0].cells)
    cmap, header_problems = map_columns(header, FORM_ALIASES, columns or {}, name_fields=_NAME_FIELDS)
    problems = [FileProblem(rows[0].line, "", p.message) for p in header_problems]
    index = dict(cmap.index)
    if "first_name" in index and "surname" in index:
        index.pop("name", None)
        index.pop("name_surname_first", None)
    elif ("name" in index or "name_surname_first" in index) and not (
        {"first_name", "surname"} & cmap.explicit
    ):
        index.pop("first_name", None)
        index.pop("surname", None)
    if not ({"name", "name_surname_first"} & set(index) or {"first_name", "surname"} <= set(index)):
        problems.append(
            FileProblem(rows[0].line, "", msg("chess.reg.no-name-column", header=" | ".join(header)))
        )
    if "class" not in cmap.explicit:
        others = {i for f, i in index.items() if f != "class"}
        found = class_column(header, rows[1:], others)
        if found is None:
            index.pop("class", None)
        else:
            index["class"] = found
        if "sex" not in index:  # the sex may stand in a group column beside the class: "Klasa 1 chłopcy"
            used = set(index.values())
            weak = [
                i
                for i, h in enumerate(header)
                if i not in used and WEAK_CLASS_WORDS & set(fold_name(h).split())
            ]
            if weak:
                index["group"] = weak[0]
    for field in ("class",):  # the sex may be written in the class cell: "3 dziewczęta"
        if field not in index:
            problems.append(
                FileProblem(
                    rows[0].line, "", msg("chess.reg.no-column", field=field, header=" | ".join(header))
                )
            )
    if problems:
        raise ChessFileError(source, problems)
    cmap = ColumnMap(index=index, header=cmap.header, explicit=cmap.explicit)
    stamps = [
        r.cells[index["timestamp"]]
        for r in rows[1:]
        if "timestamp" in index and index["timestamp"] < len(r.cells)
    ]
    first_day = day_first(stamps)
    forms: list[Form] = []
    for number, row in enumerate(rows[1:], start=1):
        form = _form(row, number, cmap, first_day, problems)
        if form is not None:
            forms.append(form)
    if problems:
        raise ChessFileError(source, problems)
    return FormExport(source=source, forms=tuple(forms), columns=cmap.named(), ignored=cmap.ignored())


def _form(
    row: Row, number: int, cmap: ColumnMap, first_day: bool, problems: list[FileProblem]
) -> Form | None:
    index, header = cmap.index, cmap.header
    before = len(problems)
    if len(row.cells) > len(header) and any(row.cells[len(header) :]):
        problems.append(
            FileProblem(
                row.line, "", msg("chess.reg.too-many-cells", cells=len(row.cells), columns=len(header))
            )
        )
        return None

    def cell(field: str) -> str:
        i = index.get(field)
        return " ".join(row.cells[i].split()) if i is not None and i < len(row.cells) else ""

    def bad(field: str, message: Msg) -> None:
        problems.append(FileProblem(row.line, header[index[field]], message))

    for field in ("name", "name_surname_first", "first_name", "surname", "school", "guardian"):
        if field in index and (
            ch := control_character(row.cells[index[field]] if index[field] < len(row.cells) else "")
        ):
            bad(field, msg("chess.reg.control-character", character=ch))
    if "first_name" in index:
        first, surname = cell("first_name"), cell("surname")
        name_field = "first_name" if not first else "surname"
    else:
        name_field = "name" if "name" in index else "name_surname_first"
        first, surname = split_name(cell(name_field), name_field == "name_surname_first")
    if not first or not surname:
        bad(name_field, msg("chess.reg.no-full-name", text=cell(name_field)))
    sex = parse_sex(cell("sex")) if "sex" in index else parse_sex(cell("class")) or parse_sex(cell("group"))
    if sex is None and "sex" in index:
        bad("sex", msg("chess.reg.bad-sex", text=cell("sex")))
    elif sex is None:
        bad("class", msg("chess.reg.no-sex", text=cell("class")))
    level = parse_level(cell("class"))
    if level is None:
        bad("class", msg("chess.reg.bad-class", text=cell("class")))
    rating_ok, rating = parse_rating(cell("rating"))
    if not rating_ok:
        bad("rating", msg("chess.reg.bad-rating", text=cell("rating")))
    medal = parse_medal(cell("medal")) if "medal" in index else False
    if medal is None:
        bad("medal", msg("chess.reg.bad-medal", text=cell("medal")))
    birth = parse_birth(cell("birth")) if "birth" in index else ""
    if birth is None:
        bad("birth", msg("chess.reg.bad-birth", text=cell("birth")))
    sent_at = None
    if "timestamp" in index:
        if not cell("timestamp"):
            bad("timestamp", msg("chess.reg.no-timestamp"))
        else:
            try:
                sent_at = parse_form_time(cell("timestamp"), LOCAL_ZONE, day_first=first_day)
            except FormTimeError:
                bad("timestamp", msg("chess.reg.bad-timestamp", text=cell("timestamp")))
    if len(problems) > before:
        return None
    assert sex is not None and level is not None and medal is not None and birth is not None
    return Form(
        line=number,
        file_line=row.line,
        sent_at=sent_at,
        sent=cell("timestamp"),
        first_name=first,
        surname=surname,
        sex=sex,
        level=level[0],
        grade=level[1],
        school_class=cell("class"),
        school=cell("school"),
        rating=rating,
        medal=medal,
        birth=birth,
        email=cell("email"),
        phone=cell("phone"),
        guardian=cell("guardian"),
    )


__all__ = [
    "FORM_ALIASES",
    "LOCAL_ZONE",
    "Form",
    "FormExport",
    "parse_birth",
    "parse_level",
    "parse_medal",
    "parse_rating",
    "parse_sex",
    "read_forms",
    "split_name",
]
