"""The bundled font: loaded from the package, used by the widgets, and it has every Polish letter."""

from __future__ import annotations

import sys

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication

from gui import style
from gui.widgets.painted import font

POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"


def test_the_fonts_and_their_licence_ship_with_the_package() -> None:
    for name in style.FONT_FILES:
        assert (style.FONT_DIR / name).stat().st_size > 100_000
    licence = (style.FONT_DIR / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "DejaVu" in licence


def test_the_widgets_font_resolves_to_the_bundled_family() -> None:
    assert {style.SANS, style.MONO} <= set(style.load_fonts())
    assert style.SANS in QFontDatabase.families()
    for f in (font(20), font(20, bold=True), font(14, mono=True)):
        assert QFontInfo(f).family() == f.family()
    assert QApplication.font().family() in (style.SANS, QApplication.font().family())


def test_every_polish_letter_is_in_the_font_and_draws_something() -> None:
    f = font(32, bold=True)
    metrics = QFontMetrics(f)
    for ch in POLISH:
        assert metrics.inFontUcs4(ord(ch)), ch

    # diacritics draw ink above or below the base letter: Ł differs from L, ź from z
    def ink(text: str) -> bytes:
        img = QImage(60, 60, QImage.Format.Format_Grayscale8)
        img.fill(255)
        p = QPainter(img)
        p.setFont(f)
        p.drawText(10, 45, text)
        p.end()
        return bytes(img.constBits())

    for plain, marked in zip("acelnoszzACELNOSZZ", POLISH, strict=True):
        assert ink(plain) != ink(marked), marked


def test_qt_does_not_lose_references_to_none() -> None:
    """PySide6 6.12.0 drops a reference to ``None`` on every void call on Python 3.11: a GUI that
    repaints ten times a second then dies within minutes ("deallocating None"). pyproject.toml
    excludes that release; this catches a future one with the same fault."""
    f = QFont(style.SANS)
    before = sys.getrefcount(None)
    for _ in range(200):
        f.setPixelSize(12)
        f.setBold(True)
    assert sys.getrefcount(None) >= before - 5
