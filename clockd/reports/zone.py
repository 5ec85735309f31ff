"""A zone contest's results: the file (JSON), the spreadsheet (CSV) and the printout (HTML).

One :class:`ZoneResults` per event — the relay, blind puzzling, the team event — built from
the daemon's state (:func:`zone_results`) and written as JSON (``duelclock event export
--json``), CSV (every cell made safe for a spreadsheet) or a printable HTML page with places
1–3 marked gold, silver and bronze (§3.2.13, §4.2.17, §5.2.11). Public names only: the
printout goes on the wall.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.display import format_exact_ms
from clockd.core.zone import ZoneEvent
from clockd.i18n import text

MEDALS = {1: "#ffd54f", 2: "#cfd8dc", 3: "#ffcc80"}


class ZoneResultRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    place: int | None
    id: str
    name: str
    table: int | None
    finished: bool
    time_ms: int | None
    split_ms: int | None
    pieces: int | None
    missing: int
    classified: bool
    why: Literal["void", "missing", "late"] | None = None
    reason: str | None = None
    podium: bool = False
    per_picture: list[int] = Field(default_factory=list)  # the relay: each picture's count


class ZoneResults(BaseModel):
    """An event's results file (``kind``: relay, blind, team)."""

    model_config = ConfigDict(frozen=True)

    format: Literal["duelclock-zone-results/1"] = "duelclock-zone-results/1"
    event: str
    kind: str
    title: str
    lang: str
    phase: str
    confirmed: bool
    duration_ms: int | None
    ended_at_ms: int | None  # event time when it ended
    pieces: int | None
    #: Pictures per entry (the relay: 2), each of ``pieces``: the header says "2 × 200".
    pictures: int = 1
    splits: bool
    max_missing: int | None
    ranking: list[ZoneResultRow]

    def podium(self) -> list[ZoneResultRow]:
        return [r for r in self.ranking if r.podium]


def build_zone_results(event: ZoneEvent, *, title: str, key: str, lang: str) -> ZoneResults:
    rows = []
    for r in event.ranking():
        rows.append(
            ZoneResultRow(
                place=r.place,
                id=r.id,
                name=event.name_of(r.id),
                table=event.table_of(r.id),
                finished=r.finished,
                time_ms=r.time_ms,
                split_ms=r.split_ms,
                pieces=r.pieces,
                missing=r.missing,
                classified=r.classified,
                why=r.why,
                reason=r.reason,
                podium=r.place is not None and r.place <= 3,
                per_picture=list(event.record(r.id).per_picture),
            )
        )
    timer = event.timer
    return ZoneResults(
        event=key,
        kind=event.kind,
        title=title,
        lang=lang,
        phase=timer.phase.value,
        confirmed=event.confirmed,
        duration_ms=None if timer.duration_ns is None else timer.duration_ns // 1_000_000,
        ended_at_ms=None if timer.ended_at_ns is None else timer.run_ns // 1_000_000,
        pieces=event.config.pieces,
        pictures=event.config.pictures,
        splits=event.splits,
        max_missing=event.max_missing,
        ranking=rows,
    )


def zone_results(event: ZoneEvent, *, title: str, key: str, lang: str) -> dict[str, Any]:
    return build_zone_results(event, title=title, key=key, lang=lang).model_dump(mode="json")


def _time(ms: int | None) -> str:
    return "" if ms is None else format_exact_ms(ms)


def _status(row: ZoneResultRow) -> str:
    if row.why is not None:
        note = {
            "void": text("report.zone.why-void"),
            "missing": text("report.zone.why-missing"),
            "late": text("report.zone.why-late"),
        }[row.why]
        return f"{note}: {row.reason}" if row.reason else note
    if row.finished:
        return text("report.zone.finished")
    if row.pieces is not None:
        return text("report.zone.counted")
    return text("report.zone.not-counted")


#: The ranking rule each contest's sheet states under the table (its own, never another's).
RULES = {
    "relay": "report.zone.rules-relay",
    "blind": "report.zone.rules-blind",
    "team": "report.zone.rules-team",
}


