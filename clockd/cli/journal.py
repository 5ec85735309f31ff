"""``duelclock journal verify``: is the daemon's journal intact?

It checks, in one read (safe beside a running daemon: it takes no lock and writes nothing):

* the **hash chain** over every event (``docs/architecture.md``, "The journal's files and
  their integrity"): the first event whose content or stored hash was changed, or that is
  missing, is named by its seq;
* the **heads**: the journal must end at the head it recorded in ``meta``, and no earlier
  than the head its lock file recorded (events cut off the end, a deleted ``-wal``);
* every **snapshot's checksum** (a damaged snapshot is not used: the daemon replays instead);
* SQLite's own ``integrity_check`` (the file's structure).

Exit status: 0 intact, 1 damaged (the first bad seq is printed), 2 the journal cannot be
read at all (missing, not a journal, an older schema). ``--json`` prints one object for
scripts: ``db``, ``ok``, ``events``, ``last_seq``, ``first_bad_seq``, ``reason``,
``problem``, ``snapshots`` (``seq``, ``intact``), ``integrity``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clockd.i18n import tr

EXIT_DAMAGED = 1
EXIT_UNREADABLE = 2


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "journal",
        help=tr(pl="dziennik demona: sprawdzenie spójności", en="the daemon's journal: integrity checks"),
        description=tr(
            pl="Dziennik demona (plik SQLite ze wszystkimi zdarzeniami).",
            en="The daemon's journal (the SQLite file of every event).",
        ),
    )
    jsub = parser.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    verify = jsub.add_parser(
        "verify",
        help=tr(
            pl="sprawdź łańcuch skrótów, migawki i strukturę dziennika",
            en="check the journal's hash chain, snapshots and structure",
        ),
        description=tr(
            pl="Sprawdza każde zdarzenie dziennika z łańcuchem skrótów (pierwsze zmienione lub "
            "brakujące zdarzenie jest podane z numerem seq), koniec dziennika z zapisaną głową "
            "łańcucha, sumy kontrolne migawek i strukturę pliku SQLite. Można uruchomić obok "
            "działającego demona: niczego nie blokuje ani nie zapisuje. Kod wyjścia: 0 w porządku, "
            "1 uszkodzony, 2 nie da się odczytać.",
            en="Check every event of the journal against its hash chain (the first changed or missing "
            "event is named by its seq), the journal's end against its recorded chain head, the "
            "snapshots' checksums and the SQLite file's structure. Safe beside a running daemon: it "
            "locks and writes nothing. Exit status: 0 intact, 1 damaged, 2 unreadable.",
        ),
    )
    verify.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help=tr(
            pl="dziennik (domyślnie: duelclock.db w folderze stanu)",
            en="the journal (default: duelclock.db in the state folder)",
        ),
    )
    verify.add_argument(
        "--json",
        action="store_true",
        help=tr(pl="wypisz wynik jako JSON", en="print the result as JSON"),
    )
    verify.set_defaults(func=run_verify)


#: What each kind of damage means, for the referee (``JournalDamaged.reason``).
REASONS: dict[str, tuple[str, str]] = {
    "changed": (
        "zdarzenie (albo zapisany z nim skrót) zmieniono po zapisaniu",
        "the event (or the hash stored with it) was changed after it was written",
    ),
    "missing": (
        "brak tego zdarzenia, choć są zdarzenia po nim",
        "the event is missing, with events after it",
    ),
    "unchained": ("zdarzenie nie ma skrótu łańcucha", "the event has no chain hash"),
    "no-head": ("brak zapisanej głowy łańcucha", "the recorded chain head is missing"),
    "cut": (
        "dziennik kończy się przed zapisaną głową łańcucha: brakuje zdarzeń od tego seq",
        "the journal ends before its recorded chain head: the events from this seq on are missing",
    ),
    "head": (
        "ostatnie zdarzenie nie jest zapisaną głową łańcucha (zmiany poza duelclock)",
        "the last event is not the recorded chain head (changes made outside duelclock)",
    ),
    "lost": (
        "dziennik kończy się przed miejscem, które zapisano w pliku blokady: zdarzenia od tego seq "
        "przepadły (usunięty plik -wal?)",
        "the journal ends before the point its lock file recorded: the events from this seq on were "
        "lost (a deleted -wal?)",
    ),
    "rewritten": (
        "zdarzenie w miejscu zapisanym w pliku blokady jest inne: dziennik przepisano",
        "the event at the point its lock file recorded is different: the journal was rewritten",
    ),
}


def run_verify(args: argparse.Namespace) -> int:
    from clockd.api.local import DEFAULT_DB, state_dir
    from clockd.store.errors import JournalError
    from clockd.store.journal import Journal
    from clockd.store.schema import SchemaError

    db = args.db or state_dir() / DEFAULT_DB
    try:
        with Journal.reader(db) as journal:
            check = journal.verify()
    except (JournalError, SchemaError) as exc:
        cannot = tr(pl="nie można sprawdzić dziennika", en="cannot check the journal")
        print(f"duelclock journal verify: {cannot}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        print(
            json.dumps(
                {
                    "db": check.path,
                    "ok": check.ok,
                    "events": check.events,
                    "last_seq": check.last_seq,
                    "first_bad_seq": check.first_bad_seq,
                    "reason": check.reason,
                    "problem": check.problem,
                    "snapshots": [{"seq": s.seq, "intact": s.intact} for s in check.snapshots],
                    "integrity": check.integrity,
                },
                ensure_ascii=False,
            )
        )
    else:
        print(render(check))
    return 0 if check.ok else EXIT_DAMAGED


def render(check: Any) -> str:
    """What a referee reads (Polish unless DUELCLOCK_LANG=en)."""
    lines = [
        f"{tr(pl='Dziennik', en='Journal')}: {check.path}",
        f"  {tr(pl='zdarzeń', en='events')}: {check.events} ({tr(pl='ostatnie seq', en='last seq')} "
        f"{check.last_seq})",
    ]
    chain = tr(pl="łańcuch skrótów", en="hash chain")
    if check.first_bad_seq is None:
        lines.append(f"  {chain}: {tr(pl='w porządku', en='intact')}")
    else:
        pl, en = REASONS.get(check.reason or "", ("", ""))
        broken = tr(pl="USZKODZONY od seq", en="DAMAGED from seq")
        lines.append(f"  {chain}: {broken} {check.first_bad_seq}: {tr(pl=pl, en=en) or check.problem}")
    snapshots = tr(pl="migawki", en="snapshots")
    damaged = [s.seq for s in check.snapshots if not s.intact]
    if not damaged:
        lines.append(f"  {snapshots}: {len(check.snapshots)}, {tr(pl='w porządku', en='intact')}")
    for seq in damaged:
        lines.append(
            f"  {snapshots}: seq {seq} "
            + tr(
                pl="uszkodzona (suma kontrolna się nie zgadza; demon jej nie użyje, odtworzy zdarzenia)",
                en="damaged (its checksum does not match; the daemon will not use it, it replays the events)",
            )
        )
    lines.append(f"  {tr(pl='struktura SQLite', en='SQLite structure')} (integrity_check): {check.integrity}")
    if check.ok:
        lines.append(tr(pl="Wynik: dziennik w porządku.", en="Result: the journal is intact."))
    elif check.first_bad_seq is None and check.integrity == "ok":
        lines.append(
            tr(
                pl="Wynik: zdarzenia w porządku, ale uszkodzone migawki (dysk?); demon je pominie.",
                en="Result: the events are intact, but snapshots are damaged (the disk?); "
                "the daemon skips them.",
            )
        )
    else:
        lines.append(
            tr(
                pl="Wynik: dziennik USZKODZONY. Przywróć go z kopii zapasowej: demon nie odtworzy "
                "uszkodzonych zdarzeń, więc nie wystartuje na nich.",
                en="Result: the journal is DAMAGED. Restore it from a backup: the daemon does not replay "
                "damaged events, so it will not start on them.",
            )
        )
    return "\n".join(lines)
