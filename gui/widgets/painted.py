"""A widget that paints a computed layout, and can say what it drew where.

The bracket and the table cards are painted rather than built from dozens of labels:
their geometry depends on the window's size (a projector, a laptop), and one paint pass
of a few dozen boxes is cheaper than relayouting labels ten times a second.

Every text is placed as a :class:`Item` — a rectangle, the exact (possibly elided) text
drawn in it, and a role — before it is painted. :meth:`PaintedWidget.text_at` answers
"what text is drawn at this point?", which is how the tests probe the screen at computed
points, and how clicks find what they hit.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from gui.model import DeskState
from gui.style import DESK, HALL, MONO, SANS, Palette

#: How a text sits in its rectangle (the bracket and the table cards use the same three).
LEFT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
RIGHT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
CENTER = Qt.AlignmentFlag.AlignCenter


def font(px: float, *, bold: bool = False, mono: bool = False) -> QFont:
    """The bundled family at ``px`` pixels (pixel sizes, so a screenshot is the same everywhere)."""
    f = QFont(MONO if mono else SANS)
    f.setPixelSize(max(6, int(px)))
    f.setBold(bold)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return f


@dataclass
class Item:
    """A text drawn in ``rect``: ``role`` says what it is (``name``, ``time``, ``header`` …)."""

    rect: QRect
    text: str
    role: str
    key: str = ""  # what it belongs to: a match id, a table number
    font: QFont = field(default_factory=QFont)
    color: str = "#000000"
    align: Qt.AlignmentFlag = LEFT


@dataclass
class Box:
    """A filled, maybe outlined, rounded rectangle drawn under the texts."""

    rect: QRect
    fill: str | None
    border: str | None = None
    width: float = 1.0
    radius: float = 6.0
    key: str = ""
    role: str = ""
    dashed: bool = False
    alpha: int = 255  # of the fill: a tint over what is behind


def elide(text: str, f: QFont, width: int) -> str:
    return QFontMetrics(f).elidedText(text, Qt.TextElideMode.ElideRight, max(0, width))


def text_width(f: QFont, text: str) -> int:
    return QFontMetrics(f).horizontalAdvance(text)


def fit_font(text: str, rect: QRect, px: float, *, bold: bool = False, mono: bool = False) -> QFont:
    """The largest font up to ``px`` in which ``text`` fits ``rect``'s width (a clock never elides)."""
    f = font(px, bold=bold, mono=mono)
    width = QFontMetrics(f).horizontalAdvance(text)
    if width > rect.width() > 0:
        f = font(px * rect.width() / width * 0.97, bold=bold, mono=mono)
    return f


def fit_text(
    text: str, rect: QRect, px: float, *, bold: bool = False, min_px: float = 10
) -> tuple[str, QFont]:
    """``text`` in the largest font from ``px`` down to ``min_px`` that fits ``rect``; elided below that."""
    f = font(px, bold=bold)
    width = QFontMetrics(f).horizontalAdvance(text)
    if width > rect.width() > 0:
        f = font(max(min_px, px * rect.width() / width * 0.97), bold=bold)
    return elide(text, f, rect.width()), f


class PaintedWidget(QWidget):
    """Holds boxes, lines and text items; paints them; answers :meth:`text_at`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boxes: list[Box] = []
        self.items: list[Item] = []
        self.lines: list[tuple[list[QPoint], str, float, bool]] = []  # polyline, colour, width, dashed
        self.background = "#ffffff"

    # -- for tests and clicks -------------------------------------------------------------
    def text_at(self, point: QPoint) -> str:
        """The text drawn at ``point`` ("" if none), topmost first."""
        for item in reversed(self.items):
            if item.rect.contains(point):
                return item.text
        return ""

    def items_with(self, *, role: str | None = None, key: str | None = None) -> Iterator[Item]:
        for item in self.items:
            if (role is None or item.role == role) and (key is None or item.key == key):
                yield item

    def shown_texts(self) -> list[str]:
        return [i.text for i in self.items if i.text]

    # -- painting -------------------------------------------------------------------------
    def replace_keyed(self, key: str, build: Callable[[], None]) -> None:
        """Rebuild the boxes and texts of one card (``key``) with ``build``; the rest stays."""
        self.boxes = [b for b in self.boxes if b.key != key]
        self.items = [i for i in self.items if i.key != key]
        build()

    def paintEvent(self, event: QPaintEvent) -> None:
        clip = event.rect()  # a clock's second changes a small rectangle: draw only what meets it
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            p.fillRect(clip, QColor(self.background))
            for points, colour, width, dashed in self.lines:
                pen = QPen(QColor(colour), width)
                if dashed:
                    pen.setStyle(Qt.PenStyle.DashLine)
                p.setPen(pen)
                for a, b in itertools.pairwise(points):
                    p.drawLine(a, b)
            for box in self.boxes:
                if not box.rect.intersects(clip):
                    continue
                if box.border:
                    pen = QPen(QColor(box.border), box.width)
                    if box.dashed:
                        pen.setStyle(Qt.PenStyle.DashLine)
                    p.setPen(pen)
                else:
                    p.setPen(Qt.PenStyle.NoPen)
                if box.fill:
                    fill = QColor(box.fill)
                    fill.setAlpha(box.alpha)
                    p.setBrush(fill)
                else:
                    p.setBrush(Qt.BrushStyle.NoBrush)
                inset = box.width / 2 if box.border else 0
                p.drawRoundedRect(
                    QRectF(box.rect).adjusted(inset, inset, -inset, -inset), box.radius, box.radius
                )
            for item in self.items:
                if not item.text or not item.rect.intersects(clip):
                    continue
                p.setFont(item.font)
                p.setPen(QColor(item.color))
                p.drawText(item.rect, int(item.align), item.text)
        finally:
            p.end()


class DeskWidget(PaintedWidget):
    """A painted view of the referee's desk state: the bracket, the table cards.

    ``hall=True`` draws it for the projector (the hall palette). A subclass lays itself out
    in :meth:`relayout`, which runs again on every new state, resize and language change.
    """

    def __init__(self, *, hall: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hall = hall
        self.palette_: Palette = HALL if hall else DESK
        self.background = self.palette_.window
        self.state = DeskState()
        self.now_ns = 0

    def relayout(self) -> None:
        raise NotImplementedError

    def set_state(self, state: DeskState, now_ns: int) -> None:
        self.state = state
        self.now_ns = now_ns
        self.relayout()

    def resizeEvent(self, event: object) -> None:
        self.relayout()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.relayout()
        super().changeEvent(event)
