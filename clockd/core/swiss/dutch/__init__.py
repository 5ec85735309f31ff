"""FIDE Dutch pairing (C.04.3, edition applied from 1 July 2025): pure and deterministic.

``pair_round(tournament)`` pairs the next round of a :class:`~clockd.core.swiss.model.Tournament`
exactly as the FIDE-endorsed reference engine bbpPairings v6 does.
"""

from __future__ import annotations

from clockd.core.swiss.dutch.engine import NoValidPairing, RoundPairing, pair_players
from clockd.core.swiss.dutch.state import PairingInput, PairingInputError, build_input
from clockd.core.swiss.model import Tournament

__all__ = [
    "NoValidPairing",
    "PairingInput",
    "PairingInputError",
    "RoundPairing",
    "build_input",
    "pair_players",
    "pair_round",
]


def pair_round(tournament: Tournament, total_rounds: int | None = None) -> RoundPairing:
    """Pair the next round of ``tournament`` (the first round nobody has been paired in)."""
    return pair_players(build_input(tournament, total_rounds))
