"""``duelclock chess registrations`` and ``duelclock chess groups`` end to end, on real files."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.core.chessday.roster import ChessDay

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FORMS = ROOT / "clockd" / "data" / "chess-forms-sample.csv"
SAMPLE_BANK = ROOT / "clockd" / "data" / "chess-bank-sample.csv"

FORMS = """Sygnatura czasowa,Imię i nazwisko zawodnika,Płeć,Klasa,Szkoła,Ranking,Medal,Adres e-mail
2026/09/01 10:00:00 AM CEST,Zofia Kowalska,Dziewczynka,3b,SP 12,,Tak,k@x.pl
2026/09/01 10:01:00 AM CEST,Jan Kowalski,Chłopiec,1,SP 12,,Nie,k@x.pl
2026/09/01 11:00:00 AM CEST,Piotr Nowak,Chłopiec,przedszkole,P 7,,Nie,p@x.pl
2026/09/02 09:00:00 AM CEST,Anna Wiśniewska,Dziewczynka,liceum,II LO,1320,Tak,a@x.pl
2026/09/02 10:00:00 AM CEST,Kacper Zieliński,Chłopiec,5,SP 3,,Nie,z@x.pl
2026/09/02 11:00:00 AM CEST,Zofia Kowalska,Dziewczynka,3 b,SP 12,,Tak,k@x.pl
2026/09/03 08:00:00 AM CEST,Jan Nowak,Chłopiec,4,SP 5,,Nie,j1@x.pl
2026/09/03 09:00:00 AM CEST,Jan Nowak,Chłopiec,6,SP 40,,Nie,j2@x.pl
"""
BANK = """Data operacji;Kontrahent;Tytuł operacji;Kwota
01.09.2026;ADAM KOWALSKI;Zofia i Jan Kowalscy;80,00
02.09.2026;MARTA NOWAK;NOWAK PIOTR;30,00
02.09.2026;EWA WIŚNIEWSKA;Anna Wiśniewska;30,00
03.09.2026;EWA MAZUR;Jan Nowak wpisowe;30,00
04.09.2026;JOANNA KACZMAREK;Tomasz Kaczmarek;30,00
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    forms, bank = tmp_path / "zgloszenia.csv", tmp_path / "mbank.csv"
    forms.write_text(FORMS, encoding="utf-8")
    bank.write_bytes(BANK.encode("cp1250"))
    return forms, bank


