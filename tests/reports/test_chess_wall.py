"""The wall and the tables (issue 27, item 9): the round's pairings by name, the result slips
to cut, the standings with places 1–3 marked — as HTML and as Qt's A4 PDF, through the real
``duelclock chess print`` command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clockd.core.swiss.model import ZERO, Code, Player, Record, RoundEntry, Tournament
from clockd.reports import chess
from tests.reports.chess_group import write_group
from tests.reports.test_chess_print import pdf_pages, run

#: Surnames whose Polish order differs from a byte sort or a sort without diacritics:
#: Ł after every L, Ś after every S, Ż after Ź after Z, Ó after O.
NAMES = (
    "Żak, Franek",
    "Łukasik, Bartek",
    "Sowa, Celina",
    "Lis, Adam",
    "Śliwa, Darek",
    "Zając, Ewa",
    "Źrebiec, Gosia",
    "Ostrowski, Hubert",
    "Ósmy, Igor",
    "Lewandowska, Julia",
)
POLISH_ORDER = [
    "Lewandowska Julia",
    "Lis Adam",
    "Łukasik Bartek",
    "Ostrowski Hubert",
    "Ósmy Igor",
    "Sowa Celina",
    "Śliwa Darek",
    "Zając Ewa",
    "Źrebiec Gosia",
    "Żak Franek",
]


def polish_group() -> Tournament:
    """Ten players; no. 10 is absent from round 1 (``0000 - Z``), no. 9 withdrew (absent
    in every round); the other eight play."""
    absent = (RoundEntry.bye(Code.ZERO_BYE),)
    players = tuple(
        Player(
            start_number=i,
            name=name,
            sex="w" if name.split(", ")[1][-1] == "a" else "m",
            points=ZERO,
            rounds=absent * (2 if i == 9 else 1 if i == 10 else 0),
        )
        for i, name in enumerate(NAMES, start=1)
    )
    return Tournament(players, (Record("012 Klasa 5, dziewczęta i chłopcy"), Record("XXR 2")))


def test_the_pairings_by_name_are_in_polish_order_with_board_colour_bye_and_absent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    t = polish_group()
    persons = chess.people(t)
    head = chess.Heading("Turniej", "Klasa 5", "27.10.2026")
    boards = [(1, 2), (3, 4), (5, 6)]  # Żak–Łukasik on 41, Sowa–Lis on 42, Śliwa–Zając on 43
    page = chess.by_name(t, persons, head, 1, boards, 7, first_board=41, withdrawn={9}).html
    rows = re.findall(
        r'<tr><td class="name">([^&]+)&nbsp;<span[^>]*>\((\d+)\)</span></td><td class="school">[^<]*</td>'
        r'<td class="c">(.*?)</td><td class="">(.*?)</td></tr>',
        page,
    )
    assert [name for name, *_ in rows] == POLISH_ORDER
    seen = {int(sn): (re.sub(r"</?b>", "", board), re.sub(r"</?b>", "", why)) for _, sn, board, why in rows}
    assert seen[1] == ("41", "białe") and seen[2] == ("41", "czarne")
    assert seen[4] == ("42", "czarne") and seen[6] == ("43", "czarne")
    assert seen[7] == ("—", "wolny los (1 pkt)")  # the bye
    assert seen[9] == ("—", "wycofany")  # withdrawn by the desk
    assert seen[10] == ("—", "nieobecność (0 pkt)")  # absent from this round
    assert seen[8] == ("—", "bez pary")  # in the group, on no board (not paired yet)
    assert "Runda 1 — alfabetycznie — Klasa 5" in page and "Znajdź swoje nazwisko" in page


def test_one_result_slip_per_board_four_to_a_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    trf_path, day = write_group(tmp_path, players=19, rounds=5, played=2)  # 9 boards and a bye
    html, pdf = tmp_path / "blankiety.html", tmp_path / "blankiety.pdf"
    code, _, err = run(
        capsys, "chess", "print", "blankiety", trf_path, "--day", day, "--first-board", "21",
        "--html", html, "--pdf", pdf,
    )  # fmt: skip
    assert (code, err) == (0, "")
    page = html.read_text(encoding="utf-8")
    slips = re.findall(r"Klasa 3, chłopcy · Runda 3 · </span><span class=\"board\">Szachownica (\d+)<", page)
    assert slips == [str(n) for n in range(21, 30)]  # one per board, numbered as the wall's sheet
    assert page.count("Podpis białych") == page.count("Podpis czarnych") == 9
    assert page.count("Wynik (zakreśl)") == 9 and page.count("wynik (wpisz)") == 9
    assert page.count('class="cut"') == 9 - 3  # between the slips of a page, 4 to a page
    assert page.count("page-break-before:always") == 2
    # the same boards and players as the board-order sheet
    code, pairings, _ = run(capsys, "chess", "print", "kojarzenia", trf_path, "--day", day)
    board_order = re.findall(r"<td class=\"name\">([^&]+)&nbsp;", pairings.split("Bez pary")[0])
    on_slips = re.findall(r"<b>([^<]+)</b>&nbsp;\(\d+\)", page)
    assert on_slips == board_order and len(on_slips) == 18
    assert pdf.read_bytes().startswith(b"%PDF") and pdf_pages(pdf) == 3  # 4 + 4 + 1


def test_the_standings_mark_places_one_to_three_for_the_prize_giving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    trf_path, day = write_group(tmp_path, players=14, rounds=5)
    html, pdf = tmp_path / "wyniki.html", tmp_path / "wyniki.pdf"
    code, _, err = run(
        capsys, "chess", "print", "klasyfikacja", trf_path, "--day", day, "--seed", "s",
        "--html", html, "--pdf", pdf,
    )  # fmt: skip
    assert (code, err) == (0, "")
    page = html.read_text(encoding="utf-8")
    places = re.findall(r'<tr><td class="([a-z0-9]+)">(?:<b>)?(\d+)\.(?:</b>)?</td>', page)
    assert places[:3] == [("top1", "1"), ("top2", "2"), ("top3", "3")]
    assert all(cls == "n" for cls, _ in places[3:]) and len(places) == 14
    names = re.findall(r'<td class="name">(.*?)</td>', page)
    assert all(n.startswith("<b>") for n in names[:3]) and not any("<b>" in n for n in names[3:])
    assert "Klasyfikacja po rundzie 5 — Klasa 3, chłopcy" in page  # the round it is after
    assert "Miejsca 1–3 (wyróżnione)" in page and "BH-C1 średni Buchholz" in page  # columns named
    assert pdf.read_bytes().startswith(b"%PDF") and pdf_pages(pdf) == 1
