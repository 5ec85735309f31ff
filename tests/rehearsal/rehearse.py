"""Play the day's steps and read every surface after each: what went wrong, step by step.

:func:`rehearse` is what the tests call (``test_rehearsal.py``); it never stops at the first
problem: a step whose command fails is recorded and the day goes on, so that one run names
everything it met.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.rehearsal.day import Day, StepFailed
from tests.rehearsal.scenario import Step
from tests.rehearsal.screens import Screens
from tests.rehearsal.surfaces import Problem, everything, problems

#: Problems on a surface that an engineer's item on the way fixes (the first run's findings).
#: Each is (the item, a pattern of the problem's text); docs/rehearsal.md lists them.
KNOWN: tuple[tuple[str, str], ...] = (
    ("walkin", r"na czas"),  # a win on time left is "więcej czasu" (issue 26 item 5)
    ("walkin", r"term\.outcome\."),  # the timeline's raw outcome key (issue 26 item 5)
    ("longname", r"longer than its 33 columns|duelclock's API: events"),  # chess import kills the engine
    ("tables", r"stolik \d+ jest zajęty|przebieg nie kończy pojedynku"),
    ("small", r"switcher.*CSV i HTML są tu"),
    # unowned, found by the rehearsal: `person erase` pushes no event state, so the live pages
    # keep the erased name until the event next changes
    ("erase-push", r"erased person|lag behind the daemon: \['pt'\]"),
)


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)  # new: fail the rehearsal
    awaited: list[tuple[str, Problem]] = field(default_factory=list)  # (item, problem): on the way
    steps: list[str] = field(default_factory=list)

    def unexpected(self) -> list[Problem]:
        return self.problems

    def summary(self) -> str:
        lines = []
        for p in self.problems:
            lines.append(f"NEW  {p}")
        for item, p in self.awaited:
            lines.append(f"({item})  {p}")
        return "\n".join(lines)


def _known(problem: Problem) -> str | None:
    text = str(problem)
    for item, pattern in KNOWN:
        if re.search(pattern, text):
            return item
    return None


def _where(where: str) -> str:
    """A surface's name without what changes from step to step (temporary folders)."""
    return re.sub(r"/\S*/", "…/", where)


def rehearse(day: Day, steps: Sequence[Step], screens: Screens | None, folder: Path) -> Report:
    report = Report()
    seen_before: set[tuple[str, str, str]] = set()
    for step in steps:
        report.steps.append(step.name)
        found: list[Problem] = []
        try:
            step.act(day)
        except StepFailed as exc:
            found.append(Problem(step.name, "the step's commands", "refused or wrong", str(exc)))
        except Exception:
            found.append(
                Problem(step.name, "the step's commands", "traceback", traceback.format_exc()[-1500:])
            )
        for seen in everything(day, screens, step.name, folder / step.name):
            for p in problems(step.name, seen, day):
                key = (_where(p.where), p.what, p.detail)
                if key in seen_before:
                    continue  # the same problem on the same surface: named once, at its first step
                seen_before.add(key)
                found.append(p)
        for p in found:
            item = _known(p) or (step.awaits[0] if step.awaits and p.where == "the step's commands" else None)
            if item is not None:
                report.awaited.append((item, p))
            else:
                report.problems.append(p)
    return report
