"""The web application through Starlette's TestClient, against a real daemon: what the public
side may do (nothing but read), the entry side's locks (sessions, CSRF, the lock-out, scopes,
entry off on a network address), the access file, languages, and the published copy."""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette's TestClient still runs on httpx; it announces httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clockd.core.actions import CreateEvent
from clockd.core.chessday.group import UndoResult
from clockd.core.hall import TimerStart
from clockd.core.zone import AddEntry
from tests.web.conftest import GROUP, SESSION, Desk, private_words
from web.access import AccessFile, Lockout, Sessions
from web.app import WebSettings, create_app
from web.publish import publish

BASE = "http://127.0.0.1:8080"
SESSION_COOKIE = "dc_session"


def client_for(desk: Desk, **kw: Any) -> TestClient:
    settings = WebSettings(
        daemon_host="127.0.0.1", daemon_port=desk.port, token=desk.token, access=desk.access.path, **kw
    )
    return TestClient(create_app(settings), base_url=BASE)


@pytest.fixture
def app(desk: Desk) -> Iterator[TestClient]:
    with client_for(desk) as c:
        assert c.app.state.hub.wait_ready(10)  # type: ignore[attr-defined]
        yield c


def log_in(c: TestClient, pin: str) -> str:
    """Log in with ``pin``; the session's CSRF token (from the entry page)."""
    page = c.get("/entry/login")
    pre = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    r = c.post(
        "/entry/login", data={"csrf": pre, "pin": pin}, headers={"origin": BASE}, follow_redirects=False
    )
    assert r.status_code == 303, r.text
    entry = c.get("/entry")
    return re.search(r'data-csrf="([^"]+)"', entry.text).group(1)  # type: ignore[union-attr]


def submit(c: TestClient, csrf: str | None, entry: dict[str, Any], **headers: str) -> Any:
    h = {"origin": BASE, **headers}
    if csrf is not None:
        h["x-csrf-token"] = csrf
    return c.post("/entry/api/submit", json=entry, headers=h)


def result_of(desk: Desk, board: int) -> tuple[str | None, str]:
    b = next(b for b in desk.event(GROUP).body.boards if b.board == board)
    return b.result, b.by


def test_the_public_side_only_reads(app: TestClient, desk: Desk) -> None:
    for path in ("/", f"/e/{SESSION}", f"/e/{GROUP}", "/stream", f"/e/{SESSION}/stream"):
        assert app.post(path).status_code == 405
        assert app.put(path).status_code == 405
    assert app.get("/e/nope").status_code == 404
    # without a session nothing is entered, and the desk is unchanged
    r = submit(
        app, None, {"id": "abcdefgh12", "event": GROUP, "kind": "chess-result", "board": 25, "result": "1"}
    )
    assert r.status_code == 401
    assert result_of(desk, 25) == (None, "")
    page = app.get("/")
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert "http" not in re.sub(
        r'(href|src)="/[^"]*"', "", page.text.split("<body", 1)[1]
    )  # nothing from a CDN


def test_pages_are_polish_by_default_and_english_on_request(app: TestClient) -> None:
    assert "Dzisiejsze zawody" in app.get("/").text
    assert "<h1>Today" in app.get("/?lang=en").text
    app.cookies.clear()
    assert "<h1>Today" in app.get("/", headers={"accept-language": "en-GB,en;q=0.8"}).text
    assert "Dzisiejsze zawody" in app.get("/", headers={"accept-language": "pl,en;q=0.5"}).text


def test_no_private_data_on_any_public_page(app: TestClient) -> None:
    private = [w for w in private_words() if "@" not in w and not w[0].isdigit()]
    for path in ("/", f"/e/{SESSION}", f"/e/{SESSION}?lang=en"):
        html = app.get(path).text
        assert [w for w in private if w in html] == [], path
    for path in ("/", f"/e/{SESSION}", f"/e/{GROUP}"):
        html = app.get(path).text
        assert "@" not in html and "2017/03/04" not in html and "600 100" not in html


def test_an_entry_needs_the_sessions_csrf_token_and_the_same_origin(app: TestClient, desk: Desk) -> None:
    csrf = log_in(app, desk.access.add_pin("Marta Sędzia", [GROUP]))
    entry = {"id": "csrf-test-001", "event": GROUP, "kind": "chess-result", "board": 25, "result": "1"}
    assert submit(app, None, entry).status_code == 403
    assert submit(app, "not-the-token", entry).status_code == 403
    assert submit(app, csrf, entry, origin="http://evil.example").status_code == 403
    assert result_of(desk, 25) == (None, "")
    ok = submit(app, csrf, entry)
    assert ok.status_code == 200 and ok.json()["ok"] is True
    assert result_of(desk, 25) == ("1-0", "Marta Sędzia")
    # the same entry again (a lost reply): the same seq, applied once
    again = submit(app, csrf, entry)
    assert again.json() == ok.json()
    desk.client.act(GROUP, UndoResult(board=25))  # the board open again for the other tests


