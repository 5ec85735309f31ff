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
``problem`` (the damage's English sentence, for logs), ``snapshots`` (``seq``, ``intact``),
``integrity``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clockd.i18n import render_error, text

EXIT_DAMAGED = 1
EXIT_UNREADABLE = 2


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "journal",
        help=text("cli.journal.the-daemons-journal-integrity-checks"),
        description=text("cli.journal.the-daemons-journal-the-sqlite-file"),
    )
    jsub = parser.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    verify = jsub.add_parser(
        "verify",
        help=text("cli.journal.check-the-journals-hash-chain-snapshots"),
        description=text("cli.journal.check-every-event-of-the-journal"),
    )
    verify.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help=text("cli.journal.the-journal-default-duelclock-db-in"),
    )
    verify.add_argument(
        "--json",
        action="store_true",
        help=text("cli.journal.print-the-result-as-json"),
    )
    verify.set_defaults(func=run_verify)


def default_journal() -> Path:
    """The journal the local daemon named in ``daemon.json`` (``duelclock run --db …``, the
    showcase's), else ``duelclock.db`` in the state folder: the one a bare ``duelclock run`` uses."""
    from clockd.api.local import DEFAULT_DB, read_info, state_dir

    info = read_info()
    return Path(info.db) if info is not None and info.db else state_dir() / DEFAULT_DB


#: What each kind of damage means, for the referee (``JournalDamaged.reason``).
#: Why the chain is broken (``check.reason``), and the catalogue's text for it.
REASONS = {
    "changed": "journal.damage.changed",
    "missing": "journal.damage.missing",
    "unchained": "journal.damage.unchained",
    "no-head": "journal.damage.no-head",
    "cut": "journal.damage.cut",
    "head": "journal.damage.head",
    "lost": "journal.damage.lost",
    "rewritten": "journal.damage.rewritten",
}


def run_verify(args: argparse.Namespace) -> int:
    from clockd.store.errors import JournalError
    from clockd.store.journal import Journal
    from clockd.store.schema import SchemaError

    db = args.db or default_journal()
    try:
        with Journal.reader(db) as journal:
            check = journal.verify()
    except (JournalError, SchemaError) as exc:
        cannot = text("cli.journal.cannot-check-the-journal")
        print(f"duelclock journal verify: {cannot}: {render_error(exc)}", file=sys.stderr)
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
        f"{text('cli.journal.journal')}: {check.path}",
        f"  {text('cli.journal.events')}: {check.events} ({text('cli.journal.last-seq')} {check.last_seq})",
    ]
    chain = text("cli.journal.hash-chain")
    if check.first_bad_seq is None:
        lines.append(f"  {chain}: {text('cli.journal.intact')}")
    else:
        why = text(REASONS[check.reason]) if check.reason in REASONS else check.problem
        broken = text("cli.journal.damaged-from-seq")
        lines.append(f"  {chain}: {broken} {check.first_bad_seq}: {why}")
    snapshots = text("cli.journal.snapshots")
    damaged = [s.seq for s in check.snapshots if not s.intact]
    if not damaged:
        lines.append(f"  {snapshots}: {len(check.snapshots)}, {text('cli.journal.intact')}")
    for seq in damaged:
        lines.append(f"  {snapshots}: seq {seq} " + text("cli.journal.damaged-its-checksum-does-not-match"))
    lines.append(f"  {text('cli.journal.sqlite-structure')} (integrity_check): {check.integrity}")
    if check.ok:
        lines.append(text("cli.journal.result-the-journal-is-intact"))
    elif check.first_bad_seq is None and check.integrity == "ok":
        lines.append(text("cli.journal.result-the-events-are-intact-but"))
    else:
        lines.append(text("cli.journal.result-the-journal-is-damaged-restore"))
    return "\n".join(lines)
