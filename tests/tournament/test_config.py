"""The tournament configuration file: the festival's defaults, and errors a referee can act on."""

from __future__ import annotations

import pytest

from clockd.core.tournament import ConfigError, RoundKind, TournamentConfig
from clockd.core.units import MINUTE, SECOND
from clockd.data import default_config_text, festival_config, load_config


def test_the_shipped_file_is_the_festivals_rules() -> None:
    cfg = festival_config()
    assert cfg.players == 16 and cfg.min_age == 13 and cfg.reserve_size == 16
    assert [r.players for r in cfg.rounds] == [16, 8, 4, 2, 2]
    assert [r.pieces for r in cfg.rounds] == [99, 99, 200, 200, 200]
    assert [cfg.round_kind(i) for i in range(5)][-2:] == [RoundKind.THIRD_PLACE, RoundKind.FINAL]
    # a duel of "about 20 minutes" is 10 minutes a side; "about 30", 15
    assert [r.time_per_side.initial_ns for r in cfg.rounds] == [10 * MINUTE] * 2 + [15 * MINUTE] * 3
    assert cfg.tiebreak.pieces == 49
    assert cfg.resolution_ns == SECOND  # whole seconds, as the clock displays
    assert [s.key for s in cfg.sessions] == ["pt", "sb", "nd"]
    assert cfg.session("nd").start.hour == 11


def test_a_referee_can_change_the_clock_and_the_resolution() -> None:
    text = default_config_text().replace('time_per_side = "4m"', 'time_per_side = "5m+2s"')
    text = text.replace("resolution_ms = 1000", "resolution_ms = 1")
    cfg = TournamentConfig.from_toml(text)
    assert cfg.resolution_ns == 1_000_000
    assert cfg.tiebreak.time_per_side.stages[0].increment_ns == 2 * SECOND
    # and what it writes back reads the same
    assert TournamentConfig.model_validate(cfg.model_dump(mode="json")) == cfg


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('time_per_side = "10m"', 'time_per_side = "ten minutes"'), "rounds[0].time_per_side"),
        (("resolution_ms = 1000", "resolution_ms = 0"), "resolution_ms"),
        (("players = 16 ", "players = 12 "), "power of two"),
        (("pieces = 49", "piece = 49"), "tiebreak.piece"),
        (("players = 8\n", "players = 4\n"), "rounds must have [16, 8, 4, 2]"),
        (('key = "sb"', 'key = "pt"'), "session keys must differ"),
        (('name = "Puzzlowy Pojedynek"', "name = "), "not valid TOML"),
    ],
)
def test_mistakes_in_the_file_are_named(change: tuple[str, str], message: str) -> None:
    text = default_config_text()
    assert change[0] in text
    with pytest.raises(ConfigError) as err:
        TournamentConfig.from_toml(text.replace(change[0], change[1], 1), source="turniej.toml")
    assert "turniej.toml" in str(err.value)
    assert message in str(err.value)


def test_loading_a_missing_file_says_which() -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml"):
        load_config("nope.toml")
    assert load_config(None) == festival_config()


def test_an_unknown_session_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="pt, sb, nd"):
        festival_config().session("pn")
