"""``duelclock chess …``: the day's groups as events of the running daemon.

* ``import DAY.json`` — every group of the day file becomes a chess group of the daemon, its
  boards numbered across the hall group by group (``--clock BOARD=TABLE``: boards with a clock);
  ``import-trf KEY FILE.trf`` — one group from a TRF (the interchange format);
* ``groups`` — where every group stands: round, results missing, next round, lag;
* ``pair [KEY …]`` — the next round of every group that is ready (or of those named), with a
  progress bar; ``pairings KEY``, ``standings KEY`` — what the hall posts;
* ``result BOARD RESULT`` — one keystroke per result (``1`` ``0`` ``=``/``5`` ``+`` ``-``) on a board
  of the hall (the board finds its group); ``enter`` — the same from the keyboard, line after line
  (``21 1``, ``22=``, ``u`` takes the last one back), as Vega's result entry; ``undo BOARD``;
* ``close KEY… | --all`` — close the round (no reported result: 0–0, §H); ``claim``, ``appeal``,
  ``report``, ``withdraw`` — the arbiters' other decisions;
* ``add KEY "Nazwisko Imię" --school --class [--rating]`` — a late entry (the next start number,
  the missed rounds by the group's rule); ``fix KEY PLAYER --name/--school/--class --reason`` — a
  player's data corrected after the start list was published; ``post KEY --start-list`` — the
  start list published again, with what changed since;
* ``export KEY|--all -o PATH`` — each group's TRF, for ``duelclock swiss check`` and the rating office.

Every decision is the daemon's: this module sends actions and prints what the daemon answers.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clockd.cli.status import add_connection_options, call
from clockd.i18n import Problem, msg, render, text
from clockd.kinds.chess.cli_decisions import (
    add,
    appeal,
    claim,
    close,
    enter,
    fix,
    group_of_board,
    groups_of,
    one,
    report,
    result,
    undo,
    withdraw,
)


def register(sub: Any) -> None:
    def command(
        name: str, help_code: str, fn: Callable[[Any, argparse.Namespace], int], *, token: bool = True
    ) -> Any:
        p = sub.add_parser(name, help=text(help_code), description=text(help_code))
        add_connection_options(p, token=token)
        if token:
            p.add_argument("--by", default=None, help=text("cli.chess-day.by"))
        p.set_defaults(func=lambda args: _run(args, fn))
        return p

    p = command("import", "cli.chess-day.import", _import)
    p.add_argument("day", metavar="DAY.json", help=text("cli.chess-day.day-file"))
    p.add_argument(
        "--clock", action="append", default=[], metavar="BOARD=TABLE", help=text("cli.chess-day.clock")
    )
    p.add_argument("--first-board", type=int, default=1, help=text("cli.chess-day.first-board"))
    p.add_argument(
        "--public-names", choices=("full", "short"), default="full", help=text("cli.chess-day.public-names")
    )
    p.add_argument("--birth-year", action="store_true", help=text("cli.chess-day.birth-year"))
    p = command("import-trf", "cli.chess-day.import-trf", _import_trf)
    p.add_argument("key", metavar="KEY")
    p.add_argument("trf", metavar="FILE.trf")
    p.add_argument("--name", default="")
    p.add_argument("--first-board", type=int, default=1, help=text("cli.chess-day.first-board"))
    p.add_argument("--rounds", type=int, default=None)
    command("status", "cli.chess-day.status", _status, token=False)
    p = command("pair", "cli.chess-day.pair", _pair)
    p.add_argument("keys", nargs="*", metavar="KEY", help=text("cli.chess-day.pair-keys"))
    for name, code, fn in (
        ("pairings", "cli.chess-day.pairings", _pairings),
        ("standings", "cli.chess-day.standings", _standings),
    ):
        p = command(name, code, fn, token=False)
        p.add_argument("key", metavar="KEY")
    p = command("result", "cli.chess-day.result", result)
    p.add_argument("board", type=int, metavar="BOARD")
    p.add_argument("result", metavar="RESULT", help=text("cli.chess-day.result-keys"))
    p.add_argument("--replace", action="store_true", help=text("cli.chess-day.replace"))
    p.add_argument("--round", type=int, default=None, metavar="R", help=text("cli.chess-day.result-round"))
    p.add_argument("--reason", default="", help=text("cli.chess-day.result-reason"))
    command("enter", "cli.chess-day.enter", enter)
    p = command("undo", "cli.chess-day.undo", undo)
    p.add_argument("board", type=int, metavar="BOARD")
    p = command("close", "cli.chess-day.close", close)
    p.add_argument("keys", nargs="*", metavar="KEY")
    p.add_argument("--all", action="store_true", help=text("cli.chess-day.close-all"))
    p.add_argument("--stop-clocks", action="store_true", help=text("cli.chess-day.close-stop-clocks"))
    p = command("claim", "cli.chess-day.claim", claim)
    p.add_argument("board", type=int, metavar="BOARD")
    p.add_argument("player", metavar="PLAYER", help=text("cli.chess-day.player-or-name"))
    p = command("appeal", "cli.chess-day.appeal", appeal)
    p.add_argument("board", type=int, metavar="BOARD")
    p.add_argument("player", metavar="PLAYER", help=text("cli.chess-day.player-or-name"))
    p.add_argument("--text", required=True, help=text("cli.chess-day.appeal-text"))
    p.add_argument("--decision", required=True, help=text("cli.chess-day.appeal-decision"))
    p.add_argument("--result", default=None, help=text("cli.chess-day.result-keys"))
    for name, code, fn in (
        ("report", "cli.chess-day.report", report),
        ("withdraw", "cli.chess-day.withdraw", withdraw),
    ):
        p = command(name, code, fn)
        p.add_argument("key", metavar="KEY")
        p.add_argument("player", metavar="PLAYER", help=text("cli.chess-day.player-or-name"))
        if name == "withdraw":
            p.add_argument("--reason", required=True)
    p = command("add", "cli.chess-day.add", add)
    p.add_argument("key", metavar="KEY")
    p.add_argument("name", metavar="NAME", help=text("cli.chess-day.add-name"))
    p.add_argument("--school", default="", help=text("cli.chess-day.school"))
    p.add_argument(
        "--class", dest="school_class", default="", metavar="CLASS", help=text("cli.chess-day.class")
    )
    p.add_argument("--rating", type=int, default=None, help=text("cli.chess-day.rating"))
    p.add_argument("--email", default="", help=text("cli.chess-day.email"))
    p = command("fix", "cli.chess-day.fix", fix)
    p.add_argument("key", metavar="KEY")
    p.add_argument("player", metavar="PLAYER", help=text("cli.chess-day.player-or-name"))
    p.add_argument("--name", default=None, help=text("cli.chess-day.add-name"))
    p.add_argument("--school", default=None, help=text("cli.chess-day.school"))
    p.add_argument(
        "--class", dest="school_class", default=None, metavar="CLASS", help=text("cli.chess-day.class")
    )
    p.add_argument("--reason", required=True, help=text("cli.chess-day.fix-reason"))
    p = command("post", "cli.chess-day.post", _post, token=False)
    p.add_argument("keys", nargs="*", metavar="KEY")
    p.add_argument("--all", action="store_true")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--standings", action="store_true", help=text("cli.chess-day.post-standings"))
    shown.add_argument("--start-list", action="store_true", help=text("cli.chess-day.post-start-list"))
    p.add_argument("--slips", action="store_true", help=text("cli.chess-day.post-slips"))
    p.add_argument("-o", "--output", required=True, metavar="DIR", help=text("cli.chess-day.post-output"))
    p = command("export", "cli.chess-day.export", _export, token=False)
    p.add_argument("keys", nargs="*", metavar="KEY")
    p.add_argument("--all", action="store_true")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help=text("cli.chess-day.export-output"))
    p.add_argument("--birth-year", action="store_true", help=text("cli.chess-day.export-birth-year"))


def _login() -> str:
    """Who is at this desk: the login, so that the group's view says who entered what."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _run(args: argparse.Namespace, fn: Callable[[Any, argparse.Namespace], int]) -> int:
    def act(client: Any) -> int:
        client.by = getattr(args, "by", None) or client.by or _login()
        return fn(client, args)

    return call(args, act)


