"""The bracket's seeding and its draw: who stands on which line before the first match.

Apart from :mod:`clockd.core.bracket` because this is settled once, before there is a
bracket (the service checks a draw before it creates one), and needs none of the
matches' life or the referee's actions. The rules (RULES.md §B, regulations §2.2.1):
the standard seeding puts the byes on the lines of the highest seed numbers
(:func:`seeding_order`, :func:`bye_lines`); the players fill the other lines, by lots
drawn at the table (:meth:`Draw.physical`) or by the app with a recorded seed
(:meth:`Draw.seeded`, reproducible from the seed alone). :class:`BracketError` is here
because the bracket's size already refuses too many players; the bracket raises it too.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from clockd.i18n import Problem

__all__ = [
    "BracketError",
    "Draw",
    "DrawMethod",
    "PlayerId",
    "bracket_size",
    "bye_lines",
    "open_lines",
    "seeded_draw",
    "seeding_order",
]

PlayerId = int


class BracketError(Problem):
    """An event that cannot apply to the bracket; the message says why. Nothing changed."""


# -- seeding and the draw -------------------------------------------------------------------


def seeding_order(size: int) -> list[int]:
    """Seed numbers by bracket line (line 1 first) for a bracket of ``size`` (a power of two).

    Built by doubling: each seed ``s`` of the smaller bracket becomes the pair
    ``s, size+1-s``, so seed 1 meets seed 2 only in the final and every first-round pair
    sums to ``size+1``.
    """
    if size < 2 or size & (size - 1):
        raise BracketError("bracket.not-power-of-two", size=size)
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def bracket_size(players: int, max_size: int) -> int:
    """The smallest power of two that holds ``players`` (at most ``max_size``)."""
    if players < 2:
        raise BracketError("bracket.too-few-players", n=players)
    if players > max_size:
        raise BracketError("bracket.too-many-players", n=players, size=max_size)
    size = 2
    while size < players:
        size *= 2
    return size


def bye_lines(size: int, players: int) -> list[int]:
    """The lines (1-based) left empty for ``players`` in a bracket of ``size``: the byes."""
    if not size // 2 < players <= size:
        raise BracketError("bracket.byes-beyond-round-one", n=players, size=size)
    return [line for line, seed in enumerate(seeding_order(size), start=1) if seed > players]


def open_lines(size: int, players: int) -> list[int]:
    """The lines players draw: every line but the byes, in order."""
    byes = set(bye_lines(size, players))
    return [line for line in range(1, size + 1) if line not in byes]


def seeded_draw(players: list[PlayerId], size: int, seed: int) -> dict[int, PlayerId]:
    """The app's draw: players onto the open lines, shuffled by ``seed``.

    Anyone can re-run it: the shuffle is a Fisher–Yates whose random numbers come from
    SHA-256 of ``"duelclock-draw:{seed}:{counter}"`` (not from Python's ``random``, whose
    algorithm is not a promise across versions), over the players sorted by id.
    """
    if len(set(players)) != len(players):
        raise BracketError("bracket.draw-twice")
    pool = sorted(players)
    counter = 0

    def below(n: int) -> int:
        nonlocal counter
        limit = (1 << 256) - (1 << 256) % n  # reject the uneven tail: every value equally likely
        while True:
            digest = hashlib.sha256(f"duelclock-draw:{seed}:{counter}".encode()).digest()
            counter += 1
            value = int.from_bytes(digest, "big")
            if value < limit:
                return value % n

    for i in range(len(pool) - 1, 0, -1):
        j = below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    return dict(zip(open_lines(size, len(pool)), pool, strict=True))


class DrawMethod(StrEnum):
    PHYSICAL = "physical"  # players drew numbered lots at the table; the referee typed them in
    SEEDED = "seeded"  # the app drew with a recorded seed


class Draw(BaseModel):
    """Who is on which line, and how that was decided."""

    model_config = ConfigDict(frozen=True)

    method: DrawMethod
    seed: int | None = None
    lines: dict[int, PlayerId]

    @classmethod
    def seeded(cls, players: list[PlayerId], size: int, seed: int) -> Draw:
        return cls(method=DrawMethod.SEEDED, seed=seed, lines=seeded_draw(players, size, seed))

    @classmethod
    def physical(cls, lines: dict[int, PlayerId]) -> Draw:
        return cls(method=DrawMethod.PHYSICAL, lines=dict(lines))
