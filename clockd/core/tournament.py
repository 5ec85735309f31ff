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
from pydantic_core import PydanticCustomError

from clockd.core.actions import validation_msgs
from clockd.core.registration import PublicNames
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MS
from clockd.i18n import Msg, Problem, msg


class ConfigError(Problem):
    """A configuration that cannot be used; the message names the file and the field."""


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

    #: The round's name as the organiser wrote it; empty: the standard name, translated
    #: (:meth:`TournamentConfig.round_name`).
    name: str = ""
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
    #: As the organiser wrote it; empty: the day and the times, translated (:meth:`title`).
    name: str = ""
    start: datetime
    end: datetime

    @model_validator(mode="after")
    def _ends_after_start(self) -> SessionConfig:
        if self.end <= self.start:
            raise PydanticCustomError(
                "config.session-ends-first",
                "session {key} ends ({end}) before it starts ({start})",
                {"key": self.key, "end": str(self.end), "start": str(self.start)},
            )
        return self

    def title(self) -> Msg:
        """The session's name for screens: the organiser's, else "Piątek 19.06, 15:00–17:30"."""
        if self.name:
            return msg("text.as-typed", text=self.name)
        return msg(
            "term.session-title",
            day=Msg(code=f"term.weekday.{self.start.isoweekday()}"),
            date=self.start.strftime("%d.%m"),
            start=self.start.strftime("%H:%M"),
            end=self.end.strftime("%H:%M"),
        )


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
    opens_at: datetime | None = Field(
        default=None, description="§1.11: sign-ups sent before this (local time) are refused"
    )
    time_zone: str = Field(
        default="Europe/Warsaw",
        description="the festival's zone: where a time without one is (sessions, opens_at, timestamps)",
    )

    @model_validator(mode="after")
    def _knockout_shape(self) -> TournamentConfig:
        n = self.players
        if n & (n - 1):
            raise PydanticCustomError(
                "config.players-power-of-two", "players must be a power of two, not {n}", {"n": n}
            )
        expected = []
        size = n
        while size >= 2:
            expected.append(size)
            size //= 2
        with_third = [*expected[:-1], 2, 2]
        got = [r.players for r in self.rounds]
        if got not in (expected, with_third):
            raise PydanticCustomError(
                "config.rounds-shape",
                "rounds must have {expected} players (or {with_third}) for a bracket of {n}: {got}",
                {"expected": str(expected), "with_third": str(with_third), "n": n, "got": str(got)},
            )
        keys = [s.key for s in self.sessions]
        if len(set(keys)) != len(keys):
            raise PydanticCustomError(
                "config.session-keys", "session keys must differ: {keys}", {"keys": str(keys)}
            )
        return self

    def round_name(self, index: int) -> Msg:
        """Round ``index``'s (0-based) name for screens: the organiser's, else the standard one
        ("I runda — Ćwierćfinał" / "Round I — Quarter-final"), in the reader's language."""
        r = self.rounds[index]
        if r.name:
            return msg("text.as-typed", text=r.name)
        kind = self.round_kind(index)
        if kind is RoundKind.FINAL:
            stage = Msg(code="term.stage.final")
        elif kind is RoundKind.THIRD_PLACE:
            stage = Msg(code="term.stage.third-place")
        elif r.players in (4, 8, 16):
            stage = Msg(code=f"term.stage.of-{r.players}")
        else:
            stage = msg("term.stage.of-n", n=r.players)
        return msg(
            "term.round-title", number=_ROMAN[index] if index < len(_ROMAN) else str(index + 1), stage=stage
        )

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
        raise ConfigError("config.no-session", key=key, known=[s.key for s in self.sessions])

    # -- the file ---------------------------------------------------------------------------
    @classmethod
    def from_toml(cls, text: str, source: str = "<config>") -> TournamentConfig:
        """Parse and check a TOML configuration; :class:`ConfigError` names every problem."""
        try:
            data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError("config.not-toml", source=source, problem=str(exc)) from exc
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ConfigError("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
