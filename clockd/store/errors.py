"""What can go wrong with a journal, as exception classes (each message names the file and what to do)."""

from __future__ import annotations


class JournalError(RuntimeError):
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
    command can put into the referee's language:

    * ``changed`` — the event at ``seq`` (or the hash stored with it) was changed after it was written;
    * ``missing`` — the event at ``seq`` is missing (rows on both sides of it are there);
    * ``unchained`` — the event at ``seq`` has no chain hash;
    * ``no-head`` — the chain head recorded in ``meta`` is missing;
    * ``cut`` — the journal ends before the head recorded in ``meta``: events from ``seq`` on are gone;
    * ``head`` — the last event is not the recorded head (rows changed or added outside duelclock);
    * ``lost`` — the journal ends before the head its lock file recorded (a deleted ``-wal``?);
    * ``rewritten`` — the event at the lock file's head is not the one recorded there.
    """

    def __init__(self, message: str, seq: int, reason: str, what: str = "") -> None:
        super().__init__(message)
        self.seq = seq
        self.reason = reason
        self.what = what or message  # the damage alone, without what to do about it


class JournalChanged(JournalError):
    """The journal's files were removed or replaced under the running daemon: it stops acknowledging."""
