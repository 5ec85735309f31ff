"""Time controls: what a DGT 3000 can be set to.

A :class:`TimeControl` is a list of :class:`Stage` s. Each stage gives the time added when
a side enters it, how many moves it lasts (``None``: the rest of the game), and the
increment or delay that applies to moves made in it. ``delay_mode`` says how the delay is
applied:

* **Fischer increment** — after each completed move, ``increment_ns`` is added.
* **Bronstein delay** — after each move, the time used on it is given back, up to
  ``delay_ns``: a quick move costs nothing, a slow one costs all but ``delay_ns``.
* **Simple (US) delay** — the clock waits ``delay_ns`` at the start of every move before
  it begins to count down.

Multi-stage controls ("90 min for 40 moves, then 30 min; 30 s per move from move 1") add
the next stage's time the moment a side completes the last move of its current stage.

Text form, for configuration files and the command line (see :meth:`TimeControl.parse`):
``"10m"``, ``"3m+2s"``, ``"5m d3s"`` (simple delay), ``"5m b3s"`` (Bronstein),
``"90m/40+30s, 30m+30s"``.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clockd.core.units import HOUR, MINUTE, MS, SECOND
from clockd.i18n import Problem


class TimeControlError(Problem):
    """A time control that cannot be read or used; the message names the stage."""


class DelayMode(StrEnum):
    NONE = "none"
    BRONSTEIN = "bronstein"
    SIMPLE = "simple"


class Stage(BaseModel):
    """One period of a time control."""

    model_config = ConfigDict(frozen=True)

    time_ns: int = Field(ge=0, description="time added when a side enters this stage")
    moves: int | None = Field(default=None, ge=1, description="moves in this stage; None = rest")
    increment_ns: int = Field(default=0, ge=0, description="Fischer increment per move")
    delay_ns: int = Field(default=0, ge=0, description="Bronstein or simple delay per move")


class TimeControl(BaseModel):
    model_config = ConfigDict(frozen=True)

    stages: tuple[Stage, ...] = Field(min_length=1)
    delay_mode: DelayMode = DelayMode.NONE

    @model_validator(mode="after")
    def _only_last_stage_is_open(self) -> TimeControl:
        for i, stage in enumerate(self.stages[:-1]):
            if stage.moves is None:
                raise TimeControlError("control.open-stage", stage=i + 1)
        if any(s.delay_ns for s in self.stages) and self.delay_mode is DelayMode.NONE:
            raise TimeControlError("control.delay-without-mode")
        return self

    # -- constructors a referee thinks in -------------------------------------------------
    @classmethod
    def sudden_death(cls, time_ns: int) -> TimeControl:
        return cls(stages=(Stage(time_ns=time_ns),))

    @classmethod
    def fischer(cls, time_ns: int, increment_ns: int) -> TimeControl:
        return cls(stages=(Stage(time_ns=time_ns, increment_ns=increment_ns),))

    @classmethod
    def bronstein(cls, time_ns: int, delay_ns: int) -> TimeControl:
        return cls(stages=(Stage(time_ns=time_ns, delay_ns=delay_ns),), delay_mode=DelayMode.BRONSTEIN)

    @classmethod
    def simple_delay(cls, time_ns: int, delay_ns: int) -> TimeControl:
        return cls(stages=(Stage(time_ns=time_ns, delay_ns=delay_ns),), delay_mode=DelayMode.SIMPLE)

    # -- queries ---------------------------------------------------------------------------
    @property
    def initial_ns(self) -> int:
        return self.stages[0].time_ns

    def stage_index(self, moves_done: int) -> int:
        """The stage a side is in after ``moves_done`` completed moves."""
        boundary = 0
        for i, stage in enumerate(self.stages):
            if stage.moves is None:
                return i
            boundary += stage.moves
            if moves_done < boundary:
                return i
        # Every stage had a move count: the last one repeats (as on a DGT, "40 moves, repeat").
        return len(self.stages) - 1

    def stage_for_move(self, moves_done: int) -> Stage:
        return self.stages[self.stage_index(moves_done)]

    def time_added_after(self, moves_done: int) -> int:
        """Time a side receives when it has just completed move number ``moves_done``.

        Non-zero only when that move ends a stage: the next stage's time (the last stage
        repeats when all stages have move counts).
        """
        if moves_done <= 0:
            return 0
        before = self.stage_index(moves_done - 1)
        boundary = sum(s.moves or 0 for s in self.stages[: before + 1])
        last = self.stages[-1]
        if before == len(self.stages) - 1:
            if last.moves is None:
                return 0
            # repeating last stage: a boundary every `last.moves` moves past the others
            start = sum(s.moves or 0 for s in self.stages[:-1])
            return last.time_ns if (moves_done - start) % last.moves == 0 else 0
        return self.stages[before + 1].time_ns if moves_done == boundary else 0

    # -- text form -------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse ``"90m/40+30s, 30m+30s"``-style text; :class:`TimeControlError` names the bad part."""
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise TimeControlError("control.empty")
        stages: list[Stage] = []
        mode = DelayMode.NONE
        for index, part in enumerate(parts, start=1):
            m = _STAGE_RE.fullmatch(part)
            if not m:
                raise TimeControlError("control.bad-stage", stage=index, text=part)
            delay_ns = 0
            if m["delay"]:
                this_mode = DelayMode.SIMPLE if m["dkind"] == "d" else DelayMode.BRONSTEIN
                if mode is not DelayMode.NONE and mode is not this_mode:
                    raise TimeControlError("control.mixed-delays", stage=index)
                mode = this_mode
                delay_ns = _duration(m["delay"])
            stages.append(
                Stage(
                    time_ns=_duration(m["time"]),
                    moves=int(m["moves"]) if m["moves"] else None,
                    increment_ns=_duration(m["inc"]) if m["inc"] else 0,
                    delay_ns=delay_ns,
                )
            )
        return cls(stages=tuple(stages), delay_mode=mode)

    def __str__(self) -> str:
        out = []
        for stage in self.stages:
            text = _fmt_duration(stage.time_ns)
            if stage.moves is not None:
                text += f"/{stage.moves}"
            if stage.increment_ns:
                text += f"+{_fmt_duration(stage.increment_ns)}"
            if stage.delay_ns:
                kind = "d" if self.delay_mode is DelayMode.SIMPLE else "b"
                text += f" {kind}{_fmt_duration(stage.delay_ns)}"
            out.append(text)
        return ", ".join(out)


