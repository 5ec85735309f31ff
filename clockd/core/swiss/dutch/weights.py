"""The quality of a pair as one integer: FIDE C.04.3's criteria, most important first.

Every criterion is a bit field; a matching's total weight compares the criteria in the
rules' order because each field is wide enough that the sums of the fields below it never
reach it. The layout (and the widths) are those of the reference engine, bbpPairings, so
that "equally good" means the same thing in both:

====================  ==========================================================
field                 meaning (maximised)
====================  ==========================================================
completion            1 + (players who may not get the bye, among the two): every
                      player paired, the bye only to someone allowed it (C.04.3 C4)
pairs here            pairs whose lower player is in the bracket being paired (C6)
scores here           the same pairs, weighted by the higher player's score (C7)
pairs next            pairs whose lower player is in the next score group (C8)
scores next           likewise weighted by score
bye                   the bye goes to the player with the most games played (C9)
colours (4 fields)    absolute colour imbalance, absolute preference (no colour 3×
                      in a row), colour preferences, strong preferences (C10–C13)
floats (4–8 fields)   no repeated down/up floats from the last two rounds, by count
                      and then by score (C14–C21)
====================  ==========================================================

Below these the engine adds its own tie-break bits (see :mod:`.engine`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from clockd.core.swiss.dutch.state import NO_COLOUR, Float, PlayerState, invert

__all__ = ["Weights", "compatible"]


def compatible(a: PlayerState, b: PlayerState, last_rounds: bool, threshold: int) -> bool:
    """C.04.3 C1–C3: not met before over the board, and not two players who must both have
    the same colour (except topscorers in the last round)."""
    if b.start_number in a.opponents or b.start_number in a.forbidden:
        return False
    if not a.absolute or not b.absolute or a.preference != b.preference:
        return True
    return last_rounds and (a.score > threshold or b.score > threshold)


def colour_fields(lower: PlayerState, higher: PlayerState) -> tuple[bool, bool, bool, bool]:
    """The four colour criteria for a pair (True = satisfied)."""
    p, o = lower, higher
    same = p.preference == o.preference
    c1 = not p.absolute_imbalance or not o.absolute_imbalance or not same
    if p.imbalance == o.imbalance:
        rep_ok = p.repeated == NO_COLOUR or p.repeated != o.repeated
    else:
        rep_ok = (o if p.imbalance > o.imbalance else p).repeated != invert(p.preference)
    c2 = not p.absolute or not o.absolute or not same or rep_ok
    c3 = not same or p.preference == NO_COLOUR or o.preference == NO_COLOUR
    c4 = (
        (not p.strong and not p.absolute)
        or (not o.strong and not o.absolute)
        or (p.absolute and o.absolute)
        or not same
    )
    return c1, c2, c3, c4


@dataclass(frozen=True)
class Weights:
    """The field widths of one round and the functions that fill them."""

    group_bits: int  # bits to count the players of the largest score group
    shifts: Mapping[int, int]  # score -> position of its bit in the score fields
    score_bits: int  # total width of a score field
    played_rounds: int

    def float_value(self, score: int | None, bye_bits: int) -> int:
        """The quality of a pair (without the completion field) that a player of ``score``
        makes when moved down into the next bracket (``score`` given) or further down
        (``None``): only the next-bracket and bye fields can be non-zero there."""
        gb = self.group_bits
        sb = self.score_bits
        r = 0
        r = (r << gb) | int(score is not None)
        r <<= sb
        if score is not None:
            r |= 1 << self.shifts[score]
        r = (r << (2 * gb)) + bye_bits
        return r << self.tail_bits

    def outside(self, bye_bits: int) -> int:
        """:meth:`quality` of a pair in neither the current bracket nor the next (only the
        bye field can be set), computed directly: most pairs of a large field are such."""
        return bye_bits << self.tail_bits

    def into_next(self, higher_score: int, bye_bits: int) -> int:
        """:meth:`quality` of a pair whose lower player is in the next bracket."""
        r = (1 << self.score_bits) | (1 << self.shifts[higher_score])
        return ((r << (2 * self.group_bits)) + bye_bits) << self.tail_bits

    @cached_property
    def tail_bits(self) -> int:
        """Width of everything below the bye field."""
        gb, sb, pr = self.group_bits, self.score_bits, self.played_rounds
        bits = 4 * gb + 3 * gb + 1
        if pr:
            bits += 2 * gb + 2 * sb
        if pr > 1:
            bits += 2 * gb + 2 * sb
        return bits

    @property
    def quality_bits(self) -> int:
        """Width of everything below the completion field."""
        return 2 * self.group_bits + 2 * self.score_bits + 2 * self.group_bits + self.tail_bits

    def quality(
        self, higher: PlayerState, lower: PlayerState, *, in_current: bool, in_next: bool, bye_bits: int
    ) -> int:
        """The weight of pairing ``higher`` (the earlier in score order) with ``lower``,
        without the completion field (which :attr:`quality_bits` clears). ``bye_bits`` is
        the bye field's value."""
        gb = self.group_bits
        sb = self.score_bits
        sh = self.shifts
        hs, ls = higher.score, lower.score
        r = 1 if in_current else 0
        r <<= sb
        if in_current:
            r |= 1 << sh[hs]
        r = (r << gb) | (1 if in_next else 0)
        r <<= sb
        if in_next:
            r |= 1 << sh[hs]
        r = (r << (2 * gb)) + bye_bits
        if in_current:
            c1, c2, c3, c4 = colour_fields(lower, higher)
            r = (((((((r << gb) | c1) << gb) | c2) << gb) | c3) << gb) | c4
        else:
            r <<= 4 * gb
        pr = self.played_rounds
        if pr:
            r <<= gb
            if in_current:
                r += int(lower.float1 == Float.DOWN) + int(hs <= ls and higher.float1 == Float.DOWN)
            r <<= gb
            if in_current:
                r |= int(not (hs > ls and lower.float1 == Float.UP))
        if pr > 1:
            r <<= gb
            if in_current:
                r += int(lower.float2 == Float.DOWN) + int(hs <= ls and higher.float2 == Float.DOWN)
            r <<= gb
            if in_current:
                r |= int(not (hs > ls and lower.float2 == Float.UP))
        if pr:
            r <<= sb
            if in_current:
                r += ((lower.float1 == Float.DOWN) << sh[ls]) + ((higher.float1 == Float.DOWN) << sh[hs])
            r <<= sb
            if in_current and not (lower.float1 == Float.UP and hs > ls):
                r |= 1 << sh[hs]
        if pr > 1:
            r <<= sb
            if in_current:
                r += ((lower.float2 == Float.DOWN) << sh[ls]) + ((higher.float2 == Float.DOWN) << sh[hs])
            r <<= sb
            if in_current and not (lower.float2 == Float.UP and hs > ls):
                r |= 1 << sh[hs]
        # the reference engine's room for its ordering bits
        return r << (3 * gb + 1)
