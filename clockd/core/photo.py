"""The photo contest "Puzzlowe Love" (000 §7, RULES.md §G): the entry form's export, checked.

Each row of the form's CSV export is one photo (§7.1.6: one entry each). An entry is
accepted or refused by the rules, each refusal with its code and reason:

* sent inside the window, 19.06.2026 14:00 – 30.06.2026 23:59 Warsaw time (§7.1.2, §7.2.1):
  the form's own timestamp, in its own format and zone (:mod:`clockd.core.formtime`); the
  last minute counts to its end, so 23:59:59 is in and 01.07 00:00:00 is out;
* the photographer 18 or older when the entry was sent, and a Polish citizen (§7.1.5): the
  age column, or the birth date against the day it was sent;
* at most three photos a person (§7.1.6), in the order they were sent: the fourth is refused
  (a person is their e-mail, or their name without one);
* the photo taken at the festival, 19–21.06.2026 (§7.1.9): the date it was taken, or the
  form's declaration;
* people posing in it: their written consents attached (§7.1.8) — an entry that says so
  with no attachment is refused;
* the declarations: own work (§7.1.7), no generative AI (§7.1.12), the exhibition licence
  (§7.1.13), the rules where the form asks; the photo itself (an incomplete entry, §7.2.2).

The columns are found by the words of their headers, Polish or English; a rule whose
column the form does not have is not checked, and :attr:`PhotoImport.unchecked` says so.
A cell that cannot be read (a date, an age) is an error naming its row and column, and
nothing is accepted until the file is fixed. Accepted entries are numbered in the order
they were sent: the jury sees the numbers only (§7.2.3).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

from clockd.core.csvtext import csv_error, sniff_delimiter
from clockd.core.formtime import FormTimeError, day_first, parse_form_time
from clockd.core.people import fold_name
from clockd.i18n import Msg, Problem, msg

WARSAW = ZoneInfo("Europe/Warsaw")
#: The window (§7.1.2): from the opening instant, up to (not including) the minute after 23:59.
OPENS = datetime(2026, 6, 19, 14, 0, tzinfo=WARSAW)
CLOSES = datetime(2026, 7, 1, 0, 0, tzinfo=WARSAW)
#: The festival's days (§7.1.9): photos taken on them only.
FESTIVAL = (date(2026, 6, 19), date(2026, 6, 21))
MAX_PHOTOS = 3
MIN_AGE = 18

Role = Literal[
    "timestamp",
    "posing",
    "attachment",
    "birth",
    "taken",
    "at_festival",
    "no_ai",
    "own_work",
    "licence",
    "rules",
    "processing",
    "citizenship",
    "adult",
    "age",
    "email",
    "full_name",
    "first_name",
    "last_name",
    "title",
    "photo",
]


class PhotoFileError(Problem):
    """An entry file that cannot be read: every bad cell, each with its row and column."""

    def __init__(self, source: str, problems: list[Msg]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("photo.bad-file", source=source, n=len(problems), problems=problems)


class Accepted(BaseModel):
    model_config = ConfigDict(frozen=True)

    line: int  # 1: the first data row
    entry: int


class Refused(BaseModel):
    model_config = ConfigDict(frozen=True)

    line: int
    code: str
    reason: Msg


class PhotoImport(BaseModel):
    """Every entry of the file, accepted (with its number) or refused (with its reason)."""

    model_config = ConfigDict(frozen=True)

    source: str
    accepted: tuple[Accepted, ...]
    refused: tuple[Refused, ...]
    columns: dict[str, str]  # role → the file's header
    unchecked: tuple[str, ...] = ()  # the rules the form has no column for

    def json_data(self, render: Callable[[Msg], str]) -> dict[str, object]:
        """The shape of ``duelclock photo import --json``."""
        return {
            "accepted": [{"line": a.line, "entry": a.entry} for a in self.accepted],
            "refused": [{"line": r.line, "code": r.code, "reason": render(r.reason)} for r in self.refused],
        }


def _has(words: list[str], text: str, *stems: str) -> bool:
    return any((" " in s and s in text) or any(w.startswith(s) for w in words) for s in stems)


def column_role(header: str) -> Role | None:
    """What a column of the entry form holds, from its header's words; ``None``: nothing checked."""
    words = fold_name(header).split()
    text = " ".join(words)
    if not words:
        return None
    if _has(words, text, "sygnatura czasowa", "timestamp", "submitted", "submission"):
        return "timestamp"
    sent = _has(words, text, "zgloszeni", "wyslani", "nadeslani", "przeslani")
    if sent and _has(words, text, "data", "czas", "godzin", "kiedy", "date", "time"):
        return "timestamp"
    attach = _has(words, text, "zalacz", "attach", "upload", "skan", "scan", "plik", "file", "pdf", "link")
    if attach and _has(words, text, "zgod", "consent", "wizerun", "release", "pozuj", "posing"):
        return "attachment"
    people = _has(words, text, "osob", "people", "person", "ludzi") and _has(
        words, text, "zdjeci", "photo", "kadr"
    )
    if _has(words, text, "pozuj", "posing", "posed", "model release") or people:
        return "posing"  # or its attachment: told apart by the cells (:func:`_posing_columns`)
    if _has(words, text, "urodz", "birth"):
        return "birth"
    taken = _has(words, text, "wykonan", "zrobion", "zrobien", "taken")
    if taken and _has(words, text, "data", "date", "kiedy", "when", "dzien", "day"):
        return "taken"
    if taken and _has(words, text, "pyrkon", "festiwal", "festival", "strefie", "zone"):
        return "at_festival"
    if "ai" in words or _has(words, text, "sztuczn", "generatyw", "generative", "artificial"):
        return "no_ai"
    if _has(words, text, "wlasn", "autorsk", "own work", "copyright", "my own"):
        return "own_work"
    if _has(words, text, "prezentacj", "wystaw", "licencj", "licen", "exhibition", "nieodplatn"):
        return "licence"
    if _has(words, text, "regulamin", "terms", "rules"):
        return "rules"
    if _has(
        words, text, "przetwarzan", "dane osobowe", "danych osobowych", "rodo", "personal data", "processing"
    ):
        return "processing"
    if _has(words, text, "obywatel", "citizenship", "nationality", "narodowosc"):
        return "citizenship"
    adult = "18" in words and _has(words, text, "ukonczon", "skonczon", "lat", "years", "older", "over")
    if adult or _has(words, text, "pelnoletn", "adult"):
        return "adult"
    if _has(words, text, "wiek", "ile masz lat", "age"):
        return "age"
    if _has(words, text, "e mail", "email", "mail"):
        return "email"
    if _has(
        words, text, "imie i nazwisko", "imie nazwisko", "full name", "name and surname", "autor", "author"
    ):
        return "full_name"
    if _has(words, text, "nazwisko", "last name", "surname", "family name"):
        return "last_name"
    if _has(words, text, "imie", "first name", "given name"):
        return "first_name"
    if _has(words, text, "tytul", "title", "opis", "description"):
        return "title"
    if _has(words, text, "zdjeci", "fotograf", "plik", "photo", "file", "link", "upload", "picture"):
        return "photo"
    return None


