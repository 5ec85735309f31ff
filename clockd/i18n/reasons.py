"""Why the system refused, in the reader's language: operating-system and SQLite errors as codes.

A journal that cannot be opened, a port already taken, a daemon that does not answer: the
sentence around the reason is ours, but the reason itself comes from the C library
(``exc.strerror``) or from SQLite — in English, whatever the referee's language. The
common reasons are looked up here by their number (``errno``) or SQLite's error name and
become catalogue codes (``oserror.permission-denied``, ``sqlite-error.not-a-database``);
a rare one keeps the system's own words, which still say what happened.

:func:`error_msg` is what :func:`clockd.i18n.render_error` and a message parameter holding
an exception use: an exception's own message if it carries one, else these reasons.
"""

from __future__ import annotations

import errno
from typing import Any

from clockd.i18n import Msg

#: The operating system's reasons a referee is likely to meet, by errno.
OS_REASONS = {
    errno.ECONNREFUSED: "oserror.connection-refused",
    errno.ETIMEDOUT: "oserror.timed-out",
    errno.EHOSTUNREACH: "oserror.host-unreachable",
    errno.ENETUNREACH: "oserror.network-unreachable",
    errno.ECONNRESET: "oserror.connection-reset",
    errno.ECONNABORTED: "oserror.connection-aborted",
    errno.EPIPE: "oserror.broken-pipe",
    errno.EACCES: "oserror.permission-denied",
    errno.EPERM: "oserror.not-permitted",
    errno.ENOENT: "oserror.no-such-file",
    errno.ENOTDIR: "oserror.not-a-folder",
    errno.EISDIR: "oserror.is-a-folder",
    errno.EEXIST: "oserror.exists",
    errno.ENOSPC: "oserror.disk-full",
    errno.EDQUOT: "oserror.quota-exceeded",
    errno.EROFS: "oserror.read-only-file-system",
    errno.EADDRINUSE: "oserror.address-in-use",
    errno.EADDRNOTAVAIL: "oserror.address-not-available",
    errno.EIO: "oserror.input-output",
    errno.EBUSY: "oserror.busy",
    errno.ENODEV: "oserror.no-such-device",
    errno.ENXIO: "oserror.no-such-device",
    errno.ELOOP: "oserror.too-many-links",
    errno.ENAMETOOLONG: "oserror.name-too-long",
    errno.EMFILE: "oserror.too-many-open-files",
    errno.ENFILE: "oserror.too-many-open-files",
}

#: SQLite's reasons, by the start of its error name (``SQLITE_IOERR_SHORT_READ`` is an I/O error).
SQLITE_REASONS = (
    ("SQLITE_NOTADB", "sqlite-error.not-a-database"),
    ("SQLITE_CORRUPT", "sqlite-error.damaged"),
    ("SQLITE_BUSY", "sqlite-error.busy"),
    ("SQLITE_LOCKED", "sqlite-error.busy"),
    ("SQLITE_IOERR", "sqlite-error.input-output"),
    ("SQLITE_FULL", "sqlite-error.disk-full"),
    ("SQLITE_READONLY", "sqlite-error.read-only"),
    ("SQLITE_CANTOPEN", "sqlite-error.cannot-open"),
)


def os_reason(exc: OSError) -> Msg | str:
    """Why the system call failed: a catalogue message for a common reason, else the system's words."""
    import socket

    if isinstance(exc, socket.gaierror):
        return Msg("oserror.unknown-host")
    code = OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if code is None and isinstance(exc, TimeoutError):
        code = "oserror.timed-out"  # a socket's timeout has no errno
    if code is not None:
        return Msg(code)
    return exc.strerror or str(exc) or type(exc).__name__


def sqlite_reason(exc: BaseException) -> Msg | str:
    """Why SQLite refused (its error name, where Python gives it), else SQLite's own sentence."""
    name = getattr(exc, "sqlite_errorname", None)
    if isinstance(name, str):
        for prefix, code in SQLITE_REASONS:
            if name.startswith(prefix):
                return Msg(code)
    return str(exc) or type(exc).__name__


def error_msg(exc: BaseException) -> Msg | str:
    """What to tell a person about ``exc``: its own message (``msg``, or ``code`` and ``params``),
    an operating system's or SQLite's reason, else the exception's text."""
    found: Any = getattr(exc, "msg", None)
    if isinstance(found, Msg):
        return found
    code, params = getattr(exc, "code", None), getattr(exc, "params", None)
    if isinstance(code, str) and isinstance(params, dict):
        return Msg(code, params)
    if isinstance(exc, OSError):
        return os_reason(exc)
    if getattr(exc, "sqlite_errorname", None) is not None:
        return sqlite_reason(exc)
    return str(exc)
