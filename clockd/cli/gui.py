"""``duelclock gui``: open the referee window or the audience screen (or render one to a PNG)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clockd.i18n import tr


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr(
                pl=f"{text!r}: oczekiwano SZEROKOŚĆxWYSOKOŚĆ, np. 1920x1080",
                en=f"{text!r}: expected WIDTHxHEIGHT, e.g. 1920x1080",
            )
        ) from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(
            tr(
                pl=f"{text!r}: od 320x240 do 7680x4320",
                en=f"{text!r}: between 320x240 and 7680x4320",
            )
        )
    return w, h


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "gui",
        help=tr(
            pl="otwórz okno sędziego lub ekran dla widowni",
            en="open the referee window or the audience screen",
        ),
        description=tr(
            pl="Okno sędziego (domyślnie) lub ekran dla widowni (--audience) działającego demona. Port "
            "i token są domyślnie brane z tego, co lokalny demon zapisał przy starcie (daemon.json). "
            "Skróty klawiszowe: F1 w oknie sędziego; docs/gui.md.",
            en="The referee's window (default) or the audience screen (--audience) of a running "
            "daemon. Port and token default to what the local daemon wrote at start (daemon.json). "
            "Keyboard shortcuts: F1 in the referee window; docs/gui.md.",
        ),
    )
    parser.add_argument(
        "--host",
        default=None,
        help=tr(
            pl="adres demona (domyślnie: lokalnego demona)",
            en="the daemon's address (default: the local daemon's)",
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=tr(
            pl="port API demona (domyślnie: lokalnego demona)",
            en="the daemon's API port (default: the local daemon's)",
        ),
    )
    parser.add_argument(
        "--token",
        default=None,
        help=tr(
            pl="token sędziego, potrzebny do poleceń (domyślnie: lokalnego demona)",
            en="the referee's token, for commands (default: the local daemon's)",
        ),
    )
    parser.add_argument(
        "--event",
        "--session",
        dest="event",
        default=None,
        metavar="KEY",
        help=tr(
            pl="impreza do pokazania: sesja Puzzlowego Pojedynku, impreza na czas … (domyślnie: ta, "
            "która trwa; --session to dawna nazwa tej opcji)",
            en="the event to show: a Puzzle Duel session, a timed hall event … (default: the one "
            "being played; --session is this option's old name)",
        ),
    )
    parser.add_argument(
        "--lang",
        choices=("pl", "en"),
        default=None,
        help=tr(
            pl="język (domyślnie: zapisane ustawienie, potem DUELCLOCK_LANG, na końcu polski)",
            en="language (default: the saved setting, else DUELCLOCK_LANG, else Polish)",
        ),
    )
    parser.add_argument(
        "--audience",
        action="store_true",
        help=tr(
            pl="ekran dla widowni: pełny ekran na drugim monitorze, tylko do odczytu, bez tokenu",
            en="the audience screen: full screen on the second monitor, read-only, no token",
        ),
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE.png",
        default=None,
        help=tr(
            pl="narysuj okno poza ekranem do pliku PNG i zakończ",
            en="render the window offscreen to a PNG and exit",
        ),
    )
    parser.add_argument(
        "--demo-state",
        action="store_true",
        help=tr(
            pl="pokaż wbudowany stan z połowy turnieju zamiast łączyć się z demonem",
            en="show a built-in mid-tournament state instead of connecting to a daemon",
        ),
    )
    parser.add_argument(
        "--size",
        type=_size,
        default=None,
        metavar="WxH",
        help=tr(
            pl="rozmiar okna dla --screenshot (domyślnie 1600x1000, ekran dla widowni 1920x1080)",
            en="window size for --screenshot (default 1600x1000, audience 1920x1080)",
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gui.app import Options
    from gui.app import run as run_gui

    if args.screenshot is not None and args.screenshot.suffix.lower() != ".png":
        print(
            f"duelclock gui: --screenshot {args.screenshot}: "
            + tr(pl="nazwa pliku musi kończyć się na .png", en="the file must end in .png")
        )
        return 2
    return run_gui(
        Options(
            host=args.host,
            port=args.port,
            token=args.token,
            event=args.event,
            lang=args.lang,
            audience=args.audience,
            screenshot=args.screenshot,
            demo_state=args.demo_state,
            size=args.size,
        )
    )
