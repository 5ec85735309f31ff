"""``duelclock gui --screenshot FILE.png --demo-state [--audience]`` renders offscreen to a PNG."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from clockd.cli import main
from gui.style import DESK, HALL


def count(img: QImage, colour: str, step: int = 4) -> int:
    want = QColor(colour).rgb()
    return sum(
        1
        for y in range(0, img.height(), step)
        for x in range(0, img.width(), step)
        if img.pixel(x, y) == want
    )


def test_the_referee_window_renders_to_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "referee.png"
    assert main(["gui", "--screenshot", str(out), "--demo-state", "--lang", "pl"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1600, 1000)
    assert any(img.pixelColor(8, y).name() == DESK.header for y in range(0, 120))  # the event's band
    assert count(img, DESK.running) > 500  # running clocks are highlighted
    assert "1600×1000" in capsys.readouterr().out


def test_the_audience_screen_renders_full_hd(tmp_path: Path) -> None:
    out = tmp_path / "audience.png"
    assert main(["gui", "--screenshot", str(out), "--demo-state", "--audience"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1920, 1080)
    assert img.pixelColor(4, 1076).name() == HALL.window
    assert count(img, HALL.running) > 3000  # the big running clocks


def test_the_hall_timers_panel_and_its_audience_screen_render(tmp_path: Path) -> None:
    desk, hall = tmp_path / "referee-timer.png", tmp_path / "audience-timer.png"
    assert main(["gui", "--screenshot", str(desk), "--demo-state", "--event", "relay"]) == 0
    assert main(["gui", "--screenshot", str(hall), "--demo-state", "--session", "relay", "--audience"]) == 0
    img = QImage(str(desk))
    assert (img.width(), img.height()) == (1600, 1000)
    assert count(img, DESK.text) > 1000  # the big countdown's digits (every 4th pixel)
    assert count(img, DESK.running) == 0  # no duel's clock on the relay's page
    big = QImage(str(hall))
    assert count(big, HALL.text) > 5000 and count(big, HALL.running) == 0  # a third of the screen is the time


def test_a_screenshot_must_be_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gui", "--screenshot", str(tmp_path / "x.jpg"), "--demo-state"]) == 2
    assert "nazwa pliku musi kończyć się na .png" in capsys.readouterr().out


def test_a_bad_size_is_refused_with_what_was_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["gui", "--size", "big", "--demo-state"])
    assert "argument --size: 'big': oczekiwano SZEROKOŚĆxWYSOKOŚĆ" in capsys.readouterr().err


def test_without_a_display_the_window_says_so_instead_of_crashing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["gui", "--demo-state"]) == 2
    assert "nie ma tu ekranu" in capsys.readouterr().err
