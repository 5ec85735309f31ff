"""FIDE's Tournament Report File (TRF16, TRF-2025): read and write, exactly.

A TRF file is a list of lines; the first three characters say what a line is. ``001``
lines are players, in fixed columns (1-based, as FIDE's specification counts them):

=========  ==========================================
columns    field
=========  ==========================================
1–3        ``001``
5–8        start number
10         sex (``m``/``w``)
11–13      title
15–47      name
49–52      rating
54–56      federation
58–68      FIDE (or national) id
70–79      birth date
81–84      points (as declared by the writing program)
86–89      rank
92–101     round 1: opponent (92–95), colour (97), result (99)
+10·(r−1)  round r
=========  ==========================================

Every other line — headers (``012`` name, ``042`` date of start, ``092`` type…), the
extension lines the pairing programs read (``XXR`` number of rounds, ``XXC``
configuration, ``XXS``, ``XXA``, ``XXP`` …), comments (``###``) and blank lines — is kept
as a :class:`~clockd.core.swiss.model.Record`, in place.

Reading accepts CR (as bbpPairings writes), LF and CRLF line ends and remembers which,
so :func:`dumps` gives back the same bytes. A line that cannot be read raises
:class:`TrfError` naming its line and column and what was expected there; nothing is
returned half-read. The lines must also agree with each other (a game on one player's
line is on the opponent's line too, with the other colour and a result that fits).

Writing is canonical (fixed columns, no trailing spaces); a player line that was read
and is unchanged is written back exactly as it was read, even if its writer spaced it
differently. A name longer than the name field's 33 columns is cut there, at the
writer's edge (:func:`fit_name`; :func:`cut_names` says whose, so the command writing the
file can say so): everywhere else the program keeps the full name. Any other field too
long for its columns is refused with :class:`FieldTooLong`, so a start list can be
checked before it is accepted (:func:`check_fits`).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from clockd.core.csvtext import control_character
from clockd.core.swiss.model import (
    Code,
    Colour,
    Layout,
    ModelError,
    Player,
    Record,
    RoundEntry,
    Tournament,
    check_pairings,
)

__all__ = [
    "NAME_WIDTH",
    "FieldTooLong",
    "TrfError",
    "check_fits",
    "cut_names",
    "decode",
    "dump_bytes",
    "dumps",
    "fit_name",
    "format_player",
    "load_bytes",
    "loads",
    "parse_player_line",
]

ROUNDS_START = 92  # 1-based column of the first round's opponent
ROUND_WIDTH = 10
#: The name field's width (columns 15–47).
NAME_WIDTH = 33


class TrfError(ValueError):
    """A TRF line that cannot be read. ``line`` and ``column`` are 1-based."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.reason = message


class _ColumnError(Exception):
    """Raised inside a line's parser; the caller adds the line number."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


# -- reading ---------------------------------------------------------------------------------


def decode(data: bytes) -> tuple[str, str]:
    """The text of a TRF file and its encoding: UTF-8 (a BOM is allowed), else Latin-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def load_bytes(data: bytes) -> Tournament:
    """:func:`loads` on the bytes of a file (see :func:`decode`)."""
    text, encoding = decode(data)
    t = loads(text)
    return Tournament(t.players, t.records, Layout(t.layout.newline, t.layout.final_newline, encoding))


def _split_lines(text: str) -> tuple[list[str], str, bool]:
    """The lines, the line end (the first one met decides), and whether the text ends with one."""
    if not text:
        return [], "\n", True
    cr, lf = text.find("\r"), text.find("\n")
    if cr < 0:
        newline = "\n"
    elif lf == cr + 1:
        newline = "\r\n"
    elif lf < 0 or cr < lf:
        newline = "\r"
    else:
        newline = "\n"
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    final_newline = normalised.endswith("\n")
    body = normalised[:-1] if final_newline else normalised
    return body.split("\n"), newline, final_newline


