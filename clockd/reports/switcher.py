"""The S(witcher) rotation's results: the sheet to print (HTML, and through it PDF) and a CSV.

The rotation ranks nobody: every puzzle is done when the last table finishes (§6.2.4), and
what the organiser needs on paper is **who sat from the start to the end without a break**
— they get the extra prize (§6.2.7) — beside when each table finished and every replacement
(who left, who came, when, at which table: §6.2.5). Built from the daemon's results file
(``event-results`` of a ``switcher`` event: :class:`SwitcherResults`). Public names only, as
the referee typed them: the sheet goes on the wall.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Literal

from pydantic import BaseModel, ConfigDict

from clockd.i18n import msg, render, text


class StayedRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    name: str


class ReplacementRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    left: str | None
    came: str | None
    elapsed_ms: int
    rotation: int
    table: int
    reason: str = ""


class TableRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    table: int
    done_ms: int | None = None
    station: int | None = None


class SwitcherResults(BaseModel):
    """A ``switcher`` event's results file, as the daemon writes it."""

    model_config = ConfigDict(frozen=True)

    format: Literal["duelclock-switcher-results/1"] = "duelclock-switcher-results/1"
    event: str
    kind: Literal["switcher"] = "switcher"
    title: str
    phase: str
    rotations: int
    elapsed_ms: int
    stayed: list[StayedRow]
    replacements: list[ReplacementRow]
    tables: list[TableRow]


TH = '<th bgcolor="#37474f" style="color:#ffffff; padding:3px 5px">{}</th>'
TD = '<td style="padding:3px 5px">{}</td>'


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(TH.format(escape(h)) for h in head)
    body = "".join("<tr>" + "".join(TD.format(escape(c)) for c in row) + "</tr>" for row in rows)
    table = '<table width="100%" cellspacing="0" border="1" style="border-collapse:collapse">'
    return f"{table}<tr>{th}</tr>{body}</table>"


def switcher_html(results: SwitcherResults) -> str:
    """The sheet to print: the "from start to end" list first (the prize), then the tables'
    completions in order, then the replacements."""
    ended = results.phase == "ended"
    state = text("report.switcher.final") if ended else text("report.switcher.provisional")
    played = render(msg("report.switcher.played", elapsed_ms=results.elapsed_ms, n=results.rotations))
    stayed = (
        _table(
            [text("report.switcher.seat"), text("report.switcher.name")],
            [[str(r.seat), r.name] for r in results.stayed],
        )
        if results.stayed
        else f"<p>{escape(text('report.switcher.nobody-stayed'))}</p>"
    )
    done = sorted((t for t in results.tables if t.done_ms is not None), key=lambda t: (t.done_ms, t.table))
    waiting = [t for t in results.tables if t.done_ms is None]
    tables = _table(
        [text("report.switcher.order"), text("report.switcher.table"), text("report.switcher.done-at")],
        [
            [str(i), str(t.table), render(msg("report.switcher.done-value", done_ms=t.done_ms))]
            for i, t in enumerate(done, start=1)
        ]
        + [["—", str(t.table), text("report.switcher.not-done")] for t in waiting],
    )
    replacements = (
        _table(
            [
                text("report.switcher.seat"),
                text("report.switcher.left"),
                text("report.switcher.came"),
                text("report.switcher.when"),
                text("report.switcher.table"),
            ],
            [
                [
                    str(r.seat),
                    r.left or "—",
                    r.came or "—",
                    render(msg("report.switcher.when-value", elapsed_ms=r.elapsed_ms, rotation=r.rotation)),
                    str(r.table),
                ]
                for r in results.replacements
            ],
        )
        if results.replacements
        else f"<p>{escape(text('report.switcher.no-replacements'))}</p>"
    )
    return (
        "<html><head><meta charset='utf-8'>"
        f"<title>{escape(results.title)}</title></head><body style='font-family:DejaVu Sans, sans-serif'>"
        f"<h1>{escape(results.title)}</h1>"
        f"<p>{escape(text('term.event-kind.switcher'))} · {escape(played)} — <b>{escape(state)}</b></p>"
        f"<h2>{escape(text('report.switcher.stayed-title'))}</h2>{stayed}"
        f"<h2>{escape(text('report.switcher.tables-title'))}</h2>{tables}"
        f"<h2>{escape(text('report.switcher.replacements-title'))}</h2>{replacements}"
        "</body></html>"
    )


def switcher_csv(results: SwitcherResults) -> str:
    """The "from start to end" list for a spreadsheet: seat number and name (every cell safe)."""
    from clockd.core.csvtext import spreadsheet_cell

    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["seat", "name"])
    for r in results.stayed:
        writer.writerow([spreadsheet_cell(str(r.seat)), spreadsheet_cell(r.name)])
    return out.getvalue()


__all__ = ["SwitcherResults", "switcher_csv", "switcher_html"]
