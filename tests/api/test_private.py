"""Nothing private leaves the daemon without the token, on any request or push (issue 20, item 1).

A stranger on the same machine or network connects to the real ``duelclock run`` process
with no token and asks for everything it can — every push (with the timeline), every
read — while the referee imports a sign-up file (with a 12-year-old the rules refuse) and
types in a walk-in at the desk through the real ``duelclock tournament`` commands. Not one
surname, e-mail, phone, age, nor the refused child's entry, may reach it. The referee, with
the token, still sees the refusals (to tell those people).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clockd.cli import main

CSV = (
    "Imię;Nazwisko;E-mail;Telefon;Wiek\n"
    "Anna;Kowalska-Tajna;anna.tajna@example.pl;600 111 222;31\n"
    "Piotr;Nowak-Tajny;piotr.tajny@example.pl;600 111 333;45\n"
    "Ola;Wiśniewska-Tajna;ola.tajna@example.pl;600 111 444;19\n"
    "Mała;Dziecko-Tajna;mala.tajna@example.pl;600 333 444;12\n"  # under 13: refused (§1.9)
    "Ewa;Zielińska-Tajna;ewa.tajna@example.pl;600 111 555;27\n"
)
WALK_IN = ["--first", "Wojtek", "--last", "Przechodzień-Tajny", "--email", "wojtek.tajny@example.pl"]
WALK_IN += ["--phone", "600 555 666", "--age", "44", "--walk-in"]

#: What must never reach a client without the token: surnames (all contain "Tajn"), e-mails,
#: phones, ages, and anything of the refused child (her public name, the refusal itself).
SECRETS = ["Tajn", "tajn", "600 111", "600111", "600 333 444", "600 555 666", '"age"', "Mała D", "under-age"]
SECRETS += ["poniżej minimalnego", "below the minimum", "Dziecko", "mala."]


def leaked(data: bytes | str) -> list[str]:
    text = data.decode() if isinstance(data, bytes) else data
    return [s for s in SECRETS if s in text]


class Stranger:
    """A raw TCP client without the token: sends JSON lines, collects everything it receives."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.received = b""

    def send(self, request: dict) -> None:
        self.sock.sendall(json.dumps(request).encode() + b"\n")

    def read_until(self, done: Callable[[dict], bool], timeout_s: float = 10) -> bytes:
        """Everything received, read line by line up to the first message ``done`` says is it
        (a reply, a push of a known state): what the daemon sent before it is all here."""
        self.sock.settimeout(timeout_s)
        start = len(self.received)
        while True:
            lines = self.received[start:].split(b"\n")
            for line in lines[:-1]:
                if done(json.loads(line)):
                    return self.received
            start = len(self.received) - len(lines[-1])
            chunk = self.sock.recv(1 << 20)
            assert chunk, "the daemon closed the connection"
            self.received += chunk

    def ask(self, request: dict) -> dict:
        """One request, its reply (the next line with its id)."""
        self.received = b""
        self.send(request)
        self.sock.settimeout(10)
        while True:
            while b"\n" not in self.received:
                chunk = self.sock.recv(1 << 20)
                assert chunk, f"the daemon closed the connection instead of answering {request}"
                self.received += chunk
            line, _, self.received = self.received.partition(b"\n")
            message = json.loads(line)
            if message.get("id") == request.get("id"):
                return {"line": line, **message}

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[dict]:
    """The real ``duelclock run`` (one simulated table); its port and token from daemon.json."""
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}
    cmd = [sys.executable, "-m", "clockd", "run", "--sim", "1", "--port", "0", "--db", str(tmp_path / "j.db")]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Clocks:"):
            break
    info = json.loads((tmp_path / "state" / "daemon.json").read_text())
    old = {k: os.environ.get(k) for k in ("DUELCLOCK_STATE_DIR", "DUELCLOCK_LANG")}
    os.environ.update({"DUELCLOCK_STATE_DIR": env["DUELCLOCK_STATE_DIR"], "DUELCLOCK_LANG": "en"})
    try:
        yield {"port": info["port"], "token": info["token"], "dir": tmp_path}
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        proc.terminate()
        proc.wait(10)


