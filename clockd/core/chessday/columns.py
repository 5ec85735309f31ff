"""Which column of a CSV export holds what: header words, not positions.

A registration form is made by each organiser anew ("Imię i nazwisko zawodnika", "Klasa w
roku szkolnym 2026/2027", "E-mail opiekuna"), and every Polish bank names its statement's
columns its own way ("Data operacji", "Kwota", "Tytuł", "Nadawca" or "Kontrahent"). So a
column is found by the words of its header (folded: lower case, no diacritics, punctuation
as spaces): a field's alias must appear in the header as whole words, and the share of the
header's words the alias covers is the score. "Imię i nazwisko zawodnika" scores ¾ as the
full name and ¼ as the first name, so it is the full name. Each column goes to the field it
fits best; of two columns fitting one field equally well neither is guessed: that is an
error asking for ``--column FIELD=HEADER``, which always wins over the words.

A consent question ("Wyrażam zgodę na przetwarzanie danych: imię, nazwisko…") is never
data; a header naming the guardian ("Imię i nazwisko opiekuna") is never the player's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clockd.core.csvtext import CONSENT_WORDS, GUARDIAN_WORDS, header_score
from clockd.core.people import fold_name
from clockd.i18n import Msg, msg


@dataclass(frozen=True, slots=True)
class HeaderProblem:
    """Something wrong with a file's header (line 1 of the table), as a message."""

    message: Msg


@dataclass(frozen=True, slots=True)
class ColumnMap:
    """The columns a file's header gave each field (field → the column's index)."""

    index: Mapping[str, int]
    header: tuple[str, ...]
    explicit: frozenset[str]  # the fields the organiser mapped by hand (--column)

    def named(self) -> dict[str, str]:
        """Field → the header of its column, in the file's column order."""
        return {f: self.header[i] for f, i in sorted(self.index.items(), key=lambda fi: fi[1])}

    def ignored(self) -> tuple[str, ...]:
        used = set(self.index.values())
        return tuple(h for i, h in enumerate(self.header) if i not in used and h.strip())


def map_columns(
    header: Sequence[str],
    aliases: Mapping[str, Sequence[str]],
    explicit: Mapping[str, str],
    *,
    name_fields: frozenset[str] = frozenset(),
) -> tuple[ColumnMap, list[HeaderProblem]]:
    """Each field's column, from the header's words and the organiser's ``explicit`` mapping.

    ``aliases`` lists the fields in order of precedence (a tie between fields goes to the
    earlier one) and each field's aliases in order (a tie between columns goes to the one
    matching the earlier alias: "Data operacji" before "Data księgowania"). ``name_fields``
    are never read from a guardian's column. Returns the map and what is wrong with it.
    """
    folded = [fold_name(h) for h in header]
    problems: list[HeaderProblem] = []
    index: dict[str, int] = {}
    for field, wanted in explicit.items():
        if field not in aliases:
            problems.append(HeaderProblem(msg("chess.reg.unknown-field", field=field, fields=list(aliases))))
            continue
        where = [i for i, f in enumerate(folded) if f == fold_name(wanted)]
        if not where:
            problems.append(
                HeaderProblem(msg("chess.reg.no-such-column", column=wanted, header=" | ".join(header)))
            )
            continue
        index[field] = where[0]
    taken = set(index.values())
    field_order = {f: n for n, f in enumerate(aliases)}
    best: dict[int, tuple[tuple[float, int, int], str]] = {}
    for i, words in enumerate(f.split() for f in folded):
        if i in taken or not words or CONSENT_WORDS & set(words):
            continue
        guardian = bool(GUARDIAN_WORDS & set(words))
        for field, names in aliases.items():
            if field in index or (guardian and field in name_fields):
                continue
            for n, alias in enumerate(names):
                score = header_score(words, alias)
                if score:
                    key = (score, -n, -field_order[field])
                    if i not in best or key > best[i][0]:
                        best[i] = (key, field)
    by_field: dict[str, list[tuple[tuple[float, int], int]]] = {}
    for i, (key, field) in best.items():
        by_field.setdefault(field, []).append(((key[0], key[1]), i))
    for field, found in by_field.items():
        found.sort(key=lambda ki: (ki[0][0], ki[0][1], -ki[1]), reverse=True)
        if len(found) > 1 and found[0][0] == found[1][0]:
            first, second = header[found[0][1]], header[found[1][1]]
            problems.append(
                HeaderProblem(msg("chess.reg.columns-alike", field=field, first=first, second=second))
            )
            continue
        index[field] = found[0][1]
    return ColumnMap(index=index, header=tuple(header), explicit=frozenset(explicit)), problems


def parse_column_options(options: Sequence[str]) -> dict[str, str]:
    """``["name=Imię i nazwisko zawodnika", …]`` → ``{"name": "Imię i nazwisko zawodnika"}``.

    Raises :class:`ValueError` with the option that has no ``=``.
    """
    out: dict[str, str] = {}
    for option in options:
        field, sep, header = option.partition("=")
        if not sep or not field.strip() or not header.strip():
            raise ValueError(option)
        out[field.strip().lower().replace("-", "_")] = header.strip()
    return out


__all__ = [
    "CONSENT_WORDS",
    "GUARDIAN_WORDS",
    "ColumnMap",
    "HeaderProblem",
    "header_score",
    "map_columns",
    "parse_column_options",
]
