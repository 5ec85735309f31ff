"""Files shipped with duelclock: the festival's default Puzzle Duel rules.

:func:`festival_config` reads ``puzzle_duel.toml`` from the installed package; a referee's
own file is read with :func:`load_config`. Both give a checked
:class:`~clockd.core.tournament.TournamentConfig` or raise
:class:`~clockd.core.tournament.ConfigError` naming the file and the field.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from clockd.core.tournament import ConfigError, TournamentConfig

DEFAULT_CONFIG = "puzzle_duel.toml"


def default_config_text() -> str:
    return resources.files(__package__).joinpath(DEFAULT_CONFIG).read_text(encoding="utf-8")


def festival_config() -> TournamentConfig:
    """The festival's rules as shipped (16 players, rounds I–V, 49-piece tie-break)."""
    return TournamentConfig.from_toml(default_config_text(), source=f"clockd/data/{DEFAULT_CONFIG}")


def load_config(path: str | Path | None) -> TournamentConfig:
    """The configuration in ``path``, or the festival's default when ``path`` is None."""
    if path is None:
        return festival_config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("config.cannot-read", path=str(path), problem=exc) from exc
    return TournamentConfig.from_toml(text, source=str(path))
