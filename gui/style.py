"""Fonts and colours, in one place, so both screens look the same on every machine.

The fonts are bundled (``gui/fonts``: DejaVu Sans and Sans Mono, whose Latin Extended-A
covers every Polish letter) and registered with Qt's font database at start, so a
projector laptop without them shows exactly what the referee's laptop shows.
DejaVu Sans has tabular digits — every digit is as wide as every other — so a clock's
text does not jiggle as it counts down.

Two palettes: :data:`DESK` (the referee's window: light, calm, dense) and
:data:`HALL` (the audience screen: dark, high contrast, seen from across a hall).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")

#: The families the bundled files register (what every widget asks for).
SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"

_loaded: list[str] | None = None


def load_fonts() -> list[str]:
    """Register the bundled fonts with Qt (once; needs a QGuiApplication); the families found.

    Raises ``RuntimeError`` naming the file if one cannot be loaded: a screen drawn with a
    fallback font would differ from the screenshots the referee was shown.
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    from PySide6.QtGui import QFontDatabase

    families: list[str] = []
    for name in FONT_FILES:
        path = FONT_DIR / name
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            raise RuntimeError(f"cannot load the bundled font {path}")
        families += QFontDatabase.applicationFontFamilies(font_id)
    _loaded = sorted(set(families))
    return _loaded


@dataclass(frozen=True)
class Palette:
    """The colours of one screen."""

    window: str
    text: str
    muted: str
    card: str
    card_border: str
    header: str
    header_text: str
    running: str  # the side whose time is falling
    running_text: str
    winner: str
    loser: str
    live: str  # a match on a clock now
    pending: str  # a result waiting for the referee
    alert: str
    alert_text: str
    flag: str
    paused: str
    ok: str
    offline: str
    final: str  # the final's frame
    third: str  # the 3rd-place duel's frame
    line: str  # bracket connectors


DESK = Palette(
    window="#eef1f5",
    text="#14202b",
    muted="#6b7785",
    card="#ffffff",
    card_border="#c9d1db",
    header="#1d3557",
    header_text="#ffffff",
    running="#ffd84d",
    running_text="#14202b",
    winner="#0f5132",
    loser="#8a95a3",
    live="#1769d1",
    pending="#c26a00",
    alert="#fff1c2",
    alert_text="#6b4a00",
    flag="#c62828",
    paused="#6a4fb3",
    ok="#2e7d32",
    offline="#c62828",
    final="#c9a227",
    third="#a0673a",
    line="#9aa6b4",
)

HALL = Palette(
    window="#0b1420",
    text="#f4f7fb",
    muted="#8fa1b5",
    card="#15233a",
    card_border="#2b3d58",
    header="#0b1420",
    header_text="#ffffff",
    running="#ffd84d",
    running_text="#0b1420",
    winner="#7ee2a8",
    loser="#5f7189",
    live="#4da3ff",
    pending="#ffb347",
    alert="#4a3a12",
    alert_text="#ffe08a",
    flag="#ff5a5a",
    paused="#b39dff",
    ok="#7ee2a8",
    offline="#ff5a5a",
    final="#f2c94c",
    third="#d08c5a",
    line="#3b506e",
)
