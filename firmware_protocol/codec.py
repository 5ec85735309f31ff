"""Messages ⇄ bytes.

A payload is one type byte followed by the message's fields in the order of
:data:`LAYOUTS`, integers little-endian (the byte order of every microcontroller a clock
is likely to run on), strings as a length byte and UTF-8. A receiver reads the fields it
knows and ignores any bytes after them: a later minor version may append fields to a
message without breaking older hosts and devices. HELLO's ``held`` list (1.1) is such a
field, and *optional* besides: a count byte and 20 bytes per epoch, left out when empty
(so a 1.1 HELLO with nothing held is a 1.0 HELLO but for its version byte).

:func:`encode` gives the bytes to write for a message; :class:`MessageParser` turns a byte
stream into messages, :class:`~firmware_protocol.messages.Unknown` results and
:class:`~firmware_protocol.framing.FrameError` results. It never raises on any input.
"""

from __future__ import annotations

import struct
from typing import Any

from pydantic import ValidationError

from firmware_protocol.framing import FrameError, FrameErrorKind, FrameParser, encode_frame
from firmware_protocol.messages import (
    BY_CODE,
    Ack,
    BeepPattern,
    Capability,
    Heartbeat,
    HeldEpoch,
    Hello,
    HelloAck,
    Reject,
    RejectReason,
    Set,
    Sync,
    Unknown,
    WireBeep,
    WireDelayMode,
    WireMessage,
    WirePress,
    WireShow,
    WireSide,
    WireStatus,
    _Message,
)

# -- field kinds: how each is written ------------------------------------------------------
# Integers: struct format. Enumerations: a byte, through a table. Strings: "str8".

_SIDE = {WireSide.A: 1, WireSide.B: 2}
_SIDE_OR_NONE: dict[WireSide | None, int] = {None: 0, WireSide.A: 1, WireSide.B: 2}
_BEEP = {BeepPattern.SHORT: 1, BeepPattern.FLAG: 2, BeepPattern.TIE: 3, BeepPattern.CHANGE: 4}
_DELAY = {WireDelayMode.NONE: 0, WireDelayMode.BRONSTEIN: 1, WireDelayMode.SIMPLE: 2}
_REASON = {RejectReason.VERSION: 1, RejectReason.WRONG_DEVICE: 2, RejectReason.OTHER: 3}
_CAPABILITY_BIT = {
    Capability.DISPLAY: 0,
    Capability.BEEP: 1,
    Capability.TEXT: 2,
    Capability.KEEPS_TIME: 3,
    Capability.BATTERY: 4,
}
_LOW_BATTERY = 0x01

_ENUMS: dict[str, dict[Any, int]] = {
    "side": _SIDE,
    "side0": _SIDE_OR_NONE,  # a side, or 0 for "none"
    "beep": _BEEP,
    "delay": _DELAY,
    "reason": _REASON,
}
_FORMAT = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}
#: one entry of HELLO's ``held`` list: boot_id u32, acked_seq u32, last_seq u32, last_t_us u64
_HELD = struct.Struct("<IIIQ")

#: Every message's fields, in wire order, with their kind (SPEC.md has the same tables).
LAYOUTS: dict[type[_Message], tuple[tuple[str, str], ...]] = {
    Hello: (
        ("major", "u8"),
        ("minor", "u8"),
        ("boot_id", "u32"),
        ("t_us", "u64"),
        ("acked_seq", "u32"),
        ("heartbeat_ms", "u16"),
        ("capabilities", "caps16"),
        ("device_id", "str8"),
        ("firmware", "str8"),
        ("held", "held8"),  # optional: absent means none (1.1)
    ),
    WirePress: (("boot_id", "u32"), ("seq", "u32"), ("side", "side"), ("t_us", "u64")),
    WireStatus: (
        ("boot_id", "u32"),
        ("t_us", "u64"),
        ("remaining_ms_a", "u32"),
        ("remaining_ms_b", "u32"),
        ("running", "side0"),
        ("low_battery", "flags8"),
        ("text", "str8"),
    ),
    Heartbeat: (("boot_id", "u32"), ("t_us", "u64"), ("acked_seq", "u32"), ("last_seq", "u32")),
    Sync: (("major", "u8"), ("minor", "u8")),
    HelloAck: (("major", "u8"), ("minor", "u8"), ("boot_id", "u32")),
    Ack: (("boot_id", "u32"), ("seq", "u32")),
    WireShow: (("remaining_ms_a", "u32"), ("remaining_ms_b", "u32"), ("running", "side0"), ("text", "str8")),
    WireBeep: (("pattern", "beep"),),
    Set: (
        ("initial_ms_a", "u32"),
        ("initial_ms_b", "u32"),
        ("increment_ms", "u32"),
        ("delay_ms", "u32"),
        ("delay_mode", "delay"),
    ),
    Reject: (("reason", "reason"), ("major", "u8"), ("minor", "u8"), ("text", "str8")),
}


