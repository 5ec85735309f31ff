"""``duelclock tournament``: the Puzzle Duel for the referee — configuration, sign-ups, draw, results.

Offline commands (files only, no daemon):

* ``config [--config FILE]`` — check a configuration file and print what it sets.
* ``signups CSV [--config FILE] [--json]`` — read a sign-up form's export: the main and
  reserve lists (display names), and who was refused and why. Nothing is stored.
* ``redraw --seed S --players ID,ID,…`` — re-run the app's draw for a seed, so anyone can
  check a bracket the app drew.
* ``report RESULTS.json [--html F] [--pdf F] [--png F] [--csv F]`` — print a results file
  as the bracket page, PDF, PNG or CSV; checks it against the rules first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clockd.i18n import tr


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament",
        help="the Puzzle Duel: configuration, sign-ups, draw, results",
        description="Puzzle Duel tournaments (knockout on chess clocks): configuration, sign-ups, "
        "the draw and the results.",
    )
    tsub = parser.add_subparsers(dest="tournament_command", required=True, metavar="COMMAND")
    _register_offline(tsub)


def _register_offline(tsub: Any) -> None:
    p = tsub.add_parser("config", help="check a configuration file and print what it sets")
    p.add_argument("--config", metavar="FILE", help="a tournament TOML file (default: the festival's rules)")
    p.add_argument("--json", action="store_true", help="print the configuration as JSON")
    p.set_defaults(func=_config)

    p = tsub.add_parser("signups", help="read a sign-up form's CSV export and show the lists")
    p.add_argument("csv", help="the form's CSV export (comma, semicolon or tab separated)")
    p.add_argument("--config", metavar="FILE", help="a tournament TOML file (default: the festival's rules)")
    p.add_argument("--json", action="store_true", help="print the lists as JSON (display names only)")
    p.set_defaults(func=_signups)

    p = tsub.add_parser("redraw", help="re-run the app's draw for a seed (to check a bracket)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--players", required=True, help="the field's player ids, comma separated")
    p.add_argument("--size", type=int, default=16, help="the largest bracket (default 16)")
    p.set_defaults(func=_redraw)

    p = tsub.add_parser("report", help="print a results file as HTML, PDF, PNG or CSV")
    p.add_argument("results", help="a results JSON file (duelclock demo --json-out, or the daemon's export)")
    p.add_argument("--html", metavar="FILE")
    p.add_argument("--pdf", metavar="FILE")
    p.add_argument("--png", metavar="FILE")
    p.add_argument("--csv", metavar="FILE")
    p.set_defaults(func=_report)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1


def _config(args: argparse.Namespace) -> int:
    from clockd.core.tournament import ConfigError
    from clockd.data import load_config

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(cfg.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return 0
    print(
        f"{cfg.name}: {cfg.players} {tr(pl='graczy', en='players')}, "
        f"{tr(pl='rozdzielczość', en='resolution')} {cfg.resolution_ms} ms"
    )
    for i, r in enumerate(cfg.rounds):
        print(
            f"  {r.name}: {r.players} {tr(pl='graczy', en='players')}, {r.pieces} "
            f"{tr(pl='el.', en='pieces')}, {r.time_per_side} {tr(pl='na stronę', en='per side')}"
            f" ({cfg.round_kind(i).value})"
        )
    tb = cfg.tiebreak
    print(
        f"  {tr(pl='Dogrywka', en='Tie-break')}: {tb.pieces} {tr(pl='el.', en='pieces')}, "
        f"{tb.time_per_side} {tr(pl='na stronę', en='per side')}"
    )
    for s in cfg.sessions:
        print(f"  {tr(pl='Sesja', en='Session')} {s.key}: {s.name}")
    return 0


def _signups(args: argparse.Namespace) -> int:
    from clockd.core.registration import ListKind, Registration, SignupError, parse_signups
    from clockd.core.tournament import ConfigError
    from clockd.data import load_config

    try:
        cfg = load_config(args.config)
        text = Path(args.csv).read_text(encoding="utf-8-sig")
    except ConfigError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(
            tr(
                pl=f"nie można odczytać {args.csv}: {exc.strerror}",
                en=f"cannot read {args.csv}: {exc.strerror}",
            )
        )
    except UnicodeDecodeError:
        return _fail(
            tr(
                pl=f"{args.csv}: plik nie jest w UTF-8 (zapisz go jako CSV UTF-8)",
                en=f"{args.csv}: the file is not UTF-8 (save it as CSV UTF-8)",
            )
        )
    try:
        signups = parse_signups(text, min_age=cfg.min_age, source=args.csv)
    except SignupError as exc:
        return _fail(str(exc))
    reg = Registration.from_signups(signups, seats=cfg.players, min_age=cfg.min_age)
    lists = {kind.value: [p.public() for p in reg.listed(kind)] for kind in (ListKind.MAIN, ListKind.RESERVE)}
    refused = [r.model_dump() for r in reg.refused]
    if args.json:
        print(
            json.dumps({"lists": lists, "refused": refused, "columns": signups.columns}, ensure_ascii=False)
        )
        return 0
    print(tr(pl="Kolumny:", en="Columns:"), ", ".join(f"{k}={v!r}" for k, v in signups.columns.items()))
    for kind, title in (
        (ListKind.MAIN, tr(pl="Lista podstawowa", en="Main list")),
        (ListKind.RESERVE, tr(pl="Lista rezerwowa", en="Reserve list")),
    ):
        print(f"{title} ({len(reg.listed(kind))}/{cfg.players}):")
        for p in reg.listed(kind):
            print(f"  {p.id:3d}  {p.display_name}  ({tr(pl='wiersz', en='line')} {p.line})")
    if reg.refused:
        print(tr(pl="Odrzucone zgłoszenia:", en="Refused sign-ups:"))
        for r in reg.refused:
            print(f"  {tr(pl='wiersz', en='line')} {r.line}: {r.reason} — {r.detail}")
    return 0


def _redraw(args: argparse.Namespace) -> int:
    from clockd.core.bracket import BracketError, bracket_size, bye_lines, seeded_draw

    try:
        players = [int(x) for x in args.players.split(",") if x.strip()]
    except ValueError:
        return _fail(
            tr(
                pl="--players: podaj numery graczy oddzielone przecinkami",
                en="--players: give player ids separated by commas",
            )
        )
    try:
        size = bracket_size(len(players), args.size)
        lines = seeded_draw(players, size, args.seed)
    except BracketError as exc:
        return _fail(str(exc))
    print(
        json.dumps(
            {
                "seed": args.seed,
                "size": size,
                "byes": bye_lines(size, len(players)),
                "lines": {str(k): v for k, v in sorted(lines.items())},
            }
        )
    )
    return 0


def _report(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from clockd.core.tournament import describe_validation_error
    from clockd.reports.html import bracket_html
    from clockd.reports.results import Results, check_results, results_csv

    try:
        results = Results.model_validate_json(Path(args.results).read_text(encoding="utf-8"))
    except OSError as exc:
        return _fail(
            tr(
                pl=f"nie można odczytać {args.results}: {exc.strerror}",
                en=f"cannot read {args.results}: {exc.strerror}",
            )
        )
    except ValidationError as exc:
        return _fail(f"{args.results}:\n  " + "\n  ".join(describe_validation_error(exc)))
    problems = check_results(results)
    for problem in problems:
        print(tr(pl=f"uwaga: {problem}", en=f"warning: {problem}"), file=sys.stderr)
    page = bracket_html(results)
    if args.html:
        Path(args.html).write_text(page, encoding="utf-8")
    if args.csv:
        Path(args.csv).write_text(results_csv(results), encoding="utf-8")
    if args.pdf or args.png:
        from gui.render import html_to_pdf, html_to_png

        if args.pdf:
            html_to_pdf(page, args.pdf)
        if args.png:
            html_to_png(page, args.png)
    if not (args.html or args.csv or args.pdf or args.png):
        sys.stdout.write(page)
    return 1 if problems else 0
