"""One Puzzle Duel session as one stream of events: players → the draw → the bracket.

The festival runs three sessions (Fri, Sat, Sun, §2.1.2), each a tournament of its own
with its own sign-ups. A :class:`PuzzleSession` is one of them, as pure immutable state
that only :meth:`PuzzleSession.apply` changes:

1. **Players** — :class:`ImportSignups` (the form's CSV, already read by
   :func:`~clockd.core.registration.parse_signups`) and the registration events
   (:class:`~clockd.core.registration.AddPlayer`, ``CheckIn``, ``CheckOut``, ``Withdraw``,
   ``Close``). ``Close`` fixes the field: absent seats go to reserves, then walk-ins;
   ``ReopenCheckIn`` takes it back until the draw.
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

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.actions import Action, Allowed, Target, action
from clockd.core.bracket import (
    MATCH_ACTIONS,
    Bracket,
    Draw,
    MatchInput,
    bracket_size,
)
from clockd.core.private import PRIVATE
from clockd.core.registration import (
    AddPlayer,
    CheckIn,
    CheckOut,
    CloseCheckIn,
    PlayerId,
    Registration,
    RegistrationAction,
    ReopenCheckIn,
    SignupImport,
    Withdraw,
)
from clockd.core.tournament import TournamentConfig
from clockd.i18n import Problem, msg


class SessionError(Problem):
    """An event that cannot apply to the session; nothing changed."""


#: The largest sign-up file one import takes (characters): a day's form export is far smaller.
MAX_SIGNUPS_TEXT = 2_000_000


@action
class ImportSignups(Action):
    """The sign-up form's CSV export, as text: it becomes the main and reserve lists.

    The daemon reads it when it is journaled and keeps what it read (the accepted sign-ups
    and the refusals), so a replay never reads the text again.
    """

    kind: Literal["signups-import"] = "signups-import"
    target: ClassVar[Target] = "event"
    csv: str = Field(min_length=1, max_length=MAX_SIGNUPS_TEXT, json_schema_extra=PRIVATE)
    source: str = Field(default="signups.csv", max_length=200)


@action
class MakeDraw(Action):
    """The bracket lines: drawn by the app with ``seed`` (anyone can re-run it), or ``lines``
    (line → player) as the players drew them at the table (§2.2.1). Neither: the daemon
    picks a seed and records it."""

    kind: Literal["draw"] = "draw"
    target: ClassVar[Target] = "event"
    seed: int | None = Field(default=None, ge=0)
    lines: dict[int, PlayerId] | None = None


SessionInput = RegistrationAction | MakeDraw | MatchInput


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

    # -- what may be done now ---------------------------------------------------------------
    def allowed(self) -> Allowed:
        out = self.registration.allowed()
        if self.bracket is not None:
            drawn = msg("session.drawn-field", session=self.key)  # the field is the bracket's now
            out = dict.fromkeys(out, drawn)
            out["draw"] = msg("session.drawn", session=self.key)
        elif not self.registration.closed:
            out["draw"] = msg("session.draw-after-close")
        else:
            out["draw"] = None
        return out

    def player_allowed(self, pid: PlayerId) -> Allowed:
        """One player's registration actions (check in, check out, withdraw) and why not."""
        out = self.registration.player_allowed(pid)
        if self.bracket is not None and pid in self.registration.players:
            return dict.fromkeys(out, msg("session.drawn-field", session=self.key))
        return out

    def match_allowed(self, mid: str) -> Allowed:
        if self.bracket is None:
            return dict.fromkeys(MATCH_ACTIONS, msg("session.no-bracket", session=self.key))
        return self.bracket.allowed(mid)

    # -- actions ------------------------------------------------------------------------------
    def import_signups(
        self, signups: SignupImport, person_ids: dict[int, str] | None = None
    ) -> PuzzleSession:
        """The session with the sign-ups read from the form (``person_ids``: each line's person);
        a later export of the same form joins the lists as they stand
        (:meth:`~clockd.core.registration.Registration.with_later_export`)."""
        reason = self.registration.allowed()["signups-import"]
        if reason is not None:
            raise SessionError(reason)
        if self.registration.players:
            reg = self.registration.with_later_export(signups, person_ids)
            return self.model_copy(update={"registration": reg})
        cfg = self.config
        reg = Registration.from_signups(
            signups,
            seats=cfg.players,
            min_age=cfg.min_age,
            name_style=cfg.public_names,
            person_ids=person_ids,
        )
        return self.model_copy(update={"registration": reg})

    def apply(
        self,
        event: SessionInput,
        *,
        match: str | None = None,
        referee: str = "",
        person_id: str | None = None,
    ) -> PuzzleSession:
        """The session after ``event`` (a match's event names its ``match``)."""
        if isinstance(event, AddPlayer | CheckIn | CheckOut | Withdraw | CloseCheckIn | ReopenCheckIn):
            if self.bracket is not None:  # the draw made: the field is the bracket's
                raise SessionError("session.drawn-field", session=self.key)
            return self.model_copy(
                update={"registration": self.registration.apply(event, person_id=person_id)}
            )
        if isinstance(event, MakeDraw):
            return self._draw(event)
        if self.bracket is None:
            raise SessionError("session.no-bracket", session=self.key)
        if match is None:
            raise SessionError("session.which-match")
        return self.model_copy(update={"bracket": self.bracket.apply(match, event, referee=referee)})

    def _draw(self, event: MakeDraw) -> PuzzleSession:
        reason = self.allowed()["draw"]
        if reason is not None:
            raise SessionError(reason)
        field = self.registration.field
        assert field is not None
        size = bracket_size(len(field), self.config.players)
        if event.lines:
            drawn = sorted(event.lines.values())
            if drawn != sorted(field):
                missing = sorted(set(field) - set(drawn))
                extra = sorted(set(drawn) - set(field))
                raise SessionError("session.draw-field", n=len(field), missing=missing, extra=extra)
            draw = Draw.physical(event.lines)
        elif event.seed is not None:
            draw = Draw.seeded(list(field), size, event.seed)
        else:
            raise SessionError("session.draw-needs-seed")
        return self.model_copy(update={"bracket": Bracket.create(self.config, draw)})


def replay_session(
    config: TournamentConfig, key: str, events: list[tuple[str | None, SessionInput]], name: str = ""
) -> PuzzleSession:
    """Rebuild a session from its (match, event) pairs (the journal's view of it)."""
    session = PuzzleSession.new(config, key, name)
    for match, event in events:
        session = session.apply(event, match=match)
    return session


__all__ = ["ImportSignups", "MakeDraw", "PuzzleSession", "SessionError", "SessionInput", "replay_session"]
