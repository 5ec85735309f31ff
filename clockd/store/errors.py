"""What can go wrong with a journal, as exception classes (each message names the file and what to do).

Each is a :class:`~clockd.i18n.Problem`: raised with a catalogue code (``journal.locked``,
``journal.folder-shared``) and its parameters, so ``duelclock run`` or ``duelclock journal verify``
tells a Polish referee in Polish which file and why, and ``str(exc)`` is the English
sentence for the log. They stay ``RuntimeError`` too, as they were before they had codes:
code that catches them as such still does.
"""

from __future__ import annotations

from typing import Any

from clockd.i18n import Msg, Problem


class JournalError(Problem, RuntimeError):
    """The journal cannot be opened or written; the message says which file and why."""


class JournalLocked(JournalError):
    """Another daemon is writing this journal (under this name, a symlink or a hard link)."""


class UnsafeFolder(JournalError):
    """The journal's (or the state's) folder can be written by other users: refused."""


class JournalMissing(JournalError):
    """A journal existed here (its lock file says so) but its file is gone or empty: refused."""


class JournalDamaged(JournalError):
    """The journal's content does not match its hash chain or its recorded head.

    ``seq`` is the first sequence number found bad; ``reason`` says how, as a word a
    command can put into the referee's language (``journal.damage.<reason>`` in the catalogue):

    * ``changed`` — the event at ``seq`` (or the hash stored with it) was changed after it was written;
    * ``missing`` — the event at ``seq`` is missing (rows on both sides of it are there);
    * ``unchained`` — the event at ``seq`` has no chain hash;
    * ``no-head`` — the chain head recorded in ``meta`` is missing;
    * ``cut`` — the journal ends before the head recorded in ``meta``: events from ``seq`` on are gone;
    * ``head`` — the last event is not the recorded head (rows changed or added outside duelclock);
    * ``lost`` — the journal ends before the head its lock file recorded (a deleted ``-wal``?);
    * ``rewritten`` — the event at the lock file's head is not the one recorded there.

    ``damage`` is the damage alone, without what to do about it (a message); ``what`` its
    English sentence (``duelclock journal verify --json`` gives it to scripts).
    """

    def __init__(self, message: Msg, seq: int, reason: str, damage: Msg | None = None) -> None:
        super().__init__(message)
        self.seq = seq
        self.reason = reason
        self.damage = damage or message

    @property
    def what(self) -> str:
        return str(self.damage)


class JournalChanged(JournalError):
    """The journal's files were removed or replaced under the running daemon: it stops acknowledging."""


#: What a folder is for, in the sentences about it (``holds``).
HOLDS_JOURNAL = Msg("journal.holds.journal")
HOLDS_TOKEN = Msg("journal.holds.token")


def where_journal(path: Any) -> Msg:
    """``journal <path>``: the subject of a sentence about a journal file."""
    return Msg("journal.where", {"path": str(path)})
