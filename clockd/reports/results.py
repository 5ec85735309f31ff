"""The results of a Puzzle Duel session as data: the JSON and CSV files (issue 6, item 5).

:func:`build_results` turns a :class:`~clockd.core.bracket.Bracket` and the players'
public names into :class:`Results`, whose JSON has the fields the issue names:

* ``players`` — ``id`` and ``name`` (the display name only; no personal data leaves here),
* ``matches`` — ``id``, ``round``, ``table``, ``a``, ``b`` (``null`` for a bye), ``winner``,
  ``remaining_ms`` / ``displayed`` / ``moves`` as ``{"a", "b"}`` (``null`` when no duel was
  played: a bye, a walkover, a decision before the duel), ``decided_by`` (``time``, ``flag``,
  ``tiebreak``, ``referee``, ``bye``, ``walkover``; ``null`` while undecided) and, for a
  tie-break duel, ``tiebreak_of``,
* ``decisions`` — the referee's decisions with their reasons,
* ``podium`` — the player ids of places 1, 2 and 3.

``remaining_ms`` is rounded up to the millisecond (:func:`clockd.core.display.quantize`), so
comparing it at the session's ``resolution_ms`` gives exactly the clock's own comparison.
"""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel, ConfigDict

from clockd.core.bracket import Bracket, DecidedBy, Match, MatchStatus, PlayerId
from clockd.core.clock import PerSide, PerSideInt, Side
from clockd.core.csvtext import spreadsheet_cell
from clockd.core.display import quantize
from clockd.core.tournament import RoundKind
from clockd.core.units import MS, ns_to_ms
from clockd.i18n import Msg, msg, render

RESULTS_VERSION = 1


