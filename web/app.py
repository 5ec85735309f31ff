"""The web application: public pages (read-only, no login) and result entry (PIN or QR code).

The public side only ever *reads* the hub's public views: no route of it changes
anything, and it has no way to — the hub's subscription carries no token. The entry side
is under ``/entry``: a session (from a PIN or a one-time code), a CSRF token on every
change, the lock-out after five wrong tries, and it is switched off altogether when the
server listens beyond this machine unless the organiser turned it on (``--entry-on-network``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from clockd.api import EventView
from clockd.api.chess import ChessBody
from clockd.api.zone import ZoneBody
from clockd.i18n import Msg, msg, render
from web.access import AccessFile, Lockout, Person, Session, Sessions
from web.entry import BadEntry, Desk, parse_entry
from web.hub import EVENTS, Hub, Topic, event_topic
from web.pages import Pages
from web.render import LANGS, Words, environment, page_context
from web.stream import EventStream

SESSION_COOKIE = "dc_session"
PRE_COOKIE = "dc_pre"  # the login form's CSRF token (double submit: cookie and field)
LANG_COOKIE = "dc_lang"

_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    # same-origin: a one-time code's address never leaves in a Referer (no-referrer: forms' Origin "null")
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


@dataclass
class WebSettings:
    daemon_host: str = "127.0.0.1"
    daemon_port: int = 7531
    token: str | None = None
    tls: Any = None
    access: Path | None = None
    #: Whether result entry is on (off when listening beyond this machine, unless the organiser said so).
    entry_allowed: bool = True
    secure_cookies: bool = False
    coalesce_s: float = 0.1
    lockout: Lockout = field(default_factory=Lockout)
    sessions: Sessions = field(default_factory=Sessions)
    #: The addresses phones open the pages at besides the server's own (``--web-public``: a
    #: name, a reverse proxy's ``https://…``): an entry's Origin must be one of them or the
    #: address the connection itself reached — never what the request's Host header claims.
    public: tuple[str, ...] = ()


def lang_of(request: Request) -> str:
    """``?lang=``, else the cookie it set, else the browser's Accept-Language; Polish by default."""
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return asked
    kept = request.cookies.get(LANG_COOKIE)
    if kept in LANGS:
        return kept
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "pl"


def _secure(response: Response, request: Request) -> Response:
    for k, v in _SECURITY_HEADERS.items():
        response.headers.setdefault(k, v)
    asked = request.query_params.get("lang")
    if asked in LANGS:
        response.set_cookie(LANG_COOKIE, asked, max_age=365 * 86400, samesite="lax")
    return response


