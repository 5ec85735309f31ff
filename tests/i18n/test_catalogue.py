"""One message catalogue: every code the program can say has its Polish and English text.

The program raises refusals and errors by code (``Refused("table.unknown", …)``) and
clients render them in their user's language from the catalogue. If a code had no text,
a Polish referee would read the bare code — or an English sentence. These tests walk
every code in the source (and every family of codes made from a name) and hold the
catalogue to both languages, the same placeholders in both, and no text for nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import clockd.service.compose  # noqa: F401  (every event kind, as the daemon knows them)
from clockd.i18n import Msg, Problem, language, msg, render, set_language
from clockd.i18n.catalogue import catalogue, missing_texts, parse, placeholders
from tests.i18n.codes import family_codes, source_codes

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "clockd", ROOT / "gui", ROOT / "firmware_protocol", ROOT / "hw_sim", ROOT / "web"]


def template_codes() -> set[str]:
    """The codes the web pages' templates say (``t("web.…")``)."""
    import re

    found: set[str] = set()
    for path in (ROOT / "web" / "templates").glob("*.html"):
        found |= set(re.findall(r"""\bt\(["']([a-z0-9.-]+)["']""", path.read_text(encoding="utf-8")))
    return found


def all_codes() -> set[str]:
    return source_codes(SOURCES) | family_codes() | template_codes()


def test_every_code_the_program_can_produce_has_a_polish_and_an_english_text() -> None:
    cat = catalogue()
    codes = all_codes()
    assert len(codes) > 200  # the scan found the program's codes (not an empty walk)
    missing = sorted(c for c in codes if c not in cat)
    assert missing == [], f"codes without a text in the catalogue: {missing}"
    assert missing_texts(cat) == []
    for code in codes:
        entry = cat.entries[code]
        assert all(f.strip() for f in entry.pl), code
        assert all(f.strip() for f in entry.en), code


def test_the_polish_text_fills_the_same_blanks_as_the_english() -> None:
    wrong = []
    for entry in catalogue().entries.values():
        names = {frozenset(placeholders(f)) for f in (*entry.en, *entry.pl)}
        if len(names) != 1:
            wrong.append((entry.code, entry.en, entry.pl))
    assert wrong == []


def test_the_catalogue_holds_no_text_nobody_uses() -> None:
    unused = sorted(set(catalogue().entries) - all_codes())
    assert unused == []


def test_a_refusal_reads_in_polish_by_default_and_in_english_on_request(monkeypatch) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    refusal = msg("table.unknown", table=99, known=[1, 2, 3])
    assert language() == "pl"
    assert render(refusal) == "nie ma stolika 99 (stoliki: 1, 2, 3)"
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert render(refusal) == "there is no table 99 (tables: 1, 2, 3)"
    set_language("pl")
    try:
        assert render(refusal) == "nie ma stolika 99 (stoliki: 1, 2, 3)"
    finally:
        set_language(None)


def test_messages_nest_and_times_read_as_a_clock_face() -> None:
    nested = msg("clock.not-paused", phase=Msg(code="term.phase.running"))
    assert render(nested, "pl") == "wznowić można tylko wstrzymany zegar; ten jest: trwa"
    assert render(nested, "en") == "only a paused clock can be resumed; this one is running"
    alert = msg("timer.adjust-past-end", left_ms=61_001)
    assert "1:02" in render(alert, "pl")  # rounded up, as a clock shows the time left
    rows = msg(
        "signups.bad-rows", source="a.csv", n=2, rows=[msg("signups.no-age"), msg("signups.no-surname")]
    )
    assert render(rows, "pl").splitlines()[1:] == ["  brak wieku", "  brak nazwiska"]


def test_a_problem_is_an_english_sentence_for_logs_and_a_message_for_people() -> None:
    problem = Problem("bracket.no-result", match="R1-1", status=Msg(code="term.match-status.ready"))
    assert str(problem) == "match R1-1 has no result to confirm (it is to play)"
    assert render(problem.msg, "pl") == "mecz R1-1 nie ma wyniku do zatwierdzenia (stan: „do rozegrania”)"


def test_an_unknown_code_still_says_something() -> None:
    assert render(msg("from.a-newer-daemon", table=3), "pl") == "from.a-newer-daemon (table=3)"


def test_plural_forms_follow_the_catalogues_rule() -> None:
    text = (
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && '
        '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgctxt "players"\nmsgid "{n} player"\nmsgid_plural "{n} players"\n'
        'msgstr[0] "{n} zawodnik"\nmsgstr[1] "{n} zawodnicy"\nmsgstr[2] "{n} zawodników"\n'
    )
    cat = parse(text)
    shown = {n: cat.render(msg("players", n=n), "pl") for n in (1, 2, 4, 5, 12, 22, 25)}
    assert shown == {
        1: "1 zawodnik",
        2: "2 zawodnicy",
        4: "4 zawodnicy",
        5: "5 zawodników",
        12: "12 zawodników",
        22: "22 zawodnicy",
        25: "25 zawodników",
    }
    assert cat.render(msg("players", n=1), "en") == "1 player"
    assert cat.render(msg("players", n=3), "en") == "3 players"


@pytest.mark.parametrize(
    "broken", ['msgctxt "x"\nmsgid "a"\nmsgstr "b"\nmsgctxt "x"\nmsgid "c"\nmsgstr "d"\n']
)
def test_a_catalogue_that_defines_a_code_twice_is_refused(broken: str) -> None:
    from clockd.i18n.catalogue import CatalogueError

    with pytest.raises(CatalogueError, match="twice"):
        parse(broken)
