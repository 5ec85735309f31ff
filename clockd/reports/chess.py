"""What the school chess hall prints (RULES.md §H): start lists, pairings, standings,
crosstables, prize lists, diplomas and the medal pick-up list, as HTML.

A group's games come from its TRF (:class:`~clockd.core.swiss.model.Tournament`); what a TRF
cannot hold — a player's school and class, the medal paid for — from the day file's
:class:`~clockd.core.chessday.roster.Group`, matched by start number. Either is enough for
the lists that need only it (the medal list needs only the day file).

The HTML uses only what Qt's rich-text engine draws as well as a browser does — tables
with ``<thead>``, ``border``/``cellpadding`` attributes, ``width`` in per cent, a little
CSS, ``page-break-before`` — so that ``clockd/reports/render.py`` turns it into an A4 PDF with no web
engine, and the same file prints from a browser. Qt would split a table row across two
pages, so long lists are cut into pages (:class:`~clockd.reports.chess_page.Flow`), each page a
table with its headings. Scores and results never wrap (``white-space: nowrap`` and non-breaking spaces);
long school names do, inside their column.

Public pages only: display names, schools, classes and ratings. Birth dates and e-mails
are in the day file but never read here, so they cannot leak into a printout (a test holds
every printout to it).

Every builder returns a :class:`Printout`: the HTML and whether it wants a landscape page.
Headings speak Polish unless ``DUELCLOCK_LANG=en``.

This module holds the round-by-round printouts: pairings, result slips, standings,
crosstables, prizes, diplomas and medals. Apart, and re-exported here where the CLI and the
tests find them: the common ground of every printout (:mod:`clockd.reports.chess_page`)
and the start list with its copy and its corrections (:mod:`clockd.reports.chess_start_list`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape

from clockd.core.chessday.roster import ChessDay, Group
from clockd.core.swiss.model import Code, Colour, RoundEntry, Tournament
from clockd.core.swiss.standings import (
    DEFAULT_ORDER,
    Standings,
    score_text,
    standings,
)
from clockd.core.swiss.startlist import polish_key
from clockd.i18n import language, render, text
from clockd.reports.chess_page import (
    FONT_PT,
    LANDSCAPE,
    LINE_HEIGHT,
    MM_PER_PT,
    PAGE_CSS,
    PORTRAIT,
    Flow,
    Heading,
    Person,
    Printout,
    date_text,
    group_title,
    heading,
    number_text,
    page_html,
    people,
    table_html,
    wrapped_lines,
)
from clockd.reports.chess_start_list import (
    COPY_FORMAT,
    COPY_KIND,
    Changes,
    Correction,
    Listed,
    compare_start_lists,
    listed,
    read_start_list_copy,
    start_list,
    start_list_copy,
)

#: Places that get a cup, a medal and a diploma (§H "Nagrody").
PRIZE_PLACES = 3


# -- pairings ----------------------------------------------------------------------------------


def board_order(
    tournament: Tournament, round_number: int, boards: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Boards in FIDE order, as the pairing engine numbers them: the higher score of the
    pair first, then the lower, then the higher-ranked player's start number. (A TRF keeps
    no board numbers; a recorded round is put back in the order it was posted in.)"""
    before = round_number - 1
    rank = {sn: i for i, sn in enumerate(tournament.start_numbers)}
    score = {p.start_number: p.score(before) for p in tournament.players}

    def key(board: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
        w, b = board
        hi, lo = (w, b) if (score[w], -rank[w]) >= (score[b], -rank[b]) else (b, w)
        return (-score[hi], -score[lo], rank[hi])

    return sorted(boards, key=key)


def recorded_round(tournament: Tournament, round_number: int) -> tuple[list[tuple[int, int]], int | None]:
    """A recorded round's boards (white, black) in board order, and the pairing-allocated bye."""
    pairings, bye = tournament.pairings(round_number)
    return board_order(tournament, round_number, ((p.white, p.black) for p in pairings)), bye


_RESULT = {
    Code.WIN: "1",
    Code.UNRATED_WIN: "1",
    Code.DRAW: "½",
    Code.UNRATED_DRAW: "½",
    Code.LOSS: "0",
    Code.UNRATED_LOSS: "0",
    Code.FORFEIT_WIN: "+",
    Code.FORFEIT_LOSS: "−",
}


def _board_result(tournament: Tournament, round_number: int, white: int) -> str:
    """``1–0``, ``½–½``, ``0–0`` (no reported result), ``+–−`` …; empty if not recorded yet."""
    entry = tournament[white].entry(round_number)
    if entry.opponent is None:
        return ""
    black = tournament[entry.opponent].entry(round_number)
    a, b = _RESULT.get(entry.code), _RESULT.get(black.code)
    return f"{a}–{b}" if a and b else ""


def _bye_text(entry: RoundEntry) -> str:
    codes = {
        Code.PAIRING_BYE: "report.chess.bye.pairing",
        Code.FULL_BYE: "report.chess.bye.full",
        Code.HALF_BYE: "report.chess.bye.half",
        Code.ZERO_BYE: "report.chess.bye.zero",
        Code.FORFEIT_LOSS: "report.chess.bye.absent",
        Code.DRAW: "report.chess.bye.half",
    }
    return text(codes.get(entry.code, "report.chess.bye.not-paired"))


def _withdrawn_in(tournament: Tournament, round_number: int) -> set[int]:
    """The players a file shows withdrawn at ``round_number``: absent with no points in it and
    in every round after it that the file has (at least one: a last round's absence alone is
    an absence)."""
    last = tournament.total_rounds or tournament.rounds_played
    if last <= round_number:
        return set()
    return {
        p.start_number
        for p in tournament.players
        if all(
            p.entry(r).code is Code.ZERO_BYE and p.entry(r).opponent is None
            for r in range(round_number, last + 1)
        )
    }


def _not_playing(
    tournament: Tournament,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    withdrawn: Collection[int] | None,
) -> list[tuple[int, str]]:
    """Who has no board in the round, and why: the bye first, then by start number — a
    withdrawn child as such (``withdrawn``: the group's; ``None``: read off the file), the
    others by their entry in the round (absent, a half-point bye …)."""
    paired = {sn for pair in boards for sn in pair}
    out = []
    if bye is not None:
        paired.add(bye)
        out.append((bye, text("report.chess.bye.pairing")))
    gone = set(withdrawn) if withdrawn is not None else _withdrawn_in(tournament, round_number)
    for p in tournament.players:
        if p.start_number in paired:
            continue
        if p.start_number in gone:
            out.append(
                (
                    p.start_number,
                    text("report.chess.withdrawn-w" if p.sex == "w" else "report.chess.withdrawn"),
                )
            )
        else:
            out.append((p.start_number, _bye_text(p.entry(round_number))))
    return out


def pairings(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    *,
    first_board: int = 1,
    withdrawn: Collection[int] | None = None,
) -> Printout:
    """A round's pairings by board, numbered across the hall from ``first_board``: White's
    name, school and points, the result (empty until entered), Black's; the bye and the
    players not paired in this round below, a withdrawn one as such (``withdrawn``: the
    group's; ``None``: read off the file — absent in this round and every later one)."""
    before = round_number - 1

    def player(sn: int) -> tuple[str, str]:
        """Name and start number, the school below in small type: one column a side keeps a
        board on two or three lines, and a long school name wraps in the whole width."""
        p = persons[sn]
        school = f'<br><span class="school">{escape(p.school)}</span>' if p.school else ""
        return escape(p.name) + f'&nbsp;<span style="color:#666666">({sn})</span>' + school, "name"

    def points(sn: int) -> tuple[str, str]:
        return score_text(tournament[sn].score(before)), "c"

    rows = []
    for i, (w, b) in enumerate(boards):
        result = _board_result(tournament, round_number, w)
        rows.append(
            [
                (str(first_board + i), "n"),
                player(w),
                points(w),
                (result or "&nbsp;", "c"),
                points(b),
                player(b),
            ]
        )
    pts = text("report.chess.pts")
    heads = [
        (text("report.chess.board"), "n", 11),
        (text("report.chess.white"), "", 35),
        (pts, "c", 5),
        (text("report.chess.result"), "c", 9),
        (pts, "c", 5),
        (text("report.chess.black"), "", 35),
    ]
    flow = Flow(PORTRAIT)
    body = flow.table(heads, rows)
    out = _not_playing(tournament, round_number, boards, bye, withdrawn)
    if out:
        body += flow.heading(text("report.chess.not-playing"))
        body += flow.table(
            [
                (text("report.chess.no"), "n", 7),
                (text("report.chess.player"), "", 54),
                (text("report.chess.pts"), "c", 9),
                ("", "", 30),
            ],
            [[(str(sn), "n"), player(sn), points(sn), (escape(why), "")] for sn, why in out],
        )
    boards_note = (
        text("report.chess.boards-range", first=first_board, last=first_board + len(boards) - 1)
        if boards
        else ""
    )
    title = head.title("report.chess.pairings", round_number=round_number)
    return Printout(page_html(title, head.subtitle(boards_note), body))


def _surname_first(tournament: Tournament, sn: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """A player's place in the alphabetical list: surname, then first name, in Polish order
    (``Łukasik`` after ``Lis``, ``Śliwa`` after ``Sowa``); a TRF name without a comma as it is."""
    surname, _, first = tournament[sn].name.partition(",")
    return polish_key(surname.strip()), polish_key(first.strip())


def by_name(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    *,
    first_board: int = 1,
    withdrawn: Collection[int] | None = None,
) -> Printout:
    """The round's pairings by name, for the wall beside the board order: every player of the
    group in Polish alphabetical order of surname, with the board and the colour — a child
    finds their name, not their board among fifty. The bye, the absent and the withdrawn are
    in the list too, with why they do not play. Boards numbered as :func:`pairings` numbers
    them."""
    where: dict[int, tuple[str, str]] = {}
    for i, (w, b) in enumerate(boards):
        board = f"<b>{first_board + i}</b>"
        where[w] = board, f"<b>{escape(text('report.chess.plays-white'))}</b>"
        where[b] = board, escape(text("report.chess.plays-black"))
    for sn, why in _not_playing(tournament, round_number, boards, bye, withdrawn):
        where[sn] = "—", escape(why)
    rows = []
    for sn in sorted(persons, key=lambda sn: (_surname_first(tournament, sn), sn)):
        p = persons[sn]
        board, colour = where.get(sn, ("—", escape(text("report.chess.bye.not-paired"))))
        name = escape(p.name) + f'&nbsp;<span style="color:#666666">({sn})</span>'
        rows.append([(name, "name"), (escape(p.school), "school"), (board, "c"), (colour, "")])
    # the school in a column of its own: most rows stay one line, the list a page or two
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.player"), "", 33),
        (text("report.chess.school"), "", 38),
        (text("report.chess.board"), "c", 13),
        (text("report.chess.colour"), "", 16),
    ]
    body = table_html(heads, rows, used_mm=30.0)  # room for a long group's title on two lines
    title = head.title("report.chess.by-name", round_number=round_number)
    return Printout(page_html(title, head.subtitle(text("report.chess.by-name-help")), body))


#: Result slips on one A4 page, with a cut line between them.
SLIPS_PER_PAGE = 4
_CUT = "✂" + " -" * 88


def result_slips(
    tournament: Tournament,
    persons: Mapping[int, Person],
    head: Heading,
    round_number: int,
    boards: Sequence[tuple[int, int]],
    *,
    first_board: int = 1,
) -> Printout:
    """One slip per board to put on the table (group, round, board, White, Black, a box for
    the result, both players' signatures), :data:`SLIPS_PER_PAGE` to an A4 page with cut
    lines between them. The bye plays no game and gets no slip. Numbered as
    :func:`pairings` numbers the boards, so slip, wall and desk say the same board."""
    rnd = text("report.chess.slip.round", round=round_number)
    white, black = text("report.chess.white"), text("report.chess.black")

    def side(label: str, sn: int) -> str:
        p = persons[sn]
        school = f'<br><span class="school">{escape(p.school)}</span>' if p.school else ""
        return (
            f'<td width="50%"><span class="slip">{escape(label)}: <b>{escape(p.name)}</b>'
            f"&nbsp;({sn})</span>{school}</td>"
        )

    def small(code: str) -> str:
        return f'<span class="school">{escape(text(code))}</span>'

    slips = []
    for i, (w, b) in enumerate(boards):
        board = text("report.chess.slip.board", board=first_board + i)
        brk = ' style="page-break-before:always"' if i and i % SLIPS_PER_PAGE == 0 else ""
        cut = f'<p class="cut">{_CUT}</p>\n' if i % SLIPS_PER_PAGE else ""
        results = "&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;".join(f"<b>{r}</b>" for r in ("1–0", "½–½", "0–1"))
        slips.append(
            f"<div{brk}>{cut}"
            '<table border="1" cellspacing="0" cellpadding="4" width="100%">'
            f'<tr><td colspan="2"><span class="slip">{escape(head.group)} · {escape(rnd)} · </span>'
            f'<span class="board">{escape(board)}</span></td></tr>'
            f"<tr>{side(white, w)}{side(black, b)}</tr>"
            f'<tr><td><span class="slip">{escape(text("report.chess.slip.result"))}'
            f"&nbsp;&nbsp;&nbsp;&nbsp;{results}</span></td>"
            f"<td>{small('report.chess.slip.box')}</td></tr>"
            f"<tr><td>{small('report.chess.slip.sign-white')}<br><br><br></td>"
            f"<td>{small('report.chess.slip.sign-black')}<br><br><br></td></tr>"
            f'<tr><td colspan="2">{small("report.chess.slip.return")}</td></tr>'
            "</table></div>\n"
        )
    if not slips:
        slips.append(f"<p>{escape(text('report.chess.slip.none'))}</p>\n")
    title = head.title("report.chess.slips", round_number=round_number)
    css = PAGE_CSS + (
        "span.slip{font-size:9pt}span.board{font-size:12pt;font-weight:bold}"
        "p.cut{white-space:nowrap;color:#777777;font-size:8pt;margin:5pt 0 5pt 0}"
    )
    return Printout(
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        + "".join(slips)
        + "</body>\n</html>\n"
    )


# -- standings ---------------------------------------------------------------------------------

#: The regulations' order (§H "Kolejność miejsc"): points, then these, then lots.
ORDER = DEFAULT_ORDER


def group_standings(
    tournament: Tournament, *, rounds: int | None = None, seed: str | None = None
) -> Standings:
    """The standings in §H's order: points, BH-C1, BH, SB, PS, DE, WIN, BWG, then lots drawn
    with ``seed`` (without one, players tied on everything share a place)."""
    return standings(tournament, order=ORDER, rounds=rounds, lots_seed=seed)


def _seed_note(table: Standings) -> str:
    if table.lots_seed is not None:
        return text("report.chess.lots-seed", seed=table.lots_seed)
    return text("report.chess.no-lots")


def standings_printout(table: Standings, persons: Mapping[int, Person], head: Heading) -> Printout:
    """The standings with the columns headed by their FIDE acronyms in the regulations'
    order, the lots' seed below (so anyone can draw them again), and what each acronym means."""
    names = [n for n in table.order if n != "LOTS"]
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.place"), "n", 5),
        (text("report.chess.no"), "n", 4),
        (text("report.chess.player"), "", 20 if table.lots_seed is not None else 24),
        (text("report.chess.school"), "", 27),
        (text("report.chess.pts"), "c", 5),
        *((n, "c", 5) for n in names),
    ]
    if table.lots_seed is not None:
        heads.append((text("report.chess.lots"), "c", 4))
    rows = []
    for r in table.rows:
        p = persons[r.start_number]
        top = r.rank <= PRIZE_PLACES  # the prize-giving's places: bold, on gold, silver, bronze
        cells = [
            (f"<b>{r.rank}.</b>", f"top{r.rank}") if top else (f"{r.rank}.", "n"),
            (str(r.start_number), "n"),
            (f"<b>{escape(p.name)}</b>", "name") if top else (escape(p.name), "name"),
            (escape(p.school), "school"),
            (f"<b>{score_text(r.points)}</b>", "c"),
            *((number_text(r.values[n], n), "c") for n in names),
        ]
        if table.lots_seed is not None:
            cells.append((str(int(r.values["LOTS"])), "c"))
        rows.append(cells)
    legend = text("report.chess.legend")
    body = table_html(heads, rows, paper=LANDSCAPE)
    podium = text("report.chess.podium", places=PRIZE_PLACES)
    late = f"<br>{escape(head.late_note())}" if head.late_note() else ""
    body += f'<p class="note">{escape(podium)}<br>{escape(_seed_note(table))}<br>{escape(legend)}{late}</p>\n'
    title = head.title("report.chess.standings", rounds=table.rounds)
    edition = text("report.chess.edition", edition=table.edition.value)
    return Printout(page_html(title, head.subtitle(edition), body), landscape=True)


