"""``duelclock web pin|qr|remove`` are the desk's: without the daemon's token they refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from clockd.cli import main


def test_pins_and_codes_need_the_daemons_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path))  # no daemon.json here: not the desk
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    access = tmp_path / "web-access.json"
    assert main(["web", "pin", "Anna Nowak", "--events", "sp3-ch", "--access", str(access)]) == 2
    assert main(["web", "qr", "Anna Nowak", "--events", "sp3-ch", "--access", str(access)]) == 2
    assert "token" in capsys.readouterr().err
    assert not access.exists()