#: Answers that mean no; and the ones that say yes in so many words.
_NO = ("nie", "no", "n", "false", "0", "brak", "none", "not")
_YES = ("tak", "yes", "y", "t", "x", "true", "1", "oswiadczam", "potwierdzam", "posiadam", "jestem", "mam")


def is_yes(cell: str) -> bool:
    """A declaration ticked or a question answered yes: "Tak", or the ticked option's own text
    ("Oświadczam, że …", as a form's export writes a checkbox); empty or "Nie" is no."""
    words = fold_name(cell).split()
    return bool(words) and words[0] not in _NO


def is_polish(cell: str) -> bool:
    """A citizenship answer that says Polish ("polskie", "Polska", "PL", "Tak" to the question)."""
    words = fold_name(cell).split()
    if not words or words[0] in _NO:
        return False
    return (
        words[0] in _YES or words == ["pl"] or any(w.startswith(("polsk", "polish", "poland")) for w in words)
    )


def _is_yes_no(cell: str) -> bool:
    words = fold_name(cell).split()
    return not words or words[0] in ("tak", "nie", "yes", "no", "y", "n", "t", "true", "false", "0", "1")


def _ai_asked_as_question(header: str) -> bool:
    """ "Czy użyto AI?" (yes is bad) rather than "Oświadczam, że nie użyłem AI" (yes is good)."""
    words = fold_name(header).split()
    negated = any(w in ("nie", "not", "no", "bez", "without", "never") for w in words)
    asked = "?" in header or any(w in ("czy", "did", "was", "were", "have") for w in words[:2])
    return asked and not negated


