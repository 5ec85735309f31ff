"""The registration desk's hand decisions, journaled: which payment pays for which forms.

Matching forms to payments is the computer's (:func:`~clockd.core.chessday.registrations.reconcile`);
the transfers it cannot place — a title that names nobody, or several — are the organiser's to
match by hand (§H). Those decisions are people's decisions, so they are kept as the daemon keeps
every decision: journaled actions of one event (kind ``chess-registrations``), with who made
them, when and why, read back by every later run of ``duelclock chess registrations --daemon``.
A later decision about the same payment replaces the earlier one, and both stay in the journal.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from clockd.core.actions import Action, Reason, Target, action
from clockd.core.chessday.bank import PaymentRef
from clockd.core.chessday.registrations import Decisions, HandMatch


@action
class MatchPayment(Action):
    """The organiser's hand decision: the payment in ``file`` at data row ``row`` pays for
    the forms at data rows ``forms`` (siblings: several; none: not a registration — refund it)."""

    kind: Literal["chess-hand-match"] = "chess-hand-match"
    target: ClassVar[Target] = "event"
    file: str = Field(min_length=1, max_length=200)
    row: int = Field(ge=1)
    forms: tuple[int, ...] = Field(default=(), max_length=10)
    why: Reason = ""


def decided(decisions: Decisions, match: MatchPayment, *, by: str, at: str) -> Decisions:
    """The decisions with ``match`` (made by ``by`` at ``at``, ISO), replacing any about its payment."""
    payment = PaymentRef(file=match.file, row=match.row)
    return decisions.with_match(HandMatch(payment=payment, forms=match.forms, by=by, at=at, why=match.why))


__all__ = ["MatchPayment", "decided"]
