"""Late entries and data fixes on the chess day, through the real daemon and the CLI as typed.

A child who comes after round 1 is added (``duelclock chess add``) with the next start number;
the rounds they missed are ``0000 - H`` or ``0000 - Z`` by the group's rule (the day file's
``late_entry``), printed on the start list and the standings; the Dutch pairing takes them from
the next round and ``duelclock swiss check`` re-pairs the export with no difference. A name or a
school corrected after the start list was published (``duelclock chess fix``) is journaled with
who and why, and the start list published again says what changed. A restart keeps both; the
late child is a person of the vault like the imported ones (found, erased, no e-mail in a byte).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client
from clockd.cli import main
from clockd.core.chessday.roster import ChessDay, Officials
from clockd.core.registration import SEALED_NAME
from clockd.core.registry import PersonErase
from clockd.core.swiss import trf
from clockd.service.compose import default_components
from clockd.service.engine import Engine
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.journal import Journal
from tests.chessday.conftest import roster

KEY = "sp3-ch"
LATE = ("Zając", "Piotr", "Szkoła Podstawowa nr 9", "3a")
EMAIL = "mama.zajaca@example.pl"


def start(db: Path) -> tuple[Daemon, list[str], Client]:
    d = Daemon(db, tables=[TableSpec(1, "Szachownica 1")], port=0, write_daemon_info=False)
    started = d.start()
    conn = ["--port", str(started.port), "--token", started.token]
    return d, conn, Client("127.0.0.1", started.port, started.token, by="Sędzia A")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    return out


def day_file(tmp_path: Path, rule: str | None) -> Path:
    """Two groups (7 and 6 boys), 3 rounds; ``rule``: the day's ``late_entry`` (None: the default)."""
    extra: dict[str, Any] = {} if rule is None else {"late_entry": rule}
    day = ChessDay(
        title="Turniej",
        date="2026-06-20",
        rounds=3,
        groups=(roster(7, key=KEY), roster(6, key="sp4-ch", grade=4)),
        officials=Officials(place="Katowice"),
        **extra,
    )
    path = tmp_path / "dzien.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    return path


def body(client: Client, key: str = KEY) -> Any:
    return client.events([key]).events[0].body


def play_round(capsys: pytest.CaptureFixture[str], conn: list[str], client: Client) -> None:
    """Every board of every group: White wins; the round closed."""
    for g in client.events().events:
        for b in g.body.boards:
            ok(capsys, "chess", "result", str(b.board), "1", *conn)
    ok(capsys, "chess", "close", "--all", *conn)


def journal_count(d: Daemon) -> int:
    d.engine.barrier().result(5)
    return d.engine.journal.count()


