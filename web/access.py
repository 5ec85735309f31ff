"""Who may enter results: personal PINs and one-time QR codes, sessions, and the lock-out.

The desk (a holder of the daemon's token: ``duelclock web pin`` / ``duelclock web qr``)
writes the access file — ``web-access.json`` in the daemon's state folder, readable by its
owner only, like ``daemon.json``. It holds no PIN and no code in clear. A PIN is kept as
scrypt of it under the file's salt, with the cost parameters beside it (:data:`PIN_KDF`): a
PIN has only a million values, so a fast digest of it (an HMAC whose key sits in the same
file) gives every PIN back to whoever copies the file in a second; scrypt makes that hours of
work per file and every login one computation. A one-time code (144 random bits, nothing to
guess) is an HMAC under the file's key. A file written before the KDF keeps its PINs as HMACs:
each is read as before and rewritten as scrypt the first time it is entered right. Each
person has a name (the journal's ``by``: the desk sees who entered what) and a scope (the
events they may enter results for).

Sessions live in the web process's memory: a random id in a cookie (HttpOnly,
SameSite=Strict), a CSRF token of its own, an absolute lifetime and an idle one. Five
wrong PINs (or codes) from one address lock that address out for a while, and twenty from
all addresses together lock every login (:class:`Lockout`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ACCESS_FILE = "web-access.json"
#: The PIN digest's cost, stored in the file with its salt (a later change reads older files):
#: scrypt's interactive setting, 16 MiB and some tens of milliseconds a PIN.
PIN_KDF = {"name": "scrypt", "n": 2**14, "r": 8, "p": 1}


@dataclass(frozen=True)
class Person:
    """An arbiter or volunteer as the desk registered them."""

    id: str
    name: str
    events: tuple[str, ...]  # event keys they may enter results for; ("*",): every event

    def may(self, event: str) -> bool:
        return "*" in self.events or event in self.events


class AccessFile:
    """The access file: people with PINs, one-time codes. Every change is one atomic replace under a lock."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, Any]]:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = self.path.with_name(self.path.name + ".lock")
        fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            data = self._read()
            before = json.dumps(data, sort_keys=True)
            yield data
            if json.dumps(data, sort_keys=True) != before:
                tmp = self.path.with_name(self.path.name + ".tmp")
                with open(
                    os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600), "w", encoding="utf-8"
                ) as f:
                    json.dump(data, f, indent=1, ensure_ascii=False)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
        finally:
            os.close(fd)

    def _read(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            data = {}
        data.setdefault("key", secrets.token_hex(32))
        data.setdefault("pin_kdf", {**PIN_KDF, "salt": secrets.token_hex(16)})
        data.setdefault("people", [])
        data.setdefault("codes", [])
        return data

    @staticmethod
    def _digest(data: dict[str, Any], secret: str) -> str:
        return hmac.new(bytes.fromhex(data["key"]), secret.encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def _pin_digest(data: dict[str, Any], pin: str) -> str:
        """scrypt of ``pin`` with the file's salt and stored cost (one salt per file: a login is
        one computation however many people the file holds)."""
        kdf = data["pin_kdf"]
        if kdf.get("name") != "scrypt":
            raise ValueError(f"unknown PIN digest {kdf.get('name')!r}")
        n, r, p = int(kdf["n"]), int(kdf["r"]), int(kdf["p"])
        salt = bytes.fromhex(kdf["salt"])
        return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r, dklen=32).hex()

    def _matches(self, data: dict[str, Any], record: dict[str, Any], pin: str, kdf: str) -> bool:
        """Whether ``record`` is ``pin``'s (``kdf``: the PIN's scrypt digest, computed once)."""
        if record.get("kdf"):
            return hmac.compare_digest(record["pin"], kdf)
        return hmac.compare_digest(record["pin"], self._digest(data, pin))  # an older file's HMAC

    def add_pin(self, name: str, events: list[str], *, digits: int = 6) -> str:
        """A new PIN for ``name`` (replacing theirs, if any), unique among the file's PINs."""
        with self._locked() as data:
            data["people"] = [p for p in data["people"] if p["name"] != name]
            while True:
                pin = "".join(secrets.choice("0123456789") for _ in range(digits))
                kdf = self._pin_digest(data, pin)
                if not any(self._matches(data, p, pin, kdf) for p in data["people"]):
                    break
            record = {"id": secrets.token_hex(4), "name": name, "events": events, "pin": kdf, "kdf": 1}
            data["people"].append(record)
        return pin

    def remove(self, name: str) -> bool:
        with self._locked() as data:
            before = len(data["people"]) + len(data["codes"])
            data["people"] = [p for p in data["people"] if p["name"] != name]
            data["codes"] = [c for c in data["codes"] if c["name"] != name]
            return before != len(data["people"]) + len(data["codes"])

    def add_code(self, name: str, events: list[str], *, valid_s: int = 12 * 3600) -> str:
        """A one-time login code for ``name`` (the QR code's secret), valid ``valid_s``."""
        code = secrets.token_urlsafe(18)
        with self._locked() as data:
            data["codes"].append(
                {
                    "id": secrets.token_hex(4),
                    "name": name,
                    "events": events,
                    "code": self._digest(data, code),
                    "until": int(time.time()) + valid_s,
                }
            )
        return code

    def people(self) -> list[Person]:
        data = self._read()
        return [Person(p["id"], p["name"], tuple(p["events"])) for p in data["people"]]

    def check_pin(self, pin: str) -> Person | None:
        """The person whose PIN this is, or ``None`` (slow on purpose: one scrypt). An older
        file's HMAC record that matches is rewritten as scrypt on the spot."""
        if not pin.isdigit() or len(pin) > 12 or not self.path.exists():
            return None
        data = self._read()
        kdf = self._pin_digest(data, pin)
        for p in data["people"]:
            if self._matches(data, p, pin, kdf):
                if not p.get("kdf"):
                    self._migrate(p["id"], pin)
                return Person(p["id"], p["name"], tuple(p["events"]))
        return None

    def _migrate(self, person: str, pin: str) -> None:
        with self._locked() as data:
            for p in data["people"]:
                if p["id"] == person and not p.get("kdf") and self._matches(data, p, pin, ""):
                    p["pin"], p["kdf"] = self._pin_digest(data, pin), 1

    def use_code(self, code: str) -> Person | None:
        """The person a one-time code is for, and the code spent; None if unknown, used or expired."""
        if not code or len(code) > 64 or not self.path.exists():
            return None
        with self._locked() as data:
            digest = self._digest(data, code)
            now = time.time()
            data["codes"] = [c for c in data["codes"] if c["until"] > now]
            for c in data["codes"]:
                if hmac.compare_digest(c["code"], digest):
                    data["codes"].remove(c)
                    return Person("q" + c["id"], c["name"], tuple(c["events"]))
        return None


@dataclass
class Session:
    id: str
    person: Person
    csrf: str
    started: float
    seen: float


@dataclass
class Sessions:
    """Logged-in arbiters, in memory: expire ``lifetime_s`` after login or ``idle_s`` after the last use."""

    lifetime_s: float = 12 * 3600
    idle_s: float = 2 * 3600
    clock: Callable[[], float] = time.monotonic
    _all: dict[str, Session] = field(default_factory=dict)

    def open(self, person: Person) -> Session:
        now = self.clock()
        s = Session(secrets.token_urlsafe(32), person, secrets.token_urlsafe(24), now, now)
        self._all[s.id] = s
        if len(self._all) > 10_000:  # bounded: the oldest go first
            for sid in sorted(self._all, key=lambda k: self._all[k].seen)[:1000]:
                del self._all[sid]
        return s

    def get(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        s = self._all.get(sid)
        if s is None:
            return None
        now = self.clock()
        if now - s.started > self.lifetime_s or now - s.seen > self.idle_s:
            del self._all[sid]
            return None
        s.seen = now
        return s

    def close(self, sid: str | None) -> None:
        if sid:
            self._all.pop(sid, None)


@dataclass
class Lockout:
    """Wrong tries lock out: ``limit`` from one address within ``window_s`` lock that address
    for ``lock_s``; ``network_limit`` from all addresses together within ``window_s`` lock
    every login for ``lock_s``, whichever PIN is typed — so many addresses (a botnet, one
    machine with many loopback or IPv6 addresses) cannot share the guessing between them: at
    most ``network_limit`` guesses per ``lock_s``, in all. A locked login is refused
    before its PIN is even looked at (no slow digest spent on a flood). The price: a flood
    locks the arbiters' logins too for a while; open sessions go on, and the desk can always
    enter results."""

    limit: int = 5
    window_s: float = 15 * 60
    lock_s: float = 15 * 60
    network_limit: int = 20
    clock: Callable[[], float] = time.monotonic
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _until: dict[str, float] = field(default_factory=dict)

    #: The key the network-wide count and lock are kept under (never an address: it has a space).
    NETWORK = "every address"

    def locked_for(self, who: str) -> float:
        """Seconds ``who`` (an address) is still locked out, by its own or all addresses' tries (0: none)."""
        return max(self._left(who), self._left(self.NETWORK))

    def _left(self, key: str) -> float:
        until = self._until.get(key, 0.0)
        left = until - self.clock()
        if left <= 0 and key in self._until:
            del self._until[key]
        return max(0.0, left)

    def wrong(self, who: str) -> bool:
        """Count a wrong try from ``who``; True if ``who`` is now locked out (itself or every address)."""
        mine = self._count(who, self.limit)
        network = self._count(self.NETWORK, self.network_limit)
        return mine or network

    def _count(self, key: str, limit: int) -> bool:
        now = self.clock()
        tries = [t for t in self._wrong.get(key, []) if now - t < self.window_s] + [now]
        self._wrong[key] = tries
        if len(self._wrong) > 100_000:
            network = self._wrong.get(self.NETWORK, [])
            self._wrong.clear()
            self._wrong[self.NETWORK] = network
        if len(tries) >= limit:
            self._until[key] = now + self.lock_s
            self._wrong[key] = []
            return True
        return False

    def right(self, who: str) -> None:
        self._wrong.pop(who, None)
