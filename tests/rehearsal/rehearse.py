"""Play the day's steps and read every surface after each: what went wrong, step by step.

:func:`rehearse` is what the tests call (``test_rehearsal.py``); it never stops at the first
problem: a step whose command fails is recorded and the day goes on, so that one run names
everything it met. After each step it asks the daemon what changed (each event's and each
table's digest, :class:`~tests.rehearsal.surfaces.Changed`) and reads the surfaces drawn from
that; a surface whose text was checked before, against the same secrets, is not checked again.
"""

from __future__ import annotations

import contextlib
import re
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.rehearsal.day import Day, Fingerprints, StepFailed
from tests.rehearsal.scenario import Step
from tests.rehearsal.screens import Screens
from tests.rehearsal.surfaces import Changed, Problem, everything, problems


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)  # each fails the rehearsal
    steps: list[str] = field(default_factory=list)
    timings: list[tuple[str, float, float]] = field(default_factory=list)  # step, its own s, reading s

    def summary(self) -> str:
        lines = [str(p) for p in self.problems]
        lines += [f"{name:20} {own:5.1f} s, surfaces {reading:5.1f} s" for name, own, reading in self.timings]
        return "\n".join(lines)


def _where(where: str) -> str:
    """A surface's name without what changes from step to step (temporary folders)."""
    return re.sub(r"/\S*/", "…/", where)


def rehearse(day: Day, steps: Sequence[Step], screens: Screens | None, folder: Path) -> Report:
    report = Report()
    seen_before: set[tuple[str, str, str]] = set()
    checked: set[tuple[str, int, bool, int, int]] = set()  # surfaces read already, as they were
    before = Fingerprints()
    for step in steps:
        report.steps.append(step.name)
        found: list[Problem] = []
        t0 = time.monotonic()
        try:
            step.act(day)
        except StepFailed as exc:
            found.append(Problem(step.name, "the step's commands", "refused or wrong", str(exc)))
        except Exception:
            found.append(
                Problem(step.name, "the step's commands", "traceback", traceback.format_exc()[-1500:])
            )
        t1 = time.monotonic()
        events: list[Any] | None = None
        changed: Changed | None = None  # the daemon cannot say: read everything, and see why
        with contextlib.suppress(Exception):
            events = day.events()
            after = day.fingerprints(events)
            changed, before = Changed.between(before, after, day.hall.served), after
        for seen in everything(day, screens, step.name, folder / step.name, changed, events):
            same = (seen.where, hash(seen.text), seen.ended, len(day.hall.private), len(day.hall.erased))
            if same in checked and seen.status < 400 and not seen.traceback:
                continue  # the very text checked before, against the same secrets
            checked.add(same)
            for p in problems(step.name, seen, day):
                key = (_where(p.where), p.what, p.detail)
                if key in seen_before:
                    continue  # the same problem on the same surface: named once, at its first step
                seen_before.add(key)
                found.append(p)
        report.timings.append((step.name, t1 - t0, time.monotonic() - t1))
        report.problems += found
    return report
