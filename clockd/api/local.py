"""Where the local daemon says how to reach it: ``daemon.json`` in duelclock's state folder.

``duelclock run`` writes it at start (address, port, the referee's token, the database);
``duelclock status``, ``duelclock table …`` and the GUI read it, so on the referee's own
laptop nobody types a port or a token. The file is readable by its owner only (it holds
the token), in a folder only its owner can enter. It is the one place the token is kept in
clear (the journal holds a hash of it), so a daemon that stops leaves it in place, marked
stopped (no pid): the next start on the same journal takes the token back from it.

The folder is ``$DUELCLOCK_STATE_DIR``, else ``$XDG_STATE_HOME/duelclock``, else
``~/.local/state/duelclock``. The default journal lives there too (``duelclock.db``).
"""

from __future__ import annotations

import json
import os
import ssl
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from clockd.api.messages import DEFAULT_PORT

INFO_FILE = "daemon.json"
DEFAULT_DB = "duelclock.db"


def state_dir() -> Path:
    explicit = os.environ.get("DUELCLOCK_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "duelclock"


class DaemonInfo(BaseModel):
    """How to reach a running daemon."""

    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: str | None = None
    pid: int | None = None
    db: str | None = None
    #: The certificate the daemon serves TLS with (``--tls-cert``), so local clients can check it.
    tls_cert: str | None = None


def info_path() -> Path:
    return state_dir() / INFO_FILE


def write_info(info: DaemonInfo, path: Path | None = None) -> Path:
    """Write ``info`` atomically (a reader never sees half a file), owner-only."""
    path = path or info_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(info.model_dump_json(indent=2) + "\n")
    os.replace(tmp, path)
    return path


def read_info(path: Path | None = None) -> DaemonInfo | None:
    """What the last daemon started here wrote, or ``None`` if nothing (readable) is there."""
    path = path or info_path()
    try:
        return DaemonInfo.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return None


def resolve(
    host: str | None = None, port: int | None = None, token: str | None = None, path: Path | None = None
) -> tuple[str, int, str | None]:
    """Where to reach the local daemon and with what token: what the caller gives, else what
    ``daemon.json`` says, else 127.0.0.1 on the default port with no token.

    ``daemon.json``'s token goes only to the daemon that wrote it: asked for another address,
    a client gets no token unless it is given one (a command never hands the local referee's
    token to whatever host it was pointed at)."""
    info = read_info(path)
    same = info is not None and host in (None, info.host) and port in (None, info.port)
    return (
        host or (info.host if info else "127.0.0.1"),
        port or (info.port if info else DEFAULT_PORT),
        token if token is not None else (info.token if info is not None and same else None),
    )


#: A certificate file to check the daemon's TLS against when none is given (``--tls-ca``).
TLS_CA_ENV = "DUELCLOCK_TLS_CA"


def tls_client_context(cafile: str | Path) -> ssl.SSLContext:
    """A client's TLS context that trusts the daemon whose certificate is ``cafile``.

    ``cafile`` is the daemon's own certificate (self-signed, as a festival laptop's is) or the
    certificate of the authority that signed it. The certificate is checked; the name in it
    is not (the daemon is reached by an address that changes from hall to hall): whoever
    presents it must hold its key. Raises :class:`OSError` if the file cannot be read and
    :class:`ssl.SSLError` if it holds no certificate.
    """
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(cafile))
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def local_tls(
    tls_ca: str | Path | None = None,
    host: str | None = None,
    port: int | None = None,
    path: Path | None = None,
) -> ssl.SSLContext | None:
    """The TLS context to reach a daemon with, or ``None`` for clear TCP.

    ``tls_ca`` if given (or ``$DUELCLOCK_TLS_CA``); else the certificate the local daemon
    wrote in ``daemon.json``, if it serves TLS and the address asked for is its own.
    """
    cafile = tls_ca or os.environ.get(TLS_CA_ENV)
    if cafile:
        return tls_client_context(cafile)
    info = read_info(path)
    if info is None or not info.tls_cert:
        return None
    if (host is not None and host != info.host) or (port is not None and port != info.port):
        return None
    return tls_client_context(info.tls_cert)


def mark_stopped(pid: int, path: Path | None = None) -> None:
    """Mark the file stopped (no pid) if it still describes the daemon ``pid`` (a newer daemon
    may own it). It keeps the token: only the journal's hash of it is kept anywhere else."""
    path = path or info_path()
    info = read_info(path)
    if info is not None and info.pid == pid:
        write_info(info.model_copy(update={"pid": None}), path)


def remove_info(pid: int, path: Path | None = None) -> None:
    """Remove the file if it still describes the daemon ``pid`` (a newer daemon may own it)."""
    path = path or info_path()
    info = read_info(path)
    if info is not None and info.pid == pid:
        path.unlink(missing_ok=True)


def login_name() -> str:
    """Who sits at this computer, by their login name ("" if the system cannot say): the
    referee an action is journaled as when nobody says otherwise (``--by``)."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address of this machine only (127.0.0.0/8, ::1, localhost): what the
    daemon and the web pages serve without saying what being reachable from the network means."""
    import ipaddress

    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may be anything
