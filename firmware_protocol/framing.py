"""Frames on the wire: COBS-encoded payload + CRC-16, between 0x00 delimiters.

A frame is ``00 | COBS(payload ‖ crc16_be(payload)) | 00``. COBS (Consistent Overhead Byte
Stuffing) removes every zero from the encoded bytes, so 0x00 can only ever mean "frame
boundary": a receiver that starts listening mid-stream, or that just read line noise,
resynchronises at the next zero byte without any escape-state to get wrong. COBS costs
exactly one byte per 254 (one byte for every frame we send), where SLIP's escaping costs
up to 100 % for unlucky payloads — fixed overhead makes the wire budget computable.
The leading delimiter lets a frame survive garbage that arrived just before it.

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor;
check value 0x29B1 for ``b"123456789"``), appended most significant byte first, so the
CRC of a whole good ``payload ‖ crc`` is zero. It is what :func:`binascii.crc_hqx`
computes, and a few lines of C on a microcontroller.

:class:`FrameParser` takes bytes in any chunking and returns, per frame, either the
decoded payload or a typed :class:`FrameError`. It never raises on any input.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

DELIMITER = 0x00
#: The longest payload (message type + body) a frame may carry.
MAX_PAYLOAD = 250
#: The longest COBS-encoded frame between two delimiters: payload + 2 CRC bytes + 1 COBS code
#: byte (no payload is long enough to need a second code byte for a 254-byte run).
MAX_ENCODED = MAX_PAYLOAD + 2 + 1


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data``: the result contains no zero byte and is one byte longer per 254.

    Each block is a code byte ``c`` followed by ``c - 1`` data bytes; a block with
    ``c < 0xFF`` stands for those bytes and then a zero (dropped after the last block).
    """
    out = bytearray(b"\x00")  # placeholder for the first code byte
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte:
            out.append(byte)
            code += 1
            if code < 0xFF:
                continue
            if i == last:
                break  # a full block ends the data: no empty block after it
        out[code_at] = code  # a zero, or a full 254-byte block: close the block
        code = 1
        code_at = len(out)
        out.append(0)
    out[code_at] = code
    return bytes(out)


class CobsError(ValueError):
    """Bytes that are not a valid COBS encoding."""


def cobs_decode(data: bytes) -> bytes:
    """Decode one COBS block sequence (without delimiters). Raises :class:`CobsError`."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError(f"zero byte at position {i} inside a frame")
        end = i + code
        if end > n:
            raise CobsError(f"block at position {i} claims {code - 1} bytes but only {n - i - 1} follow")
        block = data[i + 1 : end]
        if 0 in block:
            raise CobsError(f"zero byte at position {i + 1 + block.index(0)} inside a frame")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    """The bytes to write for ``payload``: ``00 COBS(payload ‖ crc) 00``."""
    if not 1 <= len(payload) <= MAX_PAYLOAD:
        raise ValueError(f"a payload has 1 to {MAX_PAYLOAD} bytes, not {len(payload)}")
    crc = crc16(payload)
    return b"\x00" + cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


class FrameErrorKind(StrEnum):
    BAD_COBS = "bad-cobs"  # the bytes between two delimiters are not valid COBS
    BAD_CRC = "bad-crc"  # the checksum does not match: a corrupted frame (or line noise)
    TOO_SHORT = "too-short"  # fewer than 3 bytes: no room for a type and a CRC
    TOO_LONG = "too-long"  # more than MAX_ENCODED bytes without a delimiter
    MALFORMED = "malformed"  # a good frame whose known message body cannot be read


@dataclass(frozen=True, slots=True)
class FrameError:
    """Something between two delimiters that is not a message, and where it was.

    ``offset`` counts bytes from the start of the stream fed to the parser (the byte
    after the opening delimiter); ``frame`` is the encoded bytes (at most the first 64).
    ``detail`` is an English sentence; a ``malformed`` frame also has it as ``code`` and
    ``params``, to be rendered in the reader's language.
    """

    kind: FrameErrorKind
    detail: str
    offset: int
    frame: bytes = b""
    #: a ``malformed`` frame's problem as data (:mod:`firmware_protocol.errors`): ``wire.no-value`` …
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.kind.value} at byte {self.offset}: {self.detail}"


def unframe(encoded: bytes, offset: int = 0) -> bytes | FrameError:
    """The payload inside one encoded frame (delimiters stripped), or why there is none."""
    if len(encoded) > MAX_ENCODED:
        return FrameError(
            FrameErrorKind.TOO_LONG,
            f"{len(encoded)} bytes without a delimiter (at most {MAX_ENCODED})",
            offset,
            encoded[:64],
        )
    try:
        raw = cobs_decode(encoded)
    except CobsError as exc:
        return FrameError(FrameErrorKind.BAD_COBS, str(exc), offset, encoded[:64])
    if len(raw) < 3:
        return FrameError(
            FrameErrorKind.TOO_SHORT, f"{len(raw)} decoded bytes; a frame has at least 3", offset, encoded
        )
    if crc16(raw) != 0:  # the CRC of payload ‖ crc is zero exactly when the CRC matches
        want = crc16(raw[:-2])
        got = int.from_bytes(raw[-2:], "big")
        return FrameError(
            FrameErrorKind.BAD_CRC, f"CRC is {got:#06x}, the payload's is {want:#06x}", offset, encoded[:64]
        )
    return raw[:-2]


class FrameParser:
    """Splits a byte stream into frames, whatever the chunking of the reads.

    ``feed`` returns ``(offset, payload_or_error)`` for every frame the new bytes complete.
    Empty frames (two delimiters in a row — every frame starts and ends with one) are
    not reported. A run of more than ``MAX_ENCODED`` bytes without a delimiter is reported
    once, as ``too-long``, when its delimiter finally arrives; its bytes are not kept.
    """

    __slots__ = ("_buf", "_consumed", "_overflow", "_start")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._consumed = 0  # stream bytes fed before the current chunk
        self._start = 0  # stream offset of the first byte of the frame being collected
        self._overflow = 0  # bytes of the current frame dropped for length

    def reset(self) -> None:
        """Forget a partial frame (e.g. after reopening the port)."""
        self._buf.clear()
        self._overflow = 0

    def feed(self, data: bytes) -> list[tuple[int, bytes | FrameError]]:
        out: list[tuple[int, bytes | FrameError]] = []
        base = self._consumed
        pos = 0
        n = len(data)
        while pos <= n:
            zero = data.find(b"\x00", pos)
            end = n if zero < 0 else zero
            if end > pos:
                if not self._buf and not self._overflow:
                    self._start = base + pos
                    if zero >= 0:  # a whole frame inside this chunk: no copy into the buffer
                        out.append((self._start, unframe(bytes(data[pos:zero]), self._start)))
                        pos = zero + 1
                        continue
                self._append(data[pos:end])
            if zero < 0:
                break
            self._finish(out)
            pos = zero + 1
        self._consumed = base + n
        return out

    def _append(self, chunk: bytes) -> None:
        if self._overflow:
            self._overflow += len(chunk)
            return
        self._buf += chunk
        if len(self._buf) > MAX_ENCODED:
            self._overflow = len(self._buf)
            self._buf.clear()

    def _finish(self, out: list[tuple[int, bytes | FrameError]]) -> None:
        if self._overflow:
            error = FrameError(
                FrameErrorKind.TOO_LONG,
                f"{self._overflow} bytes without a delimiter (at most {MAX_ENCODED})",
                self._start,
            )
            out.append((self._start, error))
            self._overflow = 0
        elif self._buf:
            out.append((self._start, unframe(bytes(self._buf), self._start)))
            self._buf.clear()
