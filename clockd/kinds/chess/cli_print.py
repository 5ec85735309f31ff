"""``duelclock chess print KIND TRF…``: what the chess hall prints, as HTML, PDF or PNG.

KIND (English or Polish): ``startlist``/``lista-startowa``, ``pairings``/``kojarzenia``,
``byname``/``alfabetycznie`` (the round's pairings by name), ``slips``/``blankiety`` (a result
slip per board),
``standings``/``klasyfikacja``, ``crosstable``/``tabela``, ``prizes``/``nagrody``,
``diplomas``/``dyplomy``, ``medals``/``medale``. The group's games come from its TRF; school,
class and medal from the day file (``--day chess-day.json``), its group chosen by
``--group KEY`` or, when several TRFs are given (the day's prize list), by each file's name
(``sp3-ch.trf`` is group ``sp3-ch``). The medal list needs only the day file.

Everything is read and checked before anything is written: a malformed TRF line, a group
the day file does not have, a round that is not there — one sentence naming the file (and
line and column), exit status 2, no file touched. The files are then written side by side
and renamed into place together.

A start list written to a file is accompanied by its machine-readable copy (``--json``, by
default beside the HTML/PDF with the extension ``.json``): give it as ``--previous`` when the
list is published again after corrections, and the new list says at its top who was added,
removed or corrected.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clockd.i18n import Msg, Problem, msg, render, text

if TYPE_CHECKING:
    from clockd.core.chessday.roster import ChessDay, Group
    from clockd.core.swiss.model import Tournament
    from clockd.reports.chess import Listed, Printout

#: Each printout's name, and the Polish aliases that mean the same.
KINDS: dict[str, str] = {
    "startlist": "startlist",
    "lista-startowa": "startlist",
    "pairings": "pairings",
    "kojarzenia": "pairings",
    "byname": "byname",
    "alfabetycznie": "byname",
    "slips": "slips",
    "blankiety": "slips",
    "standings": "standings",
    "klasyfikacja": "standings",
    "crosstable": "crosstable",
    "tabela": "crosstable",
    "prizes": "prizes",
    "nagrody": "prizes",
    "diplomas": "diplomas",
    "dyplomy": "diplomas",
    "medals": "medals",
    "medale": "medals",
}


class _Failure(Exception):
    """One sentence for the user (a message), exit status 2."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.code)
        self.msg = message


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "print",
        help=text("cli.chess-print.help"),
        description=text("cli.chess-print.description"),
    )
    parser.add_argument("kind", metavar="KIND", choices=sorted(KINDS), help=text("cli.chess-print.kind"))
    parser.add_argument("trf", metavar="TRF", nargs="*", help=text("cli.chess-print.trf-option"))
    parser.add_argument("--day", metavar="DAY.json", help=text("cli.chess-print.day"))
    parser.add_argument("--group", metavar="KEY", help=text("cli.chess-print.group"))
    parser.add_argument("--round", type=int, metavar="N", help=text("cli.chess-print.round"))
    parser.add_argument(
        "--first-board", type=int, default=1, metavar="N", help=text("cli.chess-print.first-board")
    )
    parser.add_argument("--previous", metavar="OLD", help=text("cli.chess-print.previous"))
    parser.add_argument("--seed", metavar="S", help=text("cli.chess-print.seed"))
    parser.add_argument("--html", metavar="F", help=text("cli.chess-print.html-option"))
    parser.add_argument("--pdf", metavar="F", help=text("cli.chess-print.pdf-option"))
    parser.add_argument("--png", metavar="F", help=text("cli.chess-print.png-option"))
    parser.add_argument("--json", metavar="F", dest="json_out", help=text("cli.chess-print.json-option"))
    parser.set_defaults(func=run)


# -- reading -------------------------------------------------------------------------------------


def _read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _Failure(msg("cli.cannot-read", path=path, problem=exc)) from exc


def _read_trf(path: str) -> Tournament:
    from clockd.core.swiss import trf
    from clockd.core.swiss.model import ModelError

    data = _read_bytes(path)
    try:
        return trf.load_bytes(data)
    except trf.TrfError as exc:
        raise _Failure(
            msg("cli.chess-print.bad-trf", path=path, line=exc.line, column=exc.column, reason=exc.reason)
        ) from exc
    except ModelError as exc:
        raise _Failure(msg("cli.chess-print.bad-tournament", path=path, reason=str(exc))) from exc


def _read_day(path: str) -> ChessDay:
    from pydantic import ValidationError

    from clockd.core.actions import validation_msgs
    from clockd.core.chessday.roster import DAY_FORMAT, ChessDay

    data = _read_bytes(path)
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", 1)
        column = getattr(exc, "colno", 1)
        raise _Failure(msg("cli.chess-print.bad-json", path=path, line=line, column=column)) from exc
    if isinstance(raw, dict) and isinstance(raw.get("format"), int) and raw["format"] > DAY_FORMAT:
        raise _Failure(msg("cli.chess-print.day-too-new", path=path, found=raw["format"], known=DAY_FORMAT))
    try:
        return ChessDay.model_validate(raw)
    except ValidationError as exc:
        raise _Failure(msg("cli.bad-file", path=path, problems=validation_msgs(exc, path))) from exc


