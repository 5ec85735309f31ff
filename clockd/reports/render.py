"""Render a printable HTML page to PNG or PDF with Qt, offscreen.

The bracket page (``clockd.reports.html``) is written in the part of HTML that Qt's
rich-text engine draws — tables, ``rowspan``, ``bgcolor`` — so ``QTextDocument`` lays it
out with no web engine and no display: the same page a browser prints becomes a PDF
(A4 landscape, vector text) or a PNG (for a projector or a chat message).

Only this module touches Qt for the reports; it takes HTML text and knows nothing of
brackets. It paints with QtGui (a text document on an image or a PDF writer; its one use of
QtWidgets is the process's application object, see :func:`_app`), offscreen, so a printout
made on a machine with no screen — ``duelclock tournament print``, ``chess print``, an
event's ``export --pdf`` — needs no part of the desk's GUI package (``gui``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from clockd.i18n import Msg

if TYPE_CHECKING:
    from PySide6.QtGui import QPageLayout, QTextDocument


class CannotWrite(OSError):
    """Qt could not write a report file (it says no more than that). ``msg``: why, as a message."""

    def __init__(self, path: str | Path, kind: str) -> None:
        super().__init__(f"cannot write the {kind} file {path}")
        self.msg = Msg("report.qt-cannot-write", {"kind": kind})


def _app() -> object:
    """The process's Qt application (fonts need one); offscreen when there is no display.

    A QApplication, not only a QGuiApplication: Qt allows one per process and a GUI's
    windows need the widgets' kind, so a printout made first (an export, then the desk
    in the same process, as the tests do) must not leave the other kind behind."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def _document(html: str) -> QTextDocument:
    """``html`` as a Qt text document that wraps lines between words only.

    Qt's default wraps "at a word boundary or anywhere": a narrow table column then cut a
    team's name mid-word ("Grzegorzew" / "ski"). Wrapped at words only, a column is at least
    as wide as its longest word, so a name on a printout never breaks inside a word."""
    from PySide6.QtGui import QTextDocument, QTextOption

    doc = QTextDocument()
    option = doc.defaultTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    return doc


def html_to_png(html: str, path: str | Path, *, width_px: int = 1600) -> tuple[int, int]:
    """Draw ``html`` ``width_px`` wide on white and save it as PNG; returns (width, height)."""
    _app()
    from PySide6.QtGui import QColor, QImage, QPainter

    doc = _document(html)
    doc.setTextWidth(width_px)
    height = max(1, int(doc.size().height()) + 1)
    image = QImage(width_px, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        doc.drawContents(painter)
    finally:
        painter.end()
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]  # the stubs say bytes; Qt wants str
        raise CannotWrite(path, "PNG")
    return width_px, height


def page_layout(*, landscape: bool = True) -> QPageLayout:
    """The printouts' page: A4 (landscape by default), 10 mm margins."""
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize

    orientation = QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait
    return QPageLayout(
        QPageSize(QPageSize.PageSizeId.A4),
        orientation,
        QMarginsF(10, 10, 10, 10),
        QPageLayout.Unit.Millimeter,
    )


def print_layout(html: str, *, landscape: bool = True) -> QTextDocument:
    """``html`` laid out on the printed page (in points) exactly as :func:`html_to_pdf` prints it,
    so ``pageCount()`` counts the printed pages and a test can read where each line breaks."""
    _app()
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QPageLayout

    doc = _document(html)
    layout = page_layout(landscape=landscape)
    # without a page size the document is one endless page
    page = layout.paintRect(QPageLayout.Unit.Point)
    doc.setPageSize(QSizeF(page.width(), page.height()))
    return doc


def html_to_pdf(html: str, path: str | Path, *, landscape: bool = True) -> int:
    """Print ``html`` to an A4 PDF (landscape by default); returns the number of pages."""
    _app()
    from PySide6.QtGui import QPdfWriter

    writer = QPdfWriter(str(path))
    writer.setResolution(300)
    writer.setPageLayout(page_layout(landscape=landscape))
    writer.setTitle("duelclock")
    doc = print_layout(html, landscape=landscape)
    doc.print_(writer)
    pages = doc.pageCount()
    if not Path(path).is_file():
        raise CannotWrite(path, "PDF")
    return pages
