"""``duelclock demo --event chess``: a whole school chess day on the real daemon.

Everything real but the people: the daemon (journal, engine, API server) runs in this process on
a temporary database and the arbiters — this program — run the day through the API as the desk
does. The day is the regulations' (§H): 20 groups (preschool, grades 1–8, secondary; boys and
girls), about 1000 players, 8 rounds of 10 minutes a player. Four boards of the first group have
clocks: **GPIO tables on gpiozero's mock pins** read by the real GPIO driver; their players press
them move after move, and now and then a flag falls and proposes a result that the arbiter
confirms. The other boards' results are typed as an arbiter types them, one keystroke each:
wins, draws, forfeits, a few games nobody reports (0–0 when the round closes), two illegal-move
claims (the second loses), round-1 absentees (withdrawn before round 2, unless they reported).

Time is simulated (:class:`hw_sim.simtime.SimTime`): each round takes its 30 planned minutes in
an instant. At the end the program checks what the chief arbiter would: each group's exported
TRF re-pairs identically (``duelclock swiss check``) and its standings are the standings
``duelclock swiss standings`` computes from that file.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from clockd import i18n
from hw_sim.names import BOYS, GIRLS, SCHOOLS, SURNAMES

T0 = 1_000_000_000_000
MS = 1_000_000
SECOND = 1_000 * MS
MINUTE = 60 * SECOND

#: The clocked boards' pins on the simulated Pi: button a (White), button b (Black), buzzer.
PINS = [(17, 27, 22), (5, 6, 13), (19, 26, 21), (20, 16, 12)]


class ChessDemoError(i18n.Problem, RuntimeError):
    """The demo cannot go on, or what it checks at the end does not hold."""


def demo_day(rng: random.Random, players: int, rounds: int) -> Any:
    """The day file of a school chess day: 20 groups, ``players`` in all, FIDE start order."""
    from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level
    from clockd.core.swiss.startlist import polish_key

    levels: list[tuple[str, Level, int | None]] = [("przedszkole", Level.PRESCHOOL, None)]
    levels += [(f"sp{g}", Level.PRIMARY, g) for g in range(1, 9)]
    levels += [("ponadpodst", Level.SECONDARY, None)]
    shapes = [(key, level, grade, sex) for key, level, grade in levels for sex in ("m", "w")]
    weights = [rng.uniform(0.6, 1.4) for _ in shapes]
    sizes = [max(6, round(players * w / sum(weights))) for w in weights]
    sizes[0] += players - sum(sizes)
    groups = []
    for (key, level, grade, sex), size in zip(shapes, sizes, strict=True):
        people = []
        names = [(f, s) for f in (BOYS if sex == "m" else GIRLS) for s in SURNAMES]  # 600: none twice
        for i, (first, (masc, fem)) in enumerate(rng.sample(names, size)):
            rating = rng.randrange(1000, 1900) if rng.random() < 0.3 else None
            people.append((rating, masc if sex == "m" else fem, first, i))
        people.sort(key=lambda p: (p[0] is None, -(p[0] or 0), polish_key(p[1]), polish_key(p[2])))
        entrants = tuple(
            Entrant(
                start=n,
                surname=surname,
                first_name=first,
                sex=sex,
                rating=rating,
                school=rng.choice(SCHOOLS),
                school_class=f"{grade}{'abcd'[i % 4]}" if grade else "",
                medal=rng.random() < 0.4,
            )
            for n, (rating, surname, first, i) in enumerate(people, start=1)
        )
        suffix = "ch" if sex == "m" else "dz"
        group = Group(key=f"{key}-{suffix}", level=level, grade=grade, sex=sex, entrants=entrants)
        groups.append(group)
    return ChessDay(title="Szkolny Turniej Szachowy (demo)", rounds=rounds, minutes=10, groups=tuple(groups))


class ChessDemo:
    def __init__(self, *, db: Path, seed: int, players: int, rounds: int, out: Path | None) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.players = players
        self.rounds = rounds
        self.out = out
        self.counts = {"results": 0, "zero": 0, "forfeits": 0, "flags": 0, "claims": 0, "withdrawn": 0}

    def run(self) -> int:
        from clockd.api.client import Client
        from clockd.devices.gpio import GpioTable
        from clockd.devices.gpio_config import TableConfig
        from clockd.service.runtime import Daemon, TableSpec
        from hw_sim.gpio import ScriptedFactory
        from hw_sim.simtime import SimTime

        self.time = SimTime(source=lambda: T0)
        self.pi = ScriptedFactory()
        daemon = Daemon(
            self.db,
            tables=[TableSpec(t, f"Szachownica {t}") for t in range(1, len(PINS) + 1)],
            port=0,
            boot_id="duelclock-demo",
            clock=self.time,
            write_daemon_info=False,
        )
        for t, (a, b, buzzer) in enumerate(PINS, start=1):
            config = TableConfig(number=t, button_a=a, button_b=b, buzzer=buzzer)
            daemon.add_device(t, GpioTable(config, pin_factory=self.pi, clock=self.time))
        try:
            started = daemon.start()
            self.daemon = daemon
            self.client: Any = Client(started.host, started.port, started.token, by="Sędzia (demo)")
            self.real_start = time.monotonic()
            self._prepare()
            for _ in range(self.rounds):
                self._round()
            return self._finish()
        finally:
            if hasattr(self, "client"):
                self.client.close()
            daemon.stop()

    # -- the day ----------------------------------------------------------------------------------
    def _prepare(self) -> None:
        from clockd.kinds.chess.cli_day import import_day

        day = demo_day(self.rng, self.players, self.rounds)
        self.say(
            i18n.text(
                "cli.demo-chess.day", groups=len(day.groups), players=sum(len(g.entrants) for g in day.groups)
            )
        )
        import_day(self.client, day, clocks={b: b for b in range(1, len(PINS) + 1)}, say=lambda s: None)

    def _round(self) -> None:
        from clockd.core.chessday.group import ClaimIllegalMove, CloseRound, EnterResult, ReportPresent
        from clockd.kinds.chess.cli_day import groups_of, pair_groups

        groups = groups_of(self.client)
        number = groups[0].body.round + 1
        if number == 2:  # a few of round 1's absentees reported to their arbiter before round 2
            for g in groups:
                for p in g.body.to_withdraw:
                    if self.rng.random() < 0.3:
                        self.client.act(g.key, ReportPresent(player=p.start))
                    else:
                        self.counts["withdrawn"] += 1
        started = time.monotonic()
        paired, failed = pair_groups(self.client, [g for g in groups if g.actions.get("chess-pair") is None])
        if failed:
            key, reason = failed[0]
            raise ChessDemoError("cli.demo-chess.not-paired", key=key, reason=reason)
        seconds = time.monotonic() - started
        self.say(
            i18n.text("cli.demo-chess.paired", round=number, groups=len(paired), seconds=f"{seconds:.1f}")
        )
        round_start = self.time()
        groups = groups_of(self.client)
        clocked = [b for g in groups for b in g.body.boards if b.table is not None]
        self._play_clocks(clocked)
        claimed = False
        for g in groups:
            for b in g.body.boards:
                if b.table is not None:
                    continue
                r = self.rng.random()
                if number == 1 and r < 0.03:
                    key = "+" if self.rng.random() < 0.5 else "-"  # a player did not come
                    self.counts["forfeits"] += 1
                elif r < 0.015:
                    continue  # nobody reports the result: 0–0 when the round closes
                elif not claimed and r < 0.1:
                    claimed = True  # two illegal moves by Black, correctly claimed: the second loses
                    self.client.act(g.key, ClaimIllegalMove(board=b.board, player=b.black.start))
                    done = self.client.act(g.key, ClaimIllegalMove(board=b.board, player=b.black.start))
                    proposal = next(x for x in done.event.body.boards if x.board == b.board).proposal
                    self.client.act(g.key, EnterResult(board=b.board, result=proposal))
                    self.counts["claims"] += 2
                    self.counts["results"] += 1
                    continue
                else:
                    key = self.rng.choices("10=", weights=(42, 36, 22))[0]
                self.client.act(g.key, EnterResult(board=b.board, result=key))
                self.counts["results"] += 1
        self.time.advance(max(0, round_start + 30 * MINUTE - self.time()))
        for g in groups_of(self.client):
            done = self.client.act(g.key, CloseRound())
            self.counts["zero"] += len(done.event.body.closed_with_zero)
        self.say(i18n.text("cli.demo-chess.closed", round=number))

    def _play_clocks(self, boards: list[Any]) -> None:
        """The clocked boards: moves pressed on the real GPIO driver, a flag now and then."""
        from clockd.core.chessday.group import EnterResult
        from clockd.kinds.chess.cli_day import groups_of

        if not boards:
            return
        flags = {b.board for b in boards if self.rng.random() < 0.35}
        # Black presses first (White's clock starts), then every move presses the mover's side.
        moves = {b.board: 0 for b in boards}
        for b in boards:
            self._press(b.table, "b")
        for _ in range(40):
            self.time.advance(self.rng.randrange(5, 20) * SECOND)
            for b in boards:
                if b.board in flags and moves[b.board] > 20:
                    continue  # this player thinks… and the flag falls
                side = "a" if moves[b.board] % 2 == 0 else "b"
                self._press(b.table, side)
                moves[b.board] += 1
        self.time.advance(11 * MINUTE)  # the flags of the boards that stopped have fallen
        self._settle()
        self._settle()
        by_board = {x.board: (g.key, x) for g in groups_of(self.client) for x in g.body.boards}
        for b in boards:
            key, now = by_board[b.board]
            if now.proposal is not None:
                self.client.act(
                    key, EnterResult(board=b.board, result=now.proposal)
                )  # confirmed with one key
                self.counts["flags"] += 1
            else:
                self.client.act(key, EnterResult(board=b.board, result=self.rng.choice("10=")))
            self.counts["results"] += 1

    def _press(self, table: int, side: str) -> None:
        a, b, _ = PINS[table - 1]
        pin = self.pi.scripted_pin(a if side == "a" else b)
        pin.drive_at(0, self.time())
        self._settle()
        self.time.advance(80 * MS)
        pin.drive_at(1, self.time())
        self._settle()

    def _settle(self) -> None:
        assert self.daemon.engine is not None
        self.daemon.engine.barrier().result(timeout=30)
        self.daemon.engine.barrier().result(timeout=30)

    # -- the end: what the chief arbiter checks ----------------------------------------------------
    def _finish(self) -> int:
        import tempfile

        from clockd.api.messages import EventResults
        from clockd.i18n import language, render
        from clockd.kinds.chess.cli_day import groups_of

        out = self.out or Path(tempfile.mkdtemp(prefix="duelclock-chess-"))
        out.mkdir(parents=True, exist_ok=True)
        problems = 0
        groups = groups_of(self.client)
        for g in groups:
            reply: Any = self.client.request(EventResults(event=g.key, lang=language()))
            path = out / f"{g.key}.trf"
            path.write_text(reply.results["trf"], encoding="utf-8")
            checked, theirs = _swiss_commands(path, g.key)
            ours = [(row.rank, row.player.start) for row in g.body.standings]
            if checked != 0 or ours != theirs:
                problems += 1
                self.say(i18n.text("cli.demo-chess.mismatch", key=g.key))
            top = g.body.standings[:3]
            podium = ", ".join(f"{row.rank}. {row.player.name} ({row.player.points})" for row in top)
            self.say(f"{render(g.title)}: {podium}")
        self.say(i18n.text("cli.demo-chess.summary", **self.counts))
        self.say(i18n.text("cli.demo-chess.checked", path=str(out), groups=len(groups), problems=problems))
        return 1 if problems else 0

    def say(self, line: str) -> None:
        print(line, flush=True)


def _swiss_commands(path: Path, key: str) -> tuple[int, list[tuple[int, int]]]:
    """What ``duelclock swiss check FILE`` answers (its exit status: 0 = every round identical) and
    the standings ``duelclock swiss standings FILE --lots KEY --format json`` prints, run as the
    chief arbiter runs them (in this process, their output read)."""
    import contextlib
    import io
    import json

    from clockd.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        checked = main(["swiss", "check", str(path)])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["swiss", "standings", str(path), "--lots", key, "--format", "json"])
    rows = json.loads(out.getvalue())
    return checked, [(row["rank"], row["start_number"]) for row in rows]


__all__ = ["ChessDemo", "ChessDemoError", "demo_day"]
