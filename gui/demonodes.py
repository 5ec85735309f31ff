"""A desk with table nodes, as data: the demo state's tables timed by two nodes, one of them
down, and the desk's commands to them in every state a referee must tell apart.

Used by the GUI's tests and for ``docs/screenshots/referee-nodes.png``::

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m gui.demonodes docs/screenshots/referee-nodes.png

The answer is a real :class:`~clockd.api.messages.NodesReply` (the daemon's message model),
so what is drawn is what a desk's daemon would send: pi1 (tables 1–3) up, with an outage of
11 s behind it; pi2 (tables 4–5) down for 20 s, three rows behind, restarted once; a pause
sent to pi2 that was not delivered, a resume still waiting, an adjustment pi1 refused, and
a command that was done (which the window does not list).
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

from clockd.api.messages import CommandView, NodesReply, NodeView, OutageView
from clockd.i18n import msg
from gui.demo import demo_state
from gui.model import DeskState

#: The journal's "now" of the demo answer (ms on the desk's time base: monotonic, not wall).
NOW_MS = 5_000_000
#: The wall clock at the answer's arrival: 1 December 2026, 17:02:15 local time.
WALL = datetime.datetime(2026, 12, 1, 17, 2, 15)


def wall_ms() -> int:
    return int(WALL.timestamp() * 1000)


def demo_nodes(*, pi2_up: bool = False) -> NodesReply:
    """The desk's answer to ``nodes``: pi1 up, pi2 down (unless ``pi2_up``), their commands."""
    pi1 = NodeView(
        name="pi1",
        up=True,
        since_ms=NOW_MS - 1_800_000,
        tables=[1, 2, 3],
        rows=812,
        restarts=0,
        rows_behind=0,
        heard_ms_ago=400,
        outages=[OutageView(down_ms=NOW_MS - 611_000, up_ms=NOW_MS - 600_000, seconds=11, why="broker-lost")],
    )
    pi2 = NodeView(
        name="pi2",
        up=pi2_up,
        since_ms=NOW_MS - 20_000,
        tables=[4, 5],
        rows=640,
        restarts=1,
        rows_behind=3,
        heard_ms_ago=20_300,
        outages=[
            OutageView(down_ms=NOW_MS - 611_000, up_ms=NOW_MS - 600_000, seconds=11, why="broker-lost"),
            *([] if pi2_up else [OutageView(down_ms=NOW_MS - 20_000, why="will")]),
        ],
    )
    commands = [
        CommandView(
            command=41, node="pi1", table=2, what="resume", t_ms=NOW_MS - 90_000, outcome="done", node_seq=798
        ),
        CommandView(
            command=42,
            node="pi1",
            table=1,
            what="adjust",
            t_ms=NOW_MS - 60_000,
            outcome="refused",
            problem=msg("node.not-my-table", node="pi1", table=1),
        ),
        CommandView(
            command=43, node="pi2", table=4, what="pause", t_ms=NOW_MS - 16_000, outcome="not-delivered"
        ),
        CommandView(command=44, node="pi2", table=5, what="resume", t_ms=NOW_MS - 3_000, outcome="sent"),
    ]
    return NodesReply(now_ms=NOW_MS, linked=True, nodes=[pi1, pi2], commands=commands)


def demo_nodes_state(now_ns: int, *, pi2_up: bool = False) -> DeskState:
    """The demo state with tables 1–3 on pi1, 4–5 on pi2, and the desk's answer about them."""
    state = demo_state(now_ns)
    on = {1: "pi1", 2: "pi1", 3: "pi1", 4: "pi2", 5: "pi2"}
    tables = {n: t.model_copy(update={"node": on[n]}) if n in on else t for n, t in state.tables.items()}
    return state.model_copy(
        update={"tables": tables, "nodes": demo_nodes(pi2_up=pi2_up), "nodes_wall_ms": wall_ms()}
    )


def screenshot(path: Path, size: tuple[int, int] = (1600, 1000), lang: str = "pl") -> int:
    """The referee window on the demo, with the Nodes window over its bracket, as one PNG."""
    from PySide6.QtCore import QPoint, QRect, Qt
    from PySide6.QtGui import QColor, QPainter, QPen
    from PySide6.QtWidgets import QApplication

    from gui import style, translations
    from gui.commands import DemoSink
    from gui.deskmodel import DeskModel
    from gui.referee import RefereeWindow
    from gui.widgets.painted import font

    app = QApplication.instance() or QApplication([])
    style.load_fonts()
    translations.install(lang)
    model = DeskModel(demo_nodes_state(0))
    window = RefereeWindow(model, DemoSink(), clock=lambda: 0)
    window.resize(*size)
    window.show()
    window.select_table(4)
    window.show_nodes()
    dialog = window.nodes_dialog
    assert dialog is not None
    dialog.resize(1000, 440)
    for _ in range(5):
        app.processEvents()
    image = window.grab().toImage()
    painter = QPainter(image)
    at = QPoint(260, 120)  # over the bracket: the table cards below stay in view
    painter.fillRect(at.x() - 2, at.y() - 2, dialog.width() + 4, dialog.height() + 4, QColor("#5a6470"))
    painter.drawPixmap(at, dialog.grab())
    # the window's own title bar is the window manager's (none offscreen): draw one like it
    band = QRect(at.x() - 2, at.y() - 30, dialog.width() + 4, 28)
    painter.fillRect(band, QColor("#5a6470"))
    painter.setPen(QColor("#ffffff"))
    painter.setFont(font(13, bold=True))
    painter.drawText(band.adjusted(10, 0, 0, 0), int(Qt.AlignmentFlag.AlignVCenter), dialog.windowTitle())
    painter.setPen(QPen(QColor("#5a6470"), 2))
    painter.drawRect(at.x() - 1, at.y() - 1, dialog.width() + 1, dialog.height() + 1)
    painter.end()
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = image.save(str(path))  # PNG: the name says so
    dialog.close()
    window.close()
    print(f"{path}: {image.width()}×{image.height()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(screenshot(Path(sys.argv[1] if len(sys.argv) > 1 else "referee-nodes.png")))
