# ruff: noqa: E501  (the sign-up forms are the files as exported: one row a line)
"""The rehearsed day, as a referee runs it: a list of steps, each a few commands of the README.

A :class:`Step` has a name, an action (the referee's commands through the real ``duelclock``
command line, the players' presses on the tables' serial clocks, time passing) and the day
state it leaves, in one line. After every step the rehearsal reads every surface
(:mod:`tests.rehearsal.surfaces`). A later feature adds its steps where they belong in the day
(:data:`SHORT`, :data:`WHOLE`); docs/rehearsal.md lists what the day covers and leaves out.

An action raises :class:`~tests.rehearsal.day.StepFailed` when a command the referee relies on
does not do what the README says; the rehearsal then records it (the test fails) and goes on
with the day, so that one run names everything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clockd.core.units import SECOND
from tests.rehearsal.day import Day, StepFailed


@dataclass(frozen=True)
class Step:
    name: str
    act: Callable[[Day], None]
    leaves: str


def expect(condition: object, what: str) -> None:
    if not condition:
        raise StepFailed(what)


# -- the files the referee has (written by the step that needs them) --------------------------------

DUEL_FORM = """Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Numer telefonu;Wiek
""" + "".join(
    f"2026/06/06 12:{i:02d}:00;{first};{last};duel{i}@example.pl;600 200 {i:03d};{20 + i}\n"
    for i, (first, last) in enumerate(
        [
            ("Anna", "Kowalska"), ("Jan", "Nowakowski"), ("Ewa", "Wiśniewska"), ("Piotr", "Wójcicki"),
            ("Kasia", "Kamińska"), ("Tomek", "Lewandowski"), ("Ola", "Zielińska"), ("Michał", "Szymański"),
            ("Zofia", "Woźniak"), ("Adam", "Dąbrowski"), ("Maria", "Kozłowska"), ("Paweł", "Jankowski"),
            ("Hanna", "Mazurkiewicz"), ("Kuba", "Krawczyk"), ("Lena", "Piotrowska"), ("Igor", "Grabowski"),
            ("Nina", "Pawłowska"), ("Bartek", "Michalski"), ("Iga", "Zając"), ("Marek", "Król"),
        ]
    )
)  # fmt: skip
SATURDAY_FORM = (
    DUEL_FORM.replace("duel", "sobota")
    .replace("600 200", "600 300")
    .replace("Anna;Kowalska", "Agata;Kalinowska")
)
WALK_IN = ("Ola", "Przybyszewska")  # Friday's walk-in, typed in at the desk (§1.19)

RELAY_FORM = """Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Wiek;Nazwa pary
2026/06/06 12:00:01;Alicja;Sztafetowa;s1@example.pl;21;Smoki
2026/06/06 12:00:02;Bogdan;Przekaźnik;s2@example.pl;22;Smoki
2026/06/06 12:00:03;Celina;Zmianowa;s3@example.pl;23;Elfy
2026/06/06 12:00:04;Dawid;Pałeczka;s4@example.pl;24;Elfy
2026/06/06 12:00:05;Edyta;Biegowa;s5@example.pl;25;Gryfy
2026/06/06 12:00:06;Filip;Metowy;s6@example.pl;26;Gryfy
"""
RELAY_CONFIG = """duration = "60m"
signal_every = "5m"
max_entries = 4
pieces = 200
pictures = 2
signups_open = "2026-06-06 12:00"
"""

TEAM_FORM = """Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Wiek;Nazwa drużyny
2026/06/06 12:00:01;Gosia;Drużynowa;t1@example.pl;41;Układacze z Wrocławia
2026/06/06 12:00:02;Henryk;Kompletny;t2@example.pl;42;Układacze z Wrocławia
2026/06/06 12:00:03;Irena;Brzegowa;t3@example.pl;16;Układacze z Wrocławia
2026/06/06 12:00:04;Jacek;Narożny;t4@example.pl;31;Kostki
2026/06/06 12:00:05;Kinga;Środkowa;t5@example.pl;32;Kostki
2026/06/06 12:00:06;Leon;Obrazkowy;t6@example.pl;33;Kostki
"""

#: The chess group's children (a long name among them), and their schools.
CHILDREN = [
    ("Aleksander Konstanty Brzęczyszczykiewicz-Wierzbicki", "Szkoła Podstawowa nr 12 im. Marii Skłodowskiej-Curie w Katowicach"),
    ("Bruno Adamczyk", "SP 12 Katowice"), ("Cyprian Borkowski", "SP 3 Chorzów"),
    ("Dominik Cieślak", "SP 12 Katowice"), ("Emil Duda", "SP 5 Sosnowiec"),
    ("Feliks Erdmann", "SP 3 Chorzów"), ("Gustaw Fijałkowski", "SP 12 Katowice"),
    ("Henryk Gajewski", "SP 5 Sosnowiec"), ("Ignacy Hołownia", "SP 3 Chorzów"),
    ("Julian Iwański", "SP 5 Sosnowiec"), ("Karol Jabłoński", "SP 12 Katowice"),
    ("Leon Kaczmarek", "SP 3 Chorzów"),
]  # fmt: skip
CHESS_FORM = """Sygnatura czasowa,Imię i nazwisko zawodnika,Płeć,Klasa (rok szkolny 2026/2027),Szkoła / przedszkole,Data urodzenia,Ranking,Medal pamiątkowy (+20 zł),Adres e-mail opiekuna,Telefon opiekuna,Wyrażam zgodę na przetwarzanie danych osobowych (RODO)
""" + "".join(
    f"01.09.2026 10:{i:02d}:00,{name},Chłopiec,3{'abc'[i % 3]},{school},2018-0{1 + i % 9}-1{i % 10},,Nie,"
    f"opiekun{i}@example.pl,6011000{i:02d},Tak\n"
    for i, (name, school) in enumerate(CHILDREN)
)  # fmt: skip
CHESS_BANK = """Wyciąg z rachunku;FUNDACJA 64 POLA
Rachunek;12 3456 7890 0000 0000 1234 5678
Okres;01.09.2026 - 30.09.2026

