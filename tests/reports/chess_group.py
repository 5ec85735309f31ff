"""A school chess group to print: players with Polish names, long school names, private
fields filled in (so a test can see they never reach a printout), played round by round by
the FIDE Dutch engine with seeded results — draws, a forfeit, a 0–0 game."""

from __future__ import annotations

import random
from pathlib import Path

from clockd.core.chessday.roster import ChessDay, Entrant, Group, Level
from clockd.core.swiss import trf
from clockd.core.swiss.dutch import pair_round
from clockd.core.swiss.model import ZERO, Board, BoardResult, Code, Player, Record, Tournament, record_round
from clockd.core.swiss.results import with_points

SURNAMES = (
    "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński", "Lewandowski", "Zieliński", "Szymański",
    "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski", "Mazur", "Kwiatkowski", "Krawczyk",
    "Piotrowski", "Grabowski", "Nowakowski", "Pawłowski", "Michalski", "Nowicki", "Adamczyk",
    "Dudek", "Zając", "Wieczorek", "Jabłoński", "Król", "Majewski", "Olszewski", "Jaworski",
    "Wróbel", "Malinowski", "Pawlak", "Witkowski", "Walczak", "Stępień", "Górski", "Rutkowski",
    "Michalak", "Sikora", "Ostrowski", "Baran", "Duda", "Szewczyk", "Tomaszewski", "Pietrzak",
    "Marciniak", "Wróblewski", "Zalewski",
)  # fmt: skip
FIRST = (
    "Jan", "Michał", "Łukasz", "Paweł", "Szymon", "Jakub", "Mikołaj", "Kacper", "Wojciech",
    "Filip", "Antoni", "Stanisław", "Ignacy", "Tymoteusz", "Józef", "Bartłomiej",
)  # fmt: skip
SCHOOLS = (
    "Szkoła Podstawowa nr 21 im. Marii Skłodowskiej-Curie w Katowicach-Podlesiu",
    "SP 12 Katowice",
    "Zespół Szkolno-Przedszkolny nr 3 im. Józefa Piłsudskiego w Świętochłowicach",
    "SP 5 Chorzów",
    "Szkoła Podstawowa z Oddziałami Dwujęzycznymi nr 15 w Gliwicach",
    "SP 44 Żory",
)
EVENT = "Szachowe Mistrzostwa Szkół — Spodek"
DATE = "2026/10/27"


def make_group(
    players: int = 14, rounds: int = 5, *, played: int | None = None, seed: int = 7
) -> tuple[Tournament, Group, ChessDay]:
    """A boys' grade-3 group of ``players``, ``played`` of its ``rounds`` rounds played
    (default all), and the day file holding it (with a second, girls' group)."""
    rng = random.Random(seed)
    ratings = sorted(
        (rng.randint(1000, 1800) if i % 4 else None for i in range(players)), key=lambda r: -(r or 0)
    )
    names = [(SURNAMES[i % len(SURNAMES)], FIRST[i % len(FIRST)]) for i in range(players)]
    entrants = tuple(
        Entrant(
            start=i + 1,
            surname=s,
            first_name=f,
            sex="m",
            rating=ratings[i],
            school=SCHOOLS[i % len(SCHOOLS)],
            school_class=f"3{'abc'[i % 3]}",
            medal=i % 3 == 0,
            birth=f"2017/0{1 + i % 9}/1{i % 10}",
            email=f"rodzic{i + 1}@example.com",
        )
        for i, (s, f) in enumerate(names)
    )
    group = Group(key="sp3-ch", level=Level.PRIMARY, grade=3, sex="m", entrants=entrants)
    girls = Group(
        key="sp3-dz",
        level=Level.PRIMARY,
        grade=3,
        sex="w",
        entrants=(
            Entrant(
                start=1,
                surname="Żółtowska",
                first_name="Zuzanna",
                sex="w",
                school="SP 12 Katowice",
                medal=True,
            ),
            Entrant(
                start=2, surname="Ćwiklińska", first_name="Łucja", sex="w", school="SP 5 Chorzów", medal=False
            ),
        ),
    )
    day = ChessDay(title=EVENT, date="2026-10-27", rounds=rounds, groups=(group, girls))
    tournament = Tournament(
        tuple(
            Player(
                start_number=e.start,
                name=e.trf_name,
                sex="m",
                rating=e.rating,
                birth=e.birth,
                points=ZERO,
            )
            for e in entrants
        ),
        tuple(
            Record(t, 0)
            for t in (f"012 {EVENT} — klasa 3, chłopcy", f"042 {DATE}", f"XXR {rounds}", "XXC white1")
        ),
    )
    for r in range(1, (rounds if played is None else played) + 1):
        pairing = pair_round(tournament)
        boards = []
        for i, (w, b) in enumerate(pairing.boards):
            if r == 2 and i == len(pairing.boards) - 1:
                result = BoardResult.WHITE_WINS_BY_FORFEIT
            elif r == 3 and i == len(pairing.boards) - 1:
                result = BoardResult.NO_RESULT
            else:
                x = rng.random()
                result = (
                    BoardResult.DRAW
                    if x < 0.2
                    else BoardResult.WHITE_WINS
                    if x < 0.6
                    else BoardResult.BLACK_WINS
                )
            boards.append(Board(w, b, result))
        byes = {pairing.bye: Code.PAIRING_BYE} if pairing.bye is not None else None
        tournament = record_round(tournament, r, boards, byes)
    return with_points(tournament), group, day


def write_group(folder: Path, **kwargs: int) -> tuple[Path, Path]:
    """The group's TRF (named after its key) and the day file, written in ``folder``."""
    tournament, group, day = make_group(**kwargs)
    trf_path = folder / f"{group.key}.trf"
    trf_path.write_bytes(trf.dump_bytes(tournament))
    day_path = folder / "chess-day.json"
    day_path.write_text(day.model_dump_json(indent=1), encoding="utf-8")
    return trf_path, day_path
