"""``duelclock start``: what ``make run`` runs — duelclock with simulated tables.

**With a display** it starts what a referee's desk runs, with simulated hardware:

1. the daemon — ``duelclock run --sim 8`` in a child process, with its own state folder
   (``showcase/`` in duelclock's state folder: its journal and its ``daemon.json``, apart
   from a daemon the referee runs for a real session), eight simulated USB-serial clocks on
   pseudo-terminals read by the real serial driver, players that keep pressing;
2. on a new journal, a showcase session of the Puzzle Duel: 16 fictional players from
   ``clockd/data/sample-signups.csv`` checked in, the bracket drawn (seed 2026), the eight
   first-round duels put on the eight tables with their tosses — so the clocks start as soon
   as the simulated toss losers press;
3. the referee window (and, with ``--audience``, the audience screen).

Closing the referee window pauses the clocks that run and stops the daemon this command
started. Running it again continues the same journal (that is the point of a journal) and
resumes those clocks, so the showcase goes on where it was left instead of charging every
running clock for the hours it was closed; ``--fresh`` starts a new journal.
If the showcase's daemon is already running, the window simply opens on it and nothing is
added; a referee's own daemon (``duelclock run``) is never touched.

**Without a display** (no ``DISPLAY``/``WAYLAND_DISPLAY``, Qt offscreen, or ``--terminal``)
it runs ``duelclock demo``: a whole session through the real daemon and drivers, printed
in the terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

from clockd.i18n import text

SHOWCASE_SESSION = "pokaz"
SHOWCASE_SEED = 2026
SHOWCASE_DIR = "showcase"
SHOWCASE_DB = "showcase.db"
#: The tables the showcase paused when its window closed, to resume on the next start.
PAUSED_FILE = "showcase-paused.json"
#: Who pauses and resumes the showcase's clocks, as the journal names them.
SHOWCASE_BY = "make run"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "start",
        help=text("cli.start.start-duelclock-with-simulated-tables"),
        description=text("cli.start.start-duelclock-with-simulated-tables-2"),
    )
    parser.add_argument(
        "--terminal",
        action="store_true",
        help=text("cli.start.the-terminal-view-even-with-a"),
    )
    parser.add_argument(
        "--audience",
        action="store_true",
        help=text("cli.start.open-the-audience-screen-as-well"),
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=8,
        help=text("cli.start.simulated-tables-default-8"),
    )
    parser.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT",
        help=text("cli.start.web"),
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help=text("cli.start.start-a-new-showcase-journal"),
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=300.0,
        help=text("cli.start.terminal-view-simulated-seconds-per-real"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=7,
        help=text("cli.start.terminal-view-seed-for-the-simulated"),
    )
    parser.set_defaults(func=run)


def has_display() -> bool:
    """Whether a window can be shown: a display server, and Qt not told to draw offscreen."""
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: Where ``make run`` serves the live pages unless told otherwise (``make run WEB=HOST:PORT``).
DEFAULT_WEB = "127.0.0.1:8080"
#: The ports tried, in order, when the default one is taken (then any free one).
FALLBACK_WEB_PORTS = range(8081, 8100)


def web_address(given: str | None) -> str:
    """Where to serve the live pages: ``given`` (``--web``; empty: none) as it is, else the default
    address — or, when another program holds its port, the first free port after it, said in a
    sentence (``make run`` on a laptop where 8080 is taken still shows its pages)."""
    if given is not None:
        return given
    host, _, port = DEFAULT_WEB.rpartition(":")
    if _free(host, int(port)):
        return DEFAULT_WEB
    free = next((p for p in FALLBACK_WEB_PORTS if _free(host, p)), None) or _any_free(host)
    chosen = f"{host}:{free}"
    print(text("cli.start.web-port-taken", taken=DEFAULT_WEB, chosen=chosen))
    return chosen


def _free(host: str, port: int) -> bool:
    """Whether a server could listen on ``host:port`` now (another program's listener: no)."""
    import socket

    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the web server binds
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _any_free(host: str) -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def run(args: argparse.Namespace) -> int:
    args.web = web_address(args.web)
    if args.terminal or not has_display():
        return _terminal(args)
    return _desk(args)


def _terminal(args: argparse.Namespace) -> int:
    from clockd.cli import build_parser

    # through the demo's own parser: its defaults (and any option added to it) stay its own
    argv = ["demo", "--speed", str(args.speed), "--seed", str(args.seed)]
    if args.web:  # the live pages beside the session, as the desk has them
        argv += ["--web", args.web]
    demo_args = build_parser().parse_args(argv)
    return int(demo_args.func(demo_args) or 0)


# -- the referee's desk, with simulated tables ----------------------------------------------------


def _desk(args: argparse.Namespace) -> int:
    from clockd.api import ApiError, Client
    from clockd.api.local import read_info

    showcase = enter_showcase()
    daemon: subprocess.Popen[bytes] | None = None
    info = read_info()
    if info is None or not _answers(info):
        db = showcase / SHOWCASE_DB
        if args.fresh:
            for suffix in ("", "-wal", "-shm", ".lock"):  # the lock file too: a new journal on purpose
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            db.with_name(PAUSED_FILE).unlink(missing_ok=True)
        daemon, info = _spawn_daemon(db, args.tables, args.web)
        if info is None:
            return 1
        if args.web:
            _show_web(args.web)
        with Client(info.host, info.port, info.token, by=SHOWCASE_BY) as client:
            set_up_showcase(client, tables=args.tables)
            resume_showcase(client, db.with_name(PAUSED_FILE))
    else:
        print(text("cli.start.the-showcases-daemon-is-already-running", host=info.host, port=info.port))
    audience: subprocess.Popen[bytes] | None = None

    def close() -> None:
        if audience is not None:
            audience.terminate()
        if daemon is not None:
            try:
                with Client(info.host, info.port, info.token, by=SHOWCASE_BY, timeout_ms=3000) as client:
                    pause_showcase(client, db.with_name(PAUSED_FILE))
            except (ApiError, ConnectionError, TimeoutError, OSError) as exc:
                note = text("cli.start.clocks-not-paused", exc=exc)
                print(note, file=sys.stderr)
            _stop(daemon)

    def on_signal(signum: int, frame: Any) -> None:
        # SIGTERM/SIGHUP (a closed terminal, a `timeout`): take the children down with us.
        close()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        if args.audience:
            audience = subprocess.Popen([sys.executable, "-m", "clockd", "gui", "--audience"])
        from clockd.cli import build_parser

        gui_args = build_parser().parse_args(["gui"])
        return int(gui_args.func(gui_args) or 0)
    finally:
        close()


def enter_showcase() -> Path:
    """Make this process (and the daemon and GUI it starts) use the showcase's own state folder.

    The showcase lives apart: its journal and its ``daemon.json`` never meet a daemon the
    referee started for a real session (which keeps the state folder's own), so ``make run``
    never opens — or adds a showcase session to — the referee's tournament.
    """
    from clockd.api.local import state_dir

    showcase = state_dir() / SHOWCASE_DIR
    os.environ["DUELCLOCK_STATE_DIR"] = str(showcase)
    return showcase


def pause_showcase(client: Any, paused_file: Path) -> list[int]:
    """Pause every running clock (a pause as a referee's, journaled) and note which, to resume later."""
    from clockd.core.clock import Pause

    running = [t.table for t in client.status().tables if t.actions.get("pause") is None]
    for table in running:
        client.act(table, Pause())
    paused_file.write_text(json.dumps(running), encoding="utf-8")
    return running


def resume_showcase(client: Any, paused_file: Path) -> list[int]:
    """Resume the clocks :func:`pause_showcase` paused and that are still paused."""
    from clockd.core.clock import Resume

    try:
        noted = [int(t) for t in json.loads(paused_file.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError):
        return []
    paused_file.unlink(missing_ok=True)
    can_resume = {t.table for t in client.status().tables if t.actions.get("resume") is None}
    resumed = [t for t in noted if t in can_resume]
    for table in resumed:
        client.act(table, Resume())
    return resumed


def _answers(info: Any) -> bool:
    from clockd.api import Client

    try:
        with Client(info.host, info.port, None, timeout_ms=1000) as client:
            client.ping()
        return True
    except (ConnectionError, TimeoutError, OSError):
        return False


def _show_web(address: str) -> None:
    """The live pages' address and its QR code (the daemon serves them: ``run --web``)."""
    from web.serve import public_url, qr_text

    host, _, port = address.rpartition(":")
    url = public_url(host or "127.0.0.1", int(port))
    print(text("cli.web.serving", url=url))
    print(qr_text(url))


def _spawn_daemon(db: Path, tables: int, web: str = "") -> tuple[subprocess.Popen[bytes], Any]:
    """``duelclock run --sim N --db DB [--web HOST:PORT]`` as a child; wait until it answers."""
    from clockd.api.local import read_info

    db.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # the state folder: private (its daemon.json)
    log_path = db.with_suffix(".log")
    log = open(log_path, "ab")  # noqa: SIM115 - the child writes to it for its whole life
    command = [sys.executable, "-m", "clockd", "run", "--sim", str(tables), "--db", str(db)]
    if web:
        command += ["--web", web]
    child = subprocess.Popen(
        command,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # Ctrl+C in the terminal reaches us; we stop the daemon politely
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if child.poll() is not None:
            break
        info = read_info()
        if info is not None and info.pid == child.pid and _answers(info):
            print(
                text("cli.start.daemon-journal-log", host=info.host, port=info.port, db=db, log_path=log_path)
            )
            return child, info
        time.sleep(0.1)
    _stop(child)
    tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
    print(text("cli.start.the-daemon-did-not-start"), *tail, sep="\n", file=sys.stderr)
    return child, None


def _stop(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGINT)  # a clean stop: the journal takes a snapshot
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def sample_signups() -> str:
    """The shipped sign-up form export of 20 fictional people (16 main list, 4 reserve)."""
    return resources.files("clockd.data").joinpath("sample-signups.csv").read_text(encoding="utf-8")


def set_up_showcase(client: Any, *, tables: int) -> bool:
    """On a daemon with no event yet: a drawn 16-player session, round one on the tables.

    Goes through the API exactly as a referee at the desk would (``client`` holds the
    token). Returns whether it set anything up.
    """
    from clockd.core.actions import CreateEvent
    from clockd.core.bracket import Assign, Toss
    from clockd.core.puzzle_duel import ImportSignups, MakeDraw
    from clockd.core.registration import CheckIn, CloseCheckIn

    if client.events().events:
        return False
    key = SHOWCASE_SESSION
    client.act("", CreateEvent(event_kind="puzzle-duel", key=key, name=text("cli.start.showcase")))
    done = client.act(key, ImportSignups(csv=sample_signups(), source="sample-signups.csv"))
    for player in done.event.body.players:
        if player.list == "main":
            client.act(key, CheckIn(player=player.id))
    client.act(key, CloseCheckIn())
    bracket = client.act(key, MakeDraw(seed=SHOWCASE_SEED)).event.body.bracket
    ready = [m for m in bracket.matches if m.status == "ready" and m.a and m.b]
    for table, match in enumerate(ready[:tables], start=1):
        client.act(f"{key}/{match.id}", Assign(table=table))
        # the toss: alternate winners, so both sides of the tables start
        winner = match.a if table % 2 else match.b
        client.act(f"{key}/{match.id}", Toss(winner=winner))
    return True
