"""``duelclock web``: the live pages for every phone and result entry at the tables.

* ``duelclock web [--host H --port P]`` serves them against a running daemon (its address
  and token from ``daemon.json``), printing the address and its QR code;
* ``duelclock web pin NAME --events KEY,…`` gives an arbiter or a volunteer a personal PIN,
  ``duelclock web qr NAME --events KEY,…`` a one-time login code as a QR code to print,
  ``duelclock web remove NAME`` takes both away (the desk: they need the daemon's token);
* ``duelclock publish DIR`` writes the public pages as plain files.

The pages are the ``web`` package; ``duelclock run --web HOST:PORT`` serves them beside the
daemon. ``docs/web.md`` says the rest (TLS, the network).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from clockd.cli.argtypes import positive_seconds
from clockd.i18n import msg, render, text

DEFAULT_WEB_PORT = 8080


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "web", help=text("cli.web.help"), description=text("cli.web.description")
    )
    add_serve_options(parser)
    parser.add_argument("--host", default="127.0.0.1", help=text("cli.web.host"))
    parser.add_argument("--port", type=int, default=DEFAULT_WEB_PORT, help=text("cli.web.port"))
    parser.add_argument("--daemon-host", default=None, help=text("cli.web.daemon-host"))
    parser.add_argument("--daemon-port", type=int, default=None, help=text("cli.web.daemon-port"))
    parser.set_defaults(func=serve)
    commands = parser.add_subparsers(dest="web_command", metavar="COMMAND")
    pin = commands.add_parser("pin", help=text("cli.web.pin-help"))
    pin.add_argument("name", help=text("cli.web.name"))
    pin.add_argument("--events", required=True, help=text("cli.web.events"))
    pin.add_argument("--access", type=Path, default=None, help=text("cli.web.access"))
    pin.set_defaults(func=add_pin)
    qr = commands.add_parser("qr", help=text("cli.web.qr-help"))
    qr.add_argument("name", help=text("cli.web.name"))
    qr.add_argument("--events", required=True, help=text("cli.web.events"))
    qr.add_argument("--url", default=None, help=text("cli.web.url"))
    qr.add_argument("--hours", type=float, default=12.0, help=text("cli.web.hours"))
    qr.add_argument("--svg", type=Path, default=None, help=text("cli.web.svg"))
    qr.add_argument("--access", type=Path, default=None, help=text("cli.web.access"))
    qr.set_defaults(func=add_qr)
    remove = commands.add_parser("remove", help=text("cli.web.remove-help"))
    remove.add_argument("name", help=text("cli.web.name"))
    remove.add_argument("--access", type=Path, default=None, help=text("cli.web.access"))
    remove.set_defaults(func=remove_person)
    publish = sub.add_parser(
        "publish", help=text("cli.web.publish-help"), description=text("cli.web.publish-help")
    )
    publish.add_argument("dir", type=Path, help=text("cli.web.publish-dir"))
    publish.add_argument("--daemon-host", default=None, help=text("cli.web.daemon-host"))
    publish.add_argument("--daemon-port", type=int, default=None, help=text("cli.web.daemon-port"))
    publish.set_defaults(func=publish_pages)


def add_serve_options(parser: argparse.ArgumentParser) -> None:
    """The options ``duelclock web`` and ``duelclock run --web`` share."""
    parser.add_argument("--entry-on-network", action="store_true", help=text("cli.web.entry-on-network"))
    parser.add_argument("--web-tls-cert", default=None, help=text("cli.web.tls-cert"))
    parser.add_argument("--web-tls-key", default=None, help=text("cli.web.tls-key"))
    parser.add_argument("--web-access", type=Path, default=None, help=text("cli.web.access"))
    parser.add_argument(
        "--web-public",
        action="append",
        type=web_address,
        default=None,
        metavar="URL",
        help=text("cli.web.public"),
    )
    parser.add_argument(
        "--web-request-timeout",
        type=positive_seconds,
        default=None,
        metavar="S",
        help=text("cli.web.request-timeout"),
    )


def web_address(value: str) -> str:
    """A ``--web-public`` address: ``http(s)://name[:port]``, the origin entries may come from."""
    from web.app import origin_of

    if origin_of(value) is None:
        raise argparse.ArgumentTypeError(text("cli.web.public-bad", value=value))
    return value.strip()


