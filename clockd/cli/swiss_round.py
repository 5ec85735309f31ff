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
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd import i18n

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
        help=i18n.text("cli.swiss-round.start-lists-of-the-groups-trf"),
        description=i18n.text("cli.swiss-round.make-the-start-list-a-trf"),
    )
    new.add_argument(
        "csv",
        metavar="PLAYERS.csv",
        help=i18n.text("cli.swiss-round.the-players-registrations-csv"),
    )
    new.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        default=".",
        help=i18n.text("cli.swiss-round.folder-for-the-groups-trf-files"),
    )
    new.add_argument(
        "--rounds",
        type=int,
        default=8,
        metavar="N",
        help=i18n.text("cli.swiss-round.the-number-of-rounds-default-8"),
    )
    new.add_argument(
        "--name",
        metavar="NAME",
        help=i18n.text("cli.swiss-round.the-events-name-record-012-before"),
    )
    new.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help=i18n.text("cli.swiss-round.the-events-date-of-start-record"),
    )
    new.add_argument(
        "--group-by",
        metavar="COLUMN",
        help=i18n.text("cli.swiss-round.the-column-that-names-the-group"),
    )
    new.add_argument(
        "--acceleration",
        choices=("none", "baku"),
        default="none",
        help=i18n.text("cli.swiss-round.accelerated-pairings-baku-fides-baku"),
    )
    new.add_argument(
        "--force",
        action="store_true",
        help=i18n.text("cli.swiss-round.overwrite-existing-trf-files-the"),
    )
    new.set_defaults(func=_run_new)

    record = sub.add_parser(
        "record",
        help=i18n.text("cli.swiss-round.write-a-rounds-results-into-the"),
        description=i18n.text("cli.swiss-round.write-one-rounds-results-into-the"),
    )
    record.add_argument("input", metavar="G.trf", help=i18n.text("cli.swiss-round.the-groups-trf-file"))
    record.add_argument(
        "results",
        metavar="RESULTS.txt",
        help=i18n.text("cli.swiss-round.the-rounds-pairing-with-results"),
    )
    record.add_argument(
        "--round",
        type=int,
        metavar="N",
        help=i18n.text("cli.swiss-round.the-rounds-number-default-the-next"),
    )
    record.add_argument(
        "--replace",
        action="store_true",
        help=i18n.text("cli.swiss-round.replace-a-round-already-recorded-with"),
    )
    record.add_argument(
        "-o",
        "--output",
        metavar="OUT.trf",
        help=i18n.text("cli.swiss-round.write-to-this-file-default-overwrite"),
    )
    record.set_defaults(func=_run_record)

    absent = sub.add_parser(
        "absent",
        help=i18n.text("cli.swiss-round.withdraw-the-players-absent-from-round"),
        description=i18n.text("cli.swiss-round.the-rules-players-absent-from-their"),
    )
    absent.add_argument("input", metavar="G.trf", help=i18n.text("cli.swiss-round.the-groups-trf-file"))
    absent.add_argument(
        "--reported",
        metavar="5,9",
        default="",
        help=i18n.text("cli.swiss-round.start-numbers-of-absent-players-who"),
    )
    absent.add_argument(
        "-o",
        "--output",
        metavar="OUT.trf",
        help=i18n.text("cli.swiss-round.write-to-this-file-default-overwrite"),
    )
    absent.set_defaults(func=_run_absent)


# -- files -------------------------------------------------------------------------------------


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _Failure(i18n.text("cli.swiss-round.cannot-read", path=path, strerror=exc.strerror)) from exc


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
            i18n.text("cli.swiss-round.the-file-has-mb-a-registration", path=path, mb=mb, limit=limit)
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
    from clockd.store.files import replace_file

    try:
        directory.mkdir(parents=True, exist_ok=True)
        previous = path.read_bytes() if path.exists() else None
        if previous is not None:
            backup = path.with_name(path.name + ".bak")
            replace_file(backup, previous)
        replace_file(path, data)
    except OSError as exc:
        raise _Failure(f"{path}: {exc.strerror or exc}") from exc
    return backup


