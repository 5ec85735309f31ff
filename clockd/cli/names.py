"""A person named at the desk as they are said: a number, or the start of a name.

A referee hears "Nowak" or "Jan N." at the table, not a start number; every command that takes
a player takes either. One rule for every kind: the number as it is; else the one person each
of whose typed words begins a different word of their shown name, in any order, case and
diacritics aside ("jan nowak", "Nowak J" and "nowak" all find "Nowak Jan"); several: say who, and
ask for the number.
"""

from __future__ import annotations

from collections.abc import Iterable

from clockd.core.people import fold_name
from clockd.i18n import Problem


def _fits(words: list[str], name: str) -> bool:
    left = fold_name(name).split()
    for word in words:
        match = next((w for w in left if w.startswith(word)), None)
        if match is None:
            return False
        left.remove(match)
    return True


def pick(given: str, people: Iterable[tuple[int, str]]) -> int:
    """The number of the one person ``given`` names among ``people`` (number, shown name);
    :class:`Problem` naming the candidates when none or several fit."""
    text = given.strip()
    if text.isdigit():
        return int(text)
    words = fold_name(text).split()
    known = list(people)
    found = [(n, name) for n, name in known if words and _fits(words, name)]
    exact = [(n, name) for n, name in found if sorted(fold_name(name).split()) == sorted(words)]
    found = exact if len(exact) == 1 else found
    if len(found) == 1:
        return found[0][0]
    if not found:
        raise Problem("cli.no-person-named", name=given)
    raise Problem("cli.several-named", name=given, people=[f"{name} ({n})" for n, name in found])


__all__ = ["pick"]
