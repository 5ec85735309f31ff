"""Simulated Pi tables: scripted players on bouncing buttons, through the real GPIO driver."""

from __future__ import annotations

import itertools
import json
import queue
import random

import pytest

from clockd.cli import main
from clockd.cli.sim_gpio import simulate
from clockd.core.clock import ClockState, Phase, Side
from clockd.core.clock import Press as ClockPress
from clockd.core.display import same_time
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, MS, SECOND
from clockd.devices.base import AnyDeviceInput, DevicePress
from clockd.devices.gpio import GpioTable
from clockd.devices.gpio_config import TableConfig
from hw_sim.gpio import BouncingContact, EdgePlayer, ScriptedFactory, ScriptedPress, duel_presses, press_edges
from hw_sim.players import FAST, SLOW

T0 = 7_000 * SECOND


def test_a_bouncing_contact_settles_at_the_new_level_within_the_bounce_time() -> None:
    rng = random.Random(4)
    contact = BouncingContact(bounce_ns=5 * MS, max_bounces=3)
    bursts = [contact.edges(T0, 0, rng) for _ in range(200)]
    assert max(len(b) for b in bursts) == 7 and min(len(b) for b in bursts) == 1
    for burst in bursts:
        times = [t for t, _ in burst]
        assert times[0] == T0 and times == sorted(set(times)) and times[-1] <= T0 + 5 * MS
        assert burst[0][1] == 0 and burst[-1][1] == 0
        assert all(a[1] != b[1] for a, b in itertools.pairwise(burst))
    assert BouncingContact(bounce_ns=0).edges(T0, 1, rng) == [(T0, 1)]


def test_a_scripted_pin_reports_the_scripted_instant(pi: ScriptedFactory) -> None:
    seen: list[tuple[object, object]] = []

    class Listener:
        def changed(self, ticks: object, state: object) -> None:
            seen.append((ticks, state))

    listener = Listener()
    pin = pi.scripted_pin(17)
    pin.pull = "up"  # resting high, as a button's pin does
    pin.when_changed = listener.changed
    pin.drive_at(0, T0)
    pin.drive_at(0, T0 + 1)  # no change, no edge
    pin.drive_at(1, T0 + 2 * SECOND)
    assert seen == [(T0, False), (T0 + 2 * SECOND, True)]


def test_a_scripted_duel_alternates_from_the_toss_loser_with_out_of_turn_presses_between() -> None:
    rng = random.Random(11)
    script = duel_presses(5, 200, rng, start_ns=T0, players=(FAST, SLOW), out_of_turn_rate=0.2)
    in_turn = [p for p in script if not p.out_of_turn]
    assert len(in_turn) == 200 and len(script) > 200
    assert [p.side for p in in_turn] == [("a", "b")[(i + (in_turn[0].side == "b")) % 2] for i in range(200)]
    for press in script:
        assert press.release_ns > press.t_ns and press.table == 5
    by_side: dict[str, list[ScriptedPress]] = {"a": [], "b": []}
    for press in sorted(script, key=lambda p: p.t_ns):
        by_side[press.side].append(press)
    for mine in by_side.values():  # one finger per button: released before it presses again
        assert all(a.release_ns + 50 * MS < b.t_ns for a, b in itertools.pairwise(mine))
    for out in (p for p in script if p.out_of_turn):  # pressed by the player who just moved
        before = max((p for p in in_turn if p.t_ns < out.t_ns), key=lambda p: p.t_ns)
        assert out.side == before.side


def result(presses: list[tuple[int, Side]], control: TimeControl, end_ns: int) -> tuple[object, ...]:
    """The duel's result as a referee reads it: who won (or a tie), how, and the figures."""
    state = ClockState.initial(control)
    for t_ns, side in sorted(presses):
        state, _ = state.apply(ClockPress(t_ns=t_ns, side=side))
    view = state.view(end_ns)
    a, b = view.remaining_ns.a, view.remaining_ns.b
    if view.phase is Phase.FLAGGED:
        winner = view.flag.other if view.flag else None
    else:
        winner = None if same_time(a, b) else (Side.A if a > b else Side.B)
    return winner, view.phase, view.remaining_ns, view.moves, state.ignored


def test_a_full_duel_on_a_gpio_table_gives_the_result_of_the_same_presses_fed_to_the_core(
    pi: ScriptedFactory,
) -> None:
    """A bouncy 2-minute duel, played until a flag falls, through the real driver and a queue."""
    rng = random.Random(2026)
    control = TimeControl.sudden_death(2 * MINUTE)
    script = duel_presses(1, 80, rng, start_ns=T0, players=(FAST, SLOW), out_of_turn_rate=0.1)
    pins = {(1, "a"): (0, 17), (1, "b"): (0, 27)}
    edges = press_edges(script, pins, BouncingContact(bounce_ns=8 * MS), rng)
    table = GpioTable(TableConfig(number=1, button_a=17, button_b=27), debounce_ms=30, pin_factory=pi)
    inbox: queue.Queue[AnyDeviceInput] = queue.Queue()
    table.start(inbox.put)
    EdgePlayer([pi]).play_in_thread(edges).join()
    table.stop()
    delivered = []
    while not inbox.empty():
        event = inbox.get_nowait()
        if isinstance(event, DevicePress):
            delivered.append((event.t_ns, event.side))
    end = edges[-1].t_ns + SECOND

    direct = result([(p.t_ns, Side(p.side)) for p in script], control, end)
    through_gpio = result(delivered, control, end)
    assert through_gpio == direct
    assert direct[1] is Phase.FLAGGED  # the script ran long enough for a flag: a decided duel
    assert len(edges) > 2 * len(script)  # and the contacts really bounced


def test_the_simulator_loses_nothing_and_invents_nothing_when_bounce_fits_the_window() -> None:
    summary = simulate(tables=3, presses=60, bounce_ms=5, seed=7)
    assert summary["events"] == summary["presses"] > 180
    assert summary["lost"] == 0 and summary["spurious"] == 0
    assert summary["bounce_edges_dropped"] > 0
    assert summary["results_match"] == 3 and summary["results_differ"] == 0
    assert summary["ignored_by_clock"] == summary["out_of_turn_presses"] > 0
    assert summary["edge_time"] == "pin"


def test_bounce_longer_than_the_debounce_window_shows_up_as_spurious_presses() -> None:
    summary = simulate(tables=2, presses=60, bounce_ms=60, debounce_ms=30, seed=7)
    assert summary["lost"] == 0
    assert summary["spurious"] > 0
    assert summary["events"] == summary["presses"] + summary["spurious"]


def test_more_tables_than_one_header_holds_go_to_a_second_pi() -> None:
    summary = simulate(tables=14, presses=6, bounce_ms=3, seed=1, threaded=False)
    assert summary["pis"] == 2
    assert summary["lost"] == summary["spurious"] == 0 and summary["results_match"] == 14


def test_duelclock_sim_gpio_prints_a_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "gpio", "--tables", "2", "--presses", "12", "--bounce-ms", "4", "--seed", "5"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert {"presses", "events", "lost", "spurious"} <= summary.keys()
    assert summary["seed"] == 5 and summary["tables"] == 2
    assert summary["lost"] == summary["spurious"] == 0
