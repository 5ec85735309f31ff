"""A built-in state of a festival afternoon, so the screens can be seen (and screenshot) with no daemon.

``duelclock gui --demo-state`` shows it; ``--screenshot`` renders it for ``docs/screenshots``.
Two events run at once, as they would on one desk:

* **a Puzzle Duel session in its quarter-finals** (``pt``): round I decided (one match
  through a tie-break), one quarter-final confirmed, one waiting for the referee to
  confirm, two on the clocks — one of them recovered after a daemon restart — and a spare
  table whose clock is unplugged;
* **the pairs relay** (``relay``), a hall timer 22 minutes into its hour with "ZMIANA"
  every 5 minutes, on three station tables, one pair already finished.

Nothing here decides what may be done: the session is folded by the core's own rules
(:class:`~clockd.core.puzzle_duel.PuzzleSession`, the festival's configuration), the relay is
the core's :class:`~clockd.core.hall.HallEvent`, the tables' programs are the core's, and every
``actions`` the screens show is what those say — what a daemon in this state would send.
Names carry Polish diacritics on purpose, and every player has private data (surname,
e-mail, phone, age) that a public screen must never show.
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from clockd.api.puzzle import bracket_view
from clockd.api.switcher import switcher_body
from clockd.api.zone import zone_body
from clockd.core.actions import Allowed
from clockd.core.bracket import Assign, Confirm, DuelFinished, Toss
from clockd.core.clock import Pause, PerSide, Side
from clockd.core.device import DeviceState
from clockd.core.display import format_clock, quantize
from clockd.core.duel import Complete, DuelDecidedBy, PuzzleDuelProgram, Verdict
from clockd.core.hall import HallEvent, TimerStart, timer_view
from clockd.core.hall import Station as StationProgram
from clockd.core.program import ChessClock
from clockd.core.puzzle_duel import MakeDraw, PuzzleSession
from clockd.core.registration import AddPlayer, CheckIn, CloseCheckIn
from clockd.core.switcher import SwitcherConfig, SwitcherEvent
from clockd.core.timecontrol import TimeControl
from clockd.core.units import MINUTE, MS, SECOND
from clockd.core.zone import ZoneConfig, ZoneEvent, ZoneKind
from clockd.data import festival_config
from clockd.i18n import Msg, msg
from gui.adapter import bracket_from_view, hall_from_switcher, hall_from_zone
from gui.demochess import demo_chess
from gui.hallconfig import hall_config
from gui.model import (
    Alert,
    Clock,
    DeskState,
    Event,
    Hall,
    Player,
    Session,
    Station,
    Table,
    TimelineItem,
    texts,
)

#: The demo daemon's hall name (what every id is qualified with).
HALL = "desk"
SESSION = f"{HALL}/pt"
RELAY = f"{HALL}/relay"

#: First name, surname — in bracket-line order.
_PEOPLE = [
    ("Zofia", "Łukasiewicz"),
    ("Michał", "Żółtowski"),
    ("Agnieszka", "Ślęzak"),
    ("Paweł", "Kąkol"),
    ("Jędrzej", "Nowak"),
    ("Łucja", "Wróbel"),
    ("Grzegorz", "Brzęczyszczykiewicz"),
    ("Małgorzata", "Dąbrowska"),
    ("Stanisław", "Źrebiec"),
    ("Ewa", "Chmielewska"),
    ("Bartłomiej", "Kołodziej"),
    ("Anna", "Kowalska"),
    ("Tomasz", "Szczęsny"),
    ("Katarzyna", "Wójcik"),
    ("Piotr", "Gęsiak"),
    ("Helena", "Mściwój"),
]

_RESERVES = [("Oskar", "Fąfara"), ("Iga", "Pęcherz")]

_ASCII = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")

#: Round I: (winner, clock side a's time, side b's, how) per slot; side a is the match's first entrant.
_ROUND1 = [
    (1, "3:42", "1:15", "time"),
    (4, "0:00", "2:07", "flag"),
    (5, "2:31", "0:58", "time"),
    (8, "1:09", "1:44", "time"),
    (9, "4:02", "3:11", "time"),
    (11, "1:23", "1:23", "tie"),  # decided by its tie-break
    (13, "2:50", "0:19", "time"),
    (16, "0:47", "1:36", "time"),
]


def _ns(text: str) -> int:
    minutes, seconds = text.split(":")
    return (int(minutes) * 60 + int(seconds)) * SECOND


def _verdict(a: str, b: str, how: str, moves: tuple[int, int] = (48, 49)) -> Verdict:
    """What a duel's clock decided (in clock sides): times left, and how."""
    ra, rb = _ns(a), _ns(b)
    if how == "flag":
        winner, decided = (Side.B if ra == 0 else Side.A), DuelDecidedBy.FLAG
    elif how == "tie":
        winner, decided = None, DuelDecidedBy.TIE
    else:
        winner, decided = (Side.A if ra > rb else Side.B), DuelDecidedBy.TIME
    return Verdict(
        winner=winner,
        decided_by=decided,
        remaining_ns=PerSide[int](a=ra, b=rb),
        displayed=PerSide[str](a=format_clock(ra), b=format_clock(rb)),
        moves=PerSide[int](a=moves[0], b=moves[1]),
        ended_at_ns=10**12,
        resolution_ns=SECOND,
        steps=PerSide[int](a=quantize(ra), b=quantize(rb)),
    )