Data operacji;Data księgowania;Nadawca;Tytuł;Kwota;Waluta
""" + "".join(
    f"0{2 + i % 7}.09.2026;0{2 + i % 7}.09.2026;RODZIC {i};{name} wpisowe;30,00;PLN\n"
    for i, (name, _school) in enumerate(CHILDREN)
)  # fmt: skip


def _private_of_form(form: str, columns: tuple[int, ...], sep: str = ";") -> set[str]:
    out = set()
    for row in form.strip().splitlines()[1:]:
        cells = row.split(sep)
        out |= {cells[c].strip() for c in columns if c < len(cells) and cells[c].strip()}
    return out


# -- the Puzzle Duel, as the referee plays it -------------------------------------------------------


def session(day: Day, key: str) -> Any:
    return day.event(key).body


def player_no(day: Day, key: str, name: str) -> int:
    for p in session(day, key).players:
        if p.name.startswith(name):
            return int(p.id)
    raise StepFailed(f"{key}: no player {name!r}")


def play_duel(
    day: Day, key: str, match: Any, table: int, *, seconds: tuple[int, int], early: bool = False
) -> None:
    """Assign, toss, the players press (the toss loser starts), the picture is complete, confirm."""
    m = match.id
    day.ok("tournament", "assign", "-s", key, m, str(table))
    day.hall.values[f"{key}/{m}"] = table
    if early:
        day.press(table, "a")  # an eager player presses before the toss: ignored, and on the timeline
    day.ok("tournament", "toss", "-s", key, m, "--winner", str(match.a))
    m_now = next(x for x in session(day, key).bracket.matches if x.id == m)
    winner_side = "a" if m_now.clock_a == match.a else "b"
    loser_side = "b" if winner_side == "a" else "a"
    day.press(table, loser_side)  # the toss loser's press starts the winner's time
    think = {winner_side: seconds[0], loser_side: seconds[1]}
    side = winner_side
    for _ in range(4):
        day.advance(think[side] * SECOND)
        day.press(table, side)
        side = loser_side if side == winner_side else winner_side
    day.advance(think[side] * SECOND)
    day.ok("tournament", "complete", "-s", key, m)
    day.ok("tournament", "confirm", "-s", key, m)


def play_round(day: Day, key: str, tables: list[int], *, only: int | None = None) -> None:
    """Every match of the session ready to play, on the given tables in turn (``only``: the first N)."""
    ready = [m for m in session(day, key).bracket.matches if m.status == "ready" and m.a and m.b]
    expect(ready, f"{key}: no match is ready to play")
    for i, match in enumerate(ready[:only] if only else ready):
        play_duel(
            day, key, match, tables[i % len(tables)], seconds=(5, 9 + i % 3), early=i == 0
        )  # never a tie


def play_session(day: Day, key: str, tables: list[int]) -> None:
    for _ in range(8):
        body = session(day, key)
        if body.stage == "finished":
            return
        play_round(day, key, tables)
    expect(session(day, key).stage == "finished", f"{key}: the session has no podium after its rounds")


# -- Friday ------------------------------------------------------------------------------------------


def friday_signups(day: Day) -> None:
    day.hall.private |= _private_of_form(DUEL_FORM, (2, 3, 4)) | _private_of_form(SATURDAY_FORM, (2, 3, 4))
    day.hall.private.add(WALK_IN[1])
    day.ok("tournament", "new", "pt")
    day.ok("tournament", "import", day.file("zapisy-pt.csv", DUEL_FORM))


def friday_checkin(day: Day) -> None:
    """14 of the main list came, the first reserve came, a walk-in waits at the desk; close."""
    main = [p for p in session(day, "pt").players if p.list == "main"]
    reserve = [p for p in session(day, "pt").players if p.list == "reserve"]
    day.ok("tournament", "checkin", *[str(p.id) for p in main[:14]], str(reserve[0].id))
    day.ok("tournament", "add", "--first", WALK_IN[0], "--last", WALK_IN[1], "--age", "30", "--walk-in")
    closed = day.ok("tournament", "close")
    body = session(day, "pt")
    field = [p for p in body.players if getattr(p, "in_field", None) or p.present]
    walk_in = next((p for p in body.players if p.name.startswith(WALK_IN[0] + " " + WALK_IN[1][0])), None)
    expect(walk_in is not None, "the walk-in is not among the session's players")
    expect(
        WALK_IN[0] in closed.out,
        f"`tournament close` does not say the walk-in took a seat: {closed.out.strip()}",
    )
    expect(len(field) >= 16, f"after `close` the session has {len(field)} players, not 16")


def friday_draw(day: Day) -> None:
    day.ok("tournament", "draw", "--seed", "2026")
    r1 = [m for m in session(day, "pt").bracket.matches if m.round == 1]
    byes = [m for m in r1 if m.bye]
    expect(not byes, f"the draw has {len(byes)} bye(s): a walk-in's seat was given away")


def friday_round_1(day: Day) -> None:
    play_round(day, "pt", list(range(1, 9)))


def dispute_after_confirmation(day: Day) -> None:
    """A player disputes a round-1 duel, already confirmed: the table's timeline, replayed, gives the daemon's result."""
    first = min(k for k in day.hall.values if k.startswith("pt/R1-"))  # the first duel played
    mid = first.split("/")[1]
    m = next(x for x in session(day, "pt").bracket.matches if x.id == mid)
    timeline = day.ok("table", str(day.hall.values[first]), "timeline", "--json")
    f = day.file(f"spor-{mid}.json", timeline.out)
    replay = day.ok("duel", "replay", f, "--match", mid)
    got = json.loads(replay.out)
    expect(m.score is not None and m.winner is not None, f"{mid} has no result to dispute")
    swapped = m.clock_a is not None and m.clock_a != m.a  # the replay speaks of the clock's sides
    clock_sides = {"a": m.b, "b": m.a} if swapped else {"a": m.a, "b": m.b}
    expect(
        clock_sides.get(got.get("winner")) == m.winner,
        f"the replay's winner is side {got.get('winner')}, the daemon's player {m.winner}",
    )
    daemon_times = m.score.displayed.model_dump()
    if swapped:
        daemon_times = {"a": daemon_times["b"], "b": daemon_times["a"]}
    expect(
        got.get("displayed") == daemon_times,
        f"the replay's times {got.get('displayed')} are not the daemon's {daemon_times}",
    )


def friday_to_the_podium(day: Day) -> None:
    play_session(day, "pt", list(range(1, 9)))


# -- the zone, on the same tables -----------------------------------------------------------------


def relay_signups(day: Day) -> None:
    day.hall.private |= _private_of_form(RELAY_FORM, (2, 3))
    day.ok("event", "new", "sztafeta", "--kind", "relay", "--config", day.file("sztafeta.toml", RELAY_CONFIG))
    day.ok("event", "import", "sztafeta", day.file("zapisy-sztafeta.csv", RELAY_FORM))
    day.ok("event", "checkin", "sztafeta", "para-1", "para-2")
    day.ok("event", "add", "sztafeta", "sala-1", "--name", "Ala i Ola")  # a pair waiting in the hall (§1.19)
    closed = day.ok("event", "close", "sztafeta")
    entries = [e.entry for e in day.event("sztafeta").body.entries]
    expect(
        "sala-1" in entries,
        f"the walk-in pair lost its place at `close` (entries: {entries}; {closed.out.strip()})",
    )


def relay_tables(day: Day) -> None:
    """The pairs sit at tables 6–8, which Friday's session has just given back."""
    entries = [e.entry for e in day.event("sztafeta").body.entries]
    for entry, table in zip(entries, (6, 7, 8), strict=False):
        day.ok("event", "table", "sztafeta", entry, str(table))
    day.ok("event", "start", "sztafeta")


