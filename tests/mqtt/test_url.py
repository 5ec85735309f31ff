"""Broker URLs: what a machine is given to reach the broker, and the errors for a wrong one."""

from __future__ import annotations

from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from clockd.i18n import Problem, render
from clockd.mqtt.url import broker_url


def refusal(text: str, password_file: Path | None = None, lang: str = "en") -> tuple[str, str]:
    with pytest.raises(Problem) as refused:
        broker_url(text, password_file)
    return refused.value.code, render(refused.value.msg, lang)


def test_a_plain_url_and_its_default_port() -> None:
    url = broker_url("mqtt://pi1:s3cret@hall.local:1884")
    assert (url.host, url.port, url.username, url.password, url.tls) == (
        "hall.local",
        1884,
        "pi1",
        "s3cret",
        False,
    )
    assert broker_url("mqtt://pi1:s3cret@10.0.0.5").port == 1883
    assert broker_url("mqtts://pi1:s3cret@10.0.0.5").port == 8883


def test_tls_with_its_certificate_authority() -> None:
    url = broker_url("mqtts://desk:pw@hall.local?ca=/etc/duelclock/ca.pem")
    assert url.tls and url.ca == Path("/etc/duelclock/ca.pem") and url.port == 8883
    assert url.redacted() == "mqtts://desk:***@hall.local:8883?ca=/etc/duelclock/ca.pem"


def test_the_password_is_never_shown() -> None:
    url = broker_url("mqtt://pi1:p%40ss%3Aword@[::1]:1883")
    assert url.password == "p@ss:word" and url.host == "::1"
    assert "p@ss" not in url.redacted() and "p%40ss" not in url.redacted()
    assert url.redacted() == "mqtt://pi1:***@[::1]:1883"
    assert "p@ss" not in repr(url)
    assert broker_url(url.text()) == url


def test_the_password_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "pi1.password"
    secret.write_text("from-the-file\nignored\n")
    assert broker_url("mqtt://pi1@hall:1883", secret).password == "from-the-file"
    code, said = refusal("mqtt://pi1:inline@hall:1883", secret)
    assert code == "mqtt.url-two-passwords" and str(secret) in said
    (tmp_path / "empty").write_text("\n")
    assert refusal("mqtt://pi1@hall", tmp_path / "empty")[0] == "mqtt.url-password-file-empty"
    code, said = refusal("mqtt://pi1@hall", tmp_path / "missing", "pl")
    assert code == "mqtt.url-password-file" and str(tmp_path / "missing") in said


@pytest.mark.parametrize(
    ("text", "code", "named"),
    [
        ("http://pi1:pw@hall", "mqtt.url-scheme", "http"),
        ("hall:1883", "mqtt.url-scheme", "hall"),
        ("pi1:pw@hall:1883", "mqtt.url-scheme", "pi1"),
        ("mqtt://pi1:pw@hall:99999", "mqtt.url-port", "99999"),
        ("mqtt://pi1:pw@hall:x", "mqtt.url-port", "x"),
        ("mqtt://pi1:pw@:1883", "mqtt.url-host", "HOST"),
        ("mqtt://pi1:pw@hall/journal", "mqtt.url-path", "/journal"),
        ("mqtt://hall:1883", "mqtt.url-user", "USER"),
        ("mqtt://pi1@hall:1883", "mqtt.url-password", "pi1"),
        ("mqtts://pi1:pw@hall?cert=x", "mqtt.url-query", "cert"),
        ("mqtt://pi1:pw@hall?ca=/x.pem", "mqtt.url-ca-without-tls", "mqtts://"),
        ("mqtt://pi1:pw@ha ll", "mqtt.url-bad-host", "ha ll"),
    ],
)
def test_a_wrong_url_names_what_is_wrong(text: str, code: str, named: str) -> None:
    got, said = refusal(text)
    assert got == code and named in said
    assert "pw" not in said.replace("password", "")  # the password is not repeated


def test_configure_gives_a_client_the_login_and_tls(tmp_path: Path) -> None:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t", protocol=mqtt.MQTTv5)
    broker_url("mqtt://pi1:pw@hall").configure(client)
    assert client.username == "pi1" and client.password == "pw"
    assert client._ssl is False
    secure = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t2", protocol=mqtt.MQTTv5)
    broker_url("mqtts://pi1:pw@hall").configure(secure)
    assert secure._ssl is True
