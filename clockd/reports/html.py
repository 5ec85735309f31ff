"""The bracket as a printable HTML page (and, through ``clockd/reports/render.py``, PDF and PNG).

The page uses only what both a browser and Qt's rich-text engine (``QTextDocument``)
render: tables with ``rowspan``, ``bgcolor`` and a little inline CSS. So one HTML text
prints from a browser and becomes a PDF or PNG offscreen, with no web engine.

Layout: one column per knockout round, each match a small box beside the two it comes
from; the final column also holds the 3rd-place duel. Below: the podium, every match with
its times, moves and how it was decided, and the referee's decisions with their reasons.
Winners are green; in the final and the 3rd-place duel the champion is gold, second
silver, third bronze (:data:`COLORS`), as in the podium table.
Headings speak Polish unless ``DUELCLOCK_LANG=en``.
"""

from __future__ import annotations

from html import escape

from clockd.core.bracket import DecidedBy, MatchStatus
from clockd.core.display import format_delta_ms
from clockd.core.tournament import RoundKind
from clockd.i18n import text
from clockd.reports.results import ResultMatch, Results

COLORS = {
    "winner": "#c8e6c9",
    "gold": "#ffd54f",
    "silver": "#cfd8dc",
    "bronze": "#ffcc80",
    "box": "#ffffff",
    "head": "#37474f",
}


def decided_by_text(by: DecidedBy | None) -> str:
    """How a match was decided, in the reader's language: the core's term (``term.decided-by.*``)."""
    return "" if by is None else text(f"term.decided-by.{by.value}")


def _name(results: Results, pid: int | None, bye: bool) -> str:
    if pid is None:
        return f"<i>{text('term.bye')}</i>" if bye else "&nbsp;"
    return escape(results.player_name(pid))


def _small(content: str, pt: float = 7, *, bold: bool = False) -> str:
    """Text at ``pt`` points: Qt's rich text applies a size reliably on a span, not on a cell."""
    weight = "; font-weight:bold" if bold else ""
    return f'<span style="font-size:{pt}pt{weight}">{content}</span>'


def _box(results: Results, m: ResultMatch, *, highlight: dict[int, str]) -> str:
    """One match as two lines (a name and its time each) beside its id and table, and a small
    line for what else decided it (a tie-break, the referee, a walkover, a penalty): compact,
    so that a bracket of 16 fits one A4 landscape page."""
    table = f"<br>{text('report.html.table-2')} {m.table}" if m.table is not None else ""
    label = (
        f'<td rowspan="2" width="13%" valign="middle" style="color:#607d8b">'
        f"{_small(escape(m.id) + table, 5.5)}</td>"
    )
    rows = []
    bye_side = None
    if m.decided_by is DecidedBy.BYE:
        bye_side = "a" if m.a is None else "b"
    for side, pid in (("a", m.a), ("b", m.b)):
        color = COLORS["box"]
        if pid is not None and pid in highlight:
            color = highlight[pid]
        elif pid is not None and pid == m.winner:
            color = COLORS["winner"]
        time = ""
        if m.displayed is not None:
            time = m.displayed.a if side == "a" else m.displayed.b
        won = pid is not None and pid == m.winner
        name = _small(_name(results, pid, bye_side == side), bold=won)
        rows.append(  # a time never wraps ("14:5" / "0"): its cell is as wide as it needs
            f'<tr>{label if side == "a" else ""}<td bgcolor="{color}" width="70%">{name}</td>'
            f'<td bgcolor="{color}" align="right" nowrap width="17%">{_small(escape(time))}</td></tr>'
        )
    notes = []
    for tb in (t for t in results.matches if t.tiebreak_of == m.id):
        if tb.displayed is not None:
            notes.append(
                f"{text('term.decided-by.tiebreak')} {escape(tb.displayed.a)} – {escape(tb.displayed.b)}"
            )
    if m.decided_by in (DecidedBy.REFEREE, DecidedBy.WALKOVER):
        notes.append(decided_by_text(m.decided_by))
    for adj in (a for a in m.adjustments if not a.undone):  # a penalty is part of the result
        who = escape(results.player_name(adj.player))
        notes.append(f"{text('report.html.adjusted')} {who} {format_delta_ms(adj.delta_ms)}")
    if notes:
        rows.append(f'<tr><td colspan="3">{_small("; ".join(notes), 5.5)}</td></tr>')
    return '<table border="1" cellspacing="0" cellpadding="1" width="100%">' + "".join(rows) + "</table>"


