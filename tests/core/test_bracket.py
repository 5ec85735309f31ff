"""The knockout bracket (§2.1.8–2.1.9, §2.2.1, §2.2.16–2.2.21): shape, byes, draw, advancing,
tie-breaks and referee decisions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockd.core.bracket import (
    Assign,
    Bracket,
    BracketError,
    Confirm,
    DecidedBy,
    Draw,
    DuelFinished,
    MatchInput,
    MatchStatus,
    Override,
    OverrideReason,
    Toss,
    Walkover,
    bye_lines,
    open_lines,
    replay_bracket,
    seeded_draw,
)
from clockd.core.clock import PerSide, Side
from clockd.core.duel import DuelDecidedBy, Verdict
from clockd.core.tournament import RoundKind, TournamentConfig
from clockd.core.units import MINUTE, SECOND
from clockd.data import festival_config

CONFIG = festival_config()

#: The standard seeding of a 16 draw, seed number by line — the published table that tennis,
#: badminton and chess knockouts use (seed 1 top, seed 2 bottom, 1–16 and 8–9 first).
STANDARD_16 = [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def verdict(a_left_s: int, b_left_s: int, *, flag: bool = False) -> Verdict:
    """A clock's verdict with these whole seconds left (clock side a first)."""
    if flag:
        winner: Side | None = Side.A if b_left_s == 0 else Side.B
        by = DuelDecidedBy.FLAG
    elif a_left_s == b_left_s:
        winner, by = None, DuelDecidedBy.TIE
    else:
        winner, by = (Side.A if a_left_s > b_left_s else Side.B), DuelDecidedBy.TIME
    return Verdict(
        winner=winner,
        decided_by=by,
        remaining_ns=PerSide(a=a_left_s * SECOND, b=b_left_s * SECOND),
        displayed=PerSide[str](
            a=f"{a_left_s // 60}:{a_left_s % 60:02d}", b=f"{b_left_s // 60}:{b_left_s % 60:02d}"
        ),
        moves=PerSide(a=20, b=19),
        ended_at_ns=20 * MINUTE,
        resolution_ns=SECOND,
        steps=PerSide(a=a_left_s, b=b_left_s),
    )


def full_draw(n: int = 16, seed: int = 1) -> Draw:
    return Draw.seeded(list(range(1, n + 1)), 16 if n > 8 else 8, seed)


def play(b: Bracket, mid: str, a_left: int, b_left: int, *, table: int = 1, confirm: bool = True) -> Bracket:
    m = b.match(mid)
    b = b.apply(mid, Assign(table=table))
    b = b.apply(mid, Toss(winner=m.a or 0))
    b = b.apply(mid, DuelFinished(verdict=verdict(a_left, b_left)))
    if confirm and a_left != b_left:
        b = b.apply(mid, Confirm(), referee="Sędzia A")
    return b


def run_session(b: Bracket, rng: random.Random, tie_rate: float = 0.0) -> tuple[Bracket, list[list[int]]]:
    """Play every match to the end in playing order; return the bracket and who played each duel."""
    played: list[list[int]] = []
    while not b.finished:
        m = b.playable()[0]
        tie = rng.random() < tie_rate
        a_left = rng.randrange(1, 600)
        b_left = a_left if tie else rng.choice([x for x in range(1, 600) if x != a_left])
        played.append([p for p in (m.a, m.b) if p is not None])
        b = play(b, m.id, a_left, b_left)
    return b, played


# -- shape ------------------------------------------------------------------------------------


def test_a_full_session_is_16_duels_8_4_2_then_3rd_place_and_final() -> None:
    b, _ = run_session(Bracket.create(CONFIG, full_draw()), random.Random(3))
    per_round = [sum(1 for m in b.duels() if m.round == r) for r in range(1, 6)]
    assert per_round == [8, 4, 2, 1, 1]
    assert len(b.duels()) == 16
    first, second, third = b.podium()
    final = b.match("R5-1")
    assert {first, second} == {final.a, final.b} and first == final.winner
    assert third == b.match("R4-1").winner
    assert len({first, second, third}) == 3


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(9, 16), tie_rate=st.sampled_from([0.0, 0.3, 0.6]))
def test_every_session_keeps_the_knockout_rules(seed: int, n: int, tie_rate: float) -> None:
    rng = random.Random(seed)
    b = Bracket.create(CONFIG, Draw.seeded(list(range(1, n + 1)), 16, seed))
    b, played = run_session(b, rng, tie_rate)
    ties = sum(1 for m in b.matches.values() if m.is_tiebreak)
    # one duel per real first-round pair, 4+2+1+1 after, and one more per tie-break
    assert len(b.duels()) == (n - 8) + 4 + 2 + 1 + 1 + ties == len(played)
    # every match has two entrants, or one and a bye
    for m in b.matches.values():
        assert (m.a is not None and m.b is not None) or (m.bye is not None and len(m.entrants) == 1), m
    # a player never plays after losing, except the semi-final losers in the 3rd-place duel
    semi_losers = {b.match(f"R3-{i}").loser for i in (1, 2)}
    lost: set[int] = set()
    for m in sorted(b.matches.values(), key=lambda m: (m.round, m.slot, m.id)):
        if m.is_tiebreak or m.bye is not None:
            continue
        for p in m.entrants:
            assert p not in lost or (m.id == "R4-1" and p in semi_losers), (p, m.id)
        assert m.loser is not None
        lost.add(m.loser)
    # every tie-break was created by a tie and settles the match it names
    for m in b.matches.values():
        if m.is_tiebreak:
            assert m.tiebreak_of is not None
            root = b.match(m.tiebreak_of)
            assert (m.a, m.b) == (root.a, root.b)
            assert b.pieces(m.id) == 49 and b.time_control(m.id) == CONFIG.tiebreak.time_per_side
    for m in b.matches.values():
        if m.decided_by is DecidedBy.TIEBREAK:
            assert m.score is not None and m.score.decided_by is DuelDecidedBy.TIE
            assert b.match(m.tiebreaks[-1]).winner == m.winner


