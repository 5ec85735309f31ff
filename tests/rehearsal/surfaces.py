"""Every surface of the day, looked at after every step, and what none of them may show.

A *surface* is something a person reads: a public web page (both languages), its live
stream, the pages ``duelclock publish`` writes, every printout (HTML and PDF, from the same
commands a referee types), the text commands (``status``, ``event show``, ``table N
timeline``, ``chess status`` …) and the desk's and the audience's windows (Qt offscreen). Each
is read as text and checked by :func:`problems`:

* no traceback, no HTTP status ≥ 400, no command that crashed;
* no raw message key (``term.…``, ``clock.…``, or any code of the catalogue) and no
  ``{placeholder}`` left unfilled;
* on a public surface (pages, streams, published pages, printouts, the audience screen) no
  personal field: surnames of the duel's sign-ups, e-mails, phones, birth dates;
  and nobody erased, anywhere public;
* an event that is over shows its result, not its clock: its page has no countdown and no
  running clock.
"""

from __future__ import annotations

import html
import re
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from clockd.i18n.catalogue import catalogue
from tests.rehearsal.day import Day, Run, StepFailed

if TYPE_CHECKING:
    from tests.rehearsal.screens import Screens


@dataclass(frozen=True)
class Seen:
    """One surface as read: where, its text, and whether the public sees it."""

    where: str
    text: str
    public: bool
    status: int = 200  # HTTP status, or a command's exit code mapped: 0 → 200
    traceback: str = ""
    kind: str = ""  # "page", "stream", "publish", "printout", "command", "desk", "audience"
    ended: bool = False  # the page of an event that is over


@dataclass(frozen=True)
class Problem:
    step: str
    where: str
    what: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.step}] {self.where}: {self.what}: {self.detail}"


#: Seconds spent reading each kind of surface over the run (for docs/rehearsal.md's figures).
TIMES: dict[str, float] = {}

CODES = frozenset(catalogue().entries)
_DOTTED = re.compile(r"(?<![\w./@-])[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+(?![\w/@-])")
_RAW_PREFIX = re.compile(r"(?<![\w./@-])(?:term|clock)\.[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_.-]*(?:![rsa])?(?::[^{}\s]*)?\}")
#: "na czas" is a flag in Polish chess usage; a duel won on time left says "więcej czasu" (the
#: hall events' kind, "impreza na czas", is another phrase).
_ON_TIME = re.compile(r"(?<!impreza )(?<!imprezy )(?<!imprezę )\bna czas\b")
_SCRIPT = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")


def visible_text(page: str) -> str:
    """What a reader sees of an HTML page: no scripts or styles, no tags, entities decoded."""
    return html.unescape(_TAG.sub(" ", _SCRIPT.sub(" ", page)))


def raw_keys(text: str) -> list[str]:
    found = set(_RAW_PREFIX.findall(text))
    found |= {m for m in _DOTTED.findall(text) if m in CODES}
    return sorted(found)


def placeholders(text: str) -> list[str]:
    return sorted(set(_PLACEHOLDER.findall(text)))


def leaks(text: str, secrets: set[str]) -> list[str]:
    out = []
    for secret in secrets:
        if re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", text):
            out.append(secret)
    return sorted(out)


def ended_keys(events: list[Any]) -> set[str]:
    """The events that are over, as the daemon says: a session with its podium, a hall event
    whose time has ended, a chess group whose rounds are all played."""
    out = set()
    for e in events:
        body = e.body
        timer = getattr(body, "timer", None)
        over = "finished" in (getattr(body, "stage", None), getattr(body, "phase", None))
        if over or getattr(timer, "phase", None) == "ended":
            out.add(e.key)
    return out


_COUNTDOWN = re.compile(r'data-countdown="[^"]*"[^>]*data-running="(?:True|true)"|class="clock running"')


