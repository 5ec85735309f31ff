"""The real GPIO driver on gpiozero's mock pins: what a referee would notice at a Pi table."""

from __future__ import annotations

import gc
import queue
import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero import LED, Device, InputDevice
from gpiozero.pins.mock import MockFactory

from clockd.core.clock import ClockState, Outcome, PerSide, Side
from clockd.core.clock import Press as ClockPress
from clockd.core.device import Beep, DeviceState, TwoClocks
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, MS, SECOND, US
from clockd.devices.base import AnyDeviceInput, Connected, DevicePress, TableDevice
from clockd.devices.base import RefereeButton as RefereeEvent
from clockd.devices.gpio import (
    GpioStartError,
    GpioTable,
    GpioUnavailable,
    gpio_tables,
    start_all,
)
from clockd.devices.gpio_config import GpioConfig, TableConfig, parse_gpio_config
from clockd.i18n import render
from hw_sim.gpio import ScriptedFactory

T0 = 5_000 * SECOND  # an instant on the daemon's monotonic base
A_PIN, B_PIN, LED_A, LED_B, BUZZER, REFEREE = 17, 27, 22, 23, 24, 25
FULL = TableConfig(
    number=1, button_a=A_PIN, button_b=B_PIN, led_a=LED_A, led_b=LED_B, buzzer=BUZZER, referee=REFEREE
)


@pytest.fixture
def table(pi: ScriptedFactory) -> Iterator[GpioTable]:
    device = GpioTable(FULL, debounce_ms=30, pin_factory=pi)
    yield device
    device.stop()


def started(device: GpioTable) -> list[AnyDeviceInput]:
    events: list[AnyDeviceInput] = []
    device.start(events.append)
    return events


def presses(events: list[AnyDeviceInput]) -> list[tuple[Side, int]]:
    return [(e.side, e.t_ns) for e in events if isinstance(e, DevicePress)]


def tap(pi: ScriptedFactory, bcm: int, t_ns: int, hold_ns: int = 120 * MS) -> None:
    """A clean press and release."""
    pin = pi.scripted_pin(bcm)
    pin.drive_at(0, t_ns)
    pin.drive_at(1, t_ns + hold_ns)


def test_the_table_is_a_clock_device_and_announces_itself_first(table: GpioTable) -> None:
    assert isinstance(table, TableDevice)
    events = started(table)
    assert isinstance(events[0], Connected) and events[0].table == 1
    assert "GPIO17 (pin 11)/GPIO27 (pin 13)" in render(events[0].detail, "en")
    assert render(events[0].detail, "pl").startswith("przyciski GPIO17 (pin 11)/GPIO27 (pin 13)")
    assert table.status().state is DeviceState.CONNECTED


# -- debounce ---------------------------------------------------------------------------------


