"""``duelclock gpio check`` and ``duelclock gpio test``, as a person at a Pi would run them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from clockd.cli import main
from clockd.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield None
    set_language(None)


def test_check_prints_where_every_wire_goes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gpio.toml"
    path.write_text('[[tables]]\nnumber = 4\nbutton_a = "BOARD11"\nbutton_b = 27\nbuzzer = "GPIO24"\n')
    assert main(["gpio", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: valid" in out
    assert "table 4: button A GPIO17 (pin 11), button B GPIO27 (pin 13), buzzer GPIO24 (pin 18)" in out


def test_check_refuses_a_bad_file_naming_table_and_pin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gpio.toml"
    path.write_text('[[tables]]\nnumber = 2\nbutton_a = 17\nbutton_b = "BOARD9"\n')
    assert main(["gpio", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"{path}: table 2, button_b: 'BOARD9' is header pin 9, a GND pin, not a GPIO"


def test_test_on_mock_pins_lights_beeps_and_prints_each_press(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gpio", "test", "--mock"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pin factory: ScriptedFactory; press time: edge time supplied by the pin (ns)"
    assert "table 1: LED A lit (GPIO22 (pin 15); pin state 1)" in lines
    assert "table 1: LED B lit (GPIO23 (pin 16); pin state 1)" in lines
    assert "table 1: beep (GPIO24 (pin 18))" in lines
    presses = [line for line in lines if line.startswith("table 1: button") or "referee button" in line]
    assert presses == [
        "table 1: button A (GPIO17 (pin 11)) +0.000 s",
        "table 1: button B (GPIO27 (pin 13)) +1.000 s",
        "table 1: referee button (GPIO25 (pin 22)) +2.000 s",
    ]
    assert lines[-1].startswith("table 1: presses 2, referee 1, contact bounce dropped ")


def test_test_without_gpio_says_so_and_points_to_mock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    assert main(["gpio", "test", "--seconds", "1"]) == 2
    err = capsys.readouterr().err
    assert "No GPIO on this computer" in err and "--mock" in err


def test_check_refuses_a_bad_file_in_polish_for_a_polish_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gpio.toml"
    path.write_text('[[tables]]\nnumber = 2\nbutton_a = 17\nbutton_b = "BOARD9"\n\n[[tables]]\nnumber = 3\n')
    set_language("pl")
    assert main(["gpio", "check", str(path)]) == 1
    err = capsys.readouterr().err
    both = "każdy stolik potrzebuje przycisku dla strony A i przycisku dla strony B"
    assert err.splitlines() == [
        f"{path}: 3 problemy:",
        "  - stolik 2, button_b: 'BOARD9' to pin 9 złącza, pin GND, a nie GPIO",
        f"  - stolik 3: brak pinu dla button_a; {both}",
        f"  - stolik 3: brak pinu dla button_b; {both}",
    ]
