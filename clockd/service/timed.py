"""A timed hall event as an event kind: the hall's clock, its signals, its stations.

The rules are :class:`~clockd.core.hall.HallTimer` and :class:`~clockd.core.hall.HallEvent`
(pure). The clock's part in the daemon — the timer actions, the ``timer-due`` decisions
sounded on the buzzers, the stations armed at the start and disarmed at the end, a
station's press as a finish in the same commit, the recovery after a restart — is the
:class:`~clockd.service.hallclock.HallClock` this kind holds, as the zone's contests and the
rotation hold theirs. What is left here is the bare timer's own: its file, its finishes
recorded by the referee, its view.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from clockd.api.hall import HallBody, StationEntryView
from clockd.api.shown import Pick
from clockd.core.actions import Allowed, validation_msgs
from clockd.core.hall import FinishEntry, HallEvent, HallEventConfig, UndoFinish
from clockd.core.units import ns_to_ms
from clockd.i18n import Msg, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Restart, Staged
from clockd.service.events import EventContext, Hosted, event_kind
from clockd.service.hallclock import HallClock
from clockd.service.tables import TableState
from clockd.store.entries import Entry

KIND = "timer"


def stations(event: HallEvent) -> Iterable[tuple[str, int]]:
    """The event's stations, by table."""
    return sorted(event.config.stations.items(), key=lambda kv: kv[1])


class TimedEvent:
    """The ``timer`` event kind (see the module docstring)."""

    kind = KIND
    #: Its time-out end is stamped at the instant the daemon took it, as its journals have it.
    clock = HallClock(stations, end_at="taken")
    actions = clock.actions | {"entry-finish", "entry-unfinish"}
    entries = clock.entries
    reacts_to = clock.reacts_to

    # -- creation --------------------------------------------------------------------------------
    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        config = parse_config(config_toml or "", name)
        return HallEvent.new(config), config.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return HallEvent.new(HallEventConfig.model_validate(config))

    def created(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.created(ctx, hosted)

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        return None  # the event kinds built on a hall timer (the relay, the team event) rank

    def holds(self, hosted: Hosted, item: str) -> bool:
        """A station is held until the hall's time has ended."""
        return self.clock.holds(hosted)

    def table_of(self, hosted: Hosted, item: str) -> int | None:
        event: HallEvent = hosted.state
        return event.config.stations.get(item)

    # -- staging ---------------------------------------------------------------------------------
    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        if self.clock.owns(entry):
            return self.clock.stage(ctx, hosted, entry, replay=replay)
        event: HallEvent = hosted.state
        assert isinstance(entry, ActionEntry)
        action = entry.action
        if isinstance(action, FinishEntry):
            after = event.finish(action.entry, entry.t_ns)
            live = not replay and entry.source != "button"  # a button's station shows it already
            table = event.config.stations.get(action.entry)
            return after, Staged(entry, follow=self.clock.marked(ctx, hosted, table, True) if live else [])
        assert isinstance(action, UndoFinish)
        after = event.unfinish(action.entry)
        table = event.config.stations.get(action.entry)
        return after, Staged(entry, follow=[] if replay else self.clock.marked(ctx, hosted, table, False))

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        return self.clock.react(ctx, hosted, entry, table)

    # -- time ---------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        return self.clock.deadline(hosted)

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        return self.clock.due(hosted, now_ns)

    def recovered(self, ctx: EventContext, hosted: Hosted, restart: Restart) -> list[Entry]:
        return self.clock.recovered(ctx, hosted, restart)

    # -- reading ----------------------------------------------------------------------------------
    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        event: HallEvent = hosted.state
        return event.allowed(now_ns)

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> HallBody:
        event: HallEvent = hosted.state
        return HallBody(
            timer=self.clock.view(hosted, now_ns),
            stations=[
                StationEntryView(
                    entry=entry,
                    table=table,
                    finished_ms=None if entry not in event.finishes else ns_to_ms(event.finishes[entry]),
                )
                for entry, table in stations(event)
            ],
            signal_tables=list(event.signal_tables()),
            pattern=event.timer.plan.pattern.value,
        )

    def picks(self, hosted: Hosted, now_ns: int) -> dict[str, dict[str, tuple[Pick, ...]]]:
        """A finish names an entry still out, taking one back an entry that has finished."""
        event: HallEvent = hosted.state
        out = {}
        for action, finished in (("entry-finish", False), ("entry-unfinish", True)):
            out[action] = {
                "entry": tuple(
                    Pick(value=entry, label=msg("pick.entry-at-table", name=entry, table=table))
                    for entry, table in stations(event)
                    if (entry in event.finishes) is finished
                )
            }
        return out

    def title(self, hosted: Hosted) -> Msg:
        event: HallEvent = hosted.state
        name = hosted.name or event.config.name
        return msg("text.as-typed", text=name) if name else msg("text.as-typed", text=hosted.key)

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return HallEvent.model_validate(data)


def parse_config(text: str, name: str = "", source: str = "the configuration sent") -> HallEventConfig:
    """A hall event's configuration from its TOML text; :class:`Refused` naming every problem."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused("config.not-toml", source=source, problem=str(exc)) from exc
    if name and "name" not in data:
        data["name"] = name
    try:
        return HallEventConfig.model_validate(data)
    except ValidationError as exc:
        raise Refused("config.invalid", source=source, problems=validation_msgs(exc, source)) from exc


event_kind(TimedEvent())

__all__ = ["KIND", "TimedEvent", "parse_config"]
