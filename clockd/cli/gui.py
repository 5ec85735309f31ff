"""``duelclock gui``: open the referee window or the audience screen (or render one to a PNG)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clockd import i18n


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            i18n.text("cli.gui.expected-widthxheight-e-g-1920x1080", text=text)
        ) from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(i18n.text("cli.gui.between-320x240-and-7680x4320", text=text))
    return w, h


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "gui",
        help=i18n.text("cli.gui.open-the-referee-window-or-the"),
        description=i18n.text("cli.gui.the-referees-window-default-or-the"),
    )
    parser.add_argument(
        "--host",
        default=None,
        help=i18n.text("cli.gui.the-daemons-address-default-the-local"),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=i18n.text("cli.gui.the-daemons-api-port-default-the"),
    )
    parser.add_argument(
        "--token",
        default=None,
        help=i18n.text("cli.gui.the-referees-token-for-commands-default"),
    )
    parser.add_argument(
        "--tls-ca",
        default=None,
        metavar="CERT",
        help=i18n.text("cli.status.tls-ca"),
    )
    parser.add_argument(
        "--event",
        "--session",
        dest="event",
        default=None,
        metavar="KEY",
        help=i18n.text("cli.gui.the-event-to-show-a-puzzle"),
    )
    parser.add_argument(
        "--lang",
        choices=("pl", "en"),
        default=None,
        help=i18n.text("cli.gui.language-default-the-saved-setting-else"),
    )
    parser.add_argument(
        "--audience",
        action="store_true",
        help=i18n.text("cli.gui.the-audience-screen-full-screen-on"),
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE.png",
        default=None,
        help=i18n.text("cli.gui.render-the-window-offscreen-to-a"),
    )
    parser.add_argument(
        "--demo-state",
        action="store_true",
        help=i18n.text("cli.gui.show-a-built-in-mid-tournament"),
    )
    parser.add_argument(
        "--size",
        type=_size,
        default=None,
        metavar="WxH",
        help=i18n.text("cli.gui.window-size-for-screenshot-default"),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gui.app import Options
    from gui.app import run as run_gui

    if args.tls_ca:  # the window's connections read it (clockd.api.local.local_tls)
        import os

        from clockd.api.local import TLS_CA_ENV

        os.environ[TLS_CA_ENV] = str(args.tls_ca)
    if args.screenshot is not None and args.screenshot.suffix.lower() != ".png":
        print(
            f"duelclock gui: --screenshot {args.screenshot}: " + i18n.text("cli.gui.the-file-must-end-in-png")
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
