"""``duelclock publish DIR``: the public pages as plain files, for the organiser's website.

The same pages as the live ones, built from the same public views (read without the
token: nothing private), without the live stream: ``index.html`` (the day's events), one
file per event (brackets, rankings, pairings, standings), the style sheet, and the same in
English under ``en/``.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path
from typing import Any

from clockd.api import Client, EventStatePush, TableStatePush
from web.hub import EVENTS, Hub, event_topic
from web.pages import Pages
from web.render import environment, page_context


def publish(folder: Path, host: str, port: int, *, tls: Any = None) -> list[Path]:
    """Write every public page under ``folder``; the files written."""
    with Client(host, port, None, tls=tls) as client:  # no token: public views only
        events = client.events().events
        tables = client.status().tables
    hub = Hub(host, port)
    hub.connected = True
    hub.apply([*(EventStatePush(event=e) for e in events), *(TableStatePush(table=t) for t in tables)])
    env = environment()
    pages = Pages(hub, env)
    pages.link = lambda key: f"{key}.html"
    written: list[Path] = []
    for lang, where in (("pl", folder), ("en", folder / "en")):
        where.mkdir(parents=True, exist_ok=True)
        static = "" if lang == "pl" else "../"
        topics = [(EVENTS, "index.html")] + [(event_topic(e.key), f"{e.key}.html") for e in events]
        for topic, name in topics:
            html = env.get_template("page.html").render(
                **page_context(
                    lang,
                    title=pages.title(topic, lang),
                    root="",
                    static=static,
                    static_site=True,
                    fragment=_markup(pages.html(topic, lang, root="")),
                )
            )
            path = where / name
            path.write_text(html, encoding="utf-8")
            written.append(path)
    css = folder / "app.css"
    with resources.as_file(resources.files("web").joinpath("static/app.css")) as source:
        shutil.copyfile(source, css)
    written.append(css)
    return written


def _markup(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)
