"""Forms + bank statements → the lists of §H "Zgłoszenia": every person in the right one.

The files are written here as an organiser gets them: the form's export from a Polish
Excel (Windows-1250, ``;``) or from Google Forms (UTF-8, ``,``), and statements of Polish
banks (a preamble about the account, then the table; decimal commas).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from clockd.core.chessday.bank import PaymentRef, Statement, parse_amount, read_statement
from clockd.core.chessday.csvfile import ChessFileError
from clockd.core.chessday.forms import Form, FormExport, parse_level, read_forms
from clockd.core.chessday.registrations import HandMatch, ReconcileError, Reconciliation, reconcile
from clockd.core.chessday.roster import Level
from clockd.core.registration import decode_signups
from clockd.i18n import render

FORM_HEAD = (
    "Sygnatura czasowa;Imię i nazwisko zawodnika;Płeć;Klasa (rok szkolny 2026/2027);Szkoła;"
    "Data urodzenia;Ranking;Medal pamiątkowy (+20 zł);E-mail opiekuna;Telefon opiekuna;"
    "Wyrażam zgodę na przetwarzanie danych (imię, nazwisko, klasa)"
)
BANK_HEAD = (
    "Wyciąg z rachunku;FUNDACJA 64 POLA\nRachunek;12 3456 7890\n\n"
    "Data operacji;Data księgowania;Nadawca;Tytuł;Kwota;Waluta"
)


def form_row(
    name: str,
    sex: str = "Chłopiec",
    klass: str = "3",
    *,
    sent: str = "01.09.2026 10:00:00",
    medal: str = "Nie",
    birth: str = "",
    email: str = "",
    rating: str = "",
    school: str = "SP 12 Katowice",
    phone: str = "",
) -> str:
    return f"{sent};{name};{sex};{klass};{school};{birth};{rating};{medal};{email};{phone};Tak"


def pay_row(title: str, amount: str = "30,00", *, day: str = "02.09.2026", sender: str = "JAN RODZIC") -> str:
    return f"{day};{day};{sender};{title};{amount};PLN"


def cp1250_forms(*rows: str) -> FormExport:
    data = "\r\n".join([FORM_HEAD, *rows]).encode("cp1250")
    return read_forms(decode_signups(data, "zgloszenia.csv"), "zgloszenia.csv")


def cp1250_bank(*rows: str, name: str = "wyciag.csv") -> Statement:
    data = "\r\n".join([BANK_HEAD, *rows]).encode("cp1250")
    return read_statement(decode_signups(data, name), name)


def lists_of(result: Reconciliation) -> tuple[dict[int, str], dict[int, str]]:
    """Which list each form line and each payment row is in (medals aside: a second view)."""
    forms: dict[int, str] = {}
    payments: dict[int, str] = {}
    for name in result.LISTS:
        if name == "medals":
            continue
        for entry in getattr(result, name):
            if entry.form_line is not None:
                forms.setdefault(entry.form_line, name)
            elif entry.payment_line is not None:
                payments[entry.payment_line.row] = name
            if name == "complete" and entry.payment_line is not None:
                payments[entry.payment_line.row] = name
            if name == "amount_mismatch" and entry.payment_line is not None:
                payments[entry.payment_line.row] = name
    return forms, payments


def test_the_traps_of_a_registration_desk_put_every_person_in_the_right_list() -> None:
    forms = cp1250_forms(
        form_row("Zofia Kowalska", "Dziewczynka", "3b", medal="Tak", email="k@x.pl"),  # 1: sibling, medal
        form_row("Jan Kowalski", "Chłopiec", "klasa 1", email="k@x.pl"),  # 2: sibling
        form_row("Piotr Nowak", "Chłopiec", "przedszkole"),  # 3: paid "NOWAK PIOTR"
        form_row("Anna Wiśniewska", "Dziewczynka", "II LO", medal="Tak"),  # 4: 30 zł, medal chosen
        form_row("Kacper Zieliński", "Chłopiec", "5"),  # 5: never paid
        form_row("Zuzanna Lewandowska", "Dziewczynka", "2a", email="l@x.pl"),  # 6
        form_row(
            "Zuzanna  LEWANDOWSKA", "Dziewczynka", "2 a", email="L@x.pl", sent="03.09.2026 20:05:13"
        ),  # 7
        form_row("Jan Nowak", "Chłopiec", "4", email="a@x.pl"),  # 8: namesakes …
        form_row("Jan Nowak", "Chłopiec", "6", email="b@x.pl"),  # 9: … one payment "Jan Nowak"
        form_row("Łucja Żółć", "Dziewczynka", "szkoła średnia"),  # 10: "LUCJA ZOLC"
    )
    bank = cp1250_bank(
        pay_row("Jan i Zofia Kowalscy wpisowe", "80,00", sender="ADAM KOWALSKI"),  # 1
        pay_row("NOWAK PIOTR turniej", sender="MARTA NOWAK"),  # 2
        pay_row("Anna Wiśniewska wpisowe z medalem", sender="EWA WIŚNIEWSKA"),  # 3
        pay_row("Zuzanna Lewandowska", sender="TOMASZ LEWANDOWSKI"),  # 4
        pay_row("Jan Nowak", sender="EWA MAZUR"),  # 5
        pay_row("Wpisowe Tomasz Kaczmarek", sender="JOANNA KACZMAREK"),  # 6: nobody's form
        pay_row("LUCJA  ZOLC szachy", sender="X"),  # 7
        pay_row("Opłata za prowadzenie rachunku", "-5,00", sender=""),  # outgoing: not a payment
    )
    assert bank.outgoing == 1
    result = reconcile(forms.forms, [bank])
    form_lists, payment_lists = lists_of(result)
    assert form_lists == {
        1: "complete",
        2: "complete",
        3: "complete",
        4: "amount_mismatch",
        5: "form_without_payment",
        6: "complete",
        7: "duplicates",
        8: "form_without_payment",
        9: "form_without_payment",
        10: "complete",
    }
    assert payment_lists == {
        1: "complete",
        2: "complete",
        3: "amount_mismatch",
        4: "complete",
        5: "ambiguous",
        6: "payment_without_form",
        7: "complete",
    }
    siblings = {
        e.form_line: e for e in result.complete if e.payment_line == PaymentRef(file="wyciag.csv", row=1)
    }
    assert siblings[1].together_with == (2,) and siblings[2].together_with == (1,)
    assert (siblings[1].fee, siblings[2].fee, siblings[1].paid) == (5000, 3000, 8000)
    (mismatch,) = result.amount_mismatch
    assert (mismatch.fee, mismatch.paid) == (5000, 3000)
    (ambiguous,) = result.ambiguous
    assert [c.form_line for c in ambiguous.candidates] == [8, 9]
    (duplicate,) = result.duplicates
    assert duplicate.same_as == 6
    (refund,) = result.payment_without_form
    assert (refund.reason, refund.paid, refund.sender) == ("no-form", 3000, "JOANNA KACZMAREK")
    # the medal list: paid 50 zł and complete; Anna paid 30 zł, so she is not on it (yet)
    assert [e.form_line for e in result.medals] == [1]
    assert [f.line for f in result.players] == [e.form_line for e in result.complete]


@pytest.mark.parametrize(
    ("title", "how"),
    [
        ("KOWALSKA  zofia", "title"),
        ("Zofia Kowalska oplata", "title"),
        ("zofia   kowalska", "title"),
        ("Kowalska, Zofia - wpisowe turniej", "title"),
        ("wpisowe za Zofię Kowalską", "title-inflected"),  # "Zofię": an ending, checked
        ("Opłata za Zosię", None),  # a diminutive alone: nobody is named
    ],
)
def test_a_title_names_the_player_whatever_the_order_case_diacritics_and_spacing(
    title: str, how: str | None
) -> None:
    forms = cp1250_forms(form_row("Zofia Kowalska", "Dziewczynka", "3"), form_row("Jan Kowalski", klass="4"))
    result = reconcile(forms.forms, [cp1250_bank(pay_row(title))])
    if how is None:
        assert result.complete == ()
        assert len(result.payment_without_form) + len(result.ambiguous) == 1
    else:
        (entry,) = result.complete
        assert (entry.form_line, entry.matched_by) == (1, how)


def test_a_title_with_polish_endings_matches_and_says_it_should_be_checked() -> None:
    forms = cp1250_forms(form_row("Jan Kowalski", klass="4"), form_row("Zofia Kowalska", "Dziewczynka", "2"))
    result = reconcile(forms.forms, [cp1250_bank(pay_row("wpisowe za Jana Kowalskiego"))])
    (entry,) = result.complete
    assert (entry.form_line, entry.matched_by) == (1, "title-inflected")


def test_a_surname_alone_is_shown_for_a_decision_by_hand_not_guessed() -> None:
    forms = cp1250_forms(form_row("Zofia Kowalska", "Dziewczynka", "3"))
    result = reconcile(forms.forms, [cp1250_bank(pay_row("Zosia Kowalska wpisowe"))])
    assert result.complete == ()
    (entry,) = result.ambiguous
    assert (entry.reason, [c.form_line for c in entry.candidates]) == ("resembles", [1])


def test_namesakes_are_told_apart_by_the_amount_when_only_one_chose_the_medal() -> None:
    forms = cp1250_forms(
        form_row("Jan Nowak", klass="4", email="a@x.pl"),
        form_row("Jan Nowak", klass="6", email="b@x.pl", medal="Tak"),
    )
    result = reconcile(forms.forms, [cp1250_bank(pay_row("Jan Nowak", "50,00"))])
    assert [e.form_line for e in result.complete] == [2]
    assert [e.form_line for e in result.form_without_payment] == [1]


def test_the_registration_is_complete_when_its_later_half_arrives() -> None:
    forms = cp1250_forms(
        form_row("Adam Early", sent="01.09.2026 09:00:00"),  # paid on the 5th
        form_row("Beata Second", "Dziewczynka", sent="03.09.2026 09:00:00"),  # paid on the 3rd
        form_row("Cezary Third", sent="03.09.2026 08:00:00"),  # paid on the 2nd: complete on the 3rd, 08:00
        form_row("Daria Late", "Dziewczynka", sent="06.09.2026 12:00:00"),  # paid on the 1st, before her form
    )
    bank = cp1250_bank(
        pay_row("Adam Early", day="05.09.2026"),
        pay_row("Beata Second", day="03.09.2026"),
        pay_row("Cezary Third", day="02.09.2026"),
        pay_row("Daria Late", day="01.09.2026"),
    )
    result = reconcile(forms.forms, [bank])
    assert [(e.form_line, e.completed) for e in result.complete] == [
        (3, date(2026, 9, 3)),  # same day as Beata: the earlier form first
        (2, date(2026, 9, 3)),
        (1, date(2026, 9, 5)),
        (4, date(2026, 9, 6)),
    ]
    assert [e.order for e in result.complete] == [1, 2, 3, 4]


def test_a_top_up_completes_a_medal_entry_and_a_second_payment_is_for_a_refund() -> None:
    forms = cp1250_forms(
        form_row("Anna Wiśniewska", "Dziewczynka", "II LO", medal="Tak"), form_row("Jan Lis")
    )
    bank = cp1250_bank(
        pay_row("Anna Wiśniewska", "30,00", day="02.09.2026"),
        pay_row("dopłata medal Anna Wiśniewska", "20,00", day="04.09.2026"),
        pay_row("Jan Lis", day="02.09.2026"),
        pay_row("Jan Lis wpisowe", day="05.09.2026"),
    )
    result = reconcile(forms.forms, [bank])
    anna = next(e for e in result.complete if e.form_line == 1)
    assert (anna.paid, anna.fee, anna.completed, anna.other_payments) == (
        5000,
        5000,
        date(2026, 9, 4),
        (PaymentRef(file="wyciag.csv", row=2),),
    )
    (again,) = result.payment_without_form
    assert (again.payment_line, again.reason, again.together_with) == (
        PaymentRef(file="wyciag.csv", row=4),
        "already-paid",
        (2,),
    )
    assert [e.form_line for e in result.medals] == [1]


def test_50_zl_without_the_medal_is_complete_and_says_it_is_overpaid() -> None:
    forms = cp1250_forms(form_row("Jan Lis"))
    (entry,) = reconcile(forms.forms, [cp1250_bank(pay_row("Jan Lis", "50,00"))]).complete
    assert (entry.fee, entry.paid, entry.overpaid, entry.medal) == (3000, 5000, 2000, False)


def test_hand_matches_decide_ambiguous_payments_and_name_what_they_need() -> None:
    forms = cp1250_forms(
        form_row("Jan Nowak", klass="4", email="a@x.pl"), form_row("Jan Nowak", klass="6", email="b@x.pl")
    )
    bank = cp1250_bank(pay_row("Jan Nowak"), pay_row("darowizna"))
    ref = PaymentRef(file="wyciag.csv", row=1)
    assert len(reconcile(forms.forms, [bank]).ambiguous) == 1
    decided = reconcile(
        forms.forms,
        [bank],
        hand=[
            HandMatch(payment=ref, forms=(2,), by="Ewa", at="2026-09-10T10:00:00+00:00", why="telefon"),
            HandMatch(payment=PaymentRef(file="wyciag.csv", row=2), forms=()),
        ],
    )
    assert [(e.form_line, e.matched_by) for e in decided.complete] == [(2, "hand")]
    assert [e.form_line for e in decided.form_without_payment] == [1]
    assert [(e.payment_line, e.reason) for e in decided.payment_without_form] == [
        (PaymentRef(file="wyciag.csv", row=2), "hand-refund")
    ]
    assert decided.ambiguous == ()
    with pytest.raises(ReconcileError) as bad:
        reconcile(
            forms.forms, [bank], hand=[HandMatch(payment=PaymentRef(file="wyciag.csv", row=9), forms=(1,))]
        )
    assert "wyciag.csv:9" in render(bad.value.msg, "pl")
    with pytest.raises(ReconcileError):
        reconcile(forms.forms, [bank], hand=[HandMatch(payment=ref, forms=(7,))])


def _many(n: int) -> tuple[list[Form], Statement]:
    """``n`` players, each with a form and a 30 zł payment; the last form was sent first but
    paid last (its registration became complete last)."""
    names = [f"Gracz{i:04d} Testowy{i:04d}" for i in range(n)]
    start = datetime(2026, 9, 1, 8, 0)
    rows = [form_row(names[-1], sent=start.strftime("%d.%m.%Y %H:%M:%S"))]
    rows += [
        form_row(
            name, klass=str(1 + i % 8), sent=(start + timedelta(minutes=1 + i)).strftime("%d.%m.%Y %H:%M:%S")
        )
        for i, name in enumerate(names[:-1])
    ]
    pays = [pay_row(name, day="02.09.2026") for name in names[:-1]]
    pays.append(pay_row(names[-1], "70,00", day="03.09.2026"))
    return list(cp1250_forms(*rows).forms), cp1250_bank(*pays)


def test_the_1001st_complete_registration_is_over_the_limit_and_needs_consent() -> None:
    forms, bank = _many(1001)
    result = reconcile(forms, [bank])
    assert len(result.complete) == 1000
    (over,) = result.over_limit
    assert (over.form_line, over.fee, over.paid, over.accepted) == (1, 7000, 7000, False)
    assert 1 not in [f.line for f in result.players]
    consented = reconcile(forms, [bank], accept_over=1)
    assert len(consented.complete) == 1001
    assert (consented.complete[-1].form_line, consented.complete[-1].order) == (1, 1001)
    assert consented.over_limit[0].accepted is True


def test_an_over_limit_registration_that_paid_30_zl_is_not_accepted_even_with_consent() -> None:
    forms = cp1250_forms(form_row("Adam Pierwszy"), form_row("Beata Druga", "Dziewczynka"))
    bank = cp1250_bank(pay_row("Adam Pierwszy", day="01.09.2026"), pay_row("Beata Druga", day="02.09.2026"))
    result = reconcile(forms.forms, [bank], limit=1, accept_over=5)
    assert [e.form_line for e in result.complete] == [1]
    (over,) = result.over_limit
    assert (over.form_line, over.accepted, over.reason, over.fee) == (2, False, "underpaid", 7000)


def test_english_headers_in_utf8_with_commas_and_first_name_and_surname_columns() -> None:
    text = (
        "Timestamp,First name,Surname,Sex,Grade,School,Date of birth,Rating,Souvenir medal,"
        "Email address,Phone number\n"
        "2026/09/01 10:15:03 AM CEST,Zofia,Kowalska,girl,3rd grade,SP 12,2018-03-14,,Yes,k@x.pl,600100200\n"
        "2026/09/01 10:17:41 AM CEST,Oliwer,Kamiński,boy,high school,Technikum 2,2009,1800,No,"
        "o@x.pl,600100201\n"
    )
    export = read_forms(decode_signups(text.encode(), "forms.csv"), "forms.csv")
    assert export.columns["first_name"] == "First name" and export.columns["class"] == "Grade"
    assert [(f.name, f.level, f.grade, f.medal, f.rating) for f in export.forms] == [
        ("Zofia Kowalska", Level.PRIMARY, 3, True, None),
        ("Oliwer Kamiński", Level.SECONDARY, None, False, 1800),
    ]
    bank_text = (
        "Booking date,Amount,Description,Counterparty\n"
        "2026-09-02,50.00,Zofia Kowalska entry,Adam Kowalski\n"
        '2026-09-02,"1,050.00",donation,Big Company\n'
    )
    bank = read_statement(bank_text, "bank.csv")
    assert [p.amount for p in bank.payments] == [5000, 105000]
    result = reconcile(export.forms, [bank])
    assert [e.form_line for e in result.complete] == [1]


def test_the_guardians_name_column_is_never_taken_for_the_players() -> None:
    text = "Imię i nazwisko opiekuna;Imię i nazwisko zawodnika;Płeć;Klasa\nAdam Kowalski;Zofia Kowalska;K;3\n"
    export = read_forms(text, "f.csv")
    assert export.columns["name"] == "Imię i nazwisko zawodnika"
    assert export.columns["guardian"] == "Imię i nazwisko opiekuna"
    assert export.forms[0].name == "Zofia Kowalska"


def test_two_columns_alike_ask_for_a_mapping_and_the_mapping_decides() -> None:
    text = "Imię i nazwisko zawodnika;Imię i nazwisko uczestnika;Płeć;Klasa\nZofia Kowalska;Zofia K.;K;3\n"
    with pytest.raises(ChessFileError) as bad:
        read_forms(text, "f.csv")
    assert "--column name=" in render(bad.value.msg, "en")
    export = read_forms(text, "f.csv", {"name": "imię i nazwisko ZAWODNIKA"})
    assert export.forms[0].name == "Zofia Kowalska"
    with pytest.raises(ChessFileError) as unknown:
        read_forms(text, "f.csv", {"name": "Zawodnik"})
    assert "Zawodnik" in render(unknown.value.msg, "pl")


def test_every_bad_cell_is_named_by_file_line_and_column_at_once() -> None:
    data = "\r\n".join(
        [FORM_HEAD, form_row("Zofia Kowalska", "Dziewczynka", "9"), form_row("Jan", "?", "3", medal="może")]
    ).encode("cp1250")
    with pytest.raises(ChessFileError) as bad:
        read_forms(decode_signups(data, "zgloszenia.csv"), "zgloszenia.csv")
    where = [(p.line, p.column) for p in bad.value.problems]
    assert where == [
        (2, "Klasa (rok szkolny 2026/2027)"),
        (3, "Imię i nazwisko zawodnika"),
        (3, "Płeć"),
        (3, "Medal pamiątkowy (+20 zł)"),
    ]
    text = render(bad.value.msg, "pl")
    assert text.startswith("zgloszenia.csv: 4 problemy:")
    assert "wiersz 2, kolumna „Klasa (rok szkolny 2026/2027)”: „9” nie wskazuje grupy" in text
    with pytest.raises(ChessFileError) as money:
        cp1250_bank(pay_row("Zofia Kowalska", "trzydzieści"))
    assert [(p.line, p.column) for p in money.value.problems] == [(5, "Kwota")]


@pytest.mark.parametrize(
    ("cell", "level", "grade"),
    [
        ("przedszkole", Level.PRESCHOOL, None),
        ("Zerówka", Level.PRESCHOOL, None),
        ("0", Level.PRESCHOOL, None),
        ("oddział przedszkolny", Level.PRESCHOOL, None),
        ("3b", Level.PRIMARY, 3),
        ("klasa 3", Level.PRIMARY, 3),
        ("kl. 7", Level.PRIMARY, 7),
        ("III b", Level.PRIMARY, 3),
        ("VIII", Level.PRIMARY, 8),
        ("trzecia", Level.PRIMARY, 3),
        ("SP3", Level.PRIMARY, 3),
        ("II LO", Level.SECONDARY, None),
        ("1 klasa liceum", Level.SECONDARY, None),
        ("Technikum", Level.SECONDARY, None),
        ("szkoła średnia", Level.SECONDARY, None),
    ],
)
def test_the_class_people_type_names_the_group(cell: str, level: Level, grade: int | None) -> None:
    assert parse_level(cell) == (level, grade)


@pytest.mark.parametrize("cell", ["9", "", "1-8", "gimnazjum?"])
def test_a_class_that_names_no_group_is_not_guessed(cell: str) -> None:
    assert parse_level(cell) is None


@pytest.mark.parametrize(
    ("text", "grosze"),
    [
        ("30,00", 3000),
        ("1 050,00", 105000),
        ("1\u00a0050,00", 105000),
        ("+50,00 PLN", 5000),
        ("30.00", 3000),
        ("1.050,00", 105000),
        ("1,050.00", 105000),
        ("30", 3000),
        ("-5,00", -500),
        ("trzydzieści", None),
    ],
)
def test_amounts_as_polish_banks_write_them(text: str, grosze: int | None) -> None:
    assert parse_amount(text) == grosze


def test_a_statement_with_several_date_columns_reads_the_operation_date() -> None:
    bank = cp1250_bank(pay_row("Zofia Kowalska", day="02.09.2026"))
    assert bank.columns["date"] == "Data operacji"
    assert bank.payments[0].file_line == 5 and bank.payments[0].ref.row == 1


def test_a_statement_with_the_description_in_unnamed_cells_and_a_credit_column() -> None:
    # PKO BP: the title and the sender in cells beyond the header; debits with an empty credit
    text = (
        '"Data operacji","Typ transakcji","Uznania","Opis transakcji"\n'
        '"2026-09-02","Przelew na konto","30,00","","Tytuł: ZOFIA KOWALSKA wpisowe","Nazwa nadawcy: ADAM"\n'
        '"2026-09-03","Opłata","","Prowadzenie rachunku"\n'
    )
    bank = read_statement(text, "pko.csv")
    assert bank.outgoing == 1
    (payment,) = bank.payments
    assert "ZOFIA KOWALSKA" in payment.title
    forms = cp1250_forms(form_row("Zofia Kowalska", "Dziewczynka", "3"))
    assert [e.form_line for e in reconcile(forms.forms, [bank]).complete] == [1]


def test_a_brother_without_a_form_is_not_taken_for_his_registered_sister() -> None:
    forms = cp1250_forms(form_row("Zofia Kowalska", "Dziewczynka", "3"), form_row("Tomasz Nowak", klass="5"))
    result = reconcile(
        forms.forms, [cp1250_bank(pay_row("Tomasz Kowalski wpisowe"), pay_row("Kacper Kowalski"))]
    )
    assert [(e.payment_line.row if e.payment_line else 0, e.reason) for e in result.payment_without_form] == [
        (1, "no-form"),
        (2, "no-form"),
    ]
    assert result.ambiguous == ()


def test_the_sender_named_as_the_guardian_on_a_form_is_shown_as_a_candidate() -> None:
    text = "Imię i nazwisko zawodnika;Płeć;Klasa;Imię i nazwisko opiekuna\nZofia Kowalska;K;3;Adam Kowalski\n"
    bank = read_statement(
        "Data;Kwota;Tytuł;Nadawca\n2026-09-02;30,00;wpisowe turniej;ADAM KOWALSKI\n", "b.csv"
    )
    result = reconcile(read_forms(text, "f.csv").forms, [bank])
    (entry,) = result.ambiguous
    assert [c.form_line for c in entry.candidates] == [1]


def test_a_stray_payment_is_never_a_candidate_for_a_player_already_paid() -> None:
    forms = cp1250_forms(
        form_row("Tymon Grabowski", klass="2"), form_row("Zofia Kowalska", "Dziewczynka", "3")
    )
    bank = cp1250_bank(
        pay_row("Tymon Grabowski"),
        pay_row("Tymoteusz Grabowski wpisowe"),  # Tymon paid: this one is nobody's
        pay_row("Zosia Kowalska"),  # Zofia has not paid: perhaps hers
    )
    result = reconcile(forms.forms, [bank])
    assert [e.payment_line.row for e in result.payment_without_form if e.payment_line] == [2]
    assert [(e.payment_line.row if e.payment_line else 0, e.reason) for e in result.ambiguous] == [
        (3, "resembles")
    ]


_BOYS = [
    "Jan",
    "Piotr",
    "Kacper",
    "Antoni",
    "Jakub",
    "Szymon",
    "Filip",
    "Franciszek",
    "Aleksander",
    "Mikołaj",
    "Wojciech",
    "Adam",
    "Michał",
    "Marcel",
    "Stanisław",
    "Wiktor",
    "Leon",
    "Ignacy",
    "Tymon",
    "Łukasz",
]
_GIRLS = [
    "Zofia",
    "Zuzanna",
    "Hanna",
    "Julia",
    "Maja",
    "Laura",
    "Oliwia",
    "Alicja",
    "Lena",
    "Pola",
    "Maria",
    "Amelia",
    "Antonina",
    "Nadia",
    "Iga",
    "Wiktoria",
    "Helena",
    "Emilia",
    "Liliana",
    "Łucja",
]
_SURNAMES = [
    "Nowak",
    "Kowalski",
    "Wiśniewski",
    "Wójcik",
    "Kowalczyk",
    "Kamiński",
    "Lewandowski",
    "Zieliński",
    "Szymański",
    "Woźniak",
    "Dąbrowski",
    "Kozłowski",
    "Jankowski",
    "Mazur",
    "Kwiatkowski",
    "Krawczyk",
    "Piotrowski",
    "Grabowski",
    "Nowakowski",
    "Pawłowski",
    "Michalski",
    "Adamczyk",
    "Dudek",
    "Zając",
    "Wieczorek",
    "Jabłoński",
    "Król",
    "Majewski",
    "Olszewski",
    "Jaworski",
]


_SISTERS = [
    "Gabriela",
    "Bianka",
    "Klara",
    "Nina",
    "Róża",
    "Jagoda",
    "Marcelina",
    "Weronika",
    "Natalia",
    "Kornelia",
]


def _feminine(surname: str) -> str:
    return surname[:-1] + "a" if surname.endswith("i") else surname


def test_a_thousand_players_from_a_small_pool_of_names_each_land_in_the_right_list() -> None:
    """1030 forms whose names share first names and surnames (a checker's generated files):
    titles written every way, siblings in one transfer, strays, gaps, repeats, namesakes, and
    the last registration to complete past the limit."""
    import random

    from clockd.core.people import fold_name

    rng = random.Random(14)
    people = [(b, s, "Chłopiec") for b in _BOYS for s in _SURNAMES]
    people += [(g, _feminine(s), "Dziewczynka") for g in _GIRLS for s in _SURNAMES]
    rng.shuffle(people)
    forms: list[str] = []
    pays: list[str] = []
    want_form: dict[int, str] = {}
    want_pay: dict[int, str] = {}

    used: set[tuple[str, str]] = set()

    def add_form(
        first: str, surname: str, sex: str, *, medal: bool = False, email: str = "", day: int = 1
    ) -> int:
        used.add((first, surname))
        klass = rng.choice(["przedszkole", "1", "2b", "klasa 3", "4", "V", "6a", "7", "8", "liceum"])
        sent = f"{day:02d}.09.2026 {8 + len(forms) % 12:02d}:{len(forms) % 60:02d}:00"
        forms.append(
            form_row(f"{first} {surname}", sex, klass, sent=sent, medal="Tak" if medal else "Nie",
                     email=email or f"p{len(forms)}@x.pl")
        )  # fmt: skip
        return len(forms)

    def add_pay(title: str, amount: int, *, day: int = 2, sender: str = "RODZIC") -> int:
        pays.append(pay_row(title, f"{amount},00", day=f"{day:02d}.09.2026", sender=sender))
        return len(pays)

    def title_for(first: str, surname: str) -> str:
        return rng.choice(
            [f"{first} {surname}", f"{surname.upper()} {first}", f"wpisowe {first.lower()}  {surname}",
             f"{fold_name(first).title()} {fold_name(surname).title()} oplata", f"{surname}, {first}"]
        )  # fmt: skip

    pool = iter(people)
    # 950 ordinary players, paid in full
    for _ in range(950):
        first, surname, sex = next(pool)
        medal = rng.random() < 0.3
        line = add_form(first, surname, sex, medal=medal)
        want_form[line] = "complete"
        want_pay[add_pay(title_for(first, surname), 50 if medal else 30)] = "complete"
    # 20 pairs of siblings, one transfer each ("Jan i Zofia Kowalscy" or both names)
    for _ in range(20):
        boy = next(p for p in pool if p[2] == "Chłopiec")
        sister = next(g for g in _SISTERS if (g, _feminine(boy[1])) not in used)
        girl = (sister, _feminine(boy[1]), "Dziewczynka")
        a, b = add_form(*boy), add_form(*girl, medal=True)
        want_form[a] = want_form[b] = "complete"
        plural = boy[1][:-2] + "cy" if boy[1].endswith("ki") else boy[1]
        title = rng.choice([f"{boy[0]} i {girl[0]} {plural}", f"{boy[0]} {boy[1]}, {girl[0]} {girl[1]}"])
        want_pay[add_pay(title, 80, sender=f"X {boy[1].upper()}")] = "complete"
    # 10 medal forms paid 30 zł
    for _ in range(10):
        first, surname, sex = next(pool)
        want_form[add_form(first, surname, sex, medal=True)] = "amount_mismatch"
        want_pay[add_pay(title_for(first, surname), 30)] = "amount_mismatch"
    # 10 forms never paid, 10 payments for nobody, 10 forms sent twice (paid once)
    for _ in range(10):
        want_form[add_form(*next(pool))] = "form_without_payment"
    for i in range(10):
        want_pay[add_pay(f"Xawery Nieznany{i}", 30, sender="Y")] = "payment_without_form"
    for _ in range(10):
        first, surname, sex = next(pool)
        line = add_form(first, surname, sex, email=f"{first}@dup.pl")
        want_form[line] = "complete"
        want_form[add_form(first, surname, sex, email=f"{first}@dup.pl", day=3)] = "duplicates"
        want_pay[add_pay(title_for(first, surname), 30)] = "complete"
    # 2 pairs of namesakes and one "Jan Nowak" transfer for each pair: by hand
    for _ in range(2):
        first, surname, sex = next(pool)
        want_form[add_form(first, surname, sex)] = "form_without_payment"
        want_form[add_form(first, surname, sex)] = "form_without_payment"
        want_pay[add_pay(f"{first} {surname}", 30, sender="Z")] = "ambiguous"
    # the last to complete: paid on the 30th, after 1000 others
    first, surname, sex = next(pool)
    want_form[add_form(first, surname, sex)] = "over_limit"
    want_pay[add_pay(f"{first} {surname}", 30, day=30)] = "over_limit"
    assert sum(1 for v in want_form.values() if v == "complete") == 1000

    result = reconcile(cp1250_forms(*forms).forms, [cp1250_bank(*pays)])
    got_form: dict[int, str] = {}
    got_pay: dict[int, str] = {}
    for name in result.LISTS:
        if name == "medals":
            continue
        for entry in getattr(result, name):
            if entry.form_line is not None:
                got_form.setdefault(entry.form_line, name)
            if entry.payment_line is not None:
                got_pay.setdefault(entry.payment_line.row, name)
    assert {k: v for k, v in got_form.items() if want_form[k] != v} == {}
    assert {k: v for k, v in got_pay.items() if want_pay[k] != v} == {}
    assert got_form.keys() == want_form.keys() and got_pay.keys() == want_pay.keys()


def test_statements_of_overlapping_periods_count_each_operation_once() -> None:
    forms = cp1250_forms(form_row("Jan Lis"), form_row("Ola Lis", "Dziewczynka"))
    early = cp1250_bank(
        pay_row("Jan Lis", day="09.09.2026"), pay_row("Ola Lis", day="12.09.2026"), name="1-15.csv"
    )
    late = cp1250_bank(
        pay_row("Ola Lis", day="12.09.2026"),  # the same operation, in both statements
        pay_row("Jan Lis", day="20.09.2026"),  # a second transfer: Jan paid twice
        name="10-30.csv",
    )
    result = reconcile(forms.forms, [early, late])
    assert result.overlap == (PaymentRef(file="10-30.csv", row=1),)
    assert [e.form_line for e in result.complete] == [1, 2]
    assert [(e.payment_line, e.reason) for e in result.payment_without_form] == [
        (PaymentRef(file="10-30.csv", row=2), "already-paid")
    ]
    # within one statement, two equal rows are two transfers
    twice = cp1250_bank(pay_row("Jan Lis"), pay_row("Jan Lis"))
    assert reconcile(forms.forms, [twice]).overlap == ()


def test_a_group_column_with_the_sex_in_it_and_a_fee_column_instead_of_the_medal() -> None:
    text = (
        "Zawodnik (imię i nazwisko);Grupa;Opłata\n"
        "Zofia Kowalska;Klasa 3 dziewczęta;50 zł (z medalem)\n"
        "Jan Kowalski;przedszkole chłopcy;30 zł\n"
        "Ola Lis;klasa 2;30 zł\n"
    )
    with pytest.raises(ChessFileError) as bad:
        read_forms(text, "f.csv")
    assert [(p.line, p.column) for p in bad.value.problems] == [(4, "Grupa")]
    export = read_forms(text.replace("klasa 2;", "klasa 2 dziewczynki;"), "f.csv")
    assert [(f.sex, f.level, f.grade, f.medal) for f in export.forms] == [
        ("w", Level.PRIMARY, 3, True),
        ("m", Level.PRESCHOOL, None, False),
        ("w", Level.PRIMARY, 2, False),
    ]
    assert parse_amount("PLN 30,00") == 3000


def test_the_class_comes_from_the_class_column_not_the_group_or_a_chess_category() -> None:
    text = (
        "Imię i nazwisko zawodnika;Grupa;Klasa w roku szkolnym 2026/2027;Kategoria szachowa;Szkoła\n"
        "Zofia Kowalska;Klasa 1 dziewczęta;1b;bk;Szkoła Podstawowa nr 12 im. Marii Konopnickiej\n"
        "Jan Nowak;Klasa 3 chłopcy;3a;V;SP 5\n"
    )
    export = read_forms(text, "f.csv")
    assert export.columns["class"] == "Klasa w roku szkolnym 2026/2027"
    assert [(f.school_class, f.level, f.grade, f.sex) for f in export.forms] == [
        ("1b", Level.PRIMARY, 1, "w"),  # the sex read from the group's column
        ("3a", Level.PRIMARY, 3, "m"),
    ]
    assert export.forms[0].school == "Szkoła Podstawowa nr 12 im. Marii Konopnickiej"
    # A chess category ("bk") is never a class: with only that and a group, the group is.
    only = read_forms(
        "Imię i nazwisko zawodnika;Kategoria szachowa;Grupa\nJan Nowak;bk;Klasa 3 chłopcy\n", "f.csv"
    )
    assert only.columns["class"] == "Grupa" and only.forms[0].grade == 3
    with pytest.raises(ChessFileError) as none:
        read_forms("Imię i nazwisko zawodnika;Kategoria szachowa;Płeć\nJan Nowak;bk;M\n", "f.csv")
    assert "class" in render(none.value.problems[0].message)


def test_a_transfer_whose_title_names_nobody_is_matched_by_hand_not_refunded() -> None:
    forms = cp1250_forms(form_row("Zofia Kowalska", "Dziewczynka"), form_row("Jan Nowak"))
    bank = cp1250_bank(
        pay_row("Wpisowe", sender="ANNA KOT"),  # the parent forgot the child's name
        pay_row("Piotr Zając", sender="EWA ZAJĄC"),  # names a child with no form: a refund
    )
    result = reconcile(forms.forms, [bank])
    assert [e.title for e in result.ambiguous] == ["Wpisowe"]
    assert {c.name for c in result.ambiguous[0].candidates} == {"Zofia Kowalska", "Jan Nowak"}
    assert [e.title for e in result.payment_without_form] == ["Piotr Zając"]