def _seed(args: argparse.Namespace, path: str) -> str:
    """The lots' seed: as given, else the group's key (``--group``, or the TRF's name) — the
    daemon's default, so a printout of an exported group ranks as the desk does."""
    return str(args.seed or getattr(args, "group", None) or Path(path).stem)


def _group(day: ChessDay, key: str, path: str) -> Group:
    for g in day.groups:
        if g.key == key:
            return g
    known = ", ".join(g.key for g in day.groups) or text("cli.none")
    raise _Failure(msg("cli.chess-print.no-such-group", path=path, group=key, known=known))


def _groups_of(args: argparse.Namespace, day: ChessDay | None) -> list[Group | None]:
    """The day file's group of each TRF: ``--group`` for a single TRF, else by file name."""
    if day is None:
        if args.group:
            raise _Failure(msg("cli.chess-print.group-needs-day"))
        return [None] * len(args.trf)
    if args.group:
        if len(args.trf) > 1:
            raise _Failure(msg("cli.chess-print.group-with-many"))
        return [_group(day, args.group, args.day)]
    out: list[Group | None] = []
    for path in args.trf:
        key = Path(path).stem
        if not any(g.key == key for g in day.groups):
            known = ", ".join(g.key for g in day.groups) or text("cli.none")
            raise _Failure(msg("cli.chess-print.which-group", path=path, day=args.day, known=known))
        out.append(_group(day, key, args.day))
    return out


def _previous(path: str, group: Group | None) -> tuple[list[Listed], bool]:
    """The previous start list's lines, and whether it knew names and ratings only (a TRF)."""
    from clockd.reports.chess import listed, people, read_start_list_copy

    if Path(path).suffix.lower() == ".trf":
        return listed(people(_read_trf(path))), True
    data = _read_bytes(path)
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line, column = getattr(exc, "lineno", 1), getattr(exc, "colno", 1)
        raise _Failure(msg("cli.chess-print.bad-json", path=path, line=line, column=column)) from exc
    try:
        lines = read_start_list_copy(raw)
    except Problem as exc:
        raise _Failure(msg("cli.chess-print.in-file", path=path, problem=exc.msg)) from exc
    if lines is not None:
        return lines, False
    if isinstance(raw, dict) and "groups" in raw:  # an earlier day file
        day = _read_day(path)
        if group is None:
            raise _Failure(msg("cli.chess-print.previous-day-needs-group", path=path))
        old = _group(day, group.key, path)
        from clockd.reports.chess import Listed

        return [
            Listed(e.start, f"{e.surname} {e.first_name}", e.rating, e.school, e.school_class)
            for e in old.entrants
        ], False
    raise _Failure(msg("cli.chess-print.not-a-start-list", path=path))


# -- building ------------------------------------------------------------------------------------


def _rounds(args: argparse.Namespace, tournament: Tournament, path: str) -> int:
    played = tournament.rounds_paired
    rounds = played if args.round is None else args.round
    if played == 0:
        raise _Failure(msg("cli.chess-print.no-rounds", path=path))
    if not 1 <= rounds <= played:
        raise _Failure(msg("cli.chess-print.round-not-played", path=path, round=rounds, played=played))
    return rounds


def _pairing(
    args: argparse.Namespace, tournament: Tournament, path: str
) -> tuple[int, list[tuple[int, int]], int | None]:
    """The round to print, its boards and bye: a recorded round as recorded, the next
    round as the FIDE Dutch engine pairs it (what ``duelclock swiss pair`` gives)."""
    from clockd.core.swiss.dutch import NoValidPairing, PairingInputError, pair_round
    from clockd.core.swiss.model import ModelError
    from clockd.reports.chess import recorded_round

    played = tournament.rounds_paired
    total = tournament.total_rounds
    default = played if total is not None and played >= total else played + 1
    number = default if args.round is None else args.round
    if 1 <= number <= played:
        boards, bye = recorded_round(tournament, number)
        return number, boards, bye
    if number != played + 1:
        raise _Failure(
            msg("cli.chess-print.round-cannot-be-printed", path=path, round=number, next=played + 1)
        )
    try:
        pairing = pair_round(tournament)
    except (NoValidPairing, PairingInputError, ModelError) as exc:
        raise _Failure(msg("cli.chess-print.cannot-pair", path=path, round=number, reason=str(exc))) from exc
    return number, list(pairing.boards), pairing.bye