def problems(step: str, seen: Seen, day: Day) -> Iterator[Problem]:
    hall = day.hall
    if seen.traceback or "Traceback (most recent call last)" in seen.text:
        yield Problem(step, seen.where, "traceback", (seen.traceback or seen.text)[-800:])
    if seen.status >= 400:
        yield Problem(step, seen.where, f"HTTP {seen.status}", visible_text(seen.text).strip()[:300])
    text = visible_text(seen.text) if seen.kind in ("page", "stream", "publish", "printout") else seen.text
    for key in raw_keys(text):
        yield Problem(step, seen.where, "raw message key", _around(text, key))
    for ph in placeholders(text):
        yield Problem(step, seen.where, "placeholder", _around(text, ph))
    for m in _ON_TIME.finditer(text):
        yield Problem(
            step,
            seen.where,
            "a win on time left called 'na czas' (a flag, in chess usage)",
            _around(text, m.group(0)),
        )
    if seen.public:
        for secret in leaks(text, hall.private):
            yield Problem(step, seen.where, "personal field on a public surface", _around(text, secret))
        for name in leaks(text, hall.erased):
            yield Problem(step, seen.where, "an erased person on a public surface", _around(text, name))
    if seen.ended and seen.kind in ("page", "publish"):
        m = _COUNTDOWN.search(seen.text)
        if m is not None:
            yield Problem(step, seen.where, "an ended event's page still shows its clock", m.group(0))


def _around(text: str, needle: str, width: int = 70) -> str:
    i = text.find(needle)
    if i < 0:
        return needle
    return " ".join(text[max(0, i - width) : i + len(needle) + width].split())


# -- reading every surface ------------------------------------------------------------------------


def web_pages(day: Day, ended: set[str]) -> Iterator[Seen]:
    keys = [e.key for e in day.events()]
    try:
        day.web_caught_up()
    except StepFailed as exc:
        yield Seen("the web process", str(exc), True, 503, kind="page")
    with httpx.Client(base_url=day.url, timeout=10) as http:
        for lang in ("pl", "en"):
            for path, key in [("/", None)] + [(f"/e/{k}", k) for k in keys]:
                r = http.get(path, params={"lang": lang})
                yield Seen(
                    f"GET {path}?lang={lang}", r.text, True, r.status_code, kind="page", ended=key in ended
                )
        for path in ["/stream"] + [f"/e/{k}/stream" for k in keys]:
            yield _stream(http, path)


def _stream(http: httpx.Client, path: str) -> Seen:
    """A page's live stream, as a phone opens it: its first messages (the page and its clocks)."""
    got = ""
    with http.stream("GET", path, params={"lang": "pl"}) as r:
        if r.status_code >= 400:
            return Seen(f"GET {path}", r.read().decode(), True, r.status_code, kind="stream")
        for chunk in r.iter_text():
            got += chunk
            if "event: clocks" in got:
                break
    data = "\n".join(line[6:] for line in got.splitlines() if line.startswith("data: "))
    return Seen(f"GET {path}", data, True, 200, kind="stream")


def published(day: Day, folder: Path, ended: set[str]) -> Iterator[Seen]:
    run = day.cli("publish", folder)
    yield _command(run, public=True)
    for path in sorted(folder.rglob("*.html")):
        yield Seen(
            f"publish {path.relative_to(folder)}",
            path.read_text(encoding="utf-8"),
            True,
            kind="publish",
            ended=path.stem in ended,
        )


def _command(run: Run, *, public: bool = False, kind: str = "command") -> Seen:
    """A command's output. A refusal (exit 1 or 2 with its sentence) is the daemon's answer, read
    like any other; a crash counts as a server error."""
    status = 500 if run.code < 0 or run.traceback else 200
    return Seen(run.line, run.text, public, status, run.traceback, kind=kind)


def printouts(day: Day, folder: Path) -> Iterator[Seen]:
    """Every printout of every event, as the referee makes them (HTML read back, PDF made)."""
    folder.mkdir(parents=True, exist_ok=True)
    for e in day.events():
        key, kind = e.key, e.kind
        if kind == "puzzle-duel":
            html_file, pdf = folder / f"{key}.html", folder / f"{key}.pdf"
            run = day.cli("tournament", "export", "-s", key, "--html", html_file, "--pdf", pdf, "--csv",
                          folder / f"{key}.csv", "--json", folder / f"{key}.json")  # fmt: skip
            yield from _printed(run, html_file, pdf)
        elif kind == "chess":
            yield from _chess_printouts(day, key, e, folder)
        else:
            html_file, pdf = folder / f"{key}.html", folder / f"{key}.pdf"
            run = day.cli("event", "export", key, "--html", html_file, "--pdf", pdf, "--csv",
                          folder / f"{key}.csv", "--json-out", folder / f"{key}.json")  # fmt: skip
            yield from _printed(run, html_file, pdf)