def _words(name: str) -> str:
    """``name`` for a table cell that may wrap between its words but never inside one (a narrow
    column broke "Grzegorzewski" into "Grzegorzew" / "ski"): each word held together."""
    return " ".join(f'<span style="white-space:nowrap">{escape(w)}</span>' for w in name.split())


def zone_csv(results: ZoneResults) -> str:
    """One row per entry, in ranking order; every cell safe for a spreadsheet."""
    from clockd.core.csvtext import spreadsheet_cell

    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    header = ["place", "id", "name", "table", "finished", "time_ms", "time"]
    if results.splits:
        header += ["split_ms", "split"]
    header += ["pieces", "missing", "classified", "note"]
    writer.writerow(header)
    for r in results.ranking:
        cells: list[Any] = [
            "" if r.place is None else r.place,
            r.id,
            r.name,
            "" if r.table is None else r.table,
            "1" if r.finished else "0",
            "" if r.time_ms is None else r.time_ms,
            _time(r.time_ms),
        ]
        if results.splits:
            cells += ["" if r.split_ms is None else r.split_ms, _time(r.split_ms)]
        cells += [
            "" if r.pieces is None else r.pieces,
            r.missing,
            "1" if r.classified else "0",
            _status(r) if not r.classified else "",
        ]
        writer.writerow([spreadsheet_cell(str(c)) for c in cells])
    return out.getvalue()


def zone_html(results: ZoneResults) -> str:
    """The ranking sheet to print (places 1–3 in gold, silver, bronze; the split for blind
    puzzling; missing pieces for the team event)."""
    team = results.kind == "team"
    head = [text("report.zone.place"), text("report.zone.entry"), text("report.zone.table")]
    head += [text("report.zone.time")]
    if results.splits:
        head.append(text("report.zone.split"))
    head += [text("report.zone.pieces")]
    if team:
        head.append(text("report.zone.missing"))
    head.append(text("report.zone.note"))
    th = "".join(
        f'<th bgcolor="#37474f" style="color:#ffffff; padding:3px 5px">{escape(h)}</th>' for h in head
    )
    lines = []
    for r in results.ranking:
        color = MEDALS.get(r.place or 0, "#ffffff") if r.podium else "#ffffff"
        cells = [
            "—" if r.place is None else str(r.place),
            escape(r.name),
            "" if r.table is None else str(r.table),
            _time(r.time_ms),
        ]
        if results.splits:
            cells.append(_time(r.split_ms))
        pieces = "" if r.pieces is None else str(r.pieces)
        if r.per_picture:
            pieces += " (" + " + ".join(str(n) for n in r.per_picture) + ")"
        cells.append(pieces)
        if team:
            cells.append(str(r.missing) if r.finished else "")
        cells.append(escape(_status(r)))
        tds = "".join(f'<td style="padding:3px 5px">{c}</td>' for c in cells)
        lines.append(f'<tr bgcolor="{color}">{tds}</tr>')
    state = text("report.zone.confirmed") if results.confirmed else text("report.zone.provisional")
    length = "" if results.duration_ms is None else f" · {format_exact_ms(results.duration_ms)[:-4]}"
    times = f"{results.pictures} × " if results.pictures > 1 else ""
    unit = text("report.zone.pieces-unit")
    pieces = "" if results.pieces is None else f" · {times}{results.pieces} {unit}"
    kind = text(f"term.event-kind.{results.kind}")
    rules = text(RULES.get(results.kind, "report.zone.rules"))
    return (
        "<html><head><meta charset='utf-8'>"
        f"<title>{escape(results.title)}</title></head><body style='font-family:DejaVu Sans, sans-serif'>"
        f"<h1>{escape(results.title)}</h1>"
        f"<p>{escape(kind)}{escape(length)}{escape(pieces)} — <b>{escape(state)}</b></p>"
        f'<table width="100%" cellspacing="0" border="1" style="border-collapse:collapse">'
        f"<tr>{th}</tr>{''.join(lines)}</table>"
        f"<p style='font-size:9pt; color:#607d8b'>{escape(rules)}</p>"
        "</body></html>"
    )


__all__ = ["ZoneResultRow", "ZoneResults", "build_zone_results", "zone_csv", "zone_html", "zone_results"]
