"""The rules of a countdown with laps (pure: time is an argument)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Action, Allowed, Reason, Target, action
from clockd.i18n import Msg, Problem, msg


@action
class LapsStart(Action):
    """Start the countdown."""

    kind: Literal["laps-start"] = "laps-start"
    target: ClassVar[Target] = "event"


@action
class LapsLap(Action):
    """Record a lap now (a runner passing the line), with an optional note."""

    kind: Literal["laps-lap"] = "laps-lap"
    target: ClassVar[Target] = "event"
    note: Reason = ""


@action
class LapsStop(Action):
    """Stop the countdown for good."""

    kind: Literal["laps-stop"] = "laps-stop"
    target: ClassVar[Target] = "event"
    reason: Reason = ""


class Countdown(BaseModel):
    """The event's state: its length, when it started (``None``: not yet) and stopped, its laps."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    duration_ms: int = Field(default=600_000, ge=1_000, le=24 * 3_600_000)
    started_ns: int | None = None
    stopped_ns: int | None = None
    laps_ns: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    def remaining_ms(self, now_ns: int) -> int:
        if self.started_ns is None:
            return self.duration_ms
        until = self.stopped_ns if self.stopped_ns is not None else now_ns
        return max(0, self.duration_ms - (until - self.started_ns) // 1_000_000)

    def running(self, now_ns: int) -> bool:
        return self.started_ns is not None and self.stopped_ns is None and self.remaining_ms(now_ns) > 0

    def laps_ms(self) -> list[int]:
        """Each lap as time gone since the start."""
        start = self.started_ns or 0
        return [(t - start) // 1_000_000 for t in self.laps_ns]

    def allowed(self, now_ns: int) -> Allowed:
        not_started = msg("laps.not-started")
        over = msg("laps.over")
        running = self.running(now_ns)
        return {
            "laps-start": None if self.started_ns is None else msg("laps.already-started"),
            "laps-lap": None if running else (not_started if self.started_ns is None else over),
            "laps-stop": None if running else (not_started if self.started_ns is None else over),
        }

    def apply(self, act: Action) -> Countdown:
        why: Msg | None = self.allowed(act.t_ns).get(act.kind)
        if why is not None:
            raise Problem(why)
        if isinstance(act, LapsStart):
            return self.model_copy(update={"started_ns": act.t_ns})
        if isinstance(act, LapsLap):
            return self.model_copy(
                update={"laps_ns": (*self.laps_ns, act.t_ns), "notes": (*self.notes, act.note)}
            )
        assert isinstance(act, LapsStop)
        return self.model_copy(update={"stopped_ns": act.t_ns})