def _printed(run: Run, html_file: Path, pdf: Path | None) -> Iterator[Seen]:
    yield _command(run, public=True, kind="printout")
    if run.code != 0:
        return
    if html_file.exists():
        yield Seen(
            f"{run.line} → {html_file.name}", html_file.read_text(encoding="utf-8"), True, kind="printout"
        )
    else:
        yield Seen(run.line, f"{html_file.name} was not written", True, 500, kind="printout")
    if pdf is not None and not (pdf.exists() and pdf.read_bytes().startswith(b"%PDF")):
        yield Seen(run.line, f"{pdf.name} is not a PDF", True, 500, kind="printout")


def _chess_printouts(day: Day, key: str, event: Any, folder: Path) -> Iterator[Seen]:
    body = event.body
    out = folder / key
    out.mkdir(exist_ok=True)
    if body.round:
        run = day.cli("chess", "post", "-o", out / "pairings", key)
        yield _command(run, public=True, kind="printout")
        for f in sorted((out / "pairings").glob("*.html")):
            yield Seen(f"{run.line} → {f.name}", f.read_text(encoding="utf-8"), True, kind="printout")
    if body.standings:
        run = day.cli("chess", "post", "--standings", "-o", out / "standings", key)
        yield _command(run, public=True, kind="printout")
        for f in sorted((out / "standings").glob("*.html")):
            yield Seen(f"{run.line} → {f.name}", f.read_text(encoding="utf-8"), True, kind="printout")
    trf = out / f"{key}.trf"
    run = day.cli("chess", "export", "-o", trf, key)
    yield _command(run)
    day_file = day.hall.files.get("chess-day")
    if run.code == 0 and trf.exists() and day_file is not None:
        kinds = (
            ["startlist"]
            + (["pairings"] if body.round else [])
            + (["standings", "crosstable"] if body.standings else [])
        )
        for what in kinds:
            html_file, pdf = out / f"{what}.html", out / f"{what}.pdf"
            run = day.cli("chess", "print", what, trf, "--day", day_file, "--group", key,
                          "--html", html_file, "--pdf", pdf)  # fmt: skip
            yield from _printed(run, html_file, pdf)


def commands(day: Day) -> Iterator[Seen]:
    """The text commands a referee reads: status, every event, every table's timeline, chess."""
    events = day.events()
    for args in (("status",), ("event", "list")):
        yield _command(day.cli(*args))
    for e in events:
        yield _command(day.cli("event", "show", e.key))
        if e.kind == "puzzle-duel":
            yield _command(day.cli("tournament", "show", "-s", e.key))
    for t in sorted(day.sims):
        yield _command(day.cli("table", str(t), "timeline"))
    if any(e.kind == "chess" for e in events):
        yield _command(day.cli("chess", "status"))


def everything(day: Day, screens: Screens | None, step: str, folder: Path) -> list[Seen]:
    """Every surface after ``step``; a surface that cannot be read at all is a problem of its own."""
    seen: list[Seen] = []
    try:
        ended = ended_keys(day.events())
    except Exception:
        return [Seen("duelclock's API: events", "", False, 500, traceback.format_exc()[-1500:])]
    readers: list[tuple[str, Callable[[], Iterable[Seen]]]] = [
        ("the web pages", lambda: web_pages(day, ended)),
        ("publish", lambda: published(day, folder / "publish", ended)),
        ("the printouts", lambda: printouts(day, folder / "print")),
        ("the text commands", lambda: commands(day)),
    ]
    if screens is not None:
        readers.append(("the desk and the audience", lambda: screens.look(day)))
    for name, read in readers:
        t0 = time.monotonic()
        try:
            seen += read()
        except Exception:
            seen.append(Seen(name, "", False, 500, traceback.format_exc()[-1500:]))
        TIMES[name] = TIMES.get(name, 0.0) + time.monotonic() - t0
    return seen
