"""The zone contests' printouts (issue 26, item 7): the relay's sheet says 2 × 200 pieces and
states the relay's own ranking rule (not the team event's), and a name in a narrow column
wraps between its words, never inside one — on the page as it is printed to PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.units import MINUTE, SECOND
from hw_sim.gpio import ScriptedFactory
from tests.service.test_zone_events import Hall
from tests.tournament.conftest import T0, FakeClock

PAIRS = {
    "para-1": "Krzysztofa Brzęczyszczykiewicz i Przemysława Wierzchowska",
    "para-2": "Ania Kowalska-Wiśniewska i Bartłomiej Grzegorzewski",
    "para-3": "Superdrużyna Puzzlomaniaków z Konstantynopola",
}


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    monkeypatch.setenv("DUELCLOCK_STATE_DIR", str(tmp_path / "state"))
    h = Hall(tmp_path / "zone.db", FakeClock(), ScriptedFactory())
    port, token = h.client.port, h.daemon.token  # type: ignore[attr-defined]

    def run(*args: str) -> tuple[int, str, str]:
        auth = [] if args[0] in ("show", "export") else ["--token", token]
        code = main(["event", *args, "--port", str(port), *auth])
        out = capsys.readouterr()
        return code, out.out, out.err

    yield run, h, tmp_path
    h.client.close()
    h.daemon.stop()


def mid_word_breaks(html: str) -> list[str]:
    """Each printed line (on the PDF's page) that ends inside a word, with the text it cut."""
    from clockd.reports.render import print_layout

    doc = print_layout(html, landscape=False)
    assert doc.pageCount() == 1  # laid out (the lines exist once the page is)
    # and the table fits the page's width (held-together words must not push a column off it)
    assert doc.documentLayout().documentSize().width() <= doc.pageSize().width() + 0.5
    cut = []
    block = doc.begin()
    while block.isValid():
        layout, whole = block.layout(), block.text()
        for i in range(layout.lineCount() - 1):
            line = layout.lineAt(i)
            end = line.textStart() + line.textLength()
            if whole[end - 1 : end].isalnum() and whole[end : end + 1].isalnum():
                cut.append(f"{whole[line.textStart() : end]}|{whole[end:]}")
        block = block.next()
    return cut


def test_the_relay_sheet_is_the_relay_s_and_no_name_breaks_mid_word(desk: Any) -> None:
    run, h, tmp = desk
    assert run("new", "sztafeta", "--kind", "relay")[0] == 0
    for n, (entry, name) in enumerate(PAIRS.items(), start=1):
        code, _, err = run("add", "sztafeta", entry, "--name", name, "--table", str(n))
        assert code == 0, err
    code, _, err = run("start", "sztafeta")
    assert code == 0, err
    h.button(1, T0 + 41 * MINUTE + 7 * SECOND)  # pair 1 finished both pictures
    assert run("end", "sztafeta")[0] == 0
    assert run("count", "sztafeta", "para-2", "312")[0] == 0
    assert run("count", "sztafeta", "para-3", "250")[0] == 0
    assert run("confirm", "sztafeta")[0] == 0
    html, pdf = tmp / "wyniki.html", tmp / "wyniki.pdf"
    code, _, err = run("export", "sztafeta", "--html", str(html), "--pdf", str(pdf))
    assert code == 0, err
    page = html.read_text(encoding="utf-8")
    assert "sztafeta par · 1:00:00 · 2 × 200 elementów" in page  # two pictures of 200 (§3.2.3)
    assert "Pary, które ułożyły oba obrazki, według czasu (§3.2.9)" in page
    assert "braków" not in page and "drużynowy" not in page  # not the team event's rule
    assert pdf.read_bytes().startswith(b"%PDF")
    assert mid_word_breaks(page) == []
    # the names are in the sheet whole, and the ranking as decided
    for name in PAIRS.values():
        assert name in page