def relay_hour(day: Day) -> None:
    """ZMIANA every 5 minutes; pair 1 finishes with its table's button, the time runs out."""
    day.minutes(12)
    entries = {e.entry: e for e in day.event("sztafeta").body.entries}
    table = getattr(entries.get("para-1"), "table", None) or 6
    day.hall.values["relay-button"] = table
    day.minutes(30)
    day.press(table, "a")  # the pair's "finished" button at its table
    day.minutes(20)
    body = day.event("sztafeta").body
    expect(body.timer.phase == "ended", f"the relay's hour is over but its timer is {body.timer.phase}")


def relay_counts_and_confirm(day: Day) -> None:
    entries = [e.entry for e in day.event("sztafeta").body.entries]
    unfinished = [e for e in entries if e != "para-1"]
    over = day.cli("event", "count", "sztafeta", unfinished[0], "450")  # 2 × 200 pieces: 450 is no count
    expect(
        over.code != 0 and "(400)" in over.text,
        f"`event count … 450` on a 2×200-piece relay: {over.code}, {over.text.strip()}",
    )
    for i, entry in enumerate(unfinished):
        day.ok("event", "count", "sztafeta", entry, str(312 - 20 * i))
    # every action as the daemon describes it: a finish can be taken back only from the pair that
    # finished (the daemon's picks), whatever the referee types
    listed = day.ok("event", "do", "sztafeta")
    expect("zone-confirm" in listed.text, f"`event do sztafeta` lists no confirmation: {listed.text.strip()}")
    picks = day.event("sztafeta").picks.get("entry-unfinish", {}).get("entry", ())
    expect([p.value for p in picks] == ["para-1"], f"entry-unfinish offers {[p.value for p in picks]}")
    wrong = day.cli("event", "do", "sztafeta", "entry-unfinish", "--entry", unfinished[0], "--reason", "x")
    expect(
        wrong.code == 2 and "para-1" in wrong.text,
        f"taking back a finish that never was: {wrong.code}, {wrong.text.strip()[-300:]}",
    )
    day.ok("event", "confirm", "sztafeta")


