"""Faults a simulated serial clock can inject on its link.

Per-frame faults are chances, drawn from the clock's seeded ``random.Random`` so a seed
replays the same run. They apply to frames the device sends and, where it makes sense,
to frames it receives (a lost ACK matters as much as a lost press):

* ``garbage`` — random bytes (line noise, a bootloader's banner) before a frame sent;
* ``corrupt`` — one bit flipped in a frame, either direction (the CRC must catch it);
* ``drop`` — a frame lost, either direction;
* ``duplicate`` — a frame sent twice;
* ``ack_delay_ns`` — ACKs reach the device this much later (a slow host or a full buffer).

Unplugging and rebooting are events, not chances: see ``SimulatedSerialClock.unplug``,
``replug`` and ``reboot``, and :func:`parse_fault_names` for the command line's presets.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

#: the names ``duelclock sim serial --faults`` accepts
FAULT_NAMES = ("unplug", "garbage", "corrupt", "drop", "dup", "delay", "reboot")


@dataclass(frozen=True)
class Faults:
    garbage: float = 0.0
    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    ack_delay_ns: int = 0

    def __post_init__(self) -> None:
        for name in ("garbage", "corrupt", "drop", "duplicate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fault chance {name}={value} is not between 0 and 1")
        if self.ack_delay_ns < 0:
            raise ValueError(f"ack_delay_ns={self.ack_delay_ns} is negative")

    @property
    def any(self) -> bool:
        return bool(self.garbage or self.corrupt or self.drop or self.duplicate or self.ack_delay_ns)

    def outgoing(self, frame: bytes, rng: random.Random) -> bytes:
        """What actually leaves the device for ``frame`` (possibly nothing, or more)."""
        if not self.any:
            return frame
        out = b""
        if self.garbage and rng.random() < self.garbage:
            out += rng.randbytes(rng.randint(1, 24))
        if self.drop and rng.random() < self.drop:
            return out
        if self.corrupt and rng.random() < self.corrupt:
            frame = flip_bit(frame, rng)
        out += frame
        if self.duplicate and rng.random() < self.duplicate:
            out += frame
        return out

    def incoming_lost(self, rng: random.Random) -> bool:
        """Is a frame the host sent lost (dropped, or corrupted so the CRC rejects it)?"""
        lost = self.drop + self.corrupt
        return bool(lost) and rng.random() < lost


def flip_bit(frame: bytes, rng: random.Random) -> bytes:
    """``frame`` with one bit flipped somewhere between its delimiters."""
    if len(frame) <= 2:
        return frame
    i = rng.randrange(1, len(frame) - 1)
    out = bytearray(frame)
    out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def parse_fault_names(text: str | Iterable[str]) -> set[str]:
    """``"unplug,garbage,dup"`` → the set of names; raises ``ValueError`` naming an unknown one."""
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    names = [n for n in names if n]
    unknown = [n for n in names if n not in FAULT_NAMES]
    if unknown:
        raise ValueError(f"unknown fault {unknown[0]!r}; choose from {', '.join(FAULT_NAMES)}")
    return set(names)


def preset(names: set[str], *, rate: float = 0.05, ack_delay_ns: int = 150_000_000) -> Faults:
    """The per-frame faults the named presets switch on (``unplug``/``reboot`` are events)."""
    return Faults(
        garbage=rate if "garbage" in names else 0.0,
        corrupt=rate if "corrupt" in names else 0.0,
        drop=rate if "drop" in names else 0.0,
        duplicate=rate if "dup" in names else 0.0,
        ack_delay_ns=ack_delay_ns if "delay" in names else 0,
    )
