"""Fields marked private are dropped at any depth (clockd.core.private), and every place that
holds personal data is marked: the people, the actions that carry them, the session's refusals,
what the daemon decided from a sign-up file."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

import clockd.service.compose  # noqa: F401  (every event kind, as the daemon knows them)
from clockd.api.messages import EventBody, TableView
from clockd.api.puzzle import RefusalView, SessionBody
from clockd.core.private import PRIVATE, private_fields, private_paths, public_data
from clockd.core.puzzle_duel import ImportSignups
from clockd.core.registration import AddPlayer, Person
from clockd.service.actions import ActionEntry, journal
from clockd.service.views import timeline_entry
from clockd.store.journal import Record


class Inner(BaseModel):
    name: str
    phone: str = Field(default="", json_schema_extra=PRIVATE)


class Outer(BaseModel):
    people: list[Inner]
    by_id: dict[int, Inner]
    best: Inner | None = None
    note: str = Field(default="", json_schema_extra=PRIVATE)


def test_private_fields_are_dropped_at_any_depth_and_nothing_else_is() -> None:
    a, b = Inner(name="Anna K.", phone="600 100 200"), Inner(name="Jan N.", phone="600 300 400")
    outer = Outer(people=[a, b], by_id={7: b}, best=a, note="call her mother")
    data = public_data(outer)
    assert data == {
        "people": [{"name": "Anna K."}, {"name": "Jan N."}],
        "by_id": {"7": {"name": "Jan N."}},
        "best": {"name": "Anna K."},
    }
    assert len(private_paths(outer)) == 5
    assert private_paths(Inner(name="x")) == [("phone",)]  # marked even when empty


def test_every_piece_of_personal_data_is_marked_private() -> None:
    assert private_fields(Person) == {"last_name", "email", "phone", "age", "consents"}
    assert private_fields(AddPlayer) == {"last_name", "email", "phone", "age"}
    assert private_fields(ImportSignups) == {"csv"}
    assert "decided" in private_fields(ActionEntry)  # the sign-ups the daemon read, with the people
    assert "vault" in private_fields(ActionEntry)  # and what the vault keeps of them, never dumped
    assert "refusals" in private_fields(SessionBody)  # a child's refused sign-up is nobody else's business


def test_a_timeline_entry_of_a_walk_in_or_an_import_carries_no_personal_data() -> None:
    walk_in = AddPlayer(first_name="Ola", last_name="Lis", email="ola@x.pl", phone="600 1", age=17)
    entry = journal(walk_in, target="desk/pt", event="pt", decided={"person_id": "p-1"})
    shown = json.dumps(timeline_entry(Record(5, entry)).model_dump(mode="json"))
    assert "Ola" in shown and not any(s in shown for s in ("Lis", "ola@x.pl", "600 1", "17", "p-1"))
    signups = journal(ImportSignups(csv="Imię;Nazwisko\nOla;Lis\n"), target="desk/pt", event="pt")
    assert "Lis" not in json.dumps(timeline_entry(Record(6, signups)).model_dump(mode="json"))


def test_a_view_without_personal_data_is_sent_as_it_is() -> None:
    body = SessionBody(tournament="T", stage="registration", players=[], field=None, seat_changes=[])
    assert sorted(private_paths(body)) == [
        ("last_import",),
        ("no_email",),
        ("possible_duplicates",),
        ("refusals",),
    ]
    refused = body.model_copy(update={"refusals": [RefusalView(line=3, name="Ewa M.", reason="under-age")]})
    assert "refusals" not in public_data(refused)
    for cls in (TableView, EventBody):  # the table's views hold nothing private at all
        assert private_fields(cls) == frozenset()