def loads(text: str) -> Tournament:
    """Read a TRF file's text. Raises :class:`TrfError` on the first line that is wrong."""
    lines, newline, final_newline = _split_lines(text)
    players: list[Player] = []
    records: list[Record] = []
    line_of: dict[int, int] = {}
    for number, line in enumerate(lines, start=1):
        code = line[:3]
        if code == "001":
            try:
                player = parse_player_line(line)
            except _ColumnError as exc:
                raise TrfError(number, exc.column, exc.message) from None
            if player.start_number in line_of:
                raise TrfError(
                    number,
                    5,
                    f"start number {player.start_number} is already used "
                    f"on line {line_of[player.start_number]}",
                )
            line_of[player.start_number] = number
            players.append(player)
        else:
            _check_record(line, number)
            records.append(Record(line, len(players)))
    try:
        tournament = Tournament(tuple(players), tuple(records), Layout(newline, final_newline))
    except ModelError as exc:  # pragma: no cover — duplicates are caught above
        raise TrfError(len(lines), 1, str(exc)) from None
    _check_record_values(lines)
    problems = check_pairings(tournament)
    if problems:
        sn, r, why = problems[0]
        raise TrfError(line_of[sn], ROUNDS_START + ROUND_WIDTH * (r - 1), f"round {r}: player {sn} {why}")
    return tournament


def _check_record(line: str, number: int) -> None:
    if not line.strip() or line.startswith("###"):  # blank, or a comment
        return
    if len(line) < 3:
        raise TrfError(number, 1, f"expected a three-character record code, found {line!r}")
    if len(line) > 3 and line[3] != " ":
        raise TrfError(number, 4, f"expected a space after the record code {line[:3]!r}, found {line[3]!r}")


