"""Forms + bank statements → who is registered (§H "Zgłoszenia"), and everyone else, by list.

A registration is complete only with both its form and its fee (30 zł, 50 zł with the
medal). :func:`reconcile` sorts every form and every payment into exactly one place; none is
dropped without a word:

* ``complete`` — up to the limit (1000), **in the order the registration became complete**:
  the later of the form's day and the day of the payment that covered the fee. A statement
  gives the booking day only, never the hour, so within one day the form's own time decides
  (then its row). That is what the organiser can defend to a family: "your form and your
  money were both in on the 14th; those before you were complete on the 13th".
* ``over_limit`` — complete registrations beyond the limit. §H lets the organiser take more
  at 70 zł (90 zł with the medal) *with their consent*, "by the order of e-mails": they are
  listed by the form's time; ``accept_over`` (the organiser's consent for that many) admits
  the first ones that paid the higher fee, and only those join ``complete`` and the groups.
* ``form_without_payment`` — deleted when the lists close (§H).
* ``payment_without_form`` — the refund list: on the payer's request within 30 days of the
  day, minus bank and accounting costs (§H). Also a second payment for an already paid form.
* ``amount_mismatch`` — named forms whose payments do not cover their fees (30 zł paid, the
  medal chosen; 60 zł for three siblings). A later top-up naming the player completes it.
* ``duplicates`` — a player's second form (the same name and the same birth, e-mail or
  phone); the first form keeps its place, the later is listed with the one it repeats.
* ``ambiguous`` — a payment naming several players of the same name whom neither the sender
  nor the amount tells apart, or a title naming no person at all ("wpisowe": the parent may
  have forgotten the name; the unpaid forms of that fee are its candidates), or naming nobody
  exactly but resembling a player still unpaid
  (the surname with something like the first name, "Zosia" for "Zofia"; the sender named as
  the guardian on a form); the organiser decides by hand (:class:`HandMatch`).
* ``medals`` — the 50 zł players of ``complete``, alphabetically, for the pick-up desk.

**Matching a payment.** The player's name in the title, in any order, case, diacritics and
spacing ("KOWALSKA  zofia"); failing that, allowing Polish endings ("za Zofię Kowalską",
"Jana Kowalskiego", "Jan i Zofia Kowalscy"); failing that, the sender's name (an older
student paying themselves). One title may name two or three siblings: one payment for all,
the amount must cover them all ("Jan i Zofia Kowalski" names Zofia Kowalska too). Statements
of overlapping periods are read once (:func:`overlapping`). Players of the same name are
told apart by the guardian's name on the form against the sender, the sender's surname, then
the amount. Payments that name the same players add up (a 20 zł top-up for the medal).

**By hand.** The organiser's decisions are data (:class:`HandMatch`: a payment, the forms it
pays for — none: not a registration, refund it — who decided, when and why), given to
:func:`reconcile` again each time; the daemon will journal them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.chessday.bank import Payment, PaymentRef, Statement
from clockd.core.chessday.forms import Form
from clockd.core.chessday.groups import form_group_key
from clockd.core.people import fold_name
from clockd.core.swiss.startlist import polish_key
from clockd.i18n import Problem

#: §H: the entry fee, with the medal, and beyond the limit (grosze).
FEE = 3000
FEE_MEDAL = 5000
FEE_OVER = 7000
FEE_OVER_MEDAL = 9000
#: §H: "Zgłoszenia przyjmowane są do limitu 1000 uczestników".
LIMIT = 1000
#: The most candidates an ambiguous payment lists.
MAX_CANDIDATES = 6


def fee(form: Form, *, over: bool = False) -> int:
    """The player's fee in grosze: 30 zł, 50 zł with the medal; 70/90 zł over the limit."""
    if over:
        return FEE_OVER_MEDAL if form.medal else FEE_OVER
    return FEE_MEDAL if form.medal else FEE


class ReconcileError(Problem):
    """A hand match that names a payment or a form that is not there; nothing was decided."""


class HandMatch(BaseModel):
    """The organiser's decision: ``payment`` pays for ``forms`` (form lines; none = refund it)."""

    model_config = ConfigDict(frozen=True)

    payment: PaymentRef
    forms: tuple[int, ...] = ()
    by: str = ""
    at: str = ""  # ISO time of the decision
    why: str = ""


