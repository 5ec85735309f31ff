"""Argument types shared by the subcommands: numbers a person types, checked once.

Each raises :class:`argparse.ArgumentTypeError` with a sentence naming the bad value;
argparse adds the option's name and exits with status 2.
"""

from __future__ import annotations

import argparse
from decimal import Decimal, InvalidOperation

from clockd import i18n


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(i18n.text("cli.argtypes.is-not-a-whole-number", text=text)) from None


def positive_int(text: str) -> int:
    """A count, a number of seconds or milliseconds that must be at least 1."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(i18n.text("cli.argtypes.must-be-at-least-1-not", value=value))
    return value


def non_negative_int(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(i18n.text("cli.argtypes.must-not-be-negative-not", value=value))
    return value


def positive_seconds(text: str) -> float:
    """A duration in seconds above zero (``"0.5"``, ``"10"``): a timeout."""
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            i18n.text("cli.argtypes.is-not-a-number-of-seconds", text=text)
        ) from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(i18n.text("cli.argtypes.seconds-above-zero", text=text))
    return value


def seconds_to_ms(text: str) -> int:
    """``"-1.5"`` → ``-1500``: exact (no floats), at most millisecond precision.

    The type of every ``±SECONDS`` a referee types (``table T adjust``, ``tournament adjust``).
    """
    not_seconds = i18n.text("cli.argtypes.is-not-a-number-of-seconds", text=text)
    try:
        ms = Decimal(text.strip()) * 1000
    except InvalidOperation:
        raise argparse.ArgumentTypeError(not_seconds) from None
    if not ms.is_finite():
        raise argparse.ArgumentTypeError(not_seconds)
    if ms != ms.to_integral_value():
        raise argparse.ArgumentTypeError(
            i18n.text("cli.argtypes.at-most-three-decimals-milliseconds", text=text)
        )
    if ms == 0:
        raise argparse.ArgumentTypeError(i18n.text("cli.argtypes.adjusting-by-0-seconds-changes-nothing"))
    return int(ms)


def clock_side(text: str) -> str:
    """A clock's side, ``a`` or ``b`` (any case)."""
    side = text.strip().lower()
    if side not in ("a", "b"):
        raise argparse.ArgumentTypeError(i18n.text("cli.table.side-must-be-a-or-b", text=text))
    return side