def team_event(day: Day) -> None:
    """The team event takes tables 6–7 after the relay; one team finishes with 3 missing pieces."""
    day.hall.private |= _private_of_form(TEAM_FORM, (2, 3))
    day.ok("event", "new", "druzynowy", "--kind", "team")
    day.ok("event", "import", "druzynowy", day.file("zapisy-druzynowy.csv", TEAM_FORM))
    entries = [e.entry for e in day.event("druzynowy").body.entries]
    day.ok("event", "checkin", "druzynowy", *entries)
    day.ok("event", "close", "druzynowy")
    for entry, table in zip(entries, (6, 7), strict=False):
        day.ok("event", "table", "druzynowy", entry, str(table))
    day.ok("event", "start", "druzynowy")
    day.minutes(150)
    day.ok("event", "finish", "druzynowy", entries[0])
    day.ok("event", "missing", "druzynowy", entries[0], "3")
    day.minutes(31)
    over = day.cli("event", "count", "druzynowy", entries[1], "1200")  # a 1000-piece puzzle
    expect(
        over.code != 0 and "(1000)" in over.text,
        f"`event count … 1200` on a 1000-piece puzzle: {over.code}, {over.text.strip()}",
    )
    day.ok("event", "count", "druzynowy", entries[1], "870")
    day.ok("event", "confirm", "druzynowy")


