"""Polish first, English available: the desk speaks the chosen language, from the one catalogue."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import translations
from gui.commands import DemoSink
from gui.demo import demo_state
from gui.deskmodel import DeskModel
from gui.referee import RefereeWindow

GUI = Path(translations.__file__).resolve().parent


def test_the_gui_keeps_no_second_catalogue() -> None:
    """The widgets' words are the project catalogue's (``gui.*``): no Qt Linguist file beside it,
    and no Qt translation call in the code (one would show its English to a Polish referee)."""
    assert sorted(p.name for p in GUI.rglob("*") if p.suffix in (".ts", ".qm")) == []
    found = []
    for path in sorted(GUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("tr", "QT_TRANSLATE_NOOP", "QT_TR_NOOP") or (
                    name == "translate"
                    and getattr(f, "value", None) is not None
                    and getattr(f.value, "id", "") == "QCoreApplication"
                ):
                    found.append(f"{path.relative_to(GUI.parent)}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize(
    ("lang", "pause", "tab"), [("pl", "Pauza", "Drabinka i stoliki"), ("en", "Pause", "Bracket and tables")]
)
def test_the_referee_window_speaks_the_chosen_language(qtbot: QtBot, lang: str, pause: str, tab: str) -> None:
    translations.install(lang)
    window = RefereeWindow(DeskModel(demo_state(0)), DemoSink())
    qtbot.addWidget(window)
    window.select_table(3)
    assert window.act_pause.text() == pause
    assert window.tabs.tabText(0) == tab


def test_switching_language_retranslates_an_open_window(qtbot: QtBot) -> None:
    window = RefereeWindow(DeskModel(demo_state(0)), DemoSink())
    qtbot.addWidget(window)
    window.select_table(3)
    assert window.act_adjust.text() == "Korekta czasu…"
    window.set_language("en")
    qtbot.waitUntil(lambda: window.act_adjust.text() == "Adjust time…", timeout=2000)
    assert translations.chosen_language() == "en"  # saved for the next start
    assert any(t.startswith("Table 3") for t in window.tables.shown_texts())


def test_lang_option_beats_the_setting_which_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert translations.chosen_language() == "en"
    translations.save_language("pl")
    assert translations.chosen_language() == "pl"
    assert translations.chosen_language("en") == "en"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translations.save_language("de")


def test_every_catalogue_code_the_gui_uses_has_both_languages() -> None:
    """The GUI's own sentences (``gui.*``) and the core's terms it draws come from the catalogue:
    each code the GUI's source names, and each member of the term families it renders, has a
    Polish and an English text there (a missing one would show as its bare code)."""
    from clockd.core.bracket import MatchStatus
    from clockd.core.clock import Phase
    from clockd.core.device import DeviceState
    from clockd.core.hall import TimerPhase
    from clockd.i18n.catalogue import catalogue
    from tests.i18n.codes import source_codes

    used = {c for c in source_codes([GUI]) if c.startswith(("gui.", "term.", "alert.", "text."))}
    assert {"gui.no-token", "gui.signal.signal", "gui.signal.end", "gui.signal.pre", "term.bye"} <= used
    used |= {f"term.phase.{p.value}" for p in Phase}
    used |= {f"term.match-status.{s.value}" for s in MatchStatus}
    used |= {f"term.timer-phase.{p.value}" for p in TimerPhase}
    used |= {f"term.device.{d.value}" for d in DeviceState}
    used |= {f"term.list.{k}" for k in ("main", "reserve", "walk-in")}
    used |= {f"term.session-stage.{s}" for s in ("registration", "draw", "bracket", "finished")}
    used |= {f"term.event-kind.{k}" for k in ("puzzle-duel", "timer")}
    used |= {f"term.decided-by.{d}" for d in ("time", "flag", "tiebreak", "referee", "bye", "walkover")}
    entries = catalogue().entries
    missing = sorted(c for c in used if c not in entries)
    assert missing == []
    for code in sorted(used):
        entry = entries[code]
        assert all(entry.pl) and all(entry.en), code


def test_the_catalogues_words_follow_the_language_switch_too(qtbot: QtBot) -> None:
    """A word from the catalogue (a clock's phase) and one of Qt's (a button) switch together."""
    window = RefereeWindow(DeskModel(demo_state(0)), DemoSink())
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.select_table(3)  # R2-3 is on it

    def phase() -> str:
        return next(i.text for i in window.tables.items_with(key="3", role="phase"))

    assert phase() == "TRWA"
    window.set_language("en")
    qtbot.waitUntil(lambda: phase() == "RUNNING", timeout=2000)
    assert window.act_pause.text() == "Pause"
    assert (
        window.act_confirm.toolTip() == "match R2-3 has no result to confirm (it is live)"
    )  # the core's, in English
    window.set_language("pl")
    qtbot.waitUntil(lambda: phase() == "TRWA", timeout=2000)
