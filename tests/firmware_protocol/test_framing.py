"""COBS and CRC-16, against published examples and independent references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_protocol.framing import CobsError, cobs_decode, cobs_encode, crc16

VECTORS = json.loads((Path(__file__).parents[2] / "firmware_protocol" / "vectors.json").read_text("utf-8"))


def crc16_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE as the SPEC writes it out for firmware authors, bit by bit."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


@pytest.mark.parametrize("case", VECTORS["crc16_ccitt_false"], ids=lambda c: c.get("ascii", c.get("hex")))
def test_crc_check_values(case: dict[str, str]) -> None:
    data = case["ascii"].encode() if "ascii" in case else bytes.fromhex(case["hex"])
    assert crc16(data) == crc16_bitwise(data) == int(case["crc"], 16)


@given(st.binary(max_size=300))
def test_crc_matches_the_bitwise_reference_and_checks_to_zero(data: bytes) -> None:
    crc = crc16(data)
    assert crc == crc16_bitwise(data)
    assert crc16(data + crc.to_bytes(2, "big")) == 0  # what the receiver checks


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["encoded"][:12])
def test_cobs_published_examples(case: dict[str, str]) -> None:
    decoded, encoded = bytes.fromhex(case["decoded"]), bytes.fromhex(case["encoded"])
    assert cobs_encode(decoded) == encoded
    assert cobs_decode(encoded) == decoded


@given(st.binary(max_size=1200))
def test_cobs_round_trips_without_zeros_at_a_fixed_overhead(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize(
    ("encoded", "problem"),
    [(b"\x03\x11\x00", "zero byte at position 2"), (b"\x05\x11\x22", "claims 4 bytes but only 2 follow")],
)
def test_cobs_decode_says_what_is_wrong_and_where(encoded: bytes, problem: str) -> None:
    with pytest.raises(CobsError, match=problem):
        cobs_decode(encoded)