def create_app(settings: WebSettings, *, hub: Hub | None = None) -> Starlette:
    """The application. ``hub``: one a caller drives (tests); else one for the settings' daemon."""
    env = environment()
    own_hub = hub is None
    hub = hub or Hub(
        settings.daemon_host, settings.daemon_port, tls=settings.tls, coalesce_s=settings.coalesce_s
    )
    pages = Pages(hub, env)
    access = AccessFile(settings.access) if settings.access is not None else None
    desk = Desk(settings.daemon_host, settings.daemon_port, settings.token, settings.tls)
    sessions, lockout = settings.sessions, settings.lockout

    def page(request: Request, template: str, title: str, status: int = 200, **context: Any) -> Response:
        lang = lang_of(request)
        html = env.get_template(template).render(
            **page_context(lang, title=title, root="/", static="/static/", static_site=False, **context)
        )
        return _secure(HTMLResponse(html, status_code=status), request)

    # -- public --------------------------------------------------------------------------------
    def public(request: Request, topic: Topic) -> Response:
        lang = lang_of(request)
        if not pages.exists(topic):
            return page(
                request,
                "message.html",
                Words(lang)("web.no-such-event", key=topic[1]),
                404,
                text=Words(lang)("web.no-such-event", key=topic[1]),
            )
        stream = "/stream" if topic == EVENTS else f"/e/{topic[1]}/stream"
        return page(
            request,
            "page.html",
            pages.title(topic, lang),
            fragment=_markup(pages.html(topic, lang)),
            stream=f"{stream}?lang={lang}",
            kind=topic[0],
        )

    async def index(request: Request) -> Response:
        return public(request, EVENTS)

    async def event_page(request: Request) -> Response:
        return public(request, event_topic(request.path_params["key"]))

    def stream(request: Request, topic: Topic) -> Response:
        lang = lang_of(request)
        if not pages.exists(topic):
            return PlainTextResponse("", status_code=404)

        async def events() -> AsyncIterator[bytes]:
            listener = hub.listen(topic, lang)
            try:
                yield b"retry: 1000\n\n" + pages.sse(topic, lang, "html") + pages.sse(topic, lang, "clocks")
                while True:
                    try:
                        what = await asyncio.wait_for(listener.queue.get(), 15)
                    except TimeoutError:
                        yield b": still here\n\n"
                        continue
                    if what is None:
                        break
                    if what == "html":
                        yield pages.sse(topic, lang, "html") + pages.sse(topic, lang, "clocks")
                    else:
                        yield pages.sse(topic, lang, "clocks")
            finally:
                hub.forget(listener)

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return _secure(EventStream(events(), headers=headers), request)

    async def index_stream(request: Request) -> Response:
        return stream(request, EVENTS)

    async def event_stream(request: Request) -> Response:
        return stream(request, event_topic(request.path_params["key"]))

    # -- entry -----------------------------------------------------------------------------------
    def words(request: Request) -> Words:
        return Words(lang_of(request))

    def session_of(request: Request) -> Session | None:
        return sessions.get(request.cookies.get(SESSION_COOKIE))

    def who(request: Request) -> str:
        return request.client.host if request.client is not None else "?"

    own_origins = {o for o in (origin_of(u) for u in settings.public) if o is not None}

    def same_origin(request: Request) -> bool:
        origin = request.headers.get("origin")
        if origin is None:  # not a browser's cross-site request (those carry an Origin)
            return True
        return origin_allowed(origin, request.scope, own_origins)

    def entry_off(request: Request) -> Response | None:
        if settings.entry_allowed and access is not None:
            return None
        w = words(request)
        code = "web.entry-off-network" if not settings.entry_allowed else "web.entry-no-access-file"
        return page(request, "message.html", w("web.result-entry"), 403, text=w(code))

    def login_page(
        request: Request,
        *,
        problem: str = "",
        status: int = 200,
        action: str = "/entry/login",
        pin: bool = True,
    ) -> Response:
        pre = request.cookies.get(PRE_COOKIE) or secrets.token_urlsafe(24)
        w = words(request)
        response = page(
            request,
            "login.html",
            w("web.result-entry"),
            status,
            problem=problem,
            pre=pre,
            action=action,
            pin=pin,
        )
        response.set_cookie(
            PRE_COOKIE, pre, httponly=True, samesite="strict", secure=settings.secure_cookies, path="/entry"
        )
        return response

    async def form(request: Request) -> dict[str, str]:
        body = (await request.body())[:4096].decode("utf-8", "replace")
        return {k: v[0] for k, v in parse_qs(body).items()}

    def start_session(request: Request, person: Person) -> Response:
        s = sessions.open(person)
        response = RedirectResponse("/entry", status_code=303)
        response.set_cookie(
            SESSION_COOKIE,
            s.id,
            httponly=True,
            samesite="strict",
            secure=settings.secure_cookies,
            max_age=int(sessions.lifetime_s),
            path="/",
        )
        response.delete_cookie(PRE_COOKIE, path="/entry")
        return _secure(response, request)

    def refused_try(request: Request, wrong_code: str, **login: Any) -> Response:
        w = words(request)
        if lockout.wrong(who(request)):
            return login_page(
                request, problem=w("web.locked-out", minutes=int(lockout.lock_s // 60)), status=429, **login
            )
        return login_page(request, problem=w(wrong_code), status=401, **login)

    def locked(request: Request, **login: Any) -> Response | None:
        left = lockout.locked_for(who(request))
        if left > 0:
            w = words(request)
            return login_page(
                request, problem=w("web.locked-out", minutes=max(1, int(left // 60 + 1))), status=429, **login
            )
        return None

    def form_ok(request: Request, fields: dict[str, str]) -> bool:
        pre = request.cookies.get(PRE_COOKIE)
        sent = fields.get("csrf", "")
        return pre is not None and secrets.compare_digest(pre, sent) and same_origin(request)

    async def login(request: Request) -> Response:
        off = entry_off(request)
        if off is not None:
            return off
        if request.method == "GET":
            if session_of(request) is not None:
                return RedirectResponse("/entry", status_code=303)
            return login_page(request)
        assert access is not None
        barred = locked(request)
        if barred is not None:
            return barred
        fields = await form(request)
        if not form_ok(request, fields):
            return login_page(request, problem=words(request)("web.csrf"), status=403)
        person = await asyncio.to_thread(access.check_pin, fields.get("pin", "").strip())  # scrypt: slow
        if person is None:
            return refused_try(request, "web.wrong-pin")
        lockout.right(who(request))
        return start_session(request, person)

    async def qr_login(request: Request) -> Response:
        off = entry_off(request)
        if off is not None:
            return off
        action = f"/entry/qr/{request.path_params['code']}"
        if request.method == "GET":  # a link preview must not spend the code: logging in is a POST
            return login_page(request, action=action, pin=False)
        assert access is not None
        barred = locked(request, action=action, pin=False)
        if barred is not None:
            return barred
        fields = await form(request)
        if not form_ok(request, fields):
            return login_page(
                request, problem=words(request)("web.csrf"), status=403, action=action, pin=False
            )
        person = access.use_code(request.path_params["code"])
        if person is None:
            return refused_try(request, "web.code-used", action=action, pin=False)
        lockout.right(who(request))
        return start_session(request, person)

    async def logout(request: Request) -> Response:
        s = session_of(request)
        fields = await form(request)
        if s is not None and secrets.compare_digest(s.csrf, fields.get("csrf", "")):
            sessions.close(s.id)
        response = RedirectResponse("/entry/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return _secure(response, request)

    async def entry_page(request: Request) -> Response:
        off = entry_off(request)
        if off is not None:
            return off
        s = session_of(request)
        if s is None:
            return RedirectResponse("/entry/login", status_code=303)
        response = page(
            request, "entry.html", words(request)("web.result-entry"), person=s.person.name, csrf=s.csrf
        )
        response.headers["Cache-Control"] = "no-store"
        return response

    def scoped(person: Person, lang: str) -> list[dict[str, Any]]:
        w = Words(lang)
        out = []
        for key, held in sorted(hub.events.items()):
            view = held.view
            assert isinstance(view, EventView)
            if not person.may(key):
                continue
            body = view.body
            item: dict[str, Any] = {"event": key, "kind": view.kind, "title": w(view.title)}
            if isinstance(body, ChessBody):
                item["boards"] = [
                    {
                        "board": b.board,
                        "white": b.white.name,
                        "black": b.black.name,
                        "result": b.result,
                        "by": b.by,
                    }
                    for b in body.boards
                ]
                item["open"] = body.phase == "playing"
            elif isinstance(body, ZoneBody):
                item["entries"] = [
                    {
                        "entry": e.entry,
                        "name": e.name,
                        "table": e.table,
                        "finished": e.finished_ms is not None,
                        "pieces": e.pieces,
                        "missing": e.missing,
                    }
                    for e in body.entries
                ]
            else:
                continue
            out.append(item)
        return out

    async def api_state(request: Request) -> Response:
        s = session_of(request)
        if s is None or not settings.entry_allowed:
            return _json({"error": "login", "message": words(request)("web.session-over")}, 401, request)
        return _json({"person": s.person.name, "events": scoped(s.person, lang_of(request))}, 200, request)

    async def api_submit(request: Request) -> Response:
        w = words(request)
        if not settings.entry_allowed:
            return _json({"ok": False, "message": w("web.entry-off-network")}, 403, request)
        s = session_of(request)
        if s is None:
            return _json({"ok": False, "login": True, "message": w("web.session-over")}, 401, request)
        token = request.headers.get("x-csrf-token", "")
        if not secrets.compare_digest(token, s.csrf) or not same_origin(request):
            return _json({"ok": False, "message": w("web.csrf")}, 403, request)
        try:
            data = json.loads((await request.body())[:8192])
            entry = parse_entry(data)
        except (ValueError, BadEntry) as exc:
            reason = exc.msg if isinstance(exc, BadEntry) else msg("web.entry-invalid")
            return _json({"ok": False, "message": w(reason)}, 400, request)
        if not s.person.may(entry.event):
            return _json({"ok": False, "message": w("web.not-your-event", event=entry.event)}, 403, request)
        answer = await asyncio.to_thread(desk.submit, s.person, entry)
        reason = answer.pop("reason", None)
        if isinstance(reason, Msg):
            answer["message"] = render(reason, lang_of(request))
        status = (
            200 if answer["ok"] else 409 if answer.get("conflict") else 503 if answer.get("retry") else 422
        )
        return _json(answer, status, request)

    async def health(request: Request) -> Response:
        data: dict[str, Any] = {"daemon": hub.connected, "pages": len(hub.listeners), "seq": hub.seq}
        port = getattr(request.app.state, "port_stats", None)  # web.serve's bounds, when served by it
        if port is not None:
            data["connections"] = {
                "open": port.open,
                "cap": port.cap,
                "full": port.full,
                "timed_out": port.timed_out,
            }
        return _json(data, 200, request)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if own_hub:
            hub.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            if own_hub:
                await asyncio.to_thread(hub.stop)

    static = StaticFiles(directory=str(resources.files("web").joinpath("static")))
    app = Starlette(
        routes=[
            Route("/", index),
            Route("/stream", index_stream),
            Route("/e/{key}", event_page),
            Route("/e/{key}/stream", event_stream),
            Route("/entry", entry_page),
            Route("/entry/login", login, methods=["GET", "POST"]),
            Route("/entry/qr/{code}", qr_login, methods=["GET", "POST"]),
            Route("/entry/logout", logout, methods=["POST"]),
            Route("/entry/api/state", api_state),
            Route("/entry/api/submit", api_submit, methods=["POST"]),
            Route("/healthz", health),
            Mount("/static", static, name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.pages = pages
    return app


Origin = tuple[str, str, int]
_DEFAULT_PORTS = {"http": 80, "https": 443}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def origin_of(url: str) -> Origin | None:
    """``url``'s origin (scheme, host, port; the scheme's port when none is written), or ``None``."""
    try:
        parts = urlsplit(url.strip())
        scheme, host, port = parts.scheme.lower(), (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host, port if port is not None else _DEFAULT_PORTS[scheme]


def origin_allowed(origin: str, scope: Any, public: set[Origin]) -> bool:
    """Whether a request's ``Origin`` is the pages' own: a configured public address, or the
    address this very connection reached (the server's socket, which a client cannot forge the
    way it writes a Host header — so a page on another name, DNS rebinding included, is refused).
    On loopback, ``localhost``, ``127.0.0.1`` and ``::1`` are one machine."""
    sent = origin_of(origin)
    if sent is None:
        return False
    if sent in public:
        return True
    server = scope.get("server")
    if not server or server[1] is None:
        return False
    own_host, own_port = str(server[0]).lower().strip("[]"), int(server[1])
    scheme = str(scope.get("scheme", "http"))
    if (sent[0], sent[2]) != (scheme, own_port):
        return False
    if sent[1].strip("[]") == own_host:
        return True
    return own_host in _LOOPBACK_NAMES and sent[1].strip("[]") in _LOOPBACK_NAMES


def _json(data: Any, status: int, request: Request) -> Response:
    response = JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})
    return _secure(response, request)


def _markup(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)
