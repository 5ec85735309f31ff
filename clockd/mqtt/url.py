"""The broker's address as one text: ``mqtt://USER:PASSWORD@HOST:PORT`` or ``mqtts://…``.

A node and the desk are each given one URL (``duelclock run --node pi1 --mqtt URL``): the
broker, who they are on it and their password, in one thing to copy from the broker's
screen (``duelclock broker`` prints them). ``mqtts://`` is MQTT over TLS (port 8883 unless
given); ``?ca=PATH`` names the certificate authority to trust (a self-signed broker's own
certificate), else the system's. The password may instead come from a file (its first
line: :func:`broker_url`'s ``password_file``), so that it is not in the shell's history or ``ps``.

The password is never shown: :meth:`BrokerUrl.redacted` is the URL for logs and screens,
and the error messages name the part that is wrong, never the whole URL.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, unquote, urlsplit

from clockd.i18n import Problem

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

SCHEMES = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True, slots=True)
class BrokerUrl:
    """Where the broker is and who logs in: what a client needs to connect."""

    host: str
    port: int
    username: str
    password: str = field(repr=False)
    tls: bool = False
    ca: Path | None = None

    @property
    def scheme(self) -> str:
        return "mqtts" if self.tls else "mqtt"

    def _host_text(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    def redacted(self) -> str:
        """The URL without the password (``mqtt://pi1:***@hall:1883``): for logs and screens."""
        user = quote(self.username, safe="")
        return f"{self.scheme}://{user}:***@{self._host_text()}:{self.port}{self._query()}"

    def text(self) -> str:
        """The whole URL, password included (what ``duelclock broker`` prints for each machine)."""
        user = quote(self.username, safe="")
        password = quote(self.password, safe="")
        return f"{self.scheme}://{user}:{password}@{self._host_text()}:{self.port}{self._query()}"

    def _query(self) -> str:
        return f"?ca={quote(str(self.ca))}" if self.ca is not None else ""

    def configure(self, client: mqtt.Client) -> None:
        """Give ``client`` the user, the password and (for ``mqtts``) TLS; then
        ``client.connect(url.host, url.port)``."""
        client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=str(self.ca) if self.ca is not None else None)

    def connect_kwargs(self) -> dict[str, str | int]:
        """``host`` and ``port`` for ``client.connect(**url.connect_kwargs())``."""
        return {"host": self.host, "port": self.port}


def broker_url(text: str, password_file: Path | None = None) -> BrokerUrl:
    """Parse a broker URL; the password from ``password_file`` (its first line) if given.

    Raises a :class:`~clockd.i18n.Problem` (``mqtt.url-*``) naming what is wrong."""
    raw = text.strip()
    scheme, sep, _ = raw.partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        raise Problem("mqtt.url-scheme", scheme=scheme if sep else raw.split(":")[0][:20])  # never a password
    try:
        parts = urlsplit(raw)
        port_given = parts.port
    except ValueError:
        raise Problem("mqtt.url-port", port=raw.rpartition(":")[2].split("?")[0].split("/")[0]) from None
    tls = parts.scheme.lower() == "mqtts"
    host = parts.hostname or ""
    if not host:
        raise Problem("mqtt.url-host")
    if not _valid_host(host):
        raise Problem("mqtt.url-bad-host", host=host)
    if port_given == 0:
        raise Problem("mqtt.url-port", port=0)
    port = port_given if port_given is not None else SCHEMES["mqtts" if tls else "mqtt"]
    if parts.path not in ("", "/"):
        raise Problem("mqtt.url-path", path=parts.path)
    username = unquote(parts.username or "")
    if not username:
        raise Problem("mqtt.url-user")
    password = unquote(parts.password) if parts.password is not None else None
    if password_file is not None:
        if password is not None:
            raise Problem("mqtt.url-two-passwords", file=password_file)
        password = _first_line(password_file)
    if not password:
        raise Problem("mqtt.url-password", user=username)
    ca = _ca(parts.query, tls)
    return BrokerUrl(host=host, port=port, username=username, password=password, tls=tls, ca=ca)


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    return all(0 < len(label) <= 63 and label.replace("-", "").replace("_", "").isalnum() for label in labels)


def _first_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise Problem("mqtt.url-password-file", file=path, problem=exc) from exc
    line = lines[0].strip() if lines else ""
    if not line:
        raise Problem("mqtt.url-password-file-empty", file=path)
    return line


def _ca(query: str, tls: bool) -> Path | None:
    if not query:
        return None
    try:
        params = parse_qs(query, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Problem("mqtt.url-query", query=query) from None
    unknown = sorted(set(params) - {"ca"})
    if unknown:
        raise Problem("mqtt.url-query", query=", ".join(unknown))
    values = params.get("ca", [])
    if len(values) != 1 or not values[0]:
        raise Problem("mqtt.url-ca-empty")
    if not tls:
        raise Problem("mqtt.url-ca-without-tls")
    return Path(values[0])
