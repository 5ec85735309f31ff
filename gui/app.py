"""Starting the GUI: the application, fonts, language, the state source, and the window.

``duelclock gui`` (:mod:`clockd.cli.gui`) calls :func:`run`. The state comes from the
daemon's API (:mod:`gui.adapter`), or from the built-in demo (``--demo-state``); ``--event``
names the event to show (else the one being played). With
``--screenshot FILE.png`` the window is rendered offscreen, at a fixed size, to a PNG and
the program exits: that is how ``docs/screenshots`` are made (``make screenshots``).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from clockd.i18n import text

#: The table the demo opens on: a quarter-final running, with a timeline to look at; for the
#: relay, the station of the pair that has finished.
DEMO_TABLE = 3
DEMO_STATION = 7

#: Window sizes for screenshots: a referee's laptop, a full-HD projector.
REFEREE_SIZE = (1600, 1000)
AUDIENCE_SIZE = (1920, 1080)


@dataclass
class Options:
    """What ``duelclock gui`` was asked for (see :mod:`clockd.cli.gui`)."""

    host: str | None = None
    port: int | None = None
    token: str | None = None
    event: str | None = None
    lang: str | None = None
    audience: bool = False
    screenshot: Path | None = None
    demo_state: bool = False
    size: tuple[int, int] | None = None
    wait_ms: int = 5000  # for a screenshot of the live state: how long to wait for the daemon


def no_display() -> bool:
    """Whether a window could not be shown here (Linux with no X or Wayland, no platform chosen)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return False
    return sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )


def application(opts: Options) -> object:
    """The QApplication, with the bundled fonts and the chosen language installed."""
    if opts.screenshot is not None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a screenshot never needs (or opens) a display
    from PySide6.QtWidgets import QApplication

    from gui import style, translations
    from gui.widgets.painted import font

    if opts.screenshot is not None:
        _quiet_offscreen_warnings()
    app = QApplication.instance() or QApplication(["duelclock-gui"])
    style.load_fonts()
    app.setFont(font(13))  # type: ignore[attr-defined]
    translations.install(translations.chosen_language(opts.lang))
    return app


def _quiet_offscreen_warnings() -> None:
    """Drop the offscreen platform's one harmless complaint; pass every other message on."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: object, message: str) -> None:
        if "propagateSizeHints" in message:
            return
        print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def run(opts: Options) -> int:
    if opts.screenshot is None and no_display():
        print(
            "duelclock gui: " + text("gui.app.there-is-no-display-here-no"),
            file=sys.stderr,
        )
        return 2
    app = application(opts)
    from PySide6.QtWidgets import QWidget

    from gui.commands import DemoSink
    from gui.demo import demo_state
    from gui.deskmodel import DeskModel

    model = DeskModel()
    connection = None
    if opts.demo_state:
        model.replace(demo_state(time.monotonic_ns(), shown=opts.event))
        sink: object = DemoSink()
    else:
        from gui.adapter import DaemonConnection

        # the audience screen needs no token and no timelines: it never asks for either
        connection = DaemonConnection(
            model,
            host=opts.host,
            port=opts.port,
            token=opts.token,
            read_only=opts.audience,
            timeline=not opts.audience,
            event=opts.event,
        )
        sink = connection
        connection.start()

    window: QWidget
    if opts.audience:
        from gui.audience import AudienceWindow, show_on_audience_screen

        window = AudienceWindow(model)
        size = opts.size or AUDIENCE_SIZE
    else:
        from gui.referee import RefereeWindow

        window = RefereeWindow(model, sink)  # type: ignore[arg-type]
        size = opts.size or REFEREE_SIZE
        if opts.demo_state:
            page = model.state.tables_of_shown()
            station = DEMO_STATION if DEMO_STATION in page else (page[0] if page else DEMO_STATION)
            window.select_table(DEMO_TABLE if model.state.session is not None else station)
            chess = model.state.chess
            flagged = (
                next((b.board for b in chess.boards if b.proposal and not b.result), None) if chess else None
            )
            if flagged is not None:  # the chess day: the arbiter has typed the flagged board's number
                window.chess_panel.entry.type_board(str(flagged))

    if opts.screenshot is not None:
        if connection is not None and not connection.wait_for_state(opts.wait_ms):
            print(
                "duelclock gui: " + text("gui.app.no-state-from-the-daemon-within", wait_ms=opts.wait_ms),
                file=sys.stderr,
            )
        code = screenshot(window, opts.screenshot, size)
        if connection is not None:
            connection.stop()
            connection.deleteLater()
        return code
    if opts.audience:
        show_on_audience_screen(window)
    else:
        window.resize(*size)
        window.show()
    code = int(app.exec())  # type: ignore[attr-defined]
    if connection is not None:
        connection.stop()
    return code


def screenshot(window: object, path: Path, size: tuple[int, int]) -> int:
    """Lay ``window`` out at ``size``, let pending updates run, and save it as a PNG."""
    from PySide6.QtWidgets import QApplication, QWidget

    assert isinstance(window, QWidget)
    window.resize(*size)
    window.show()
    for _ in range(5):
        QApplication.processEvents()
    image = window.grab()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(path), "PNG"):
        print(
            "duelclock gui: " + text("gui.app.cannot-write-the-png-file", path=path),
            file=sys.stderr,
        )
        return 1
    print(f"{path}: {image.width()}×{image.height()}")
    close_now(window)
    return 0


def close_now(window: object) -> None:
    """Close and destroy ``window`` here, in the GUI thread (never later, in whatever thread
    Python's garbage collector happens to run)."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QWidget

    assert isinstance(window, QWidget)
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
