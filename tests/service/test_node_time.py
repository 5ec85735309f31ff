"""A table node's time base and the desk's: a row moved from one to the other shows the same clock.

The desk adds one offset to every instant of a node's row (and takes it off a command it
sends); durations stay as they are. What a referee would notice if a field were missed: a
duel that shows other times on the desk than at the table, or a press at the table refused
because the program the desk sent back carries the desk's instants.
"""

from __future__ import annotations

from clockd.core.clock import Side
from clockd.core.duel import PuzzleDuelProgram
from clockd.core.timecontrol import TimeControl
from clockd.core.units import HOUR, MINUTE, SECOND
from clockd.service.entries import ProgramLoaded
from clockd.service.nodes import shifted

A, B = Side.A, Side.B


def played(t0: int) -> PuzzleDuelProgram:
    program = PuzzleDuelProgram.after_toss("desk/pt/R1-1", TimeControl.parse("10m"), SECOND, A)
    for i, side in enumerate([B, A, B, A]):
        program, _ = program.press(side, t0 + (i + 1) * 17 * SECOND)
    return program


def test_a_program_moved_to_another_time_base_shows_the_same_clock_there() -> None:
    t0, delta = 1_000 * SECOND, -7 * HOUR + 123
    entry = ProgramLoaded(t_ns=t0, table=3, event="pt", program=played(t0))
    moved = shifted(entry, delta)
    assert isinstance(moved, ProgramLoaded) and moved.t_ns == t0 + delta
    later = t0 + 3 * MINUTE
    assert (
        moved.program.view(later + delta).clock == entry.program.view(later).clock
    )  # same faces, moves, times
    # and the press that follows is accepted there at the node's instant, as here at ours
    _, outcome_here = entry.program.press(B, later)
    _, outcome_there = moved.program.press(B, later + delta)
    assert outcome_there == outcome_here == "applied"
    assert shifted(moved, -delta) == entry  # and back, exactly