def test_the_lists_in_polish_grouped_and_counted(files: tuple[Path, Path], capsys, monkeypatch) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    assert main(["chess", "registrations", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert "name ← „Imię i nazwisko zawodnika”" in out
    assert "Kompletne zgłoszenia: 3 (limit 1000)" in out
    assert "1. Zofia Kowalska — sp3-dz — 50 zł — formularz 1, wpłata mbank.csv:1 (2026-09-01); medal" in out
    assert "Formularze bez wpłaty: 3" in out
    assert "formularz 5: Kacper Zieliński — sp5-ch — do zapłaty 30 zł" in out
    assert "Wpłaty bez formularza: 1" in out
    assert "do 30 dni od dnia turnieju, pomniejszone o koszty bankowe i księgowe" in out
    assert "mbank.csv:5: 30 zł z dnia 2026-09-04 od „JOANNA KACZMAREK”" in out
    assert "formularz 4: Anna Wiśniewska — należne 50 zł, wpłacono 30 zł (wpłata mbank.csv:3)" in out
    assert "mbank.csv:4: 30 zł od „EWA MAZUR”, tytuł „Jan Nowak wpisowe” — może to: formularz 7" in out
    assert "formularz 6: Zofia Kowalska — powtarza formularz 1" in out
    assert "Medale do wydania (50 zł): 1" in out
    assert "@" not in out  # no e-mail on the lists


def test_the_lists_in_english(files: tuple[Path, Path], capsys, monkeypatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert main(["chess", "registrations", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert "Complete registrations: 3 (limit 1000)" in out
    assert "Payments without a form: 1" in out
    assert "refunded on the payer's request made within 30 days of the tournament, minus bank" in out
    assert "form 4: Anna Wiśniewska — due 50 zł, paid 30 zł (payment mbank.csv:3); medal" in out


def test_json_has_exactly_the_eight_lists_and_every_entry_names_its_lines(
    files: tuple[Path, Path], capsys
) -> None:
    assert main(["chess", "registrations", *map(str, files), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert list(data) == [
        "complete",
        "form_without_payment",
        "payment_without_form",
        "amount_mismatch",
        "ambiguous",
        "duplicates",
        "over_limit",
        "medals",
    ]
    for entries in data.values():
        for entry in entries:
            assert "form_line" in entry or "payment_line" in entry
            assert entry["name"]
    assert [(e["form_line"], e["fee"], e["paid"]) for e in data["complete"]] == [
        (1, 50, 80),
        (2, 30, 80),
        (3, 30, 30),
    ]
    assert data["complete"][0]["payment_line"] == {"file": "mbank.csv", "row": 1}
    assert data["payment_without_form"] == [
        {
            "payment_line": {"file": "mbank.csv", "row": 5},
            "name": "JOANNA KACZMAREK",
            "paid": 30,
            "day": "2026-09-04",
            "title": "Tomasz Kaczmarek",
            "sender": "JOANNA KACZMAREK",
            "reason": "no-form",
        }
    ]
    assert [(e["form_line"], e["fee"], e["paid"]) for e in data["amount_mismatch"]] == [(4, 50, 30)]
    assert [c["form_line"] for c in data["ambiguous"][0]["candidates"]] == [7, 8]
    assert [(e["form_line"], e["same_as"]) for e in data["duplicates"]] == [(6, 1)]
    assert [e["form_line"] for e in data["medals"]] == [1]
    assert "k@x.pl" not in captured.out
    assert "Imię i nazwisko zawodnika" in captured.err  # the columns read, beside the JSON


def test_a_hand_match_is_kept_in_the_decisions_file_with_who_when_and_why(
    files: tuple[Path, Path], tmp_path: Path, capsys
) -> None:
    decisions = tmp_path / "decyzje.json"
    args = ["chess", "registrations", *map(str, files), "--json", "--decisions", str(decisions)]
    assert main([*args, "--match", "mbank.csv:4=8", "--by", "Ewa", "--why", "telefon od mamy"]) == 0
    kept = json.loads(decisions.read_text(encoding="utf-8"))
    (match,) = kept["matches"]
    assert (match["payment"], match["forms"], match["by"], match["why"]) == (
        {"file": "mbank.csv", "row": 4},
        [8],
        "Ewa",
        "telefon od mamy",
    )
    assert match["at"].startswith("20")
    assert stat.S_IMODE(decisions.stat().st_mode) == 0o600
    capsys.readouterr()
    assert main(args) == 0  # the next run reads the decision again
    data = json.loads(capsys.readouterr().out)
    assert (8, "hand") in [(e["form_line"], e["matched_by"]) for e in data["complete"]]
    assert data["ambiguous"] == []


def test_a_bad_match_option_is_refused_naming_it(files: tuple[Path, Path], capsys, monkeypatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert main(["chess", "registrations", *map(str, files), "--match", "other.csv:4=8"]) == 2
    assert "--match other.csv:4=8: no such statement (statements: mbank.csv)" in capsys.readouterr().err
    decisions = files[0].parent / "decyzje.json"
    bad = ["--match", "mbank.csv:99=8", "--decisions", str(decisions)]
    assert main(["chess", "registrations", *map(str, files), *bad]) == 2
    assert "mbank.csv:99" in capsys.readouterr().err
    assert not decisions.exists()  # a decision that did not apply is not kept


def test_groups_writes_the_day_file_owner_only_and_prints_the_groups(
    files: tuple[Path, Path], tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    out = tmp_path / "dzien" / "chess-day.json"
    code = main(
        [
            "chess",
            "groups",
            *map(str, files),
            "-o",
            str(out),
            "--title",
            "Szachowy Spodek",
            "--date",
            "2026-10-27",
            "--place",
            "Katowice",
            "--arbiter",
            "Anna Sędzia",
            "--deputy",
            "Jan Pomocny",
            "--deputy",
            "Ewa Druga",
        ]
    )
    assert code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    day = ChessDay.model_validate_json(out.read_text(encoding="utf-8"))
    assert day.officials.place == "Katowice" and day.officials.chief_arbiter == "Anna Sędzia"
    assert day.officials.deputy_arbiters == ("Jan Pomocny", "Ewa Druga")
    assert [(g.key, [e.name for e in g.entrants]) for g in day.groups] == [
        ("przedszkole-ch", ["Piotr Nowak"]),
        ("sp1-ch", ["Jan Kowalski"]),
        ("sp3-dz", ["Zofia Kowalska"]),
    ]
    assert day.groups[2].entrants[0].medal is True and day.groups[2].entrants[0].email == "k@x.pl"
    printed = capsys.readouterr().out
    assert "sp3-dz           Klasa 3, dziewczęta" in printed
    assert "1 zawodnik" in printed
    assert "sp2-ch           brak zawodników" in printed
    assert "w grupach: 3 zawodników" in printed
    assert "Poza grupami (zobacz duelclock chess registrations): Formularze bez wpłaty: 3" in printed


def test_groups_writes_the_rounds_and_the_rule_for_late_entrants(
    files: tuple[Path, Path], tmp_path: Path, capsys, monkeypatch
) -> None:
    out = tmp_path / "chess-day.json"
    assert main(["chess", "groups", *map(str, files), "-o", str(out)]) == 0
    day = ChessDay.model_validate_json(out.read_text(encoding="utf-8"))
    assert (day.rounds, day.late_entry) == (8, "half")  # §H's 8 rounds; a half-point bye a round missed
    args = ["chess", "groups", *map(str, files), "-o", str(out), "--rounds", "5", "--late-entry", "zero"]
    assert main(args) == 0
    day = ChessDay.model_validate_json(out.read_text(encoding="utf-8"))
    assert (day.rounds, day.late_entry) == (5, "zero")


def test_a_bad_file_names_its_line_and_column_and_nothing_is_written(
    files: tuple[Path, Path], tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    forms, bank = files
    forms.write_text(FORMS.replace("Chłopiec,5,SP 3", "Chłopiec,9,SP 3"), encoding="utf-8")
    out = tmp_path / "chess-day.json"
    assert main(["chess", "groups", str(forms), str(bank), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{forms}: 1 problem:" in err
    assert "wiersz 6, kolumna „Klasa”: „9” nie wskazuje grupy" in err
    assert not out.exists()
    bank.write_bytes(BANK.replace("30,00\n02.09", "trzydzieści\n02.09").encode("cp1250"))
    forms.write_text(FORMS, encoding="utf-8")
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert main(["chess", "groups", str(forms), str(bank), "-o", str(out)]) == 2
    assert (
        "mbank.csv: 1 problem:\n  line 3, column “Kwota”: “trzydzieści” is not an amount"
        in capsys.readouterr().err
    )
    assert not out.exists()


def test_the_column_option_reads_a_header_worded_otherwise(tmp_path: Path, capsys) -> None:
    forms = tmp_path / "f.csv"
    forms.write_text("Kto gra;Płeć;Do której klasy chodzi dziecko\nZofia Kowalska;K;3\n", encoding="utf-8")
    bank = tmp_path / "b.csv"
    bank.write_text("Data;Kwota;Tytuł\n2026-09-01;30,00;Zofia Kowalska\n", encoding="utf-8")
    assert main(["chess", "registrations", str(forms), str(bank), "--json"]) == 2
    assert "--column name=" in capsys.readouterr().err
    args = ["chess", "registrations", str(forms), str(bank), "--json", "--column", "name=Kto gra"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert [e["form_line"] for e in json.loads(captured.out)["complete"]] == [1]
    assert "„Kto gra”" in captured.err or "“Kto gra”" in captured.err


def test_the_sample_files_of_the_how_to(capsys, monkeypatch) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    assert main(["chess", "registrations", str(SAMPLE_FORMS), str(SAMPLE_BANK), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {k: len(v) for k, v in data.items()} == {
        "complete": 7,
        "form_without_payment": 3,
        "payment_without_form": 1,
        "amount_mismatch": 1,
        "ambiguous": 1,
        "duplicates": 1,
        "over_limit": 0,
        "medals": 2,
    }


def test_a_hand_match_is_journaled_by_the_daemon_and_read_back_after_a_restart(
    files: tuple[Path, Path], tmp_path: Path, capsys
) -> None:
    from clockd.service.runtime import Daemon

    db = tmp_path / "dzien.db"

    def daemon() -> tuple[Daemon, list[str]]:
        d = Daemon(db, tables=[], port=0, write_daemon_info=False)
        started = d.start()
        return d, ["--port", str(started.port), "--token", started.token]

    d, conn = daemon()
    args = ["chess", "registrations", *map(str, files), "--json", "--daemon", "zapisy", *conn]
    try:
        assert (
            main([*args, "--match", "mbank.csv:99=8", "--by", "Ewa"]) == 2
        )  # no such payment: nothing journaled
        assert main([*args, "--match", "mbank.csv:4=8", "--by", "Ewa", "--why", "telefon od mamy"]) == 0
        journaled = [r.entry for r in d.engine.journal.read() if r.entry.kind == "chess-hand-match"]  # type: ignore[union-attr]
        assert len(journaled) == 1 and journaled[0].by == "Ewa" and journaled[0].action.forms == (8,)
    finally:
        d.stop()
    d, conn = daemon()  # the next day, the daemon restarted: the decision is still there
    try:
        capsys.readouterr()
        again = ["chess", "registrations", *map(str, files), "--json", "--daemon", "zapisy", *conn]
        assert main(again) == 0
        data = json.loads(capsys.readouterr().out)
        assert (8, "hand") in [(e["form_line"], e["matched_by"]) for e in data["complete"]]
        assert data["ambiguous"] == []
    finally:
        d.stop()


def test_the_report_says_which_column_is_the_class_and_how_to_choose_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forms = tmp_path / "formularz.csv"
    forms.write_text(
        "Imię i nazwisko zawodnika;Grupa;Klasa w roku szkolnym 2026/2027;Płeć\n"
        "Zofia Kowalska;Klasa 1 dziewczęta;1b;K\n",
        encoding="utf-8",
    )
    bank = tmp_path / "wyciag.csv"
    bank.write_text("Data operacji;Nadawca;Tytuł;Kwota\n02.09.2026;ANNA KOWALSKA;Zofia Kowalska;30,00\n")
    assert main(["chess", "registrations", str(forms), str(bank)]) == 0
    out = capsys.readouterr().out
    assert "class ← „Klasa w roku szkolnym 2026/2027”" in out
    assert "--column POLE=NAGŁÓWEK" in out