def test_a_forfeit_is_one_tap_too(app: TestClient, desk: Desk) -> None:
    csrf = log_in(app, desk.access.add_pin("Olek Wolontariusz", [GROUP]))
    r = submit(
        app,
        csrf,
        {"id": "forfeit-test-1", "event": GROUP, "kind": "chess-result", "board": 25, "result": "-+"},
    )
    assert r.status_code == 200 and r.json()["ok"] is True
    assert result_of(desk, 25) == ("-+", "Olek Wolontariusz")  # Black wins: White did not come
    desk.client.act(GROUP, UndoResult(board=25))


def test_a_login_form_without_its_token_is_refused(app: TestClient, desk: Desk) -> None:
    pin = desk.access.add_pin("Bez Tokenu", [GROUP])
    app.get("/entry/login")
    r = app.post("/entry/login", data={"csrf": "forged", "pin": pin}, follow_redirects=False)
    assert r.status_code == 403
    assert SESSION_COOKIE not in r.cookies


def test_a_person_enters_only_for_their_events(app: TestClient, desk: Desk) -> None:
    csrf = log_in(app, desk.access.add_pin("Tylko Pokaz", [SESSION]))
    r = submit(
        app, csrf, {"id": "scope-test-01", "event": GROUP, "kind": "chess-result", "board": 25, "result": "1"}
    )
    assert r.status_code == 403 and GROUP in r.json()["message"]
    state = app.get("/entry/api/state").json()
    assert [e["event"] for e in state["events"]] == []  # a puzzle session has no entry here


def test_zone_finishes_counts_and_missing_pieces_reach_the_desk_by_name(app: TestClient, desk: Desk) -> None:
    desk.client.act("", CreateEvent(event_kind="relay", key="sztafeta-app", name="Sztafeta"))
    for i in (1, 2):
        desk.client.act("sztafeta-app", AddEntry(entry=f"P{i}", name=f"Para {i}"))
    desk.client.act("sztafeta-app", TimerStart())
    csrf = log_in(app, desk.access.add_pin("Wolontariusz Zoli", ["sztafeta-app"]))
    r = submit(
        app, csrf, {"id": "zone-finish-1", "event": "sztafeta-app", "kind": "entry-finish", "entry": "P1"}
    )
    assert r.json()["ok"] is True, r.json()
    r = submit(
        app,
        csrf,
        {
            "id": "zone-missing1",
            "event": "sztafeta-app",
            "kind": "entry-missing",
            "entry": "P1",
            "missing": 2,
        },
    )
    assert r.json()["ok"] is True, r.json()
    entries = {e.entry: e for e in desk.event("sztafeta-app").body.entries}
    assert entries["P1"].finished_ms is not None and entries["P1"].missing == 2
    timeline = desk.client.timeline(event="sztafeta-app").entries
    assert {e.data["by"] for e in timeline if e.kind in ("entry-finish", "entry-missing")} == {
        "Wolontariusz Zoli"
    }
    # a count before the end is refused by the daemon, with its reason in the arbiter's language
    r = submit(
        app,
        csrf,
        {"id": "zone-count-01", "event": "sztafeta-app", "kind": "entry-count", "entry": "P2", "pieces": 100},
    )
    assert r.json()["ok"] is False and r.json()["message"]


def test_entry_is_off_on_a_network_address_unless_turned_on(desk: Desk) -> None:
    with client_for(desk, entry_allowed=False) as c:
        r = c.get("/entry/login")
        assert r.status_code == 403 and "--entry-on-network" in r.text
        r = c.post("/entry/api/submit", json={}, headers={"origin": BASE})
        assert r.status_code == 403
        assert c.get("/").status_code == 200  # the public pages still are


def test_five_wrong_pins_lock_an_address_out_for_a_while() -> None:
    now = [1000.0]
    lock = Lockout(limit=5, window_s=900, lock_s=900, clock=lambda: now[0])
    assert [lock.wrong("10.0.0.7") for _ in range(5)] == [False, False, False, False, True]
    assert lock.locked_for("10.0.0.7") == 900 and lock.locked_for("10.0.0.8") == 0
    now[0] += 901
    assert lock.locked_for("10.0.0.7") == 0


def try_pin(app: Any, address: str, pin: str) -> int:
    """One login with ``pin`` from ``address`` (its own browser: its own cookies); the status."""
    c = TestClient(app, base_url=BASE, client=(address, 50000))
    pre = re.search(r'name="csrf" value="([^"]+)"', c.get("/entry/login").text).group(1)  # type: ignore[union-attr]
    r = c.post(
        "/entry/login", data={"csrf": pre, "pin": pin}, headers={"origin": BASE}, follow_redirects=False
    )
    return r.status_code


