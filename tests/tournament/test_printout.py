"""Issue 18, item 8: the results printout of a hard session, as a referee hangs it on the wall.

A whole session on the real daemon with every kind of decision — a tie-break, an override,
a walkover, a −30 s penalty — and long names, exported with ``tournament export --pdf``:
the bracket is page 1 and all of it is on page 1, the decisions read in Polish, the
penalty is shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.core.bracket import Assign, Confirm, Override, OverrideReason, StartTiebreak, Toss, Walkover
from clockd.core.clock import Adjust, Side
from clockd.core.duel import Complete
from clockd.core.units import SECOND
from clockd.reports.html import bracket_html
from clockd.reports.results import Results

from .test_daemon import ready_session

LONG = ["Małgorzata-Aleksandra", "Konstantynopolitańczyk", "Bartłomiej-Maksymilian", "Przemysława"]


def play(desk: Any, match: str, table: int, *, a_first_s: int = 3, tie: bool = False) -> None:
    """A duel: side a's time runs ``a_first_s`` (or nobody's, for a tie), then complete, confirm."""
    desk.act(f"pt/{match}", Assign(table=table))
    m = desk.match(match)
    desk.act(f"pt/{match}", Toss(winner=m.a))
    desk.press(table, Side.B, desk.clock.now + SECOND)
    if not tie:
        desk.at(desk.clock.now + a_first_s * SECOND)
    desk.act(f"pt/{match}", Complete())
    if desk.match(match).status == "result":
        desk.act(f"pt/{match}", Confirm())


def test_the_bracket_of_a_hard_session_prints_on_one_a4_page_with_every_decision(
    open_desk: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import tests.tournament.test_daemon as td

    long_csv = "Imię;Nazwisko;E-mail;Wiek\n" + "".join(
        f"{LONG[i % 4]}{i};Wiśniewska-Nowak{i};p{i}@example.pl;{20 + i}\n" for i in range(1, 21)
    )
    desk = open_desk(tables=8)
    original, td.CSV = td.CSV, long_csv
    try:
        ready_session(desk)
    finally:
        td.CSV = original
    play(desk, "R1-1", 1, tie=True)  # the same time: a 49-piece tie-break decides it
    desk.act("pt/R1-1", StartTiebreak())
    play(desk, "R1-1-TB1", 1)
    desk.act("pt/R1-2", Assign(table=2))
    m = desk.match("R1-2")
    desk.act("pt/R1-2", Toss(winner=m.a))
    desk.press(2, Side.B, desk.clock.now + SECOND)
    desk.act("pt/R1-2", Adjust(side=Side.A, delta_ms=-30_000, reason="dotknięcie cudzego elementu"))
    desk.at(desk.clock.now + 2 * SECOND)
    desk.act("pt/R1-2", Complete())
    desk.act("pt/R1-2", Confirm())
    r13 = desk.match("R1-3")
    desk.act("pt/R1-3", Override(winner=r13.b, category=OverrideReason.DISQUALIFICATION, reason="§8.1"))
    r14 = desk.match("R1-4")
    desk.act("pt/R1-4", Walkover(absent=r14.a, reason="nie przyszedł"))
    for i, match in enumerate(["R1-5", "R1-6", "R1-7", "R1-8"]):
        play(desk, match, 3 + i, a_first_s=1 + i)
    for match, table in (("R2-1", 1), ("R2-2", 2), ("R2-3", 3), ("R2-4", 4)):
        play(desk, match, table)
    for match, table in (("R3-1", 1), ("R3-2", 2), ("R4-1", 3), ("R5-1", 4)):
        play(desk, match, table, a_first_s=7)
    assert desk.session().stage == "finished"

    pdf, out_json = tmp_path / "wyniki.pdf", tmp_path / "wyniki.json"
    conn = ["--host", "127.0.0.1", "--port", str(desk.daemon.port)]
    assert main(["tournament", "export", "--pdf", str(pdf), "--json", str(out_json), *conn]) == 0
    capsys.readouterr()
    assert pdf.stat().st_size > 10_000
    results = Results.model_validate(json.loads(out_json.read_text(encoding="utf-8")))
    penalty = results.match("R1-2").adjustments
    expected = [(m.a, -30_000, "dotknięcie cudzego elementu")]
    assert [(a.player, a.delta_ms, a.reason) for a in penalty] == expected

    page = bracket_html(results)
    bracket, rest = page.split('<p style="page-break-after: always; margin: 0"></p>', 1)
    from clockd.reports.render import html_to_pdf

    assert html_to_pdf(bracket + "</body></html>", tmp_path / "bracket-only.pdf") == 1  # all of it on page 1
    assert "korekta czasu:" in bracket and "−0:30" in bracket  # the penalty beside the times
    assert "Korekty czasu przez sędziego" in rest and "dotknięcie cudzego elementu" in rest
    assert "decyzja sędziego (dyskwalifikacja, §8.1)" in rest and "walkower" in rest
    assert "override" not in page and "[dispute]" not in page and "disqualification" not in page
    for match in results.matches:
        if match.tiebreak_of is None and match.displayed is not None:
            assert f'nowrap width="17%"><span style="font-size:7pt">{match.displayed.a}</span>' in bracket
