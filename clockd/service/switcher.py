"""The S(witcher) rotation as an event kind: ``switcher``.

The rules are :class:`~clockd.core.switcher.SwitcherEvent` (pure): the rotation's plan, who
sits in each seat number, the replacements, the tables done. In the daemon it holds a hall
clock (:class:`~clockd.service.hallclock.HallClock`) as the ``timer`` kind does — the same
actions and the same ``timer-due`` decisions — and each signal (every 15 minutes) is a
**change**: everyone moves one seat to the right, the screens show the new tables, the
buzzers sound. A table whose daemon table is given (``[table_map]``) has a station there:
its button records the puzzle done. When the last puzzle is done the event ends (a
``timer-due`` end in the same commit) and the list of those who stayed from the start to
the end is final.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from pydantic import ValidationError

from clockd.api.switcher import SwitcherBody, switcher_body
from clockd.core.actions import Action, Allowed, validation_msgs
from clockd.core.switcher import (
    SWITCHER_ACTIONS,
    ReplacePerson,
    SwitcherConfig,
    SwitcherError,
    SwitcherEvent,
    TableDone,
    TableUndone,
    TakeSeat,
)
from clockd.core.units import ns_to_ms
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Restart, Staged
from clockd.service.events import EventContext, Hosted, event_kind
from clockd.service.hallclock import HallClock
from clockd.service.tables import TableState
from clockd.store.entries import Entry

KIND = "switcher"
DEFAULT_FILE = "switcher.toml"


def parse_config(text: str, name: str = "", source: str = "the configuration sent") -> SwitcherConfig:
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused("config.not-toml", source=source, problem=str(exc)) from exc
    if name and "name" not in data:
        data["name"] = name
    try:
        return SwitcherConfig.model_validate(data)
    except ValidationError as exc:
        raise Refused("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


def station_entry(table: int) -> str:
    """A rotation table's station's name (what its device shows)."""
    return f"stolik-{table}"


def _stations(event: SwitcherEvent) -> Iterable[tuple[str, int]]:
    """The stations of the rotation's tables that have a daemon table (``[table_map]``), by
    rotation table."""
    return [(station_entry(table), daemon) for table, daemon in sorted(event.config.table_map.items())]


def _done(event: SwitcherEvent, table: TableState) -> Action | None:
    """A station's press: that rotation table's puzzle done."""
    rotation_table = event.rotation_table(table.table)
    return None if rotation_table is None else TableDone(table=rotation_table)


class Switcher:
    """The ``switcher`` event kind (see the module docstring)."""

    kind = KIND
    #: No clock faces: the rotation has never shown its countdown on a device (its screens do).
    clock = HallClock(_stations, face=False, finish=_done)
    actions = clock.actions | set(SWITCHER_ACTIONS)
    entries = clock.entries
    reacts_to = clock.reacts_to

    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        if config_toml is None:
            text = resources.files("clockd.data").joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
            config = parse_config(text, name, f"clockd/data/{DEFAULT_FILE}")
        else:
            config = parse_config(config_toml, name)
        return SwitcherEvent.new(config), config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return SwitcherEvent.new(SwitcherConfig.model_validate(config))

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.created(ctx, hosted)

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        from clockd.i18n import render

        event: SwitcherEvent = hosted.state
        body = switcher_body(event, event.timer.mark_ns)
        return {
            "format": "duelclock-switcher-results/1",
            "event": hosted.key,
            "kind": KIND,
            "title": render(self.title(hosted), lang),
            "phase": event.timer.phase.value,
            "rotations": event.rotations,
            "elapsed_ms": ns_to_ms(event.timer.run_ns),
            "stayed": [{"seat": seat, "name": name} for seat, name in event.stayed()],
            "replacements": [r.model_dump(mode="json") for r in body.replacements],
            "tables": [t.model_dump(mode="json") for t in body.tables],
        }

    def holds(self, hosted: Hosted, item: str) -> bool:
        """A seat's table is held until the rotation's time has ended."""
        return self.clock.holds(hosted)

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        event: SwitcherEvent = hosted.state
        if item.startswith("stolik-") and item[7:].isdigit():
            return event.table_of_station(int(item[7:]))
        return None

    # -- staging ---------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        event: SwitcherEvent = hosted.state
        t = entry.t_ns
        follow: list[Entry] = []
        try:
            if self.clock.owns(entry):
                return self.clock.stage(ctx, hosted, entry, replay=replay)
            assert isinstance(entry, ActionEntry)
            action = entry.action
            if isinstance(action, TakeSeat):
                return event.seat(action.seat, action.name), Staged(entry)
            if isinstance(action, ReplacePerson):
                return event.replace(action.seat, action.name, t, action.reason), Staged(entry)
            if isinstance(action, TableDone):
                after = event.table_done(action.table, t)
                if not replay and entry.source != "button":
                    follow += self.clock.marked(ctx, hosted, after.table_of_station(action.table), True)
                if not replay and after.everyone_done():  # the last puzzle done ends the time
                    follow += self.clock.ended(hosted, after, t)
                return after, Staged(entry, follow=follow)
            if isinstance(action, TableUndone):
                after = event.table_undone(action.table)
                if not replay:
                    follow = self.clock.marked(ctx, hosted, after.table_of_station(action.table), False)
                return after, Staged(entry, follow=follow)
        except SwitcherError as exc:
            raise Refused(exc.msg) from exc
        raise Refused("event.not-an-action", kind=entry.kind)  # pragma: no cover - the host routes only ours

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        return self.clock.react(ctx, hosted, entry, table)

    # -- time -------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        return self.clock.deadline(hosted)

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.due(hosted, now_ns)

    # -- reading ------------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        event: SwitcherEvent = hosted.state
        return event.allowed(now_ns)

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> SwitcherBody:
        return switcher_body(hosted.state, now_ns)

    def title(self, hosted: Hosted) -> Msg:
        event: SwitcherEvent = hosted.state
        name = hosted.name or event.config.name
        return msg("text.as-typed", text=name) if name else Msg(code=f"term.event-kind.{KIND}")

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        return self.clock.recovered(ctx, hosted, restart)

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return SwitcherEvent.model_validate(data)


event_kind(Switcher())

__all__ = ["KIND", "Switcher", "parse_config", "switcher_body"]