# -- byes and seeding ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(9, 16))
def test_byes_for_9_to_15_players_sit_where_the_standard_seeding_puts_seeds_n_plus_1_to_16(n: int) -> None:
    expected = sorted(line for line, seed in enumerate(STANDARD_16, start=1) if seed > n)
    assert bye_lines(16, n) == expected
    assert len(expected) == 16 - n
    b = Bracket.create(CONFIG, Draw.seeded(list(range(1, n + 1)), 16, 11))
    first = [b.match(f"R1-{k}") for k in range(1, 9)]
    assert sum(m.bye is not None for m in first) == 16 - n
    for m in first:
        assert len(m.entrants) == (1 if m.bye is not None else 2)  # never a bye against a bye
        if m.bye is not None:
            assert m.status is MatchStatus.DECIDED and m.decided_by is DecidedBy.BYE
    # byes are spread: the halves and the quarters of the bracket differ by at most one bye
    lines = bye_lines(16, n)
    halves = [sum(1 for x in lines if (x - 1) // 8 == h) for h in range(2)]
    quarters = [sum(1 for x in lines if (x - 1) // 4 == q) for q in range(4)]
    assert max(halves) - min(halves) <= 1 and max(quarters) - min(quarters) <= 1


def test_a_bye_player_advances_without_a_duel_and_a_full_field_has_no_bye() -> None:
    b = Bracket.create(CONFIG, Draw.seeded(list(range(1, 16)), 16, 5))  # 15 players: line 2 is the bye
    bye_player = b.draw.lines[1]
    assert b.match("R1-1").winner == bye_player
    assert b.match("R2-1").a == bye_player and b.match("R2-1").status is MatchStatus.WAITING
    assert not any(m.bye for m in Bracket.create(CONFIG, full_draw()).matches.values())


def test_eight_players_start_at_the_quarter_final() -> None:
    b = Bracket.create(CONFIG, Draw.seeded(list(range(1, 9)), 8, 2))
    assert b.first_round == 2 and "R1-1" not in b.matches
    b, _ = run_session(b, random.Random(1))
    assert len(b.duels()) == 4 + 2 + 1 + 1


def test_three_players_play_one_semi_final_and_the_3rd_place_goes_by_bye() -> None:
    b = Bracket.create(CONFIG, Draw.seeded([1, 2, 3], 4, 2))
    b, played = run_session(b, random.Random(1))
    assert len(played) == 2  # one semi-final, the final
    assert b.match("R4-1").decided_by is DecidedBy.BYE
    assert set(b.podium()) == {1, 2, 3}


# -- the draw -----------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_draw_whatever_the_order_players_are_listed_in() -> None:
    players = list(range(1, 14))
    shuffled = players[::-1]
    assert seeded_draw(players, 16, 2026) == seeded_draw(shuffled, 16, 2026)
    assert sorted(seeded_draw(players, 16, 2026)) == open_lines(16, 13)
    draws = {tuple(seeded_draw(players, 16, s).items()) for s in range(20)}
    assert len(draws) == 20  # different seeds, different brackets


def test_the_seeded_draw_is_fair_over_many_seeds() -> None:
    # every player lands on line 1 about equally often (16 players, 3200 seeds: 200 expected)
    counts = [0] * 17
    for seed in range(3200):
        counts[seeded_draw(list(range(1, 17)), 16, seed)[1]] += 1
    assert all(140 < c < 260 for c in counts[1:]), counts


def test_a_physical_draw_must_fill_exactly_the_open_lines() -> None:
    lines = {line: p for p, line in enumerate(open_lines(16, 14), start=1)}
    Bracket.create(CONFIG, Draw.physical(lines))
    wrong = dict(lines)
    wrong[2] = wrong.pop(1)  # line 2 is a bye with 14 players
    with pytest.raises(BracketError, match=r"byes on 2, 10\)"):
        Bracket.create(CONFIG, Draw.physical(wrong))
    twice = dict(lines)
    twice[3] = twice[4]
    with pytest.raises(BracketError, match="more than one line"):
        Bracket.create(CONFIG, Draw.physical(twice))


# -- advancing, confirming ------------------------------------------------------------------------


def test_the_winner_advances_only_when_the_referee_confirms() -> None:
    b = Bracket.create(CONFIG, full_draw())
    m = b.match("R1-1")
    b = play(b, "R1-1", 300, 200, confirm=False)
    assert b.match("R1-1").status is MatchStatus.RESULT
    assert b.match("R2-1").a is None
    b = b.apply("R1-1", Confirm())
    assert b.match("R2-1").a == m.a
    with pytest.raises(BracketError, match="no result to confirm"):
        b.apply("R1-1", Confirm())


def test_semi_final_losers_meet_for_3rd_place_and_winners_in_the_final() -> None:
    b = Bracket.create(CONFIG, full_draw())
    for k in range(1, 9):
        b = play(b, f"R1-{k}", 500, 100)
    for k in range(1, 5):
        b = play(b, f"R2-{k}", 100, 500)
    s1, s2 = b.match("R3-1"), b.match("R3-2")
    b = play(play(b, "R3-1", 400, 300), "R3-2", 200, 300)
    assert (b.match("R5-1").a, b.match("R5-1").b) == (s1.a, s2.b)
    assert (b.match("R4-1").a, b.match("R4-1").b) == (s1.b, s2.a)
    assert b.round_kind(4) is RoundKind.THIRD_PLACE
    assert b.time_control("R3-1") == CONFIG.rounds[2].time_per_side and b.pieces("R3-1") == 200


def test_the_clock_sides_are_mapped_to_the_players_who_sat_there() -> None:
    b = Bracket.create(CONFIG, full_draw())
    m = b.match("R1-2")
    assert m.b is not None
    b = b.apply("R1-2", Assign(table=4, clock_a=m.b))  # they turned the clock round
    b = b.apply("R1-2", DuelFinished(verdict=verdict(400, 100)))
    r = b.match("R1-2")
    assert r.winner == m.b
    assert r.score is not None and r.score.remaining_ns == PerSide(a=100 * SECOND, b=400 * SECOND)
    assert r.score.displayed.b == "6:40"


def test_a_table_holds_one_match_at_a_time() -> None:
    b = Bracket.create(CONFIG, full_draw()).apply("R1-1", Assign(table=1))
    with pytest.raises(BracketError, match="table 1 is busy with match R1-1"):
        b.apply("R1-2", Assign(table=1))
    b = play(b, "R1-1", 10, 5)
    b.apply("R1-2", Assign(table=1))


# -- tie-breaks ----------------------------------------------------------------------------------


def test_the_same_time_creates_a_49_piece_tie_break_on_the_spot_which_decides_the_match() -> None:
    b = Bracket.create(CONFIG, full_draw())
    m = b.match("R1-3")
    b = play(b, "R1-3", 250, 250)
    assert b.match("R1-3").status is MatchStatus.TIEBREAK
    tb = b.match("R1-3-TB1")
    assert tb.tiebreak_of == "R1-3" and (tb.a, tb.b) == (m.a, m.b) and tb.status is MatchStatus.READY
    assert b.pieces(tb.id) == 49
    b = play(b, tb.id, 30, 60)  # tied again? no: B has more
    assert b.match("R1-3").winner == m.b and b.match("R1-3").decided_by is DecidedBy.TIEBREAK
    assert b.match("R2-2").a == m.b


def test_a_tied_tie_break_makes_another_settling_the_same_match() -> None:
    b = play(Bracket.create(CONFIG, full_draw()), "R1-1", 100, 100)
    b = play(b, "R1-1-TB1", 42, 42)
    tb2 = b.match("R1-1-TB2")
    assert tb2.tiebreak_of == "R1-1" and b.match("R1-1").tiebreaks == ("R1-1-TB1", "R1-1-TB2")
    b = play(b, "R1-1-TB2", 50, 10)
    assert b.match("R1-1").winner == b.match("R1-1").a


# -- the referee --------------------------------------------------------------------------------


def test_an_override_with_a_reason_decides_the_match_and_is_recorded() -> None:
    b = play(Bracket.create(CONFIG, full_draw()), "R1-1", 300, 200, confirm=False)
    m = b.match("R1-1")
    assert m.b is not None
    b = b.apply(
        "R1-1",
        Override(
            winner=m.b,
            category=OverrideReason.DISQUALIFICATION,
            reason="touched pieces during the opponent's turn (§2.2.13)",
        ),
        referee="Sędzia A",
    )
    assert b.match("R1-1").winner == m.b and b.match("R1-1").decided_by is DecidedBy.REFEREE
    assert b.match("R2-1").a == m.b
    d = b.decisions[-1]
    assert d.category is OverrideReason.DISQUALIFICATION and "§2.2.13" in d.reason and d.referee == "Sędzia A"


def test_an_override_of_a_confirmed_match_moves_the_right_player_on_until_the_next_is_played() -> None:
    b = Bracket.create(CONFIG, full_draw())
    m = b.match("R1-1")
    assert m.a is not None and m.b is not None
    b = play(play(b, "R1-1", 300, 200), "R1-2", 300, 200)
    assert b.match("R2-1").a == m.a
    b = b.apply("R1-1", Override(winner=m.b, category=OverrideReason.DISPUTE, reason="clock misread"))
    assert b.match("R2-1").a == m.b and b.match("R2-1").status is MatchStatus.READY
    b = play(b, "R2-1", 100, 50)
    with pytest.raises(BracketError, match="R2-1"):
        b.apply("R1-1", Override(winner=m.a, category=OverrideReason.DISPUTE, reason="again"))


def test_an_override_cancels_an_unplayed_tie_break() -> None:
    b = play(Bracket.create(CONFIG, full_draw()), "R1-4", 100, 100)
    m = b.match("R1-4")
    assert m.a is not None
    b = b.apply("R1-4", Override(winner=m.a, category=OverrideReason.DISPUTE, reason="B left the hall"))
    assert b.match("R1-4-TB1").status is MatchStatus.CANCELLED
    assert "R1-4-TB1" not in [x.id for x in b.duels()]
    with pytest.raises(BracketError, match="settles"):
        b.apply("R1-4-TB1", Override(winner=m.a, category=OverrideReason.OTHER, reason="x"))


def test_a_walkover_sends_the_present_player_on() -> None:
    b = Bracket.create(CONFIG, full_draw())
    m = b.match("R1-5")
    assert m.a is not None
    b = b.apply("R1-5", Walkover(absent=m.a, reason="did not come to the table"))
    assert b.match("R1-5").winner == m.b and b.match("R1-5").decided_by is DecidedBy.WALKOVER
    assert b.decisions[-1].kind == "walkover"
    with pytest.raises(BracketError, match="does not play"):
        b.apply("R1-6", Walkover(absent=999, reason="x"))


def test_refused_events_name_the_problem() -> None:
    b = Bracket.create(CONFIG, full_draw())
    with pytest.raises(BracketError, match="no match R9-9") as no_match:
        b.apply("R9-9", Confirm())
    assert no_match.value.msg.code == "bracket.no-match"
    with pytest.raises(BracketError, match="not being played"):
        b.apply("R1-1", DuelFinished(verdict=verdict(1, 2)))
    with pytest.raises(BracketError, match="cannot go to a table: it is waiting") as waiting:
        b.apply("R2-1", Assign(table=2))
    assert waiting.value.msg.code == "bracket.cannot-assign"
    b = b.apply("R1-1", Assign(table=1))
    with pytest.raises(BracketError, match="resolution"):
        bad = verdict(1, 2).model_copy(update={"resolution_ns": 1_000_000})
        b.apply("R1-1", DuelFinished(verdict=bad))


def test_replaying_the_events_rebuilds_the_bracket() -> None:
    rng = random.Random(9)
    b0 = Bracket.create(CONFIG, full_draw(13, 4))
    b, events = b0, []
    while not b.finished:
        m = b.playable()[0]
        a_left = rng.randrange(1, 30)
        b_left = rng.randrange(1, 30)
        evs: list[tuple[str, MatchInput]] = [
            (m.id, Assign(table=1)),
            (m.id, Toss(winner=m.a or 0)),
            (m.id, DuelFinished(verdict=verdict(a_left, b_left))),
        ]
        if a_left != b_left:
            evs.append((m.id, Confirm()))
        for mid, e in evs:
            b = b.apply(mid, e)
        events.extend(evs)
    assert replay_bracket(CONFIG, full_draw(13, 4), events) == b


def test_a_config_without_a_3rd_place_duel_has_a_podium_of_two() -> None:
    data = CONFIG.model_dump(mode="json")
    data["rounds"] = [r for i, r in enumerate(data["rounds"]) if i != 3]
    cfg = TournamentConfig.model_validate(data)
    b, _ = run_session(Bracket.create(cfg, full_draw()), random.Random(2))
    first, second, third = b.podium()
    assert first is not None and second is not None and third is None
    assert len(b.duels()) == 15