def _check_record_values(lines: list[str]) -> None:
    """The records whose values this program relies on must be readable. (The date of start,
    ``042``, is not among them: it only chooses the tie-break edition, and a date that cannot
    be read leaves that choice to the caller; see ``Tournament.unreadable_start_date``.)"""
    for number, line in enumerate(lines, start=1):
        code = line[:3]
        if code in ("XXR", "142"):
            value = line[4:].strip()
            if not value:
                continue
            first = value.split()[0]
            if not first.isdigit() or int(first) < 1:
                raise TrfError(number, 5, f"{code}: expected the number of rounds, found {first!r}")


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive); missing columns read as spaces."""
    return line[first - 1 : last].ljust(last - first + 1)


def _space(line: str, column: int, after: str) -> None:
    ch = _field(line, column, column)
    if ch != " ":
        raise _ColumnError(column, f"expected a space after the {after}, found {ch!r}")


def _number(line: str, first: int, last: int, what: str, *, required: bool = False) -> int | None:
    text = _field(line, first, last)
    stripped = text.strip()
    if not stripped:
        if required:
            raise _ColumnError(first, f"expected the {what} in columns {first}–{last}, found nothing")
        return None
    if not stripped.isdigit() or not stripped.isascii() or " " in text.lstrip():
        at = first + next(i for i, ch in enumerate(text) if ch != " ")
        raise _ColumnError(
            at, f"expected the {what} (digits, right-aligned in columns {first}–{last}), found {text!r}"
        )
    return int(stripped)


def _points(line: str) -> Fraction | None:
    text = _field(line, 81, 84)
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value = Decimal(stripped)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or value < 0 or " " in text.lstrip():
        raise _ColumnError(81, f"expected the points (like 4.5) in columns 81–84, found {text!r}")
    return Fraction(value)


_COLOURS = {"w": Colour.WHITE, "b": Colour.BLACK, "W": Colour.WHITE, "B": Colour.BLACK}
_CODES = {c.value: c for c in Code} | {c.value.lower(): c for c in Code if c.value.isalpha()}


def _round_entry(line: str, start: int, round_number: int) -> RoundEntry:
    opponent_text = _field(line, start, start + 3)
    where = f"round {round_number}"
    if opponent_text.strip() in ("", "0000"):
        opponent: int | None = None
    else:
        opponent = _number(line, start, start + 3, f"{where} opponent's start number")
        if opponent == 0:
            opponent = None
    for column in (start + 4, start + 6):
        _space(line, column, f"{where} {'opponent' if column == start + 4 else 'colour'}")
    colour_char = _field(line, start + 5, start + 5)
    if colour_char in ("-", " "):
        colour = None
    elif colour_char in _COLOURS:
        colour = _COLOURS[colour_char]
    else:
        raise _ColumnError(start + 5, f"{where}: expected a colour (w, b or -), found {colour_char!r}")
    code_char = _field(line, start + 7, start + 7)
    code = _CODES.get(code_char)
    if code is None:
        raise _ColumnError(
            start + 7, f"{where}: expected a result (1 = 0 + - W D L H F U Z), found {code_char!r}"
        )
    entry = RoundEntry(opponent, colour, code)
    problem = entry.problem()
    if problem:
        raise _ColumnError(start, f"{where}: {problem}")
    return entry


def parse_player_line(line: str) -> Player:
    """One ``001`` line as a :class:`Player` (its ``source`` set to the line).

    Raises ``_ColumnError`` (internal); :func:`loads` turns it into :class:`TrfError`.
    """
    if line[3:4] not in ("", " "):
        raise _ColumnError(4, f"expected a space after 001, found {line[3]!r}")
    start_number = _number(line, 5, 8, "start number", required=True)
    assert start_number is not None
    if start_number < 1:
        raise _ColumnError(5, "start numbers begin at 1")
    _space(line, 9, "start number")
    _space(line, 14, "title")
    _space(line, 48, "name (columns 15–47)")
    for offset, ch in enumerate(_field(line, 15, 47)):
        if control_character(ch) is not None:  # a NUL would reach the pages and files made from it
            raise _ColumnError(
                15 + offset, f"the name contains a control character (U+{ord(ch):04X}); retype it"
            )
    rating = _number(line, 49, 52, "rating")
    _space(line, 53, "rating")
    _space(line, 57, "federation")
    fide_id = _field(line, 58, 68).strip()
    if fide_id and not fide_id.isalnum():
        raise _ColumnError(58, f"expected the FIDE id in columns 58–68, found {fide_id!r}")
    _space(line, 69, "FIDE id")
    _space(line, 80, "birth date")
    points = _points(line)
    _space(line, 85, "points")
    rank = _number(line, 86, 89, "rank")
    for column in (90, 91):
        _space(line, column, "rank")
    rounds: list[RoundEntry] = []
    length = len(line.rstrip())
    start = ROUNDS_START
    while start <= length:
        rounds.append(_round_entry(line, start, len(rounds) + 1))
        if length >= start + 8:
            _space(line, start + 8, f"round {len(rounds)} result")
            _space(line, start + 9, f"round {len(rounds)} result")
        start += ROUND_WIDTH
    return Player(
        start_number=start_number,
        sex=_field(line, 10, 10).strip(),
        title=_field(line, 11, 13).strip(),
        name=_field(line, 15, 47).strip(),
        rating=rating,
        federation=_field(line, 54, 56).strip(),
        fide_id=fide_id,
        birth=_field(line, 70, 79).strip(),
        points=points,
        rank=rank,
        rounds=tuple(rounds),
        source=line,
    )


# -- writing ---------------------------------------------------------------------------------


def _format_points(points: Fraction) -> str:
    tenths = points * 10
    if tenths.denominator != 1:
        raise ValueError(f"{points} points cannot be written in TRF's one decimal place")
    whole, tenth = divmod(int(tenths), 10)
    return f"{whole}.{tenth}"


class FieldTooLong(ValueError):
    """A player's field (other than the name) longer than its columns: ``field`` as this
    module's table names it, the ``value`` and the ``width``."""

    def __init__(self, start_number: int, field: str, value: str, width: int) -> None:
        super().__init__(f"player {start_number}: {field} {value!r} is longer than its {width} columns")
        self.start_number = start_number
        self.field = field
        self.value = value
        self.width = width


def _fit(text: str, width: int, what: str, sn: int) -> str:
    if len(text) > width:
        raise FieldTooLong(sn, what, text, width)
    return text