@pytest.mark.parametrize(
    ("rule", "code", "points"), [(None, "H", "½"), ("half", "H", "½"), ("zero", "Z", "0")]
)
def test_a_late_entry_after_round_1_plays_from_round_2_with_the_groups_rule_for_round_1(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch, rule: str | None, code: str, points: str
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db = tmp_path / "szachy.db"
    d, conn, client = start(db)
    try:
        ok(capsys, "chess", "import", str(day_file(tmp_path, rule)), *conn)
        ok(capsys, "chess", "pair", *conn)
        play_round(capsys, conn, client)
        surname, first, school, school_class = LATE
        out = ok(
            capsys,
            "chess",
            "add",
            KEY,
            f"{surname} {first}",
            "--school",
            school,
            "--class",
            school_class,
            "--rating",
            "1450",
            "--email",
            EMAIL,
            *conn,
        )
        assert f"{KEY}: dopisano zawodnika nr 8: Zając Piotr ({school}); gra od rundy 2" in out
        assert f"opuszczone rundy: 1, po {points} pkt" in out
        g = body(client)
        assert [p.start for p in g.start_list] == list(range(1, 9))  # appended: the others keep theirs
        assert g.start_list[-1].school_class == school_class and g.late_entry == (rule or "half")
        # the standings count round 1 by the rule; the TRF says it in the child's row
        row = next(r for r in g.standings if r.player.start == 8)
        assert row.values["PTS"] == points
        ok(capsys, "chess", "export", KEY, "-o", str(tmp_path / "po-1.trf"), *conn)
        late = trf.loads((tmp_path / "po-1.trf").read_text(encoding="utf-8"))[8]
        assert str(late.entry(1)) == f"0000 - {code}" and late.name == "Zając, Piotr"
        assert late.rating == 1450
        # the start list and the standings sheet state the rule
        ok(capsys, "chess", "post", KEY, "--standings", "-o", str(tmp_path / "wywieszki"), *conn)
        sheet = (tmp_path / "wywieszki" / f"{KEY}-klasyfikacja-1.html").read_text(encoding="utf-8")
        assert f"Spóźnieni: za opuszczone rundy {points} pkt" in sheet and "Zając Piotr" in sheet
        # round 2 is paired with the late child on a board (8 players: no bye)
        ok(capsys, "chess", "pair", *conn)
        g = body(client)
        seated = {sn for b in g.boards for sn in (b.white.start, b.black.start)}
        assert 8 in seated and len(g.boards) == 4 and g.bye is None and g.last_board == 4
        play_round(capsys, conn, client)
        ok(capsys, "chess", "export", KEY, "-o", str(tmp_path / f"{KEY}.trf"), *conn)
        status, out, _ = run(capsys, "swiss", "check", str(tmp_path / f"{KEY}.trf"))
        assert status == 0 and "sprawdzono rund: 2, różnych: 0" in out
        before = [(r.rank, r.player.start, dict(r.values)) for r in body(client).standings]
        # the child is a person of the vault: found by name and by the guardian's e-mail
        (child,) = client.person("find", text=EMAIL, reason="opiekun pyta").people
        assert [(s.event, s.player) for s in child.sources] == [(KEY, 8)]
        assert (
            client.person("find", text="Piotr Zając", reason="kto to").people[0].person_id == child.person_id
        )
        client.close()
        d.stop()
        d, conn, client = start(db)  # a restart keeps the late entry
        g = body(client)
        assert [(r.rank, r.player.start, dict(r.values)) for r in g.standings] == before
        assert [(x.player.start, x.player.name, x.first_round) for x in g.late] == [(8, "Zając Piotr", 2)]
        (again,) = client.person("find", text=EMAIL, reason="po restarcie").people
        assert again.person_id == child.person_id
    finally:
        client.close()
        d.stop()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("szachy.db*"))
    assert EMAIL.encode() not in data  # the guardian's e-mail: a digest only