def blind_event(day: Day) -> None:
    day.ok("event", "new", "ciemno", "--kind", "blind")
    day.ok("event", "add", "ciemno", "para-1", "--name", "Basia i Kuba", "--table", "3")
    day.ok("event", "add", "ciemno", "para-2", "--name", "Ela i Olek", "--table", "4")
    day.ok("event", "start", "ciemno")
    day.minutes(20)
    day.ok("event", "split", "ciemno", "para-1")
    day.minutes(15)
    day.press(3, "a")  # para-1's button: finished
    day.minutes(10)
    day.ok("event", "finish", "ciemno", "para-2")
    day.ok("event", "confirm", "ciemno")


def switcher(day: Day) -> None:
    day.ok("event", "new", "switcher", "--kind", "switcher")
    names = ["Ania K.", "Bartek W.", "Celina M.", "Darek P.", "Ewa S.", "Franek L."]
    for seat, name in enumerate(names, start=1):
        day.ok("event", "seat", "switcher", str(seat), name)
    day.ok("event", "start", "switcher")
    day.minutes(16)
    day.ok("event", "replace", "switcher", "3", "Gosia R.")
    day.minutes(15)
    for t in range(1, 14):
        day.ok("event", "done", "switcher", str(t))
    shown = day.ok("event", "show", "switcher")
    expect("Ania K." in shown.out, "`event show switcher` does not list who stayed from start to end")
    day.ok(
        "event",
        "export",
        "switcher",
        "--html",
        day.folder / "switcher.html",
        "--pdf",
        day.folder / "switcher.pdf",
    )


def person_erased(day: Day) -> None:
    """A Friday player asks to be erased (RODO art. 17): their results stay, anonymised."""
    found = day.ok("person", "find", "Kowalska", "--json", "--reason", "wniosek RODO")
    rows = json.loads(found.out)["people"]
    expect(rows, f"`person find Kowalska` found nobody: {found.out[:200]}")
    pid = rows[0]["person_id"]
    day.ok("person", "erase", str(pid), "--reason", "wniosek RODO, art. 17")
    day.hall.erased |= {"Anna K.", "Kowalska", "duel0@example.pl"}


# -- Saturday -----------------------------------------------------------------------------------


def saturday_session(day: Day) -> None:
    """Saturday's session takes every table, 8 of which Friday's events held."""
    day.ok("tournament", "new", "sb")
    day.ok("tournament", "import", "-s", "sb", day.file("zapisy-sb.csv", SATURDAY_FORM))
    main = [p for p in session(day, "sb").players if p.list == "main"]
    day.ok("tournament", "checkin", "-s", "sb", *[str(p.id) for p in main])
    day.ok("tournament", "close", "-s", "sb")
    day.ok("tournament", "draw", "-s", "sb", "--seed", "7")