def demo_session() -> PuzzleSession:
    """The session, folded from its inputs by the core (as the daemon replays its journal)."""
    s = PuzzleSession.new(festival_config(), "pt")
    for pid, (first, last) in enumerate([*_PEOPLE, *_RESERVES], start=1):
        user = f"{first}.{last}".lower().translate(_ASCII)
        add = AddPlayer(
            first_name=first,
            last_name=last,
            email=f"{user}@example.pl",
            phone=f"+48 600 {100 + pid:03d} {200 + 3 * pid:03d}",
            age=14 + (pid * 7) % 40,
        )
        s = s.apply(add, person_id=f"PDEMO{pid:08d}")
    for pid in range(1, len(_PEOPLE) + 1):
        s = s.apply(CheckIn(player=pid))
    s = s.apply(CloseCheckIn())
    s = s.apply(MakeDraw(lines={line: line for line in range(1, len(_PEOPLE) + 1)}))

    def played(mid: str, table: int, clock_a: int, toss: int, verdict: Verdict | None, confirm: bool) -> None:
        nonlocal s
        s = s.apply(Assign(table=table, clock_a=clock_a), match=mid)
        s = s.apply(Toss(winner=toss), match=mid)
        if verdict is not None:
            s = s.apply(DuelFinished(verdict=verdict), match=mid)
        if confirm:
            s = s.apply(Confirm(), match=mid)

    for slot, (_winner, sa, sb, how) in enumerate(_ROUND1, start=1):
        a, b = 2 * slot - 1, 2 * slot
        table = (slot - 1) % 4 + 1
        played(f"R1-{slot}", table, a, a if slot % 2 else b, _verdict(sa, sb, how), confirm=how != "tie")
    played("R1-6-TB1", 2, 11, 12, _verdict("0:48", "0:31", "time", moves=(24, 24)), confirm=True)
    played("R2-1", 1, 1, 4, _verdict("2:18", "0:54", "time", moves=(49, 49)), confirm=True)
    played("R2-2", 2, 8, 5, _verdict("1:27", "1:02", "time", moves=(49, 50)), confirm=False)
    played("R2-3", 3, 9, 11, None, confirm=False)
    played("R2-4", 4, 16, 13, None, confirm=False)
    return s


# -- the session as the screens hold it -------------------------------------------------------------


def session_of(s: PuzzleSession) -> Session:
    """The core's session as the referee's screens hold it — private data included, as only the
    demo has it (the daemon's API carries display names only)."""
    reg = s.registration
    field = set(reg.field or ())
    players: dict[int, Player] = {}
    order: dict[str, int] = {}
    for pid, p in reg.players.items():
        order[p.list.value] = order.get(p.list.value, 0) + 1
        presence = "present" if pid in reg.present else "absent" if reg.closed else "expected"
        person = p.person
        players[pid] = Player(
            id=pid,
            display_name=p.display_name,
            full_name=person.full_name,
            email=person.email,
            phone=person.phone,
            age=person.age,
            list=p.list.value,
            order=order[p.list.value],
            presence=presence,
            in_field=pid in field,
            actions=reg.player_allowed(pid),
        )
    bracket = None if s.bracket is None else bracket_from_view(bracket_view(s.bracket))
    return Session(tournament=s.config.name, stage=s.stage, players=players, bracket=bracket)