def fit_name(name: str) -> str:
    """``name`` as the name field holds it: at most :data:`NAME_WIDTH` characters.

    A real name can be longer ("Brzęczyszczykiewicz-Grzegorzewska, Aleksandra" has 44):
    the fixed-width format cuts it here, at its own edge, and nowhere else. The cut keeps
    the field's ``Surname, First name`` shape, so a program reading the file still tells
    the two apart: later first names go first, then the first name becomes its initial,
    and only then is the surname cut (``Brzęczyszczykiewicz-Grzegorze, A.``). A name
    without a comma is cut at the 33rd column.
    """
    if len(name) <= NAME_WIDTH:
        return name
    surname, comma, first = (" ".join(part.split()) for part in name.partition(","))
    words = first.split()
    if not comma or not surname or not words:
        return name[:NAME_WIDTH].rstrip()
    for keep in range(len(words), 0, -1):
        if len(shorter := f"{surname}, {' '.join(words[:keep])}") <= NAME_WIDTH:
            return shorter
    initial = f"{words[0][0]}."
    if len(shorter := f"{surname}, {initial}") <= NAME_WIDTH:
        return shorter
    return f"{surname[: NAME_WIDTH - len(initial) - 2].rstrip(' -')}, {initial}"


def cut_names(tournament: Tournament) -> list[tuple[int, str, str]]:
    """The players whose name the writer cuts: (start number, full name, name as written)."""
    return [
        (p.start_number, p.name, fit_name(p.name)) for p in tournament.players if len(p.name) > NAME_WIDTH
    ]


def check_fits(tournament: Tournament) -> None:
    """Raise :class:`FieldTooLong` for the first player field that does not fit its columns
    (a name is never refused: it is cut, see :func:`fit_name`)."""
    for player in tournament.players:
        format_player(player)


def format_player(player: Player) -> str:
    """A canonical ``001`` line: fixed columns, no trailing spaces."""
    sn = player.start_number
    if not 1 <= sn <= 9999:
        raise ValueError(f"start number {sn} does not fit TRF's four columns")
    rating = "" if player.rating is None else str(player.rating)
    points = "" if player.points is None else _format_points(player.points)
    rank = "" if player.rank is None else str(player.rank)
    head = (
        f"001 {sn:4d} {_fit(player.sex, 1, 'sex', sn):1}{_fit(player.title, 3, 'title', sn):>3} "
        f"{fit_name(player.name):33} {_fit(rating, 4, 'rating', sn):>4} "
        f"{_fit(player.federation, 3, 'federation', sn):3} {_fit(player.fide_id, 11, 'FIDE id', sn):>11} "
        f"{_fit(player.birth, 10, 'birth date', sn):10} {_fit(points, 4, 'points', sn):>4} "
        f"{_fit(rank, 4, 'rank', sn):>4}"
    )
    parts = [head]
    for entry in player.rounds:
        if entry.is_blank:
            parts.append("  " + " " * 8)
            continue
        opponent = "0000" if entry.opponent is None else f"{entry.opponent:4d}"
        if entry.opponent is not None and entry.opponent > 9999:
            raise ValueError(f"player {sn}: opponent {entry.opponent} does not fit four columns")
        colour = "-" if entry.colour is None else entry.colour.value
        parts.append(f"  {opponent} {colour} {entry.code.value}")
    return "".join(parts).rstrip()


def _player_line(player: Player) -> str:
    source = player.source
    if source is not None:
        try:
            if parse_player_line(source) == player:
                return source
        except _ColumnError:
            pass
    return format_player(player)


def dumps(tournament: Tournament) -> str:
    """The TRF text of a tournament, in the line-end convention it was read with."""
    lines: list[str] = []
    records = sorted(tournament.records, key=lambda r: r.slot)  # stable: file order kept
    i = 0
    for slot, player in enumerate(tournament.players):
        while i < len(records) and records[i].slot <= slot:
            lines.append(records[i].text)
            i += 1
        lines.append(_player_line(player))
    lines.extend(r.text for r in records[i:])
    layout = tournament.layout
    text = layout.newline.join(lines)
    if lines and layout.final_newline:
        text += layout.newline
    return text


def dump_bytes(tournament: Tournament) -> bytes:
    """:func:`dumps`, encoded as the file was read (UTF-8 for a new tournament)."""
    return dumps(tournament).encode(tournament.layout.encoding)
