"""``duelclock tournament``'s commands on files alone (no daemon): a configuration, a sign-up
form's export, a draw re-run, a results file printed — and what the daemon's commands share
with them (reading a CSV, the refusals and possible duplicates printed, a file saved)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clockd import i18n
from clockd.i18n import Msg, Problem, msg, render, text


def register_offline(tsub: Any) -> None:
    tournament_file = i18n.text("cli.tournament.a-tournament-toml-file-default-the")
    p = tsub.add_parser(
        "config",
        help=i18n.text("cli.tournament.check-a-configuration-file-and-print"),
    )
    p.add_argument("--config", metavar="FILE", help=tournament_file)
    p.add_argument(
        "--json",
        action="store_true",
        help=i18n.text("cli.tournament.print-the-configuration-as-json"),
    )
    p.set_defaults(func=_config)

    p = tsub.add_parser(
        "signups",
        help=i18n.text("cli.tournament.read-a-sign-up-forms-csv"),
    )
    p.add_argument(
        "csv",
        help=i18n.text("cli.tournament.the-forms-csv-export-comma-semicolon"),
    )
    p.add_argument("--config", metavar="FILE", help=tournament_file)
    p.add_argument(
        "--json",
        action="store_true",
        help=i18n.text("cli.tournament.print-the-lists-as-json-display"),
    )
    p.set_defaults(func=_signups)

    p = tsub.add_parser(
        "redraw",
        help=i18n.text("cli.tournament.re-run-the-apps-draw-for"),
    )
    p.add_argument("--seed", type=int, required=True)
    p.add_argument(
        "--players",
        required=True,
        help=i18n.text("cli.tournament.the-fields-player-ids-comma-separated"),
    )
    p.add_argument(
        "--size",
        type=int,
        default=16,
        help=i18n.text("cli.tournament.the-largest-bracket-default-16"),
    )
    p.set_defaults(func=_redraw)

    p = tsub.add_parser(
        "report",
        help=i18n.text("cli.tournament.print-a-results-file-as-html"),
    )
    p.add_argument(
        "results",
        help=i18n.text("cli.tournament.a-results-json-file-duelclock-demo"),
    )
    p.add_argument("--html", metavar="FILE")
    p.add_argument("--pdf", metavar="FILE")
    p.add_argument("--png", metavar="FILE")
    p.add_argument("--csv", metavar="FILE")
    p.set_defaults(func=_report)


def fail(reason: Msg | str) -> int:
    print(render(reason) if isinstance(reason, Msg) else reason, file=sys.stderr)
    return 2


def _config(args: argparse.Namespace) -> int:
    from clockd.core.tournament import ConfigError
    from clockd.data import load_config

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return fail(exc.msg)
    if args.json:
        print(json.dumps(cfg.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return 0
    print(
        f"{cfg.name}: {cfg.players} {i18n.text('cli.tournament.players')}, "
        f"{i18n.text('cli.tournament.resolution')} {cfg.resolution_ms} ms"
    )
    for i, r in enumerate(cfg.rounds):
        print(
            f"  {render(cfg.round_name(i))}: {r.players} {i18n.text('cli.tournament.players')}, {r.pieces} "
            f"{i18n.text('cli.tournament.pieces')}, {r.time_per_side} {i18n.text('cli.tournament.per-side')}"
            f" ({text(f'term.round-kind.{cfg.round_kind(i).value}')})"
        )
    tb = cfg.tiebreak
    print(
        f"  {i18n.text('cli.tournament.tie-break')}: {tb.pieces} {i18n.text('cli.tournament.pieces')}, "
        f"{tb.time_per_side} {i18n.text('cli.tournament.per-side')}"
    )
    for s in cfg.sessions:
        print(f"  {i18n.text('cli.tournament.session')} {s.key}: {render(s.title())}")
    return 0


def _signups(args: argparse.Namespace) -> int:
    from clockd.core.registration import ListKind, Registration, SignupError, decode_signups, parse_signups
    from clockd.core.tournament import ConfigError
    from clockd.data import load_config

    try:
        cfg = load_config(args.config)
        text_ = decode_signups(read_csv(args.csv), source=args.csv)
        signups = parse_signups(
            text_, min_age=cfg.min_age, source=args.csv, opens_at=cfg.opens_at, time_zone=cfg.time_zone
        )
    except (ConfigError, SignupError) as exc:
        return fail(exc.msg)
    except OSError as exc:
        return fail(msg("cli.cannot-read", path=args.csv, problem=exc))
    reg = Registration.from_signups(
        signups, seats=cfg.players, min_age=cfg.min_age, name_style=cfg.public_names
    )
    lists = {kind.value: [p.public() for p in reg.listed(kind)] for kind in (ListKind.MAIN, ListKind.RESERVE)}
    refused = [r.model_dump(mode="json") for r in reg.refused]
    maybe = [d.model_dump(mode="json") for d in reg.possible_duplicates]
    if args.json:
        out = {"lists": lists, "refused": refused, "possible_duplicates": maybe, "columns": signups.columns}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(i18n.text("cli.tournament.columns"), ", ".join(f"{k}={v!r}" for k, v in signups.columns.items()))
    for kind, title in (
        (ListKind.MAIN, i18n.text("cli.tournament.main-list")),
        (ListKind.RESERVE, i18n.text("cli.tournament.reserve-list")),
    ):
        print(f"{title} ({len(reg.listed(kind))}/{cfg.players}):")
        for p in reg.listed(kind):
            print(f"  {p.id:3d}  {p.display_name}  ({i18n.text('cli.tournament.line')} {p.line})")
    print_refusals(reg.refused)
    print_possible_duplicates(reg.possible_duplicates)
    return 0


def read_csv(path: str) -> bytes:
    """The bytes of a sign-up file, refusing one too big to be one before reading it (``OSError``
    when it cannot be read; :class:`~clockd.core.registration.SignupError` when it is too big)."""
    from clockd.core.csvtext import MAX_CSV_BYTES
    from clockd.core.registration import SignupError

    size = Path(path).stat().st_size
    if size > MAX_CSV_BYTES:
        raise SignupError(
            path,
            [(1, msg("signups.file-too-big", mb=size // 1_000_000, limit_mb=MAX_CSV_BYTES // 1_000_000))],
        )
    return Path(path).read_bytes()


def print_refusals(refusals: Any) -> None:
    """Who the rules left out and why, so the referee can tell them (sign-ups or the daemon's view)."""
    if not refusals:
        return
    print(i18n.text("cli.tournament.refused-sign-ups"))
    for r in refusals:
        why = render(r.detail) if r.detail is not None else text(f"term.refusal.{r.reason}")
        print(f"  {i18n.text('cli.tournament.line')} {r.line}: {r.name} — {why}")


def print_no_email(found: Any) -> None:
    """Main-list players the organiser cannot write to: their sign-up has no e-mail address."""
    if not found:
        return
    print(i18n.text("cli.signups-no-email"))
    for p in found:
        line = f"{i18n.text('cli.tournament.line')} {p.line}: " if p.line is not None else ""
        print(f"  {line}{p.name} ({p.player})")


def print_possible_duplicates(found: Any) -> None:
    """Namesakes with other contacts: the referee decides whether they are one person (§1.14)."""
    if not found:
        return
    print(text("cli.tournament.possible-duplicates"))
    for d in found:
        print("  " + text("cli.tournament.possible-duplicate", line=d.line, name=d.name, same_as=d.same_as))


def _redraw(args: argparse.Namespace) -> int:
    from clockd.core.bracket import BracketError, bracket_size, bye_lines, seeded_draw

    try:
        players = [int(x) for x in args.players.split(",") if x.strip()]
    except ValueError:
        return fail(msg("cli.players-list"))
    try:
        size = bracket_size(len(players), args.size)
        lines = seeded_draw(players, size, args.seed)
    except BracketError as exc:
        return fail(exc.msg)
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

    from clockd.core.actions import validation_msgs
    from clockd.reports.html import bracket_html
    from clockd.reports.results import Results, check_results, results_csv

    try:
        results = Results.model_validate_json(Path(args.results).read_text(encoding="utf-8"))
    except OSError as exc:
        return fail(msg("cli.cannot-read", path=args.results, problem=exc))
    except ValidationError as exc:
        return fail(msg("cli.bad-file", path=args.results, problems=validation_msgs(exc, args.results)))
    problems = check_results(results)
    for problem in problems:
        print(render(msg("cli.warning", problem=problem)), file=sys.stderr)
    page = bracket_html(results)
    try:
        if args.html:
            save(args.html, lambda: Path(args.html).write_text(page, encoding="utf-8"))
        if args.csv:
            save(args.csv, lambda: Path(args.csv).write_text(results_csv(results), encoding="utf-8"))
        if args.pdf or args.png:
            from clockd.reports.render import html_to_pdf, html_to_png

            if args.pdf:
                save(args.pdf, lambda: html_to_pdf(page, args.pdf))
            if args.png:
                save(args.png, lambda: html_to_png(page, args.png))
    except Problem as exc:
        return fail(exc.msg)
    if not (args.html or args.csv or args.pdf or args.png):
        sys.stdout.write(page)
    return 1 if problems else 0


def save(path: Any, write: Callable[[], object]) -> None:
    """``write()`` a report file; a file that cannot be written is a :class:`Problem` naming it and why."""
    try:
        write()
    except OSError as exc:
        raise Problem("cli.cannot-write", path=str(path), problem=exc) from exc