def _session_title(s: PuzzleSession) -> Msg:
    for cfg in s.config.sessions:
        if cfg.key == s.key:
            return cfg.title()
    return msg("text.as-typed", text=s.key)


# -- the tables --------------------------------------------------------------------------------------


def _table_actions(allowed: Allowed, alerts: int, table: int) -> Allowed:
    """A table's actions as the daemon sends them: its program's, and its own (a note, the alerts)."""
    out = dict(allowed)
    out["note"] = None
    out["clear-alert"] = None if alerts else msg("table.no-alerts", table=table)
    return out


def _duel(mid: str, control: str, toss_winner: Side, now_ns: int, *, phase: str) -> PuzzleDuelProgram:
    """A duel program in ``phase`` (its rules say what may be done: the faces are drawn from the figures)."""
    program = PuzzleDuelProgram.after_toss(
        f"{SESSION}/{mid}", TimeControl.parse(control), SECOND, toss_winner
    )
    t = now_ns - MINUTE
    started, _ = program.press(toss_winner.other, t)  # the toss loser starts the winner's time
    assert isinstance(started, PuzzleDuelProgram)
    if phase == "paused":
        return started.act(Pause(t_ns=t + SECOND))  # type: ignore[return-value]
    if phase == "over":
        return started.act(Complete(t_ns=t + SECOND))  # type: ignore[return-value]
    return started


def _clock(control: str, phase: str, a_ms: int, b_ms: int, **kw: object) -> Clock:
    return Clock.model_validate(
        {"control": control, "phase": phase, "remaining_ms": {"a": a_ms, "b": b_ms}, **kw}
    )