class MalformedError(ValueError):
    """A payload of a known type whose body cannot be read; the message says which field."""


# -- compiled codecs ------------------------------------------------------------------------
# Each layout becomes runs of fixed-size fields (one struct.Struct each) and strings.


def _struct_char(kind: str) -> str:
    if kind in _FORMAT:
        return _FORMAT[kind]
    if kind in _ENUMS or kind == "flags8":
        return "B"
    if kind == "caps16":
        return "H"
    raise AssertionError(kind)


class _Codec:
    __slots__ = ("cls", "code", "segments")

    def __init__(self, cls: type[_Message], layout: tuple[tuple[str, str], ...]) -> None:
        self.cls = cls
        self.code = cls.CODE
        # segments: ("struct", Struct, [(name, kind)...]), ("str8", name) or ("held8", name)
        self.segments: list[tuple[str, Any, Any]] = []
        run: list[tuple[str, str]] = []
        for name, kind in layout:
            if kind in ("str8", "held8"):
                self._close(run)
                run = []
                self.segments.append((kind, name, None))
            else:
                run.append((name, kind))
        self._close(run)
        assert all(seg != "held8" for seg, _, _ in self.segments[:-1]), "an optional field comes last"

    def _close(self, run: list[tuple[str, str]]) -> None:
        if run:
            fmt = struct.Struct("<" + "".join(_struct_char(k) for _, k in run))
            self.segments.append(("struct", fmt, tuple(run)))

    def encode(self, msg: _Message) -> bytes:
        out = bytearray((self.code,))
        for seg, a, b in self.segments:
            if seg == "held8":
                held: tuple[HeldEpoch, ...] = getattr(msg, a)
                if held:  # optional and last: left out when empty
                    out.append(len(held))
                    for h in held:
                        out += _HELD.pack(h.boot_id, h.acked_seq, h.last_seq, h.last_t_us)
            elif seg == "str8":
                raw = getattr(msg, a).encode("utf-8")
                out.append(len(raw))
                out += raw
            else:
                out += a.pack(*(_to_wire(kind, getattr(msg, name)) for name, kind in b))
        return bytes(out)

    def decode(self, payload: bytes) -> _Message:
        fields: dict[str, Any] = {}
        pos = 1
        n = len(payload)
        for seg, a, b in self.segments:
            if seg == "held8":
                fields[a], pos = self._decode_held(payload, pos, a)
            elif seg == "str8":
                if pos >= n:
                    raise MalformedError(f"{self.cls.NAME}: body ends before field {a!r}")
                size = payload[pos]
                end = pos + 1 + size
                if end > n:
                    raise MalformedError(
                        f"{self.cls.NAME}: field {a!r} claims {size} bytes, {n - pos - 1} remain"
                    )
                try:
                    fields[a] = payload[pos + 1 : end].decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise MalformedError(
                        f"{self.cls.NAME}: field {a!r} is not UTF-8 ({exc.reason})"
                    ) from None
                pos = end
            else:
                if pos + a.size > n:
                    missing = _field_cut_at(b, n - pos)
                    raise MalformedError(
                        f"{self.cls.NAME}: body is {n - 1} bytes, too short for field {missing!r}"
                    )
                for (name, kind), value in zip(b, a.unpack_from(payload, pos), strict=True):
                    fields[name] = _from_wire(self.cls, name, kind, value)
                pos += a.size
        try:
            return self.cls(**fields)
        except ValidationError as exc:
            raise MalformedError(f"{self.cls.NAME}: {_first_error(exc)}") from None

    def _decode_held(self, payload: bytes, pos: int, name: str) -> tuple[tuple[HeldEpoch, ...], int]:
        n = len(payload)
        if pos >= n:
            return (), pos  # absent: nothing held (and a 1.0 sender never writes it)
        count = payload[pos]
        end = pos + 1 + count * _HELD.size
        if end > n:
            raise MalformedError(
                f"{self.cls.NAME}: field {name!r} claims {count} epochs "
                f"({count * _HELD.size} bytes), {n - pos - 1} remain"
            )
        held = []
        for i in range(count):
            boot_id, acked, last, last_t_us = _HELD.unpack_from(payload, pos + 1 + i * _HELD.size)
            try:
                held.append(HeldEpoch(boot_id=boot_id, acked_seq=acked, last_seq=last, last_t_us=last_t_us))
            except ValidationError as exc:
                raise MalformedError(
                    f"{self.cls.NAME}: field {name!r}, epoch {i + 1}: {_first_error(exc, False)}"
                ) from None
        return tuple(held), end


