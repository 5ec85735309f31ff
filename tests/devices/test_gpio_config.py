"""The GPIO configuration refuses every wiring mistake with the table and the pin named."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import pi_info

from clockd.devices.gpio_config import (
    GpioConfigError,
    load_gpio_config,
    parse_gpio_config,
    parse_pin,
    usable_pins,
)

GOOD = """\
debounce_ms = 25

[[tables]]
number = 1
button_a = "GPIO17"
button_b = "BOARD13"
led_a = 22
led_b = "BCM23"
buzzer = "gpio24"
referee = "J8:22"

[[tables]]
number = 2
button_a = 5
button_b = "GPIO6"
"""


def refused(data: dict[str, object]) -> GpioConfigError:
    with pytest.raises(GpioConfigError) as caught:
        parse_gpio_config(data, source="hall.toml")
    return caught.value


def test_a_good_file_loads_with_every_pin_as_its_bcm_number(tmp_path: Path) -> None:
    path = tmp_path / "gpio.toml"
    path.write_text(GOOD, encoding="utf-8")
    config = load_gpio_config(path)
    assert config.debounce_ms == 25 and config.simultaneous_ms == 1
    one = config.table(1)
    assert one.pins() == {
        "button_a": 17,
        "button_b": 27,
        "led_a": 22,
        "led_b": 23,
        "buzzer": 24,
        "referee": 25,
    }
    assert config.table(2).pins() == {"button_a": 5, "button_b": 6}


def test_a_pin_used_twice_across_tables_names_both_tables_and_the_pin() -> None:
    error = refused(
        {
            "tables": [
                {"number": 1, "button_a": "GPIO17", "button_b": "GPIO27"},
                {"number": 2, "button_a": "BOARD11", "button_b": "GPIO6"},
            ]
        }
    )
    assert error.problems == ["GPIO17 (pin 11) is used twice: by table 1 button_a and by table 2 button_a"]
    assert str(error).startswith("hall.toml: ")


def test_a_pin_used_twice_inside_one_table_is_refused() -> None:
    error = refused({"tables": [{"number": 3, "button_a": 17, "button_b": 27, "led_a": "GPIO27"}]})
    assert error.problems == ["GPIO27 (pin 13) is used twice: by table 3 button_b and by table 3 led_a"]


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("GPIO40", "is not a pin of the Raspberry Pi's 40-pin header"),
        (28, "is not a pin of the Raspberry Pi's 40-pin header"),
        ("BOARD6", "is header pin 6, a GND pin, not a GPIO"),
        ("BOARD1", "is header pin 1, a 3V3 pin, not a GPIO"),
        ("GPIO0", "the ID_SD line of the HAT identification EEPROM"),
        ("button", "is not a pin of the Raspberry Pi's 40-pin header"),
        (True, "is not a pin name"),
    ],
)
def test_a_pin_that_is_not_a_usable_gpio_is_refused_with_table_role_and_pin(spec: object, why: str) -> None:
    error = refused({"tables": [{"number": 7, "button_a": 17, "button_b": spec}]})
    [problem] = error.problems
    assert problem.startswith(f"table 7, button_b: {spec!r} ")
    assert why in problem


def test_a_table_without_both_buttons_is_refused() -> None:
    error = refused({"tables": [{"number": 4, "button_a": 17, "led_a": 22}]})
    assert error.problems == [
        "table 4: no pin for button_b; every table needs a button for side A and one for side B"
    ]


def test_every_problem_is_reported_at_once_and_nothing_is_returned() -> None:
    error = refused(
        {
            "debounce_ms": 0,
            "tables": [
                {"number": 1, "button_a": 17, "button_b": "BOARD11"},
                {"number": 2, "button_a": "BOARD6"},
                {"number": 2, "button_a": 5, "button_b": 6, "buzer": 24},
            ],
        }
    )
    text = "\n".join(error.problems)
    assert "debounce_ms" in text
    assert "table 2: no pin for button_b" in text
    assert "table 2, button_a: 'BOARD6' is header pin 6, a GND pin" in text
    assert "table 2: unknown key 'buzer'" in text
    assert "GPIO17 (pin 11) is used twice: by table 1 button_a and by table 1 button_b" in text
    assert "table 2 is listed twice" in text
    assert len(error.problems) == 6


def test_a_table_number_listed_twice_is_refused() -> None:
    error = refused(
        {
            "tables": [
                {"number": 1, "button_a": 17, "button_b": 27},
                {"number": 1, "button_a": 5, "button_b": 6},
            ]
        }
    )
    assert error.problems == ["table 1 is listed twice"]


def test_no_tables_at_all_is_a_sentence_not_a_pydantic_dump() -> None:
    assert refused({}).problems == [
        "no tables are configured; add a [[tables]] section with number, button_a and button_b"
    ]


def test_a_file_that_is_not_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[tables]]\nnumber = 1\nbutton_a = "GPIO17\n', encoding="utf-8")
    with pytest.raises(GpioConfigError) as caught:
        load_gpio_config(path)
    assert str(caught.value).startswith(f"{path}: is not valid TOML")
    assert "line 3" in str(caught.value)


def test_a_missing_file_is_a_sentence(tmp_path: Path) -> None:
    with pytest.raises(GpioConfigError, match="cannot be read"):
        load_gpio_config(tmp_path / "nope.toml")


def test_pin_names_agree_with_every_40_pin_pi_in_gpiozeros_board_data() -> None:
    # Pi 3B, 4B, 5B and Zero 2 W share the header our reference board describes.
    for revision in ("a02082", "c03111", "d04170", "902120"):
        header = pi_info(revision).headers["J8"]
        for number, info in header.pins.items():
            if "gpio" in info.interfaces and info.name not in ("GPIO0", "GPIO1"):
                assert parse_pin(f"BOARD{number}") == int(info.name[4:]), (revision, number)
        usable = {int(i.name[4:]) for i in header.pins.values() if "gpio" in i.interfaces} - {0, 1}
        assert set(usable_pins()) == usable
