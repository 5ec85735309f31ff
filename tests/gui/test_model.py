"""The view model: local extrapolation of running clocks and hall timers, stale updates, which event
is shown, and what a public copy keeps."""

from __future__ import annotations

from clockd.core.hall import TimerView
from clockd.core.units import MS, SECOND
from clockd.i18n import msg
from gui.demo import RELAY, SESSION, demo_state
from gui.deskmodel import Change, DeskModel
from gui.model import (
    Clock,
    DeskState,
    Event,
    Hall,
    Player,
    Session,
    Table,
    TimelineItem,
    choose_shown,
    private_fields,
)


def running_table(**kw: object) -> Table:
    clock = Clock.model_validate(
        {"phase": "running", "remaining_ms": {"a": 300_000, "b": 200_500}, "running": "a", "to_move": "a"}
        | dict(kw.pop("clock", {}))  # type: ignore[arg-type]
    )
    base: dict[str, object] = dict(table=1, program="clock", clock=clock, seq=10, received_ns=1_000 * SECOND)
    base.update(kw)
    return Table.model_validate(base)


def test_only_the_running_side_counts_down_from_the_instant_the_state_arrived() -> None:
    t = running_table()
    now = t.received_ns + 2_500 * MS
    assert t.remaining_ns("a", now) == 300_000 * MS - 2_500 * MS
    assert t.remaining_ns("b", now) == 200_500 * MS  # the waiting side's clock stands still


def test_the_face_rounds_up_like_a_clock_and_never_goes_below_zero() -> None:
    t = running_table(clock={"remaining_ms": {"a": 1_200, "b": 200_500}})
    assert t.shown("a", t.received_ns) == "0:02"  # 1.2 s left shows 0:02, as a clock shows it
    assert t.shown("a", t.received_ns + 1_199 * MS) == "0:01"
    assert t.shown("a", t.received_ns + 1_200 * MS) == "0:00"
    assert t.remaining_ns("a", t.received_ns + 60 * SECOND) == 0
    assert t.shown("b", t.received_ns + 60 * SECOND) == "3:21"  # 200.5 s rounds up to 3:21


def test_a_paused_clock_does_not_move_between_messages() -> None:
    t = running_table(clock={"phase": "paused", "running": None})
    assert t.shown("a", t.received_ns + 90 * SECOND) == "5:00"


def timer(**kw: object) -> TimerView:
    base: dict[str, object] = dict(
        phase="running", duration_ms=3_600_000, elapsed_ms=600_000, remaining_ms=3_000_000,
        next_signal_ms=900_000, next_signal_in_ms=300_000, signals_ms=[300_000, 600_000, 900_000],
        signals_given=2, starts_in_ms=None, paused_ms=0, adjusted_ms=0, every_ms=300_000,
    )  # fmt: skip
    base.update(kw)
    return TimerView.model_validate(base)


def test_a_running_hall_timer_counts_down_and_towards_its_next_signal_between_messages() -> None:
    hall = Hall(timer=timer(), received_ns=5_000 * SECOND)
    later = hall.received_ns + 61_500 * MS
    assert hall.remaining_ms(later) == 3_000_000 - 61_500
    assert hall.shown(later) == "48:59"  # 2938.5 s left shows 48:59, rounded up as a clock shows it
    assert hall.next_signal_in_ms(later) == 300_000 - 61_500
    stopped = Hall(timer=timer(phase="paused"), received_ns=hall.received_ns)
    assert stopped.shown(later) == "50:00" and stopped.next_signal_in_ms(later) == 300_000
    count_up = Hall(timer=timer(duration_ms=None, remaining_ms=None), received_ns=hall.received_ns)
    assert count_up.remaining_ms(later) is None and count_up.shown(later) == "11:02"  # 661.5 s so far


def test_a_state_older_than_the_one_held_is_ignored() -> None:
    model = DeskModel()
    seen: list[tuple[Change, frozenset[int]]] = []
    model.subscribe(lambda c, t: seen.append((c, t)))
    assert model.set_tables([running_table(seq=10)]) == {1}
    assert model.set_tables([running_table(seq=9, clock={"remaining_ms": {"a": 1, "b": 1}})]) == set()
    t = model.state.tables[1]
    assert t.clock is not None and t.clock.remaining_ms.a == 300_000
    assert seen == [(Change.TABLES, frozenset({1}))]


def session_event(key: str, stage: str = "registration", seq: int = 1) -> Event:
    return Event(
        id=f"desk/{key}", key=key, kind="puzzle-duel", title=msg("text.as-typed", text=key), seq=seq,
        session=Session(stage=stage),  # type: ignore[arg-type]
    )  # fmt: skip


