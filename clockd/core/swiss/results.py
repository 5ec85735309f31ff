"""A round's results as the referee writes them, and the round they make (pure).

The results file is the pairing file ``duelclock swiss pair`` writes (the reference
engines' format: the number of pairs, then ``white black`` per board, ``N 0`` for the
bye) with each board's result added at the end of its line::

    6
    1 4 1-0
    5 2 ½-½
    3 6 0-1
    7 10 +-
    8 9
    11 0

Results: ``1-0``, ``0-1``, ``½-½`` (also ``1/2-1/2``, ``0.5-0.5``, ``=``), ``+-`` and ``-+``
(won by forfeit), ``--`` (neither came), ``0-0``; ``:`` may stand for ``-`` (``1:0``), and an
en dash too. **A board with no result is 0–0** (RULES.md §H: "a game with no reported result
is entered as 0–0"): a played game that scores nothing for either player. The first line
(the count) may be left out; blank lines and ``#`` comments are ignored.

:func:`parse_results` reads the text and :func:`record_results` checks it against the
tournament and writes the round. Both report *every* problem at once, each as data
(:class:`Problem`: line, column, :class:`Issue` and the values involved), so that nothing
is written until the whole file is right; the command line words them for people.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from clockd.core.swiss.model import (
    Board,
    BoardResult,
    Code,
    RoundEntry,
    Tournament,
    record_round,
)

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", ":": "-"})
_HALVES = ("½", "1/2", "0.5", "0,5", ".5", ",5")

#: Every way of writing a result, after en dashes and colons are read as ``-``.
RESULT_TOKENS: dict[str, BoardResult] = {
    "1-0": BoardResult.WHITE_WINS,
    "0-1": BoardResult.BLACK_WINS,
    "=": BoardResult.DRAW,
    "0-0": BoardResult.NO_RESULT,
    "+-": BoardResult.WHITE_WINS_BY_FORFEIT,
    "-+": BoardResult.BLACK_WINS_BY_FORFEIT,
    "--": BoardResult.DOUBLE_FORFEIT,
    "+--": BoardResult.WHITE_WINS_BY_FORFEIT,  # "+:-"
    "--+": BoardResult.BLACK_WINS_BY_FORFEIT,  # "-:+"
    "---": BoardResult.DOUBLE_FORFEIT,  # "-:-"
    **{f"{h}-{h}": BoardResult.DRAW for h in _HALVES},
    "½": BoardResult.DRAW,
}


def result_of(token: str) -> BoardResult | None:
    """The board result a token means, or ``None`` if it is not one (see :data:`RESULT_TOKENS`)."""
    return RESULT_TOKENS.get(token.translate(_DASHES))


class Issue(StrEnum):
    """What is wrong with a results file, or with it against the tournament."""

    # reading the file (values: the text found)
    BAD_COUNT = "the first line's number of pairs does not match"  # values: (said, found)
    NOT_A_NUMBER = "not a start number"
    MISSING_BLACK = "a board needs two start numbers"
    BAD_RESULT = "not a result"
    BYE_WITH_RESULT = "the bye line takes no result"
    SECOND_BYE = "a second bye"  # values: (the first bye's start number, its line)
    NO_BOARDS = "no boards"
    # against the tournament (values: start numbers, entries)
    UNKNOWN_PLAYER = "no player with this start number"
    TWICE = "a player appears twice"  # values: (start number, the line of the first time)
    SELF = "a player against themselves"
    ABSENT_ON_BOARD = "announced absent this round, but on a board"  # values: (start number, entry)
    UNPLACED = "on no board and without the bye"  # values: start numbers (line 0: the whole file)


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: where (1-based ``line`` and ``column`` of the results file; 0 when it is
    about the file as a whole), what, and the values involved."""

    line: int
    column: int
    issue: Issue
    values: tuple[str, ...] = ()


class ResultsError(ValueError):
    """A results file that cannot be recorded; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(
            "; ".join(f"line {p.line}, column {p.column}: {p.issue.value} {p.values}" for p in self.problems)
        )


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of the results file. ``result`` is what was written; ``None``: nothing
    (recorded as 0–0). ``number`` counts boards from 1, in the file's order."""

    number: int
    line: int
    white: int
    black: int
    result: BoardResult | None
    white_column: int = 1
    black_column: int = 1

    @property
    def recorded(self) -> BoardResult:
        """What is recorded: the result written, or 0–0 when none was reported."""
        return BoardResult.NO_RESULT if self.result is None else self.result


@dataclass(frozen=True, slots=True)
class RoundResults:
    """A parsed results file: the boards and the pairing-allocated bye (``None``: none)."""

    boards: tuple[BoardLine, ...]
    bye: int | None = None
    bye_line: int = 0
    bye_column: int = 1

    @property
    def unreported(self) -> tuple[BoardLine, ...]:
        """The boards with no result written: recorded as 0–0."""
        return tuple(b for b in self.boards if b.result is None)


def _fields(line: str) -> list[tuple[int, str]]:
    """The whitespace-separated fields of a line with their 1-based columns, up to a ``#``."""
    text = line.split("#", 1)[0]
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]


def _start_number(field: tuple[int, str], line: int, problems: list[Problem]) -> int | None:
    column, text = field
    if text.isascii() and text.isdigit():
        return int(text)
    problems.append(Problem(line, column, Issue.NOT_A_NUMBER, (text,)))
    return None


