"""Who plays in which group: the day file.

The registration desk writes it (forms + payments → groups, :mod:`.groups`), the printouts
read it for what a TRF cannot hold (a player's school and class, the medal), and the daemon
creates one chess group per :class:`Group` from it. TRF (FIDE's Tournament Report File) stays
the interchange format of a group's games; this file is the organiser's, and holds personal
data (birth dates, the guardian's e-mail): it is written owner-only and its private fields are
marked :data:`~clockd.core.private.PRIVATE`.
"""

from __future__ import annotations

import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.private import PRIVATE
from clockd.i18n import Msg, msg

#: The day file's format version (``ChessDay.format``); a newer file is refused, not misread.
DAY_FORMAT = 1


class Level(StrEnum):
    """The school level a group is made of (§H: kindergarten, grades 1–8, secondary)."""

    PRESCHOOL = "preschool"
    PRIMARY = "primary"
    SECONDARY = "secondary"


Sex = Literal["m", "w"]  # as TRF writes it: boys' groups "m", girls' groups "w"

#: What a player added after round 1 gets for each round missed, as the organiser rules it (FIDE
#: C.04 leaves it to them; the group's settings state it and the start list and the standings
#: print it): a half-point bye (``0000 - H``), the usual rule of Polish school tournaments, or
#: nothing (``0000 - Z``).
LateEntry = Literal["half", "zero"]


class Entrant(BaseModel):
    """One player of a group, in the group's start-list (FIDE) order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start: int = Field(ge=1)  # the start number in the group, 1 = top seed
    surname: str
    first_name: str
    sex: Sex
    rating: int | None = None
    school: str = ""
    school_class: str = ""  # as the form gives it: "3b", "III b"
    fide_id: str = ""
    federation: str = ""
    medal: bool = False  # paid 50 zł: a medal to collect at the pick-up desk
    birth: str = Field(default="", json_schema_extra=PRIVATE)  # TRF form: "YYYY" or "YYYY/MM/DD"
    email: str = Field(default="", json_schema_extra=PRIVATE)  # the guardian's, from the form
    form_line: int | None = None  # the form export's data row (1 = first) the player came from

    @property
    def trf_name(self) -> str:
        """The name as TRF writes it: ``Surname, First name``."""
        return f"{self.surname}, {self.first_name}"

    @property
    def name(self) -> str:
        """The name as the hall reads it: ``First name Surname``."""
        return f"{self.first_name} {self.surname}"


class Group(BaseModel):
    """One group of the day: a level, a grade (primary only), boys or girls, and maybe a part.

    ``key`` is the group's id in the daemon (an event key: ``sp3-ch``); its printed name is
    derived from ``level``, ``grade``, ``sex`` and ``part`` by the message catalogue, so it
    reads in the reader's language."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    level: Level
    grade: int | None = Field(default=None, ge=1, le=8)  # primary school grade 1–8
    sex: Sex
    part: int | None = Field(default=None, ge=1)  # a group over 250 split by rating: part 1, 2, …
    entrants: tuple[Entrant, ...] = ()

    def title(self) -> Msg:
        """The group's name for lists, screens and diplomas (``Klasa 3, chłopcy``), in the
        reader's language."""
        sex = msg("chess.group.boys") if self.sex == "m" else msg("chess.group.girls")
        if self.level is Level.PRIMARY and self.grade is not None:
            name = msg("chess.group.primary", grade=self.grade, sex=sex)
        elif self.level is Level.SECONDARY:
            name = msg("chess.group.secondary", sex=sex)
        elif self.level is Level.PRESCHOOL:
            name = msg("chess.group.preschool", sex=sex)
        else:  # a primary group without its grade (one made from a TRF): say what is known
            name = msg("chess.group.primary-any", sex=sex)
        return name if self.part is None else msg("chess.group.part", group=name, part=self.part)


class DayPlan(BaseModel):
    """The day's times (§H: round-1 pairings posted 9:30, round 1 at 10:00, the ceremony about
    14:30), local times in ``time_zone``; round *n* is planned ``round_minutes`` after round *n−1*
    (10 minutes a player and the time to seat the next round)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pairings_posted: str = Field(default="09:30", pattern=r"^[0-2][0-9]:[0-5][0-9]$")
    first_round: str = Field(default="10:00", pattern=r"^[0-2][0-9]:[0-5][0-9]$")
    round_minutes: int = Field(default=30, ge=5, le=600)
    ceremony: str = Field(default="14:30", pattern=r"^[0-2][0-9]:[0-5][0-9]$")
    time_zone: str = "Europe/Warsaw"

    def zone(self) -> datetime.tzinfo:
        from zoneinfo import ZoneInfo

        return ZoneInfo(self.time_zone)

    def round_start(self, day: datetime.date, number: int) -> datetime.datetime:
        """When round ``number`` is planned to start on ``day`` (aware, in the plan's zone)."""
        hour, minute = (int(x) for x in self.first_round.split(":"))
        first = datetime.datetime.combine(day, datetime.time(hour, minute), tzinfo=self.zone())
        return first + datetime.timedelta(minutes=self.round_minutes * (number - 1))


class Officials(BaseModel):
    """Where the day is and who arbitrates it: what a federation's file names (TRF ``022``,
    ``032``, ``102``, ``112``) beside the title and the date."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    place: str = Field(default="", max_length=80)
    federation: str = Field(default="POL", pattern=r"^[A-Za-z]{0,3}$")
    chief_arbiter: str = Field(default="", max_length=80)
    deputy_arbiters: tuple[str, ...] = ()


class ChessDay(BaseModel):
    """The day: its groups and the settings every group shares (§H: 8 rounds, 10 minutes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: int = DAY_FORMAT
    title: str = ""
    date: str = ""  # ISO date of the day, "" if not known yet
    rounds: int = Field(default=8, ge=1)
    minutes: int = Field(default=10, ge=1)  # per player, no increment
    late_entry: LateEntry = "half"  # the rounds a late entrant missed: ½ point each, or 0
    groups: tuple[Group, ...] = ()
    plan: DayPlan = DayPlan()
    officials: Officials = Officials()
