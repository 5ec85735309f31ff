"""Sign-ups, lists, check-in and the field (§1.9–1.19), from the files a form really exports."""

from __future__ import annotations

import json

import pytest

from clockd.core.registration import (
    AddPlayer,
    CheckIn,
    CheckOut,
    CloseCheckIn,
    ListKind,
    Person,
    Registration,
    RegistrationError,
    ReopenCheckIn,
    SignupError,
    Withdraw,
    decode_signups,
    display_names,
    parse_signups,
)

#: A Google Forms export opened and saved by a Polish spreadsheet: BOM, semicolons, a
#: consent question that mentions the data fields, a multi-line answer in quotes.
POLISH = (
    "\ufeffSygnatura czasowa;Imię;Nazwisko;Adres e-mail;Numer telefonu;Wiek;"
    "Zgoda na przetwarzanie danych osobowych (imię, nazwisko, wiek, e-mail);Uwagi\n"
    "2026/06/06 12:00:01;Anna;Kowalska;anna.k@example.pl;+48 600 100 200;25;Tak;\n"
    "2026/06/06 12:00:03;Jan;Nowak;jan@example.pl;600100201;12;Tak;\n"
    '2026/06/06 12:00:04;Piotr;Wiśniewski;piotr@example.pl;600100202;31;Tak;"przyjdę\nz kolegą"\n'
    "2026/06/06 12:00:05;Anna;Kowalska;ANNA.K@example.pl ;600 100 200;25;Tak;drugi raz\n"
    "\n"
    "2026/06/06 12:00:07;Łucja;Żak;lucja@example.pl;600 100 204;17 lat;Tak;\n"
)

ENGLISH = (
    "Timestamp,Full name,Email address,Phone number,Age\n"
    "6/6/2026 12:00:01,Maria Anna Nowak,maria@example.com,600100300,40\n"
    "6/6/2026 12:00:02,Tom Smith,tom@example.com,600100301,19\n"
)


def test_a_polish_form_export_is_read_with_its_lines_and_refusals() -> None:
    result = parse_signups(POLISH)
    assert result.columns == {
        "timestamp": "Sygnatura czasowa",
        "first_name": "Imię",
        "last_name": "Nazwisko",
        "email": "Adres e-mail",
        "phone": "Numer telefonu",
        "age": "Wiek",
    }
    assert [(s.line, s.person.full_name) for s in result.accepted] == [
        (2, "Anna Kowalska"),
        (4, "Piotr Wiśniewski"),
        (8, "Łucja Żak"),  # the quoted answer spans lines 4–5, the blank line is 7
    ]
    assert result.accepted[2].person.age == 17
    refused = {(r.line, r.reason) for r in result.refused}
    assert refused == {(3, "under-age"), (6, "duplicate")}
    dup = next(r for r in result.refused if r.reason == "duplicate")
    assert dup.detail.code == "signups.duplicate" and dup.detail.params["line"] == 2 and dup.same_as == 2


def test_a_spreadsheet_saved_on_a_polish_windows_is_read_with_its_letters() -> None:
    data = "Imię;Nazwisko;E-mail;Wiek\nŁucja;Żółć;l@example.pl;30\n".encode("cp1250")
    text = decode_signups(data, source="zapisy.csv")
    assert parse_signups(text).accepted[0].person.full_name == "Łucja Żółć"
    assert decode_signups("\ufeffImię\n".encode()) == "Imię\n"  # a form's UTF-8 with a BOM


def test_a_file_that_is_not_text_is_refused_naming_the_file() -> None:
    with pytest.raises(SignupError) as refused:
        decode_signups(b"PK\x03\x04\x81\x90\x98 an .xlsx, not a CSV", source="zapisy.xlsx")
    assert "zapisy.xlsx" in str(refused.value) and "UTF-8" in str(refused.value)


def test_an_english_export_with_one_full_name_column() -> None:
    result = parse_signups(ENGLISH)
    maria = result.accepted[0].person
    assert (maria.first_name, maria.last_name, maria.age) == ("Maria Anna", "Nowak", 40)


def test_bad_rows_are_all_named_by_line_and_nothing_is_imported() -> None:
    text = (
        "Imię;Nazwisko;E-mail;Wiek\n"
        "Anna;Kowalska;anna@example.pl;20\n"
        "Jan;;jan@example.pl;20\n"
        "Ola;Nowak;ola-at-example.pl;20\n"
        "Ewa;Lis;ewa@example.pl;dwadzieścia\n"
    )
    with pytest.raises(SignupError) as err:
        parse_signups(text, source="zapisy.csv")
    assert [line for line, _ in err.value.problems] == [3, 4, 5]
    message = str(err.value)
    assert "zapisy.csv, line 3: no surname" in message
    assert "line 4: 'ola-at-example.pl' is not an e-mail address" in message
    assert "line 5: age 'dwadzieścia'" in message


def test_a_file_without_an_age_column_is_refused_because_13_cannot_be_checked() -> None:
    with pytest.raises(SignupError, match="age"):
        parse_signups("Imię,Nazwisko,E-mail\nAnna,Kowalska,a@example.pl\n")


