"""Reading the CSV files people export: which separator a file uses.

A sign-up form exports ``,``; a spreadsheet in a Polish locale saves ``;``; some tools write
tabs. Sign-ups (:mod:`clockd.core.registration`) and chess start lists
(:mod:`clockd.core.swiss.startlist`) read all three.
"""

from __future__ import annotations

import csv
import io


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
