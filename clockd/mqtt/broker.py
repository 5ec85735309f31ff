"""The broker the desk and its table nodes meet on: Mosquitto, configured by duelclock.

:class:`BrokerPlan` says where (a private folder), on which address and for which nodes;
:meth:`BrokerPlan.write` writes Mosquitto's files there:

* ``mosquitto.conf`` — one listener, no anonymous clients, the password and ACL files, the
  largest packet (:data:`~clockd.mqtt.topics.MAX_PACKET_BYTES`),
  persistence in the folder (so the QoS 1 messages queued for a node that is away, and its
  session, survive a restart of the broker), log to stderr, TLS when a certificate is given;
* ``passwd`` — the users (``desk`` and every node) hashed by ``mosquitto_passwd``;
* ``acl`` — who may read and write which topic, from :func:`clockd.mqtt.topics.acl_lines`
  (a node writes only under its own name and reads only its own commands; only the desk
  commands);
* ``credentials.json`` — each user's password in clear (random, ``secrets.token_urlsafe``),
  so that a re-run (a node added) keeps the passwords the machines already have.

Every file is ``0600`` and the folder ``0700`` (:mod:`clockd.store.files`): the passwords let
anyone publish as a node, i.e. write into the desk's journal.

:class:`Broker` runs Mosquitto on those files as a child process (``duelclock broker`` in the
foreground, the tests' fixture in ``tests/mqtt``).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from clockd.i18n import Msg, Problem
from clockd.mqtt.topics import DESK_USER, MAX_PACKET_BYTES, acl_lines, valid_node_name
from clockd.mqtt.url import BrokerUrl
from clockd.store.files import PRIVATE_FILE, make_private, private_folder, replace_file

HOLDS_BROKER = Msg("mqtt.holds.broker")

CONF = "mosquitto.conf"
PASSWD = "passwd"
ACL = "acl"
CREDENTIALS = "credentials.json"
LOG = "mosquitto.log"

#: How long Mosquitto may take to listen after it is started (it takes milliseconds; a slow Pi
#: loading a large persistence file takes longer).
#: How long Mosquitto must stay up after its port first accepts to count as started.
SETTLE_S = 0.3
START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 10.0

#: Seconds between Mosquitto's saves of its persistence file. It also saves when stopped; this
#: bounds what a power cut loses (a node re-sends what was not acknowledged by the desk anyway).
AUTOSAVE_S = 5


def mosquitto_binary() -> str:
    """The ``mosquitto`` program, or a :class:`Problem` saying how to install it."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None
    )
    if found is None:
        raise Problem("mqtt.broker-no-mosquitto", program="mosquitto")
    return found


def mosquitto_passwd_binary() -> str:
    found = shutil.which("mosquitto_passwd") or next(
        (
            p
            for p in ("/usr/bin/mosquitto_passwd", "/usr/local/bin/mosquitto_passwd")
            if os.access(p, os.X_OK)
        ),
        None,
    )
    if found is None:
        raise Problem("mqtt.broker-no-mosquitto", program="mosquitto_passwd")
    return found


@dataclass(frozen=True, slots=True)
class BrokerFiles:
    """What :meth:`BrokerPlan.write` wrote: the paths, the users' passwords, the address."""

    folder: Path
    host: str
    port: int
    tls: bool
    passwords: dict[str, str] = field(repr=False)

    @property
    def conf(self) -> Path:
        return self.folder / CONF

    @property
    def passwd(self) -> Path:
        return self.folder / PASSWD

    @property
    def acl(self) -> Path:
        return self.folder / ACL

    @property
    def credentials(self) -> Path:
        return self.folder / CREDENTIALS

    @property
    def log(self) -> Path:
        return self.folder / LOG

    @property
    def nodes(self) -> list[str]:
        return sorted(u for u in self.passwords if u != DESK_USER)

    def broker_url(self, user: str, host_for_clients: str | None = None) -> BrokerUrl:
        if user not in self.passwords:
            raise Problem("mqtt.broker-no-user", user=user, users=", ".join(sorted(self.passwords)))
        return BrokerUrl(
            host=host_for_clients or self.host,
            port=self.port,
            username=user,
            password=self.passwords[user],
            tls=self.tls,
        )

    def url_for(self, user: str, host_for_clients: str | None = None) -> str:
        """``mqtt://user:password@host:port`` for ``user`` (``mqtts://`` with TLS)."""
        return self.broker_url(user, host_for_clients).text()


