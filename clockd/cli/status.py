"""``duelclock status``: every table's clocks, from the running daemon.

No token is needed (reading changes nothing). ``--json`` prints the daemon's table views
(``docs/api.md``: ``remaining_ms``, ``running``, ``moves``, ``device``, …) for scripts;
``--watch`` redraws every second. The daemon is found through ``daemon.json`` unless
``--host``/``--port`` say otherwise.

The helpers here (connection options, error printing, phase and alert texts) are shared
with ``duelclock table``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from clockd.i18n import tr

EXIT_REFUSED = 2
EXIT_UNREACHABLE = 3


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "status",
        help=tr(pl="pokaż zegary wszystkich stolików", en="show every table's clocks"),
        description=tr(
            pl="Pokazuje wszystkie stoliki działającego demona: oba czasy, czyj czas biegnie, ruchy, "
            "urządzenie.",
            en="Show every table of the running daemon: both times, whose time runs, moves, device.",
        ),
    )
    add_connection_options(parser, token=False)
    parser.add_argument(
        "--json",
        action="store_true",
        help=tr(pl="wypisz JSON (widoki stolików z API)", en="print JSON (the API's table views)"),
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help=tr(pl="odświeżaj co sekundę aż do Ctrl+C", en="redraw every second until Ctrl+C"),
    )
    parser.add_argument(
        "tables",
        nargs="*",
        type=int,
        metavar="T",
        help=tr(pl="tylko te stoliki", en="only these tables"),
    )
    parser.set_defaults(func=run)


def add_connection_options(parser: argparse.ArgumentParser, *, token: bool) -> None:
    group = parser.add_argument_group(tr(pl="połączenie z demonem", en="connection to the daemon"))
    group.add_argument(
        "--host",
        help=tr(
            pl="adres demona (domyślnie: z daemon.json, a bez niego 127.0.0.1)",
            en="daemon address (default: from daemon.json, else 127.0.0.1)",
        ),
    )
    group.add_argument(
        "--port",
        type=int,
        help=tr(
            pl="port demona (domyślnie: z daemon.json, a bez niego 7531)",
            en="daemon port (default: from daemon.json, else 7531)",
        ),
    )
    if token:
        group.add_argument(
            "--token",
            help=tr(
                pl="token sędziego (domyślnie: z daemon.json)",
                en="the referee's token (default: from daemon.json)",
            ),
        )


def call(args: argparse.Namespace, fn: Callable[[Any], int]) -> int:
    """Run ``fn(client)`` and turn the API's failures into a sentence and an exit status."""
    from clockd.api import ApiError, Client

    client = Client.local(host=args.host, port=args.port, token=getattr(args, "token", None))
    try:
        with client:
            return fn(client)
    except ConnectionError as exc:
        print(f"duelclock: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except ApiError as exc:
        print(f"duelclock: {tr(pl='odmowa', en='refused')} ({exc.code}): {exc.message}", file=sys.stderr)
        return EXIT_REFUSED


def run(args: argparse.Namespace) -> int:
    def show(client: Any) -> int:
        while True:
            reply = client.status(args.tables or None)
            if args.json:
                print(
                    json.dumps(reply.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False)
                )
            else:
                if args.watch:
                    print("\x1b[H\x1b[2J", end="")
                print(render(reply.tables))
            if not args.watch:
                return 0
            sys.stdout.flush()
            time.sleep(1)

    try:
        return call(args, show)
    except KeyboardInterrupt:
        return 0


PHASES = {
    "ready": ("gotowy", "ready"),
    "running": ("trwa", "running"),
    "paused": ("pauza", "paused"),
    "flagged": ("flaga", "flag"),
}
DEVICES = {
    "connected": ("połączony", "connected"),
    "disconnected": ("ODŁĄCZONY", "DISCONNECTED"),
    "unknown": ("?", "?"),
    "none": ("brak", "none"),
}
ALERTS = {
    "recovered-running": (
        "demon był zatrzymany, gdy zegar chodził; czas od ostatniego zapisu naliczono jak na zegarze",
        "the daemon was down while the clock ran; the time since the last record was charged as on a clock",
    ),
    "recovered-paused": (
        "komputer uruchomiono ponownie, gdy zegar chodził; zegar wstrzymano w ostatniej zapisanej chwili",
        "the machine rebooted while the clock ran; the clock was paused at the last recorded instant",
    ),
    "press-time-uncertain": (
        "zegar przechował naciśnięcia przez swój restart; ich dokładny czas jest nieznany "
        "(przyjęto górne ograniczenie) — sprawdź czasy",
        "the clock kept presses across its restart; their exact time is unknown "
        "(an upper bound was used) — check the times",
    ),
}


def phase_text(phase: str) -> str:
    pl, en = PHASES.get(phase, (phase, phase))
    return tr(pl=pl, en=en)


def alert_text(code: str, message: str) -> str:
    texts = ALERTS.get(code)
    return tr(pl=texts[0], en=texts[1]) if texts else message


def render(tables: list[Any]) -> str:
    """The status table a referee reads (Polish unless DUELCLOCK_LANG=en)."""
    head = [
        tr(pl="Stolik", en="Table"),
        "A",
        "B",
        tr(pl="Ruchy A:B", en="Moves A:B"),
        tr(pl="Stan", en="State"),
        tr(pl="Urządzenie", en="Device"),
    ]
    rows = [head]
    notes = []
    for t in tables:
        a = t.display["a"] + (" ◀" if t.running == "a" else "")
        b = t.display["b"] + (" ◀" if t.running == "b" else "")
        phase = phase_text(t.phase)
        if t.flag:
            phase += f" {t.flag.upper()}"
        pl, en = DEVICES.get(t.device.state, (t.device.state, t.device.state))
        label = str(t.table) if t.label == str(t.table) else f"{t.table} {t.label}"
        rows.append([label, a, b, f"{t.moves.a}:{t.moves.b}", phase, tr(pl=pl, en=en)])
        for alert in t.alerts:
            where = f"{tr(pl='stolik', en='table')} {t.table} [{alert.id}]"
            notes.append(f"  ! {where}: {alert_text(alert.code, alert.message)}")
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines + notes)
