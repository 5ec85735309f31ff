"""``duelclock demo --event relay|team|blind``: a whole zone contest on the real daemon and mock GPIO tables.

The demo checks itself (every signal on every buzzer pin, every finish from a table's
button, places 1–3 in the results) and exits 1 if anything is off; here it runs as fast as
the machine can (``--speed 0``) and its results file is read back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clockd.cli import main


@pytest.mark.parametrize("kind", ["relay", "team", "blind"])
def test_the_zone_demo_runs_on_the_daemon_and_writes_places_1_to_3(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    out = tmp_path / "wyniki.json"
    assert main(["demo", "--event", kind, "--speed", "0", "--seed", "3", "--json-out", str(out)]) == 0
    printed = capsys.readouterr().out
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["kind"] == kind and results["confirmed"]
    top = results["ranking"][:3]
    assert [r["place"] for r in top] == [1, 2, 3] and all(r["podium"] for r in top)
    assert "sprawdzenie:" in printed
    if kind == "relay":
        assert printed.count("ZMIANA") >= 7  # at least every 5 minutes until the last finish
    if kind != "blind":
        assert "przycisk przy stoliku" in printed
