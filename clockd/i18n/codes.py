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


_FILE_ENDINGS = frozenset(
    {"json", "csv", "toml", "db", "py", "txt", "html", "pdf", "png", "po", "log", "trf"}
)


def _is_code(text: str) -> bool:
    """Whether a string reads as a message code (``table.unknown``), not a file or a module name."""
    if "." not in text or " " in text or text != text.strip() or len(text) >= 100:
        return False
    if text.startswith(".") or text.endswith(".") or "/" in text:
        return False
    return text.rsplit(".", 1)[1] not in _FILE_ENDINGS


def codes_in(tree: ast.AST, namespaces: frozenset[str] = frozenset()) -> Iterator[str]:
    """Codes in a module: a call's first argument or ``code=``; with ``namespaces``, also any
    other string literal that reads as a code of one of them (``"api.wrong-token" if … else …``)."""
    in_fstrings = {
        id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values
    }
    for node in ast.walk(tree):
        if (
            namespaces
            and id(node) not in in_fstrings
            and isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _is_code(node.value)
            and node.value.split(".", 1)[0] in namespaces
        ):
            yield node.value
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if name not in _CALLERS and not name.endswith(_SUFFIXES):
            continue
        args = list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "code"]
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _is_code(arg.value):
                yield arg.value


def source_codes(roots: Iterable[Path], namespaces: Iterable[str] | None = None) -> set[str]:
    """Every literal code in the Python files under ``roots`` (``namespaces``: default, those
    of the catalogue's codes)."""
    if namespaces is None:
        from clockd.i18n.catalogue import catalogue

        namespaces = {code.split(".", 1)[0] for code in catalogue().entries}
    spaces = frozenset(namespaces)
    out: set[str] = set()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            out.update(codes_in(tree, spaces))
    return out


def _swiss_families() -> set[str]:
    """The Swiss commands' codes named by an enum's member (``Reason.BAD_SEX`` → ``….bad-sex``)."""
    from clockd.core.swiss.results import Issue
    from clockd.core.swiss.startlist import Column, Reason
    from clockd.core.swiss.tiebreaks import EditionBasis

    families = (
        ("swiss.start-row.", Reason),
        ("swiss.results-row.", Issue),
        ("term.swiss-column.", Column),
        ("swiss.edition-basis.", EditionBasis),
    )
    return {f"{f}{m.name.lower().replace('_', '-')}" for f, enum in families for m in enum}


def family_codes() -> set[str]:
    """The members of every family of codes made from a name."""
    from typing import get_args

    import clockd.service.compose  # noqa: F401  (every event kind's entries registered)
    from clockd.core.actions import action_types
    from clockd.core.bracket import DecidedBy, Decision, MatchStatus, OverrideReason
    from clockd.core.clock import Outcome, Phase
    from clockd.core.device import DeviceState
    from clockd.core.duel import DuelOutcome
    from clockd.core.hall import TimerPhase
    from clockd.core.photo import RULE_COLUMNS as PHOTO_RULES
    from clockd.core.program import program_types
    from clockd.core.registration import COLUMN_ALIASES, ListKind, Refusal
    from clockd.core.retention import Step
    from clockd.core.tournament import RoundKind
    from clockd.devices.gpio_config import PIN_ROLES
    from clockd.i18n.catalogue import catalogue
    from clockd.service.events import event_kinds
    from clockd.store.entries import entry_kinds

    out = {f"term.phase.{p.value}" for p in Phase}
    out |= {f"term.match-status.{s.value}" for s in MatchStatus}
    out |= {f"term.timer-phase.{p.value}" for p in TimerPhase}
    out |= {f"term.action.{name}" for name in action_types()}
    out |= {  # an action's help, where it has one (clockd.api.describe: optional)
        f"action-help.{name}" for name in action_types() if f"action-help.{name}" in catalogue()
    }
    out |= {  # a field's help for one action, where it has its own (clockd.api.describe: optional)
        code
        for name, cls in action_types().items()
        for field in cls.model_fields
        if (code := f"field-help.{name}.{field}") in catalogue()
    }
    out |= {  # every action field's help (clockd.api.describe)
        f"field-help.{field}"
        for cls in action_types().values()
        for field in cls.model_fields
        if field not in ("kind", "t_ns")
    }
    out |= {f"term.program.{kind}" for kind in program_types()}
    out |= {f"term.event-kind.{kind}" for kind in event_kinds()}
    out |= {"term.event-kind.quarantined"}  # an event set aside at start (clockd.service.views)
    out |= {f"term.weekday.{d}" for d in range(1, 8)}
    out |= {f"term.field.{field}" for field in COLUMN_ALIASES}
    out |= {f"term.stage.of-{n}" for n in (4, 8, 16)}
    out |= {f"term.decided-by.{d.value}" for d in DecidedBy}
    out |= {f"term.decision.{k}" for k in get_args(Decision.model_fields["kind"].annotation)}
    out |= {f"term.override-category.{c.value}" for c in OverrideReason}
    out |= {f"term.round-kind.{k.value}" for k in RoundKind}
    out |= {"term.seat-rule.reserve", "term.seat-rule.walk-in"}  # SeatChange.rule's first word
    out |= _swiss_families()
    out |= {f"chess.phase.{p}" for p in ("start-list", "playing", "between-rounds", "finished")}
    out |= {f"term.outcome.{o.value}" for o in DuelOutcome} | {f"term.outcome.{o.value}" for o in Outcome}
    out |= {f"term.outcome.{o}" for cls in program_types().values() for o in cls.outcomes}
    ours = {kind for kind, cls in entry_kinds().items() if cls.__module__.startswith("clockd.")}
    out |= {f"term.entry.{kind}" for kind in ours - set(action_types())}
    out |= {f"term.device.{d.value}" for d in DeviceState}
    out |= {f"term.pin-role.{role}" for role in PIN_ROLES}
    out |= {f"term.list.{k.value}" for k in ListKind}
    out |= {f"term.refusal.{r}" for r in get_args(Refusal.model_fields["reason"].annotation)}
    out |= {f"term.session-stage.{s}" for s in ("registration", "draw", "bracket", "finished")}
    out |= {f"photo.rule.{rule}" for rule, _ in PHOTO_RULES}
    out |= {f"cli.person.retention-why.{why}" for why in get_args(Step.model_fields["why"].annotation)}
    out |= {f"cli.person.retention-how.{how}" for how in get_args(Step.model_fields["how"].annotation)}
    out |= {"timeline.clock-not-started", "timeline.clock-paused"}
    out |= {"cli.status.command-sent", "cli.status.command-not-delivered"}  # a node command's outcome
    out |= {f"api.{code}" for code in _api_codes()}
    out |= set(_field_codes())
    out |= set(ALERT_CODES)
    return out


#: The alerts a table can raise (kept in the journal by code, shown by every client).
ALERT_CODES = (
    "alert.recovered-running",
    "alert.recovered-paused",
    "alert.press-time-uncertain",
    "alert.event-recovered-running",
    "alert.event-recovered-paused",
)


def _field_codes() -> set[str]:
    from clockd.core.actions import _FIELD_CODES

    return {*_FIELD_CODES.values(), "field.invalid", "field.problem"}


def _api_codes() -> tuple[str, ...]:
    from clockd.api.messages import ERROR_CODES

    return ERROR_CODES
