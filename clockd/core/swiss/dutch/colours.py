"""Who gets White: C.04.3 article 5 (colour allocation), as the reference engine applies it."""

from __future__ import annotations

from clockd.core.swiss.dutch.state import NO_COLOUR, WHITE, PlayerState, invert

__all__ = ["colour_of_first"]


def _ranks_below(a: PlayerState, b: PlayerState) -> bool:
    """``a`` comes after ``b`` in the pairing order (lower score, or equal score and a larger
    pairing number)."""
    return (a.score, b.rank) < (b.score, a.rank)


def _first_difference(a: PlayerState, b: PlayerState) -> tuple[int, int]:
    """The two players' colours in the latest round (counting played games backwards) in
    which they differed, or NO_COLOUR when they never did."""
    i, j = len(a.colours) - 1, len(b.colours) - 1
    while i >= 0 and j >= 0 and a.colours[i] == b.colours[j]:
        i -= 1
        j -= 1
    return (a.colours[i] if i >= 0 else NO_COLOUR), (b.colours[j] if j >= 0 else NO_COLOUR)


def _neutral(p: PlayerState, o: PlayerState) -> int:
    pp, op = p.preference, o.preference
    if pp != op or pp == NO_COLOUR or op == NO_COLOUR:
        if pp != NO_COLOUR:
            return pp
        if op != NO_COLOUR:
            return invert(op)
        return NO_COLOUR
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return pp
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return invert(op)
    if p.strong and not o.strong:
        return pp
    if o.strong and not p.strong:
        return invert(op)
    pc, oc = _first_difference(p, o)
    if pc != NO_COLOUR and oc != NO_COLOUR:
        return oc
    return NO_COLOUR


def colour_of_first(p: PlayerState, o: PlayerState, initial_colour: int) -> int:
    """The colour of ``p`` (the one with the smaller start number) against ``o``.

    Both preferences are met when they can be; otherwise the stronger preference wins,
    then the one who had the colour alternation broken most recently gets it back, then
    the higher-ranked player gets their preference; with no preference at all, the
    initial colour alternates down the pairing numbers.
    """
    c = _neutral(p, o)
    if c != NO_COLOUR:
        return c
    if p.preference == NO_COLOUR:
        if _ranks_below(p, o):
            return initial_colour if o.rank & 1 else invert(initial_colour)
        return invert(initial_colour) if p.rank & 1 else initial_colour
    if _ranks_below(p, o):
        return invert(o.preference)
    return p.preference


assert WHITE == 0
