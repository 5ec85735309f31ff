"""One long name must not brick the day (issue 29, item 2): the real CLI against a real daemon.

A real name ("Aleksandra Brzęczyszczykiewicz-Grzegorzewska", 44 characters as TRF writes it)
is longer than TRF's 33-column name field. The daemon keeps it whole; the TRF file cuts it at
its own edge and the command writing it says so; the printouts print it whole. A field that
cannot be cut (a federation longer than 3 letters) is refused with a sentence before anything
is journaled.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clockd.api.client import Client, Subscription
from clockd.api.messages import ApiError, EventStatePush
from clockd.cli import main
from clockd.core.chessday.roster import ChessDay
from clockd.core.swiss import trf
from clockd.service.runtime import Daemon, TableSpec
from clockd.store.journal import Journal

LONG = "Aleksandra Brzęczyszczykiewicz-Grzegorzewska"
LONG_TRF = "Brzęczyszczykiewicz-Grzegorzewska, Aleksandra"  # 45 characters
CUT = "Brzęczyszczykiewicz-Grzegorze, A."  # TRF's 33 columns, "Surname, First name" kept

FORMS = f"""Sygnatura czasowa,Imię i nazwisko zawodnika,Płeć,Klasa,Szkoła,Ranking,Medal,Adres e-mail
2026/09/01 10:00:00 AM CEST,{LONG},Dziewczynka,3b,SP 12,,Nie,b@x.pl
2026/09/01 10:01:00 AM CEST,Zofia Kowalska,Dziewczynka,3a,SP 12,,Nie,k@x.pl
2026/09/01 10:02:00 AM CEST,Maja Wójcik,Dziewczynka,3c,SP 5,,Nie,w@x.pl
2026/09/01 10:03:00 AM CEST,Anna Nowak,Dziewczynka,3b,SP 7,,Nie,n@x.pl
"""
BANK = f"""Data operacji;Kontrahent;Tytuł operacji;Kwota
01.09.2026;JAN B;{LONG};30,00
01.09.2026;ADAM KOWALSKI;Zofia Kowalska;30,00
01.09.2026;EWA W;Maja Wójcik;30,00
01.09.2026;PIOTR N;Anna Nowak;30,00
"""


class Desk:
    """A daemon on a journal of its own that can be stopped and started again."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.daemon: Daemon | None = None
        self.opts: list[str] = []
        self.port = 0

    def start(self) -> None:
        self.daemon = Daemon(self.db, tables=[TableSpec(1, "Szachownica 1")], port=0, write_daemon_info=False)
        started = self.daemon.start()
        self.port = started.port
        self.opts = ["--port", str(started.port), "--token", started.token]

    def stop(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()
            self.daemon = None

    def seq(self) -> int:
        with Client(port=self.port) as c:
            return c.status().seq


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Desk]:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    d = Desk(tmp_path / "szachy.db")
    d.start()
    yield d
    d.stop()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def the_day(tmp_path: Path, capsys: Any) -> Path:
    """The day file as ``duelclock chess groups`` writes it from the form export and the bank's."""
    forms, bank = tmp_path / "zgloszenia.csv", tmp_path / "mbank.csv"
    forms.write_text(FORMS, encoding="utf-8")
    bank.write_bytes(BANK.encode("cp1250"))
    day = tmp_path / "dzien.json"
    status, _, err = run(
        capsys, "chess", "groups", str(forms), str(bank), "-o", str(day), "--title", "Turniej"
    )
    assert status == 0, err
    assert any(
        e.trf_name == LONG_TRF
        for g in ChessDay.model_validate_json(day.read_bytes()).groups
        for e in g.entrants
    )
    return day


def everything_reads(desk: Desk, capsys: Any) -> None:
    """What broke with the long name: chess status, event list, the timeline, a subscription."""
    status, out, err = run(capsys, "chess", "status", *desk.opts)
    assert status == 0 and "sp3-dz" in out, err
    status, out, err = run(capsys, "event", "list", *desk.opts)
    assert status == 0 and "sp3-dz" in out and "grupa szachowa" in out, err
    with Client(port=desk.port) as c:
        assert next(e.kind for e in c.timeline(event="sp3-dz").entries) == "event-create"
        shown = c.events(["sp3-dz"]).events[0].body
        assert "Brzęczyszczykiewicz-Grzegorzewska Aleksandra" in {p.name for p in shown.start_list}  # whole
    with Subscription(port=desk.port) as sub:
        pushed = [p for p in sub.poll() if isinstance(p, EventStatePush)]
        assert [p.event.key for p in pushed] == ["sp3-dz"]


