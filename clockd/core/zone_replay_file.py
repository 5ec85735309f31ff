"""The dispute tool's file: one event's inputs as ``duelclock event replay`` reads them.

Apart from :mod:`clockd.core.zone` because this is the file's format and its checks (each
event's shape, its entry known, where a problem is), which need none of the zone's rules;
:func:`clockd.core.zone.replay` applies the checked events in the daemon's order and ranks
them. :mod:`clockd.core.zone` re-exports :class:`ReplayError`, :class:`ReplayFile` and
:func:`parse_replay`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clockd.core.actions import validation_msgs
from clockd.core.zone_inputs import ZoneKind
from clockd.i18n import Problem


class ReplayError(Problem):
    """A replay file that cannot be replayed (``where``: which part of it)."""


class ReplayFile(BaseModel):
    """``duelclock event replay``'s input (see :func:`replay`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: ZoneKind
    duration_min: int = Field(gt=0, le=24 * 60, strict=True)
    signal_every_min: int | None = Field(default=None, gt=0, le=24 * 60, strict=True)
    entries: list[str] = Field(min_length=1, max_length=1000)
    events: list[dict[str, Any]] = Field(default_factory=list, max_length=100_000)


class ReplayTimed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    t_ms: int = Field(ge=0)


class ReplayStart(ReplayTimed):
    start: Literal[True]


class ReplayPause(ReplayTimed):
    pause: Literal[True]


class ReplayResume(ReplayTimed):
    resume: Literal[True]


class ReplaySplit(ReplayTimed):
    split: str


class ReplayFinish(ReplayTimed):
    finish: str
    missing: int = Field(default=0, ge=0)


class ReplayCount(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    count: str
    pieces: int = Field(ge=0)


class ReplayVoid(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    void: str
    reason: str = Field(default="", max_length=500)


SHAPES: dict[str, type[BaseModel]] = {
    "start": ReplayStart,
    "pause": ReplayPause,
    "resume": ReplayResume,
    "split": ReplaySplit,
    "finish": ReplayFinish,
    "count": ReplayCount,
    "void": ReplayVoid,
}


def parse_replay(data: Any, source: str) -> tuple[ReplayFile, list[BaseModel]]:
    """The file's header and its events, each checked; :class:`ReplayError` naming the first
    problem and where it is (``events[3].t_ms``)."""
    try:
        header = ReplayFile.model_validate(data)
    except ValidationError as exc:
        raise ReplayError("zone.replay-invalid", problems=validation_msgs(exc, source)) from None
    seen: set[str] = set()
    for i, entry in enumerate(header.entries):
        if not 0 < len(entry) <= 40:
            raise ReplayError("zone.replay-entry-id", source=source, where=f"entries[{i}]")
        if entry in seen:
            raise ReplayError("zone.replay-entry-twice", source=source, where=f"entries[{i}]", entry=entry)
        seen.add(entry)
    events: list[BaseModel] = []
    for i, item in enumerate(header.events):
        where = f"events[{i}]"
        shape = next((SHAPES[k] for k in SHAPES if k in item), None)
        if shape is None:
            raise ReplayError(
                "zone.replay-what", source=source, where=where, known=list(SHAPES), keys=sorted(item)
            )
        try:
            events.append(shape.model_validate(item))
        except ValidationError as exc:
            raise ReplayError(
                "zone.replay-invalid",
                problems=validation_msgs(exc, f"{source}: {where}", where=replay_loc),
            ) from None
        ref = getattr(events[-1], next(k for k in SHAPES if k in item))
        if isinstance(ref, str) and ref not in seen:
            raise ReplayError(
                "zone.replay-unknown-entry", source=source, where=where, entry=ref, known=header.entries
            )
    return header, events


def replay_loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc)


__all__ = [
    "SHAPES",
    "ReplayCount",
    "ReplayError",
    "ReplayFile",
    "ReplayFinish",
    "ReplayPause",
    "ReplayResume",
    "ReplaySplit",
    "ReplayStart",
    "ReplayTimed",
    "ReplayVoid",
    "parse_replay",
    "replay_loc",
]
