"""``duelclock swiss new``, ``record`` and ``absent``: a group's tournament, round by round.

The school tournament's referee (RULES.md §H) runs each group like this::

    duelclock swiss new zapisy.csv -o grupy --date 2026-09-01     # one TRF start list per group
                                                                  # (--acceleration baku: XXA lines)
    duelclock swiss pair grupy/klasa-3-chlopcy.trf -p r1.txt       # pair round 1
    duelclock swiss record grupy/klasa-3-chlopcy.trf r1.txt        # r1.txt with results added
    duelclock swiss absent grupy/klasa-3-chlopcy.trf --reported 5  # after round 1 only
    duelclock swiss pair …   record …   (rounds 2 to 8)
    duelclock swiss standings grupy/klasa-3-chlopcy.trf

The logic is in the pure core (:mod:`clockd.core.swiss.startlist`, :mod:`.results`,
:mod:`.absences`); this module reads and writes the files. A TRF is written atomically
(a temporary file, then ``os.replace``), in place unless ``-o`` says otherwise, and the
file it replaces is kept as ``NAME.trf.bak``. Nothing is written when anything is wrong:
every problem is reported (with its line, and column where there is one), exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd.i18n import tr

if TYPE_CHECKING:
    from clockd.core.swiss.model import Tournament
    from clockd.core.swiss.results import Problem, RoundResults
    from clockd.core.swiss.startlist import Column, Reason, RowProblem


class _Failure(Exception):
    """Errors to report (one line each), exit status 2."""

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def register(sub: Any) -> None:
    new = sub.add_parser(
        "new",
        help=tr(
            pl="listy startowe grup (pliki TRF) z pliku CSV ze zgłoszeniami",
            en="start lists of the groups (TRF files) from a registration CSV",
        ),
        description=tr(
            pl="Tworzy listę startową (plik TRF) każdej grupy z pliku CSV ze zgłoszeniami "
            "(przecinek, średnik lub tabulator; UTF-8 albo Windows-1250). Kolumny rozpoznaje po "
            "nagłówkach: Imię, Nazwisko (albo jedna kolumna Imię i nazwisko), Ranking, Płeć, "
            "Rok urodzenia, FIDE ID, Federacja, Grupa. Kolejność jak na listach FIDE: ranking "
            "malejąco, potem nazwisko i imię alfabetycznie, zawodnicy bez rankingu na końcu; "
            "numery startowe od 1. Błędne wiersze są wymienione z numerem wiersza i nic nie "
            "jest zapisywane.",
            en="Make the start list (a TRF file) of every group from a registration CSV (comma, "
            "semicolon or tab; UTF-8 or Windows-1250). Columns are found by their headers: First "
            "name, Surname (or one Name column), Rating, Sex, Birth, FIDE ID, Federation, Group "
            "(Polish headers too). Order as on FIDE start lists: rating descending, then surname "
            "and first name alphabetically, unrated players last; start numbers from 1. Bad rows "
            "are named with their line and nothing is written.",
        ),
    )
    new.add_argument(
        "csv",
        metavar="PLAYERS.csv",
        help=tr(pl="plik CSV ze zgłoszeniami zawodników", en="the players' registrations (CSV)"),
    )
    new.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        default=".",
        help=tr(
            pl="katalog na pliki TRF grup (domyślnie: bieżący)",
            en="folder for the groups' TRF files (default: the current one)",
        ),
    )
    new.add_argument(
        "--rounds",
        type=int,
        default=8,
        metavar="N",
        help=tr(pl="liczba rund turnieju (domyślnie 8)", en="the number of rounds (default 8)"),
    )
    new.add_argument(
        "--name",
        metavar="NAME",
        help=tr(
            pl="nazwa turnieju (rekord 012, przed nazwą grupy)",
            en="the event's name (record 012, before the group's name)",
        ),
    )
    new.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help=tr(pl="data rozpoczęcia turnieju (rekord 042)", en="the event's date of start (record 042)"),
    )
    new.add_argument(
        "--group-by",
        metavar="COLUMN",
        help=tr(
            pl="kolumna z nazwą grupy (domyślnie kolumna Grupa, a bez niej jedna grupa)",
            en="the column that names the group (default: the Group column; without one, one group)",
        ),
    )
    new.add_argument(
        "--acceleration",
        choices=("none", "baku"),
        default="none",
        help=tr(
            pl="kojarzenie przyspieszone: baku = metoda bakijska FIDE (C.04.5.1), zapisana w plikach "
            "jako wiersze XXA; punkty wirtualne liczą się tylko do kojarzenia, nigdy do klasyfikacji "
            "(domyślnie: none)",
            en="accelerated pairings: baku = FIDE's Baku method (C.04.5.1), written into the files as "
            "XXA lines; the virtual points count for pairing only, never for the standings "
            "(default: none)",
        ),
    )
    new.add_argument(
        "--force",
        action="store_true",
        help=tr(
            pl="nadpisz istniejące pliki TRF (poprzednie zostają jako .bak)",
            en="overwrite existing TRF files (the previous ones are kept as .bak)",
        ),
    )
    new.set_defaults(func=_run_new)

    record = sub.add_parser(
        "record",
        help=tr(
            pl="wpisz wyniki rundy do pliku TRF",
            en="write a round's results into the TRF file",
        ),
        description=tr(
            pl="Wpisuje wyniki jednej rundy do pliku TRF. RESULTS to plik kojarzenia z "
            "'duelclock swiss pair' (liczba par, potem 'białe czarne' w każdym wierszu, 'N 0' "
            "dla wolnego losu) z wynikiem dopisanym na końcu wiersza każdej partii: 1-0, 0-1, "
            "½-½ (1/2-1/2, =), +- i -+ (walkower), -- (obaj nieobecni), 0-0. Partię bez "
            "zgłoszonego wyniku wpisuje się jako 0-0, zgodnie z regulaminem. Domyślnie następna "
            "runda; plik TRF jest nadpisywany, poprzednia wersja zostaje jako .bak.",
            en="Write one round's results into the TRF file. RESULTS is the pairing file of "
            "'duelclock swiss pair' (the number of pairs, then 'white black' per line, 'N 0' for "
            "the bye) with a result added at the end of each board's line: 1-0, 0-1, ½-½ "
            "(1/2-1/2, =), +- and -+ (won by forfeit), -- (neither came), 0-0. A board with no "
            "result is entered as 0-0 (the rules: a game with no reported result). The next "
            "round by default; the file is written in place, the previous version kept as .bak.",
        ),
    )
    record.add_argument("input", metavar="G.trf", help=tr(pl="plik TRF grupy", en="the group's TRF file"))
    record.add_argument(
        "results",
        metavar="RESULTS.txt",
        help=tr(pl="kojarzenie rundy z wynikami", en="the round's pairing with results"),
    )
    record.add_argument(
        "--round",
        type=int,
        metavar="N",
        help=tr(pl="numer rundy (domyślnie następna)", en="the round's number (default: the next one)"),
    )
    record.add_argument(
        "--replace",
        action="store_true",
        help=tr(
            pl="zastąp rundę już wpisaną (razem z --round N)",
            en="replace a round already recorded (with --round N)",
        ),
    )
    record.add_argument(
        "-o",
        "--output",
        metavar="OUT.trf",
        help=tr(
            pl="zapisz do tego pliku (domyślnie nadpisuje G.trf)",
            en="write to this file (default: overwrite G.trf)",
        ),
    )
    record.set_defaults(func=_run_record)

    absent = sub.add_parser(
        "absent",
        help=tr(
            pl="wycofaj nieobecnych w 1. rundzie (przed kojarzeniem 2. rundy)",
            en="withdraw the players absent from round 1 (before round 2 is paired)",
        ),
        description=tr(
            pl="Zasada regulaminu: zawodnicy nieobecni na partii 1. rundy (przegrana walkowerem, "
            "pauza bez punktu lub brak wpisu) są wycofywani z turnieju, chyba że zgłosili się do "
            "sędziego grupy przed wydrukiem kojarzenia 2. rundy. Wycofany dostaje '0000 - Z' w "
            "rundach od 2. do ostatniej. Uruchom po wpisaniu 1. rundy, przed kojarzeniem 2.",
            en="The rules: players absent from their round-1 game (forfeit loss, zero-point bye "
            "or nothing recorded) are withdrawn unless they report to the group referee before "
            "the round-2 pairings are printed. A withdrawn player gets '0000 - Z' in rounds 2 "
            "to the last. Run it after round 1 is recorded, before round 2 is paired.",
        ),
    )
    absent.add_argument("input", metavar="G.trf", help=tr(pl="plik TRF grupy", en="the group's TRF file"))
    absent.add_argument(
        "--reported",
        metavar="5,9",
        default="",
        help=tr(
            pl="numery startowe nieobecnych, którzy zgłosili się do sędziego (zostają w turnieju)",
            en="start numbers of absent players who reported to the referee (they stay)",
        ),
    )
    absent.add_argument(
        "-o",
        "--output",
        metavar="OUT.trf",
        help=tr(
            pl="zapisz do tego pliku (domyślnie nadpisuje G.trf)",
            en="write to this file (default: overwrite G.trf)",
        ),
    )
    absent.set_defaults(func=_run_absent)


# -- files -------------------------------------------------------------------------------------


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _Failure(
            tr(pl=f"nie można odczytać {path}: {exc.strerror}", en=f"cannot read {path}: {exc.strerror}")
        ) from exc


def _check_size(path: str) -> None:
    """Refuse a CSV file too big to be a registration list before reading it into memory."""
    from clockd.core.csvtext import MAX_CSV_BYTES

    try:
        size = os.stat(path).st_size
    except OSError:
        return  # _read says why
    if size > MAX_CSV_BYTES:
        mb, limit = size // 1_000_000, MAX_CSV_BYTES // 1_000_000
        raise _Failure(
            tr(
                pl=f"{path}: plik ma {mb} MB, a lista zgłoszeń najwyżej {limit} MB (1000 zawodników to ok. "
                "0,1 MB); czy to właściwy plik?",
                en=f"{path}: the file has {mb} MB; a registration list has at most {limit} MB (1000 players "
                "take about 0.1 MB); is it the right file?",
            )
        )


def _load(path: str) -> Tournament:
    from clockd.core.swiss import trf
    from clockd.core.swiss.model import ModelError

    data = _read(path)
    try:
        return trf.load_bytes(data)
    except (trf.TrfError, ModelError) as exc:
        raise _Failure(f"{path}: {exc}") from exc


def _write_atomically(path: Path, data: bytes) -> Path | None:
    """Write ``data`` to ``path`` through a temporary file and ``os.replace``; a file that was
    there is kept as ``path.bak``. Returns the backup's path (``None``: nothing to back up)."""
    backup = None
    directory = path.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
        previous = path.read_bytes() if path.exists() else None
        if previous is not None:
            backup = path.with_name(path.name + ".bak")
            _replace_with(backup, previous)
        _replace_with(path, data)
    except OSError as exc:
        raise _Failure(f"{path}: {exc.strerror or exc}") from exc
    return backup


