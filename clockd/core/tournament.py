"""A Puzzle Duel tournament's configuration: a TOML file a referee can read and edit.

The regulations (RULES.md §B, 000 §2.1.9) fix the shape — a knockout of 16 with rounds I–V,
99-piece puzzles in rounds I–II and 200-piece ones in III–V, a 49-piece tie-break duel —
but give duel *lengths* ("about 20/30 minutes"), not clock settings. So the clock settings
and the resolution at which "exactly the same time" is judged live here, with the
festival's rules shipped as the default file (``clockd/data/puzzle_duel.toml``) and the
reasoning for its figures in ``docs/puzzle-duel.md``.

A round's clock is written the way a referee sets a clock: ``time_per_side = "10m"``
(or ``"10m+2s"`` with an increment; see :meth:`TimeControl.parse`). The last round is the
final; a 2-player round just before it is the 3rd-place duel between the semi-final losers.

Everything here is pure: :meth:`TournamentConfig.from_toml` takes the file's *text*;
reading the file is the caller's business.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    model_validator,
)

from clockd.core.registration import PublicNames
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MS


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the field."""


def describe_validation_error(exc: ValidationError) -> list[str]:
    """One line per problem, each naming where it is (``rounds[2].time_per_side: …``)."""
    lines = []
    for err in exc.errors():
        where = ""
        for part in err["loc"]:
            if isinstance(part, int):
                where += f"[{part}]"
            else:
                where += f".{part}" if where else str(part)
        message = err["msg"].removeprefix("Value error, ")
        lines.append(f"{where or '(top level)'}: {message}")
    return lines


class RoundKind(StrEnum):
    KNOCKOUT = "knockout"
    THIRD_PLACE = "third_place"
    FINAL = "final"


def _parse_time_control(value: object) -> object:
    if isinstance(value, str):
        return TimeControl.parse(value)
    return value


#: A clock setting as a referee writes it in the file ("10m", "3m+2s") and reads it back.
ClockSetting = Annotated[
    TimeControl, BeforeValidator(_parse_time_control), PlainSerializer(str, return_type=str)
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RoundConfig(_Model):
    """One round: its name, how many play in it, the puzzle, the clock."""

    name: str = Field(min_length=1)
    players: int = Field(ge=2)
    pieces: int = Field(ge=2)
    time_per_side: ClockSetting


class TieBreakConfig(_Model):
    """The extra duel when both clocks show the same time (§2.2.17): 49 pieces by the rules."""

    pieces: int = Field(default=49, ge=2)
    time_per_side: ClockSetting = TimeControl.sudden_death(4 * 60_000 * MS)


class SessionConfig(_Model):
    """One session of the event; each is a tournament of its own (§2.1.2)."""

    key: str = Field(min_length=1, pattern=r"^[a-z0-9_-]+$")
    name: str = Field(min_length=1)
    start: datetime
    end: datetime

    @model_validator(mode="after")
    def _ends_after_start(self) -> SessionConfig:
        if self.end <= self.start:
            raise ValueError(f"session {self.key!r} ends ({self.end}) before it starts ({self.start})")
        return self


class TournamentConfig(_Model):
    """The whole event's settings."""

    name: str = "Puzzlowy Pojedynek"
    players: int = Field(default=16, ge=4, description="bracket size: players in round I")
    min_age: int = Field(default=13, ge=0, description="§1.9")
    public_names: PublicNames = Field(
        default="short",
        description="what screens and results call a player: 'short' (Anna K.) or 'full' (Anna Kowalska)",
    )
    resolution_ms: int = Field(
        default=1000,
        ge=1,
        le=60_000,
        description="times are compared in steps of this size, rounded up as a clock displays them",
    )
    rounds: tuple[RoundConfig, ...]
    tiebreak: TieBreakConfig = TieBreakConfig()
    sessions: tuple[SessionConfig, ...] = ()

    @model_validator(mode="after")
    def _knockout_shape(self) -> TournamentConfig:
        n = self.players
        if n & (n - 1):
            raise ValueError(f"players must be a power of two (8, 16, 32 …) for a knockout bracket, not {n}")
        expected = []
        size = n
        while size >= 2:
            expected.append(size)
            size //= 2
        with_third = [*expected[:-1], 2, 2]
        got = [r.players for r in self.rounds]
        if got not in (expected, with_third):
            raise ValueError(
                f"rounds must have {expected} players (or {with_third} with a 3rd-place duel before "
                f"the final) for a bracket of {n}; the file has {got}"
            )
        keys = [s.key for s in self.sessions]
        if len(set(keys)) != len(keys):
            raise ValueError(f"session keys must differ; the file has {keys}")
        return self

    # -- queries ---------------------------------------------------------------------------
    @property
    def resolution_ns(self) -> int:
        return self.resolution_ms * MS

    @property
    def reserve_size(self) -> int:
        """The reserve list is as long as the main list (§1.11)."""
        return self.players

    def round_kind(self, index: int) -> RoundKind:
        """The kind of round ``index`` (0-based, in the order the rounds are played)."""
        last = len(self.rounds) - 1
        if index == last:
            return RoundKind.FINAL
        if index == last - 1 and self.rounds[index].players == 2:
            return RoundKind.THIRD_PLACE
        return RoundKind.KNOCKOUT

    @property
    def has_third_place(self) -> bool:
        return len(self.rounds) >= 2 and self.round_kind(len(self.rounds) - 2) is RoundKind.THIRD_PLACE

    def session(self, key: str) -> SessionConfig:
        for s in self.sessions:
            if s.key == key:
                return s
        known = ", ".join(s.key for s in self.sessions) or "none"
        raise ConfigError(f"no session {key!r} in the configuration (sessions: {known})")

    # -- the file ---------------------------------------------------------------------------
    @classmethod
    def from_toml(cls, text: str, source: str = "<config>") -> TournamentConfig:
        """Parse and check a TOML configuration; :class:`ConfigError` names every problem."""
        try:
            data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{source}: not valid TOML: {exc}") from exc
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            details = "\n  ".join(describe_validation_error(exc))
            raise ConfigError(f"{source}: invalid tournament configuration:\n  {details}") from exc
