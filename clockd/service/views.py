"""From the daemon's state to what clients see: tables, events and timeline entries as API views.

Every view carries the actions allowed now (:mod:`clockd.core.actions`), computed by the
same state that will apply them, so clients enable buttons from the view alone. Nothing
private is in a view sent without the token: events show public names (``public_names``);
fields holding personal data are marked private where they are declared, and the server
drops them from every reply and push to a client without the token
(:mod:`clockd.core.private`); a timeline entry drops them too (a sign-up's e-mail, a
walk-in's phone, the sign-ups the daemon read from a file).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import astuple

from pydantic import BaseModel

from clockd.api.messages import AlertView, DeviceView, EventView, QuarantinedBody, TableView, TimelineEntry
from clockd.core.device import DeviceState
from clockd.core.ids import event_ref, table_ref
from clockd.core.private import public_data
from clockd.core.units import ns_to_ms
from clockd.i18n import msg
from clockd.service.events import EventKind, Hosted
from clockd.service.tables import TableState
from clockd.store.journal import Record


def state_digest(state: BaseModel) -> str:
    """A short fingerprint of the exact state: equal digests mean equal states."""
    return hashlib.sha256(state.model_dump_json().encode()).hexdigest()[:20]


def table_view(state: TableState, now_ns: int, *, seq: int, hall: str, has_device: bool = True) -> TableView:
    """What a client sees of ``state`` at ``now_ns`` (journal time)."""
    t = max(now_ns, state.floor_ns)
    device = state.device
    shown = device.state if has_device or device.state is not DeviceState.UNKNOWN else DeviceState.NONE
    return TableView(
        table=state.table,
        id=table_ref(hall, state.table),
        label=state.label,
        program=state.program.view(t),
        device=DeviceView(state=shown, device_id=device.device_id, detail=device.detail),
        alerts=tuple(AlertView(id=a.id, code=a.code, data=a.data) for a in state.alerts),
        presses=state.presses,
        actions=state.allowed(t),
        seq=seq,
        digest=state_digest(state),
        node=state.node,
        holder=state.holder,
    )


def event_digest(hosted: Hosted, kind: EventKind) -> str:
    """A short fingerprint of an event's exact state (its kind's state and its open alerts)."""
    data = [hosted.name, kind.dump(hosted.state), [list(astuple(a)) for a in hosted.alerts]]
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:20]


def event_view(
    hosted: Hosted, kind: EventKind, now_ns: int, *, tables: Mapping[int, TableState], hall: str, seq: int
) -> EventView:
    if hosted.quarantine is not None:
        return quarantined_view(hosted, hall=hall, seq=seq)
    return EventView(
        id=event_ref(hall, hosted.key),
        key=hosted.key,
        kind=hosted.kind,
        title=kind.title(hosted),
        actions={
            **kind.allowed(hosted, now_ns),
            "event-clear-alert": None if hosted.alerts else msg("event.no-alerts", event=hosted.key),
        },
        alerts=tuple(AlertView(id=a.id, code=a.code, data=a.data) for a in hosted.alerts),
        body=kind.view(hosted, now_ns, tables, hall),
        seq=seq,
        digest=event_digest(hosted, kind),
        shown=tuple(shown(hosted, now_ns)) if (shown := getattr(kind, "shown", None)) is not None else (),
        picks=picks(hosted, now_ns) if (picks := getattr(kind, "picks", None)) is not None else {},
    )


def quarantined_view(hosted: Hosted, *, hall: str, seq: int) -> EventView:
    """An event set aside at start (:class:`~clockd.service.events.Quarantine`): kind
    ``quarantined``, so no client takes its body for its kind's, what failed in the body, its
    alerts (the one naming the entry among them), no action but clearing them."""
    q = hosted.quarantine
    assert q is not None
    return EventView(
        id=event_ref(hall, hosted.key),
        key=hosted.key,
        kind="quarantined",
        title=msg("text.as-typed", text=hosted.name or hosted.key),
        actions={"event-clear-alert": None if hosted.alerts else msg("event.no-alerts", event=hosted.key)},
        alerts=tuple(AlertView(id=a.id, code=a.code, data=a.data) for a in hosted.alerts),
        body=QuarantinedBody(event_kind=hosted.kind, seq=q.seq, entry=q.entry, problem=q.problem),
        seq=seq,
        digest=hashlib.sha256(json.dumps([hosted.key, list(astuple(q))]).encode()).hexdigest()[:20],
    )


def timeline_entry(record: Record, *, private: bool = False) -> TimelineEntry:
    """One journaled entry as a timeline shows it: its fields without the private ones (a
    sign-up's e-mail, a walk-in's phone, the sign-ups the daemon read: :mod:`clockd.core.private`),
    unless ``private`` (for a token holder)."""
    entry = record.entry
    skip = {"kind", "t_ns", "table", "event"}
    data = entry.model_dump(mode="json", exclude=skip) if private else public_data(entry, exclude=skip)
    return TimelineEntry(
        seq=record.seq,
        table=entry.table,
        event=entry.event,
        kind=entry.kind,
        t_ms=ns_to_ms(entry.t_ns),
        data=data,
    )
