"""From the daemon's state to what clients see: table states to views, records to timeline entries."""

from __future__ import annotations

import hashlib

from clockd.api.messages import AlertView, DeviceView, PerSide, TableView, TimelineEntry
from clockd.core.display import format_clock, quantize
from clockd.core.units import MS, ns_to_ms
from clockd.service.tables import TableState
from clockd.store.journal import Record


def state_digest(state: TableState) -> str:
    """A short fingerprint of the exact state: equal digests mean equal states."""
    return hashlib.sha256(state.model_dump_json().encode()).hexdigest()[:20]


def table_view(state: TableState, now_ns: int, *, seq: int, has_device: bool = True) -> TableView:
    """What a client sees of ``state`` at ``now_ns`` (journal time)."""
    v = state.clock.view(max(now_ns, state.floor_ns))
    remaining = v.remaining_ns
    device = state.device
    return TableView(
        table=state.table,
        label=state.label,
        control=str(state.clock.control),
        phase=v.phase.value,
        remaining_ms=PerSide(a=quantize(remaining.a, MS), b=quantize(remaining.b, MS)),
        display={"a": format_clock(remaining.a), "b": format_clock(remaining.b)},
        running=None if v.running is None else v.running.value,
        to_move=None if v.to_move is None else v.to_move.value,
        moves=PerSide(a=v.moves.a, b=v.moves.b),
        ignored=PerSide(a=state.clock.ignored.a, b=state.clock.ignored.b),
        elapsed_ms=PerSide(a=ns_to_ms(v.elapsed_ns.a), b=ns_to_ms(v.elapsed_ns.b)),
        paused_ms=ns_to_ms(v.paused_ns),
        flag=None if v.flag is None else v.flag.value,
        flag_decided=state.flag_decided,
        presses=state.presses,
        device=DeviceView(
            state=device.state if has_device or device.state != "unknown" else "none",
            device_id=device.device_id,
            detail=device.detail,
        ),
        alerts=tuple(AlertView(id=a.id, code=a.code, message=a.message, data=a.data) for a in state.alerts),
        seq=seq,
        digest=state_digest(state),
    )


def timeline_entry(record: Record) -> TimelineEntry:
    event = record.event
    return TimelineEntry(
        seq=record.seq,
        table=event.table,
        kind=event.kind,
        t_ms=ns_to_ms(event.t_ns),
        data=event.model_dump(mode="json", exclude={"kind", "t_ns", "table"}),
    )
