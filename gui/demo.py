"""A built-in mid-tournament state, so the screens can be seen (and screenshot) with no daemon.

``duelclock gui --demo-state`` shows it; ``--screenshot`` renders it for ``docs/screenshots``.
It is a Puzzle Duel session in its quarter-finals: round I decided (one match through a
tie-break), one quarter-final confirmed, one waiting for the referee to confirm, two on
the clocks — one of them recovered after a daemon restart — and a spare table whose
clock is unplugged. Names carry Polish diacritics on purpose, and every player has
private data (surname, e-mail, phone) that a public screen must never show.
"""

from __future__ import annotations

from gui.model import (
    Alert,
    Bracket,
    DeskState,
    Match,
    Pair,
    Player,
    Round,
    Score,
    Side,
    Table,
    Texts,
    TimelineItem,
)

#: First name, surname, e-mail user, phone — in bracket-line order.
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


def _player(pid: int, first: str, last: str, *, kind: str = "main", order: int = 0) -> Player:
    user = f"{first}.{last}".lower().translate(_ASCII)
    return Player(
        id=pid,
        display_name=f"{first} {last[0]}.",
        full_name=f"{first} {last}",
        email=f"{user}@example.pl",
        phone=f"+48 600 {100 + pid:03d} {200 + 3 * pid:03d}",
        age=14 + (pid * 7) % 40,
        list=kind,
        order=order or pid,
        presence="present" if kind == "main" else "expected",
        in_field=kind == "main",
    )


def _score(a: str, b: str, *, decided_by: str = "time", moves: tuple[int, int] = (48, 49)) -> Score:
    def ms(text: str) -> int:
        minutes, seconds = text.split(":")
        return (int(minutes) * 60 + int(seconds)) * 1000

    return Score(
        displayed=Texts(a=a, b=b),
        remaining_ms=Pair(a=ms(a), b=ms(b)),
        moves=Pair(a=moves[0], b=moves[1]),
        decided_by=decided_by,
    )


ROUNDS = (
    Round(number=1, name="I runda — Eliminacje", kind="knockout", players=16, pieces=99, time_control="10m"),
    Round(number=2, name="II runda — Ćwierćfinał", kind="knockout", players=8, pieces=99, time_control="10m"),
    Round(number=3, name="III runda — Półfinał", kind="knockout", players=4, pieces=200, time_control="15m"),
    Round(
        number=4,
        name="IV runda — O 3. miejsce",
        kind="third_place",
        players=2,
        pieces=200,
        time_control="15m",
    ),
    Round(number=5, name="V runda — Finał", kind="final", players=2, pieces=200, time_control="15m"),
)


def demo_bracket() -> Bracket:
    m: dict[str, Match] = {}

    def put(match: Match) -> None:
        m[match.id] = match

    # Round I: all decided; (winner, score a, score b, how)
    round1 = [
        (1, "3:42", "1:15", "time"),
        (4, "0:00", "2:07", "flag"),
        (5, "2:31", "0:58", "time"),
        (8, "1:09", "1:44", "time"),
        (9, "4:02", "3:11", "time"),
        (11, "1:23", "1:23", "tie"),  # decided by its tie-break
        (13, "2:50", "0:19", "time"),
        (16, "0:47", "1:36", "time"),
    ]
    for slot, (winner, sa, sb, how) in enumerate(round1, start=1):
        a, b = 2 * slot - 1, 2 * slot
        put(
            Match(
                id=f"R1-{slot}",
                round=1,
                slot=slot,
                a=a,
                b=b,
                status="decided",
                table=(slot - 1) % 4 + 1,
                clock_a=a,
                toss_winner=a if slot % 2 else b,
                score=_score(sa, sb, decided_by=how),
                winner=winner,
                decided_by="tiebreak" if how == "tie" else how,
                tiebreaks=("R1-6-TB1",) if how == "tie" else (),
            )
        )
    put(
        Match(
            id="R1-6-TB1",
            round=1,
            slot=6,
            a=11,
            b=12,
            status="decided",
            table=2,
            clock_a=11,
            toss_winner=12,
            score=_score("0:48", "0:31", moves=(24, 24)),
            winner=11,
            decided_by="time",
            tiebreak_of="R1-6",
        )
    )
    # Quarter-finals
    put(
        Match(
            id="R2-1",
            round=2,
            slot=1,
            a=1,
            b=4,
            status="decided",
            table=1,
            clock_a=1,
            toss_winner=4,
            score=_score("2:18", "0:54", moves=(49, 49)),
            winner=1,
            decided_by="time",
        )
    )
    put(
        Match(
            id="R2-2",
            round=2,
            slot=2,
            a=5,
            b=8,
            status="result",
            table=2,
            clock_a=8,
            toss_winner=5,
            score=_score("1:02", "1:27", moves=(50, 49)),
            winner=8,
        )
    )
    put(Match(id="R2-3", round=2, slot=3, a=9, b=11, status="assigned", table=3, clock_a=9, toss_winner=11))
    put(Match(id="R2-4", round=2, slot=4, a=13, b=16, status="assigned", table=4, clock_a=16, toss_winner=13))
    # Semi-finals, 3rd place, final
    put(Match(id="R3-1", round=3, slot=1, a=1, status="waiting"))
    put(Match(id="R3-2", round=3, slot=2, status="waiting"))
    put(Match(id="R4-1", round=4, slot=1, status="waiting"))
    put(Match(id="R5-1", round=5, slot=1, status="waiting"))
    return Bracket(rounds=ROUNDS, matches=m)