# -- reading the daemon's groups ------------------------------------------------------------------


def _title(event: Any) -> str:
    return render(event.title)


# -- creating groups -------------------------------------------------------------------------------


def _clocks(specs: list[str]) -> dict[int, int]:
    out: dict[int, int] = {}
    for spec in specs:
        board, _, table = spec.partition("=")
        if not (board.strip().isdigit() and table.strip().isdigit()):
            raise Problem("chess.bad-clock", value=spec)
        out[int(board)] = int(table)
    return out


def _create(client: Any, key: str, name: str, config: Any) -> Any:
    from clockd.core import tomltext
    from clockd.core.actions import CreateEvent

    toml = tomltext.dumps(config.model_dump(mode="json", exclude_defaults=True))
    return client.act("", CreateEvent(event_kind="chess", key=key, name=name, config_toml=toml))


def _import(client: Any, args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from clockd.core.chessday.roster import DAY_FORMAT, ChessDay

    path = Path(args.day)
    try:
        day = ChessDay.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise Problem("cli.cannot-read", path=str(path), problem=exc.strerror or str(exc)) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise Problem("chess.bad-day-file", path=str(path), where=where, problem=first["msg"]) from exc
    if day.format > DAY_FORMAT:
        raise Problem("chess.day-file-newer", path=str(path), format=day.format)
    import_day(
        client,
        day,
        clocks=_clocks(args.clock),
        first_board=args.first_board,
        say=print,
        names=args.public_names,
        birth_year=args.birth_year,
    )
    return 0


def import_day(
    client: Any,
    day: Any,
    *,
    clocks: dict[int, int],
    first_board: int = 1,
    say: Callable[[str], None],
    names: str = "full",
    birth_year: bool = False,
) -> None:
    """Every group of ``day`` as a chess group of the daemon, boards numbered across the hall
    group by group from ``first_board`` (each group owns as many boards as its round can use);
    ``birth_year``: the daemon keeps each child's year of birth for the TRF (never the date)."""
    from clockd.core.chessday.group import ChessError, ChessGroup, ChessGroupConfig

    board = first_board
    configs = []
    for group in day.groups:
        boards = (len(group.entrants) + 1) // 2
        configs.append(
            ChessGroupConfig(
                group=group,
                title=day.title,
                date=day.date,
                rounds=day.rounds,
                minutes=day.minutes,
                plan=day.plan,
                officials=day.officials,
                late_entry=day.late_entry,
                public_names=names,
                birth_year=birth_year,
                first_board=board,
                clocks={b: t for b, t in clocks.items() if board <= b < board + boards},
            )
        )
        board += boards
    problems = []  # every group checked by the rules first: a day is imported whole or not at all
    for config in configs:
        try:
            ChessGroup.new(config)
        except ChessError as exc:
            problems.append(exc.msg)
    if problems:  # too few players: merge or drop groups; anything else: correct the day file
        small = all(p.code == "chess.too-few-players" for p in problems)
        raise Problem("chess.import-refused" if small else "chess.import-refused-data", problems=problems)
    for config in configs:
        group, board = config.group, config.first_board
        n = len(group.entrants)
        boards = (n + 1) // 2
        done = _create(client, group.key, "", config)
        name = render(done.event.title)
        last = board + boards - 1
        say(render("chess.imported", key=group.key, name=name, players=n, first=board, last=last))


def _import_trf(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import ChessGroupConfig
    from clockd.core.chessday.roster import Group, Level
    from clockd.core.swiss import trf

    path = Path(args.trf)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Problem("cli.cannot-read", path=str(path), problem=exc.strerror or str(exc)) from exc
    try:
        tournament = trf.load_bytes(data)
    except trf.TrfError as exc:
        raise Problem("chess.bad-trf-file", path=str(path), problem=str(exc)) from exc
    rounds = args.rounds or tournament.total_rounds or 8
    config = ChessGroupConfig(
        group=Group(key=args.key, level=Level.PRIMARY, sex="m"),
        rounds=rounds,
        first_board=args.first_board,
        trf=trf.dumps(tournament),
    )
    done = _create(client, args.key, args.name or path.stem, config)
    body = done.event.body
    print(
        render(
            "chess.imported",
            key=args.key,
            name=render(done.event.title),
            players=body.players,
            first=body.first_board,
            last=body.last_board,
        )
    )
    return 0


# -- where the groups stand ------------------------------------------------------------------------------


def _status(client: Any, args: argparse.Namespace) -> int:
    groups = groups_of(client)
    if args.json:
        print(
            json.dumps(
                [g.model_dump(mode="json", exclude={"body": {"standings"}}) for g in groups],
                ensure_ascii=False,
            )
        )
        return 0
    if not groups:
        print(text("chess.no-groups"))
        return 0
    for g in groups:
        b = g.body
        missing = sum(1 for x in b.boards if x.result is None)
        lag = render("chess.lagging", minutes=b.lag_minutes) if b.lag_minutes else ""
        print(
            render(
                "chess.group-line",
                key=g.key,
                name=_title(g),
                players=b.players,
                round=b.round,
                rounds=b.rounds,
                phase=render(f"chess.phase.{b.phase}"),
                missing=missing,
                first=b.first_board,
                last=b.last_board,
                next=(b.next_round_at or "—")[11:16] or "—",
            )
            + lag
        )
        if b.to_withdraw:
            players = ", ".join(f"{p.name} ({p.start})" for p in b.to_withdraw)
            print("  " + render("chess.will-withdraw", key=g.key, players=players))
    return 0


def _bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} {label:<20}")
    sys.stderr.flush()


def _pair(client: Any, args: argparse.Namespace) -> int:
    groups = groups_of(client)
    if args.keys:
        known = {g.key: g for g in groups}
        unknown = [k for k in args.keys if k not in known]
        if unknown:
            raise Problem("event.unknown", event=unknown[0], known=list(known))
        chosen = [known[k] for k in args.keys]
    else:
        chosen = [g for g in groups if g.actions.get("chess-pair") is None]
        if not chosen:
            print(text("chess.none-ready"))
            return 0
    paired, failed = pair_groups(client, chosen, progress=_bar)
    sys.stderr.write("\n")
    print(render("chess.paired", count=len(paired), groups=", ".join(paired) or "—"))
    for key, reason in failed:
        print(render("chess.not-paired", key=key, reason=render(reason)))
    return 2 if failed else 0


def pair_groups(
    client: Any, groups: list[Any], *, progress: Callable[[int, int, str], None] | None = None
) -> tuple[list[str], list[tuple[str, Any]]]:
    """Pair the next round of each of ``groups`` in turn (one journaled action each, so a group
    that cannot be paired stops nothing else): the keys paired, and the refusals."""
    from clockd.api.messages import ApiError
    from clockd.core.chessday.group import PairRound

    failed: list[tuple[str, Any]] = []
    paired: list[str] = []
    for i, g in enumerate(groups):
        if progress is not None:
            progress(i, len(groups), g.key)
        try:
            client.act(g.key, PairRound(round=g.body.round + 1 if g.body.phase != "playing" else None))
            paired.append(g.key)
        except ApiError as exc:
            failed.append((g.key, exc.reason))
    if progress is not None:
        progress(len(groups), len(groups), "")
    return paired, failed


def _pairings(client: Any, args: argparse.Namespace) -> int:
    g = one(client, args.key)
    b = g.body
    if args.json:
        print(json.dumps([x.model_dump(mode="json") for x in b.boards], ensure_ascii=False))
        return 0
    boards = b.boards or b.last_round  # between rounds: the last round with its results
    title = "chess.pairings-title" if b.boards else "chess.last-round-title"
    print(render(title, name=_title(g), round=b.round))
    for x in boards:
        result = x.result or (f"({x.proposal}?)" if x.proposal else "")
        w, b_ = x.white, x.black
        white, black = f"({w.start}) {w.name}", f"({b_.start}) {b_.name}"
        print(f"{x.board:>4}  {white:<33} {w.points:>4}  {result:^7}  {black:<33} {b_.points:>4}")
    if b.bye and b.boards:
        print(render("chess.bye", name=f"({b.bye.start}) {b.bye.name}"))
    return 0


def _standings(client: Any, args: argparse.Namespace) -> int:
    g = one(client, args.key)
    b = g.body
    if args.json:
        print(json.dumps([x.model_dump(mode="json") for x in b.standings], ensure_ascii=False))
        return 0
    print(render("chess.standings-title", name=_title(g), round=b.round))
    from clockd.api.chess import column_label

    labels = [render(column_label(c)) for c in b.columns]
    print(f"{'':>4}  {text('chess.column-start'):>4}  {'':<28} " + " ".join(f"{c:>6}" for c in labels))
    for row in b.standings:
        print(
            f"{row.rank:>4}  {row.player.start:>4}  {row.player.name:<28} "
            + " ".join(f"{row.values.get(c, ''):>6}" for c in b.columns)
        )
    return 0


# -- results ----------------------------------------------------------------------------------------------


def published_changes(body: Any) -> Any:
    """What changed in a group since its start list was published, as the daemon journaled it:
    the late entrants (added) and the fixes (corrected, each as it was and is); ``None``: nothing."""
    from clockd.reports.chess import Changes, Correction, Listed

    if not body.late and not body.fixes:
        return None
    codes = {"name": "report.chess.field.name", "school": "report.chess.field.school"}
    codes["school_class"] = "report.chess.field.class"

    def line(p: Any) -> Any:
        return Listed(p.start, p.name, None, p.school, p.school_class)

    corrected = tuple(
        Correction(
            line(f.player),
            line(f.player),
            tuple((codes[x], f.old.get(x, ""), f.new.get(x, "")) for x in f.fields),
        )
        for f in body.fixes
    )
    added = tuple(line(x.player) for x in body.late)
    return Changes(added=added, corrected=corrected, since="report.chess.changes-published")


def _post(client: Any, args: argparse.Namespace) -> int:
    """The round's pairings of each group, as PDF and HTML to post in the hall, straight from
    the daemon: the board order and, beside it, the same round by name (``…-runda-N`` and
    ``…-runda-N-alfabetycznie``), boards numbered as the desk numbers them; ``--slips`` the
    result slips too (``…-runda-N-blankiety``). Between rounds, or with ``--standings``, the
    standings after the last closed round, places 1–3 marked for the prize-giving."""
    from clockd.api.messages import EventResults
    from clockd.core.chessday.roster import Entrant, Group, Level
    from clockd.core.swiss import trf
    from clockd.i18n import language
    from clockd.reports import chess as report
    from clockd.reports.render import html_to_pdf

    groups = groups_of(client)
    chosen = groups if args.all or not args.keys else [one(client, k) for k in args.keys]
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for g in chosen:
        b = g.body
        reply = client.request(EventResults(event=g.key, lang=language()))
        tournament = trf.loads(reply.results["trf"])
        full = {int(c["start"]): str(c["name"]) for c in reply.results.get("trf_cut", [])}
        if full:  # the names TRF's 33 columns cut, whole again on the printouts
            tournament = tournament.with_players(
                p.replace(name=full.get(p.start_number, p.name)) for p in tournament.players
            )
        seen = {x.white.start: x.white for x in b.boards} | {x.black.start: x.black for x in b.boards}
        seen |= {row.player.start: row.player for row in b.standings}
        seen |= {p.start: p for p in b.start_list}  # everyone, the absent and the withdrawn too
        entrants = []
        for p in tournament.players:
            surname, _, first = p.name.partition(",")
            v = seen.get(p.start_number)
            entrants.append(
                Entrant(
                    start=p.start_number,
                    surname=surname.strip(),
                    first_name=first.strip(),
                    sex=b.sex,
                    school=v.school if v else "",
                    school_class=v.school_class if v else "",
                )
            )
        level = Level(b.level)
        group = Group(key=g.key, level=level, grade=b.grade, sex=b.sex, part=b.part, entrants=tuple(entrants))
        persons = report.people(tournament, group)
        head = dataclasses.replace(report.heading(tournament, group), late_entry=b.late_entry)
        printouts: list[tuple[str, Any]] = []
        if args.start_list:
            printouts.append(
                (f"{g.key}-lista-startowa", report.start_list(persons, head, changes=published_changes(b)))
            )
            changed = len(b.late) + len(b.fixes)
            if changed:
                print(render("chess.posted-start-list", key=g.key, changes=changed))
            else:
                print(render("chess.posted-start-list-first", key=g.key))
        elif args.standings or b.phase != "playing":
            table = report.group_standings(tournament, seed=g.key)
            # named after the rounds closed, not the one played
            printouts.append(
                (f"{g.key}-klasyfikacja-{table.rounds}", report.standings_printout(table, persons, head))
            )
            print(render("chess.posted-standings", key=g.key, rounds=table.rounds))
        if b.phase == "playing" and not args.standings and not args.start_list:
            boards = [(x.white.start, x.black.start) for x in b.boards]
            stem = f"{g.key}-runda-{b.round}"
            rnd = (tournament, persons, head, b.round, boards)
            bye = b.bye.start if b.bye else None
            at, gone = b.first_board, b.withdrawn
            printouts.append((stem, report.pairings(*rnd, bye, first_board=at, withdrawn=gone)))
            printouts.append(
                (f"{stem}-alfabetycznie", report.by_name(*rnd, bye, first_board=at, withdrawn=gone))
            )
            if args.slips:
                printouts.append((f"{stem}-blankiety", report.result_slips(*rnd, first_board=at)))
        if args.slips and b.phase != "playing":
            print(render("chess.post-no-slips", key=g.key))
        for stem, printout in printouts:
            from clockd.store.files import private_file

            private_file(out / f"{stem}.html", printout.html)
            html_to_pdf(printout.html, out / f"{stem}.pdf", landscape=printout.landscape)
            os.chmod(out / f"{stem}.pdf", 0o600)  # like the HTML beside it: the group's names
            print(render("chess.exported", path=str(out / f"{stem}.pdf")))
    return 0


def _export(client: Any, args: argparse.Namespace) -> int:
    from clockd.api.messages import EventResults
    from clockd.i18n import language

    groups = groups_of(client)
    keys = [g.key for g in groups] if args.all else args.keys
    if not keys:
        raise Problem("chess.export-which")
    out = Path(args.output)
    # A folder ("trf/", or one that exists) takes a file per group, whatever their number.
    many = args.all or len(keys) > 1 or out.is_dir() or args.output.endswith(("/", os.sep))
    if args.birth_year and not client.token:
        raise Problem("chess.birth-year-needs-token")
    texts: dict[Path, tuple[str, list[Any]]] = {}
    for key in keys:  # every group asked before any file is written
        reply = client.request(EventResults(event=key, lang=language()))
        text = reply.private.get("trf_birth_year") if args.birth_year else reply.results["trf"]
        if text is None:
            raise Problem("chess.no-birth-year", key=key)
        texts[out / f"{key}.trf" if many else out] = (text, reply.results.get("trf_cut", []))
    if many:
        out.mkdir(parents=True, exist_ok=True)
    for path, (body, cut) in texts.items():
        from clockd.store.files import private_file

        private_file(path, body)
        print(render("chess.exported", path=str(path)))
        for c in cut:  # TRF's name field has 33 columns: said where the file is written
            print(
                render(
                    "chess.trf-name-cut",
                    path=str(path),
                    start=c["start"],
                    name=c["name"],
                    written=c["written"],
                )
            )
    return 0


__all__ = ["group_of_board", "groups_of", "import_day", "msg", "pair_groups", "register"]