class ResultPlayer(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: PlayerId
    name: str


class ResultAdjustment(BaseModel):
    """A referee's time adjustment in a match: whose time, by how much, why (as typed)."""

    model_config = ConfigDict(frozen=True)

    player: PlayerId | None
    delta_ms: int
    reason: str = ""
    undone: bool = False  # taken back as such by the referee (a mistyped one)


class ResultMatch(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    round: int
    round_name: str
    kind: RoundKind  # knockout, third_place or final
    pieces: int
    table: int | None
    a: PlayerId | None
    b: PlayerId | None
    winner: PlayerId | None
    remaining_ms: PerSide[int] | None
    displayed: PerSide[str] | None
    moves: PerSide[int] | None
    decided_by: DecidedBy | None
    status: MatchStatus
    tiebreak_of: str | None = None
    ended_at_ms: int | None = None  # on the daemon's time base, for ordering only
    clock_a: PlayerId | None = None  # the player at the clock's side a
    toss_winner: PlayerId | None = None
    time_control: str = ""  # the clock's setting for this match, e.g. "10m"
    adjustments: list[ResultAdjustment] = []  # the referee's time changes (penalties negative)


class ResultDecision(BaseModel):
    model_config = ConfigDict(frozen=True)

    match: str
    kind: str
    winner: PlayerId | None
    category: str | None
    reason: str
    referee: str


class ResultDraw(BaseModel):
    model_config = ConfigDict(frozen=True)

    method: str
    seed: int | None
    lines: dict[int, PlayerId]


class Results(BaseModel):
    """One session's results file."""

    model_config = ConfigDict(frozen=True)

    version: int = RESULTS_VERSION
    tournament: str
    session: str | None = None
    resolution_ms: int
    finished: bool
    players: list[ResultPlayer]
    matches: list[ResultMatch]
    decisions: list[ResultDecision]
    podium: list[PlayerId | None]
    draw: ResultDraw

    def player_name(self, pid: PlayerId | None) -> str:
        for p in self.players:
            if p.id == pid:
                return p.name
        return ""

    def match(self, mid: str) -> ResultMatch:
        for m in self.matches:
            if m.id == mid:
                return m
        raise KeyError(mid)


def _match(bracket: Bracket, m: Match, lang: str | None) -> ResultMatch:
    score = m.score
    return ResultMatch(
        id=m.id,
        round=m.round,
        round_name=render(bracket.config.round_name(m.round - 1), lang),
        kind=bracket.round_kind(m.round),
        pieces=bracket.pieces(m.id),
        table=m.table,
        a=m.a,
        b=m.b,
        winner=m.winner if m.status is MatchStatus.DECIDED else None,
        remaining_ms=(
            PerSideInt(a=quantize(score.remaining_ns.a, MS), b=quantize(score.remaining_ns.b, MS))
            if score
            else None
        ),
        displayed=score.displayed if score else None,
        moves=score.moves if score else None,
        decided_by=m.decided_by if m.status is MatchStatus.DECIDED else None,
        status=m.status,
        tiebreak_of=m.tiebreak_of,
        ended_at_ms=ns_to_ms(score.ended_at_ns) if score else None,
        clock_a=m.clock_a,
        toss_winner=m.toss_winner,
        adjustments=[
            ResultAdjustment(
                player=m.a if a.side is Side.A else m.b, delta_ms=a.delta_ms, reason=a.reason, undone=a.undone
            )
            for a in (score.adjustments if score else ())
        ],
        time_control=str(bracket.time_control(m.id)),
    )


def build_results(
    bracket: Bracket,
    names: dict[PlayerId, str],
    *,
    tournament: str | None = None,
    session: str | None = None,
    lang: str | None = None,
) -> Results:
    """The results of ``bracket``; ``names`` gives each player's public display name.

    Round names are written in ``lang`` (default: the current language).
    """
    players = sorted(set(bracket.draw.lines.values()))
    return Results(
        tournament=tournament or bracket.config.name,
        session=session,
        resolution_ms=bracket.config.resolution_ms,
        finished=bracket.finished,
        players=[ResultPlayer(id=p, name=names.get(p, f"#{p}")) for p in players],
        matches=[_match(bracket, m, lang) for m in _ordered(bracket)],
        decisions=[
            ResultDecision(
                match=d.match,
                kind=d.kind,
                winner=d.winner,
                category=d.category.value if d.category else None,
                reason=d.reason,
                referee=d.referee,
            )
            for d in bracket.decisions
        ],
        podium=list(bracket.podium()),
        draw=ResultDraw(
            method=bracket.draw.method.value, seed=bracket.draw.seed, lines=dict(bracket.draw.lines)
        ),
    )


def _ordered(bracket: Bracket) -> list[Match]:
    """Matches in playing order: by round and slot, each tie-break right after its match."""
    roots = [m for m in bracket.matches.values() if not m.is_tiebreak]
    roots.sort(key=lambda m: (m.round, m.slot))
    out: list[Match] = []
    for m in roots:
        out.append(m)
        out.extend(bracket.matches[t] for t in m.tiebreaks)
    return out


CSV_COLUMNS = (
    "id",
    "round",
    "round_name",
    "table",
    "a",
    "a_name",
    "b",
    "b_name",
    "winner",
    "winner_name",
    "decided_by",
    "remaining_ms_a",
    "remaining_ms_b",
    "displayed_a",
    "displayed_b",
    "moves_a",
    "moves_b",
    "tiebreak_of",
    "status",
)


def results_csv(results: Results) -> str:
    """One row per match, the JSON's fields flattened (``a_name`` etc. added for people).

    Every cell is :func:`~clockd.core.csvtext.spreadsheet_cell`: text that starts like a
    formula (a player's name ``=HYPERLINK(…)``) gets a leading apostrophe; the numbers
    (``round``, ``table``, player ids, ``remaining_ms_*``, ``moves_*``) are written as plain
    numbers, a negative one included, so a spreadsheet still sums them.
    """
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for m in results.matches:

        def opt(x: object) -> object:
            return "" if x is None else x

        row = [
            m.id,
            m.round,
            m.round_name,
            opt(m.table),
            opt(m.a),
            results.player_name(m.a),
            opt(m.b),
            results.player_name(m.b),
            opt(m.winner),
            results.player_name(m.winner),
            m.decided_by.value if m.decided_by else "",
            m.remaining_ms.a if m.remaining_ms else "",
            m.remaining_ms.b if m.remaining_ms else "",
            m.displayed.a if m.displayed else "",
            m.displayed.b if m.displayed else "",
            m.moves.a if m.moves else "",
            m.moves.b if m.moves else "",
            opt(m.tiebreak_of),
            m.status.value,
        ]
        w.writerow([spreadsheet_cell(cell) for cell in row])
    return out.getvalue()


def check_results(results: Results) -> list[Msg]:
    """Every way the results break the rules; empty when each match winner had more time at
    the resolution, or won a recorded tie-break, or a recorded referee decision (or a bye or
    a walkover, which are recorded decisions too). Used by ``duelclock demo`` and its tests.
    """
    problems: list[Msg] = []
    res = results.resolution_ms
    by_id = {m.id: m for m in results.matches}
    decided_matches = {d.match for d in results.decisions}
    for m in results.matches:
        if m.winner is None:
            continue
        if m.winner not in (m.a, m.b):
            problems.append(msg("results.winner-not-player", match=m.id, winner=m.winner, a=m.a, b=m.b))
            continue
        side = "a" if m.winner == m.a else "b"
        if m.decided_by in (DecidedBy.TIME, DecidedBy.FLAG):
            if m.remaining_ms is None:
                problems.append(msg("results.no-times", match=m.id, by=m.decided_by.value))
                continue
            mine, theirs = (
                (m.remaining_ms.a, m.remaining_ms.b) if side == "a" else (m.remaining_ms.b, m.remaining_ms.a)
            )
            if quantize(mine * MS, res * MS) <= quantize(theirs * MS, res * MS):
                problems.append(
                    msg(
                        "results.not-more-time",
                        match=m.id,
                        winner=m.winner,
                        mine=mine,
                        theirs=theirs,
                        res=res,
                    )
                )
        elif m.decided_by is DecidedBy.TIEBREAK:
            tbs = [t for t in results.matches if t.tiebreak_of == m.id and t.winner is not None]
            if not tbs or tbs[-1].winner != m.winner:
                problems.append(msg("results.no-tiebreak-won", match=m.id, winner=m.winner))
        elif m.decided_by in (DecidedBy.REFEREE, DecidedBy.WALKOVER):
            if m.id not in decided_matches:
                problems.append(msg("results.no-decision", match=m.id, by=m.decided_by.value))
        elif m.decided_by is DecidedBy.BYE and None not in (m.a, m.b):
            problems.append(msg("results.bye-two-players", match=m.id))
        if m.tiebreak_of is not None and m.tiebreak_of not in by_id:
            problems.append(msg("results.unknown-root", match=m.id, root=m.tiebreak_of))
    return problems
