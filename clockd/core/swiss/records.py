"""The TRF lines besides the players that change a pairing: read every one, or refuse it.

A pairing program reads more from a TRF than the ``001`` lines. These are the lines
bbpPairings reads (its TRF(bx) and TRF-2026 extensions), and what this module makes of them:

=========  ==================================================================  ===========
line       what it says                                                        here
=========  ==================================================================  ===========
``XXA``    acceleration: points added to a player's score, round by round,     read
           for pairing only (``XXA NNNN  1.0  1.0  0.5``)
``250``    acceleration for a range of players and rounds (TRF-2026)           read
``192``    the pairing system; ``FIDE_DUTCH_2025_BAKU`` asks for the Baku      read
           acceleration (bbpPairings' reading, see :func:`_baku`)
``XXP``    players who must not meet, in any round                              read
``260``    players who must not meet in a range of rounds (TRF-2026)           read
``XXC``    ``white1``/``black1``: the first board's colour; ``rank``: pairing  read
           numbers in the order of the ``001`` lines, not by start number
``152``    the first board's colour (TRF-2026: ``152 W`` or ``152 B``)         read
``240``    byes of a round, entered before it is paired (TRF-2026)             read
``162``,   the point system; ``BBW`` … ``BBU`` (bbpPairings), ``XXS``          standard
``BB?``,   (JaVaFo)                                                            values
``XXS``                                                                        only
``299``    points awarded otherwise than by the result                         refused
``013``,   teams                                                               refused
``310``
=========  ==================================================================  ===========

Anything else a file may hold (headers, comments, ``092`` and the like) does not change a
pairing. What would change it and is not applied is refused with :class:`RecordError`,
naming its line and column — a pairing that silently ignored a line of the file would not be
the pairing the file asks for. Scores stay in half points (an acceleration must be a multiple
of ½, as the Baku method's 1 and ½ are).

:func:`baku_acceleration` is FIDE's Baku acceleration (C.04.5.1) as ``XXA`` lines, for a
tournament to be written with them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from clockd.core.swiss.model import Record, Tournament

__all__ = [
    "ForbiddenPairs",
    "PairingRecords",
    "RecordError",
    "baku_acceleration",
    "pairing_records",
]


class RecordError(ValueError):
    """A line (not a player's) that changes the pairing and cannot be applied. ``line`` and
    ``column`` are 1-based, as in :class:`~clockd.core.swiss.trf.TrfError`."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.reason = message


@dataclass(frozen=True, slots=True)
class ForbiddenPairs:
    """Players of whom no two may meet in rounds ``first``..``last`` (``XXP``: every round)."""

    players: frozenset[int]
    first: int = 1
    last: int | None = None

    def applies_to(self, round_number: int) -> bool:
        return self.first <= round_number and (self.last is None or round_number <= self.last)


@dataclass(frozen=True, slots=True)
class PairingRecords:
    """What the non-player lines of a file tell the pairing.

    ``accelerations[sn][r - 1]`` is player ``sn``'s acceleration in round ``r``, in half
    points (rounds beyond the tuple: none). ``initial_colour`` is ``"w"``, ``"b"`` or
    ``None`` (not given). ``byes[r]`` are the start numbers listed in ``240`` lines for
    round ``r``.
    """

    accelerations: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    forbidden: tuple[ForbiddenPairs, ...] = ()
    initial_colour: str | None = None
    by_rank: bool = False
    byes: Mapping[int, frozenset[int]] = field(default_factory=dict)

    def acceleration(self, start_number: int, round_number: int) -> int:
        """Half points added to ``start_number``'s score when pairing ``round_number``."""
        values = self.accelerations.get(start_number, ())
        return values[round_number - 1] if 0 < round_number <= len(values) else 0

    def forbidden_with(self, start_number: int, round_number: int) -> frozenset[int]:
        """The players ``start_number`` may not meet in ``round_number``."""
        out: set[int] = set()
        for entry in self.forbidden:
            if start_number in entry.players and entry.applies_to(round_number):
                out |= entry.players
        out.discard(start_number)
        return frozenset(out)


# -- reading -----------------------------------------------------------------------------------

_POINTS = re.compile(r"\d{0,3}(?:\.\d)?")
#: A scoring system's values, in tenths, as the standard system has them.
_STANDARD_162 = {"W": 10, "D": 5, "L": 0, "Z": 0, "P": 10}
_STANDARD_BB = {"BBW": 10, "BBD": 5, "BBL": 0, "BBZ": 0, "BBF": 0, "BBU": 10}
_STANDARD_XXS = {
    **dict.fromkeys(("WW", "BW", "W", "FW", "FPB", "PAB"), 10),
    **dict.fromkeys(("WD", "BD", "D", "HPB"), 5),
    **dict.fromkeys(("WL", "BL", "L", "FL", "ZPB"), 0),
}
_DUTCH = ("FIDE_DUTCH_2025", "FIDE_DUTCH")
_DUTCH_BAKU = ("FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU")


class _Reader:
    """One record being read: its text and line number, and helpers that refuse with them."""

    def __init__(self, record: Record, line: int) -> None:
        self.text = record.text
        self.line = line

    def fail(self, column: int, message: str) -> RecordError:
        return RecordError(self.line, column, f"{self.text[:3]}: {message}")

    def field(self, first: int, last: int) -> str:
        """Columns ``first``..``last`` (1-based, inclusive), spaces where the line is short."""
        return self.text[first - 1 : last].ljust(last - first + 1)

    def number(self, first: int, last: int, what: str) -> int:
        raw = self.field(first, last)
        text = raw.strip()
        if not text.isdigit() or not text.isascii():
            raise self.fail(first, f"expected {what} in columns {first}–{last}, found {raw!r}")
        return int(text)

    def tenths(self, first: int, last: int, what: str) -> int:
        """A score like ``1.0`` or ``0.5`` in columns ``first``..``last``, in tenths."""
        raw = self.field(first, last)
        text = raw.strip()
        if not text or not _POINTS.fullmatch(text) or text == ".":
            raise self.fail(
                first, f"expected {what} (like 1.0 or 0.5) in columns {first}–{last}, found {raw!r}"
            )
        return int(Decimal(text) * 10)

    def blank_from(self, column: int) -> None:
        rest = self.text[column - 1 :]
        if rest.strip():
            at = column + len(rest) - len(rest.lstrip())
            raise self.fail(at, f"unexpected {rest.strip()!r} at the end of the line")


def _half_points(reader: _Reader, tenths: int, column: int) -> int:
    if tenths % 5:
        raise reader.fail(
            column,
            f"an acceleration of {Decimal(tenths) / 10} points: only whole and half points "
            "can be added to a score here",
        )
    return tenths // 5


def _player(reader: _Reader, tournament: Tournament, sn: int, column: int) -> int:
    if sn not in tournament:
        raise reader.fail(column, f"there is no player with start number {sn}")
    return sn


def _read_xxa(reader: _Reader, tournament: Tournament, accelerations: dict[int, list[int]]) -> None:
    # bbpPairings' layout: the start number in columns 5-8, then one 4-column value per
    # round from column 10, five columns apart (10-13, 15-18, ...).
    sn = _player(reader, tournament, reader.number(5, 8, "the start number"), 5)
    values = accelerations.setdefault(sn, [])
    column = 10
    while column + 3 <= len(reader.text.rstrip()):
        values.append(_half_points(reader, reader.tenths(column, column + 3, "the acceleration"), column))
        column += 5
    reader.blank_from(column)


def _read_250(reader: _Reader, tournament: Tournament, accelerations: dict[int, list[int]]) -> None:
    # TRF-2026: 250 MMMM GGGG RRR RRR PPPP PPPP: match points (blank: an individual event),
    # game points, first and last round, first and last player.
    if len(reader.text.rstrip()) < 31:
        raise reader.fail(1, "expected points, rounds and players in columns 5-31")
    if reader.field(5, 8).strip() and reader.tenths(5, 8, "the match points"):
        raise reader.fail(5, "match points are for team events; columns 5-8 must be blank")
    points = _half_points(reader, reader.tenths(10, 13, "the acceleration"), 10)
    if not points:
        raise reader.fail(10, "an acceleration of 0 points")
    first_round = reader.number(15, 17, "the first round")
    last_round = reader.number(19, 21, "the last round")
    first = reader.number(23, 26, "the first start number")
    last = reader.number(28, 31, "the last start number")
    if not 1 <= first_round <= last_round:
        raise reader.fail(15, f"rounds {first_round} to {last_round} are not a range of rounds")
    if not 1 <= first <= last:
        raise reader.fail(23, f"players {first} to {last} are not a range of start numbers")
    for sn in range(first, last + 1):
        if sn not in tournament:
            continue
        values = accelerations.setdefault(sn, [])
        values.extend([0] * (last_round - len(values)))
        values[first_round - 1 : last_round] = [points] * (last_round - first_round + 1)


def _read_players(reader: _Reader, tournament: Tournament, first_column: int) -> frozenset[int]:
    players: set[int] = set()
    column = first_column
    while column + 3 <= len(reader.text.rstrip()):
        players.add(_player(reader, tournament, reader.number(column, column + 3, "a start number"), column))
        column += 5
    reader.blank_from(column)
    return frozenset(players)


def _read_xxp(reader: _Reader, tournament: Tournament) -> ForbiddenPairs:
    players: set[int] = set()
    column = 4
    for token in re.finditer(r"\S+", reader.text[3:]):
        at = column + token.start()
        if not token.group().isdigit():
            raise reader.fail(at, f"expected start numbers, found {token.group()!r}")
        players.add(_player(reader, tournament, int(token.group()), at))
    return ForbiddenPairs(frozenset(players))


def _read_260(reader: _Reader, tournament: Tournament) -> ForbiddenPairs:
    first = reader.number(5, 7, "the first round")
    last = reader.number(9, 11, "the last round")
    if not 1 <= first <= last:
        raise reader.fail(5, f"rounds {first} to {last} are not a range of rounds")
    return ForbiddenPairs(_read_players(reader, tournament, 13), first, last)


def _read_240(reader: _Reader, tournament: Tournament) -> tuple[int, frozenset[int]]:
    round_number = reader.number(7, 9, "the round")
    if round_number < 1:
        raise reader.fail(7, "rounds are counted from 1")
    return round_number, _read_players(reader, tournament, 11)


def _check_162(reader: _Reader) -> None:
    column = 6
    while column + 4 <= len(reader.text.rstrip()):
        code = reader.field(column, column)
        value = reader.tenths(column + 1, column + 4, f"the points for {code!r}")
        if code not in _STANDARD_162:
            raise reader.fail(column, f"expected a result code W, D, L, Z or P, found {code!r}")
        if value != _STANDARD_162[code]:
            raise _not_standard(reader, column)
        column += 9


def _check_xxs(reader: _Reader) -> None:
    for token in re.finditer(r"\S+", reader.text[3:]):
        at = 4 + token.start()
        key, _, value = token.group().partition("=")
        standard = _STANDARD_XXS.get(key.upper())
        if standard is None or not value:
            raise reader.fail(at, f"{token.group()!r} is not a scoring rule this program knows")
        try:
            tenths = Decimal(value) * 10
        except ArithmeticError:
            raise reader.fail(at, f"{token.group()!r}: expected points like 1.0") from None
        if tenths != standard:
            raise _not_standard(reader, at)


def _not_standard(reader: _Reader, column: int) -> RecordError:
    return reader.fail(
        column,
        "a point system other than 1 for a win, ½ for a draw, 0 for a loss changes the "
        "pairings; this program pairs with that system only",
    )


def pairing_records(tournament: Tournament, total_rounds: int | None = None) -> PairingRecords:
    """Read every line of ``tournament`` besides the players that changes its pairing.

    ``total_rounds`` (else the file's ``XXR``/``142``) bounds the acceleration lines and
    places the Baku acceleration. Raises :class:`RecordError` on the first line that cannot
    be applied.
    """
    accelerations: dict[int, list[int]] = {}
    forbidden: list[ForbiddenPairs] = []
    byes: dict[int, set[int]] = {}
    colour: str | None = None
    by_rank = False
    baku = False
    acceleration_lines: dict[int, tuple[int, str]] = {}  # start number -> its last line, code
    rounds = total_rounds or tournament.total_rounds
    for record, line in zip(tournament.records, tournament.record_lines(), strict=True):
        code = record.code
        reader = _Reader(record, line)
        if code in ("XXA", "250"):
            before = {sn: len(v) for sn, v in accelerations.items()}
            (_read_xxa if code == "XXA" else _read_250)(reader, tournament, accelerations)
            for sn, values in accelerations.items():
                if len(values) != before.get(sn, 0):
                    acceleration_lines[sn] = (line, code)
        elif code == "XXP":
            forbidden.append(_read_xxp(reader, tournament))
        elif code == "260":
            forbidden.append(_read_260(reader, tournament))
        elif code == "240":
            round_number, players = _read_240(reader, tournament)
            byes.setdefault(round_number, set()).update(players)
        elif code == "XXC":
            tokens = record.value.split()
            by_rank = by_rank or "rank" in tokens
            for token in tokens:
                if token in ("white1", "black1"):
                    colour = token[0]
        elif code == "152":
            value = record.value.strip()
            if value not in ("W", "B"):
                raise reader.fail(5, f"expected W or B (the first board's colour), found {value!r}")
            colour = value.lower()
        elif code == "162":
            _check_162(reader)
        elif code in _STANDARD_BB:
            if reader.tenths(5, 12, "the points") != _STANDARD_BB[code]:
                raise _not_standard(reader, 5)
        elif code == "XXS":
            _check_xxs(reader)
        elif code == "192":
            value = record.value.strip()
            if value in _DUTCH_BAKU:
                baku = True
            elif value not in _DUTCH:
                raise reader.fail(
                    5, f"{value!r} is not the FIDE Dutch system (FIDE_DUTCH_2025, or …_BAKU accelerated)"
                )
        elif code == "299":
            raise reader.fail(1, "points awarded otherwise than by the results are not supported")
        elif code in ("013", "310"):
            raise reader.fail(1, "team tournaments are not supported: this program pairs individuals")
    if rounds is not None:
        for sn, values in accelerations.items():
            if len(values) > rounds:
                line, code = acceleration_lines[sn]
                raise RecordError(
                    line,
                    1,
                    f"{code}: player {sn} has accelerations for {len(values)} rounds; the event has {rounds}",
                )
    if baku and not accelerations:
        accelerations = _baku(tournament, by_rank, rounds)
    return PairingRecords(
        accelerations={sn: tuple(v) for sn, v in accelerations.items()},
        forbidden=tuple(forbidden),
        initial_colour=colour,
        by_rank=by_rank,
        byes={r: frozenset(s) for r, s in byes.items()},
    )


def _baku(tournament: Tournament, by_rank: bool, rounds: int | None) -> dict[int, list[int]]:
    """The acceleration ``192 FIDE_DUTCH_2025_BAKU`` asks for, as bbpPairings applies it (when
    the file gives none of its own): the first ⌈N/2⌉ players of the file get 1 point in the
    first ⌈⌈R/2⌉/2⌉ rounds and ½ in the rest of the first ⌈R/2⌉ rounds. (FIDE's C.04.5.1 puts
    the first 2⌈N/4⌉ players in that group: :func:`baku_acceleration` writes that.)"""
    if not rounds or not tournament.players:
        return {}
    order = list(tournament.players) if by_rank else sorted(tournament.players, key=lambda p: p.start_number)
    last_accelerated = (rounds - 1) // 2
    last_full = last_accelerated // 2
    values = [2 if r <= last_full else 1 for r in range(last_accelerated + 1)]
    return {p.start_number: list(values) for p in order[: (len(order) - 1) // 2 + 1]}


# -- writing -----------------------------------------------------------------------------------


def baku_acceleration(tournament: Tournament, rounds: int | None = None) -> Tournament:
    """``tournament`` with FIDE's Baku acceleration (C.04.5.1) written as ``XXA`` lines.

    Group A is the first half of the players, rounded up to an even number (2⌈N/4⌉), by
    pairing number; the accelerated rounds are the first half of the rounds, rounded up
    (⌈R/2⌉); group A has 1 virtual point for the first half of those (rounded up) and ½ for
    the rest. Virtual points count for pairing only, never for the standings. ``rounds``
    defaults to the file's ``XXR``/``142``. Existing ``XXA`` lines are replaced.
    """
    n_rounds = rounds or tournament.total_rounds
    if not n_rounds:
        raise ValueError("the number of rounds is needed for the Baku acceleration")
    players = sorted(tournament.players, key=lambda p: p.start_number)
    group_a = 2 * -(-len(players) // 4)
    accelerated = -(-n_rounds // 2)
    full = -(-accelerated // 2)
    values = ["1.0"] * full + ["0.5"] * (accelerated - full)
    texts = [f"XXA {p.start_number:4d}" + "".join(f" {v:>4}" for v in values) for p in players[:group_a]]
    kept = [r for r in tournament.records if r.code != "XXA"]
    at = next((i for i, r in enumerate(kept) if r.slot > 0), len(kept))
    records = kept[:at] + [Record(t, 0) for t in texts] + kept[at:]
    return Tournament(tournament.players, tuple(records), tournament.layout)
