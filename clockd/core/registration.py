"""Players of a Puzzle Duel session: sign-ups, the main and reserve lists, check-in, the field.

The regulations (RULES.md §A, 000 §1.9–1.19) in the order a referee meets them:

* Sign-ups come from an online form, exported as CSV (:func:`parse_signups`). One form is
  one person; a second sign-up of the same person counts once (§1.13–1.14): the same name
  with the same e-mail or phone (siblings share a parent's e-mail; a person may type another
  address). The same name with other contacts *may* be the same person: it is shown to the
  referee, who decides (:attr:`SignupImport.possible_duplicates`). First come, first served
  (§1.12): the order is the form's own timestamp column (:mod:`clockd.core.formtime`),
  whatever order the rows are in; a sign-up sent before the form opened (§1.11: 06.06.2026,
  12:00) is refused with the reason. A file without a timestamp column keeps its rows' order.
* The minimum age is 13 (§1.9): a younger person's sign-up is refused, with its line.
* The main list and the reserve list have the same size (§1.11); sign-ups beyond both are
  over the limit.
* Players check in at the table; at T−10 an absent player's seat goes to the next reserve
  *in order* (§1.18), and at T−5 a seat still free goes to anyone waiting — walk-ins,
  typed in at the desk, in order of arrival (§1.19). :meth:`Registration.close` does both,
  and says who took which seat; until the draw the referee may open the check-in again
  (:class:`ReopenCheckIn`: a walk-in who came late, a check-in forgotten).

**A bad row stops the import.** A row that cannot be read (no name, an age that is not a
number, an e-mail without ``@``) is an error naming its line; nothing is imported until the
file is fixed (:class:`SignupError` lists every bad line at once). Refusals by the rules
(under 13, a duplicate, over the limit) are not errors: they are listed in the
:class:`SignupImport` so the referee sees who was left out and why.

**Personal data.** Surname, e-mail, phone and age are private (marked ``private`` in the
schema, never in :meth:`Player.public`); screens, the bracket and the results files show
the display name only ("Anna K."), DESIGN.md principle 9. The three sessions are three
tournaments, each with its own sign-up file.

This module is the session's registration: the referee's actions and the rules of
:class:`Registration`. Apart, and re-exported here where the service, the CLI, the desk
and the tests import them: the person and their display name
(:mod:`clockd.core.registrant`) and the sign-up file (:mod:`clockd.core.signup_file`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from clockd.core.actions import Action, Allowed, Target, action
from clockd.core.csvtext import control_character
from clockd.core.people import fold_name
from clockd.core.private import PRIVATE
from clockd.core.registrant import (
    NAME_PREFIX,
    PERSON_FIELDS,
    REQUIRED_CONSENTS,
    SEALED_FIELDS,
    SEALED_NAME,
    VAULT_FIELDS,
    Consent,
    ConsentKind,
    ListKind,
    Person,
    Player,
    PlayerId,
    PublicNames,
    display_names,
    erased_person,
    norm_email,
    norm_phone,
    seal_person,
    unseal_person,
)
from clockd.core.signup_file import (
    COLUMN_ALIASES,
    ChangedSignup,
    ImportReport,
    MixedEncoding,
    PossibleDuplicate,
    Refusal,
    RegistrationError,
    Signup,
    SignupError,
    SignupImport,
    consent_given,
    consent_kind,
    decode_signups,
    over_limit_refusal,
    parse_signups,
)
from clockd.i18n import Msg, msg

# -- the session's registration: the referee's actions -------------------------------------


@action
class AddPlayer(Action):
    """Type a person in at the desk: to the main list while it has room, then the reserve;
    ``walk_in`` for someone waiting on the day (§1.19)."""

    kind: Literal["player-add"] = "player-add"
    target: ClassVar[Target] = "event"
    first_name: str = Field(min_length=1, max_length=100)
    last_name: str = Field(default="", max_length=100, json_schema_extra=PRIVATE)
    email: str = Field(default="", max_length=200, json_schema_extra=PRIVATE)
    phone: str = Field(default="", max_length=50, json_schema_extra=PRIVATE)
    #: Required; ``None`` only in the journal, where the vault keeps it (or it was erased).
    age: int | None = Field(ge=0, le=130, json_schema_extra=PRIVATE)
    nickname: str = Field(default="", max_length=100)
    walk_in: bool = False

    @field_validator("first_name", "last_name", "email", "phone", "nickname")
    @classmethod
    def _no_control_character(cls, value: str) -> str:
        bad = control_character(value)
        if bad is not None:  # a NUL or a line break in a name would reach the pages and the TRF
            raise PydanticCustomError(
                "field.control-character",
                "{what}: {field} contains a control character ({character}); retype it",
                {"character": bad},
            )
        return value

    def person(self) -> Person:
        return Person(
            first_name=self.first_name,
            last_name=self.last_name,
            email=self.email,
            phone=self.phone,
            age=self.age,
            nickname=self.nickname,
        )


@action
class CheckIn(Action):
    """The player is at the table."""

    kind: Literal["check-in"] = "check-in"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class CheckOut(Action):
    """Undo a check-in made by mistake, or a player who left before the start."""

    kind: Literal["check-out"] = "check-out"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class Withdraw(Action):
    """The person resigns (or withdraws consent to their data, which is resignation, RODO)."""

    kind: Literal["withdraw"] = "withdraw"
    target: ClassVar[Target] = "event"
    player: PlayerId


@action
class CloseCheckIn(Action):
    """Start time: fill empty seats from the reserve in order, then from walk-ins (§1.18–1.19)."""

    kind: Literal["check-in-close"] = "check-in-close"
    target: ClassVar[Target] = "event"


@action
class ReopenCheckIn(Action):
    """Take the close back, until the draw: the field and its seat changes are undone, the
    check-in is open again (someone came late, a check-in was forgotten); close again after."""

    kind: Literal["check-in-reopen"] = "check-in-reopen"
    target: ClassVar[Target] = "event"


RegistrationAction = AddPlayer | CheckIn | CheckOut | Withdraw | CloseCheckIn | ReopenCheckIn


class SeatChange(BaseModel):
    """Who took an absent player's seat at the start (``absent``: ``None`` for a seat no one
    on the main list had), for the referee's record."""

    model_config = ConfigDict(frozen=True)

    absent: PlayerId | None
    taken_by: PlayerId
    rule: Literal["reserve §1.18", "walk-in §1.19"]


