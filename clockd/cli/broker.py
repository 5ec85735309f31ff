"""``duelclock broker``: the MQTT broker (Mosquitto) for a desk and its table nodes.

``duelclock broker --nodes pi1,pi2 [--listen HOST:PORT] [--dir DIR] [--tls-cert F --tls-key F]
[--write-only]`` writes Mosquitto's files (:mod:`clockd.mqtt.broker`: the configuration, the
users, the ACL, the passwords kept across runs), prints the command each machine runs — the
desk's and every node's, each with its own URL and password — and runs Mosquitto in the
foreground until Ctrl+C (or SIGTERM), unless ``--write-only``. ``docs/mqtt.md`` says the rest.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from clockd.i18n import Problem, msg, render, render_error, text

DEFAULT_LISTEN = "127.0.0.1:1883"
PROG = "duelclock broker"


#: The simulated tables the printed commands give each node (a Pi holds 6: docs/raspberry-pi.md).
SIM_TABLES = 6


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "broker", help=text("cli.broker.help"), description=text("cli.broker.description")
    )
    parser.add_argument("--nodes", required=True, metavar="NAME,…", help=text("cli.broker.nodes"))
    parser.add_argument(
        "--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT", help=text("cli.broker.listen")
    )
    parser.add_argument("--dir", type=Path, default=None, help=text("cli.broker.dir"))
    parser.add_argument(
        "--tls-cert", type=Path, default=None, metavar="PEM", help=text("cli.broker.tls-cert")
    )
    parser.add_argument("--tls-key", type=Path, default=None, metavar="PEM", help=text("cli.broker.tls-key"))
    parser.add_argument("--write-only", action="store_true", help=text("cli.broker.write-only"))
    parser.set_defaults(func=run)


def listen_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::]:1883`` for IPv6) as host and port; a :class:`Problem` otherwise."""
    host, sep, port_text = value.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise Problem("cli.broker.bad-listen", value=value)
    return host, int(port_text)


def default_dir() -> Path:
    from clockd.api.local import state_dir

    return state_dir() / "broker"


class _Stop(Exception):
    """SIGTERM, raised in the main thread to stop Mosquitto as Ctrl+C does."""


def _on_term(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def run(args: argparse.Namespace) -> int:
    from clockd.mqtt.broker import Broker, BrokerPlan, host_for_clients

    nodes = [n.strip() for n in str(args.nodes).split(",") if n.strip()]
    try:
        host, port = listen_address(args.listen)
        plan = BrokerPlan(
            folder=args.dir if args.dir is not None else default_dir(),
            nodes=nodes,
            host=host,
            port=port,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
        )
        broker = Broker(plan)
        files = broker.files
    except (Problem, OSError) as exc:
        print(f"{PROG}: {render_error(exc)}", file=sys.stderr)
        return 2
    shown = host_for_clients(host)
    print(text("cli.broker.written", dir=str(files.folder)))
    print()
    print(text("cli.broker.on-desk"))
    print(f"  duelclock run --desk --mqtt {files.url_for('desk', shown)}")
    for i, node in enumerate(files.nodes):
        print(text("cli.broker.on-node", node=node))
        first = 1 + SIM_TABLES * i  # each machine its own table numbers
        url = files.url_for(node, shown)
        print(f"  duelclock run --node {node} --mqtt {url} --sim {SIM_TABLES} --first-table {first}")
    print()
    print(text("cli.broker.secret", file=str(files.credentials)))
    if args.tls_cert is not None:
        print(text("cli.broker.tls-ca", cert=str(args.tls_cert)))
    if host in ("127.0.0.1", "::1", "localhost"):
        print(text("cli.broker.loopback-only"))
    if args.write_only:
        return 0
    previous = signal.signal(signal.SIGTERM, _on_term)
    try:
        try:
            broker.start()
        except Problem as exc:
            print(f"{PROG}: {render(exc.msg)}", file=sys.stderr)
            return 1
        print(text("cli.broker.running", address=f"{host}:{port}", log=str(files.log)), flush=True)
        status = broker.wait()
        print(
            f"{PROG}: {render(msg('cli.broker.ended', status=status, log=str(files.log)))}", file=sys.stderr
        )
        return 1
    except (KeyboardInterrupt, _Stop):
        broker.stop()
        print(text("cli.broker.stopped"), flush=True)
        return 0
    finally:
        broker.stop()
        signal.signal(signal.SIGTERM, previous)