def _parse_date(text: str) -> date:
    """A calendar date as forms write it: 20.06.2026, 2026-06-20, 2026/06/20, 6/20/2026, 20/06/2026."""
    t = text.strip()
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?", t)
    if m:
        return date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ ,].*)?", t)
    if m:
        return date(int(m[3]), int(m[2]), int(m[1]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})(?:[ ,].*)?", t)
    if m:
        a, b = int(m[1]), int(m[2])
        month, day = (b, a) if a > 12 else (a, b)
        return date(int(m[3]), month, day)
    raise ValueError(text)


def _age_on(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _posing_columns(header: list[str], rows: list[list[str]], indices: list[int]) -> dict[int, Role]:
    """The posing question (its cells yes or no) and the consents' attachment (links, names)."""
    out: dict[int, Role] = {}
    for i in indices:
        cells = [r[i] for r in rows if i < len(r) and r[i].strip()]
        words = fold_name(header[i]).split()
        attachy = any(
            w.startswith(s) for w in words for s in ("zalacz", "attach", "upload", "plik", "file", "skan")
        )
        if cells and all(_is_yes_no(c) for c in cells):
            out[i] = "posing"
        elif cells or attachy:
            out[i] = "attachment"
        else:
            out[i] = "posing"
    if len(out) > 1 and "attachment" not in out.values():  # two questions alike: the later is the attachment
        out[max(out)] = "attachment"
    return out


#: What each checked rule needs, for :attr:`PhotoImport.unchecked`.
RULE_COLUMNS: tuple[tuple[str, tuple[Role, ...]], ...] = (
    ("age", ("age", "birth", "adult")),
    ("citizenship", ("citizenship",)),
    ("festival", ("taken", "at_festival")),
    ("posing", ("posing",)),
    ("own-work", ("own_work",)),
    ("no-ai", ("no_ai",)),
    ("licence", ("licence",)),
    ("photo", ("photo",)),
)


def read_entries(text: str, *, source: str = "entries.csv") -> PhotoImport:
    """Check every entry of the form's export (see the module docstring); :class:`PhotoFileError`
    lists every cell that cannot be read, and then nothing is accepted."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise PhotoFileError(source, [msg("photo.empty", source=source)])
    reader = csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text))
    try:
        header = next(reader)
        rows = [r for r in reader]
    except csv.Error as exc:
        raise PhotoFileError(
            source, [msg("photo.csv-error", source=source, line=reader.line_num, problem=csv_error(exc))]
        ) from None
    data = [(n, r) for n, r in enumerate(rows, start=1) if any(c.strip() for c in r)]
    roles: dict[int, Role] = {}
    posing: list[int] = []
    for i, col in enumerate(header):
        role = column_role(col)
        if role == "posing":
            posing.append(i)
        elif role is not None and role not in roles.values():
            roles[i] = role
    roles.update(_posing_columns(header, [r for _, r in data], posing))
    by_role = {role: i for i, role in sorted(roles.items(), reverse=True)}  # the first column of a role wins
    problems: list[Msg] = []
    if "timestamp" not in by_role:
        problems.append(msg("photo.no-column", source=source, column=msg("photo.column.timestamp")))
    if not {"email", "full_name", "first_name"} & by_role.keys():
        problems.append(msg("photo.no-column", source=source, column=msg("photo.column.person")))
    if problems:
        raise PhotoFileError(source, problems)

    def cell(row: list[str], role: Role) -> str:
        i = by_role.get(role)
        return row[i].strip() if i is not None and i < len(row) else ""

    def bad(line: int, role: Role, what: Msg) -> None:
        problems.append(
            msg("photo.bad-cell", source=source, line=line, column=header[by_role[role]], problem=what)
        )

    first = day_first(cell(r, "timestamp") for _, r in data)
    sent: dict[int, datetime] = {}
    births: dict[int, date] = {}
    taken: dict[int, date] = {}
    ages: dict[int, int] = {}
    for line, row in data:
        stamp = cell(row, "timestamp")
        try:
            sent[line] = parse_form_time(stamp, WARSAW, day_first=first)
        except FormTimeError:
            bad(line, "timestamp", msg("photo.bad-time", text=stamp) if stamp else msg("photo.no-time"))
        if "birth" in by_role and cell(row, "birth"):
            try:
                births[line] = _parse_date(cell(row, "birth"))
            except ValueError:
                bad(line, "birth", msg("photo.bad-date", text=cell(row, "birth")))
        if "age" in by_role and cell(row, "age"):
            m = re.fullmatch(r"(\d{1,3})\s*(lat|lata|rok|years?|y)?\.?", cell(row, "age").lower())
            if m is None:
                bad(line, "age", msg("photo.bad-age", text=cell(row, "age")))
            else:
                ages[line] = int(m[1])
        if "taken" in by_role and cell(row, "taken"):
            try:
                taken[line] = _parse_date(cell(row, "taken"))
            except ValueError:
                bad(line, "taken", msg("photo.bad-date", text=cell(row, "taken")))
    if problems:
        raise PhotoFileError(source, problems)

    ai_question = "no_ai" in by_role and _ai_asked_as_question(header[by_role["no_ai"]])
    accepted: list[Accepted] = []
    refused: list[Refused] = []
    per_person: dict[str, int] = {}
    for line, row in sorted(data, key=lambda lr: (sent[lr[0]], lr[0])):
        why = _refusal(
            row,
            cell,
            by_role,
            at=sent[line],
            birth=births.get(line),
            age=ages.get(line),
            taken=taken.get(line),
            ai_question=ai_question,
        )
        if why is not None:
            refused.append(Refused(line=line, code=why.code, reason=why))
            continue
        email = cell(row, "email").lower()
        name = cell(row, "full_name") or f"{cell(row, 'first_name')} {cell(row, 'last_name')}"
        who = f"e:{email}" if email else f"n:{fold_name(name)}"
        if per_person.get(who, 0) >= MAX_PHOTOS:
            reason = msg("photo.fourth", most=MAX_PHOTOS)
            refused.append(Refused(line=line, code=reason.code, reason=reason))
            continue
        per_person[who] = per_person.get(who, 0) + 1
        accepted.append(Accepted(line=line, entry=len(accepted) + 1))
    unchecked = tuple(rule for rule, needs in RULE_COLUMNS if not set(needs) & by_role.keys())
    return PhotoImport(
        source=source,
        accepted=tuple(sorted(accepted, key=lambda a: a.line)),
        refused=tuple(sorted(refused, key=lambda r: r.line)),
        columns={role: header[i] for role, i in by_role.items()},
        unchecked=unchecked,
    )


def _refusal(
    row: list[str],
    cell: Callable[[list[str], Role], str],
    by_role: dict[Role, int],
    *,
    at: datetime,
    birth: date | None,
    age: int | None,
    taken: date | None,
    ai_question: bool,
) -> Msg | None:
    """Why the rules refuse this entry (the first reason), or ``None``."""
    local = at.astimezone(WARSAW)
    if at < OPENS:
        return msg("photo.before-window", sent=local.strftime("%d.%m.%Y %H:%M:%S"))
    if at >= CLOSES:
        return msg("photo.after-window", sent=local.strftime("%d.%m.%Y %H:%M:%S"))
    if birth is not None:
        if _age_on(birth, local.date()) < MIN_AGE:
            return msg("photo.under-age", min_age=MIN_AGE)
    elif age is not None and age < MIN_AGE:
        return msg("photo.under-age", min_age=MIN_AGE)
    elif {"age", "birth"} & by_role.keys():
        return msg("photo.no-age")
    elif "adult" in by_role and not is_yes(cell(row, "adult")):
        return msg("photo.under-age", min_age=MIN_AGE)
    if "citizenship" in by_role and not is_polish(cell(row, "citizenship")):
        return msg("photo.not-polish")
    if "photo" in by_role and not cell(row, "photo"):
        return msg("photo.no-photo")
    if taken is not None:
        if not FESTIVAL[0] <= taken <= FESTIVAL[1]:
            return msg("photo.not-at-festival", taken=taken.strftime("%d.%m.%Y"))
    elif "taken" in by_role:
        return msg("photo.no-taken")
    elif "at_festival" in by_role and not is_yes(cell(row, "at_festival")):
        return msg("photo.not-at-festival-declared")
    if "posing" in by_role and is_yes(cell(row, "posing")) and not cell(row, "attachment"):
        return msg("photo.no-posing-consents")
    if "own_work" in by_role and not is_yes(cell(row, "own_work")):
        return msg("photo.not-own-work")
    if "no_ai" in by_role:
        said = is_yes(cell(row, "no_ai"))
        if said == ai_question:  # a question answered yes, or a declaration not made
            return msg("photo.generative-ai")
    if "licence" in by_role and not is_yes(cell(row, "licence")):
        return msg("photo.no-licence")
    if "rules" in by_role and not is_yes(cell(row, "rules")):
        return msg("photo.rules-not-accepted")
    if "processing" in by_role and not is_yes(cell(row, "processing")):
        return msg("photo.no-consent")
    return None


# -- the jury (§7.2.3–7.2.7) ------------------------------------------------------------------


class JuryResult(BaseModel):
    """The totals of the jurors' scores; the winner and the one distinction (§7.2.4, §7.2.7).

    ``tied``: entries level on a place that decides (first or second): the jury settles it in
    its deliberations (§7.2.4), the software does not pick one.
    """

    model_config = ConfigDict(frozen=True)

    totals: dict[int, float]
    winner: int | None
    distinction: int | None
    tied: tuple[int, ...] = ()


def read_scores(
    text: str, *, jurors: list[str], entries: list[int], source: str
) -> dict[int, dict[str, float]]:
    """The jurors' scores: a CSV with an ``entry`` column (the number) and one per juror.

    Raises :class:`PhotoFileError` naming each bad cell (row, column): a juror's column
    missing, a score that is not a number, an entry that is not an accepted one.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise PhotoFileError(source, [msg("photo.empty", source=source)])
    rows = list(csv.reader(io.StringIO(text), delimiter=sniff_delimiter(text)))
    header = [h.strip() for h in rows[0]]
    problems: list[Msg] = []
    folded = [fold_name(h) for h in header]
    entry_col = next(
        (i for i, h in enumerate(folded) if h in ("entry", "zgloszenie", "nr", "numer", "number")), None
    )
    if entry_col is None:
        problems.append(msg("photo.no-column", source=source, column=msg("photo.column.entry")))
    cols = {}
    for juror in jurors:
        if fold_name(juror) in folded:
            cols[juror] = folded.index(fold_name(juror))
        else:
            problems.append(msg("photo.no-column", source=source, column=juror))
    if problems:
        raise PhotoFileError(source, problems)
    assert entry_col is not None
    out: dict[int, dict[str, float]] = {}
    for line, row in enumerate(rows[1:], start=1):
        if not any(c.strip() for c in row):
            continue
        raw = row[entry_col].strip() if entry_col < len(row) else ""
        if not raw.isdigit() or int(raw) not in entries:
            problems.append(
                msg(
                    "photo.bad-cell",
                    source=source,
                    line=line,
                    column=header[entry_col],
                    problem=msg("photo.not-an-entry", text=raw),
                )
            )
            continue
        scores: dict[str, float] = {}
        for juror, i in cols.items():
            cell = row[i].strip().replace(",", ".") if i < len(row) else ""
            try:
                scores[juror] = float(cell)
            except ValueError:
                problems.append(
                    msg(
                        "photo.bad-cell",
                        source=source,
                        line=line,
                        column=header[i],
                        problem=msg("photo.not-a-score", text=cell),
                    )
                )
        out[int(raw)] = scores
    if problems:
        raise PhotoFileError(source, problems)
    return out


def jury_result(scores: dict[int, dict[str, float]]) -> JuryResult:
    """The totals; the best is the winner, the next the distinction — unless level (``tied``)."""
    totals = {entry: round(sum(s.values()), 2) for entry, s in scores.items()}
    ranked = sorted(totals, key=lambda e: (-totals[e], e))
    tied: set[int] = set()
    for place in (0, 1):
        if place < len(ranked):
            level = [e for e in ranked if totals[e] == totals[ranked[place]]]
            if len(level) > 1:
                tied.update(level)
    winner = ranked[0] if ranked and ranked[0] not in tied else None
    distinction = ranked[1] if len(ranked) > 1 and ranked[1] not in tied else None
    return JuryResult(totals=totals, winner=winner, distinction=distinction, tied=tuple(sorted(tied)))


__all__ = [
    "CLOSES",
    "FESTIVAL",
    "MAX_PHOTOS",
    "MIN_AGE",
    "OPENS",
    "RULE_COLUMNS",
    "Accepted",
    "JuryResult",
    "PhotoFileError",
    "PhotoImport",
    "Refused",
    "column_role",
    "is_polish",
    "is_yes",
    "jury_result",
    "read_entries",
    "read_scores",
]
