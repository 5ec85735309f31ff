"""``duelclock tournament``: the Puzzle Duel for the referee — sign-ups to podium.

With the daemon running (``duelclock run``; its address and token come from ``daemon.json``,
or ``--host/--port/--token``)::

    duelclock tournament new pt                       # a session (the festival's rules, or --config FILE)
    duelclock tournament import zapisy.csv            # the sign-up form's export: main and reserve lists
    duelclock tournament add --first Ola --last Nowak --age 30 --walk-in
    duelclock tournament checkin 1 2 3 …              # players present (--out undoes)
    duelclock tournament close                        # start: empty seats to reserves, then walk-ins
    duelclock tournament draw --seed 2026             # or --lines 1=5,2=11,… from the physical draw
    duelclock tournament show                         # the bracket and who plays where
    duelclock tournament assign R1-1 3                # match to table 3: its clock set for the round
    duelclock tournament toss R1-1 5                  # player 5 won the toss: the other starts the clock
    duelclock tournament complete R1-1                # the picture is complete: the duel ends now
    duelclock tournament confirm R1-1                 # the winner advances
    duelclock tournament tiebreak R1-1                # same time: the 49-piece tie-break on its table
    duelclock tournament override R1-1 7 --category dispute --reason "…"
    duelclock tournament walkover R2-3 4 --reason "did not come"
    duelclock tournament pause R1-1 / resume R1-1 / adjust R1-1 5 -10 --reason "…"
    duelclock tournament export --json r.json --pdf bracket.pdf --png bracket.png --csv r.csv

``-s/--session`` names the session when the daemon holds several (Fri, Sat, Sun); without
it, the one session still being played. Every change needs the referee's token and is
journaled with ``--by`` (default: your login).

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
        help=tr(
            pl="Puzzle Duel: konfiguracja, zapisy, losowanie, wyniki",
            en="the Puzzle Duel: configuration, sign-ups, draw, results",
        ),
        description=tr(
            pl="Turnieje Puzzle Duel (system pucharowy na zegarach szachowych): konfiguracja, zapisy, "
            "losowanie i wyniki.",
            en="Puzzle Duel tournaments (knockout on chess clocks): configuration, sign-ups, "
            "the draw and the results.",
        ),
    )
    tsub = parser.add_subparsers(dest="tournament_command", required=True, metavar="COMMAND")
    _register_daemon(tsub)
    _register_offline(tsub)


def _register_offline(tsub: Any) -> None:
    tournament_file = tr(
        pl="plik TOML turnieju (domyślnie: regulamin festiwalu)",
        en="a tournament TOML file (default: the festival's rules)",
    )
    p = tsub.add_parser(
        "config",
        help=tr(
            pl="sprawdź plik konfiguracji i wypisz, co ustawia",
            en="check a configuration file and print what it sets",
        ),
    )
    p.add_argument("--config", metavar="FILE", help=tournament_file)
    p.add_argument(
        "--json",
        action="store_true",
        help=tr(pl="wypisz konfigurację jako JSON", en="print the configuration as JSON"),
    )
    p.set_defaults(func=_config)

    p = tsub.add_parser(
        "signups",
        help=tr(
            pl="wczytaj eksport CSV formularza zapisów i pokaż listy",
            en="read a sign-up form's CSV export and show the lists",
        ),
    )
    p.add_argument(
        "csv",
        help=tr(
            pl="eksport CSV formularza (pola rozdzielone przecinkiem, średnikiem lub tabulatorem)",
            en="the form's CSV export (comma, semicolon or tab separated)",
        ),
    )
    p.add_argument("--config", metavar="FILE", help=tournament_file)
    p.add_argument(
        "--json",
        action="store_true",
        help=tr(
            pl="wypisz listy jako JSON (tylko nazwy wyświetlane)",
            en="print the lists as JSON (display names only)",
        ),
    )
    p.set_defaults(func=_signups)

    p = tsub.add_parser(
        "redraw",
        help=tr(
            pl="powtórz losowanie programu dla danego ziarna (by sprawdzić drabinkę)",
            en="re-run the app's draw for a seed (to check a bracket)",
        ),
    )
    p.add_argument("--seed", type=int, required=True)
    p.add_argument(
        "--players",
        required=True,
        help=tr(
            pl="numery zawodników w stawce, oddzielone przecinkami",
            en="the field's player ids, comma separated",
        ),
    )
    p.add_argument(
        "--size",
        type=int,
        default=16,
        help=tr(pl="największa drabinka (domyślnie 16)", en="the largest bracket (default 16)"),
    )
    p.set_defaults(func=_redraw)

    p = tsub.add_parser(
        "report",
        help=tr(
            pl="wypisz plik wyników jako HTML, PDF, PNG lub CSV",
            en="print a results file as HTML, PDF, PNG or CSV",
        ),
    )
    p.add_argument(
        "results",
        help=tr(
            pl="plik wyników JSON (z duelclock demo --json-out lub z eksportu demona)",
            en="a results JSON file (duelclock demo --json-out, or the daemon's export)",
        ),
    )
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
    from clockd.core.registration import ListKind, Registration, SignupError, decode_signups, parse_signups
    from clockd.core.tournament import ConfigError
    from clockd.data import load_config

    try:
        cfg = load_config(args.config)
        text = decode_signups(_read_csv(args.csv), source=args.csv)
        signups = parse_signups(text, min_age=cfg.min_age, source=args.csv)
    except (ConfigError, SignupError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(
            tr(
                pl=f"nie można odczytać {args.csv}: {exc.strerror}",
                en=f"cannot read {args.csv}: {exc.strerror}",
            )
        )
    reg = Registration.from_signups(
        signups, seats=cfg.players, min_age=cfg.min_age, name_style=cfg.public_names
    )
    lists = {kind.value: [p.public() for p in reg.listed(kind)] for kind in (ListKind.MAIN, ListKind.RESERVE)}
    refused = [r.model_dump() for r in reg.refused]
    if args.json:
        print(
            json.dumps({"lists": lists, "refused": refused, "columns": signups.columns}, ensure_ascii=False)
        )
        return 0
    print(tr(pl="Kolumny:", en="Columns:"), ", ".join(f"{k}={v!r}" for k, v in signups.columns.items()))
    for kind, title in (
        (ListKind.MAIN, tr(pl="Lista główna", en="Main list")),
        (ListKind.RESERVE, tr(pl="Lista rezerwowa", en="Reserve list")),
    ):
        print(f"{title} ({len(reg.listed(kind))}/{cfg.players}):")
        for p in reg.listed(kind):
            print(f"  {p.id:3d}  {p.display_name}  ({tr(pl='wiersz', en='line')} {p.line})")
    _print_refusals(reg.refused)
    return 0


def _read_csv(path: str) -> bytes:
    """The bytes of a sign-up file, refusing one too big to be one before reading it (``OSError``
    when it cannot be read; :class:`~clockd.core.registration.SignupError` when it is too big)."""
    from clockd.core.csvtext import MAX_CSV_BYTES
    from clockd.core.registration import SignupError

    size = Path(path).stat().st_size
    if size > MAX_CSV_BYTES:
        raise SignupError(
            path,
            [
                (
                    1,
                    f"the file has {size // 1_000_000} MB; a sign-up file has at most "
                    f"{MAX_CSV_BYTES // 1_000_000} MB (a thousand sign-ups take about 0.2 MB): "
                    "is it the right file?",
                )
            ],
        )
    return Path(path).read_bytes()


def _print_refusals(refusals: Any) -> None:
    """Who the rules left out and why, so the referee can tell them (sign-ups or the daemon's view)."""
    if not refusals:
        return
    print(tr(pl="Odrzucone zgłoszenia:", en="Refused sign-ups:"))
    for r in refusals:
        print(f"  {tr(pl='wiersz', en='line')} {r.line}: {r.name} — {refusal_text(r.reason, r.same_as)}")


def refusal_text(reason: str, same_as: int | None = None) -> str:
    """Why a sign-up was refused, in the referee's words."""
    if reason == "under-age":
        return tr(pl="poniżej minimalnego wieku (§1.9)", en="under the minimum age (§1.9)")
    if reason == "duplicate":
        return tr(
            pl=f"ta sama osoba co w wierszu {same_as} (§1.14)",
            en=f"the same person as line {same_as} (§1.14)",
        )
    if reason == "over-limit":
        return tr(
            pl="lista główna i rezerwowa są pełne (§1.11)",
            en="the main and reserve lists are full (§1.11)",
        )
    return reason


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


# -- with the daemon ----------------------------------------------------------------------------


def _register_daemon(tsub: Any) -> None:
    from clockd.cli.argtypes import seconds_to_ms
    from clockd.cli.status import add_connection_options

    def command(name: str, help_text: str, *, mutating: bool = True, session: bool = True) -> Any:
        p = tsub.add_parser(name, help=help_text, description=help_text)
        if session:
            p.add_argument(
                "-s",
                "--session",
                help=tr(
                    pl="klucz sesji (domyślnie: ta, która jest rozgrywana)",
                    en="the session's key (default: the one being played)",
                ),
            )
        add_connection_options(p, token=mutating)
        if mutating:
            p.add_argument(
                "--by",
                default=None,
                help=tr(
                    pl="kto decyduje (domyślnie: twoja nazwa użytkownika)",
                    en="who decides (default: your login name)",
                ),
            )
        p.set_defaults(func=_daemon_command, command=name)
        return p

    p = command(
        "new",
        tr(
            pl="utwórz sesję (regulamin festiwalu lub --config FILE)",
            en="create a session (the festival's rules, or --config FILE)",
        ),
        session=False,
    )
    p.add_argument(
        "session",
        help=tr(
            pl="krótki klucz, np. pt, sb, nd (sesje z konfiguracji)",
            en="a short key, e.g. pt, sb, nd (the configuration's sessions)",
        ),
    )
    p.add_argument("--config", metavar="FILE", help=tr(pl="plik TOML turnieju", en="a tournament TOML file"))
    p.add_argument(
        "--name",
        default="",
        help=tr(
            pl="nazwa pokazywana na ekranach (domyślnie: z konfiguracji)",
            en="the name screens show (default: the configuration's)",
        ),
    )
    p = command(
        "import",
        tr(pl="zaimportuj eksport CSV formularza zapisów", en="import the sign-up form's CSV export"),
    )
    p.add_argument(
        "csv", help=tr(pl="plik CSV (UTF-8 lub Windows-1250)", en="the CSV file (UTF-8 or Windows-1250)")
    )
    p = command(
        "add",
        tr(pl="dodaj osobę zgłoszoną przy stoliku sędziego", en="add a person typed in at the desk"),
    )
    p.add_argument("--first", required=True, help=tr(pl="imię", en="first name (imię)"))
    p.add_argument("--last", default="", help=tr(pl="nazwisko (prywatne)", en="surname (nazwisko; private)"))
    p.add_argument(
        "--age",
        type=int,
        required=True,
        help=tr(pl="wiek (prywatny; co najmniej 13, §1.9)", en="age (wiek; private; at least 13, §1.9)"),
    )
    p.add_argument("--email", default="", help=tr(pl="e-mail (prywatny)", en="e-mail (private)"))
    p.add_argument("--phone", default="", help=tr(pl="telefon (prywatny)", en="phone (private)"))
    p.add_argument(
        "--nick",
        default="",
        help=tr(pl="nazwa pokazywana na ekranach", en="the name to show on screens"),
    )
    p.add_argument(
        "--walk-in",
        action="store_true",
        help=tr(
            pl="z sali: czeka na miejscu w dniu turnieju (§1.19), spoza list",
            en="waiting on the day (§1.19), not on the lists",
        ),
    )
    p = command(
        "checkin",
        tr(
            pl="obecni zawodnicy (--out: jednak nieobecni)",
            en="players present (--out: not present after all)",
        ),
    )
    p.add_argument("players", nargs="+", type=int, metavar="PLAYER")
    p.add_argument("--out", action="store_true")
    p = command("withdraw", tr(pl="zawodnik rezygnuje z udziału", en="a player resigns"))
    p.add_argument("player", type=int)
    command(
        "close",
        tr(
            pl="zamknij listę obecności: wolne miejsca dostają rezerwowi, potem osoby z sali (§1.18-1.19)",
            en="close check-in: empty seats go to reserves, then walk-ins (§1.18-1.19)",
        ),
    )
    p = command(
        "draw",
        tr(
            pl="drabinka: losowanie przez program (--seed albo losowe ziarno) lub losowanie przy stole "
            "(--lines)",
            en="the bracket: the app's draw (--seed, or a random one) or the physical one (--lines)",
        ),
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--lines",
        default=None,
        metavar="LINE=PLAYER,…",
        help=tr(pl="np. 1=5,2=11,3=2", en="e.g. 1=5,2=11,3=2"),
    )
    p = command(
        "show",
        tr(
            pl="sesja: zawodnicy, drabinka, kto gdzie gra",
            en="the session: players, bracket, who plays where",
        ),
        mutating=False,
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=tr(pl="sesja w takiej postaci, jaką podaje API", en="the session as the API gives it"),
    )
    p = command(
        "assign",
        tr(
            pl="przydziel pojedynek do stolika (jego zegar zostaje ustawiony na rundę)",
            en="put a match on a table (its clock is set for the round)",
        ),
    )
    p.add_argument("match")
    p.add_argument("table", type=int)
    p.add_argument(
        "--clock-a",
        type=int,
        default=None,
        metavar="PLAYER",
        help=tr(pl="kto siedzi po stronie A zegara", en="who sits at the clock's side A"),
    )
    p = command(
        "toss",
        tr(
            pl="zwycięzca rzutu: drugi zawodnik uruchamia zegar (§2.2.8)",
            en="the toss winner: the other player starts the clock (§2.2.8)",
        ),
    )
    p.add_argument("match")
    p.add_argument("winner", type=int, metavar="PLAYER")
    p = command(
        "complete",
        tr(
            pl="obrazek ułożony: pojedynek kończy się teraz",
            en="the picture is complete: the duel ends now",
        ),
    )
    p.add_argument("match")
    p = command(
        "confirm",
        tr(
            pl="zatwierdź wynik z zegara: zwycięzca przechodzi dalej",
            en="confirm the clock's result: the winner advances",
        ),
    )
    p.add_argument("match")
    p = command(
        "override",
        tr(
            pl="rozstrzygnij pojedynek (dyskwalifikacja §8.1, spór §2.2.19)",
            en="decide a match (disqualification §8.1, dispute §2.2.19)",
        ),
    )
    p.add_argument("match")
    p.add_argument("winner", type=int, metavar="PLAYER")
    p.add_argument("--category", required=True, choices=("disqualification", "dispute", "other"))
    p.add_argument("--reason", required=True)
    p = command(
        "walkover",
        tr(
            pl="zawodnik nie przyszedł: drugi przechodzi dalej walkowerem",
            en="a player did not come: the other advances",
        ),
    )
    p.add_argument("match")
    p.add_argument("absent", type=int, metavar="PLAYER")
    p.add_argument("--reason", required=True)
    p = command(
        "tiebreak",
        tr(
            pl="rozpocznij dogrywkę (obrazek z 49 elementów) nierozstrzygniętego pojedynku "
            "(na jego stoliku lub na --table)",
            en="start a tied match's 49-piece tie-break (on its table, or --table)",
        ),
    )
    p.add_argument("match")
    p.add_argument("--table", type=int, default=None)
    for name, help_text in (
        ("pause", tr(pl="wstrzymaj zegar pojedynku", en="pause a match's clock")),
        ("resume", tr(pl="wznów zegar pojedynku", en="resume a match's clock")),
    ):
        p = command(name, help_text)
        p.add_argument("match")
        p.add_argument("--reason", default="")
    p = command(
        "adjust",
        tr(
            pl="dodaj (+) lub odejmij (-) zawodnikowi czas: MATCH PLAYER ±SECONDS",
            en="give (+) or take (-) a player's time: MATCH PLAYER ±SECONDS",
        ),
    )
    p.add_argument("match")
    p.add_argument("player", type=int)
    p.add_argument(
        "seconds",
        type=seconds_to_ms,
        metavar="±SECONDS",
        help=tr(pl="np. 30, -30, 1.5", en="e.g. 30, -30, 1.5"),
    )
    p.add_argument("--reason", required=True)
    p = command(
        "export",
        tr(
            pl="zapisz wyniki sesji: JSON, CSV, HTML do druku, PDF, PNG",
            en="write the session's results: JSON, CSV, printable HTML, PDF, PNG",
        ),
        mutating=False,
    )
    p.add_argument("--json", metavar="FILE", dest="json_out")
    p.add_argument("--csv", metavar="FILE")
    p.add_argument("--html", metavar="FILE")
    p.add_argument("--pdf", metavar="FILE")
    p.add_argument("--png", metavar="FILE")


def _parse_lines(text: str) -> dict[int, int]:
    lines: dict[int, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        line, sep, player = part.partition("=")
        if not sep or not line.strip().isdigit() or not player.strip().isdigit():
            raise ValueError(f"--lines: {part!r} is not LINE=PLAYER (e.g. 3=12)")
        if int(line) in lines:
            raise ValueError(f"--lines: line {line} is given twice")
        lines[int(line)] = int(player)
    return lines


def _daemon_command(args: argparse.Namespace) -> int:
    from clockd.api import tournament as api
    from clockd.cli.status import EXIT_REFUSED, call

    if getattr(args, "by", None) is None and hasattr(args, "by"):
        import getpass

        try:
            args.by = getpass.getuser()
        except (KeyError, OSError):
            args.by = ""

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        cmd = args.command
        if cmd == "new":
            toml = None
            if args.config:
                try:
                    toml = Path(args.config).read_text(encoding="utf-8")
                except OSError as exc:
                    return _fail(f"{args.config}: {exc.strerror}")
            done = client.request(
                api.CreateTournament(session=args.session, name=args.name, config_toml=toml)
            )
            return _print_done(
                done, tr(pl=f"Sesja {args.session} utworzona", en=f"Session {args.session} created")
            )
        session = _session_key(client, args.session)
        if session is None:
            return EXIT_REFUSED
        if cmd == "show":
            return _show(client, session, args.json)
        if cmd == "export":
            return _export(client, session, args)
        request: Any
        if cmd == "import":
            from clockd.core.registration import SignupError, decode_signups, parse_signups

            source = Path(args.csv).name
            limit = _max_length(api.ImportSignups, "csv")
            try:
                text = decode_signups(_read_csv(args.csv), source=source)
                if len(text) > limit:
                    return _fail(
                        tr(
                            pl=f"{args.csv}: {len(text)} znaków, a demon przyjmuje plik zapisów do "
                            f"{limit} znaków; podziel go na części i zaimportuj każdą",
                            en=f"{args.csv}: {len(text)} characters, but the daemon takes sign-up files of "
                            f"up to {limit} characters; split it and import each part",
                        )
                    )
                parse_signups(text, source=source)  # the file's own errors, before the daemon is asked
            except OSError as exc:
                return _fail(f"{args.csv}: {exc.strerror}")
            except SignupError as exc:
                return _fail(str(exc))
            request = api.ImportSignups(session=session, csv=text, source=source)
        elif cmd == "add":
            request = api.AddPlayer(
                session=session,
                first_name=args.first,
                last_name=args.last,
                age=args.age,
                email=args.email,
                phone=args.phone,
                nickname=args.nick,
                walk_in=args.walk_in,
            )
        elif cmd == "checkin":
            done = None
            for player in args.players:
                done = client.request(api.CheckIn(session=session, player=player, present=not args.out))
            return _print_done(done, tr(pl="Obecność zapisana", en="Check-in recorded"))
        elif cmd == "withdraw":
            request = api.Withdraw(session=session, player=args.player)
        elif cmd == "close":
            request = api.CloseCheckIn(session=session)
        elif cmd == "draw":
            try:
                lines = _parse_lines(args.lines) if args.lines else None
            except ValueError as exc:
                return _fail(str(exc))
            request = api.MakeDraw(session=session, seed=args.seed, lines=lines)
        elif cmd == "assign":
            request = api.AssignMatch(
                session=session, match=args.match, table=args.table, clock_a=args.clock_a
            )
        elif cmd == "toss":
            request = api.RecordToss(session=session, match=args.match, winner=args.winner)
        elif cmd == "complete":
            request = api.CompleteMatch(session=session, match=args.match)
        elif cmd == "confirm":
            request = api.ConfirmMatch(session=session, match=args.match)
        elif cmd == "override":
            request = api.OverrideMatch(
                session=session,
                match=args.match,
                winner=args.winner,
                category=args.category,
                reason=args.reason,
            )
        elif cmd == "walkover":
            request = api.WalkoverMatch(
                session=session, match=args.match, absent=args.absent, reason=args.reason
            )
        elif cmd == "tiebreak":
            request = api.StartTiebreak(session=session, match=args.match, table=args.table)
        elif cmd == "pause":
            request = api.PauseMatch(session=session, match=args.match, reason=args.reason)
        elif cmd == "resume":
            request = api.ResumeMatch(session=session, match=args.match, reason=args.reason)
        elif cmd == "adjust":
            request = api.AdjustMatch(
                session=session,
                match=args.match,
                player=args.player,
                delta_ms=args.seconds,
                reason=args.reason,
            )
        else:  # pragma: no cover - argparse restricts the commands
            return _fail(f"unknown command {cmd}")
        done = client.request(request)
        if cmd == "import":
            _print_done(done, tr(pl="Zapisano", en="Journaled"))
            _print_refusals(done.session.refusals)
            return 0
        if cmd in ("pause", "resume", "adjust"):
            print(f"{tr(pl='zapisano', en='journaled')} (seq {done.seq})")
            return 0
        return _print_done(done, tr(pl="Zapisano", en="Journaled"), match=getattr(args, "match", None))

    return call(args, act)


def _max_length(model: Any, field: str) -> int:
    """The ``max_length`` a request model sets on ``field`` (what the daemon accepts)."""
    for rule in model.model_fields[field].metadata:
        if hasattr(rule, "max_length"):
            return int(rule.max_length)
    raise LookupError(f"{model.__name__}.{field} has no max_length")  # pragma: no cover


def _session_key(client: Any, wanted: str | None) -> str | None:
    from clockd.api import tournament as api

    sessions = client.request(api.TournamentStatus()).sessions
    if wanted is not None:
        return str(wanted)
    live = [s for s in sessions if s.stage != "finished"]
    if len(live) == 1:
        return str(live[0].key)
    if len(sessions) == 1:
        return str(sessions[0].key)
    known = ", ".join(f"{s.key} ({s.stage})" for s in sessions) or tr(pl="brak", en="none")
    print(
        tr(pl=f"podaj sesję: -s KLUCZ (sesje: {known})", en=f"name the session: -s KEY (sessions: {known})"),
        file=sys.stderr,
    )
    return None


def _print_done(done: Any, what: str, match: str | None = None) -> int:
    s = done.session
    print(f"{what} (seq {done.seq}) — {s.name}: {_stage_text(s.stage)}")
    if match and s.results is not None:
        names = {p.id: p.name for p in s.results.players}
        for m in s.results.matches:
            if m.id == match or m.tiebreak_of == match:
                print("  " + _match_line(m, names))
    return 0


def _stage_text(stage: str) -> str:
    return {
        "registration": tr(pl="zapisy i obecność", en="registration and check-in"),
        "draw": tr(pl="czeka na losowanie", en="waiting for the draw"),
        "bracket": tr(pl="trwa", en="in play"),
        "finished": tr(pl="zakończona", en="finished"),
    }.get(stage, stage)


STATUS_TEXT = {
    "waiting": ("czeka na graczy", "waiting for players"),
    "ready": ("do rozegrania", "ready"),
    "assigned": ("przy stole", "at a table"),
    "result": ("wynik do zatwierdzenia", "result to confirm"),
    "tiebreak": ("dogrywka", "tie-break"),
    "decided": ("rozstrzygnięty", "decided"),
    "cancelled": ("odwołany", "cancelled"),
}


def _match_line(m: Any, names: dict[int, str]) -> str:
    from clockd.reports.html import decided_by_text

    bye = tr(pl="wolny los", en="bye")
    a = names.get(m.a, "?") if m.a is not None else (bye if m.decided_by == "bye" else "…")
    b = names.get(m.b, "?") if m.b is not None else (bye if m.decided_by == "bye" else "…")
    pl, en = STATUS_TEXT.get(m.status, (m.status, m.status))
    text = f"{m.id:10s} {a} – {b}"
    if m.displayed is not None:
        text += f"  [{m.displayed.a} | {m.displayed.b}]"
    if m.table is not None and m.status in ("assigned", "result"):
        text += f"  {tr(pl='stół', en='table')} {m.table}"
    text += f"  {tr(pl=pl, en=en)}"
    if m.winner is not None:
        text += f" → {names.get(m.winner, '?')} ({decided_by_text(m.decided_by)})"
    return text


def _show(client: Any, session: str, as_json: bool) -> int:
    from clockd.api import tournament as api

    s = client.request(api.TournamentStatus(session=session)).sessions[0]
    if as_json:
        print(json.dumps(s.model_dump(mode="json"), ensure_ascii=False))
        return 0
    print(f"{s.name} ({s.key}): {_stage_text(s.stage)}")
    if s.results is None:
        for p in s.players:
            mark = "✓" if p.present else " "
            listed = {
                "main": tr(pl="główna", en="main"),
                "reserve": tr(pl="rezerwowa", en="reserve"),
                "walk-in": tr(pl="z sali", en="walk-in"),
            }.get(p.list, p.list)
            withdrawn = tr(pl=" (rezygnacja)", en=" (withdrawn)") if p.withdrawn else ""
            print(f"  {mark} {p.id:3d} {p.name:20s} {listed}{withdrawn}")
        _print_refusals(s.refusals)
        return 0
    # with their numbers: `toss`, `override`, `walkover` and `adjust` take a player's number
    names = {p.id: f"{p.name} ({p.id})" for p in s.results.players}
    current = None
    for m in s.results.matches:
        if m.round_name != current:
            current = m.round_name
            print(f"== {current} ==")
        print("  " + _match_line(m, names))
    podium = [names.get(p, "—") if p is not None else "—" for p in s.results.podium]
    if s.results.finished:
        print(tr(pl="Podium: ", en="Podium: ") + ", ".join(f"{i}. {n}" for i, n in enumerate(podium, 1)))
    return 0


def _export(client: Any, session: str, args: argparse.Namespace) -> int:
    from clockd.api import tournament as api
    from clockd.reports.html import bracket_html
    from clockd.reports.results import Results, results_csv

    s = client.request(api.TournamentStatus(session=session)).sessions[0]
    if s.results is None:
        return _fail(
            tr(pl=f"sesja {session} nie ma jeszcze drabinki", en=f"session {session} has no bracket yet")
        )
    results = Results.model_validate(s.results.model_dump(mode="json"))
    wrote = []
    if args.json_out:
        Path(args.json_out).write_text(results.model_dump_json(indent=2), encoding="utf-8")
        wrote.append(args.json_out)
    if args.csv:
        Path(args.csv).write_text(results_csv(results), encoding="utf-8")
        wrote.append(args.csv)
    page = bracket_html(results)
    if args.html:
        Path(args.html).write_text(page, encoding="utf-8")
        wrote.append(args.html)
    if args.pdf or args.png:
        from gui.render import html_to_pdf, html_to_png

        if args.pdf:
            html_to_pdf(page, args.pdf)
            wrote.append(args.pdf)
        if args.png:
            html_to_png(page, args.png)
            wrote.append(args.png)
    if not wrote:
        print(results.model_dump_json(indent=2))
    else:
        print(tr(pl="Zapisano: ", en="Written: ") + ", ".join(wrote))
    return 0
