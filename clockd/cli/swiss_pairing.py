"""``duelclock swiss pair`` and ``duelclock swiss check``: FIDE Dutch pairings of a TRF file.

``pair INPUT.trf -p OUTPUT`` pairs the next round (the first one nobody has been paired
in) and writes it as bbpPairings and JaVaFo do: the number of pairs, then one
``white black`` line per board, ``S 0`` for the player who gets the bye.

``check INPUT.trf`` re-pairs every round from the rounds before it, with the inputs built as
bbpPairings' check mode builds them (absences known in advance kept; a player with nothing
recorded in a paired round was not in it), and reports each round whose recorded pairing
differs; exit status 1 if any does.

``--engine PATH`` hands the pairing to an installed bbpPairings (``bbpPairings --dutch
in.trf -p out``) or, for a ``.jar``, JaVaFo (``java -ea -jar javafo.jar in.trf -p out``),
for referees who must use an endorsed program.

Exit status: 0 done (and, for check, every round identical), 1 a round differs,
2 the input cannot be paired (unreadable or malformed TRF, nothing to pair, no pairing
satisfies the absolute criteria, the other engine failed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clockd import i18n


class _Failure(Exception):
    """An error to report as one sentence, exit status 2."""


@dataclass(frozen=True)
class _Pairing:
    boards: tuple[tuple[int, int], ...]
    bye: int | None


def register(sub: Any) -> None:
    pair = sub.add_parser(
        "pair",
        help=i18n.text("cli.swiss-pairing.pair-the-next-round-of-a"),
        description=i18n.text("cli.swiss-pairing.pair-the-next-round-of-the"),
    )
    pair.add_argument(
        "input",
        metavar="INPUT.trf",
        help=i18n.text("cli.swiss-pairing.the-tournament-so-far-trf"),
    )
    pair.add_argument(
        "-p",
        "--pairings",
        metavar="OUTPUT",
        help=i18n.text("cli.swiss-pairing.write-the-pairing-here-default-standard"),
    )
    pair.add_argument(
        "--list",
        metavar="FILE",
        help=i18n.text("cli.swiss-pairing.also-write-the-pairing-list-to"),
    )
    _common(pair)
    pair.set_defaults(func=_run_pair)

    check = sub.add_parser(
        "check",
        help=i18n.text("cli.swiss-pairing.re-pair-every-round-of-a"),
        description=i18n.text("cli.swiss-pairing.re-pair-every-round-of-the"),
    )
    check.add_argument("input", metavar="INPUT.trf", help=i18n.text("cli.swiss-pairing.the-tournament-trf"))
    _common(check)
    check.set_defaults(func=_run_check)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        metavar="PATH",
        help=i18n.text("cli.swiss-pairing.pair-with-this-installed-program-instead"),
    )
    parser.add_argument(
        "--rounds",
        type=int,
        metavar="N",
        help=i18n.text("cli.swiss-pairing.the-number-of-rounds-of-the"),
    )


def _load(path: str) -> Any:
    from clockd.core.swiss import trf

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise _Failure(i18n.text("cli.swiss-pairing.cannot-read", path=path, strerror=exc.strerror)) from exc
    try:
        return trf.load_bytes(data)
    except ValueError as exc:
        raise _Failure(f"{path}: {exc}") from exc


def _pair_builtin(tournament: Any, total_rounds: int | None, source: str) -> _Pairing:
    from clockd.core.swiss.dutch import NoValidPairing, PairingInputError, pair_round
    from clockd.core.swiss.records import RecordError

    try:
        result = pair_round(tournament, total_rounds)
    except RecordError as exc:
        raise _Failure(f"{source}: {exc}") from exc
    except (NoValidPairing, PairingInputError) as exc:
        raise _Failure(str(exc)) from exc
    return _Pairing(result.boards, result.bye)


def _pair_external(engine: str, trf_text: bytes) -> _Pairing:
    with tempfile.TemporaryDirectory(prefix="duelclock-") as tmp:
        src = Path(tmp) / "input.trf"
        out = Path(tmp) / "output.txt"
        src.write_bytes(trf_text)
        if engine.endswith(".jar"):
            command = ["java", "-ea", "-jar", engine, str(src), "-p", str(out)]
        else:
            command = [engine, "--dutch", str(src), "-p", str(out)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise _Failure(
                i18n.text("cli.swiss-pairing.cannot-run", engine=engine, strerror=exc.strerror)
            ) from exc
        if run.returncode != 0 or not out.exists():
            detail = (run.stderr or run.stdout).strip().splitlines()
            raise _Failure(
                i18n.text("cli.swiss-pairing.failed-exit-status", engine=engine, returncode=run.returncode)
                + (f": {detail[-1]}" if detail else "")
            )
        return _read_output(out.read_text(), engine)


def _read_output(text: str, source: str) -> _Pairing:
    lines = [line.split() for line in text.splitlines() if line.strip()]
    boards: list[tuple[int, int]] = []
    bye = None
    try:
        count = int(lines[0][0])
        for fields in lines[1 : count + 1]:
            white, black = int(fields[0]), int(fields[1])
            if black == 0:
                bye = white
            else:
                boards.append((white, black))
    except (IndexError, ValueError) as exc:
        raise _Failure(i18n.text("cli.swiss-pairing.cannot-read-the-output-of", source=source)) from exc
    return _Pairing(tuple(boards), bye)


def _total_rounds(tournament: Any, given: int | None) -> int:
    n = given or tournament.total_rounds
    if n is None:
        raise _Failure(i18n.text("cli.swiss-pairing.the-number-of-rounds-is-unknown"))
    return int(n)


def _format(pairing: _Pairing) -> str:
    lines = [str(len(pairing.boards) + (pairing.bye is not None))]
    lines.extend(f"{w} {b}" for w, b in pairing.boards)
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "\n".join(lines) + "\n"


def _run_pair(args: argparse.Namespace) -> int:
    from clockd.core.swiss import trf
    from clockd.core.swiss.dutch.state import round_to_pair

    try:
        tournament = _load(args.input)
        if not tournament.players:
            raise _Failure(i18n.text("cli.swiss-pairing.there-are-no-players-to-pair", input=args.input))
        total = _total_rounds(tournament, args.rounds)
        if args.engine:
            k = round_to_pair(tournament)
            prepared = tournament if tournament.total_rounds else tournament.pairing_input(k, total)
            pairing = _pair_external(args.engine, trf.dump_bytes(prepared))
        else:
            pairing = _pair_builtin(tournament, total, args.input)
    except _Failure as exc:
        print(f"duelclock swiss pair: {exc}", file=sys.stderr)
        return 2
    text = _format(pairing)
    outputs = [(args.pairings, text)] if args.pairings else []
    if args.list:
        from clockd.reports.pairing_list import pairing_list_html, pairing_list_text

        html = Path(args.list).suffix.lower() in (".html", ".htm")
        render = pairing_list_html if html else pairing_list_text
        listed = render(tournament, round_to_pair(tournament), pairing.boards, pairing.bye)
        outputs.append((args.list, listed))
    for path, content in outputs:
        try:
            from clockd.store.files import private_file

            private_file(path, content)
        except OSError as exc:
            print(f"duelclock swiss pair: {path}: {exc.strerror}", file=sys.stderr)
            return 2
    if not args.pairings:
        sys.stdout.write(text)
    return 0


def _recorded(tournament: Any, round_number: int) -> tuple[set[tuple[int, int]], int | None]:
    boards, bye = tournament.pairings(round_number)
    out = set()
    for b in boards:
        out.add((b.white, b.black) if b.coloured else (min(b.white, b.black), -max(b.white, b.black)))
    return out, bye


def _comparable(pairing: _Pairing, recorded: set[tuple[int, int]]) -> set[tuple[int, int]]:
    out = set()
    for w, b in pairing.boards:
        loose = (min(w, b), -max(w, b))
        out.add(loose if loose in recorded else (w, b))
    return out


def _with_initial_colour(prepared: Any, tournament: Any) -> Any:
    """``prepared`` with the first board's colour in round 1 written down (``XXC white1`` or
    ``black1``) when the file does not say it: as bbpPairings' check mode reads it from the
    whole file, so that round 1 is checked too (for later rounds it is what the rounds before
    them say anyway)."""
    from clockd.core.swiss.dutch.state import initial_colour

    if prepared.record_value("152") is not None or {"white1", "black1"} & set(
        (prepared.record_value("XXC") or "").split()
    ):
        return prepared
    colour = "white1" if initial_colour(tournament) == "w" else "black1"
    xxc = prepared.record_value("XXC")
    return prepared.with_record("XXC", f"{xxc} {colour}" if xxc else colour)


def _run_check(args: argparse.Namespace) -> int:
    from clockd.core.swiss import trf

    try:
        tournament = _load(args.input)
        total = (
            _total_rounds(tournament, args.rounds)
            if args.rounds
            else (tournament.total_rounds or tournament.rounds_played)
        )
        last = tournament.rounds_paired
        if last < 1:
            raise _Failure(i18n.text("cli.swiss-pairing.there-are-no-paired-rounds-to", input=args.input))
        differing = 0
        for k in range(1, last + 1):
            prepared = _with_initial_colour(tournament.pairing_input(k, total), tournament)
            if args.engine:
                pairing = _pair_external(args.engine, trf.dump_bytes(prepared))
            else:
                pairing = _pair_builtin(prepared, total, args.input)
            recorded, bye = _recorded(tournament, k)
            got = _comparable(pairing, recorded)
            if got == recorded and pairing.bye == bye:
                print(i18n.text("cli.swiss-pairing.round-identical", k=k))
                continue
            differing += 1
            print(i18n.text("cli.swiss-pairing.round-differs", k=k))
            for w, b in sorted(recorded - got, key=lambda x: (abs(x[0]), abs(x[1]))):
                print(i18n.text("cli.swiss-pairing.recorded", w=w, value=abs(b)))
            for w, b in sorted(got - recorded, key=lambda x: (abs(x[0]), abs(x[1]))):
                print(i18n.text("cli.swiss-pairing.paired", w=w, value=abs(b)))
            if pairing.bye != bye:
                print(
                    i18n.text(
                        "cli.swiss-pairing.bye-recorded-paired", value=bye or "-", value2=pairing.bye or "-"
                    )
                )
    except _Failure as exc:
        print(f"duelclock swiss check: {exc}", file=sys.stderr)
        return 2
    checked = last
    print(i18n.text("cli.swiss-pairing.rounds-checked-differing", checked=checked, differing=differing))
    return 1 if differing else 0
