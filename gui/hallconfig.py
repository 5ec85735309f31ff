"""A timed hall event's configuration, written as the core reads it — in one place.

The referee's *New timed event…* dialog and the demo's relay both describe a hall event by
its length, its signal interval and its stations; the daemon takes that as TOML
(:class:`clockd.core.hall.HallEventConfig`). That schema is the core's, and it is still
moving with issue 12: this branch was made when the times were whole minutes
(``duration_min = 60``), and the lead's branch has since made them durations
(``duration = "60m"``). :func:`config_toml` writes whichever form the installed core
declares, so the GUI works on both until the branches meet; after that, the branch for the
old form is dead and goes.
"""

from __future__ import annotations

import json
import tomllib

from clockd.core.hall import HallEventConfig


def _minutes_form() -> bool:
    return "duration_min" in HallEventConfig.model_fields


def config_toml(
    *,
    name: str = "",
    duration_min: int | None = None,
    every_min: int | None = None,
    stations: dict[str, int] | None = None,
) -> str:
    """The TOML of a hall event: ``duration_min`` (``None``: it counts up), a signal every
    ``every_min`` minutes (``None``: no signals), ``stations`` (entry → table)."""
    lines = []
    if name:
        lines.append(f"name = {json.dumps(name, ensure_ascii=False)}")
    minutes = _minutes_form()
    for key, value in (("duration", duration_min), ("signal_every", every_min)):
        if value:
            lines.append(f"{key}_min = {value}" if minutes else f'{key} = "{value}m"')
    if stations:
        lines.append("[stations]")
        lines += [f"{json.dumps(entry, ensure_ascii=False)} = {table}" for entry, table in stations.items()]
    return "\n".join(lines) + "\n"


def hall_config(
    *,
    name: str = "",
    duration_min: int | None = None,
    every_min: int | None = None,
    stations: dict[str, int] | None = None,
) -> HallEventConfig:
    """The core's configuration of a hall event described as for :func:`config_toml`."""
    text = config_toml(name=name, duration_min=duration_min, every_min=every_min, stations=stations)
    return HallEventConfig.model_validate(tomllib.loads(text))


__all__ = ["config_toml", "hall_config"]