@dataclass(frozen=True, slots=True)
class BrokerPlan:
    """Mosquitto for a desk and ``nodes``, its files in ``folder``, listening on ``host:port``."""

    folder: Path
    nodes: list[str]
    host: str = "127.0.0.1"
    port: int = 1883
    tls_cert: Path | None = None
    tls_key: Path | None = None

    def check(self) -> list[str]:
        """The nodes, each once, in order; a :class:`Problem` for the first bad one (nothing written)."""
        out: list[str] = []
        for name in self.nodes:
            if not valid_node_name(name):
                code = "mqtt.broker-desk-name" if name == DESK_USER else "mqtt.broker-bad-node"
                raise Problem(code, name=name)
            if name not in out:
                out.append(name)
        if not out:
            raise Problem("mqtt.broker-no-nodes")
        if not 0 < self.port < 65536:
            raise Problem("mqtt.broker-bad-port", port=self.port)
        if (self.tls_cert is None) != (self.tls_key is None):
            raise Problem("mqtt.broker-tls-pair")
        for path in (self.folder, self.tls_cert, self.tls_key):
            if path is not None and any(c in str(path) for c in "\n\r"):
                raise Problem("mqtt.broker-bad-path", path=repr(str(path)))
        for path in (self.tls_cert, self.tls_key):
            if path is not None and not path.is_file():
                raise Problem("mqtt.broker-no-file", path=path)
        return out

    def write(self) -> BrokerFiles:
        """Write the folder's files (the passwords kept from an earlier run); return what was written."""
        nodes = self.check()
        folder = self.folder.absolute()
        private_folder(folder, holds=HOLDS_BROKER)
        passwords = _read_credentials(folder / CREDENTIALS)
        for user in [DESK_USER, *nodes]:
            passwords.setdefault(user, secrets.token_urlsafe(24))
        # Users of an earlier run whom this plan does not name keep their passwords in the
        # credentials file but lose their login: the passwd and ACL files hold only this plan.
        users = {u: passwords[u] for u in [DESK_USER, *nodes]}
        _write_passwd(folder / PASSWD, users)
        replace_file(folder / ACL, ("\n".join(acl_lines(nodes)) + "\n").encode())
        replace_file(folder / CREDENTIALS, (json.dumps(passwords, indent=2, sort_keys=True) + "\n").encode())
        replace_file(folder / CONF, self._conf(folder).encode())
        return BrokerFiles(
            folder=folder, host=self.host, port=self.port, tls=self.tls_cert is not None, passwords=users
        )

    def _conf(self, folder: Path) -> str:
        lines = [
            "# Written by `duelclock broker`; it is rewritten at each run (see docs/mqtt.md).",
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {folder / PASSWD}",
            f"acl_file {folder / ACL}",
            "persistence true",
            f"persistence_location {folder}/",
            f"autosave_interval {AUTOSAVE_S}",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
            # A press's row and a hall signal are small packets: sent at once, not held back
            # by Nagle's algorithm for the previous one's acknowledgement (up to 40 ms here).
            "set_tcp_nodelay true",
            # No message bigger than the desk and the nodes ever send (a catch-up piece is a
            # quarter of it): a bigger one disconnects its sender and reaches nobody.
            f"max_packet_size {MAX_PACKET_BYTES}",
            # Run as root, Mosquitto would become the user `mosquitto`, who cannot read these
            # owner-only files: it stays who started it (ignored when that is not root).
            f"user {pwd.getpwuid(os.geteuid()).pw_name}",
            "",
            f"listener {self.port} {self.host}",
        ]
        if self.tls_cert is not None and self.tls_key is not None:
            lines += [f"certfile {self.tls_cert.absolute()}", f"keyfile {self.tls_key.absolute()}"]
        return "\n".join(lines) + "\n"


def _read_credentials(path: Path) -> dict[str, str]:
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise Problem("mqtt.broker-credentials-unreadable", path=path, problem=exc) from exc
    make_private(path)
    try:
        data = json.loads(raw)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        column = getattr(exc, "colno", 1)
        raise Problem("mqtt.broker-credentials-bad", path=path, line=line, column=column) from exc
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in data.items()
    ):
        raise Problem("mqtt.broker-credentials-bad", path=path, line=1, column=1)
    return dict(data)


