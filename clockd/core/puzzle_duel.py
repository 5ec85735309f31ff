"""One Puzzle Duel session as one stream of events: players → the draw → the bracket.

The festival runs three sessions (Fri, Sat, Sun, §2.1.2), each a tournament of its own
with its own sign-ups. A :class:`PuzzleSession` is one of them, as pure immutable state
that only :meth:`PuzzleSession.apply` changes:

1. **Players** — :class:`ImportSignups` (the form's CSV, already read by
   :func:`~clockd.core.registration.parse_signups`) and the registration events
   (:class:`~clockd.core.registration.AddPlayer`, ``CheckIn``, ``CheckOut``, ``Withdraw``,
   ``Close``). ``Close`` fixes the field: absent seats go to reserves, then walk-ins.
2. **The draw** — :class:`MakeDraw` (the app draws with a recorded seed) or
   :class:`EnterDraw` (the lines the players drew by hand, §2.2.1). It creates the bracket.
3. **The bracket** — the events of :mod:`clockd.core.bracket` (assign, toss, duel result,
   confirm, override, walkover).

Every event is journaled by the daemon before it is applied; replaying them over
:meth:`PuzzleSession.new` rebuilds the session exactly (:func:`replay_session`). An event
that cannot apply raises :class:`SessionError` (a :class:`ValueError`) naming why, and
nothing changes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from clockd.core.bracket import (
    Assign,
    Bracket,
    BracketError,
    Confirm,
    Draw,
    DuelFinished,
    Override,
    PlayerId,
    Toss,
    Walkover,
    bracket_size,
)
from clockd.core.registration import (
    AddPlayer,
    CheckIn,
    CheckOut,
    Close,
    Registration,
    RegistrationError,
    SignupImport,
    Withdraw,
)
from clockd.core.tournament import TournamentConfig


class SessionError(ValueError):
    """An event that cannot apply to the session; nothing changed."""


class ImportSignups(BaseModel):
    """The sign-up form's export, read and checked: it becomes the main and reserve lists."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["import-signups"] = "import-signups"
    signups: SignupImport


class MakeDraw(BaseModel):
    """The app draws the bracket lines with this seed (anyone can re-run it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["make-draw"] = "make-draw"
    seed: int


class EnterDraw(BaseModel):
    """The lines the players drew at the table, typed in: line number → player id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["enter-draw"] = "enter-draw"
    lines: dict[int, PlayerId]


RegistrationInput = AddPlayer | CheckIn | CheckOut | Withdraw | Close
BracketInput = Assign | Toss | DuelFinished | Confirm | Override | Walkover
SessionInput = ImportSignups | MakeDraw | EnterDraw | RegistrationInput | BracketInput


class PuzzleSession(BaseModel):
    """One session's whole state."""

    model_config = ConfigDict(frozen=True)

    key: str  # e.g. "pt", "sb", "nd" from the configuration's sessions
    name: str
    config: TournamentConfig
    registration: Registration
    bracket: Bracket | None = None

    @classmethod
    def new(cls, config: TournamentConfig, key: str, name: str = "") -> PuzzleSession:
        reg = Registration(seats=config.players, min_age=config.min_age, name_style=config.public_names)
        return cls(key=key, name=name or key, config=config, registration=reg)

    @property
    def stage(self) -> Literal["registration", "draw", "bracket", "finished"]:
        if self.bracket is not None:
            return "finished" if self.bracket.finished else "bracket"
        return "draw" if self.registration.closed else "registration"

    def names(self) -> dict[PlayerId, str]:
        """Public display names by player id (safe for screens and results)."""
        return self.registration.public_names()

    def apply(self, event: SessionInput) -> PuzzleSession:
        try:
            return self._apply(event)
        except (RegistrationError, BracketError) as exc:
            raise SessionError(str(exc)) from exc

    def _apply(self, event: SessionInput) -> PuzzleSession:
        if isinstance(event, ImportSignups):
            if self.registration.players:
                raise SessionError(
                    f"session {self.key} already has {len(self.registration.players)} players; "
                    "sign-ups are imported once, into an empty session"
                )
            cfg = self.config
            reg = Registration.from_signups(
                event.signups, seats=cfg.players, min_age=cfg.min_age, name_style=cfg.public_names
            )
            return self.model_copy(update={"registration": reg})
        if isinstance(event, AddPlayer | CheckIn | CheckOut | Withdraw | Close):
            return self.model_copy(update={"registration": self.registration.apply(event)})
        if isinstance(event, MakeDraw | EnterDraw):
            return self._draw(event)
        if self.bracket is None:
            raise SessionError(
                f"session {self.key} has no bracket yet: close check-in and make the draw first"
            )
        return self.model_copy(update={"bracket": self.bracket.apply(event)})

    def _draw(self, event: MakeDraw | EnterDraw) -> PuzzleSession:
        if self.bracket is not None:
            raise SessionError(f"session {self.key} already has its draw")
        field = self.registration.field
        if field is None:
            raise SessionError("the draw comes after check-in is closed (the field is not set yet)")
        size = bracket_size(len(field), self.config.players)
        if isinstance(event, MakeDraw):
            draw = Draw.seeded(list(field), size, event.seed)
        else:
            drawn = sorted(event.lines.values())
            if drawn != sorted(field):
                missing = sorted(set(field) - set(drawn))
                extra = sorted(set(drawn) - set(field))
                raise SessionError(
                    f"the draw must place exactly the {len(field)} players of the field; "
                    f"missing {missing or 'none'}, not in the field {extra or 'none'}"
                )
            draw = Draw.physical(event.lines)
        return self.model_copy(update={"bracket": Bracket.create(self.config, draw)})


def replay_session(
    config: TournamentConfig, key: str, events: list[SessionInput], name: str = ""
) -> PuzzleSession:
    """Rebuild a session from its events (the journal's view of it)."""
    session = PuzzleSession.new(config, key, name)
    for event in events:
        session = session.apply(event)
    return session