def _build(args: argparse.Namespace, kind: str) -> tuple[Printout, str | None]:
    """The printout, and the start list's machine-readable copy (``None`` for other kinds)."""
    from clockd.reports import chess

    day = _read_day(args.day) if args.day else None
    if kind == "medals":
        if day is None:
            raise _Failure(msg("cli.chess-print.medals-need-day"))
        chosen = [_group(day, args.group, args.day)] if args.group else None
        return chess.medals(day, chosen), None
    if not args.trf:
        raise _Failure(msg("cli.chess-print.trf-needed"))
    if kind != "prizes" and len(args.trf) > 1:
        raise _Failure(msg("cli.chess-print.one-trf"))
    if args.first_board < 1:
        raise _Failure(msg("cli.chess-print.first-board-positive", first=args.first_board))
    groups = _groups_of(args, day)
    tournaments = [_read_trf(path) for path in args.trf]
    try:
        persons = [chess.people(t, g) for t, g in zip(tournaments, groups, strict=True)]
    except Problem as exc:
        raise _Failure(exc.msg) from exc
    heads = [chess.heading(t, g, day) for t, g in zip(tournaments, groups, strict=True)]
    tournament, path, group, who, head = tournaments[0], args.trf[0], groups[0], persons[0], heads[0]

    if kind == "startlist":
        lines = chess.listed(who)
        changes = None
        if args.previous:
            old, names_only = _previous(args.previous, group)
            changes = chess.compare_start_lists(old, lines, names_only=names_only)
        copy = chess.start_list_copy(lines, group=group.key if group else "", title=head.group)
        return chess.start_list(who, head, changes=changes), copy
    if kind in ("pairings", "byname", "slips"):
        number, boards, bye = _pairing(args, tournament, path)
        rnd = (tournament, who, head, number, boards)
        if kind == "slips":
            return chess.result_slips(*rnd, first_board=args.first_board), None
        build = chess.pairings if kind == "pairings" else chess.by_name
        return build(*rnd, bye, first_board=args.first_board), None
    if kind in ("standings", "crosstable", "diplomas"):
        table = chess.group_standings(
            tournament, rounds=_rounds(args, tournament, path), seed=_seed(args, path)
        )
        if kind == "standings":
            return chess.standings_printout(table, who, head), None
        if kind == "crosstable":
            return chess.crosstable(tournament, table, who, head), None
        return chess.diplomas(chess.GroupResult(head, table, who)), None
    results = []
    for t, p, h, trf_path in zip(tournaments, persons, heads, args.trf, strict=True):
        table = chess.group_standings(t, rounds=_rounds(args, t, trf_path), seed=_seed(args, trf_path))
        results.append(chess.GroupResult(h, table, p))
    if day is not None:  # the day's order of groups, whatever order the files came in
        order = {g.key: i for i, g in enumerate(day.groups)}
        results = [
            r
            for _, r in sorted(
                zip(groups, results, strict=True), key=lambda x: order[x[0].key] if x[0] else 0
            )
        ]
    event = day.title if day and day.title else heads[0].event
    date = day.date if day and day.date else heads[0].date
    return chess.prizes(results, event=event, date=date), None


# -- writing -------------------------------------------------------------------------------------


def _outputs(
    args: argparse.Namespace, printout: Printout, copy: str | None
) -> list[tuple[str, Callable[[Path], object]]]:
    out: list[tuple[str, Callable[[Path], object]]] = []
    from clockd.store.files import private_file

    if args.html:
        out.append((args.html, lambda p: private_file(p, printout.html)))
    json_path = args.json_out
    if copy is not None and json_path is None:
        beside = args.html or args.pdf
        json_path = str(Path(beside).with_suffix(".json")) if beside else None
    if copy is not None and json_path is not None:
        out.append((json_path, lambda p: private_file(p, copy)))
    if args.pdf:
        out.append((args.pdf, lambda p: _pdf(printout, p)))
    if args.png:
        out.append((args.png, lambda p: _png(printout, p)))
    return out


def _pdf(printout: Printout, path: Path) -> None:
    from clockd.reports.render import html_to_pdf

    html_to_pdf(printout.html, path, landscape=printout.landscape)


def _png(printout: Printout, path: Path) -> None:
    from clockd.reports.render import html_to_png

    html_to_png(printout.html, path, width_px=1600 if printout.landscape else 1200)


def _write_all(outputs: list[tuple[str, Callable[[Path], object]]]) -> list[str]:
    """Write every file beside its target, then rename them all into place: a file that
    cannot be written leaves none of them changed."""
    temps: list[tuple[Path, Path]] = []
    try:
        for name, write in outputs:
            target = Path(name)
            temp = target.with_name(f".{target.name}.part{target.suffix}")
            temps.append((temp, target))
            try:
                write(temp)
                os.chmod(temp, 0o600)  # a group's printout names children: the owner's only (a PDF too)
            except (OSError, Problem) as exc:
                problem: Any = exc.msg if isinstance(exc, Problem) else exc
                raise _Failure(msg("cli.cannot-write", path=name, problem=problem)) from exc
        for temp, target in temps:
            os.replace(temp, target)
    finally:
        for temp, _ in temps:
            temp.unlink(missing_ok=True)
    return [name for name, _ in outputs]


def run(args: argparse.Namespace) -> int:
    kind = KINDS[args.kind]
    try:
        printout, copy = _build(args, kind)
        outputs = _outputs(args, printout, copy)
        if not outputs:
            sys.stdout.write(printout.html)
            return 0
        written = _write_all(outputs)
    except _Failure as failure:
        print(f"duelclock chess print: {render(failure.msg)}", file=sys.stderr)
        return 2
    print(text("cli.written", files=written))
    return 0
