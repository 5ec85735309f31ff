"""Every message code the program can produce: found in its source, and in its families.

A code is written where the message is raised (``Refused("table.unknown", …)``,
``msg("bracket.no-result", …)``); :func:`source_codes` finds those by reading the code
(its syntax tree: nothing runs). Codes made from a name (``term.phase.{phase}``) are
*families*: :func:`family_codes` lists their members from the enums and registries they
come from. The catalogue must have both languages for all of them; a test holds it to
that (``tests/i18n``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

#: Callables whose first argument (or ``code=``) is a message code.
_CALLERS = {"msg", "Msg", "Problem", "Refused", "render", "text"}
_SUFFIXES = ("Error",)


def _callee(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def _is_code(text: str) -> bool:
    return (
        "." in text
        and " " not in text
        and text == text.strip()
        and not text.startswith(".")
        and len(text) < 100
    )


def codes_in(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if name not in _CALLERS and not name.endswith(_SUFFIXES):
            continue
        args = list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "code"]
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _is_code(arg.value):
                yield arg.value


def source_codes(roots: Iterable[Path]) -> set[str]:
    """Every literal code in the Python files under ``roots``."""
    out: set[str] = set()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            out.update(codes_in(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))
    return out


def family_codes() -> set[str]:
    """The members of every family of codes made from a name."""
    from clockd.core.actions import action_types
    from clockd.core.bracket import MatchStatus
    from clockd.core.clock import Phase
    from clockd.core.hall import TimerPhase
    from clockd.core.program import program_types
    from clockd.core.registration import COLUMN_ALIASES
    from clockd.service.events import event_kinds

    out = {f"term.phase.{p.value}" for p in Phase}
    out |= {f"term.match-status.{s.value}" for s in MatchStatus}
    out |= {f"term.timer-phase.{p.value}" for p in TimerPhase}
    out |= {f"term.action.{name}" for name in action_types()}
    out |= {f"term.program.{kind}" for kind in program_types()}
    out |= {f"term.event-kind.{kind}" for kind in event_kinds()}
    out |= {f"term.weekday.{d}" for d in range(1, 8)}
    out |= {f"term.field.{field}" for field in COLUMN_ALIASES}
    out |= {f"term.stage.of-{n}" for n in (4, 8, 16)}
    out |= {f"api.{code}" for code in _api_codes()}
    out |= set(_field_codes())
    out |= set(ALERT_CODES)
    return out


#: The alerts a table can raise (kept in the journal by code, shown by every client).
ALERT_CODES = ("alert.recovered-running", "alert.recovered-paused", "alert.press-time-uncertain")


def _field_codes() -> set[str]:
    from clockd.core.actions import _FIELD_CODES

    return {*_FIELD_CODES.values(), "field.invalid", "field.problem"}


def _api_codes() -> tuple[str, ...]:
    from clockd.api.messages import ERROR_CODES

    return ERROR_CODES