# -- crosstable --------------------------------------------------------------------------------


def _cell(entry: RoundEntry) -> str:
    """One round of the crosstable: the opponent's start number, the colour, the result
    (``12b½``, ``7w+``); a bye as its letter, an absence as ``–``."""
    if entry.opponent is None:
        if entry.code is Code.NONE:
            return "–"
        return {"U": "+", "F": "+", "H": "½", "Z": "0", "-": "−", "=": "½", "+": "+"}.get(
            entry.code.value, "–"
        )
    colour = ""
    if entry.colour is Colour.WHITE:
        colour = text("report.chess.colour.white")
    elif entry.colour is Colour.BLACK:
        colour = text("report.chess.colour.black")
    return f"{entry.opponent}{colour}&nbsp;{_RESULT.get(entry.code, '?')}"


def crosstable(
    tournament: Tournament, table: Standings, persons: Mapping[int, Person], head: Heading
) -> Printout:
    """Players by start number × rounds: each round's opponent, colour and result; points
    and place. No school column: one line a player keeps the table short and readable
    (the start list has the schools). Landscape: eight rounds and a name need the width."""
    place = {r.start_number: r.rank for r in table.rows}
    rounds = table.rounds
    # Every column gets its width: Qt shares what is left very unevenly otherwise.
    per_round = max(3, min(8, (100 - 4 - 22 - 5 - 5) // max(rounds, 1)))
    heads: list[tuple[str, str, int | None]] = [
        (text("report.chess.no"), "n", 4),
        (text("report.chess.player"), "", 100 - 4 - 5 - 5 - per_round * rounds),
        *((str(r), "c", per_round) for r in range(1, rounds + 1)),
        (text("report.chess.pts"), "c", 5),
        (text("report.chess.place"), "c", 5),
    ]
    rows = []
    for p in tournament.players:
        sn = p.start_number
        rows.append(
            [
                (str(sn), "n"),
                (escape(persons[sn].name), "name"),
                *((_cell(p.entry(r)), "c") for r in range(1, rounds + 1)),
                (f"<b>{score_text(p.score(rounds))}</b>", "c"),
                (f"{place[sn]}.", "c"),
            ]
        )
    body = table_html(heads, rows, paper=LANDSCAPE)
    body += f'<p class="note">{escape(text("report.chess.crosstable-legend"))}</p>\n'
    title = head.title("report.chess.crosstable", rounds=rounds)
    return Printout(page_html(title, head.subtitle(), body), landscape=True)


# -- prizes, diplomas, medals ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One group's final standings with its players, for the day's prize list and diplomas."""

    head: Heading
    table: Standings
    persons: Mapping[int, Person] = field(default_factory=dict)


def prizes(results: Sequence[GroupResult], *, event: str = "", date: str = "") -> Printout:
    """Places 1–3 of every group given (cups, medals, diplomas — §H "Nagrody"): one section
    per group, so one printout serves the ceremony of the whole day. Players sharing a place
    (no lots drawn) are all listed. A group is never split across two pages."""
    body = []
    flow = Flow(PORTRAIT)
    for g in results:
        rows = [
            [
                (f"{r.rank}.", "n"),
                (escape(g.persons[r.start_number].name), "name"),
                (escape(g.persons[r.start_number].school), "school"),
                (score_text(r.points), "c"),
                (escape(text("report.chess.prize.award")), "c"),
            ]
            for r in g.table.rows
            if r.rank <= PRIZE_PLACES
        ]
        if len(results) > 1:  # one group's list has the group in its title
            body.append(flow.heading(g.head.group, keep_mm=45))
        body.append(
            flow.table(
                [
                    (text("report.chess.place"), "n", 7),
                    (text("report.chess.player"), "", 29),
                    (text("report.chess.school"), "", 32),
                    (text("report.chess.pts"), "c", 6),
                    (text("report.chess.prize"), "c", 26),
                ],
                rows,
            )
        )
        if g.table.lots_seed is not None:
            body.append(flow.paragraph(f'<p class="note">{escape(_seed_note(g.table))}</p>\n', 2))
    title = text("report.chess.prizes")
    if len(results) == 1:
        title = results[0].head.title("report.chess.prizes")
    sub = " · ".join(x for x in (event, date_text(date)) if x)
    return Printout(page_html(title, sub, "".join(body)))


def diplomas(result: GroupResult) -> Printout:
    """One A4 page per participant — name, school, group, place — every player may collect
    one (§H). Pages in place order, as the prize-giving calls the children (ties by start
    number)."""
    head = result.head
    rank = {r.start_number: r.rank for r in result.table.rows}
    pages = []
    for i, sn in enumerate(sorted(result.persons, key=lambda sn: (rank.get(sn, len(rank) + 1), sn))):
        p = result.persons[sn]
        brk = ' style="page-break-before:always"' if i else ""
        school = f'<p align="center" style="font-size:16pt">{escape(p.school)}</p>' if p.school else ""
        klass = text("report.chess.diploma.class", school_class=p.school_class) if p.school_class else ""
        klass = f'<p align="center" style="font-size:13pt">{escape(klass)}</p>' if klass else ""
        place = text("report.chess.diploma.place", place=rank[sn])
        in_group = text("report.chess.diploma.group", group=head.group)
        # 30 pt holds some 21 characters on the line; a longer name is set smaller, to stay one line
        name_pt = min(30, 30 * 21 // max(len(p.hall_name), 1))
        pages.append(
            f"<div{brk}>"
            '<p style="font-size:24pt">&nbsp;</p>'
            f'<p align="center" style="font-size:44pt;font-weight:bold;letter-spacing:4pt">'
            f"{escape(text('report.chess.diploma.title'))}</p>"
            f'<p align="center" style="font-size:15pt">{escape(text("report.chess.diploma.for"))}</p>'
            f'<p align="center" style="font-size:{name_pt}pt;font-weight:bold">{escape(p.hall_name)}</p>'
            f"{school}{klass}"
            '<p style="font-size:14pt">&nbsp;</p>'
            f'<p align="center" style="font-size:20pt">{escape(place)}</p>'
            f'<p align="center" style="font-size:16pt">{escape(in_group)}</p>'
            '<p style="font-size:14pt">&nbsp;</p>'
            f'<p align="center" style="font-size:16pt;font-weight:bold">{escape(head.event)}</p>'
            f'<p align="center" style="font-size:13pt">{escape(head.date)}</p>'
            '<p style="font-size:40pt">&nbsp;</p>'
            '<table width="100%" cellspacing="0" cellpadding="0"><tr>'
            f'<td width="45%" align="center" style="font-size:11pt">……………………………<br>'
            f'{escape(text("report.chess.diploma.chief-arbiter"))}</td><td width="10%"></td>'
            f'<td width="45%" align="center" style="font-size:11pt">……………………………<br>'
            f"{escape(text('report.chess.diploma.organiser'))}</td></tr></table>"
            "</div>\n"
        )
    title = head.title("report.chess.diplomas")
    return Printout(
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{PAGE_CSS}</style>\n</head>\n<body>\n"
        + "".join(pages)
        + "</body>\n</html>\n"
    )


def medals(day: ChessDay, groups: Sequence[Group] | None = None) -> Printout:
    """The medal pick-up list: everyone who paid 50 zł with the medal, by group (the day's
    order) and name (Polish alphabetical order), with a column to tick when it is collected."""
    chosen = list(groups) if groups is not None else list(day.groups)
    body = []
    total = 0
    flow = Flow(PORTRAIT)
    for g in chosen:
        who = sorted(
            (e for e in g.entrants if e.medal),
            key=lambda e: (polish_key(e.surname), polish_key(e.first_name)),
        )
        if not who:
            continue
        total += len(who)
        body.append(flow.heading(f"{render(group_title(g))} ({len(who)})"))
        body.append(
            flow.table(
                [
                    (text("report.chess.lp"), "n", 6),
                    (text("report.chess.player"), "", 34),
                    (text("report.chess.school"), "", 40),
                    (text("report.chess.class"), "c", 8),
                    (text("report.chess.collected"), "c", 12),
                ],
                [
                    [
                        (str(i), "n"),
                        (escape(f"{e.surname} {e.first_name}"), "name"),
                        (escape(e.school), "school"),
                        (escape(e.school_class), "c"),
                        ("&nbsp;", "c"),
                    ]
                    for i, e in enumerate(who, start=1)
                ],
            )
        )
    if not total:
        body.append(f"<p>{escape(text('report.chess.no-medals'))}</p>\n")
    title = text("report.chess.medals")
    sub = " · ".join(
        x for x in (day.title, date_text(day.date), text("report.chess.medals-count", n=total)) if x
    )
    return Printout(page_html(title, sub, "".join(body)))


__all__ = [
    "COPY_FORMAT",
    "COPY_KIND",
    "FONT_PT",
    "LANDSCAPE",
    "LINE_HEIGHT",
    "MM_PER_PT",
    "ORDER",
    "PAGE_CSS",
    "PORTRAIT",
    "PRIZE_PLACES",
    "SLIPS_PER_PAGE",
    "Changes",
    "Correction",
    "Flow",
    "GroupResult",
    "Heading",
    "Listed",
    "Person",
    "Printout",
    "board_order",
    "by_name",
    "compare_start_lists",
    "crosstable",
    "date_text",
    "diplomas",
    "group_standings",
    "group_title",
    "heading",
    "listed",
    "medals",
    "number_text",
    "page_html",
    "pairings",
    "people",
    "prizes",
    "read_start_list_copy",
    "recorded_round",
    "result_slips",
    "standings_printout",
    "start_list",
    "start_list_copy",
    "table_html",
    "wrapped_lines",
]
