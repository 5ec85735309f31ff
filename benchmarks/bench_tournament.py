"""How fast the Puzzle Duel's pure parts are: a duel's presses, a session's replay, the reports.

Run: ``python -m benchmarks.bench_tournament`` (prints figures, then one JSON line).

* ``duel_inputs_per_s`` — inputs a :class:`~clockd.core.duel.Duel` applies per second
  (a 200-piece duel is ~150 presses, so this bounds the cost of a press in the daemon).
* ``session_replay_ms`` — rebuilding a whole 16-player session (sign-ups, check-in, draw,
  16+ duels' results and confirmations) from its events: the tournament's share of a
  daemon restart.
* ``results_ms``, ``html_ms``, ``png_ms``, ``pdf_ms`` — building the results file, the
  bracket page, and rendering it offscreen.
* ``demo_s``, ``demo_presses_per_s`` — ``duelclock demo --speed 0 --seed 7``: a whole session
  through the real daemon, serial driver and simulated clocks (each press waits for its
  journal commit and the clock's ACK before simulated time moves on).
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from clockd.core.bracket import Assign, Confirm, DuelFinished, Toss
from clockd.core.clock import Press, Side
from clockd.core.duel import Complete, Duel, DuelSetup
from clockd.core.puzzle_duel import MakeDraw, PuzzleSession, SessionInput
from clockd.core.registration import CheckIn, CloseCheckIn, parse_signups
from clockd.core.units import MS, SECOND
from clockd.data import festival_config


def _duel_inputs(rng: random.Random, presses: int) -> list[Press | Complete]:
    t = 0
    out: list[Press | Complete] = [Press(t_ns=0, side=Side.B)]
    side = Side.A
    for _ in range(presses):
        t += rng.randrange(500, 6000) * MS
        out.append(Press(t_ns=t, side=side))
        side = side.other
    out.append(Complete(t_ns=t + SECOND))
    return out


def bench_duel(repeats: int = 20) -> float:
    cfg = festival_config()
    setup = DuelSetup(
        control=cfg.rounds[2].time_per_side, toss_winner=Side.A, resolution_ns=cfg.resolution_ns
    )
    inputs = _duel_inputs(random.Random(1), 150)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        d = Duel.initial(setup)
        for e in inputs:
            d, _ = d.apply(e)
        assert d.verdict() is not None
        rates.append(len(inputs) / ((time.perf_counter_ns() - start) / 1e9))
    return statistics.median(rates)


Step = tuple[str | None, SessionInput]


def session_events(seed: int = 7) -> tuple[PuzzleSession, list[Step], PuzzleSession]:
    """A session after its sign-ups, the (match, input) pairs of its whole afternoon, and the end."""
    cfg = festival_config()
    rng = random.Random(seed)
    csv = "Imię,Nazwisko,E-mail,Wiek\n" + "".join(
        f"P{i},N{i},p{i}@example.pl,{20 + i}\n" for i in range(1, 33)
    )
    start = PuzzleSession.new(cfg, "pt").import_signups(parse_signups(csv))
    events: list[Step] = [(None, CheckIn(player=p)) for p in range(1, 17)]
    events += [(None, CloseCheckIn()), (None, MakeDraw(seed=seed))]
    s = replay(start, events)
    while s.stage == "bracket":
        assert s.bracket is not None
        m = s.bracket.playable()[0]
        assert m.a is not None
        setup = DuelSetup(
            control=s.bracket.time_control(m.id), toss_winner=Side.A, resolution_ns=cfg.resolution_ns
        )
        d = Duel.initial(setup)
        for e in _duel_inputs(rng, 60):
            d, _ = d.apply(e)
        v = d.verdict()
        assert v is not None
        step: list[Step] = [
            (m.id, Assign(table=1)),
            (m.id, Toss(winner=m.a)),
            (m.id, DuelFinished(verdict=v)),
        ]
        if v.winner is not None:
            step.append((m.id, Confirm()))
        s = replay(s, step)
        events += step
    return start, events, s


def replay(session: PuzzleSession, events: list[Step]) -> PuzzleSession:
    for match, event in events:
        session = session.apply(event, match=match)
    return session


def main() -> None:
    duel_rate = bench_duel()
    print(f"duel: {duel_rate:,.0f} inputs/s")

    first, events, final = session_events()
    times = []
    for _ in range(5):
        start = time.perf_counter_ns()
        assert replay(first, events) == final
        times.append((time.perf_counter_ns() - start) / 1e6)
    replay_ms = statistics.median(times)
    print(f"session replay: {len(events)} events in {replay_ms:.1f} ms")

    from clockd.reports.html import bracket_html
    from clockd.reports.results import build_results

    start = time.perf_counter_ns()
    assert final.bracket is not None
    results = build_results(final.bracket, final.names())
    results_ms = (time.perf_counter_ns() - start) / 1e6
    start = time.perf_counter_ns()
    page = bracket_html(results)
    html_ms = (time.perf_counter_ns() - start) / 1e6

    from clockd.reports.render import html_to_pdf, html_to_png

    with tempfile.TemporaryDirectory() as tmp:
        html_to_png("<p>warm-up</p>", Path(tmp) / "w.png")
        start = time.perf_counter_ns()
        html_to_png(page, Path(tmp) / "b.png")
        png_ms = (time.perf_counter_ns() - start) / 1e6
        start = time.perf_counter_ns()
        html_to_pdf(page, Path(tmp) / "b.pdf")
        pdf_ms = (time.perf_counter_ns() - start) / 1e6
    print(f"results {results_ms:.1f} ms, html {html_ms:.1f} ms, png {png_ms:.0f} ms, pdf {pdf_ms:.0f} ms")

    import contextlib
    import io

    from clockd.kinds.duel.demo import Demo
    from clockd.reports.results import Results

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        start = time.perf_counter_ns()
        with contextlib.redirect_stdout(io.StringIO()):
            status = Demo(db=Path(tmp) / "demo.db", speed=0, seed=7, players=16, tables=8).run(out)
        demo_s = (time.perf_counter_ns() - start) / 1e9
        played = Results.model_validate_json(out.read_text())
    assert status == 0
    presses = sum(m.moves.a + m.moves.b + 1 for m in played.matches if m.moves is not None)
    print(f"demo: a whole session ({presses} presses) in {demo_s:.1f} s")
    print(
        json.dumps(
            {
                "bench": "tournament",
                "duel_inputs_per_s": round(duel_rate),
                "session_events": len(events),
                "session_replay_ms": round(replay_ms, 1),
                "results_ms": round(results_ms, 1),
                "html_ms": round(html_ms, 1),
                "png_ms": round(png_ms),
                "pdf_ms": round(pdf_ms),
                "demo_s": round(demo_s, 1),
                "demo_presses_per_s": round(presses / demo_s),
            }
        )
    )


if __name__ == "__main__":
    main()