def _replace_with(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _fail(command: str, failure: _Failure) -> int:
    for line in failure.lines:
        print(f"duelclock swiss {command}: {line}", file=sys.stderr)
    return 2


def _warn(message: str) -> None:
    print(tr(pl=f"uwaga: {message}", en=f"warning: {message}"), file=sys.stderr)


def _players(n: int) -> str:
    return tr(
        pl=f"{n} {'zawodnik' if n == 1 else 'zawodników'}", en=f"{n} {'player' if n == 1 else 'players'}"
    )


# -- new ---------------------------------------------------------------------------------------


def _column_name(column: Column) -> str:
    from clockd.core.swiss.startlist import Column

    names = {
        Column.FIRST_NAME: ("imię", "first name"),
        Column.SURNAME: ("nazwisko", "surname"),
        Column.FULL_NAME: ("imię i nazwisko", "name"),
        Column.FULL_NAME_SURNAME_FIRST: ("nazwisko i imię", "surname and first name"),
        Column.RATING: ("ranking", "rating"),
        Column.SEX: ("płeć", "sex"),
        Column.BIRTH: ("urodzenie", "birth"),
        Column.FIDE_ID: ("FIDE ID", "FIDE id"),
        Column.FEDERATION: ("federacja", "federation"),
        Column.GROUP: ("grupa", "group"),
    }
    pl, en = names[column]
    return tr(pl=pl, en=en)


def _row_reason(reason: Reason, value: str, detail: str) -> str:
    from clockd.core.swiss.startlist import NAME_WIDTH, Reason

    messages: dict[Reason, tuple[str, str]] = {
        Reason.EMPTY_FILE: ("plik jest pusty", "the file is empty"),
        Reason.NO_NAME_COLUMN: (
            f"brak kolumn Imię i Nazwisko (ani jednej kolumny Imię i nazwisko); nagłówek: {detail}",
            f"no First name and Surname columns (nor one Name column); the header is: {detail}",
        ),
        Reason.AMBIGUOUS_COLUMNS: (
            f"dwie kolumny wyglądają na to samo pole ({value}): {detail}",
            f"two columns look like the same field ({value}): {detail}",
        ),
        Reason.NO_GROUP_COLUMN: (
            f"nie ma kolumny {value!r} (--group-by); kolumny: {detail}",
            f"there is no column {value!r} (--group-by); the columns are: {detail}",
        ),
        Reason.TOO_MANY_CELLS: (
            f"{value} komórek, a nagłówek ma {detail} kolumn",
            f"{value} cells, the header has {detail} columns",
        ),
        Reason.NO_FIRST_NAME: ("brak imienia", "no first name"),
        Reason.NO_SURNAME: ("brak nazwiska", "no surname"),
        Reason.NAME_TOO_LONG: (
            f"„{value}” ma więcej niż {NAME_WIDTH} znaki, tyle mieści TRF; skróć je w pliku",
            f"{value!r} is longer than the {NAME_WIDTH} characters TRF holds; shorten it in the file",
        ),
        Reason.BAD_RATING: (
            f"ranking {value!r} nie jest liczbą (puste lub 0: bez rankingu)",
            f"rating {value!r} is not a number (empty or 0: unrated)",
        ),
        Reason.BAD_SEX: (
            f"płeć {value!r}: oczekiwano M albo K (chłopiec/dziewczyna)",
            f"sex {value!r}: expected M or F (boy/girl)",
        ),
        Reason.BAD_BIRTH: (
            f"data urodzenia {value!r}: oczekiwano roku (2015) albo daty (2015-03-07)",
            f"birth {value!r}: expected a year (2015) or a date (2015-03-07)",
        ),
        Reason.BAD_FIDE_ID: (
            f"FIDE ID {value!r}: oczekiwano cyfr (najwyżej 11)",
            f"FIDE id {value!r}: expected digits (at most 11)",
        ),
        Reason.BAD_FEDERATION: (
            f"federacja {value!r}: oczekiwano trzyliterowego kodu, np. POL",
            f"federation {value!r}: expected a three-letter code such as POL",
        ),
        Reason.NO_GROUP: ("brak grupy", "no group"),
        Reason.CONTROL_CHARACTER: (
            f"{value!r} zawiera znak sterujący ({detail}), który trafiłby do pliku TRF; popraw tę komórkę",
            f"{value!r} contains a control character ({detail}) that would reach the TRF file; "
            "retype that cell",
        ),
        Reason.UNREADABLE_ROW: (
            f"tego wiersza nie da się odczytać jako CSV ({value})",
            f"this row cannot be read as CSV ({value})",
        ),
        Reason.CELL_TOO_LONG: (
            f"komórka dłuższa niż {value} znaków (żadne nazwisko nie jest tak długie): czy to właściwy plik?",
            f"a cell longer than {value} characters (no name is): is it the right file?",
        ),
    }
    pl, en = messages[reason]
    return tr(pl=pl, en=en)


def _row_problem(source: str, problem: RowProblem) -> str:
    where = tr(pl=f"{source}, wiersz {problem.line}", en=f"{source}, line {problem.line}")
    return f"{where}: {_row_reason(problem.reason, problem.value, problem.detail)}"


def _run_new(args: argparse.Namespace) -> int:
    try:
        return _new(args)
    except _Failure as failure:
        return _fail("new", failure)


def _new(args: argparse.Namespace) -> int:
    from clockd.core.registration import MixedEncoding, SignupError, decode_signups
    from clockd.core.swiss import trf
    from clockd.core.swiss.model import parse_date
    from clockd.core.swiss.records import baku_acceleration
    from clockd.core.swiss.startlist import (
        MAX_PLAYERS,
        SPLIT_ABOVE,
        StartListError,
        file_stem,
        possible_duplicates,
        read_registrations,
        start_list,
    )

    if args.rounds < 1:
        raise _Failure(tr(pl="--rounds: co najmniej 1 runda", en="--rounds: at least 1 round"))
    date = None
    if args.date:
        date = parse_date(args.date)
        if date is None:
            raise _Failure(
                tr(
                    pl=f"--date {args.date}: oczekiwano RRRR-MM-DD",
                    en=f"--date {args.date}: expected YYYY-MM-DD",
                )
            )
    _check_size(args.csv)
    data = _read(args.csv)
    try:
        text = decode_signups(data, args.csv)
    except MixedEncoding as exc:
        rest = ", ".join(str(n) for n in exc.like[:3])
        raise _Failure(
            *(
                tr(
                    pl=f"{args.csv}, wiersz {n}: inne kodowanie znaków niż reszta pliku (wiersze {rest}…); "
                    "popraw ten wiersz albo zapisz plik jako CSV UTF-8",
                    en=f"{args.csv}, line {n}: another encoding than the rest of the file (lines {rest}…); "
                    "retype this row or save the file as CSV UTF-8",
                )
                for n in exc.lines
            ),
            tr(pl="nic nie zapisano", en="nothing was written"),
        ) from exc
    except SignupError as exc:
        raise _Failure(
            tr(
                pl=f"{args.csv}: to nie jest tekst UTF-8 ani Windows-1250; zapisz plik jako CSV UTF-8",
                en=f"{args.csv}: neither UTF-8 nor Windows-1250 text; save it as CSV UTF-8",
            )
        ) from exc
    try:
        registrations = read_registrations(text, args.group_by)
    except StartListError as exc:
        lines = [_row_problem(args.csv, p) for p in exc.problems]
        rows = len({p.line for p in exc.problems if p.line > 1})  # line 1 is the header
        lines.append(
            tr(
                pl=f"błędnych wierszy: {rows}; nic nie zapisano",
                en=f"bad rows: {rows}; nothing was written",
            )
            if rows
            else tr(pl="nic nie zapisano", en="nothing was written")
        )
        raise _Failure(*lines) from exc
    groups = registrations.groups()
    if not registrations.entrants:
        raise _Failure(tr(pl=f"{args.csv}: brak zawodników", en=f"{args.csv}: no players"))
    for group, entrants in groups.items():
        if len(entrants) > MAX_PLAYERS:
            label = (
                tr(pl=f"grupa „{group}”", en=f"group '{group}'") if group else tr(pl="lista", en="the list")
            )
            raise _Failure(
                tr(
                    pl=f"{args.csv}: {label} ma {_players(len(entrants))}; TRF mieści najwyżej {MAX_PLAYERS} "
                    "numerów startowych; nic nie zapisano",
                    en=f"{args.csv}: {label} has {_players(len(entrants))}; TRF holds at most {MAX_PLAYERS} "
                    "start numbers; nothing was written",
                )
            )

    # The files: one per group, named after it (or, for one unnamed group, the event or the CSV).
    out_dir = Path(args.output)
    plans: list[tuple[str, Path, Tournament]] = []
    used: set[str] = set()
    for i, (group, entrants) in enumerate(groups.items(), start=1):
        stem = (
            file_stem(group) or file_stem(args.name or "") or file_stem(Path(args.csv).stem) or f"grupa-{i}"
        )
        unique, n = stem, 2
        while unique in used:
            unique, n = f"{stem}-{n}", n + 1
        used.add(unique)
        title = " - ".join(part for part in (args.name or "", group) if part) or Path(args.csv).stem
        tournament = start_list(entrants, title=title, rounds=args.rounds, date=date)
        if args.acceleration == "baku":
            tournament = baku_acceleration(tournament, args.rounds)
        plans.append((group, out_dir / f"{unique}.trf", tournament))
    existing = [str(path) for _, path, _ in plans if path.exists()]
    if existing and not args.force:
        raise _Failure(
            tr(
                pl=f"pliki już istnieją: {', '.join(existing)}; nic nie zapisano (--force nadpisuje, "
                "poprzednie wersje zostają jako .bak)",
                en=f"these files exist: {', '.join(existing)}; nothing was written (--force "
                "overwrites them, keeping the previous ones as .bak)",
            )
        )

    columns = ", ".join(f"{_column_name(c)} ← {h!r}" for c, h in registrations.columns.items())
    print(tr(pl=f"kolumny: {columns}", en=f"columns: {columns}"))
    if registrations.ignored:
        ignored = ", ".join(repr(h) for h in registrations.ignored)
        print(tr(pl=f"pominięte kolumny: {ignored}", en=f"columns not used: {ignored}"))
    for earlier, later in possible_duplicates(registrations.entrants):
        _warn(
            tr(
                pl=f"wiersze {earlier} i {later}: to samo imię, nazwisko i data urodzenia — "
                "podwójne zgłoszenie?",
                en=f"lines {earlier} and {later}: same name and birth — signed up twice?",
            )
        )
    for group, path, tournament in plans:
        _write_atomically(path, trf.dump_bytes(tournament))
        label = tr(pl=f"grupa „{group}”", en=f"group '{group}'") if group else tr(pl="lista", en="list")
        print(f"{label}: {_players(len(tournament))} → {path}")
        accelerated = len(tournament.record_values("XXA"))
        if accelerated:
            print(
                tr(
                    pl=f"  przyspieszenie bakijskie: grupa A to numery 1–{accelerated} (wiersze XXA)",
                    en=f"  Baku acceleration: group A is start numbers 1–{accelerated} (XXA lines)",
                )
            )
        if len(tournament) > SPLIT_ABOVE:
            _warn(
                tr(
                    pl=f"{label} ma {_players(len(tournament))}; regulamin (§H) pozwala podzielić grupę "
                    f"liczącą ponad {SPLIT_ABOVE} zawodników według rankingu — program jej nie dzieli",
                    en=f"{label} has {_players(len(tournament))}; the rules (§H) allow a group of more "
                    f"than {SPLIT_ABOVE} players to be split by rating — it was not split",
                )
            )
    total = len(registrations.entrants)
    print(
        tr(
            pl=f"razem: grup {len(plans)}, {_players(total)}, rund {args.rounds}",
            en=f"total: {len(plans)} group(s), {_players(total)}, {args.rounds} rounds",
        )
    )
    return 0


# -- record ------------------------------------------------------------------------------------


def _problem_text(problem: Problem) -> str:
    from clockd.core.swiss.results import Issue

    v = (*problem.values, "?", "?")
    messages: dict[Issue, tuple[str, str]] = {
        Issue.BAD_COUNT: (
            f"pierwszy wiersz podaje {v[0]} par, a jest ich {v[1]}",
            f"the first line says {v[0]} pairs, there are {v[1]}",
        ),
        Issue.NOT_A_NUMBER: (f"{v[0]!r} nie jest numerem startowym", f"{v[0]!r} is not a start number"),
        Issue.MISSING_BLACK: ("brak drugiego numeru startowego", "the second start number is missing"),
        Issue.BAD_RESULT: (
            f"{v[0]!r} nie jest wynikiem (1-0, 0-1, ½-½, +-, -+, --, 0-0)",
            f"{v[0]!r} is not a result (1-0, 0-1, ½-½, +-, -+, --, 0-0)",
        ),
        Issue.BYE_WITH_RESULT: (
            f"wiersz wolnego losu ('N 0') nie ma wyniku, a jest {v[0]!r}",
            f"the bye line ('N 0') takes no result, found {v[0]!r}",
        ),
        Issue.SECOND_BYE: (
            f"drugi wolny los (pierwszy: {v[0]} w wierszu {v[1]})",
            f"a second bye (the first: {v[0]} on line {v[1]})",
        ),
        Issue.NO_BOARDS: ("brak par", "no pairs"),
        Issue.UNKNOWN_PLAYER: (
            f"nie ma zawodnika z numerem startowym {v[0]}",
            f"there is no player with start number {v[0]}",
        ),
        Issue.TWICE: (
            f"zawodnik {v[0]} występuje drugi raz (pierwszy raz w wierszu {v[1]})",
            f"player {v[0]} appears a second time (first on line {v[1]})",
        ),
        Issue.SELF: (f"zawodnik {v[0]} nie może grać sam ze sobą", f"player {v[0]} cannot play themselves"),
        Issue.ABSENT_ON_BOARD: (
            f"zawodnik {v[0]} ma w tej rundzie zgłoszoną nieobecność ({v[1]}), a jest na planszy",
            f"player {v[0]} has an announced absence in this round ({v[1]}) but is on a board",
        ),
        Issue.UNPLACED: (
            "nie ma ich na żadnej planszy ani na wolnym losie: " + ", ".join(problem.values),
            "on no board and without the bye: " + ", ".join(problem.values),
        ),
    }
    pl, en = messages[problem.issue]
    return tr(pl=pl, en=en)


def _problem_line(source: str, problem: Problem) -> str:
    if problem.line == 0:
        return f"{source}: {_problem_text(problem)}"
    where = tr(
        pl=f"{source}, wiersz {problem.line}, kolumna {problem.column}",
        en=f"{source}, line {problem.line}, column {problem.column}",
    )
    return f"{where}: {_problem_text(problem)}"


def _read_text(path: str) -> str:
    data = _read(path)
    for encoding in ("utf-8-sig", "cp1250", "latin-1"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover


def _result_text(result: Any) -> str:
    text = str(result.value)
    return text.replace("-", "–") if text[0].isdigit() or text[0] == "½" else text


def _run_record(args: argparse.Namespace) -> int:
    try:
        return _record(args)
    except _Failure as failure:
        return _fail("record", failure)


def _round_to_record(tournament: Tournament, args: argparse.Namespace) -> int:
    paired = tournament.rounds_paired
    k = args.round if args.round is not None else paired + 1
    total = tournament.total_rounds
    if k < 1:
        raise _Failure(tr(pl=f"--round {k}: rundy liczą się od 1", en=f"--round {k}: rounds count from 1"))
    if total is not None and k > total:
        raise _Failure(
            tr(
                pl=f"{args.input}: turniej ma {total} rund (XXR), nie można wpisać rundy {k}",
                en=f"{args.input}: the event has {total} rounds (XXR); round {k} cannot be recorded",
            )
        )
    if k > paired + 1:
        raise _Failure(
            tr(
                pl=f"{args.input}: wpisana jest runda {paired}; najpierw runda {paired + 1}, nie {k}",
                en=f"{args.input}: round {paired} is the last recorded; round {paired + 1} comes before {k}",
            )
        )
    if k <= paired and not (args.round is not None and args.replace):
        raise _Failure(
            tr(
                pl=f"{args.input}: runda {k} jest już wpisana; aby ją zastąpić, podaj --round {k} --replace",
                en=f"{args.input}: round {k} is already recorded; to replace it give --round {k} --replace",
            )
        )
    if args.replace and k > paired:
        raise _Failure(
            tr(
                pl=f"--replace: runda {k} nie jest jeszcze wpisana",
                en=f"--replace: round {k} is not recorded yet",
            )
        )
    return k


def _refuse_a_recorded_round(tournament: Tournament, k: int, results: RoundResults, source: str) -> None:
    """The same file recorded twice would make round ``k`` a copy of an earlier round (all
    rematches): refused unless ``--round`` says that is meant."""
    given = ({frozenset((b.white, b.black)) for b in results.boards}, results.bye)
    for r in range(1, tournament.rounds_paired + 1):
        boards, bye = tournament.pairings(r)
        if given == ({frozenset((b.white, b.black)) for b in boards}, bye):
            raise _Failure(
                tr(
                    pl=f"{source}: to są plansze rundy {r}, już wpisanej; nic nie zapisano (aby mimo to "
                    f"wpisać je jako rundę {k}, podaj --round {k})",
                    en=f"{source}: these are the boards of round {r}, already recorded; nothing was "
                    f"written (to record them as round {k} all the same, give --round {k})",
                )
            )


def _engine_pairing(tournament: Tournament, k: int) -> tuple[set[tuple[int, int]], int | None] | str:
    """What ``swiss pair`` pairs for round ``k`` from the rounds before it, or why it cannot."""
    from clockd.core.swiss.dutch import NoValidPairing, PairingInputError, pair_round

    try:
        pairing = pair_round(tournament.pairing_input(k))
    except (NoValidPairing, PairingInputError, ValueError) as exc:
        return str(exc)
    return set(pairing.boards), pairing.bye


def _compare_with_engine(tournament: Tournament, k: int, results: RoundResults) -> None:
    engine = _engine_pairing(tournament, k)
    if isinstance(engine, str):
        _warn(
            tr(
                pl=f"nie można porównać z kojarzeniem programu ({engine})",
                en=f"cannot compare with the program's pairing ({engine})",
            )
        )
        return
    boards, bye = engine
    given = {(b.white, b.black) for b in results.boards}
    if given == boards and results.bye == bye:
        return
    only_file = ", ".join(f"{w}-{b}" for w, b in sorted(given - boards))
    only_engine = ", ".join(f"{w}-{b}" for w, b in sorted(boards - given))
    detail = []
    if only_file or only_engine:
        detail.append(
            tr(
                pl=f"w pliku: {only_file or '—'}; w kojarzeniu: {only_engine or '—'}",
                en=f"in the file: {only_file or '—'}; paired: {only_engine or '—'}",
            )
        )
    if results.bye != bye:
        detail.append(
            tr(
                pl=f"wolny los: w pliku {results.bye or '—'}, w kojarzeniu {bye or '—'}",
                en=f"bye: in the file {results.bye or '—'}, paired {bye or '—'}",
            )
        )
    _warn(
        tr(
            pl=f"runda {k} różni się od kojarzenia 'duelclock swiss pair' ({'; '.join(detail)}); "
            "wpisuję ją tak, jak jest w pliku",
            en=f"round {k} differs from what 'duelclock swiss pair' pairs ({'; '.join(detail)}); "
            "recording it as the file says",
        )
    )


def _record(args: argparse.Namespace) -> int:
    from clockd.core.swiss import trf
    from clockd.core.swiss.model import BoardResult
    from clockd.core.swiss.results import ResultsError, parse_results, record_results

    tournament = _load(args.input)
    try:
        results = parse_results(_read_text(args.results))
    except ResultsError as exc:
        raise _Failure(*_nothing_written(args.results, exc.problems)) from exc
    k = _round_to_record(tournament, args)
    if args.round is None:
        _refuse_a_recorded_round(tournament, k, results, args.results)
    try:
        recorded = record_results(tournament, k, results)
    except ResultsError as exc:
        raise _Failure(*_nothing_written(args.results, exc.problems)) from exc

    _compare_with_engine(tournament, k, results)
    if k < tournament.rounds_paired:
        _warn(
            tr(
                pl=f"rundy od {k + 1} były kojarzone według poprzednich wyników rundy {k}; "
                f"sprawdź je: duelclock swiss check {args.input}",
                en=f"rounds from {k + 1} on were paired from round {k}'s previous results; "
                f"check them: duelclock swiss check {args.input}",
            )
        )
    out = Path(args.output or args.input)
    backup = _write_atomically(out, trf.dump_bytes(recorded.tournament))

    print(tr(pl=f"runda {k} wpisana do {out}", en=f"round {k} recorded in {out}"))
    if backup is not None:
        print(tr(pl=f"poprzednia wersja: {backup}", en=f"previous version: {backup}"))
    for b in results.unreported:
        print(
            tr(
                pl=f"plansza {b.number} ({b.white}–{b.black}): brak zgłoszonego wyniku → 0–0",
                en=f"board {b.number} ({b.white}–{b.black}): no result reported → 0–0",
            )
        )
    counts = Counter(b.recorded for b in results.boards)
    order = list(BoardResult)
    tally = ", ".join(f"{_result_text(r)} ×{counts[r]}" for r in order if counts[r])
    games = len(results.boards)
    forfeits = sum(
        counts[r]
        for r in (
            BoardResult.WHITE_WINS_BY_FORFEIT,
            BoardResult.BLACK_WINS_BY_FORFEIT,
            BoardResult.DOUBLE_FORFEIT,
        )
    )
    zeros = counts[BoardResult.NO_RESULT]
    print(
        tr(
            pl=f"plansz: {games} ({tally}); walkowerów: {forfeits}; wyników 0–0: {zeros}",
            en=f"boards: {games} ({tally}); forfeits: {forfeits}; 0–0 results: {zeros}",
        )
    )
    print(
        tr(
            pl=f"wolny los: {results.bye if results.bye is not None else 'nikt'}",
            en=f"bye: {results.bye if results.bye is not None else 'nobody'}",
        )
    )
    if recorded.absences:
        listed = ", ".join(f"{sn} ({entry.code.value})" for sn, entry in recorded.absences)
        print(
            tr(
                pl=f"nieobecności wpisane przed rundą (bez zmian): {listed}",
                en=f"absences entered before the round (unchanged): {listed}",
            )
        )
    return 0


def _nothing_written(source: str, problems: tuple[Problem, ...]) -> list[str]:
    lines = [_problem_line(source, p) for p in problems]
    lines.append(tr(pl="nic nie zapisano", en="nothing was written"))
    return lines


# -- absent ------------------------------------------------------------------------------------


def _start_numbers(text: str) -> set[int]:
    numbers: set[int] = set()
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        if not (part.isascii() and part.isdigit()):
            raise _Failure(
                tr(
                    pl=f"--reported: {part!r} nie jest numerem startowym",
                    en=f"--reported: {part!r} is not a start number",
                )
            )
        numbers.add(int(part))
    return numbers


def _run_absent(args: argparse.Namespace) -> int:
    try:
        return _absent(args)
    except _Failure as failure:
        return _fail("absent", failure)


def _absent(args: argparse.Namespace) -> int:
    from clockd.core.swiss import trf
    from clockd.core.swiss.absences import (
        AbsentButRecorded,
        RoundOneNotRecorded,
        RoundTwoPaired,
        UnknownPlayers,
        apply_round1_rule,
    )
    from clockd.core.swiss.model import ModelError

    reported = _start_numbers(args.reported)
    tournament = _load(args.input)
    try:
        rule = apply_round1_rule(tournament, reported)
    except RoundOneNotRecorded as exc:
        raise _Failure(
            tr(
                pl=f"{args.input}: 1. runda nie jest jeszcze wpisana (duelclock swiss record)",
                en=f"{args.input}: round 1 is not recorded yet (duelclock swiss record)",
            )
        ) from exc
    except RoundTwoPaired as exc:
        raise _Failure(
            tr(
                pl=f"{args.input}: runda {tournament.rounds_paired} jest już skojarzona; nieobecnych "
                "z 1. rundy wycofuje się przed kojarzeniem 2. rundy",
                en=f"{args.input}: round {tournament.rounds_paired} is already paired; round-1 "
                "absentees are withdrawn before round 2 is paired",
            )
        ) from exc
    except UnknownPlayers as exc:
        raise _Failure(
            tr(
                pl=f"--reported: nie ma zawodników o numerach {', '.join(map(str, exc.numbers))}",
                en=f"--reported: no players with start numbers {', '.join(map(str, exc.numbers))}",
            )
        ) from exc
    except AbsentButRecorded as exc:
        raise _Failure(
            tr(
                pl=f"zawodnik {exc.start_number} nie grał w 1. rundzie, ale w rundzie {exc.round_number} "
                f"ma wpis {exc.entry}; jeśli się zgłosił, podaj go w --reported",
                en=f"player {exc.start_number} missed round 1 but has {exc.entry} in round "
                f"{exc.round_number}; if they reported, give them in --reported",
            )
        ) from exc
    except ModelError as exc:
        raise _Failure(
            tr(
                pl=f"{args.input}: nie wiadomo, ile rund ma turniej: dodaj wiersz XXR",
                en=f"{args.input}: the number of rounds is unknown: add an XXR line",
            )
        ) from exc

    def names(numbers: tuple[int, ...]) -> str:
        return ", ".join(f"{sn} {tournament[sn].name}".rstrip() for sn in numbers)

    for sn in rule.not_absent:
        _warn(
            tr(
                pl=f"zawodnik {sn} grał w 1. rundzie; --reported go nie dotyczy",
                en=f"player {sn} played in round 1; --reported does not apply to them",
            )
        )
    changed = rule.tournament != tournament
    out = Path(args.output or args.input)
    backup = None
    if changed or args.output:
        backup = _write_atomically(out, trf.dump_bytes(rule.tournament))
    if rule.withdrawn:
        print(
            tr(
                pl=f"wycofani (nieobecni w 1. rundzie, '0000 - Z' do końca): {names(rule.withdrawn)}",
                en=f"withdrawn (absent from round 1, '0000 - Z' to the end): {names(rule.withdrawn)}",
            )
        )
    else:
        print(tr(pl="nikogo nie wycofano", en="nobody was withdrawn"))
    if rule.reported:
        print(
            tr(
                pl=f"zostają w turnieju (zgłosili się): {names(rule.reported)}",
                en=f"staying (they reported): {names(rule.reported)}",
            )
        )
    if rule.reinstated:
        print(
            tr(
                pl=f"przywróceni (wcześniej wycofani): {names(rule.reinstated)}",
                en=f"reinstated (withdrawn earlier): {names(rule.reinstated)}",
            )
        )
    if changed or args.output:
        print(tr(pl=f"zapisano {out}", en=f"written to {out}"))
        if backup is not None:
            print(tr(pl=f"poprzednia wersja: {backup}", en=f"previous version: {backup}"))
    else:
        print(tr(pl=f"{out} bez zmian", en=f"{out} unchanged"))
    return 0