def parse_results(text: str) -> RoundResults:
    """Read a results file. Raises :class:`ResultsError` listing every line that is wrong."""
    text = text.removeprefix("\ufeff")
    lines = [(n, _fields(raw)) for n, raw in enumerate(text.splitlines(), start=1)]
    lines = [(n, f) for n, f in lines if f]
    problems: list[Problem] = []
    count: tuple[int, int] | None = None  # (line, the number it says)
    if lines and len(lines[0][1]) == 1:
        n, ((column, first),) = lines[0]
        if first.isascii() and first.isdigit():
            count = (n, int(first))
        else:
            problems.append(Problem(n, column, Issue.NOT_A_NUMBER, (first,)))
        lines = lines[1:]
    boards: list[BoardLine] = []
    bye: tuple[int, int, int] | None = None  # (start number, line, column)
    for n, fields in lines:
        if len(fields) < 2:
            problems.append(Problem(n, fields[0][0] + len(fields[0][1]), Issue.MISSING_BLACK))
            continue
        white = _start_number(fields[0], n, problems)
        black = _start_number(fields[1], n, problems)
        rest = fields[2:]
        if black == 0:  # "N 0": the pairing-allocated bye
            if rest:
                problems.append(
                    Problem(n, rest[0][0], Issue.BYE_WITH_RESULT, (" ".join(t for _, t in rest),))
                )
            elif bye is not None:
                problems.append(Problem(n, fields[0][0], Issue.SECOND_BYE, (str(bye[0]), str(bye[1]))))
            elif white is not None:
                bye = (white, n, fields[0][0])
            continue
        result: BoardResult | None = None
        if rest:
            token = "".join(t for _, t in rest)  # "1 - 0" reads as "1-0"
            result = result_of(token)
            if result is None:
                problems.append(Problem(n, rest[0][0], Issue.BAD_RESULT, (" ".join(t for _, t in rest),)))
        if white is not None and black is not None:
            boards.append(BoardLine(len(boards) + 1, n, white, black, result, fields[0][0], fields[1][0]))
    if count is not None and not problems:
        found = len(boards) + (bye is not None)
        if found != count[1]:
            problems.append(Problem(count[0], 1, Issue.BAD_COUNT, (str(count[1]), str(found))))
    if not problems and not boards and bye is None:
        problems.append(Problem(0, 0, Issue.NO_BOARDS))
    if problems:
        raise ResultsError(problems)
    if bye is None:
        return RoundResults(tuple(boards))
    return RoundResults(tuple(boards), bye[0], bye[1], bye[2])


@dataclass(frozen=True, slots=True)
class Recorded:
    """A round written into the tournament: the new tournament, and what the referee
    should be told (absences announced in advance that stay, in start-number order)."""

    tournament: Tournament
    round_number: int
    results: RoundResults
    absences: tuple[tuple[int, RoundEntry], ...] = field(default=())


def record_results(tournament: Tournament, round_number: int, results: RoundResults) -> Recorded:
    """The tournament with round ``round_number`` written from ``results``.

    Every player of the tournament must be placed: on a board, given the bye, or already
    holding an absence announced for this round (``0000 - H``, ``Z``, ``F``, ``-`` or ``=``, which
    stays).
    A player on a board may not hold such an absence; start numbers must exist and appear
    once. Entries already in the round (when it is recorded again) are replaced. The
    points column (81–84) is brought up to date. Raises :class:`ResultsError` listing
    every problem; nothing is changed then.
    """
    problems: list[Problem] = []
    seen: dict[int, int] = {}  # start number → line

    def place(sn: int, line: int, column: int) -> None:
        if sn not in tournament:
            problems.append(Problem(line, column, Issue.UNKNOWN_PLAYER, (str(sn),)))
            return
        if sn in seen:
            problems.append(Problem(line, column, Issue.TWICE, (str(sn), str(seen[sn]))))
            return
        seen[sn] = line
        entry = tournament[sn].entry(round_number)
        if entry.is_absence:
            problems.append(Problem(line, column, Issue.ABSENT_ON_BOARD, (str(sn), str(entry))))

    for b in results.boards:
        if b.white == b.black:
            problems.append(Problem(b.line, b.black_column, Issue.SELF, (str(b.white),)))
            continue
        place(b.white, b.line, b.white_column)
        place(b.black, b.line, b.black_column)
    if results.bye is not None:
        place(results.bye, results.bye_line, results.bye_column)

    absences: list[tuple[int, RoundEntry]] = []
    unplaced: list[int] = []
    for p in sorted(tournament.players, key=lambda p: p.start_number):
        if p.start_number in seen:
            continue
        entry = p.entry(round_number)
        if entry.is_absence:
            absences.append((p.start_number, entry))
        else:
            unplaced.append(p.start_number)
    if unplaced:
        problems.append(Problem(0, 0, Issue.UNPLACED, tuple(map(str, unplaced))))
    if problems:
        raise ResultsError(problems)

    boards = [Board(b.white, b.black, b.recorded) for b in results.boards]
    byes = {} if results.bye is None else {results.bye: Code.PAIRING_BYE}
    written = record_round(tournament, round_number, boards, byes)
    return Recorded(with_points(written), round_number, results, tuple(absences))


def with_points(tournament: Tournament) -> Tournament:
    """The points column of every player set to their score over the rounds paired so far
    (an absence announced for a later round does not count yet)."""
    through = tournament.rounds_paired
    return tournament.with_players(
        p if p.points == (score := p.score(through)) else p.replace(points=score) for p in tournament.players
    )