_DUR = r"\d+(?:h|m|s|ms)(?:\d+(?:m|s|ms))*"
_STAGE_RE = re.compile(
    rf"(?P<time>{_DUR})(?:/(?P<moves>\d+))?(?:\s*\+\s*(?P<inc>{_DUR}))?"
    rf"(?:\s*(?P<dkind>[db])(?P<delay>{_DUR}))?"
)
_UNIT = {"h": HOUR, "m": MINUTE, "s": SECOND, "ms": MS}


def _duration(text: str) -> int:
    return sum(int(n) * _UNIT[u] for n, u in re.findall(r"(\d+)(ms|h|m|s)", text))


_DURATION_RE = re.compile(r"(?:\d+(?:ms|h|m|s))+")


def parse_duration(text: str) -> int:
    """``"5m"``, ``"1h30m"``, ``"90s"``, ``"250ms"`` → nanoseconds; :class:`TimeControlError` if not one."""
    cleaned = text.strip().replace(" ", "")
    if not _DURATION_RE.fullmatch(cleaned):
        raise TimeControlError("control.bad-duration", text=text)
    return _duration(cleaned)


def format_duration(ns: int) -> str:
    """The text :func:`parse_duration` reads back (``5m``, ``1h30m``)."""
    return _fmt_duration(ns)


def _fmt_duration(ns: int) -> str:
    parts = []
    for unit, size in (("h", HOUR), ("m", MINUTE), ("s", SECOND), ("ms", MS)):
        n, ns = divmod(ns, size)
        if n:
            parts.append(f"{n}{unit}")
    return "".join(parts) or "0s"