def web_port_config(
    args: argparse.Namespace, settings: Any, host: str, port: int, *, beside_daemon: bool, prog: str
) -> Any:
    """uvicorn's configuration for the pages, within the process's file limit: raised at start
    as far as the system allows, and said when that is less than the pages want. Beside the
    daemon, the API's connections (and its journal readers) keep descriptors of their own."""
    from dataclasses import replace

    from web.serve import WebLimits, config, files_wanted, raise_file_limit

    limits = WebLimits()
    if args.web_request_timeout is not None:
        limits = replace(limits, request_timeout_s=args.web_request_timeout)
    reserve = api_reserve() if beside_daemon else 0
    wanted = files_wanted(limits, reserve)
    files = raise_file_limit(wanted)
    cfg = config(
        settings,
        host,
        port,
        ssl_cert=args.web_tls_cert,
        ssl_key=args.web_tls_key,
        limits=limits,
        reserve=reserve,
    )
    if files < wanted:
        print(
            f"{prog}: {text('cli.web.file-limit', files=files, cap=cfg.cap, wanted=wanted)}", file=sys.stderr
        )
    return cfg


def api_reserve() -> int:
    """Descriptors the daemon's API may hold beside the pages: every connection it admits (the
    strangers' and the referee's), and the journal files of the readers in its worker threads."""
    from clockd.service.server import ServerLimits

    limits = ServerLimits()
    return limits.max_clients + limits.max_referee_clients + 32


def access_path(given: Path | None) -> Path:
    from clockd.api.local import state_dir
    from web.access import ACCESS_FILE

    return given if given is not None else state_dir() / ACCESS_FILE


def _events(value: str) -> list[str]:
    return [e.strip() for e in value.split(",") if e.strip()]


def _token_holder() -> bool:
    """Whether this user holds the daemon's token (reads its ``daemon.json``): the desk's commands need it."""
    from clockd.api.local import resolve

    try:
        return resolve(None, None, None)[2] is not None
    except (OSError, ValueError):
        return False


def _refuse_without_token() -> int:
    print(f"duelclock web: {text('cli.web.needs-token')}", file=sys.stderr)
    return 2


def add_pin(args: argparse.Namespace) -> int:
    from web.access import AccessFile

    if not _token_holder():
        return _refuse_without_token()
    pin = AccessFile(access_path(args.access)).add_pin(args.name, _events(args.events))
    print(text("cli.web.pin-made", name=args.name, pin=pin, events=", ".join(_events(args.events))))
    return 0


def add_qr(args: argparse.Namespace) -> int:
    import segno

    from web.access import AccessFile
    from web.serve import qr_text

    if not _token_holder():
        return _refuse_without_token()
    code = AccessFile(access_path(args.access)).add_code(
        args.name, _events(args.events), valid_s=int(args.hours * 3600)
    )
    base = (args.url or f"http://127.0.0.1:{DEFAULT_WEB_PORT}/").rstrip("/")
    url = f"{base}/entry/qr/{code}"
    print(text("cli.web.qr-made", name=args.name, hours=args.hours, url=url))
    print(qr_text(url))
    if args.svg is not None:
        segno.make(url, error="m").save(str(args.svg), scale=8)
    return 0


def remove_person(args: argparse.Namespace) -> int:
    from web.access import AccessFile

    if not _token_holder():
        return _refuse_without_token()
    gone = AccessFile(access_path(args.access)).remove(args.name)
    print(text("cli.web.removed" if gone else "cli.web.nobody", name=args.name))
    return 0 if gone else 1


