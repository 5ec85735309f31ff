"""A Swiss tournament as data: players, and what happened to each of them in each round.

The model follows FIDE's Tournament Report File (TRF) because that is the format every
pairing and rating program speaks: a player is one ``001`` line, and each round is one
*entry* on it — the opponent's start number (or none), the colour, and a one-character
result code. :class:`Code` lists the codes; :class:`Kind` says what an entry *is* for
pairings and tie-breaks (a game played over the board, a forfeit, a bye of some sort, or
nothing at all).

Scores are exact: :class:`fractions.Fraction`, never floats, because tie-breaks sum and
compare them and FIDE's reference values are exact.

Two rules of the school tournament (RULES.md §H) live here too:

* a game with no reported result is a *played* game scored 0–0: both players' entries
  say ``0`` against each other (``w 0`` / ``b 0``). Nothing special is needed to store it;
  :func:`pair_points_valid` accepts it and :attr:`RoundEntry.kind` calls it a game.
* round-1 no-shows are withdrawn for the rest of the event unless they report to the
  referee before the round-2 pairings: :func:`withdraw_round1_no_shows`.

Everything is immutable. A :class:`Tournament` also remembers the layout of the file it
was read from (the non-player lines and where they stood, the line ends, the encoding),
so that a read–modify–write keeps the file a referee knows; see :mod:`.trf`.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction

ZERO = Fraction(0)
HALF = Fraction(1, 2)
ONE = Fraction(1)


class Colour(StrEnum):
    """The colour a player had in a round, as TRF writes it."""

    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Code(StrEnum):
    """The result character of a TRF round entry (column 99 of the first round).

    ``W``/``D``/``L`` are games played but not rated (TRF16: fewer than one move each);
    for tie-breaks they are games like any other.
    """

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    UNRATED_WIN = "W"
    UNRATED_DRAW = "D"
    UNRATED_LOSS = "L"
    HALF_BYE = "H"
    FULL_BYE = "F"
    PAIRING_BYE = "U"
    ZERO_BYE = "Z"
    NONE = " "  # nothing recorded: not paired, absent


class Kind(Enum):
    """What a round entry is, whatever letters recorded it."""

    GAME = "game"  # played over the board (includes a 0–0 game with no reported result)
    FORFEIT_WIN = "forfeit win"  # the opponent did not play; counts as a win, not as a game
    FORFEIT_LOSS = "forfeit loss"  # this player did not play (both sides: double forfeit)
    PAIRING_BYE = "pairing-allocated bye"  # odd player out, given by the pairing (U)
    FULL_BYE = "full-point bye"  # F
    HALF_BYE = "half-point bye"  # H, requested in advance
    ZERO_BYE = "zero-point bye"  # Z: requested in advance, or withdrawn/absent
    NOT_PAIRED = "not paired"  # blank: nothing recorded for this round


_POINTS: dict[Code, Fraction] = {
    Code.WIN: ONE,
    Code.UNRATED_WIN: ONE,
    Code.FORFEIT_WIN: ONE,
    Code.FULL_BYE: ONE,
    Code.PAIRING_BYE: ONE,
    Code.DRAW: HALF,
    Code.UNRATED_DRAW: HALF,
    Code.HALF_BYE: HALF,
    Code.LOSS: ZERO,
    Code.UNRATED_LOSS: ZERO,
    Code.FORFEIT_LOSS: ZERO,
    Code.ZERO_BYE: ZERO,
    Code.NONE: ZERO,
}

#: Codes of a game played over the board.
GAME_CODES = frozenset(
    {Code.WIN, Code.DRAW, Code.LOSS, Code.UNRATED_WIN, Code.UNRATED_DRAW, Code.UNRATED_LOSS}
)
#: Codes that need no opponent.
BYE_CODES = frozenset({Code.HALF_BYE, Code.FULL_BYE, Code.PAIRING_BYE, Code.ZERO_BYE, Code.NONE})
#: Absences known before the round is paired: with no opponent, the player is not to be paired
#: that round. ``0000 - H``, ``F`` and ``Z``, and also ``0000 - -`` (how JaVaFo and Lichess
#: write an absence) and ``0000 - =`` (a half-point bye, TRF16's older way): every entry with
#: no opponent that is not the pairing-allocated bye (``U``) or a win without playing (``+``),
#: which are what a pairing gave. (bbpPairings reads them so.)
PRE_PAIRING_ABSENCE_CODES = frozenset(
    {Code.HALF_BYE, Code.FULL_BYE, Code.ZERO_BYE, Code.FORFEIT_LOSS, Code.DRAW}
)


class ModelError(ValueError):
    """A tournament that cannot be: the message names the player and the round."""


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One player's round: opponent (start number, or ``None``), colour and result code.

    Construct through :meth:`game`, :meth:`forfeit` and :meth:`bye` when writing code; the
    TRF reader builds entries directly and checks them with :meth:`problem`.
    """

    opponent: int | None
    colour: Colour | None
    code: Code

    # -- construction ------------------------------------------------------------------
    @classmethod
    def game(cls, opponent: int, colour: Colour, code: Code) -> RoundEntry:
        """A game played over the board (``code`` one of 1 = 0 W D L)."""
        entry = cls(opponent, colour, code)
        if code not in GAME_CODES:
            raise ModelError(f"{code.value!r} is not the result of a played game")
        return entry

    @classmethod
    def forfeit(cls, opponent: int | None, won: bool, colour: Colour | None = None) -> RoundEntry:
        """A game lost or won by forfeit; a double forfeit is a forfeit loss on both sides."""
        return cls(opponent, colour, Code.FORFEIT_WIN if won else Code.FORFEIT_LOSS)

    @classmethod
    def bye(cls, code: Code) -> RoundEntry:
        """A round with no opponent: ``U`` pairing-allocated, ``F``/``H``/``Z`` byes, blank."""
        if code not in BYE_CODES:
            raise ModelError(f"{code.value!r} needs an opponent")
        return cls(None, None, code)

    # -- meaning -----------------------------------------------------------------------
    @property
    def kind(self) -> Kind:
        code = self.code
        if code in GAME_CODES:
            return Kind.HALF_BYE if self.opponent is None else Kind.GAME  # "0000 - =": a half bye
        return _KIND_OF[code]

    @property
    def points(self) -> Fraction:
        """The points the entry scores (standard scoring: win 1, draw ½, loss 0)."""
        return _POINTS[self.code]

    @property
    def played(self) -> bool:
        """A game played over the board (forfeits and byes are not)."""
        return self.kind is Kind.GAME

    @property
    def paired(self) -> bool:
        """The pairing of this round placed the player: against an opponent, or given the bye.

        Forfeits count (the pairing was made, the game did not happen), and so does a win by
        forfeit with no opponent named (``0000 - +``, as bbpPairings counts it); requested byes
        and absences do not.
        """
        return self.opponent is not None or self.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN)

    @property
    def is_absence(self) -> bool:
        """An absence known before the round is paired (see :data:`PRE_PAIRING_ABSENCE_CODES`):
        the player is not to be paired in this round."""
        return self.opponent is None and self.code in PRE_PAIRING_ABSENCE_CODES

    @property
    def is_blank(self) -> bool:
        return self.opponent is None and self.code is Code.NONE

    def problem(self) -> str | None:
        """Why this entry cannot be, or ``None``. (What the TRF reader reports.)"""
        code, opponent, colour = self.code, self.opponent, self.colour
        if opponent is not None and opponent < 1:
            return f"opponent {opponent} is not a start number"
        if opponent is None:
            if colour is not None:
                return f"colour {colour.value!r} without an opponent"
            if code in GAME_CODES and code is not Code.DRAW:
                return f"result {code.value!r} of a game without an opponent"
            return None
        if code in BYE_CODES:
            return f"result {code.value!r} is a bye or an absence, but an opponent is given"
        if code in GAME_CODES and colour is None:
            return f"a played game ({code.value!r}) needs a colour, w or b"
        return None

    def __str__(self) -> str:  # as in a TRF line
        opponent = "0000" if self.opponent is None else f"{self.opponent:4d}"
        colour = "-" if self.colour is None else self.colour.value
        return f"{opponent} {colour} {self.code.value}"


