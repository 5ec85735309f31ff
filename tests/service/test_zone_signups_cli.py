"""Sign-ups for a relay at the desk's command line: the form's export, the lists, the check-in
(T−10 reserves, T−5 walk-ins), the tables, the start — against a real daemon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from hw_sim.gpio import ScriptedFactory
from tests.service.test_zone_events import Hall
from tests.tournament.conftest import FakeClock

CONFIG = """
duration = "60m"
signal_every = "5m"
max_entries = 2
signups_open = "2026-06-06 12:00"
"""

FORM = """Sygnatura czasowa;Imię;Nazwisko;Adres e-mail;Wiek;Nazwa pary
2026/06/06 12:00:01;Anna;Kowalska;a@x.pl;21;Smoki
2026/06/06 12:00:02;Jan;Nowak;j@x.pl;22;Smoki
2026/06/06 12:00:03;Ola;Mazur;o@x.pl;23;Elfy
2026/06/06 12:00:04;Ewa;Król;e@x.pl;24;Elfy
2026/06/06 12:00:05;Iga;Lis;i@x.pl;25;Gryfy
2026/06/06 12:00:06;Piotr;Wójcik;p@x.pl;26;Gryfy
2026/06/06 12:00:07;Marek;Zięba;m@x.pl;27;Orły
2026/06/06 12:00:08;Nina;Sowa;n@x.pl;28;Orły
2026/06/06 12:00:09;Kuba;Bąk;k@x.pl;29;Sowy
2026/06/06 12:00:10;Lena;Wilk;l@x.pl;30;Sowy
2026/06/06 12:00:11;Zosia;Kot;z@x.pl;31;Sami
"""


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


def test_a_relay_from_the_sign_up_form_to_the_start(desk: Any) -> None:
    run, h, tmp = desk
    (tmp / "relay.toml").write_text(CONFIG, encoding="utf-8")
    (tmp / "zapisy.csv").write_text(FORM, encoding="utf-8")
    assert run("new", "sztafeta", "--kind", "relay", "--config", str(tmp / "relay.toml"))[0] == 0
    code, out, err = run("import", "sztafeta", str(tmp / "zapisy.csv"))
    assert code == 0, err
    # two pairs on the main list, two on the reserve, one over the limit; Zosia has no partner
    assert "Anna K. i Jan N. (para-1)" in out and "główna" in out and "rezerwowa" in out
    assert "poza listami (wiersze 10, 11" in out and "(wiersz 12: Zosia K.)" in out  # one line: "wiersz"
    # starting before the check-in is closed is refused, in Polish
    code, out, err = run("start", "sztafeta")
    assert code != 0 and "najpierw zamknij sprawdzanie obecności" in err
    # pair 2 (Elfy) did not come: the first present reserve takes the seat (§1.18)
    assert run("checkin", "sztafeta", "para-1", "para-4")[0] == 0
    assert run("add", "sztafeta", "sala-1", "--name", "Kuba i Ala")[0] == 0  # a walk-in pair (§1.19)
    assert run("checkin", "sztafeta", "sala-1")[0] == 0
    code, out, _ = run("close", "sztafeta")
    assert code == 0
    body = h.client.events(["sztafeta"]).events[0].body
    assert [e.entry for e in body.entries] == ["para-1", "para-4"]  # para-3 was not here; sala-1 waits
    assert run("table", "sztafeta", "para-1", "1")[0] == 0
    assert run("table", "sztafeta", "para-4", "2")[0] == 0
    code, out, err = run("start", "sztafeta")
    assert code == 0, err
    body = h.client.events(["sztafeta"]).events[0].body
    assert body.timer.phase == "running" and [e.table for e in body.entries] == [1, 2]


def test_a_team_events_results_as_json_csv_html_and_pdf(desk: Any) -> None:
    import json

    run, _, tmp = desk
    assert run("new", "druzynowy", "--kind", "team")[0] == 0
    for n, name in enumerate(["Smoki", "Elfy", "Gryfy", "Orły"], start=1):
        assert run("add", "druzynowy", f"druzyna-{n}", "--name", name, "--table", str(n))[0] == 0
    assert run("start", "druzynowy")[0] == 0
    for team, missing in (("druzyna-2", "1"), ("druzyna-3", "11")):
        assert run("finish", "druzynowy", team)[0] == 0
        assert run("missing", "druzynowy", team, missing)[0] == 0
    code, _, err = run("count", "druzynowy", "druzyna-1", "700")
    assert code != 0 and "po zakończeniu" in err  # not before the end
    assert run("end", "druzynowy")[0] == 0
    assert run("count", "druzynowy", "druzyna-1", "700")[0] == 0
    assert run("count", "druzynowy", "druzyna-4", "650")[0] == 0
    assert run("confirm", "druzynowy")[0] == 0
    files = {k: tmp / f"wyniki.{k}" for k in ("json", "csv", "html", "pdf")}
    code, _, err = run(
        "export",
        "druzynowy",
        "--json-out",
        str(files["json"]),
        "--csv",
        str(files["csv"]),
        "--html",
        str(files["html"]),
        "--pdf",
        str(files["pdf"]),
    )
    assert code == 0, err
    results = json.loads(files["json"].read_text(encoding="utf-8"))
    assert [(r["place"], r["name"], r["podium"]) for r in results["ranking"]] == [
        (1, "Elfy", True),
        (2, "Smoki", True),
        (3, "Orły", True),
        (None, "Gryfy", False),
    ]
    lines = files["csv"].read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("place;id;name;table") and lines[1].startswith("1;druzyna-2;Elfy;2;1;")
    page = files["html"].read_text(encoding="utf-8")
    assert "#ffd54f" in page and "wyniki ostateczne" in page and "bez klasyfikacji" in page
    assert files["pdf"].read_bytes().startswith(b"%PDF")


def test_a_walk_in_pair_takes_a_seat_at_the_close_which_is_taken_back_until_the_start(desk: Any) -> None:
    """Issue 26, item 3: the README's relay, its rules from the regulations (15 pairs)."""
    run, h, tmp = desk
    (tmp / "zapisy.csv").write_text(FORM, encoding="utf-8")
    assert run("new", "sztafeta", "--kind", "relay")[0] == 0
    assert run("import", "sztafeta", str(tmp / "zapisy.csv"))[0] == 0  # 5 pairs on the main list
    assert run("checkin", "sztafeta", "para-1", "para-2", "para-3", "para-4")[0] == 0  # para-5 is late
    code, _, err = run("add", "sztafeta", "sala-1", "--name", "Ala i Ola")  # waiting at the hall (T−5)
    assert code == 0, err
    code, out, err = run("close", "sztafeta")
    assert code == 0, err
    assert "Ala i Ola (sala-1) zajmuje miejsce: Kuba B. i Lena W. (para-5) (chętny na miejscu, §1.19)" in out
    body = h.client.events(["sztafeta"]).events[0].body
    assert [e.entry for e in body.entries if e.entry.startswith("sala")] == ["sala-1"]

    # para-5 arrives: the refusal says how to open the check-in again, and it is done
    code, _, err = run("checkin", "sztafeta", "para-5")
    assert code != 0 and "duelclock event reopen" in err
    code, _, err = run("reopen", "sztafeta")
    assert code == 0, err
    assert run("checkin", "sztafeta", "para-5")[0] == 0
    code, out, _ = run("close", "sztafeta")
    assert "Ala i Ola (sala-1) zajmuje wolne miejsce (chętny na miejscu, §1.19)" in out  # 11 seats were free
    body = h.client.events(["sztafeta"]).events[0].body
    assert {e.entry for e in body.entries} == {"para-1", "para-2", "para-3", "para-4", "para-5", "sala-1"}
    assert run("start", "sztafeta")[0] == 0
    code, _, err = run("reopen", "sztafeta")
    assert code != 0 and "impreza już wystartowała" in err