def saturday_round_1(day: Day) -> None:
    """The first duel is sent to table 8, whose clock then misbehaves: the referee frees the
    table by hand, with a reason, and sends the duel to table 1; then the rest of the round."""
    first = next(m for m in session(day, "sb").bracket.matches if m.status == "ready")
    day.ok("tournament", "assign", "-s", "sb", first.id, "8")
    held = day.ok("table", "8")
    expect(f"sb/{first.id}" in held.out, f"`table 8` does not say who holds it: {held.out.strip()}")
    day.ok("table", "8", "free", "--reason", "zamiana stolików: zegar 8 nie działa")
    freed = day.ok("table", "8")
    expect(
        "wolny" in freed.out, f"`table 8` after `table 8 free` does not say it is free: {freed.out.strip()}"
    )
    play_duel(day, "sb", first, 1, seconds=(6, 8))  # the duel moves to table 1
    play_round(day, "sb", [*range(2, 9), 1])


def saturday_to_the_podium(day: Day) -> None:
    play_session(day, "sb", list(range(1, 9)))


# -- the chess group --------------------------------------------------------------------------------

GROUP = "sp3-ch"
CHESS_CLOCK = (1, 1)  # board 1 has a clock: table 1's, free since Saturday's round 1


def chess_import(day: Day) -> None:
    n = len(CHILDREN)
    day.hall.private |= {f"opiekun{i}@example.pl" for i in range(n)}
    day.hall.private |= {f"6011000{i:02d}" for i in range(n)}
    day.hall.private |= {f"2018-0{1 + i % 9}-1{i % 10}" for i in range(n)}
    form, bank = day.file("formularz.csv", CHESS_FORM), day.file("wyciag.csv", CHESS_BANK)
    day_file = day.folder / "dzien.json"
    day.ok("chess", "groups", form, bank, "-o", day_file)
    day.hall.files["chess-day"] = day_file
    day.ok("chess", "import", day_file, "--clock", f"{CHESS_CLOCK[0]}={CHESS_CLOCK[1]}")
    keys = [e.key for e in day.events() if e.kind == "chess"]
    expect(GROUP in keys, f"the day file made the groups {keys}, not {GROUP}")
    journal = (day.folder / "dzien.db").read_bytes()
    held = sorted(e for e in day.hall.private if e.startswith("opiekun") and e.encode() in journal)
    expect(not held, f"the journal holds the parents' e-mails (not the vault): {held[:3]}")


def chess_results(day: Day, *, white_wins: bool = True) -> list[int]:
    boards = [b.board for b in day.event(GROUP).body.boards]
    for i, board in enumerate(boards):
        day.ok("chess", "result", str(board), "1" if (i % 2 == 0) == white_wins else "=")
    return boards


def chess_round_1(day: Day) -> None:
    day.ok("chess", "pair", GROUP)
    chess_results(day)
    day.ok("chess", "close", GROUP)


def chess_round_2(day: Day) -> None:
    """A result misreported and corrected, in the open round and after its close; a player
    withdraws before round 3."""
    day.ok("chess", "pair", GROUP)
    boards = chess_results(day)
    day.ok("chess", "result", str(boards[0]), "0", "--replace")  # the arbiter corrects a misreported result
    day.ok("chess", "close", GROUP)
    day.ok(
        "chess", "result", str(boards[1]), "1", "--replace", "--reason", "zapis na blankiecie: wygrały białe"
    )
    day.ok("chess", "withdraw", GROUP, "9", "--reason", "wyjechał na zawody")