def _fail(command: str, failure: _Failure) -> int:
    for line in failure.lines:
        print(f"duelclock swiss {command}: {line}", file=sys.stderr)
    return 2


def _code(family: str, member: Enum) -> str:
    """A catalogue code of a family named by an enum's member (``Reason.BAD_SEX`` → ``….bad-sex``)."""
    return family + member.name.lower().replace("_", "-")  # family ends with its dot


def _warn(message: str) -> None:
    print(i18n.text("cli.swiss-round.warning", message=message), file=sys.stderr)


def _players(n: int) -> str:
    return i18n.text("cli.swiss-round.players", n=n)


# -- new ---------------------------------------------------------------------------------------


def _column_name(column: Column) -> str:
    return i18n.text(_code("term.swiss-column.", column))


def _row_reason(reason: Reason, value: str, detail: str) -> str:
    from clockd.core.swiss.startlist import NAME_WIDTH

    return i18n.text(_code("swiss.start-row.", reason), value=value, detail=detail, width=NAME_WIDTH)


def _row_problem(source: str, problem: RowProblem) -> str:
    where = i18n.text("cli.swiss-round.line", source=source, line=problem.line)
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
        raise _Failure(i18n.text("cli.swiss-round.rounds-at-least-1-round"))
    date = None
    if args.date:
        date = parse_date(args.date)
        if date is None:
            raise _Failure(i18n.text("cli.swiss-round.date-expected-yyyy-mm-dd", date=args.date))
    _check_size(args.csv)
    data = _read(args.csv)
    try:
        text = decode_signups(data, args.csv)
    except MixedEncoding as exc:
        rest = ", ".join(str(n) for n in exc.like[:3])
        raise _Failure(
            *(
                i18n.text("cli.swiss-round.line-another-encoding-than-the-rest", csv=args.csv, n=n, rest=rest)
                for n in exc.lines
            ),
            i18n.text("cli.swiss-round.nothing-was-written"),
        ) from exc
    except SignupError as exc:
        raise _Failure(i18n.text("cli.swiss-round.neither-utf-8-nor-windows-1250", csv=args.csv)) from exc
    try:
        registrations = read_registrations(text, args.group_by)
    except StartListError as exc:
        lines = [_row_problem(args.csv, p) for p in exc.problems]
        rows = len({p.line for p in exc.problems if p.line > 1})  # line 1 is the header
        lines.append(
            i18n.text("cli.swiss-round.bad-rows-nothing-was-written", rows=rows)
            if rows
            else i18n.text("cli.swiss-round.nothing-was-written")
        )
        raise _Failure(*lines) from exc
    groups = registrations.groups()
    if not registrations.entrants:
        raise _Failure(i18n.text("cli.swiss-round.no-players", csv=args.csv))
    for group, entrants in groups.items():
        if len(entrants) > MAX_PLAYERS:
            label = (
                i18n.text("cli.swiss-round.group", group=group)
                if group
                else i18n.text("cli.swiss-round.the-list")
            )
            raise _Failure(
                i18n.text(
                    "cli.swiss-round.has-trf-holds-at-most-start",
                    csv=args.csv,
                    label=label,
                    value=_players(len(entrants)),
                    MAX_PLAYERS=MAX_PLAYERS,
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
            i18n.text("cli.swiss-round.these-files-exist-nothing-was-written", value=", ".join(existing))
        )

    columns = ", ".join(f"{_column_name(c)} ← {h!r}" for c, h in registrations.columns.items())
    print(i18n.text("cli.swiss-round.columns", columns=columns))
    if registrations.ignored:
        ignored = ", ".join(repr(h) for h in registrations.ignored)
        print(i18n.text("cli.swiss-round.columns-not-used", ignored=ignored))
    for earlier, later in possible_duplicates(registrations.entrants):
        _warn(i18n.text("cli.swiss-round.lines-and-same-name-and-birth", earlier=earlier, later=later))
    for group, path, tournament in plans:
        _write_atomically(path, trf.dump_bytes(tournament))
        label = (
            i18n.text("cli.swiss-round.group", group=group) if group else i18n.text("cli.swiss-round.list")
        )
        print(f"{label}: {_players(len(tournament))} → {path}")
        accelerated = len(tournament.record_values("XXA"))
        if accelerated:
            print(i18n.text("cli.swiss-round.baku-acceleration-group-a-is-start", accelerated=accelerated))
        if len(tournament) > SPLIT_ABOVE:
            _warn(
                i18n.text(
                    "cli.swiss-round.has-the-rules-h-allow-a",
                    label=label,
                    value=_players(len(tournament)),
                    SPLIT_ABOVE=SPLIT_ABOVE,
                )
            )
    total = len(registrations.entrants)
    print(
        i18n.text(
            "cli.swiss-round.total-group-s-rounds",
            value=len(plans),
            value2=_players(total),
            rounds=args.rounds,
        )
    )
    return 0


# -- record ------------------------------------------------------------------------------------


def _problem_text(problem: Problem) -> str:
    a, b = (*problem.values, "?", "?")[:2]
    values = ", ".join(problem.values)
    return i18n.text(_code("swiss.results-row.", problem.issue), a=a, b=b, values=values)


def _problem_line(source: str, problem: Problem) -> str:
    if problem.line == 0:
        return f"{source}: {_problem_text(problem)}"
    where = i18n.text("cli.swiss-round.line-column", source=source, line=problem.line, column=problem.column)
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
        raise _Failure(i18n.text("cli.swiss-round.round-rounds-count-from-1", k=k))
    if total is not None and k > total:
        raise _Failure(
            i18n.text("cli.swiss-round.the-event-has-rounds-xxr-round", input=args.input, total=total, k=k)
        )
    if k > paired + 1:
        raise _Failure(
            i18n.text(
                "cli.swiss-round.round-is-the-last-recorded-round",
                input=args.input,
                paired=paired,
                value=paired + 1,
                k=k,
            )
        )
    if k <= paired and not (args.round is not None and args.replace):
        raise _Failure(
            i18n.text("cli.swiss-round.round-is-already-recorded-to-replace", input=args.input, k=k)
        )
    if args.replace and k > paired:
        raise _Failure(i18n.text("cli.swiss-round.replace-round-is-not-recorded-yet", k=k))
    return k


def _refuse_a_recorded_round(tournament: Tournament, k: int, results: RoundResults, source: str) -> None:
    """The same file recorded twice would make round ``k`` a copy of an earlier round (all
    rematches): refused unless ``--round`` says that is meant."""
    given = ({frozenset((b.white, b.black)) for b in results.boards}, results.bye)
    for r in range(1, tournament.rounds_paired + 1):
        boards, bye = tournament.pairings(r)
        if given == ({frozenset((b.white, b.black)) for b in boards}, bye):
            raise _Failure(
                i18n.text("cli.swiss-round.these-are-the-boards-of-round", source=source, r=r, k=k)
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
        _warn(i18n.text("cli.swiss-round.cannot-compare-with-the-programs-pairing", engine=engine))
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
            i18n.text("cli.swiss-round.in-the-file-paired", value=only_file or "—", value2=only_engine or "—")
        )
    if results.bye != bye:
        detail.append(
            i18n.text("cli.swiss-round.bye-in-the-file-paired", value=results.bye or "—", value2=bye or "—")
        )
    _warn(i18n.text("cli.swiss-round.round-differs-from-what-duelclock-swiss", k=k, value="; ".join(detail)))


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
            i18n.text("cli.swiss-round.rounds-from-on-were-paired-from", value=k + 1, k=k, input=args.input)
        )
    out = Path(args.output or args.input)
    backup = _write_atomically(out, trf.dump_bytes(recorded.tournament))

    print(i18n.text("cli.swiss-round.round-recorded-in", k=k, out=out))
    if backup is not None:
        print(i18n.text("cli.swiss-round.previous-version", backup=backup))
    for b in results.unreported:
        print(
            i18n.text(
                "cli.swiss-round.board-no-result-reported-0-0", number=b.number, white=b.white, black=b.black
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
        i18n.text(
            "cli.swiss-round.boards-forfeits-0-0-results",
            games=games,
            tally=tally,
            forfeits=forfeits,
            zeros=zeros,
        )
    )
    print(
        i18n.text("cli.swiss-round.bye", player=results.bye)
        if results.bye is not None
        else i18n.text("cli.swiss-round.bye-nobody")
    )
    if recorded.absences:
        listed = ", ".join(f"{sn} ({entry.code.value})" for sn, entry in recorded.absences)
        print(i18n.text("cli.swiss-round.absences-entered-before-the-round", listed=listed))
    return 0


def _nothing_written(source: str, problems: tuple[Problem, ...]) -> list[str]:
    lines = [_problem_line(source, p) for p in problems]
    lines.append(i18n.text("cli.swiss-round.nothing-was-written"))
    return lines


# -- absent ------------------------------------------------------------------------------------


def _start_numbers(text: str) -> set[int]:
    numbers: set[int] = set()
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        if not (part.isascii() and part.isdigit()):
            raise _Failure(i18n.text("cli.swiss-round.reported-is-not-a-start-number", part=part))
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
        raise _Failure(i18n.text("cli.swiss-round.round-1-is-not-recorded-yet", input=args.input)) from exc
    except RoundTwoPaired as exc:
        raise _Failure(
            i18n.text(
                "cli.swiss-round.round-is-already-paired-round-1",
                input=args.input,
                rounds_paired=tournament.rounds_paired,
            )
        ) from exc
    except UnknownPlayers as exc:
        raise _Failure(
            i18n.text(
                "cli.swiss-round.reported-no-players-with-start-numbers",
                value=", ".join(map(str, exc.numbers)),
            )
        ) from exc
    except AbsentButRecorded as exc:
        raise _Failure(
            i18n.text(
                "cli.swiss-round.player-missed-round-1-but-has",
                start_number=exc.start_number,
                entry=exc.entry,
                round_number=exc.round_number,
            )
        ) from exc
    except ModelError as exc:
        raise _Failure(
            i18n.text("cli.swiss-round.the-number-of-rounds-is-unknown", input=args.input)
        ) from exc

    def names(numbers: tuple[int, ...]) -> str:
        return ", ".join(f"{sn} {tournament[sn].name}".rstrip() for sn in numbers)

    for sn in rule.not_absent:
        _warn(i18n.text("cli.swiss-round.player-played-in-round-1-reported", sn=sn))
    changed = rule.tournament != tournament
    out = Path(args.output or args.input)
    backup = None
    if changed or args.output:
        backup = _write_atomically(out, trf.dump_bytes(rule.tournament))
    if rule.withdrawn:
        print(i18n.text("cli.swiss-round.withdrawn-absent-from-round-1-0000", value=names(rule.withdrawn)))
    else:
        print(i18n.text("cli.swiss-round.nobody-was-withdrawn"))
    if rule.reported:
        print(i18n.text("cli.swiss-round.staying-they-reported", value=names(rule.reported)))
    if rule.reinstated:
        print(i18n.text("cli.swiss-round.reinstated-withdrawn-earlier", value=names(rule.reinstated)))
    if changed or args.output:
        print(i18n.text("cli.swiss-round.written-to", out=out))
        if backup is not None:
            print(i18n.text("cli.swiss-round.previous-version", backup=backup))
    else:
        print(i18n.text("cli.swiss-round.unchanged", out=out))
    return 0