def test_a_count_above_the_puzzles_pieces_is_refused_with_the_limit(desk: Any) -> None:
    """Issue 26, item 4: 1200 on the team event's 1000 pieces, 450 on a relay's two pictures of 200."""
    run, _, _ = desk
    assert run("new", "druzynowy", "--kind", "team")[0] == 0
    assert run("add", "druzynowy", "druzyna-1", "--name", "Smoki")[0] == 0
    assert run("new", "sztafeta", "--kind", "relay")[0] == 0
    assert run("add", "sztafeta", "para-1", "--name", "Ala i Ola")[0] == 0
    for key in ("druzynowy", "sztafeta"):
        assert run("start", key)[0] == 0
        assert run("end", key)[0] == 0
    code, _, err = run("count", "druzynowy", "druzyna-1", "1200")
    assert code != 0 and "druzyna-1: policzonych elementów (1200) jest więcej, niż ma puzzle (1000)" in err
    code, _, err = run("count", "sztafeta", "para-1", "450")
    assert code != 0 and "(450) jest więcej, niż ma puzzle (400)" in err
    code, _, err = run("count", "sztafeta", "para-1", "250", "150")
    assert code != 0 and "obrazek 1: policzonych elementów (250) jest więcej, niż ma obrazek (200)" in err
    assert run("count", "druzynowy", "druzyna-1", "1000")[0] == 0
    assert run("count", "sztafeta", "para-1", "200", "112")[0] == 0


def test_a_pair_whose_partner_was_refused_says_why(desk: Any) -> None:
    """Issue 26, item 5: not "the partner did not sign up" when the partner's form was refused."""
    run, _, tmp = desk
    form = FORM.replace("Jan;Nowak;j@x.pl;22;Smoki", "Jan;Nowak;j@x.pl;12;Smoki")  # 12: under 13 (§1.9)
    (tmp / "zapisy.csv").write_text(form, encoding="utf-8")
    assert run("new", "sztafeta", "--kind", "relay")[0] == 0
    code, out, err = run("import", "sztafeta", str(tmp / "zapisy.csv"))
    assert code == 0, err
    assert (
        "(wiersz 2: Anna K.): para „Smoki” ma jedną osobę: zgłoszenie partnera (wiersz 3, Jan N.) odrzucono: "
        "poniżej minimalnego wieku 13 lat (§1.9)"
    ) in out
    smoki = next(line for line in out.splitlines() if "„Smoki”" in line)
    assert "partner się nie zapisał" not in smoki  # Zosia's pair "Sami" is the one whose partner never did


def test_a_main_list_member_without_an_e_mail_is_warned_about(desk: Any) -> None:
    """Issue 26, item 5: the organiser cannot write to them; the referee hears it at the import."""
    run, _, tmp = desk
    form = FORM.replace("Ola;Mazur;o@x.pl;", "Ola;Mazur;;").replace("Kuba;Bąk;k@x.pl;", "Kuba;Bąk;;")
    (tmp / "relay.toml").write_text(CONFIG, encoding="utf-8")  # two pairs on the main list
    (tmp / "zapisy.csv").write_text(form, encoding="utf-8")
    assert run("new", "sztafeta", "--kind", "relay", "--config", str(tmp / "relay.toml"))[0] == 0
    code, out, err = run("import", "sztafeta", str(tmp / "zapisy.csv"))
    assert code == 0, err
    warning = out.split("Uwaga: na liście głównej bez adresu e-mail", 1)[1]
    assert "wiersz 4: Ola M." in warning and "Kuba" not in warning  # Kuba's pair is over the limit
