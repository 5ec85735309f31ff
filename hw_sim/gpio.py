"""The far side of a Raspberry Pi duel table: players pressing bouncing buttons on mock pins.

gpiozero's ``MockFactory`` stands in for the Pi; :class:`ScriptedPin` adds what a duel
simulation needs and a plain mock pin lacks: an edge that carries a *scripted* time
(integer nanoseconds) instead of the moment the test happened to call ``drive_low``. So
a 20-minute duel plays in milliseconds, and every press has a known instant to check the
driver against. :class:`ScriptedFactory` sets ``EDGE_TICKS_NS = True`` to tell a driver
that its ticks are such nanoseconds.

A duel is scripted from :mod:`hw_sim.players`: the toss loser presses to start the
winner's time (§2.2.8), then the players alternate; now and then the waiting player
presses out of turn (a real press the clock must ignore). Each press and release is a
burst of edges from a :class:`BouncingContact`. :class:`EdgePlayer` drives the edges of
every table in time order from one background thread — as lgpio calls its callbacks from
one thread for all pins.

This module does not import ``clockd``: sides are the strings ``"a"`` and ``"b"``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin

from hw_sim.players import STEADY, PlayerModel

_NS_PER_MS = 1_000_000
SIDES = ("a", "b")
LOW, HIGH = 0, 1  # a button pulls its pin LOW when pressed (internal pull-up)


class ScriptedPin(MockPin):  # type: ignore[misc]  # gpiozero ships no type hints: MockPin is Any
    """A mock pin whose edges can carry a scripted timestamp (integer ns)."""

    _edge_ns: int | None = None

    def drive_at(self, level: int, t_ns: int) -> None:
        """Drive the input to ``level`` (0 or 1), reporting the edge as having happened at ``t_ns``."""
        self._edge_ns = t_ns
        try:
            if level:
                self.drive_high()
            else:
                self.drive_low()
        finally:
            self._edge_ns = None

    def _call_when_changed(self) -> None:
        ticks = self._edge_ns if self._edge_ns is not None else self._last_change
        PiPin._call_when_changed(self, ticks, self._state)


class ScriptedFactory(MockFactory):  # type: ignore[misc]  # gpiozero ships no type hints
    """A simulated Raspberry Pi (a 40-pin Pi 3B by default) whose pins are :class:`ScriptedPin` s."""

    #: Ticks passed to ``when_changed`` by edges from :meth:`ScriptedPin.drive_at` are
    #: integer nanoseconds on ``time.monotonic_ns``'s base.
    EDGE_TICKS_NS = True

    def __init__(self, revision: str | None = None) -> None:
        super().__init__(revision=revision, pin_class=ScriptedPin)

    def scripted_pin(self, bcm: int) -> ScriptedPin:
        pin: ScriptedPin = self.pin(bcm)
        return pin


# -- the script -------------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptedPress:
    """A finger on a button: down at ``t_ns``, up at ``release_ns``."""

    table: int
    side: str  # "a" or "b"
    t_ns: int
    release_ns: int
    out_of_turn: bool = False


@dataclass(frozen=True, order=True)
class Edge:
    """One level change on one pin of one simulated Pi."""

    t_ns: int
    pi: int
    bcm: int
    level: int


@dataclass(frozen=True)
class BouncingContact:
    """A push button's contacts: each press or release is a burst of edges settling at the new level.

    Up to ``max_bounces`` extra pairs of edges fall at distinct instants within
    ``bounce_ns`` after the first edge, so the burst always ends at the intended level.
    """

    bounce_ns: int = 0
    max_bounces: int = 3

    def edges(self, t_ns: int, level: int, rng: random.Random) -> list[tuple[int, int]]:
        burst = [(t_ns, level)]
        pairs = min(rng.randint(0, self.max_bounces), self.bounce_ns // 2)
        if pairs <= 0:
            return burst
        offsets = sorted(rng.sample(range(1, self.bounce_ns + 1), 2 * pairs))
        current = level
        for offset in offsets:
            current = 1 - current
            burst.append((t_ns + offset, current))
        return burst


def duel_presses(
    table: int,
    turns: int,
    rng: random.Random,
    *,
    start_ns: int,
    players: tuple[PlayerModel, PlayerModel] = (STEADY, STEADY),
    out_of_turn_rate: float = 0.05,
    hold_ms: tuple[int, int] = (60, 200),
) -> list[ScriptedPress]:
    """The presses of one duel: ``turns`` presses in turn, plus occasional presses out of turn.

    The first press is the toss loser's, starting the winner's time. Then the player whose
    time runs thinks (their model's think time) and presses. While a player thinks, the
    other one sometimes presses their own button anyway (``out_of_turn_rate``), released
    well before the thinking player's press.
    """
    model = dict(zip(SIDES, players, strict=True))
    loser = rng.choice(SIDES)
    presses: list[ScriptedPress] = []
    t = start_ns
    side = loser
    for turn in range(turns):
        hold = rng.randint(*hold_ms) * _NS_PER_MS
        presses.append(ScriptedPress(table, side, t, t + hold))
        if turn == turns - 1:
            break
        thinker = "b" if side == "a" else "a"
        think = model[thinker].think_ns(rng)
        nervous_hold = rng.randint(*hold_ms) * _NS_PER_MS
        margin = 100 * _NS_PER_MS
        if rng.random() < out_of_turn_rate and think > hold + nervous_hold + 3 * margin:
            # the player who just pressed presses again while the other thinks
            at = rng.randint(t + hold + margin, t + think - nervous_hold - margin)
            presses.append(ScriptedPress(table, side, at, at + nervous_hold, out_of_turn=True))
        t += think
        side = thinker
    return presses


def press_edges(
    presses: Iterable[ScriptedPress],
    pin_of: dict[tuple[int, str], tuple[int, int]],
    contact: BouncingContact,
    rng: random.Random,
) -> list[Edge]:
    """Every edge of ``presses``, bounce included, in time order; ``pin_of[(table, side)]`` is (pi, bcm)."""
    edges: list[Edge] = []
    for press in presses:
        pi, bcm = pin_of[(press.table, press.side)]
        for t, level in contact.edges(press.t_ns, LOW, rng) + contact.edges(press.release_ns, HIGH, rng):
            edges.append(Edge(t, pi, bcm, level))
    edges.sort()
    return edges


class EdgePlayer:
    """Drives scripted edges onto the pins of simulated Pis, in time order, at full speed."""

    def __init__(self, pis: Sequence[ScriptedFactory]) -> None:
        self.pis = list(pis)

    def play(self, edges: Iterable[Edge]) -> int:
        """Drive every edge in the calling thread (as mock pins do); returns how many were driven."""
        count = 0
        for edge in edges:
            self.pis[edge.pi].scripted_pin(edge.bcm).drive_at(edge.level, edge.t_ns)
            count += 1
        return count

    def play_in_thread(self, edges: Sequence[Edge]) -> threading.Thread:
        """Drive the edges from one background thread (as lgpio calls back from one thread)."""
        thread = threading.Thread(target=self.play, args=(edges,), name="gpio-edges", daemon=True)
        thread.start()
        return thread


def press_once(pin: Any, t_ns: int, rng: random.Random, contact: BouncingContact, hold_ns: int) -> None:
    """Press and release a scripted pin with bounce: a single finger on a button."""
    for t, level in sorted(contact.edges(t_ns, LOW, rng) + contact.edges(t_ns + hold_ns, HIGH, rng)):
        pin.drive_at(level, t)
