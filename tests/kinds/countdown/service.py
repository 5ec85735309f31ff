"""The daemon's part of a countdown with laps: its event kind."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from clockd.api.shown import Shown
from clockd.core.actions import Allowed, validation_msg
from clockd.i18n import Msg, Problem, msg
from clockd.service.actions import ActionEntry
from clockd.service.component import Refused, Staged
from clockd.service.events import EventContext, Hosted, Untimed, event_kind
from clockd.service.tables import TableState
from clockd.store.entries import Entry

from .api import CountdownBody
from .rules import Countdown


class CountdownKind(Untimed):
    kind = "countdown"
    actions = frozenset({"laps-start", "laps-lap", "laps-stop"})
    entries: frozenset[str] = frozenset()

    def create(
        self, ctx: EventContext, key: str, name: str, config_toml: str | None
    ) -> tuple[Any, dict[str, Any]]:
        try:
            state = Countdown.model_validate(tomllib.loads(config_toml or ""))
        except tomllib.TOMLDecodeError as exc:
            raise Refused("laps.bad-config", problem=str(exc)) from None
        except ValidationError as exc:
            raise Refused(validation_msg(exc, "countdown")) from None
        return state, state.model_dump(mode="json")

    def restore_created(self, key: str, name: str, config: dict[str, Any]) -> Any:
        return Countdown.model_validate(config)

    def stage(
        self, ctx: EventContext, hosted: Hosted, entry: Entry, *, now_ns: int, replay: bool
    ) -> tuple[Any, Staged]:
        assert isinstance(entry, ActionEntry)
        try:
            return hosted.state.apply(entry.action), Staged(entry)
        except Problem as exc:
            raise Refused(exc.msg) from exc

    def allowed(self, hosted: Hosted, now_ns: int) -> Allowed:
        state: Countdown = hosted.state
        return state.allowed(now_ns)

    def view(self, hosted: Hosted, now_ns: int, tables: Mapping[int, TableState], hall: str) -> CountdownBody:
        state: Countdown = hosted.state
        return CountdownBody(
            remaining_ms=state.remaining_ms(now_ns), running=state.running(now_ns), laps_ms=state.laps_ms()
        )

    def shown(self, hosted: Hosted, now_ns: int) -> list[Shown]:
        state: Countdown = hosted.state
        laps = state.laps_ms()
        rows = [
            Shown(label=msg("laps.left"), ms=state.remaining_ms(now_ns), running=state.running(now_ns)),
            Shown(label=msg("laps.count"), text=msg("text.as-typed", text=str(len(laps)))),
        ]
        if laps:
            rows.append(Shown(label=msg("laps.last"), ms=laps[-1], time="gone"))
        return rows

    def title(self, hosted: Hosted) -> Msg:
        return msg("text.as-typed", text=hosted.name) if hosted.name else Msg(f"term.event-kind.{self.kind}")

    def results(self, hosted: Hosted, lang: str) -> dict[str, Any] | None:
        state: Countdown = hosted.state
        return {"laps_ms": state.laps_ms(), "notes": list(state.notes)}

    def dump(self, state: Any) -> Any:
        return state.model_dump(mode="json")

    def load(self, data: Any) -> Any:
        return Countdown.model_validate(data)


event_kind(CountdownKind())