def test_a_long_name_through_the_whole_day(tmp_path: Path, desk: Desk, capsys: Any) -> None:
    day = the_day(tmp_path, capsys)
    status, out, err = run(capsys, "chess", "import", str(day), *desk.opts)
    assert status == 0, err
    assert "sp3-dz: Klasa 3, dziewczęta, zawodników: 4" in out
    everything_reads(desk, capsys)

    status, _, err = run(capsys, "chess", "pair", *desk.opts)
    assert status == 0, err
    trf_file = tmp_path / "sp3-dz.trf"
    status, out, err = run(capsys, "chess", "export", "sp3-dz", "-o", str(trf_file), *desk.opts)
    assert status == 0, err
    assert (
        f"{trf_file}: nazwisko zawodnika nr 1, „{LONG_TRF}”, jest dłuższe niż 33 kolumny pola TRF; "
        f"w pliku jest „{CUT}” (wydruki z demona podają je w całości)"
    ) in out
    line = next(x for x in trf_file.read_text(encoding="utf-8").splitlines() if x.startswith("001    1"))
    assert line[14:47] == CUT and line[47] == " "  # the name field, columns 15–47, and no further
    read = trf.load_bytes(trf_file.read_bytes())  # a TRF as any reader takes it
    assert read.players[0].name == CUT

    status, _, err = run(capsys, "chess", "post", "sp3-dz", "-o", str(tmp_path / "wywieszki"), *desk.opts)
    assert status == 0, err
    posted = (tmp_path / "wywieszki" / "sp3-dz-runda-1.html").read_text(encoding="utf-8")
    assert "Brzęczyszczykiewicz-Grzegorzewska Aleksandra" in posted and CUT not in posted
    html = tmp_path / "lista.html"
    status, _, err = run(
        capsys, "chess", "print", "startlist", str(trf_file), "--day", str(day), "--group", "sp3-dz",
        "--html", str(html),
    )  # fmt: skip
    assert status == 0, err  # the day file's full name matches the file's cut one
    listed = html.read_text(encoding="utf-8")
    assert "Brzęczyszczykiewicz-Grzegorzewska Aleksandra" in listed and CUT not in listed

    desk.stop()
    desk.start()
    everything_reads(desk, capsys)
    status, out, _ = run(capsys, "chess", "export", "sp3-dz", "-o", str(tmp_path / "again.trf"), *desk.opts)
    assert status == 0 and "jest dłuższe niż 33 kolumny" in out  # the full name came back from the journal


def test_a_field_trf_cannot_hold_is_refused_and_nothing_is_journaled(
    tmp_path: Path, desk: Desk, capsys: Any
) -> None:
    data = ChessDay.model_validate_json(the_day(tmp_path, capsys).read_bytes())
    group = data.groups[[g.key for g in data.groups].index("sp3-dz")]
    short = {1: {"surname": "Brzęczek", "first_name": "Ola"}, 2: {"federation": "POLSKA"}}  # that field alone
    entrants = tuple(e.model_copy(update=short.get(e.start, {})) for e in group.entrants)
    bad = data.model_copy(update={"groups": (group.model_copy(update={"entrants": entrants}),)})
    day = tmp_path / "zle.json"
    day.write_text(bad.model_dump_json(), encoding="utf-8")
    before = desk.seq()

    status, out, err = run(capsys, "chess", "import", str(day), *desk.opts)
    assert status == 2 and out == ""
    assert "grupa sp3-dz, zawodnik nr 2: federacja „POLSKA” nie mieści się w polu TRF (kolumn: 3)" in err
    assert "popraw to w pliku dnia" in err
    assert desk.seq() == before

    # Another client, without the command's own check: the daemon refuses, before its journal.
    from clockd.core.chessday.group import ChessGroupConfig
    from clockd.kinds.chess.cli_day import _create

    config = ChessGroupConfig(group=bad.groups[0], title="Turniej", rounds=5)
    with Client(port=desk.port, token=desk.opts[-1]) as c, pytest.raises(ApiError) as refused:
        _create(c, "sp3-dz", "", config)
    assert refused.value.reason is not None and refused.value.reason.code == "chess.trf-field-too-long"
    assert desk.seq() == before
    with Journal.reader(desk.db) as journal:
        assert not any(r.entry.kind == "event-create" for r in journal.read(after=0))
    everything_reads_nothing = run(capsys, "event", "list", *desk.opts)
    assert everything_reads_nothing[0] == 0 and "sp3-dz" not in everything_reads_nothing[1]
