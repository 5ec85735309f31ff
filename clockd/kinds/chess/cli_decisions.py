"""``duelclock chess …``: the arbiters' decisions during the day — results entered and taken
back, rounds closed, claims, appeals, reports, withdrawals, late entries and corrections of a
player's data — each an action of the daemon, with what it answered printed.

Players are named as the arbiter has them at hand: a start number, or a name (a part of it,
if that is enough); a board's players by the board (:func:`group_of_board`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clockd.i18n import Problem, render, text


def groups_of(client: Any) -> list[Any]:
    """Every chess group of the daemon (its event views), in the daemon's order."""
    return [e for e in client.events().events if e.kind == "chess"]


def group_of_board(groups: list[Any], board: int) -> Any:
    """The group whose range of the hall holds ``board``."""
    for g in groups:
        if g.body.first_board <= board <= g.body.last_board:
            return g
    ranges = ", ".join(f"{g.key} {g.body.first_board}–{g.body.last_board}" for g in groups)
    raise Problem("chess.board-nowhere", board=board, ranges=ranges or "—")


def one(client: Any, key: str) -> Any:
    for g in groups_of(client):
        if g.key == key:
            return g
    raise Problem("event.unknown", event=key, known=[g.key for g in groups_of(client)])


def result(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import EnterResult

    g = group_of_board(groups_of(client), args.board)
    from clockd.api.messages import ApiError

    before = len(g.body.corrections)
    try:
        done = client.act(
            g.key,
            EnterResult(
                board=args.board,
                result=args.result,
                replace=args.replace,
                round=args.round,
                reason=args.reason,
            ),
        )
    except ApiError as exc:
        if exc.reason.code == "chess.result-entered":
            raise Problem("chess.result-entered-cli", refusal=exc.reason, board=args.board) from exc
        raise
    corrections = done.event.body.corrections if done.event is not None else []
    if len(corrections) > before:
        print(_corrected(corrections[-1], g.key))
        return 0
    print(_entered(client, g.key, args.board))
    return 0


def _corrected(c: Any, key: str) -> str:
    """What a correction of a closed round did, and the pairings it leaves as they were."""
    lines = [
        render(
            "chess.corrected",
            round=c.round,
            board=c.board,
            white=c.white.name,
            black=c.black.name,
            old=c.old,
            new=c.new,
            key=key,
        )
    ]
    if c.changed:
        lines.append(render("chess.corrected-changed", rounds=", ".join(map(str, c.changed))))
    elif c.paired_after:
        lines.append(render("chess.corrected-unchanged", rounds=", ".join(map(str, c.paired_after))))
    return "\n".join(lines)


def _entered(client: Any, key: str, board: int) -> str:
    g = one(client, key)
    for x in g.body.boards:
        if x.board == board:
            return render(
                "chess.entered",
                board=board,
                white=x.white.name,
                result=x.result or "—",
                black=x.black.name,
                key=key,
            )
    return ""


def undo(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import UndoResult

    g = group_of_board(groups_of(client), args.board)
    client.act(g.key, UndoResult(board=args.board))
    print(render("chess.undone", board=args.board, key=g.key))
    return 0


def enter(client: Any, args: argparse.Namespace) -> int:
    """Vega-style entry from the keyboard: ``BOARD RESULT`` per line, ``u`` undoes the last."""
    from clockd.api.messages import ApiError
    from clockd.core.chessday.group import EnterResult, UndoResult

    print(text("chess.enter-help"))
    last: list[tuple[str, int]] = []
    groups = groups_of(client)
    for line in sys.stdin:
        entry = line.strip()
        if not entry:
            continue
        if entry in ("q", "k"):
            break
        try:
            if entry in ("u", "c"):
                if not last:
                    print(text("chess.nothing-to-undo"))
                    continue
                key, board = last.pop()
                client.act(key, UndoResult(board=board))
                print(render("chess.undone", board=board, key=key))
                continue
            if " " in entry:
                digits, result = entry.split(None, 1)
            else:
                digits, result = entry[:-1], entry[-1]
            if not digits.isdigit():
                print(render("chess.enter-bad", line=entry))
                continue
            board = int(digits)
            g = group_of_board(groups, board)
            client.act(g.key, EnterResult(board=board, result=result))
            last.append((g.key, board))
            print(_entered(client, g.key, board))
        except ApiError as exc:
            print(render(exc.reason))
        except Problem as exc:
            print(render(exc.msg))
    return 0


def close(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import CloseRound

    groups = groups_of(client)
    if args.all:
        chosen = [g for g in groups if g.actions.get("chess-close") is None]
    else:
        chosen = [one(client, k) for k in args.keys]
    if not chosen:
        print(text("chess.none-open"))
        return 0
    for g in chosen:
        client.act(g.key, CloseRound(stop_clocks=args.stop_clocks))
        after = one(client, g.key)
        print(
            render(
                "chess.closed",
                key=g.key,
                round=after.body.round,
                zero=", ".join(map(str, after.body.closed_with_zero)) or "—",
            )
        )
    return 0


def claim(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import ClaimIllegalMove

    g = group_of_board(groups_of(client), args.board)
    player = _on_board(g, args.board, args.player)
    done = client.act(g.key, ClaimIllegalMove(board=args.board, player=player))
    board = next(x for x in done.event.body.boards if x.board == args.board)
    count = board.claims.count(player)
    if count == 1:  # §H: the first has no consequence — say so, and what the second does
        print(render("chess.claimed-first", board=args.board, player=player))
    else:
        print(
            render(
                "chess.claimed", board=args.board, player=player, count=count, proposal=board.proposal or "—"
            )
        )
    return 0


def appeal(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import RecordAppeal

    g = group_of_board(groups_of(client), args.board)
    player = _on_board(g, args.board, args.player)
    client.act(
        g.key,
        RecordAppeal(
            board=args.board, player=player, text=args.text, decision=args.decision, result=args.result
        ),
    )
    print(render("chess.appealed", board=args.board, decision=args.decision))
    return 0


def report(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import ReportPresent

    g = one(client, args.key)
    player = _in_group(g, args.player)
    client.act(args.key, ReportPresent(player=player))
    code = "chess.reported-now" if g.body.phase == "playing" else "chess.reported"
    print(render(code, key=args.key, player=f"{player} ({_name(g, player)})"))
    return 0


def withdraw(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import WithdrawPlayer

    g = one(client, args.key)
    player = _in_group(g, args.player)
    client.act(args.key, WithdrawPlayer(player=player, reason=args.reason))
    print(render("chess.withdrawn", key=args.key, player=f"{player} ({_name(g, player)})"))
    return 0


def split_name(given: str) -> tuple[str, str]:
    """``Nazwisko Imię`` as the lists write it → (surname, first name): the first word is the
    surname (``Nowak-Kowalska Anna``), the rest the first names; ``Nazwisko, Imię`` for a surname of
    several words (``Da Silva, Ana``)."""
    surname, comma, first = given.partition(",")
    if not comma:
        surname, _, first = given.strip().partition(" ")
    surname, first = " ".join(surname.split()), " ".join(first.split())
    if not surname or not first:
        raise Problem("chess.add-name", name=given.strip() or "—")
    return surname, first


def add(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import AddLatePlayer

    one(client, args.key)  # an unknown group named, and the groups there are
    surname, first = split_name(args.name)
    done = client.act(
        args.key,
        AddLatePlayer(
            surname=surname,
            first_name=first,
            school=args.school,
            school_class=args.school_class,
            rating=args.rating,
            email=args.email,
        ),
    )
    late = done.event.body.late[-1]
    p = late.player
    said = {"key": args.key, "player": p.start, "name": p.name, "school": p.school or "—"}
    if late.first_round == 1:
        print(render("chess.added-first", **said))
        return 0
    missed = late.first_round - 1
    points = "½" if late.rule == "half" else "0"
    print(render("chess.added", **said, round=late.first_round, missed=missed, points=points))
    return 0


def fix(client: Any, args: argparse.Namespace) -> int:
    from clockd.core.chessday.group import FixPlayer

    g = one(client, args.key)
    player = _in_group(g, args.player)
    surname, first = split_name(args.name) if args.name is not None else (None, None)
    done = client.act(
        args.key,
        FixPlayer(
            player=player,
            surname=surname,
            first_name=first,
            school=args.school,
            school_class=args.school_class,
            reason=args.reason,
        ),
    )
    fix = done.event.body.fixes[-1]
    print(render("chess.fixed", key=args.key, player=player, name=fix.player.name, changes=fix_text(fix)))
    print(render("chess.fixed-post", key=args.key))
    return 0


def fix_text(fix: Any) -> str:
    """What a fix changed, as the start list's box says it: ``szkoła: „SP 5” → „SP 5 Chorzów”``."""
    codes = {"name": "report.chess.field.name", "school": "report.chess.field.school"}
    codes["school_class"] = "report.chess.field.class"
    return ", ".join(
        text(
            "report.chess.changed-field",
            field=text(codes[f]),
            old=fix.old.get(f) or "—",
            new=fix.new.get(f) or "—",
        )
        for f in fix.fields
    )


def _in_group(g: Any, given: str) -> int:
    """A player of group ``g`` by start number or name (as the lists show it)."""
    from clockd.cli.names import pick

    return pick(given, ((p.start, p.name) for p in g.body.start_list))


def _on_board(g: Any, board: int, given: str) -> int:
    """A player of ``board`` by start number or name: the two players of the board are asked
    first (a claim names one of them), then the group."""
    from clockd.cli.names import pick

    if given.strip().isdigit():
        return int(given)
    for x in g.body.boards:
        if x.board == board:
            try:
                return pick(given, ((x.white.start, x.white.name), (x.black.start, x.black.name)))
            except Problem:
                break
    return _in_group(g, given)


def _name(g: Any, player: int) -> str:
    return next((p.name for p in g.body.start_list if p.start == player), "?")
