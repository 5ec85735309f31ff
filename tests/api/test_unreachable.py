"""A daemon that cannot be reached, or goes away, is a message with a code the client renders
in its user's language — still a ``ConnectionError`` for the callers that catch one."""

from __future__ import annotations

import socket

import pytest

from clockd.api import Client, DaemonUnreachable, Subscription
from clockd.i18n import render


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nobody listens there once the probe is closed


def test_a_daemon_that_is_not_running_is_a_message_with_a_code() -> None:
    port = _closed_port()
    with Client(port=port) as client, pytest.raises(ConnectionError) as refused:
        client.ping()
    exc = refused.value
    assert isinstance(exc, DaemonUnreachable)
    assert exc.msg.code == "client.cannot-reach" and exc.msg.params["port"] == port
    assert exc.msg.params["problem"] == {"code": "oserror.connection-refused", "params": {}}
    assert render(exc.msg, "pl") == (
        f"nie można połączyć się z demonem duelclock pod 127.0.0.1:{port} (odmowa połączenia); "
        "czy działa `duelclock run`?"
    )
    assert str(exc) == (
        f"cannot reach the duelclock daemon at 127.0.0.1:{port} (connection refused); "
        "is `duelclock run` running?"
    )


def test_a_daemon_that_stops_under_a_subscription_says_so_by_code(start_daemon) -> None:
    daemon = start_daemon(tables=1, players=False)
    sub = Subscription(port=daemon.port, tables=[1])
    try:
        assert sub.read(2000)  # the table's first state
        daemon.stop()
        with pytest.raises(DaemonUnreachable) as gone:
            for _ in range(50):
                sub.read(100)
        assert gone.value.msg.code in ("client.closed", "client.went-away")
        assert "demon pod 127.0.0.1:" in render(gone.value.msg, "pl")
    finally:
        sub.close()
    with pytest.raises(DaemonUnreachable) as closed:
        sub.read(100)
    assert render(closed.value.msg, "pl") == "subskrypcja została zamknięta"
