"""The CSV files people exchange with spreadsheets: reading their separator, writing safe cells.

A sign-up form exports ``,``; a spreadsheet in a Polish locale saves ``;``; some tools write
tabs. Sign-ups (:mod:`clockd.core.registration`) and chess start lists
(:mod:`clockd.core.swiss.startlist`) read all three.

The CSV files duelclock writes (results, standings) are opened in spreadsheets, which run a
cell that starts like a formula: a player who signs up as ``=HYPERLINK("http://…","click")``
or ``+cmd|' /C calc'!A0`` would have it executed on the organiser's computer. Every cell of
those files goes through :func:`spreadsheet_cell` (OWASP, "CSV Injection").
"""

from __future__ import annotations

import csv
import io
import re

#: The characters a spreadsheet may read as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A cell that is a plain decimal number: a spreadsheet reads it as a number, never a formula.
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


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
    sample = "\n".join(text.splitlines()[:20])
    best, best_key = ",", (-1, -1)
    for delim in (",", ";", "\t"):
        rows = [r for r in csv.reader(io.StringIO(sample), delimiter=delim) if any(c.strip() for c in r)]
        if not rows:
            continue
        width = len(rows[0])
        key = (sum(len(r) == width for r in rows) if width > 1 else 0, width)
        if key > best_key:
            best, best_key = delim, key
    return best
