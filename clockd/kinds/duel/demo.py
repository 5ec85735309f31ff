"""``duelclock demo``: a whole Puzzle Duel session, played by simulated players on simulated clocks.

Everything real but the people and the hardware: the daemon (journal, engine, API server,
the tournament component) runs in this process on a temporary database; every table is a
simulated USB-serial clock on a pseudo-terminal (:mod:`hw_sim.serial_clock`) read by the
real serial driver; the referee — this program — runs the session through the API, the
way ``duelclock tournament`` and the GUI do: sign-ups, check-in (an absent player's seat
goes to a reserve), the draw, matches to tables, tosses, "picture complete", confirmations,
tie-breaks. The players sit at the simulated clocks: the toss loser starts the clock, then
each in turn looks for a piece, places it (or passes) and presses.

**Time.** The session runs on simulated time (:class:`hw_sim.simtime.SimTime`) shared by
the clocks, the drivers and the daemon: it stands still while the system works and jumps
to the next thing that happens (a player's press, the referee's call, a flag). So a
100-minute session takes seconds, a seed replays it exactly (``--seed``), and ``--speed``
only paces it for watching: ``--speed 300`` shows 300 s of the session per second (the
default, under a minute); ``--speed 0`` runs it as fast as the machine can.

At the end: the podium, and (``--json-out``) the results file, checked against the rules:
every winner had more time at the resolution, or won a tie-break, or a referee decided.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clockd import i18n
from clockd.i18n import Problem, render_error
from hw_sim.names import FIRST, LAST

SESSION = "demo"
T0 = 1_000_000_000_000  # where simulated time starts (ns); any value works
MS = 1_000_000
SECOND = 1_000 * MS


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "demo",
        help=i18n.text("cli.demo.play-a-whole-simulated-puzzle-duel"),
        description=i18n.text("cli.demo.a-16-player-puzzle-duel-session"),
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=300.0,
        metavar="X",
        help=i18n.text("cli.demo.seconds-of-the-session-shown-per"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=7,
        help=i18n.text("cli.demo.seed-for-the-players-the-draw"),
    )
    parser.add_argument(
        "--json-out",
        type=Path,
        metavar="FILE",
        help=i18n.text("cli.demo.write-the-results-file-here"),
    )
    parser.add_argument(
        "--players",
        type=int,
        default=16,
        help=i18n.text("cli.demo.players-present-9-16-byes-default"),
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=8,
        help=i18n.text("cli.demo.duel-tables-default-8"),
    )
    parser.add_argument(
        "--event",
        choices=("duel", "relay", "blind", "team", "chess"),
        default="duel",
        help=i18n.text("cli.demo.event-help"),
    )
    parser.add_argument("--web", default=None, metavar="HOST:PORT", help=i18n.text("cli.demo.web"))
    from clockd.cli.web import add_serve_options

    add_serve_options(parser)
    parser.add_argument("--chess-players", type=int, default=1000, help=i18n.text("cli.demo.chess-players"))
    parser.add_argument("--rounds", type=int, default=8, help=i18n.text("cli.demo.chess-rounds"))
    parser.add_argument("--trf-dir", type=Path, metavar="DIR", help=i18n.text("cli.demo.trf-dir"))
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help=i18n.text("cli.demo.keep-the-journal-here-default-a"),
    )
    parser.set_defaults(func=run)


class DemoError(Problem, RuntimeError):
    """The demo cannot go on (a simulated clock that never connects, a session that is stuck)."""


def run(args: argparse.Namespace) -> int:
    from clockd.api.messages import ApiError

    if args.speed < 0:
        print(f"duelclock demo: {i18n.text('cli.demo.speed-negative')}", file=sys.stderr)
        return 2
    if args.event == "chess":
        return _chess(args)
    if not 2 <= args.players <= 16 or args.tables < 1:
        print(f"duelclock demo: {i18n.text('cli.demo.players-and-tables')}", file=sys.stderr)
        return 2
    if args.event != "duel":
        return _zone(args)
    with tempfile.TemporaryDirectory(prefix="duelclock-demo-") as tmp:
        demo = Demo(
            db=args.db or Path(tmp) / "demo.db",
            speed=args.speed,
            seed=args.seed,
            players=args.players,
            tables=args.tables,
            web=args if args.web else None,
        )
        try:
            return demo.run(args.json_out)
        except (Problem, ApiError, ConnectionError) as exc:  # the journal, the daemon, the demo itself
            print(f"duelclock demo: {render_error(exc)}", file=sys.stderr)
            return 1


def _zone(args: argparse.Namespace) -> int:
    """``--event relay|blind|team``: a zone contest on mock GPIO tables (:mod:`clockd.kinds.zone.demo`)."""
    from clockd.api.messages import ApiError
    from clockd.kinds.zone.demo import ZoneDemo

    with tempfile.TemporaryDirectory(prefix="duelclock-demo-") as tmp:
        db = args.db or Path(tmp) / "demo.db"
        demo = ZoneDemo(kind=args.event, db=db, speed=args.speed, seed=args.seed)
        try:
            return demo.run(args.json_out)
        except (Problem, ApiError, ConnectionError) as exc:
            print(f"duelclock demo: {render_error(exc)}", file=sys.stderr)
            return 1


def _chess(args: argparse.Namespace) -> int:
    """``--event chess``: the school chess day, 20 groups (:mod:`clockd.kinds.chess.demo`)."""
    from clockd.api.messages import ApiError
    from clockd.kinds.chess.demo import ChessDemo

    with tempfile.TemporaryDirectory(prefix="duelclock-demo-") as tmp:
        db = args.db or Path(tmp) / "demo.db"
        demo = ChessDemo(
            db=db, seed=args.seed, players=args.chess_players, rounds=args.rounds, out=args.trf_dir
        )
        try:
            return demo.run()
        except (Problem, ApiError, ConnectionError) as exc:
            print(f"duelclock demo: {render_error(exc)}", file=sys.stderr)
            return 1


def inner_pieces(pieces: int) -> int:
    """Pieces placed in turns: all but the frame, which both players build together (§2.2.5)."""
    rows = max(r for r in range(1, math.isqrt(pieces) + 1) if pieces % r == 0)
    cols = pieces // rows
    frame = pieces if rows <= 2 else 2 * (rows + cols) - 4
    return max(1, pieces - frame)


@dataclass
class DuelAtTable:
    """Two simulated players at one clock, playing one match."""

    table: int
    match: str
    sim: Any  # hw_sim.serial_clock.SimulatedSerialClock
    players: dict[str, int]  # clock side ("a"/"b") → player id
    toss_winner: str  # clock side
    pieces_left: int
    next_at: int  # simulated ns of this duel's next action
    turn: str | None = None  # whose time runs (None: the clock is not started yet)


class Demo:
    def __init__(
        self,
        *,
        db: Path,
        speed: float,
        seed: int,
        players: int,
        tables: int,
        web: argparse.Namespace | None = None,
    ) -> None:
        self.db = db
        self.web = web  # the options of ``--web HOST:PORT``: the live pages beside the demo's daemon
        self.speed = speed
        self.seed = seed
        self.n_players = players
        self.n_tables = tables
        self.rng = random.Random(seed)
        self._seen: tuple[Any, Any] = (None, None)  # the session's state and its view, last asked
        self.duels: dict[int, DuelAtTable] = {}
        self.models: dict[int, Any] = {}
        self.printed: set[str] = set()
        self.rounds_done: set[int] = set()

    # -- the whole thing ------------------------------------------------------------------------
    def run(self, json_out: Path | None) -> int:
        from clockd.api.client import Client
        from clockd.devices.serial import PortMatch, SerialClock
        from clockd.service.runtime import Daemon, TableSpec
        from hw_sim.serial_clock import SerialClockFarm
        from hw_sim.simtime import SimTime

        self.time = SimTime(source=lambda: T0)  # stands still between jumps
        farm = SerialClockFarm(time=self.time, seed=self.seed)
        stops: list[Any] = []
        daemon = Daemon(
            self.db,
            tables=[TableSpec(t, f"Stolik {t}", "10m") for t in range(1, self.n_tables + 1)],
            port=0,
            boot_id="duelclock-demo",
            clock=self.time,
            write_daemon_info=False,
        )
        self.sims: dict[int, Any] = {}
        drivers = []
        try:
            for t in range(1, self.n_tables + 1):
                serial_number = f"DEMO-{t:02d}"
                self.sims[t] = farm.add(serial_number, heartbeat_ms=1000)
                driver = SerialClock(
                    t,
                    match=PortMatch(serial_number=serial_number),
                    list_ports=farm.list_ports,
                    clock=self.time,
                )
                daemon.add_device(t, driver)
                drivers.append(driver)
            started = daemon.start()
            self.daemon = daemon
            for driver in drivers:
                if not driver.wait_connected(10):
                    raise DemoError("cli.demo.clock-did-not-connect", table=driver.table)
            for _ in range(40):  # let the clocks' first heartbeats map their time onto the daemon's
                self.time.advance(10 * MS)
                time.sleep(0.002)
            self.client = Client(started.host, started.port, started.token, by="Sędzia (demo)")
            if self.web is not None:
                from clockd.cli.web import start_beside

                pages = start_beside(self.web, started, None, prog="duelclock demo")
                if pages is None:
                    return 2
                stops.append(pages)
            self.start_ns = self.time()
            self.real_start = time.monotonic()
            self._prepare()
            self._play()
            return self._finish(json_out)
        finally:
            for stop in stops:
                stop.close()
            if hasattr(self, "client"):
                self.client.close()
            daemon.stop()
            farm.close()

    # -- before the first duel ------------------------------------------------------------------
    def _prepare(self) -> None:
        from clockd.core.actions import CreateEvent
        from clockd.core.puzzle_duel import ImportSignups, MakeDraw
        from clockd.core.registration import CheckIn, CloseCheckIn
        from hw_sim.players import PlayerModel

        rng = self.rng
        signups = 20
        rows = ["Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Numer telefonu;Wiek"]
        people = rng.sample(range(len(FIRST)), signups)
        for i, k in enumerate(people):
            first, last = FIRST[k], LAST[(k * 7 + i) % len(LAST)]
            rows.append(
                f"2026/06/06 12:{i:02d}:00;{first};{last};gracz{i + 1}@example.pl;"
                f"600 100 {i:03d};{rng.randrange(14, 60)}"
            )
        self.client.act(
            "", CreateEvent(event_kind="puzzle-duel", key=SESSION, name=i18n.text("cli.demo.demo"))
        )
        done = self.act(ImportSignups(csv="\n".join(rows) + "\n", source="zapisy.csv"))
        self.names = done.names()
        main = [p.id for p in done.players if p.list == "main"]
        reserve = [p.id for p in done.players if p.list == "reserve"]
        present = main[: self.n_players]
        if self.n_players == len(main) and reserve:
            absent = rng.choice(present)  # one did not come: the first reserve takes the seat (§1.18)
            present = [p for p in present if p != absent] + [reserve[0]]
        for pid in present:
            self.act(CheckIn(player=pid))
        done = self.act(CloseCheckIn())
        for change in done.seat_changes:
            if change.absent is None:  # the demo fills no seat the main list left empty
                continue
            absent, taken = self.names[change.absent], self.names[change.taken_by]
            self.say(i18n.text("cli.demo.did-not-come-the-seat-goes", absent=absent, taken=taken))
        done = self.act(MakeDraw(seed=self.seed))
        for pid in done.field or []:
            self.models[pid] = PlayerModel(median_ms=rng.randrange(6_000, 12_000), sigma=0.5, min_ms=1_500)
        results = self.results()
        lines = ", ".join(f"{line}: {self.names[p]}" for line, p in sorted(results.draw.lines.items()))
        self.say(i18n.text("cli.demo.draw-seed", seed=self.seed, lines=lines))

    # -- the session ------------------------------------------------------------------------------
    def _play(self) -> None:
        while True:
            session = self.status()
            if session.stage == "finished":
                return
            if self._referee(session):
                continue  # something changed: look again before time moves on
            now = self.time()
            upcoming = [d.next_at for d in self.duels.values()]
            deadline = self.daemon.engine.tables.next_deadline() if self.daemon.engine else None
            if deadline is not None:
                upcoming.append(deadline + 1)
            if not upcoming:
                raise DemoError("cli.demo.stuck")
            self._advance_to(max(now, min(upcoming)))
            now = self.time()
            for duel in sorted(self.duels.values(), key=lambda d: d.table):
                if duel.next_at <= now and duel.table in self.duels:
                    self._turn(duel)

    def _referee(self, session: Any) -> bool:
        """The referee's round at the desk: confirm results, start tie-breaks, fill free tables."""
        from clockd.core.bracket import Assign, Confirm, StartTiebreak

        assert session.bracket is not None
        matches = {m.id: m for m in session.bracket.matches}
        for m in matches.values():
            if m.status != "assigned" and m.table in self.duels and self.duels[m.table].match == m.id:
                del self.duels[m.table]
        for m in matches.values():
            if m.status == "result":
                self._report(m)
                self.act(Confirm(), m.id)
                return True
        self._round_summaries(session)
        for m in matches.values():
            if m.status == "tiebreak" and m.tiebreak_of is None:
                waiting = [t for t in matches.values() if t.tiebreak_of == m.id and t.status == "ready"]
                if waiting:
                    self._report(m)
                    table = m.table if m.table not in self.duels else self._free_table()
                    if table is None:
                        continue
                    self.act(StartTiebreak(table=table), m.id)
                    self._begin(waiting[-1].id, table)
                    return True
        for m in matches.values():
            if m.status == "ready" and m.tiebreak_of is None:
                table = self._free_table()
                if table is None:
                    return False
                self.act(Assign(table=table), m.id)
                self._begin(m.id, table)
                return True
        return False

    def _free_table(self) -> int | None:
        busy = set(self.duels)
        return next((t for t in range(1, self.n_tables + 1) if t not in busy), None)

    def _begin(self, match_id: str, table: int) -> None:
        """The players sit down, build the frame together (untimed), toss; the loser will start."""
        from clockd.core.bracket import Toss

        session = self.status()
        m = self._match(session, match_id)
        assert m.a is not None and m.b is not None and m.clock_a is not None
        winner = self.rng.choice([m.a, m.b])
        self.act(Toss(winner=winner), match_id)
        sides = {"a": m.clock_a, "b": m.b if m.clock_a == m.a else m.a}
        toss_side = "a" if sides["a"] == winner else "b"
        frame_ns = self.rng.randrange(60, 180) * SECOND
        self.duels[table] = DuelAtTable(
            table=table,
            match=match_id,
            sim=self.sims[table],
            players=sides,
            toss_winner=toss_side,
            pieces_left=inner_pieces(m.pieces),
            next_at=self.time() + frame_ns,
        )
        self.say(
            f"{i18n.text('cli.demo.table')} {table}  {match_id:9s} {self.names[m.a]} – {self.names[m.b]}  "
            f"({self._round_name(session, m.round)}, {m.pieces} {i18n.text('cli.demo.pieces')}; "
            f"{i18n.text('cli.demo.toss-won-by')} {self.names[winner]})"
        )

    def _turn(self, d: DuelAtTable) -> None:
        from clockd.core.clock import Phase
        from clockd.core.duel import Complete
        from clockd.service.tables import phase_of
        from firmware_protocol.messages import WireSide

        state = self.daemon.engine.current.tables[d.table] if self.daemon.engine else None
        if d.turn is None:
            loser = "b" if d.toss_winner == "a" else "a"
            self._press(d, WireSide(loser))
            d.turn = d.toss_winner
        else:
            if state is None or phase_of(state, self.time()) is not Phase.RUNNING:
                del self.duels[d.table]  # a flag ended it; the referee will see the result
                return
            if self.rng.random() < 0.8:
                d.pieces_left -= 1
            if d.pieces_left <= 0:
                del self.duels[d.table]
                self.act(Complete(), d.match)
                return
            self._press(d, WireSide(d.turn))
            d.turn = "b" if d.turn == "a" else "a"
        player = d.players[d.turn]
        d.next_at = self.time() + self.models[player].think_ns(self.rng)

    def _press(self, d: DuelAtTable, side: Any) -> None:
        """A player presses; wait until the daemon has journaled it and the clock has its ACK."""
        assert self.daemon.engine is not None
        before = self.daemon.engine.current.tables[d.table].presses
        d.sim.press(side)
        deadline = time.monotonic() + 10
        while self.daemon.engine.current.tables[d.table].presses == before or d.sim.pending:
            if time.monotonic() > deadline:
                raise DemoError("cli.demo.press-not-journaled", table=d.table)
            time.sleep(0.0002)

    def _advance_to(self, target: int) -> None:
        now = self.time()
        if target <= now:
            return
        if self.speed > 0:
            due_real = self.real_start + (target - self.start_ns) / 1e9 / self.speed
            pause = due_real - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        self.time.advance(target - now)
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(timeout=10)  # a flag due at this instant is decided …
        self.daemon.engine.barrier().result(timeout=10)  # … and the duel it ended is recorded

    # -- reporting --------------------------------------------------------------------------------
    def _report(self, m: Any) -> None:
        if m.id in self.printed or m.score is None:
            return
        self.printed.add(m.id)
        how = {
            "time": i18n.text("cli.demo.more-time"),
            "flag": i18n.text("cli.demo.flag"),
            "tie": i18n.text("cli.demo.same-time-tie-break"),
        }
        assert m.a is not None and m.b is not None
        a, b = self.names[m.a], self.names[m.b]
        score = m.score
        if m.status == "tiebreak":
            verdict = how["tie"]
        else:
            winner = m.a if score.remaining_ms.a > score.remaining_ms.b else m.b
            kind = "flag" if score.decided_by == "flag" else "time"
            verdict = f"{self.names[winner]} ({how[kind]})"
        self.say(f"{m.id:9s} {a} {score.displayed.a} | {score.displayed.b} {b}  → {verdict}")

    def _round_summaries(self, session: Any) -> None:
        from clockd import i18n
        from clockd.i18n import text

        roots = [m for m in session.bracket.matches if m.tiebreak_of is None]
        for r in sorted({m.round for m in roots}):
            if r in self.rounds_done:
                continue
            ms = [m for m in roots if m.round == r]
            if not all(m.status == "decided" for m in ms):
                return
            self.rounds_done.add(r)
            self.say(f"== {self._round_name(session, r)} ==")
            for m in sorted(ms, key=lambda m: m.slot):
                a = (
                    self.names.get(m.a, i18n.text("cli.demo.bye"))
                    if m.a is not None
                    else i18n.text("cli.demo.bye")
                )
                b = (
                    self.names.get(m.b, i18n.text("cli.demo.bye"))
                    if m.b is not None
                    else i18n.text("cli.demo.bye")
                )
                w = self.names.get(m.winner, "?") if m.winner is not None else "?"
                how = text(f"term.decided-by.{m.decided_by}") if m.decided_by else "?"
                print(f"   {m.id:6s} {a:>16s} – {b:<16s} → {w} ({how})", flush=True)

    def _finish(self, json_out: Path | None) -> int:
        from clockd.i18n import render
        from clockd.reports.results import check_results

        session = self.status()
        self._round_summaries(session)
        results = self.results()
        first, second, third = [*results.podium, None, None, None][:3]
        print(i18n.text("cli.demo.podium"), flush=True)
        for place, pid in ((1, first), (2, second), (3, third)):
            title = f" — {i18n.text('cli.demo.duel-champion')}" if place == 1 else ""
            print(f"  {place}. {self.names.get(pid, '—') if pid is not None else '—'}{title}", flush=True)
        if json_out is not None:
            json_out.write_text(results.model_dump_json(indent=2), encoding="utf-8")
            print(i18n.text("cli.demo.results", json_out=json_out), flush=True)
        problems = check_results(results)
        duels = [m for m in results.matches if m.remaining_ms is not None]
        tiebreaks = sum(1 for m in results.matches if m.tiebreak_of is not None)
        if problems:
            print(i18n.text("cli.demo.results-check-failed"), file=sys.stderr)
            for p in problems:
                print(f"  {render(p)}", file=sys.stderr)
            return 1
        elapsed = (self.time() - self.start_ns) // SECOND
        real = time.monotonic() - self.real_start
        print(
            i18n.text(
                "cli.demo.results-check-ok-duels-tie-breaks",
                value=len(duels),
                tiebreaks=tiebreaks,
                value2=elapsed // 60,
                value3=elapsed % 60,
                real=real,
            ),
            flush=True,
        )
        return 0

    # -- helpers ------------------------------------------------------------------------------------
    def act(self, action: Any, match: str | None = None) -> Any:
        """Do ``action`` on the session (or its ``match``); the session as the daemon shows it after."""
        done = self.client.act(SESSION if match is None else f"{SESSION}/{match}", action)
        return done.event.body if done.event is not None else self.status()

    def status(self) -> Any:
        """The session as the daemon shows it; asked again only when its state has changed.

        Why: the demo looks at the session after every press, and most presses change only a
        clock; asking the daemon each time was most of the demo's (and its tests') time."""
        hosted = self._hosted()
        if hosted is None or hosted is not self._seen[0]:
            self._seen = (hosted, self.client.events([SESSION]).events[0].body)
        return self._seen[1]

    def _hosted(self) -> Any:
        """The session's committed state object (immutable: the same object, the same state)."""
        engine = self.daemon.engine if self.daemon is not None else None
        events = engine.current.views.get("events") if engine is not None else None
        return events.events.get(SESSION) if events is not None else None

    def results(self) -> Any:
        from clockd.api.messages import EventResults, EventResultsReply
        from clockd.i18n import language
        from clockd.reports.results import Results

        reply = self.client.request(EventResults(event=SESSION, lang=language()))
        assert isinstance(reply, EventResultsReply)
        return Results.model_validate(reply.results)

    def _match(self, session: Any, match_id: str) -> Any:
        return next(m for m in session.bracket.matches if m.id == match_id)

    def _round_name(self, session: Any, number: int) -> str:
        from clockd.i18n import render

        return next((render(r.name) for r in session.bracket.rounds if r.number == number), str(number))

    def say(self, text: str) -> None:
        elapsed = (self.time() - self.start_ns) // SECOND if hasattr(self, "start_ns") else 0
        print(f"[{elapsed // 3600}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}] {text}", flush=True)
