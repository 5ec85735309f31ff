"""RULES.md §H, round-1 absentees: applied once round 1 is recorded (pure).

"Players absent from their round-1 game are removed after round 1 unless they report to
their group referee before the round-2 pairings are printed." The rule itself is
:func:`clockd.core.swiss.model.withdraw_round1_no_shows`; :func:`apply_round1_rule` is the
step a referee takes with it, and tells them what it did: who was withdrawn, who stays
because they reported, and who is back because they reported after an earlier run had
withdrawn them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from clockd.core.swiss.model import (
    Code,
    ModelError,
    RoundEntry,
    Tournament,
    round1_no_shows,
    withdraw_round1_no_shows,
)


class RoundOneNotRecorded(ModelError):
    """Round 1 has no pairing yet: there is nobody to call absent."""


class RoundTwoPaired(ModelError):
    """Round 2 is already paired: the rule applies before its pairing only."""


class UnknownPlayers(ModelError):
    """Reported start numbers that are not in the tournament."""

    def __init__(self, numbers: Collection[int]) -> None:
        self.numbers = tuple(sorted(numbers))
        super().__init__(f"reported start numbers not in the tournament: {', '.join(map(str, self.numbers))}")


class AbsentButRecorded(ModelError):
    """A round-1 no-show, not reported, with something other than an absence recorded for a
    later round (an announced half-point bye, say): the referee must decide."""

    def __init__(self, start_number: int, round_number: int, entry: RoundEntry) -> None:
        self.start_number = start_number
        self.round_number = round_number
        self.entry = entry
        super().__init__(
            f"player {start_number} missed round 1 but round {round_number} is recorded as {entry}"
        )


@dataclass(frozen=True, slots=True)
class RoundOneRule:
    """What :func:`apply_round1_rule` did. Start numbers in increasing order."""

    tournament: Tournament
    withdrawn: tuple[int, ...]  # no-shows now withdrawn (0000 - Z from round 2 to the last)
    reported: tuple[int, ...]  # no-shows who reported: they stay
    reinstated: tuple[int, ...]  # of those, the ones an earlier run had withdrawn: entries cleared
    not_absent: tuple[int, ...]  # reported start numbers that did come to round 1


def _withdrawn_entries(entries: tuple[RoundEntry, ...], total: int) -> bool:
    later = entries[1:]
    return (
        len(entries) == total
        and bool(later)
        and all(e.opponent is None and e.code is Code.ZERO_BYE for e in later)
    )


def apply_round1_rule(
    tournament: Tournament, reported: Collection[int], total_rounds: int | None = None
) -> RoundOneRule:
    """Withdraw every round-1 no-show (forfeit loss, zero-point bye or nothing recorded in
    round 1) not in ``reported``: ``0000 - Z`` in rounds 2 to the last.

    A reported no-show whose rounds 2..last are all ``0000 - Z`` — an earlier run withdrew
    them — is reinstated (those entries are cleared). Refused (:class:`ModelError`
    subclasses, nothing changed) when round 1 is not paired, round 2 already is, a reported
    number is not in the tournament, or a no-show to withdraw has a later round recorded
    as something other than a zero-point bye. The number of rounds is ``total_rounds``,
    else the file's ``XXR``/``142``.
    """
    paired = tournament.rounds_paired
    if paired < 1:
        raise RoundOneNotRecorded("round 1 is not recorded yet")
    if paired >= 2:
        raise RoundTwoPaired(f"round {paired} is already paired; the rule applies before round 2 is paired")
    total = total_rounds or tournament.total_rounds
    if total is None:
        raise ModelError("the number of rounds is unknown: give total_rounds or an XXR record")
    unknown = set(reported) - set(tournament.start_numbers)
    if unknown:
        raise UnknownPlayers(unknown)
    no_shows = round1_no_shows(tournament)
    for sn in no_shows:
        if sn in reported:
            continue
        for r, entry in tournament[sn].entries():
            if r >= 2 and not (entry.is_blank or (entry.opponent is None and entry.code is Code.ZERO_BYE)):
                raise AbsentButRecorded(sn, r, entry)

    reinstated = tuple(
        sn for sn in no_shows if sn in reported and _withdrawn_entries(tournament[sn].rounds, total)
    )
    back = tournament.with_players(
        p.with_rounds(p.rounds[:1]) if p.start_number in reinstated else p for p in tournament.players
    )
    result = withdraw_round1_no_shows(back, reported, total)
    return RoundOneRule(
        tournament=result,
        withdrawn=tuple(sorted(sn for sn in no_shows if sn not in reported)),
        reported=tuple(sorted(sn for sn in no_shows if sn in reported)),
        reinstated=tuple(sorted(reinstated)),
        not_absent=tuple(sorted(set(reported) - set(no_shows))),
    )