def test_the_event_shown_follows_the_play_until_the_referee_chooses() -> None:
    model = DeskModel()
    model.set_event(session_event("pt", "finished"))
    assert model.state.shown == "desk/pt"  # the only one
    model.set_event(session_event("sb", "registration"))
    assert model.state.shown == "desk/sb"  # Friday is over: Saturday is the one being played
    model.set_event(session_event("nd", "registration"))
    assert model.state.shown == "desk/sb"  # a new event does not take the screen from one in play
    model.choose_event("desk/pt")
    model.set_event(session_event("sb", "finished", seq=2))
    assert model.state.shown == "desk/pt"  # the referee's choice stands
    model.keep_events(["desk/sb", "desk/nd"])  # Friday's is gone from the daemon
    assert (model.state.shown, model.state.chosen) == ("desk/nd", False)
    assert model.set_event(session_event("nd", "draw", seq=0)) is False  # stale
    assert choose_shown({}, None, False) is None


def test_timeline_entries_are_kept_in_journal_order_once_each() -> None:
    model = DeskModel()
    model.set_timeline(
        3, [TimelineItem(seq=5, kind="press", t_ms=50), TimelineItem(seq=2, kind="note", t_ms=20)]
    )
    model.add_timeline(3, TimelineItem(seq=7, kind="press", t_ms=70))
    model.add_timeline(3, TimelineItem(seq=7, kind="press", t_ms=70))  # the same entry pushed twice
    model.add_timeline(3, TimelineItem(seq=6, kind="pause", t_ms=60))  # late arrival
    assert [i.seq for i in model.state.timelines[3]] == [2, 5, 6, 7]
    model.add_event_timeline("relay", TimelineItem(seq=9, kind="timer-start", t_ms=90))
    assert [i.seq for i in model.state.event_timelines["relay"]] == [9]


def test_a_hall_signal_is_counted_so_a_screen_tells_a_new_one() -> None:
    model = DeskModel()
    model.flash(RELAY, "signal", 300_000, now_ns=1)
    model.flash(RELAY, "end", 3_600_000, now_ns=2)
    flash = model.state.signal
    assert flash is not None and (flash.number, flash.what, flash.event) == (2, "end", RELAY)


def test_tables_and_events_meet_through_the_programs_owner() -> None:
    state = demo_state(0)
    duel = state.duel_at(3)
    assert duel is not None and (duel[0].id, duel[1].id) == (SESSION, "R2-3")
    owned = state.owner_of(7)
    assert owned is not None and owned[0].id == RELAY
    assert state.duel_at(7) is None and state.duel_at(1) is None  # a station; the table's own clock
    assert state.tables_of_shown() == [1, 2, 3, 4, 5]  # the session's page: not the relay's stations
    relay = state.model_copy(update={"shown": RELAY})
    assert relay.tables_of_shown() == [6, 7, 8]


def test_the_public_copy_empties_every_field_marked_private_and_keeps_the_rest() -> None:
    state = demo_state(0)
    marked = private_fields(Player)
    assert {"full_name", "email", "phone", "age"} <= set(marked)
    public = state.public()
    assert public.refusals == () and public.timelines == {} and public.event_timelines == {}
    for pid, player in state.players.items():
        shown = public.players[pid]
        for name in marked:
            assert getattr(player, name) not in (None, "")  # the demo holds real-looking private data …
            assert getattr(shown, name) in (None, "")  # … and the public copy none of it
        assert shown.display_name == player.display_name
    assert public.bracket == state.bracket
    assert public.tables == state.tables
    assert public.hall == state.hall


def test_a_new_private_field_would_be_emptied_too() -> None:
    """Redaction follows the marking, not a list of names: mark a field and it is gone."""
    from pydantic import Field

    from gui.model import PRIVATE, redact

    class Extra(Player):
        shoe_size: str = Field(default="", json_schema_extra=PRIVATE)

    p = Extra(id=1, display_name="Ala K.", shoe_size="38", email="ala@example.pl")
    event = session_event("pt").model_copy(update={"session": Session(players={1: p})})
    state = DeskState(events={event.id: event}, shown=event.id)
    cleaned = redact(state).players[1]
    assert cleaned.shoe_size == "" and cleaned.email == "" and cleaned.display_name == "Ala K."


def test_the_cheap_public_copy_is_the_public_copy_and_follows_changes() -> None:
    from gui.deskmodel import PublicCopy

    model = DeskModel(demo_state(0))
    public = PublicCopy()
    assert public(model.state) == model.state.public()
    model.set_tables([running_table(table=3, seq=999)])  # a press: the events are the same objects
    assert public(model.state) == model.state.public()
    event = model.state.events[SESSION]
    assert event.session is not None
    changed = model.state.players[1].model_copy(
        update={"email": "nowy@example.pl", "display_name": "Zosia Ł."}
    )
    players = {**event.session.players, 1: changed}
    model.set_event(
        event.model_copy(
            update={"seq": event.seq + 1, "session": event.session.model_copy(update={"players": players})}
        )
    )
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
    model.choose_event("desk/a")
    assert screen.seen == [Change.EVENTS]
    ref = weakref.ref(screen)
    gc.disable()
    try:
        del screen
        assert ref() is None
    finally:
        gc.enable()
    model.choose_event("desk/b")  # and it is simply forgotten
    seen: list[Change] = []
    model.subscribe(lambda c, t: seen.append(c))  # a plain function is kept: nothing else holds it
    model.choose_event("desk/c")
    assert seen == [Change.EVENTS]