def test_contact_bounce_is_one_press_stamped_at_its_first_edge(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    pin = pi.scripted_pin(A_PIN)
    burst = [(T0, 0), (T0 + 300 * US, 1), (T0 + 900 * US, 0), (T0 + 2 * MS, 1), (T0 + 3 * MS, 0)]
    release = [(T0 + 150 * MS, 1), (T0 + 151 * MS, 0), (T0 + 153 * MS, 1)]
    for t, level in burst + release:
        pin.drive_at(level, t)
    assert presses(events) == [(Side.A, T0)]
    # every edge but the press and the release was bounce, and counted
    assert table.counters().bounce_edges == len(burst) + len(release) - 2


def test_bounce_longer_than_the_window_makes_a_second_press(pi: ScriptedFactory) -> None:
    """The window is real: an edge after it is a new touch (here, a 40 ms bounce on a 30 ms window)."""
    device = GpioTable(FULL, debounce_ms=30, pin_factory=pi)
    events = started(device)
    pin = pi.scripted_pin(A_PIN)
    for t, level in [(T0, 0), (T0 + 20 * MS, 1), (T0 + 40 * MS, 0)]:
        pin.drive_at(level, t)
    device.stop()
    assert presses(events) == [(Side.A, T0), (Side.A, T0 + 40 * MS)]


def test_a_tap_shorter_than_the_window_and_the_next_press_are_two_presses(
    pi: ScriptedFactory, table: GpioTable
) -> None:
    events = started(table)
    tap(pi, A_PIN, T0, hold_ns=10 * MS)  # released inside the window
    tap(pi, A_PIN, T0 + 400 * MS)
    assert presses(events) == [(Side.A, T0), (Side.A, T0 + 400 * MS)]


def test_a_release_with_bounce_is_not_a_press(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    pin = pi.scripted_pin(B_PIN)
    for t, level in [
        (T0, 0),
        (T0 + 500 * MS, 1),
        (T0 + 501 * MS, 0),
        (T0 + 502 * MS, 1),
        (T0 + 504 * MS, 0),
        (T0 + 506 * MS, 1),
    ]:
        pin.drive_at(level, t)
    assert presses(events) == [(Side.B, T0)]


# -- the clock's rules and the lever ----------------------------------------------------------


def clock_after(events: list[AnyDeviceInput]) -> tuple[ClockState, list[Outcome]]:
    state = ClockState.initial(TimeControl.sudden_death(10 * MINUTE))
    outcomes = []
    for side, t_ns in presses(events):
        state, outcome = state.apply(ClockPress(t_ns=t_ns, side=side))
        outcomes.append(outcome)
    return state, outcomes


def test_the_waiting_players_press_is_delivered_and_the_clock_ignores_and_counts_it(
    pi: ScriptedFactory, table: GpioTable
) -> None:
    events = started(table)
    tap(pi, A_PIN, T0)  # A lost the toss: B's time starts
    tap(pi, B_PIN, T0 + 4 * SECOND)  # B's move: A's time runs
    tap(pi, B_PIN, T0 + 5 * SECOND)  # B again, but B's time is not running
    tap(pi, A_PIN, T0 + 7 * SECOND)  # A's move
    state, outcomes = clock_after(events)
    assert outcomes == [Outcome.STARTED, Outcome.APPLIED, Outcome.IGNORED_NOT_RUNNING, Outcome.APPLIED]
    assert state.ignored.b == 1 and state.ignored.a == 0
    view = state.view(T0 + 7 * SECOND)
    assert view.remaining_ns.b == 10 * MINUTE - 4 * SECOND  # the ignored press cost B nothing
    assert view.remaining_ns.a == 10 * MINUTE - 3 * SECOND
    assert view.running is Side.B


def test_both_players_in_one_millisecond_the_running_players_press_stands_in_either_order(
    pi: ScriptedFactory,
) -> None:
    """A's time runs (B pressed last). A and B press 400 µs apart, in both orders."""
    for first, second in ((A_PIN, B_PIN), (B_PIN, A_PIN)):
        device = GpioTable(FULL, pin_factory=pi)
        events = started(device)
        tap(pi, A_PIN, T0)  # starts B's time
        tap(pi, B_PIN, T0 + 3 * SECOND)  # B's move: A's time runs
        tap(pi, first, T0 + 6 * SECOND)
        tap(pi, second, T0 + 6 * SECOND + 400 * US)
        device.stop()
        a_pressed = T0 + 6 * SECOND + (0 if first == A_PIN else 400 * US)
        state, _ = clock_after(events)
        view = state.view(T0 + 8 * SECOND)
        assert view.running is Side.B, first  # A's press ended A's turn; B's time runs
        assert (view.moves.a, view.moves.b) == (1, 1), first  # B's near-simultaneous press was no move
        assert view.remaining_ns.a == 10 * MINUTE - (a_pressed - (T0 + 3 * SECOND))
        assert view.remaining_ns.b == 10 * MINUTE - 3 * SECOND - (T0 + 8 * SECOND - a_pressed)
        # A first: B's press came too soon after the lever moved and was dropped;
        # B first: it moved nothing, was delivered, and the clock ignored it.
        assert device.counters().simultaneous == (1 if first == A_PIN else 0)
        assert state.ignored.b == (0 if first == A_PIN else 1)


def test_both_players_in_one_millisecond_exact_figures(pi: ScriptedFactory) -> None:
    device = GpioTable(FULL, pin_factory=pi)
    events = started(device)
    tap(pi, A_PIN, T0)
    tap(pi, B_PIN, T0 + 3 * SECOND)
    tap(pi, A_PIN, T0 + 6 * SECOND)
    tap(pi, B_PIN, T0 + 6 * SECOND + 400 * US)  # the waiting player, 0.4 ms late: dropped
    tap(pi, B_PIN, T0 + 9 * SECOND)  # B's real move later
    state, _ = clock_after(events)
    view = state.view(T0 + 9 * SECOND)
    assert presses(events)[-1] == (Side.B, T0 + 9 * SECOND)
    assert view.remaining_ns.a == 10 * MINUTE - 3 * SECOND
    assert view.remaining_ns.b == 10 * MINUTE - 3 * SECOND - 3 * SECOND
    assert device.counters().simultaneous == 1


def test_presses_a_millisecond_apart_are_both_delivered(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    tap(pi, A_PIN, T0)
    tap(pi, B_PIN, T0 + 1 * MS)
    assert presses(events) == [(Side.A, T0), (Side.B, T0 + MS)]
    assert table.counters().simultaneous == 0


def test_the_lever_follows_the_daemons_display_when_the_referee_starts_a_clock(
    pi: ScriptedFactory, table: GpioTable
) -> None:
    """The referee starts A's time with no press; then B and A press 0.5 ms apart: A's press stands."""
    events = started(table)
    table.show(TwoClocks(remaining_ms=PerSide[int](a=600_000, b=600_000), running=Side.A))
    tap(pi, B_PIN, T0)
    tap(pi, A_PIN, T0 + 500 * US)
    tap(pi, A_PIN, T0 + 700 * US)
    assert presses(events) == [(Side.B, T0), (Side.A, T0 + 500 * US)]


# -- referee button, LEDs, buzzer ---------------------------------------------------------------


def test_the_referee_button_is_its_own_debounced_event(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    pin = pi.scripted_pin(REFEREE)
    for t, level in [(T0, 0), (T0 + MS, 1), (T0 + 2 * MS, 0), (T0 + 300 * MS, 1)]:
        pin.drive_at(level, t)
    referee = [e for e in events if isinstance(e, RefereeEvent)]
    assert [(e.table, e.t_ns) for e in referee] == [(1, T0)]
    assert presses(events) == []


def test_the_running_sides_led_is_lit(pi: ScriptedFactory, table: GpioTable) -> None:
    started(table)
    lit = []
    for running in (Side.A, Side.B, None):
        table.show(TwoClocks(remaining_ms=PerSide[int](a=1000, b=1000), running=running))
        lit.append((pi.pin(LED_A).state, pi.pin(LED_B).state))
    assert lit == [(True, False), (False, True), (False, False)]


def test_a_tie_sounds_three_beeps_on_the_buzzer(pi: ScriptedFactory, table: GpioTable) -> None:
    started(table)
    buzzer = pi.pin(BUZZER)
    buzzer.clear_states()
    table.beep(Beep.TIE)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and [s.state for s in buzzer.states].count(False) < 4:
        time.sleep(0.05)
    assert [s.state for s in buzzer.states] == [False, True, False, True, False, True, False]


def test_a_table_without_leds_or_buzzer_shows_and_beeps_silently(pi: ScriptedFactory) -> None:
    device = GpioTable(TableConfig(number=2, button_a=5, button_b=6), pin_factory=pi)
    started(device)
    device.show(TwoClocks(remaining_ms=PerSide[int](a=1, b=1), running=Side.A))
    device.beep(Beep.FLAG)
    device.stop()
    assert device.status().state is DeviceState.DISCONNECTED


# -- timestamps -------------------------------------------------------------------------------


def test_plain_mock_pins_give_no_edge_time_and_status_says_callback_time() -> None:
    factory = MockFactory()
    try:
        device = GpioTable(FULL, pin_factory=factory)
        events = started(device)
        before = time.monotonic_ns()
        factory.pin(A_PIN).drive_low()
        after = time.monotonic_ns()
        device.stop()
    finally:
        factory.reset()
    [(side, t_ns)] = presses(events)
    assert side is Side.A and before <= t_ns <= after
    assert device.edge_time is not None and device.edge_time.name == "callback"
    assert "callback time" in render(device.status().detail, "en")
    assert "czas wywołania" in render(device.status().detail, "pl")


def test_scripted_pins_deliver_their_own_edge_time_not_the_callback_time(
    pi: ScriptedFactory, table: GpioTable
) -> None:
    events = started(table)
    long_ago = time.monotonic_ns() - 3 * SECOND
    tap(pi, A_PIN, long_ago)
    assert presses(events) == [(Side.A, long_ago)]
    assert table.edge_time is not None and table.edge_time.name == "pin"


# -- starting, stopping, failing cleanly -----------------------------------------------------------


def test_a_pin_taken_by_another_device_is_refused_naming_table_role_and_pin_and_nothing_stays_claimed(
    pi: ScriptedFactory,
) -> None:
    squatter = LED(LED_B, pin_factory=pi)
    device = GpioTable(FULL, pin_factory=pi)
    events: list[AnyDeviceInput] = []
    with pytest.raises(GpioStartError, match=r"table 1 led_b: GPIO23 \(pin 16\) cannot be used"):
        device.start(events.append)
    assert events == []
    squatter.close()
    # every pin the table had claimed before failing is free again
    for bcm in (A_PIN, B_PIN, REFEREE, LED_A):
        InputDevice(bcm, pin_factory=pi).close()


def test_no_gpio_on_this_computer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    device = GpioTable(FULL)
    with pytest.raises(GpioUnavailable, match=r"No GPIO on this computer|Brak GPIO na tym komputerze"):
        device.start(lambda event: None)
    assert device.status().state is DeviceState.DISCONNECTED


def test_start_all_starts_every_table_or_none(pi: ScriptedFactory) -> None:
    config = GpioConfig(
        tables=(
            TableConfig(number=1, button_a=17, button_b=27),
            TableConfig(number=2, button_a=5, button_b=6),
        )
    )
    squatter = InputDevice(6, pin_factory=pi)
    tables = gpio_tables(config, pin_factory=pi)
    with pytest.raises(GpioStartError, match="table 2 button_b"):
        start_all(tables, lambda event: None)
    squatter.close()
    assert [t.status().state for t in tables] == [DeviceState.DISCONNECTED] * 2
    InputDevice(17, pin_factory=pi).close()  # table 1 let its pins go


def test_after_stop_no_event_is_delivered(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    table.stop()
    tap(pi, A_PIN, T0)
    assert presses(events) == []
    assert table.status().state is DeviceState.DISCONNECTED


def test_acknowledged_presses_are_no_longer_pending(pi: ScriptedFactory, table: GpioTable) -> None:
    events = started(table)
    tap(pi, A_PIN, T0)
    tap(pi, B_PIN, T0 + SECOND)
    assert table.counters().unacknowledged == 2
    first = next(e for e in events if isinstance(e, DevicePress))
    table.acknowledge(first)
    assert table.counters().unacknowledged == 1
    assert [e.seq for e in events if isinstance(e, DevicePress)] == [1, 2]


def test_a_table_keeps_firing_after_garbage_collection(pi: ScriptedFactory) -> None:
    """gpiozero holds pin handlers weakly; the table must keep its own alive."""
    config = parse_gpio_config({"tables": [{"number": 9, "button_a": 5, "button_b": 6}]})
    [device] = gpio_tables(config, pin_factory=pi)
    events = started(device)
    gc.collect()
    tap(pi, 5, T0)
    assert presses(events) == [(Side.A, T0)]
    device.stop()


# -- threads ------------------------------------------------------------------------------


def test_presses_from_many_threads_reach_a_queue_exactly_once_and_in_order(pi: ScriptedFactory) -> None:
    """One thread per table drives bouncing presses while a consumer thread reads the queue."""
    rows = [(1, 17, 27), (2, 22, 23), (3, 5, 6), (4, 12, 13)]
    config = parse_gpio_config({"tables": [{"number": n, "button_a": a, "button_b": b} for n, a, b in rows]})
    tables = gpio_tables(config, pin_factory=pi)
    inbox: queue.Queue[AnyDeviceInput | None] = queue.Queue()
    start_all(tables, inbox.put)
    turns = 150
    received: list[DevicePress] = []

    def consume() -> None:
        while (event := inbox.get()) is not None:
            if isinstance(event, DevicePress):
                received.append(event)

    def players(a: int, b: int) -> None:
        for turn in range(turns):
            pin = pi.scripted_pin(a if turn % 2 == 0 else b)
            t = T0 + turn * SECOND
            for offset, level in (
                (0, 0),
                (US, 1),
                (2 * US, 0),
                (100 * MS, 1),
                (100 * MS + US, 0),
                (101 * MS, 1),
            ):
                pin.drive_at(level, t + offset)

    consumer = threading.Thread(target=consume)
    consumer.start()
    drivers = [threading.Thread(target=players, args=(a, b)) for _, a, b in rows]
    for thread in drivers:
        thread.start()
    for thread in drivers:
        thread.join()
    inbox.put(None)
    consumer.join()
    for device in tables:
        device.stop()

    for number, _, _ in rows:
        mine = [(e.side, e.t_ns) for e in received if e.table == number]
        assert mine == [(Side.A if turn % 2 == 0 else Side.B, T0 + turn * SECOND) for turn in range(turns)]
    assert sum(t.counters().bounce_edges for t in tables) == len(rows) * turns * 4
