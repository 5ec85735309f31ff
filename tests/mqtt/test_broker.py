"""The broker duelclock writes and runs: a real Mosquitto, real paho clients.

What a referee relies on: a node can write only under its own name (a wrong or hostile Pi
cannot put records into another node's journal at the desk), only the desk commands, a node
reads only its own commands, nobody gets in without a password, the passwords are private
and survive a re-run, and a message for a node (or the desk) that is away survives a
restart of the broker.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import ssl
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clockd.cli import main
from clockd.i18n import Problem, render
from clockd.mqtt.broker import Broker, BrokerPlan
from clockd.mqtt.topics import DESK_SUBSCRIPTIONS, HALL_SIGNAL, acl_lines, node_subscriptions, node_topic
from clockd.mqtt.url import broker_url
from tests.mqtt.conftest import Peer, TestBroker, free_port

NOT_AUTHORIZED = 135


def connected(peers: Any, broker: TestBroker, user: str, client_id: str | None = None) -> Peer:
    peer: Peer = peers(client_id or user)
    reason, _ = peer.connect(broker.url(user))
    assert not reason.is_failure, f"{user} was refused: {reason}"
    return peer


def test_a_node_cannot_publish_under_another_nodes_name(broker: TestBroker, peers: Any) -> None:
    desk = connected(peers, broker, "desk")
    assert all(not r.is_failure for r in desk.subscribe(*DESK_SUBSCRIPTIONS))
    pi1 = connected(peers, broker, "pi1")
    pi2 = connected(peers, broker, "pi2")

    forged = pi2.publish(node_topic("pi1", "journal"), b"forged by pi2")
    assert forged is not None and forged.value == NOT_AUTHORIZED  # Mosquitto 2.0 says so in the PUBACK
    assert pi2.publish(node_topic("pi2", "journal"), b"pi2 marker") is not None
    got = desk.until(b"pi2 marker")
    assert [m.payload for m in got] == [b"pi2 marker"]

    own = pi1.publish(node_topic("pi1", "journal"), b"pi1 record 1")
    assert own is not None and not own.is_failure
    got = desk.until(b"pi1 record 1")
    assert [(m.topic, m.payload) for m in got] == [(node_topic("pi1", "journal"), b"pi1 record 1")]


def test_only_the_desk_commands(broker: TestBroker, peers: Any) -> None:
    pi2 = connected(peers, broker, "pi2")
    assert all(not r.is_failure for r in pi2.subscribe(*node_subscriptions("pi2")))
    pi1 = connected(peers, broker, "pi1")
    desk = connected(peers, broker, "desk")

    command = pi1.publish(node_topic("pi2", "cmd"), b"pi1 commands pi2")
    assert command is not None and command.value == NOT_AUTHORIZED
    signal_ack = pi1.publish(HALL_SIGNAL, b"pi1 signals the hall")
    assert signal_ack is not None and signal_ack.value == NOT_AUTHORIZED
    pi1.publish(HALL_SIGNAL, b"pi1 signals at QoS 0", qos=0)
    # pi1's next QoS 1 publish is acknowledged only after Mosquitto has handled the ones
    # before it; the desk's marker, sent after that, reaches pi2 after anything they caused.
    fence = pi1.publish(node_topic("pi1", "status"), b"online")
    assert fence is not None and not fence.is_failure
    assert desk.publish(node_topic("pi2", "cmd"), b"desk marker") is not None
    got = pi2.until(b"desk marker")
    assert [m.payload for m in got] == [b"desk marker"]

    desk.publish(HALL_SIGNAL, b"desk signal", qos=0)
    desk.publish(node_topic("pi2", "cmd"), b"desk marker 2")
    assert [m.payload for m in pi2.until(b"desk marker 2")] == [b"desk signal", b"desk marker 2"]


def test_a_node_cannot_read_another_nodes_commands(broker: TestBroker, peers: Any) -> None:
    pi1 = connected(peers, broker, "pi1")
    theirs = pi1.subscribe(node_topic("pi2", "cmd"), "duelclock/#")
    pi1.subscribe(*node_subscriptions("pi1"))
    pi2 = connected(peers, broker, "pi2")
    pi2.subscribe(node_topic("pi2", "cmd"))
    desk = connected(peers, broker, "desk")

    desk.publish(node_topic("pi2", "cmd"), b"for pi2 only")
    desk.publish(HALL_SIGNAL, b"for the hall", qos=0)
    desk.publish(node_topic("pi1", "cmd"), b"pi1 marker")
    got = pi1.until(b"pi1 marker")
    # Mosquitto grants the subscription (the ACL is checked on each delivery) or refuses it;
    # either way pi1 reads what every node may read, and its own commands, never pi2's.
    assert all(r.is_failure or r.value in (0, 1) for r in theirs)
    assert b"for pi2 only" not in [m.payload for m in got]
    assert b"for the hall" in [m.payload for m in got]
    assert [m.payload for m in pi2.until(b"for pi2 only")] == [b"for pi2 only"]


def test_no_one_gets_in_without_the_right_password(broker: TestBroker, peers: Any) -> None:
    right = broker.url("pi1")
    wrong = broker_url(f"mqtt://pi1:not-the-password@127.0.0.1:{broker.port}")
    assert wrong.password != right.password
    reason, _ = peers("wrong").connect(wrong)
    assert reason.value in (134, NOT_AUTHORIZED)  # "Bad user name or password" / "Not authorized"

    reason, _ = peers("anonymous").connect(None, broker.port)
    assert reason.value in (134, NOT_AUTHORIZED)

    no_password: Peer = peers("no-password")
    no_password.client.username_pw_set("pi1")
    no_password.client.connect("127.0.0.1", broker.port)
    no_password.client.loop_start()
    reason, _ = no_password._wait(lambda: no_password._connack)
    assert reason.value in (134, NOT_AUTHORIZED)

    # another node's password is wrong for this one, and the desk's name needs the desk's
    stolen = broker_url(f"mqtt://desk:{right.password}@127.0.0.1:{broker.port}")
    reason, _ = peers("stolen").connect(stolen)
    assert reason.value in (134, NOT_AUTHORIZED)
    connected(peers, broker, "pi1")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_files_are_private_and_a_rerun_keeps_the_passwords(tmp_path: Path) -> None:
    folder = tmp_path / "hall" / "broker"
    first = BrokerPlan(folder, ["pi1", "pi2"]).write()
    assert mode(folder) == 0o700
    for name in ("mosquitto.conf", "passwd", "acl", "credentials.json"):
        assert mode(folder / name) == 0o600, name
    credentials = json.loads((folder / "credentials.json").read_text())
    assert set(credentials) == {"desk", "pi1", "pi2"}
    passwd = (folder / "passwd").read_text()
    assert [line.split(":")[0] for line in passwd.splitlines()] == ["desk", "pi1", "pi2"]
    assert not any(p in passwd for p in credentials.values())  # hashed, never in clear
    assert (folder / "acl").read_text().splitlines() == acl_lines(["pi1", "pi2"])
    conf = (folder / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "persistence true" in conf
    assert f"persistence_location {folder}/" in conf
    assert "listener 1883 127.0.0.1" in conf

    again = BrokerPlan(folder, ["pi1", "pi2", "pi3"], port=1884).write()
    assert again.passwords["pi1"] == first.passwords["pi1"] == credentials["pi1"]
    assert again.passwords["pi2"] == first.passwords["pi2"]
    assert again.passwords["desk"] == first.passwords["desk"]
    assert again.passwords["pi3"] not in first.passwords.values()
    assert (folder / "acl").read_text().splitlines() == acl_lines(["pi1", "pi2", "pi3"])
    assert again.url_for("pi3", "hall.local") == f"mqtt://pi3:{again.passwords['pi3']}@hall.local:1884"
    assert mode(folder / "credentials.json") == 0o600


def test_a_bad_node_name_writes_nothing(tmp_path: Path) -> None:

    for bad in ("bad/name", "pi+", "#", "desk", ""):
        with pytest.raises(Problem) as refused:
            BrokerPlan(tmp_path / "b", ["pi1", bad]).write()
        if bad:
            assert bad in render(refused.value.msg, "en")
    assert not (tmp_path / "b").exists()


def test_a_damaged_credentials_file_is_refused_with_its_line(tmp_path: Path) -> None:

    folder = tmp_path / "b"
    BrokerPlan(folder, ["pi1"]).write()
    acl_before = (folder / "acl").read_text()
    (folder / "credentials.json").write_text('{\n  "desk": "x",\n  "pi1": \n}\n')
    with pytest.raises(Problem) as refused:
        BrokerPlan(folder, ["pi1", "pi2"]).write()
    said = render(refused.value.msg, "pl")
    assert str(folder / "credentials.json") in said and "wiersz 4, kolumna 1" in said
    assert (folder / "acl").read_text() == acl_before  # nothing half-applied


def test_the_cli_prints_each_machines_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    folder = tmp_path / "broker"
    assert main(["broker", "--nodes", "pi1,pi2", "--write-only", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out
    passwords = json.loads((folder / "credentials.json").read_text())
    assert "Na stanowisku sędziego:" in out
    assert f"duelclock run --desk --mqtt mqtt://desk:{passwords['desk']}@127.0.0.1:1883\n" in out
    for node, first in (("pi1", 1), ("pi2", 7)):  # each node its own table numbers
        assert f"Na węźle {node}:" in out
        url = f"mqtt://{node}:{passwords[node]}@127.0.0.1:1883"
        assert f"duelclock run --node {node} --mqtt {url} --sim 6 --first-table {first}\n" in out
    assert "hasła" in out and str(folder / "credentials.json") in out

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    assert main(["broker", "--nodes", "pi1,pi2,pi3", "--write-only", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "On the desk" in out and f"mqtt://pi1:{passwords['pi1']}@" in out and "--node pi3" in out


def test_the_cli_refuses_a_bad_name_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DUELCLOCK_LANG", raising=False)
    folder = tmp_path / "broker"
    assert main(["broker", "--nodes", "bad/name", "--write-only", "--dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "bad/name" in err and "nie może być nazwą węzła" in err
    assert not folder.exists()
    assert (
        main(["broker", "--nodes", "pi1", "--listen", "0.0.0.0", "--write-only", "--dir", str(folder)]) == 2
    )
    assert "--listen" in capsys.readouterr().err
    assert not folder.exists()


def test_the_cli_uses_this_machines_address_for_the_hall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from clockd.mqtt.broker import lan_address

    monkeypatch.setenv("DUELCLOCK_LANG", "en")
    args = ["broker", "--nodes", "pi1", "--listen", "0.0.0.0:1883", "--write-only", "--dir", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    address = lan_address()
    assert address not in ("0.0.0.0", "")
    assert f"@{address}:1883" in out and "@0.0.0.0" not in out


def test_the_cli_runs_the_broker_until_sigterm(tmp_path: Path) -> None:
    port = free_port()
    folder = tmp_path / "broker"
    env = {**os.environ, "DUELCLOCK_LANG": "en"}
    args = ["--nodes", "pi1", "--dir", str(folder), "--listen", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "clockd", "broker", *args], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl+C" in line:
                break
        assert any(f"127.0.0.1:{port}" in line for line in lines), lines
        url = re.search(r"--node pi1 --mqtt (\S+)", "".join(lines))
        assert url is not None
        peer = Peer("pi1")
        reason, _ = peer.connect(broker_url(url.group(1)))
        assert not reason.is_failure
        peer.close()
        proc.send_signal(signal.SIGTERM)
        rest = proc.stdout.read()
        assert proc.wait(10) == 0
        assert "stopped" in rest
        assert "terminating" in (folder / "mosquitto.log").read_text()  # Mosquitto itself was stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_persistent_session_gets_what_was_sent_while_it_was_away_across_a_restart(
    broker: TestBroker, peers: Any
) -> None:
    desk: Peer = peers("desk-hall")
    reason, present = desk.connect(broker.url("desk"), session_expiry_s=3600)
    assert not reason.is_failure and not present
    desk.subscribe(node_topic("+", "journal"))
    desk.close()

    pi1 = connected(peers, broker, "pi1")
    ack = pi1.publish(node_topic("pi1", "journal"), b"record 7 while the desk was away")
    assert ack is not None and not ack.is_failure
    pi1.close()

    broker.stop()
    assert not broker.running
    broker.start()  # the same port, the same files

    again: Peer = peers("desk-hall")
    reason, present = again.connect(broker.url("desk"), session_expiry_s=3600)
    assert not reason.is_failure and present  # the session (and its subscription) survived
    got = again.until(b"record 7 while the desk was away")
    assert [m.topic for m in got] == [node_topic("pi1", "journal")]


def certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for this machine (127.0.0.1) and its key."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    make = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}"]
    subprocess.run(
        [
            *make,
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificates")
def test_over_tls_clients_that_trust_the_certificate_get_in(tmp_path: Path, peers: Any) -> None:
    cert, key = certificate(tmp_path, "hall")
    impostor, _ = certificate(tmp_path, "impostor")
    plan = BrokerPlan(tmp_path / "broker", ["pi1"], port=free_port(), tls_cert=cert, tls_key=key)
    running = Broker(plan)
    running.start()
    try:
        url = running.files.url_for("pi1")
        assert url.startswith("mqtts://pi1:")
        reason, _ = peers("pi1").connect(broker_url(f"{url}?ca={cert}"))
        assert not reason.is_failure
        with pytest.raises(ssl.SSLError):
            peers("pi1-wrong-ca").connect(broker_url(f"{url}?ca={impostor}"))
    finally:
        running.stop()


def test_a_second_broker_on_a_busy_port_is_refused_naming_the_port(
    broker: TestBroker, tmp_path: Path
) -> None:
    second = Broker(BrokerPlan(tmp_path / "second", ["pi1"], port=broker.port))
    with pytest.raises(Problem) as refused:
        second.start()
    assert refused.value.code == "mqtt.broker-port-busy"
    assert str(broker.port) in render(refused.value.msg, "pl")
    assert not second.running and broker.running


def test_mosquittos_own_words_when_it_cannot_start(tmp_path: Path) -> None:
    not_a_certificate = tmp_path / "broken.crt"
    not_a_certificate.write_text("this is not PEM\n")
    plan = BrokerPlan(
        tmp_path / "b", ["pi1"], port=free_port(), tls_cert=not_a_certificate, tls_key=not_a_certificate
    )
    failing = Broker(plan)
    with pytest.raises(Problem) as refused:
        failing.start()
    said = render(refused.value.msg, "en")
    assert refused.value.code == "mqtt.broker-exited"
    assert "certificate" in said.lower() and str(plan.port) in said
    assert not failing.running
