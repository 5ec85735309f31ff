"""Server-rendered pages: a Jinja2 environment whose every sentence comes from the catalogue.

Templates call ``t("web.…", name=…)`` — the gettext catalogue's code, rendered in the
page's language — so the pages read in Polish by default and in English on request, like
every other part of duelclock. Jinja2 escapes everything it inserts: a name typed as
``<script>`` in a sign-up form is shown, never run.
"""

from __future__ import annotations

import functools
import time
from importlib import resources
from typing import Any

import jinja2

from clockd.i18n import Msg, msg, render
from clockd.i18n.durations import clock_face

LANGS = ("pl", "en")


@functools.cache
def environment() -> jinja2.Environment:
    """The pages' templates, one environment a process: each template is compiled once, on
    first use, however many times the pages are published (nothing changes it once made)."""
    folder = str(resources.files("web").joinpath("templates"))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=jinja2.select_autoescape(["html"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["clock"] = clock_text
    return env


def clock_text(ms: int | None) -> str:
    """Milliseconds as a clock face shows them: ``9:58``, ``1:02:03``; rounded up to the second."""
    if ms is None:
        return "–"
    return ("−" if ms < 0 else "") + clock_face(-(-abs(ms) // 1000))


class Words:
    """``t(code, **params)`` in one language (what templates call), and messages from views."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else "pl"

    def __call__(self, code: str | Msg | dict[str, Any], /, **params: Any) -> str:
        if isinstance(code, str):
            return render(msg(code, **params), self.lang)
        return render(code, self.lang)


def page_context(lang: str, **context: Any) -> dict[str, Any]:
    return {"t": Words(lang), "lang": lang, "rendered_at_ms": time.time_ns() // 1_000_000, **context}
