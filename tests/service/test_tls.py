"""Listening beyond this machine: a warning, and TLS with the standard library's ssl (issue 20, item 10).

On the original main ``--host 0.0.0.0`` served a network without a word, the token in clear
text; there was no TLS at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clockd.api import Client, DaemonUnreachable, Subscription
from clockd.api.local import tls_client_context
from clockd.core.program import AddNote
from clockd.service.runtime import Daemon, TableSpec

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificates")


def certificate(folder: Path, name: str = "daemon") -> tuple[Path, Path]:
    """A self-signed certificate and its key, as a festival laptop would make one."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    make = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}"]
    subprocess.run(
        [*make, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_api_over_tls_serves_clients_that_check_the_certificate_and_nobody_else(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    other, _ = certificate(tmp_path, "impostor")
    daemon = Daemon(
        tmp_path / "j.db",
        tables=[TableSpec(1, control="10m")],
        port=0,
        write_daemon_info=False,
        tls_cert=cert,
        tls_key=key,
    )
    started = daemon.start()
    try:
        tls = tls_client_context(cert)
        with Client(port=started.port, token=started.token, tls=tls) as desk:
            assert len(desk.status().tables) == 1
            assert desk.act(1, AddNote(text="over TLS")).seq > 0
        with Subscription(port=started.port, tls=tls, timeline=True) as screen:
            assert screen.seq > 0
        with pytest.raises(DaemonUnreachable) as wrong:  # a daemon that is not the one we trust
            Client(port=started.port, tls=tls_client_context(other), retry=False).status()
        assert wrong.value.msg.code == "client.tls-refused"
        with pytest.raises((ConnectionError, OSError, ValueError)):  # clear text gets nothing
            Client(port=started.port, timeout_ms=2000, retry=False).status()
    finally:
        daemon.stop()


def run(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "clockd", "run", "--sim", "1", "--port", "0", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def banner(proc: subprocess.Popen[str]) -> list[str]:
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Clocks:"):
            return lines
    raise AssertionError(f"the daemon did not start: {lines} {proc.stderr.read() if proc.stderr else ''}")


def stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    _, err = proc.communicate(timeout=20)
    return err


def test_listening_beyond_this_machine_warns_and_tls_is_offered(tmp_path: Path) -> None:
    env = {**os.environ, "DUELCLOCK_STATE_DIR": str(tmp_path / "state"), "DUELCLOCK_LANG": "en"}
    proc = run(env, "--host", "0.0.0.0", "--db", str(tmp_path / "clear.db"))
    banner(proc)
    err = stop(proc)
    assert "beyond this machine, without TLS" in err and "--tls-cert" in err
    assert "clear text" in err

    proc = run(env, "--db", str(tmp_path / "local.db"))  # the default, 127.0.0.1: no warning
    banner(proc)
    assert "beyond this machine" not in stop(proc)

    cert, key = certificate(tmp_path)
    proc = run(
        env,
        "--host",
        "0.0.0.0",
        "--tls-cert",
        str(cert),
        "--tls-key",
        str(key),
        "--db",
        str(tmp_path / "t.db"),
    )
    try:
        assert any("(TLS)" in line for line in banner(proc))
        info = json.loads((tmp_path / "state" / "daemon.json").read_text())
        assert info["tls_cert"] == str(cert)
        status = [sys.executable, "-m", "clockd", "status", "--json"]
        local = subprocess.run(status, env=env, capture_output=True, text=True, timeout=30)
        assert local.returncode == 0, local.stderr  # the certificate from daemon.json
        elsewhere = {**env, "DUELCLOCK_STATE_DIR": str(tmp_path / "nowhere")}
        remote = [*status, "--host", "127.0.0.1", "--port", str(info["port"]), "--tls-ca", str(cert)]
        checked = subprocess.run(remote, env=elsewhere, capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        assert len(json.loads(checked.stdout)["tables"]) == 1
    finally:
        err = stop(proc)
    assert "over TLS" in err and "--tls-ca" in err

    (tmp_path / "bad.crt").write_text("not a certificate")
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "clockd",
            "run",
            "--tls-cert",
            str(tmp_path / "bad.crt"),
            "--db",
            str(tmp_path / "b.db"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert bad.returncode == 2 and "cannot serve TLS with" in bad.stderr and "Traceback" not in bad.stderr