def demo_tables(now_ns: int) -> dict[int, Table]:
    """Tables 1–5 as they stand at ``now_ns``: two clocks running, one done, one idle, one unplugged."""
    return {
        1: Table(
            table=1,
            label="Stolik 1",
            control="15m",
            phase="ready",
            remaining_ms=Pair(a=15 * 60_000, b=15 * 60_000),
            device="connected",
            seq=412,
            received_ns=now_ns,
        ),
        2: Table(
            table=2,
            label="Stolik 2",
            control="10m",
            phase="paused",
            remaining_ms=Pair(a=61_412, b=86_020),
            to_move=Side.A,
            moves=Pair(a=50, b=49),
            presses=101,
            device="connected",
            seq=655,
            received_ns=now_ns,
        ),
        3: Table(
            table=3,
            label="Stolik 3",
            control="10m",
            phase="running",
            remaining_ms=Pair(a=263_480, b=317_905),
            running=Side.B,
            to_move=Side.B,
            moves=Pair(a=21, b=21),
            ignored=Pair(a=1, b=0),
            presses=44,
            device="connected",
            seq=701,
            received_ns=now_ns,
        ),
        4: Table(
            table=4,
            label="Stolik 4",
            control="10m",
            phase="running",
            remaining_ms=Pair(a=38_200, b=94_610),
            running=Side.A,
            to_move=Side.A,
            moves=Pair(a=36, b=35),
            presses=72,
            device="connected",
            alerts=(
                Alert(
                    id=7,
                    code="recovered-running",
                    message="The daemon stopped while this clock was running and restarted 0:04 after "
                    "the last recorded input; side A was charged for the time since.",
                ),
            ),
            seq=699,
            received_ns=now_ns,
        ),
        5: Table(
            table=5,
            label="Stolik 5",
            control="4m",
            phase="ready",
            remaining_ms=Pair(a=4 * 60_000, b=4 * 60_000),
            device="disconnected",
            device_detail="/dev/ttyACM4: no reply since 14:21",
            seq=12,
            received_ns=now_ns,
        ),
    }


def demo_timeline() -> tuple[TimelineItem, ...]:
    """Table 3's quarter-final so far: the clock set, the toss, presses, a pause for a lost piece."""
    t0 = 1_000_000
    items = [
        TimelineItem(
            seq=560, kind="clock-set", t_ms=t0, data={"control": "10m", "by": "Ola", "reason": "R2-3"}
        ),
        TimelineItem(
            seq=561, kind="note", t_ms=t0 + 41_000, data={"text": "Rzut: wygrywa Bartłomiej K.", "by": "Ola"}
        ),
        TimelineItem(seq=562, kind="press", t_ms=t0 + 45_310, data={"side": "a", "outcome": "started"}),
    ]
    t = t0 + 45_310
    seq = 563
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
            items.append(
                TimelineItem(
                    seq=seq, kind="pause", t_ms=t + 2_000, data={"by": "Ola", "reason": "zgubiony element"}
                )
            )
            items.append(
                TimelineItem(seq=seq + 1, kind="resume", t_ms=t + 95_000, data={"by": "Ola", "reason": ""})
            )
            items.append(
                TimelineItem(
                    seq=seq + 2,
                    kind="adjust",
                    t_ms=t + 96_000,
                    data={
                        "side": "b",
                        "delta_ms": 10_000,
                        "by": "Ola",
                        "reason": "czas na szukanie elementu",
                    },
                )
            )
            seq += 3
            t += 96_000
    return tuple(items)


def demo_players() -> dict[int, Player]:
    players = {i: _player(i, f, s) for i, (f, s) in enumerate(_PEOPLE, start=1)}
    for k, (f, s) in enumerate(_RESERVES, start=1):
        pid = 100 + k
        players[pid] = _player(pid, f, s, kind="reserve", order=k)
    return players


def demo_state(now_ns: int) -> DeskState:
    """The whole demo desk, with running clocks as they stand at ``now_ns``."""
    return DeskState(
        title="Puzzlowy Pojedynek",
        session="Piątek 19.06, 15:00–17:30",
        stage="bracket",
        players=demo_players(),
        bracket=demo_bracket(),
        tables=demo_tables(now_ns),
        timelines={3: demo_timeline()},
        connection="demo",
    )
