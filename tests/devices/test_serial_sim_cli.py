"""``duelclock sim serial``: N simulated clocks, the real driver, every fault — and the summary says so."""

from __future__ import annotations

import json

from clockd.cli import main


def test_every_fault_at_once_loses_and_duplicates_nothing(capsys) -> None:
    every = "unplug,garbage,drop,dup,reboot,corrupt,delay"
    argv = ["--clocks", "3", "--presses", "40", "--faults", every, "--fault-rate", "0.1", "--seed", "5"]
    status = main(["sim", "serial", *argv, "--interval-ms", "10"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 0, summary
    assert summary["sent"] == 120 and not summary["timed_out"]
    assert summary["lost"] == 0 and summary["duplicated"] == 0 and summary["out_of_order"] == 0
    # every clock rebooted once, holding presses (ACKs are delayed 150 ms), and lost none of them
    assert summary["reboots"] == 3 and summary["carried_across_reboots"] > 0
    assert summary["lost_on_reboot"] == 0 and summary["received"] == summary["sent"]
    assert summary["time_uncertain"] == 0  # one driver all along: it knew every epoch's clock
    assert summary["reconnects"] >= 3  # every clock was unplugged once
    assert (
        summary["frame_errors"] and summary["duplicates_dropped_by_driver"] > 0
    )  # the faults really happened
    # Real time on a shared machine, with reboots: a new epoch's first presses are mapped from a
    # few samples whose latency a busy scheduler can raise by milliseconds. The < 1 ms bound over a
    # duel is test_serial_timing's (simulated time); here the times only have to be sane — a
    # mapping that lost an epoch or mixed up time bases would be off by seconds.
    assert 0 < summary["median_timing_error_us"] < 20_000
    assert summary["worst_timing_error_us"] < 100_000


def test_an_unknown_fault_is_refused_with_the_list_of_known_ones(capsys) -> None:
    assert main(["sim", "serial", "--faults", "unplug,meteor"]) == 2
    err = capsys.readouterr().err
    assert "'meteor'" in err and "garbage" in err


def test_a_clock_that_forgets_in_a_reboot_shows_as_lost_on_reboot(capsys) -> None:
    # Dropped frames leave presses the host has not seen yet when each clock reboots.
    argv = ["--clocks", "3", "--presses", "30", "--faults", "reboot,drop", "--fault-rate", "0.1"]
    status = main(["sim", "serial", *argv, "--seed", "8", "--interval-ms", "10", "--volatile"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 1, summary  # a player's press is gone: not a clean run
    assert summary["lost_on_reboot"] > 0 and summary["lost"] == 0 and summary["duplicated"] == 0
    assert summary["received"] == summary["sent"] - summary["lost_on_reboot"]
    assert summary["carried_across_reboots"] == 0 and not summary["persistent"]


def test_the_clocks_show_the_programs_faces_and_a_1_1_clock_the_two_faced_fallback(capsys) -> None:
    for protocol in ("1.2", "1.1"):
        argv = ["--clocks", "4", "--presses", "10", "--interval-ms", "10", "--seed", "4"]
        argv += ["--protocol", protocol]
        status = main(["sim", "serial", *argv])
        summary = json.loads(capsys.readouterr().out)
        assert status == 0, summary
        assert summary["protocol"] == protocol and summary["faces_shown"] == 4 and summary["faces_wrong"] == 0


def test_an_unknown_fault_is_named_in_polish(capsys) -> None:
    from clockd.i18n import set_language

    set_language("pl")
    try:
        assert main(["sim", "serial", "--faults", "unplug,fire"]) == 2
    finally:
        set_language(None)
    err = capsys.readouterr().err.strip()
    assert err.startswith("duelclock sim serial: nieznana usterka 'fire'; do wyboru: unplug, ")
