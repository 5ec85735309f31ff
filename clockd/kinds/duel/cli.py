"""``duelclock tournament``: the Puzzle Duel for the referee — sign-ups to podium.

With the daemon running (``duelclock run``; its address and token come from ``daemon.json``,
or ``--host/--port/--token``)::

    duelclock tournament new pt                       # a session (the festival's rules, or --config FILE)
    duelclock tournament import zapisy.csv            # the sign-up form's export: main and reserve lists
    duelclock tournament add --first Ola --last Nowak --age 30 --walk-in
    duelclock tournament checkin 1 2 3 …              # players present (--out undoes)
    duelclock tournament close                        # start: empty seats to reserves, then walk-ins
    duelclock tournament reopen                       # until the draw: the close taken back
    duelclock tournament draw --seed 2026             # or --lines 1=5,2=11,… from the physical draw
    duelclock tournament show                         # the bracket and who plays where
    duelclock tournament assign R1-1 3                # match to table 3: its clock set for the round
    duelclock tournament toss R1-1 --winner 5         # player 5 won the toss: the other starts the clock
    duelclock tournament complete R1-1                # the picture is complete: the duel ends now
    duelclock tournament confirm R1-1                 # the winner advances
    duelclock tournament tiebreak R1-1                # same time: the 49-piece tie-break on its table
    duelclock tournament override R1-1 --winner 7 --category dispute --reason "…"
    duelclock tournament walkover R2-3 --absent 4 --reason "did not come"
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
import time
from pathlib import Path
from typing import Any

from clockd import i18n
from clockd.i18n import Msg, Problem, msg, render, text
from clockd.kinds.duel.cli_files import (
    print_no_email,
    print_possible_duplicates,
    print_refusals,
    read_csv,
    register_offline,
    save,
)

#: The top-level words this kind adds to ``duelclock`` and their summaries (catalogue codes).
COMMANDS = {
    "demo": "cli.demo.play-a-whole-simulated-puzzle-duel",
    "duel": "cli.duel.duel-tools-replay-a-disputed-duel",
    "tournament": "cli.tournament.the-puzzle-duel-configuration-sign-ups",
}


def register(sub: Any) -> None:
    from clockd.kinds.duel import cli_replay, demo

    demo.register(sub)
    cli_replay.register(sub)
    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament",
        help=i18n.text("cli.tournament.the-puzzle-duel-configuration-sign-ups"),
        description=i18n.text("cli.tournament.puzzle-duel-tournaments-knockout-on"),
    )
    tsub = parser.add_subparsers(dest="tournament_command", required=True, metavar="COMMAND")
    _register_daemon(tsub)
    register_offline(tsub)


def _player_by_name(client: Any, session: str, given: str, among: set[int] | None = None) -> int:
    """A player's number, or the one player whose public name starts with ``given`` (case,
    diacritics and spacing aside: "anna k" finds "Anna K."), so the referee can check in the
    person at the desk by the name they say. ``among``: only these players (a match's two)."""
    from clockd.core.people import fold_name

    if given.strip().isdigit():
        return int(given)
    wanted = fold_name(given)
    players = [p for p in _session_view(client, session).body.players if among is None or int(p.id) in among]
    found = [p for p in players if wanted and fold_name(p.name).startswith(wanted)]
    exact = [p for p in found if fold_name(p.name) == wanted]
    found = exact if len(exact) == 1 else found
    if len(found) == 1:
        return int(found[0].id)
    if not found:
        raise Problem("cli.tournament.no-player-named", name=given)
    raise Problem(
        "cli.tournament.several-players-named", name=given, players=[f"{p.name} ({p.id})" for p in found]
    )


def _player_argument(p: argparse.ArgumentParser, role: str, help_text: str) -> None:
    """A player whose role the command names: ``--winner 7`` / ``--absent "Anna K"``, or
    positionally (``toss R1-1 7``) as before. One meaning per command: the help says which.
    A number, or a name as ``checkin`` takes it (the referee says the name they hear)."""
    p.add_argument(role, nargs="?", metavar=role.upper(), help=help_text)
    p.add_argument(f"--{role}", dest=f"{role}_option", metavar="PLAYER", help=help_text)


def _player(args: argparse.Namespace, role: str, client: Any, session: str) -> int:
    """The player ``--ROLE`` names in ``args.match``: by number, or by name among the match's two
    players (so "Anna K" is the Anna of this duel even when the session has two)."""
    given = {v for v in (getattr(args, role), getattr(args, f"{role}_option")) if v is not None}
    if len(given) != 1:
        raise Problem("cli.tournament.player-role", role=f"--{role}")
    value = str(given.pop())
    if value.strip().isdigit():
        return int(value)
    match = _match_view(_session_view(client, session), args.match)
    return _player_by_name(client, session, value, among={p for p in (match.a, match.b) if p is not None})


# -- with the daemon ----------------------------------------------------------------------------


def _register_daemon(tsub: Any) -> None:
    from clockd.cli.argtypes import seconds_to_ms
    from clockd.cli.described import Verb, add_verb
    from clockd.cli.status import add_connection_options

    def command(
        name: str,
        help_text: str,
        *,
        mutating: bool = True,
        session: bool = True,
        json_option: bool = True,
        aliases: list[str] | None = None,
    ) -> Any:
        p = tsub.add_parser(name, help=help_text, description=help_text, aliases=aliases or [])
        if session:
            p.add_argument(
                "-s",
                "--session",
                help=i18n.text("cli.tournament.the-sessions-key-default-the-one"),
            )
        add_connection_options(p, token=mutating, json_option=json_option)
        if mutating:
            p.add_argument(
                "--by",
                default=None,
                help=i18n.text("cli.tournament.who-decides-default-your-login-name"),
            )
        p.set_defaults(func=_daemon_command, command=name)
        return p

    def match_command(name: str, help_text: str, *, aliases: list[str] | None = None) -> Any:
        p = command(name, help_text, aliases=aliases)
        p.add_argument("match")
        return p

    def verb(word: str, action: str, given: tuple[str, ...] = (), *, match: bool = False) -> None:
        """A word whose options are its action's fields (clockd.cli.described); its summary stays ours."""
        code = VERB_HELP[word]
        add_verb(Verb(word, action, given, help=code), match_command if match else command)

    p = command(
        "new",
        i18n.text("cli.tournament.create-a-session-the-festivals-rules"),
        session=False,
    )
    p.add_argument(
        "session",
        help=i18n.text("cli.tournament.a-short-key-e-g-pt"),
    )
    p.add_argument("--config", metavar="FILE", help=i18n.text("cli.tournament.a-tournament-toml-file"))
    p.add_argument(
        "--name",
        default="",
        help=i18n.text("cli.tournament.the-name-screens-show-default-the"),
    )
    p = command(
        "import",
        i18n.text("cli.tournament.import-the-sign-up-forms-csv"),
    )
    p.add_argument("csv", help=i18n.text("cli.tournament.the-csv-file-utf-8-or"))
    p = command(
        "add",
        i18n.text("cli.tournament.add-a-person-typed-in-at"),
    )
    p.add_argument("--first", required=True, help=i18n.text("cli.tournament.first-name-imi"))
    p.add_argument("--last", default="", help=i18n.text("cli.tournament.surname-nazwisko-private"))
    p.add_argument(
        "--age",
        type=int,
        required=True,
        help=i18n.text("cli.tournament.age-wiek-private-at-least-13"),
    )
    p.add_argument("--email", default="", help=i18n.text("cli.tournament.e-mail-private"))
    p.add_argument("--phone", default="", help=i18n.text("cli.tournament.phone-private"))
    p.add_argument(
        "--nick",
        default="",
        help=i18n.text("cli.tournament.the-name-to-show-on-screens"),
    )
    p.add_argument(
        "--walk-in",
        action="store_true",
        help=i18n.text("cli.tournament.waiting-on-the-day-1-19"),
    )
    p = command(
        "checkin",
        i18n.text("cli.tournament.players-present-out-not-present-after"),
    )
    p.add_argument(
        "players", nargs="+", metavar="PLAYER", help=i18n.text("cli.tournament.player-or-name-help")
    )
    p.add_argument("--out", action="store_true")
    verb("withdraw", "withdraw", ("player",))
    verb("close", "check-in-close")
    verb("reopen", "check-in-reopen")
    p = command(
        "draw",
        i18n.text("cli.tournament.the-bracket-the-apps-draw-seed"),
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--lines",
        default=None,
        metavar="LINE=PLAYER,…",
        help=i18n.text("cli.tournament.e-g-1-5-2-11"),
    )
    p = command(
        "show",
        i18n.text("cli.tournament.the-session-players-bracket-who-plays"),
        mutating=False,
    )
    verb("assign", "match-assign", ("table",), match=True)
    p = command(
        "toss",
        i18n.text("cli.tournament.the-toss-winner-the-other-player"),
    )
    p.add_argument("match")
    _player_argument(p, "winner", i18n.text("cli.tournament.toss-winner-help"))
    verb("complete", "complete", match=True)
    verb("confirm", "match-confirm", match=True)
    p = command(
        "override",
        i18n.text("cli.tournament.decide-a-match-disqualification-8-1"),
    )
    p.add_argument("match")
    _player_argument(p, "winner", i18n.text("cli.tournament.override-winner-help"))
    p.add_argument("--category", required=True, choices=("disqualification", "dispute", "other"))
    p.add_argument("--reason", required=True)
    p.add_argument(
        "--cancel-running", action="store_true", help=i18n.text("cli.tournament.cancel-running-help")
    )
    p = command(
        "walkover",
        i18n.text("cli.tournament.a-player-did-not-come-the"),
    )
    p.add_argument("match")
    _player_argument(p, "absent", i18n.text("cli.tournament.walkover-absent-help"))
    p.add_argument("--reason", required=True)
    verb("tiebreak", "match-tiebreak", match=True)
    verb("pause", "pause", match=True)
    verb("resume", "resume", match=True)
    p = command(
        "adjust",
        i18n.text("cli.tournament.give-or-take-a-players-time"),
    )
    p.add_argument("match")
    p.add_argument("player", type=int)
    p.add_argument(
        "seconds",
        type=seconds_to_ms,
        metavar="±SECONDS",
        help=i18n.text("cli.tournament.e-g-30-30-1-5"),
    )
    p.add_argument("--reason", required=True)
    p = command(
        "export",
        i18n.text("cli.tournament.write-the-sessions-results-json-csv"),
        mutating=False,
        json_option=False,
    )
    p.add_argument("--json", metavar="FILE", dest="json_out")
    p.add_argument("--csv", metavar="FILE")
    p.add_argument("--html", metavar="FILE")
    p.add_argument("--pdf", metavar="FILE")
    p.add_argument("--png", metavar="FILE")


#: The summaries of the words built from their actions (``duelclock tournament close``): the
#: session's or a match's words, not the action's general one.
VERB_HELP = {
    "withdraw": "cli.tournament.a-player-resigns",
    "close": "cli.tournament.close-check-in-empty-seats-go",
    "reopen": "cli.tournament.reopen-help",
    "assign": "cli.tournament.put-a-match-on-a-table",
    "complete": "cli.tournament.the-picture-is-complete-the-duel",
    "confirm": "cli.tournament.confirm-the-clocks-result-the-winner",
    "tiebreak": "cli.tournament.start-a-tied-matchs-49-piece",
    "pause": "cli.tournament.pause-a-matchs-clock",
    "resume": "cli.tournament.resume-a-matchs-clock",
}


def _parse_lines(text: str) -> dict[int, int]:
    lines: dict[int, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        line, sep, player = part.partition("=")
        if not sep or not line.strip().isdigit() or not player.strip().isdigit():
            raise Problem("cli.bad-line-pair", part=part)
        if int(line) in lines:
            raise Problem("cli.line-twice", line=int(line))
        lines[int(line)] = int(player)
    return lines


#: A sign-up file of this many rows or more gets a line of progress (read locally, then sent).
PROGRESS_ROWS = 2000


def _daemon_command(args: argparse.Namespace) -> int:
    from clockd.api.local import login_name
    from clockd.cli.status import EXIT_REFUSED, call

    if getattr(args, "by", None) is None and hasattr(args, "by"):
        args.by = login_name()

    def act(client: Any) -> int:
        client.by = getattr(args, "by", "") or ""
        if args.command == "new":
            return _new(client, args)
        session = _session_key(client, args.session)
        if session is None:
            return EXIT_REFUSED
        if args.command == "show":
            return _show(client, session, args.json)
        if args.command == "export":
            return _export(client, session, args)
        try:
            target, actions = _actions(client, session, args)
        except Problem as exc:
            return _fail_msg(exc.msg)
        done = None
        for action in actions:
            done = client.act(target, action)
        assert done is not None
        if getattr(args, "json", False):
            print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
            return 0
        return _print_done(done, args)

    return call(args, act)


def _new(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.actions import CreateEvent

    toml = None
    if args.config:
        try:
            toml = Path(args.config).read_text(encoding="utf-8")
        except OSError as exc:
            return _fail_msg(msg("cli.cannot-read", path=str(args.config), problem=exc))
    action = CreateEvent(event_kind="puzzle-duel", key=args.session, name=args.name, config_toml=toml)
    done = client.act("", action)
    if getattr(args, "json", False):
        print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
        return 0
    print(render(msg("cli.session-created", session=args.session, seq=done.seq, title=done.event.title)))
    return 0


def _actions(client: Any, session: str, args: argparse.Namespace) -> tuple[str, list[Any]]:
    """The action(s) a command stands for, and their target (the session, or its match)."""
    from clockd.cli.described import verb_action
    from clockd.core.bracket import Override, Toss, Walkover
    from clockd.core.clock import Adjust
    from clockd.core.puzzle_duel import MAX_SIGNUPS_TEXT, ImportSignups, MakeDraw
    from clockd.core.registration import (
        AddPlayer,
        CheckIn,
        CheckOut,
        SignupError,
        decode_signups,
        parse_signups,
    )

    cmd = args.command
    match_target = f"{session}/{getattr(args, 'match', '')}"
    if getattr(args, "verb", None) is not None:  # a word built from its action's definition
        return (match_target if hasattr(args, "match") else session), [verb_action(args)]
    if cmd == "import":
        path = Path(args.csv)
        started = time.monotonic()
        try:
            text_ = decode_signups(read_csv(args.csv), source=path.name)
            if len(text_) > MAX_SIGNUPS_TEXT:
                raise Problem("cli.signups-too-long", path=str(path), size=len(text_), limit=MAX_SIGNUPS_TEXT)
            read = parse_signups(text_, source=path.name)  # the file's own errors, before the daemon is asked
        except OSError as exc:
            raise Problem("cli.cannot-read", path=str(path), problem=exc) from None
        except SignupError as exc:
            raise Problem(exc.msg) from None
        rows = len(read.accepted) + len(read.refused)
        if rows >= PROGRESS_ROWS:  # a long file: say where the time goes
            seconds = f"{time.monotonic() - started:.1f}"
            print(
                render(msg("cli.import-progress", path=path.name, rows=rows, seconds=seconds)),
                file=sys.stderr,
            )
        return session, [ImportSignups(csv=text_, source=path.name)]
    if cmd == "add":
        return session, [
            AddPlayer(
                first_name=args.first,
                last_name=args.last,
                age=args.age,
                email=args.email,
                phone=args.phone,
                nickname=args.nick,
                walk_in=args.walk_in,
            )
        ]
    if cmd == "checkin":
        players = [_player_by_name(client, session, given) for given in args.players]
        args.checked = players  # by number, for the answer's names
        return session, [CheckOut(player=p) if args.out else CheckIn(player=p) for p in players]
    if cmd == "draw":
        lines = _parse_lines(args.lines) if args.lines else None
        return session, [MakeDraw(seed=args.seed, lines=lines)]
    if cmd == "toss":
        return match_target, [Toss(winner=_player(args, "winner", client, session))]
    if cmd == "override":
        override = Override(
            winner=_player(args, "winner", client, session),
            category=args.category,
            reason=args.reason,
            cancel_running=args.cancel_running,
        )
        return match_target, [override]
    if cmd == "walkover":
        return match_target, [Walkover(absent=_player(args, "absent", client, session), reason=args.reason)]
    if cmd == "adjust":
        side = _side_of(client, session, args.match, args.player)
        return match_target, [Adjust(side=side, delta_ms=args.seconds, reason=args.reason)]
    raise Problem("cli.unknown-command", command=cmd)  # pragma: no cover - argparse restricts them


def _side_of(client: Any, session: str, match: str, player: int) -> Any:
    """The clock side ``player`` sits at in ``match`` (as the daemon's view of the match says)."""
    from clockd.core.clock import Side

    m = _match_view(_session_view(client, session), match)
    live = m
    if m.status != "assigned":
        live = next(
            (
                t
                for t in _matches(_session_view(client, session))
                if t.id in m.tiebreaks and t.status == "assigned"
            ),
            m,
        )
    if player not in (live.a, live.b):
        raise Problem("bracket.not-in-match", player=player, match=match)
    first = live.clock_a if live.clock_a is not None else live.a
    return Side.A if player == first else Side.B


def _session_view(client: Any, session: str) -> Any:
    return client.events([session]).events[0]


def _session_view_of(args: argparse.Namespace, session: Any) -> Any:
    """The session's view after a table action (a new connection: the command's is closed)."""
    from clockd.api import Client
    from clockd.api.local import local_tls

    if not session:
        return None
    tls = local_tls(getattr(args, "tls_ca", None), args.host, args.port)
    with Client.local(host=args.host, port=args.port, token=getattr(args, "token", None), tls=tls) as client:
        return _session_view(client, str(session))


def _matches(event: Any) -> list[Any]:
    bracket = event.body.bracket
    return [] if bracket is None else list(bracket.matches)


def _match_view(event: Any, match: str) -> Any:
    for m in _matches(event):
        if m.id == match:
            return m
    raise Problem("bracket.no-match", match=match)


def _session_key(client: Any, wanted: str | None) -> str | None:
    events = [e for e in client.events().events if e.kind == "puzzle-duel"]
    if wanted is not None:
        return str(wanted)
    if not events:
        print(render(msg("cli.no-session")), file=sys.stderr)
        return None
    live = [e for e in events if e.body.stage != "finished"]
    if len(live) == 1:
        return str(live[0].key)
    if len(events) == 1:
        return str(events[0].key)
    known = [f"{e.key} ({render(Msg(code=f'term.session-stage.{e.body.stage}'))})" for e in events]
    print(render(msg("cli.which-session", known=known or [text("cli.none")])), file=sys.stderr)
    return None


def _print_done(done: Any, args: argparse.Namespace) -> int:
    event = done.event
    if event is None:  # a table action reached through a match: the table, and where the match stands
        from clockd.cli.status import render_tables

        print(render(msg("cli.journaled", seq=done.seq)))
        print(render_tables([done.table]))
        from clockd.core.ids import read_id

        owner = read_id(done.table.program.owner)
        session = args.session or (owner.key if owner is not None else None)
        event = _session_view_of(args, session)
        if event is None:
            return 0
    body = event.body
    stage = render(Msg(code=f"term.session-stage.{body.stage}"))
    print(render(msg("cli.done-session", seq=done.seq, title=event.title, stage=stage)))
    match = getattr(args, "match", None)
    if match and body.bracket is not None:
        names = body.names()
        for m in body.bracket.matches:
            if m.id == match or m.tiebreak_of == match:
                print("  " + _match_line(m, names))
    if args.command == "close":
        _print_seat_changes(body)
    if args.command == "checkin":
        names = body.names()
        for pid in getattr(args, "checked", []):  # by name: the referee hears who it was
            print("  " + text("cli.tournament.checked", player=pid, name=names.get(pid, "?")))
    if args.command == "toss" and body.bracket is not None:
        _print_who_starts(body, args.match)
    if args.command == "override" and args.cancel_running and body.bracket is not None:
        for d in body.bracket.decisions[-3:-1]:  # the cancellations journaled with this override
            if d.kind == "cancel":
                print("  " + text("cli.tournament.duel-cancelled", match=d.match))
    if args.command == "import":
        _print_import(body)
        print_refusals(body.refusals)
        print_possible_duplicates(body.possible_duplicates)
        print_no_email(body.no_email)
    return 0


def _print_import(body: Any) -> None:
    """A later export of the form: every row accounted for (recognised, new, changed, missing)."""
    report = body.last_import
    if report is None:
        return
    names = body.names()

    def who(pids: Any) -> str:
        return ", ".join(f"{names.get(p, '?')} ({p})" for p in pids) or "—"

    print(text("cli.tournament.import-recognised", n=report.recognised))
    print(text("cli.tournament.import-added", players=who(report.added)))
    for pid, fields in report.changed:
        changed = ", ".join(text(f"term.field.{f}") for f in fields)
        print(text("cli.tournament.import-changed", player=who([pid]), fields=changed))
    if report.missing:
        print(text("cli.tournament.import-missing", players=who(report.missing)))


def _print_seat_changes(body: Any) -> None:
    """Who took which empty seat at the close (§1.18 reserves in order, §1.19 walk-ins)."""
    names = body.names()
    for c in body.seat_changes:
        taken_by = f"{names.get(c.taken_by, '?')} ({c.taken_by})"
        rule = text(f"term.seat-rule.{c.rule.split()[0]}")
        if c.absent is None:  # a seat no one on the main list had
            print("  " + text("cli.tournament.seat-free-taken", taken_by=taken_by, rule=rule))
            continue
        absent = f"{names.get(c.absent, '?')} ({c.absent})"
        print("  " + text("cli.tournament.seat-taken", taken_by=taken_by, absent=absent, rule=rule))


def _print_who_starts(body: Any, match: str) -> None:
    """The toss's consequence, said as the referee says it at the table (§2.2.7)."""
    names = body.names()
    m = next((m for m in body.bracket.matches if m.id == match), None)
    if m is None or m.toss_winner is None or m.a is None or m.b is None:
        return
    loser = m.b if m.toss_winner == m.a else m.a
    print(
        "  "
        + text(
            "cli.tournament.who-starts",
            winner=f"{names.get(m.toss_winner, '?')} ({m.toss_winner})",
            loser=f"{names.get(loser, '?')} ({loser})",
        )
    )


def _match_line(m: Any, names: dict[int, str]) -> str:
    bye = text("term.bye")
    a = names.get(m.a, "?") if m.a is not None else (bye if m.decided_by == "bye" else "…")
    b = names.get(m.b, "?") if m.b is not None else (bye if m.decided_by == "bye" else "…")
    line = f"{m.id:10s} {a} – {b}"
    if m.score is not None:
        line += f"  [{m.score.displayed.a} | {m.score.displayed.b}]"
    if m.table is not None and m.status in ("assigned", "result"):
        line += f"  {text('term.table-short', table=m.table)}"
    line += f"  {text(f'term.match-status.{m.status}')}"
    if m.winner is not None and m.decided_by is not None:
        line += f" → {names.get(m.winner, '?')} ({text(f'term.decided-by.{m.decided_by}')})"
    return line


def _show(client: Any, session: str, as_json: bool) -> int:
    event = _session_view(client, session)
    if as_json:
        print(json.dumps(event.model_dump(mode="json"), ensure_ascii=False))
        return 0
    body = event.body
    print(f"{render(event.title)} ({event.key}): {render(Msg(code=f'term.session-stage.{body.stage}'))}")
    if body.bracket is None:
        for p in body.players:
            mark = "✓" if p.present else " "
            withdrawn = f" ({text('term.withdrawn')})" if p.withdrawn else ""
            print(f"  {mark} {p.id:3d} {p.name:20s} {text(f'term.list.{p.list}')}{withdrawn}")
        print_refusals(body.refusals)
        print_possible_duplicates(body.possible_duplicates)
        print_no_email(body.no_email)
        return 0
    # with their numbers: `toss`, `override`, `walkover` take a number or a name, `adjust` a number
    names = {p.id: f"{p.name} ({p.id})" for p in body.players}
    rounds = {r.number: r for r in body.bracket.rounds}
    current = None
    for m in sorted(body.bracket.matches, key=lambda m: (m.round, m.slot, m.id)):
        if m.round != current:
            current = m.round
            print(f"== {render(rounds[m.round].name) if m.round in rounds else m.round} ==")
        print("  " + _match_line(m, names))
    if body.bracket.finished:
        podium = [names.get(p, "—") if p is not None else "—" for p in body.bracket.podium]
        print(text("cli.podium", places=[f"{i}. {n}" for i, n in enumerate(podium, 1)]))
    return 0


def _export(client: Any, session: str, args: argparse.Namespace) -> int:
    from clockd.api.messages import EventResults, EventResultsReply
    from clockd.i18n import language
    from clockd.reports.html import bracket_html
    from clockd.reports.results import Results, results_csv

    reply = client.request(EventResults(event=session, lang=language()))
    assert isinstance(reply, EventResultsReply)
    results = Results.model_validate(reply.results)
    wrote = []
    page = bracket_html(results)
    try:
        if args.json_out:
            save(
                args.json_out,
                lambda: Path(args.json_out).write_text(results.model_dump_json(indent=2), "utf-8"),
            )
            wrote.append(args.json_out)
        if args.csv:
            save(args.csv, lambda: Path(args.csv).write_text(results_csv(results), encoding="utf-8"))
            wrote.append(args.csv)
        if args.html:
            save(args.html, lambda: Path(args.html).write_text(page, encoding="utf-8"))
            wrote.append(args.html)
        if args.pdf or args.png:
            from clockd.reports.render import html_to_pdf, html_to_png

            if args.pdf:
                save(args.pdf, lambda: html_to_pdf(page, args.pdf))
                wrote.append(args.pdf)
            if args.png:
                save(args.png, lambda: html_to_png(page, args.png))
                wrote.append(args.png)
    except Problem as exc:
        if wrote:
            print(text("cli.written", files=wrote))
        return _fail_msg(exc.msg)
    if not wrote:
        print(results.model_dump_json(indent=2))
    else:
        print(text("cli.written", files=wrote))
    return 0


def _fail_msg(reason: Msg) -> int:
    print(f"duelclock tournament: {render(reason)}", file=sys.stderr)
    return 2