def test_many_addresses_guessing_pins_lock_every_login_until_the_lock_ends(desk: Desk) -> None:
    """2 551 tries from 638 loopback addresses found a PIN: four tries each stayed under the
    per-address limit. Now the tries of all addresses together lock every login — the right
    PIN included — until the lock ends (the lock-out's clock is the test's)."""
    now = [5000.0]
    lockout = Lockout(clock=lambda: now[0])
    pin = desk.access.add_pin("Zofia Sędzia", [GROUP])
    app = create_app(
        WebSettings(
            daemon_host="127.0.0.1",
            daemon_port=desk.port,
            token=desk.token,
            access=desk.access.path,
            lockout=lockout,
        )
    )
    wrong = [f"{n:07d}" for n in range(lockout.network_limit)]  # seven digits: no one's PIN
    statuses = [try_pin(app, f"127.0.{i // 250}.{i % 250 + 2}", g) for i, g in enumerate(wrong)]
    assert statuses[:-1] == [401] * (len(wrong) - 1) and statuses[-1] == 429  # one try per address
    assert try_pin(app, "127.9.9.9", pin) == 429  # the right PIN, from an address never seen
    now[0] += lockout.lock_s - 1
    assert try_pin(app, "127.9.9.10", pin) == 429
    now[0] += 2  # the lock is over
    assert try_pin(app, "127.9.9.11", pin) == 303


def test_an_entry_whose_host_header_is_forged_to_match_its_origin_is_refused(desk: Desk) -> None:
    """The origin check compared the Origin with the request's own Host header, which the
    sender writes: a page on another name (DNS rebinding) passed. It compares with the address
    the connection reached, or the configured public one (``--web-public``)."""
    with client_for(desk, public=("https://wyniki.example",)) as c:
        forged = {"host": "evil.example:8080", "origin": "http://evil.example:8080"}
        pre = re.search(r'name="csrf" value="([^"]+)"', c.get("/entry/login").text).group(1)  # type: ignore[union-attr]
        pin = desk.access.add_pin("Iga Sędzia", [GROUP])
        login = c.post("/entry/login", data={"csrf": pre, "pin": pin}, headers=forged, follow_redirects=False)
        assert login.status_code == 403  # the login form too
        csrf = log_in(c, pin)
        entry = {"id": "origin-test-001", "event": GROUP, "kind": "chess-result", "board": 25, "result": "1"}
        assert submit(c, csrf, entry, **forged).status_code == 403
        assert result_of(desk, 25) == (None, "")
        proxied = submit(c, csrf, entry, origin="https://wyniki.example")  # the configured address
        assert proxied.status_code == 200 and result_of(desk, 25) == ("1-0", "Iga Sędzia")
        desk.client.act(GROUP, UndoResult(board=25))
        local = submit(c, csrf, {**entry, "id": "origin-test-002"}, origin="http://localhost:8080")
        assert local.json()["ok"] is True  # on loopback, localhost is the same machine
        desk.client.act(GROUP, UndoResult(board=25))


def test_sessions_expire_when_idle_and_after_their_lifetime() -> None:
    from web.access import Person

    now = [0.0]
    sessions = Sessions(lifetime_s=100, idle_s=30, clock=lambda: now[0])
    s = sessions.open(Person("p1", "Anna", ("*",)))
    now[0] = 25
    assert sessions.get(s.id) is s
    now[0] = 56  # 31 s idle
    assert sessions.get(s.id) is None
    t = sessions.open(Person("p1", "Anna", ("*",)))
    for step in range(1, 7):
        now[0] = 56 + 20 * step
        alive = sessions.get(t.id)
    assert alive is None  # 100 s after login, however busy


def test_the_access_file_keeps_no_pin_or_code_in_clear_and_a_code_works_once(tmp_path: Path) -> None:
    access = AccessFile(tmp_path / "web-access.json")
    pin = access.add_pin("Anna Sędzia", ["sp3-ch"])
    code = access.add_code("Jan Wolontariusz", ["*"])
    raw = (tmp_path / "web-access.json").read_text(encoding="utf-8")
    assert pin not in raw and code not in raw
    assert stat.S_IMODE(os.stat(tmp_path / "web-access.json").st_mode) == 0o600
    assert access.check_pin(pin).name == "Anna Sędzia"  # type: ignore[union-attr]
    assert access.check_pin("12345x") is None
    assert access.use_code(code).name == "Jan Wolontariusz"  # type: ignore[union-attr]
    assert access.use_code(code) is None


