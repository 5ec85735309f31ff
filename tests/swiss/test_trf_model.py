"""The tournament model: what an entry means, scores, the input for pairing round k, and the
seed's rule that round-1 no-shows are withdrawn unless they report."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from clockd.core.swiss import trf
from clockd.core.swiss.model import (
    Code,
    Colour,
    Kind,
    ModelError,
    Player,
    RoundEntry,
    Tournament,
    pair_points_valid,
    round1_no_shows,
    withdraw_round1_no_shows,
)
from tests.conftest import corpus_dir

SWISS = corpus_dir() / "swiss"
SCHOOL = sorted((SWISS / "school").glob("*.trf"))


def load(path: Path) -> Tournament:
    return trf.load_bytes(path.read_bytes())


@pytest.mark.parametrize(
    ("entry", "kind", "points", "played", "paired"),
    [
        (RoundEntry(2, Colour.WHITE, Code.WIN), Kind.GAME, 1, True, True),
        (RoundEntry(2, Colour.BLACK, Code.DRAW), Kind.GAME, Fraction(1, 2), True, True),
        (RoundEntry(2, Colour.BLACK, Code.LOSS), Kind.GAME, 0, True, True),
        (RoundEntry(2, Colour.WHITE, Code.UNRATED_WIN), Kind.GAME, 1, True, True),
        (RoundEntry(2, Colour.WHITE, Code.FORFEIT_WIN), Kind.FORFEIT_WIN, 1, False, True),
        (RoundEntry(2, None, Code.FORFEIT_LOSS), Kind.FORFEIT_LOSS, 0, False, True),
        (RoundEntry(None, None, Code.PAIRING_BYE), Kind.PAIRING_BYE, 1, False, True),
        (RoundEntry(None, None, Code.FULL_BYE), Kind.FULL_BYE, 1, False, False),
        (RoundEntry(None, None, Code.HALF_BYE), Kind.HALF_BYE, Fraction(1, 2), False, False),
        (RoundEntry(None, None, Code.DRAW), Kind.HALF_BYE, Fraction(1, 2), False, False),  # "0000 - ="
        (RoundEntry(None, None, Code.ZERO_BYE), Kind.ZERO_BYE, 0, False, False),
        (RoundEntry(None, None, Code.NONE), Kind.NOT_PAIRED, 0, False, False),
    ],
)
def test_what_an_entry_means(
    entry: RoundEntry, kind: Kind, points: Fraction, played: bool, paired: bool
) -> None:
    assert (entry.kind, entry.points, entry.played, entry.paired) == (kind, points, played, paired)
    assert entry.problem() is None


def test_results_that_can_stand_together() -> None:
    def e(code: Code) -> RoundEntry:
        return RoundEntry(1, Colour.WHITE, code)

    assert pair_points_valid(e(Code.WIN), e(Code.LOSS))
    assert pair_points_valid(e(Code.LOSS), e(Code.LOSS))  # no reported result: 0–0
    assert pair_points_valid(e(Code.DRAW), e(Code.LOSS))  # ½–0 after a penalty
    assert pair_points_valid(e(Code.FORFEIT_LOSS), e(Code.FORFEIT_LOSS))  # double forfeit
    assert not pair_points_valid(e(Code.WIN), e(Code.DRAW))
    assert not pair_points_valid(e(Code.WIN), e(Code.UNRATED_LOSS))
    assert not pair_points_valid(e(Code.FORFEIT_WIN), e(Code.LOSS))
    assert not pair_points_valid(e(Code.FORFEIT_WIN), e(Code.FORFEIT_WIN))


def test_constructors_refuse_nonsense() -> None:
    with pytest.raises(ModelError):
        RoundEntry.game(3, Colour.WHITE, Code.HALF_BYE)
    with pytest.raises(ModelError):
        RoundEntry.bye(Code.WIN)
    with pytest.raises(ModelError, match="twice"):
        Tournament((Player(1), Player(1)))


def test_trailing_blank_rounds_do_not_make_players_differ() -> None:
    a = Player(1, rounds=(RoundEntry.bye(Code.HALF_BYE),))
    b = Player(1, rounds=(RoundEntry.bye(Code.HALF_BYE), RoundEntry.bye(Code.NONE)))
    assert a == b and b.rounds == a.rounds
    assert a.with_entry(3, RoundEntry.bye(Code.ZERO_BYE)).rounds[1].is_blank


def test_score_through_a_round() -> None:
    t = load(SWISS / "t_0001_p7_r5.trf")
    # player 1: 1 1 = 1 1
    assert [t[1].score(r) for r in range(6)] == [0, 1, 2, Fraction(5, 2), Fraction(7, 2), Fraction(9, 2)]
    assert t[1].score() == t[1].points == Fraction(9, 2)


def test_pairings_of_a_round_as_recorded() -> None:
    t = load(SWISS / "t_0001_p7_r5.trf")
    boards, bye = t.pairings(1)
    assert [(b.white, b.black) for b in boards] == [(1, 4), (3, 6), (5, 2)]
    assert bye == 7


def test_pairing_input_for_round_k_keeps_known_absences_and_recomputes_points() -> None:
    path = next(
        p
        for p in sorted(SWISS.glob("t_*.trf"))
        if any(e.code in (Code.HALF_BYE, Code.ZERO_BYE) for p_ in load(p).players for e in p_.rounds[1:])
    )
    t = load(path)
    for k in range(2, t.rounds_played + 1):
        before = t.pairing_input(k)
        assert before.total_rounds == t.rounds_played
        assert before.record_values("XXR") == (str(t.rounds_played),)
        for p, q in zip(t.players, before.players, strict=True):
            absent_known = p.entry(k).opponent is None and p.entry(k).code in (
                Code.HALF_BYE,
                Code.ZERO_BYE,
                Code.FULL_BYE,
            )
            assert q.rounds[: k - 1] == p.rounds[: k - 1]
            assert q.entry(k) == (p.entry(k) if absent_known else RoundEntry.bye(Code.NONE))
            assert q.points == p.score(k - 1)
        known = (Code.HALF_BYE, Code.ZERO_BYE, Code.FULL_BYE)
        assert {sn for sn, _ in before.absences_known_before(k)} == {
            p.start_number for p in t.players if p.entry(k).opponent is None and p.entry(k).code in known
        }
        # what a pairing program would read back
        assert trf.loads(trf.dumps(before)) == before


def test_unplayed_entries_of_a_round() -> None:
    t = load(SCHOOL[0])
    unplayed = dict(t.unplayed_entries(1))
    assert unplayed[2] == RoundEntry(24, Colour.BLACK, Code.FORFEIT_WIN)
    assert unplayed[24] == RoundEntry(2, Colour.WHITE, Code.FORFEIT_LOSS)
    assert unplayed[25].code is Code.ZERO_BYE
    played = {p.start_number for p in t.players if p.entry(1).played}
    assert played and not played & set(unplayed)
    assert played | set(unplayed) == set(t.start_numbers)


@pytest.mark.parametrize("path", SCHOOL, ids=lambda p: p.name)
def test_round1_no_shows_are_withdrawn_as_the_school_files_record(path: Path) -> None:
    t = load(path)
    after_round1 = t.truncated(1)
    withdrawn = withdraw_round1_no_shows(after_round1, reported=())
    no_shows = round1_no_shows(after_round1)
    assert no_shows  # every school file has some
    for p in t.players:
        if p.start_number in no_shows:
            # exactly what the event recorded: 0000 - Z from round 2 to round 8
            assert withdrawn[p.start_number].rounds == p.rounds
            assert all(p.entry(r) == RoundEntry.bye(Code.ZERO_BYE) for r in range(2, 9))
        else:
            assert withdrawn[p.start_number] == after_round1[p.start_number]
            assert any(p.entry(r).paired for r in range(2, 9))  # they went on playing


def test_a_no_show_who_reports_is_not_withdrawn() -> None:
    t = load(SCHOOL[0]).truncated(1)
    forfeiter = next(sn for sn in round1_no_shows(t) if t[sn].entry(1).code is Code.FORFEIT_LOSS)
    result = withdraw_round1_no_shows(t, reported={forfeiter})
    assert result[forfeiter] == t[forfeiter]
    assert len(result[forfeiter].rounds) == 1
    others = set(round1_no_shows(t)) - {forfeiter}
    assert all(len(result[sn].rounds) == 8 for sn in others)


def test_the_no_show_rule_refuses_what_it_cannot_apply() -> None:
    full = load(SCHOOL[0])
    t = full.truncated(1)
    with pytest.raises(ModelError, match="not in the tournament"):
        withdraw_round1_no_shows(t, reported={999})
    no_rounds = t.with_players(t.players)
    bare = Tournament(no_rounds.players)  # no XXR record
    with pytest.raises(ModelError, match="number of rounds"):
        withdraw_round1_no_shows(bare, reported=())
    # a no-show recorded as playing in round 2 came back: the referee must say so
    sn = round1_no_shows(t)[0]
    came_back = t.with_players(
        p.with_entry(2, RoundEntry(None, None, Code.FULL_BYE)) if p.start_number == sn else p
        for p in t.players
    )
    with pytest.raises(ModelError, match=f"player {sn} missed round 1"):
        withdraw_round1_no_shows(came_back, reported=())