class Registration(BaseModel):
    """One session's players, lists and check-in; immutable, changed by :meth:`apply`."""

    model_config = ConfigDict(frozen=True)

    seats: int = Field(ge=2)
    min_age: int = 13
    name_style: PublicNames = "short"  # the configuration's public_names
    players: dict[PlayerId, Player] = {}
    present: frozenset[PlayerId] = frozenset()
    withdrawn: frozenset[PlayerId] = frozenset()
    field: tuple[PlayerId, ...] | None = None  # set at close: who plays, in seat order
    seat_changes: tuple[SeatChange, ...] = ()
    refused: tuple[Refusal, ...] = ()
    possible_duplicates: tuple[PossibleDuplicate, ...] = ()  # for the referee to decide (§1.14)
    last_import: ImportReport | None = None  # what the latest export of the form changed
    #: Players whose person restricted the processing of their data (RODO art. 18): kept, but
    #: shown on no screen and in no results under their name.
    restricted: frozenset[PlayerId] = frozenset()

    @classmethod
    def from_signups(
        cls,
        signups: SignupImport,
        *,
        seats: int,
        min_age: int = 13,
        name_style: PublicNames = "short",
        person_ids: dict[int, str] | None = None,
    ) -> Registration:
        """Main list = the first ``seats`` sign-ups, reserve = the next ``seats`` (§1.11).

        ``person_ids`` gives the person each sign-up is (by its line), where known.
        """
        ids = person_ids or {}
        accepted = list(signups.accepted)
        over = accepted[2 * seats :]
        people = [(i, s.person) for i, s in enumerate(accepted[: 2 * seats], start=1)]
        names = display_names(people, name_style)
        players = {
            i: Player(
                id=i,
                display_name=names[i],
                person=s.person,
                list=ListKind.MAIN if i <= seats else ListKind.RESERVE,
                line=s.line,
                signed_up_at=s.signed_up_at,
                person_id=ids.get(s.line),
            )
            for i, s in enumerate(accepted[: 2 * seats], start=1)
        }
        refused = list(signups.refused) + [over_limit_refusal(s, seats) for s in over]
        return cls(
            seats=seats,
            min_age=min_age,
            name_style=name_style,
            players=players,
            refused=tuple(refused),
            possible_duplicates=signups.possible_duplicates,
        )

    def with_later_export(
        self, signups: SignupImport, person_ids: dict[int, str] | None = None
    ) -> Registration:
        """The lists after a later export of the same form (§1.11–1.14): nothing already listed
        moves or is lost, new sign-ups join in the order they were sent, changes are noted.

        A row is recognised by who sent it and when (the form's timestamp); without a
        timestamp column, by the person (:meth:`Person.same_person`). The same person sent
        again at another time is a duplicate (§1.14), refused naming the first sign-up.
        """
        ids = person_ids or {}
        players = dict(self.players)
        from_form = [p for p in players.values() if p.list is not ListKind.WALK_IN]
        by_row = {(fold_name(p.person.full_name), p.signed_up_at): p for p in from_form if p.signed_up_at}
        seen: set[PlayerId] = set()
        added: list[PlayerId] = []
        changed: list[ChangedSignup] = []
        refused: list[Refusal] = []  # this export's, with its lines; then the earlier ones it lacks
        for s in signups.accepted:
            p = by_row.get((fold_name(s.person.full_name), s.signed_up_at)) if s.signed_up_at else None
            if p is None and not s.signed_up_at:
                p = next((q for q in from_form if q.person.same_person(s.person)), None)
            if p is not None:
                seen.add(p.id)
                fields = tuple(f for f in PERSON_FIELDS if getattr(p.person, f) != getattr(s.person, f))
                if fields:
                    changed.append(ChangedSignup(player=p.id, fields=fields))
                    players[p.id] = p.model_copy(update={"person": s.person, "line": s.line})
                elif p.line != s.line:  # the referee's questions name the line of the latest export
                    players[p.id] = p.model_copy(update={"line": s.line})
                continue
            again = next((q for q in players.values() if q.person.same_person(s.person)), None)
            if again is not None:
                why = again.person.same_person(s.person)
                refusal = Refusal(
                    line=s.line,
                    name=s.person.short_name,
                    reason="duplicate",
                    detail=msg(
                        "signups.duplicate-of-player", why=why, player=again.id, name=again.display_name
                    ),
                )
            elif len([q for q in players.values() if q.list is ListKind.MAIN]) < self.seats:
                refusal, kind = None, ListKind.MAIN
            elif len([q for q in players.values() if q.list is ListKind.RESERVE]) < self.seats:
                refusal, kind = None, ListKind.RESERVE
            else:
                refusal = Refusal(
                    line=s.line,
                    name=s.person.short_name,
                    reason="over-limit",
                    detail=msg("signups.over-limit", seats=self.seats),
                )
            if refusal is not None:
                refused.append(refusal)
                continue
            pid = max(players, default=0) + 1
            players[pid] = Player(
                id=pid,
                display_name="",
                person=s.person,
                list=kind,
                line=s.line,
                signed_up_at=s.signed_up_at,
                person_id=ids.get(s.line),
            )
            added.append(pid)
        # this export's own refusals (under age, duplicates, too early) with this file's lines; an
        # earlier export's refusal stays only for a row this one no longer has
        refused += signups.refused
        now = {_refusal_key(r) for r in refused}
        refused += [r for r in self.refused if _refusal_key(r) not in now]
        refused.sort(key=lambda r: r.line)
        names = display_names([(q.id, q.person) for q in players.values()], self.name_style)
        players = {pid: q.model_copy(update={"display_name": names[pid]}) for pid, q in players.items()}
        report = ImportReport(
            source=signups.source,
            recognised=len(seen),
            added=tuple(added),
            changed=tuple(changed),
            missing=tuple(p.id for p in from_form if p.id not in seen),
        )
        return self.model_copy(
            update={
                "players": players,
                "refused": tuple(refused),
                "possible_duplicates": self.possible_duplicates + signups.possible_duplicates,
                "last_import": report,
            }
        )

    def erased(self, person_id: str) -> Registration:
        """The registration with person ``person_id`` erased (RODO art. 17): each of their players
        keeps the seat, the list and the results under the stand-in name, and every display
        name is derived again (a namesake's "(3)" may go)."""
        if not any(p.person_id == person_id for p in self.players.values()):
            return self
        players = {
            pid: p.model_copy(update={"person": erased_person(p.person)}) if p.person_id == person_id else p
            for pid, p in self.players.items()
        }
        return self._renamed(players)

    def corrected(self, person_id: str, field: str, value: object) -> Registration:
        """The registration with one field of person ``person_id`` corrected (RODO art. 16)."""
        if not any(p.person_id == person_id for p in self.players.values()):
            return self
        players = {
            pid: p.model_copy(
                update={"person": Person.model_validate({**p.person.model_dump(), field: value})}
            )
            if p.person_id == person_id
            else p
            for pid, p in self.players.items()
        }
        return self._renamed(players)

    def consent_changed(
        self, person_id: str, kind: ConsentKind, given: bool, at: str, *, resign: bool
    ) -> Registration:
        """Person ``person_id``'s ``kind`` of consent withdrawn (or given again) at ``at``; with
        ``resign`` (a required one withdrawn, §1.6) they leave the lists while these are open."""
        players = dict(self.players)
        mine = [p for p in players.values() if p.person_id == person_id]
        if not mine:
            return self
        for p in mine:
            kept = tuple(c for c in p.person.consents if c.kind != kind)
            old = next((c for c in p.person.consents if c.kind == kind), None)
            new = Consent(kind=kind, text=old.text if old else kind, answer="", given=given, at=at)
            person = p.person.model_copy(update={"consents": (*kept, new)})
            players[p.id] = p.model_copy(update={"person": person})
        withdrawn = self.withdrawn
        if resign and not self.closed:
            withdrawn = withdrawn | {p.id for p in mine}
        return self.model_copy(
            update={"players": players, "withdrawn": withdrawn, "present": self.present - withdrawn}
        )

    def _renamed(self, players: dict[PlayerId, Player]) -> Registration:
        names = display_names([(q.id, q.person) for q in players.values()], self.name_style)
        players = {pid: q.model_copy(update={"display_name": names[pid]}) for pid, q in players.items()}
        return self.model_copy(update={"players": players})

    # -- reading ----------------------------------------------------------------------------
    def listed(self, kind: ListKind) -> list[Player]:
        """A list in its order (sign-up order; arrival order for walk-ins), without withdrawals."""
        return [p for p in self.players.values() if p.list is kind and p.id not in self.withdrawn]

    def without_email(self) -> list[Player]:
        """Main-list players with no e-mail address (an empty cell of the form): the organiser
        cannot write to them before the day (a change of time, a place freed), so the referee
        is warned at the import. An erased person's is gone on purpose, so not counted."""
        main = self.listed(ListKind.MAIN)
        return [p for p in main if not p.person.email and p.person.first_name != SEALED_NAME]

    def player(self, pid: PlayerId) -> Player:
        try:
            return self.players[pid]
        except KeyError:
            raise RegistrationError("registration.no-player", player=pid) from None

    @property
    def closed(self) -> bool:
        return self.field is not None

    def public_names(self) -> dict[PlayerId, str]:
        return {pid: self.shown_name(pid) for pid in self.players}

    def shown_name(self, pid: PlayerId) -> str:
        """What screens and results call the player: the display name, or for a restricted
        person the stand-in with the number ("N.N. (7)")."""
        p = self.players[pid]
        return f"{SEALED_NAME} ({pid})" if pid in self.restricted else p.display_name

    def restricted_for(self, person_id: str, restricted: bool) -> Registration:
        """Person ``person_id``'s players restricted (or no longer)."""
        mine = {p.id for p in self.players.values() if p.person_id == person_id}
        if not mine:
            return self
        return self.model_copy(
            update={"restricted": self.restricted | mine if restricted else self.restricted - mine}
        )

    # -- what may be done now ------------------------------------------------------------------
    def allowed(self) -> Allowed:
        """The session-wide registration actions, and why not where they may not be done."""
        closed = msg("registration.closed") if self.closed else None
        return {
            "player-add": closed,
            "check-in-close": closed,
            "check-in-reopen": None if self.closed else msg("registration.not-closed"),
            "signups-import": closed,  # again and again: a later export joins what is listed
        }

    def player_allowed(self, pid: PlayerId) -> Allowed:
        """The actions on one player (check in, check out, withdraw) and why not."""
        p = self.players.get(pid)
        if p is None:
            no = msg("registration.no-player", player=pid)
            return {"check-in": no, "check-out": no, "withdraw": no}
        if self.closed:
            closed = msg("registration.closed")
            return {"check-in": closed, "check-out": closed, "withdraw": closed}
        if pid in self.withdrawn:
            gone = msg("registration.withdrawn", player=pid, name=p.display_name)
            return {"check-in": gone, "check-out": gone, "withdraw": gone}
        here = pid in self.present
        return {
            "check-in": msg("registration.already-present", name=p.display_name) if here else None,
            "check-out": None if here else msg("registration.not-present", name=p.display_name),
            "withdraw": None,
        }

    # -- actions --------------------------------------------------------------------------------
    def apply(self, event: RegistrationAction, *, person_id: str | None = None) -> Registration:
        """The registration after ``event``; ``person_id`` is the person a new player is."""
        if isinstance(event, AddPlayer):
            _refuse(self.allowed()["player-add"])
            return self._add(event, person_id)
        if isinstance(event, CloseCheckIn):
            _refuse(self.allowed()["check-in-close"])
            return self._close()
        if isinstance(event, ReopenCheckIn):
            _refuse(self.allowed()["check-in-reopen"])
            return self.model_copy(update={"field": None, "seat_changes": ()})
        _refuse(self.player_allowed(event.player)[event.kind])
        player = self.players[event.player]
        if isinstance(event, CheckIn):
            return self.model_copy(update={"present": self.present | {player.id}})
        if isinstance(event, CheckOut):
            return self.model_copy(update={"present": self.present - {player.id}})
        return self.model_copy(
            update={"withdrawn": self.withdrawn | {player.id}, "present": self.present - {player.id}}
        )

    def _add(self, e: AddPlayer, person_id: str | None) -> Registration:
        person = e.person()
        if person.age is not None and person.age < self.min_age:
            raise RegistrationError("registration.under-age", age=person.age, min_age=self.min_age)
        for p in self.players.values():
            why = p.person.same_person(person)
            if why:
                raise RegistrationError("registration.duplicate", player=p.id, name=p.display_name, why=why)
        if e.walk_in:
            kind = ListKind.WALK_IN
        elif len(self.listed(ListKind.MAIN)) < self.seats:
            kind = ListKind.MAIN
        elif len(self.listed(ListKind.RESERVE)) < self.seats:
            kind = ListKind.RESERVE
        else:
            raise RegistrationError("registration.lists-full", seats=self.seats)
        pid = max(self.players, default=0) + 1
        people = [(p.id, p.person) for p in self.players.values()] + [(pid, person)]
        names = display_names(people, self.name_style)
        players = {i: p.model_copy(update={"display_name": names[i]}) for i, p in self.players.items()}
        players[pid] = Player(id=pid, display_name=names[pid], person=person, list=kind, person_id=person_id)
        # a walk-in is typed in because they are here (§1.19): present, in the queue for a seat
        present = self.present | {pid} if kind is ListKind.WALK_IN else self.present
        return self.model_copy(update={"players": players, "present": present})

    def _close(self) -> Registration:
        """The field: present main-list players keep their seats; each empty seat goes to the
        next present reserve in list order (§1.18), then to present walk-ins in arrival
        order (§1.19)."""
        main = self.listed(ListKind.MAIN)
        field = [p.id for p in main if p.id in self.present]
        absent: list[PlayerId | None] = [p.id for p in main if p.id not in self.present]
        absent += [None] * (self.seats - len(main))  # seats nobody signed up for
        changes: list[SeatChange] = []
        queue: list[tuple[PlayerId, Literal["reserve §1.18", "walk-in §1.19"]]] = [
            (p.id, "reserve §1.18") for p in self.listed(ListKind.RESERVE) if p.id in self.present
        ] + [(p.id, "walk-in §1.19") for p in self.listed(ListKind.WALK_IN) if p.id in self.present]
        for seat in absent:
            if not queue:
                break
            pid, rule = queue.pop(0)
            field.append(pid)
            changes.append(SeatChange(absent=seat, taken_by=pid, rule=rule))
        if len(field) < 2:
            raise RegistrationError("registration.too-few-present", n=len(field))
        return self.model_copy(update={"field": tuple(field), "seat_changes": tuple(changes)})