def test_a_pin_is_not_found_by_hashing_every_pin_with_what_the_access_file_holds(tmp_path: Path) -> None:
    """An HMAC under the file's own key gave every PIN back to whoever copied the file: a
    million candidates hashed in about a second. The record is scrypt with the file's salt
    and its cost parameters, so no plain digest of a candidate, keyed or salted with what the
    file holds, is in it — only scrypt with the stored parameters finds it."""
    import hashlib
    import hmac
    import json

    access = AccessFile(tmp_path / "web-access.json")
    pin = access.add_pin("Anna Sędzia", ["sp3-ch"], digits=6)
    short = access.add_pin("Jan Sędzia", ["sp3-ch"], digits=4)
    data = json.loads((tmp_path / "web-access.json").read_text(encoding="utf-8"))
    stored = {p["pin"] for p in data["people"]}
    raw = {bytes.fromhex(d) for d in stored}
    key, salt = bytes.fromhex(data["key"]), bytes.fromhex(data["pin_kdf"]["salt"])
    candidates = [f"{n:06d}".encode() for n in range(10**6)] + [f"{n:04d}".encode() for n in range(10**4)]
    padded = key.ljust(64, b"\0")  # HMAC-SHA256 under the file's key, the fast way an attacker runs it
    inner, outer = (hashlib.sha256(bytes(b ^ pad for b in padded)) for pad in (0x36, 0x5C))

    def keyed(c: bytes) -> bytes:
        i, o = inner.copy(), outer.copy()
        i.update(c)
        o.update(i.digest())
        return o.digest()

    assert keyed(b"123456") == hmac.digest(key, b"123456", "sha256")
    found = [c for c in candidates if keyed(c) in raw or hashlib.sha256(salt + c).digest() in raw]
    assert found == []
    kdf = data["pin_kdf"]
    assert kdf["name"] == "scrypt" and kdf["n"] >= 2**14 and kdf["r"] >= 8 and len(kdf["salt"]) >= 32
    digests = {
        hashlib.scrypt(p.encode(), salt=salt, n=kdf["n"], r=kdf["r"], p=kdf["p"], dklen=32).hex()
        for p in (pin, short)
    }
    assert digests == stored
    assert access.check_pin(pin).name == "Anna Sędzia" and access.check_pin(short).name == "Jan Sędzia"  # type: ignore[union-attr]


def test_an_access_file_of_hmac_pins_still_logs_in_and_is_rewritten_as_scrypt(tmp_path: Path) -> None:
    """A file written before the KDF: its PIN works, and from that login on the file holds
    the PIN as scrypt — the old HMAC is gone."""
    import hashlib
    import hmac
    import json

    key = "ab" * 32
    old = hmac.new(bytes.fromhex(key), b"482913", hashlib.sha256).hexdigest()
    person = {"id": "p0000001", "name": "Ola Sędzia", "events": ["*"], "pin": old}
    path = tmp_path / "web-access.json"
    path.write_text(json.dumps({"key": key, "people": [person], "codes": []}), encoding="utf-8")
    os.chmod(path, 0o600)
    access = AccessFile(path)
    assert access.check_pin("482914") is None
    assert access.check_pin("482913").name == "Ola Sędzia"  # type: ignore[union-attr]
    after = path.read_text(encoding="utf-8")
    assert old not in after and '"kdf": 1' in after and '"scrypt"' in after
    assert access.check_pin("482913").name == "Ola Sędzia"  # type: ignore[union-attr]


def test_a_qr_link_preview_does_not_spend_the_code(app: TestClient, desk: Desk) -> None:
    code = desk.access.add_code("Ola Sędzia", [GROUP])
    page = app.get(f"/entry/qr/{code}")
    assert page.status_code == 200
    pre = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    r = app.post(f"/entry/qr/{code}", data={"csrf": pre}, headers={"origin": BASE}, follow_redirects=False)
    assert r.status_code == 303
    assert "Ola Sędzia" in app.get("/entry").text
    app.cookies.clear()
    page = app.get(f"/entry/qr/{code}")
    pre = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    again = app.post(
        f"/entry/qr/{code}", data={"csrf": pre}, headers={"origin": BASE}, follow_redirects=False
    )
    assert again.status_code == 401  # once only


def test_publish_writes_every_public_page_as_plain_files(tmp_path: Path, desk: Desk) -> None:
    written = publish(tmp_path / "site", "127.0.0.1", desk.port)
    names = {p.relative_to(tmp_path / "site").as_posix() for p in written}
    assert {"index.html", f"{SESSION}.html", f"{GROUP}.html", f"en/{SESSION}.html", "app.css"} <= names
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f'href="{SESSION}.html"' in index and "live.js" not in index
    for p in written:
        text = p.read_text(encoding="utf-8")
        assert "@" not in text and "2017/03/04" not in text
