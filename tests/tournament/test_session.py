"""A whole session as one event stream: sign-ups → check-in → draw → bracket → podium."""

from __future__ import annotations

import random

import pytest

from clockd.core.bracket import Assign, Confirm, DuelFinished, Toss
from clockd.core.clock import Press, Side
from clockd.core.duel import Complete, Duel, DuelSetup
from clockd.core.puzzle_duel import MakeDraw, PuzzleSession, SessionError, SessionInput
from clockd.core.registration import CheckIn, CloseCheckIn, parse_signups
from clockd.core.units import SECOND
from clockd.data import festival_config

CONFIG = festival_config()
CSV = "Imię;Nazwisko;E-mail;Wiek\n" + "".join(
    f"Osoba{i};Test{i};o{i}@example.pl;{18 + i}\n" for i in range(1, 33)
)


def signed_up() -> PuzzleSession:
    return PuzzleSession.new(CONFIG, "pt", "Piątek").import_signups(parse_signups(CSV))


def checked_in(present: list[int]) -> list[tuple[str | None, SessionInput]]:
    events: list[tuple[str | None, SessionInput]] = [(None, CheckIn(player=p)) for p in present]
    events.append((None, CloseCheckIn()))
    return events


def replay(events: list[tuple[str | None, SessionInput]]) -> PuzzleSession:
    s = signed_up()
    for match, e in events:
        s = s.apply(e, match=match)
    return s


def play_duel(
    session: PuzzleSession, mid: str, table: int, rng: random.Random
) -> list[tuple[str | None, SessionInput]]:
    """Play one match's duel on the pure duel and return the events a referee's desk journals."""
    assert session.bracket is not None
    m = session.bracket.match(mid)
    assert m.a is not None and m.b is not None
    toss = rng.choice([m.a, m.b])
    setup = DuelSetup(
        control=session.bracket.time_control(mid),
        toss_winner=Side.A if toss == m.a else Side.B,
        resolution_ns=CONFIG.resolution_ns,
    )
    duel = Duel.initial(setup)
    t = 0
    duel, _ = duel.apply(Press(t_ns=t, side=setup.toss_winner.other))
    side = setup.toss_winner
    for _ in range(session.bracket.pieces(mid) // 3):
        t += rng.randrange(1, 12) * SECOND + rng.randrange(1000)
        duel, _ = duel.apply(Press(t_ns=t, side=side))
        side = side.other
    duel, _ = duel.apply(Complete(t_ns=t + 1))
    verdict = duel.settle(t + 1).verdict()
    assert verdict is not None
    events: list[tuple[str | None, SessionInput]] = [
        (mid, Assign(table=table)),
        (mid, Toss(winner=toss)),
        (mid, DuelFinished(verdict=verdict)),
    ]
    if verdict.winner is not None:
        events.append((mid, Confirm()))
    return events


def test_a_session_from_sign_ups_to_podium_replays_exactly() -> None:
    rng = random.Random(5)
    present = [p for p in range(1, 17) if p not in (3, 7)] + [17, 19, 20]  # 3 and 7 absent; reserves came
    events = [*checked_in(present), (None, MakeDraw(seed=2026))]
    s = replay(events)
    assert s.registration.field is not None and len(s.registration.field) == 16
    assert 17 in s.registration.field and 19 in s.registration.field and 20 not in s.registration.field
    assert s.stage == "bracket"
    while s.stage == "bracket":
        assert s.bracket is not None
        m = s.bracket.playable()[0]
        for match, e in play_duel(s, m.id, 1, rng):
            s = s.apply(e, match=match)
            events.append((match, e))
    assert s.stage == "finished"
    assert s.bracket is not None and None not in s.bracket.podium()
    assert replay(events) == s


def test_the_draw_needs_a_closed_check_in_and_places_exactly_the_field() -> None:
    s = signed_up()
    with pytest.raises(SessionError, match="after check-in is closed"):
        s.apply(MakeDraw(seed=1))
    s = replay(checked_in(list(range(1, 11))))
    assert s.registration.field == tuple(range(1, 11))
    lines = dict(zip([1, 3, 4, 5, 7, 9, 11, 12, 13, 15], range(1, 11), strict=True))
    with pytest.raises(SessionError, match=r"missing 10, not in the field 11") as wrong:
        s.apply(MakeDraw(lines={**lines, 15: 11}))
    assert wrong.value.msg.params == {"n": 10, "missing": [10], "extra": [11]}
    with pytest.raises(ValueError, match="byes on"):
        s.apply(MakeDraw(lines={**{k: v for k, v in lines.items() if k != 15}, 16: 10}))
    s = s.apply(MakeDraw(lines=lines))
    assert s.bracket is not None and s.bracket.draw.method == "physical"
    with pytest.raises(SessionError, match="already has its draw"):
        s.apply(MakeDraw(seed=3))


def test_the_same_export_again_changes_nothing_and_bracket_events_wait_for_the_draw() -> None:
    s = PuzzleSession.new(CONFIG, "nd").import_signups(parse_signups(CSV))
    again = s.import_signups(parse_signups(CSV))
    assert again.registration.players == s.registration.players
    assert again.registration.last_import is not None and again.registration.last_import.added == ()
    with pytest.raises(SessionError, match="no bracket yet"):
        s.apply(Confirm(), match="R1-1")