_KIND_OF: dict[Code, Kind] = {
    Code.FORFEIT_WIN: Kind.FORFEIT_WIN,
    Code.FORFEIT_LOSS: Kind.FORFEIT_LOSS,
    Code.PAIRING_BYE: Kind.PAIRING_BYE,
    Code.FULL_BYE: Kind.FULL_BYE,
    Code.HALF_BYE: Kind.HALF_BYE,
    Code.ZERO_BYE: Kind.ZERO_BYE,
    Code.NONE: Kind.NOT_PAIRED,
}

#: The entry of a round in which nothing is recorded.
NOT_PAIRED = RoundEntry(None, None, Code.NONE)
#: ``0000 - Z``: not paired, no points (a zero-point bye, an absence, a withdrawal).
ZERO_BYE_ENTRY = RoundEntry(None, None, Code.ZERO_BYE)


def pair_points_valid(a: RoundEntry, b: RoundEntry) -> bool:
    """Whether two entries of the same pairing can stand side by side.

    Over the board: the two scores add up to at most one point (1–0, ½–½, 0–0 for a game
    with no reported result; 0–½ as after a penalty), rated and unrated codes not mixed.
    By forfeit: +/−, −/+ or −/− (a double forfeit).
    """
    if a.code in GAME_CODES and b.code in GAME_CODES:
        rated = {Code.WIN, Code.DRAW, Code.LOSS}
        return (a.code in rated) == (b.code in rated) and a.points + b.points <= ONE
    return (a.code, b.code) in {
        (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
        (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
        (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
    }


def _strip_trailing_blanks(entries: tuple[RoundEntry, ...]) -> tuple[RoundEntry, ...]:
    end = len(entries)
    while end and entries[end - 1].is_blank:
        end -= 1
    return entries if end == len(entries) else entries[:end]


@dataclass(frozen=True, slots=True)
class Player:
    """A ``001`` line: who the player is, and their entry in every round so far.

    ``rounds[r - 1]`` is round ``r``; rounds beyond the tuple are blank (nothing recorded),
    and trailing blank rounds are dropped on construction so that equal players compare
    equal. ``points`` and ``rank`` are what the file *declares* (columns 81–84, 86–89);
    :meth:`score` computes the score from the rounds. ``group`` (e.g. "klasa 3, dziewczęta")
    is not part of a TRF line: a school group is one TRF file.
    """

    start_number: int
    name: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: Fraction | None = None
    rank: int | None = None
    rounds: tuple[RoundEntry, ...] = ()
    group: str = field(default="", compare=False)
    #: The ``001`` line this player was read from, written back verbatim while it still
    #: describes exactly this player (see :func:`clockd.core.swiss.trf.dumps`).
    source: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        stripped = _strip_trailing_blanks(self.rounds)
        if stripped is not self.rounds:
            object.__setattr__(self, "rounds", stripped)

    def entry(self, round_number: int) -> RoundEntry:
        """The entry of round ``round_number`` (1-based); blank where nothing is recorded."""
        if round_number < 1:
            raise ValueError(f"round numbers start at 1, not {round_number}")
        rounds = self.rounds
        return rounds[round_number - 1] if round_number <= len(rounds) else NOT_PAIRED

    def entries(self, through_round: int | None = None) -> Iterator[tuple[int, RoundEntry]]:
        """``(round number, entry)`` for rounds 1..``through_round`` (default: all recorded)."""
        last = len(self.rounds) if through_round is None else through_round
        for r in range(1, last + 1):
            yield r, self.entry(r)

    def score(self, through_round: int | None = None) -> Fraction:
        """Points scored in rounds 1..``through_round`` (default: every recorded round)."""
        rounds = self.rounds if through_round is None else self.rounds[:through_round]
        return sum((e.points for e in rounds), ZERO)

    def with_rounds(self, rounds: Iterable[RoundEntry]) -> Player:
        return dataclasses.replace(self, rounds=tuple(rounds), source=None)

    def with_entry(self, round_number: int, entry: RoundEntry) -> Player:
        """This player with round ``round_number`` set to ``entry`` (rounds between filled blank)."""
        if round_number < 1:
            raise ValueError(f"round numbers start at 1, not {round_number}")
        rounds = list(self.rounds)
        rounds.extend([NOT_PAIRED] * (round_number - len(rounds)))
        rounds[round_number - 1] = entry
        return self.with_rounds(rounds)

    def replace(self, **changes: object) -> Player:
        """A copy with ``changes`` applied (and no longer tied to its source line)."""
        return dataclasses.replace(self, source=None, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Record:
    """A TRF line other than a player: a header (``012 name``), an extension (``XXR 9``),
    a comment (``###``) or a blank line. ``slot`` is the number of player lines that came
    before it in the file, so a writer can put it back where it stood.
    """

    text: str
    slot: int = 0

    @property
    def code(self) -> str:
        """The record's three-character code (``012``, ``XXR``…); empty for a blank line."""
        return self.text[:3]

    @property
    def value(self) -> str:
        """The text after the code and its space, without trailing spaces."""
        return self.text[4:].rstrip()


@dataclass(frozen=True, slots=True)
class Layout:
    """How the file was written: line end, whether the last line had one, text encoding."""

    newline: str = "\n"
    final_newline: bool = True
    encoding: str = "utf-8"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round as recorded: ``white``/``black`` start numbers.

    For a forfeit recorded without colours the lower start number is called ``white``
    (``coloured`` is then False).
    """

    white: int
    black: int
    coloured: bool = True


_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}

#: The date forms found in real files' ``042`` lines: TRF's ``2026/09/01``; ISO ``2026-09-01``
#: (a time after it, as some exports write, is ignored); day first with ``/``, ``.`` or ``-``
#: (``01.09.2026``, and FIDE's own TRF16 example ``28. 07. 2005``); an English month name
#: (Lichess: ``May 10, 2020``; also ``10 May 2020``).
_DATE_FORMATS = (
    re.compile(r"(?P<y>\d{4})\s*[/.\-]\s*(?P<m>\d{1,2})\s*[/.\-]\s*(?P<d>\d{1,2})(?:[T ]\d{1,2}:\d{2}\S*)?"),
    re.compile(r"(?P<d>\d{1,2})\s*[/.\-]\s*(?P<m>\d{1,2})\s*[/.\-]\s*(?P<y>\d{4})\.?"),
    re.compile(r"(?P<mon>[A-Za-z]{3,9})\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})", re.IGNORECASE),
    re.compile(r"(?P<d>\d{1,2})\.?\s+(?P<mon>[A-Za-z]{3,9})\.?,?\s+(?P<y>\d{4})", re.IGNORECASE),
)


def parse_date(text: str) -> datetime.date | None:
    """A date as the ``042`` lines of real files write it, or ``None`` if ``text`` is not one.

    ``2026/09/01`` (TRF), ``2026-09-01`` (ISO), ``01/09/2026``, ``01.09.2026``, ``01-09-2026``
    and ``01. 09. 2026`` (day first), ``Sep 1, 2026``, ``September 1, 2026``, ``1 Sep 2026``.
    A day-first date whose month would be over 12 is read month first (``09/28/2026``), the
    only reading it has.
    """
    text = text.strip()
    for pattern in _DATE_FORMATS:
        match = pattern.fullmatch(text)
        if not match:
            continue
        groups = match.groupdict()
        if groups.get("mon") is not None:
            month = _MONTHS.get(groups["mon"].lower())
            if month is None:
                return None
        else:
            month = int(groups["m"])
        day, year = int(groups["d"]), int(groups["y"])
        if groups.get("mon") is None and month > 12 >= day and pattern is _DATE_FORMATS[1]:
            day, month = month, day
        try:
            return datetime.date(year, month, day)
        except ValueError:
            return None
    return None


@dataclass(frozen=True, slots=True)
class Tournament:
    """A Swiss tournament: the players (in file order) and the file's other records.

    Build one with :func:`clockd.core.swiss.trf.loads`, or directly from players. The
    helpers return new tournaments; nothing is changed in place.
    """

    players: tuple[Player, ...]
    records: tuple[Record, ...] = ()
    layout: Layout = Layout()
    _by_number: Mapping[int, Player] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_number: dict[int, Player] = {}
        for player in self.players:
            if player.start_number in by_number:
                raise ModelError(f"start number {player.start_number} is used twice")
            by_number[player.start_number] = player
        object.__setattr__(self, "_by_number", by_number)

    # -- players -----------------------------------------------------------------------
    def __getitem__(self, start_number: int) -> Player:
        try:
            return self._by_number[start_number]
        except KeyError:
            raise KeyError(f"no player with start number {start_number}") from None

    def __contains__(self, start_number: object) -> bool:
        return start_number in self._by_number

    def __len__(self) -> int:
        return len(self.players)

    @property
    def start_numbers(self) -> tuple[int, ...]:
        return tuple(p.start_number for p in self.players)

    @property
    def rounds_played(self) -> int:
        """The last round with anything recorded for any player (a bye entered in advance
        for the next round counts: see :attr:`rounds_paired`)."""
        return max((len(p.rounds) for p in self.players), default=0)

    @property
    def rounds_paired(self) -> int:
        """The last round that was paired: someone has an opponent or the pairing-allocated
        bye in it. Byes and absences entered in advance for later rounds do not count."""
        return max((r for p in self.players for r, e in enumerate(p.rounds, start=1) if e.paired), default=0)

    # -- records -----------------------------------------------------------------------
    def record_values(self, code: str) -> tuple[str, ...]:
        """The values of every record with this code, in file order."""
        return tuple(r.value for r in self.records if r.code == code)

    def record_value(self, code: str) -> str | None:
        """The value of the first record with this code, or ``None``."""
        for r in self.records:
            if r.code == code:
                return r.value
        return None

    def with_record(self, code: str, value: str) -> Tournament:
        """Set the record ``code`` (replacing the first one; else added after the headers)."""
        text = f"{code} {value}".rstrip()
        records = list(self.records)
        for i, r in enumerate(records):
            if r.code == code:
                records[i] = Record(text, r.slot)
                return dataclasses.replace(self, records=tuple(records))
        at = next((i for i, r in enumerate(records) if r.slot > 0), len(records))
        records.insert(at, Record(text, 0))
        return dataclasses.replace(self, records=tuple(records))

    @property
    def name(self) -> str:
        return self.record_value("012") or ""

    @property
    def start_date(self) -> datetime.date | None:
        """The event's date of start (record ``042``, see :func:`parse_date`); ``None`` when
        the record is absent or its date cannot be read (:attr:`unreadable_start_date`).

        Only the tie-break edition depends on it, so a file with a date in a form nobody
        foresaw is still read, paired and ranked; the caller says which edition it used."""
        value = self.record_value("042")
        if value is None or not value.strip():
            return None
        return parse_date(value)

    @property
    def unreadable_start_date(self) -> str | None:
        """The text of record ``042`` when it is there but is not a date :func:`parse_date`
        reads; ``None`` otherwise."""
        value = self.record_value("042")
        if value is None or not value.strip() or parse_date(value) is not None:
            return None
        return value

    def record_lines(self) -> tuple[int, ...]:
        """The line number (1-based, as the file is written by :func:`.trf.dumps`) of each
        record, in the order of :attr:`records`: what an error about a record names."""
        order = sorted(range(len(self.records)), key=lambda i: self.records[i].slot)
        lines = [0] * len(self.records)
        line = 0
        k = 0
        for slot in range(len(self.players)):
            while k < len(order) and self.records[order[k]].slot <= slot:
                line += 1
                lines[order[k]] = line
                k += 1
            line += 1
        for i in order[k:]:
            line += 1
            lines[i] = line
        return tuple(lines)

    @property
    def total_rounds(self) -> int | None:
        """The number of rounds the event will have: ``XXR`` (or TRF-2025 ``142``)."""
        for code in ("XXR", "142"):
            value = self.record_value(code)
            if value is not None and value.strip():
                try:
                    n = int(value.split()[0])
                except ValueError:
                    n = 0
                if n < 1:
                    raise ModelError(f"record {code} (number of rounds) is not a positive number: {value!r}")
                return n
        return None

    # -- rounds ------------------------------------------------------------------------
    def pairings(self, round_number: int) -> tuple[tuple[Pairing, ...], int | None]:
        """The boards of a round as recorded (played and forfeited), and who had the
        pairing-allocated bye (``None`` if nobody). Boards come in the order of their
        White's position in the file."""
        boards: list[Pairing] = []
        bye: int | None = None
        for player in self.players:
            entry = player.entry(round_number)
            sn, opponent = player.start_number, entry.opponent
            if entry.code is Code.PAIRING_BYE:
                bye = sn
            elif opponent is None:
                continue
            elif entry.colour is Colour.WHITE:
                boards.append(Pairing(sn, opponent))
            elif entry.colour is None and sn < opponent:  # a forfeit recorded without colours
                boards.append(Pairing(sn, opponent, coloured=False))
        return tuple(boards), bye

    def unplayed_entries(self, round_number: int) -> tuple[tuple[int, RoundEntry], ...]:
        """``(start number, entry)`` of every player who did not play over the board in this
        round: forfeits, byes of every kind, absences and blank entries."""
        return tuple((p.start_number, e) for p in self.players if not (e := p.entry(round_number)).played)

    def absences_known_before(self, round_number: int) -> tuple[tuple[int, RoundEntry], ...]:
        """``(start number, entry)`` of players not to be paired in this round because their
        absence was known in advance (``0000 - H``, ``Z``, ``F``, ``-`` or ``=``)."""
        return tuple((p.start_number, e) for p in self.players if (e := p.entry(round_number)).is_absence)

    def with_players(self, players: Iterable[Player]) -> Tournament:
        return dataclasses.replace(self, players=tuple(players))

    def truncated(self, rounds: int) -> Tournament:
        """Only rounds 1..``rounds`` kept, each player's points column recomputed."""
        if rounds < 0:
            raise ValueError(f"cannot keep {rounds} rounds")
        return self.with_players(
            p
            if len(p.rounds) <= rounds and p.points == p.score()
            else p.replace(rounds=p.rounds[:rounds], points=p.score(rounds))
            for p in self.players
        )

    def pairing_input(self, round_number: int, total_rounds: int | None = None) -> Tournament:
        """The tournament as a pairing program sees it before pairing ``round_number``.

        As bbpPairings' check mode builds it (and the corpus README): rounds 1..k−1 kept; a
        round-k entry kept when it is an absence known in advance (``0000 - H/Z/F/-/=``); a
        player with nothing recorded in round k, when round k was paired, did not take part in
        it (withdrawn, absent): ``0000 - Z`` stands for that, so they are not paired again;
        points recomputed from the kept rounds; an ``XXR`` record giving the event's number
        of rounds (``total_rounds``, else the file's ``XXR``/``142``, else the rounds recorded
        in the file).
        """
        if round_number < 1:
            raise ValueError(f"round numbers start at 1, not {round_number}")
        keep = round_number - 1
        was_paired = any(p.entry(round_number).paired for p in self.players)
        players = []
        for p in self.players:
            rounds = list(p.rounds[:keep])
            entry = p.entry(round_number)
            if entry.is_absence or (was_paired and entry.is_blank):
                rounds.extend([NOT_PAIRED] * (keep - len(rounds)))
                rounds.append(entry if entry.is_absence else ZERO_BYE_ENTRY)
            new_rounds = tuple(rounds)
            score = sum((e.points for e in new_rounds[:keep]), ZERO)
            if new_rounds == p.rounds and p.points == score:
                players.append(p)
            else:
                players.append(p.replace(rounds=new_rounds, points=score))
        n = total_rounds or self.total_rounds or max(self.rounds_played, round_number)
        return self.with_players(players).with_record("XXR", str(n))


def check_pairings(tournament: Tournament) -> list[tuple[int, int, str]]:
    """Every inconsistency between players' entries: ``(start number, round, why)``.

    A paired game must appear on both players' lines, with opposite colours (or none on
    both sides of a forfeit) and results that can stand together (:func:`pair_points_valid`).
    """
    problems: list[tuple[int, int, str]] = []
    for player in tournament.players:
        sn = player.start_number
        for r, entry in player.entries():
            opp = entry.opponent
            if opp is None:
                continue
            if opp == sn:
                problems.append((sn, r, "is paired with themselves"))
                continue
            if opp not in tournament:
                problems.append((sn, r, f"opponent {opp} is not in the tournament"))
                continue
            other = tournament[opp].entry(r)
            if other.opponent != sn:
                said = "nobody" if other.opponent is None else f"player {other.opponent}"
                problems.append((sn, r, f"is paired with {opp}, but {opp}'s line says {said}"))
            elif (entry.colour is None) != (other.colour is None) or (
                entry.colour is not None and entry.colour is other.colour
            ):
                problems.append(
                    (sn, r, f"colour {entry.colour or '-'} against {opp}'s {other.colour or '-'}")
                )
            elif sn < opp and not pair_points_valid(entry, other):
                problems.append(
                    (
                        sn,
                        r,
                        f"result {entry.code.value!r} against {opp}'s "
                        f"{other.code.value!r} cannot stand together",
                    )
                )
    return problems


# -- recording a round ---------------------------------------------------------------------


class BoardResult(StrEnum):
    """The result of a board as the referee writes it."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "½-½"
    NO_RESULT = "0-0"  # the seed's rule: a game with no reported result scores 0–0
    WHITE_WINS_BY_FORFEIT = "+-"
    BLACK_WINS_BY_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"

    @property
    def codes(self) -> tuple[Code, Code]:
        """The result codes on White's and on Black's line."""
        return _BOARD_CODES[self]


_BOARD_CODES: dict[BoardResult, tuple[Code, Code]] = {
    BoardResult.WHITE_WINS: (Code.WIN, Code.LOSS),
    BoardResult.BLACK_WINS: (Code.LOSS, Code.WIN),
    BoardResult.DRAW: (Code.DRAW, Code.DRAW),
    BoardResult.NO_RESULT: (Code.LOSS, Code.LOSS),
    BoardResult.WHITE_WINS_BY_FORFEIT: (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    BoardResult.BLACK_WINS_BY_FORFEIT: (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    BoardResult.DOUBLE_FORFEIT: (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
}


@dataclass(frozen=True, slots=True)
class Board:
    white: int
    black: int
    result: BoardResult


def record_round(
    tournament: Tournament, round_number: int, boards: Iterable[Board], byes: Mapping[int, Code] | None = None
) -> Tournament:
    """The tournament with round ``round_number`` written from its boards and byes.

    ``byes`` maps start numbers to a code that needs no opponent (``U``, ``F``, ``H``,
    ``Z``). Both players of a board get their entry (colours and results mirrored). A
    start number that is unknown or appears twice is an error, and nothing is recorded.
    """
    entries: dict[int, RoundEntry] = {}

    def put(sn: int, entry: RoundEntry) -> None:
        if sn not in tournament:
            raise ModelError(f"round {round_number}: no player with start number {sn}")
        if sn in entries:
            raise ModelError(f"round {round_number}: player {sn} appears twice")
        entries[sn] = entry

    for board in boards:
        if board.white == board.black:
            raise ModelError(f"round {round_number}: player {board.white} cannot play themselves")
        white_code, black_code = board.result.codes
        put(board.white, RoundEntry(board.black, Colour.WHITE, white_code))
        put(board.black, RoundEntry(board.white, Colour.BLACK, black_code))
    for sn, code in (byes or {}).items():
        put(sn, RoundEntry.bye(code))
    return tournament.with_players(
        p.with_entry(round_number, entries[p.start_number]) if p.start_number in entries else p
        for p in tournament.players
    )


# -- the seed's rule for round-1 no-shows --------------------------------------------------

#: Round-1 entries that mean "did not come to their round-1 game": a forfeit loss
#: (including a double forfeit), a zero-point bye or absence, or nothing recorded.
NO_SHOW_CODES = frozenset({Code.FORFEIT_LOSS, Code.ZERO_BYE, Code.NONE})


def round1_no_shows(tournament: Tournament) -> tuple[int, ...]:
    """Start numbers of the players who did not come to round 1 (see :data:`NO_SHOW_CODES`)."""
    return tuple(p.start_number for p in tournament.players if p.entry(1).code in NO_SHOW_CODES)


def withdraw_round1_no_shows(
    tournament: Tournament, reported: Collection[int], total_rounds: int | None = None
) -> Tournament:
    """RULES.md §H: players absent from their round-1 game are removed after round 1 unless
    they report to their group referee before the round-2 pairings are printed.

    Every round-1 no-show not in ``reported`` gets ``0000 - Z`` (not paired, no points) in
    every round from 2 to the event's last (``total_rounds``, else the ``XXR`` record).
    Call it once round 1 is complete and before pairing round 2. A no-show whose later
    rounds are already recorded as played is an error (they evidently came back), and so is
    a ``reported`` start number that is not in the tournament — nothing is changed then.
    """
    n = total_rounds or tournament.total_rounds
    if n is None:
        raise ModelError("the number of rounds is unknown: give total_rounds or an XXR record")
    unknown = sorted(set(reported) - set(tournament.start_numbers))
    if unknown:
        raise ModelError(f"reported start numbers not in the tournament: {', '.join(map(str, unknown))}")
    withdrawn = ZERO_BYE_ENTRY
    players = []
    for player in tournament.players:
        if player.entry(1).code not in NO_SHOW_CODES or player.start_number in reported:
            players.append(player)
            continue
        for r, entry in player.entries():
            if r >= 2 and not (entry.is_blank or entry == withdrawn):
                raise ModelError(
                    f"player {player.start_number} missed round 1 but round {r} "
                    f"is recorded as {entry}; add them to the reported players"
                )
        players.append(player.with_rounds([player.entry(1), *[withdrawn] * (n - 1)]))
    return tournament.with_players(players)