def test_a_late_entry_is_refused_with_a_sentence_and_nothing_journaled(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    d, conn, client = start(tmp_path / "szachy.db")
    try:
        ok(capsys, "chess", "import", str(day_file(tmp_path, "half")), *conn)
        ok(capsys, "chess", "pair", *conn)
        before = journal_count(d)
        refusals = [
            (("sp9-ch", "Zając Piotr"), "nie ma imprezy sp9-ch (imprezy: sp3-ch, sp4-ch)"),
            ((KEY, "Zając"), "„Zając”: zawodnik musi mieć nazwisko i imię"),
            (
                (KEY, "Nowak Jan", "--school", "szkoła podstawowa NR 1"),
                "Nowak Jan jest już w tej grupie: zawodnik nr 1 (to samo nazwisko i szkoła)",
            ),
            (
                (KEY, "Nowak Jan", "--school", "Szkoła Podstawowa nr 1"),
                "Nowak Jan jest już w tej grupie: zawodnik nr 1",
            ),
            (
                ("sp4-ch", "Zieliński Jan", "--school", "Szkoła Podstawowa nr 1"),
                "Zieliński Jan gra już w grupie sp3-ch: zawodnik nr 7",
            ),
        ]
        for args, said in refusals:
            status, _, err = run(capsys, "chess", "add", *args, *conn)
            assert status == 2 and said in err, (args, err)
        assert journal_count(d) == before  # nothing journaled
        assert len(body(client).start_list) == 7
        # during a round: added at once, paired from the next round (the round being played missed)
        out = ok(capsys, "chess", "add", KEY, "Zając Piotr", "--school", "SP 9", *conn)
        assert "nr 8" in out and "gra od rundy 2" in out
        g = body(client)
        assert g.phase == "playing" and 8 in [p.start for p in g.absent]
        assert all(8 not in (b.white.start, b.black.start) for b in g.boards)
        # sp3-ch had 7 players on boards 1–4: 8 still fit; a ninth would need board 5, sp4-ch's
        status, _, err = run(capsys, "chess", "add", KEY, "Zając Adam", "--school", "SP 9", *conn)
        assert status == 0, err
        after = journal_count(d)
        status, _, err = run(capsys, "chess", "add", KEY, "Zając Ewa", "--school", "SP 9", *conn)
        assert status == 2 and "szachownicy 5, a szachownice 5–7 ma grupa sp4-ch" in err
        assert journal_count(d) == after
        play_round(capsys, conn, client)
        ok(capsys, "chess", "export", KEY, "-o", str(tmp_path / f"{KEY}.trf"), *conn)
        t = trf.loads((tmp_path / f"{KEY}.trf").read_text(encoding="utf-8"))
        assert str(t[8].entry(1)) == "0000 - H" and str(t[9].entry(1)) == "0000 - H"
        # the last round being played: nobody is added to play no round
        ok(capsys, "chess", "pair", *conn)
        play_round(capsys, conn, client)
        ok(capsys, "chess", "pair", *conn)
        status, _, err = run(capsys, "chess", "add", "sp4-ch", "Zając Ewa", *conn)
        assert status == 2 and "trwa runda 3, ostatnia" in err
    finally:
        client.close()
        d.stop()


def test_a_fix_after_the_start_list_is_journaled_and_the_list_says_what_changed(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db = tmp_path / "szachy.db"
    d, conn, client = start(db)
    try:
        ok(capsys, "chess", "import", str(day_file(tmp_path, "zero")), *conn)
        ok(capsys, "chess", "post", KEY, "--start-list", "-o", str(tmp_path / "lista"), *conn)
        first = (tmp_path / "lista" / f"{KEY}-lista-startowa.html").read_text(encoding="utf-8")
        assert "Kowalski Łukasz" in first and "Zmiany od publikacji" not in first
        assert "Spóźnieni: za opuszczone rundy 0 pkt" in first
        with pytest.raises(SystemExit):  # a fix without a reason is not taken
            main(["chess", "fix", KEY, "Kowalski", "--school", "SP 5", *conn])
        assert "--reason" in capsys.readouterr().err
        status, _, err = run(
            capsys,
            "chess",
            "fix",
            KEY,
            "Kowalski",
            "--school",
            "Szkoła Podstawowa nr 2",
            "--reason",
            "x",
            *conn,
        )
        assert status == 2 and "zawodnik nr 2: nic do poprawienia" in err
        out = ok(
            capsys,
            "chess",
            "fix",
            KEY,
            "Kowalski",
            "--name",
            "Kowalczyk Łukasz",
            "--class",
            "3c",
            "--reason",
            "mama: literówka w formularzu",
            "--by",
            "Piotr",
            *conn,
        )
        assert "poprawiono dane zawodnika nr 2 (Kowalczyk Łukasz)" in out
        assert (
            "nazwisko i imię: „Kowalski Łukasz” → „Kowalczyk Łukasz”" in out and "klasa: „3b” → „3c”" in out
        )
        assert "duelclock chess post sp3-ch --start-list" in out
        ok(capsys, "chess", "post", KEY, "--start-list", "-o", str(tmp_path / "lista"), *conn)
        again = (tmp_path / "lista" / f"{KEY}-lista-startowa.html").read_text(encoding="utf-8")
        assert "Zmiany od publikacji" in again and "Poprawiono (1):" in again
        assert "2. Kowalczyk Łukasz: nazwisko i imię: „Kowalski Łukasz” → „Kowalczyk Łukasz”" in again
        assert again.count("Kowalczyk Łukasz") == 3  # the box twice, the list once
        g = body(client)
        assert g.start_list[1].name == "Kowalczyk Łukasz" and g.start_list[1].school_class == "3c"
        assert g.fixes[0].by == "Piotr" and g.fixes[0].fields == ["name", "school_class"]
        # the journal keeps who and why, not the values (they are the vault's)
        timeline = client.timeline(event=KEY)
        fix = next(e for e in timeline.entries if e.kind == "chess-fix")
        assert fix.data["by"] == "Piotr" and fix.data["action"]["reason"] == "mama: literówka w formularzu"
        values = _leaves(fix.data)  # every value the entry carries, ids and digests too
        assert not any("Kowalczyk" in str(v) for v in values) and "3c" not in values
        (child,) = client.person("find", text="Kowalczyk", reason="po poprawce").people
        client.close()
        d.stop()
        d, conn, client = start(db)  # a restart keeps the fix and what it was
        ok(capsys, "chess", "post", KEY, "--start-list", "-o", str(tmp_path / "po-restarcie"), *conn)
        kept = (tmp_path / "po-restarcie" / f"{KEY}-lista-startowa.html").read_text(encoding="utf-8")
        assert kept == again
        ok(capsys, "chess", "export", KEY, "-o", str(tmp_path / f"{KEY}.trf"), *conn)
        assert trf.loads((tmp_path / f"{KEY}.trf").read_text(encoding="utf-8"))[2].name == "Kowalczyk, Łukasz"
        # erased: the fix keeps which fields and why, no name; live = replay
        client.act("", PersonErase(person=child.person_id, reason="RODO art. 17"))
        g = body(client)
        assert g.start_list[1].name == SEALED_NAME and g.fixes[0].old == {} and g.fixes[0].new == {}
        live = {k: v for k, v in d.engine.component("events").snapshot().items() if k != "people"}
    finally:
        client.close()
        d.stop()
    replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
    replay.rebuild(use_snapshots=False)
    assert {k: v for k, v in replay.component("events").snapshot().items() if k != "people"} == live
    replay.journal.close()


def test_an_erased_late_entrant_replays_as_the_stand_in(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    db = tmp_path / "szachy.db"
    d, conn, client = start(db)
    try:
        ok(capsys, "chess", "import", str(day_file(tmp_path, "half")), *conn)
        ok(capsys, "chess", "pair", *conn)
        play_round(capsys, conn, client)
        ok(capsys, "chess", "add", KEY, "Zając Piotr", "--school", "SP 9", "--email", EMAIL, *conn)
        ok(capsys, "chess", "fix", KEY, "8", "--school", "SP 19", "--reason", "tata poprawił", *conn)
        (child,) = client.person("find", text=EMAIL, reason="opiekun pyta").people
        assert child.sources[0].details == {"school": "SP 19"}
        client.act("", PersonErase(person=child.person_id, reason="RODO art. 17"))
        assert client.person("find", text=EMAIL, reason="usunięty?").people == []
        g = body(client)
        assert g.start_list[-1].name == SEALED_NAME
        assert next(r for r in g.standings if r.player.start == 8).values["PTS"] == "½"  # the results stay
        live = {k: v for k, v in d.engine.component("events").snapshot().items() if k != "people"}
    finally:
        client.close()
        d.stop()
    replay = Engine(Journal.reader(db), boot_id="audit", components=default_components())
    replay.rebuild(use_snapshots=False)
    assert {k: v for k, v in replay.component("events").snapshot().items() if k != "people"} == live
    replay.journal.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("szachy.db*"))
    assert b"Zaj\xc4\x85c" not in data and b"SP 19" not in data and EMAIL.encode() not in data


def _leaves(data: object) -> list[object]:
    """Every scalar in ``data`` (a random id may hold "3c" inside it: values are compared whole)."""
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in _leaves(v)]
    if isinstance(data, list | tuple):
        return [leaf for v in data for leaf in _leaves(v)]
    return [data]
