"""A round's pairing list to post on the wall: boards with names and points, the bye, who sits out.

The pairing file the engines write (``swiss pair -p``) holds start numbers only, which is
what programs read. Players read names: at 09:30 the referee posts the round-1 pairings of
every group (RULES.md §H), and before every round after that. The list gives, per board,
each player's start number, name and score before the round (white first), then the player
with the pairing-allocated bye and those not paired in this round (an absence entered in
advance: ``H``/``Z``/``F``, or withdrawn).

Headings speak Polish unless ``DUELCLOCK_LANG=en``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from clockd import i18n
from clockd.core.swiss.model import Tournament
from clockd.core.swiss.standings import score_text
from clockd.i18n import language


def _title(tournament: Tournament, round_number: int) -> str:
    name = tournament.name or i18n.text("report.pairing-list.tournament")
    return i18n.text("report.pairing-list.round-pairings", name=name, round_number=round_number)


def _sitting_out(tournament: Tournament, round_number: int, paired: set[int]) -> list[str]:
    out = []
    for p in tournament.players:
        if p.start_number in paired:
            continue
        code = p.entry(round_number).code.value.strip()
        out.append(f"{p.start_number} {p.name}" + (f" ({code})" if code else ""))
    return out


def pairing_list_text(
    tournament: Tournament, round_number: int, boards: Sequence[tuple[int, int]], bye: int | None
) -> str:
    """The list as plain text, one board a line, for a terminal or a quick print."""
    before = round_number - 1

    def side(sn: int) -> tuple[str, str]:
        p = tournament[sn]
        return f"{sn:>4} {p.name}", score_text(p.score(before))

    rows = [(str(i), *side(w), *side(b)) for i, (w, b) in enumerate(boards, start=1)]
    width = max((len(r[1]) for r in rows), default=10)
    lines = [_title(tournament, round_number), ""]
    heads = (
        i18n.text("report.pairing-list.board"),
        i18n.text("report.pairing-list.white"),
        i18n.text("report.pairing-list.black"),
    )
    lines.append(f"{heads[0]:>6}  {heads[1]:<{width}}  {'':>4}   {'':<4}  {heads[2]}")
    for board, white, ws, black, bs in rows:
        lines.append(f"{board:>6}  {white:<{width}}  {ws:>4} – {bs:<4}  {black}")
    paired = {sn for pair in boards for sn in pair}
    if bye is not None:
        paired.add(bye)
        lines += ["", i18n.text("report.pairing-list.bye") + f"{bye} {tournament[bye].name}"]
    sitting = _sitting_out(tournament, round_number, paired)
    if sitting:
        lines += ["", i18n.text("report.pairing-list.not-playing-this-round") + ", ".join(sitting)]
    return "\n".join(lines) + "\n"


def pairing_list_html(
    tournament: Tournament, round_number: int, boards: Sequence[tuple[int, int]], bye: int | None
) -> str:
    """The list as a printable HTML page (large type: it is read from a step away)."""
    before = round_number - 1
    body = []
    for i, (w, b) in enumerate(boards, start=1):
        white, black = tournament[w], tournament[b]
        body.append(
            f"<tr><td>{i}</td><td>{w}</td><td class=name>{escape(white.name)}</td>"
            f"<td>{score_text(white.score(before))}</td><td>–</td><td>{score_text(black.score(before))}</td>"
            f"<td class=name>{escape(black.name)}</td><td>{b}</td></tr>"
        )
    paired = {sn for pair in boards for sn in pair}
    notes = []
    if bye is not None:
        paired.add(bye)
        notes.append(i18n.text("report.pairing-list.bye") + f"{bye} {tournament[bye].name}")
    sitting = _sitting_out(tournament, round_number, paired)
    if sitting:
        notes.append(i18n.text("report.pairing-list.not-playing-this-round") + ", ".join(sitting))
    heads = [
        i18n.text("report.pairing-list.board"),
        i18n.text("report.pairing-list.no"),
        i18n.text("report.pairing-list.white"),
        i18n.text("report.pairing-list.pts"),
        "",
        i18n.text("report.pairing-list.pts"),
        i18n.text("report.pairing-list.black"),
        i18n.text("report.pairing-list.no"),
    ]
    title = escape(_title(tournament, round_number))
    return (
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n"
        "<style>body{font-family:sans-serif;font-size:14pt}table{border-collapse:collapse}"
        "th,td{border:1px solid #999;padding:3px 8px;text-align:right}td.name{text-align:left}"
        "@media print{body{font-size:12pt}}</style>\n"
        f"</head>\n<body>\n<h1>{title}</h1>\n<table>\n<thead><tr>"
        + "".join(f"<th>{escape(h)}</th>" for h in heads)
        + "</tr></thead>\n<tbody>\n"
        + "\n".join(body)
        + "\n</tbody>\n</table>\n"
        + "".join(f"<p>{escape(n)}</p>\n" for n in notes)
        + "</body>\n</html>\n"
    )
