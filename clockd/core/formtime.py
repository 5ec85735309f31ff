"""The time a form was sent, as a Google Forms export writes it, read into one instant.

"Obowiązuje kolejność zgłoszeń" (§1.12): the main and reserve lists follow the form's own
timestamp column, not the order of the rows — a sheet sorted by surname gives the same
lists. The column is written in the form owner's locale, and the same form downloaded by
two referees may read differently:

* ``2026/06/06 12:00:03 PM CEST`` or ``… GMT+2`` — the responses' CSV download, English;
* ``06.06.2026 12:00:03`` — the sheet in a Polish locale;
* ``6/6/2026 12:00:03`` — the sheet in the US locale (month first);
* ``2026-06-06 12:00:03`` (ISO), with or without an offset.

A time without a zone is the event's own local time (``Europe/Warsaw``): the form's owner
sits in the same place as the festival. A date with the year last and slashes is read
month first, as the US locale writes it, unless some row of the same file has a first
number over 12 — then the whole file is day first (the UK locale): one reading per file,
never a guess per row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

#: Zone names a form export writes, as offsets from UTC in hours.
ZONE_ABBREVIATIONS = {
    "UTC": 0,
    "GMT": 0,
    "Z": 0,
    "CET": 1,
    "CEST": 2,
    "WET": 0,
    "WEST": 1,
    "EET": 2,
    "EEST": 3,
}

_TIME = r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:[.,]\d+)?)?"
_AMPM = r"(?:\s*(?P<ampm>AM|PM|am|pm|a\.m\.|p\.m\.))?"
_ZONE = r"(?:\s*(?P<zone>[A-Za-z]{1,5}(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{2}:?\d{2}))?"
_FORMS = (
    ("ymd", re.compile(rf"(?P<y>\d{{4}})[/-](?P<a>\d{{1,2}})[/-](?P<b>\d{{1,2}})[ T]+{_TIME}{_AMPM}{_ZONE}")),
    ("dot", re.compile(rf"(?P<a>\d{{1,2}})\.(?P<b>\d{{1,2}})\.(?P<y>\d{{4}})[ ,]+{_TIME}{_AMPM}{_ZONE}")),
    ("slash", re.compile(rf"(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})/(?P<y>\d{{4}})[ ,]+{_TIME}{_AMPM}{_ZONE}")),
)


class FormTimeError(ValueError):
    """A timestamp none of the forms above reads; ``text`` is the cell as written."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _zone(name: str | None, local: tzinfo) -> tzinfo:
    if not name:
        return local
    m = re.fullmatch(r"(?P<abbr>[A-Za-z]*)(?:(?P<sign>[+-])(?P<h>\d{1,2}):?(?P<m>\d{2})?)?", name)
    if m is None:
        raise ValueError(name)
    abbr = m["abbr"].upper()
    if abbr and abbr not in ZONE_ABBREVIATIONS:
        raise ValueError(name)
    hours = ZONE_ABBREVIATIONS.get(abbr, 0) if abbr else 0
    if m["sign"]:
        if abbr not in ("", "UTC", "GMT"):
            raise ValueError(name)  # "CEST+2" means nothing
        offset = int(m["h"]) * 60 + int(m["m"] or 0)
        minutes = offset if m["sign"] == "+" else -offset
        return timezone(timedelta(minutes=minutes))
    return timezone(timedelta(hours=hours))


def _match(text: str) -> tuple[str, re.Match[str]]:
    for form, pattern in _FORMS:
        m = pattern.fullmatch(text.strip())
        if m is not None:
            return form, m
    raise FormTimeError(text)


def day_first(texts: Iterable[str]) -> bool:
    """Whether a file's slashed dates put the day first: some row's first number is over 12."""
    for text in texts:
        try:
            form, m = _match(text)
        except FormTimeError:
            continue
        if form == "slash" and int(m["a"]) > 12:
            return True
    return False


def parse_form_time(text: str, local: tzinfo | str = "Europe/Warsaw", *, day_first: bool = False) -> datetime:
    """The instant a form's timestamp cell names (aware, in UTC); :class:`FormTimeError` if none."""
    zone = ZoneInfo(local) if isinstance(local, str) else local
    form, m = _match(text)
    if form == "ymd":
        month, day = int(m["a"]), int(m["b"])
    elif form == "dot" or day_first:
        day, month = int(m["a"]), int(m["b"])
    else:
        month, day = int(m["a"]), int(m["b"])
    hour = int(m["h"])
    if m["ampm"]:
        if not 1 <= hour <= 12:
            raise FormTimeError(text)
        hour = hour % 12 + (12 if m["ampm"].lower().startswith("p") else 0)
    try:
        tz = _zone(m["zone"], zone)
        naive = datetime(int(m["y"]), month, day, hour, int(m["mi"]), int(m["s"] or 0))
    except ValueError:
        raise FormTimeError(text) from None
    return naive.replace(tzinfo=tz).astimezone(UTC)


__all__ = ["ZONE_ABBREVIATIONS", "FormTimeError", "day_first", "parse_form_time"]