def demo_tables(now_ns: int) -> dict[int, Table]:
    """Tables 1–8 as they stand at ``now_ns``: the session's on 1–5, the relay's stations on 6–8."""
    own_15 = ChessClock.fresh(TimeControl.parse("15m"))
    own_4 = ChessClock.fresh(TimeControl.parse("4m"))
    r22 = _duel("R2-2", "10m", Side.B, now_ns, phase="over")
    r23 = _duel("R2-3", "10m", Side.B, now_ns, phase="running")
    r24 = _duel("R2-4", "10m", Side.B, now_ns, phase="running")
    recovered = Alert(id=7, text=msg("alert.recovered-running", since_last_input_ms=4_000, side="A"))
    out = {
        1: Table(
            table=1,
            program="clock",
            clock=_clock("15m", "ready", 15 * 60_000, 15 * 60_000),
            device=DeviceState.CONNECTED,
            actions=_table_actions(own_15.allowed(now_ns), 0, 1),
            seq=412,
        ),
        2: Table(
            table=2,
            program="puzzle-duel",
            owner=r22.owner,
            clock=_clock("10m", "paused", 86_020, 61_412, moves={"a": 49, "b": 50}),
            toss_winner=Side.B,
            over=True,
            presses=101,
            device=DeviceState.CONNECTED,
            actions=_table_actions(r22.allowed(now_ns), 0, 2),
            seq=655,
        ),
        3: Table(
            table=3,
            program="puzzle-duel",
            owner=r23.owner,
            clock=_clock(
                "10m",
                "running",
                263_480,
                317_905,
                running="b",
                to_move="b",
                moves={"a": 21, "b": 21},
                ignored={"a": 1, "b": 0},
            ),
            toss_winner=Side.B,
            presses=44,
            device=DeviceState.CONNECTED,
            actions=_table_actions(r23.allowed(now_ns), 0, 3),
            seq=701,
        ),
        4: Table(
            table=4,
            program="puzzle-duel",
            owner=r24.owner,
            clock=_clock(
                "10m", "running", 38_200, 94_610, running="a", to_move="a", moves={"a": 36, "b": 35}
            ),
            toss_winner=Side.B,
            presses=72,
            device=DeviceState.CONNECTED,
            alerts=(recovered,),
            actions=_table_actions(r24.allowed(now_ns), 1, 4),
            seq=699,
        ),
        5: Table(
            table=5,
            program="clock",
            clock=_clock("4m", "ready", 4 * 60_000, 4 * 60_000),
            device=DeviceState.DISCONNECTED,
            device_detail=msg(
                "driver.serial.port-went-away", path="/dev/ttyACM4", exc=Msg("oserror.no-such-device")
            ),
            actions=_table_actions(own_4.allowed(now_ns), 0, 5),
            seq=12,
        ),
    }
    relay = demo_relay(now_ns)
    for entry, table in relay.config.stations.items():
        done = entry in relay.finishes
        station = StationProgram(owner=f"{RELAY}/{entry}", entry=entry, armed=True, finished=done)
        out[table] = Table(
            table=table,
            program="station",
            owner=f"{RELAY}/{entry}",
            entry=entry,
            armed=True,
            finished=done,
            presses=1 if done else 0,
            device=DeviceState.CONNECTED,
            actions=_table_actions(station.allowed(now_ns), 0, table),
            seq=800 + table,
        )
    zones = (
        ("sztafeta", demo_zone_relay(now_ns)),
        ("ciemno", demo_zone_blind(now_ns)),
        ("druzynowy", demo_zone_team(now_ns)),
    )
    for key, zone in zones:
        for entry, table in zone.stations.items():
            done = zone.record(entry).finish_ns is not None
            armed = zone.timer.phase.value in ("running", "paused")
            owner = f"{HALL}/{key}/{entry}"
            station = StationProgram(owner=owner, entry=entry, armed=armed, finished=done)
            out[table] = Table(
                table=table,
                program="station",
                owner=owner,
                entry=entry,
                armed=armed,
                finished=done,
                presses=1 if done else 0,
                device=DeviceState.CONNECTED,
                actions=_table_actions(station.allowed(now_ns), 0, table),
                seq=800 + table,
            )
    return {
        n: t.model_copy(update={"id": f"{HALL}/{n}", "label": str(n), "received_ns": now_ns})
        for n, t in out.items()
    }


# -- the relay ---------------------------------------------------------------------------------------

#: How long the relay has run when the demo is shown, and when "Para 2" finished.
RELAY_ELAPSED_NS = 22 * MINUTE + 41 * SECOND
PARA2_FINISH_NS = 21 * MINUTE + 7 * SECOND + 412 * MS


def demo_relay(now_ns: int) -> HallEvent:
    """The pairs relay, its hour started ``RELAY_ELAPSED_NS`` ago, signalled every 5 minutes so far."""
    config = hall_config(
        name="Sztafeta par",
        duration_min=60,
        every_min=5,
        stations={"Para 1 — Ala i Ola": 6, "Para 2 — Kuba i Igor": 7, "Para 3 — Ewa i Jan": 8},
    )
    event = HallEvent.new(config)
    t0 = now_ns - RELAY_ELAPSED_NS
    timer = event.timer.apply(TimerStart(t_ns=t0))
    for minute in (5, 10, 15, 20):
        timer = timer.fire(minute * MINUTE)
    event = event.model_copy(update={"timer": timer})
    return event.finish("Para 2 — Kuba i Igor", t0 + PARA2_FINISH_NS)