def test_the_same_person_counts_once_but_namesakes_are_two_people() -> None:
    text = (
        "Imię,Nazwisko,Telefon,E-mail,Wiek\n"
        "Anna,Kowalska,600100200,a1@example.pl,20\n"
        "anna,KOWALSKA,+48 600-100-200,other@example.pl,20\n"  # same name and phone
        "Anna,Kowalska,600999999,a3@example.pl,35\n"  # a namesake
    )
    result = parse_signups(text)
    assert [s.line for s in result.accepted] == [2, 4]
    assert (
        result.refused[0].line == 3
        and result.refused[0].detail.params["why"]["code"] == "signups.same-name-phone"
    )


def test_main_and_reserve_lists_have_the_same_size_and_the_rest_is_over_the_limit() -> None:
    rows = "".join(f"P{i},Test{i},p{i}@example.pl,{20 + i}\n" for i in range(1, 40))
    reg = Registration.from_signups(parse_signups("Imię,Nazwisko,E-mail,Wiek\n" + rows), seats=16)
    assert [p.id for p in reg.listed(ListKind.MAIN)] == list(range(1, 17))
    assert [p.id for p in reg.listed(ListKind.RESERVE)] == list(range(17, 33))
    over = [r for r in reg.refused if r.reason == "over-limit"]
    assert [r.line for r in over] == list(range(34, 41))


def registration(main: int = 4, reserve: int = 3) -> Registration:
    rows = "".join(f"Gracz{i},Nazwisko{i},g{i}@example.pl,{20 + i}\n" for i in range(1, main + reserve + 1))
    return Registration.from_signups(parse_signups("Imię,Nazwisko,E-mail,Wiek\n" + rows), seats=main)


def test_absent_seats_go_to_reserves_in_order_then_to_walk_ins() -> None:
    reg = registration(main=4, reserve=4)  # main 1–4, reserve 5–8
    reg = reg.apply(AddPlayer(first_name="Walk", last_name="In", age=30, walk_in=True))
    assert 9 in reg.present  # a walk-in is typed in because they are here (§1.19)
    for pid in (1, 3, 6):  # 2 and 4 are absent; reserve 5 is absent, 6 is here
        reg = reg.apply(CheckIn(player=pid))
    reg = reg.apply(CloseCheckIn())
    assert reg.field == (1, 3, 6, 9)
    assert [(c.absent, c.taken_by, c.rule) for c in reg.seat_changes] == [
        (2, 6, "reserve §1.18"),
        (4, 9, "walk-in §1.19"),
    ]
    with pytest.raises(RegistrationError, match="closed"):
        reg.apply(CheckIn(player=2))


def test_a_walk_in_fills_a_seat_no_one_signed_up_for_and_the_close_can_be_taken_back() -> None:
    rows = "".join(f"Gracz{i},Nazwisko{i},g{i}@example.pl,{20 + i}\n" for i in (1, 2, 3))
    # four seats, three on the main list: one seat no one signed up for
    reg = Registration.from_signups(parse_signups("Imię,Nazwisko,E-mail,Wiek\n" + rows), seats=4)
    reg = reg.apply(AddPlayer(first_name="Walk", last_name="In", age=30, walk_in=True))
    for pid in (1, 2, 3):
        reg = reg.apply(CheckIn(player=pid))
    closed = reg.apply(CloseCheckIn())
    assert closed.field == (1, 2, 3, 4)
    assert [(c.absent, c.taken_by) for c in closed.seat_changes] == [(None, 4)]
    reopened = closed.apply(ReopenCheckIn())
    assert reopened.field is None and reopened.seat_changes == () and reopened == reg
    with pytest.raises(RegistrationError, match="open"):
        reopened.apply(ReopenCheckIn())


def test_a_reserve_who_came_takes_a_seat_before_a_walk_in_even_if_the_walk_in_came_first() -> None:
    reg = registration(main=2, reserve=2)
    reg = reg.apply(AddPlayer(first_name="Early", last_name="Bird", age=30, walk_in=True))
    for pid in (1, 4):
        reg = reg.apply(CheckIn(player=pid))
    assert reg.apply(CloseCheckIn()).field == (1, 4)


def test_check_out_and_withdrawal_free_the_seat() -> None:
    reg = registration(main=2, reserve=2)
    for pid in (1, 2, 3):
        reg = reg.apply(CheckIn(player=pid))
    reg = reg.apply(CheckOut(player=2)).apply(Withdraw(player=1)).apply(CheckIn(player=4))
    assert reg.apply(CloseCheckIn()).field == (3, 4)
    with pytest.raises(RegistrationError, match="withdrawn"):
        reg.apply(CheckIn(player=1))


