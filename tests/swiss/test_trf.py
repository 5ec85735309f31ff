"""TRF read and write: every corpus file round-trips byte for byte; bad lines are refused
with their line and column; the lines of a file must agree with each other."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from clockd.core.swiss import trf
from clockd.core.swiss.model import Code, Colour, Pairing, Player, RoundEntry, Tournament
from clockd.core.swiss.trf import TrfError
from tests.conftest import swiss_corpus_files

CORPUS = swiss_corpus_files()

SMALL = """\
012 Small
042 2026/09/01
XXR 3
001    1 m    Alpha, Ann                        1800 POL    12345678 2010/01/01  1.5    1     2 w 1     3 b =
001    2 w    Beta, Bea                         1700 POL             2011/02/02  1.0    2     1 b 0  0000 - U
001    3      Gamma, Cy                         1600 POL                         0.5    3  0000 - Z     1 w =
"""


def test_the_corpus_is_all_there() -> None:
    assert len(CORPUS) == 46


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_round_trip_is_byte_identical(path: Path) -> None:
    data = path.read_bytes()
    tournament = trf.load_bytes(data)
    assert trf.dump_bytes(tournament) == data
    # The canonical writer alone (no line kept from the source) writes the same file:
    # the columns are right, not merely copied.
    fresh = tournament.with_players(p.replace() for p in tournament.players)
    assert all(p.source is None for p in fresh.players)
    assert trf.dump_bytes(fresh) == data


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_every_line_end_is_read_and_kept(newline: str) -> None:
    text = SMALL.replace("\n", newline)
    tournament = trf.loads(text)
    assert tournament.layout.newline == newline
    assert [p.name for p in tournament.players] == ["Alpha, Ann", "Beta, Bea", "Gamma, Cy"]
    assert trf.dumps(tournament) == text
    assert trf.dumps(trf.loads(text.rstrip(newline))) == text.rstrip(newline)  # no final line end


def test_fields_are_read_from_their_columns() -> None:
    t = trf.loads(SMALL)
    ann, bea, cy = t.players
    assert (ann.start_number, ann.sex, ann.name, ann.rating, ann.federation, ann.fide_id, ann.birth) == (
        1,
        "m",
        "Alpha, Ann",
        1800,
        "POL",
        "12345678",
        "2010/01/01",
    )
    assert ann.points == Fraction(3, 2) and ann.rank == 1
    assert ann.rounds == (RoundEntry(2, Colour.WHITE, Code.WIN), RoundEntry(3, Colour.BLACK, Code.DRAW))
    assert bea.entry(2) == RoundEntry(None, None, Code.PAIRING_BYE)
    assert cy.entry(1).code is Code.ZERO_BYE and cy.fide_id == "" and cy.sex == ""
    assert t.name == "Small" and t.total_rounds == 3 and str(t.start_date) == "2026-09-01"


def test_a_changed_player_is_written_in_canonical_columns() -> None:
    t = trf.loads(SMALL)
    cy = t[3].with_entry(3, RoundEntry(2, Colour.BLACK, Code.LOSS))
    bea = t[2].with_entry(3, RoundEntry(3, Colour.WHITE, Code.WIN))
    out = trf.dumps(t.with_players([t[1], bea, cy]))
    assert out.splitlines()[4].endswith("0000 - U     3 w 1")
    assert out.splitlines()[5].endswith("     1 w =     2 b 0")
    assert trf.loads(out)[3].rounds[2] == RoundEntry(2, Colour.BLACK, Code.LOSS)


def put(line: str, column: int, text: str) -> str:
    """``line`` with ``text`` written from 1-based ``column`` on (padding with spaces)."""
    line = line.ljust(column - 1 + len(text))
    return line[: column - 1] + text + line[column - 1 + len(text) :]


GOOD = put(put(put("001    1", 15, "Alpha"), 49, "1800"), 81, " 0.0    1     2 w 1     3 b 0")


def test_the_good_line_is_good() -> None:
    assert trf.parse_player_line(GOOD).rounds[1] == RoundEntry(3, Colour.BLACK, Code.LOSS)


def test_unusual_spacing_is_kept_while_the_player_is_unchanged() -> None:
    # lower-case result letters and a blank colour on a forfeit are read (bbpPairings does)
    one = put(put(put("001    1", 15, "A"), 81, " 1.0"), 92, "   2   +  0000 - h")
    two = put(put(put("001    2", 15, "B"), 81, " 0.0"), 92, "   1 - -")
    text = one + "\n" + two + "\n"
    t = trf.loads(text)
    assert t[1].entry(2).code is Code.HALF_BYE and t[1].entry(1).colour is None
    assert t.pairings(1) == ((Pairing(1, 2, coloured=False),), None)
    assert trf.dumps(t) == text
    changed = t.with_players([t[1].replace(name="A2"), t[2]])
    assert trf.dumps(changed).splitlines()[0].endswith("   2 - +  0000 - H")


BAD_LINES = [
    # (what is wrong, column written, text written there, column reported, words in the message)
    ("start number missing", 5, "    ", 5, "start number"),
    ("letters in the start number", 5, "  1x", 7, "start number"),
    ("no space after the code", 4, "1", 4, "space after 001"),
    ("rating not a number", 49, "18x0", 49, "rating"),
    ("name runs into the rating", 15, "A name far too long for its thirty-three columns", 48, "name"),
    ("points not a number", 81, " x.5", 81, "points"),
    ("unknown colour", 97, "x", 97, "colour"),
    ("unknown result", 99, "7", 99, "result"),
    ("bye with an opponent", 97, "- U", 92, "bye"),
    ("game without colour", 97, "-", 92, "colour"),
    ("colour without opponent", 92, "0000", 92, "colour"),
    ("junk after a result", 100, "x", 100, "space after the round 1 result"),
    ("opponent is not a number", 92, "  a2", 94, "opponent"),
    ("opponent is the player", 92, "   1", 92, "themselves"),
]


@pytest.mark.parametrize(
    ("column", "text", "reported", "words"),
    [case[1:] for case in BAD_LINES],
    ids=[case[0] for case in BAD_LINES],
)
def test_a_malformed_player_line_is_refused_with_line_and_column(
    column: int, text: str, reported: int, words: str
) -> None:
    bad = put(GOOD, column, text)
    assert bad != GOOD
    with pytest.raises(TrfError) as caught:
        trf.loads("012 Bad\nXXR 5\n" + bad + "\n")
    assert (caught.value.line, caught.value.column) == (3, reported), str(caught.value)
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"line 3, column {reported}: ")


@pytest.mark.parametrize(
    ("bad", "line", "column", "words"),
    [
        ("XXR nine", 2, 5, "number of rounds"),
        ("X", 2, 1, "record code"),
        ("XXRR 9", 2, 4, "space after the record code"),
    ],
)
def test_a_malformed_record_is_refused(bad: str, line: int, column: int, words: str) -> None:
    with pytest.raises(TrfError) as caught:
        trf.loads("012 Bad\n" + bad + "\n" + SMALL.split("\n", 3)[3])
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        # player 2's round 1 says something else than player 1's "2 w 1"
        (("     1 b 0", "     3 b 0"), "2's line says player 3"),
        (("     1 b 0", "     1 w 0"), "colour"),
        (("     1 b 0", "     1 b ="), "cannot stand together"),
        (("     1 b 0", "  0000 - Z"), "says nobody"),
        (("     3 b =", "     9 b ="), "not in the tournament"),
    ],
)
def test_the_lines_must_agree_with_each_other(change: tuple[str, str], words: str) -> None:
    text = SMALL.replace(*change, 1)
    assert text != SMALL
    with pytest.raises(TrfError) as caught:
        trf.loads(text)
    assert words in str(caught.value)
    assert caught.value.line in (4, 5) and caught.value.column in (92, 102)


def test_a_repeated_start_number_names_both_lines() -> None:
    text = SMALL.replace("001    3", "001    2")
    with pytest.raises(TrfError, match=r"line 6, column 5: start number 2 is already used on line 5"):
        trf.loads(text)


def test_zero_zero_and_double_forfeit_are_accepted() -> None:
    lines = [
        put(put(put(f"001    {sn}", 15, name), 81, " 0.0"), 92, rounds)
        for sn, name, rounds in [
            (1, "A", "   2 w 0     3 b -"),
            (2, "B", "   1 b 0  0000 - U"),
            (3, "C", "0000 - H     1 w -"),
        ]
    ]
    text = "\n".join(lines) + "\n"
    t = trf.loads(text)
    assert t[1].entry(1).played and t[2].entry(1).played  # 0–0: a game, no points
    assert t[1].score() == 0 and t[3].score() == Fraction(1, 2)
    assert trf.dumps(t) == text


def test_writing_cuts_a_long_name_and_refuses_what_trf_cannot_hold() -> None:
    long = "Brzęczyszczykiewicz-Grzegorzewska, Aleksandra"
    line = trf.dumps(Tournament((Player(1, name=long),))).splitlines()[-1]
    cut = "Brzęczyszczykiewicz-Grzegorze, A."  # the field's shape kept: "Surname, First name"
    assert line[14:47] == cut and trf.cut_names(Tournament((Player(1, name=long),))) == [(1, long, cut)]
    assert trf.fit_name("Kowalska-Nowakowska, Aleksandra Maria Józefa") == "Kowalska-Nowakowska, Aleksandra"
    assert trf.fit_name("Nowak, Jan") == "Nowak, Jan" and len(trf.fit_name("X" * 40)) == 33
    with pytest.raises(trf.FieldTooLong, match="federation") as refused:
        trf.dumps(Tournament((Player(1, name="N", federation="POLA"),)))
    assert (refused.value.field, refused.value.value, refused.value.width) == ("federation", "POLA", 3)
    with pytest.raises(ValueError, match="one decimal"):
        trf.dumps(Tournament((Player(1, name="N", points=Fraction(1, 3)),)))
