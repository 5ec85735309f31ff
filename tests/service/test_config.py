"""The daemon's configuration file: a serial clock's settings are checked when the file is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.i18n import render
from clockd.service.config import DaemonConfigError, SerialDevice, load_config


def test_a_serial_clocks_usb_ids_are_read_and_a_misspelt_or_bad_setting_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(
        "[[tables]]\nid = 1\n"
        'device = { kind = "serial", serial_number = "DC-0007", vid = 0x16C0, pid = 0x05E1 }\n',
        encoding="utf-8",
    )
    device = load_config(good).tables[0].device
    assert isinstance(device, SerialDevice)
    assert (device.serial_number, device.vid, device.pid) == ("DC-0007", 0x16C0, 0x05E1)

    bad = tmp_path / "clocks.toml"
    bad.write_text(
        '[[tables]]\nid = 1\ndevice = { kind = "serial", serial_number = "DC-1", vid = "zz" }\n\n'
        '[[tables]]\nid = 2\ndevice = { kind = "serial", serial_numbr = "DC-2" }\n',
        encoding="utf-8",
    )
    with pytest.raises(DaemonConfigError) as refused:
        load_config(bad)
    message = str(refused.value)
    assert "device.serial.vid (table 1, entry 1) must be a whole number" in message
    assert "there is no field device.serial.serial_numbr (table 2, entry 2)" in message
    polish = render(refused.value.msg, "pl")  # the organiser reads it in Polish: file, table, field
    assert polish.startswith(f"{bad}: nie można użyć tej konfiguracji:")
    assert "nie ma pola device.serial.serial_numbr (stolik 2, wpis 2)" in polish


def test_a_table_defined_twice_is_named(tmp_path: Path) -> None:
    twice = tmp_path / "clocks.toml"
    twice.write_text("[[tables]]\nid = 3\n\n[[tables]]\nid = 3\n", encoding="utf-8")
    with pytest.raises(DaemonConfigError) as refused:
        load_config(twice)
    assert "stolik 3 jest zdefiniowany dwa razy" in render(refused.value.msg, "pl")