def test_typed_in_players_follow_the_same_rules() -> None:
    reg = registration(main=2, reserve=1)
    reg = reg.apply(AddPlayer(first_name="Nowa", last_name="Osoba", age=13))
    assert reg.players[4].list is ListKind.RESERVE  # main is full, reserve had one place left
    with pytest.raises(RegistrationError, match="full"):
        reg.apply(AddPlayer(first_name="Ktoś", last_name="Jeszcze", age=20))
    with pytest.raises(RegistrationError, match="minimum age of 13"):
        reg.apply(AddPlayer(first_name="Dziecko", last_name="Małe", age=12, walk_in=True))
    with pytest.raises(RegistrationError, match="already registered as player 1"):
        again = AddPlayer(first_name="gracz1", last_name="NAZWISKO1", email="G1@example.pl", age=20)
        reg.apply(again)
    sibling = reg.apply(AddPlayer(first_name="X", last_name="Y", email="g1@example.pl", age=20, walk_in=True))
    assert sibling.players[5].list is ListKind.WALK_IN  # a parent's e-mail shared: another person


def test_fewer_than_two_present_cannot_start() -> None:
    reg = registration(main=2, reserve=0).apply(CheckIn(player=1))
    with pytest.raises(RegistrationError, match="only 1 player"):
        reg.apply(CloseCheckIn())


def test_public_data_is_the_display_name_only() -> None:
    reg = Registration.from_signups(parse_signups(POLISH), seats=2)
    public = json.dumps([p.public() for p in reg.players.values()], ensure_ascii=False)
    assert "Anna K." in public
    for private in ("Kowalska", "anna.k@example.pl", "600 100 200", "25"):
        assert private not in public
    schema = Person.model_json_schema()["properties"]
    assert {k for k, v in schema.items() if v.get("private")} == {
        "last_name",
        "email",
        "phone",
        "age",
        "consents",
    }


def test_full_names_on_screens_only_when_the_event_is_configured_so() -> None:
    """``public_names = "full"`` in the tournament file: surnames shown, contact data still not."""
    from clockd.core.puzzle_duel import PuzzleSession
    from clockd.core.tournament import TournamentConfig
    from clockd.data import default_config_text

    text = default_config_text().replace('public_names = "short"', 'public_names = "full"')
    full = TournamentConfig.from_toml(text, source="full.toml")
    assert full.public_names == "full"
    reg = Registration.from_signups(parse_signups(POLISH), seats=2, name_style=full.public_names)
    public = json.dumps([p.public() for p in reg.players.values()], ensure_ascii=False)
    assert "Anna Kowalska" in public and "Piotr Wiśniewski" in public
    for private in ("anna.k@example.pl", "600 100 200", '"25"'):
        assert private not in public
    # a walk-in typed in at the desk of such an event is named the same way
    session = PuzzleSession.new(full, "pt")
    typed = session.registration.apply(AddPlayer(first_name="Łucja", last_name="Żak", age=17, walk_in=True))
    assert [p.display_name for p in typed.players.values()] == ["Łucja Żak"]
    # and without the setting it stays "Anna K."
    short = Registration.from_signups(parse_signups(POLISH), seats=2)
    assert "Anna K." in json.dumps([p.public() for p in short.players.values()], ensure_ascii=False)


def test_display_names_grow_only_as_far_as_needed_to_tell_people_apart() -> None:
    people = [
        (1, Person(first_name="Anna", last_name="Kowalska")),
        (2, Person(first_name="Anna", last_name="Kozłowska")),
        (3, Person(first_name="Jan", last_name="Nowak")),
        (4, Person(first_name="Anna", last_name="Kowalska")),
        (5, Person(first_name="Ola", last_name="Lis", nickname="Puzzlomistrz")),
    ]
    names = display_names(people)
    assert names[3] == "Jan N." and names[5] == "Puzzlomistrz"
    assert names[2] == "Anna Koz."
    assert len({names[1], names[2], names[4]}) == 3


def test_namesakes_are_told_apart_by_their_number_never_by_their_surname() -> None:
    """Two Anna Kowalskas were "Anna Kowalska (1)" and "Anna Kowalska (4)" on every screen (issue 20,
    item 11); and "Anna Kowalsk." beside "Anna Kowalczyk." was a surname all but whole."""
    people = [
        (1, Person(first_name="Anna", last_name="Kowalska")),
        (2, Person(first_name="Anna", last_name="Kowalczyk")),
        (3, Person(first_name="Ola", last_name="Lis")),
        (4, Person(first_name="Anna", last_name="Kowalska")),
        (5, Person(first_name="Ola", last_name="Lisowska")),
    ]
    names = display_names(people)
    assert names == {1: "Anna K. (1)", 2: "Anna K. (2)", 3: "Ola L. (3)", 4: "Anna K. (4)", 5: "Ola L. (5)"}
    for _, person in people:
        assert not any(person.last_name in name for name in names.values())
    walk_in = Registration(seats=4).apply(AddPlayer(first_name="Anna", last_name="Kowalska", age=30))
    again = walk_in.apply(AddPlayer(first_name="Anna", last_name="Kowalska", age=41, phone="600 1"))
    assert sorted(p.display_name for p in again.players.values()) == ["Anna K. (1)", "Anna K. (2)"]