def settings_for(
    daemon_host: str, daemon_port: int, token: str | None, tls: Any, host: str, args: argparse.Namespace
) -> Any:
    from clockd.api.local import is_loopback
    from web.app import WebSettings

    entry_allowed = is_loopback(host) or bool(args.entry_on_network)
    return WebSettings(
        daemon_host=daemon_host,
        daemon_port=daemon_port,
        token=token,
        tls=tls,
        access=access_path(args.web_access),
        entry_allowed=entry_allowed,
        secure_cookies=args.web_tls_cert is not None,
        public=tuple(getattr(args, "web_public", None) or ()),
    )


def banner(host: str, port: int, args: argparse.Namespace) -> None:
    from clockd.api.local import is_loopback
    from web.serve import public_url, qr_text

    url = public_url(host, port, tls=args.web_tls_cert is not None)
    print(text("cli.web.serving", url=url))
    print(qr_text(url))
    if not is_loopback(host):
        code = "cli.web.network-entry-on" if args.entry_on_network else "cli.web.network-entry-off"
        print(render(msg(code, host=host)), file=sys.stderr)
        if args.web_tls_cert is None:
            print(text("cli.web.network-clear"), file=sys.stderr)


def start_beside(args: argparse.Namespace, started: Any, tls_cert: Any, *, prog: str) -> Any:
    """The web pages beside a daemon of this process (``--web HOST:PORT``: ``duelclock run``, the
    terminal demo), in a thread; a closer with ``close()``, or ``None`` after saying why not."""
    from clockd.api.local import tls_client_context
    from web.serve import Background

    host, _, port_text = str(args.web).rpartition(":")
    try:
        port = int(port_text)
    except ValueError:
        print(f"{prog}: {render(msg('cli.run.web-address', value=args.web))}", file=sys.stderr)
        return None
    host = host.strip("[]") or "127.0.0.1"
    tls = tls_client_context(tls_cert) if tls_cert is not None else None
    daemon_host = "127.0.0.1" if started.host in ("0.0.0.0", "") else started.host
    if started.host == "::":
        daemon_host = "::1"
    settings = settings_for(daemon_host, started.port, started.token, tls, host, args)
    web = Background(web_port_config(args, settings, host, port, beside_daemon=True, prog=prog))
    if not web.start():
        print(f"{prog}: {render(msg('cli.run.web-failed', value=args.web))}", file=sys.stderr)
        return None
    banner(host, web.port(), args)
    return _Stopper(web)


class _Stopper:
    """The web server as a closer (``close()`` stops it)."""

    def __init__(self, web: Any) -> None:
        self.web = web

    def close(self) -> None:
        self.web.stop()


def serve(args: argparse.Namespace) -> int:
    from clockd.api.local import local_tls, resolve
    from web.serve import WebServer

    host, port, token = resolve(args.daemon_host, args.daemon_port, None)
    tls = local_tls(host=args.daemon_host, port=args.daemon_port)
    settings = settings_for(host, port, token, tls, args.host, args)
    cfg = web_port_config(args, settings, args.host, args.port, beside_daemon=False, prog="duelclock web")
    banner(args.host, args.port, args)
    WebServer(cfg).run()
    return 0


def publish_pages(args: argparse.Namespace) -> int:
    from clockd.api.local import local_tls, resolve
    from web.publish import publish

    host, port, _ = resolve(args.daemon_host, args.daemon_port, None)
    try:
        written = publish(args.dir, host, port, tls=local_tls(host=args.daemon_host, port=args.daemon_port))
    except (ConnectionError, OSError) as exc:
        from clockd.i18n import render_error

        print(f"duelclock publish: {render_error(exc)}", file=sys.stderr)
        return 1
    print(text("cli.web.published", files=len(written), dir=str(args.dir)))
    return 0
