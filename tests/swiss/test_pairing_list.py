"""The pairing list a referee posts: the engine's boards, with the names and scores players read."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.swiss import trf
from clockd.core.swiss.standings import score_text
from tests.conftest import corpus_dir


@pytest.fixture
def after_three_rounds(tmp_path: Path) -> tuple[Path, trf.Tournament]:
    """A 9-player corpus event (so someone gets the bye) as it stood before round 4."""
    whole = trf.load_bytes((corpus_dir() / "swiss" / "t_0003_p9_r6.trf").read_bytes())
    before = whole.pairing_input(4, whole.total_rounds)
    path = tmp_path / "grupa.trf"
    path.write_bytes(trf.dump_bytes(before))
    return path, before


def test_every_board_of_the_pairing_is_listed_with_names_and_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], after_three_rounds: tuple[Path, trf.Tournament]
) -> None:
    path, event = after_three_rounds
    assert (
        main(
            ["swiss", "pair", str(path), "-p", str(tmp_path / "r4.txt"), "--list", str(tmp_path / "r4.lista")]
        )
        == 0
    )
    capsys.readouterr()
    pairs = (tmp_path / "r4.txt").read_text().split("\n")[1:]
    boards = [tuple(int(x) for x in line.split()) for line in pairs if line and not line.endswith(" 0")]
    bye = next(int(line.split()[0]) for line in pairs if line.endswith(" 0"))

    listed = (tmp_path / "r4.lista").read_text(encoding="utf-8").splitlines()
    assert listed[0].endswith("runda 4: kojarzenie")
    rows = [line for line in listed if line.strip()[:1].isdigit()]
    assert len(rows) == len(boards) == 4
    for n, ((w, b), row) in enumerate(zip(boards, rows, strict=True), start=1):
        white, black = event[w], event[b]
        expected = (
            f"{w} {white.name}",
            score_text(white.score(3)),
            score_text(black.score(3)),
            f"{b} {black.name}",
        )
        assert row.split()[0] == str(n)
        assert all(part in row for part in expected), (row, expected)
        assert row.index(white.name) < row.index(" – ") < row.index(black.name)  # white first
    assert f"Wolny los: {bye} {event[bye].name}" in listed


def test_the_html_list_is_a_page_with_every_player_of_the_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], after_three_rounds: tuple[Path, trf.Tournament]
) -> None:
    path, event = after_three_rounds
    page = tmp_path / "r4.html"
    assert main(["swiss", "pair", str(path), "--list", str(page)]) == 0
    stdout = capsys.readouterr().out
    assert stdout.startswith("5\n")  # without -p the engine's pairing (4 boards + the bye) goes to stdout
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and html.count("<tr><td>") == 4
    for p in event.players:
        assert p.name in html


def test_a_score_is_written_as_on_a_wall() -> None:
    assert [score_text(Fraction(n, 2)) for n in (0, 1, 2, 3, 7)] == ["0", "½", "1", "1½", "3½"]
