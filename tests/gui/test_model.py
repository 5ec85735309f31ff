"""The view model: local extrapolation of running clocks, stale updates, and what a public copy keeps."""

from __future__ import annotations

from clockd.core.units import MS, SECOND
from gui.demo import demo_state
from gui.model import (
    Change,
    DeskModel,
    DeskState,
    Pair,
    Player,
    Side,
    Table,
    TimelineItem,
    private_fields,
)


def running_table(**kw: object) -> Table:
    base = dict(
        table=1,
        phase="running",
        remaining_ms=Pair(a=300_000, b=200_500),
        running=Side.A,
        to_move=Side.A,
        seq=10,
        received_ns=1_000 * SECOND,
    )
    base.update(kw)
    return Table.model_validate(base)


def test_only_the_running_side_counts_down_from_the_instant_the_state_arrived() -> None:
    t = running_table()
    now = t.received_ns + 2_500 * MS
    assert t.remaining_ns("a", now) == 300_000 * MS - 2_500 * MS
    assert t.remaining_ns("b", now) == 200_500 * MS  # the waiting side's clock stands still


def test_the_face_rounds_up_like_a_clock_and_never_goes_below_zero() -> None:
    t = running_table(remaining_ms=Pair(a=1_200, b=200_500))
    assert t.shown("a", t.received_ns) == "0:02"  # 1.2 s left shows 0:02, as a clock shows it
    assert t.shown("a", t.received_ns + 1_199 * MS) == "0:01"
    assert t.shown("a", t.received_ns + 1_200 * MS) == "0:00"
    assert t.remaining_ns("a", t.received_ns + 60 * SECOND) == 0
    assert t.shown("b", t.received_ns + 60 * SECOND) == "3:21"  # 200.5 s rounds up to 3:21


def test_a_paused_clock_does_not_move_between_messages() -> None:
    t = running_table(phase="paused", running=None)
    assert t.shown("a", t.received_ns + 90 * SECOND) == "5:00"


def test_a_state_older_than_the_one_held_is_ignored() -> None:
    model = DeskModel()
    seen: list[tuple[Change, frozenset[int]]] = []
    model.subscribe(lambda c, t: seen.append((c, t)))
    assert model.set_tables([running_table(seq=10)]) == {1}
    assert model.set_tables([running_table(seq=9, remaining_ms=Pair(a=1, b=1))]) == set()
    assert model.state.tables[1].remaining_ms.a == 300_000
    assert seen == [(Change.TABLES, frozenset({1}))]


def test_timeline_events_are_kept_in_journal_order_once_each() -> None:
    model = DeskModel()
    model.set_timeline(
        3, [TimelineItem(seq=5, kind="press", t_ms=50), TimelineItem(seq=2, kind="note", t_ms=20)]
    )
    model.add_timeline(3, TimelineItem(seq=7, kind="press", t_ms=70))
    model.add_timeline(3, TimelineItem(seq=7, kind="press", t_ms=70))  # the same event pushed twice
    model.add_timeline(3, TimelineItem(seq=6, kind="pause", t_ms=60))  # late arrival
    assert [i.seq for i in model.state.timelines[3]] == [2, 5, 6, 7]


def test_the_public_copy_empties_every_field_marked_private_and_keeps_the_rest() -> None:
    state = demo_state(0)
    marked = private_fields(Player)
    assert {"full_name", "email", "phone", "age"} <= set(marked)
    public = state.public()
    for pid, player in state.players.items():
        shown = public.players[pid]
        for name in marked:
            assert getattr(player, name) not in (None, "")  # the demo holds real-looking private data …
            assert getattr(shown, name) in (None, "")  # … and the public copy none of it
        assert shown.display_name == player.display_name
    assert public.bracket == state.bracket
    assert public.tables == state.tables
    assert public.timelines == {}  # disputes are for the referee


def test_a_new_private_field_would_be_emptied_too() -> None:
    """Redaction follows the marking, not a list of names: mark a field and it is gone."""
    from pydantic import Field

    from gui.model import PRIVATE, redact

    class Extra(Player):
        shoe_size: str = Field(default="", json_schema_extra=PRIVATE)

    p = Extra(id=1, display_name="Ala K.", shoe_size="38", email="ala@example.pl")
    state = DeskState(players={1: p})
    cleaned = redact(state).players[1]
    assert cleaned.shoe_size == "" and cleaned.email == "" and cleaned.display_name == "Ala K."


def test_the_cheap_public_copy_is_the_public_copy_and_follows_changes() -> None:
    from gui.model import PublicCopy

    model = DeskModel(demo_state(0))
    public = PublicCopy()
    assert public(model.state) == model.state.public()
    model.set_tables([running_table(table=3, seq=999)])  # a press: players and bracket are the same objects
    assert public(model.state) == model.state.public()
    changed = model.state.players[1].model_copy(
        update={"email": "nowy@example.pl", "display_name": "Zosia Ł."}
    )
    model.set_players([changed, *(p for pid, p in model.state.players.items() if pid != 1)])
    shown = public(model.state)
    assert shown == model.state.public()
    assert shown.players[1].display_name == "Zosia Ł." and shown.players[1].email == ""


def test_the_model_does_not_keep_a_subscriber_alive() -> None:
    """A window subscribes with a bound method; the model must not be what keeps the window alive."""
    import gc
    import weakref

    class Screen:
        def __init__(self) -> None:
            self.seen: list[Change] = []

        def changed(self, change: Change, tables: frozenset[int]) -> None:
            self.seen.append(change)

    model = DeskModel()
    screen = Screen()
    model.subscribe(screen.changed)
    model.set_title("A")
    assert screen.seen == [Change.TITLE]
    ref = weakref.ref(screen)
    gc.disable()
    try:
        del screen
        assert ref() is None
    finally:
        gc.enable()
    model.set_title("B")  # and it is simply forgotten
    seen: list[Change] = []
    model.subscribe(lambda c, t: seen.append(c))  # a plain function is kept: nothing else holds it
    model.set_title("C")
    assert seen == [Change.TITLE]