def _field_cut_at(run: tuple[tuple[str, str], ...], available: int) -> str:
    """The first field of ``run`` that does not fit in ``available`` bytes."""
    end = 0
    for name, kind in run:
        end += struct.calcsize("<" + _struct_char(kind))
        if end > available:
            return name
    raise AssertionError("the run fits")


def _to_wire(kind: str, value: Any) -> int:
    table = _ENUMS.get(kind)
    if table is not None:
        return table[value]
    if kind == "caps16":
        return sum(1 << _CAPABILITY_BIT[c] for c in value)
    if kind == "flags8":
        return _LOW_BATTERY if value else 0
    return int(value)


_FROM_WIRE: dict[str, dict[int, Any]] = {k: {v: e for e, v in t.items()} for k, t in _ENUMS.items()}


def _from_wire(cls: type[_Message], name: str, kind: str, value: int) -> Any:
    table = _FROM_WIRE.get(kind)
    if table is not None:
        if value not in table:
            raise MalformedError(f"{cls.NAME}: field {name!r} has no value {value}")
        return table[value]
    if kind == "caps16":
        # bits a newer minor version defines are ignored
        return frozenset(c for c, bit in _CAPABILITY_BIT.items() if value >> bit & 1)
    if kind == "flags8":
        return bool(value & _LOW_BATTERY)
    return value


def _first_error(exc: ValidationError, name_field: bool = True) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    if not where or not name_field:
        return str(err["msg"])
    return f"field {where!r}: {err['msg']}"


_CODECS: dict[int, _Codec] = {cls.CODE: _Codec(cls, layout) for cls, layout in LAYOUTS.items()}
_BY_CLASS: dict[type[_Message], _Codec] = {c.cls: c for c in _CODECS.values()}
assert set(_CODECS) == set(BY_CODE)


# -- public API -----------------------------------------------------------------------------


def encode_payload(msg: WireMessage | Unknown) -> bytes:
    """The payload (type byte + body) of ``msg``."""
    if isinstance(msg, Unknown):
        if msg.code in BY_CODE or msg.code == 0:
            raise ValueError(f"code {msg.code:#04x} is not an unknown message type")
        try:
            body = bytes.fromhex(msg.body_hex)
        except ValueError:
            raise ValueError(f"body_hex {msg.body_hex!r} is not hexadecimal") from None
        return bytes((msg.code,)) + body
    return _BY_CLASS[type(msg)].encode(msg)


def encode(msg: WireMessage | Unknown) -> bytes:
    """The bytes to write for ``msg``: one whole frame, delimiters included."""
    return encode_frame(encode_payload(msg))


def decode_payload(payload: bytes) -> WireMessage | Unknown:
    """The message in ``payload``. Raises :class:`MalformedError` for an unreadable body."""
    if not payload:
        raise MalformedError("empty payload")
    codec = _CODECS.get(payload[0])
    if codec is None:
        return Unknown(code=payload[0], body_hex=payload[1:].hex())
    msg = codec.decode(payload)
    return msg  # type: ignore[return-value]


Decoded = WireMessage | Unknown | FrameError


class MessageParser:
    """Bytes in any chunking → messages, unknown messages and frame errors, in stream order.

    ``feed`` never raises: whatever arrives is either a message or a typed result that
    says what was wrong and at which byte of the stream.
    """

    __slots__ = ("_frames",)

    def __init__(self) -> None:
        self._frames = FrameParser()

    def reset(self) -> None:
        self._frames.reset()

    def feed(self, data: bytes) -> list[Decoded]:
        return [item for _, item in self.feed_located(data)]

    def feed_located(self, data: bytes) -> list[tuple[int, Decoded]]:
        """Like :meth:`feed`, with each result's stream offset (its frame's first byte)."""
        out: list[tuple[int, Decoded]] = []
        for offset, item in self._frames.feed(data):
            if isinstance(item, FrameError):
                out.append((offset, item))
                continue
            try:
                out.append((offset, decode_payload(item)))
            except MalformedError as exc:
                error = FrameError(FrameErrorKind.MALFORMED, str(exc), offset, encode_frame(item)[1:-1])
                out.append((offset, error))
        return out


def decoded_to_json(item: Decoded) -> dict[str, Any]:
    """One line of ``duelclock protocol decode``'s output."""
    if isinstance(item, FrameError):
        return {
            "error": item.kind.value,
            "offset": item.offset,
            "detail": item.detail,
            "frame_hex": item.frame.hex(),
        }
    return item.to_json()