def _relay_event(now_ns: int) -> Event:
    relay = demo_relay(now_ns)
    hall = Hall(
        timer=timer_view(relay.timer, now_ns),
        stations=tuple(
            Station(entry=e, table=t, finished_ms=relay.finishes[e] // MS if e in relay.finishes else None)
            for e, t in sorted(relay.config.stations.items(), key=lambda kv: kv[1])
        ),
        signal_tables=relay.config.signal_tables(),
        pattern=relay.timer.plan.pattern.value,
        received_ns=now_ns,
    )
    return Event(
        id=RELAY,
        key="relay",
        kind="timer",
        title=msg("text.as-typed", text=relay.config.name),
        actions=relay.allowed(now_ns),
        seq=903,
        hall=hall,
    )


# -- the zone's contests: the relay, blind puzzling, the team event, the S(witcher) rotation ----------

#: The pairs and teams of the zone's demo events (fictional, public names only).
PAIRS = [
    "Ala K. i Ola W.",
    "Kuba N. i Igor L.",
    "Ewa M. i Jan S.",
    "Zosia P. i Tomek R.",
    "Hania B. i Filip D.",
    "Lena G. i Bartek Z.",
    "Maja C. i Szymon J.",
    "Iga T. i Marek K.",
]
TEAMS = ["Smoki", "Wiedźmini", "Elfy", "Krasnoludy", "Gryfy", "Feniksy"]
ROTATION_NAMES = [
    "Ala",
    "Ola",
    "Kuba",
    "Igor",
    "Ewa",
    "Jan",
    "Zosia",
    "Tomek",
    "Hania",
    "Filip",
    "Lena",
    "Bartek",
    "Maja",
    "Szymon",
    "Iga",
    "Marek",
    "Nina",
    "Piotr",
    "Julia",
    "Michał",
    "Kasia",
    "Adam",
    "Ula",
    "Wojtek",
    "Ela",
    "Staś",
]


def _zone_event(key: str, kind: str, event: ZoneEvent, now_ns: int, seq: int) -> Event:
    body = zone_body(event, now_ns)
    return Event(
        id=f"{HALL}/{key}",
        key=key,
        kind=kind,
        title=msg("text.as-typed", text=event.config.name),
        actions=event.allowed(now_ns),
        seq=seq,
        hall=hall_from_zone(body, now_ns),
    )


def _zone(
    kind: ZoneKind, name: str, entries: list[str], minutes: int, every: int | None, first_table: int
) -> ZoneEvent:
    config = ZoneConfig(
        name=name,
        duration=minutes * MINUTE,
        signal_every=None if every is None else every * MINUTE,
        stations={
            f"{'druzyna' if kind == 'team' else 'para'}-{i}": first_table + i - 1
            for i in range(1, len(entries) + 1)
        },
        names={f"{'druzyna' if kind == 'team' else 'para'}-{i}": n for i, n in enumerate(entries, start=1)},
        pieces=1000 if kind == "team" else 200,
        pictures=2 if kind == "relay" else 1,
    )
    return ZoneEvent.new(kind, config)


def demo_zone_relay(now_ns: int) -> ZoneEvent:
    """The pairs relay 42 minutes in: three pairs done (two by their buttons), ZMIANA every 5 minutes."""
    ev = _zone("relay", "Puzzlowa Sztafeta Par", PAIRS, 60, 5, 11)
    t0 = now_ns - (42 * MINUTE + 13 * SECOND)
    ev = ev.apply_timer(TimerStart(t_ns=t0))
    for minute in range(5, 45, 5):
        ev = ev.fire(minute * MINUTE)
    ev = ev.finish("para-3", t0 + 36 * MINUTE + 48 * SECOND + 250 * MS)
    ev = ev.finish("para-6", t0 + 39 * MINUTE + 2 * SECOND + 750 * MS)
    return ev.finish("para-1", t0 + 41 * MINUTE + 30 * SECOND)


def demo_zone_blind(now_ns: int) -> ZoneEvent:
    """Blind puzzling 34 minutes in: four bags 2 verified, one pair done."""
    ev = _zone("blind", "Puzzlowanie w Ciemno", PAIRS[:6], 60, None, 21)
    t0 = now_ns - 34 * MINUTE
    ev = ev.apply_timer(TimerStart(t_ns=t0))
    for entry, minute in (("para-2", 14), ("para-5", 17), ("para-1", 19), ("para-4", 23)):
        ev = ev.split(entry, t0 + minute * MINUTE + 11 * SECOND)
    return ev.finish("para-2", t0 + 31 * MINUTE + 4 * SECOND + 500 * MS)


def demo_zone_team(now_ns: int) -> ZoneEvent:
    """The team event after its 180 minutes: a tie broken by missing pieces, a void, two counted."""
    ev = _zone("team", "Puzzlowy Turniej Drużynowy", TEAMS, 180, None, 31)
    t0 = now_ns - 181 * MINUTE
    ev = ev.apply_timer(TimerStart(t_ns=t0))
    ev = ev.finish("druzyna-2", t0 + 151 * MINUTE + 20 * SECOND, missing=1)
    ev = ev.finish("druzyna-5", t0 + 151 * MINUTE + 20 * SECOND, missing=3)
    ev = ev.finish("druzyna-1", t0 + 166 * MINUTE + 5 * SECOND)
    ev = ev.finish("druzyna-4", t0 + 170 * MINUTE, missing=12)
    ev = ev.end(t0 + 180 * MINUTE)
    return ev.count("druzyna-3", 874).count("druzyna-6", 702)


def demo_switcher(now_ns: int) -> SwitcherEvent:
    """The rotation after three changes: one person replaced, two tables done."""
    seats = {i: n for i, n in enumerate(ROTATION_NAMES, start=1)}
    config = SwitcherConfig(name="Puzzlowy S(witcher)", signal_every=15 * MINUTE, seats=seats, pieces=500)
    ev = SwitcherEvent.new(config)
    t0 = now_ns - 52 * MINUTE
    ev = ev.apply_timer(TimerStart(t_ns=t0))
    for minute in (15, 30, 45):
        ev = ev.fire(minute * MINUTE)
    ev = ev.replace(9, "Wiktor", t0 + 38 * MINUTE, reason="Hania musiała wyjść")
    ev = ev.table_done(4, t0 + 47 * MINUTE)
    return ev.table_done(11, t0 + 50 * MINUTE)


def _switcher_event(now_ns: int) -> Event:
    ev = demo_switcher(now_ns)
    return Event(
        id=f"{HALL}/switcher",
        key="switcher",
        kind="switcher",
        title=msg("text.as-typed", text=ev.config.name),
        actions=ev.allowed(now_ns),
        seq=960,
        hall=hall_from_switcher(switcher_body(ev, now_ns), now_ns),
    )


# -- timelines ---------------------------------------------------------------------------------------


def _action(seq: int, kind: str, t_ms: int, target: str, by: str = "Ola", **fields: object) -> TimelineItem:
    """An action's journal entry as a timeline shows it (the action's fields under ``action``)."""
    return TimelineItem(
        seq=seq,
        kind=kind,
        t_ms=t_ms,
        data={"target": target, "by": by, "source": "referee", "action": {"kind": kind, **fields}},
    )


def demo_timeline() -> tuple[TimelineItem, ...]:
    """Table 3's quarter-final so far: the duel loaded, the toss, presses, a pause for a lost piece."""
    t0 = 1_000_000
    match = f"{SESSION}/R2-3"
    program = {"kind": "puzzle-duel", "owner": match}
    items = [
        _action(559, "match-assign", t0, match, table=3, clock_a=9),
        TimelineItem(seq=560, kind="program", t_ms=t0, data={"program": program, "by": "Ola"}),
        _action(561, "match-toss", t0 + 41_000, match, winner=11),
        TimelineItem(seq=562, kind="program", t_ms=t0 + 41_000, data={"program": program, "by": "Ola"}),
        TimelineItem(seq=563, kind="press", t_ms=t0 + 45_310, data={"side": "a", "outcome": "started"}),
    ]
    t = t0 + 45_310
    seq = 564
    side = "b"
    for i in range(42):
        t += 4_000 + (i * 3_717) % 9_000
        items.append(TimelineItem(seq=seq, kind="press", t_ms=t, data={"side": side, "outcome": "applied"}))
        seq += 1
        side = "a" if side == "b" else "b"
        if i == 17:
            items.append(
                TimelineItem(
                    seq=seq, kind="press", t_ms=t + 300, data={"side": "a", "outcome": "ignored-not-running"}
                )
            )
            seq += 1
        if i == 30:
            target = f"{HALL}/3"
            items.append(_action(seq, "pause", t + 2_000, target, reason="zgubiony element"))
            items.append(_action(seq + 1, "resume", t + 95_000, target, reason=""))
            items.append(
                _action(seq + 2, "adjust", t + 96_000, target, side="b", delta_ms=10_000,
                        reason="czas na szukanie elementu")
            )  # fmt: skip
            seq += 3
            t += 96_000
    return tuple(items)


def demo_station_timeline() -> tuple[TimelineItem, ...]:
    """Table 7, the relay's "Para 2": its station loaded, armed at the start, the pair's press."""
    t0 = 5_000_000
    station = {"kind": "station", "owner": f"{RELAY}/Para 2 — Kuba i Igor", "entry": "Para 2 — Kuba i Igor"}
    return (
        TimelineItem(
            seq=880, kind="program", t_ms=t0 - 60_000, data={"program": {**station, "armed": False}}
        ),
        TimelineItem(seq=902, kind="program", t_ms=t0, data={"program": {**station, "armed": True}}),
        TimelineItem(
            seq=908,
            kind="press",
            t_ms=t0 + PARA2_FINISH_NS // MS,
            data={
                "side": "b",
                "outcome": "finished",
                "device_id": "GPIO-7",
                "device_t_ns": 5_000_000_000_412,
            },
        ),
    )


def demo_relay_timeline() -> tuple[TimelineItem, ...]:
    """The relay's own entries: its start, the signals so far, a pair's finish by its button."""
    t0 = 5_000_000
    items = [_action(900, "timer-start", t0, RELAY)]
    for i, minute in enumerate((5, 10, 15, 20)):
        offset = minute * MINUTE
        items.append(
            TimelineItem(
                seq=904 + i,
                kind="timer-due",
                t_ms=t0 + offset // MS,
                data={"what": "signal", "offset_ns": offset, "pattern": "change"},
            )
        )
    finish = {
        "target": RELAY,
        "by": "GPIO-7",
        "source": "button",
        "action": {"entry": "Para 2 — Kuba i Igor"},
    }
    items.append(TimelineItem(seq=909, kind="entry-finish", t_ms=t0 + PARA2_FINISH_NS // MS, data=finish))
    return tuple(sorted(items, key=lambda i: i.seq))


# -- the whole desk ----------------------------------------------------------------------------------


def demo_state(now_ns: int, *, shown: str | None = None) -> DeskState:
    """The whole demo desk, with running clocks as they stand at ``now_ns``; ``shown``: the event
    on screen (``pt``, ``relay`` — a bare hall timer —, the zone's ``sztafeta``, ``ciemno``,
    ``druzynowy``, ``switcher``, the chess day's ``szachy`` (:mod:`gui.demochess`); default the
    session)."""
    s = demo_session()
    session = Event(
        id=SESSION,
        key="pt",
        kind="puzzle-duel",
        title=_session_title(s),
        actions=s.allowed(),
        seq=902,
        session=session_of(s),
    )
    relay = _relay_event(now_ns)
    events = {SESSION: session, RELAY: relay}
    for zone in (
        _zone_event("sztafeta", "relay", demo_zone_relay(now_ns), now_ns, 940),
        _zone_event("ciemno", "blind", demo_zone_blind(now_ns), now_ns, 945),
        _zone_event("druzynowy", "team", demo_zone_team(now_ns), now_ns, 950),
        _switcher_event(now_ns),
    ):
        events[zone.id] = zone
    events.update(demo_chess(datetime.datetime.now(ZoneInfo("Europe/Warsaw"))))
    chosen = next((e.id for e in events.values() if shown in (e.id, e.key)), None)
    return DeskState(
        events=events,
        shown=chosen or SESSION,
        chosen=chosen is not None,
        tables=demo_tables(now_ns),
        timelines={3: demo_timeline(), 7: demo_station_timeline()},
        event_timelines={"relay": demo_relay_timeline()},
        connection="demo",
    )


def demo_players() -> dict[int, Player]:
    """The session's players (with their private data, as only the demo has it)."""
    session = session_of(demo_session()).players
    return dict(session)


__all__ = ["HALL", "RELAY", "SESSION", "demo_players", "demo_session", "demo_state", "texts"]