def _write_passwd(path: Path, users: dict[str, str]) -> None:
    """Mosquitto's password file, hashed by ``mosquitto_passwd -U`` (the plain ``user:password``
    lines in a private temporary file, hashed in place: the passwords are never on a command
    line, where ``ps`` would show them), then moved into place."""
    program = mosquitto_passwd_binary()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(f"{user}:{password}\n" for user, password in users.items()))
        done = subprocess.run([program, "-U", tmp], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Problem("mqtt.broker-passwd-failed", output=(done.stderr or done.stdout).strip())
        os.chmod(tmp, PRIVATE_FILE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Broker:
    """Mosquitto on a plan's files, as a child process; its log in ``mosquitto.log`` beside them."""

    def __init__(self, plan: BrokerPlan) -> None:
        self.plan = plan
        self._files: BrokerFiles | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def files(self) -> BrokerFiles:
        """The files (written at the first use)."""
        if self._files is None:
            self._files = self.plan.write()
        return self._files

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> None:
        """Start Mosquitto and return once its port accepts connections; a :class:`Problem` with
        Mosquitto's own words when it stops or does not listen in time."""
        if self.running:
            return
        files = self.files
        program = mosquitto_binary()
        probe = _probe_host(self.plan.host)
        if _accepts(probe, self.plan.port):
            # another program (an earlier broker?) has the port: waiting for it to accept would
            # take that one for ours
            raise Problem("mqtt.broker-port-busy", port=self.plan.port, host=self.plan.host)
        fd = os.open(files.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, PRIVATE_FILE)
        start_at = os.fstat(fd).st_size
        try:
            self._proc = subprocess.Popen(
                [program, "-c", str(files.conf)],
                stdin=subprocess.DEVNULL,
                stdout=fd,
                stderr=fd,
                # its own process group: Ctrl+C reaches duelclock, which stops it (SIGTERM) and waits
                start_new_session=True,
                umask=0o077,  # its persistence file holds the queued journal records: owner-only
            )
        finally:
            os.close(fd)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self._proc.poll() is not None:
                said = self._said(start_at)
                self._proc = None
                raise Problem("mqtt.broker-exited", port=self.plan.port, output=said)
            if _accepts(probe, self.plan.port):
                if self._stays_up():
                    return
                continue  # it exited after opening its port: said at the top of the loop
            if time.monotonic() > deadline:
                said = self._said(start_at)
                self.kill()
                raise Problem(
                    "mqtt.broker-not-listening", port=self.plan.port, seconds=START_TIMEOUT_S, output=said
                )
            time.sleep(0.02)  # polling a port that is about to open

    def _stays_up(self) -> bool:
        """Whether Mosquitto is still running a moment after its port first accepted: it can open
        a listener and then exit on what it reads next (a certificate that is not PEM), and a
        broker that is gone must not be reported as started."""
        settle = time.monotonic() + SETTLE_S
        while time.monotonic() < settle:
            if self._proc is None or self._proc.poll() is not None:
                return False
            time.sleep(0.02)
        return True

    def _said(self, start_at: int) -> str:
        try:
            with open(self.files.log, "rb") as f:
                f.seek(start_at)
                return f.read().decode("utf-8", "replace").strip()[-2000:]
        except OSError:
            return ""

    def wait(self) -> int | None:
        """Wait for Mosquitto to end by itself; its exit status (``None`` if it was not running)."""
        return self._proc.wait() if self._proc is not None else None

    def stop(self) -> None:
        """Stop Mosquitto (SIGTERM: it saves its persistence file) and wait for it."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        """Kill Mosquitto at once (SIGKILL: as a power cut would; nothing is saved)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.kill()
        proc.wait()


def _probe_host(listen_host: str) -> str:
    """Where to knock to see whether a broker listening on ``listen_host`` is up."""
    return {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(listen_host, listen_host)


def _accepts(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def lan_address() -> str:
    """This machine's address on the network (the interface a packet to the outside would leave
    by; nothing is sent), else its host name: what the nodes use to reach a broker on ``0.0.0.0``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = str(s.getsockname()[0])
            if not address.startswith("127.") and address != "0.0.0.0":
                return address
    except OSError:
        pass
    return socket.gethostname()


def host_for_clients(listen_host: str) -> str:
    """The host name the printed URLs carry for a broker listening on ``listen_host``."""
    return lan_address() if listen_host in ("0.0.0.0", "::", "") else listen_host
