"""``duelclock chess print``: the chess hall's printouts, made from a group played by the
FIDE Dutch engine, through the real command line and Qt offscreen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.chessday.group import ABSENT
from clockd.core.chessday.roster import ChessDay, Entrant, Group
from clockd.core.swiss import trf
from clockd.core.swiss.model import ZERO, Player, Record, Tournament
from clockd.reports import chess
from tests.reports.chess_group import make_group, write_group

KINDS = ("startlist", "pairings", "standings", "crosstable", "prizes", "diplomas", "medals")


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def headings(html: str) -> list[str]:
    """The column headings of the page's first table."""
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", html)
    assert head is not None
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1))]


def pdf_pages(path: Path) -> int:
    """The number of pages of a PDF, from its page objects (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


@pytest.fixture
def group_files(tmp_path: Path) -> tuple[Path, Path]:
    return write_group(tmp_path, players=14, rounds=5)


def test_standings_are_headed_by_the_fide_acronyms_in_the_regulations_order(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    group_files: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    trf_path, day = group_files
    code, out, err = run(
        capsys, "chess", "print", "klasyfikacja", trf_path, "--day", day, "--seed", "spodek-2026"
    )
    assert (code, err) == (0, "")
    assert headings(out) == [
        "M-ce", "Nr", "Zawodnik", "Szkoła", "Pkt", "BH-C1", "BH", "SB", "PS", "DE", "WIN", "BWG", "Los"
    ]  # fmt: skip
    assert "„spodek-2026”" in out  # the seed is printed: anyone can draw the lots again
    # the order is the one `duelclock swiss standings` gives with the same lots
    code, listed, _ = run(capsys, "swiss", "standings", trf_path, "--lots", "spodek-2026", "--format", "json")
    expected = [row["start_number"] for row in json.loads(listed)]
    printed = [
        int(n)
        for n in re.findall(
            r'<td class="(?:n|top\d)">(?:<b>)?\d+\.(?:</b>)?</td><td class="n">(\d+)</td>', out
        )
    ]
    assert printed == expected and len(printed) == 14


def test_the_diplomas_pdf_has_one_page_per_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group_files: tuple[Path, Path]
) -> None:
    trf_path, day = group_files
    pdf = tmp_path / "dyplomy.pdf"
    code, _, err = run(
        capsys, "chess", "print", "dyplomy", trf_path, "--day", day, "--pdf", pdf, "--seed", "x"
    )
    assert (code, err) == (0, "")
    assert pdf_pages(pdf) == 14
    html = chess.diplomas(
        chess.GroupResult(
            chess.Heading("Turniej", "Klasa 3, chłopcy", "27.10.2026"),
            chess.group_standings(trf.load_bytes(trf_path.read_bytes()), seed="x"),
            chess.people(trf.load_bytes(trf_path.read_bytes()), make_group(players=14, rounds=5)[1]),
        )
    ).html
    assert html.count("page-break-before:always") == 13
    assert "Jan Wiśniewski" in html and "za zajęcie 1. miejsca" in html


def _start_list(entrants: list[Entrant]) -> Tournament:
    players = tuple(
        Player(start_number=e.start, name=e.trf_name, sex=e.sex, rating=e.rating, points=ZERO)
        for e in entrants
    )
    return Tournament(players, (Record("012 Klasa 3, chłopcy"), Record("XXR 5")))


def test_a_start_list_published_again_says_who_was_added_removed_and_corrected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    _, group, day = make_group(players=8, rounds=5, played=0)
    first = list(group.entrants)
    (tmp_path / "sp3-ch.trf").write_bytes(trf.dump_bytes(_start_list(first)))
    (tmp_path / "day.json").write_text(day.model_dump_json(), encoding="utf-8")
    html1 = tmp_path / "lista.html"
    code, out, err = run(
        capsys,
        "chess",
        "print",
        "startlist",
        tmp_path / "sp3-ch.trf",
        "--day",
        tmp_path / "day.json",
        "--html",
        html1,
    )
    assert (code, err) == (0, "")
    copy = json.loads((tmp_path / "lista.json").read_text(encoding="utf-8"))  # written beside the HTML
    assert [p["name"] for p in copy["players"]][:2] == ["Wiśniewski Jan", "Wójcik Michał"]

    # corrections: no. 3 changes school, no. 5 withdraws, no. 6's surname gets its diacritics
    # right, a late entry is added — and every start number below shifts
    second = [e for e in first if e.start != 5]
    second = [e.model_copy(update={"school": "SP 7 Bytom"}) if e.start == 3 else e for e in second]
    second = [e.model_copy(update={"surname": "Zielińska-Nowak"}) if e.start == 6 else e for e in second]
    second.insert(
        1, Entrant(start=99, surname="Żak", first_name="Gaweł", sex="m", rating=1799, school="SP 1")
    )
    second = [e.model_copy(update={"start": i}) for i, e in enumerate(second, start=1)]
    new_group = group.model_copy(update={"entrants": tuple(second)})
    new_day = day.model_copy(update={"groups": (new_group, *day.groups[1:])})
    (tmp_path / "sp3-ch.trf").write_bytes(trf.dump_bytes(_start_list(second)))
    (tmp_path / "day.json").write_text(new_day.model_dump_json(), encoding="utf-8")
    code, out, err = run(
        capsys, "chess", "print", "startlist", tmp_path / "sp3-ch.trf", "--day", tmp_path / "day.json",
        "--previous", tmp_path / "lista.json",
    )  # fmt: skip
    assert (code, err) == (0, "")
    changes = out.split('<div class="changes">', 1)[1].split("</div>", 1)[0]
    assert "Dopisano (1): 2. Żak Gaweł (SP 1)" in changes
    assert "Usunięto (1): Lewandowski Szymon" in changes
    assert "Poprawiono (2):" in changes
    assert (
        "Kowalczyk Łukasz: szkoła: „Zespół Szkolno-Przedszkolny nr 3" in changes and "„SP 7 Bytom”" in changes
    )
    assert "nazwisko i imię: „Zieliński Jakub” → „Zielińska-Nowak Jakub”" in changes
    assert "Wójcik" not in changes  # shifted from no. 2 to no. 3, nothing else: not a correction

    # the same list again: nothing changed, and the list says so
    code, out, _ = run(
        capsys, "chess", "print", "startlist", tmp_path / "sp3-ch.trf", "--previous", tmp_path / "sp3-ch.trf"
    )
    assert code == 0 and "Bez zmian względem poprzedniej listy." in out


def test_no_birth_date_or_e_mail_in_any_printout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], group_files: tuple[Path, Path]
) -> None:
    trf_path, day = group_files
    assert "2017/01/10" in trf_path.read_text(encoding="utf-8")  # the TRF has births …
    assert "@example.com" in day.read_text(encoding="utf-8")  # … and the day file e-mails
    for kind in KINDS:
        html = tmp_path / f"{kind}.html"
        files = [] if kind == "medals" else [trf_path]
        code, _, err = run(
            capsys, "chess", "print", kind, *files, "--day", day, "--html", html, "--seed", "s"
        )
        assert (code, err) == (0, ""), kind
        page = html.read_text(encoding="utf-8")
        assert "@" not in page and "2017/" not in page and "2017-" not in page, kind
    copy = (tmp_path / "startlist.json").read_text(encoding="utf-8")
    assert "@" not in copy and "2017" not in copy


def test_pairings_through_the_command_line_in_polish_and_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    trf_path, day = write_group(tmp_path, players=13, rounds=5, played=2)
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    pdf = tmp_path / "kojarzenia.pdf"
    code, out, err = run(
        capsys, "chess", "print", "kojarzenia", trf_path, "--day", day, "--first-board", "101",
        "--html", tmp_path / "k.html", "--pdf", pdf,
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out.strip() == f"Zapisano: {tmp_path / 'k.html'}, {pdf}"
    page = (tmp_path / "k.html").read_text(encoding="utf-8")
    assert "Kojarzenia rundy 3 — Klasa 3, chłopcy" in page  # the next round, paired by the engine
    assert headings(page) == ["Szachownica", "Białe", "Pkt", "Wynik", "Pkt", "Czarne"]
    boards = re.findall(r'<tr><td class="n">(\d+)</td>', page.split("</table>")[0])
    assert boards == [str(n) for n in range(101, 107)]  # 13 players: six boards from 101 …
    assert "wolny los (1 pkt)" in page  # … and the bye below
    results = re.findall(r'<td class="c">([^<]*)</td><td class="c">[^<]*</td><td class="name">', page)
    assert results and all(r == "&nbsp;" for r in results)  # nothing entered yet
    assert pdf_pages(pdf) == 1

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    code, out, err = run(capsys, "chess", "print", "pairings", trf_path, "--day", day, "--round", "2")
    assert (code, err) == (0, "")
    assert "Pairings of round 2 — Grade 3, boys" in out
    assert headings(out) == ["Board", "White", "Pts", "Result", "Pts", "Black"]
    played = re.findall(r'<td class="c">([^<]*)</td><td class="c">[^<]*</td><td class="name">', out)
    assert "+–−" in played and all(played)  # round 2 as recorded, its forfeit too


def test_a_bad_trf_is_refused_naming_its_line_and_nothing_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    group_files: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trf_path, _ = group_files
    lines = trf_path.read_text(encoding="utf-8").splitlines()
    lines[6] = lines[6][:48] + "12x4" + lines[6][52:]  # a rating that is not a number
    trf_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for lang, expected in (("pl", "wiersz 7, kolumna 49"), ("en", "line 7, column 49")):
        monkeypatch.setenv("DUELCLOCK_LANG", lang)
        code, out, err = run(capsys, "chess", "print", "standings", trf_path, "--pdf", tmp_path / "s.pdf")
        assert code == 2 and out == ""
        assert err.startswith(f"duelclock chess print: {trf_path}, {expected}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chess-day.json", "sp3-ch.trf"]


def test_a_group_the_day_file_does_not_have_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    group_files: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    trf_path, day = group_files
    code, out, err = run(capsys, "chess", "print", "startlist", trf_path, "--day", day, "--group", "sp9-ch",
                         "--html", tmp_path / "x.html")  # fmt: skip
    assert code == 2 and out == ""
    assert err == f"duelclock chess print: {day} nie ma grupy sp9-ch (grupy: sp3-ch, sp3-dz)\n"
    # the girls' group is in the day file, but this TRF is not its list
    code, _, err = run(capsys, "chess", "print", "startlist", trf_path, "--day", day, "--group", "sp3-dz")
    assert code == 2 and "numerem startowym 1" in err and "czy to TRF tej grupy?" in err
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "x.json").exists()


def test_the_crosstable_and_the_day_prize_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    tournament, group, day = make_group(players=10, rounds=4)
    table = chess.group_standings(tournament, seed="s")
    page = chess.crosstable(
        tournament, table, chess.people(tournament, group), chess.heading(tournament, group, day)
    )
    assert page.landscape
    assert headings(page.html) == ["No.", "Player", "1", "2", "3", "4", "Pts", "Place"]
    first = tournament[1].entry(1)
    colour = "w" if first.colour and first.colour.value == "w" else "b"
    assert f"{first.opponent}{colour}&nbsp;" in page.html

    # the prize list of two groups, in the day's order whatever the order of the files
    trf_path, day_path = write_group(tmp_path, players=10, rounds=4)
    girls = tmp_path / "sp3-dz.trf"
    girls_t = Tournament(
        (Player(1, "Żółtowska, Zuzanna", points=ZERO), Player(2, "Ćwiklińska, Łucja", points=ZERO)),
        (Record("012 Girls"),),
    )
    from clockd.core.swiss.model import Board, BoardResult, record_round

    girls.write_bytes(trf.dump_bytes(record_round(girls_t, 1, [Board(2, 1, BoardResult.BLACK_WINS)])))
    code, out, err = run(
        capsys, "chess", "print", "prizes", girls, trf_path, "--day", day_path, "--seed", "s"
    )
    assert (code, err) == (0, "")
    assert out.index("Grade 3, boys") < out.index("Grade 3, girls")
    assert out.count("cup, medal, diploma") == 3 + 2
    assert out.index("Żółtowska Zuzanna") < out.index("Ćwiklińska Łucja")


def test_the_medal_list_has_who_paid_for_one_by_group_and_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "pl")
    _, group, day = make_group(players=9, rounds=5, played=0)
    day_path = tmp_path / "day.json"
    day_path.write_text(day.model_dump_json(), encoding="utf-8")
    code, out, err = run(capsys, "chess", "print", "medale", "--day", day_path)
    assert (code, err) == (0, "")
    assert headings(out) == ["Lp.", "Zawodnik", "Szkoła", "Klasa", "Odebrano"]
    medal = sorted((e for e in group.entrants if e.medal), key=lambda e: e.surname)
    names = re.findall(r'<td class="name">([^<]*)</td>', out)
    assert names[: len(medal)] == ["Kamiński Paweł", "Szymański Mikołaj", "Wiśniewski Jan"]
    assert names[len(medal) :] == ["Żółtowska Zuzanna"]  # the girls' group, after the boys'
    assert not any(e.surname in out for e in group.entrants if not e.medal)


def test_group_titles_read_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    from clockd.core.chessday.roster import Level
    from clockd.i18n import render

    cases = [
        (Group(key="p-ch", level=Level.PRESCHOOL, sex="m"), "Przedszkola, chłopcy", "Kindergartens, boys"),
        (Group(key="sp8-dz", level=Level.PRIMARY, grade=8, sex="w"), "Klasa 8, dziewczęta", "Grade 8, girls"),
        (
            Group(key="po-dz-2", level=Level.SECONDARY, sex="w", part=2),
            "Szkoły ponadpodstawowe, dziewczęta, część 2",
            "Secondary schools, girls, part 2",
        ),
    ]
    for group, pl, en in cases:
        assert render(chess.group_title(group), "pl") == pl
        assert render(chess.group_title(group), "en") == en


def test_compare_with_an_old_trf_knows_names_and_ratings_only() -> None:
    old = [chess.Listed(1, "Nowak Jan", 1500, "", ""), chess.Listed(2, "Kot Ola", None, "", "")]
    new = [chess.Listed(1, "Nowak Jan", 1520, "SP 1", "3a"), chess.Listed(2, "Kot Ola", None, "SP 2", "3b")]
    changes = chess.compare_start_lists(old, new, names_only=True)
    assert not changes.added and not changes.removed
    assert [(c.new.name, c.fields) for c in changes.corrected] == [
        ("Nowak Jan", (("report.chess.field.rating", "1500", "1520"),))
    ]


def test_day_file_without_a_group_of_that_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trf_path, day = write_group(tmp_path, players=6, rounds=3, played=1)
    renamed = trf_path.with_name("grupa-a.trf")
    trf_path.rename(renamed)
    code, _, err = run(capsys, "chess", "print", "standings", renamed, "--day", day)
    assert code == 2 and "grupa-a.trf" in err and "--group" in err
    assert ChessDay.model_validate_json(day.read_text(encoding="utf-8")).groups[0].key == "sp3-ch"


def _rows_across_pages(printout: chess.Printout, tmp_path: Path) -> tuple[int, int, int]:
    """Lay the printout out as ``clockd.reports.render.html_to_pdf`` prints it (A4, 10 mm margins) and
    count (pages, table rows, rows that start on one page and end on the next)."""
    from clockd.reports.render import _app

    _app()
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument, QTextTable

    writer = QPdfWriter(str(tmp_path / "layout.pdf"))
    writer.setResolution(300)
    orientation = (
        QPageLayout.Orientation.Landscape if printout.landscape else QPageLayout.Orientation.Portrait
    )
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            orientation,
            QMarginsF(10, 10, 10, 10),
            QPageLayout.Unit.Millimeter,
        )
    )
    doc = QTextDocument()
    doc.setHtml(printout.html)
    page = writer.pageLayout().paintRect(QPageLayout.Unit.Point)
    doc.setPageSize(QSizeF(page.width(), page.height()))
    layout, height = doc.documentLayout(), page.height()
    rows = crossing = 0
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        for r in range(frame.rows()):
            cells = [frame.cellAt(r, c) for c in range(frame.columns())]
            top = min(layout.blockBoundingRect(c.firstCursorPosition().block()).top() for c in cells)
            bottom = max(layout.blockBoundingRect(c.lastCursorPosition().block()).bottom() for c in cells)
            rows += 1
            crossing += int(top // height) != int((bottom - 0.01) // height)
    return doc.pageCount(), rows, crossing


def test_no_row_is_split_between_two_pages_and_pages_are_well_filled(tmp_path: Path) -> None:
    tournament, group, day = make_group(players=90, rounds=8, seed=3)
    people, head = chess.people(tournament, group), chess.heading(tournament, group, day)
    table = chess.group_standings(tournament, seed="s")
    boards, bye = chess.recorded_round(tournament, 8)
    old = [
        chess.Listed(x.start, x.name, x.rating, "SP 1", x.school_class) if x.start % 20 == 0 else x
        for x in chess.listed(people)
    ]
    printouts = {
        "startlist": chess.start_list(
            people, head, changes=chess.compare_start_lists(old[:-3], chess.listed(people))
        ),
        "pairings": chess.pairings(tournament, people, head, 8, boards, bye, first_board=201),
        "standings": chess.standings_printout(table, people, head),
        "crosstable": chess.crosstable(tournament, table, people, head),
        "medals": chess.medals(day),
    }
    for kind, printout in printouts.items():
        pages, rows, crossing = _rows_across_pages(printout, tmp_path)
        assert rows > 30 and crossing == 0, kind
        # and the estimate is not so careful that it wastes paper: at least 11 players a page
        assert pages <= max(1, -(-rows // 11)), (kind, pages, rows)


def test_diplomas_come_in_place_order_for_the_prize_giving(group_files: tuple[Path, Path]) -> None:
    trf_path, _ = group_files
    t = trf.load_bytes(trf_path.read_bytes())
    table = chess.group_standings(t, seed="x")
    html = chess.diplomas(
        chess.GroupResult(
            chess.Heading("Turniej", "Klasa 3, chłopcy", "27.10.2026"),
            table,
            chess.people(t, make_group(players=14, rounds=5)[1]),
        )
    ).html
    places = [int(n) for n in re.findall(r"za zajęcie (\d+)\. miejsca", html)]
    assert places == sorted(places) and places[0] == 1 and len(places) == 14


def test_a_withdrawn_child_is_named_withdrawn_on_the_pairing_sheet() -> None:
    players = tuple(
        Player(
            start_number=n,
            name=f"Nowak{n}, {'Anna' if n == 3 else 'Jan'}",
            sex="w" if n == 3 else "m",
            points=ZERO,
        )
        for n in range(1, 6)
    )
    t = Tournament(players, (Record("012 Klasa 3"), Record("XXR 3")))
    t = t.with_players(
        p.with_entry(1, ABSENT).with_entry(2, ABSENT).with_entry(3, ABSENT) if p.start_number == 3 else p
        for p in t.players
    )
    persons = chess.people(t)
    page = chess.pairings(t, persons, chess.heading(t), 1, [(1, 2), (4, 5)], None).html
    assert "wycofana" in page and "nieobecność" not in page  # read off the file: absent to the end
    page = chess.pairings(t, persons, chess.heading(t), 1, [(1, 2), (4, 5)], None, withdrawn=()).html
    assert "wycofana" not in page  # the daemon says who is withdrawn when it knows


def test_a_printout_needs_no_screen_and_no_desk_gui(tmp_path: Path) -> None:
    """A PDF and a PNG made on a machine with no display and without the desk's GUI package
    (a print server, a referee's laptop over ssh): ``gui`` cannot even be imported there."""
    import os
    import subprocess
    import sys

    trf_path, day = write_group(tmp_path, players=8, rounds=3, played=1)
    pdf, png = tmp_path / "s.pdf", tmp_path / "s.png"
    script = (
        "import sys; sys.modules['gui'] = None\n"  # any import of gui (or gui.*) now fails
        "from clockd.cli import main\n"
        f"sys.exit(main(['chess', 'print', 'standings', {str(trf_path)!r}, '--day', {str(day)!r},"
        f" '--pdf', {str(pdf)!r}, '--png', {str(png)!r}]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert pdf_pages(pdf) == 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
