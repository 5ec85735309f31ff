"""The S(witcher) rotation as an event kind: ``switcher``.

The rules are :class:`~clockd.core.switcher.SwitcherEvent` (pure): the rotation's plan, who
sits in each seat number, the replacements, the tables done. In the daemon it is a hall
timer like the ``timer`` kind (:mod:`clockd.service.timed`) — the same actions and the same
``timer-due`` decisions — and each signal (every 15 minutes) is a **change**: everyone
moves one seat to the right, the screens show the new tables, the buzzers sound. A table
whose daemon table is given (``[table_map]``) has a station there: its button records the
puzzle done. When the last puzzle is done the event ends (a ``timer-due`` end in the same
commit) and the list of those who stayed from the start to the end is final.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from pydantic import ValidationError

from clockd.api.switcher import SwitcherBody, switcher_body
from clockd.core.actions import Allowed, validation_msgs
from clockd.core.hall import Station, TimerAction, TimerEnd, TimerPhase, TimerStart
from clockd.core.ids import event_ref
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
from clockd.service.actions import ActionEntry, journal
from clockd.service.component import Effect, Refused, Restart, Staged
from clockd.service.entries import PressRecorded, ProgramLoaded
from clockd.service.events import EventContext, Hosted, event_kind
from clockd.service.tables import TableState
from clockd.service.timed import TimerDue, signals_due, timer_recovered
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


class Switcher:
    """The ``switcher`` event kind (see the module docstring)."""

    kind = KIND
    actions = frozenset(
        {
            "timer-start",
            "timer-pause",
            "timer-resume",
            "timer-adjust",
            "timer-schedule",
            "timer-end",
            *SWITCHER_ACTIONS,
        }
    )
    entries = frozenset({"timer-due"})
    reacts_to = frozenset({"press"})

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
        event: SwitcherEvent = hosted.state
        out: list[Entry] = []
        for table, daemon_table in sorted(event.config.table_map.items()):
            if ctx.table(daemon_table) is None:
                raise Refused("table.unknown", table=daemon_table, known=sorted(ctx.tables().view()))
            entry = station_entry(table)
            station = Station(owner=event_ref(ctx.hall, hosted.key, entry), entry=entry)
            out.append(ProgramLoaded(table=daemon_table, event=hosted.key, program=station))
        for table in event.signal_tables():
            if ctx.table(table) is None:
                raise Refused("table.unknown", table=table, known=sorted(ctx.tables().view()))
        return out

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
        event: SwitcherEvent = hosted.state
        return event.timer.phase is not TimerPhase.ENDED

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
            if isinstance(entry, TimerDue):
                if entry.what == "end":
                    after = event.end(entry.due_ns)
                    follow = [] if replay else self._stations(ctx, hosted, after, armed=False)
                    return after, Staged(entry, self._signal(ctx, after, end=True), follow)
                after = event.fire(entry.offset_ns)
                return after, Staged(entry, self._signal(ctx, after, end=False))
            assert isinstance(entry, ActionEntry)
            action = entry.action
            if isinstance(action, TakeSeat):
                return event.seat(action.seat, action.name), Staged(entry)
            if isinstance(action, ReplacePerson):
                return event.replace(action.seat, action.name, t, action.reason), Staged(entry)
            if isinstance(action, TableDone):
                after = event.table_done(action.table, t)
                if not replay and entry.source != "button":
                    follow += self._finished(ctx, hosted, after, action.table, True)
                if not replay and after.everyone_done() and after.timer.phase is not TimerPhase.ENDED:
                    end = after.timer.plan.end_pattern
                    follow.append(
                        TimerDue(
                            t_ns=t,
                            event=hosted.key,
                            what="end",
                            offset_ns=after.timer.elapsed(t),
                            due_ns=t,
                            pattern="" if end is None else end.value,
                        )
                    )
                return after, Staged(entry, follow=follow)
            if isinstance(action, TableUndone):
                after = event.table_undone(action.table)
                follow = [] if replay else self._finished(ctx, hosted, after, action.table, False)
                return after, Staged(entry, follow=follow)
            if not isinstance(action, TimerAction):  # pragma: no cover - the host routes only ours
                raise Refused("event.not-an-action", kind=entry.kind)
            after = event.apply_timer(action)
        except SwitcherError as exc:
            raise Refused(exc.msg) from exc
        effects: list[Effect] = []
        if not replay and isinstance(action, TimerStart):
            follow = self._stations(ctx, hosted, after, armed=True)
        elif not replay and isinstance(action, TimerEnd):
            follow = self._stations(ctx, hosted, after, armed=False)
            effects = self._signal(ctx, after, end=True)
        return after, Staged(entry, effects, follow)

    def _stations(
        self, ctx: EventContext, hosted: Hosted, event: SwitcherEvent, *, armed: bool
    ) -> list[Entry]:
        out: list[Entry] = []
        for table, daemon_table in sorted(event.config.table_map.items()):
            state = ctx.table(daemon_table)
            program = state.program if state is not None else None
            owner = event_ref(ctx.hall, hosted.key, station_entry(table))
            if isinstance(program, Station) and program.owner == owner:
                station = program.model_copy(update={"armed": armed})
                out.append(ProgramLoaded(table=daemon_table, event=hosted.key, program=station))
        return out

    def _finished(
        self, ctx: EventContext, hosted: Hosted, event: SwitcherEvent, table: int, done: bool
    ) -> list[Entry]:
        daemon_table = event.table_of_station(table)
        state = ctx.table(daemon_table) if daemon_table is not None else None
        if daemon_table is None or state is None or not isinstance(state.program, Station):
            return []
        station = state.program.model_copy(update={"finished": done})
        return [ProgramLoaded(table=daemon_table, event=hosted.key, program=station)]

    def _signal(self, ctx: EventContext, event: SwitcherEvent, *, end: bool) -> list[Effect]:
        plan = event.timer.plan
        pattern = plan.end_pattern if end else plan.pattern
        if pattern is None:
            return []
        return ctx.world.devices.beep(event.signal_tables(), pattern)

    def react(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, table: TableState, *, now_ns: int
    ) -> list[Entry]:
        if not isinstance(entry, PressRecorded) or entry.outcome != "finished":
            return []
        event: SwitcherEvent = hosted.state
        rotation_table = event.rotation_table(table.table)
        if rotation_table is None:
            return []
        done = TableDone(table=rotation_table).at(entry.t_ns)
        return [
            journal(
                done,
                target=event_ref(ctx.hall, hosted.key),
                by=entry.device_id,
                source="button",
                table=table.table,
                event=hosted.key,
            )
        ]

    # -- time -------------------------------------------------------------------------------------
    def deadline(self, hosted: Hosted) -> int | None:
        event: SwitcherEvent = hosted.state
        return event.timer.deadline()

    def due(self, ctx: EventContext, hosted: Hosted, now_ns: int) -> list[Entry]:
        event: SwitcherEvent = hosted.state
        return list(signals_due(event.timer, hosted.key, now_ns))

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
        event: SwitcherEvent = hosted.state
        return timer_recovered(ctx, hosted, event.timer, restart)

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return SwitcherEvent.model_validate(data)


event_kind(Switcher())

__all__ = ["KIND", "Switcher", "parse_config", "switcher_body"]