def bracket_html(results: Results) -> str:
    """The whole printable page for ``results``."""
    roots = [m for m in results.matches if m.tiebreak_of is None]
    final = next(m for m in roots if m.kind is RoundKind.FINAL)
    third = next((m for m in roots if m.kind is RoundKind.THIRD_PLACE), None)
    knockout = sorted({m.round for m in roots if m.kind is RoundKind.KNOCKOUT})
    by_round = {r: sorted((m for m in roots if m.round == r), key=lambda m: _slot(m.id)) for r in knockout}
    lines = 2 * len(by_round[knockout[0]]) if knockout else 1

    podium = results.podium + [None] * (3 - len(results.podium))
    highlight = {
        pid: color
        for pid, color in zip(podium, (COLORS["gold"], COLORS["silver"], COLORS["bronze"]), strict=True)
        if pid is not None
    }
    names = {r: by_round[r][0].round_name for r in knockout}

    out = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{escape(results.tournament)}</title>",
        "<style>body { font-family: sans-serif; font-size: 10pt } "
        "h1 { font-size: 14pt; margin: 0 } h2 { font-size: 12pt } "
        ".bracket { font-size: 8pt } "
        "@page { size: A4 landscape; margin: 10mm }</style>",
        "</head><body>",
        f"<h1>{escape(results.tournament)}{' — ' + escape(results.session) if results.session else ''}</h1>",
    ]
    # -- the bracket ------------------------------------------------------------------------
    heads = [names[r] for r in knockout] + [final.round_name]
    col_width = 100 // len(heads)
    # compact, so that a bracket of 16 (byes, tie-breaks, penalties) stays on one A4 landscape
    # page; what follows starts on the next page (the printout's page 1 is the bracket)
    out.append('<table class="bracket" cellspacing="3" cellpadding="0" width="100%">')
    out.append(
        "<tr>"
        + "".join(
            f'<th bgcolor="{COLORS["head"]}" style="color:#ffffff" width="{col_width}%">{escape(h)}</th>'
            for h in heads
        )
        + "</tr>"
    )
    for row in range(lines):
        cells = []
        for c, r in enumerate(knockout):
            span = 2 ** (c + 1)
            if row % span == 0:
                m = by_round[r][row // span]
                cells.append(f'<td rowspan="{span}" valign="middle">{_box(results, m, highlight={})}</td>')
        if row == 0:
            parts = [_box(results, final, highlight=highlight)]
            if third is not None:
                parts.append(f"<p><b>{escape(third.round_name)}</b></p>")
                parts.append(_box(results, third, highlight=highlight))
            cells.append(f'<td rowspan="{lines}" valign="middle">{"".join(parts)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    out.append('<p style="page-break-after: always; margin: 0"></p>')

    # -- podium ---------------------------------------------------------------------------------
    out.append(f"<h2>{text('report.html.podium')}</h2>")
    out.append('<table border="1" cellspacing="0" cellpadding="4">')
    for place, (pid, color) in enumerate(
        zip(podium, (COLORS["gold"], COLORS["silver"], COLORS["bronze"]), strict=True), start=1
    ):
        who = escape(results.player_name(pid)) if pid is not None else "—"
        title = f" — {text('report.html.duel-champion')}" if place == 1 and pid is not None else ""
        out.append(
            f'<tr><td bgcolor="{color}"><b>{place}.</b></td><td bgcolor="{color}">{who}{title}</td></tr>'
        )
    out.append("</table>")

    # -- every match ------------------------------------------------------------------------
    columns = [
        text("report.html.match"),
        text("report.html.round"),
        text("report.html.table"),
        "A",
        "B",
        text("report.html.time-a"),
        text("report.html.time-b"),
        text("report.html.moves"),
        text("report.html.winner"),
        text("report.html.decided-by"),
    ]
    out.append(f"<h2>{text('report.html.matches')}</h2>")
    out.append('<table border="1" cellspacing="0" cellpadding="2" width="100%">')
    out.append("<tr>" + "".join(f"<th>{_small(h, 8, bold=True)}</th>" for h in columns) + "</tr>")
    for m in results.matches:
        if m.status is MatchStatus.CANCELLED and m.displayed is None:
            continue
        bye = m.decided_by is DecidedBy.BYE
        fields = [
            escape(m.id)
            + (f" ({text('term.decided-by.tiebreak')} {escape(m.tiebreak_of)})" if m.tiebreak_of else ""),
            escape(m.round_name),
            str(m.table) if m.table is not None else "",
            _name(results, m.a, bye),
            _name(results, m.b, bye),
            escape(m.displayed.a) if m.displayed else "",
            escape(m.displayed.b) if m.displayed else "",
            f"{m.moves.a}–{m.moves.b}" if m.moves else "",
            escape(results.player_name(m.winner)) if m.winner is not None else "",
            decided_by_text(m.decided_by),
        ]
        out.append("<tr>" + "".join(f"<td>{_small(c, 8)}</td>" for c in fields) + "</tr>")
    out.append("</table>")

    # -- the referee's time adjustments ------------------------------------------------------------
    adjusted = [(m, a) for m in results.matches for a in m.adjustments]
    if adjusted:
        out.append(f"<h2>{text('report.html.adjustments')}</h2><ul>")
        for m, a in adjusted:
            who = escape(results.player_name(a.player))
            why = f": {escape(a.reason)}" if a.reason else ""
            undone = f" ({text('report.html.adjustment-undone')})" if a.undone else ""
            out.append(f"<li>{escape(m.id)}: {who} {format_delta_ms(a.delta_ms)}{why}{undone}</li>")
        out.append("</ul>")

    # -- decisions --------------------------------------------------------------------------
    if results.decisions:
        out.append(f"<h2>{text('report.html.referee-decisions')}</h2><ul>")
        for d in results.decisions:
            who = escape(results.player_name(d.winner)) if d.winner is not None else "—"
            cat = f" ({text(f'term.override-category.{d.category}')})" if d.category else ""
            ref = f" — {escape(d.referee)}" if d.referee else ""
            kind = text(f"term.decision.{d.kind}")
            out.append(f"<li>{escape(d.match)}: {kind}{cat}, {who}: {escape(d.reason)}{ref}</li>")
        out.append("</ul>")
    res = results.resolution_ms
    out.append(
        '<p style="font-size:8pt; color:#607d8b">'
        + text("report.html.times-compared-at-ms-rounded-up", res=res)
        + "</p>"
    )
    out.append("</body></html>")
    return "\n".join(out)


def _slot(mid: str) -> int:
    return int(mid.rsplit("-", 1)[1])
