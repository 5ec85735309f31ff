"""The CSV files people exchange with spreadsheets: reading their separator, writing safe cells.

A sign-up form exports ``,``; a spreadsheet in a Polish locale saves ``;``; some tools write
tabs. Sign-ups (:mod:`clockd.core.registration`) and chess start lists
(:mod:`clockd.core.swiss.startlist`) read all three.

People's text is checked before it goes anywhere: a control character in a name (a NUL, a
tab, a line break) would end up inside a TRF line, a printed page or a CSV cell
(:func:`control_character`); a file that is too big, or a cell the ``csv`` module refuses
(longer than :data:`MAX_CELL_CHARS`), is a sentence naming its line, not a traceback.

The CSV files duelclock writes (results, standings) are opened in spreadsheets, which run a
cell that starts like a formula: a player who signs up as ``=HYPERLINK("http://…","click")``
or ``+cmd|' /C calc'!A0`` would have it executed on the organiser's computer. Every cell of
those files goes through :func:`spreadsheet_cell` (OWASP, "CSV Injection").
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata

from clockd.i18n import Msg, msg

#: The largest CSV file the commands read (a school tournament's 1000 players take ~100 kB).
MAX_CSV_BYTES = 32_000_000
#: The longest cell the ``csv`` module reads (its ``field_size_limit``); no name is near it.
MAX_CELL_CHARS = csv.field_size_limit()

#: Words of consent and declaration questions, whose text often names the data fields
#: ("Zgoda na przetwarzanie danych: imię, nazwisko, wiek …"): such a column of a form's
#: export is never data (sign-ups, the chess day's forms and bank statements read it so).
CONSENT_WORDS = frozenset(
    {
        "zgoda",
        "zgadzam",
        "wyrazam",
        "akceptuje",
        "oswiadczam",
        "regulamin",
        "rodo",
        "consent",
        "agree",
        "accept",
        "terms",
    }
)

#: Words that make a header the guardian's, not the player's ("Imię i nazwisko opiekuna").
GUARDIAN_WORDS = frozenset(
    {"opiekun", "opiekuna", "opiekunow", "rodzic", "rodzica", "rodzicow", "guardian", "parent", "parents"}
)


def header_score(words: list[str], alias: str) -> float:
    """The share of a header's words (folded) that ``alias`` covers as whole words (0: none):
    "Imię i nazwisko zawodnika" scores ¾ as the full name, ¼ as the first name."""
    if f" {alias} " in f" {' '.join(words)} ":
        return len(alias.split()) / len(words)
    return 0.0


#: The characters a spreadsheet may read as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A cell that is a plain decimal number: a spreadsheet reads it as a number, never a formula.
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def csv_error(exc: csv.Error) -> Msg:
    """What the ``csv`` module's complaint means for a person (the caller names the line)."""
    text = str(exc)
    if "field larger than field limit" in text:
        return msg("csv.cell-too-long", limit=MAX_CELL_CHARS)
    return msg("csv.unreadable-row", problem=text)


def control_character(text: str) -> str | None:
    """The first control character in ``text`` (``"U+0000"``), or ``None`` when there is none.

    A NUL, a tab, a carriage return or a line break inside a name is never meant: it breaks a
    TRF line, shows as garbage on a page, and splits a CSV row.
    """
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            return f"U+{ord(ch):04X}"
    return None


def spreadsheet_cell(value: object) -> str:
    """``value`` as a CSV cell a spreadsheet shows as text and never runs.

    A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
    apostrophe (``'=HYPERLINK(…)``), which spreadsheets take as "this is text", as OWASP
    recommends. A plain decimal number (``-250``, ``3.5``: an optional minus, digits, an
    optional fraction) is left as it is, so the numbers a file documents as numbers — a
    negative remaining time, say — stay numbers; a spreadsheet reads them as numbers anyway.
    ``None`` is the empty cell.
    """
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def sniff_delimiter(text: str) -> str:
    """The separator (``,`` ``;`` or tab) that splits the first rows into as many cells as the header.

    A header may hold either character inside a long consent question, so counting characters
    in the header alone misleads; the rows that agree with the header's width decide.
    """
    sample = "\n".join(line for line in text.splitlines()[:20] if len(line) < MAX_CELL_CHARS)
    best, best_key = ",", (-1, -1)
    for delim in (",", ";", "\t"):
        try:
            rows = [r for r in csv.reader(io.StringIO(sample), delimiter=delim) if any(c.strip() for c in r)]
        except csv.Error:  # a cell too long for this reading: the reader says where, later
            continue
        if not rows:
            continue
        width = len(rows[0])
        key = (sum(len(r) == width for r in rows) if width > 1 else 0, width)
        if key > best_key:
            best, best_key = delim, key
    return best
