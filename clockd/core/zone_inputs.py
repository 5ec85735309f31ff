"""What a puzzle-zone event is created with, and what the referee sends it.

The event's kinds (relay, blind, team) and their limits, its configuration (journaled
with the event's creation) and the referee's actions beyond the hall timer's: the requests
as the API receives them and the journal keeps them. Apart from :mod:`clockd.core.zone`
because none of it needs the event's rules; the desk, the CLI and the service read them
on their own, and the zone applies them. :mod:`clockd.core.zone` re-exports them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from clockd.core.actions import Action, Reason, RequiredReason, Target, action
from clockd.core.hall import (
    HallEventConfig,
)
from clockd.i18n import Problem

ZoneKind = Literal["relay", "blind", "team"]
ZONE_KINDS: tuple[ZoneKind, ...] = ("relay", "blind", "team")

#: The team event's limit (§5.2.7): more pieces missing than this and the attempt is void.
TEAM_MAX_MISSING = 10

EntryId = str


class ZoneError(Problem):
    """A zone input that cannot apply now; nothing changed."""


# -- the referee's actions beyond the hall timer's ----------------------------------------------


@action
class AddEntry(Action):
    """Before the start: a pair or team joins (``name``: what screens show; ``table``: its
    station, whose button records its finish; ``members``: who is in it, for the desk)."""

    kind: Literal["entry-add"] = "entry-add"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    name: str = Field(default="", max_length=200)
    table: int | None = Field(default=None, ge=1, le=100_000)


@action
class ImportEntries(Action):
    """Before the start: the sign-up form's export (CSV); pairs or teams are formed from it
    (:func:`clockd.core.zone_signups.form_entries`) onto the main and reserve lists."""

    kind: Literal["entries-import"] = "entries-import"
    target: ClassVar[Target] = "event"
    csv: str = Field(min_length=1, max_length=60_000)
    source: str = Field(default="", max_length=200)


@action
class EntryCheckIn(Action):
    """A pair or team is here (§1.16)."""

    kind: Literal["entry-check-in"] = "entry-check-in"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)


@action
class EntryCheckOut(Action):
    """A check-in taken back."""

    kind: Literal["entry-check-out"] = "entry-check-out"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)


@action
class CloseEntries(Action):
    """T−10 and T−5: the main list's absent seats go to present reserves in order (§1.18), then
    to present walk-ins in order of arrival (§1.19); who is not in the field does not compete."""

    kind: Literal["entries-close"] = "entries-close"
    target: ClassVar[Target] = "event"


@action
class ReopenEntries(Action):
    """Before the start: the close taken back (a pair came late, a check-in was forgotten);
    the field and its seat changes are undone, the check-in is open again."""

    kind: Literal["entries-reopen"] = "entries-reopen"
    target: ClassVar[Target] = "event"


@action
class EntryTable(Action):
    """Before the start: ``entry`` sits at ``table`` (drawn by one of the pair, §3.2.1)."""

    kind: Literal["entry-table"] = "entry-table"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    table: int = Field(ge=1, le=100_000)


@action
class SplitEntry(Action):
    """Blind puzzling: the referee verified ``entry``'s bag 2 now (the split, §4.2.9)."""

    kind: Literal["entry-split"] = "entry-split"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)


@action
class CountEntry(Action):
    """After the end: the pieces the referees counted for an unfinished ``entry`` (groups of
    3 or more joined pieces), in all (``pieces``) or per picture (``per_picture``: the relay's
    two pictures; their sum ranks)."""

    kind: Literal["entry-count"] = "entry-count"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    pieces: int | None = Field(default=None, ge=0, le=100_000)
    per_picture: tuple[Annotated[int, Field(ge=0, le=100_000)], ...] = Field(default=(), max_length=4)

    def total(self) -> int:
        if self.per_picture:
            if self.pieces is not None and self.pieces != sum(self.per_picture):
                raise ZoneError(
                    "zone.count-sum", entry=self.entry, pieces=self.pieces, per_picture=list(self.per_picture)
                )
            return sum(self.per_picture)
        if self.pieces is None:
            raise ZoneError("zone.count-none", entry=self.entry)
        return self.pieces