def chess_round_3(day: Day) -> None:
    """Board 1's game (with a clock, on table 1) still runs when the round is closed: the
    arbiter closes it only when told to stop the clock (the game gets 0–0)."""
    day.ok("chess", "pair", GROUP)
    boards = [b.board for b in day.event(GROUP).body.boards]
    clocked = CHESS_CLOCK[0]
    for i, board in enumerate(boards):
        if board != clocked:
            day.ok("chess", "result", str(board), "=" if i % 2 else "0")
    day.press(CHESS_CLOCK[1], "b")  # Black starts White's clock
    day.advance(90 * SECOND)
    running = day.cli("chess", "close", GROUP)
    expect(
        running.code != 0 and "--stop-clocks" in running.text,
        f"`chess close` with a clock running: {running.text.strip()}",
    )
    day.ok("chess", "close", GROUP, "--stop-clocks")
    body = day.event(GROUP).body
    expect(body.phase == "between-rounds", f"round 3 closed, but the group is {body.phase}")
    zero = [b.board for b in body.boards if b.result is None or b.result in ("0-0", "0–0")]
    expect(clocked in body.closed_with_zero, f"the stopped game has no 0–0: {body.closed_with_zero} {zero}")


def chess_to_the_end(day: Day) -> None:
    """The rounds left of the day's 8 (§H), to the final standings."""
    for _ in range(8):
        if day.event(GROUP).body.phase == "finished":
            return
        day.ok("chess", "pair", GROUP)
        chess_results(day)
        day.ok("chess", "close", GROUP)
    phase = day.event(GROUP).body.phase
    expect(phase == "finished", f"the group has played its rounds but is {phase}")


# -- the day ------------------------------------------------------------------------------------

SHORT: tuple[Step, ...] = (
    Step(
        "friday-signups", friday_signups, "Friday's session: the sign-up form imported, 16 + 4 on the lists"
    ),
    Step("friday-checkin", friday_checkin, "14 of the main list, the first reserve, a walk-in; closed: 16"),
    Step("friday-draw", friday_draw, "the bracket drawn: 16 players, no bye"),
    Step("friday-round-1", friday_round_1, "round 1 on tables 1–8 through the serial clocks, confirmed"),
    Step("dispute", dispute_after_confirmation, "a confirmed duel replayed from its table's timeline"),
    Step("friday-podium", friday_to_the_podium, "Friday's session over: its podium decided, its tables free"),
    Step("relay-signups", relay_signups, "the relay: pairs imported, checked in, a walk-in pair, closed"),
    Step("relay-tables", relay_tables, "the relay's pairs at tables 6–8 (Friday's), started"),
    Step("relay-hour", relay_hour, "the relay's hour run out; pair 1 finished by its table's button"),
    Step(
        "relay-confirm",
        relay_counts_and_confirm,
        "counts in (450 of 400 refused), event do offers only a finished pair to take back, the relay confirmed",
    ),
    Step("team", team_event, "the team event on the relay's tables 6–7: finished, counted, confirmed"),
    Step("blind", blind_event, "blind puzzling on tables 3–4: a split, a button finish, confirmed"),
    Step("switcher", switcher, "S(witcher): six seats, a replacement, all 13 puzzles done, printed"),
    Step("erase", person_erased, "a Friday player erased: results stay, anonymised"),
    Step("saturday", saturday_session, "Saturday's session drawn"),
    Step("saturday-round-1", saturday_round_1, "table 8 freed by hand; round 1 on all 8 tables"),
    Step(
        "chess-import",
        chess_import,
        "the chess day's group sp3-ch from the form and the bank, board 1 clocked",
    ),
    Step("chess-round-1", chess_round_1, "round 1 paired, results in, closed"),
    Step(
        "chess-round-2", chess_round_2, "round 2: results corrected before and after its close; a withdrawal"
    ),
    Step("chess-round-3", chess_round_3, "round 3 closed with board 1's clock stopped (--stop-clocks)"),
)

#: ``make rehearse``: the same day, with Saturday's session played to its podium and the chess
#: group to its final standings.
WHOLE: tuple[Step, ...] = (
    *SHORT[:16],
    Step("saturday-podium", saturday_to_the_podium, "Saturday's session over"),
    *SHORT[16:],
    Step("chess-to-the-end", chess_to_the_end, "the chess group's 8 rounds played: final standings"),
)