def _refusal_key(r: Refusal) -> tuple[str, str, str]:
    """What tells one refused sign-up from another across two exports of a form (not its line)."""
    return (r.name, r.reason, r.detail.code)


def _refuse(reason: Msg | None) -> None:
    if reason is not None:
        raise RegistrationError(reason)


__all__ = [
    "COLUMN_ALIASES",
    "NAME_PREFIX",
    "PERSON_FIELDS",
    "REQUIRED_CONSENTS",
    "SEALED_FIELDS",
    "SEALED_NAME",
    "VAULT_FIELDS",
    "AddPlayer",
    "ChangedSignup",
    "CheckIn",
    "CheckOut",
    "CloseCheckIn",
    "Consent",
    "ConsentKind",
    "ImportReport",
    "ListKind",
    "MixedEncoding",
    "Person",
    "Player",
    "PlayerId",
    "PossibleDuplicate",
    "PublicNames",
    "Refusal",
    "Registration",
    "RegistrationAction",
    "RegistrationError",
    "ReopenCheckIn",
    "SeatChange",
    "Signup",
    "SignupError",
    "SignupImport",
    "Withdraw",
    "consent_given",
    "consent_kind",
    "decode_signups",
    "display_names",
    "erased_person",
    "norm_email",
    "norm_phone",
    "over_limit_refusal",
    "parse_signups",
    "seal_person",
    "unseal_person",
]
