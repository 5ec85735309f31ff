"""S(witcher)'s printable results (issue 26, item 6): ``event export --html/--pdf/--csv`` writes the
"from start to end without a break" list (§6.2.7) — the extra prize — beside the tables in the
order they were done and the replacements, public names only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.units import MINUTE, SECOND
from hw_sim.gpio import ScriptedFactory
from tests.service.test_switcher_event import ROTATION
from tests.service.test_zone_events import Hall
from tests.tournament.conftest import T0, FakeClock


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
    h = Hall(tmp_path / "rotation.db", FakeClock(), ScriptedFactory())
    port, token = h.client.port, h.daemon.token  # type: ignore[attr-defined]

    def run(*args: str) -> tuple[int, str, str]:
        auth = [] if args[0] in ("show", "export") else ["--token", token]
        code = main(["event", *args, "--port", str(port), *auth])
        out = capsys.readouterr()
        return code, out.out, out.err

    yield run, h, tmp_path
    h.client.close()
    h.daemon.stop()


def test_the_switcher_prints_who_stayed_from_the_start_to_the_end(desk: Any) -> None:
    run, h, tmp = desk
    (tmp / "rotacja.toml").write_text(ROTATION, encoding="utf-8")
    assert run("new", "switcher", "--kind", "switcher", "--config", str(tmp / "rotacja.toml"))[0] == 0
    for seat in range(1, 27):
        assert run("seat", "switcher", str(seat), f"Osoba {seat}")[0] == 0
    h.at(T0 + SECOND)
    assert run("start", "switcher")[0] == 0
    h.at(T0 + SECOND + 20 * MINUTE)
    code, _, err = run("replace", "switcher", "7", "Nowa Osoba", "--reason", "musiała wyjść")
    assert code == 0, err
    for n, table in enumerate([5, *[t for t in range(1, 14) if t != 5]], start=1):
        h.at(T0 + SECOND + (30 + n) * MINUTE)
        code, _, err = run("done", "switcher", str(table))
        assert code == 0, err
    files = {k: tmp / f"switcher.{k}" for k in ("html", "pdf", "csv")}
    code, _, err = run(
        "export",
        "switcher",
        "--html",
        str(files["html"]),
        "--pdf",
        str(files["pdf"]),
        "--csv",
        str(files["csv"]),
    )
    assert code == 0, err
    page = files["html"].read_text(encoding="utf-8")
    assert "Od początku do końca bez przerwy (dodatkowa nagroda, §6.2.7)" in page
    assert "wyniki ostateczne: wszystkie obrazki ułożone" in page
    # 25 of 26 stayed: Osoba 7 left, and Nowa Osoba came late — neither is on the prize list
    stayed = page.split("§6.2.7)</h2>")[1].split("</table>")[0]
    assert stayed.count("<tr>") == 1 + 25 and "Osoba 1<" in stayed and "Osoba 26<" in stayed
    assert "Osoba 7<" not in stayed and "Nowa Osoba" not in stayed
    assert "Zastępstwa (§6.2.5)" in page and "Nowa Osoba" in page and "po 20:00 (zmiana 1)" in page
    tables = page.split("(§6.2.4)</h2>")[1].split("</table>")[0]
    assert tables.index('<td style="padding:3px 5px">5</td>') < tables.index(">13</td>")  # table 5 first
    lines = files["csv"].read_text(encoding="utf-8").splitlines()
    assert lines[0] == "seat;name" and len(lines) == 1 + 25 and "7;Osoba 7" not in lines
    assert files["pdf"].read_bytes().startswith(b"%PDF")
