"""The people tests run the real daemon as the tournament's tests do (``open_desk``)."""

from __future__ import annotations

from tests.tournament.conftest import Buttons, Desk, FakeClock, open_desk  # noqa: F401  (the fixture)