class Decisions(BaseModel):
    """The organiser's hand matches, kept in a file passed again at every run."""

    model_config = ConfigDict(frozen=True)

    format: int = 1
    matches: tuple[HandMatch, ...] = ()

    def with_match(self, match: HandMatch) -> Decisions:
        """The decisions with ``match``, replacing an earlier one about the same payment."""
        kept = tuple(m for m in self.matches if m.payment != match.payment)
        return self.model_copy(update={"matches": (*kept, match)})


class Candidate(BaseModel):
    model_config = ConfigDict(frozen=True)

    form_line: int
    name: str


class Entry(BaseModel):
    """One line of one list; the fields that do not apply stay ``None`` / empty."""

    model_config = ConfigDict(frozen=True)

    form_line: int | None = None
    payment_line: PaymentRef | None = None
    name: str  # the player's name; for a payment with no player, its sender (or title)
    group: str = ""
    school: str = ""
    school_class: str = ""
    medal: bool | None = None
    fee: int | None = None  # grosze due
    paid: int | None = None  # grosze paid (for siblings: the whole transfer)
    overpaid: int | None = None  # grosze paid beyond the fees (50 zł without the medal: ask)
    order: int | None = None  # place in the order of completion
    completed: date | None = None
    sent: str = ""  # the form's timestamp, as written
    day: date | None = None  # the payment's day
    title: str = ""
    sender: str = ""
    reason: str = ""
    matched_by: str = ""
    same_as: int | None = None
    together_with: tuple[int, ...] = ()
    other_payments: tuple[PaymentRef, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    accepted: bool | None = None


class Reconciliation(BaseModel):
    """Every form and payment in its list, and the forms that play (``players``, in order)."""

    model_config = ConfigDict(frozen=True)

    complete: tuple[Entry, ...] = ()
    form_without_payment: tuple[Entry, ...] = ()
    payment_without_form: tuple[Entry, ...] = ()
    amount_mismatch: tuple[Entry, ...] = ()
    ambiguous: tuple[Entry, ...] = ()
    duplicates: tuple[Entry, ...] = ()
    over_limit: tuple[Entry, ...] = ()
    medals: tuple[Entry, ...] = ()
    players: tuple[Form, ...] = Field(default=(), exclude=True)
    limit: int = LIMIT
    #: Payments read twice: the same operation in two statements whose periods overlap.
    overlap: tuple[PaymentRef, ...] = ()

    LISTS: ClassVar[tuple[str, ...]] = (
        "complete",
        "form_without_payment",
        "payment_without_form",
        "amount_mismatch",
        "ambiguous",
        "duplicates",
        "over_limit",
        "medals",
    )


# -- names in a title ---------------------------------------------------------------------------


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _inflected(name: str, word: str, *, surname: bool) -> bool:
    """Whether ``word`` is ``name`` with a Polish ending: Zofię, Jana, Kowalskiego, Kowalscy.

    An ending replaces at most the name's last letter (Zofia → Zofię, Jan → Jana), a
    surname's last two (Kowalski → Kowalscy): "Wiktor" is not "Wiktoria"."""
    if word == name:
        return True
    p = _prefix(name, word)
    return p >= 3 and p >= len(name) - (2 if surname else 1) and p >= len(word) - (4 if surname else 2)


def _named(form: Form, words: frozenset[str], *, inflected: bool) -> bool:
    """Whether ``words`` name the player: the first first name and every part of the surname."""
    first, surname = form.first_words, form.surname_words
    if not first or not surname:
        return False
    if not inflected:
        return first[0] in words and all(s in words for s in surname)
    return any(_inflected(first[0], w, surname=False) for w in words) and all(
        any(_inflected(s, w, surname=True) for w in words) for s in surname
    )


def _resembles(form: Form, words: frozenset[str], first_names: frozenset[str]) -> bool:
    """The surname with something like the first name ("Zosia Kowalska" for Zofia, "Tomek"
    for Tomasz): worth showing the organiser, not deciding. A title word that is another
    player's first name ("Tomasz Kowalski", Zofia Kowalska's brother without a form) names
    someone else: that payment is nobody's, not Zofia's."""
    first, surname = form.first_words, form.surname_words
    if not first or not surname:
        return False
    if not all(any(_inflected(s, w, surname=True) for w in words) for s in surname):
        return False
    return any(
        _prefix(first[0], w) >= 2
        and w not in first_names
        and not any(_inflected(s, w, surname=True) for s in surname)
        for w in words
    )


def _same_words(a: str, b: str) -> bool:
    return bool(a.strip()) and frozenset(fold_name(a).split()) == frozenset(fold_name(b).split())


class _Index:
    """The kept forms by the words of their surnames (and their first three letters, for the
    Polish endings), so a title looks at a few forms, not at all of them."""

    def __init__(self, forms: Sequence[Form]) -> None:
        self.by_word: dict[str, list[Form]] = {}
        self.by_stem: dict[str, list[Form]] = {}
        self.by_guardian: dict[frozenset[str], list[Form]] = {}
        self.by_stems: dict[tuple[str, str], list[Form]] = {}
        self.by_first: dict[str, list[Form]] = {}
        self.first_names = frozenset(f.first_words[0] for f in forms if f.first_words)
        for form in forms:
            if form.first_words:
                self.by_first.setdefault(form.first_words[0], []).append(form)
            for word in set(form.surname_words):
                self.by_word.setdefault(word, []).append(form)
                self.by_stem.setdefault(word[:3], []).append(form)
                if form.first_words:
                    self.by_stems.setdefault((form.first_words[0][:3], word[:3]), []).append(form)
            if form.guardian.strip():
                self.by_guardian.setdefault(frozenset(fold_name(form.guardian).split()), []).append(form)

    def _near(self, words: frozenset[str]) -> list[Form]:
        seen: dict[int, Form] = {}
        for word in words:
            for form in self.by_stem.get(word[:3], ()):
                seen.setdefault(form.line, form)
        return sorted(seen.values(), key=lambda f: f.line)

    def exact(self, words: frozenset[str]) -> list[Form]:
        seen: dict[int, Form] = {}
        for word in words:
            for form in self.by_word.get(word, ()):
                if form.line not in seen and _named(form, words, inflected=False):
                    seen[form.line] = form
        return sorted(seen.values(), key=lambda f: f.line)

    def inflected(self, words: frozenset[str]) -> list[Form]:
        """The players named with Polish endings: looked up by the first three letters of
        their first name and surname (an ending never changes those)."""
        stems = {w[:3] for w in words}
        seen: dict[int, Form] = {}
        for a in stems:
            for b in stems:
                for form in self.by_stems.get((a, b), ()):
                    if form.line not in seen and _named(form, words, inflected=True):
                        seen[form.line] = form
        return sorted(seen.values(), key=lambda f: f.line)

    def by_first_name(self, words: frozenset[str]) -> list[Form]:
        """The players whose first name is one of ``words`` as written."""
        return [f for w in words for f in self.by_first.get(w, ())]

    def resembling(self, words: frozenset[str], sender: str) -> list[Form]:
        guardians = self.by_guardian.get(frozenset(fold_name(sender).split()), []) if sender.strip() else []
        found = {f.line: f for f in self._near(words) if _resembles(f, words, self.first_names)}
        found.update((f.line, f) for f in guardians)
        return sorted(found.values(), key=lambda f: f.line)


def _tell_apart(namesakes: list[Form], payment: Payment) -> list[Form]:
    """Of players with the same name, those the sender or the amount points at (maybe all)."""
    tests: tuple[Callable[[Form], bool], ...] = (
        lambda f: _same_words(f.guardian, payment.sender),
        lambda f: bool(set(f.surname_words) & payment.sender_words),
        lambda f: fee(f) == payment.amount,
    )
    for test in tests:
        chosen = [f for f in namesakes if test(f)]
        if len(chosen) == 1:
            return chosen
        if chosen:
            namesakes = chosen
    return namesakes


def _match(payment: Payment, index: _Index) -> tuple[list[Form], str, list[Form]]:
    """``(forms paid for, how, candidates)``: the players the payment names, or (when it names
    several players of one name it cannot tell apart) those; both empty when it names nobody."""
    found, how = index.exact(payment.words), "title"
    if found:  # "Jan i Zofia Kowalski": Zofia Kowalska too, her first name written as it is
        firsts = {f.first_words[0] for f in found}
        found += [
            f
            for f in index.by_first_name(payment.words - firsts)
            if f not in found and _named(f, payment.words, inflected=True)
        ]
    else:
        found, how = index.inflected(payment.words), "title-inflected"
    if not found and payment.sender:
        found, how = index.exact(payment.sender_words), "sender"
    if not found:  # nobody named: resemblances are looked for once every payment is matched
        return [], "", []
    people: dict[frozenset[str], list[Form]] = {}
    for form in found:
        people.setdefault(form.person_key, []).append(form)
    chosen: list[Form] = []
    for namesakes in people.values():
        told = _tell_apart(namesakes, payment) if len(namesakes) > 1 else namesakes
        if len(told) > 1:
            return [], "", found
        chosen += told
    return chosen, how, []


# -- duplicates ---------------------------------------------------------------------------------


def _digits(phone: str) -> str:
    return "".join(c for c in phone if c.isdigit())[-9:]


def _same_player(a: Form, b: Form) -> bool:
    """One player twice: the same name and the same birth, e-mail or phone; a form with none
    of them, the same name in the same class."""
    if a.person_key != b.person_key:
        return False
    if a.birth and a.birth == b.birth:
        return True
    if a.email and a.email.strip().lower() == b.email.strip().lower():
        return True
    if _digits(a.phone) and len(_digits(a.phone)) >= 6 and _digits(a.phone) == _digits(b.phone):
        return True
    bare = not (a.birth or a.email or a.phone) or not (b.birth or b.email or b.phone)
    return bare and (a.level, a.grade) == (b.level, b.grade)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _sent_order(form: Form) -> tuple[datetime, int]:
    return (form.sent_at or _EPOCH, form.line)


# -- the lists ----------------------------------------------------------------------------------


def _form_entry(form: Form, **fields: object) -> Entry:
    return Entry(
        form_line=form.line,
        name=form.name,
        group=form_group_key(form),
        school=form.school,
        school_class=form.school_class,
        medal=form.medal,
        sent=form.sent,
        **fields,
    )


#: Words of a transfer's title that name no person: what the payment is for, not whom.
TITLE_WORDS = frozenset(
    [
        "wpisowe",
        "wpisowego",
        "wpisowa",
        "oplata",
        "oplaty",
        "oplate",
        "startowe",
        "startowa",
        "startowego",
        "turniej",
        "turnieju",
        "turniejowe",
        "szachy",
        "szachowy",
        "szachowego",
        "szachowe",
        "szachowa",
        "dzien",
        "dnia",
        "szkolny",
        "szkolnego",
        "za",
        "na",
        "dla",
        "do",
        "od",
        "z",
        "ze",
        "i",
        "oraz",
        "w",
        "medal",
        "medalem",
        "medalu",
        "zgloszenie",
        "zgloszenia",
        "rejestracja",
        "udzial",
        "udzialu",
        "klasa",
        "kl",
        "sp",
        "szkola",
        "szkoly",
        "zl",
        "pln",
        "przelew",
        "wplata",
        "entry",
        "fee",
        "chess",
        "tournament",
        "for",
    ]
)


def names_nobody(payment: Payment) -> bool:
    """Whether a transfer's title names no person at all ("Wpisowe", "opłata za turniej 2026"):
    the parent may have forgotten the name, so it is for the organiser to match, not a refund."""
    return not any(len(w) > 2 and not w.isdigit() and w not in TITLE_WORDS for w in payment.words)


def _payment_entry(payment: Payment, **fields: object) -> Entry:
    return Entry(
        payment_line=payment.ref,
        name=payment.sender or payment.title or str(payment.ref),
        paid=payment.amount,
        day=payment.day,
        title=payment.title,
        sender=payment.sender,
        **fields,
    )


def overlapping(statements: Sequence[Statement]) -> set[PaymentRef]:
    """The payments of a later statement that an earlier one already has: the same day,
    amount, title and sender. Statements of overlapping periods (1–15 and 10–30 September)
    hold the same operations; within one file, two equal rows are two transfers (a parent
    who paid twice), so of equal rows the most any one file has are kept."""
    kept: dict[tuple[date, int, str, str], int] = {}
    repeated: set[PaymentRef] = set()
    for statement in statements:
        counts: dict[tuple[date, int, str, str], int] = {}
        for p in statement.payments:
            key = (p.day, p.amount, fold_name(p.title), fold_name(p.sender))
            counts[key] = counts.get(key, 0) + 1
            if counts[key] <= kept.get(key, 0):
                repeated.add(p.ref)
        for key, n in counts.items():
            kept[key] = max(kept.get(key, 0), n)
    return repeated


def _payment_order(entry: Entry) -> tuple[date, str, int]:
    ref = entry.payment_line
    return (entry.day or date.min, ref.file if ref else "", ref.row if ref else 0)


def _ambiguous(payment: Payment, candidates: Sequence[Form], reason: str) -> Entry:
    return _payment_entry(
        payment,
        reason=reason,
        candidates=tuple(Candidate(form_line=c.line, name=c.name) for c in candidates[:MAX_CANDIDATES]),
    )


class _Components:
    """Forms linked by payments that name them together (siblings, top-ups): a union-find."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, lines: Sequence[int]) -> None:
        for other in lines[1:]:
            self.parent[self.find(other)] = self.find(lines[0])


def _hand_bundles(
    hand: Sequence[HandMatch], payments: Mapping[PaymentRef, Payment], forms: Mapping[int, Form]
) -> dict[PaymentRef, HandMatch]:
    decided: dict[PaymentRef, HandMatch] = {}
    for match in hand:
        if match.payment not in payments:
            raise ReconcileError("chess.reg.hand-no-payment", payment=str(match.payment))
        for line in match.forms:
            if line not in forms:
                raise ReconcileError("chess.reg.hand-no-form", payment=str(match.payment), form=line)
        decided[match.payment] = match
    return decided


def reconcile(
    forms: Iterable[Form],
    statements: Iterable[Statement],
    *,
    hand: Sequence[HandMatch] = (),
    limit: int = LIMIT,
    accept_over: int = 0,
) -> Reconciliation:
    """Every form and payment in its list (see the module's text); ``hand`` are the organiser's
    decisions (they win over the automatic matching of their payments); ``accept_over`` is how
    many over-limit registrations the organiser consents to."""
    if limit < 0 or accept_over < 0:
        raise ValueError("the limit and the accepted over-limit count are not negative")
    ordered = sorted(forms, key=_sent_order)
    kept: list[Form] = []
    duplicates: list[Entry] = []
    by_key: dict[frozenset[str], list[Form]] = {}
    for form in ordered:
        earlier = next((k for k in by_key.get(form.person_key, ()) if _same_player(k, form)), None)
        if earlier is not None:
            duplicates.append(_form_entry(form, same_as=earlier.line, reason="same-player"))
            continue
        kept.append(form)
        by_key.setdefault(form.person_key, []).append(form)
    by_line = {f.line: f for f in kept}
    every_line = {f.line: f for f in ordered}
    statements = list(statements)
    repeated = overlapping(statements)
    payments = sorted(
        (p for s in statements for p in s.payments if p.ref not in repeated),
        key=lambda p: (p.day, p.ref.file, p.ref.row),
    )
    decided = _hand_bundles(hand, {p.ref: p for p in payments}, every_line)
    for decision in decided.values():
        for line in decision.forms:
            if line not in by_line:
                raise ReconcileError(
                    "chess.reg.hand-duplicate-form",
                    payment=str(decision.payment),
                    form=line,
                    first=next(d.same_as for d in duplicates if d.form_line == line),
                )

    index = _Index(kept)
    without_form: list[Entry] = []
    ambiguous: list[Entry] = []
    bundles: list[tuple[Payment, list[Form], str]] = []
    nobody: list[Payment] = []
    for payment in payments:
        match = decided.get(payment.ref)
        if match is not None:
            if not match.forms:
                without_form.append(_payment_entry(payment, reason="hand-refund", matched_by="hand"))
            else:
                bundles.append((payment, [by_line[line] for line in match.forms], "hand"))
            continue
        paid_for, how, candidates = _match(payment, index)
        if paid_for:
            bundles.append((payment, paid_for, how))
        elif candidates:
            ambiguous.append(_ambiguous(payment, candidates, "several"))
        else:
            nobody.append(payment)
    # A payment naming nobody may be for a player written otherwise ("Zosia" for Zofia): it is
    # shown against the players still waiting for their money, never against those paid.
    paid_already = {f.line for _, paid_for, _ in bundles for f in paid_for}
    for payment in nobody:
        resembling = [
            f for f in index.resembling(payment.words, payment.sender) if f.line not in paid_already
        ]
        if resembling:
            ambiguous.append(_ambiguous(payment, resembling, "resembles"))
        elif names_nobody(payment):
            unpaid = [f for f in kept if f.line not in paid_already and fee(f) == payment.amount]
            ambiguous.append(_ambiguous(payment, unpaid, "names-nobody"))
        else:
            without_form.append(_payment_entry(payment, reason="no-form"))

    components = _Components()
    for _, paid_for, _ in bundles:
        components.join([f.line for f in paid_for])
    groups: dict[int, tuple[list[Form], list[tuple[Payment, str]]]] = {}
    for payment, paid_for, how in bundles:
        root = components.find(paid_for[0].line)
        members, paying = groups.setdefault(root, ([], []))
        for form in paid_for:
            if form not in members:
                members.append(form)
        paying.append((payment, how))

    done: list[tuple[Form, date, int, tuple[int, ...], Payment, tuple[PaymentRef, ...], str]] = []
    mismatch: list[Entry] = []
    for members, paying in groups.values():
        due = sum(fee(f) for f in members)
        paid, covered_on, used = 0, None, []
        for payment, how in paying:
            if covered_on is not None:
                without_form.append(
                    _payment_entry(
                        payment,
                        reason="already-paid",
                        matched_by=how,
                        together_with=tuple(f.line for f in members),
                    )
                )
                continue
            paid += payment.amount
            used.append((payment, how))
            if paid >= due:
                covered_on = payment.day
        lines = tuple(f.line for f in members)
        first_payment, how = used[0]
        others = tuple(p.ref for p, _ in used[1:])
        for form in members:
            together = tuple(line for line in lines if line != form.line)
            if covered_on is None:
                mismatch.append(
                    _form_entry(
                        form,
                        payment_line=first_payment.ref,
                        fee=fee(form),
                        paid=paid,
                        reason="underpaid",
                        matched_by=how,
                        together_with=together,
                        other_payments=others,
                    )
                )
            else:
                day = max(covered_on, form.sent_day or covered_on)
                share = paid - sum(fee(f) for f in members if f is not form)
                done.append((form, day, share, together, first_payment, others, how))

    done.sort(key=lambda d: (d[1], *_sent_order(d[0])))
    complete: list[Entry] = []
    players: list[Form] = []
    over: list[tuple[Form, date, int, tuple[int, ...], Payment, tuple[PaymentRef, ...], str]] = []
    for form, day, share, together, payment, others, how in done:
        if len(complete) >= limit:
            over.append((form, day, share, together, payment, others, how))
            continue
        complete.append(
            _form_entry(
                form,
                payment_line=payment.ref,
                fee=fee(form),
                paid=share + sum(fee(by_line[t]) for t in together),
                order=len(complete) + 1,
                overpaid=share - fee(form) if share > fee(form) else None,
                completed=day,
                matched_by=how,
                together_with=together,
                other_payments=others,
            )
        )
        players.append(form)
    over_limit: list[Entry] = []
    accepted = 0
    for form, day, share, together, payment, others, how in sorted(over, key=lambda d: _sent_order(d[0])):
        ok = share >= fee(form, over=True) and accepted < accept_over
        entry = _form_entry(
            form,
            payment_line=payment.ref,
            fee=fee(form, over=True),
            paid=share + sum(fee(by_line[t]) for t in together),
            completed=day,
            matched_by=how,
            together_with=together,
            other_payments=others,
            accepted=ok,
            reason="" if share >= fee(form, over=True) else "underpaid",
        )
        over_limit.append(entry)
        if ok:
            accepted += 1
            complete.append(entry.model_copy(update={"order": len(complete) + 1}))
            players.append(form)

    paid_lines = {f.line for members, _ in groups.values() for f in members}
    no_payment = [_form_entry(f, fee=fee(f)) for f in kept if f.line not in paid_lines]
    medals = sorted(
        (e for e in complete if e.medal),
        key=lambda e: (
            polish_key(by_line[e.form_line or 0].surname),
            polish_key(by_line[e.form_line or 0].first_name),
        ),
    )
    return Reconciliation(
        complete=tuple(complete),
        form_without_payment=tuple(no_payment),
        payment_without_form=tuple(sorted(without_form, key=_payment_order)),
        amount_mismatch=tuple(sorted(mismatch, key=lambda e: e.form_line or 0)),
        ambiguous=tuple(sorted(ambiguous, key=_payment_order)),
        duplicates=tuple(duplicates),
        over_limit=tuple(over_limit),
        medals=tuple(medals),
        players=tuple(players),
        limit=limit,
        overlap=tuple(sorted(repeated, key=lambda r: (r.file, r.row))),
    )


__all__ = [
    "FEE",
    "FEE_MEDAL",
    "FEE_OVER",
    "FEE_OVER_MEDAL",
    "LIMIT",
    "Candidate",
    "Decisions",
    "Entry",
    "HandMatch",
    "ReconcileError",
    "Reconciliation",
    "fee",
    "overlapping",
    "reconcile",
]