def referee(d: dict, *argv: str) -> None:
    """A ``duelclock tournament`` command as the referee types it (with the token)."""
    status = main(["tournament", *argv, "--port", str(d["port"]), "--token", d["token"]])
    assert status == 0, argv


def test_a_client_without_the_token_receives_nothing_private_on_any_push_or_request(
    daemon: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    port = daemon["port"]
    everything = Stranger(port)
    everything.send({"type": "subscribe", "timeline": True, "id": "s1"})
    plain = Stranger(port)
    plain.send({"type": "subscribe", "id": "s2"})
    guessing = Stranger(port)  # a wrong token is no token
    guessing.send({"type": "subscribe", "timeline": True, "id": "s3", "token": "guessed"})
    for stranger, sid in ((everything, "s1"), (plain, "s2"), (guessing, "s3")):
        stranger.read_until(lambda m, sid=sid: m.get("id") == sid)  # subscribed: every push from now on

    csv = daemon["dir"] / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    referee(daemon, "new", "pt")
    referee(daemon, "import", str(csv))
    referee(daemon, "add", *WALK_IN)  # a walk-in typed in at the desk
    referee(daemon, "checkin", "1", "2")
    capsys.readouterr()
    desk = Stranger(port)
    last = desk.ask({"type": "events", "id": 1, "events": ["pt"], "token": daemon["token"]})["events"][0][
        "seq"
    ]
    desk.close()

    def caught_up(m: dict) -> bool:  # the event's state after the referee's last command
        return m.get("type") == "event-state" and m["event"]["seq"] >= last

    for stranger in (everything, plain, guessing):
        pushed = stranger.read_until(caught_up)
        assert b"table-state" in pushed and b"Anna K." in pushed  # it does get the public stream …
        assert leaked(pushed) == []  # … and nothing private in it
    assert b"timeline-entry" in everything.received and b"signups-import" in everything.received

    asker = Stranger(port)
    requests = [
        {"type": "events", "id": 1},
        {"type": "events", "id": 2, "events": ["pt"]},
        {"type": "timeline", "id": 3, "event": "pt"},
        {"type": "timeline", "id": 4, "table": 1},
        {"type": "event-results", "id": 5, "event": "pt"},
        {"type": "status", "id": 6},
        {"type": "events", "id": 7, "token": "guessed"},
    ]
    for request in requests:
        reply = asker.ask(request)
        assert leaked(reply["line"]) == [], request
    assert b"Anna K." in asker.ask({"type": "events", "id": 8})["line"]
    for stranger in (everything, plain, guessing, asker):
        stranger.close()


def test_the_referee_with_the_token_still_sees_who_was_refused_and_why(
    daemon: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = daemon["dir"] / "zapisy.csv"
    csv.write_text(CSV, encoding="utf-8")
    referee(daemon, "new", "pt")
    referee(daemon, "import", str(csv))
    capsys.readouterr()
    desk = Stranger(daemon["port"])
    reply = desk.ask({"type": "events", "id": 1, "token": daemon["token"]})
    refusals = reply["events"][0]["body"]["refusals"]
    assert [(r["line"], r["name"], r["reason"]) for r in refusals] == [(5, "Mała D.", "under-age")]
    desk.send({"type": "subscribe", "id": "s", "token": daemon["token"]})
    assert b"under-age" in desk.read_until(
        lambda m: m.get("type") == "event-state"
    )  # the desk lists them too
    desk.close()
    referee(daemon, "show")  # and so does the command line
    assert "line 5: Mała D." in capsys.readouterr().out


def test_the_local_token_goes_only_to_the_daemon_that_wrote_it(tmp_path: Path) -> None:
    """Reads carry the token now; ``duelclock status --host elsewhere`` must not hand the local
    referee's token to whatever host it was pointed at."""
    from clockd.api.local import DaemonInfo, resolve, write_info

    info = tmp_path / "daemon.json"
    write_info(DaemonInfo(host="127.0.0.1", port=7531, token="local-secret"), info)
    assert resolve(path=info) == ("127.0.0.1", 7531, "local-secret")
    assert resolve(port=7531, path=info)[2] == "local-secret"
    assert resolve(host="10.0.0.5", path=info) == ("10.0.0.5", 7531, None)
    assert resolve(port=9999, path=info)[2] is None
    assert resolve(host="10.0.0.5", token="given", path=info)[2] == "given"