@action
class MissingPieces(Action):
    """A finished ``entry``'s picture lacks ``missing`` pieces (the team event, §5.2.6)."""

    kind: Literal["entry-missing"] = "entry-missing"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    missing: int = Field(ge=0, le=100_000)


@action
class VoidEntry(Action):
    """The referee's decision: ``entry`` is not classified (a rule broken, §8.1), with a reason."""

    kind: Literal["entry-void"] = "entry-void"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    reason: RequiredReason


@action
class UnvoidEntry(Action):
    """A void taken back, with a reason."""

    kind: Literal["entry-unvoid"] = "entry-unvoid"
    target: ClassVar[Target] = "event"
    entry: str = Field(min_length=1, max_length=40)
    reason: RequiredReason


@action
class ConfirmRanking(Action):
    """The referee confirms the ranking: the results are final (the printout, the prizes)."""

    kind: Literal["zone-confirm"] = "zone-confirm"
    target: ClassVar[Target] = "event"
    reason: Reason = ""


ZONE_ACTIONS = (
    "entries-import",
    "entry-check-in",
    "entry-check-out",
    "entries-close",
    "entries-reopen",
    "entry-table",
    "entry-add",
    "entry-split",
    "entry-count",
    "entry-missing",
    "entry-void",
    "entry-unvoid",
    "zone-confirm",
)


# -- configuration ------------------------------------------------------------------------------


class ZoneConfig(HallEventConfig):
    """A relay, blind-puzzling or team event as the organiser writes it (TOML).

    Everything of a hall event (:class:`~clockd.core.hall.HallEventConfig`: ``duration``,
    ``signal_every``, ``devices``, ``[stations]``), and:

    .. code-block:: toml

        entries = ["para-1", "para-2"]  # the entries without a table button too (default: the stations')
        pieces = 200                    # per picture (the printout; a count is at most pieces × pictures)
        pictures = 2                    # the relay: two pictures per pair
        max_missing = 10                # the team event: more missing voids the attempt
        [names]                         # what the screens show (public names only)
        "para-1" = "Ania i Janek"
    """

    entries: tuple[EntryId, ...] = ()
    names: dict[EntryId, str] = Field(default_factory=dict)
    pieces: int | None = Field(default=None, gt=0)
    pictures: int = Field(default=1, ge=1, le=4)
    max_missing: int | None = Field(default=None, ge=0)
    max_entries: int | None = Field(default=None, ge=1)
    #: Sign-ups before this are refused (§1.11); the form's timestamps are compared to it.
    signups_open: str | None = None

    @model_validator(mode="after")
    def _entries_once(self) -> ZoneConfig:
        ids = self.entry_ids()
        if len(set(ids)) != len(ids):
            raise PydanticCustomError("zone.entry-twice", "an entry is listed twice", {})
        if any(not 0 < len(e) <= 40 for e in ids):
            raise PydanticCustomError("zone.entry-id", "an entry's id has 1 to 40 characters", {})
        if self.max_entries is not None and len(ids) > self.max_entries:
            raise PydanticCustomError(
                "zone.too-many-entries",
                "{n} entries, at most {most}",
                {"n": len(ids), "most": self.max_entries},
            )
        return self

    def entry_ids(self) -> tuple[EntryId, ...]:
        """Every entry: those listed, then the stations' not listed (by table)."""
        listed = list(self.entries)
        for entry, _table in sorted(self.stations.items(), key=lambda kv: kv[1]):
            if entry not in listed:
                listed.append(entry)
        return tuple(listed)

    def name_of(self, entry: EntryId) -> str:
        return self.names.get(entry) or entry


__all__ = [
    "TEAM_MAX_MISSING",
    "ZONE_ACTIONS",
    "ZONE_KINDS",
    "AddEntry",
    "CloseEntries",
    "ConfirmRanking",
    "CountEntry",
    "EntryCheckIn",
    "EntryCheckOut",
    "EntryId",
    "EntryTable",
    "ImportEntries",
    "MissingPieces",
    "ReopenEntries",
    "SplitEntry",
    "UnvoidEntry",
    "VoidEntry",
    "ZoneConfig",
    "ZoneError",
    "ZoneKind",
]
